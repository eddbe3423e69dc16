//! Where a run writes, end to end: two outputs that are one file, an output that is an input
//! (standard output included), a summary that cannot be written, a closed standard output and a
//! missing directory are each refused with a message naming the problem, exit 2, and every
//! existing file left as it was.

use std::fs::{self, File, OpenOptions};
use std::process::{Command, Stdio};

use crate::workdir::{BIN, Run, Workdir, puzzles};

fn lines(n: usize) -> String {
    puzzles("puzzles2_17_clue.txt.gz", n).join("\n") + "\n"
}

fn refused(run: &Run, message: &str) {
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.starts_with("sudoku-bulk: error: ") && run.stderr.contains(message),
        "wanted '{message}' in: {}",
        run.stderr
    );
}

/// Runs the binary in `dir` with standard output going to `stdout` and standard input from
/// `stdin` (empty when `None`).
fn run_with(dir: &Workdir, args: &[&str], stdout: File, stdin: Option<File>) -> Run {
    let output = Command::new(BIN)
        .args(args)
        .current_dir(dir.path(""))
        .stdin(stdin.map_or_else(Stdio::null, Stdio::from))
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    Run::from(output)
}

/// Symbolic links that lead back to themselves name no file: an output named so is refused,
/// exit 2, and the links stay as they were (the first had been replaced by a regular file).
#[cfg(unix)]
#[test]
fn an_output_named_by_a_loop_of_links_is_refused() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(5));
    std::os::unix::fs::symlink("loop2", dir.path("loop1")).unwrap();
    std::os::unix::fs::symlink("loop1", dir.path("loop2")).unwrap();
    for args in [
        &["solve", "in.txt", "-o", "loop1"][..],
        &["solve", "in.txt", "-o", "out.csv", "--summary", "loop1"],
    ] {
        let run = dir.run(args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr
                .starts_with("sudoku-bulk: error: cannot create loop1: "),
            "{args:?}: {}",
            run.stderr
        );
        assert!(
            fs::symlink_metadata(dir.path("loop1"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(dir.entries(), ["in.txt", "loop1", "loop2"]);
    }
}

#[cfg(unix)]
#[test]
fn two_outputs_that_are_one_file_are_refused_before_anything_is_written() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(5));
    dir.write("out.csv", "old\n");
    std::os::unix::fs::symlink("out.csv", dir.path("link.csv")).unwrap();
    fs::hard_link(dir.path("out.csv"), dir.path("hard.csv")).unwrap();
    std::os::unix::fs::symlink("new.csv", dir.path("dangling.csv")).unwrap();
    let shard = dir.run(&["solve", "in.txt", "--shard", "0/1", "-o", "s.csv"]);
    assert_eq!(shard.code, Some(0), "{}", shard.stderr);
    let before = dir.entries();
    let same = "are the same file: one would replace the other";
    for args in [
        &["solve", "in.txt", "-o", "out.csv", "--summary", "out.csv"][..],
        &["solve", "in.txt", "-o", "out.csv", "--summary", "./out.csv"],
        &["solve", "in.txt", "-o", "out.csv", "--summary", "link.csv"],
        &["solve", "in.txt", "-o", "hard.csv", "--summary", "out.csv"],
        &[
            "solve",
            "in.txt",
            "-o",
            "new.csv",
            "--summary",
            "dangling.csv",
        ],
        &[
            "solve",
            "in.txt",
            "-o",
            "out.csv",
            "--summary",
            "out.csv.partial",
        ],
        &[
            "solve",
            "in.txt",
            "-o",
            "out.csv",
            "--summary",
            "out.csv.checkpoint",
        ],
        &[
            "solve",
            "in.txt",
            "--shard",
            "0/1",
            "-o",
            "s.csv",
            "--summary",
            "s.csv",
        ],
        &["merge", "all.csv", "s.csv", "--summary", "all.csv"],
    ] {
        refused(&dir.run(args), same);
        assert_eq!(dir.read("out.csv"), "old\n", "{args:?}");
        assert_eq!(dir.entries(), before, "{args:?}");
    }
    // Rows on standard output, redirected to the file the summary names.
    let run = run_with(
        &dir,
        &["solve", "in.txt", "--summary", "out.csv"],
        OpenOptions::new()
            .append(true)
            .open(dir.path("out.csv"))
            .unwrap(),
        None,
    );
    refused(
        &run,
        "standard output and --summary out.csv are the same file",
    );
    assert_eq!(dir.read("out.csv"), "old\n");
    // Devices may be written twice: nothing stored in them is lost.
    let run = dir.run(&[
        "solve",
        "in.txt",
        "-o",
        "/dev/null",
        "--summary",
        "/dev/null",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

#[cfg(unix)]
#[test]
fn standard_output_that_is_an_input_is_refused_instead_of_growing_it_forever() {
    let dir = Workdir::new();
    // More than a chunk of records: a run that read its own rows would never end.
    let text = lines(10_000);
    dir.write("in.txt", &text);
    let append = || {
        OpenOptions::new()
            .append(true)
            .open(dir.path("in.txt"))
            .unwrap()
    };
    // `solve in.txt >> in.txt`
    let run = run_with(&dir, &["solve", "-q", "in.txt"], append(), None);
    refused(
        &run,
        "standard output is an input of the run: write the output to another file (it is in.txt)",
    );
    // `solve < in.txt >> in.txt`
    let stdin = File::open(dir.path("in.txt")).unwrap();
    let run = run_with(&dir, &["solve", "-q"], append(), Some(stdin));
    refused(&run, "standard output is an input of the run");
    // `stats r.csv >> r.csv`, and a page over its input
    dir.write("r.csv", "status\n");
    let r = OpenOptions::new()
        .append(true)
        .open(dir.path("r.csv"))
        .unwrap();
    refused(
        &run_with(&dir, &["stats", "r.csv"], r, None),
        "standard output is an input of the run",
    );
    refused(
        &dir.run(&["stats", "r.csv", "--html", "r.csv"]),
        "--html r.csv is an input of the run",
    );
    assert_eq!(dir.read("in.txt"), text);
    assert_eq!(dir.read("r.csv"), "status\n");
}

#[cfg(target_os = "linux")]
#[test]
fn an_output_named_for_standard_output_is_written_through_it_not_replaced() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(3));
    // `-o /dev/stdout >> log.txt` appends; in a group sent to a file, what the commands before
    // and after wrote stays, in order.
    for args in [
        &["solve", "-q", "in.txt", "-o", "/dev/stdout"][..],
        &["solve", "-q", "in.txt", "-o", "log.txt"],
        &["generate", "-q", "--count", "3", "-o", "/dev/fd/1"],
    ] {
        dir.write("log.txt", "before\n");
        let run = run_in_shell(&dir, ">> log.txt", args);
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
        let log = dir.read("log.txt");
        assert!(log.starts_with("before\n"), "{args:?}: {log}");
        assert_eq!(log.lines().count(), 1 + 1 + 3, "{args:?}: {log}");
    }
    let output = Command::new("sh")
        .arg("-c")
        .arg("{ echo before; \"$0\" solve -q in.txt -o /dev/stdout; echo after; } > group.txt")
        .arg(BIN)
        .current_dir(dir.path(""))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let group = dir.read("group.txt");
    let lines: Vec<&str> = group.lines().collect();
    assert_eq!(
        (lines[0], lines[lines.len() - 1], lines.len()),
        ("before", "after", 6)
    );
    assert_eq!(dir.entries(), ["group.txt", "in.txt", "log.txt"]);
}

#[test]
fn a_file_read_for_a_layout_or_a_report_is_an_input_never_replaced() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(3));
    let layout =
        "aaabbbcccaaabbbcccaaabbbcccdddeeefffdddeeefffdddeeefffggghhhiiiggghhhiiiggghhhiii\n";
    dir.write("layout.txt", layout);
    for args in [
        &[
            "solve",
            "in.txt",
            "--regions",
            "layout.txt",
            "-o",
            "layout.txt",
        ][..],
        &[
            "solve",
            "in.txt",
            "--regions",
            "layout.txt",
            "-o",
            "o.csv",
            "--summary",
            "layout.txt",
        ],
        &[
            "generate",
            "--count",
            "2",
            "--regions",
            "layout.txt",
            "-o",
            "layout.txt",
        ],
    ] {
        refused(&dir.run(args), "(it is --regions layout.txt)");
    }
    assert_eq!(dir.read("layout.txt"), layout);
    // `stats` reads the summary beside its results for the report's header.
    let solved = dir.run(&[
        "solve",
        "in.txt",
        "-o",
        "r.csv",
        "--summary",
        "r.csv.summary.json",
    ]);
    assert_eq!(solved.code, Some(0), "{}", solved.stderr);
    let summary = dir.read("r.csv.summary.json");
    refused(
        &dir.run(&["stats", "r.csv", "--html", "r.csv.summary.json"]),
        "r.csv.summary.json is an input of the run",
    );
    assert_eq!(dir.read("r.csv.summary.json"), summary);
}

#[test]
fn a_summary_that_cannot_be_written_leaves_an_existing_output_untouched() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(20));
    dir.write("out.csv", "old\n");
    refused(
        &dir.run(&[
            "solve",
            "-q",
            "in.txt",
            "-o",
            "out.csv",
            "--summary",
            "/dev/full",
        ]),
        "cannot write /dev/full: No space left on device",
    );
    assert_eq!(dir.read("out.csv"), "old\n");
    assert_eq!(dir.entries(), ["in.txt", "out.csv"]);
}

#[test]
fn merge_with_a_summary_that_cannot_be_written_leaves_an_existing_output_untouched() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(20));
    for k in ["0/2", "1/2"] {
        let out = format!("part-{}.csv", &k[..1]);
        let run = dir.run(&["solve", "-q", "in.txt", "--shard", k, "-o", &out]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    dir.write("all.csv", "old\n");
    let before = dir.entries();
    let run = dir.run(&[
        "merge",
        "all.csv",
        "part-0.csv",
        "part-1.csv",
        "--summary",
        "/dev/full",
    ]);
    refused(&run, "cannot write /dev/full: No space left on device");
    assert_eq!(dir.read("all.csv"), "old\n");
    assert_eq!(dir.entries(), before);
}

#[test]
fn merge_reads_shards_whose_summary_was_also_written_elsewhere() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(30));
    for k in 0..3 {
        let (shard, out, summary) = (
            format!("{k}/3"),
            format!("part-{k}.csv"),
            format!("summary-{k}.json"),
        );
        let run = dir.run(&[
            "solve",
            "-q",
            "in.txt",
            "--shard",
            &shard,
            "-o",
            &out,
            "--summary",
            &summary,
        ]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert_eq!(dir.read(&summary), dir.read(&format!("{out}.summary.json")));
    }
    let run = dir.run(&["merge", "all.csv", "part-0.csv", "part-1.csv", "part-2.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let single = dir.run(&[
        "solve",
        "-q",
        "in.txt",
        "-o",
        "single.csv",
        "--summary",
        "single.json",
    ]);
    assert_eq!(single.code, Some(0), "{}", single.stderr);
    assert_eq!(dir.read("all.csv"), dir.read("single.csv"));
    assert_eq!(dir.read("all.csv.summary.json"), dir.read("single.json"));
}

/// Runs the binary in `dir` as a shell runs `sudoku-bulk ARGS REDIRECT` (`>&-` closes standard
/// output, `<&-` standard input); standard input is otherwise empty.
#[cfg(target_os = "linux")]
fn run_in_shell(dir: &Workdir, redirect: &str, args: &[&str]) -> Run {
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$@\" {redirect}"))
        .arg("sh")
        .arg(BIN)
        .args(args)
        .current_dir(dir.path(""))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Run::from(output)
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_standard_output_is_an_error_not_a_silent_success() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(5));
    let closed = |args: &[&str]| run_in_shell(&dir, ">&-", args);
    refused(
        &closed(&["solve", "in.txt"]),
        "standard output is closed, so the rows would be lost: leave it open or give -o OUT",
    );
    refused(
        &closed(&["verify", "in.txt"]),
        "standard output is closed, so the rows would be lost",
    );
    refused(
        &closed(&["show", &lines(1)[..81]]),
        "standard output is closed, so the report would be lost",
    );
    // Rows to a file need no standard output; `> /dev/null` is not closed.
    let run = closed(&["solve", "-q", "in.txt", "-o", "out.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(dir.read("out.csv").lines().count(), 6);
    let null = OpenOptions::new().write(true).open("/dev/null").unwrap();
    let run = run_with(&dir, &["solve", "-q", "in.txt"], null, None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_standard_input_is_an_error_not_an_empty_input() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(5));
    dir.write("out.csv", "old\n");
    let closed = |args: &[&str]| run_in_shell(&dir, "<&-", args);
    let message = "standard input is closed, so there is nothing to read";
    refused(&closed(&["solve", "-o", "out.csv"]), message);
    refused(
        &closed(&["verify", "in.txt", "-", "-o", "out.csv"]),
        message,
    );
    refused(&closed(&["stats", "-"]), message);
    refused(&closed(&["show", "-"]), message);
    // The output an empty input would have replaced is as it was.
    assert_eq!(dir.read("out.csv"), "old\n");
    // Files named need no standard input.
    let run = closed(&["solve", "-q", "in.txt", "-o", "out.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(dir.read("out.csv").lines().count(), 6);
}

#[test]
fn an_output_in_a_missing_directory_names_the_directory() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(5));
    let run = dir.run(&["solve", "in.txt", "-o", "nodir/out.csv"]);
    assert_eq!(
        run.stderr,
        "sudoku-bulk: error: cannot create nodir/out.csv: there is no directory nodir\n"
    );
    assert_eq!(run.code, Some(2));
    let run = dir.run(&[
        "solve",
        "in.txt",
        "-o",
        "x.csv",
        "--summary",
        "no/sub/s.json",
    ]);
    refused(
        &run,
        "cannot create no/sub/s.json: there is no directory no/sub",
    );
    assert_eq!(dir.entries(), ["in.txt"]);
}

/// An output named for Parquet when `--output-format` asks for text, or the other way round, or
/// named as compressed, is refused before anything is written: what it held would not be what
/// the name promises (CSV in a `.parquet` file did not read back).
#[test]
fn an_output_named_for_another_format_or_compression_is_refused() {
    let dir = Workdir::new();
    dir.write("in.txt", lines(3));
    let with = |command: &str, out: &str, format: &str| {
        let mut args = match command {
            "generate" => vec!["generate", "-q", "--count", "2"],
            _ => vec![command, "-q", "in.txt"],
        };
        args.extend(["-o", out]);
        if !format.is_empty() {
            args.extend(["--output-format", format]);
        }
        dir.run(&args)
    };
    for (command, out, format, message) in [
        (
            "solve",
            "out.parquet",
            "csv",
            "the name says parquet, but --output-format is csv",
        ),
        (
            "rate",
            "out.csv",
            "parquet",
            "the name says csv, but --output-format is parquet",
        ),
        (
            "solve",
            "out.csv.gz",
            "",
            "-o out.csv.gz: outputs are not compressed",
        ),
        (
            "generate",
            "g.PARQUET",
            "jsonl",
            "the name says parquet, but --output-format is jsonl",
        ),
        (
            "generate",
            "g.parquet",
            "line",
            "the name says parquet, but --output-format is line",
        ),
    ] {
        refused(&with(command, out, format), message);
    }
    assert_eq!(dir.entries(), ["in.txt"]);
    // A name that says nothing, the format asked for, or the other text format (read back by
    // its content) is written as asked.
    for (out, format) in [
        ("out.txt", "jsonl"),
        ("out.jsonl", "jsonl"),
        ("out.csv", "jsonl"),
    ] {
        let run = with("solve", out, format);
        assert_eq!(run.code, Some(0), "{out}: {}", run.stderr);
        assert!(dir.read(out).starts_with("{\"line\":"), "{out}");
    }
}
