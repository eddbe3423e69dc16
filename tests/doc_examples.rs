//! The docs (README.md and docs/*.md) checked: their examples run as they are, their output
//! compared, so that no doc shows a command or an output the tool no longer has; their links
//! lead to files and headings that exist; they name no path outside the repository and no
//! commit.
//!
//! A fenced block of language `console` is a transcript: a line `$ COMMAND` (continued by lines
//! after a trailing `\`) is run by `sh -c` with the built `sudoku-bulk` first on `PATH`, in a
//! directory of the doc file's own (every command of one file runs in the same one, in order, so
//! a later command reads what an earlier one wrote), where `data` leads to the repository's
//! `data/`. The lines up to the next `$` line are what it prints: its standard output, then its
//! standard error. In them a line `...` stands for any number of lines, and `[..]` for any text
//! within a line (timings, rates). A line `? N` right after the command is the exit code it must
//! give (0 when there is none). Blocks of any other language (`sh`, `python`, plain) are not run.
//!
//! With `SUDOKU_BULK_DOCS=bless`, an example whose output differs has its shown output replaced
//! by what the command printed (timings made `[..]`); read the change before committing it.

use crate::workdir::BIN;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One `$` line of a doc, with what it must print.
struct Example {
    /// 1-based line of the `$` in the doc.
    line: usize,
    command: String,
    code: i32,
    /// The shown lines (0-based range in the doc's lines).
    shown: std::ops::Range<usize>,
}

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every `.md` file of docs/.
fn doc_files() -> Vec<PathBuf> {
    let root = repository();
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The `console` examples of a doc's lines.
fn examples(lines: &[&str]) -> Vec<Example> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_start();
        if !fence.starts_with("```") {
            i += 1;
            continue;
        }
        let console = fence.trim_start_matches('`').trim() == "console";
        i += 1;
        let start = i;
        while i < lines.len() && !lines[i].trim_start().starts_with("```") {
            i += 1;
        }
        let end = i;
        i += 1;
        if !console {
            continue;
        }
        let mut j = start;
        while j < end {
            let Some(first) = lines[j].strip_prefix("$ ") else {
                panic!("line {}: a console block must start with a `$` line", j + 1);
            };
            let line = j + 1;
            let mut command = first.to_string();
            j += 1;
            while command.ends_with('\\') && j < end {
                command.push('\n');
                command.push_str(lines[j]);
                j += 1;
            }
            let mut code = 0;
            if let Some(c) = lines
                .get(j)
                .filter(|_| j < end)
                .and_then(|l| l.strip_prefix("? "))
            {
                code = c.trim().parse().expect("`? N`: an exit code");
                j += 1;
            }
            let from = j;
            while j < end && !lines[j].starts_with("$ ") {
                j += 1;
            }
            found.push(Example {
                line,
                command,
                code,
                shown: from..j,
            });
        }
    }
    found
}

/// Whether `actual` matches one shown line, where `[..]` is any text.
fn line_matches(shown: &str, actual: &str) -> bool {
    let mut parts = shown.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether the shown lines match the printed ones, `...` standing for any number of lines.
fn matches(shown: &[&str], actual: &[&str]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|k| matches(rest, &actual[k..])),
        Some((line, rest)) => {
            !actual.is_empty() && line_matches(line, actual[0]) && matches(rest, &actual[1..])
        }
    }
}

/// A printed output as it would be shown: the time and rate of a summary line (`... in 0.02 s
/// (18202 puzzles/s) ...`), which change from run to run, made `[..]`.
fn as_shown(printed: &str) -> String {
    let mut out = String::new();
    for line in printed.lines() {
        let rate = line.find(" puzzles/s)");
        match rate.and_then(|rate| Some((rate, line[..rate].rfind(" in ")?))) {
            Some((rate, time)) => {
                out.push_str(&line[..time]);
                out.push_str(" in [..] s ([..]");
                out.push_str(&line[rate..]);
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

fn run(example: &Example, dir: &Path) -> (i32, String) {
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Command::new("sh")
        .arg("-c")
        .arg(&example.command)
        .current_dir(dir)
        .env("PATH", path)
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    let mut printed = String::from_utf8_lossy(&output.stdout).into_owned();
    printed.push_str(&String::from_utf8_lossy(&output.stderr));
    (output.status.code().unwrap_or(-1), printed)
}

/// Every `$` line of README.md and docs/*.md runs and prints what the doc shows after it.
/// Commands run on `data/` (linked into the doc's directory) or files that earlier commands of
/// the same doc made; the doc's commands that cannot run here (installing, a cluster, Python)
/// are in `sh` or `python` blocks.
#[test]
fn examples_in_the_docs_run_and_print_what_they_show() {
    let bless = std::env::var("SUDOKU_BULK_DOCS").is_ok_and(|v| v == "bless");
    let mut failures = Vec::new();
    let mut count = 0;
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let found = examples(&lines);
        if found.is_empty() {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(repository().join("data"), dir.path().join("data")).unwrap();
        let mut replaced: Vec<(std::ops::Range<usize>, String)> = Vec::new();
        for example in &found {
            count += 1;
            let (code, printed) = run(example, dir.path());
            let shown = &lines[example.shown.clone()];
            let printed_lines: Vec<&str> = printed.lines().collect();
            if code != example.code || !matches(shown, &printed_lines) {
                failures.push(format!(
                    "{}:{}: $ {}\n--- shown (exit {}):\n{}\n--- printed (exit {code}):\n{printed}",
                    file.display(),
                    example.line,
                    example.command,
                    example.code,
                    shown.join("\n"),
                ));
                replaced.push((example.shown.clone(), as_shown(&printed)));
            }
        }
        if bless && !replaced.is_empty() {
            let mut out = String::new();
            let mut k = 0;
            for (range, new) in &replaced {
                for line in &lines[k..range.start] {
                    out.push_str(line);
                    out.push('\n');
                }
                out.push_str(new);
                k = range.end;
            }
            for line in &lines[k..] {
                out.push_str(line);
                out.push('\n');
            }
            std::fs::write(&file, out).unwrap();
        }
    }
    assert!(count > 0, "no console example found");
    assert!(
        failures.is_empty(),
        "{} of {count} doc examples differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The matcher itself: `[..]` and `...` match what they stand for and nothing else.
#[test]
fn shown_output_wildcards_match_only_what_they_stand_for() {
    assert!(line_matches("a [..] b", "a 12 s b"));
    assert!(!line_matches("a [..] b", "a 12 s c"));
    assert!(line_matches("[..]", ""));
    assert!(!line_matches("abc", "abcd"));
    assert!(matches(&["x", "...", "z"], &["x", "y1", "y2", "z"]));
    assert!(matches(&["x", "...", "z"], &["x", "z"]));
    assert!(!matches(&["x", "...", "z"], &["x", "y"]));
    assert!(!matches(&["x"], &["x", "y"]));
    assert_eq!(
        as_shown("sudoku-bulk: 4 records in 0.00 s (1043 puzzles/s): 4 solved\nrow\n"),
        "sudoku-bulk: 4 records in [..] s ([..] puzzles/s): 4 solved\nrow\n"
    );
}

/// The docs that speak to users, ARCHITECTURE.md included.
fn all_docs() -> Vec<PathBuf> {
    let mut files = doc_files();
    files.push(repository().join("ARCHITECTURE.md"));
    files
}

/// GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces made
/// `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (outside fenced blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let base = slug(line.trim_start_matches('#'));
        let mut name = base.clone();
        let mut n = 0;
        while found.contains(&name) {
            n += 1;
            name = format!("{base}-{n}");
        }
        found.push(name);
    }
    found
}

/// The targets of the inline links `[text](target)` of a text.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            found.push((n + 1, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    found
}

/// Every link of the docs that is not a web address leads to a file of the repository, and
/// its `#anchor` to a heading of that file.
#[test]
fn doc_links_lead_to_files_and_headings_that_exist() {
    let root = repository().canonicalize().unwrap();
    let mut broken = Vec::new();
    for file in all_docs() {
        let text = std::fs::read_to_string(&file).unwrap();
        for (line, target) in links(&text) {
            if target.starts_with("http://") || target.starts_with("https://") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let linked = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            let Ok(real) = linked.canonicalize() else {
                broken.push(format!("{}:{line}: no file {target}", file.display()));
                continue;
            };
            if !real.starts_with(&root) {
                broken.push(format!(
                    "{}:{line}: {target} is outside the repository",
                    file.display()
                ));
                continue;
            }
            if let Some(anchor) = anchor {
                let linked_text = std::fs::read_to_string(&real).unwrap_or_default();
                if !anchors(&linked_text).iter().any(|a| a == anchor) {
                    broken.push(format!(
                        "{}:{line}: no heading #{anchor} in {path}",
                        file.display()
                    ));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// Whether a word is a commit's abbreviated or full name: 7 to 40 hexadecimal digits, letters
/// and digits both (a number's exponent, `5.346789126721953e+80`, is not one).
fn looks_like_a_commit(word: &str) -> bool {
    (7..=40).contains(&word.len())
        && word
            .chars()
            .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
        && word.chars().any(|c| c.is_ascii_digit())
        && word
            .trim_end_matches('e')
            .chars()
            .any(|c| c.is_ascii_alphabetic())
}

/// The docs speak of the project alone: no path beside or above the repository (`../shared`),
/// no path of a machine it was built on, no commit ("since `abc1234`").
#[test]
fn docs_name_no_path_outside_the_repository_and_no_commit() {
    let mut found = Vec::new();
    for file in all_docs() {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let at = format!("{}:{}", file.display(), n + 1);
            for bad in [
                "../shared",
                "/work/",
                "/home/",
                "/root/",
                "/tmp/",
                "venv/bin",
            ] {
                if line.contains(bad) {
                    found.push(format!("{at}: names {bad}: {line}"));
                }
            }
            for word in line.split(|c: char| !c.is_ascii_alphanumeric()) {
                let hex =
                    (7..=40).contains(&word.len()) && word.chars().all(|c| c.is_ascii_hexdigit());
                let after = |s: &str| {
                    line.contains(&format!("{s}`{word}`")) || line.contains(&format!("{s}{word}"))
                };
                if looks_like_a_commit(word)
                    || (hex && (after("since ") || after("commit ") || after("main ")))
                {
                    found.push(format!("{at}: names a commit ({word}): {line}"));
                }
            }
        }
        for (line, target) in links(&text) {
            let inside = file
                .parent()
                .unwrap()
                .join(target.split('#').next().unwrap());
            let outside =
                !target.starts_with("http") && !normalised(&inside).starts_with(repository());
            if outside {
                found.push(format!(
                    "{}:{line}: links outside the repository: {target}",
                    file.display()
                ));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// A path with its `..` and `.` parts taken away, without asking the file system.
fn normalised(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn the_doc_checks_find_what_they_look_for() {
    assert_eq!(
        slug("Interrupted runs and `--resume`"),
        "interrupted-runs-and---resume"
    );
    assert_eq!(
        slug("`stats`: options, fields and bins"),
        "stats-options-fields-and-bins"
    );
    assert!(looks_like_a_commit("b3c878a") && looks_like_a_commit("2ae8e43"));
    assert!(!looks_like_a_commit("aaabbbccc") && !looks_like_a_commit("1234567"));
    assert!(!looks_like_a_commit("346789126721953e"));
    assert_eq!(
        links("see [a](docs/b.md#c) and [d](#e)"),
        vec![(1, "docs/b.md#c".into()), (1, "#e".into())]
    );
}
