//! The edge of the library: a validated command ([`config`]) run to its end, with its messages
//! on stderr and its exit code ([`exit`]). One file per command: [`bulk`] (`solve`, `verify`,
//! `canon`, with [`canon`](mod@canon)'s duplicates report), [`stats`], [`show`],
//! [`merge`](mod@merge), [`generate`](mod@generate).

pub mod bulk;
pub mod canon;
pub mod config;
mod error;
pub mod exit;
pub mod generate;
pub mod merge;
pub mod show;
pub mod stats;

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;

pub use config::Config;
pub use error::CommandError;
pub use exit::Exit;

use crate::files::OutputError;
use crate::files::standard;
use crate::format::escape_controls;

/// Runs a command; `interrupt` is set by Ctrl-C. A command whose results go to standard output,
/// or that reads standard input, refuses to start when that stream is closed.
pub fn run(config: Config, interrupt: &AtomicBool) -> Result<Exit, CommandError> {
    if let Some(results) = config.results_on_stdout()
        && standard::stdout_closed()
    {
        return Err(CommandError::StdoutClosed { results });
    }
    if config.reads_stdin() && standard::stdin_closed() {
        return Err(CommandError::StdinClosed);
    }
    match config {
        Config::Bulk(run) => bulk::run(&run, interrupt),
        Config::Stats(run) => stats::run(&run),
        Config::Show(run) => show::run(&run),
        Config::Merge(run) => merge::run(&run),
        Config::Generate(run) => generate::run(&run, interrupt),
        Config::Print(text) => {
            print(&text)?;
            Ok(Exit::Success)
        }
    }
}

/// Prints one message line on stderr, prefixed with the program name, control characters
/// escaped; a closed stderr is ignored.
pub fn say(message: &str) {
    let message = escape_controls(message);
    let _ = writeln!(io::stderr().lock(), "sudoku-bulk: {message}");
}

/// `n` and the noun in the number `n` asks for: `1 record`, `2 records`, `0 records`.
pub(crate) fn counted(n: u64, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        _ => format!("{n} {many}"),
    }
}

/// Writes `text` to standard output; a closed pipe (`| head`) is not an error.
fn print(text: &str) -> Result<(), OutputError> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(OutputError {
            action: "write",
            name: "standard output".to_string(),
            source: e,
        }),
        _ => Ok(()),
    }
}
