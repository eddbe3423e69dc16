//! Running a command: the output, the pipeline with its progress bar and messages, the summary
//! on stderr, and the exit code.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::config::{BulkRun, Config, PuzzleSource, ShowRun, StatsRun};
use crate::error::RunError;
use crate::exit::Exit;
use crate::fingerprint;
use crate::format::{self, escape_controls};
use crate::input::{Input, Source};
use crate::merge::{self, MergeError};
use crate::output::Target;
use crate::output::{Output, OutputError, write_file};
use crate::pipeline::{self, Events, Job, Summary};
use crate::progress::Progress;
use crate::report;
use crate::resume::{self, Checkpointer, ResumeError};
use crate::row::{RowStatus, Status, Tally};
use crate::stats;
use crate::{Grid, Layout, render};

/// How many problem records are printed to stderr.
const SHOWN: u64 = 10;

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
    /// The output (or the summary) would replace an input.
    #[error("{0} is an input of the run: write the output to another file")]
    OutputIsInput(String),
    /// The run could not start or resume as asked.
    #[error(transparent)]
    Resume(#[from] ResumeError),
}

/// Runs a command; `interrupt` is set by Ctrl-C.
pub fn run(config: Config, interrupt: &AtomicBool) -> Result<Exit, CommandError> {
    match config {
        Config::Bulk(run) => bulk(&run, interrupt),
        Config::Stats(run) => summarise(&run),
        Config::Show(run) => show(&run),
        Config::Merge(run) => {
            let merged = merge::merge(&run)?;
            if !run.quiet {
                say(&merged.to_string());
            }
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

/// `solve` or `verify`.
fn bulk(run: &BulkRun, interrupt: &AtomicBool) -> Result<Exit, CommandError> {
    let started = Instant::now();
    // Every input must open before any work starts, and none may be replaced by the output.
    let written: Vec<&Path> = [&run.output]
        .into_iter()
        .filter_map(|target| match target {
            Target::Path(path) => Some(path.as_path()),
            Target::Stdout => None,
        })
        .chain(run.summary.as_deref())
        .collect();
    for input in &run.inputs {
        if let Source::File(path) = &input.source {
            let file = File::open(path).map_err(|source| RunError::Open {
                name: input.name.clone(),
                source,
            })?;
            if let Some(out) = written.iter().find(|out| same_file(&file, out)) {
                return Err(CommandError::OutputIsInput(out.display().to_string()));
            }
        }
    }
    // The summary's directory must exist before any work starts.
    if let Some(path) = &run.summary {
        drop(Output::open(&Target::Path(path.clone()))?);
    }
    let quiet = run.quiet;
    let resume::Prepared {
        mut output,
        done,
        checkpointer,
    } = resume::prepare(
        &run.output,
        &run.pipeline,
        &run.inputs,
        &run.checkpoints,
        &mut |note| {
            if !quiet {
                say(note)
            }
        },
    )?;
    // The rows of the interrupted run count in the dataset summary too: read back from its
    // partial output, which holds exactly the rows its checkpoint records.
    let summary_before = match (&run.summary, output.partial_paths()) {
        (Some(_), Some(paths)) if done.records() > 0 => {
            Some(stats::read::read_path(&paths.partial, None)?)
        }
        _ => None,
    };
    let mut settings = run.pipeline.clone();
    settings.skip_records = done.records();
    let total_bytes = run.inputs.iter().map(|i| i.size()).sum::<Option<u64>>();
    let mut reporter = Reporter {
        progress: Progress::new(total_bytes, !run.quiet, done.records()),
        quiet: run.quiet,
        flagged: 0,
        checkpointer,
    };
    let name = output.name().to_string();
    let result = pipeline::run(
        &run.inputs,
        &settings,
        output.writer(),
        &name,
        &mut reporter,
        interrupt,
    );
    reporter.progress.finish();
    let mut summary = match result {
        Ok(summary) => summary,
        Err(e) if e.is_broken_pipe() => return Ok(Exit::Success),
        Err(e) => {
            if done.records() > 0
                && let Some(checkpointer) = &reporter.checkpointer
            {
                // A resumed run's partial output stays as its last checkpoint describes it.
                say(&format!(
                    "the {} records of the last checkpoint stay in {}: run again with --resume \
                     once the problem is solved",
                    checkpointer.recorded(),
                    partial_name(&output)
                ));
            }
            return Err(e.into());
        }
    };
    if summary.interrupted {
        let records = done.records() + summary.tally.records();
        if let Some(checkpointer) = reporter.checkpointer.as_mut() {
            let recorded = output
                .writer()
                .flush()
                .map_err(|source| RunError::Write {
                    name: name.clone(),
                    source,
                })
                .and_then(|()| checkpointer.record(&summary.tally, true));
            let partial = partial_name(&output);
            output.keep_partial();
            match recorded {
                Ok(()) => say(&format!(
                    "interrupted after {}, kept in {partial}; to go on, run: {}",
                    records_word(records),
                    resume_command()
                )),
                Err(e) => say(&format!(
                    "interrupted; the last checkpoint could not be written ({e}); the one \
                     before it stays valid: to go on, run: {}",
                    resume_command()
                )),
            }
        } else if output.replaces_file() {
            say(&format!(
                "interrupted after {}; {name} was not written",
                records_word(records)
            ));
        } else {
            // Rows already handed to a stream stay there; flush the rest of them.
            let _ = output.finish();
            say(&format!("interrupted after {}", records_word(records)));
        }
        return Ok(Exit::Interrupted);
    }
    match output.finish() {
        Err(e) if e.is_broken_pipe() => return Ok(Exit::Success),
        other => other?,
    }
    summary.tally += done;
    if let (Some(before), Some(dataset)) = (summary_before, &mut summary.dataset) {
        dataset
            .merge(&before)
            .expect("both summaries are ungrouped");
    }
    if let (Some(path), Some(dataset)) = (&run.summary, &summary.dataset) {
        let made_from = fingerprint::run_info(&run.inputs, &run.pipeline, &run.output)?;
        let text = stats::document::to_string_with_run(dataset, made_from.as_ref());
        write_file(path, text.as_bytes())?;
    }
    if !run.quiet {
        print_summary(
            &run.pipeline.job,
            &summary,
            reporter.flagged,
            started,
            done.records(),
        );
    }
    let tally = &summary.tally;
    let failures = match run.pipeline.job {
        Job::Verify(_) => tally.records() - tally.get(RowStatus::Ok),
        Job::Solve(_) if run.strict => tally.records() - tally.get(RowStatus::Solved),
        Job::Solve(_) => 0,
    };
    Ok(if failures > 0 {
        Exit::Failures
    } else {
        Exit::Success
    })
}

/// `stats`: summarise result files; a table (or JSON) on stdout, an HTML page on request.
fn summarise(run: &StatsRun) -> Result<Exit, CommandError> {
    let summary = stats::read::read_paths(&run.inputs, run.by.as_deref())?;
    if let Some(path) = &run.html {
        let names: Vec<String> = run.inputs.iter().map(|p| p.display().to_string()).collect();
        let page = report::html::render(&summary, &names.join(", "))?;
        write_file(path, page.as_bytes())?;
    }
    let text = if run.json {
        stats::document::to_string(&summary)
    } else {
        report::text::render(&summary)
    };
    print(&text)?;
    Ok(Exit::Success)
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

/// `show`: one puzzle, solved and explained on stdout. Exit 1 when its givens conflict.
fn show(run: &ShowRun) -> Result<Exit, CommandError> {
    let (text, own_regions) = match &run.puzzle {
        PuzzleSource::Text(text) => (text.clone(), None),
        PuzzleSource::Stdin => first_record_of_stdin()?,
    };
    let puzzle = Grid::parse(&text).map_err(|e| CommandError::Puzzle(format!("puzzle: {e}")))?;
    let layout = match own_regions {
        Some(regions) => {
            Layout::parse(&regions).map_err(|e| CommandError::Puzzle(e.to_string()))?
        }
        None => run.layout.clone(),
    };
    let shown = render::show(
        &puzzle,
        &layout,
        &run.options,
        &render::ShowOptions {
            trace: run.trace,
            max_trace_lines: run.max_trace_lines,
        },
    );
    print(&shown.text)?;
    Ok(if shown.outcome.is_err() {
        Exit::Failures
    } else {
        Exit::Success
    })
}

/// The first record of standard input, in whatever input format it is: its puzzle text and
/// its own region layout, if it has one.
fn first_record_of_stdin() -> Result<(Vec<u8>, Option<Vec<u8>>), CommandError> {
    let input = Input::stdin();
    let read_error = |e: io::Error| RunError::Read {
        name: input.name.clone(),
        line: 0,
        source: e,
    };
    let opened = input.open(Default::default()).map_err(read_error)?;
    let format = format::detect(None, &opened.head);
    let mut reader = format::reader(format, opened.reader, &format::ReadOptions::default())
        .map_err(|e| CommandError::Puzzle(format!("{}: {e}", input.name)))?;
    let record = reader
        .next_record()
        .map_err(read_error)?
        .ok_or_else(|| CommandError::Puzzle("no puzzle on standard input".to_string()))?;
    if let Some(defect) = record.defect {
        return Err(CommandError::Puzzle(format!(
            "{}:{}: {defect}",
            input.name, record.line
        )));
    }
    Ok((record.puzzle, record.regions))
}

/// Whether `path` names the regular file open as `file` (a device such as `/dev/null` may be
/// both read and written).
fn same_file(file: &File, path: &Path) -> bool {
    let (Ok(a), Ok(b)) = (file.metadata(), std::fs::metadata(path)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.is_file() && a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        false
    }
}

/// `n records`, or `1 record`.
fn records_word(n: u64) -> String {
    if n == 1 {
        "1 record".to_string()
    } else {
        format!("{n} records")
    }
}

/// The partial file of an output, for messages.
fn partial_name(output: &crate::output::Output) -> String {
    output
        .partial_paths()
        .map_or_else(String::new, |p| p.partial.to_string_lossy().into_owned())
}

/// The command line of this run with `--resume`, quoted for a POSIX shell where needed.
fn resume_command() -> String {
    let mut args: Vec<String> = std::env::args_os()
        .map(|a| shell_quote(&a.to_string_lossy()))
        .collect();
    if !args.iter().any(|a| a == "--resume") {
        args.push("--resume".to_string());
    }
    args.join(" ")
}

/// `word` as a POSIX shell reads it back: as it is when it holds only safe characters, else in
/// single quotes.
fn shell_quote(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Shows progress and the first problem records.
struct Reporter {
    progress: Progress,
    quiet: bool,
    flagged: u64,
    /// Records checkpoints, when the run can be resumed.
    checkpointer: Option<Checkpointer>,
}

impl Events for Reporter {
    fn progress(&mut self, records: u64, input_bytes: u64) {
        self.progress.update(records, input_bytes);
    }

    fn flushed(&mut self, tally: &Tally<RowStatus>) -> Result<(), RunError> {
        match &mut self.checkpointer {
            Some(checkpointer) => checkpointer.record(tally, false),
            None => Ok(()),
        }
    }

    fn flagged(&mut self, file: &str, line: u64, _status: RowStatus, reason: &str) {
        self.flagged += 1;
        if !self.quiet && self.flagged <= SHOWN {
            let file = escape_controls(file);
            let reason = escape_controls(reason);
            self.progress.suspend(|| {
                let _ = writeln!(io::stderr().lock(), "{file}:{line}: {reason}");
            });
        }
    }
}

/// The summary line: records, elapsed time, rate, and the count of every status of the job;
/// `resumed` of the records were written by the interrupted run this one resumed.
fn print_summary(job: &Job, summary: &Summary, flagged: u64, started: Instant, resumed: u64) {
    let tally = &summary.tally;
    let (always, when_seen): (&[RowStatus], &[RowStatus]) = match job {
        Job::Solve(_) => (
            &[
                RowStatus::Solved,
                RowStatus::Multiple,
                RowStatus::Unsolvable,
                RowStatus::Invalid,
                RowStatus::GaveUp,
            ],
            &[RowStatus::Stuck],
        ),
        Job::Verify(_) => (
            &[RowStatus::Ok, RowStatus::Wrong, RowStatus::Invalid],
            &[RowStatus::GaveUp],
        ),
    };
    let counts: Vec<String> = always
        .iter()
        .chain(when_seen.iter().filter(|s| tally.get(**s) > 0))
        .map(|s| format!("{} {}", tally.get(*s), s.name()))
        .collect();
    let seconds = started.elapsed().as_secs_f64();
    let rate = if seconds > 0.0 {
        (tally.records() - resumed) as f64 / seconds
    } else {
        0.0
    };
    let resumed = if resumed > 0 {
        format!(" ({resumed} of them by the interrupted run)")
    } else {
        String::new()
    };
    say(&format!(
        "{}{resumed} in {seconds:.2} s ({rate:.0} puzzles/s): {}",
        records_word(tally.records()),
        counts.join(", ")
    ));
    if flagged > SHOWN {
        say(&format!(
            "{} more records with problems are not shown above (see the output's error column)",
            flagged - SHOWN
        ));
    }
}
