//! `sudoku-bulk canon`: canonical forms row by row, `--dedupe` against planted disguised
//! duplicates, its bound and its report; canonical counts in `solve --summary` and `stats`.

use std::collections::BTreeMap;

use sudoku_bulk::canon::{Transform, canonical_form};
use sudoku_bulk::rng::SplitMix64;
use sudoku_bulk::{Grid, Layout};

use crate::workdir::{Workdir, csv_rows, gzip, puzzles};

/// 200 puzzles of the 17-clue list (all different classes) with 30 disguised copies of earlier
/// ones planted among them: the lines (1-based) of the file, and for each planted line the line
/// of the puzzle it copies.
fn planted() -> (Vec<String>, BTreeMap<usize, usize>) {
    let originals = puzzles("puzzles2_17_clue.txt.gz", 200);
    let mut rng = SplitMix64::new(41);
    let mut lines: Vec<String> = Vec::new();
    let mut copies = BTreeMap::new();
    let mut line_of_original = Vec::new();
    for (i, original) in originals.iter().enumerate() {
        lines.push(original.clone());
        line_of_original.push(lines.len());
        if i % 7 == 6 && copies.len() < 30 {
            // A copy of an earlier original, moved by a random element of the group.
            let source = rng.below(i + 1);
            let grid: Grid = originals[source].parse().unwrap();
            lines.push(Transform::random(&mut rng).apply(&grid).to_line());
            copies.insert(lines.len(), line_of_original[source]);
        }
    }
    assert_eq!(copies.len(), 28);
    (lines, copies)
}

#[test]
fn dedupe_finds_exactly_the_planted_disguised_duplicates() {
    let dir = Workdir::new();
    let (lines, copies) = planted();
    dir.write("p.txt.gz", gzip((lines.join("\n") + "\n").as_bytes()));
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let run = dir.run(&[
            "canon",
            "p.txt.gz",
            "--dedupe",
            "--duplicates",
            "dups.csv",
            "--threads",
            threads,
            "-o",
            "out.csv",
        ]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert!(
            run.stderr
                .contains("200 classes written, 28 duplicates left out"),
            "{}",
            run.stderr
        );
        outputs.push((dir.read("out.csv"), dir.read("dups.csv")));
    }
    assert_eq!(
        outputs[0], outputs[1],
        "the same bytes for any thread count"
    );
    let (out, dups) = &outputs[0];
    let written: Vec<usize> = csv_rows(out)
        .iter()
        .map(|r| r["line"].parse().unwrap())
        .collect();
    let expected: Vec<usize> = (1..=lines.len())
        .filter(|l| !copies.contains_key(l))
        .collect();
    assert_eq!(written, expected);
    let reported: BTreeMap<usize, usize> = csv_rows(dups)
        .iter()
        .map(|r| (r["line"].parse().unwrap(), r["first_line"].parse().unwrap()))
        .collect();
    assert_eq!(reported, copies);
}

#[test]
fn every_row_holds_the_form_and_bad_records_are_invalid() {
    let dir = Workdir::new();
    let good = puzzles("puzzles3_magictour_top1465.txt.gz", 20);
    let mut text = good.join("\n") + "\n";
    text += &format!("{}\n", &good[0][..80]);
    text += &format!("55{}\n", &good[0][2..]);
    dir.write("in.txt", text);
    let run = dir.run(&["canon", "in.txt", "--output-format", "jsonl"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 22);
    for (row, puzzle) in rows.iter().zip(&good) {
        let form = canonical_form(&puzzle.parse().unwrap(), &Layout::standard()).unwrap();
        assert_eq!(row["status"], "ok");
        assert_eq!(row["canonical"], form.to_line());
    }
    assert_eq!(rows[20]["status"], "invalid");
    assert_eq!(rows[20]["error"], "expected 81 cells, found 80");
    assert_eq!(rows[21]["status"], "invalid");
    assert_eq!(rows[21]["canonical"], serde_json::Value::Null);
    let strict = dir.run(&["canon", "in.txt", "--strict", "-q"]);
    assert_eq!(strict.code, Some(1));
}

#[test]
fn too_many_classes_end_the_run_and_write_nothing() {
    let dir = Workdir::new();
    dir.write(
        "in.txt",
        puzzles("puzzles2_17_clue.txt.gz", 10).join("\n") + "\n",
    );
    let run = dir.run(&[
        "canon",
        "in.txt",
        "--dedupe",
        "--max-classes",
        "9",
        "-o",
        "out.csv",
    ]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("--dedupe: more than 9 classes; raise --max-classes"),
        "{}",
        run.stderr
    );
    assert!(!dir.path("out.csv").exists());
}

#[test]
fn summaries_and_stats_count_distinct_forms_exactly() {
    let dir = Workdir::new();
    let (lines, copies) = planted();
    dir.write("p.txt", lines.join("\n") + "\n");
    let run = dir.run(&[
        "solve",
        "p.txt",
        "--summary",
        "s.json",
        "--canonical",
        "-o",
        "r.csv",
        "-q",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let summary: serde_json::Value = serde_json::from_str(&dir.read("s.json")).unwrap();
    assert_eq!(summary["canonical"]["puzzles"], lines.len());
    assert_eq!(summary["canonical"]["distinct"], lines.len() - copies.len());
    let from_rows = dir.run(&["stats", "r.csv", "--canonical"]);
    assert!(
        from_rows
            .stdout
            .contains("distinct canonical forms: 200 among 228 puzzles with a form"),
        "{}",
        from_rows.stdout
    );
    // Two saved summaries of the same rows merge to the same classes, not twice as many.
    let merged = dir.run(&["stats", "s.json", "s.json", "--canonical", "--json"]);
    let merged: serde_json::Value = serde_json::from_str(&merged.stdout).unwrap();
    assert_eq!(merged["canonical"]["distinct"], 200);
    assert_eq!(merged["canonical"]["puzzles"], 456);
}

#[test]
fn jigsaw_layouts_and_resuming_a_dedupe_are_refused() {
    let dir = Workdir::new();
    let jigsaw =
        "aaabbbbbbaaabbbcccaaddcccccadddeeecfdddeeeeffdgeefffffggghhhhfiggghhhiiigghhiiiii";
    let run = dir.run(&["canon", "--regions", jigsaw]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("standard 3x3-box layout only"),
        "{}",
        run.stderr
    );
    let run = dir.run(&["canon", "--dedupe", "-o", "x.csv", "--resume"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("--dedupe cannot --resume"),
        "{}",
        run.stderr
    );
}

#[test]
fn dedupe_exact_leaves_out_identical_puzzles_only_with_blanks_written_either_way() {
    let dir = Workdir::new();
    let originals = puzzles("puzzles2_17_clue.txt.gz", 3);
    let grid: Grid = originals[0].parse().unwrap();
    let disguised = Transform::random(&mut SplitMix64::new(5))
        .apply(&grid)
        .to_line();
    let lines = [
        originals[0].clone(),
        originals[1].clone(),
        originals[0].replace('.', "0"),
        disguised,
        originals[1].clone(),
    ];
    dir.write("p.txt", lines.join("\n") + "\n");
    let run = dir.run(&[
        "canon",
        "p.txt",
        "--dedupe",
        "--exact",
        "--max-classes",
        "3",
        "--duplicates",
        "dups.csv",
        "-o",
        "out.csv",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let written: Vec<String> = csv_rows(&dir.read("out.csv"))
        .iter()
        .map(|r| r["line"].clone())
        .collect();
    // The disguised copy is another puzzle: kept; the same puzzle with 0 blanks is not.
    assert_eq!(written, ["1", "2", "4"]);
    let reported: Vec<(String, String)> = csv_rows(&dir.read("dups.csv"))
        .iter()
        .map(|r| (r["line"].clone(), r["first_line"].clone()))
        .collect();
    assert_eq!(
        reported,
        [("3".into(), "1".into()), ("5".into(), "2".into())]
    );
    // The report is CSV: a name that says another format is refused before anything is read.
    for name in ["dups.parquet", "dups.jsonl"] {
        let run = dir.run(&[
            "canon",
            "p.txt",
            "--dedupe",
            "--duplicates",
            name,
            "-o",
            "o.csv",
        ]);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert!(
            run.stderr.contains("the duplicates report is CSV"),
            "{}",
            run.stderr
        );
        assert!(!dir.path(name).exists() && !dir.path("o.csv").exists());
    }
    // Without --exact the disguise is one class with the first; the bound holds in both modes.
    let run = dir.run(&["canon", "p.txt", "--dedupe", "-o", "all.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(csv_rows(&dir.read("all.csv")).len(), 2);
    let run = dir.run(&[
        "canon",
        "p.txt",
        "--dedupe",
        "--exact",
        "--max-classes",
        "2",
        "-o",
        "x.csv",
    ]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("more than 2 classes"), "{}", run.stderr);
    assert!(dir.run(&["canon", "p.txt", "--exact"]).code == Some(2));
}

#[test]
fn dedupe_as_input_writes_the_records_kept_byte_for_byte() {
    let dir = Workdir::new();
    let (lines, copies) = planted();
    let kept = |records: &[String]| -> String {
        records
            .iter()
            .enumerate()
            .filter(|(i, _)| !copies.contains_key(&(i + 1)))
            .map(|(_, r)| r.as_str())
            .collect()
    };
    // Lines with trailing fields, a comment and a blank line (neither is a record).
    let line_records: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{p} id-{i}  trailing text\n"))
        .collect();
    dir.write("p.txt", format!("# planted\n\n{}", line_records.concat()));
    // CSV with every kind of field: quoted separators, quotes and line breaks.
    let header = "id,quizzes,note\n";
    let csv_records: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, p)| match i % 3 {
            0 => format!("{i},{p},\"a, b\"\n"),
            1 => format!("{i},{p},\"two\nlines, \"\"quoted\"\"\"\n"),
            _ => format!("{i},{p},\n"),
        })
        .collect();
    dir.write("p.csv", format!("{header}{}", csv_records.concat()));
    let json_records: Vec<String> = lines
        .iter()
        .map(|p| format!("{{\"puzzle\": \"{p}\", \"tag\": [1, 2]}}\n"))
        .collect();
    dir.write("p.jsonl", json_records.concat());
    for (input, expected) in [
        ("p.txt", kept(&line_records)),
        ("p.csv", format!("{header}{}", kept(&csv_records))),
        ("p.jsonl", kept(&json_records)),
    ] {
        for threads in ["1", "2"] {
            let run = dir.run(&[
                "canon",
                input,
                "--dedupe",
                "--as-input",
                "--threads",
                threads,
                "-o",
                "out",
            ]);
            assert_eq!(run.code, Some(0), "{input}: {}", run.stderr);
            assert!(
                run.stderr
                    .contains("200 classes written, 28 duplicates left out"),
                "{input}: {}",
                run.stderr
            );
            assert_eq!(dir.read("out"), expected, "{input}, {threads} threads");
        }
    }
    // Several inputs of one header: one header, then the records of each in turn; the second
    // copy of the file is all duplicates.
    let run = dir.run(&["canon", "p.csv", "p.csv", "--dedupe", "--as-input"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout, format!("{header}{}", kept(&csv_records)));
}

#[test]
fn dedupe_as_input_refuses_records_it_cannot_write_as_they_were_and_writes_nothing() {
    let dir = Workdir::new();
    let p = puzzles("puzzles2_17_clue.txt.gz", 2);
    dir.write("a.csv", format!("quizzes,id\n{},1\n", p[0]));
    dir.write("b.csv", format!("quizzes,number\n{},2\n", p[1]));
    dir.write("c.txt", format!("{}\n", p[1]));
    dir.write(
        "g.txt",
        format!("{}\n", p[1]).replace('.', "0").replace("", " "),
    );
    dir.write(
        "long.csv",
        format!(
            "quizzes,note\n{},short\n{},{}\n",
            p[0],
            p[1],
            "x".repeat(70_000)
        ),
    );
    let solved = dir.run(&["solve", "c.txt", "-o", "s.parquet", "-q"]);
    assert_eq!(solved.code, Some(0), "{}", solved.stderr);
    for (inputs, message) in [
        (
            &["a.csv", "b.csv"][..],
            "b.csv: --as-input: its header differs from that of a.csv",
        ),
        (
            &["a.csv", "c.txt"],
            "c.txt: --as-input: its records are line but those of a.csv are csv",
        ),
        (
            &["s.parquet"],
            "s.parquet: --as-input: Parquet records cannot be written as they were",
        ),
        (
            &["--input-format", "grid", "g.txt"],
            "g.txt: --as-input: grid records cannot be written as they were",
        ),
        (
            &["long.csv"],
            "long.csv: --as-input: line 3: the record is longer than 65536 bytes",
        ),
    ] {
        let mut args = vec!["canon", "--dedupe", "--as-input", "-o", "out.csv"];
        args.extend(inputs);
        let run = dir.run(&args);
        assert_eq!(run.code, Some(2), "{inputs:?}: {}", run.stderr);
        assert!(run.stderr.contains(message), "{inputs:?}: {}", run.stderr);
        assert!(!dir.path("out.csv").exists(), "{inputs:?}: nothing written");
    }
    for (extra, message) in [
        (&["--keep-columns", "id"][..], "leave out --keep-columns"),
        (&["-o", "x.parquet"], "leave out --output-format"),
        (&["--output-format", "jsonl"], "leave out --output-format"),
    ] {
        let mut args = vec!["canon", "a.csv", "--dedupe", "--as-input"];
        args.extend(extra);
        let run = dir.run(&args);
        assert_eq!(run.code, Some(2), "{extra:?}: {}", run.stderr);
        assert!(run.stderr.contains(message), "{extra:?}: {}", run.stderr);
    }
}
