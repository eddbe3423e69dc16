//! `sudoku-bulk solve`: every input format, the mixed file, several inputs, output formats.

use crate::workdir::{Workdir, assert_solves, csv_header, csv_rows, puzzles};

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// No givens conflict, but r1c9 can hold nothing: 1-8 are in row 1 and 9 is in box 3.
const UNSOLVABLE: &str =
    "12345678.........9...............................................................";

/// The 3x3 boxes written out as a region layout.
const BOXES: &str =
    "111222333111222333111222333444555666444555666444555666777888999777888999777888999";

const SOLVE_COLUMNS: &[&str] = &[
    "line",
    "puzzle",
    "solution",
    "status",
    "solutions",
    "recursions",
    "max_depth",
    "guesses",
    "backtracks",
    "naked_singles",
    "hidden_singles",
    "givens",
    "error",
];

fn dots(n: usize) -> String {
    ".".repeat(n)
}

/// (line, status, error) of every row.
fn outline(csv: &str) -> Vec<(String, String, String)> {
    csv_rows(csv)
        .into_iter()
        .map(|r| (r["line"].clone(), r["status"].clone(), r["error"].clone()))
        .collect()
}

fn row(line: u64, status: &str, error: &str) -> (String, String, String) {
    (line.to_string(), status.to_string(), error.to_string())
}

#[test]
fn mixed_file_gives_the_exact_status_and_line_of_every_record() {
    let dir = Workdir::new();
    let multi = &puzzles("puzzles7_serg_benchmark.txt.gz", 1)[0];
    let mut bad_char = PUZZLE.to_string();
    bad_char.replace_range(36..37, "x");
    let mut control = PUZZLE.to_string();
    control.replace_range(2..3, "\u{1}");
    let duplicate = format!("55{}", &PUZZLE[2..]);
    let text = [
        "\u{feff}# every kind of record\n".to_string(), // 1: BOM and comment
        format!("{PUZZLE}\r\n"),                        // 2: CRLF, solved
        "\n".to_string(),                               // 3: blank
        format!("{}\n", &PUZZLE[..80]),                 // 4: 80 cells
        format!("{bad_char}\n"),                        // 5: a letter
        format!("{duplicate}\n"),                       // 6: two 5s in row 1
        format!("{UNSOLVABLE}\n"),                      // 7
        format!("{}\n", dots(81)),                      // 8: empty grid
        "   # indented comment\n".to_string(),          // 9
        format!("{multi} trailing,fields\r\n"),         // 10: several solutions
        format!("{control}\n"),                         // 11: a control byte
        PUZZLE.to_string(),                             // 12: no final newline
    ]
    .concat();
    dir.write("mixed.txt", text);
    let run = dir.run(&["solve", "mixed.txt"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(csv_header(&run.stdout), SOLVE_COLUMNS);
    assert_eq!(
        outline(&run.stdout),
        vec![
            row(2, "solved", ""),
            row(4, "invalid", "expected 81 cells, found 80"),
            row(5, "invalid", "invalid character 'x' at row 5, column 1"),
            row(6, "invalid", "digit 5 twice in row 1: r1c1 and r1c2"),
            row(7, "unsolvable", ""),
            row(8, "multiple", ""),
            row(10, "multiple", ""),
            row(
                11,
                "invalid",
                "invalid character '\\u{1}' at row 1, column 3"
            ),
            row(12, "solved", ""),
        ]
    );
    let rows = csv_rows(&run.stdout);
    assert_eq!(rows[0]["solution"], SOLUTION);
    assert_eq!(rows[0]["solutions"], "1");
    assert_eq!(rows[0]["givens"], "30");
    // Unreadable: no puzzle, no counts. Conflicting givens: the puzzle, still no counts.
    assert_eq!(rows[1]["puzzle"], "");
    assert_eq!(rows[1]["recursions"], "");
    assert_eq!(rows[3]["puzzle"], duplicate);
    assert_eq!(rows[3]["givens"], "");
    assert_eq!(rows[4]["solution"], "");
    assert_eq!(rows[4]["solutions"], "0");
    assert_eq!(rows[5]["solutions"], "2");
    assert_solves(&rows[5]["puzzle"], &rows[5]["solution"]);
    assert_solves(multi, &rows[6]["solution"]);
    // The first bad records on stderr, control bytes escaped, then the summary.
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines[0], "mixed.txt:4: expected 81 cells, found 80");
    assert_eq!(
        lines[3],
        "mixed.txt:11: invalid character '\\u{1}' at row 1, column 3"
    );
    assert!(!run.stderr.contains('\u{1}'));
    assert!(
        lines[4].starts_with("sudoku-bulk: 9 records in "),
        "{}",
        run.stderr
    );
    assert!(
        lines[4].ends_with("2 solved, 2 multiple, 1 unsolvable, 4 invalid, 0 gave_up"),
        "{}",
        run.stderr
    );
}

#[test]
fn line_format_normalises_blanks_and_ignores_trailing_fields() {
    let dir = Workdir::new();
    let zeros = PUZZLE.replace('.', "0");
    dir.write(
        "p.txt",
        format!("{zeros}:1:{SOLUTION}\n{}\n", PUZZLE.replace('.', "_")),
    );
    let run = dir.run(&["solve", "-q", "p.txt"]);
    let rows = csv_rows(&run.stdout);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!(r["puzzle"], PUZZLE);
        assert_eq!(r["solution"], SOLUTION);
        assert_eq!(r["status"], "solved");
    }
    assert_eq!(run.stderr, "");
}

#[test]
fn kaggle_csv_files_read_as_they_are() {
    let dir = Workdir::new();
    let multi = &puzzles("puzzles7_serg_benchmark.txt.gz", 1)[0];
    // The 1M file's header, with a BOM and CRLF.
    dir.write(
        "kaggle1m.csv",
        format!(
            "\u{feff}quizzes,solutions\r\n{}, {SOLUTION}\r\n{multi},\r\n",
            PUZZLE.replace('.', "0")
        ),
    );
    let run = dir.run(&["solve", "kaggle1m.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        outline(&run.stdout),
        vec![row(2, "solved", ""), row(3, "multiple", "")]
    );

    // The 3M file's header; quoted fields, a blank line, kept columns in the asked order.
    dir.write(
        "kaggle3m.csv",
        format!(
            "id,puzzle,solution,clues,difficulty\n\"1\",\"{PUZZLE}\",{SOLUTION},30,\"2,5\"\n\n2,{},,0,0.0\n3,{}\n",
            dots(81),
            PUZZLE
        ),
    );
    let run = dir.run(&["solve", "kaggle3m.csv", "--keep-columns", "difficulty,id"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let header = csv_header(&run.stdout);
    assert_eq!(header[header.len() - 2..], ["difficulty", "id"]);
    let rows = csv_rows(&run.stdout);
    assert_eq!(
        outline(&run.stdout),
        vec![
            row(2, "solved", ""),
            row(4, "multiple", ""),
            row(
                5,
                "invalid",
                "no difficulty field (the record has 2 fields)"
            ),
        ]
    );
    assert_eq!(
        (rows[0]["difficulty"].as_str(), rows[0]["id"].as_str()),
        ("2,5", "1")
    );
    assert_eq!(
        (rows[1]["difficulty"].as_str(), rows[1]["id"].as_str()),
        ("0.0", "2")
    );
}

#[test]
fn csv_column_chosen_by_name_and_missing_column_is_an_error() {
    let dir = Workdir::new();
    dir.write("q.csv", format!("Grid,Other\n{PUZZLE},x\n"));
    let run = dir.run(&["solve", "q.csv"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "sudoku-bulk: error: q.csv: no puzzle column (looked for puzzle, quizzes, quiz, \
         question, sudoku; the header has Grid, Other)\n"
    );
    let run = dir.run(&["solve", "q.csv", "--puzzle-column", "grid"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(outline(&run.stdout), vec![row(2, "solved", "")]);
}

#[test]
fn a_column_named_exactly_wins_and_an_ambiguous_name_is_an_error() {
    let dir = Workdir::new();
    dir.write(
        "ids.csv",
        format!("ID,id,Puzzle,puzzle\nupper,lower,bad,{PUZZLE}\n"),
    );
    let run = dir.run(&["solve", "-q", "ids.csv", "--keep-columns", "id"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows = csv_rows(&run.stdout);
    assert_eq!(
        (rows[0]["status"].as_str(), rows[0]["id"].as_str()),
        ("solved", "lower")
    );
    let run = dir.run(&["solve", "-q", "ids.csv", "--puzzle-column", "puzzle"]);
    assert_eq!(outline(&run.stdout), vec![row(2, "solved", "")]);
    // Several columns answer to a name: nothing is written, and the file is named.
    dir.write("cases.csv", format!("ID,Id,puzzle\nupper,title,{PUZZLE}\n"));
    dir.write("twins.csv", format!("id,puzzle,id\n1,{PUZZLE},2\n"));
    for (file, says) in [
        (
            "cases.csv",
            "cases.csv: ambiguous kept column: no column is named id exactly, and several \
             differ from it only in case: ID (column 1) and Id (column 2)",
        ),
        (
            "twins.csv",
            "twins.csv: ambiguous kept column: id is the name of columns 1 and 3",
        ),
    ] {
        let run = dir.run(&["solve", "-q", file, "--keep-columns", "id"]);
        assert_eq!(run.code, Some(2), "{file}: {}", run.stderr);
        assert!(
            run.stderr
                .starts_with(&format!("sudoku-bulk: error: {says}")),
            "{file}: {}",
            run.stderr
        );
        assert_eq!(run.stdout, "", "{file}");
    }
}

#[test]
fn a_json_key_named_exactly_wins_and_an_ambiguous_one_makes_its_record_invalid() {
    let dir = Workdir::new();
    dir.write(
        "in.jsonl",
        format!(
            "{{\"ID\":\"upper\",\"id\":\"lower\",\"puzzle\":\"{PUZZLE}\"}}\n\
             {{\"ID\":\"upper\",\"Id\":\"title\",\"puzzle\":\"{PUZZLE}\"}}\n\
             {{\"id\":1,\"puzzle\":\"{PUZZLE}\",\"id\":2}}\n"
        ),
    );
    let run = dir.run(&["solve", "-q", "in.jsonl", "--keep-columns", "id"]);
    let rows = csv_rows(&run.stdout);
    let seen: Vec<[&str; 3]> = rows
        .iter()
        .map(|r| [r["status"].as_str(), r["id"].as_str(), r["error"].as_str()])
        .collect();
    assert_eq!(
        seen,
        [
            ["solved", "lower", ""],
            [
                "invalid",
                "",
                "ambiguous member id: the object has it only in other cases, as ID, Id"
            ],
            [
                "invalid",
                "",
                "ambiguous member id: the object has it 2 times"
            ],
        ]
    );
}

#[test]
fn grid_format_reads_drawings_and_number_lists() {
    let dir = Workdir::new();
    let mut drawing = String::from("# a boxed grid\n");
    for r in 0..9 {
        if r == 3 || r == 6 {
            drawing.push_str("------+-------+------\n");
        }
        let cells: Vec<String> = PUZZLE[r * 9..r * 9 + 9].chars().map(String::from).collect();
        drawing.push_str(&format!(
            "{} | {} | {}\n",
            cells[..3].join(" "),
            cells[3..6].join(" "),
            cells[6..].join(" ")
        ));
    }
    let numbers: Vec<String> = PUZZLE.replace('.', "0").chars().map(String::from).collect();
    let scanner: String = numbers.chunks(9).map(|r| r.join(" ") + "\n").collect();
    let short: String = (0..8)
        .map(|r| format!("{}\n", &PUZZLE[r * 9..r * 9 + 9]))
        .collect();
    dir.write(
        "grids.txt",
        format!("{drawing}\n{scanner}\n{short}\n{scanner}"),
    );
    let run = dir.run(&["solve", "grids.txt"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        outline(&run.stdout),
        vec![
            row(2, "solved", ""),
            row(14, "solved", ""),
            row(24, "invalid", "expected 81 cells, found 72"),
            row(33, "solved", ""),
        ]
    );
    // The same text forced as lines: each line is a record of its own.
    let run = dir.run(&["solve", "-q", "--input-format", "line", "grids.txt"]);
    assert!(
        csv_rows(&run.stdout)
            .iter()
            .all(|r| r["status"] == "invalid")
    );
}

#[test]
fn jsonl_output_has_typed_values_in_column_order() {
    let dir = Workdir::new();
    dir.write("p.txt", format!("{PUZZLE}\n{}\n", &PUZZLE[..10]));
    let run = dir.run(&["solve", "p.txt", "--output-format", "jsonl"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    assert!(run.stdout.starts_with("{\"line\":1,\"puzzle\":"));
    assert_eq!(rows[0]["status"], "solved");
    assert_eq!(rows[0]["solution"], SOLUTION);
    assert_eq!(rows[0]["givens"], 30);
    assert!(rows[0]["error"].is_null());
    assert_eq!(rows[1]["status"], "invalid");
    assert!(rows[1]["puzzle"].is_null());
    assert!(rows[1]["recursions"].is_null());
    assert_eq!(rows[1]["error"], "expected 81 cells, found 10");
}

#[test]
fn several_inputs_are_one_stream_with_a_file_column() {
    let dir = Workdir::new();
    dir.write("a.txt", format!("{PUZZLE}\n\n{PUZZLE}\n"));
    dir.write("b.csv", format!("puzzle\n{UNSOLVABLE}\n"));
    let run = dir.run(&["solve", "a.txt", "b.csv", "a.txt"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(csv_header(&run.stdout)[..2], ["file", "line"]);
    let got: Vec<(String, String, String)> = csv_rows(&run.stdout)
        .into_iter()
        .map(|r| (r["file"].clone(), r["line"].clone(), r["status"].clone()))
        .collect();
    let want: Vec<(String, String, String)> = [
        ("a.txt", "1", "solved"),
        ("a.txt", "3", "solved"),
        ("b.csv", "2", "unsolvable"),
        ("a.txt", "1", "solved"),
        ("a.txt", "3", "solved"),
    ]
    .iter()
    .map(|(f, l, s)| (f.to_string(), l.to_string(), s.to_string()))
    .collect();
    assert_eq!(got, want);
}

/// The header and first two rows of the shipped jigsaw sample (`puzzle,regions,solution`).
fn jigsaw_csv() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/jigsaw_sample.csv");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().take(3).map(|l| format!("{l}\n")).collect()
}

#[test]
fn an_input_without_layouts_after_one_with_them_writes_the_layout_it_was_solved_on() {
    let dir = Workdir::new();
    let jigsaw = jigsaw_csv();
    dir.write("jig.csv", jigsaw);
    dir.write("std.txt", format!("{PUZZLE}\n"));
    dir.write("lay.txt", format!("{}\n", "123456789".repeat(9)));
    // With the 3x3 boxes, and with a layout of rows given by --regions.
    for (extra, layout) in [(None, BOXES), (Some("lay.txt"), &*"123456789".repeat(9))] {
        let mut args = vec!["solve", "-q", "jig.csv", "std.txt", "-o", "out.csv"];
        args.extend(extra.map(|l| ["--regions", l]).into_iter().flatten());
        let run = dir.run(&args);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let rows = csv_rows(&dir.read("out.csv"));
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2]["file"], "std.txt");
        assert_eq!(rows[2]["regions"], layout);
        // Rows for regions leave a Latin square with several completions.
        let status = if extra.is_some() {
            "multiple"
        } else {
            "solved"
        };
        assert_eq!(rows[2]["status"], status);
        // Read back, every row is checked on the layout it was solved on.
        let run = dir.run(&["verify", "-q", "out.csv"]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let statuses: Vec<String> = csv_rows(&run.stdout)
            .into_iter()
            .map(|r| r["status"].clone())
            .collect();
        assert_eq!(statuses, ["ok", "ok", "ok"], "{}", run.stdout);
    }
}

#[test]
fn an_input_with_layouts_after_a_long_one_without_still_gets_its_layouts_written() {
    let dir = Workdir::new();
    let jigsaw = jigsaw_csv();
    dir.write("jig.csv", &jigsaw);
    // Longer than the first chunk: the rows' columns are fixed before jig.csv is opened.
    dir.write("long.txt", format!("{PUZZLE}\n").repeat(2000));
    let run = dir.run(&["solve", "-q", "long.txt", "jig.csv", "-o", "out.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows = csv_rows(&dir.read("out.csv"));
    assert_eq!(rows.len(), 2002);
    assert_eq!(rows[0]["regions"], BOXES);
    assert_eq!(
        rows[2001]["regions"],
        jigsaw.lines().nth(2).unwrap().split(',').nth(1).unwrap()
    );
    let run = dir.run(&["verify", "-q", "out.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows = csv_rows(&run.stdout);
    assert_eq!(rows.len(), 2002);
    assert!(rows.iter().all(|r| r["status"] == "ok"), "{}", run.stdout);
    // From standard input it cannot be looked at in advance: refused, nothing written.
    let run = dir.run_with_stdin(&["solve", "-q", "long.txt", "-", "-o", "new.csv"], jigsaw);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains(
            "<stdin>: it has a regions column, but the rows of this run carry no layouts"
        ),
        "{}",
        run.stderr
    );
    assert!(!dir.path("new.csv").exists());
}

#[test]
fn max_solutions_and_max_recursions_shape_the_statuses() {
    let dir = Workdir::new();
    let hard = &puzzles("puzzles6_forum_hardest_1106.txt.gz", 1)[0];
    dir.write("p.txt", format!("{}\n{hard}\n", dots(81)));
    let run = dir.run(&["solve", "-q", "p.txt", "--max-solutions", "1"]);
    let rows = csv_rows(&run.stdout);
    assert_eq!(rows[0]["status"], "solved");
    assert_eq!(rows[0]["solutions"], "1");
    let run = dir.run(&["solve", "p.txt", "--max-recursions", "2"]);
    assert_eq!(run.code, Some(0));
    let rows = csv_rows(&run.stdout);
    assert_eq!(rows[1]["status"], "gave_up");
    assert_eq!(rows[1]["recursions"], "2");
    assert_eq!(rows[0]["status"], "gave_up");
    assert!(run.stderr.contains("2 gave_up"), "{}", run.stderr);
}

#[test]
fn a_very_long_line_is_invalid_and_the_next_line_is_read() {
    let dir = Workdir::new();
    let long = "1".repeat(300_000);
    dir.write("long.txt", format!("{long}\n{PUZZLE}\n"));
    let run = dir.run(&["solve", "long.txt"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        outline(&run.stdout),
        vec![
            row(1, "invalid", "line longer than 65536 bytes"),
            row(2, "solved", "")
        ]
    );
}

#[cfg(unix)]
#[test]
fn an_output_that_would_replace_an_input_is_refused() {
    let dir = Workdir::new();
    dir.write("in.txt", format!("{PUZZLE}\n"));
    std::os::unix::fs::symlink("in.txt", dir.path("link.txt")).unwrap();
    for args in [
        &["solve", "in.txt", "-o", "in.txt"][..],
        &["solve", "in.txt", "-o", "link.txt"],
        &["verify", "in.txt", "-o", "in.txt"],
        &["solve", "in.txt", "-o", "out.csv", "--summary", "in.txt"],
    ] {
        let run = dir.run(args);
        assert_eq!(run.code, Some(2), "{args:?}");
        assert!(
            run.stderr
                .contains("is an input of the run: write the output to another file"),
            "{}",
            run.stderr
        );
        assert_eq!(dir.read("in.txt"), format!("{PUZZLE}\n"));
        assert_eq!(dir.entries(), ["in.txt", "link.txt"]);
    }
    // Devices may be both.
    let run = dir.run(&["solve", "/dev/null", "-o", "/dev/null"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

#[test]
fn tab_and_semicolon_separated_files_are_read_as_csv() {
    let dir = Workdir::new();
    let solution =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    dir.write(
        "a.tsv",
        format!("id\tpuzzle\tsolution\n1\t{PUZZLE}\t{solution}\n"),
    );
    dir.write(
        "b.txt",
        format!("id;Puzzle;solution\n1;{PUZZLE};{solution}\n"),
    );
    for name in ["a.tsv", "b.txt"] {
        let run = dir.run(&["solve", name, "--keep-columns", "id"]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let rows = csv_rows(&run.stdout);
        assert_eq!(rows.len(), 1, "{name}: {}", run.stdout);
        assert_eq!(rows[0]["status"], "solved");
        assert_eq!(rows[0]["line"], "2");
        assert_eq!(rows[0]["id"], "1");
        let run = dir.run(&["verify", name]);
        assert_eq!(run.code, Some(0), "{name}: {}", run.stderr);
    }
}
