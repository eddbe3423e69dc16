//! Where bytes come from and go to: stdin and stdout, gzip, `-o`, closed pipes, thread counts,
//! interruption, and the exit codes of failures.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

#[cfg(target_os = "linux")]
use crate::workdir::catches_sigint;
use crate::workdir::{BIN, Workdir, csv_rows, gzip, puzzles};

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// A file of many records of every status, crossing several chunks.
fn big_input(n: usize) -> String {
    let easy = puzzles("puzzles2_17_clue.txt.gz", n);
    let multi = puzzles("puzzles7_serg_benchmark.txt.gz", 500);
    let mut text = String::new();
    for (i, p) in easy.iter().enumerate() {
        text.push_str(p);
        text.push('\n');
        if i % 97 == 0 {
            text.push_str(&multi[i % multi.len()]);
            text.push_str("\r\n");
        }
        if i % 101 == 0 {
            text.push_str(&p[..40]);
            text.push('\n');
        }
    }
    text
}

#[test]
fn stdin_to_stdout_with_dash_or_no_argument() {
    let dir = Workdir::new();
    for args in [&["solve"][..], &["solve", "-"]] {
        let run = dir.run_with_stdin(args, format!("{PUZZLE}\n"));
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let rows = csv_rows(&run.stdout);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0]["status"], "solved");
    }
    // CSV and gzip are recognised on stdin too.
    let csv = format!("id,puzzle\n7,{PUZZLE}\n");
    let run = dir.run_with_stdin(&["solve", "--keep-columns", "id"], gzip(csv.as_bytes()));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows = csv_rows(&run.stdout);
    assert_eq!(
        (rows[0]["line"].as_str(), rows[0]["id"].as_str()),
        ("2", "7")
    );
}

#[test]
fn gzip_with_concatenated_members_is_read_whole_whatever_its_name() {
    let dir = Workdir::new();
    let first = format!("{PUZZLE}\n{PUZZLE}\n");
    let second = format!("\n{PUZZLE}");
    dir.write_gz("p.txt.gz", &[first.as_bytes(), second.as_bytes()]);
    dir.write_gz("no-suffix", &[first.as_bytes(), second.as_bytes()]);
    for name in ["p.txt.gz", "no-suffix"] {
        let run = dir.run(&["solve", name]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let lines: Vec<String> = csv_rows(&run.stdout)
            .iter()
            .map(|r| r["line"].clone())
            .collect();
        assert_eq!(lines, ["1", "2", "4"], "{name}");
    }
}

#[test]
fn shipped_data_solves_in_place() {
    let dir = Workdir::new();
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/puzzles3_magictour_top1465.txt.gz"
    );
    let run = dir.run(&["solve", data]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows = csv_rows(&run.stdout);
    assert_eq!(rows.len(), 1465);
    assert!(rows.iter().all(|r| r["status"] == "solved"));
    assert_eq!(rows[0]["line"], "3");
}

#[test]
fn one_thread_and_two_threads_write_the_same_bytes() {
    let dir = Workdir::new();
    dir.write("big.txt", big_input(20_000));
    for format in ["csv", "jsonl"] {
        let one = dir.run(&[
            "solve",
            "big.txt",
            "--threads",
            "1",
            "--output-format",
            format,
        ]);
        let two = dir.run(&[
            "solve",
            "big.txt",
            "--threads",
            "2",
            "--output-format",
            format,
        ]);
        assert_eq!(one.code, Some(0), "{}", one.stderr);
        assert_eq!(two.code, Some(0), "{}", two.stderr);
        assert!(one.stdout.lines().count() > 20_000);
        assert!(
            one.stdout == two.stdout,
            "--threads 1 and 2 differ ({format})"
        );
    }
}

#[test]
fn closed_stdout_ends_quietly_with_success() {
    let dir = Workdir::new();
    dir.write(
        "big.txt",
        puzzles("puzzles2_17_clue.txt.gz", 20_000).join("\n"),
    );
    // A run asked for a summary says that it did not write it.
    let commands: [(&[&str], &str, &str); 3] = [
        (&["solve", "big.txt"], "line,puzzle,", ""),
        (
            &["solve", "big.txt", "--summary", "s.json"],
            "line,puzzle,",
            "sudoku-bulk: the reader of standard output went away, so the run stopped: s.json \
             was not written\n",
        ),
        (&["generate", "--count", "100000"], "index,puzzle,", ""),
    ];
    for (args, header_start, said) in commands {
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(dir.path(""))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut header = String::new();
        stdout.read_line(&mut header).unwrap();
        assert!(header.starts_with(header_start), "{args:?}: {header}");
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), said, "{args:?}");
    }
    assert_eq!(dir.entries(), ["big.txt"]);
}

#[test]
fn output_file_appears_whole_and_replaces_the_old_one() {
    let dir = Workdir::new();
    dir.write("p.txt", format!("{PUZZLE}\n"));
    dir.write("out.csv", "old\n");
    let run = dir.run(&["solve", "p.txt", "-o", "out.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(csv_rows(&dir.read("out.csv"))[0]["status"], "solved");
    assert_eq!(dir.entries(), ["out.csv", "p.txt"]);
}

#[test]
fn a_failed_run_leaves_the_old_output_and_no_temporary_file() {
    let dir = Workdir::new();
    let text = big_input(3000);
    let gz = gzip(text.as_bytes());
    dir.write("cut.txt.gz", &gz[..gz.len() / 2]);
    dir.write("out.csv", "old\n");
    let run = dir.run(&["solve", "cut.txt.gz", "-o", "out.csv"]);
    assert_eq!(run.code, Some(2));
    // Any rows handled before the error have told their invalid records first.
    let last = run.stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("sudoku-bulk: error: cannot read cut.txt.gz after line "),
        "{}",
        run.stderr
    );
    assert_eq!(dir.read("out.csv"), "old\n");
    assert_eq!(dir.entries(), ["cut.txt.gz", "out.csv"]);
}

/// `-o` naming a terminal (a pseudo-terminal here, as `-o /dev/stdout` or `-o /dev/tty` at a
/// shell would) is refused for Parquet as standard output at a terminal is, before any work.
#[cfg(target_os = "linux")]
#[test]
fn parquet_to_a_terminal_named_by_o_is_refused() {
    let (mut leader, mut follower) = (0, 0);
    // SAFETY: openpty writes the two descriptors; the name, settings and size are optional.
    let opened = unsafe {
        libc::openpty(
            &mut leader,
            &mut follower,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(opened, 0, "openpty: {}", std::io::Error::last_os_error());
    let terminal = std::fs::read_link(format!("/proc/self/fd/{follower}")).unwrap();
    let terminal = terminal.to_str().unwrap();
    let dir = Workdir::new();
    dir.write("p.txt", format!("{PUZZLE}\n"));
    for args in [
        &[
            "solve",
            "p.txt",
            "--output-format",
            "parquet",
            "-o",
            terminal,
        ][..],
        &[
            "generate",
            "--count",
            "1",
            "--output-format",
            "parquet",
            "-o",
            terminal,
        ],
    ] {
        let run = dir.run(args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("Parquet output is binary"),
            "{}",
            run.stderr
        );
    }
    // CSV goes to the terminal as it would to standard output.
    let run = dir.run(&["solve", "p.txt", "-q", "-o", terminal]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // SAFETY: both descriptors are this test's own, closed once.
    unsafe {
        libc::close(follower);
        libc::close(leader);
    }
}

#[cfg(unix)]
#[test]
fn a_link_to_a_file_is_kept_and_its_target_written_made_or_replaced() {
    let dir = Workdir::new();
    dir.write("p.txt", format!("{PUZZLE}\n"));
    std::fs::create_dir(dir.path("t")).unwrap();
    dir.write("t/old.csv", "old\n");
    std::os::unix::fs::symlink("t/old.csv", dir.path("old-link.csv")).unwrap();
    // A link to a file not made yet (a dangling link) makes its target.
    std::os::unix::fs::symlink("t/new.csv", dir.path("new-link.csv")).unwrap();
    for (link, target) in [("old-link.csv", "t/old.csv"), ("new-link.csv", "t/new.csv")] {
        let run = dir.run(&["solve", "p.txt", "-o", link]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let meta = std::fs::symlink_metadata(dir.path(link)).unwrap();
        assert!(meta.file_type().is_symlink(), "{link} is still a link");
        assert_eq!(csv_rows(&dir.read(target)).len(), 1, "{target}");
    }
    assert_eq!(
        dir.entries(),
        ["new-link.csv", "old-link.csv", "p.txt", "t"]
    );
}

#[cfg(unix)]
#[test]
fn devices_and_links_to_them_are_written_never_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = Workdir::new();
    dir.write("p.txt", format!("{PUZZLE}\n"));
    std::os::unix::fs::symlink("/dev/null", dir.path("null-link")).unwrap();
    for out in ["/dev/null", "null-link"] {
        let run = dir.run(&["solve", "p.txt", "-o", out]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    let link = std::fs::symlink_metadata(dir.path("null-link")).unwrap();
    assert!(link.file_type().is_symlink());
    let null = std::fs::metadata("/dev/null").unwrap();
    assert!(null.file_type().is_char_device());
    assert_eq!(dir.entries(), ["null-link", "p.txt"]);
}

#[cfg(unix)]
#[test]
fn a_fifo_is_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let dir = Workdir::new();
    dir.write("p.txt", format!("{PUZZLE}\n{PUZZLE}\n"));
    let fifo = dir.fifo("fifo");
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            std::fs::File::open(fifo)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        })
    };
    let run = dir.run(&["solve", "p.txt", "-o", "fifo"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let text = reader.join().unwrap();
    assert_eq!(csv_rows(&text).len(), 2);
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_device_is_a_write_error_naming_it() {
    let dir = Workdir::new();
    dir.write("p.txt", format!("{PUZZLE}\n"));
    let run = dir.run(&["solve", "p.txt", "-o", "/dev/full"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .starts_with("sudoku-bulk: error: cannot write /dev/full: No space left on device"),
        "{}",
        run.stderr
    );
}

#[test]
fn unusable_inputs_and_outputs_exit_2_before_any_work() {
    let dir = Workdir::new();
    dir.write("p.txt", format!("{PUZZLE}\n"));
    let run = dir.run(&["solve", "p.txt", "missing.txt", "-o", "out.csv"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "sudoku-bulk: error: cannot open missing.txt: No such file or directory (os error 2)\n"
    );
    let run = dir.run(&["solve", "p.txt", "-o", "no/such/dir/out.csv"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .starts_with("sudoku-bulk: error: cannot create no/such/dir/"),
        "{}",
        run.stderr
    );
    assert_eq!(dir.entries(), ["p.txt"]);
}

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    let dir = Workdir::new();
    for args in [
        &["solve", "--no-such-flag"][..],
        &["solve", "--threads", "0"],
        &["solve", "--algorithm", "nope"],
        &["solve", "--input-format", "xml"],
        &["frobnicate"],
        &[],
    ] {
        let run = dir.run(args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(!run.stderr.is_empty());
    }
    let run = dir.run(&["solve", "--help"]);
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.contains("--max-recursions"));
}

#[test]
fn strict_exits_1_when_a_record_is_not_solved() {
    let dir = Workdir::new();
    dir.write("good.txt", format!("{PUZZLE}\n"));
    dir.write("mixed.txt", format!("{PUZZLE}\n{}\n", ".".repeat(81)));
    assert_eq!(dir.run(&["solve", "--strict", "good.txt"]).code, Some(0));
    assert_eq!(dir.run(&["solve", "mixed.txt"]).code, Some(0));
    assert_eq!(dir.run(&["solve", "--strict", "mixed.txt"]).code, Some(1));
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_exits_130_and_leaves_no_output_file() {
    let dir = Workdir::new();
    let mut child = dir.spawn(&["solve", "-", "-o", "out.csv"], true);
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(format!("{PUZZLE}\n").repeat(100).as_bytes())
        .unwrap();
    while !catches_sigint(child.id()) {
        std::thread::yield_now();
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted after"), "{stderr}");
    assert_eq!(dir.entries(), Vec::<String>::new());
}
