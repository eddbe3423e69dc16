//! Why a command failed: every error ends the run with exit code 2 (see [`super::exit`]).

use crate::files::OutputError;
use crate::files::file_id::Clash;
use crate::merge::MergeError;
use crate::pipeline::RunError;
use crate::report;
use crate::resume::ResumeError;
use crate::stats;

/// Why a command failed (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    /// The run failed.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The output could not be opened or completed.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// A results file could not be summarised.
    #[error(transparent)]
    Stats(#[from] stats::read::ReadError),
    /// The charts of the HTML report could not be drawn.
    #[error(transparent)]
    Chart(#[from] report::html::ChartError),
    /// The puzzle of `show` could not be read.
    #[error("{0}")]
    Puzzle(String),
    /// Shard outputs could not be merged.
    #[error(transparent)]
    Merge(#[from] MergeError),
    /// Two outputs are one file, or an output is an input.
    #[error(transparent)]
    Clash(#[from] Clash),
    /// Standard output is closed, but the results go there.
    #[error(
        "standard output is closed, so the {results} would be lost: leave it open{}",
        if *.results == "rows" { " or give -o OUT" } else { "" }
    )]
    StdoutClosed {
        /// What would have been written: `rows` or `report`.
        results: &'static str,
    },
    /// Standard input is closed, but the command reads it.
    #[error(
        "standard input is closed, so there is nothing to read: give input files, or pipe them in"
    )]
    StdinClosed,
    /// The run could not start or resume as asked.
    #[error(transparent)]
    Resume(#[from] ResumeError),
    /// `generate` could not make a puzzle as asked.
    #[error(transparent)]
    Generate(#[from] crate::generate::GenerateError),
}
