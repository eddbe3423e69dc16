//! `rate`, end to end: levels against HoDoKu's own on puzzles it rated, the same bytes for
//! every thread count, rows that are not rated and why, shards that merge to the single run,
//! a killed run that resumes, jigsaw records, `stats` over rate output, and `show --explain`.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::workdir::{Run, Workdir, csv_header, csv_rows, puzzles};

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
        .display()
        .to_string()
}

fn ok(run: &Run, what: &str) {
    assert_eq!(run.code, Some(0), "{what}: {}", run.stderr);
}

/// Expert puzzles of QQWing (every HoDoKu level among them), with records that are not
/// rated: a short line, clashing givens, an empty grid (many solutions), an unsolvable one.
fn mixed_input(n: usize) -> String {
    let mut text = String::new();
    for (i, p) in puzzles("graded/qqwing_expert.txt.gz", n).iter().enumerate() {
        text.push_str(p);
        text.push('\n');
        match i % 17 {
            3 => text.push_str(&format!("{}\n", &p[1..])),
            7 => text.push_str(&format!("55{}\n", &p[2..])),
            11 => text.push_str(&format!("{}\n", ".".repeat(81))),
            13 => text.push_str(&format!("12345678.........9{}\n", ".".repeat(63))),
            _ => {}
        }
    }
    text
}

/// `data/graded/hodoku_ratings.csv.gz` holds 532 puzzles with the level, score and hardest
/// technique that HoDoKu (hodoku-py 0.2.1, run by scripts/compare_hodoku.py) gave them:
/// QQWing's four grades, every 250th 17-clue puzzle and every 10th of magictour's top 1465.
/// The goal: the same level on at least 90% of the puzzles of each HoDoKu level; and
/// on easy and medium puzzles (singles and simple techniques, no choice of chain) the very
/// same score and hardest technique.
#[test]
fn levels_agree_with_hodoku_on_ninety_percent_of_every_level() {
    let dir = Workdir::new();
    let run = dir.run(&[
        "rate",
        "-q",
        &data("graded/hodoku_ratings.csv.gz"),
        "--keep-columns",
        "hodoku_level,hodoku_score,hodoku_hardest",
        "-o",
        "out.csv",
    ]);
    ok(&run, "rate");
    let rows = csv_rows(&dir.read("out.csv"));
    assert_eq!(rows.len(), 532);
    let mut agree: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for row in &rows {
        assert_eq!(row["status"], "rated", "{row:?}");
        let hodoku = &row["hodoku_level"];
        let tally = agree.entry(hodoku.clone()).or_default();
        tally.1 += 1;
        if &row["level"] == hodoku {
            tally.0 += 1;
        }
        if hodoku == "easy" || hodoku == "medium" {
            assert_eq!(row["score"], row["hodoku_score"], "{row:?}");
            assert_eq!(row["hardest"], row["hodoku_hardest"], "{row:?}");
        }
    }
    assert_eq!(agree.len(), 5, "every level is represented: {agree:?}");
    for (level, (same, all)) in &agree {
        assert!(
            same * 10 >= all * 9,
            "{level}: the same level on {same} of {all} puzzles: {agree:?}"
        );
    }
}

#[test]
fn every_thread_count_and_format_gives_the_same_rows() {
    let dir = Workdir::new();
    dir.write("in.txt", mixed_input(120));
    let one = dir.run(&["rate", "-q", "in.txt", "--threads", "1"]);
    ok(&one, "one thread");
    assert!(one.stdout.lines().count() > 120);
    for threads in ["2", "3", "8"] {
        let run = dir.run(&["rate", "-q", "in.txt", "--threads", threads]);
        ok(&run, threads);
        assert_eq!(run.stdout, one.stdout, "{threads} threads");
    }
    // The run's summary too.
    let summary = |threads: &str| {
        let name = format!("s{threads}.json");
        let args = [
            "rate",
            "-q",
            "in.txt",
            "-o",
            "out.csv",
            "--threads",
            threads,
        ];
        let mut args = args.to_vec();
        args.extend(["--summary", &name]);
        ok(&dir.run(&args), threads);
        let doc: serde_json::Value = serde_json::from_str(&dir.read(&name)).unwrap();
        doc["rating"].clone()
    };
    let first = summary("1");
    assert_eq!(first["records"], csv_rows(&one.stdout).len());
    assert_eq!(summary("2"), first);
    assert_eq!(summary("5"), first);
    let jsonl = dir.run(&["rate", "-q", "in.txt", "--output-format", "jsonl"]);
    ok(&jsonl, "jsonl");
    let csv = csv_rows(&one.stdout);
    let lines: Vec<serde_json::Value> = jsonl
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), csv.len());
    for (json, row) in lines.iter().zip(&csv) {
        assert_eq!(json["status"], row["status"].as_str());
        assert_eq!(json["techniques"].as_str().unwrap_or(""), row["techniques"]);
        match row["score"].as_str() {
            "" => assert!(json["score"].is_null()),
            score => assert_eq!(json["score"].as_u64(), score.parse().ok()),
        }
    }
}

#[test]
fn records_without_one_solution_are_not_rated_and_say_why() {
    let dir = Workdir::new();
    dir.write("in.txt", mixed_input(18));
    let run = dir.run(&["rate", "in.txt"]);
    ok(&run, "rate");
    assert_eq!(
        csv_header(&run.stdout)[..7],
        [
            "line", "puzzle", "status", "level", "score", "hardest", "steps"
        ]
    );
    let rows = csv_rows(&run.stdout);
    let status = |s: &str| rows.iter().filter(|r| r["status"] == s).count();
    assert_eq!(
        [status("rated"), status("invalid"), status("multiple")],
        [18, 2, 1]
    );
    assert_eq!(status("unsolvable"), 1);
    assert_eq!(rows.len(), 22);
    for row in &rows {
        let rated = row["status"] == "rated";
        for column in [
            "level",
            "score",
            "hardest",
            "steps",
            "singles",
            "techniques",
        ] {
            assert_eq!(row[column].is_empty(), !rated, "{column} of {row:?}");
        }
        assert_eq!(row["error"].is_empty(), rated, "{row:?}");
    }
    let multiple = rows.iter().find(|r| r["status"] == "multiple").unwrap();
    assert_eq!(multiple["error"], "at least two solutions: not rated");
    let short = rows.iter().find(|r| r["puzzle"].is_empty()).unwrap();
    assert_eq!(short["error"], "expected 81 cells, found 80");
    // The family columns add up to the steps.
    let families = [
        "singles",
        "intersections",
        "subsets",
        "basic_fish",
        "finned_fish",
        "single_digit",
        "coloring",
        "uniqueness",
        "chains",
        "wings",
        "als",
        "miscellaneous",
        "forcing",
        "brute_force",
    ];
    for row in rows.iter().filter(|r| r["status"] == "rated") {
        let sum: u64 = families
            .iter()
            .map(|f| row[*f].parse::<u64>().unwrap())
            .sum();
        assert_eq!(sum.to_string(), row["steps"], "{row:?}");
    }
    assert!(
        run.stderr.contains("22 records in ")
            && run
                .stderr
                .contains(": 18 rated, 1 multiple, 1 unsolvable, 2 invalid"),
        "{}",
        run.stderr
    );
    // A uniqueness search without budget enough gives up and says so.
    let budget = dir.run(&["rate", "-q", "in.txt", "--max-recursions", "1"]);
    ok(&budget, "a small budget");
    let rows = csv_rows(&budget.stdout);
    let gave_up: Vec<_> = rows.iter().filter(|r| r["status"] == "gave_up").collect();
    assert!(!gave_up.is_empty(), "{}", budget.stdout);
    for row in gave_up {
        assert_eq!(
            row["error"],
            "uniqueness not decided within 1 recursions: not rated"
        );
        assert!(row["level"].is_empty());
    }
    // --strict fails on what is not rated, and passes when everything is.
    assert_eq!(dir.run(&["rate", "-q", "--strict", "in.txt"]).code, Some(1));
    dir.write(
        "good.txt",
        puzzles("graded/qqwing_expert.txt.gz", 5).join("\n"),
    );
    ok(&dir.run(&["rate", "-q", "--strict", "good.txt"]), "strict");
}

#[test]
fn shards_merge_to_the_single_run_and_their_stats_add_up() {
    let dir = Workdir::new();
    dir.write("in.txt", mixed_input(60));
    let single = dir.run(&[
        "rate",
        "-q",
        "in.txt",
        "-o",
        "single.csv",
        "--summary",
        "single.csv.summary.json",
    ]);
    ok(&single, "single run");
    for n in [2, 3, 5] {
        let mut outputs = Vec::new();
        for k in 0..n {
            let out = format!("n{n}-part{k}.csv");
            let shard = format!("{k}/{n}");
            let run = dir.run(&["rate", "-q", "in.txt", "--shard", &shard, "-o", &out]);
            ok(&run, &shard);
            outputs.push(out);
        }
        let merged = format!("n{n}.csv");
        let mut args = vec!["merge", "-q", merged.as_str()];
        args.extend(outputs.iter().rev().map(String::as_str));
        ok(&dir.run(&args), "merge");
        assert_eq!(dir.read(&merged), dir.read("single.csv"), "{n} shards");
        assert_eq!(
            dir.read(&format!("{merged}.summary.json")),
            dir.read("single.csv.summary.json"),
            "summary of {n} shards"
        );
        // stats over the shards' outputs is stats over the whole.
        let mut args = vec!["stats", "--json"];
        args.extend(outputs.iter().map(String::as_str));
        let parts = dir.run(&args);
        ok(&parts, "stats of the shards");
        let whole = dir.run(&["stats", "--json", "single.csv"]);
        let rating = |run: &Run| {
            serde_json::from_str::<serde_json::Value>(&run.stdout).unwrap()["rating"].clone()
        };
        assert_eq!(rating(&parts), rating(&whole), "{n} shards");
    }
}

#[test]
fn stats_counts_the_levels_scores_and_techniques_of_rate_output() {
    let dir = Workdir::new();
    dir.write("in.txt", mixed_input(40));
    ok(
        &dir.run(&[
            "rate",
            "-q",
            "in.txt",
            "-o",
            "out.csv",
            "--summary",
            "sum.json",
        ]),
        "rate",
    );
    let rows = csv_rows(&dir.read("out.csv"));
    let stats = dir.run(&["stats", "--json", "out.csv"]);
    ok(&stats, "stats");
    let doc: serde_json::Value = serde_json::from_str(&stats.stdout).unwrap();
    let rating = &doc["rating"];
    assert_eq!(doc["records"], rows.len());
    assert_eq!(rating["records"], rows.len());
    let rated: Vec<_> = rows.iter().filter(|r| r["status"] == "rated").collect();
    assert_eq!(rating["status"]["rated"], rated.len());
    for level in ["easy", "medium", "hard", "unfair", "extreme"] {
        let count = rated.iter().filter(|r| r["level"] == level).count();
        assert_eq!(rating["levels"][level], count, "{level}");
    }
    let scores: u64 = rated
        .iter()
        .map(|r| r["score"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(rating["score"]["sum"], scores);
    let max = rated
        .iter()
        .map(|r| r["score"].parse::<u64>().unwrap())
        .max();
    assert_eq!(rating["score"]["max"].as_u64(), max);
    let used = rated
        .iter()
        .filter(|r| {
            r["techniques"]
                .split(' ')
                .any(|pair| pair.starts_with("x-wing:"))
        })
        .count();
    assert_eq!(
        rating["techniques"]["x-wing"]["puzzles"]
            .as_u64()
            .unwrap_or(0),
        used as u64
    );
    // The run's own summary is the same document.
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&dir.read("sum.json")).unwrap()["rating"],
        *rating
    );
    // JSON lines output gives the same rating; the text names every level.
    ok(
        &dir.run(&["rate", "-q", "in.txt", "-o", "out.jsonl"]),
        "jsonl",
    );
    let jsonl = dir.run(&["stats", "--json", "out.jsonl"]);
    let doc2: serde_json::Value = serde_json::from_str(&jsonl.stdout).unwrap();
    assert_eq!(doc2["rating"], *rating);
    // And Parquet.
    ok(
        &dir.run(&["rate", "-q", "in.txt", "-o", "out.parquet"]),
        "parquet",
    );
    let parquet = dir.run(&["stats", "--json", "out.parquet"]);
    ok(&parquet, "stats of parquet");
    let doc3: serde_json::Value = serde_json::from_str(&parquet.stdout).unwrap();
    assert_eq!(doc3["rating"], *rating);
    let text = dir.run(&["stats", "out.csv"]);
    ok(&text, "text");
    assert!(text.stdout.contains("\nlevel "), "{}", text.stdout);
    assert!(text.stdout.contains("\nscore band "), "{}", text.stdout);
    // A hand-edited score is refused, with the line.
    let edited = dir
        .read("out.csv")
        .replacen(",rated,hard,", ",rated,easy,", 1);
    dir.write("edited.csv", edited);
    let refused = dir.run(&["stats", "edited.csv"]);
    assert_eq!(refused.code, Some(2));
    assert!(
        refused
            .stderr
            .contains("level is easy, but the techniques give hard"),
        "{}",
        refused.stderr
    );
}

#[test]
fn stats_by_level_groups_rate_rows() {
    let dir = Workdir::new();
    dir.write("in.txt", mixed_input(40));
    ok(&dir.run(&["rate", "-q", "in.txt", "-o", "out.csv"]), "rate");
    let run = dir.run(&["stats", "--json", "--by", "level", "out.csv"]);
    ok(&run, "stats --by level");
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let groups = doc["groups"].as_object().unwrap();
    let rows = csv_rows(&dir.read("out.csv"));
    for (level, group) in groups {
        let count = rows.iter().filter(|r| &r["level"] == level).count();
        assert_eq!(group["records"], count, "{level}");
        if !level.is_empty() {
            assert_eq!(group["rating"]["levels"][level], count, "{level}");
        }
    }
    let text = dir.run(&["stats", "--by", "level", "out.csv", "--detail"]);
    assert!(
        text.stdout.contains("\n== level = hard ==\n"),
        "{}",
        text.stdout
    );
    // Without --detail: one table, a row per level and one for them all.
    let text = dir.run(&["stats", "--by", "level", "out.csv"]).stdout;
    assert!(!text.contains("=="), "{text}");
    assert!(text.lines().any(|l| l.starts_with("hard ")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("(all) ")), "{text}");
}

#[test]
fn jigsaw_records_are_rated_with_their_regions() {
    let dir = Workdir::new();
    let run = dir.run(&["rate", "-q", &data("jigsaw_sample.csv"), "--strict"]);
    ok(&run, "rate jigsaw");
    let rows = csv_rows(&run.stdout);
    assert_eq!(rows.len(), 40);
    for row in &rows {
        assert_eq!(row["status"], "rated", "{row:?}");
        assert!(!row["techniques"].contains("empty-rectangle"), "{row:?}");
    }
}

/// `rate --invariant` gives every `augment` copy its source's rating on both scales, where the
/// copies as written are rated otherwise for some (both raters' paths depend on where the cells
/// are); the rows keep the copies as written. A jigsaw record has no canonical form: invalid.
#[test]
fn augmented_copies_rated_invariant_get_their_sources_rating() {
    let dir = Workdir::new();
    let sources = puzzles("graded/qqwing_expert.txt.gz", 20);
    dir.write("src.txt", sources.join("\n") + "\n");
    let run = dir.run(&[
        "augment", "src.txt", "--copies", "3", "--seed", "2", "-q", "-o", "aug.csv",
    ]);
    ok(&run, "augment");
    let copies = csv_rows(&dir.read("aug.csv"));
    assert_eq!(copies.len(), 60);
    let scales: [(&str, &[&str]); 2] = [
        ("hodoku", &["level", "score", "techniques"]),
        ("se", &["er", "ep", "ed", "hardest", "steps"]),
    ];
    for (scale, columns) in scales {
        let rate = |file: &str, invariant: bool| {
            let mut args = vec!["rate", file, "--scale", scale, "-q"];
            if invariant {
                args.push("--invariant");
            }
            let run = dir.run(&args);
            ok(&run, "rate");
            csv_rows(&run.stdout)
        };
        let rating = |row: &BTreeMap<String, String>| -> Vec<String> {
            columns.iter().map(|c| row[*c].clone()).collect()
        };
        let source = rate("src.txt", true);
        let (invariant, as_written) = (rate("aug.csv", true), rate("aug.csv", false));
        let mut differ = 0;
        for ((copy, row), plain) in copies.iter().zip(&invariant).zip(&as_written) {
            let of = &source[copy["line"].parse::<usize>().unwrap() - 1];
            assert_eq!(
                (&row["status"], &row["puzzle"]),
                (&"rated".to_string(), &copy["puzzle"])
            );
            assert_eq!(rating(row), rating(of), "{scale}: {}", copy["puzzle"]);
            differ += usize::from(rating(plain) != rating(of));
        }
        assert!(
            differ > 0,
            "{scale}: no copy as written is rated otherwise: nothing shown"
        );
    }
    let run = dir.run(&["rate", "-q", &data("jigsaw_sample.csv"), "--invariant"]);
    ok(&run, "rate jigsaw");
    let rows = csv_rows(&run.stdout);
    assert!(
        rows.iter().all(
            |r| r["status"] == "invalid" && r["error"].contains("standard 3x3-box layout only")
        )
    );
}

/// Kills a run that writes to `out.csv` (a checkpoint after every chunk of 8192 rows) once
/// its partial output holds a chunk, resumes it, and compares with an uninterrupted run.
#[cfg(target_os = "linux")]
#[test]
fn a_killed_run_resumes_to_the_bytes_of_an_uninterrupted_one() {
    let dir = Workdir::new();
    // QQWing's easier grades, over and over: five chunks that rate quickly.
    let mut set = puzzles("graded/qqwing_simple.txt.gz", 1000);
    set.extend(puzzles("graded/qqwing_intermediate.txt.gz", 1000));
    let text: String = set
        .iter()
        .cycle()
        .take(42_000)
        .map(|p| format!("{p}\n"))
        .collect();
    dir.write("in.txt", text);
    ok(
        &dir.run(&["rate", "-q", "in.txt", "-o", "whole.csv"]),
        "whole",
    );
    let expected = dir.read("whole.csv");
    let args = [
        "rate",
        "-q",
        "in.txt",
        "-o",
        "out.csv",
        "--checkpoint-every",
        "0",
        "--threads",
        "1",
    ];
    let mut child = dir.spawn(&args, false);
    let partial = dir.path("out.csv.partial");
    let start = Instant::now();
    // More than a header: at least one chunk of rows.
    while std::fs::metadata(&partial).map_or(0, |m| m.len()) < 10_000 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it was killed"
        );
        assert!(start.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = std::fs::metadata(&partial).unwrap().len();
    assert!(kept < expected.len() as u64, "killed after the end");
    let mut resume = args.to_vec();
    resume.push("--resume");
    ok(&dir.run(&resume), "resume");
    assert_eq!(dir.read("out.csv"), expected);
    assert!(!partial.exists());
}

/// `show --explain` rates as `rate` does: the same level, score, hardest technique and steps,
/// and one numbered line per step.
#[test]
fn show_explain_gives_the_steps_of_the_rating_rate_gives() {
    let dir = Workdir::new();
    let set = puzzles("graded/qqwing_expert.txt.gz", 12);
    dir.write("in.txt", set.join("\n"));
    let rated = dir.run(&["rate", "-q", "in.txt"]);
    ok(&rated, "rate");
    for (puzzle, row) in set.iter().zip(csv_rows(&rated.stdout)) {
        let run = dir.run(&["show", "--explain=never", puzzle]);
        ok(&run, puzzle);
        let (_, explained) = run
            .stdout
            .split_once("\nexplanation (HoDoKu's techniques, scores and levels):\nrating: ")
            .unwrap_or_else(|| panic!("no explanation: {}", run.stdout));
        let first = explained.lines().next().unwrap();
        let prefix = format!("{}, score {}, hardest ", row["level"], row["score"]);
        assert!(first.starts_with(&prefix), "{first} / {row:?}");
        assert!(
            first.ends_with(&format!(", {} steps", row["steps"])),
            "{first}"
        );
        let steps = explained
            .lines()
            .filter(|l| {
                l.trim_start()
                    .split_once(". ")
                    .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
            })
            .count();
        assert_eq!(steps.to_string(), row["steps"], "{explained}");
        assert!(!explained.contains("candidates"), "--explain=never");
    }
}

#[test]
fn show_explain_draws_candidates_and_explains_what_it_cannot_rate() {
    let dir = Workdir::new();
    let puzzle =
        "..2......5....9..1.1..........268.7.7...1...52.6..5...65...24.89...8.1....8..49..";
    let run = dir.run(&["show", "--explain", puzzle]);
    ok(&run, "show --explain");
    let text = &run.stdout;
    assert!(
        text.contains("\nrating: hard, score 870, hardest Uniqueness Test 1, "),
        "{text}"
    );
    assert!(text.contains("\ncandidates at the start:\n"), "{text}");
    assert!(
        text.contains(": removes 7 from r6c4; 9 from r6c4\n"),
        "the unique rectangle's eliminations: {text}"
    );
    // The grid of candidates comes right before each step harder than a single.
    let grids = text.matches("\ncandidates before step ").count();
    let advanced = text
        .lines()
        .filter(|l| {
            l.trim_start()
                .split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .filter(|l| !l.contains("Single:") && !l.contains("Full House:"))
        .count();
    assert_eq!(grids, advanced, "{text}");
    let several = dir.run(&["show", "--explain=never", &".".repeat(81)]);
    ok(&several, "several solutions");
    assert!(
        several.stdout.contains("\nseveral solutions ("),
        "{}",
        several.stdout
    );
    assert!(!several.stdout.contains("Uniqueness"), "{}", several.stdout);
    let unsolvable = format!("12345678.........9{}", ".".repeat(63));
    let none = dir.run(&["show", "--explain", &unsolvable]);
    assert!(
        none.stdout
            .contains("\nnot rated: the puzzle has no solution\n"),
        "{}",
        none.stdout
    );
    let bad = dir.run(&["show", "--explain=sometimes", puzzle]);
    assert_eq!(bad.code, Some(2));
}

#[test]
fn stats_html_of_rate_output_shows_the_ratings_and_no_search_counters() {
    let dir = Workdir::new();
    dir.write("in.txt", mixed_input(40));
    ok(&dir.run(&["rate", "-q", "in.txt", "-o", "out.csv"]), "rate");
    ok(
        &dir.run(&["stats", "out.csv", "--html", "page.html"]),
        "stats --html",
    );
    let page = dir.read("page.html");
    assert!(page.contains("<h2>Ratings (HoDoKu's levels and scores)</h2>"));
    assert!(page.contains("rated puzzles per level"));
    assert!(!page.contains("<h2>Search counters</h2>"));
    let rows = csv_rows(&dir.read("out.csv"));
    let hard = rows.iter().filter(|r| r["level"] == "hard").count();
    assert!(
        page.contains(&format!("<title>hard: {hard}</title>")),
        "{page}"
    );
}

#[test]
fn rate_and_stats_count_canonical_forms_of_rate_rows() {
    let dir = Workdir::new();
    let set = puzzles("graded/qqwing_expert.txt.gz", 30);
    // Ten of them twice: 40 puzzles, 30 distinct.
    let text: String = set
        .iter()
        .chain(&set[..10])
        .map(|p| format!("{p}\n"))
        .collect();
    dir.write("in.txt", text);
    let run = dir.run(&[
        "rate",
        "-q",
        "in.txt",
        "-o",
        "out.csv",
        "--summary",
        "s.json",
        "--canonical",
    ]);
    ok(&run, "rate --canonical");
    let summary: serde_json::Value = serde_json::from_str(&dir.read("s.json")).unwrap();
    assert_eq!(summary["canonical"]["puzzles"], 40);
    assert_eq!(summary["canonical"]["distinct"], 30);
    let stats = dir.run(&["stats", "--canonical", "--json", "out.csv"]);
    ok(&stats, "stats --canonical");
    let doc: serde_json::Value = serde_json::from_str(&stats.stdout).unwrap();
    assert_eq!(doc["canonical"], summary["canonical"]);
    assert_eq!(doc["rating"], summary["rating"]);
}
