//! The output side of a run: the batches of each chunk written in input order, rows counted by
//! status, records to report handed to the events, progress told as records are handled.

use std::collections::VecDeque;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

use super::canon::Dedupe;
use super::error::RunError;
use super::pool::{Batch, Waiter};
use super::{Events, RunOutcome};
use crate::files::Input;
use crate::files::digest::Prefix;
use crate::format::{Rows, Sink};

/// A chunk's results, ready to write.
pub(super) struct Done {
    pub batches: Vec<Batch>,
    /// The input bytes consumed up to the chunk's last record.
    pub consumed: Vec<Prefix>,
}

/// The calling thread while it waits for a chunk: it tells the progress, and encodes what
/// the output has ready to encode (a Parquet row group's columns).
pub(super) struct Waiting<'w, 'a> {
    pub writer: &'w mut OrderedWriter<'a>,
    /// Records handled by the pool so far.
    pub handled: &'w AtomicU64,
    /// The input bytes consumed up to the last record of the chunk waited for.
    pub consumed: &'w [Prefix],
}

impl Waiter for Waiting<'_, '_> {
    fn tick(&mut self) {
        self.writer.tick(self.handled.load(Ordering::Relaxed));
    }

    fn help(&mut self) -> bool {
        self.writer.sink.help()
    }

    /// A checkpoint is due ([`Events::checkpoint_due`]) while a slow chunk is handled: the
    /// rows of its batches done so far are written now, so that it covers them.
    fn wants_batches(&mut self) -> bool {
        self.writer.failure.is_none() && self.writer.events.checkpoint_due()
    }

    fn batches(&mut self, batches: Vec<Batch>) {
        self.writer.write_early(batches, self.consumed);
    }
}

/// Writes batches in order, counts rows, reports progress.
pub(super) struct OrderedWriter<'a> {
    pub sink: Sink<'a>,
    pub name: &'a str,
    pub inputs: &'a [Input],
    pub outcome: RunOutcome,
    pub events: &'a mut dyn Events,
    /// The chunks handed to the pool and not yet written, in order.
    pub in_flight: VecDeque<InFlight>,
    /// The most records told to the events.
    pub told: u64,
    /// The raw input bytes read when the last chunk written was complete.
    pub written_to: u64,
    /// `canon --dedupe`: the classes written so far.
    pub dedupe: Option<Dedupe>,
    /// Records of the oldest chunk in flight written before it ended ([`Waiter::batches`]).
    pub written_early: u64,
    /// A failure while writing rows before their chunk ended, told when the chunk is written.
    pub failure: Option<RunError>,
    /// `--canonical`: the most distinct forms the dataset summary counts.
    pub max_forms: u64,
}

/// A chunk handed to the pool: its records and the raw input bytes read before and after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct InFlight {
    pub records: u64,
    pub read_from: u64,
    pub read_to: u64,
}

/// The raw input bytes up to the `handled`-th record after the last one written (read when
/// `written_to` bytes were), when the chunks `in_flight` follow: the records handled are taken
/// to be the first ones (the pool takes its batches in order), and each chunk's bytes shared
/// evenly among its records.
fn bytes_at(in_flight: &VecDeque<InFlight>, mut handled: u64, written_to: u64) -> u64 {
    let mut at = written_to;
    for chunk in in_flight {
        if handled >= chunk.records {
            handled -= chunk.records;
            at = at.max(chunk.read_to);
        } else {
            let from = at.max(chunk.read_from);
            let span = chunk.read_to.saturating_sub(from);
            let share = u128::from(span) * u128::from(handled) / u128::from(chunk.records);
            return from + share as u64;
        }
    }
    at
}

impl<'a> OrderedWriter<'a> {
    /// Ends the output (a Parquet file's footer) and returns how the run went.
    pub fn finish(self) -> Result<RunOutcome, RunError> {
        let name = self.name.to_string();
        self.sink
            .finish()
            .map_err(|source| RunError::Write { name, source })?;
        Ok(self.outcome)
    }

    /// Notes a chunk handed to the pool.
    pub fn started(&mut self, records: u64, read_from: u64, read_to: u64) {
        self.in_flight.push_back(InFlight {
            records,
            read_from,
            read_to,
        });
    }

    /// Tells the events the records handled so far (`handled`, never fewer than told before)
    /// and where in the input they are.
    pub fn tick(&mut self, handled: u64) {
        let written = self.outcome.tally.records();
        let records = handled.max(self.told).max(written);
        // The oldest chunk in flight starts `written_early` records before the last written.
        let bytes = bytes_at(
            &self.in_flight,
            records - written + self.written_early,
            self.written_to,
        );
        self.told = records;
        self.events.progress(records, bytes);
    }

    fn write_error(&self, source: io::Error) -> RunError {
        RunError::Write {
            name: self.name.to_string(),
            source,
        }
    }

    /// Writes the batches of a chunk done before it ended (none of them stopped early), flushes
    /// the output and tells the events, which record a checkpoint: a chunk of slow records (a
    /// `rate` of hard puzzles takes minutes) is not lost whole when the process is killed. A
    /// failure is kept for [`OrderedWriter::write_chunk`] to return.
    pub fn write_early(&mut self, batches: Vec<Batch>, consumed: &[Prefix]) {
        let records: u64 = batches.iter().map(|b| b.tally.records()).sum();
        let written = self
            .write_batches(batches)
            .and_then(|interrupted| {
                debug_assert!(!interrupted, "a batch that stopped early is not taken");
                self.sink.flush().map_err(|source| self.write_error(source))
            })
            .and_then(|()| {
                self.written_early += records;
                self.events.flushed(&self.outcome.tally, consumed)
            });
        if let Err(failure) = written {
            self.failure = Some(failure);
        }
    }

    /// Writes the batches of a chunk in order (those not written before it ended), flushes the
    /// output and reports the rows written; `Ok(true)` when the run was interrupted in the
    /// chunk.
    pub fn write_chunk(&mut self, done: Done) -> Result<bool, RunError> {
        if let Some(failure) = self.failure.take() {
            return Err(failure);
        }
        let interrupted = self.write_batches(done.batches)?;
        self.sink
            .flush()
            .map_err(|source| self.write_error(source))?;
        if let Some(chunk) = self.in_flight.pop_front() {
            self.written_to = self.written_to.max(chunk.read_to);
        }
        self.written_early = 0;
        // An interrupted chunk's rows are fewer than the records read: the bytes consumed still
        // cover them, and a resumed run reads at least that far before it writes.
        self.events.flushed(&self.outcome.tally, &done.consumed)?;
        self.outcome.interrupted |= interrupted;
        Ok(interrupted)
    }

    /// Writes batches in order, up to the first that stopped early; `Ok(true)` when that one
    /// was interrupted.
    fn write_batches(&mut self, batches: Vec<Batch>) -> Result<bool, RunError> {
        let mut interrupted = false;
        for mut batch in batches {
            if self.dedupe.is_some() {
                // The rows kept are written (a copy, for columns); the batch's go back.
                self.write_first_of_each_class(&batch)?;
                self.sink.done_with(std::mem::take(&mut batch.rows));
            } else {
                self.sink
                    .write(std::mem::take(&mut batch.rows))
                    .map_err(|source| self.write_error(source))?;
            }
            self.outcome.tally += batch.tally;
            if let (Some(part), Some(dataset)) = (&batch.dataset, &mut self.outcome.dataset) {
                // Every batch summary is ungrouped, like the run's.
                dataset
                    .merge(part)
                    .expect("batch summaries are all ungrouped");
                // The set grows by a batch at a time: at most 64 forms past the bound.
                if dataset
                    .canonical()
                    .is_some_and(|forms| forms.distinct() > self.max_forms)
                {
                    return Err(RunError::TooManyForms {
                        limit: self.max_forms,
                    });
                }
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
        Ok(interrupted)
    }

    /// Writes the rows of `batch` whose class is new, in order; reports the others. A row's
    /// `end` is a byte offset in text rows, a row count in columns (Parquet), whose rows kept
    /// are gathered into one batch.
    fn write_first_of_each_class(&mut self, batch: &Batch) -> Result<(), RunError> {
        let (events, inputs) = (&mut *self.events, &self.inputs);
        let dedupe = self.dedupe.as_mut().expect("called with --dedupe");
        let runs = dedupe.runs(&batch.classes, |row, source, line| {
            events.duplicate(
                &inputs[row.source].name,
                row.line,
                &inputs[source].name,
                line,
            )
        })?;
        let written = match &batch.rows {
            Rows::Columns(columns) => {
                let mut kept = columns.empty_like();
                for run in runs {
                    kept.append_rows(columns, run);
                }
                self.sink.write(Rows::Columns(kept))
            }
            Rows::Text(_) => runs
                .into_iter()
                .try_for_each(|run| self.sink.write_text_range(&batch.rows, run)),
        };
        written.map_err(|source| self.write_error(source))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(records: u64, read_from: u64, read_to: u64) -> InFlight {
        InFlight {
            records,
            read_from,
            read_to,
        }
    }

    #[test]
    fn bytes_move_within_a_chunk_in_proportion_to_its_records() {
        let flight: VecDeque<InFlight> = [chunk(100, 1000, 2000), chunk(50, 2000, 2500)].into();
        assert_eq!(bytes_at(&flight, 0, 0), 1000);
        assert_eq!(bytes_at(&flight, 25, 0), 1250);
        assert_eq!(bytes_at(&flight, 100, 0), 2000);
        assert_eq!(bytes_at(&flight, 110, 0), 2100);
        assert_eq!(bytes_at(&flight, 150, 0), 2500);
        // Never behind what is already written, never past a chunk's end.
        assert_eq!(bytes_at(&[chunk(10, 0, 100)].into(), 5, 70), 85);
        assert_eq!(bytes_at(&VecDeque::new(), 3, 700), 700);
    }
}
