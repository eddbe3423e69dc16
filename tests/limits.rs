//! Resources a run may ask for are bounded: worker threads (never more than the work can keep
//! busy, and an absurd `--threads` refused) and the groups of `stats --by` (refused as soon as a
//! row makes one too many, never an out-of-memory kill).

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::workdir::{BIN, Workdir, puzzles};

/// A puzzle the `naive` algorithm takes years over (see tests/reliability.rs): it keeps a run
/// busy while its threads are counted.
const ENDLESS_FOR_NAIVE: &str =
    "........9...............................................................12345678.";

#[test]
fn an_absurd_thread_count_is_refused_with_the_limit() {
    let dir = Workdir::new();
    dir.write("in.txt", puzzles("puzzles2_17_clue.txt.gz", 3).join("\n"));
    for threads in ["257", "1000", "100000"] {
        let run = dir.run(&["solve", "in.txt", "--threads", threads]);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert_eq!(
            run.stderr,
            format!(
                "sudoku-bulk: error: --threads {threads} is more than a run can keep busy: at \
                 most 256 batches of records are ever waiting for a thread\n"
            )
        );
    }
    let run = dir.run(&["solve", "--help"]);
    assert!(
        run.stdout.contains("Worker threads, 1 to 256"),
        "{}",
        run.stdout
    );
    let run = dir.run(&["solve", "-q", "in.txt", "--threads", "256"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}

/// The threads of process `pid`: for each, its name and the CPU time it has used in user mode
/// (clock ticks), from `/proc/PID/task/*/stat`.
#[cfg(target_os = "linux")]
fn threads_of(pid: u32) -> Vec<(String, u64)> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("stat")).ok())
        .filter_map(|stat| {
            let (name, rest) = stat.split_once(" (")?.1.rsplit_once(") ")?;
            // Fields after the name, from the third: state, ppid, ..., utime is the 14th.
            let utime = rest.split_whitespace().nth(11)?.parse().ok()?;
            Some((name.to_string(), utime))
        })
        .collect()
}

#[cfg(target_os = "linux")]
#[test]
fn no_more_threads_start_than_the_records_can_keep_busy() {
    let dir = Workdir::new();
    let some = puzzles("puzzles2_17_clue.txt.gz", 150);
    // One record, then 151 records: one batch of 64, then three.
    dir.write("one.txt", format!("{ENDLESS_FOR_NAIVE}\n"));
    dir.write(
        "three.txt",
        format!("{ENDLESS_FOR_NAIVE}\n{}\n", some.join("\n")),
    );
    for (input, batches) in [("one.txt", 1), ("three.txt", 3)] {
        let mut child = Command::new(BIN)
            .args([
                "solve",
                "-q",
                input,
                "--algorithm",
                "naive",
                "--threads",
                "256",
            ])
            .args(["--max-recursions", "1000000000000"])
            .current_dir(dir.path(""))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // The pool starts every thread before it is given a batch: once a worker has used CPU
        // time on the first record (which keeps it busy for years), the count is final.
        let started = Instant::now();
        let threads = loop {
            let threads = threads_of(child.id());
            let working = threads
                .iter()
                .any(|(name, utime)| name.starts_with("sudoku-bulk-") && *utime > 0);
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "no worker started: {threads:?}"
            );
            if working {
                break threads;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        child.kill().unwrap();
        child.wait().unwrap();
        let workers = threads
            .iter()
            .filter(|(name, _)| name.starts_with("sudoku-bulk-"))
            .count();
        assert_eq!(workers, batches, "{input}: {threads:?}");
        // Besides the workers: the calling thread, and the one that waits for Ctrl-C.
        assert_eq!(threads.len(), 2 + batches, "{input}: {threads:?}");
        assert!(
            threads.iter().any(|(name, _)| name == "interrupt"),
            "{threads:?}"
        );
    }
}

/// Results rows, one per line number from 2 on, each its own `--by line` group.
fn result_rows(from: u64, to: u64) -> Vec<u8> {
    let mut text = Vec::new();
    for line in from..to {
        writeln!(
            text,
            "{line},p,s,solved,1,{},{},{},{},40,{},{},",
            20 + line % 300,
            1 + line % 13,
            19 + line % 300,
            19 + line % 300,
            100 + line % 999,
            17 + line % 9
        )
        .unwrap();
    }
    text
}

const HEADER: &str = "line,puzzle,solution,status,solutions,recursions,max_depth,guesses,backtracks,naked_singles,hidden_singles,givens,error\n";

/// `stats --by line` over 1,032,318 rows streamed on standard input (a million groups):
/// refused with exit 2 at the row that makes group 10,001 (the default `--max-groups`),
/// while most of the input is still unwritten, with a peak resident set (as
/// `/usr/bin/time -v` reports it) far under 512 MB.
#[cfg(target_os = "linux")]
#[test]
fn a_million_groups_are_refused_at_the_limit_not_killed_for_memory() {
    const ROWS: u64 = 1_032_318;
    let mut child = crate::workdir::spawn_timed(&["stats", "-", "--by", "line", "--bins", "none"]);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin.write_all(HEADER.as_bytes()).unwrap();
        let mut written = 0;
        // In blocks of 1,000 rows: the pipe breaks once the reader has gone.
        for from in (2..ROWS + 2).step_by(1000) {
            let to = (from + 1000).min(ROWS + 2);
            if stdin.write_all(&result_rows(from, to)).is_err() {
                break;
            }
            written = to - 2;
        }
        written
    });
    let output = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with(
            "sudoku-bulk: error: -:10002: more than 10000 distinct values of 'line' to group by"
        ),
        "{stderr}"
    );
    assert!(written < ROWS / 2, "{written} of {ROWS} rows were read");
    let kib = crate::workdir::peak_rss_kib(&stderr);
    eprintln!("peak RSS when refused after {written} rows written: {kib} KiB");
    assert!(kib < 512 * 1024, "peak RSS {kib} KiB");
}

#[test]
fn max_groups_lets_more_groups_through_and_needs_by() {
    let dir = Workdir::new();
    let mut text = HEADER.as_bytes().to_vec();
    text.extend(result_rows(2, 12));
    dir.write("r.csv", &text);
    let run = dir.run(&[
        "stats",
        "r.csv",
        "--by",
        "line",
        "--bins",
        "none",
        "--max-groups",
        "9",
    ]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("r.csv:11: more than 9 distinct values of 'line'")
    );
    let run = dir.run(&[
        "stats",
        "r.csv",
        "--by",
        "line",
        "--bins",
        "none",
        "--max-groups",
        "10",
        "--json",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["groups"].as_object().unwrap().len(), 10);
    let run = dir.run(&["stats", "r.csv", "--max-groups", "10"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
}

/// The solution of the first puzzle of tests/reliability.rs.
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// `n` puzzles of distinct classes, one a line: random 45-given subsets of one solution grid
/// (from a fixed seed; a subset's class is another's only through a symmetry of the grid,
/// which random subsets do not share). They solve at once, most of them with one solution.
fn distinct_puzzles(n: usize) -> String {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut text = String::with_capacity(n * 82);
    for _ in 0..n {
        let mut cells: Vec<u8> = SOLUTION.bytes().collect();
        let mut blank = 0;
        while blank < 36 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let at = (state % 81) as usize;
            if cells[at] != b'.' {
                cells[at] = b'.';
                blank += 1;
            }
        }
        text.push_str(std::str::from_utf8(&cells).unwrap());
        text.push('\n');
    }
    text
}

/// `--canonical` kept one digest per distinct puzzle, in memory and in the summary, without
/// bound (2 million distinct puzzles: 350 MB resident; past about 120 million the summary is
/// more than `stats` and `merge` read). `--max-classes` bounds it as it bounds `canon --dedupe`:
/// one class more ends the run, exit 2, naming the bound, and no output or summary is written.
#[test]
fn canonical_counting_past_max_classes_is_refused_naming_the_bound() {
    let dir = Workdir::new();
    dir.write("in.txt", distinct_puzzles(400));
    for command in ["solve", "rate"] {
        let run = dir.run(&[
            command,
            "in.txt",
            "-o",
            "out.csv",
            "--summary",
            "s.json",
            "--canonical",
            "--max-classes",
            "300",
        ]);
        assert_eq!(run.code, Some(2), "{command}: {}", run.stderr);
        assert_eq!(
            run.stderr.lines().last().unwrap(),
            "sudoku-bulk: error: --canonical: more than 300 distinct puzzles (classes); raise \
             --max-classes (each class takes 20 to 60 bytes of memory, 100 while the summary is \
             written, and 42 bytes of the summary)",
            "{command}"
        );
        assert_eq!(dir.entries(), ["in.txt"], "{command}");
    }
    // At the bound, every class is counted.
    let run = dir.run(&[
        "solve",
        "in.txt",
        "-o",
        "out.csv",
        "--summary",
        "s.json",
        "--canonical",
        "--max-classes",
        "400",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let summary: serde_json::Value = serde_json::from_str(&dir.read("s.json")).unwrap();
    assert_eq!(
        summary["canonical"]["distinct"], 400,
        "{}",
        summary["canonical"]
    );
    // The bound goes with --canonical, and is a positive number.
    let run = dir.run(&["solve", "in.txt", "--max-classes", "5"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("--canonical"), "{}", run.stderr);
    let run = dir.run(&[
        "solve",
        "in.txt",
        "--summary",
        "t.json",
        "--canonical",
        "--max-classes",
        "0",
    ]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
}

/// `stats --canonical` counts distinct puzzles of results files (and of summaries) up to
/// `--max-classes`: one more is refused naming the file and line, exit 2; at the bound every
/// one is counted.
#[test]
fn stats_counting_forms_past_max_classes_is_refused_naming_file_and_line() {
    let dir = Workdir::new();
    dir.write("in.txt", distinct_puzzles(400));
    let run = dir.run(&["solve", "-q", "in.txt", "-o", "out.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = dir.run(&["stats", "out.csv", "--canonical", "--max-classes", "300"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "sudoku-bulk: error: out.csv:302: more than 300 distinct puzzles (canonical forms) to \
         count; raise --max-classes (each takes 20 to 60 bytes of memory)\n"
    );
    assert!(run.stdout.is_empty());
    let run = dir.run(&[
        "stats",
        "out.csv",
        "--canonical",
        "--max-classes",
        "400",
        "--json",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let summary: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(summary["canonical"]["distinct"], 400);
    // The bound goes with --canonical.
    let run = dir.run(&["stats", "out.csv", "--max-classes", "5"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
}
