//! `solve`, `verify`, `canon` and `rate`: the output opened (or resumed), the pipeline run with its
//! progress bar and messages, the summary (and `canon`'s duplicates report) written, the summary
//! line on stderr, and the exit code.

use std::fs::File;
use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::canon::DuplicateReport;
use super::config::BulkRun;
use super::{CommandError, Exit, say};
use crate::files::file_id::RunFiles;
use crate::files::output::sealed_file;
use crate::files::{Output, Source, Target};
use crate::format::escape_controls;
use crate::identity;
use crate::pipeline::{self, Events, Job, RunError, RunOutcome};
use crate::progress::Progress;
use crate::resume::{self, Checkpointer, ResumeError};
use crate::row::{RowStatus, Status, Tally};
use crate::stats;

/// How many problem records are printed to stderr.
const SHOWN: u64 = 10;

/// `solve`, `verify`, `canon` or `rate`: checks the paths, opens (or resumes) the output, runs the
/// pipeline, and completes the run, or keeps what an interrupted one wrote.
pub fn run(run: &BulkRun, interrupt: &AtomicBool) -> Result<Exit, CommandError> {
    let started = Instant::now();
    refuse_clashing_files(run)?;
    let quiet = run.quiet;
    let resume::Prepared {
        output,
        done,
        consumed,
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
    if checkpointer.is_none() {
        output.unresumable();
    }
    let mut session = Session {
        run,
        output,
        done,
        reporter: Reporter {
            progress: Progress::new(
                run.inputs.iter().map(|i| i.size()).sum::<Option<u64>>(),
                !run.quiet,
                done.records(),
            ),
            quiet: run.quiet,
            flagged: 0,
            checkpointer,
            duplicates: run
                .duplicates
                .as_deref()
                .map(|path| DuplicateReport::open(path, run.inputs.len() > 1))
                .transpose()?,
        },
    };
    // The rows of the interrupted run count in the dataset summary too: read back from its
    // partial output, which holds exactly the rows its checkpoint records.
    let summary_before = session.summary_before()?;
    let mut settings = run.pipeline.clone();
    settings.file_metadata = identity::file_metadata(&settings);
    settings.skip_records = done.records();
    settings.consumed = consumed;
    let mut outcome = match session.pipeline(&settings, interrupt) {
        Ok(outcome) => outcome,
        Err(e) if e.is_broken_pipe() => return Ok(reader_went_away(run)),
        Err(e) => return Err(session.failed(e)),
    };
    if outcome.interrupted {
        session.interrupted(&outcome);
        return Ok(Exit::Interrupted);
    }
    outcome.tally += done;
    if let (Some(before), Some(dataset)) = (summary_before, &mut outcome.dataset) {
        dataset
            .merge(&before)
            .expect("both summaries are ungrouped");
    }
    let flagged = session.reporter.flagged;
    match session.complete(&outcome) {
        Err(CommandError::Output(e)) if e.is_broken_pipe() => return Ok(reader_went_away(run)),
        other => other?,
    }
    if !run.quiet {
        print_summary(
            &run.pipeline.job,
            &outcome,
            flagged,
            started,
            done.records(),
        );
    }
    Ok(exit_code(run, &outcome.tally))
}

/// A run whose rows went to a reader that went away (`| head`): it ends quietly with 0, but says
/// which of the files it was asked for it did not write (its summaries, its duplicates).
fn reader_went_away(run: &BulkRun) -> Exit {
    let unwritten: Vec<String> = run
        .summaries
        .iter()
        .chain(&run.duplicates)
        .map(|path| path.to_string_lossy().into_owned())
        .collect();
    if !unwritten.is_empty() {
        say(&format!(
            "the reader of standard output went away, so the run stopped: {} not written",
            match unwritten.as_slice() {
                [one] => format!("{one} was"),
                many => format!("{} were", many.join(", ")),
            }
        ));
    }
    Exit::Success
}

/// Refuses, before any work, two outputs that are one file (`-o`, each summary, `--duplicates`,
/// standard output, and the files a replaced output writes beside it) and an output that is one of the
/// inputs: it would be replaced, or grow as it is read. Every input must open, too.
fn refuse_clashing_files(run: &BulkRun) -> Result<(), CommandError> {
    let mut files = RunFiles::new();
    files.output("-o", &run.output)?;
    for path in &run.summaries {
        files.output("--summary", &Target::Path(path.clone()))?;
    }
    if let Some(path) = &run.duplicates {
        files.output("--duplicates", &Target::Path(path.clone()))?;
    }
    for input in &run.inputs {
        match &input.source {
            Source::File(path) => {
                let cannot_open = |source| RunError::Open {
                    name: input.name.clone(),
                    source,
                };
                // A regular file is opened to show that it can be; a named pipe or a device is
                // only looked at, since opening and closing a pipe would throw away what its
                // writer sent.
                if std::fs::metadata(path).map_err(cannot_open)?.is_file() {
                    File::open(path).map_err(cannot_open)?;
                }
                files.input_path(&input.name, path)?;
            }
            Source::Stdin => files.input(&input.name, None)?,
        }
    }
    files.layout_file(run.layout_file.as_deref())?;
    // The summaries' directories must exist before any work starts.
    for path in &run.summaries {
        drop(Output::open(&Target::Path(path.clone()))?);
    }
    Ok(())
}

/// The exit code of a completed run: 1 when verify found a record that is not `ok`, solve
/// `--strict` one that is not `solved`, or rate `--strict` one that is not `rated`.
fn exit_code(run: &BulkRun, tally: &Tally<RowStatus>) -> Exit {
    let failures = match run.pipeline.job {
        Job::Verify(_) => tally.records() - tally.get(RowStatus::Ok),
        Job::Solve(_) if run.strict => tally.records() - tally.get(RowStatus::Solved),
        Job::Canon(_) | Job::Augment(_) if run.strict => tally.records() - tally.get(RowStatus::Ok),
        Job::Rate(_) if run.strict => tally.records() - tally.get(RowStatus::Rated),
        Job::Solve(_) | Job::Canon(_) | Job::Rate(_) | Job::Augment(_) => 0,
    };
    if failures > 0 {
        Exit::Failures
    } else {
        Exit::Success
    }
}

/// A run under way: its output, the rows an interrupted run left in it, and its reporter.
struct Session<'a> {
    run: &'a BulkRun,
    output: Output,
    /// Rows written by the interrupted run this one resumes, by status.
    done: Tally<RowStatus>,
    reporter: Reporter,
}

impl Session<'_> {
    /// The summary of the rows an interrupted run left, when this run writes a summary.
    fn summary_before(&self) -> Result<Option<stats::Summary>, CommandError> {
        Ok(match self.output.partial_paths() {
            Some(paths) if !self.run.summaries.is_empty() && self.done.records() > 0 => {
                // The bound was kept while those rows were written.
                let canonical = self.run.pipeline.canonical.then_some(u64::MAX);
                let read =
                    stats::grouping::summarise(&[&paths.partial], None, usize::MAX, canonical)?;
                Some(read.summary)
            }
            _ => None,
        })
    }

    /// Runs the pipeline into the output.
    fn pipeline(
        &mut self,
        settings: &pipeline::Settings,
        interrupt: &AtomicBool,
    ) -> Result<RunOutcome, RunError> {
        let name = self.output.name().to_string();
        let result = pipeline::run(
            &self.run.inputs,
            settings,
            self.output.writer(),
            &name,
            &mut self.reporter,
            interrupt,
        );
        self.reporter.progress.finish();
        result
    }

    /// The error that ended the run, said in the words of `--resume` when an input changed
    /// under a resumed run; a resumed run's partial output stays as its last checkpoint
    /// describes it, and that is said.
    fn failed(&self, error: RunError) -> CommandError {
        let Some(checkpointer) = &self.reporter.checkpointer else {
            return error.into();
        };
        if let RunError::InputChanged { name, bytes } = &error {
            return ResumeError::Mismatch {
                path: checkpointer.path().to_string_lossy().into_owned(),
                differences: vec![format!(
                    "input {name} changed (its first {bytes} bytes, which the interrupted run \
                     had read, differ)"
                )],
            }
            .into();
        }
        if self.done.records() > 0 {
            say(&format!(
                "the {} records of the last checkpoint stay in {}: run again with --resume \
                 once the problem is solved",
                checkpointer.recorded(),
                partial_name(&self.output)
            ));
        }
        error.into()
    }

    /// An interrupted run: the rows written are kept (with a checkpoint, to be resumed) or
    /// flushed to the stream they went to, and that is said.
    fn interrupted(mut self, outcome: &RunOutcome) {
        let records = self.done.records() + outcome.tally.records();
        let name = self.output.name().to_string();
        if let Some(checkpointer) = self.reporter.checkpointer.as_mut() {
            let recorded = self
                .output
                .writer()
                .flush()
                .map_err(|source| RunError::Write {
                    name: name.clone(),
                    source,
                })
                .and_then(|()| checkpointer.record(&outcome.tally, &[], true));
            let partial = partial_name(&self.output);
            self.output.keep_partial();
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
        } else if self.output.replaces_file() {
            say(&format!(
                "interrupted after {}; {name} was not written",
                records_word(records)
            ));
        } else {
            // Rows already handed to a stream stay there; flush the rest of them.
            let _ = self.output.finish();
            say(&format!("interrupted after {}", records_word(records)));
        }
    }

    /// Completes the outputs of a finished run: the rows, and the summaries when asked for.
    /// Every one is written whole before any replaces an existing file, so a failure leaves
    /// them all untouched.
    fn complete(mut self, outcome: &RunOutcome) -> Result<(), CommandError> {
        let duplicates = self
            .reporter
            .duplicates
            .take()
            .map(|d| d.seal())
            .transpose()?;
        let rows = self.output.seal()?;
        let mut summaries = Vec::new();
        if let Some(dataset) = &outcome.dataset
            && !self.run.summaries.is_empty()
        {
            // A shard always writes to a file (the command line requires -o).
            let made_from =
                identity::run_info(&self.run.pipeline, &outcome.measured, rows.written_path())
                    .map_err(|source| RunError::Write {
                        name: rows.name().to_string(),
                        source,
                    })?;
            let text = stats::document::to_string_with_run(dataset, Some(&made_from));
            for path in &self.run.summaries {
                summaries.push(sealed_file(path, text.as_bytes())?);
            }
        }
        rows.commit()?;
        for summary in summaries {
            summary.commit()?;
        }
        if let Some(duplicates) = duplicates {
            duplicates.commit()?;
        }
        Ok(())
    }
}

/// `n records`, or `1 record`.
fn records_word(n: u64) -> String {
    super::counted(n, "record", "records")
}

/// The partial file of an output, for messages.
fn partial_name(output: &Output) -> String {
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
    /// `canon --dedupe --duplicates FILE`: the report of the records left out.
    duplicates: Option<DuplicateReport>,
}

impl Events for Reporter {
    fn progress(&mut self, records: u64, input_bytes: u64) {
        self.progress.update(records, input_bytes);
    }

    fn flushed(
        &mut self,
        tally: &Tally<RowStatus>,
        consumed: &[crate::files::digest::Prefix],
    ) -> Result<(), RunError> {
        match &mut self.checkpointer {
            Some(checkpointer) => checkpointer.record(tally, consumed, false),
            None => Ok(()),
        }
    }

    fn checkpoint_due(&self) -> bool {
        self.checkpointer.as_ref().is_some_and(Checkpointer::due)
    }

    fn duplicate(&mut self, file: &str, line: u64, first_file: &str, first_line: u64) {
        if let Some(report) = &mut self.duplicates {
            report.add(file, line, first_file, first_line);
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
fn print_summary(job: &Job, outcome: &RunOutcome, flagged: u64, started: Instant, resumed: u64) {
    let tally = &outcome.tally;
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
        Job::Rate(_) => (
            &[
                RowStatus::Rated,
                RowStatus::Multiple,
                RowStatus::Unsolvable,
                RowStatus::Invalid,
            ],
            &[RowStatus::GaveUp],
        ),
        Job::Canon(_) | Job::Augment(_) => (&[RowStatus::Ok, RowStatus::Invalid], &[]),
    };
    let mut counts: Vec<String> = always
        .iter()
        .chain(when_seen.iter().filter(|s| tally.get(**s) > 0))
        .map(|s| format!("{} {}", tally.get(*s), s.name()))
        .collect();
    if let Some(classes) = outcome.classes {
        let left_out = tally.get(RowStatus::Ok) - classes;
        counts.push(format!(
            "{} written, {} left out",
            super::counted(classes, "class", "classes"),
            super::counted(left_out, "duplicate", "duplicates")
        ));
    }
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
