//! `--keep-columns SOURCE=NAME`: a kept column renamed in the output, so that a Kaggle file
//! (`quizzes,solutions`) carries its answers through a run beside our own `solutions` count,
//! in every command and output format; a clash is refused with the renaming to use.

use std::collections::BTreeMap;

use sudoku_bulk::format::parquet::ParquetReader;
use sudoku_bulk::format::{Columns, ReadOptions, RecordReader, Wanted};

use crate::workdir::{Workdir, csv_header, csv_rows};

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// A file as Kaggle's 1M and 9M sets are: `quizzes,solutions`, blanks as `0`.
fn kaggle() -> String {
    let quiz = PUZZLE.replace('.', "0");
    format!("quizzes,solutions\n{quiz},{SOLUTION}\n{quiz},{SOLUTION}\n")
}

/// The names and rows of an output in any format, every value as text.
fn rows_of(dir: &Workdir, name: &str) -> (Vec<String>, Vec<BTreeMap<String, String>>) {
    let text = || dir.read(name);
    if name.ends_with(".csv") {
        (csv_header(&text()), csv_rows(&text()))
    } else if name.ends_with(".jsonl") {
        let rows: Vec<serde_json::Map<String, serde_json::Value>> = text()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let names = rows[0].keys().cloned().collect();
        let rows = rows
            .into_iter()
            .map(|r| {
                r.into_iter()
                    .map(|(k, v)| (k, v.as_str().map_or(v.to_string(), str::to_string)))
                    .collect()
            })
            .collect();
        (names, rows)
    } else {
        let path = dir.path(name);
        let file = std::fs::File::open(&path).unwrap();
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let names: Vec<String> = SerializedFileReader::new(file)
            .unwrap()
            .metadata()
            .file_metadata()
            .schema_descr()
            .columns()
            .iter()
            .map(|c| c.name().to_string())
            .collect();
        let options = ReadOptions {
            wanted: Wanted::Columns,
            columns: Columns {
                keep: names.clone(),
                ..Columns::default()
            },
            ..ReadOptions::default()
        };
        let mut reader = ParquetReader::open(&path, &options).unwrap();
        let mut rows = Vec::new();
        while let Some(record) = reader.next_record().unwrap() {
            let values = record
                .kept
                .iter()
                .map(|v| String::from_utf8_lossy(v).into());
            rows.push(names.iter().cloned().zip(values).collect());
        }
        (names, rows)
    }
}

#[test]
fn a_kaggle_file_keeps_its_solutions_under_another_name_in_every_command_and_format() {
    let dir = Workdir::new();
    dir.write("kaggle.csv", kaggle());
    for command in ["solve", "verify", "rate", "canon"] {
        for ext in ["csv", "jsonl", "parquet"] {
            let out = format!("{command}.{ext}");
            let run = dir.run(&[
                command,
                "-q",
                "kaggle.csv",
                "--keep-columns",
                "solutions=kaggle_solution",
                "-o",
                &out,
            ]);
            assert!(matches!(run.code, Some(0 | 1)), "{out}: {}", run.stderr);
            let (names, rows) = rows_of(&dir, &out);
            // JSON objects come back with their keys sorted: the line tells the order.
            if ext == "jsonl" {
                let first = dir.read(&out);
                let end = format!(",\"kaggle_solution\":\"{SOLUTION}\"}}");
                assert!(first.lines().next().unwrap().ends_with(&end), "{first}");
            } else {
                assert_eq!(names.last().unwrap(), "kaggle_solution", "{out}: {names:?}");
            }
            assert_eq!(rows.len(), 2, "{out}");
            assert_eq!(rows[0]["kaggle_solution"], SOLUTION, "{out}");
            if command == "solve" {
                assert_eq!(rows[0]["solutions"], "1", "{out}: our count stays ours");
            }
        }
    }
}

#[test]
fn a_renamed_column_is_read_from_json_lines_and_parquet_inputs() {
    let dir = Workdir::new();
    dir.write(
        "in.jsonl",
        format!("{{\"quizzes\":\"{PUZZLE}\",\"solutions\":\"{SOLUTION}\",\"id\":7}}\n"),
    );
    let run = dir.run(&[
        "solve",
        "-q",
        "in.jsonl",
        "--keep-columns",
        "id,solutions=answer",
        "-o",
        "in.parquet",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // The Parquet output is an input in turn: its `answer` kept back as `kaggle`.
    let run = dir.run(&[
        "solve",
        "-q",
        "in.parquet",
        "--puzzle-column",
        "puzzle",
        "--keep-columns",
        "answer=kaggle, id = ident",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let header = csv_header(&run.stdout);
    assert_eq!(header[header.len() - 2..], ["kaggle", " ident"]);
    let rows = csv_rows(&run.stdout);
    assert_eq!(rows[0]["kaggle"], SOLUTION);
    assert_eq!(rows[0][" ident"], "7");
}

#[test]
fn keeping_a_column_under_one_of_ours_is_refused_showing_the_renaming() {
    let dir = Workdir::new();
    dir.write("kaggle.csv", kaggle());
    let run = dir.run(&["solve", "kaggle.csv", "--keep-columns", "solutions"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.starts_with(
            "sudoku-bulk: error: --keep-columns solutions: the output has a column 'solutions' \
             of its own ("
        ) && run
            .stderr
            .ends_with("keep it under another name: --keep-columns solutions=input_solutions\n"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
    // The suggested renaming works as it is shown.
    let run = dir.run(&[
        "solve",
        "kaggle.csv",
        "--keep-columns",
        "solutions=input_solutions",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // A renaming onto one of ours, two onto one name, or an empty side.
    for (keep, says) in [
        (
            "solutions=Status",
            "--keep-columns solutions=Status: the output has a column 'status'",
        ),
        (
            "quizzes=a,solutions=A",
            "--keep-columns names 'a' twice (here 'A'",
        ),
        (
            "solutions=a,solutions=b",
            "--keep-columns names 'solutions' twice",
        ),
        (
            "solutions=",
            "--keep-columns 'solutions=': a column is kept as NAME, or renamed",
        ),
        (
            "=x",
            "--keep-columns '=x': a column is kept as NAME, or renamed",
        ),
    ] {
        let run = dir.run(&["solve", "kaggle.csv", "--keep-columns", keep]);
        assert_eq!(run.code, Some(2), "{keep}");
        assert!(
            run.stderr
                .starts_with(&format!("sudoku-bulk: error: {says}")),
            "{keep}: {}",
            run.stderr
        );
    }
}

#[test]
fn a_line_break_inside_a_quoted_kept_field_is_kept_as_it_was() {
    let dir = Workdir::new();
    // CR-LF line ends throughout: the one inside the quotes is the field's own.
    dir.write(
        "notes.csv",
        format!("puzzle,note\r\n{PUZZLE},\"two\r\nlines\"\r\n{PUZZLE},\"one\nbreak\"\r\n"),
    );
    for name in ["out.csv", "out.jsonl", "out.parquet"] {
        let run = dir.run(&["solve", "notes.csv", "--keep-columns", "note", "-o", name]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let (_, rows) = rows_of(&dir, name);
        let notes: Vec<&str> = rows.iter().map(|r| r["note"].as_str()).collect();
        assert_eq!(notes, ["two\r\nlines", "one\nbreak"], "{name}");
    }
}
