//! The command line as clap sees it, turned once into a validated [`Config`].

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::builder::PossibleValuesParser;
use clap::{Args, Parser, Subcommand};
use sudoku_bulk::command::config::{
    self, BulkRun, Config, ConfigError, GenerateRun, GeneratedFormat, MergeRun, ShowRun, StatsRun,
};
use sudoku_bulk::files::Input;
use sudoku_bulk::files::Target;
use sudoku_bulk::files::file_id::FileId;
use sudoku_bulk::format::parquet::ParquetCompression;
use sudoku_bulk::format::{Columns, InputFormat, OutputFormat};
use sudoku_bulk::generate::{
    Difficulty, ErRange, GenerateOptions, GivensRange, LevelRange, Regions, ScoreRange, Symmetry,
    parse_techniques,
};
use sudoku_bulk::pipeline::{
    AugmentOptions, CanonOptions, DedupeOptions, Job, MAX_COPIES, RatingOptions, Scale, Settings,
    VerifyOptions,
};
use sudoku_bulk::rate::{CandidatesShown, Technique};
use sudoku_bulk::resume::Checkpoints;
use sudoku_bulk::shard::{self, Shard, ShardChoice, ShardError};
use sudoku_bulk::solver::{Algorithm, SolveOptions};

/// Solve, verify and measure Sudoku puzzles in bulk.
///
/// Reads puzzles in every common format (one per line, CSV such as the Kaggle sets, drawn
/// grids, JSON lines, Parquet; plain or gzip) and writes one row per record, in input order,
/// as CSV, JSON lines or Parquet. `COMMAND --help` shows a command's options and examples;
/// `-h` a shorter help.
#[derive(Debug, Parser)]
#[command(name = "sudoku-bulk", version, about, long_about, max_term_width = 100,
          after_help = TOP_EXAMPLES, after_long_help = TOP_EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve every puzzle: one result row per record, in input order.
    ///
    /// Each row holds the record's line, its puzzle and solution, a status (solved, multiple,
    /// unsolvable, invalid, gave_up, stuck), the number of solutions found and the search
    /// counters. Every solution is checked by an independent verifier before it is written.
    #[command(after_help = SOLVE_EXAMPLES, after_long_help = SOLVE_LONG_EXAMPLES)]
    Solve(SolveArgs),
    /// Check the proposed solution of every record: one row per record, ok, wrong or invalid.
    ///
    /// The solution is read from the record's solution column (a CSV `solution` column, or
    /// the output of `solve`), or the second field of a line.
    #[command(after_help = VERIFY_EXAMPLES, after_long_help = VERIFY_EXAMPLES)]
    Verify(VerifyArgs),
    /// Rate every puzzle for a person, as HoDoKu does (its techniques, scores and levels): one
    /// row per record, in input order, with the level, score, hardest technique and the steps
    /// of each technique family.
    #[command(after_help = RATE_EXAMPLES, after_long_help = RATE_EXAMPLES)]
    Rate(RateArgs),
    /// Summarise the results of `solve` or `rate` (CSV, JSON lines or Parquet, or saved
    /// summaries): statuses and the exact distribution of every counter; of rate rows, levels
    /// and scores (HoDoKu's) or levels and ER, EP and ED (Sudoku Explainer's).
    #[command(after_help = STATS_EXAMPLES, after_long_help = STATS_EXAMPLES)]
    Stats(StatsArgs),
    /// Solve one puzzle and show it, its solution and every statistic as grids and text.
    #[command(after_help = SHOW_EXAMPLES, after_long_help = SHOW_EXAMPLES)]
    Show(ShowArgs),
    /// Join the outputs of `solve --shard` or `rate --shard` into the output of a single run,
    /// in shard order, and merge their summaries; refuses missing shards and shards of another
    /// run.
    #[command(after_help = MERGE_EXAMPLES, after_long_help = MERGE_EXAMPLES)]
    Merge(MergeArgs),
    /// Make puzzles with exactly one solution, reproducibly: the same seed gives the same
    /// bytes for any thread count.
    #[command(after_help = GENERATE_EXAMPLES, after_long_help = GENERATE_EXAMPLES)]
    Generate(GenerateArgs),
    /// Write every puzzle's canonical (minlex) form: one row per record, or with --dedupe only
    /// the first record of each class of equivalent puzzles.
    #[command(after_help = CANON_EXAMPLES, after_long_help = CANON_EXAMPLES)]
    Canon(CanonArgs),
    /// Write K random equivalent copies of every puzzle (digits relabelled, bands, rows,
    /// stacks and columns swapped, transposed), each with the transformation that made it
    /// and the solution transformed alike: one row per copy, in input order.
    #[command(after_help = AUGMENT_EXAMPLES, after_long_help = AUGMENT_EXAMPLES)]
    Augment(AugmentArgs),
    /// Print a shell completion script to standard output.
    ///
    /// For bash: `sudoku-bulk completions bash > ~/.local/share/bash-completion/completions/sudoku-bulk`;
    /// zsh: write `_sudoku-bulk` to a directory of your `fpath`; fish:
    /// `~/.config/fish/completions/sudoku-bulk.fish`.
    #[command(after_help = COMPLETIONS_EXAMPLES, after_long_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),
    /// Print the man page of sudoku-bulk, or of one of its commands, to standard output.
    ///
    /// The page is roff, made from the same definitions as --help: read it with `man -l`.
    #[command(after_help = MAN_EXAMPLES, after_long_help = MAN_EXAMPLES)]
    Man(ManArgs),
}

/// `completions SHELL`.
#[derive(Debug, Args)]
struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// `man [COMMAND]`.
#[derive(Debug, Args)]
struct ManArgs {
    /// A command: its own page [default: the page of sudoku-bulk, listing the commands].
    #[arg(value_name = "COMMAND", value_parser = format_names(COMMAND_NAMES.iter().copied()))]
    command: Option<String>,
}

/// The commands that have a man page of their own.
const COMMAND_NAMES: &[&str] = &[
    "solve",
    "verify",
    "rate",
    "stats",
    "show",
    "merge",
    "generate",
    "canon",
    "augment",
    "completions",
    "man",
];

const TOP_EXAMPLES: &str = "\
Examples:
  sudoku-bulk solve puzzles.csv -o results.csv     solve a file, one row per puzzle
  sudoku-bulk stats results.csv                    summarise the results
  sudoku-bulk rate puzzles.csv -o rated.csv        rate each puzzle for a person
  sudoku-bulk solve --help                         a command's options and examples";

const SOLVE_EXAMPLES: &str = "\
Examples:
  sudoku-bulk solve puzzles.txt -o results.csv
  sudoku-bulk solve kaggle.csv --keep-columns solutions=kaggle_solution -o results.parquet";

const SOLVE_LONG_EXAMPLES: &str = "\
Examples:
  Solve a file of one puzzle per line (or CSV, JSON lines, Parquet; plain or gzip):
    sudoku-bulk solve puzzles.txt -o results.csv

  A Kaggle file (quizzes,solutions) with its answers kept beside ours, as Parquet:
    sudoku-bulk solve kaggle.csv --keep-columns solutions=kaggle_solution -o results.parquet

  A summary of the run as well, then its statistics per number of givens:
    sudoku-bulk solve puzzles.txt -o results.csv --summary summary.json
    sudoku-bulk stats results.csv --by givens

Exit status: 0 every record handled; 1 with --strict when a record is not solved; 2 a usage,
input or output error (nothing half-written is left as OUT); 130 interrupted (Ctrl-C):
-o OUT --resume goes on from where it stopped.";

const VERIFY_EXAMPLES: &str = "\
Examples:
  sudoku-bulk verify kaggle.csv                    check each solution column
  sudoku-bulk verify results.csv --unique          the output of solve, and uniqueness too
  sudoku-bulk verify answers.csv --solution-column answer -o checked.csv";

const RATE_EXAMPLES: &str = "\
Examples:
  sudoku-bulk rate puzzles.txt -o rated.csv
  sudoku-bulk rate kaggle.csv --keep-columns solutions=kaggle_solution -o rated.parquet
  sudoku-bulk stats rated.csv --by level           levels, scores and techniques";

const STATS_EXAMPLES: &str = "\
Examples:
  sudoku-bulk stats results.csv                    statuses and counters
  sudoku-bulk stats results.csv --by givens        one table, a row per number of givens
  sudoku-bulk stats results.csv --by givens --csv  the same table as CSV
  sudoku-bulk stats results.csv --html report.html";

const SHOW_EXAMPLES: &str = "\
Examples:
  sudoku-bulk show 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
  sudoku-bulk show PUZZLE --explain                its human solution path, step by step
  sudoku-bulk show PUZZLE --explain --scale se     Sudoku Explainer's path, ER, EP and ED
  head -n 1 puzzles.txt | sudoku-bulk show - --trace";

const MERGE_EXAMPLES: &str = "\
Examples:
  sudoku-bulk solve big.csv --shard 0/2 -o part0.csv
  sudoku-bulk solve big.csv --shard 1/2 -o part1.csv
  sudoku-bulk merge results.csv part0.csv part1.csv";

const GENERATE_EXAMPLES: &str = "\
Examples:
  sudoku-bulk generate --count 1000 --seed 7 -o puzzles.csv
  sudoku-bulk generate --count 10 --givens 22-25 --symmetry rot180 --output-format line
  sudoku-bulk generate --count 100 --level hard -o hard.csv       rated on HoDoKu's ladder
  sudoku-bulk generate --count 10 --needs x-wing -o fish.csv      a technique each must use";

const AUGMENT_EXAMPLES: &str = "\
Examples:
  sudoku-bulk augment puzzles.txt --copies 8 -o copies.csv
  sudoku-bulk augment kaggle.csv --copies 4 --solutions --distinct -o train.parquet";

const CANON_EXAMPLES: &str = "\
Examples:
  sudoku-bulk canon puzzles.txt -o forms.csv       every puzzle's canonical form
  sudoku-bulk canon puzzles.txt --dedupe --duplicates dups.csv -o unique.csv
  sudoku-bulk canon puzzles.txt --dedupe --exact -o distinct.csv   identical puzzles only
  sudoku-bulk canon kaggle.csv --dedupe --as-input -o unique.csv   the input's rows, deduplicated";

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  sudoku-bulk completions bash > ~/.local/share/bash-completion/completions/sudoku-bulk
  sudoku-bulk completions zsh > ~/.zfunc/_sudoku-bulk
  sudoku-bulk completions fish > ~/.config/fish/completions/sudoku-bulk.fish";

const MAN_EXAMPLES: &str = "\
Examples:
  sudoku-bulk man | man -l -
  sudoku-bulk man solve > sudoku-bulk-solve.1";

/// Options shared by the commands that read records.
#[derive(Debug, Args)]
#[command(next_help_heading = "Input")]
struct InputArgs {
    /// Input files: text, plain or gzip, or Parquet; `-` or none for standard input (text).
    /// Several are read in order as one stream.
    #[arg(value_name = "INPUT")]
    inputs: Vec<OsString>,

    /// Read every input in this format instead of detecting it per file (gzip and Parquet are
    /// still known by their first bytes).
    #[arg(long, value_name = "FORMAT", value_parser = format_names(InputFormat::ALL.iter().map(|f| f.name())))]
    input_format: Option<String>,

    /// CSV, JSON lines, Parquet: the puzzle column's name [default: puzzle, quizzes, quiz,
    /// question or sudoku].
    #[arg(long, value_name = "NAME")]
    puzzle_column: Option<String>,

    /// CSV, JSON lines, Parquet: input columns passed through to the output, comma-separated;
    /// `SOURCE=NAME` keeps one under another name (`solutions=kaggle_solution`: the output
    /// has a `solutions` column of its own).
    #[arg(long, value_name = "A,B=NEW,...", value_delimiter = ',')]
    keep_columns: Vec<String>,

    /// Jigsaw: the region layout of every puzzle, as 81 labels (`1`-`9`, `a`-`i` or `A`-`I`)
    /// or the path of a file holding them [default: the 3x3 boxes].
    #[arg(long, value_name = "LAYOUT")]
    regions: Option<OsString>,

    /// CSV, JSON lines, Parquet: the column holding each record's region layout [default: a
    /// column named `regions`, if there is one].
    #[arg(long, value_name = "NAME")]
    regions_column: Option<String>,
}

/// Options shared by the commands that write rows.
#[derive(Debug, Args)]
#[command(next_help_heading = "Output")]
struct OutputArgs {
    /// Write rows to OUT (replaced only when the run completes) instead of standard output.
    #[arg(short, long = "output", value_name = "OUT")]
    output: Option<PathBuf>,

    /// Output format [default: csv; parquet for an OUT whose name ends in .parquet, jsonl for .jsonl or .ndjson].
    #[arg(long, value_name = "FORMAT",
          value_parser = format_names(OutputFormat::ALL.iter().map(|f| f.name())))]
    output_format: Option<String>,

    /// Parquet output: the codec of its pages: `snappy` (as pyarrow and DuckDB write), `none`
    /// (the least CPU), or `zstd` (the smallest file, solutions compressed too).
    #[arg(long, value_name = "CODEC", default_value = "snappy", ignore_case = true,
          value_parser = format_names(ParquetCompression::ALL.iter().map(|c| c.name())))]
    parquet_compression: String,

    /// Worker threads, 1 to 256 (no run can keep more busy; fewer are started for a small
    /// input) [default: one per core].
    #[arg(
        long,
        allow_negative_numbers = true, value_parser = config::whole::<usize>,
        value_name = "N",
        help_heading = "Run"
    )]
    threads: Option<usize>,

    /// No progress bar, no messages about records, no summary; only errors.
    #[arg(short, long, help_heading = "Run")]
    quiet: bool,

    /// Continue the interrupted run to OUT from its partial output and checkpoint
    /// (OUT.partial, OUT.checkpoint), with the same inputs and options.
    #[arg(long, requires = "output", help_heading = "Run")]
    resume: bool,

    /// Seconds between two checkpoints of a run to OUT, kept within a chunk too; 0: as often
    /// as rows are written.
    #[arg(long, value_name = "SECONDS", default_value = "1", value_parser = config::seconds,
          requires = "output", allow_negative_numbers = true, help_heading = "Run")]
    checkpoint_every: Duration,
}

/// The search options of `solve` and `show`.
#[derive(Debug, Args)]
#[command(next_help_heading = "Search")]
struct SearchArgs {
    /// Stop after N solutions: 2 tells a unique solution (`solved`) from several (`multiple`);
    /// 1 finds a first solution, fastest.
    #[arg(long, allow_negative_numbers = true, value_parser = config::whole::<u64>, value_name = "N", default_value_t = config::DEFAULT_MAX_SOLUTIONS)]
    max_solutions: u64,

    /// Recursion budget per puzzle; a search that needs more gives `gave_up`.
    #[arg(long, allow_negative_numbers = true, value_parser = config::whole::<u64>, value_name = "N", default_value_t = config::DEFAULT_MAX_RECURSIONS)]
    max_recursions: u64,

    /// Search algorithm.
    #[arg(long, value_name = "NAME", default_value = "fast", ignore_case = true,
          value_parser = format_names(Algorithm::ALL.iter().map(|a| a.name())))]
    algorithm: String,

    /// Seed of the algorithms that make random choices.
    #[arg(
        long,
        allow_negative_numbers = true, value_parser = config::whole::<u64>,
        value_name = "N",
        default_value_t = 0
    )]
    seed: u64,
}

impl SearchArgs {
    fn options(&self) -> Result<SolveOptions, ConfigError> {
        Ok(SolveOptions {
            algorithm: parse_known(&self.algorithm),
            max_solutions: config::positive("--max-solutions", self.max_solutions)?,
            max_recursions: config::positive("--max-recursions", self.max_recursions)?,
            seed: self.seed,
        })
    }
}

#[derive(Debug, Args)]
struct SolveArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,

    #[command(flatten)]
    search: SearchArgs,

    /// Exit with 1 when a record is not `solved`.
    #[arg(long, help_heading = "Run")]
    strict: bool,

    #[command(flatten)]
    dataset: DatasetArgs,
}

/// The dataset summary and the shards of `solve` and `rate`.
#[derive(Debug, Args)]
#[command(next_help_heading = "Summary and shards")]
struct DatasetArgs {
    /// Also write the dataset summary of the run, as `stats --json` would print it, to FILE.
    #[arg(long, value_name = "FILE")]
    summary: Option<PathBuf>,

    /// The summary also counts the distinct canonical forms of the puzzles (keeping one
    /// 128-bit digest per class, so that summaries of shards merge exactly).
    #[arg(long)]
    canonical: bool,

    /// --canonical: the most classes to count (each takes 20 to 60 bytes of memory, 100 while
    /// the summary is written, and 42 bytes of the summary); one more ends the run with an
    /// error.
    #[arg(long, allow_negative_numbers = true, value_parser = config::whole::<u64>, value_name = "N", requires = "canonical",
          default_value_t = sudoku_bulk::pipeline::DEFAULT_MAX_CLASSES)]
    max_classes: u64,

    /// Handle only shard K of N (K from 0) of the inputs, for `merge` to join; `auto` reads K
    /// and N from a Slurm job array or a Kubernetes Indexed Job. Needs -o; the summary always
    /// goes beside it (OUT.summary.json), where merge reads it, and to --summary FILE too.
    #[arg(long, allow_hyphen_values = true, value_name = "K/N|auto")]
    shard: Option<ShardChoice>,

    /// The number of shards N, for `--shard auto` in a Kubernetes Indexed Job (its
    /// completions); under Slurm it must equal SLURM_ARRAY_TASK_COUNT.
    #[arg(
        long,
        allow_negative_numbers = true, value_parser = config::whole::<u64>,
        value_name = "N",
        requires = "shard"
    )]
    shards: Option<u64>,
}

#[derive(Debug, Args)]
struct RateArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,

    /// Recursion budget per puzzle of the search that tells a puzzle with one solution (rated)
    /// from one with several (not rated); a search that needs more gives `gave_up`.
    #[arg(long, allow_negative_numbers = true, value_parser = config::whole::<u64>, value_name = "N", default_value_t = config::DEFAULT_MAX_RECURSIONS, help_heading = "Search")]
    max_recursions: u64,

    /// Exit with 1 when a record is not `rated`.
    #[arg(long, help_heading = "Run")]
    strict: bool,

    /// The difficulty scale: `hodoku` (levels, scores and techniques) or `se` (Sudoku
    /// Explainer's ER, EP and ED, as the forums rank hard puzzles).
    #[arg(long, value_name = "SCALE", default_value = "hodoku",
          value_parser = format_names(Scale::ALL.iter().map(|s| s.name())), help_heading = "Rating")]
    scale: String,

    /// Rate each puzzle's canonical form instead of the puzzle as written, so that every
    /// equivalent puzzle (relabelled, rows and columns swapped, transposed; `augment`'s copies)
    /// gets the same rating. The 3x3 boxes only.
    #[arg(long, help_heading = "Rating")]
    invariant: bool,

    #[command(flatten)]
    dataset: DatasetArgs,
}

#[derive(Debug, Args)]
struct MergeArgs {
    /// The merged output (replaced only when complete); its summary goes beside it
    /// (OUT.summary.json) unless --summary says otherwise.
    #[arg(value_name = "OUT")]
    output: PathBuf,

    /// The outputs of `solve --shard` or `rate --shard`, in any order; each one's summary is read from beside it
    /// (SHARD_OUTPUT.summary.json).
    #[arg(value_name = "SHARD_OUTPUT", required = true)]
    shards: Vec<PathBuf>,

    /// Write the merged summary to FILE.
    #[arg(long, value_name = "FILE")]
    summary: Option<PathBuf>,

    /// No message about the merge; only errors.
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Debug, Args)]
struct ShowArgs {
    /// The puzzle as 81 cells (`1`-`9` givens; `.`, `0`, `_` or `*` blanks), or `-` to read one
    /// puzzle from standard input in any input format (the first record).
    #[arg(value_name = "PUZZLE", allow_hyphen_values = true)]
    puzzle: OsString,

    /// Jigsaw: the region layout, as 81 labels or the path of a file holding them.
    #[arg(long, value_name = "LAYOUT")]
    regions: Option<OsString>,

    #[command(flatten)]
    search: SearchArgs,

    /// Print every propagation step, guess and backtrack, with the board after each round.
    #[arg(long)]
    trace: bool,

    /// With --trace: the most trace lines to print (a board drawn counts its lines), at most
    /// 1000000.
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = config::DEFAULT_TRACE_LINES,
          value_parser = config::trace_lines, requires = "trace")]
    max_trace_lines: usize,

    /// Also rate the puzzle as `rate` does and print its human solution path, step by step;
    /// the grid of candidates is drawn at the start and before every step harder than a
    /// single (`advanced`), or `never`, only at the `start`, or before `every` step.
    #[arg(long, value_name = "GRIDS", num_args = 0..=1, require_equals = true,
          default_missing_value = "advanced",
          value_parser = format_names(CandidatesShown::ALL.iter().map(|c| c.name())))]
    explain: Option<String>,

    /// With --explain: the scale of the path, `hodoku` (its techniques, scores and levels) or
    /// `se` (Sudoku Explainer's path, each step with its difficulty, and ER, EP and ED).
    #[arg(long, value_name = "SCALE", default_value = "hodoku", requires = "explain",
          value_parser = format_names(Scale::ALL.iter().map(|s| s.name())))]
    scale: String,
}

#[derive(Debug, Args)]
struct StatsArgs {
    /// Result files of `solve` or `rate` (CSV or JSON lines, plain or gzip, or Parquet) or
    /// summaries saved with `--json` or `solve --summary`; `-` for standard input.
    #[arg(value_name = "RESULTS", required = true)]
    inputs: Vec<PathBuf>,

    /// Also summarise per distinct value of this column (for example `givens`, `status`,
    /// `file`, or a kept column such as `difficulty`), or per input with `input` (the names
    /// as given). A column of numbers with more than 30 distinct values is put in 10
    /// quantile bins, with a note (see --bins).
    #[arg(long, value_name = "COLUMN|input", help_heading = "Groups")]
    by: Option<String>,

    /// With --by: the most groups; a column with more distinct values is refused as soon as
    /// a row makes one too many.
    #[arg(long, allow_negative_numbers = true, value_parser = config::whole::<usize>, value_name = "N", default_value_t = config::DEFAULT_MAX_GROUPS, requires = "by", help_heading = "Groups")]
    max_groups: usize,
    /// With --by COLUMN, a column of numbers: N quantile bins of about equal size, bins at
    /// the edges A,B,... ([A,B], (B,C], ..., with < A and > the last for values outside), or
    /// `none` for one group per value.
    #[arg(
        long,
        value_name = "N|A,B,...|none",
        requires = "by",
        help_heading = "Groups",
        allow_hyphen_values = true
    )]
    bins: Option<String>,

    /// Print the summary as JSON instead of a table.
    #[arg(long, conflicts_with = "csv", help_heading = "Output")]
    json: bool,

    /// Print the table of the groups side by side as CSV (with --by; without it, one row for
    /// the whole), shares as percentages in `_pct` columns.
    #[arg(long, help_heading = "Output")]
    csv: bool,

    /// With --by: print every table for the whole and for each group, not one compact table.
    #[arg(long, requires = "by", conflicts_with_all = ["csv", "json"], help_heading = "Output")]
    detail: bool,

    /// Also write a self-contained HTML page with charts to FILE.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    html: Option<PathBuf>,

    /// Also count the distinct canonical forms of the puzzles (the results' puzzle column, or
    /// summaries made with solve --canonical); exact, and merged across inputs.
    #[arg(long)]
    canonical: bool,

    /// --canonical: the most distinct puzzles to count (each takes 20 to 60 bytes of memory);
    /// one more ends the run with an error.
    #[arg(long, allow_negative_numbers = true, value_parser = config::whole::<u64>, value_name = "N", requires = "canonical",
          default_value_t = DedupeOptions::DEFAULT_MAX_CLASSES)]
    max_classes: u64,
}

#[derive(Debug, Args)]
struct CanonArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,

    /// Write only the first record of each class (the puzzles that share a canonical form);
    /// the others are left out, counted, and listed with --duplicates.
    #[arg(long, help_heading = "Duplicates")]
    dedupe: bool,

    /// --dedupe: a class holds identical puzzles only (blanks written `.` or `0` alike), not
    /// every puzzle of one canonical form (relabelled, rotated, mirrored, ...).
    #[arg(long, requires = "dedupe", help_heading = "Duplicates")]
    exact: bool,

    /// --dedupe: write the records kept as they were in the input (its lines, or its CSV header
    /// and rows with every column), not canon rows: a deduplicated copy of a line, CSV or
    /// JSON-lines input.
    #[arg(long, requires = "dedupe", help_heading = "Duplicates")]
    as_input: bool,

    /// --dedupe: the most classes to remember (each takes 40 to 115 bytes of memory); one
    /// more ends the run with an error.
    #[arg(long, allow_negative_numbers = true, value_parser = config::whole::<u64>, value_name = "N", requires = "dedupe",
          default_value_t = DedupeOptions::DEFAULT_MAX_CLASSES, help_heading = "Duplicates")]
    max_classes: u64,

    /// --dedupe: also write the records left out to FILE, as CSV: their line and the line of
    /// the first record of their class (with their files when there are several inputs).
    #[arg(
        long,
        value_name = "FILE",
        requires = "dedupe",
        help_heading = "Duplicates"
    )]
    duplicates: Option<PathBuf>,

    /// Exit with 1 when a record has no canonical form (`invalid`).
    #[arg(long, help_heading = "Run")]
    strict: bool,
}

impl CanonArgs {
    fn into_config(self) -> Result<Config, ConfigError> {
        if self.dedupe && self.output.resume {
            return Err(ConfigError::DedupeResume);
        }
        let dedupe = self.dedupe.then_some(DedupeOptions {
            max_classes: config::positive("--max-classes", self.max_classes)?,
            exact: self.exact,
            as_input: self.as_input,
        });
        if self.as_input {
            if !self.input.keep_columns.is_empty() {
                return Err(ConfigError::AsInputKeepColumns);
            }
            let parquet = self
                .output
                .output
                .as_deref()
                .and_then(OutputFormat::of_name)
                == Some(OutputFormat::Parquet);
            if self.output.output_format.is_some() || parquet {
                return Err(ConfigError::AsInputOutputFormat);
            }
        }
        let mut config = bulk(
            self.input,
            self.output,
            None,
            self.strict,
            Job::Canon(CanonOptions { dedupe }),
        )?;
        if let Config::Bulk(run) = &mut config {
            if !run.pipeline.layout.is_standard() {
                return Err(ConfigError::CanonJigsaw);
            }
            if let Some(path) = &self.duplicates
                && let Some(format) = OutputFormat::of_name(path)
                && format != OutputFormat::Csv
            {
                return Err(ConfigError::DuplicatesNotCsv(path.clone(), format));
            }
            run.duplicates = self.duplicates;
        }
        Ok(config)
    }
}

#[derive(Debug, Args)]
struct AugmentArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,

    /// Copies per record (1 to 1000).
    #[arg(
        long,
        allow_negative_numbers = true,
        value_parser = config::whole::<u64>,
        value_name = "K",
        default_value_t = 1,
        help_heading = "Copies"
    )]
    copies: u64,

    /// The seed: the copies of a record are drawn from (SEED, its input, its line) alone.
    #[arg(
        long,
        allow_negative_numbers = true, value_parser = config::whole::<u64>,
        value_name = "S",
        default_value_t = 0,
        help_heading = "Copies"
    )]
    seed: u64,

    /// The copies of a record are different puzzles (a puzzle with few may get fewer rows).
    #[arg(long, help_heading = "Copies")]
    distinct: bool,

    /// Read each record's solution too (as verify does) and write it transformed alike.
    #[arg(long, help_heading = "Input")]
    solutions: bool,

    /// CSV, JSON lines, Parquet: with --solutions, the solution column's name [default:
    /// solution, solutions or answer].
    #[arg(
        long,
        value_name = "NAME",
        requires = "solutions",
        help_heading = "Input"
    )]
    solution_column: Option<String>,

    /// Exit with 1 when a record has no copies (`invalid`).
    #[arg(long, help_heading = "Run")]
    strict: bool,
}

#[derive(Debug, Args)]
struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, allow_negative_numbers = true, value_parser = config::whole::<u64>, value_name = "N")]
    count: u64,

    /// The seed: puzzle I is made from (SEED, I) alone.
    #[arg(
        long,
        allow_negative_numbers = true, value_parser = config::whole::<u64>,
        value_name = "S",
        default_value_t = 0
    )]
    seed: u64,

    /// Givens per puzzle, N or A-B [default: as few as the removal pass leaves].
    #[arg(long, value_name = "A-B")]
    givens: Option<GivensRange>,

    /// No given can be removed with the solution staying unique (with a symmetry, checked
    /// given by given: rare, so slow; see docs/guide.md).
    #[arg(long)]
    minimal: bool,

    /// Symmetry of the pattern of givens.
    #[arg(long, value_name = "NAME", default_value = "none", ignore_case = true,
          value_parser = format_names(Symmetry::ALL.iter().map(|s| s.name())))]
    symmetry: String,

    /// Jigsaw: the region layout of every puzzle (81 labels or a file holding them), or
    /// `random` for a new layout per puzzle [default: the 3x3 boxes].
    #[arg(long, value_name = "LAYOUT|random")]
    regions: Option<OsString>,

    /// Attempts per puzzle (each from a new complete grid) before giving up with an error.
    #[arg(long, allow_negative_numbers = true, value_parser = config::whole::<u32>, value_name = "N", default_value_t = GenerateOptions::default().max_attempts)]
    max_attempts: u32,

    /// Only puzzles that `rate` puts at this HoDoKu level, or between two (hard-extreme).
    #[arg(long, value_name = "LEVEL[-LEVEL]", help_heading = "Difficulty")]
    level: Option<LevelRange>,

    /// Only puzzles whose `rate` score is N, or from A to B.
    #[arg(long, value_name = "A-B", help_heading = "Difficulty")]
    score: Option<ScoreRange>,

    /// Only puzzles whose `rate` solution path uses each technique (names as `rate` writes
    /// them: x-wing,swordfish).
    #[arg(long, value_name = "TECHNIQUE[,...]",
          value_parser = |s: &str| parse_techniques(s).map(Needs), help_heading = "Difficulty")]
    needs: Option<Needs>,

    /// Only puzzles whose Sudoku Explainer ER (as `rate --scale se` gives it) is E, or from A to
    /// B (7.0-8.5; below 9.5, where the nested forcing chains this version does not rate
    /// begin); the rows gain er, ep and ed.
    #[arg(long, value_name = "A-B", help_heading = "Difficulty")]
    se: Option<ErRange>,

    /// With --level, --score, --needs or --se: moves of one given tried from a puzzle that misses
    /// the target before a new grid is drawn (0: a new grid at once, measured the faster).
    #[arg(long, allow_negative_numbers = true, value_parser = config::whole::<u32>, value_name = "N",
          default_value_t = GenerateOptions::default().walk, help_heading = "Difficulty")]
    walk: u32,

    /// Up to N more puzzles made from each one that meets the target, by moving one given
    /// (each rated again), before a new grid is drawn: families of N + 1 puzzles share their
    /// solution grid (at most 100).
    #[arg(long, allow_negative_numbers = true, value_parser = config::whole::<u32>, value_name = "N",
          default_value_t = GenerateOptions::default().neighbours, help_heading = "Difficulty")]
    neighbours: u32,

    /// Write the puzzles to OUT (replaced only when all are written) instead of standard output.
    #[arg(short, long = "output", value_name = "OUT")]
    output: Option<PathBuf>,

    /// Output format: `line` writes `PUZZLE SOLUTION` per line; `csv`, `jsonl` and `parquet`
    /// write the columns index, puzzle, solution, givens, then level, score and hardest with a
    /// --level, --score or --needs target (and regions on a jigsaw layout) [default: csv;
    /// parquet for an OUT whose name ends in .parquet, jsonl for .jsonl or .ndjson].
    #[arg(long, value_name = "FORMAT",
          value_parser = format_names(["line"].into_iter().chain(OutputFormat::ALL.iter().map(|f| f.name()))))]
    output_format: Option<String>,

    /// Parquet output: the codec of its pages: `snappy`, `none` or `zstd` (as for solve).
    #[arg(long, value_name = "CODEC", default_value = "snappy", ignore_case = true,
          value_parser = format_names(ParquetCompression::ALL.iter().map(|c| c.name())))]
    parquet_compression: String,

    /// Worker threads [default: one per core].
    #[arg(long, allow_negative_numbers = true, value_parser = config::whole::<usize>, value_name = "N")]
    threads: Option<usize>,

    /// No progress bar and no summary line; only errors.
    #[arg(short, long)]
    quiet: bool,
}

/// The techniques of `generate --needs`, one value for clap.
#[derive(Debug, Clone)]
struct Needs(Vec<Technique>);

/// The swaps that make a random jigsaw layout from the boxes (`generate --regions random`).
const RANDOM_LAYOUT_SWAPS: usize = 40;

impl GenerateArgs {
    fn into_run(self) -> Result<GenerateRun, ConfigError> {
        let (regions, layout_file) = match self.regions.as_deref() {
            Some(arg) if arg == "random" => (
                Regions::RandomJigsaw {
                    swaps: RANDOM_LAYOUT_SWAPS,
                },
                None,
            ),
            Some(arg) => {
                let (layout, file) = config::regions_and_file(Some(arg))?;
                (Regions::Layout(layout), file)
            }
            None => (Regions::Standard, None),
        };
        let output = match self.output {
            Some(path) if path.as_os_str() != "-" => Target::Path(path),
            _ => Target::Stdout,
        };
        let format = match (self.output_format.as_deref(), &output) {
            (Some("line"), _) => GeneratedFormat::Line,
            (Some(name), _) => GeneratedFormat::Rows(parse_known(name)),
            (None, Target::Path(path)) => {
                GeneratedFormat::Rows(OutputFormat::of_name(path).unwrap_or_default())
            }
            (None, Target::Stdout) => GeneratedFormat::Rows(OutputFormat::default()),
        };
        if let Target::Path(path) = &output {
            let asked = match (&self.output_format, format) {
                (Some(_), GeneratedFormat::Rows(format)) => Some((format.name(), format.is_text())),
                (Some(_), GeneratedFormat::Line) => Some(("line", true)),
                (None, _) => None,
            };
            check_output_name(path, asked)?;
        }
        if format == GeneratedFormat::Rows(OutputFormat::Parquet) && is_terminal(&output) {
            return Err(ConfigError::ParquetToTerminal);
        }
        if format == GeneratedFormat::Line && matches!(regions, Regions::RandomJigsaw { .. }) {
            return Err(ConfigError::LineWithoutRegions);
        }
        Ok(GenerateRun {
            options: GenerateOptions {
                seed: self.seed,
                givens: self.givens,
                minimal: self.minimal,
                symmetry: parse_known::<Symmetry>(&self.symmetry),
                regions,
                max_attempts: config::positive("--max-attempts", self.max_attempts.into())? as u32,
                difficulty: Difficulty {
                    levels: self.level,
                    score: self.score,
                    needs: self.needs.map(|n| n.0).unwrap_or_default(),
                    se: self.se,
                },
                walk: self.walk,
                neighbours: self.neighbours,
            },
            count: self.count,
            output,
            parquet_compression: parquet_compression(
                &self.parquet_compression,
                format == GeneratedFormat::Rows(OutputFormat::Parquet),
            )?,
            format,
            threads: config::threads(self.threads)?,
            quiet: self.quiet,
            layout_file,
        })
    }
}

#[derive(Debug, Args)]
struct VerifyArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,

    /// CSV, JSON lines, Parquet: the solution column's name [default: solution, solutions or
    /// answer].
    #[arg(long, value_name = "NAME", help_heading = "Input")]
    solution_column: Option<String>,

    /// Also require the puzzle to have exactly one solution, the one given.
    #[arg(long, help_heading = "Search")]
    unique: bool,

    /// Recursion budget of the `--unique` search per puzzle.
    #[arg(long, allow_negative_numbers = true, value_parser = config::whole::<u64>, value_name = "N", default_value_t = config::DEFAULT_MAX_RECURSIONS, help_heading = "Search")]
    max_recursions: u64,
}

/// A parser accepting the given names, listed in the help.
fn format_names(names: impl Iterator<Item = &'static str>) -> PossibleValuesParser {
    PossibleValuesParser::new(names)
}

impl Cli {
    /// The validated configuration.
    pub fn into_config(self) -> Result<Config, ConfigError> {
        match self.command {
            Command::Solve(args) => {
                let solve = args.search.options()?;
                let config = bulk(
                    args.input,
                    args.output,
                    None,
                    args.strict,
                    Job::Solve(solve),
                )?;
                with_dataset(config, args.dataset)
            }
            Command::Rate(args) => {
                let rate = RatingOptions {
                    max_recursions: config::positive("--max-recursions", args.max_recursions)?,
                    scale: parse_known::<Scale>(&args.scale),
                    invariant: args.invariant,
                };
                let config = bulk(args.input, args.output, None, args.strict, Job::Rate(rate))?;
                with_dataset(config, args.dataset)
            }
            Command::Verify(args) => {
                let verify = VerifyOptions {
                    unique: args.unique,
                    max_recursions: config::positive("--max-recursions", args.max_recursions)?,
                };
                bulk(
                    args.input,
                    args.output,
                    args.solution_column,
                    false,
                    Job::Verify(verify),
                )
            }
            Command::Augment(args) => {
                if args.copies > u64::from(MAX_COPIES) {
                    return Err(ConfigError::TooManyCopies {
                        asked: args.copies,
                        most: MAX_COPIES,
                    });
                }
                let augment = AugmentOptions {
                    copies: config::positive("--copies", args.copies)? as u32,
                    seed: args.seed,
                    distinct: args.distinct,
                    solutions: args.solutions,
                };
                let config = bulk(
                    args.input,
                    args.output,
                    args.solution_column,
                    args.strict,
                    Job::Augment(augment),
                )?;
                if let Config::Bulk(run) = &config
                    && !run.pipeline.layout.is_standard()
                {
                    return Err(ConfigError::AugmentJigsaw);
                }
                Ok(config)
            }
            Command::Show(args) => Ok(Config::Show(ShowRun {
                puzzle: config::puzzle_source(&args.puzzle),
                layout: config::regions(args.regions.as_deref())?,
                options: args.search.options()?,
                trace: args.trace,
                max_trace_lines: args.max_trace_lines,
                explain: args
                    .explain
                    .map(|name| CandidatesShown::from_name(&name).expect("clap checked it")),
                scale: parse_known::<Scale>(&args.scale),
            })),
            Command::Merge(args) => Ok(Config::Merge(MergeRun {
                request: sudoku_bulk::merge::Request {
                    summary: args
                        .summary
                        .unwrap_or_else(|| shard::summary_path(&args.output)),
                    output: args.output,
                    shards: args.shards,
                },
                quiet: args.quiet,
            })),
            Command::Generate(args) => Ok(Config::Generate(args.into_run()?)),
            Command::Completions(args) => {
                let mut command = <Cli as clap::CommandFactory>::command();
                let mut script = Vec::new();
                clap_complete::generate(args.shell, &mut command, "sudoku-bulk", &mut script);
                let mut script = String::from_utf8_lossy(&script).into_owned();
                if args.shell == clap_complete::Shell::Bash {
                    // clap_complete 4.6.11 names the commands' cases after `sudoku-bulk` with its
                    // `-` made `__subcmd__` (`sudoku__subcmd__bulk__subcmd__solve`) but looks
                    // them up with it made `__` (`sudoku__bulk__subcmd__solve`): no option of a
                    // command would complete. One spelling for both.
                    script = script.replace("sudoku__subcmd__bulk", "sudoku__bulk");
                }
                Ok(Config::Print(script))
            }
            Command::Man(args) => Ok(Config::Print(man_page(args.command.as_deref()))),
            Command::Canon(args) => args.into_config(),
            Command::Stats(args) => Ok(Config::Stats(StatsRun {
                inputs: args.inputs,
                max_groups: config::positive("--max-groups", args.max_groups as u64)? as usize,
                grouping: config::grouping(args.by, args.bins.as_deref())?,
                json: args.json,
                csv: args.csv,
                detail: args.detail,
                html: args.html,
                canonical: match args.canonical {
                    true => Some(config::positive("--max-classes", args.max_classes)?),
                    false => None,
                },
            })),
        }
    }
}

/// The man page (roff) of sudoku-bulk, or of one of its commands (`sudoku-bulk-solve`).
fn man_page(command: Option<&str>) -> String {
    let mut top = <Cli as clap::CommandFactory>::command();
    // Gives each command its full name (`sudoku-bulk solve`) for the synopsis.
    top.build();
    let man = match command {
        None => clap_mangen::Man::new(top),
        Some(name) => {
            let command = top
                .find_subcommand(name)
                .expect("clap checked the name")
                .clone();
            clap_mangen::Man::new(command).title(format!("sudoku-bulk-{name}"))
        }
    };
    let mut page = Vec::new();
    man.render(&mut page).expect("a page written to memory");
    String::from_utf8_lossy(&page).into_owned()
}

/// Adds the dataset summary and the shard asked for to a bulk run.
fn with_dataset(mut config: Config, args: DatasetArgs) -> Result<Config, ConfigError> {
    if let Config::Bulk(run) = &mut config {
        run.summaries.extend(args.summary);
        if let Some(choice) = args.shard {
            sharded(run, choice, args.shards)?;
        }
        run.pipeline.summarise = !run.summaries.is_empty();
        if args.canonical && !run.pipeline.summarise {
            return Err(ConfigError::CanonicalWithoutSummary);
        }
        run.pipeline.canonical = args.canonical;
        run.pipeline.max_classes = config::positive("--max-classes", args.max_classes)?;
    }
    Ok(config)
}

/// Makes `run` handle one shard: found from `choice` (and the environment for `auto`), with
/// files for input and output and a summary.
fn sharded(run: &mut BulkRun, choice: ShardChoice, shards: Option<u64>) -> Result<(), ConfigError> {
    let shard = match choice {
        ShardChoice::Fixed(shard) => match shards {
            Some(given) if given != shard.count => {
                return Err(ShardError::CountDiffers {
                    given,
                    name: "N in --shard K/N",
                    found: shard.count,
                }
                .into());
            }
            _ => shard,
        },
        ShardChoice::Auto => Shard::from_env(|name| std::env::var(name).ok(), shards)?,
    };
    if run.inputs.iter().any(|i| i.path().is_none()) {
        return Err(ConfigError::ShardStdin);
    }
    if !run.pipeline.output_format.is_text() {
        return Err(ConfigError::ParquetShard);
    }
    let Target::Path(output) = &run.output else {
        return Err(ConfigError::ShardStdout);
    };
    // Always beside the output too, where merge looks for it.
    // A --summary naming that file (`./OUT.summary.json` too) is that one.
    let beside = shard::summary_path(output);
    let id = FileId::of_path(&beside);
    if !run.summaries.iter().any(|s| FileId::of_path(s) == id) {
        run.summaries.push(beside);
    }
    run.pipeline.shard = Some(shard);
    Ok(())
}

/// Whether `target` is a terminal: standard output, or a path naming one (`-o /dev/stdout` or
/// `-o /dev/tty` at a terminal). Only a character device is opened to ask, read-only and
/// without waiting, so that a named pipe is never opened here.
fn is_terminal(target: &Target) -> bool {
    match target {
        Target::Stdout => std::io::stdout().is_terminal(),
        Target::Path(path) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
                let device = std::fs::metadata(path).is_ok_and(|m| m.file_type().is_char_device());
                device
                    && std::fs::OpenOptions::new()
                        .read(true)
                        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
                        .open(path)
                        .is_ok_and(|file| file.is_terminal())
            }
            #[cfg(not(unix))]
            {
                let _ = path;
                false
            }
        }
    }
}

/// Parses a name clap has already checked against the known names.
fn parse_known<T: std::str::FromStr>(name: &str) -> T
where
    T::Err: std::fmt::Debug,
{
    name.parse().expect("clap accepts only known names")
}

/// `--parquet-compression`, which only a Parquet output takes.
fn parquet_compression(name: &str, parquet: bool) -> Result<ParquetCompression, ConfigError> {
    let codec = parse_known::<ParquetCompression>(name);
    if codec != ParquetCompression::default() && !parquet {
        return Err(ConfigError::CompressionWithoutParquet);
    }
    Ok(codec)
}

/// Refuses an output named like a compressed file (outputs are not compressed), or named for
/// Parquet or text when `asked` (the format `--output-format` names, and whether it is text)
/// is the other: the rows would not be what the name promises to every other tool. CSV and
/// JSON lines under each other's names are text the commands read back by their content, and
/// are written as asked.
fn check_output_name(path: &Path, asked: Option<(&str, bool)>) -> Result<(), ConfigError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase());
    if name.is_some_and(|n| n.ends_with(".gz")) {
        return Err(ConfigError::CompressedName(path.to_path_buf()));
    }
    match (OutputFormat::of_name(path), asked) {
        (Some(named), Some((asked, text))) if named.is_text() != text => {
            Err(ConfigError::FormatName {
                path: path.to_path_buf(),
                named,
                asked: asked.to_string(),
                // Generated lines are puzzle text, as the shipped puzzle files are.
                extension: if asked == "line" { "txt" } else { asked }.to_string(),
            })
        }
        _ => Ok(()),
    }
}

fn bulk(
    input: InputArgs,
    output: OutputArgs,
    solution_column: Option<String>,
    strict: bool,
    job: Job,
) -> Result<Config, ConfigError> {
    let inputs = config::inputs(input.inputs.iter().map(|a| Input::from_arg(a)).collect())?;
    let target = match output.output {
        Some(path) if path.as_os_str() != "-" => Target::Path(path),
        _ => Target::Stdout,
    };
    let output_format = match (&output.output_format, &target) {
        (Some(name), _) => parse_known(name),
        (None, Target::Path(path)) => OutputFormat::of_name(path).unwrap_or_default(),
        (None, Target::Stdout) => OutputFormat::default(),
    };
    if let Target::Path(path) = &target {
        check_output_name(
            path,
            output
                .output_format
                .is_some()
                .then_some((output_format.name(), output_format.is_text())),
        )?;
    }
    if output_format == OutputFormat::Parquet {
        if output.resume {
            return Err(ConfigError::ParquetResume);
        }
        if is_terminal(&target) {
            return Err(ConfigError::ParquetToTerminal);
        }
    }
    let (layout, layout_file) = config::regions_and_file(input.regions.as_deref())?;
    let (keep, keep_as) = config::kept_column_entries(&input.keep_columns)?;
    let run = BulkRun {
        inputs,
        output: target,
        quiet: output.quiet,
        strict,
        summaries: Vec::new(),
        duplicates: None,
        pipeline: Settings {
            layout,
            input_format: input.input_format.as_deref().map(parse_known),
            columns: Columns {
                puzzle: input.puzzle_column,
                solution: solution_column,
                keep,
                keep_as,
                regions: input.regions_column,
            },
            output_format,
            parquet_compression: parquet_compression(
                &output.parquet_compression,
                output_format == OutputFormat::Parquet,
            )?,
            ..Settings::new(job, config::threads(output.threads)?)
        },
        checkpoints: Checkpoints {
            resume: output.resume,
            every: output.checkpoint_every,
        },
        layout_file,
    };
    config::kept_columns(&run.pipeline, run.inputs.len() > 1)?;
    Ok(Config::Bulk(Box::new(run)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(args: &[&str]) -> Result<Config, String> {
        let cli = Cli::try_parse_from(std::iter::once("sudoku-bulk").chain(args.iter().copied()))
            .map_err(|e| e.kind().to_string())?;
        cli.into_config().map_err(|e| e.to_string())
    }

    fn bulk_of(args: &[&str]) -> BulkRun {
        let Config::Bulk(run) = config(args).unwrap() else {
            panic!("not a bulk command")
        };
        *run
    }

    /// The help of `command` (`-h` short, else `--help`).
    fn help(command: &str, long: bool) -> String {
        use clap::CommandFactory;
        let mut cli = Cli::command();
        let command = cli.find_subcommand_mut(command).unwrap();
        if long {
            command.render_long_help().to_string()
        } else {
            command.render_help().to_string()
        }
    }

    #[test]
    fn help_groups_options_under_headings_and_shows_examples() {
        let long = help("solve", true);
        for heading in [
            "Input:",
            "Output:",
            "Run:",
            "Search:",
            "Summary and shards:",
            "Examples:",
        ] {
            assert!(
                long.contains(&format!("\n{heading}\n")),
                "{heading}: {long}"
            );
        }
        // The headings hold their options: --keep-columns under Input, --threads under Run.
        let under = |heading: &str, flag: &str| {
            let part = long.split(&format!("\n{heading}:\n")).nth(1).unwrap();
            let part = part
                .split("\n\n")
                .take_while(|p| p.starts_with(' '))
                .collect::<Vec<_>>()
                .join("\n\n");
            part.contains(flag)
        };
        assert!(under("Input", "--keep-columns"), "{long}");
        assert!(under("Run", "--threads"), "{long}");
        assert!(under("Search", "--max-solutions"), "{long}");
        assert!(!under("Input", "--threads"), "{long}");
        assert!(
            long.contains("sudoku-bulk solve kaggle.csv --keep-columns solutions=kaggle_solution")
        );
        // -h is the short form: one line an option, and still examples.
        let short = help("solve", false);
        assert!(short.len() < long.len(), "{short}");
        assert!(!short.contains("Exit status"), "{short}");
        assert!(long.contains("Exit status"), "{long}");
        assert!(
            short.contains("\nExamples:\n  sudoku-bulk solve "),
            "{short}"
        );
        for command in COMMAND_NAMES {
            assert!(help(command, true).contains("\nExamples:\n"), "{command}");
        }
    }

    #[test]
    fn the_man_page_and_completions_come_from_the_same_definitions() {
        for command in [None, Some("solve"), Some("stats")] {
            let page = man_page(command);
            assert!(
                page.starts_with(".ie \\n(.g .ds Aq") || page.starts_with(".TH"),
                "{page}"
            );
            assert!(page.contains("\n.TH "), "{page}");
        }
        assert!(man_page(None).contains("sudoku\\-bulk\\-solve(1)"));
        assert!(man_page(Some("solve")).contains("\\-\\-keep\\-columns"));
        let Ok(Config::Print(script)) = config(&["completions", "bash"]) else {
            panic!("completions print a script")
        };
        assert!(script.contains("complete -F _sudoku__bulk "), "{script}");
        assert!(
            script.contains("\n        sudoku__bulk__subcmd__solve)\n"),
            "{script}"
        );
        assert!(!script.contains("sudoku__subcmd__bulk"), "{script}");
        assert!(
            script.contains("solve") && script.contains("canon"),
            "{script}"
        );
        assert!(config(&["completions", "tcsh"]).is_err());
        assert!(config(&["man", "nope"]).is_err());
    }

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn solve_defaults() {
        let run = bulk_of(&["solve"]);
        assert_eq!(run.inputs, vec![Input::stdin()]);
        assert_eq!(run.output, Target::Stdout);
        let Job::Solve(options) = run.pipeline.job else {
            panic!("not a solve job")
        };
        assert_eq!(options.algorithm, Algorithm::default());
        assert_eq!(options.max_solutions, 2);
        assert_eq!(options.max_recursions, 10_000_000);
        assert_eq!(run.pipeline.input_format, None);
        assert_eq!(run.pipeline.output_format, OutputFormat::Csv);
        assert!(run.pipeline.threads >= 1);
        assert_eq!(run.checkpoints, Checkpoints::default());
    }

    /// A count that is not one says how: negative, too large or no number (clap's own parser
    /// said "invalid digit found in string" of `-1`).
    #[test]
    fn counts_that_are_not_whole_numbers_are_told_why() {
        let message = |args: &[&str]| {
            Cli::try_parse_from(std::iter::once("sudoku-bulk").chain(args.iter().copied()))
                .unwrap_err()
                .to_string()
        };
        for (args, wanted) in [
            (
                &["solve", "--max-solutions", "-1", "a"][..],
                "'-1' is negative",
            ),
            (&["augment", "--copies", "-2", "a"], "'-2' is negative"),
            (&["generate", "--count", "1x"], "'1x' is not a whole number"),
            (
                &["generate", "--max-attempts", "99999999999"],
                "'99999999999' is too large: at most 4294967295",
            ),
            (&["solve", "--threads", "", "a"], "'' is not a whole number"),
        ] {
            let got = message(args);
            assert!(got.contains(wanted), "{args:?}: {got}");
        }
        assert_eq!(
            bulk_of(&["solve", "a", "--threads", " 2 "])
                .pipeline
                .threads,
            2
        );
    }

    #[test]
    fn resume_options() {
        let run = bulk_of(&["solve", "a.txt", "-o", "out.csv", "--resume"]);
        assert!(run.checkpoints.resume);
        let run = bulk_of(&["verify", "-o", "out.csv", "--checkpoint-every", "0.5"]);
        assert_eq!(run.checkpoints.every, Duration::from_millis(500));
        assert!(config(&["solve", "--resume"]).is_err(), "--resume needs -o");
        let no_output = config(&["solve", "a.txt", "--checkpoint-every", "2"]).unwrap_err();
        assert!(
            no_output.contains("required"),
            "checkpoints need -o: {no_output}"
        );
        // Our message, not clap's tip about values that start with '-'.
        let negative = config(&["solve", "-o", "x", "--checkpoint-every", "-1"]).unwrap_err();
        assert!(negative.contains("value"), "{negative}");
        let negative = Cli::try_parse_from([
            "sudoku-bulk",
            "solve",
            "-o",
            "x",
            "--checkpoint-every",
            "-1",
        ])
        .unwrap_err()
        .to_string();
        assert!(negative.contains("from 0 up"), "{negative}");
        assert!(config(&["solve", "-o", "x", "--checkpoint-every", "soon"]).is_err());
        // The largest whole number of seconds is taken exactly (as a float it rounded past the
        // most a duration holds, and was refused with itself as the limit).
        let run = bulk_of(&[
            "solve",
            "-o",
            "x",
            "--checkpoint-every",
            "18446744073709551615",
        ]);
        assert_eq!(run.checkpoints.every, Duration::from_secs(u64::MAX));
    }

    #[test]
    fn options_reach_the_settings() {
        let run = bulk_of(&[
            "verify",
            "a.csv",
            "-",
            "--unique",
            "--threads",
            "3",
            "--input-format",
            "csv",
            "--keep-columns",
            "id,clues",
            "--solution-column",
            "answer",
            "--output-format",
            "jsonl",
            "-o",
            "out.jsonl",
        ]);
        assert_eq!(run.inputs.len(), 2);
        assert_eq!(run.output, Target::Path("out.jsonl".into()));
        assert_eq!(run.pipeline.threads, 3);
        assert_eq!(run.pipeline.input_format, Some(InputFormat::Csv));
        assert_eq!(run.pipeline.columns.keep, ["id", "clues"]);
        assert_eq!(run.pipeline.columns.solution.as_deref(), Some("answer"));
        assert_eq!(run.pipeline.output_format, OutputFormat::Jsonl);
        assert!(matches!(
            run.pipeline.job,
            Job::Verify(VerifyOptions { unique: true, .. })
        ));
    }

    #[test]
    fn a_shard_writes_its_summary_beside_its_output_even_with_summary_elsewhere() {
        let run = bulk_of(&[
            "solve",
            "a.txt",
            "b.txt",
            "--shard",
            "2/5",
            "-o",
            "out/p2.csv",
        ]);
        assert_eq!(run.pipeline.shard, Some(Shard { index: 2, count: 5 }));
        assert!(run.pipeline.summarise);
        assert_eq!(run.summaries, [PathBuf::from("out/p2.csv.summary.json")]);
        let summaries = |summary: &str| {
            let args = [
                "solve",
                "a.txt",
                "--shard",
                "0/1",
                "-o",
                "x.csv",
                "--summary",
                summary,
            ];
            bulk_of(&args).summaries
        };
        assert_eq!(
            summaries("s.json"),
            [PathBuf::from("s.json"), PathBuf::from("x.csv.summary.json")]
        );
        // The summary beside the output, named another way, is the one asked for.
        assert_eq!(
            summaries("./x.csv.summary.json"),
            [PathBuf::from("./x.csv.summary.json")]
        );
    }

    #[test]
    fn shards_need_files_in_and_out() {
        assert_eq!(
            config(&["solve", "--shard", "0/2", "-o", "x.csv"]).unwrap_err(),
            ConfigError::ShardStdin.to_string()
        );
        assert_eq!(
            config(&["solve", "a.txt", "-", "--shard", "0/2", "-o", "x"]).unwrap_err(),
            ConfigError::ShardStdin.to_string()
        );
        assert_eq!(
            config(&["solve", "a.txt", "--shard", "0/2"]).unwrap_err(),
            ConfigError::ShardStdout.to_string()
        );
        assert_eq!(
            config(&[
                "solve", "a.txt", "--shard", "1/2", "--shards", "3", "-o", "x"
            ])
            .unwrap_err(),
            "--shards 3, but N in --shard K/N is 2"
        );
        assert!(config(&["solve", "a.txt", "--shard", "2/2", "-o", "x"]).is_err());
        assert!(config(&["solve", "a.txt", "--shards", "2", "-o", "x"]).is_err());
    }

    #[test]
    fn merge_names_its_summary_after_its_output() {
        let Config::Merge(run) = config(&["merge", "all.csv", "p1.csv", "p0.csv"]).unwrap() else {
            panic!("not a merge")
        };
        assert_eq!(run.request.summary, PathBuf::from("all.csv.summary.json"));
        assert_eq!(
            run.request.shards,
            [PathBuf::from("p1.csv"), PathBuf::from("p0.csv")]
        );
        assert!(config(&["merge", "all.csv"]).is_err());
    }

    #[test]
    fn rate_takes_the_run_options_a_summary_and_shards() {
        let run = bulk_of(&[
            "rate",
            "a.txt",
            "--max-recursions",
            "500",
            "--strict",
            "--shard",
            "1/3",
            "-o",
            "r.csv",
        ]);
        assert_eq!(
            run.pipeline.job,
            Job::Rate(RatingOptions {
                max_recursions: 500,
                scale: Scale::Hodoku,
                invariant: false,
            })
        );
        assert!(run.strict);
        assert_eq!(run.pipeline.shard, Some(Shard { index: 1, count: 3 }));
        assert_eq!(run.summaries, vec![PathBuf::from("r.csv.summary.json")]);
        assert!(run.pipeline.summarise);
        let run = bulk_of(&["rate"]);
        assert_eq!(run.inputs, vec![Input::stdin()]);
        assert!(!run.pipeline.summarise);
        assert_eq!(
            config(&["rate", "--max-recursions", "0"]).unwrap_err(),
            "--max-recursions must be at least 1"
        );
    }

    #[test]
    fn the_thread_limit_in_the_help_is_the_one_enforced() {
        use clap::CommandFactory;
        let help = Cli::command()
            .find_subcommand_mut("solve")
            .unwrap()
            .render_help()
            .to_string();
        let limit = format!(
            "Worker threads, 1 to {}",
            sudoku_bulk::pipeline::MAX_THREADS
        );
        assert!(help.contains(&limit), "{help}");
    }

    #[test]
    fn stats_groupings() {
        use sudoku_bulk::stats::grouping::{AUTO_BINS, AUTO_BINS_ABOVE, BinChoice, Grouping};
        let grouping = |args: &[&str]| match config(args) {
            Ok(Config::Stats(run)) => Ok(run.grouping),
            Ok(_) => panic!("not stats"),
            Err(e) => Err(e),
        };
        assert_eq!(grouping(&["stats", "r.csv"]), Ok(None));
        assert_eq!(
            grouping(&["stats", "r.csv", "--by", "input"]),
            Ok(Some(Grouping::Input))
        );
        let column = |bins| {
            Ok(Some(Grouping::Column {
                name: "difficulty".into(),
                bins,
            }))
        };
        assert_eq!(
            grouping(&["stats", "r.csv", "--by", "difficulty"]),
            column(BinChoice::Automatic)
        );
        assert_eq!(
            grouping(&["stats", "r.csv", "--by", "difficulty", "--bins", "10"]),
            column(BinChoice::Quantiles(10))
        );
        assert_eq!(
            grouping(&["stats", "r.csv", "--by", "difficulty", "--bins", "none"]),
            column(BinChoice::None)
        );
        let Ok(Some(Grouping::Column {
            bins: BinChoice::Edges(bins),
            ..
        })) = grouping(&["stats", "r.csv", "--by", "d", "--bins", "-1, 0,2.5"])
        else {
            panic!("edges")
        };
        assert_eq!(bins.labels(), ["< -1", "[-1, 0]", "(0, 2.5]", "> 2.5"]);
        for (bins, error) in [
            ("0", "--bins 0: at least 1 bin"),
            (
                "x",
                "--bins x: give a number of bins, edges A,B,... or none",
            ),
            ("2,1", "--bins 2,1: bin edges must increase: 1 follows 2"),
            ("1,x", "--bins 1,x: bin edge 'x' is not a number"),
        ] {
            assert_eq!(
                grouping(&["stats", "r.csv", "--by", "d", "--bins", bins]).unwrap_err(),
                error
            );
        }
        assert_eq!(
            grouping(&["stats", "r.csv", "--by", "input", "--bins", "3"]).unwrap_err(),
            "--bins needs --by COLUMN (a column of numbers)"
        );
        // The help states the thresholds the code uses.
        use clap::CommandFactory;
        let help = Cli::command()
            .find_subcommand_mut("stats")
            .unwrap()
            .render_long_help()
            .to_string();
        let stated = format!("more than {AUTO_BINS_ABOVE} distinct values is put in {AUTO_BINS}");
        assert!(
            help.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(&stated),
            "{help}"
        );
    }

    #[test]
    fn canon_options_reach_the_settings() {
        let run = bulk_of(&[
            "canon",
            "a.txt",
            "--dedupe",
            "--max-classes",
            "50",
            "--duplicates",
            "d.csv",
        ]);
        assert_eq!(
            run.pipeline.job,
            Job::Canon(CanonOptions {
                dedupe: Some(DedupeOptions {
                    max_classes: 50,
                    exact: false,
                    as_input: false,
                })
            })
        );
        assert_eq!(run.duplicates, Some("d.csv".into()));
        let run = bulk_of(&["canon"]);
        assert_eq!(run.pipeline.job, Job::Canon(CanonOptions { dedupe: None }));
        assert!(
            config(&["canon", "--duplicates", "d.csv"]).is_err(),
            "needs --dedupe"
        );
        assert_eq!(
            config(&["canon", "--dedupe", "-o", "x.csv", "--resume"]).unwrap_err(),
            ConfigError::DedupeResume.to_string()
        );
        let jigsaw =
            "aaabbbbbbaaabbbcccaaddcccccadddeeecfdddeeeeffdgeefffffggghhhhfiggghhhiiigghhiiiii";
        assert_eq!(
            config(&["canon", "--regions", jigsaw]).unwrap_err(),
            ConfigError::CanonJigsaw.to_string()
        );
    }

    #[test]
    fn generate_options_reach_the_settings() {
        let Config::Generate(run) = config(&[
            "generate",
            "--count",
            "5",
            "--seed",
            "9",
            "--givens",
            "24-30",
            "--minimal",
            "--symmetry",
            "rot180",
            "--output-format",
            "line",
            "-o",
            "p.txt",
        ])
        .unwrap() else {
            panic!("not generate")
        };
        assert_eq!(run.count, 5);
        assert_eq!(run.options.seed, 9);
        assert_eq!(run.options.givens, Some(GivensRange::new(24, 30).unwrap()));
        assert!(run.options.minimal);
        assert_eq!(run.options.symmetry, Symmetry::Rot180);
        assert_eq!(run.format, GeneratedFormat::Line);
        assert_eq!(run.output, Target::Path("p.txt".into()));
        let Config::Generate(run) =
            config(&["generate", "--count", "1", "--regions", "random"]).unwrap()
        else {
            panic!("not generate")
        };
        assert_eq!(run.options.regions, Regions::RandomJigsaw { swaps: 40 });
        assert_eq!(run.format, GeneratedFormat::Rows(OutputFormat::Csv));
        assert_eq!(
            config(&[
                "generate",
                "--count",
                "1",
                "--regions",
                "random",
                "--output-format",
                "line"
            ])
            .unwrap_err(),
            ConfigError::LineWithoutRegions.to_string()
        );
        assert!(config(&["generate", "--count", "1", "--givens", "30-20"]).is_err());
        assert!(config(&["generate", "--count", "1", "--symmetry", "spiral"]).is_err());
        assert!(config(&["generate"]).is_err(), "--count is required");
    }

    #[test]
    fn bad_values_are_refused() {
        assert_eq!(
            config(&["solve", "--threads", "0"]).unwrap_err(),
            "--threads must be at least 1"
        );
        assert_eq!(
            config(&["solve", "--max-solutions", "0"]).unwrap_err(),
            "--max-solutions must be at least 1"
        );
        assert_eq!(
            config(&["solve", "-", "-"]).unwrap_err(),
            "standard input ('-') can be read only once"
        );
        assert_eq!(
            config(&["solve", "--threads", "257"]).unwrap_err(),
            "--threads 257 is more than a run can keep busy: at most 256 batches of records are \
             ever waiting for a thread"
        );
        assert!(config(&["solve", "--threads", "256"]).is_ok());
        assert!(config(&["solve", "--algorithm", "nope"]).is_err());
        assert_eq!(
            config(&["verify", "--keep-columns", "id,status"]).unwrap_err(),
            "--keep-columns status: the output has a column 'status' of its own \
             (line,status,error,original_file,original_line,regions), and two columns of one \
             name cannot be told apart; \
             keep it under another name: --keep-columns status=input_status"
        );
        assert_eq!(
            config(&["solve", "--keep-columns", "id,id"]).unwrap_err(),
            "--keep-columns names 'id' twice"
        );
        assert!(config(&["solve", "a", "--keep-columns", "file"]).is_ok());
        assert!(config(&["solve", "a", "b", "--keep-columns", "file"]).is_err());
        assert!(config(&["solve", "--input-format", "xml"]).is_err());
    }

    #[test]
    fn kept_columns_that_differ_only_in_case_or_blanks_are_one_name() {
        assert_eq!(
            config(&["solve", "--keep-columns", "id,ID"]).unwrap_err(),
            "--keep-columns names 'id' twice (here 'ID': case-insensitive readers of the output, \
             such as DuckDB, take names that differ only in case for one)"
        );
        assert_eq!(
            config(&["solve", "--keep-columns", "id, id"]).unwrap_err(),
            "--keep-columns names 'id' twice (here ' id': the blanks around a name are passed over)"
        );
        let err = config(&["rate", "--keep-columns", "Line,STATUS"]).unwrap_err();
        assert!(
            err.starts_with("--keep-columns Line: the output has a column 'line' of its own (")
                && err.ends_with(
                    "two columns of one name cannot be told apart (here 'line': case-insensitive \
                     readers of the output, such as DuckDB, take names that differ only in case \
                     for one); keep it under another name: --keep-columns Line=input_line"
                ),
            "{err}"
        );
        assert!(config(&["solve", "--keep-columns", "Regions"]).is_err());
        let run = bulk_of(&["solve", "--keep-columns", "solutions=kaggle,id,Regions=r"]);
        assert_eq!(run.pipeline.columns.keep, ["solutions", "id", "Regions"]);
        let renamed: Vec<&str> = run.pipeline.columns.kept_names().collect();
        assert_eq!(renamed, ["kaggle", "id", "r"]);
        assert!(config(&["solve", "--keep-columns", "id,Identity"]).is_ok());
    }
}
