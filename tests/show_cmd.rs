//! `sudoku-bulk show`, and region layouts (`--regions`, the `regions` column) through the binary.

use crate::workdir::{Workdir, csv_rows};

const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const STANDARD: &str =
    "111222333111222333111222333444555666444555666444555666777888999777888999777888999";
/// A jigsaw layout (nine connected regions of nine cells).
const JIGSAW: &str =
    "aaabbbbbbaaabbbcccaaddcccccadddeeecfdddeeeeffdgeefffffggghhhhfiggghhhiiigghhiiiii";

fn dots(n: usize) -> String {
    ".".repeat(n)
}

#[test]
fn show_draws_the_grids_status_and_statistics() {
    let dir = Workdir::new();
    let run = dir.run(&["show", PUZZLE]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("4 . . | . . . | 8 . 5"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("------+-------+------"));
    assert!(run.stdout.contains("status: solved"));
    for counter in [
        "recursions",
        "max depth",
        "guesses",
        "backtracks",
        "naked singles",
        "hidden singles",
        "givens",
    ] {
        assert!(run.stdout.contains(counter), "no {counter}: {}", run.stdout);
    }
    assert!(run.stdout.contains("check: valid"), "{}", run.stdout);
}

#[test]
fn show_trace_lists_steps_guesses_and_backtracks() {
    let dir = Workdir::new();
    // A hard puzzle (forum hardest list): the fast engine must guess and back up.
    let hard = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
    let run = dir.run(&["show", hard, "--trace"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.contains("(hidden single in "), "{out}");
    assert!(out.contains("guess r"), "{out}");
    assert!(out.contains("backtrack r"), "{out}");
    // The trace counts what the statistics count.
    let guesses = out
        .lines()
        .filter(|l| l.trim_start().starts_with("guess r"))
        .count();
    let reported: usize = out
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("guesses")
                .map(|n| n.trim().parse().unwrap())
        })
        .expect("a guesses line");
    assert_eq!(guesses, reported);
}

#[test]
fn the_trace_holds_at_most_its_limit_in_lines_and_the_limit_is_bounded() {
    let dir = Workdir::new();
    let hard = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
    let run = dir.run(&["show", hard, "--trace", "--max-trace-lines", "40"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let trace: Vec<&str> = run.stdout.lines().skip_while(|l| *l != "trace:").collect();
    // The heading, at most 40 lines of events, the note of what was left out.
    assert!(trace.len() <= 1 + 40 + 1, "{}", trace.len());
    assert!(
        trace
            .last()
            .unwrap()
            .contains("more events not shown (limit 40 lines)")
    );
    // The report is drawn in memory: a limit past the bound is refused, not tried.
    let run = dir.run(&["show", hard, "--trace", "--max-trace-lines", "1000001"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("1000001 is more than 1000000, the most"),
        "{}",
        run.stderr
    );
    // A limit of trace lines without a trace is a mistake, not ignored.
    let run = dir.run(&["show", hard, "--max-trace-lines", "40"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("--trace"), "{}", run.stderr);
}

#[test]
fn show_reads_one_puzzle_from_stdin_in_any_format() {
    let dir = Workdir::new();
    let line = dir.run_with_stdin(&["show", "-"], format!("# a comment\n{PUZZLE} trailing\n"));
    assert_eq!(line.code, Some(0), "{}", line.stderr);
    let grid: String = PUZZLE
        .as_bytes()
        .chunks(9)
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|&c| (c as char).to_string()).collect();
            cells.join(" ") + "\n"
        })
        .collect();
    let drawn = dir.run_with_stdin(&["show", "-"], grid);
    assert_eq!(drawn.code, Some(0), "{}", drawn.stderr);
    let csv = dir.run_with_stdin(&["show", "-"], format!("id,puzzle\n7,{PUZZLE}\n"));
    assert_eq!(csv.code, Some(0), "{}", csv.stderr);
    assert_eq!(line.stdout, drawn.stdout);
    assert_eq!(line.stdout, csv.stdout);
}

#[test]
fn show_exit_codes() {
    let dir = Workdir::new();
    let conflict = format!("11{}", dots(79));
    let run = dir.run(&["show", &conflict]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stdout.contains("digit 1 twice in row 1: r1c1 and r1c2"),
        "{}",
        run.stdout
    );
    let run = dir.run(&["show", "1234"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("expected 81 cells, found 4"),
        "{}",
        run.stderr
    );
    let run = dir.run_with_stdin(&["show", "-"], "");
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("no puzzle"), "{}", run.stderr);
    // A puzzle on standard input that does not parse: the message names its line.
    let run = dir.run_with_stdin(&["show", "-"], "\n# a comment\n1234\n");
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("<stdin>:3: expected 81 cells, found 4"),
        "{}",
        run.stderr
    );
    // A file's name where the puzzle goes: the message says how to show the file's puzzle.
    dir.write("p.txt", dots(81) + "\n");
    let run = dir.run(&["show", "p.txt"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("p.txt is a file: `sudoku-bulk show - < p.txt`"),
        "{}",
        run.stderr
    );
}

#[test]
fn show_logic_reports_stuck_with_the_partial_grid() {
    let dir = Workdir::new();
    let run = dir.run(&["show", PUZZLE, "--algorithm", "logic"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("status: stuck"), "{}", run.stdout);
}

#[test]
fn show_draws_regions_and_notes_disconnected_ones() {
    let dir = Workdir::new();
    let run = dir.run(&[
        "show",
        &dots(81),
        "--regions",
        JIGSAW,
        "--max-solutions",
        "1",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("regions"), "{}", run.stdout);
    assert!(run.stdout.contains("a a a b b b b b b"), "{}", run.stdout);
    // Swap two cells of regions 1 and 3 that are far apart: both become disconnected.
    let mut split = STANDARD.as_bytes().to_vec();
    split.swap(0, 8);
    let split = String::from_utf8(split).unwrap();
    let run = dir.run(&[
        "show",
        &dots(81),
        "--regions",
        &split,
        "--max-solutions",
        "1",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("not orthogonally connected"),
        "{}",
        run.stdout
    );
}

#[test]
fn explicit_standard_regions_change_nothing() {
    let dir = Workdir::new();
    dir.write("in.txt", format!("{PUZZLE}\n{}\n", dots(81)));
    let plain = dir.run(&["solve", "in.txt"]);
    let explicit = dir.run(&["solve", "in.txt", "--regions", STANDARD]);
    dir.write("layout.txt", format!("{STANDARD}\n"));
    let from_file = dir.run(&["solve", "in.txt", "--regions", "layout.txt"]);
    assert_eq!(plain.code, Some(0), "{}", plain.stderr);
    assert_eq!(plain.stdout, explicit.stdout);
    assert_eq!(plain.stdout, from_file.stdout);
}

#[test]
fn bad_layouts_are_refused_with_the_reason() {
    let dir = Workdir::new();
    dir.write("in.txt", format!("{PUZZLE}\n"));
    let mut uneven = JIGSAW.to_string();
    uneven.replace_range(20..21, "a"); // a cell of region d
    let run = dir.run(&["solve", "in.txt", "--regions", &uneven]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("region a has 10 cells"),
        "{}",
        run.stderr
    );
    let mut label = JIGSAW.to_string();
    label.replace_range(13..14, "x");
    let run = dir.run(&["solve", "in.txt", "--regions", &label]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("label 'x' at r2c5"), "{}", run.stderr);
    // In a regions column, a bad layout makes that record invalid.
    dir.write(
        "in.csv",
        format!("puzzle,regions\n{PUZZLE},{uneven}\n{},{JIGSAW}\n", dots(81)),
    );
    let run = dir.run(&["solve", "in.csv", "--max-solutions", "1"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows = csv_rows(&run.stdout);
    assert_eq!(rows[0]["status"], "invalid");
    assert!(
        rows[0]["error"].contains("region a has 10 cells"),
        "{:?}",
        rows[0]
    );
    assert_eq!(rows[1]["status"], "solved");
    assert_eq!(rows[1]["regions"], JIGSAW);
}

#[test]
fn jigsaw_sample_solves_and_verifies_with_its_regions_column() {
    let dir = Workdir::new();
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/jigsaw_sample.csv");
    let sample = sample.to_str().unwrap();
    let run = dir.run(&["solve", sample]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows = csv_rows(&run.stdout);
    assert!(rows.len() >= 20);
    let expected = csv_rows(&std::fs::read_to_string(sample).unwrap());
    for (row, given) in rows.iter().zip(&expected) {
        assert_eq!(row["status"], "solved", "{row:?}");
        assert_eq!(row["solution"], given["solution"], "{row:?}");
        assert_eq!(row["regions"], given["regions"]);
    }
    // The sample's puzzles are minimal: the textbook searches give up on most within a small
    // budget and `logic` gets stuck, but whatever they solve is the known solution.
    for algorithm in ["naive", "candidates", "random", "logic"] {
        let run = dir.run(&[
            "solve",
            sample,
            "--algorithm",
            algorithm,
            "--max-recursions",
            "200000",
        ]);
        assert_eq!(run.code, Some(0), "{algorithm}: {}", run.stderr);
        for (row, given) in csv_rows(&run.stdout).iter().zip(&expected) {
            match row["status"].as_str() {
                "solved" => assert_eq!(row["solution"], given["solution"], "{algorithm} {row:?}"),
                "stuck" => assert_eq!(algorithm, "logic"),
                "gave_up" => assert_ne!(algorithm, "logic"),
                other => panic!("{algorithm}: status {other} on a unique jigsaw puzzle"),
            }
        }
    }
    let run = dir.run(&["verify", sample]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
}

#[test]
fn verify_catches_a_grid_valid_for_boxes_that_breaks_a_region() {
    let dir = Workdir::new();
    // The standard solution of the classic puzzle is valid for the 3x3 boxes; under the jigsaw
    // layout some region repeats a digit.
    let solution =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    dir.write(
        "in.csv",
        format!("puzzle,solution\n{},{solution}\n", dots(81)),
    );
    let boxes = dir.run(&["verify", "in.csv"]);
    assert_eq!(boxes.code, Some(0), "{}", boxes.stdout);
    let regions = dir.run(&["verify", "in.csv", "--regions", JIGSAW]);
    assert_eq!(regions.code, Some(1), "{}", regions.stdout);
    let rows = csv_rows(&regions.stdout);
    assert_eq!(rows[0]["status"], "wrong");
    assert!(rows[0]["error"].starts_with("region "), "{:?}", rows[0]);
}
