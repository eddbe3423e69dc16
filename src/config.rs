//! Validated settings of a command: what the command line is turned into, free of clap types.

use crate::input::{Input, Source};
use crate::output::Target;
use crate::pipeline::Settings;
use crate::resume::Checkpoints;

/// The default recursion budget per puzzle: far above what the default engine needs for any
/// 9x9 puzzle (a few thousand at most), low enough that a slow algorithm gives `gave_up` in
/// about a second instead of running for hours.
pub const DEFAULT_MAX_RECURSIONS: u64 = 10_000_000;

/// The default solution limit: 2, so that `solved` means the solution is unique.
pub const DEFAULT_MAX_SOLUTIONS: u64 = 2;

/// A validated command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Config {
    /// `solve` or `verify`: handle every record of the inputs.
    Bulk(BulkRun),
}

/// The settings of a `solve` or `verify` run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkRun {
    /// The inputs, read in order as one stream (at least one).
    pub inputs: Vec<Input>,
    /// Where rows go.
    pub output: Target,
    /// No progress bar, no messages about records, no summary.
    pub quiet: bool,
    /// Exit with 1 when a record is not `solved` (solve).
    pub strict: bool,
    /// What the pipeline does.
    pub pipeline: Settings,
    /// Checkpoints of a run to a file, and whether to resume one.
    pub checkpoints: Checkpoints,
}

/// A number of seconds as given on the command line: not negative, finite.
pub fn seconds(text: &str) -> Result<std::time::Duration, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    std::time::Duration::try_from_secs_f64(value)
        .map_err(|_| format!("'{text}' is not a number of seconds from 0 up"))
}

/// A setting that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A count that must be positive is zero.
    #[error("{flag} must be at least 1")]
    Zero {
        /// The flag.
        flag: &'static str,
    },
    /// Standard input is named more than once.
    #[error("standard input ('-') can be read only once")]
    StdinTwice,
}

/// The inputs named on the command line: none means standard input.
pub fn inputs(args: Vec<Input>) -> Result<Vec<Input>, ConfigError> {
    if args.iter().filter(|i| i.source == Source::Stdin).count() > 1 {
        return Err(ConfigError::StdinTwice);
    }
    Ok(if args.is_empty() {
        vec![Input::stdin()]
    } else {
        args
    })
}

/// A count that must be at least 1.
pub fn positive(flag: &'static str, value: u64) -> Result<u64, ConfigError> {
    if value == 0 {
        Err(ConfigError::Zero { flag })
    } else {
        Ok(value)
    }
}

/// The worker threads: as asked, or one per core.
pub fn threads(asked: Option<usize>) -> Result<usize, ConfigError> {
    match asked {
        Some(0) => Err(ConfigError::Zero { flag: "--threads" }),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}
