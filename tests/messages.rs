//! What the tool says when an argument is wrong: one style for every error, the file that is
//! not there named as such, layout files as the README draws them, and output columns that
//! would share a name refused.

use crate::workdir::{Workdir, puzzles};

const PUZZLE: &str =
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";

const JIGSAW: &str =
    "aabbbbcccaaabbbcccadaabbfccadeeeefcfddddeefffdgghheffidgggheifidgghheiiigghhhhiii";

/// The first puzzle of `data/jigsaw_sample.csv`, whose regions are [`JIGSAW`].
const JIGSAW_PUZZLE: &str =
    "7....1..8....95..1....6.7...5............4....89....5...7............62.....3..4.";

#[test]
fn argument_errors_and_tool_errors_begin_the_same_way() {
    let dir = Workdir::new();
    for args in [
        &["solve", "--threads", "x"][..],
        &["solve", "--no-such-flag"],
        &["solve", "--algorithm", "nope"],
        &["frobnicate"],
        &["stats"],
        &["solve", "--threads", "0"],
        &["solve", "no-such-file.txt"],
    ] {
        let run = dir.run(args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("sudoku-bulk: error: "),
            "{args:?}: {}",
            run.stderr
        );
        assert_eq!(run.stderr.matches("error:").count(), 1, "{}", run.stderr);
    }
    // Help and version are not errors.
    let run = dir.run(&["--version"]);
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.starts_with("sudoku-bulk "));
}

#[test]
fn a_negative_number_is_refused_as_the_option_s_value() {
    let dir = Workdir::new();
    for (args, option) in [
        (&["solve", "--threads", "-1"][..], "--threads <N>"),
        (&["solve", "--max-solutions", "-2"], "--max-solutions <N>"),
        (&["generate", "--count", "-5"], "--count <N>"),
        (
            &["canon", "--dedupe", "--max-classes", "-3"],
            "--max-classes <N>",
        ),
    ] {
        let run = dir.run(args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        let value = args.last().unwrap();
        assert!(
            run.stderr.starts_with(&format!(
                "sudoku-bulk: error: invalid value '{value}' for '{option}'"
            )),
            "{args:?}: {}",
            run.stderr
        );
        // Not clap's tip to pass the number after `--`, which would make it an input.
        assert!(!run.stderr.contains("tip"), "{}", run.stderr);
    }
}

#[test]
fn a_regions_argument_that_is_no_file_and_no_layout_says_so() {
    let dir = Workdir::new();
    let run = dir.run(&["show", PUZZLE, "--regions", "nosuchfile.txt"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "sudoku-bulk: error: --regions: cannot read nosuchfile.txt: there is no such file (and \
         it is not 81 region labels either)\n"
    );
    // Labels only: a layout, with what is wrong with it.
    let run = dir.run(&["show", PUZZLE, "--regions", &JIGSAW[..80]]);
    assert_eq!(
        run.stderr,
        "sudoku-bulk: error: --regions: region layout: expected 81 cells, found 80\n"
    );
    dir.write("bad.txt", format!("{}x\n", &JIGSAW[..80]));
    let run = dir.run(&["solve", "-", "--regions", "bad.txt"]);
    assert_eq!(
        run.stderr,
        "sudoku-bulk: error: --regions bad.txt: region layout: label 'x' at r9c9\n"
    );
}

#[test]
fn side_files_are_read_to_a_bound_never_until_memory_runs_out() {
    let dir = Workdir::new();
    // An endless layout, or a puzzle file given for one.
    dir.write("big.txt", format!("{PUZZLE}\n").repeat(1000));
    for layout in ["/dev/zero", "big.txt"] {
        let run = dir.run(&["show", PUZZLE, "--regions", layout]);
        assert_eq!(run.code, Some(2));
        assert_eq!(
            run.stderr,
            format!(
                "sudoku-bulk: error: --regions: cannot read {layout}: it is longer than 64 KiB, \
                 the most such a file may be\n"
            )
        );
    }
    // A shard's summary that never ends: refused at its first byte.
    dir.write("p.txt", format!("{PUZZLE}\n"));
    let run = dir.run(&["solve", "-q", "p.txt", "--shard", "0/1", "-o", "part-0.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    std::fs::remove_file(dir.path("part-0.csv.summary.json")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path("part-0.csv.summary.json")).unwrap();
    let run = dir.run(&["merge", "out.csv", "part-0.csv"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("part-0.csv.summary.json: not JSON"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_layout_file_of_nine_lines_of_nine_labels_is_read() {
    let dir = Workdir::new();
    let drawn: String = (0..9)
        .map(|r| format!("{}\n", &JIGSAW[r * 9..r * 9 + 9]))
        .collect();
    dir.write("layout.txt", &drawn);
    let spaced: String = (0..9)
        .map(|r| {
            let row: Vec<String> = JIGSAW[r * 9..r * 9 + 9].chars().map(String::from).collect();
            format!("  {}\r\n", row.join(" "))
        })
        .collect();
    dir.write("spaced.txt", &spaced);
    let one_line = dir.run(&["show", JIGSAW_PUZZLE, "--regions", JIGSAW]);
    assert_eq!(one_line.code, Some(0), "{}", one_line.stderr);
    for file in ["layout.txt", "spaced.txt"] {
        let run = dir.run(&["show", JIGSAW_PUZZLE, "--regions", file]);
        assert_eq!(run.code, Some(0), "{file}: {}", run.stderr);
        assert_eq!(run.stdout, one_line.stdout, "{file}");
    }
    let by_file = dir.run_with_stdin(&["solve", "-", "--regions", "layout.txt"], JIGSAW_PUZZLE);
    let by_text = dir.run_with_stdin(&["solve", "-", "--regions", JIGSAW], JIGSAW_PUZZLE);
    assert_eq!(by_file.code, Some(0), "{}", by_file.stderr);
    assert!(by_file.stdout.contains(",solved,"), "{}", by_file.stdout);
    assert_eq!(by_file.stdout, by_text.stdout);
}

#[test]
fn kept_columns_that_would_share_a_name_with_another_are_refused() {
    let dir = Workdir::new();
    let p = puzzles("puzzles2_17_clue.txt.gz", 1);
    dir.write("in.csv", format!("line,status,puzzle,id\n7,x,{},1\n", p[0]));
    dir.write("b.csv", format!("line,status,puzzle,id\n7,x,{},1\n", p[0]));
    for (args, message) in [
        (
            &["verify", "in.csv", "--keep-columns", "line,status"][..],
            "--keep-columns line: the output has a column 'line' of its own",
        ),
        (
            &["solve", "in.csv", "--keep-columns", "id,status"],
            "--keep-columns status: the output has a column 'status' of its own",
        ),
        (
            &["solve", "in.csv", "--keep-columns", "id,id"],
            "--keep-columns names 'id' twice",
        ),
        (
            &["solve", "in.csv", "b.csv", "--keep-columns", "file"],
            "--keep-columns file: the output has a column 'file' of its own",
        ),
        (
            &["solve", "in.csv", "--keep-columns", "id,ID"],
            "--keep-columns names 'id' twice (here 'ID': case-insensitive readers",
        ),
        (
            &["verify", "in.csv", "--keep-columns", "Line,STATUS"],
            "--keep-columns Line: the output has a column 'line' of its own",
        ),
    ] {
        let run = dir.run(args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr
                .starts_with(&format!("sudoku-bulk: error: {message}")),
            "{args:?}: {}",
            run.stderr
        );
    }
    let run = dir.run(&["solve", "in.csv", "--keep-columns", "id"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let header = run.stdout.lines().next().unwrap();
    let names: Vec<&str> = header.split(',').collect();
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "{header}");
}

#[test]
fn the_records_printed_are_those_whose_error_column_says_why() {
    let dir = Workdir::new();
    let hard = puzzles("puzzles5_forum_hardest_1905_11+.txt.gz", 1).remove(0);
    dir.write("in.txt", format!("{hard}\n123\n"));
    let bad = "in.txt:2: expected 81 cells, found 3\n";
    // solve: invalid and stuck records, each with its reason.
    let run = dir.run(&["solve", "in.txt", "--algorithm", "logic"]);
    assert!(
        run.stderr.starts_with(&format!(
            "in.txt:1: stuck with 25 of 81 cells filled\n{bad}sudoku-bulk: 2 records"
        )),
        "{}",
        run.stderr
    );
    // A gave_up record is counted in the summary line, not printed.
    let run = dir.run(&[
        "solve",
        "in.txt",
        "--algorithm",
        "naive",
        "--max-recursions",
        "10",
    ]);
    assert!(
        run.stderr
            .starts_with(&format!("{bad}sudoku-bulk: 2 records")),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains(", 1 gave_up"), "{}", run.stderr);
    // verify: every record that is not ok, gave_up included.
    let solved = dir.run(&["solve", "-q", "in.txt"]);
    let solution = crate::workdir::csv_rows(&solved.stdout)[0]["solution"].clone();
    dir.write("claims.txt", format!("{hard} {solution}\n"));
    let run = dir.run(&["verify", "claims.txt", "--unique", "--max-recursions", "1"]);
    assert!(
        run.stderr
            .starts_with("claims.txt:1: uniqueness not decided within 1 recursions\n"),
        "{}",
        run.stderr
    );
}
