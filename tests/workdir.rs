//! A directory per test, with helpers to write inputs, run the binary and read its results.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_sudoku-bulk");

/// A temporary directory that is removed when the test ends.
pub struct Workdir {
    dir: tempfile::TempDir,
}

/// What a finished run left behind.
#[derive(Debug)]
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl From<std::process::Output> for Run {
    fn from(output: std::process::Output) -> Run {
        Run {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

impl Workdir {
    pub fn new() -> Workdir {
        Workdir {
            dir: tempfile::tempdir().expect("a temporary directory"),
        }
    }

    /// Makes a named pipe `name` in this directory and returns its path.
    #[cfg(unix)]
    pub fn fifo(&self, name: &str) -> PathBuf {
        let path = self.path(name);
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
        path
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, contents).unwrap();
        path
    }

    /// Writes each part as its own gzip member, one after the other.
    pub fn write_gz(&self, name: &str, members: &[&[u8]]) -> PathBuf {
        let bytes: Vec<u8> = members.iter().flat_map(|m| gzip(m)).collect();
        self.write(name, bytes)
    }

    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).unwrap()
    }

    /// Names of the files in the directory, sorted.
    pub fn entries(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// The binary, run in this directory.
    pub fn command(&self, args: &[&str]) -> assert_cmd::Command {
        let mut cmd = assert_cmd::Command::new(BIN);
        cmd.current_dir(self.dir.path()).args(args);
        cmd
    }

    /// Runs the binary with `stdin` and collects what it printed.
    pub fn run_with_stdin(&self, args: &[&str], stdin: impl Into<Vec<u8>>) -> Run {
        Run::from(self.command(args).write_stdin(stdin).output().unwrap())
    }

    /// Runs the binary with nothing on stdin.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with_stdin(args, Vec::new())
    }

    /// Runs `args` with `--threads 1` and with `--threads 2`: both succeed and print the same
    /// bytes, which are returned.
    pub fn same_output_on_one_and_two_threads(&self, args: &[&str]) -> String {
        let [one, two] = ["1", "2"].map(|threads| {
            let mut all = args.to_vec();
            all.extend(["--threads", threads]);
            self.run(&all)
        });
        assert_eq!(one.code, Some(0), "{args:?}: {}", one.stderr);
        assert_eq!(one.stdout, two.stdout, "{args:?}: 1 and 2 threads differ");
        one.stdout
    }

    /// Runs the binary with nothing on stdin and a file-size limit of `bytes` (RLIMIT_FSIZE):
    /// writing past it fails with EFBIG.
    #[cfg(target_os = "linux")]
    pub fn run_with_file_limit(&self, args: &[&str], bytes: u64) -> Run {
        use std::os::unix::process::CommandExt;
        let mut command = std::process::Command::new(BIN);
        command
            .args(args)
            .current_dir(self.dir.path())
            .stdin(std::process::Stdio::null());
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
        Run::from(command.output().unwrap())
    }

    /// Starts the binary in this directory, stdout discarded, stderr piped, and stdin piped
    /// (`piped_stdin`) or empty.
    pub fn spawn(&self, args: &[&str], piped_stdin: bool) -> std::process::Child {
        use std::process::Stdio;
        std::process::Command::new(BIN)
            .args(args)
            .current_dir(self.dir.path())
            .stdin(if piped_stdin {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// The first `n` puzzles of a shipped data file (comments and blank lines left out).
pub fn puzzles(file: &str, n: usize) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(file);
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(n)
        .map(str::to_string)
        .collect()
}

/// The first `n` puzzles of a shipped data file, parsed.
pub fn grids(file: &str, n: usize) -> Vec<sudoku_bulk::Grid> {
    puzzles(file, n)
        .iter()
        .map(|p| p.parse().unwrap())
        .collect()
}

/// A CSV text as one map per row, keyed by the header.
pub fn csv_rows(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    reader
        .records()
        .map(|r| {
            header
                .iter()
                .cloned()
                .zip(r.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

/// The header row of a CSV text.
pub fn csv_header(text: &str) -> Vec<String> {
    text.lines()
        .next()
        .unwrap()
        .split(',')
        .map(String::from)
        .collect()
}

/// Checks that `solution` solves `puzzle`, with the library's independent verifier.
pub fn assert_solves(puzzle: &str, solution: &str) {
    use sudoku_bulk::{Grid, Layout};
    let p: Grid = puzzle.parse().unwrap();
    let s: Grid = solution.parse().unwrap();
    sudoku_bulk::verify::verify(&p, &s, &Layout::standard())
        .unwrap_or_else(|e| panic!("{solution} does not solve {puzzle}: {e}"));
}

/// Whether the process has a handler for SIGINT (bit 2 of `SigCgt` in its status).
#[cfg(target_os = "linux")]
pub fn catches_sigint(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & 2 != 0)
}

/// `sudoku-bulk ARGS` under `/usr/bin/time -v` (for its peak resident set size: see
/// [`peak_rss_kib`]), standard input piped, standard output thrown away.
pub fn spawn_timed(args: &[&str]) -> std::process::Child {
    std::process::Command::new("/usr/bin/time")
        .arg("-v")
        .arg(BIN)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("/usr/bin/time runs (Debian package `time`)")
}

/// The peak resident set size in KiB that `/usr/bin/time -v` reported in `stderr`.
pub fn peak_rss_kib(stderr: &str) -> u64 {
    stderr
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")
        })
        .unwrap_or_else(|| panic!("no peak RSS in {stderr}"))
        .parse()
        .unwrap()
}
