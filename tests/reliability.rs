//! Interrupted, killed and failing runs, and hostile input: a resumed run writes the bytes of an
//! uninterrupted one, an interrupt is served at once, a write failure is an error that names the
//! path and the OS error and leaves nothing behind, and no input crashes the tool.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[cfg(target_os = "linux")]
use crate::workdir::catches_sigint;
use crate::workdir::{BIN, Workdir, csv_rows, gzip, puzzles};

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// A puzzle the `naive` algorithm takes years over: r9c9 has no candidate, which it finds only
/// after filling rows 1 to 8 in every possible way. `fast` sees it at once.
const ENDLESS_FOR_NAIVE: &str =
    "........9...............................................................12345678.";

/// Records of every status, with comments and blank lines, about 100 bytes a record.
fn mixed_input(n: usize) -> String {
    let easy = puzzles("puzzles2_17_clue.txt.gz", 49_158);
    let multi = puzzles("puzzles7_serg_benchmark.txt.gz", 300);
    let mut text = String::from("# mixed records\n");
    for i in 0..n {
        let p = &easy[i % easy.len()];
        match i % 50 {
            7 => text.push_str(&multi[i % multi.len()]),
            19 => text.push_str(&p[..60]),
            31 => text.push_str(&format!("{}x", &p[..80])),
            _ => text.push_str(p),
        }
        text.push_str(if i % 3 == 0 { "\r\n" } else { "\n" });
        if i % 1000 == 999 {
            text.push_str("\n# section\n");
        }
    }
    text
}

/// A small generator for kill points, seeded from the clock: the seed is printed, so that a
/// failure can be replayed by fixing it.
struct Points(u64);

impl Points {
    fn new() -> Points {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64;
        eprintln!("kill points seeded with {seed}");
        Points(seed)
    }

    /// A fraction in `lo..hi`.
    fn fraction(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        lo + (hi - lo) * (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Waits for `child` for up to a minute; a run that has not ended by then is killed and the test
/// fails. (A minute is far more than any of these runs takes; it only turns a hang into a
/// failure.)
fn wait_or_fail(mut child: Child, what: &str) -> (Option<i32>, String) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut stderr = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut stderr)
                .unwrap();
            return (status.code(), stderr);
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("{what}: still running after a minute");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Kills `child` with SIGKILL once `file` holds at least `bytes` bytes; `false` when the run
/// ended first.
fn kill_when_larger(child: &mut Child, file: &Path, bytes: u64) -> bool {
    loop {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        if fs::metadata(file).is_ok_and(|m| m.len() >= bytes) {
            child.kill().unwrap();
            child.wait().unwrap();
            return true;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Waits until `file` holds more than `bytes` bytes, then sends `signal` (`-INT`, `-TERM`) to
/// `child`; the run must not end before.
fn signal_when_larger(child: &mut Child, file: &Path, bytes: u64, signal: &str) {
    while !fs::metadata(file).is_ok_and(|m| m.len() > bytes) {
        assert!(child.try_wait().unwrap().is_none(), "the run ended first");
        std::thread::sleep(Duration::from_millis(1));
    }
    send_signal(child, signal);
}

fn send_sigint(child: &Child) {
    send_signal(child, "-INT");
}

fn send_signal(child: &Child, signal: &str) {
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// The reference: `args` run to completion into `name`, its bytes.
fn uninterrupted(dir: &Workdir, args: &[&str], name: &str) -> Vec<u8> {
    let mut all = args.to_vec();
    all.extend(["-o", name]);
    let run = dir.run(&all);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    fs::read(dir.path(name)).unwrap()
}

/// Runs `args -o out --checkpoint-every 0`, killing it with SIGKILL at each fraction of the
/// final size in turn (each run after the first with `--resume`), then resumes to the end with
/// `threads_at_end` threads and checks the output is `expected`, byte for byte.
fn kill_and_resume(dir: &Workdir, args: &[&str], out: &str, fractions: &[f64], expected: &[u8]) {
    let partial = dir.path(&format!("{out}.partial"));
    let mut resume = false;
    for &fraction in fractions {
        let mut all = args.to_vec();
        all.extend(["-o", out, "--checkpoint-every", "0", "--threads", "1"]);
        if resume {
            all.push("--resume");
        }
        let mut child = dir.spawn(&all, false);
        let at = (expected.len() as f64 * fraction) as u64;
        let killed = kill_when_larger(&mut child, &partial, at);
        assert!(killed, "the run ended before {at} bytes ({fraction:.3})");
        resume = true;
    }
    let mut all = args.to_vec();
    all.extend(["-o", out, "--resume", "--threads", "2"]);
    let run = dir.run(&all);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let got = fs::read(dir.path(out)).unwrap();
    assert!(
        got == expected,
        "killed at {fractions:?}: the resumed output differs ({} bytes, expected {})",
        got.len(),
        expected.len()
    );
    assert!(!partial.exists());
    assert!(!dir.path(&format!("{out}.checkpoint")).exists());
}

#[cfg(target_os = "linux")]
#[test]
fn killed_runs_resume_to_the_bytes_of_an_uninterrupted_run() {
    let dir = Workdir::new();
    dir.write("in.txt", mixed_input(120_000));
    let args = ["solve", "in.txt"];
    let expected = uninterrupted(&dir, &args, "ref.csv");
    let mut points = Points::new();
    // One kill at a time, at several points; then three kills in a row before the end.
    for _ in 0..3 {
        let at = points.fraction(0.02, 0.95);
        kill_and_resume(&dir, &args, "out.csv", &[at], &expected);
    }
    let chain = [
        points.fraction(0.05, 0.3),
        points.fraction(0.35, 0.6),
        points.fraction(0.65, 0.95),
    ];
    kill_and_resume(&dir, &args, "out.csv", &chain, &expected);
}

#[cfg(target_os = "linux")]
#[test]
fn killed_runs_of_several_inputs_resume_with_the_file_column_and_jsonl() {
    let dir = Workdir::new();
    dir.write("a.txt", mixed_input(40_000));
    let second = mixed_input(30_000);
    dir.write_gz("b.txt.gz", &[second.as_bytes()]);
    let csv = format!(
        "id,puzzle\n{}",
        (0..20_000)
            .map(|i| format!("{i},{PUZZLE}\n"))
            .collect::<String>()
    );
    dir.write("c.csv", csv);
    let args = [
        "solve",
        "a.txt",
        "b.txt.gz",
        "c.csv",
        "--output-format",
        "jsonl",
    ];
    let expected = uninterrupted(&dir, &args, "ref.jsonl");
    let mut points = Points::new();
    let chain = [points.fraction(0.1, 0.45), points.fraction(0.5, 0.9)];
    kill_and_resume(&dir, &args, "out.jsonl", &chain, &expected);
}

#[cfg(target_os = "linux")]
#[test]
fn a_killed_shard_of_jigsaw_records_resumes_with_its_rows_and_its_summary() {
    let dir = Workdir::new();
    // Records with their own regions (a `regions` column), many times over.
    let sample =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/jigsaw_sample.csv"))
            .unwrap();
    let (header, rows) = sample.split_once('\n').unwrap();
    dir.write("in.csv", format!("{header}\n{}", rows.repeat(1500)));
    let args = ["solve", "in.csv", "--shard", "1/2"];
    let expected = uninterrupted(&dir, &args, "ref.csv");
    let expected_summary = fs::read_to_string(dir.path("ref.csv.summary.json")).unwrap();
    assert!(
        expected_summary.contains("\"records\""),
        "{expected_summary}"
    );
    let mut points = Points::new();
    let chain = [points.fraction(0.1, 0.45), points.fraction(0.5, 0.9)];
    kill_and_resume(&dir, &args, "out.csv", &chain, &expected);
    let summary = fs::read_to_string(dir.path("out.csv.summary.json")).unwrap();
    assert_eq!(summary, expected_summary, "the summary covers every row");
}

#[cfg(target_os = "linux")]
#[test]
fn verify_resumes_too() {
    let dir = Workdir::new();
    // Unique puzzles only, so that every row is ok and verify exits with 0.
    let unique = puzzles("puzzles2_17_clue.txt.gz", 49_158);
    dir.write("in.txt", unique.join("\n") + "\n");
    let solved = uninterrupted(&dir, &["solve", "in.txt"], "solved.csv");
    assert!(!solved.is_empty());
    let args = ["verify", "solved.csv"];
    let expected = uninterrupted(&dir, &args, "ref.csv");
    let mut points = Points::new();
    let at = points.fraction(0.1, 0.9);
    kill_and_resume(&dir, &args, "out.csv", &[at], &expected);
}

#[cfg(target_os = "linux")]
#[test]
fn sigint_exits_130_and_leaves_a_resumable_state() {
    let dir = Workdir::new();
    dir.write("in.txt", mixed_input(120_000));
    let expected = uninterrupted(&dir, &["solve", "in.txt"], "ref.csv");
    // No checkpoint before the interrupt: the one it writes is what the resume goes by.
    let child = dir.spawn(
        &[
            "solve",
            "in.txt",
            "-o",
            "out.csv",
            "--threads",
            "1",
            "--checkpoint-every",
            "1000",
        ],
        false,
    );
    let mut child = child;
    let partial = dir.path("out.csv.partial");
    signal_when_larger(&mut child, &partial, expected.len() as u64 / 4, "-INT");
    let (code, stderr) = wait_or_fail(child, "an interrupted run");
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("interrupted after "), "{stderr}");
    assert!(
        stderr.contains("kept in out.csv.partial; to go on, run: ")
            && stderr
                .trim_end()
                .ends_with("--checkpoint-every 1000 --resume"),
        "{stderr}"
    );
    let checkpoint: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.path("out.csv.checkpoint")).unwrap()).unwrap();
    let records = checkpoint["records"].as_u64().unwrap();
    let bytes = checkpoint["bytes"].as_u64().unwrap();
    assert!(records > 0);
    // The checkpoint counts whole rows: exactly the first `records` rows of the reference.
    let rows_end = expected
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(records as usize)
        .map(|(i, _)| i as u64 + 1)
        .unwrap();
    assert_eq!(bytes, rows_end);
    assert_eq!(
        fs::read(&partial).unwrap()[..bytes as usize],
        expected[..bytes as usize]
    );
    let run = dir.run(&["solve", "in.txt", "-o", "out.csv", "--resume"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with(&format!("sudoku-bulk: resuming after {records} records")),
        "{}",
        run.stderr
    );
    assert!(fs::read(dir.path("out.csv")).unwrap() == expected);
    assert_eq!(dir.entries(), ["in.txt", "out.csv", "ref.csv"]);
}

/// `canon --dedupe` keeps the classes it has seen in memory only, so an interrupted run cannot
/// be continued: it says the output was not written, leaves an existing one as it was and
/// leaves no partial file or checkpoint (it had said to resume, which `--resume` then refused).
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_dedupe_run_is_not_offered_a_resume_and_leaves_nothing() {
    let dir = Workdir::new();
    dir.write("in.txt", mixed_input(120_000));
    dir.write("out.csv", "old\n");
    let mut child = dir.spawn(
        &[
            "canon",
            "in.txt",
            "--dedupe",
            "-o",
            "out.csv",
            "--threads",
            "1",
            "--checkpoint-every",
            "0",
        ],
        false,
    );
    signal_when_larger(&mut child, &dir.path("out.csv.partial"), 100_000, "-INT");
    let (code, stderr) = wait_or_fail(child, "an interrupted dedupe run");
    assert_eq!(code, Some(130), "{stderr}");
    assert!(
        stderr.trim_end().ends_with("; out.csv was not written"),
        "{stderr}"
    );
    assert!(!stderr.contains("--resume"), "{stderr}");
    assert_eq!(dir.read("out.csv"), "old\n");
    assert_eq!(dir.entries(), ["in.txt", "out.csv"]);
}

#[cfg(target_os = "linux")]
#[test]
fn sigterm_stops_like_ctrl_c_so_a_cancelled_batch_job_resumes() {
    let dir = Workdir::new();
    dir.write("in.txt", mixed_input(120_000));
    let expected = uninterrupted(&dir, &["solve", "in.txt"], "ref.csv");
    let args = ["solve", "in.txt", "-o", "out.csv", "--threads", "1"];
    let mut child = dir.spawn(&args, false);
    let partial = dir.path("out.csv.partial");
    signal_when_larger(&mut child, &partial, expected.len() as u64 / 3, "-TERM");
    let (code, stderr) = wait_or_fail(child, "a terminated run");
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("interrupted after "), "{stderr}");
    let run = dir.run(&["solve", "in.txt", "-o", "out.csv", "--resume"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.starts_with("sudoku-bulk: resuming after "),
        "{}",
        run.stderr
    );
    assert!(fs::read(dir.path("out.csv")).unwrap() == expected);
}

#[cfg(target_os = "linux")]
#[test]
fn an_interrupt_is_served_during_a_search_that_would_take_years() {
    let dir = Workdir::new();
    // 64 records (one batch) that are quick, then the endless one.
    let text = format!(
        "{}{ENDLESS_FOR_NAIVE}\n{PUZZLE}\n",
        format!("{PUZZLE}\n").repeat(64)
    );
    dir.write("in.txt", text);
    let child = dir.spawn(
        &[
            "solve",
            "in.txt",
            "-o",
            "out.csv",
            "--algorithm",
            "naive",
            "--max-recursions",
            "18446744073709551615",
            "--threads",
            "2",
        ],
        false,
    );
    while !catches_sigint(child.id()) {
        std::thread::yield_now();
    }
    // Let the search start.
    std::thread::sleep(Duration::from_millis(300));
    send_sigint(&child);
    let (code, stderr) = wait_or_fail(child, "a run interrupted during a long search");
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("interrupted after 64 records"), "{stderr}");
    let checkpoint: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.path("out.csv.checkpoint")).unwrap()).unwrap();
    assert_eq!(checkpoint["records"], 64);
    assert_eq!(csv_rows(&dir.read("out.csv.partial")).len(), 64);
}

#[cfg(target_os = "linux")]
#[test]
fn generate_stops_at_an_interrupt_inside_a_long_attempt_loop_and_leaves_no_partial_file() {
    // With ten givens on random jigsaw layouts almost every attempt fails: each puzzle spends
    // its whole budget of attempts, minutes for a chunk. The interrupt must be seen within the
    // loop, not after the grace period that stops a stuck run.
    for (signal, out) in [("-INT", "out.csv"), ("-TERM", "out.parquet")] {
        let dir = Workdir::new();
        let child = dir.spawn(
            &[
                "generate",
                "--regions",
                "random",
                "--givens",
                "10",
                "--count",
                "100",
                "--max-attempts",
                "1000000",
                "--threads",
                "2",
                "-o",
                out,
            ],
            false,
        );
        while !catches_sigint(child.id()) {
            std::thread::yield_now();
        }
        // Let the attempts start.
        std::thread::sleep(Duration::from_millis(300));
        send_signal(&child, signal);
        let (code, stderr) = wait_or_fail(child, "generate interrupted in its attempts");
        assert_eq!(code, Some(130), "{signal}: {stderr}");
        assert!(!stderr.contains("had not stopped"), "{signal}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "interrupted after 0 puzzles; {out} was not written"
            )),
            "{signal}: {stderr}"
        );
        assert_eq!(
            dir.entries(),
            Vec::<String>::new(),
            "{signal}: nothing left behind"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_second_ctrl_c_exits_at_once() {
    let dir = Workdir::new();
    // Standard input stays open and empty: the run waits for input and does not see the first
    // Ctrl-C until some arrives.
    let mut child = dir.spawn(&["solve", "-", "-o", "out.csv"], true);
    let stdin = child.stdin.take().unwrap();
    // Wait until the main thread blocks in read(0, ...): an interrupt before that would be seen.
    let pid = child.id();
    let reading = || {
        let call = fs::read_to_string(format!("/proc/{pid}/syscall")).unwrap_or_default();
        call.split_whitespace().take(2).eq(["0", "0x0"])
    };
    while !reading() {
        assert!(child.try_wait().unwrap().is_none(), "the run ended");
        std::thread::sleep(Duration::from_millis(1));
    }
    send_sigint(&child);
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the first Ctrl-C ended it"
    );
    send_sigint(&child);
    let (code, _) = wait_or_fail(child, "a run after two Ctrl-C");
    assert_eq!(code, Some(130));
    drop(stdin);
    // Standard input cannot be read again, so no checkpoint describes the rows: the partial
    // file the run was writing does not stay.
    let entries = dir.entries();
    assert!(
        !entries.iter().any(|e| e.ends_with(".partial")),
        "{entries:?}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_device_is_an_error_with_the_os_error_and_no_panic() {
    let dir = Workdir::new();
    dir.write("in.txt", mixed_input(2000));
    dir.write("pairs.txt", format!("{PUZZLE} {PUZZLE}\n"));
    for args in [
        &["solve", "-q", "in.txt", "-o", "/dev/full"][..],
        &[
            "solve",
            "-q",
            "in.txt",
            "-o",
            "/dev/full",
            "--output-format",
            "jsonl",
        ],
        &["verify", "-q", "pairs.txt", "-o", "/dev/full"],
    ] {
        let run = dir.run(args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert_eq!(
            run.stderr,
            "sudoku-bulk: error: cannot write /dev/full: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
    assert_eq!(dir.entries(), ["in.txt", "pairs.txt"]);
    let run = dir.run(&["solve", "in.txt", "-o", "/dev/full", "--resume"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("--resume needs -o with a regular file"),
        "{}",
        run.stderr
    );
}

/// A tmpfs of 64 KiB mounted on a directory of the work dir, unmounted on drop.
struct TinyDisk(PathBuf);

impl TinyDisk {
    /// Mounts it, or says why it cannot (not root, no mount namespace rights).
    fn mount(dir: &Workdir) -> Result<TinyDisk, String> {
        let path = dir.path("disk");
        fs::create_dir(&path).unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
            .arg(&path)
            .output()
            .map_err(|e| format!("cannot run mount: {e}"))?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
        }
        Ok(TinyDisk(path))
    }
}

impl Drop for TinyDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_error_and_leaves_the_old_output_and_nothing_else() {
    let dir = Workdir::new();
    let disk = match TinyDisk::mount(&dir) {
        Ok(disk) => disk,
        Err(reason) => {
            eprintln!("skipped: cannot mount a tmpfs here ({reason})");
            return;
        }
    };
    dir.write("in.txt", mixed_input(5000));
    fs::write(disk.0.join("out.csv"), "old\n").unwrap();
    let run = dir.run(&["solve", "-q", "in.txt", "-o", "disk/out.csv"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("sudoku-bulk: error: cannot write disk/out.csv")
            && run.stderr.contains("No space left on device (os error 28)"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read_to_string(disk.0.join("out.csv")).unwrap(), "old\n");
    let left: Vec<_> = fs::read_dir(&disk.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["out.csv"]);
}

/// Runs the binary with a file-size limit of `bytes`.
fn run_with_file_limit(dir: &Workdir, args: &[&str], bytes: u64) -> (Option<i32>, String) {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(BIN);
    command
        .args(args)
        .current_dir(dir.path(""))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    wait_or_fail(command.spawn().unwrap(), "a run with a file-size limit")
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_size_limit_is_an_error_not_a_signal() {
    let dir = Workdir::new();
    dir.write("in.txt", mixed_input(5000));
    dir.write("out.csv", "old\n");
    let (code, stderr) =
        run_with_file_limit(&dir, &["solve", "-q", "in.txt", "-o", "out.csv"], 64 << 10);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "sudoku-bulk: error: cannot write out.csv: File too large (os error 27)\n"
    );
    assert_eq!(dir.read("out.csv"), "old\n");
    assert_eq!(dir.entries(), ["in.txt", "out.csv"]);
}

#[cfg(target_os = "linux")]
#[test]
fn a_resumed_run_that_fails_keeps_its_partial_output_for_the_next_try() {
    let dir = Workdir::new();
    dir.write("in.txt", mixed_input(120_000));
    let expected = uninterrupted(&dir, &["solve", "in.txt"], "ref.csv");
    let args = [
        "solve",
        "in.txt",
        "-o",
        "out.csv",
        "--threads",
        "1",
        "--checkpoint-every",
        "0",
    ];
    let mut child = dir.spawn(&args, false);
    let partial = dir.path("out.csv.partial");
    assert!(kill_when_larger(
        &mut child,
        &partial,
        expected.len() as u64 / 3
    ));
    let checkpoint = fs::read(dir.path("out.csv.checkpoint")).unwrap();
    // The disk fills up (here: a file-size limit) as the resumed run goes on.
    let limit = expected.len() as u64 / 2;
    let mut resume = args.to_vec();
    resume.push("--resume");
    let (code, stderr) = run_with_file_limit(&dir, &resume, limit);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("stay in out.csv.partial: run again with --resume"),
        "{stderr}"
    );
    assert!(
        stderr.contains("error: cannot write out.csv: File too large (os error 27)"),
        "{stderr}"
    );
    assert_ne!(
        fs::read(dir.path("out.csv.checkpoint")).unwrap(),
        checkpoint
    );
    let run = dir.run(&resume);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(fs::read(dir.path("out.csv")).unwrap() == expected);
}

#[cfg(target_os = "linux")]
#[test]
fn resuming_with_changed_inputs_or_options_is_refused_naming_the_change() {
    let dir = Workdir::new();
    dir.write("a.txt", mixed_input(100_000));
    dir.write("b.txt", format!("{PUZZLE}\n"));
    let base = ["solve", "a.txt", "b.txt", "-o", "out.csv", "--threads", "1"];
    let mut child = dir.spawn(&base, false);
    let partial = dir.path("out.csv.partial");
    signal_when_larger(&mut child, &partial, 1 << 20, "-INT");
    let (code, stderr) = wait_or_fail(child, "an interrupted run");
    assert_eq!(code, Some(130), "{stderr}");
    let saved = fs::read(dir.path("out.csv.checkpoint")).unwrap();
    let refused = |args: &[&str], expected: &str| {
        let run = dir.run(args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr
                .starts_with("sudoku-bulk: error: cannot resume from out.csv.checkpoint: ")
                && run.stderr.contains(expected)
                && run
                    .stderr
                    .ends_with("; run without --resume to start over\n"),
            "{args:?}: {}",
            run.stderr
        );
        // Refusing changes nothing.
        assert_eq!(fs::read(dir.path("out.csv.checkpoint")).unwrap(), saved);
    };
    let with = |extra: &[&'static str]| {
        let mut args = base.to_vec();
        args.extend(extra);
        args.push("--resume");
        args
    };
    refused(
        &with(&["--max-solutions", "1"]),
        "--max-solutions was 2, now 1",
    );
    refused(
        &with(&["--output-format", "jsonl"]),
        "--output-format was csv, now jsonl",
    );
    refused(&with(&["--seed", "3"]), "--seed was 0, now 3");
    refused(
        &with(&["--input-format", "line"]),
        "--input-format was (detected), now line",
    );
    refused(
        &["verify", "a.txt", "b.txt", "-o", "out.csv", "--resume"],
        "it records a solve run, this is verify",
    );
    // The inputs: another order, one fewer, one changed.
    refused(
        &["solve", "b.txt", "a.txt", "-o", "out.csv", "--resume"],
        "the inputs were a.txt, b.txt, now b.txt, a.txt",
    );
    refused(
        &["solve", "a.txt", "-o", "out.csv", "--resume"],
        "the inputs were a.txt, b.txt, now a.txt",
    );
    fs::OpenOptions::new()
        .append(true)
        .open(dir.path("b.txt"))
        .unwrap()
        .write_all(format!("{PUZZLE}\n").as_bytes())
        .unwrap();
    refused(
        &with(&[]),
        "input b.txt changed (size was 82 bytes, now 164",
    );
    // Standard input cannot be checked at all.
    let run = dir.run_with_stdin(&["solve", "-", "-o", "out.csv", "--resume"], PUZZLE);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "sudoku-bulk: error: cannot resume: standard input could not be checked to be the same \
         again\n"
    );
    // Started over without --resume, the old partial output goes, and that is said.
    let run = dir.run(&base);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.starts_with("sudoku-bulk: starting over: the "),
        "{}",
        run.stderr
    );
    assert_eq!(dir.entries(), ["a.txt", "b.txt", "out.csv"]);
}

/// `path` with `edit` applied to its bytes, its size and modification time as they were.
fn edit_in_place(path: &Path, edit: impl FnOnce(&mut Vec<u8>)) {
    let mtime = fs::metadata(path).unwrap().modified().unwrap();
    let mut bytes = fs::read(path).unwrap();
    let size = bytes.len();
    edit(&mut bytes);
    assert_eq!(bytes.len(), size, "the edit keeps the size");
    fs::write(path, &bytes).unwrap();
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    assert_eq!(fs::metadata(path).unwrap().modified().unwrap(), mtime);
}

#[cfg(target_os = "linux")]
#[test]
fn resume_refuses_an_input_edited_where_it_was_read_even_with_its_size_and_mtime_restored() {
    let dir = Workdir::new();
    let original = mixed_input(100_000);
    dir.write("in.txt", &original);
    let args = ["solve", "in.txt", "-o", "out.csv", "--threads", "1"];
    let expected = uninterrupted(&dir, &args[..2], "whole.csv");
    let mut child = dir.spawn(&args, false);
    signal_when_larger(&mut child, &dir.path("out.csv.partial"), 1 << 20, "-INT");
    let (code, stderr) = wait_or_fail(child, "an interrupted run");
    assert_eq!(code, Some(130), "{stderr}");
    let (checkpoint, partial) = (
        fs::read(dir.path("out.csv.checkpoint")).unwrap(),
        fs::read(dir.path("out.csv.partial")).unwrap(),
    );
    let mut resume = args.to_vec();
    resume.push("--resume");
    let refused = |what: &str| {
        let run = dir.run(&resume);
        assert_eq!(run.code, Some(2), "{what}: {}", run.stderr);
        let error = run.stderr.lines().last().unwrap_or_default();
        assert!(
            error.starts_with(
                "sudoku-bulk: error: cannot resume from out.csv.checkpoint: input in.txt \
                 changed (its first "
            ) && error.ends_with("; run without --resume to start over"),
            "{what}: {}",
            run.stderr
        );
        // Nothing of the interrupted run is lost.
        assert_eq!(
            fs::read(dir.path("out.csv.checkpoint")).unwrap(),
            checkpoint
        );
        assert_eq!(fs::read(dir.path("out.csv.partial")).unwrap(), partial);
        assert!(!dir.path("out.csv").exists());
    };
    let path = dir.path("in.txt");
    // One digit of the fifth puzzle, well inside the bytes the interrupted run read.
    edit_in_place(&path, |bytes| {
        let at = original.match_indices('\n').nth(5).unwrap().0 + 3;
        bytes[at] = if bytes[at] == b'1' { b'2' } else { b'1' };
    });
    refused("a digit changed");
    // The first CRLF made two spaces: two lines become one, the size stays.
    edit_in_place(&path, |bytes| {
        bytes.copy_from_slice(original.as_bytes());
        let at = original.find("\r\n").unwrap();
        bytes[at..at + 2].copy_from_slice(b"  ");
    });
    refused("CRLF made two spaces");
    // The input as it was: the run goes on to the bytes of an uninterrupted one.
    edit_in_place(&path, |bytes| bytes.copy_from_slice(original.as_bytes()));
    let run = dir.run(&resume);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(fs::read(dir.path("out.csv")).unwrap() == expected);
}

/// A partial output changed after the run was killed, one byte inside the rows its checkpoint
/// covers, was resumed (exit 0) into a final output that differed from an uninterrupted run at
/// that byte: only the inputs were checked. The checkpoint holds the digest of the bytes written;
/// a resumed run reads them back and refuses to append to changed ones, naming the file and what
/// to do, and leaves everything as it was.
#[cfg(target_os = "linux")]
#[test]
fn a_partial_output_changed_after_a_kill_is_refused_on_resume_not_continued() {
    let dir = Workdir::new();
    dir.write("in.txt", mixed_input(100_000));
    let args = ["solve", "in.txt", "-o", "out.csv", "--threads", "1"];
    let expected = uninterrupted(&dir, &args[..2], "whole.csv");
    let mut run = args.to_vec();
    run.extend(["--checkpoint-every", "0"]);
    let mut child = dir.spawn(&run, false);
    let partial = dir.path("out.csv.partial");
    assert!(kill_when_larger(&mut child, &partial, 1 << 20));
    let checkpoint: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.path("out.csv.checkpoint")).unwrap()).unwrap();
    let bytes = checkpoint["bytes"].as_u64().unwrap() as usize;
    assert!(bytes > 1000, "{checkpoint}");
    // One digit of a row in the middle of the bytes the checkpoint covers.
    let original = fs::read(&partial).unwrap();
    edit_in_place(&partial, |rows| {
        let at = bytes / 2
            + rows[bytes / 2..]
                .iter()
                .position(u8::is_ascii_digit)
                .unwrap();
        rows[at] = if rows[at] == b'1' { b'2' } else { b'1' };
    });
    let changed = fs::read(&partial).unwrap();
    let mut resume = args.to_vec();
    resume.push("--resume");
    let refused = dir.run(&resume);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert_eq!(
        refused.stderr.trim_end(),
        format!(
            "sudoku-bulk: error: cannot resume from out.csv.partial: its first {bytes} bytes are \
             not the rows the interrupted run wrote (they changed since: their digest is not \
             the one its checkpoint records); run without --resume to start over"
        )
    );
    // Nothing was cut, appended or removed, and no output made.
    assert_eq!(fs::read(&partial).unwrap(), changed);
    assert!(dir.path("out.csv.checkpoint").exists());
    assert!(!dir.path("out.csv").exists());
    // The bytes as written: the run goes on to the output of an uninterrupted one.
    // The rows gone, the checkpoint left: refused, saying how to start over.
    fs::remove_file(&partial).unwrap();
    let refused = dir.run(&resume);
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(
        refused.stderr.contains(
            "cannot resume from out.csv.partial: it does not exist (its checkpoint does); run \
             without --resume to start over"
        ),
        "{}",
        refused.stderr
    );
    assert!(!dir.path("out.csv").exists());
    fs::write(&partial, &original).unwrap();
    let resumed = dir.run(&resume);
    assert_eq!(resumed.code, Some(0), "{}", resumed.stderr);
    assert!(fs::read(dir.path("out.csv")).unwrap() == expected);
}

/// `--checkpoint-every` was not kept for slow commands: rows were checkpointed when their chunk
/// ended, and a chunk of hard puzzles is minutes of `rate`, all lost to a kill -9. The rows of the
/// batches done are now written, and checkpointed, while the chunk goes on. The first chunk here
/// is 128 records (two threads: 2,048 a chunk, the first a sixteenth): a batch of 64 quick
/// puzzles, then 64 of the forum's hardest, minutes of rating in a test build. The checkpoint
/// must cover the quick batch, and only it, before the chunk ends: there was none (0 records)
/// until all 128 were rated. No time is asserted: the run is killed once the checkpoint shows
/// records, or after ten minutes (then the test fails).
#[cfg(target_os = "linux")]
#[test]
fn a_killed_slow_rate_run_keeps_the_rows_checkpointed_within_its_first_chunk() {
    let dir = Workdir::new();
    let hard = puzzles("puzzles6_forum_hardest_1106.txt.gz", 400);
    let quick = format!("{PUZZLE}\n").repeat(64);
    dir.write("quick.txt", &quick);
    dir.write("in.txt", format!("{quick}{}\n", hard.join("\n")));
    let expected = uninterrupted(&dir, &["rate", "quick.txt"], "quick.csv");
    let mut child = dir.spawn(
        &[
            "rate",
            "in.txt",
            "-o",
            "out.csv",
            "--threads",
            "2",
            "--checkpoint-every",
            "0.2",
        ],
        false,
    );
    let checkpoint_path = dir.path("out.csv.checkpoint");
    let deadline = Instant::now() + Duration::from_secs(600);
    let checkpoint = loop {
        let recorded = fs::read(&checkpoint_path)
            .ok()
            .and_then(|text| serde_json::from_slice::<serde_json::Value>(&text).ok())
            .filter(|c| c["records"].as_u64() > Some(0));
        if let Some(checkpoint) = recorded {
            break checkpoint;
        }
        if Instant::now() > deadline || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            panic!("no checkpoint with records before the run's first chunk ended");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    // The quick batch alone, the rows of a run of it, byte for byte.
    assert_eq!(checkpoint["records"], 64, "{checkpoint}");
    assert_eq!(checkpoint["tally"]["rated"], 64, "{checkpoint}");
    let bytes = checkpoint["bytes"].as_u64().unwrap() as usize;
    assert_eq!(bytes, expected.len());
    assert!(fs::read(dir.path("out.csv.partial")).unwrap()[..bytes] == expected[..]);
}

#[test]
fn resume_without_a_checkpoint_starts_from_the_beginning() {
    let dir = Workdir::new();
    dir.write("in.txt", format!("{PUZZLE}\n"));
    let run = dir.run(&["solve", "in.txt", "-o", "out.csv", "--resume"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "sudoku-bulk: nothing to resume (out.csv.checkpoint does not exist): starting from \
             the beginning\n"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(csv_rows(&dir.read("out.csv")).len(), 1);
}

#[test]
fn a_corrupt_checkpoint_is_refused_on_resume_and_replaced_otherwise() {
    let dir = Workdir::new();
    dir.write("in.txt", format!("{PUZZLE}\n"));
    dir.write("out.csv.partial", "line,puzzle\n");
    dir.write(
        "out.csv.checkpoint",
        "{\"format\": \"sudoku-bulk checkpoint 1\", \"x\":",
    );
    let run = dir.run(&["solve", "in.txt", "-o", "out.csv", "--resume"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.starts_with(
            "sudoku-bulk: error: out.csv.checkpoint is not a checkpoint this version can read ("
        ),
        "{}",
        run.stderr
    );
    let run = dir.run(&["solve", "in.txt", "-o", "out.csv"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(dir.entries(), ["in.txt", "out.csv"]);
}

/// Runs `args` and checks the run survived: exit 0 (1 for verify, which finds records not ok),
/// no panic; returns the rows.
fn survives(dir: &Workdir, args: &[&str]) -> Vec<std::collections::BTreeMap<String, String>> {
    let run = dir.run(args);
    let code = if args[0] == "verify" { 1 } else { 0 };
    assert_eq!(run.code, Some(code), "{args:?}: {}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    csv_rows(&run.stdout)
}

#[test]
fn arbitrary_bytes_nul_and_invalid_utf8_are_invalid_rows() {
    let dir = Workdir::new();
    // Bytes from a fixed generator: every value, NULs and broken UTF-8 sequences included.
    let mut state = 0x1234_5678_9abc_def0u64;
    let noise: Vec<u8> = (0..200_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    dir.write("noise.bin", &noise);
    for format in ["line", "csv", "grid"] {
        let run = dir.run(&["solve", "noise.bin", "--input-format", format]);
        assert!(
            matches!(run.code, Some(0) | Some(2)),
            "{format}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        if format == "csv" {
            // A header of noise has no puzzle column: a file-level error, named.
            assert!(
                run.stderr.contains("noise.bin: no puzzle column"),
                "{}",
                run.stderr
            );
            continue;
        }
        assert_eq!(run.code, Some(0), "{format}: {}", run.stderr);
        let rows = csv_rows(&run.stdout);
        assert!(!rows.is_empty());
        assert!(rows.iter().all(|r| r["status"] == "invalid"), "{format}");
    }
    let mut text = Vec::new();
    text.extend_from_slice(PUZZLE.as_bytes());
    text.push(b'\n');
    text.extend_from_slice(&PUZZLE.as_bytes()[..40]);
    text.extend_from_slice(b"\0\xff\xfe\xc3(");
    text.extend_from_slice(&PUZZLE.as_bytes()[45..]);
    text.push(b'\n');
    text.extend_from_slice(b"\0\0\0\n\xef\xbb\xbf\n");
    dir.write("mixed.txt", &text);
    let rows = survives(&dir, &["solve", "mixed.txt"]);
    let statuses: Vec<&str> = rows.iter().map(|r| r["status"].as_str()).collect();
    assert_eq!(statuses, ["solved", "invalid", "invalid", "invalid"]);
    assert_eq!(
        rows[1]["error"],
        "invalid character '\\0' at row 5, column 5"
    );
    let rows = survives(&dir, &["verify", "mixed.txt"]);
    assert!(rows.iter().all(|r| r["status"] == "invalid"));
}

#[test]
fn a_100_mb_line_without_a_newline_is_one_invalid_row() {
    let dir = Workdir::new();
    let path = dir.path("long.txt");
    let mut file = fs::File::create(&path).unwrap();
    file.write_all(format!("{PUZZLE}\n").as_bytes()).unwrap();
    let block = vec![b'7'; 1 << 20];
    for _ in 0..100 {
        file.write_all(&block).unwrap();
    }
    drop(file);
    let rows = survives(&dir, &["solve", "long.txt"]);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["status"], "solved");
    assert_eq!(rows[1]["status"], "invalid");
    assert_eq!(rows[1]["error"], "line longer than 65536 bytes");
    // A CSV field that opens a quote and never closes it: one record, held no further than the
    // cap, however many lines follow, that says where the quote opened.
    let mut csv = fs::File::create(dir.path("open.csv")).unwrap();
    csv.write_all(format!("puzzle\n{PUZZLE}\n\"").as_bytes())
        .unwrap();
    let lines = format!("{PUZZLE}\n").repeat(1 << 14);
    for _ in 0..16 {
        csv.write_all(lines.as_bytes()).unwrap();
    }
    drop(csv);
    let rows = survives(&dir, &["solve", "open.csv"]);
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows[1]["error"],
        "unclosed quote opened at line 3 (the record runs to the end of the input)"
    );
    // CSV lines too long to hold: each is an invalid record (its quotes cannot be followed).
    let mut csv = fs::File::create(dir.path("long.csv")).unwrap();
    csv.write_all(format!("puzzle\n{PUZZLE}\n\"").as_bytes())
        .unwrap();
    for _ in 0..20 {
        csv.write_all(&block).unwrap();
        csv.write_all(b"\n").unwrap();
    }
    drop(csv);
    let rows = survives(&dir, &["solve", "long.csv"]);
    assert_eq!(rows.len(), 21);
    assert!(
        rows[1..]
            .iter()
            .all(|r| r["error"] == "record longer than 65536 bytes")
    );
    let rows = survives(&dir, &["solve", "long.txt", "--input-format", "grid"]);
    assert_eq!(rows[1]["error"], "line longer than 65536 bytes");
}

#[test]
fn a_truncated_gzip_stream_is_an_error_naming_the_file_and_the_last_good_line() {
    let dir = Workdir::new();
    let lines: String = (0..20_000).map(|_| format!("{PUZZLE}\n")).collect();
    let gz = gzip(lines.as_bytes());
    dir.write("cut.txt.gz", &gz[..gz.len() * 2 / 3]);
    for args in [
        &["solve", "cut.txt.gz"][..],
        &["solve", "cut.txt.gz", "-o", "out.csv"],
        &["verify", "cut.txt.gz"],
    ] {
        let run = dir.run(args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        // The rows of the chunks before the cut may be reported first (verify flags each).
        let rest = run
            .stderr
            .lines()
            .find_map(|l| l.strip_prefix("sudoku-bulk: error: cannot read cut.txt.gz after line "))
            .unwrap_or_else(|| panic!("{}", run.stderr));
        let (line, why) = rest.split_once(": ").unwrap();
        let line: u64 = line.parse().unwrap();
        // Every line before the cut is good; the cut comes about two thirds in.
        assert!((5000..20_000).contains(&line), "{}", run.stderr);
        assert!(!why.is_empty());
        // Written to standard output, the row of every line read before it is there, in order,
        // whatever the thread count.
        if args[0] == "solve" && args.len() == 2 {
            for threads in ["1", "2", "3"] {
                let run = dir.run(&["solve", "cut.txt.gz", "-q", "--threads", threads]);
                let rows: Vec<&str> = run.stdout.lines().skip(1).collect();
                let numbers: Vec<String> = rows
                    .iter()
                    .map(|row| row.split(',').next().unwrap().to_string())
                    .collect();
                let expected: Vec<String> = (1..=line).map(|n| n.to_string()).collect();
                assert_eq!(numbers, expected, "--threads {threads}: {}", run.stderr);
            }
        }
    }
    assert_eq!(dir.entries(), ["cut.txt.gz"]);
}

/// Peak memory over a 1 GB input: run once with `cargo test -- --ignored one_gigabyte`; the input
/// is built under `target/` and not kept.
#[cfg(target_os = "linux")]
/// A gigabyte streamed through standard input, rows to `/dev/null`: the peak resident set
/// size, as `/usr/bin/time -v` reports it, stays under 64 MB. Most of the bytes are lines far
/// too long (the reader's cap is part of the measure), so that the test takes seconds.
#[test]
fn one_gigabyte_of_input_stays_under_64_mb() {
    let mut block = mixed_input(10_000).into_bytes();
    block.extend(vec![b'1'; 10 << 20]);
    block.push(b'\n');
    let mut child =
        crate::workdir::spawn_timed(&["solve", "-q", "--threads", "2", "-o", "/dev/null", "-"]);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let mut written = 0;
        while written < 1_000_000_000 {
            stdin.write_all(&block).unwrap();
            written += block.len();
        }
        written
    });
    let (code, stderr) = wait_or_fail(child, "a run over 1 GB");
    let written = writer.join().unwrap();
    assert_eq!(code, Some(0), "{stderr}");
    let kib = crate::workdir::peak_rss_kib(&stderr);
    eprintln!("peak RSS over {written} bytes of input: {kib} KiB");
    assert!(kib < 64 * 1024, "peak RSS {kib} KiB");
}

/// A few long kept values among many short ones: the records and row batches a run reuses do
/// not each keep the size of the longest value they once held, so memory stays bounded by
/// what a chunk holds (before, 220 MB of such input peaked above 100 MB, and more input more).
#[cfg(target_os = "linux")]
#[test]
fn long_kept_values_among_short_ones_do_not_grow_memory() {
    let short = format!("{PUZZLE},s\n").repeat(2048);
    let long = format!("{PUZZLE},{}\n", "x".repeat(32_000)).repeat(64);
    let mut child = crate::workdir::spawn_timed(&[
        "solve",
        "-q",
        "--threads",
        "2",
        "--keep-columns",
        "k",
        "-o",
        "/dev/null",
        "-",
    ]);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin.write_all(b"puzzle,k\n").unwrap();
        for _ in 0..100 {
            stdin.write_all(short.as_bytes()).unwrap();
            stdin.write_all(long.as_bytes()).unwrap();
        }
    });
    let (code, stderr) = wait_or_fail(child, "a run over long kept values");
    writer.join().unwrap();
    assert_eq!(code, Some(0), "{stderr}");
    let kib = crate::workdir::peak_rss_kib(&stderr);
    assert!(kib < 64 * 1024, "peak RSS {kib} KiB");
}

/// Standard input that brings its first bytes one at a time (a slow or byte-wise producer) is
/// told by all of them, not by what the first read gave: gzip is decompressed, UTF-16 and
/// Parquet are refused (the first byte alone had made gzip garbage rows, exit 0).
#[test]
fn a_pipe_that_brings_its_first_byte_alone_is_still_recognised() {
    let text: String = puzzles("puzzles2_17_clue.txt.gz", 6)
        .iter()
        .map(|p| format!("{p}\n"))
        .collect();
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.bytes().flat_map(|b| [b, 0]));
    let trickled = |bytes: Vec<u8>| {
        let mut child = Command::new(BIN)
            .args(["solve", "-", "-q"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&bytes[..1]).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(Duration::from_millis(200));
        stdin.write_all(&bytes[1..]).unwrap();
        drop(stdin);
        child.wait_with_output().unwrap()
    };
    let run = trickled(gzip(text.as_bytes()));
    assert_eq!(run.status.code(), Some(0));
    let rows = csv_rows(&String::from_utf8(run.stdout).unwrap());
    assert_eq!(rows.len(), 6);
    assert!(rows.iter().all(|r| r["status"] == "solved"), "{rows:?}");
    let run = trickled(utf16);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert!(stderr.contains("it is UTF-16 text"), "{stderr}");
    let run = trickled(b"PAR1 and the rest of a Parquet file".to_vec());
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert!(stderr.contains("it is a Parquet file"), "{stderr}");
}

/// A named pipe given as an input is opened once: the check that no output is an input only
/// looks at it, so what its writer sent is all read (opening and closing it first had thrown
/// that away, and the run then waited for a writer that never came).
#[cfg(unix)]
#[test]
fn a_named_pipe_as_input_is_read_whole() {
    let dir = Workdir::new();
    let fifo = dir.fifo("in.fifo");
    let text: String = puzzles("puzzles6_forum_hardest_1106.txt.gz", 3)
        .iter()
        .map(|p| format!("{p}\n"))
        .collect();
    let writer = std::thread::spawn(move || {
        // Blocks until the run opens the pipe for reading.
        fs::write(fifo, text).unwrap();
    });
    let child = dir.spawn(&["solve", "in.fifo", "-o", "out.csv"], false);
    let (code, stderr) = wait_or_fail(child, "solve of a named pipe");
    writer.join().unwrap();
    assert_eq!(code, Some(0), "{stderr}");
    let rows = csv_rows(&dir.read("out.csv"));
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r["status"] == "solved"));
}

/// A run blocked where it cannot look at the interrupt flag (here a read of a pipe whose
/// writer sends nothing) is stopped a few seconds after the first Ctrl-C, with 130 and a
/// message, an existing output untouched.
#[cfg(target_os = "linux")]
#[test]
fn a_run_waiting_on_a_silent_input_stops_after_the_first_interrupt() {
    let dir = Workdir::new();
    dir.write("out.csv", "old\n");
    let fifo = dir.fifo("silent.fifo");
    // A writer that opens the pipe and sends nothing until the run has ended.
    let (ended, wait_for_end) = std::sync::mpsc::channel::<()>();
    let writer = std::thread::spawn(move || {
        let _open = fs::OpenOptions::new().write(true).open(fifo).unwrap();
        let _ = wait_for_end.recv();
    });
    let child = dir.spawn(&["solve", "silent.fifo", "-o", "out.csv"], false);
    while !catches_sigint(child.id()) {
        std::thread::sleep(Duration::from_millis(1));
    }
    // Time to reach the read that never returns.
    std::thread::sleep(Duration::from_millis(200));
    send_sigint(&child);
    let (code, stderr) = wait_or_fail(child, "a run waiting on a silent pipe");
    ended.send(()).unwrap();
    writer.join().unwrap();
    assert_eq!(code, Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted, but the run had not stopped 5 s later"),
        "{stderr}"
    );
    assert_eq!(dir.read("out.csv"), "old\n");
    // A pipe cannot be read again, so no checkpoint describes the rows: no partial file stays.
    assert_eq!(dir.entries(), ["out.csv", "silent.fifo"]);
}
