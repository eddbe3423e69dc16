//! Awkward and hostile input, end to end: over-long lines in a grid, the first record far below
//! blank and comment lines, bytes that are not UTF-8 in a CSV header, an unclosed quote, and
//! results rows that contradict the definitions of their counters.

use crate::workdir::{Workdir, csv_rows, puzzles};

fn some_puzzles(n: usize) -> Vec<String> {
    puzzles("puzzles2_17_clue.txt.gz", n)
}

/// A puzzle as 81 numbers with `0` for blank, on one line (the `Scanner` style).
fn numbers(puzzle: &str) -> String {
    puzzle
        .replace('.', "0")
        .chars()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A puzzle as nine rows of nine cells.
fn grid(puzzle: &str) -> String {
    (0..9)
        .map(|r| format!("{}\n", &puzzle[r * 9..r * 9 + 9]))
        .collect()
}

#[test]
fn grid_format_reads_on_after_a_line_longer_than_64_kib() {
    let dir = Workdir::new();
    let p = some_puzzles(6);
    // No blank line anywhere: a too-long line once swallowed every puzzle after it.
    let mut text = format!("{}\n{}\n", numbers(&p[0]), "1 ".repeat(40_000));
    for puzzle in &p[1..] {
        text.push_str(&numbers(puzzle));
        text.push('\n');
    }
    dir.write("scanner.txt", &text);
    let run = dir.run(&["solve", "scanner.txt", "--input-format", "grid"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows = csv_rows(&run.stdout);
    let got: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["line"].as_str(), r["status"].as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("1", "solved"),
            ("2", "invalid"),
            ("3", "solved"),
            ("4", "solved"),
            ("5", "solved"),
            ("6", "solved"),
            ("7", "solved")
        ]
    );
    assert_eq!(rows[1]["error"], "line longer than 65536 bytes");
}

#[test]
fn the_format_is_found_below_65536_blank_lines_or_64_kib_of_comments() {
    let dir = Workdir::new();
    let p = some_puzzles(2);
    let blank = "\n".repeat(65_536);
    let comments = "# a comment line of the file's preamble\n".repeat(2_000);
    assert!(comments.len() > 64 << 10);
    let bodies = [
        ("grid", format!("{}\n{}", grid(&p[0]), grid(&p[1]))),
        ("csv", format!("id,puzzle\n1,{}\n2,{}\n", p[0], p[1])),
    ];
    for (prefix_name, prefix) in [("blank", &blank), ("comments", &comments)] {
        for (format, body) in &bodies {
            let what = format!("{format} after {prefix_name} lines");
            // Named .txt, so that only the first significant line tells the format.
            let text = format!("{prefix}{body}");
            dir.write("in.txt", &text);
            let skipped = prefix.lines().count() as u64;
            let first_line = skipped + if *format == "csv" { 2 } else { 1 };
            for run in [
                dir.run(&["solve", "in.txt"]),
                dir.run_with_stdin(&["solve", "-"], text.clone()),
            ] {
                assert_eq!(run.code, Some(0), "{what}: {}", run.stderr);
                let rows = csv_rows(&run.stdout);
                assert_eq!(rows.len(), 2, "{what}: {}", run.stdout);
                assert!(rows.iter().all(|r| r["status"] == "solved"), "{what}");
                assert_eq!(rows[0]["line"], first_line.to_string(), "{what}");
            }
        }
    }
}

#[test]
fn a_csv_header_byte_that_is_not_utf8_is_shown_as_its_hex_escape() {
    let dir = Workdir::new();
    dir.write("bad.csv", b"id,puz\xffzle\n1,x\n");
    let run = dir.run(&["solve", "bad.csv"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "sudoku-bulk: error: bad.csv: no puzzle column (looked for puzzle, quizzes, quiz, \
         question, sudoku; the header has id, puz\\xffzle)\n"
    );
}

#[test]
fn an_unclosed_quote_is_named_with_the_line_it_opened_at() {
    let dir = Workdir::new();
    let p = some_puzzles(3);
    dir.write(
        "q.csv",
        format!("id,puzzle\n1,{}\n2,\"{}\n3,{}\n", p[0], p[1], p[2]),
    );
    let run = dir.run(&["solve", "q.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows = csv_rows(&run.stdout);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["status"], "solved");
    assert_eq!(rows[1]["status"], "invalid");
    let message = "unclosed quote opened at line 3 (the record runs to the end of the input)";
    assert_eq!(rows[1]["error"], message);
    assert!(
        run.stderr.starts_with(&format!("q.csv:3: {message}\n")),
        "{}",
        run.stderr
    );
}

/// Every status, for every algorithm: easy and hard puzzles, several-solution ones, an
/// unsolvable one, bad records.
fn every_status() -> String {
    let mut lines = some_puzzles(20);
    lines.extend(puzzles("puzzles5_forum_hardest_1905_11+.txt.gz", 5));
    lines.extend(puzzles("puzzles7_serg_benchmark.txt.gz", 5));
    // Unsolvable: r9c9 has no candidate left.
    lines.push(
        "........9...............................................................12345678.".into(),
    );
    lines.push("123".into());
    lines.push(format!("{}x", &some_puzzles(1)[0][..80]));
    lines.join("\n") + "\n"
}

#[test]
fn stats_accepts_every_row_solve_writes_with_every_algorithm() {
    let dir = Workdir::new();
    dir.write("in.txt", every_status());
    for algorithm in ["fast", "naive", "candidates", "random", "logic"] {
        for limit in ["1", "2", "5"] {
            let out = format!("{algorithm}-{limit}.csv");
            let run = dir.run(&[
                "solve",
                "-q",
                "in.txt",
                "--algorithm",
                algorithm,
                "--max-solutions",
                limit,
                "--max-recursions",
                "20000",
                "-o",
                &out,
            ]);
            assert_eq!(run.code, Some(0), "{}", run.stderr);
            let run = dir.run(&["stats", &out]);
            assert_eq!(run.code, Some(0), "{out}: {}", run.stderr);
        }
    }
}

#[test]
fn stats_refuses_rows_their_definitions_rule_out_naming_file_and_line() {
    let dir = Workdir::new();
    let run = dir.run_with_stdin(&["solve", "-"], some_puzzles(3).join("\n"));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows: Vec<&str> = run.stdout.lines().collect();
    let header: Vec<&str> = rows[0].split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    // Row 3 of the file (its second record) with one field changed.
    let edited = |name: &str, value: &str| {
        let mut fields: Vec<String> = rows[2].split(',').map(String::from).collect();
        fields[column(name)] = value.to_string();
        let mut text: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
        text[2] = fields.join(",");
        text.join("\n") + "\n"
    };
    for (name, value, message) in [
        (
            "solutions",
            "5",
            "solutions is 5, but a row with status 'solved' has exactly 1",
        ),
        ("givens", "200", "givens is 200, but a puzzle has 81 cells"),
        (
            "recursions",
            "0",
            "recursions is 0, but every search enters its root call, at depth 1",
        ),
    ] {
        dir.write("r.csv", edited(name, value));
        let run = dir.run(&["stats", "r.csv"]);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert_eq!(
            run.stderr,
            format!("sudoku-bulk: error: r.csv:3: {message}\n")
        );
    }
}

#[test]
fn gzip_padded_with_zeros_is_read_as_gzip_t_accepts_it() {
    let dir = Workdir::new();
    let p = some_puzzles(3);
    let mut bytes = crate::workdir::gzip((p.join("\n") + "\n").as_bytes());
    // Tape and block devices pad a gzip file with zeros to their block size.
    bytes.extend([0u8; 4096]);
    dir.write("padded.txt.gz", &bytes);
    for run in [
        dir.run(&["solve", "padded.txt.gz"]),
        dir.run_with_stdin(&["solve", "-"], bytes.clone()),
    ] {
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let rows = csv_rows(&run.stdout);
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| r["status"] == "solved"));
    }
}
