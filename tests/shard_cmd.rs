//! `solve --shard` and `merge`, end to end: for every N from 1 to 8, the merged output and
//! summary equal those of a single run byte for byte; missing and foreign shards are refused.

use crate::workdir::{Run, Workdir, puzzles};

/// Shard counts every dataset is cut into.
const COUNTS: std::ops::RangeInclusive<u64> = 1..=8;

/// Puzzles of the shipped 17-clue set (quick to solve), with a few bad records among them.
fn some_puzzles(n: usize) -> Vec<String> {
    puzzles("puzzles2_17_clue.txt.gz", n)
}

/// The line format at its most awkward: a byte order mark, CRLF and LF, blank, comment and
/// bad lines, leading spaces, trailing fields, no final newline.
fn awkward_lines() -> String {
    let p = some_puzzles(14);
    let mut text = format!("\u{feff}# a set\r\n{}\r\n\r\n", p[0]);
    for (i, puzzle) in p[1..13].iter().enumerate() {
        match i % 4 {
            0 => text.push_str(&format!("{puzzle}\n")),
            1 => text.push_str(&format!("  {puzzle} trailing field\r\n\n")),
            2 => text.push_str(&format!("# {puzzle}\n{puzzle}\r\n123\n")),
            _ => text.push_str(&format!("\n\n{puzzle}:1:x\n#\n")),
        }
    }
    text.push_str(&p[13]);
    text
}

/// A CSV with a byte order mark, CRLF and LF, blank lines, quoted fields holding line breaks
/// (and blank lines inside quotes), a missing field, and no final newline.
fn awkward_csv() -> String {
    let p = some_puzzles(12);
    let mut text = "\u{feff}\"id\",puzzle,note\r\n".to_string();
    for (i, puzzle) in p.iter().enumerate() {
        match i % 4 {
            0 => text.push_str(&format!("{i},{puzzle},plain\r\n")),
            1 => text.push_str(&format!("{i},{puzzle},\"two\nlines, \"\"quoted\"\"\"\n\n")),
            2 => text.push_str(&format!("{i},\"{puzzle}\",\"\n\n{puzzle}\n\"\r\n{i}x\r\n")),
            _ => text.push_str(&format!("{i},{puzzle},\"a\r\nb\"\n")),
        }
    }
    text.push_str("last,");
    text.push_str(&p[0]);
    text
}

/// Grids: boxed drawings with CRLF, plain rows, 81 numbers on one line or nine, comments,
/// a short grid, and no final newline.
fn awkward_grids() -> String {
    let p = some_puzzles(8);
    let rows =
        |p: &str| -> Vec<String> { (0..9).map(|r| p[r * 9..r * 9 + 9].to_string()).collect() };
    let numbers =
        |p: &str| -> Vec<String> { p.replace('.', "0").chars().map(String::from).collect() };
    let mut text = "\u{feff}# grids\r\n".to_string();
    for (i, puzzle) in p.iter().enumerate() {
        match i % 4 {
            0 => {
                for (r, row) in rows(puzzle).iter().enumerate() {
                    if r % 3 == 0 && r > 0 {
                        text.push_str("------+-------+------\r\n");
                    }
                    let cells: Vec<String> = row.chars().map(String::from).collect();
                    text.push_str(&format!(
                        "{} | {} | {}\r\n",
                        cells[..3].join(" "),
                        cells[3..6].join(" "),
                        cells[6..].join(" ")
                    ));
                }
                text.push_str("\r\n");
            }
            1 => text.push_str(&format!("{}\n\n\n", rows(puzzle).join("\n"))),
            2 => text.push_str(&format!("# numbers\n{}\n", numbers(puzzle).join(" "))),
            _ => {
                let lines: Vec<String> = numbers(puzzle).chunks(9).map(|r| r.join(" ")).collect();
                text.push_str(&format!(
                    "{}\n{}\n\n",
                    lines.join("\n"),
                    rows(puzzle)[..4].join("\n")
                ));
            }
        }
    }
    text.push_str(&rows(&p[0]).join("\n"));
    text
}

fn ok(run: &Run, what: &str) {
    assert_eq!(run.code, Some(0), "{what}: {}", run.stderr);
}

/// Runs `solve ARGS` once whole and as N shards for every N in `COUNTS`, merges each set of
/// shards (given in reverse order), and checks the merged output and summary against the
/// single run's, byte for byte.
fn shards_merge_to_the_single_run(dir: &Workdir, args: &[&str], ext: &str) {
    let single = format!("single.{ext}");
    let single_summary = format!("{single}.summary.json");
    let mut solve = vec!["solve", "-q"];
    solve.extend_from_slice(args);
    let mut whole = solve.clone();
    whole.extend_from_slice(&["-o", &single, "--summary", &single_summary]);
    ok(&dir.run(&whole), "single run");
    let expected = dir.read(&single);
    assert!(expected.lines().count() > 3, "{expected}");
    let expected_summary = dir.read(&single_summary);
    for n in COUNTS {
        std::fs::create_dir(dir.path(&format!("n{n}"))).unwrap();
        let mut outputs = Vec::new();
        for k in 0..n {
            let out = format!("n{n}/part-{k}.{ext}");
            let shard = format!("{k}/{n}");
            let mut args = solve.clone();
            args.extend_from_slice(&["--shard", &shard, "-o", &out]);
            ok(&dir.run(&args), &format!("shard {shard}"));
            outputs.push(out);
        }
        let merged = format!("n{n}/all.{ext}");
        let mut args = vec!["merge", "-q", merged.as_str()];
        args.extend(outputs.iter().rev().map(String::as_str));
        ok(&dir.run(&args), &format!("merge of {n}"));
        assert_eq!(dir.read(&merged), expected, "{n} shards: {args:?}");
        assert_eq!(
            dir.read(&format!("{merged}.summary.json")),
            expected_summary,
            "summary of {n} shards"
        );
    }
}

#[test]
fn line_format_shards_merge_to_the_single_run() {
    let dir = Workdir::new();
    dir.write("in.txt", awkward_lines());
    shards_merge_to_the_single_run(&dir, &["in.txt"], "csv");
}

#[test]
fn csv_with_quoted_line_breaks_shards_merge_to_the_single_run() {
    let dir = Workdir::new();
    dir.write("in.csv", awkward_csv());
    shards_merge_to_the_single_run(&dir, &["in.csv", "--keep-columns", "note,id"], "csv");
    // Kept fields with line breaks are quoted in the output; JSON lines escape them.
    assert!(dir.read("single.csv").contains("\"two\nlines"));
}

#[test]
fn grid_format_shards_merge_to_the_single_run() {
    let dir = Workdir::new();
    dir.write("in.grid", awkward_grids());
    shards_merge_to_the_single_run(&dir, &["in.grid", "--input-format", "grid"], "csv");
}

#[test]
fn gzip_shards_merge_to_the_single_run() {
    let dir = Workdir::new();
    let text = awkward_lines();
    let (a, b) = text.as_bytes().split_at(text.len() / 3);
    dir.write_gz("in.txt.gz", &[a, b]);
    shards_merge_to_the_single_run(&dir, &["in.txt.gz"], "jsonl");
}

#[test]
fn several_inputs_of_every_format_shard_as_one_stream() {
    let dir = Workdir::new();
    dir.write("a.txt", awkward_lines());
    dir.write("b.csv", awkward_csv());
    dir.write("empty.txt", "");
    let grids = awkward_grids();
    dir.write_gz("c.gz", &[grids.as_bytes()]);
    dir.write("d.txt", format!("{}\n", some_puzzles(1)[0]));
    shards_merge_to_the_single_run(
        &dir,
        &[
            "a.txt",
            "b.csv",
            "empty.txt",
            "c.gz",
            "d.txt",
            "--output-format",
            "jsonl",
        ],
        "jsonl",
    );
    assert!(dir.read("single.jsonl").contains("\"file\":\"c.gz\""));
}

#[test]
fn jsonl_output_of_a_csv_merges_too() {
    let dir = Workdir::new();
    dir.write("in.csv", awkward_csv());
    shards_merge_to_the_single_run(
        &dir,
        &[
            "in.csv",
            "--keep-columns",
            "note",
            "--output-format",
            "jsonl",
            "--max-solutions",
            "1",
        ],
        "jsonl",
    );
}

/// Writes `in.txt` and runs shards `ks` of `n` of `solve in.txt ARGS` into `DIR/part-K.csv`.
fn shards(dir: &Workdir, sub: &str, input: &str, n: u64, ks: &[u64], args: &[&str]) {
    let _ = std::fs::create_dir(dir.path(sub));
    for k in ks {
        let out = format!("{sub}/part-{k}.csv");
        let shard = format!("{k}/{n}");
        let mut all = vec!["solve", input, "-q", "--shard", &shard, "-o", &out];
        all.extend_from_slice(args);
        ok(&dir.run(&all), &shard);
    }
}

fn refused(run: &Run, message: &str) {
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains(message),
        "wanted '{message}' in: {}",
        run.stderr
    );
}

fn lines(n: usize) -> String {
    some_puzzles(n).join("\n") + "\n"
}

#[test]
fn a_missing_shard_is_named() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(20));
    shards(&dir, "s", "in.txt", 4, &[0, 1, 3], &[]);
    let run = dir.run(&[
        "merge",
        "all.csv",
        "s/part-0.csv",
        "s/part-1.csv",
        "s/part-3.csv",
    ]);
    refused(&run, "shard 2 of 4 is missing");
    let run = dir.run(&["merge", "all.csv", "s/part-1.csv"]);
    refused(&run, "shards 0, 2, 3 of 4 are missing");
    assert!(!dir.path("all.csv").exists());
    // An output named that is not there.
    let run = dir.run(&["merge", "all.csv", "s/part-0.csv", "s/part-2.csv"]);
    refused(&run, "cannot read s/part-2.csv");
}

#[test]
fn foreign_shards_are_refused_with_what_differs() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(20));
    dir.write("other.txt", lines(21));
    shards(&dir, "s", "in.txt", 4, &[0, 1, 2, 3], &[]);
    shards(&dir, "input", "other.txt", 4, &[2], &[]);
    shards(
        &dir,
        "options",
        "in.txt",
        4,
        &[2],
        &["--max-solutions", "1"],
    );
    shards(&dir, "count", "in.txt", 3, &[2], &[]);
    // A shard of rate among shards of solve (it said "option algorithm is unset vs fast").
    std::fs::create_dir(dir.path("rate")).unwrap();
    let run = dir.run(&["rate", "in.txt", "--shard", "2/4", "-o", "rate/part-2.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    shards(
        &dir,
        "format",
        "in.txt",
        4,
        &[2],
        &["--output-format", "jsonl"],
    );
    let merge = |other: &str| {
        dir.run(&[
            "merge",
            "all.csv",
            "s/part-0.csv",
            "s/part-1.csv",
            other,
            "s/part-3.csv",
        ])
    };
    refused(
        &merge("input/part-2.csv"),
        "s/part-0.csv and input/part-2.csv are not shards of one run: their inputs differ: in.txt",
    );
    refused(
        &merge("options/part-2.csv"),
        "are not shards of one run: option max_solutions is 2 vs 1",
    );
    refused(
        &merge("rate/part-2.csv"),
        "s/part-0.csv and rate/part-2.csv are not shards of one run: one is a shard of solve, \
         the other of rate",
    );
    refused(
        &merge("count/part-2.csv"),
        "are not shards of one run: one is shard 0 of 4, the other shard 2 of 3",
    );
    refused(
        &merge("format/part-2.csv"),
        "are not shards of one run: option output_format is csv vs jsonl",
    );
    refused(
        &dir.run(&[
            "merge",
            "all.csv",
            "s/part-0.csv",
            "s/part-1.csv",
            "s/part-1.csv",
        ]),
        "s/part-1.csv and s/part-1.csv are both shard 1 of 4",
    );
    assert!(!dir.path("all.csv").exists());
    ok(&merge("s/part-2.csv"), "the shards of one run");
}

/// Nodes of a cluster name one input from other directories: the same bytes under another name
/// are the same input when it is the only one (no row names it), and merge to the single run; of
/// several inputs (each row's `file` names its input as given) they are refused, saying so.
#[test]
fn one_input_named_otherwise_by_a_shard_is_still_the_input() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(20));
    dir.write("b.txt", lines(7));
    let absolute = dir.path("in.txt").display().to_string();
    shards(&dir, "s", "in.txt", 2, &[0], &[]);
    shards(&dir, "s", &absolute, 2, &[1], &[]);
    ok(
        &dir.run(&["merge", "all.csv", "s/part-0.csv", "s/part-1.csv"]),
        "merge",
    );
    ok(
        &dir.run(&["solve", "in.txt", "-q", "-o", "single.csv"]),
        "single",
    );
    assert_eq!(dir.read("all.csv"), dir.read("single.csv"));
    let _ = std::fs::create_dir(dir.path("two"));
    for (k, first) in [(0, "in.txt"), (1, absolute.as_str())] {
        let (shard, out) = (format!("{k}/2"), format!("two/part-{k}.csv"));
        let args = ["solve", first, "b.txt", "-q", "--shard", &shard, "-o", &out];
        ok(&dir.run(&args), &shard);
    }
    let run = dir.run(&["merge", "all2.csv", "two/part-0.csv", "two/part-1.csv"]);
    refused(&run, "their inputs are the same bytes under other names");
}

#[test]
fn a_changed_input_is_a_foreign_input() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(20));
    shards(&dir, "s", "in.txt", 2, &[0], &[]);
    // Same name, same size, other bytes.
    let text = lines(20).replacen('1', "2", 1);
    dir.write("in.txt", text);
    shards(&dir, "s", "in.txt", 2, &[1], &[]);
    let run = dir.run(&["merge", "all.csv", "s/part-0.csv", "s/part-1.csv"]);
    refused(&run, "their inputs differ");
}

#[test]
fn a_shard_output_changed_in_place_is_refused_naming_it() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(30));
    shards(&dir, "s", "in.txt", 2, &[0, 1], &[]);
    let original = dir.read("s/part-1.csv");
    let merge = || dir.run(&["merge", "all.csv", "s/part-0.csv", "s/part-1.csv"]);
    let refused_for = |edited: String, what: &str| {
        assert_eq!(edited.len(), original.len(), "{what}: same size");
        assert_ne!(edited, original, "{what}");
        dir.write("s/part-1.csv", edited);
        let run = merge();
        refused(&run, "s/part-1.csv is not the file its shard wrote");
        refused(&run, "it was changed after the shard finished");
        assert!(!dir.path("all.csv").exists(), "{what}");
        assert!(!dir.path("all.csv.partial").exists(), "{what}");
    };
    // One digit of a solution.
    let rows: Vec<&str> = original.lines().collect();
    let row = rows[2];
    let at = row.find(",solved").unwrap() - 1;
    let digit = if &row[at..=at] == "1" { "2" } else { "1" };
    let changed = format!("{}{digit}{}", &row[..at], &row[at + 1..]);
    refused_for(original.replacen(row, &changed, 1), "a digit");
    // Two rows of the same length swapped.
    let (a, b) = (1..rows.len())
        .flat_map(|i| (i + 1..rows.len()).map(move |j| (i, j)))
        .find(|&(i, j)| rows[i].len() == rows[j].len() && rows[i] != rows[j])
        .expect("two rows of one length");
    let mut swapped = rows.clone();
    swapped.swap(a, b);
    refused_for(swapped.join("\n") + "\n", "two rows swapped");
    // As the shard wrote it, it merges.
    dir.write("s/part-1.csv", &original);
    ok(&merge(), "the shards as written");
}

#[test]
fn shard_outputs_must_be_as_their_shard_wrote_them() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(10));
    shards(&dir, "s", "in.txt", 2, &[0, 1], &[]);
    std::fs::remove_file(dir.path("s/part-1.csv.summary.json")).unwrap();
    let run = dir.run(&["merge", "all.csv", "s/part-0.csv", "s/part-1.csv"]);
    refused(
        &run,
        "no summary beside this shard output (looked for s/part-1.csv.summary.json)",
    );
    shards(&dir, "s", "in.txt", 2, &[1], &[]);
    let mut cut = dir.read("s/part-1.csv");
    cut.pop();
    dir.write("s/part-1.csv", cut);
    let run = dir.run(&["merge", "all.csv", "s/part-0.csv", "s/part-1.csv"]);
    refused(&run, "it was changed after the shard finished");
    // A single run's output is no shard.
    ok(
        &dir.run(&[
            "solve",
            "in.txt",
            "-q",
            "-o",
            "one.csv",
            "--summary",
            "one.csv.summary.json",
        ]),
        "single",
    );
    let run = dir.run(&["merge", "all.csv", "s/part-0.csv", "one.csv"]);
    refused(&run, "one.csv is not the output of solve --shard");
}

#[test]
fn merge_never_overwrites_a_shard() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(10));
    shards(&dir, "s", "in.txt", 2, &[0, 1], &[]);
    let before = dir.read("s/part-0.csv");
    // `merge s/part-*.csv` forgets OUT: the first shard would be it.
    let run = dir.run(&["merge", "s/part-0.csv", "s/part-1.csv"]);
    refused(&run, "s/part-0.csv is a shard output itself");
    assert_eq!(dir.read("s/part-0.csv"), before);
}

/// The shards' own input named as the merged output (`merge in.txt part-*`) would replace the
/// dataset by its results: refused, the input left as it was.
#[test]
fn a_merged_output_that_is_the_shards_input_is_refused() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(10));
    shards(&dir, "s", "in.txt", 2, &[0, 1], &[]);
    let before = dir.read("in.txt");
    let run = dir.run(&["merge", "in.txt", "s/part-0.csv", "s/part-1.csv"]);
    refused(&run, "OUT in.txt is an input of the run");
    assert_eq!(dir.read("in.txt"), before);
    assert!(!dir.path("in.txt.summary.json").exists());
    let run = dir.run(&[
        "merge",
        "all.csv",
        "s/part-0.csv",
        "s/part-1.csv",
        "--summary",
        "in.txt",
    ]);
    refused(&run, "in.txt is an input of the run");
    assert_eq!(dir.read("in.txt"), before);
}

#[test]
fn a_merged_output_named_for_another_format_is_refused() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(10));
    shards(&dir, "s", "in.txt", 2, &[0, 1], &[]);
    for out in ["all.parquet", "all.jsonl"] {
        let run = dir.run(&["merge", out, "s/part-0.csv", "s/part-1.csv"]);
        refused(
            &run,
            &format!("{out} names a {} file, but the shards are csv", &out[4..]),
        );
        assert!(!dir.path(out).exists());
    }
    // A name that asks for no format takes the shards' rows as they are.
    ok(
        &dir.run(&["merge", "all.txt", "s/part-0.csv", "s/part-1.csv"]),
        "all.txt",
    );
}

#[test]
fn a_retried_shard_rewrites_the_same_files() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(10));
    shards(&dir, "s", "in.txt", 3, &[1], &[]);
    let (rows, summary) = (
        dir.read("s/part-1.csv"),
        dir.read("s/part-1.csv.summary.json"),
    );
    shards(&dir, "s", "in.txt", 3, &[1], &["--threads", "1"]);
    assert_eq!(dir.read("s/part-1.csv"), rows);
    assert_eq!(dir.read("s/part-1.csv.summary.json"), summary);
    let entries = std::fs::read_dir(dir.path("s")).unwrap().count();
    assert_eq!(entries, 2, "no temporary file is left");
}

#[test]
fn sharding_needs_files() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(3));
    let run = dir.run_with_stdin(&["solve", "--shard", "0/2", "-o", "x.csv"], lines(3));
    refused(&run, "--shard cannot read standard input");
    let run = dir.run(&["solve", "in.txt", "--shard", "0/2"]);
    refused(&run, "--shard needs -o OUT");
    let run = dir.run(&["solve", "in.txt", "--shard", "2/2", "-o", "x.csv"]);
    refused(&run, "shard 2 of 2 does not exist");
    // A negative K is the option's value, not an option: told what --shard takes.
    for bad in ["one/2", "-1/4"] {
        let run = dir.run(&["solve", "in.txt", "--shard", bad, "-o", "x.csv"]);
        refused(
            &run,
            &format!("--shard takes K/N (K from 0, below N: 0/16 .. 15/16) or auto, not '{bad}'"),
        );
    }
    let run = dir.run(&["solve", "missing.txt", "--shard", "0/2", "-o", "x.csv"]);
    refused(&run, "missing.txt");
}

#[test]
fn an_unreadable_input_fails_every_shard() {
    let dir = Workdir::new();
    dir.write("a.txt", lines(10));
    dir.write("b.csv", "id,clue\n1,x\n");
    for k in 0..4 {
        let shard = format!("{k}/4");
        let run = dir.run(&[
            "solve", "a.txt", "b.csv", "-q", "--shard", &shard, "-o", "x.csv",
        ]);
        refused(&run, "b.csv: no puzzle column");
    }
}

/// `solve in.txt --shard auto ...` with only `vars` in the scheduler's environment.
fn auto(dir: &Workdir, vars: &[(&str, &str)], extra: &[&str]) -> Run {
    let mut cmd = dir.command(&["solve", "in.txt", "-q", "--shard", "auto", "-o", "auto.csv"]);
    cmd.args(extra);
    for name in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_MAX",
        "SLURM_ARRAY_TASK_STEP",
        "SLURM_ARRAY_TASK_COUNT",
        "JOB_COMPLETION_INDEX",
    ] {
        cmd.env_remove(name);
    }
    cmd.envs(vars.iter().copied());
    Run::from(cmd.output().unwrap())
}

#[test]
fn shard_auto_reads_slurm_and_kubernetes_variables() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(12));
    shards(&dir, "s", "in.txt", 4, &[2], &[]);
    let expected = dir.read("s/part-2.csv.summary.json");
    // `sbatch --array=1-4`: task 3 is shard 2 of 4.
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "3"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_MAX", "4"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ];
    ok(&auto(&dir, &slurm, &[]), "slurm");
    assert_eq!(dir.read("auto.csv"), dir.read("s/part-2.csv"));
    let summary = dir.read("auto.csv.summary.json");
    let output_bytes = |s: &str| s.replace("part-2.csv", "auto.csv");
    assert_eq!(output_bytes(&summary), output_bytes(&expected));
    ok(
        &auto(&dir, &[("JOB_COMPLETION_INDEX", "2")], &["--shards", "4"]),
        "kubernetes",
    );
    assert_eq!(dir.read("auto.csv"), dir.read("s/part-2.csv"));

    refused(
        &auto(&dir, &[], &[]),
        "--shard auto needs SLURM_ARRAY_TASK_ID",
    );
    refused(
        &auto(&dir, &[("JOB_COMPLETION_INDEX", "2")], &[]),
        "give --shards N",
    );
    refused(
        &auto(&dir, &slurm, &["--shards", "8"]),
        "--shards 8, but SLURM_ARRAY_TASK_COUNT is 4",
    );
    let listed = [
        ("SLURM_ARRAY_TASK_ID", "4"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_MAX", "9"),
        ("SLURM_ARRAY_TASK_COUNT", "3"),
    ];
    refused(&auto(&dir, &listed, &[]), "not one evenly spaced range");
}

#[test]
fn stats_reads_and_merges_shard_summaries() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(20));
    shards(&dir, "s", "in.txt", 3, &[0, 1, 2], &[]);
    ok(
        &dir.run(&["solve", "in.txt", "-q", "-o", "one.csv"]),
        "single",
    );
    let from_shards = dir.run(&[
        "stats",
        "--json",
        "s/part-0.csv.summary.json",
        "s/part-1.csv.summary.json",
        "s/part-2.csv.summary.json",
    ]);
    ok(&from_shards, "stats of shard summaries");
    let from_rows = dir.run(&["stats", "--json", "one.csv"]);
    assert_eq!(from_shards.stdout, from_rows.stdout);
}

#[test]
fn an_input_without_records_has_an_empty_summary() {
    let dir = Workdir::new();
    dir.write("in.txt", "# nothing here\n\n");
    ok(
        &dir.run(&[
            "solve",
            "in.txt",
            "-q",
            "-o",
            "x.csv",
            "--summary",
            "x.json",
        ]),
        "solve",
    );
    assert!(dir.read("x.json").contains("\"records\": 0"));
}

#[test]
fn shard_boundaries_on_line_starts_lose_no_record() {
    // 24 lines of 82 bytes: for N = 1, 2, 3, 4, 6 and 8 every boundary is a line start.
    let dir = Workdir::new();
    dir.write("in.txt", lines(24));
    shards_merge_to_the_single_run(&dir, &["in.txt"], "csv");
}
