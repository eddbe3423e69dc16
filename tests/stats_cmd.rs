//! `sudoku-bulk stats` and `solve --summary`, end to end through the binary.

use crate::workdir::{Workdir, puzzles};

/// A puzzle file mixing easy and hard puzzles with a few bad records.
fn mixed(dir: &Workdir, name: &str, offset: usize) -> String {
    let mut text = String::new();
    for p in puzzles("puzzles2_17_clue.txt.gz", 60)
        .iter()
        .skip(offset)
        .take(30)
    {
        text.push_str(p);
        text.push('\n');
    }
    for p in puzzles("puzzles5_forum_hardest_1905_11+.txt.gz", 40)
        .iter()
        .skip(offset)
        .take(20)
    {
        text.push_str(p);
        text.push('\n');
    }
    text.push_str("123\n");
    dir.write(name, &text);
    text
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn solve_summary_equals_stats_over_the_same_output() {
    let dir = Workdir::new();
    mixed(&dir, "in.txt", 0);
    let run = dir.run(&[
        "solve",
        "in.txt",
        "-o",
        "out.csv",
        "--summary",
        "s.json",
        "-q",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let stats = dir.run(&["stats", "out.csv", "--json"]);
    assert_eq!(stats.code, Some(0), "{}", stats.stderr);
    let from_solve = json(&dir.read("s.json"));
    assert_eq!(from_solve, json(&stats.stdout));
    assert_eq!(from_solve["records"], 51);
    assert_eq!(from_solve["status"]["invalid"], 1);
    // The same through JSON lines.
    let run = dir.run(&[
        "solve",
        "in.txt",
        "-o",
        "out.jsonl",
        "--output-format",
        "jsonl",
        "-q",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        json(&dir.run(&["stats", "out.jsonl", "--json"]).stdout),
        from_solve
    );
}

#[test]
fn stats_of_two_files_equals_stats_of_their_concatenation() {
    let dir = Workdir::new();
    mixed(&dir, "a.txt", 0);
    mixed(&dir, "b.txt", 30);
    for part in ["a", "b"] {
        let run = dir.run(&[
            "solve",
            &format!("{part}.txt"),
            "-o",
            &format!("{part}.csv"),
            "-q",
        ]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    let (a, b) = (dir.read("a.csv"), dir.read("b.csv"));
    let b_rows = b.split_once('\n').unwrap().1;
    dir.write("ab.csv", format!("{a}{b_rows}"));
    let parts = dir.run(&["stats", "a.csv", "b.csv", "--json"]);
    let whole = dir.run(&["stats", "ab.csv", "--json"]);
    assert_eq!(parts.code, Some(0), "{}", parts.stderr);
    assert_eq!(json(&parts.stdout), json(&whole.stdout));
    // Saved summaries merge to the same.
    std::fs::write(
        dir.path("a.json"),
        dir.run(&["stats", "a.csv", "--json"]).stdout,
    )
    .unwrap();
    std::fs::write(
        dir.path("b.json"),
        dir.run(&["stats", "b.csv", "--json"]).stdout,
    )
    .unwrap();
    let merged = dir.run(&["stats", "a.json", "b.json", "--json"]);
    assert_eq!(json(&merged.stdout), json(&whole.stdout));
}

#[test]
fn groups_by_givens_add_up_to_the_whole() {
    let dir = Workdir::new();
    mixed(&dir, "in.txt", 0);
    assert_eq!(
        dir.run(&["solve", "in.txt", "-o", "out.csv", "-q"]).code,
        Some(0)
    );
    let grouped = json(
        &dir.run(&["stats", "out.csv", "--by", "givens", "--json"])
            .stdout,
    );
    let whole = json(&dir.run(&["stats", "out.csv", "--json"]).stdout);
    let groups = grouped["groups"].as_object().expect("groups");
    assert!(groups.len() >= 3, "{groups:?}");
    let records: u64 = groups
        .values()
        .map(|g| g["records"].as_u64().unwrap())
        .sum();
    assert_eq!(records, whole["records"].as_u64().unwrap());
    for status in ["solved", "invalid"] {
        let sum: u64 = groups
            .values()
            .map(|g| g["status"][status].as_u64().unwrap())
            .sum();
        assert_eq!(sum, whole["status"][status].as_u64().unwrap(), "{status}");
    }
}

#[test]
fn table_and_html_report() {
    let dir = Workdir::new();
    mixed(&dir, "in.txt", 0);
    assert_eq!(
        dir.run(&["solve", "in.txt", "-o", "out.csv", "-q"]).code,
        Some(0)
    );
    let run = dir.run(&["stats", "out.csv", "--html", "report.html"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.starts_with("records: 51\n"), "{}", run.stdout);
    assert!(run.stdout.contains("recursions"));
    let page = dir.read("report.html");
    assert!(page.contains("<svg"), "no chart in the page");
    for fetch in ["<script", "<link", "src=\"http", "url(http"] {
        assert!(!page.contains(fetch), "the page fetches something: {fetch}");
    }
}

#[test]
fn stats_errors_name_the_file_and_line() {
    let dir = Workdir::new();
    let header =
        "line,status,recursions,max_depth,guesses,backtracks,naked_singles,hidden_singles,givens";
    dir.write(
        "bad.csv",
        format!("{header}\n1,solved,1,1,0,0,0,64,17\n2,solved,x7,1,0,0,0,64,17\n"),
    );
    let run = dir.run(&["stats", "bad.csv"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("bad.csv:3"), "{}", run.stderr);
    dir.write("short.csv", "line,status,recursions\n2,solved,7\n");
    let run = dir.run(&["stats", "short.csv"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("short.csv: no column 'max_depth'"),
        "{}",
        run.stderr
    );
    let run = dir.run(&["stats", "missing.csv"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("missing.csv"), "{}", run.stderr);
}
