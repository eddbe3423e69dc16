//! Validated settings of a command: what the command line is turned into, free of clap types.

use std::path::{Path, PathBuf};

use crate::files::input::{Input, Source};
use crate::files::output::Target;
use crate::files::side;
use crate::layout::Layout;
use crate::pipeline::{MAX_THREADS, Settings};
use crate::resume::Checkpoints;
use crate::shard::ShardError;
use crate::solver::{self, IsaError, SolveOptions};
use crate::stats::bins::Bins;
use crate::stats::grouping::{self, BinChoice, Grouping};

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
    /// `generate`: make puzzles.
    Generate(GenerateRun),
    /// `completions` and `man`: text made from the command line's definitions (a shell
    /// completion script, a man page), printed as it is.
    Print(String),
}

/// How `generate` writes its puzzles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GeneratedFormat {
    /// The line format: `PUZZLE SOLUTION` per line, read back by every command.
    Line,
    /// Rows with the columns `index`, `puzzle`, `solution`, `givens` (and `regions` on a
    /// jigsaw layout).
    Rows(crate::format::OutputFormat),
}

/// The settings of a `generate` run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerateRun {
    /// What the puzzles must be, and the seed.
    pub options: crate::generate::GenerateOptions,
    /// How many puzzles: indices `0..count`.
    pub count: u64,
    /// Where they go.
    pub output: Target,
    /// How they are written.
    pub format: GeneratedFormat,
    /// Parquet output: the codec of its pages.
    pub parquet_compression: crate::format::parquet::ParquetCompression,
    /// Worker threads.
    pub threads: usize,
    /// No progress bar and no summary line.
    pub quiet: bool,
    /// The file `--regions` read the layout from, if any: an input, which no output may be.
    pub layout_file: Option<PathBuf>,
}

impl Config {
    /// What the command writes to standard output, if anything: the rows of `solve`, `verify`
    /// or `canon` and the puzzles of `generate` without `-o`, the report of `stats` and `show`.
    pub fn results_on_stdout(&self) -> Option<&'static str> {
        match self {
            Config::Bulk(run) if run.output == Target::Stdout => Some("rows"),
            Config::Generate(run) if run.output == Target::Stdout => Some("puzzles"),
            Config::Bulk(_) | Config::Generate(_) | Config::Merge(_) => None,
            Config::Stats(_) | Config::Show(_) => Some("report"),
            Config::Print(_) => Some("text"),
        }
    }

    /// Whether the command reads standard input.
    pub fn reads_stdin(&self) -> bool {
        match self {
            Config::Bulk(run) => run.inputs.iter().any(|i| i.source == Source::Stdin),
            Config::Stats(run) => run.inputs.iter().any(|p| p.as_os_str() == "-"),
            Config::Show(run) => run.puzzle == PuzzleSource::Stdin,
            Config::Merge(_) | Config::Generate(_) | Config::Print(_) => false,
        }
    }
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
    /// The scale of the explanation.
    pub scale: crate::pipeline::Scale,
}

/// The default number of trace lines `show --trace` prints.
pub const DEFAULT_TRACE_LINES: usize = 10_000;

/// The most trace lines `show --trace` may be asked for: the report is drawn in memory before it
/// is printed, about 100 bytes a line at the deepest indentation, so about 100 MB at most.
pub const MAX_TRACE_LINES: usize = 1_000_000;

/// Where `show` reads its puzzle: `-` is standard input.
pub fn puzzle_source(arg: &std::ffi::OsStr) -> PuzzleSource {
    if arg == "-" {
        PuzzleSource::Stdin
    } else {
        PuzzleSource::Text(arg.as_encoded_bytes().to_vec())
    }
}

/// The region layout of `--regions`: 81 labels, or the path of a file holding them (whitespace
/// and line breaks ignored); the standard boxes without the option. An argument of 81
/// characters, or of labels only (whitespace aside), is a layout unless a file has that name;
/// anything else is a path.
pub fn regions(arg: Option<&std::ffi::OsStr>) -> Result<Layout, ConfigError> {
    regions_and_file(arg).map(|(layout, _)| layout)
}

/// [`regions`], and the file the layout was read from, if any: an input of the run, which no
/// output may replace.
pub fn regions_and_file(
    arg: Option<&std::ffi::OsStr>,
) -> Result<(Layout, Option<PathBuf>), ConfigError> {
    let Some(arg) = arg else {
        return Ok((Layout::standard(), None));
    };
    let bytes = arg.as_encoded_bytes();
    let cells = bytes.iter().filter(|b| !b.is_ascii_whitespace());
    let layout =
        cells.clone().count() == crate::grid::CELLS || cells.clone().all(|&b| Layout::is_label(b));
    if layout && !Path::new(arg).is_file() {
        let layout = Layout::parse(bytes).map_err(ConfigError::Regions)?;
        return Ok((layout, None));
    }
    let path = PathBuf::from(arg);
    let text = side::read(&path, side::MAX_LAYOUT).map_err(|source| ConfigError::RegionsFile {
        error: if source.kind() == std::io::ErrorKind::NotFound {
            "there is no such file (and it is not 81 region labels either)".to_string()
        } else {
            source.to_string()
        },
        path: path.clone(),
    })?;
    match Layout::parse(&text) {
        Ok(layout) => Ok((layout, Some(path))),
        Err(error) => Err(ConfigError::RegionsInFile { path, error }),
    }
}

/// The settings of a `merge` run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeRun {
    /// What to merge.
    pub request: crate::merge::Request,
    /// No message about the merge.
    pub quiet: bool,
}

/// The most groups `stats --by` makes unless `--max-groups` says otherwise: far more than a
/// report can show usefully, and a few hundred megabytes at most while the report is written
/// (a group takes about half a kilobyte while read, a few more while a report is written).
pub const DEFAULT_MAX_GROUPS: usize = 10_000;

/// The settings of a `stats` run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsRun {
    /// Result files or saved summaries (`-`: standard input).
    pub inputs: Vec<PathBuf>,
    /// The most groups allowed: more is refused as soon as a row makes one too many.
    pub max_groups: usize,
    /// How to group the rows.
    pub grouping: Option<Grouping>,
    /// Print JSON instead of a table.
    pub json: bool,
    /// Print the table of the groups side by side (of the whole without groups) as CSV.
    pub csv: bool,
    /// With groups: print every table of the whole and of each group, not the compact table.
    pub detail: bool,
    /// Where to write the HTML report.
    pub html: Option<PathBuf>,
    /// Also count the distinct canonical forms of the puzzles, at most this many.
    pub canonical: Option<u64>,
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
    /// Where to write the dataset summary of the run (solve, rate), as JSON: `--summary FILE`, and
    /// for a shard also beside its output, where `merge` looks for it.
    pub summaries: Vec<PathBuf>,
    /// `canon --dedupe`: where to write the report of the records left out.
    pub duplicates: Option<PathBuf>,
    /// What the pipeline does.
    pub pipeline: Settings,
    /// Checkpoints of a run to a file, and whether to resume one.
    pub checkpoints: Checkpoints,
    /// The file `--regions` read the layout from, if any: an input, which no output may be.
    pub layout_file: Option<PathBuf>,
}

/// The integer types of counts on the command line, with the largest each holds.
pub trait Whole: std::str::FromStr {
    /// The largest value.
    const MOST: u64;
}

impl Whole for u32 {
    const MOST: u64 = u32::MAX as u64;
}

impl Whole for u64 {
    const MOST: u64 = u64::MAX;
}

impl Whole for usize {
    const MOST: u64 = usize::MAX as u64;
}

/// A whole number as given on the command line, 0 up; a value that is not one is told which
/// way it is wrong (clap's own parser said "invalid digit found in string" of `-1`).
pub fn whole<T: Whole>(text: &str) -> Result<T, String> {
    let trimmed = text.trim();
    trimmed.parse().map_err(|_| {
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        match trimmed.strip_prefix('-') {
            Some(rest) if digits(rest) => format!("'{text}' is negative"),
            _ if digits(trimmed) => format!("'{text}' is too large: at most {}", T::MOST),
            _ => format!("'{text}' is not a whole number"),
        }
    })
}

/// A number of seconds as given on the command line: not negative, finite.
pub fn seconds(text: &str) -> Result<std::time::Duration, String> {
    // A whole number is taken exactly (a float rounds the largest up, past what a duration holds).
    if let Ok(whole) = text.trim().parse::<u64>() {
        return Ok(std::time::Duration::from_secs(whole));
    }
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    std::time::Duration::try_from_secs_f64(value).map_err(|_| {
        if value >= 0.0 {
            format!(
                "'{text}' seconds is too long: at most {} (about 584 billion years)",
                u64::MAX
            )
        } else {
            format!("'{text}' is not a number of seconds from 0 up")
        }
    })
}

/// Parses `show --max-trace-lines`: a count of lines up to [`MAX_TRACE_LINES`].
pub fn trace_lines(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(lines) if lines <= MAX_TRACE_LINES => Ok(lines),
        Ok(_) => Err(format!(
            "{text} is more than {MAX_TRACE_LINES}, the most: the report is drawn in memory \
             before it is printed"
        )),
        Err(_) => Err(format!("'{text}' is not a number of lines")),
    }
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
    /// More worker threads than a run can keep busy.
    #[error(
        "--threads {asked} is more than a run can keep busy: at most {most} batches of records are ever waiting for a thread"
    )]
    TooManyThreads {
        /// The number asked for.
        asked: usize,
        /// [`MAX_THREADS`].
        most: usize,
    },
    /// `augment --copies` above its bound.
    #[error(
        "--copies {asked} is more than {most}: a record's copies are held in memory together; run augment several times with other --seed values for more"
    )]
    TooManyCopies {
        /// The number asked for.
        asked: u64,
        /// [`crate::pipeline::MAX_COPIES`].
        most: u32,
    },
    /// A kept column that the output has already, in this case or another.
    #[error(
        "--keep-columns {name}: {}; keep it under another name: --keep-columns {}",
        own_column_reason(.given, .column, .own),
        own_column_renaming(.input, .column)
    )]
    KeptColumnIsOwn {
        /// The entry, as given (`NAME` or `SOURCE=NAME`).
        name: String,
        /// The kept column's name in the input.
        input: String,
        /// Its name in the output, as given.
        given: String,
        /// The output's column of that name.
        column: String,
        /// The columns the command writes, comma-separated.
        own: String,
    },
    /// A column kept twice, or two kept under one name, in one case or two.
    #[error("--keep-columns names '{name}' twice{}", spelled_otherwise(.name, .again))]
    KeptTwice {
        /// The column, as given first.
        name: String,
        /// The column, as given again.
        again: String,
    },
    /// A `--keep-columns` entry `SOURCE=NAME` with a side empty.
    #[error(
        "--keep-columns '{entry}': a column is kept as NAME, or renamed as SOURCE=NEW_NAME (both names non-empty)"
    )]
    KeptEmpty {
        /// The entry, as given.
        entry: String,
    },
    /// Standard input is named more than once.
    #[error("standard input ('-') can be read only once")]
    StdinTwice,
    /// The instruction-set level named by [`ISA_VARIABLE`] is unknown, or this CPU cannot run it.
    #[error("{ISA_VARIABLE}={value}: {reason}")]
    InstructionSet {
        /// The variable's value.
        value: String,
        /// Why it is refused.
        reason: IsaError,
    },
    /// `--regions` is not a layout.
    #[error("--regions: {0}")]
    Regions(crate::layout::LayoutError),
    /// The file named by `--regions` does not hold a layout.
    #[error("--regions {}: {error}", path.display())]
    RegionsInFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with its layout.
        error: crate::layout::LayoutError,
    },
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
    /// `--resume` with a Parquet output.
    #[error(
        "--resume cannot continue a Parquet output: a Parquet file is readable only once complete (its index is written last); write CSV or JSON lines for a run that may be resumed"
    )]
    ParquetResume,
    /// `--shard` with a Parquet output.
    #[error(
        "--shard cannot write Parquet: merge joins the shards' outputs byte for byte, which only CSV and JSON lines allow; write the shards as CSV or JSON lines"
    )]
    ParquetShard,
    /// `-o` named for Parquet when `--output-format` asks for text, or the other way round.
    #[error(
        "-o {}: the name says {named}, but --output-format is {asked}; give the output a .{extension} \
         name, or leave --output-format out",
        .path.display()
    )]
    FormatName {
        /// The output named.
        path: std::path::PathBuf,
        /// The format its name says.
        named: crate::format::OutputFormat,
        /// The format asked for.
        asked: String,
        /// The extension of a name for it.
        extension: String,
    },
    /// `-o` named like a compressed file: outputs are not compressed.
    #[error(
        "-o {}: outputs are not compressed; give a name without .gz and compress it after, or \
         pipe standard output through gzip (-o - | gzip > FILE.gz), or write Parquet (-o \
         FILE.parquet, compressed inside)",
        .0.display()
    )]
    CompressedName(std::path::PathBuf),
    /// Parquet rows to a terminal.
    #[error(
        "Parquet output is binary: give -o FILE.parquet, or redirect standard output to a file"
    )]
    ParquetToTerminal,
    /// `--parquet-compression` other than the default for an output that is not Parquet.
    #[error(
        "--parquet-compression applies to Parquet output only: give -o FILE.parquet or \
         --output-format parquet, or leave it out"
    )]
    CompressionWithoutParquet,
    /// `--bins` that is neither `none`, a count nor edges.
    #[error("--bins {given}: {problem}")]
    Bins {
        /// The value given.
        given: String,
        /// What is wrong with it.
        problem: String,
    },
    /// `--bins` without a column to put in bins.
    #[error("--bins needs --by COLUMN (a column of numbers)")]
    BinsWithoutColumn,
    /// `solve --canonical` without a summary to count in.
    #[error("--canonical counts in the summary: give --summary FILE (or --shard)")]
    CanonicalWithoutSummary,
    /// `canon --dedupe --resume`: the classes of the interrupted run are not kept.
    #[error(
        "--dedupe cannot --resume: the classes seen by the interrupted run are not kept; run it again"
    )]
    DedupeResume,
    /// `canon --as-input` with `--keep-columns`.
    #[error("--as-input writes every column of the input already; leave out --keep-columns")]
    AsInputKeepColumns,
    /// `canon --as-input` with an output format chosen.
    #[error(
        "--as-input writes the records in the input's own format (lines, CSV or JSON lines); \
         leave out --output-format and name the output without .parquet"
    )]
    AsInputOutputFormat,
    /// `canon --regions` with a jigsaw layout.
    #[error(
        "canon: canonical forms are defined for the standard 3x3-box layout only, not for jigsaw regions"
    )]
    CanonJigsaw,
    /// `canon --duplicates` named like a file of another format than the report's CSV.
    #[error(
        "--duplicates {}: the duplicates report is CSV, not {} as the name says; name it .csv",
        .0.display(), .1
    )]
    DuplicatesNotCsv(std::path::PathBuf, crate::format::OutputFormat),
    /// `augment --regions` with a jigsaw layout.
    #[error(
        "augment: the symmetry group swaps bands and stacks of the standard 3x3-box layout; it \
         does not keep jigsaw regions"
    )]
    AugmentJigsaw,
    /// `generate --output-format line` with regions that change from puzzle to puzzle.
    #[error(
        "--regions random needs --output-format csv, jsonl or parquet: the line format has no regions column"
    )]
    LineWithoutRegions,
    /// `--shard` without `-o`.
    #[error(
        "--shard needs -o OUT: a shard writes its rows, and its summary beside them, to files for merge"
    )]
    ShardStdout,
}

/// Why a kept column named `given` is refused when the output has a column `column` of its own
/// (`own`: the output's columns, comma-separated): the heart of
/// [`ConfigError::KeptColumnIsOwn`]'s message, for front ends that word the rest themselves.
pub fn own_column_reason(given: &str, column: &str, own: &str) -> String {
    format!(
        "the output has a column '{column}' of its own ({own}), and two columns of one name \
         cannot be told apart{}",
        spelled_otherwise(given, column)
    )
}

/// The `SOURCE=NAME` entry that keeps the input column `input` beside the output's own
/// `column`: the renaming [`ConfigError::KeptColumnIsOwn`] advises.
pub fn own_column_renaming(input: &str, column: &str) -> String {
    format!("{input}=input_{column}")
}

/// What a message about one name given twice adds when the two differ: in the blanks around
/// them, which the readers of columns pass over, or in case.
fn spelled_otherwise(name: &str, other: &str) -> String {
    if name == other {
        String::new()
    } else if name.trim() == other.trim() {
        format!(" (here '{other}': the blanks around a name are passed over)")
    } else {
        format!(
            " (here '{other}': case-insensitive readers of the output, such as DuckDB, take \
             names that differ only in case for one)"
        )
    }
}

/// The kept columns of `--keep-columns A,B=C,...`: each entry `NAME` keeps a column under its
/// name, `SOURCE=NAME` under another (split at the first `=`): the input names, and the output
/// name of each renamed one, as [`crate::format::Columns::keep`] and
/// [`crate::format::Columns::keep_as`] take them.
pub fn kept_column_entries(
    entries: &[String],
) -> Result<(Vec<String>, Vec<Option<String>>), ConfigError> {
    let mut keep = Vec::with_capacity(entries.len());
    let mut keep_as = Vec::with_capacity(entries.len());
    for entry in entries {
        let (source, name) = match entry.split_once('=') {
            Some((source, name)) => (source, Some(name)),
            None => (entry.as_str(), None),
        };
        if source.trim().is_empty() || name.is_some_and(|n| n.trim().is_empty()) {
            return Err(ConfigError::KeptEmpty {
                entry: entry.clone(),
            });
        }
        keep.push(source.to_string());
        keep_as.push(name.filter(|&n| n != source).map(str::to_string));
    }
    Ok((keep, keep_as))
}

/// Refuses kept columns that would give the output two columns of one name: a column kept
/// twice, two kept under one name, or one kept under the name of a column the command writes
/// itself (`line`, `status`, ..., `file` with several inputs, `regions`, which is written
/// whenever records carry their own layouts): the message shows how to rename it. Names are
/// compared ignoring ASCII case and the blanks around them: a column is found by its name in
/// any case when it is the only one, and readers of the output may not tell `id` from `ID`.
pub fn kept_columns(settings: &Settings, several_inputs: bool) -> Result<(), ConfigError> {
    // The columns of the output with every optional part (a verify row's `original_` columns
    // too), less the kept ones.
    let shape = crate::pipeline::Shape {
        several_inputs,
        regions: true,
        original: crate::pipeline::Original::LineAndFile,
    };
    let all = crate::pipeline::columns(settings, &shape);
    let columns = &settings.columns;
    let kept_from = all.len() - 1 - columns.keep.len();
    let own: Vec<String> = all[..kept_from].iter().chain(all.last()).cloned().collect();
    let same = |a: &str, b: &str| a.trim().eq_ignore_ascii_case(b.trim());
    let given = columns.kept_as_given();
    let names: Vec<&str> = columns.kept_names().collect();
    for (i, (source, name)) in columns.keep.iter().zip(&names).enumerate() {
        if let Some(column) = own.iter().find(|column| same(column, name)) {
            return Err(ConfigError::KeptColumnIsOwn {
                name: given[i].clone(),
                input: source.trim().to_string(),
                given: name.to_string(),
                column: column.clone(),
                own: own.join(","),
            });
        }
        if let Some(first) = names[..i].iter().find(|k| same(k, name)) {
            return Err(ConfigError::KeptTwice {
                name: first.to_string(),
                again: name.to_string(),
            });
        }
        if let Some(first) = columns.keep[..i].iter().find(|k| same(k, source)) {
            return Err(ConfigError::KeptTwice {
                name: first.clone(),
                again: source.clone(),
            });
        }
    }
    Ok(())
}

/// The grouping of `stats --by BY --bins BINS`: `input` groups by input; `BINS` is `none`
/// (one group per value), `N` (quantile bins) or edges `A,B,...`; without it, bins are
/// chosen as [`grouping`] says.
pub fn grouping(by: Option<String>, bins: Option<&str>) -> Result<Option<Grouping>, ConfigError> {
    let bins = match bins.map(str::trim) {
        None => BinChoice::Automatic,
        Some(text) => {
            let problem = |problem: String| ConfigError::Bins {
                given: text.to_string(),
                problem,
            };
            if text.eq_ignore_ascii_case("none") {
                BinChoice::None
            } else if !text.contains(',') {
                match text.parse::<usize>() {
                    Ok(0) => return Err(problem("at least 1 bin".into())),
                    Ok(n) => BinChoice::Quantiles(n),
                    Err(_) => {
                        return Err(problem(
                            "give a number of bins, edges A,B,... or none".into(),
                        ));
                    }
                }
            } else {
                let edges: Vec<&str> = text.split(',').map(str::trim).collect();
                BinChoice::Edges(Bins::given(&edges).map_err(|e| problem(e.to_string()))?)
            }
        }
    };
    match by {
        None if bins != BinChoice::Automatic => Err(ConfigError::BinsWithoutColumn),
        None => Ok(None),
        Some(name) if name == grouping::INPUT => match bins {
            BinChoice::Automatic => Ok(Some(Grouping::Input)),
            _ => Err(ConfigError::BinsWithoutColumn),
        },
        Some(name) => Ok(Some(Grouping::Column { name, bins })),
    }
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

/// The environment variable that names the `fast` engine's instruction-set level: `portable`,
/// `avx2` or `avx512` (see [`solver::InstructionSet`]); unset or empty, the widest this CPU has.
pub const ISA_VARIABLE: &str = "SUDOKU_BULK_ISA";

/// Makes the engine run at the level `value` names: the value of [`ISA_VARIABLE`], read by the
/// binary at start (`None` when unset). Refuses an unknown name, and a level this CPU cannot
/// run, naming the levels it can.
pub fn choose_instruction_set(value: Option<&std::ffi::OsStr>) -> Result<(), ConfigError> {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return Ok(());
    };
    let value = value.to_string_lossy().into_owned();
    value
        .parse()
        .and_then(solver::choose_instruction_set)
        .map_err(|reason| ConfigError::InstructionSet { value, reason })
}

/// A count that must be at least 1.
pub fn positive(flag: &'static str, value: u64) -> Result<u64, ConfigError> {
    if value == 0 {
        Err(ConfigError::Zero { flag })
    } else {
        Ok(value)
    }
}

/// The worker threads: as asked (1 to [`MAX_THREADS`]), or one per core up to that.
pub fn threads(asked: Option<usize>) -> Result<usize, ConfigError> {
    match asked {
        Some(0) => Err(ConfigError::Zero { flag: "--threads" }),
        Some(n) if n > MAX_THREADS => Err(ConfigError::TooManyThreads {
            asked: n,
            most: MAX_THREADS,
        }),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))),
    }
}
