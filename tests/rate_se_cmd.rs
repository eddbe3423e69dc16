//! `rate --scale se`, end to end: Sudoku Explainer's ER, EP and ED against SE's own ratings of
//! the committed samples (read as they are, SE's columns kept beside ours), the same bytes for
//! every thread count and output format, summaries and shards, and jigsaws refused.

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
/// every puzzle (QQWing's grades, 17-clue, magictour, and puzzles of `generate`: minimal ones,
/// HoDoKu-extreme ones and ones of `--se 8.8-9.6`; ER 1.0 to 9.5), and `er_at_least` is ER.
#[test]
fn ratings_equal_sudoku_explainer_on_its_own_committed_ratings() {
    let dir = Workdir::new();
    for (name, count) in [
        ("qq_simple", 150),
        ("qq_easy", 150),
        ("qq_intermediate", 150),
        ("qq_expert", 150),
        ("17_clue", 300),
        ("magictour", 300),
        ("generated_minimal", 200),
        ("generated_extreme", 150),
        ("generated_er_8.8_9.6", 60),
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
        assert_eq!(rows.len(), count, "{name}");
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

/// SE's own ratings of forum-hardest puzzles (ER 10.4 and up, all needing its nested forcing
/// chains), against where ours stops: never an ER, `er_at_least` never above SE's ER, and the
/// EP and ED ours gives (the hardest steps before the first placement and elimination, when
/// the path got there) equal to SE's.
#[test]
fn where_the_rating_stops_it_never_contradicts_sudoku_explainer() {
    let dir = Workdir::new();
    let run = dir.run(&[
        "rate",
        "--scale",
        "se",
        "-q",
        &se_sample("forum_hardest"),
        "--keep-columns",
        "er=se_er,ep=se_ep,ed=se_ed",
    ]);
    ok(&run, "forum_hardest");
    let rows = csv_rows(&run.stdout);
    assert!(rows.len() >= 10, "{} rows", rows.len());
    let tenths = |text: &str| -> u32 { (text.parse::<f64>().unwrap() * 10.0).round() as u32 };
    let mut compared = 0;
    for row in &rows {
        assert_eq!(row["status"], "rated", "{row:?}");
        assert!(tenths(&row["se_er"]) >= 95, "{row:?}");
        assert!(row["er"].is_empty(), "{row:?}");
        assert!(
            tenths(&row["er_at_least"]) <= tenths(&row["se_er"]),
            "{row:?}"
        );
        for (ours, theirs) in [("ep", "se_ep"), ("ed", "se_ed")] {
            if !row[ours].is_empty() {
                assert_eq!(row[ours], row[theirs], "{row:?}");
                compared += 1;
            }
        }
    }
    assert!(compared >= 4, "only {compared} EP or ED given to compare");
}

/// The HTML report's key figures over rows of which some have only a least ER: the median is
/// said to be of the exact ones, and the highest is at least the highest least ER.
#[test]
fn the_report_key_figures_say_what_a_least_er_leaves_open() {
    let dir = Workdir::new();
    let mut lines = puzzles("puzzles6_forum_hardest_1106.txt.gz", 2);
    lines.push(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
            .to_string(),
    );
    dir.write("mixed.txt", lines.join("\n"));
    ok(
        &dir.run(&["rate", "--scale", "se", "-q", "mixed.txt", "-o", "r.csv"]),
        "rate",
    );
    let rows = csv_rows(&dir.read("r.csv"));
    let exact = rows.iter().filter(|row| !row["er"].is_empty()).count();
    let least = rows
        .iter()
        .filter(|row| row["er"].is_empty())
        .map(|row| row["er_at_least"].clone())
        .max_by(|a, b| a.parse::<f64>().unwrap().total_cmp(&b.parse().unwrap()))
        .expect("a forum-hardest puzzle needs nested chains");
    ok(&dir.run(&["stats", "r.csv", "--html", "r.html"]), "stats");
    let page = dir.read("r.html");
    assert!(
        page.contains(&format!("<span>median ER of the {exact} exact</span>")),
        "{page}"
    );
    assert!(
        page.contains(&format!("<b>&ge;{least}</b><span>highest ER</span>")),
        "{page}"
    );
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

/// `stats` summarises SE rows in every format: the levels and the ER, EP and ED
/// distributions are those that SE's committed ratings give, a path that stops before nested
/// chains is counted as unfinished (diabolical), and `rate --scale se --summary` writes the
/// same part; shards merge to the single run, and `stats` over them is `stats` over the whole.
#[test]
fn se_rows_summarise_in_every_format_and_shards_merge_to_the_single_run() {
    let dir = Workdir::new();
    // SE's own ratings of the puzzles used: the summary's numbers are found from them.
    let mut rated = Vec::new();
    for name in ["qq_simple", "qq_expert", "magictour"] {
        let text = std::fs::read_to_string(se_sample(name)).unwrap();
        rated.extend(csv_rows(&text).into_iter().take(8));
    }
    let tenths = |text: &str| -> u64 { (text.parse::<f64>().unwrap() * 10.0).round() as u64 };
    let mut lines: Vec<String> = rated.iter().map(|r| r["puzzle"].clone()).collect();
    lines.push(puzzles("puzzles6_forum_hardest_1106.txt.gz", 1)[0].clone());
    lines.push(puzzles("puzzles7_serg_benchmark.txt.gz", 1)[0].clone());
    lines.push("not a puzzle".to_string());
    dir.write("in.txt", lines.join("\n"));
    let single = dir.run(&[
        "rate",
        "--scale",
        "se",
        "-q",
        "in.txt",
        "-o",
        "single.csv",
        "--summary",
        "single.json",
    ]);
    ok(&single, "single run");
    let se_part = |text: &str| -> serde_json::Value {
        serde_json::from_str::<serde_json::Value>(text).unwrap()["se_rating"].clone()
    };
    let whole = se_part(&dir.read("single.json"));
    assert_eq!(whole["records"], 27);
    assert_eq!(whole["status"]["rated"], 25);
    assert_eq!(whole["status"]["multiple"], 1);
    assert_eq!(whole["status"]["invalid"], 1);
    // The forum puzzle's path needs nested chains: rated, unfinished, diabolical.
    assert_eq!(whole["complete"], 24);
    assert_eq!(whole["unfinished"], 1);
    let mut levels = [0u64; 5];
    let mut er_sum = 0;
    for row in &rated {
        let er = tenths(&row["er"]);
        er_sum += er;
        let level = match er {
            0..=12 => 0,
            13..=15 => 1,
            16..=25 => 2,
            26..=60 => 3,
            _ => 4,
        };
        levels[level] += 1;
        let key = format!("{}.{}", er / 10, er % 10);
        assert!(whole["er"]["values"][&key].as_u64() >= Some(1), "{key}");
    }
    levels[4] += 1;
    for (i, name) in ["easy", "medium", "hard", "fiendish", "diabolical"]
        .iter()
        .enumerate()
    {
        assert_eq!(whole["levels"][name], levels[i], "{name}: {whole}");
    }
    assert_eq!(whole["er"]["count"], 24);
    let mean = whole["er"]["mean"].as_f64().unwrap();
    assert!((mean - er_sum as f64 / 240.0).abs() < 1e-9, "{mean}");
    let max_ep = rated.iter().map(|r| tenths(&r["ep"])).max().unwrap();
    assert_eq!(whole["ep"]["max"].as_f64(), Some(max_ep as f64 / 10.0));
    assert!(whole["er_at_least"]["min"].as_f64() >= Some(9.5));
    // stats reads the rows back to the same part, in every format.
    for out in ["single.csv", "se.jsonl", "se.parquet"] {
        if out != "single.csv" {
            ok(
                &dir.run(&["rate", "--scale", "se", "-q", "in.txt", "-o", out]),
                out,
            );
        }
        let run = dir.run(&["stats", "--json", out]);
        ok(&run, out);
        assert_eq!(se_part(&run.stdout), whole, "{out}");
    }
    // Two shards merge to the single run, and their stats to the whole.
    let mut parts = Vec::new();
    for k in 0..2 {
        let out = format!("part{k}.csv");
        let shard = format!("{k}/2");
        ok(
            &dir.run(&[
                "rate", "--scale", "se", "-q", "in.txt", "--shard", &shard, "-o", &out,
            ]),
            &shard,
        );
        parts.push(out);
    }
    ok(
        &dir.run(&["merge", "-q", "merged.csv", &parts[1], &parts[0]]),
        "merge",
    );
    assert_eq!(dir.read("merged.csv"), dir.read("single.csv"));
    assert_eq!(se_part(&dir.read("merged.csv.summary.json")), whole);
    let run = dir.run(&["stats", "--json", &parts[0], &parts[1]]);
    ok(&run, "stats of the shards");
    assert_eq!(se_part(&run.stdout), whole);
    // The text report: levels, ER figures, the unfinished row; grouped, one row per group.
    let text = dir.run(&["stats", "single.csv"]);
    ok(&text, "text");
    for part in [
        "SE level",
        "diabolical",
        "er ",
        "ER band",
        "hardest technique",
        "1 diabolical without ER",
    ] {
        assert!(text.stdout.contains(part), "{part}\n{}", text.stdout);
    }
    let grouped = dir.run(&["stats", "single.csv", "--by", "hardest", "--csv"]);
    ok(&grouped, "grouped");
    let rows = csv_rows(&grouped.stdout);
    let all = rows.iter().find(|r| r["hardest"] == "(all)").unwrap();
    assert_eq!(all["records"], "27");
    assert_eq!(all["rated"], "25");
    // Rows of the two scales are not summarised together.
    ok(
        &dir.run(&["rate", "-q", "in.txt", "-o", "hodoku.csv"]),
        "hodoku",
    );
    let mixed = dir.run(&["stats", "single.csv", "hodoku.csv"]);
    assert_eq!(mixed.code, Some(2), "{}", mixed.stderr);
    assert!(
        mixed
            .stderr
            .contains("rows of rate --scale se together with rows of rate"),
        "{}",
        mixed.stderr
    );
}

/// A jigsaw record is an `invalid` row: SE knows 3x3 boxes only.
#[test]
fn a_jigsaw_record_is_invalid_on_se_scale() {
    let dir = Workdir::new();
    let text = puzzles("puzzles2_17_clue.txt.gz", 3).join("\n");
    dir.write("in.txt", &text);
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
