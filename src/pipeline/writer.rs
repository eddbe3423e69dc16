//! The output side of a run: the batches of each chunk written in input order, rows counted by
//! status, records to report handed to the events, progress told after every chunk.

use std::io::{self, Write};

use super::canon::{Dedupe, Verdict};
use super::error::RunError;
use super::pool::Batch;
use super::{Events, RunOutcome};
use crate::files::Input;
use crate::files::digest::Prefix;

/// A chunk's results, ready to write.
pub(super) struct Done {
    pub batches: Vec<Batch>,
    /// Raw input bytes read when the chunk was complete.
    pub read_to: u64,
    /// The input bytes consumed up to the chunk's last record.
    pub consumed: Vec<Prefix>,
}

/// Writes batches in order, counts rows, reports progress.
pub(super) struct OrderedWriter<'a> {
    pub out: &'a mut dyn Write,
    pub name: &'a str,
    pub inputs: &'a [Input],
    pub outcome: RunOutcome,
    pub events: &'a mut dyn Events,
    /// `canon --dedupe`: the classes written so far.
    pub dedupe: Option<Dedupe>,
}

impl OrderedWriter<'_> {
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), RunError> {
        self.out
            .write_all(bytes)
            .map_err(|source| self.write_error(source))
    }

    fn write_error(&self, source: io::Error) -> RunError {
        RunError::Write {
            name: self.name.to_string(),
            source,
        }
    }

    /// Writes the batches of a chunk in order, flushes the output and reports the rows written;
    /// `Ok(true)` when the run was interrupted in the chunk.
    pub fn write_chunk(&mut self, done: Done) -> Result<bool, RunError> {
        let mut interrupted = false;
        for batch in done.batches {
            if self.dedupe.is_some() {
                self.write_first_of_each_class(&batch)?;
            } else {
                self.write(&batch.bytes)?;
            }
            self.outcome.tally += batch.tally;
            if let (Some(part), Some(dataset)) = (&batch.dataset, &mut self.outcome.dataset) {
                // Every batch summary is ungrouped, like the run's.
                dataset
                    .merge(part)
                    .expect("batch summaries are all ungrouped");
            }
            for (source, line, status, reason) in &batch.flagged {
                self.events
                    .flagged(&self.inputs[*source].name, *line, *status, reason);
            }
            match batch.stop {
                None => {}
                Some(RunError::Interrupted) => {
                    interrupted = true;
                    break;
                }
                Some(error) => return Err(error),
            }
        }
        self.out
            .flush()
            .map_err(|source| self.write_error(source))?;
        self.events
            .progress(self.outcome.tally.records(), done.read_to);
        // An interrupted chunk's rows are fewer than the records read: the bytes consumed still
        // cover them, and a resumed run reads at least that far before it writes.
        self.events.flushed(&self.outcome.tally, &done.consumed)?;
        self.outcome.interrupted |= interrupted;
        Ok(interrupted)
    }

    /// Writes the rows of `batch` whose class is new, in order; reports the others.
    fn write_first_of_each_class(&mut self, batch: &Batch) -> Result<(), RunError> {
        let mut start = 0;
        for row in &batch.classes {
            let dedupe = self.dedupe.as_mut().expect("called with --dedupe");
            match dedupe.judge(row)? {
                Verdict::Write => self.write(&batch.bytes[start..row.end])?,
                Verdict::Duplicate { source, line } => self.events.duplicate(
                    &self.inputs[row.source].name,
                    row.line,
                    &self.inputs[source].name,
                    line,
                ),
            }
            start = row.end;
        }
        Ok(())
    }
}
