//! The command line as clap sees it, turned once into a validated [`Config`].

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use clap::builder::PossibleValuesParser;
use clap::{Args, Parser, Subcommand};
use sudoku_bulk::Layout;
use sudoku_bulk::config::{self, BulkRun, Config, ConfigError};
use sudoku_bulk::format::{Columns, InputFormat, OutputFormat};
use sudoku_bulk::input::Input;
use sudoku_bulk::output::Target;
use sudoku_bulk::pipeline::{ChunkSize, Job, Settings, VerifyOptions};
use sudoku_bulk::resume::Checkpoints;
use sudoku_bulk::solver::{Algorithm, SolveOptions};

/// Solve, verify and measure Sudoku puzzles in bulk.
#[derive(Debug, Parser)]
#[command(name = "sudoku-bulk", version, about, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve every puzzle: one result row per record, in input order.
    Solve(SolveArgs),
    /// Check the proposed solution of every record: one row per record, ok, wrong or invalid.
    Verify(VerifyArgs),
}

/// Options shared by the commands that read records.
#[derive(Debug, Args)]
struct InputArgs {
    /// Input files, plain or gzip; `-` or none for standard input. Several are read in order as
    /// one stream.
    #[arg(value_name = "INPUT")]
    inputs: Vec<OsString>,

    /// Read every input in this format instead of detecting it per file.
    #[arg(long, value_name = "FORMAT", value_parser = format_names(InputFormat::ALL.iter().map(|f| f.name())))]
    input_format: Option<String>,

    /// CSV: the puzzle column's name [default: puzzle, quizzes, quiz, question or sudoku].
    #[arg(long, value_name = "NAME")]
    puzzle_column: Option<String>,

    /// CSV: input columns passed through to the output, comma-separated.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    keep_columns: Vec<String>,
}

/// Options shared by the commands that write rows.
#[derive(Debug, Args)]
struct OutputArgs {
    /// Write rows to OUT (replaced only when the run completes) instead of standard output.
    #[arg(short, long = "output", value_name = "OUT")]
    output: Option<PathBuf>,

    /// Output format.
    #[arg(long, value_name = "FORMAT", default_value = "csv",
          value_parser = format_names(OutputFormat::ALL.iter().map(|f| f.name())))]
    output_format: String,

    /// Worker threads [default: one per core].
    #[arg(long, value_name = "N")]
    threads: Option<usize>,

    /// No progress bar, no messages about records, no summary; only errors.
    #[arg(short, long)]
    quiet: bool,

    /// Continue the interrupted run to OUT from its partial output and checkpoint
    /// (OUT.partial, OUT.checkpoint), with the same inputs and options.
    #[arg(long, requires = "output")]
    resume: bool,

    /// Seconds between two checkpoints of a run to OUT; 0: after every chunk of rows.
    #[arg(long, value_name = "SECONDS", default_value = "1", value_parser = config::seconds)]
    checkpoint_every: Duration,
}

#[derive(Debug, Args)]
struct SolveArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,

    /// Stop after N solutions: 2 tells a unique solution (`solved`) from several (`multiple`);
    /// 1 finds a first solution, fastest.
    #[arg(long, value_name = "N", default_value_t = config::DEFAULT_MAX_SOLUTIONS)]
    max_solutions: u64,

    /// Recursion budget per puzzle; a search that needs more gives `gave_up`.
    #[arg(long, value_name = "N", default_value_t = config::DEFAULT_MAX_RECURSIONS)]
    max_recursions: u64,

    /// Search algorithm.
    #[arg(long, value_name = "NAME", default_value = "fast", ignore_case = true,
          value_parser = format_names(Algorithm::ALL.iter().map(|a| a.name())))]
    algorithm: String,

    /// Seed of the algorithms that make random choices.
    #[arg(long, value_name = "N", default_value_t = 0)]
    seed: u64,

    /// Exit with 1 when a record is not `solved`.
    #[arg(long)]
    strict: bool,
}

#[derive(Debug, Args)]
struct VerifyArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,

    /// CSV: the solution column's name [default: solution, solutions or answer].
    #[arg(long, value_name = "NAME")]
    solution_column: Option<String>,

    /// Also require the puzzle to have exactly one solution, the one given.
    #[arg(long)]
    unique: bool,

    /// Recursion budget of the `--unique` search per puzzle.
    #[arg(long, value_name = "N", default_value_t = config::DEFAULT_MAX_RECURSIONS)]
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
                let solve = SolveOptions {
                    algorithm: parse_known(&args.algorithm),
                    max_solutions: config::positive("--max-solutions", args.max_solutions)?,
                    max_recursions: config::positive("--max-recursions", args.max_recursions)?,
                    seed: args.seed,
                };
                bulk(
                    args.input,
                    args.output,
                    None,
                    args.strict,
                    Job::Solve(solve),
                )
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
    Ok(Config::Bulk(BulkRun {
        inputs,
        output: target,
        quiet: output.quiet,
        strict,
        pipeline: Settings {
            job,
            layout: Layout::standard(),
            input_format: input.input_format.as_deref().map(parse_known),
            columns: Columns {
                puzzle: input.puzzle_column,
                solution: solution_column,
                keep: input.keep_columns,
            },
            output_format: parse_known(&output.output_format),
            threads: config::threads(output.threads)?,
            skip_records: 0,
            chunk: ChunkSize::default(),
        },
        checkpoints: Checkpoints {
            resume: output.resume,
            every: output.checkpoint_every,
        },
    }))
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
        let Config::Bulk(run) = config(args).unwrap();
        run
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

    #[test]
    fn resume_options() {
        let run = bulk_of(&["solve", "a.txt", "-o", "out.csv", "--resume"]);
        assert!(run.checkpoints.resume);
        let run = bulk_of(&["verify", "-o", "out.csv", "--checkpoint-every", "0.5"]);
        assert_eq!(run.checkpoints.every, Duration::from_millis(500));
        assert!(config(&["solve", "--resume"]).is_err(), "--resume needs -o");
        assert!(config(&["solve", "-o", "x", "--checkpoint-every", "-1"]).is_err());
        assert!(config(&["solve", "-o", "x", "--checkpoint-every", "soon"]).is_err());
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
        assert!(config(&["solve", "--algorithm", "nope"]).is_err());
        assert!(config(&["solve", "--input-format", "xml"]).is_err());
    }
}
