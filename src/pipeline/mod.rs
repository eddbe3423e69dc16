//! The bulk run: inputs read in chunks, each chunk solved (or verified) on a thread pool, result
//! rows written in input order, with memory bounded by the chunk size.
//!
//! - [`settings`]: what a run is asked to do;
//! - [`feed`]: the inputs as one stream of records, read and hashed chunk by chunk;
//! - [`pool`]: batches of records handled on the thread pool, waited for with a timeout;
//! - [`writer`]: the batches written in input order, rows counted, progress told;
//! - [`solve`](self), [`verify`](self), [`rate`](self) and [`canon`](self) jobs: one record in, one row out
//!   (`canon --dedupe` leaves out, as it writes, the rows of classes already written).
//!
//! The pool holds two chunks at a time: while it works on chunks `n` and `n + 1`, the calling
//! thread waits for `n`, writes its rows and reads chunk `n + 2`, so reading and writing overlap
//! the solving and the pool never drains between chunks. Within a chunk, records are
//! handled in batches; every batch formats its own rows, so the calling thread only copies bytes.
//! The first chunks are smaller (a sixteenth of the chunk size, doubling), so that the pool starts
//! soon. Nothing per record is allocated once the run is going: a handled chunk's records come
//! back to the feed and the next chunk is read into them, and the rows written go back to the row
//! writer ([`format::SpareRows`]) for later batches to format into.
//! Rows come out in input order and every per-record result is a pure function of the record and
//! the settings, so the output is the same byte for byte for any thread count.
//!
//! A run stops early, and cleanly, when the interrupt flag is set: every record finished before
//! the first unfinished one is written, nothing after it. The calling thread never waits on the
//! pool without a timeout: it looks at the flag every [`POLL`], tells the batches to stop before
//! their next record, gives them [`GRACE`] to report, and then returns without the batches that
//! are still busy (a long search under a slow algorithm goes on in the background until it ends,
//! or until the process exits), so an interrupt is served within a fraction of a second whatever
//! the pool is doing.
//!
//! Hooks for resuming and sharding: after every chunk the output is flushed and
//! [`Events::flushed`] is told the rows written so far and the input bytes read for them (a
//! resumable run records its checkpoint there), [`Settings::skip_records`] skips that many
//! records of a restarted run after checking [`Settings::consumed`], and [`Settings::shard`]
//! reads only one shard's records ([`crate::shard`]: every reader takes a [`format::Span`] of
//! record offsets).

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::files::Input;
use crate::files::digest::Prefix;
use crate::format::columns::ColumnKind;
use crate::format::{self, RowWriter};
use crate::row::{RowStatus, Tally};
use crate::shard::Plan;
use crate::stats;

mod augment;
mod canon;
mod error;
mod feed;
#[cfg(feature = "fuzzing")]
pub mod fuzz;
mod memory;
mod pool;
mod rate;
mod settings;
mod solve;
mod verify;
mod writer;

pub use error::{Place, RunError, SolverBug};
pub use memory::{ColumnRun, Next, RecordSource};
pub use pool::{BATCH, GRACE, POLL};
pub use settings::{
    AugmentOptions, CHUNK_RECORDS, CanonOptions, ChunkSize, DEFAULT_MAX_CLASSES, DedupeOptions,
    Job, MAX_COPIES, MAX_THREADS, RatingOptions, Scale, Settings, VerifyOptions,
};
pub use verify::Original;

use feed::Feed;
use pool::{CancelOnDrop, Running, Work};
use writer::{Done, OrderedWriter, Waiting};

/// What a run reports as it goes; called on the thread that called [`run`].
pub trait Events {
    /// Records handled so far (their rows are written in input order, a little later), and
    /// the raw input bytes (as stored, before decompression) read up to the last of them:
    /// between the bytes read at the start and at the end of its chunk, in proportion to the
    /// chunk's records handled, give or take the read-ahead of a buffer. Told after every chunk
    /// and every [`POLL`] while a chunk is handled; `records` never decreases.
    fn progress(&mut self, records: u64, input_bytes: u64);

    /// A record that is not good (`invalid` for solve; anything but `ok` for verify), in input
    /// order.
    fn flagged(&mut self, file: &str, line: u64, status: RowStatus, reason: &str);

    /// Called after every chunk (and when a run is interrupted), once the output has been
    /// flushed: every row counted in `tally` has been handed to it, and `consumed` holds the
    /// digests of the input bytes read for them (a little more: to the end of their chunk).
    /// A resumable run syncs the output and records its checkpoint here; an error ends the run.
    /// The default does nothing.
    fn flushed(&mut self, tally: &Tally<RowStatus>, consumed: &[Prefix]) -> Result<(), RunError> {
        let _ = (tally, consumed);
        Ok(())
    }

    /// Whether a checkpoint is due now: the rows of the batches done are then written (and
    /// [`Events::flushed`] told) before their chunk ends, which a slow chunk takes minutes to
    /// do. The default is never.
    fn checkpoint_due(&self) -> bool {
        false
    }

    /// `canon --dedupe`: a record left out because an earlier one (`first_file`, `first_line`)
    /// is of its class, in input order. The default does nothing.
    fn duplicate(&mut self, file: &str, line: u64, first_file: &str, first_line: u64) {
        let _ = (file, line, first_file, first_line);
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RunOutcome {
    /// Rows written, by status.
    pub tally: Tally<RowStatus>,
    /// Whether the run stopped early because the interrupt flag was set.
    pub interrupted: bool,
    /// The dataset summary of the rows written, when [`Settings::summarise`] asked for one.
    pub dataset: Option<stats::Summary>,
    /// The inputs, each whole (name, decompressed length, digest): a shard's as its plan
    /// measured them ([`crate::shard::Plan::inputs`]), a complete run's as it read them; empty
    /// for a run that ended early.
    pub measured: Vec<Prefix>,
    /// `canon --dedupe`: the classes written (the rows left out are the records counted in
    /// `tally` as `ok` beyond these).
    pub classes: Option<u64>,
}

/// What the inputs add to the columns of the rows, beyond the job and the options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Shape {
    /// Several inputs: rows start with `file`.
    pub several_inputs: bool,
    /// Records carry their own region layouts (a `regions` column): rows end with `regions`.
    pub regions: bool,
    /// verify reads the output of `solve` (its first input has `line` and `status` columns):
    /// rows carry its `line` (and `file`) as `original_line` (and `original_file`).
    pub original: Original,
}

/// The output columns of a run: `file` with several inputs, the job's columns (for verify: the
/// `puzzle` unless columns are kept, and the `original_` columns of a `solve` output), the kept
/// columns, and `regions` when records carry their own region layouts.
pub fn columns(settings: &Settings, shape: &Shape) -> Vec<String> {
    typed_columns(settings, shape)
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

/// The type of each column of [`columns`]: counts (`line`, `solutions`, the search counters)
/// and text (everything else, the `original_` columns too: they are copied as read).
pub fn column_kinds(settings: &Settings, shape: &Shape) -> Vec<ColumnKind> {
    typed_columns(settings, shape)
        .into_iter()
        .map(|(_, kind)| kind)
        .collect()
}

/// The output columns of a run with their types: the one list [`columns`] and
/// [`column_kinds`] read.
fn typed_columns(settings: &Settings, shape: &Shape) -> Vec<(String, ColumnKind)> {
    let table = |names: &[&str], kinds: &[ColumnKind]| -> Vec<(String, ColumnKind)> {
        debug_assert_eq!(names.len(), kinds.len(), "a kind per column");
        names
            .iter()
            .map(|name| name.to_string())
            .zip(kinds.iter().copied())
            .collect()
    };
    let text = |name: &str| (name.to_string(), ColumnKind::Text);
    let fixed = match settings.job {
        Job::Solve(_) => table(solve::COLUMNS, solve::KINDS),
        Job::Verify(_) => {
            let mut fixed = table(verify::COLUMNS, verify::KINDS);
            fixed.extend(
                settings
                    .columns
                    .keep
                    .is_empty()
                    .then(|| text(verify::PUZZLE)),
            );
            fixed.extend(shape.original.columns().iter().map(|name| text(name)));
            fixed
        }
        Job::Rate(options) if options.scale == Scale::Se => table(rate::SE_COLUMNS, rate::SE_KINDS),
        Job::Rate(_) => table(rate::COLUMNS, rate::KINDS),
        Job::Canon(_) => table(canon::COLUMNS, canon::KINDS),
        Job::Augment(_) => table(augment::COLUMNS, augment::KINDS),
    };
    shape
        .several_inputs
        .then(|| text("file"))
        .into_iter()
        .chain(fixed)
        .chain(settings.columns.kept_names().map(text))
        .chain(shape.regions.then(|| text(format::csv::REGIONS_NAME)))
        .collect()
}

/// The worker threads to start: [`Settings::threads`], but no more than there can be batches
/// waiting for them: those of the whole input when it ends within the first chunk, else two
/// chunks' worth (the pool holds two chunks at a time).
fn solving_threads(settings: &Settings, first: &feed::Chunk) -> usize {
    let batches = if first.last {
        first.items.len().div_ceil(BATCH)
    } else {
        settings.chunk.pool_batches()
    };
    settings.threads.min(batches).max(1)
}

/// Reads every input in order, handles every record and writes one row per record to `out`
/// (named `out_name` in messages), stopping early when `interrupt` is set.
///
/// `out` is flushed after every chunk. When the run ends early (interrupted, or an error), batches
/// still busy in the pool are told to stop and left behind; none of their rows is written.
pub fn run(
    inputs: &[Input],
    settings: &Settings,
    out: &mut (dyn Write + Send),
    out_name: &str,
    events: &mut dyn Events,
    interrupt: &AtomicBool,
) -> Result<RunOutcome, RunError> {
    // The first chunk is read before the header is written: whether the records carry their
    // own region layouts (a `regions` column in the first CSV input) decides the columns.
    let plan = settings
        .shard
        .map(|shard| Plan::measure(inputs, shard))
        .transpose()?;
    let measured = plan.as_ref().map_or_else(Vec::new, |p| p.inputs().to_vec());
    let mut feed = Feed::new(inputs, settings, plan);
    let chunk = feed.next_chunk(interrupt)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(solving_threads(settings, &chunk))
        .thread_name(|i| format!("sudoku-bulk-{i}"))
        .build()
        .map_err(|e| RunError::Threads(e.to_string()))?;
    let shape = Shape {
        several_inputs: inputs.len() > 1,
        regions: feed.rows_carry_regions() || settings.columns.regions.is_some(),
        original: feed.original,
    };
    // Rows written go back to the pool, as many as three chunks' batches: two with the pool and
    // one being written.
    if settings.as_input() {
        feed.check_inputs_ahead()?;
    }
    let writer = match &feed.as_input {
        _ if !settings.as_input() => RowWriter::new(
            settings.output_format,
            columns(settings, &shape),
            column_kinds(settings, &shape),
        ),
        Some(first) => RowWriter::verbatim(first.header.clone()),
        // No input was opened: a run that fails at its first, or has none.
        None => RowWriter::verbatim(Vec::new()),
    }
    .keeping_spare(3 * settings.chunk.batches())
    .compressing(settings.parquet_compression);
    let names = inputs.iter().map(|i| i.name.clone()).collect();
    let work = Arc::new(Work::new(settings.clone(), writer, names, shape));
    // Whatever way this function returns, batches still running stop at their next record.
    let _stop_batches = CancelOnDrop(Arc::clone(&work));
    // The header row (or a Parquet file's magic bytes), unless the rows continue an output.
    let sink = work
        .writer
        .start(out, settings.skip_records > 0, &settings.file_metadata)
        .map_err(|source| RunError::Write {
            name: out_name.to_string(),
            source,
        })?
        .sharing(&pool);
    let mut writer = OrderedWriter {
        sink,
        name: out_name,
        inputs,
        // An input without records still has a summary, an empty one.
        outcome: RunOutcome {
            dataset: settings.summarise.then(|| match settings.canonical {
                true => stats::Summary::new().counting_forms(),
                false => stats::Summary::new(),
            }),
            measured,
            ..RunOutcome::default()
        },
        events,
        in_flight: Default::default(),
        told: 0,
        written_to: 0,
        dedupe: match settings.job {
            Job::Canon(CanonOptions {
                dedupe: Some(options),
            }) => Some(canon::Dedupe::new(options)),
            _ => None,
        },
        written_early: 0,
        failure: None,
        max_forms: settings.max_classes,
    };
    // Two chunks are with the pool at a time, so that it never drains between chunks: while it
    // works on chunks `n` and `n + 1`, this thread waits for `n`, reads `n + 2` into its records
    // and hands it over, then writes `n`. An empty chunk ends the inputs.
    // A failure to read stops the reading; it is told once the rows of the chunks with the pool
    // are written, which hold every record read before it.
    let handled = || work.handled.load(Ordering::Relaxed);
    let mut failure = None;
    let mut oldest = hand_over(&mut writer, &work, &pool, Ok(chunk), &mut failure);
    let mut newest = None;
    if oldest.is_some() {
        newest = hand_over(
            &mut writer,
            &work,
            &pool,
            feed.next_chunk(interrupt),
            &mut failure,
        );
    }
    while let Some((running, consumed)) = oldest.take() {
        let (batches, records) = running.wait(
            interrupt,
            &work.cancel,
            &mut Waiting {
                writer: &mut writer,
                handled: &work.handled,
                consumed: &consumed,
            },
        );
        feed.recycle(records);
        oldest = newest.take();
        if oldest.is_some() && failure.is_none() {
            newest = hand_over(
                &mut writer,
                &work,
                &pool,
                feed.next_chunk(interrupt),
                &mut failure,
            );
        }
        let interrupted = writer.write_chunk(Done { batches, consumed })?;
        writer.tick(handled());
        if interrupted {
            return writer.finish();
        }
    }
    if let Some(error) = failure {
        return Err(error);
    }
    writer.outcome.interrupted |= feed.interrupted;
    writer.outcome.classes = writer.dedupe.as_ref().map(canon::Dedupe::classes);
    if writer.outcome.measured.is_empty() && !writer.outcome.interrupted {
        // Every input was read to its end.
        writer.outcome.measured = feed.consumed();
    }
    writer.finish()
}

/// Hands the records of the chunk read to the pool, unless it has none: the chunk running,
/// and the input bytes consumed up to its last record. A failure to read is kept in `failure`,
/// to be told once the rows of the chunks before it are written.
fn hand_over(
    writer: &mut OrderedWriter<'_>,
    work: &Arc<Work>,
    pool: &rayon::ThreadPool,
    read: Result<feed::Chunk, RunError>,
    failure: &mut Option<RunError>,
) -> Option<(Running, Vec<Prefix>)> {
    let chunk = read.map_err(|error| *failure = Some(error)).ok()?;
    (!chunk.items.is_empty()).then(|| {
        writer.started(chunk.items.len() as u64, chunk.read_from, chunk.read_to);
        (Work::start(work, pool, chunk.items), chunk.consumed)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Record;
    use crate::test_data::PUZZLE;
    use pool::guarded;
    use std::sync::atomic::Ordering;
    use std::time::Duration;

    fn settings(threads: usize, chunk: ChunkSize) -> Settings {
        Settings {
            chunk,
            ..crate::test_data::solve_settings(threads)
        }
    }

    #[derive(Default)]
    struct Seen {
        flagged: Vec<(String, u64, RowStatus, String)>,
        last_progress: u64,
        reports: Vec<(u64, u64)>,
    }

    impl Events for Seen {
        fn progress(&mut self, records: u64, bytes: u64) {
            assert!(records >= self.last_progress);
            self.last_progress = records;
            self.reports.push((records, bytes));
        }
        fn flagged(&mut self, file: &str, line: u64, status: RowStatus, reason: &str) {
            self.flagged
                .push((file.to_string(), line, status, reason.to_string()));
        }
    }

    /// A file of `n` records: mostly good, every fifth one too short.
    fn input(dir: &tempfile::TempDir, n: usize) -> Input {
        let text: String = (0..n)
            .map(|i| {
                if i % 5 == 4 {
                    format!("{}\n", &PUZZLE[..i % 80 + 1])
                } else {
                    format!("{PUZZLE}\n")
                }
            })
            .collect();
        let path = dir.path().join("in.txt");
        std::fs::write(&path, text).unwrap();
        Input::file(path)
    }

    fn run_to_string(
        inputs: &[Input],
        settings: &Settings,
        interrupt: bool,
    ) -> (String, RunOutcome, Seen) {
        let mut out = Vec::new();
        let mut events = Seen::default();
        let flag = AtomicBool::new(interrupt);
        let summary = run(inputs, settings, &mut out, "out", &mut events, &flag).unwrap();
        (String::from_utf8(out).unwrap(), summary, events)
    }

    #[test]
    fn rows_keep_input_order_for_any_chunk_size_and_thread_count() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = [input(&dir, 500)];
        let (reference, summary, events) =
            run_to_string(&inputs, &settings(1, ChunkSize::default()), false);
        assert_eq!(summary.tally.records(), 500);
        assert_eq!(summary.tally.get(RowStatus::Invalid), 100);
        assert_eq!(events.last_progress, 500);
        let lines: Vec<u64> = reference
            .lines()
            .skip(1)
            .map(|l| l.split(',').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(lines, (1..=500).collect::<Vec<u64>>());
        for (threads, records, bytes) in [(3, 7, 10_000), (2, 1000, 300), (1, 1, 1)] {
            let chunk = ChunkSize {
                records,
                bytes,
                grow: true,
            };
            let (text, _, other) = run_to_string(&inputs, &settings(threads, chunk), false);
            assert!(text == reference, "threads {threads}, chunk {chunk:?}");
            assert_eq!(other.flagged, events.flagged);
        }
    }

    #[test]
    fn flagged_records_are_reported_in_order_with_their_reason() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = [input(&dir, 10)];
        let (_, _, events) = run_to_string(&inputs, &settings(2, ChunkSize::default()), false);
        let name = inputs[0].name.clone();
        assert_eq!(
            events.flagged,
            vec![
                (
                    name.clone(),
                    5,
                    RowStatus::Invalid,
                    "expected 81 cells, found 5".to_string()
                ),
                (
                    name,
                    10,
                    RowStatus::Invalid,
                    "expected 81 cells, found 10".to_string()
                ),
            ]
        );
    }

    #[test]
    fn skipped_records_and_the_header_are_neither_handled_nor_written() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = [input(&dir, 10)];
        let (whole, _, _) = run_to_string(&inputs, &settings(1, ChunkSize::default()), false);
        let mut s = settings(1, ChunkSize::default());
        s.skip_records = 6;
        let (text, summary, _) = run_to_string(&inputs, &s, false);
        assert_eq!(summary.tally.records(), 4);
        assert!(text.starts_with("7,"), "{text}");
        // The rows continue the first six: together they are the whole output.
        let head: String = whole.split_inclusive('\n').take(7).collect();
        assert_eq!(head + &text, whole);
    }

    #[test]
    fn skipping_runs_across_inputs() {
        let dir = tempfile::tempdir().unwrap();
        let first = input(&dir, 3);
        let path = dir.path().join("second.txt");
        std::fs::write(&path, format!("{PUZZLE}\n{PUZZLE}\n")).unwrap();
        let inputs = [first, Input::file(path)];
        let mut s = settings(2, ChunkSize::default());
        s.skip_records = 4;
        let (text, summary, _) = run_to_string(&inputs, &s, false);
        assert_eq!(summary.tally.records(), 1);
        let expected = format!("{},2,{PUZZLE},", inputs[1].name);
        assert!(text.starts_with(&expected), "{text}");
    }

    #[test]
    fn an_interrupted_run_writes_no_rows_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = [input(&dir, 10)];
        let (text, summary, _) = run_to_string(&inputs, &settings(1, ChunkSize::default()), true);
        assert!(summary.interrupted);
        assert_eq!(summary.tally.records(), 0);
        assert_eq!(text.lines().count(), 1, "only the header: {text}");
    }

    /// A puzzle the `naive` algorithm takes very long over: r9c9 has no candidate, which it
    /// finds only after filling rows 1 to 8 in every possible way.
    const ENDLESS_FOR_NAIVE: &str =
        "........9...............................................................12345678.";

    #[test]
    fn an_interrupt_does_not_wait_for_a_long_search() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.txt");
        // Batch 0 is the long search; batch 1 is quick and done long before the interrupt.
        let text = format!(
            "{ENDLESS_FOR_NAIVE}\n{}",
            format!("{PUZZLE}\n").repeat(BATCH)
        );
        std::fs::write(&path, text).unwrap();
        let mut s = settings(2, ChunkSize::default());
        // About two seconds of search (30 million recursions take 1.5 s in a release build),
        // ten times the grace an interrupted batch gets: had the run waited for it, its row
        // would have been written.
        s.job = Job::Solve(crate::solver::SolveOptions {
            algorithm: crate::solver::Algorithm::Naive,
            max_recursions: 50_000_000,
            ..crate::solver::SolveOptions::default()
        });
        let flag = Arc::new(AtomicBool::new(false));
        let setter = {
            let flag = Arc::clone(&flag);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(300));
                flag.store(true, Ordering::Relaxed);
            })
        };
        let mut out = Vec::new();
        let summary = run(
            &[Input::file(path)],
            &s,
            &mut out,
            "out",
            &mut Seen::default(),
            &flag,
        )
        .unwrap();
        setter.join().unwrap();
        assert!(summary.interrupted);
        assert_eq!(summary.tally.records(), 0);
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), 1);
    }

    /// An input of one chunk in `dir`: a batch of quick puzzles, then a long search (about a
    /// second with the naive algorithm), and the settings that solve it so.
    fn one_slow_chunk(dir: &std::path::Path) -> (std::path::PathBuf, Settings) {
        let path = dir.join("in.txt");
        let text = format!(
            "{}{ENDLESS_FOR_NAIVE}\n",
            format!("{PUZZLE}\n").repeat(BATCH)
        );
        std::fs::write(&path, &text).unwrap();
        let mut s = settings(2, ChunkSize::default());
        s.job = Job::Solve(crate::solver::SolveOptions {
            algorithm: crate::solver::Algorithm::Naive,
            max_recursions: 20_000_000,
            ..crate::solver::SolveOptions::default()
        });
        (path, s)
    }

    #[test]
    fn progress_moves_within_a_chunk() {
        let dir = tempfile::tempdir().unwrap();
        let (path, s) = one_slow_chunk(dir.path());
        let mut events = Seen::default();
        let mut out = Vec::new();
        let flag = AtomicBool::new(false);
        let outcome = run(
            &[Input::file(path.clone())],
            &s,
            &mut out,
            "out",
            &mut events,
            &flag,
        )
        .unwrap();
        assert_eq!(outcome.tally.records(), BATCH as u64 + 1);
        // While the long search went on, the quick batch was reported: the rows are written
        // only when the chunk ends, so a report of just that batch came from within it.
        let within: Vec<&(u64, u64)> = events
            .reports
            .iter()
            .filter(|(records, _)| *records == BATCH as u64)
            .collect();
        assert!(!within.is_empty(), "{:?}", events.reports);
        // The whole file is read with its first record: the bytes of the records handled are
        // placed within the chunk, 64 of its 65 records.
        let size = std::fs::metadata(&path).unwrap().len();
        let expected = size * BATCH as u64 / (BATCH as u64 + 1);
        assert!(
            within.iter().all(|(_, bytes)| *bytes == expected),
            "{within:?}"
        );
        assert_eq!(events.reports.last().map(|r| r.0), Some(BATCH as u64 + 1));
        assert!(events.reports.windows(2).all(|w| w[0].1 <= w[1].1));
    }

    /// Events that want a checkpoint at every look, and note the rows each one covers.
    #[derive(Default)]
    struct Checkpointing {
        flushed: Vec<u64>,
    }

    impl Events for Checkpointing {
        fn progress(&mut self, _: u64, _: u64) {}
        fn flagged(&mut self, _: &str, _: u64, _: RowStatus, _: &str) {}
        fn flushed(
            &mut self,
            tally: &Tally<RowStatus>,
            consumed: &[Prefix],
        ) -> Result<(), RunError> {
            assert!(!consumed.is_empty(), "a checkpoint covers the bytes read");
            self.flushed.push(tally.records());
            Ok(())
        }
        fn checkpoint_due(&self) -> bool {
            true
        }
    }

    #[test]
    fn a_slow_chunk_is_checkpointed_as_its_batches_are_done_not_only_when_it_ends() {
        let dir = tempfile::tempdir().unwrap();
        let (path, s) = one_slow_chunk(dir.path());
        let inputs = [Input::file(path)];
        let flag = AtomicBool::new(false);
        let mut events = Checkpointing::default();
        let mut out = Vec::new();
        let outcome = run(&inputs, &s, &mut out, "out", &mut events, &flag).unwrap();
        assert_eq!(outcome.tally.records(), BATCH as u64 + 1);
        // The quick batch was written and checkpointed while the long search went on (it was
        // told only once the chunk had ended, with both batches).
        assert_eq!(events.flushed, [BATCH as u64, BATCH as u64 + 1]);
        // The same rows as a run that writes them when the chunk ends.
        let (whole, _, _) = run_to_string(&inputs, &s, false);
        assert!(String::from_utf8(out).unwrap() == whole);
    }

    #[test]
    fn a_panic_while_handling_a_record_is_an_error_naming_it() {
        let record = Record {
            line: 3,
            puzzle: b"12\x00".to_vec(),
            ..Record::default()
        };
        let bug = guarded(&record, || -> Result<(), SolverBug> {
            panic!("boom {}", 7)
        })
        .unwrap_err();
        assert_eq!(bug.puzzle, "12\\x00");
        assert_eq!(bug.detail, "panic: boom 7");
        let bug = guarded(&record, || -> Result<(), SolverBug> { panic!("plain") }).unwrap_err();
        assert_eq!(bug.detail, "panic: plain");
        assert_eq!(guarded(&record, || Ok(5)), Ok(5));
    }

    #[test]
    fn columns_follow_the_job_the_inputs_and_the_kept_names() {
        let mut s = settings(1, ChunkSize::default());
        let plain = Shape::default();
        assert_eq!(columns(&s, &plain)[..2], ["line", "puzzle"]);
        s.job = Job::Verify(VerifyOptions {
            unique: false,
            max_recursions: 1,
        });
        assert_eq!(columns(&s, &plain), ["line", "status", "error", "puzzle"]);
        let of_solve = Shape {
            original: Original::LineAndFile,
            ..plain
        };
        assert_eq!(
            columns(&s, &of_solve),
            [
                "line",
                "status",
                "error",
                "puzzle",
                "original_file",
                "original_line"
            ]
        );
        s.columns.keep = vec!["id".into()];
        let several = Shape {
            several_inputs: true,
            original: Original::Line,
            ..plain
        };
        assert_eq!(
            columns(&s, &several),
            ["file", "line", "status", "error", "original_line", "id"]
        );
        let regions = Shape {
            regions: true,
            ..plain
        };
        assert_eq!(
            columns(&s, &regions).last().map(String::as_str),
            Some("regions")
        );
    }
}
