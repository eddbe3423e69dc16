//! Validated settings of a command: what the command line is turned into, free of clap types.

use std::path::{Path, PathBuf};

use crate::files::input::{Input, Source};
use crate::files::output::Target;
use crate::layout::Layout;
use crate::pipeline::Settings;
use crate::resume::Checkpoints;
use crate::shard::ShardError;
use crate::solver::SolveOptions;

/// The default recursion budget per puzzle: far above what the default engine needs for any
/// 9x9 puzzle (a few thousand at most), low enough that a slow algorithm gives `gave_up` in
/// about a second instead of running for hours.
pub const DEFAULT_MAX_RECURSIONS: u64 = 10_000_000;

/// The default solution limit: 2, so that `solved` means the solution is unique.
pub const DEFAULT_MAX_SOLUTIONS: u64 = 2;

/// A validated command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Config {
    /// `solve`, `verify` or `rate`: handle every record of the inputs.
    Bulk(Box<BulkRun>),
    /// `stats`: summarise result files.
    Stats(StatsRun),
    /// `show`: one puzzle in detail.
    Show(ShowRun),
    /// `merge`: join the outputs of the shards of a run.
    Merge(MergeRun),
}

/// Where `show` reads its puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PuzzleSource {
    /// The 81 cells given on the command line.
    Text(Vec<u8>),
    /// The first record of standard input, in any input format.
    Stdin,
}

/// The settings of a `show` run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShowRun {
    /// The puzzle.
    pub puzzle: PuzzleSource,
    /// Its regions (a record read from stdin may bring its own).
    pub layout: Layout,
    /// How to solve it.
    pub options: SolveOptions,
    /// Whether to print the trace.
    pub trace: bool,
    /// The most trace lines to print.
    pub max_trace_lines: usize,
    /// Whether to rate the puzzle and explain its human solution path, and where to draw the
    /// candidates.
    pub explain: Option<crate::rate::CandidatesShown>,
}

/// The default number of trace lines `show --trace` prints.
pub const DEFAULT_TRACE_LINES: usize = 10_000;

/// Where `show` reads its puzzle: `-` is standard input.
pub fn puzzle_source(arg: &std::ffi::OsStr) -> PuzzleSource {
    if arg == "-" {
        PuzzleSource::Stdin
    } else {
        PuzzleSource::Text(arg.as_encoded_bytes().to_vec())
    }
}

/// The region layout of `--regions`: 81 labels, or the path of a file holding them; the
/// standard boxes without the option.
pub fn regions(arg: Option<&std::ffi::OsStr>) -> Result<Layout, ConfigError> {
    let Some(arg) = arg else {
        return Ok(Layout::standard());
    };
    let bytes = arg.as_encoded_bytes();
    let text = if bytes.trim_ascii().len() == crate::grid::CELLS || !Path::new(arg).exists() {
        bytes.to_vec()
    } else {
        std::fs::read(arg).map_err(|source| ConfigError::RegionsFile {
            path: PathBuf::from(arg),
            error: source.to_string(),
        })?
    };
    Layout::parse(&text).map_err(ConfigError::Regions)
}

/// The settings of a `merge` run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeRun {
    /// What to merge.
    pub request: crate::merge::Request,
    /// No message about the merge.
    pub quiet: bool,
}

/// The settings of a `stats` run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsRun {
    /// Result files or saved summaries (`-`: standard input).
    pub inputs: Vec<PathBuf>,
    /// The column to group by.
    pub by: Option<String>,
    /// Print JSON instead of a table.
    pub json: bool,
    /// Where to write the HTML report.
    pub html: Option<PathBuf>,
}

/// The settings of a `solve`, `verify` or `rate` run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkRun {
    /// The inputs, read in order as one stream (at least one).
    pub inputs: Vec<Input>,
    /// Where rows go.
    pub output: Target,
    /// No progress bar, no messages about records, no summary.
    pub quiet: bool,
    /// Exit with 1 when a record is not `solved` (solve) or not `rated` (rate).
    pub strict: bool,
    /// Where to write the dataset summary of the run (solve, rate), as JSON.
    pub summary: Option<PathBuf>,
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
    /// `--regions` is not a layout.
    #[error("--regions: {0}")]
    Regions(crate::layout::LayoutError),
    /// The file named by `--regions` cannot be read.
    #[error("--regions: cannot read {}: {error}", path.display())]
    RegionsFile {
        /// The file.
        path: PathBuf,
        /// The OS error.
        error: String,
    },
    /// The shard cannot be named or found.
    #[error(transparent)]
    Shard(#[from] ShardError),
    /// `--shard` with standard input.
    #[error(
        "--shard cannot read standard input: every shard must read the inputs from the start, so give files"
    )]
    ShardStdin,
    /// `--shard` without `-o`.
    #[error(
        "--shard needs -o OUT: a shard writes its rows, and its summary beside them, to files for merge"
    )]
    ShardStdout,
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
