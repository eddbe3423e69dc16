//! The bulk run: inputs read in chunks, each chunk solved (or verified) on a thread pool, result
//! rows written in input order, with memory bounded by the chunk size.
//!
//! The pool holds two chunks at a time: while it works on chunks `n` and `n + 1`, the calling
//! thread waits for `n`, writes its rows and reads chunk `n + 2`, so reading and writing overlap
//! the solving and the pool never drains between chunks. Within a chunk, records are
//! handled in batches; every batch formats its own rows, so the calling thread only copies bytes.
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
//! [`Events::flushed`] is told the rows written so far (a resumable run records its checkpoint
//! there), [`Settings::skip_records`] skips that many records of a restarted run, and
//! [`Settings::shard`] reads only one shard's records ([`crate::shard`]: every reader takes a
//! [`format::Span`] of record offsets).

use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::error::{RunError, SolverBug};
use crate::format::{
    self, Cell, Columns, InputFormat, OutputFormat, ReadOptions, Record, RecordReader, RowWriter,
};
use crate::input::Input;
use crate::layout::Layout;
use crate::shard::{Plan, Shard};
use crate::solver::SolveOptions;
use crate::stats;

#[cfg(feature = "fuzzing")]
pub mod fuzz;
mod solve;
mod verify;

pub use crate::row::RowStatus;
use crate::row::Tally;

/// What to do with each record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Job {
    /// Solve the puzzle.
    Solve(SolveOptions),
    /// Check the proposed solution.
    Verify(VerifyOptions),
}

/// How `verify` checks a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VerifyOptions {
    /// Also require the puzzle to have exactly one solution (found by the solver, limit 2).
    pub unique: bool,
    /// The recursion budget of that uniqueness search.
    pub max_recursions: u64,
}

/// How many records a chunk holds at most, by count and by bytes of record text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChunkSize {
    /// Records per chunk.
    pub records: usize,
    /// Bytes of record text per chunk (puzzle, solution and kept fields).
    pub bytes: usize,
}

impl Default for ChunkSize {
    fn default() -> Self {
        ChunkSize {
            records: 8192,
            bytes: 2 << 20,
        }
    }
}

/// Records per batch: the unit of work of one pool task and of interruption.
const BATCH: usize = 64;

/// How often the calling thread looks at the interrupt flag while it waits for the pool.
pub const POLL: Duration = Duration::from_millis(50);

/// How long batches get, once interrupted, to finish the record they are on and report.
pub const GRACE: Duration = Duration::from_millis(250);

/// How many records are skipped between two looks at the interrupt flag.
const SKIP_POLL: u64 = 4096;

/// Everything a run needs besides its inputs and output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// What to do with each record.
    pub job: Job,
    /// The regions of the puzzles.
    pub layout: Layout,
    /// The input format, or `None` to detect it per input.
    pub input_format: Option<InputFormat>,
    /// CSV column choices.
    pub columns: Columns,
    /// The output format.
    pub output_format: OutputFormat,
    /// Worker threads.
    pub threads: usize,
    /// Records to skip (read but neither handled nor written) at the start of the inputs, across
    /// input boundaries. When it is not zero the header row is not written either: the run
    /// continues an earlier output, which has it.
    pub skip_records: u64,
    /// Whether to build a dataset summary ([`crate::stats::Summary`]) of the rows (solve).
    pub summarise: bool,
    /// The chunk size.
    pub chunk: ChunkSize,
    /// Handle only the records of this shard of the inputs ([`crate::shard`]); `None`: all.
    pub shard: Option<Shard>,
}

/// What a run reports as it goes; called on the thread that called [`run`].
pub trait Events {
    /// Rows written so far, and the raw input bytes (as stored, before decompression) read up
    /// to the last of them, give or take the read-ahead of a buffer.
    fn progress(&mut self, records: u64, input_bytes: u64);

    /// A record that is not good (`invalid` for solve; anything but `ok` for verify), in input
    /// order.
    fn flagged(&mut self, file: &str, line: u64, status: RowStatus, reason: &str);

    /// Called after every chunk (and when a run is interrupted), once the output has been
    /// flushed: every row counted in `tally` has been handed to it. A resumable run syncs the
    /// output and records its checkpoint here; an error ends the run. The default does nothing.
    fn flushed(&mut self, tally: &Tally<RowStatus>) -> Result<(), RunError> {
        let _ = tally;
        Ok(())
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Summary {
    /// Rows written, by status.
    pub tally: Tally<RowStatus>,
    /// Whether the run stopped early because the interrupt flag was set.
    pub interrupted: bool,
    /// The dataset summary of the rows written, when [`Settings::summarise`] asked for one.
    pub dataset: Option<stats::Summary>,
}

/// The output columns of a run: `file` with several inputs, the job's columns, the kept
/// columns, and `regions` when records carry their own region layouts.
pub fn columns(settings: &Settings, several_inputs: bool, regions: bool) -> Vec<String> {
    let fixed = match settings.job {
        Job::Solve(_) => solve::COLUMNS,
        Job::Verify(_) => verify::COLUMNS,
    };
    several_inputs
        .then_some("file")
        .into_iter()
        .chain(fixed.iter().copied())
        .map(str::to_string)
        .chain(settings.columns.keep.iter().cloned())
        .chain(regions.then(|| format::csv::REGIONS_NAME.to_string()))
        .collect()
}

/// Reads every input in order, handles every record and writes one row per record to `out`
/// (named `out_name` in messages), stopping early when `interrupt` is set.
///
/// `out` is flushed after every chunk. When the run ends early (interrupted, or an error), batches
/// still busy in the pool are told to stop and left behind; none of their rows is written.
pub fn run(
    inputs: &[Input],
    settings: &Settings,
    out: &mut dyn Write,
    out_name: &str,
    events: &mut dyn Events,
    interrupt: &AtomicBool,
) -> Result<Summary, RunError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads)
        .thread_name(|i| format!("sudoku-bulk-{i}"))
        .build()
        .map_err(|e| RunError::Threads(e.to_string()))?;
    // The first chunk is read before the header is written: whether the records carry their
    // own region layouts (a `regions` column in the first CSV input) decides the columns.
    let plan = settings
        .shard
        .map(|shard| Plan::measure(inputs, shard))
        .transpose()?;
    let mut feed = Feed::new(inputs, settings, plan);
    let mut chunk = feed.next_chunk(interrupt)?;
    let regions = feed.regions || settings.columns.regions.is_some();
    let work = Arc::new(Work {
        settings: settings.clone(),
        writer: RowWriter::new(
            settings.output_format,
            columns(settings, inputs.len() > 1, regions),
        ),
        names: inputs.iter().map(|i| i.name.clone()).collect(),
        regions,
        cancel: AtomicBool::new(false),
    });
    // Whatever way this function returns, batches still running stop at their next record.
    let _stop_batches = CancelOnDrop(Arc::clone(&work));
    let mut sink = Sink {
        out,
        name: out_name,
        inputs,
        // An input without records still has a summary, an empty one.
        summary: Summary {
            dataset: settings.summarise.then(stats::Summary::new),
            ..Summary::default()
        },
        events,
    };
    if settings.skip_records == 0 {
        let mut header = Vec::new();
        work.writer.header(&mut header);
        sink.write(&header)?;
    }

    // Two chunks are with the pool at a time, so that it never drains between chunks: while it
    // works on chunks `n` and `n + 1`, this thread waits for `n`, writes it and reads `n + 2`.
    let mut previous: Option<(Running, u64)> = None;
    loop {
        let started = (!chunk.items.is_empty()).then(|| {
            let read_to = chunk.read_to;
            (
                Work::start(&work, &pool, std::mem::take(&mut chunk.items)),
                read_to,
            )
        });
        if let Some((running, read_to)) = previous.take() {
            let done = Done {
                batches: running.wait(interrupt, &work.cancel),
                read_to,
            };
            if sink.write_chunk(done)? {
                return Ok(sink.summary);
            }
        }
        let Some(current) = started else { break };
        previous = Some(current);
        chunk = feed.next_chunk(interrupt)?;
    }
    sink.summary.interrupted |= feed.interrupted;
    Ok(sink.summary)
}

/// The layout of a record: its own (`regions` column) or the run's.
fn record_layout<'a>(
    record: &Record,
    run_layout: &'a Layout,
) -> Result<std::borrow::Cow<'a, Layout>, crate::layout::LayoutError> {
    match &record.regions {
        Some(text) => Layout::parse(text).map(std::borrow::Cow::Owned),
        None => Ok(std::borrow::Cow::Borrowed(run_layout)),
    }
}

/// Sets the cancel flag of the batches when dropped.
struct CancelOnDrop(Arc<Work>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel.store(true, Ordering::Relaxed);
    }
}

/// A record and the index of its input.
struct Item {
    source: usize,
    record: Record,
}

/// Records read together.
#[derive(Default)]
struct Chunk {
    items: Vec<Item>,
    /// Raw input bytes read when the chunk was complete.
    read_to: u64,
}

/// A chunk's results, ready to write.
struct Done {
    batches: Vec<Batch>,
    read_to: u64,
}

/// The inputs as one stream of records, read chunk by chunk.
struct Feed<'a> {
    inputs: &'a [Input],
    settings: &'a Settings,
    options: ReadOptions,
    raw_bytes: Arc<AtomicU64>,
    /// The input being read and its reader.
    current: Option<(usize, Box<dyn RecordReader>)>,
    /// The next input to open.
    next_input: usize,
    to_skip: u64,
    /// Whether reading stopped because the interrupt flag was set.
    interrupted: bool,
    /// Whether a reader opened so far gives records their own region layouts.
    regions: bool,
    /// The part of each input to read, when sharded.
    plan: Option<Plan>,
}

impl<'a> Feed<'a> {
    fn new(inputs: &'a [Input], settings: &'a Settings, plan: Option<Plan>) -> Self {
        let options = ReadOptions {
            want_solution: matches!(settings.job, Job::Verify(_)),
            columns: settings.columns.clone(),
            span: format::Span::default(),
        };
        Feed {
            inputs,
            settings,
            options,
            raw_bytes: Arc::new(AtomicU64::new(0)),
            current: None,
            next_input: 0,
            to_skip: settings.skip_records,
            interrupted: false,
            regions: false,
            plan,
        }
    }

    /// The next chunk of records; empty at the end of the inputs or when interrupted.
    fn next_chunk(&mut self, interrupt: &AtomicBool) -> Result<Chunk, RunError> {
        let limit = self.settings.chunk;
        let mut chunk = Vec::new();
        let mut bytes = 0;
        if interrupt.load(Ordering::Relaxed) {
            self.interrupted = true;
            return Ok(Chunk::default());
        }
        while chunk.len() < limit.records && bytes < limit.bytes {
            let Some(item) = self.next_item()? else {
                break;
            };
            if self.to_skip > 0 {
                self.to_skip -= 1;
                // Skipping millions of records takes a while: stay interruptible.
                if self.to_skip.is_multiple_of(SKIP_POLL) && interrupt.load(Ordering::Relaxed) {
                    self.interrupted = true;
                    return Ok(Chunk::default());
                }
                continue;
            }
            bytes += item.record.text_len();
            chunk.push(item);
        }
        Ok(Chunk {
            items: chunk,
            read_to: self.raw_bytes.load(Ordering::Relaxed),
        })
    }

    fn next_item(&mut self) -> Result<Option<Item>, RunError> {
        loop {
            let (source, reader) = match &mut self.current {
                Some(current) => current,
                None => {
                    let Some(input) = self.inputs.get(self.next_input) else {
                        return Ok(None);
                    };
                    let reader = self.open(input, self.next_input)?;
                    self.regions |= reader.has_regions();
                    self.current.insert((self.next_input, reader))
                }
            };
            let source = *source;
            match reader.next_record() {
                Ok(Some(record)) => return Ok(Some(Item { source, record })),
                Ok(None) => {
                    self.current = None;
                    self.next_input += 1;
                }
                Err(e) => {
                    return Err(RunError::Read {
                        name: self.inputs[source].name.clone(),
                        line: reader.position().line.saturating_sub(1),
                        source: e,
                    });
                }
            }
        }
    }

    fn open(&self, input: &Input, index: usize) -> Result<Box<dyn RecordReader>, RunError> {
        let opened = input
            .open(self.raw_bytes.clone())
            .map_err(|source| RunError::Open {
                name: input.name.clone(),
                source,
            })?;
        let format = self
            .settings
            .input_format
            .unwrap_or_else(|| format::detect(input.path(), &opened.head));
        let options = ReadOptions {
            span: self
                .plan
                .as_ref()
                .map_or(self.options.span, |p| p.span(index)),
            ..self.options.clone()
        };
        format::reader(format, opened.reader, &options).map_err(|e| match e {
            format::ReaderError::Io(source) => RunError::Read {
                name: input.name.clone(),
                line: 0,
                source,
            },
            format::ReaderError::Header(source) => RunError::Format {
                name: input.name.clone(),
                source,
            },
        })
    }
}

/// What the pool needs to handle records; shared with the pool's tasks, which may outlive a run
/// that ended early.
struct Work {
    settings: Settings,
    writer: RowWriter,
    /// The inputs' names, for the `file` column and messages.
    names: Vec<String>,
    /// Whether rows end with the record's `regions` column.
    regions: bool,
    /// Set when the run no longer wants rows: batches stop before their next record.
    cancel: AtomicBool,
}

/// A chunk being handled by the pool: each batch is a job of its own that puts its result in its
/// slot; the last job to end wakes the calling thread (one wake-up per chunk, not per batch).
/// Separate jobs, not a parallel iterator: a worker blocked in a `join` may run other jobs, and
/// with a chunk always queued behind the one being handled, chunks would nest on its stack.
struct Running(Arc<Results>);

/// The results of a chunk's batches, as they arrive.
struct Results {
    state: Mutex<Slots>,
    /// Signalled when every job has ended.
    ready: Condvar,
    /// The number of batches.
    count: usize,
}

struct Slots {
    batches: Vec<Option<Batch>>,
    /// Jobs that have ended, with a result or (a bug) without.
    ended: usize,
}

impl Results {
    fn lock(&self) -> MutexGuard<'_, Slots> {
        // A panic while holding the lock leaves the slots consistent: each write is one step.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Counts a job as ended when dropped, however it ends.
struct JobEnded(Arc<Results>);

impl Drop for JobEnded {
    fn drop(&mut self) {
        let mut slots = self.0.lock();
        slots.ended += 1;
        if slots.ended == self.0.count {
            self.0.ready.notify_one();
        }
    }
}

/// The result of one batch of records: their rows, formatted, and what to report.
#[derive(Default)]
struct Batch {
    /// The formatted rows of the records handled.
    bytes: Vec<u8>,
    /// Rows in `bytes`, by status.
    tally: Tally<RowStatus>,
    /// The records to report: (index of the input, line, status, reason).
    flagged: Vec<(usize, u64, RowStatus, String)>,
    /// Why the batch stopped before its end.
    stop: Option<RunError>,
    /// The dataset summary of the batch's rows, when asked for.
    dataset: Option<stats::Summary>,
}

impl Work {
    /// Hands the batches of a chunk to the pool and returns at once.
    fn start(work: &Arc<Work>, pool: &rayon::ThreadPool, items: Vec<Item>) -> Running {
        let count = items.len().div_ceil(BATCH);
        let results = Arc::new(Results {
            state: Mutex::new(Slots {
                batches: (0..count).map(|_| None).collect(),
                ended: 0,
            }),
            ready: Condvar::new(),
            count,
        });
        let items = Arc::new(items);
        for index in 0..count {
            let (work, items) = (Arc::clone(work), Arc::clone(&items));
            let ended = JobEnded(Arc::clone(&results));
            pool.spawn(move || {
                let range = index * BATCH..((index + 1) * BATCH).min(items.len());
                let batch = work.process_batch(&items[range]);
                // The slots are gone when the run has stopped waiting: the batch is dropped.
                if let Some(slot) = ended.0.lock().batches.get_mut(index) {
                    *slot = Some(batch);
                }
            });
        }
        Running(results)
    }

    fn process_batch(&self, items: &[Item]) -> Batch {
        let mut batch = Batch {
            bytes: Vec::with_capacity(items.len() * 256),
            dataset: self.settings.summarise.then(stats::Summary::new),
            ..Batch::default()
        };
        for item in items {
            if self.cancel.load(Ordering::Relaxed) {
                batch.stop = Some(RunError::Interrupted);
                break;
            }
            let record = &item.record;
            let out = &mut batch.bytes;
            let dataset = &mut batch.dataset;
            let handled = guarded(record, || self.handle(item, out, dataset));
            match handled {
                Ok((status, error)) => {
                    batch.tally.add(status);
                    if let Some(reason) = error {
                        batch
                            .flagged
                            .push((item.source, record.line, status, reason));
                    }
                }
                Err(bug) => {
                    batch.stop = Some(RunError::SolverBug {
                        name: self.names[item.source].clone(),
                        line: record.line,
                        bug,
                    });
                    break;
                }
            }
        }
        batch
    }

    /// Handles one record, appends its row to `out` (and adds it to `dataset`, when summarising):
    /// its status and why it is not good.
    fn handle(
        &self,
        item: &Item,
        out: &mut Vec<u8>,
        dataset: &mut Option<stats::Summary>,
    ) -> Result<(RowStatus, Option<String>), SolverBug> {
        let record = &item.record;
        match &self.settings.job {
            Job::Solve(options) => {
                solve::handle(record, options, &self.settings.layout).map(|row| {
                    let mut text = [[0; crate::grid::CELLS]; 2];
                    self.write_row(item, row.cells(record.line, &mut text), out);
                    if let Some(dataset) = dataset {
                        dataset.add(&row.summary_row());
                    }
                    (row.status.into(), row.error)
                })
            }
            Job::Verify(options) => {
                verify::handle(record, options, &self.settings.layout).map(|row| {
                    self.write_row(item, row.cells(record.line), out);
                    (row.status.into(), row.error)
                })
            }
        }
    }

    /// Formats one row: the `file` column when there are several inputs, the job's `cells`,
    /// then the kept columns.
    fn write_row<'a>(
        &'a self,
        item: &'a Item,
        cells: impl IntoIterator<Item = Cell<'a>>,
        out: &mut Vec<u8>,
    ) {
        let file = (self.names.len() > 1).then(|| Cell::Text(&self.names[item.source]));
        // A record that could not be read has no kept values: their cells stay empty.
        let kept = item
            .record
            .kept
            .iter()
            .map(|k| Cell::Bytes(k))
            .chain(std::iter::repeat(Cell::Null))
            .take(self.settings.columns.keep.len());
        let regions = self.regions.then(|| {
            item.record
                .regions
                .as_deref()
                .map_or(Cell::Null, Cell::Bytes)
        });
        self.writer.row(
            file.into_iter().chain(cells).chain(kept).chain(regions),
            out,
        );
    }
}

impl Running {
    /// The chunk's batches in order, up to the first that stopped early. Once `interrupt` is set,
    /// batches are cancelled and get [`GRACE`] to report; one that has not reported by then (it
    /// is deep in a long search) ends the chunk as interrupted, and so does a task that died.
    fn wait(self, interrupt: &AtomicBool, cancel: &AtomicBool) -> Vec<Batch> {
        let mut deadline: Option<Instant> = None;
        let mut guard = self.0.lock();
        while guard.ended < self.0.count {
            if deadline.is_none() && interrupt.load(Ordering::Relaxed) {
                cancel.store(true, Ordering::Relaxed);
                deadline = Some(Instant::now() + GRACE);
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let timeout = deadline.map_or(POLL, |d| {
                d.saturating_duration_since(Instant::now()).min(POLL)
            });
            guard = self
                .0
                .ready
                .wait_timeout(guard, timeout)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        let slots = std::mem::take(&mut guard.batches);
        drop(guard);
        let mut batches = Vec::with_capacity(slots.len());
        for slot in slots {
            let batch = slot.unwrap_or_else(|| Batch {
                stop: Some(RunError::Interrupted),
                ..Batch::default()
            });
            let last = batch.stop.is_some();
            batches.push(batch);
            if last {
                break;
            }
        }
        batches
    }
}

/// Runs `f` on `record`, turning a panic (always a bug) into an error that names the record, so
/// that a bug ends the run with a message instead of a crash.
fn guarded<T>(record: &Record, f: impl FnOnce() -> Result<T, SolverBug>) -> Result<T, SolverBug> {
    panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        Err(SolverBug {
            puzzle: format::escape(&record.puzzle),
            detail: format!("panic: {}", panic_message(payload.as_ref())),
        })
    })
}

/// The text of a panic's payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string())
}

/// The output side: writes batches in order, counts rows, reports progress.
struct Sink<'a> {
    out: &'a mut dyn Write,
    name: &'a str,
    inputs: &'a [Input],
    summary: Summary,
    events: &'a mut dyn Events,
}

impl Sink<'_> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), RunError> {
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
    fn write_chunk(&mut self, done: Done) -> Result<bool, RunError> {
        let mut interrupted = false;
        for batch in done.batches {
            self.write(&batch.bytes)?;
            self.summary.tally += batch.tally;
            if let Some(part) = &batch.dataset {
                self.summary
                    .dataset
                    .get_or_insert_with(stats::Summary::new)
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
            .progress(self.summary.tally.records(), done.read_to);
        self.events.flushed(&self.summary.tally)?;
        self.summary.interrupted |= interrupted;
        Ok(interrupted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_data::PUZZLE;

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
    }

    impl Events for Seen {
        fn progress(&mut self, records: u64, _: u64) {
            assert!(records >= self.last_progress);
            self.last_progress = records;
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
    ) -> (String, Summary, Seen) {
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
            let chunk = ChunkSize { records, bytes };
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
        s.job = Job::Solve(SolveOptions {
            algorithm: crate::solver::Algorithm::Naive,
            max_recursions: 50_000_000,
            ..SolveOptions::default()
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
        assert_eq!(columns(&s, false, false)[..2], ["line", "puzzle"]);
        s.job = Job::Verify(VerifyOptions {
            unique: false,
            max_recursions: 1,
        });
        s.columns.keep = vec!["id".into()];
        assert_eq!(
            columns(&s, true, false),
            ["file", "line", "status", "error", "id"]
        );
        assert_eq!(
            columns(&s, false, true).last().map(String::as_str),
            Some("regions")
        );
    }
}
