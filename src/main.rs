//! The `sudoku-bulk` binary: parse the arguments, validate them, run, exit with the code.

mod cli;

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Parser;
use sudoku_bulk::command::{self, Exit};

fn main() -> ExitCode {
    let config = parse_arguments().into_config().and_then(|config| {
        let isa = std::env::var_os(command::config::ISA_VARIABLE);
        command::config::choose_instruction_set(isa.as_deref()).map(|()| config)
    });
    let config = match config {
        Ok(config) => config,
        Err(e) => {
            command::say(&format!("error: {e}"));
            return Exit::Error.into();
        }
    };
    let interrupt = interrupt_flag();
    survive_file_size_limit();
    keep_freed_memory();
    match command::run(config, &interrupt) {
        Ok(exit) => exit.into(),
        Err(e) => {
            command::say(&format!("error: {e}"));
            Exit::Error.into()
        }
    }
}

/// The command line as clap reads it. Help and the version print as clap prints them; an
/// argument error is said in the tool's own words (`sudoku-bulk: error: ...`, as every other
/// error), clap's usage and hint lines after it, and exits with 2.
fn parse_arguments() -> cli::Cli {
    use clap::error::ErrorKind;
    match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) =>
        {
            e.exit()
        }
        Err(e) => {
            let text = e.render().to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            let _ = write!(std::io::stderr().lock(), "sudoku-bulk: error: {text}");
            std::process::exit(Exit::Error.code().into())
        }
    }
}

/// How long a run has, after the first Ctrl-C or SIGTERM, to stop by itself before it is
/// stopped as a second one would stop it (see [`stop_when_stuck`]).
const STOP_GRACE: Duration = Duration::from_secs(5);

/// A flag set by the first Ctrl-C (or SIGTERM, as a batch system sends before it kills a job); a
/// second one exits at once with 130, and so does a run that has not stopped [`STOP_GRACE`]
/// after the first.
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let signals = [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM];
    // The flag first: once a handler is installed, a signal always sets it.
    for signal in signals {
        if let Err(e) = signal_hook::flag::register(signal, flag.clone()) {
            command::say(&format!("warning: Ctrl-C will not stop cleanly: {e}"));
        }
    }
    if stop_when_stuck(&signals) {
        return flag;
    }
    // Without the watching thread, the second signal ends the process from the handler: the
    // shutdown looks at a flag of its own, which the signal sets after it has looked.
    let seen = Arc::new(AtomicBool::new(false));
    for signal in signals {
        let installed = signal_hook::flag::register_conditional_shutdown(signal, 130, seen.clone())
            .and_then(|_| signal_hook::flag::register(signal, seen.clone()));
        if let Err(e) = installed {
            command::say(&format!(
                "warning: a second Ctrl-C will not stop at once: {e}"
            ));
        }
    }
    flag
}

/// Ends the process with 130 at a second of `signals`, or when a run has not stopped
/// [`STOP_GRACE`] after the first; `false` when it cannot watch for them. A run looks at the
/// interrupt flag between its steps, so one blocked in a step that does not end never sees it:
/// a read of an input that sends nothing (a stalled pipe, a line without end such as
/// `/dev/zero`), a write to an output nobody reads, or a command that does not stop early
/// (`stats`, `show`). Either way an existing output is untouched, and what the last checkpoint
/// recorded stays in `OUT.partial` for `--resume`, as after SIGKILL; the partial file of an
/// output that no checkpoint describes (standard input or a pipe read, a Parquet output) is
/// removed.
fn stop_when_stuck(signals: &[i32]) -> bool {
    let Ok(mut caught) = signal_hook::iterator::Signals::new(signals) else {
        return false;
    };
    let watch = move || {
        if caught.forever().next().is_none() {
            return;
        }
        let first = std::time::Instant::now();
        let second = loop {
            if caught.pending().next().is_some() {
                break true;
            }
            if first.elapsed() >= STOP_GRACE {
                break false;
            }
            std::thread::sleep(SECOND_SIGNAL_POLL);
        };
        if !second {
            command::say(&format!(
                "interrupted, but the run had not stopped {} s later (it was waiting on its \
                 input or output, or in a step that does not stop early): stopped now",
                STOP_GRACE.as_secs()
            ));
        }
        sudoku_bulk::files::output::remove_unresumable();
        std::process::exit(130);
    };
    std::thread::Builder::new()
        .name("interrupt".to_string())
        .spawn(watch)
        .is_ok()
}

/// How often the watching thread looks for a second signal after the first.
const SECOND_SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Tells the C library's allocator to keep the memory a run frees for the run's next buffers,
/// instead of handing it back to the system and faulting it in again a moment later. A run
/// frees and allocates the same large buffers over and over (chunks of rows; a Parquet row
/// group's columns and pages, on every worker thread), and by default each worker's arena is
/// shrunk as soon as a megabyte or so is free at its top: writing 1,000,000 rows to Parquet
/// took 110,000 page faults and 12% more CPU. The process holds no more than its peak (a
/// run's memory is bounded: see the README), it only stops returning it early.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_memory() {
    /// Freed memory kept at the top of a heap before any is returned: more than a run holds.
    const TRIM_THRESHOLD: i32 = 256 << 20;
    /// Blocks up to this size come from the heaps (and are reused) rather than from their own
    /// mapping (returned when freed): the largest the C library allows.
    const MMAP_THRESHOLD: i32 = 32 << 20;
    // SAFETY: `mallopt` only sets allocator parameters; it is called before any other thread
    // exists. A failure (0) leaves the defaults, which are correct, only slower.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}

/// Makes a write past the file-size limit (`ulimit -f`) fail with "File too large", reported
/// like any write error, instead of killing the process with SIGXFSZ: the signal is caught and
/// nothing is done with it.
fn survive_file_size_limit() {
    let caught = Arc::new(AtomicBool::new(false));
    if let Err(e) = signal_hook::flag::register(signal_hook::consts::SIGXFSZ, caught) {
        command::say(&format!(
            "warning: a file-size limit will stop the run abruptly: {e}"
        ));
    }
}
