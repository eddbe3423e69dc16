//! `rate --scale se`, end to end: Sudoku Explainer's ER, EP and ED against SE's own ratings of
//! the committed samples (read as they are, SE's columns kept beside ours), the same bytes for
//! every thread count and output format, and the refusals (a summary, shards, jigsaws, `stats`).

use std::path::Path;

use crate::workdir::{Run, Workdir, csv_header, csv_rows, puzzles};

/// A committed sample of SE's ratings (`puzzle,er,ep,ed`, as SE 1.2.1.3 printed them).
fn se_sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/se")
        .join(format!("{name}.se.csv"))
        .display()
        .to_string()
}

fn ok(run: &Run, what: &str) {
    assert_eq!(run.code, Some(0), "{what}: {}", run.stderr);
}

/// Every sample, rated with SE's own columns kept: ER, EP and ED are SE's, to the tenth, on
/// every puzzle (QQWing's grades, 17-clue, magictour: ER 1.0 to 9.5), and `er_at_least` is ER.
#[test]
fn ratings_equal_sudoku_explainer_on_its_own_committed_ratings() {
    let dir = Workdir::new();
    for name in [
        "qq_simple",
        "qq_easy",
        "qq_intermediate",
        "qq_expert",
        "17_clue",
        "magictour",
    ] {
        let run = dir.run(&[
            "rate",
            "--scale",
            "se",
            "-q",
            &se_sample(name),
            "--keep-columns",
            "er=se_er,ep=se_ep,ed=se_ed",
        ]);
        ok(&run, name);
        let rows = csv_rows(&run.stdout);
        assert!(rows.len() >= 150, "{name}: {} rows", rows.len());
        for row in &rows {
            assert_eq!(row["status"], "rated", "{name}: {row:?}");
            for (ours, theirs) in [("er", "se_er"), ("ep", "se_ep"), ("ed", "se_ed")] {
                assert_eq!(row[ours], row[theirs], "{name}: {row:?}");
            }
            assert_eq!(row["er"], row["er_at_least"], "{name}: {row:?}");
            assert!(!row["hardest"].is_empty(), "{row:?}");
            assert!(row["error"].is_empty(), "{row:?}");
        }
    }
}

/// A path that needs SE's nested forcing chains (the hardest forum puzzles) stops there: no
/// ER, `er_at_least` 9.5 or more, ED and EP and the steps so far.
#[test]
fn a_path_that_needs_nested_chains_has_no_er_and_the_least_it_can_be() {
    let dir = Workdir::new();
    dir.write(
        "hardest.txt",
        puzzles("puzzles6_forum_hardest_1106.txt.gz", 2).join("\n"),
    );
    let run = dir.run(&["rate", "--scale", "se", "-q", "hardest.txt"]);
    ok(&run, "hardest");
    let rows = csv_rows(&run.stdout);
    assert_eq!(rows.len(), 2);
    let stopped: Vec<_> = rows.iter().filter(|row| row["er"].is_empty()).collect();
    assert!(!stopped.is_empty(), "{rows:?}");
    for row in stopped {
        let at_least: f64 = row["er_at_least"].parse().unwrap();
        assert!(at_least >= 9.5, "{row:?}");
        assert!(
            !row["ed"].is_empty() && !row["hardest"].is_empty(),
            "{row:?}"
        );
        assert_ne!(row["steps"], "0", "{row:?}");
    }
}

/// One thread or two, CSV or JSON lines or Parquet: the same ratings, in input order.
#[test]
fn the_same_ratings_for_every_thread_count_and_format() {
    let dir = Workdir::new();
    let input = se_sample("17_clue");
    let one = dir.run(&["rate", "--scale", "se", "-q", &input, "--threads", "1"]);
    ok(&one, "one thread");
    let two = dir.run(&["rate", "--scale", "se", "-q", &input, "--threads", "2"]);
    ok(&two, "two threads");
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(
        csv_header(&one.stdout),
        [
            "line",
            "puzzle",
            "status",
            "er",
            "ep",
            "ed",
            "er_at_least",
            "hardest",
            "steps",
            "error"
        ]
    );
    let jsonl = dir.run(&[
        "rate",
        "--scale",
        "se",
        "-q",
        &input,
        "--output-format",
        "jsonl",
    ]);
    ok(&jsonl, "jsonl");
    for (line, row) in jsonl.stdout.lines().zip(csv_rows(&one.stdout)) {
        let json: serde_json::Value = serde_json::from_str(line).unwrap();
        for column in ["er", "ep", "ed", "er_at_least"] {
            match row[column].as_str() {
                "" => assert!(json[column].is_null(), "{line}"),
                text => assert_eq!(json[column].as_f64(), text.parse().ok(), "{line}"),
            }
        }
        assert_eq!(json["steps"].to_string(), row["steps"]);
    }
    let parquet = dir.run(&["rate", "--scale", "se", "-q", &input, "-o", "se.parquet"]);
    ok(&parquet, "parquet");
    let bytes = std::fs::read(dir.path("se.parquet")).unwrap();
    assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
}

/// Options that make a summary are refused before any row (exit 2), naming the option; so is
/// `stats` over SE rows, in every format; a jigsaw record is an `invalid` row.
#[test]
fn what_se_ratings_do_not_do_yet_is_refused_with_the_reason() {
    let dir = Workdir::new();
    let text = puzzles("puzzles2_17_clue.txt.gz", 3).join("\n");
    dir.write("in.txt", &text);
    for (extra, option) in [
        (&["--summary", "s.json"][..], "--summary"),
        (&["--summary", "s.json", "--canonical"][..], "--summary"),
        (&["--shard", "0/2", "-o", "part.csv"][..], "--shard"),
    ] {
        let mut args = vec!["rate", "--scale", "se", "in.txt"];
        args.extend_from_slice(extra);
        let run = dir.run(&args);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert!(
            run.stderr.contains(&format!(
                "--scale se writes rows only: {option} makes a summary"
            )),
            "{}",
            run.stderr
        );
        assert!(run.stdout.is_empty());
    }
    for out in ["se.csv", "se.jsonl", "se.parquet"] {
        ok(
            &dir.run(&["rate", "--scale", "se", "-q", "in.txt", "-o", out]),
            out,
        );
        let run = dir.run(&["stats", out]);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert!(
            run.stderr.contains(&format!(
                "{out}: these are Sudoku Explainer ratings (rate --scale se): stats does not \
                 summarise them yet"
            )),
            "{}",
            run.stderr
        );
    }
    let jigsaw = "123456789".repeat(9);
    let run = dir.run(&[
        "rate",
        "--scale",
        "se",
        "-q",
        "in.txt",
        "--regions",
        &jigsaw,
    ]);
    ok(&run, "jigsaw");
    for row in csv_rows(&run.stdout) {
        assert_eq!(row["status"], "invalid", "{row:?}");
        assert_eq!(
            row["error"], "Sudoku Explainer rates standard 3x3-box puzzles only",
            "{row:?}"
        );
    }
}

/// `show --explain --scale se` walks SE's path: its heading gives SE's own ER, EP and ED of
/// committed puzzles (an expert one whose path needs chains, a magictour one), and it numbers
/// as many steps as `rate --scale se` counts.
#[test]
fn show_explain_on_se_scale_gives_se_own_ratings_and_every_step() {
    let dir = Workdir::new();
    for name in ["qq_expert", "magictour"] {
        let text = std::fs::read_to_string(se_sample(name)).unwrap();
        let rows = csv_rows(&text);
        let row = rows
            .iter()
            .find(|r| r["er"].parse::<f64>().unwrap() >= 7.0)
            .expect("a puzzle that needs chains");
        let puzzle = row["puzzle"].as_str();
        let run = dir.run(&["show", puzzle, "--explain=never", "--scale", "se"]);
        ok(&run, name);
        let heading = format!(
            "rating: ER {}, EP {}, ED {}",
            row["er"], row["ep"], row["ed"]
        );
        assert!(run.stdout.contains(&heading), "{heading}\n{}", run.stdout);
        let rated =
            dir.run_with_stdin(&["rate", "--scale", "se", "-q"], puzzle.as_bytes().to_vec());
        ok(&rated, name);
        let steps: usize = csv_rows(&rated.stdout)[0]["steps"].parse().unwrap();
        let numbered = run
            .stdout
            .lines()
            .filter(|l| {
                l.trim_start()
                    .split_once(". ")
                    .is_some_and(|(n, _)| n.parse::<usize>().is_ok())
            })
            .count();
        assert_eq!(numbered, steps, "{name}");
    }
    let hodoku_only = dir.run(&["show", "--scale", "se", "1"]);
    assert_eq!(hodoku_only.code, Some(2));
    assert!(
        hodoku_only.stderr.contains("--explain"),
        "{}",
        hodoku_only.stderr
    );
}
