//! The thread pool's side of a run: each chunk is cut into batches, each batch a job of its own
//! that handles its records (parse, search or check, the independent verifier, the row
//! formatted) and puts its result in its slot; the calling thread waits for a chunk's batches in
//! order, never without a timeout, so that an interrupt is served within a fraction of a second.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::error::{RunError, SolverBug};
use super::feed::Item;
use super::settings::{Job, Scale, Settings};
use super::{augment, canon, rate, solve, verify};
use crate::format::{self, Cell, Record, RowWriter, Rows};
use crate::layout::Layout;
use crate::row::{RowStatus, Tally};
use crate::stats;

/// Records per batch: the unit of work of one pool task and of interruption.
pub const BATCH: usize = 64;

/// How often the calling thread looks at the interrupt flag while it waits for the pool.
pub const POLL: Duration = Duration::from_millis(50);

/// How long batches get, once interrupted, to finish the record they are on and report.
pub const GRACE: Duration = Duration::from_millis(250);

/// The layout of a record: its own (`regions` column) or the run's.
pub(super) fn record_layout<'a>(
    record: &Record,
    run_layout: &'a Layout,
) -> Result<std::borrow::Cow<'a, Layout>, crate::layout::LayoutError> {
    match &record.regions {
        Some(text) => Layout::parse(text).map(std::borrow::Cow::Owned),
        None => Ok(std::borrow::Cow::Borrowed(run_layout)),
    }
}

/// Sets the cancel flag of the batches when dropped.
pub(super) struct CancelOnDrop(pub Arc<Work>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel.store(true, Ordering::Relaxed);
    }
}

/// What the pool needs to handle records; shared with the pool's tasks, which may outlive a run
/// that ended early.
pub(super) struct Work {
    pub settings: Settings,
    pub writer: RowWriter,
    /// The inputs' names, for the `file` column and messages.
    pub names: Vec<String>,
    /// What the inputs add to the rows' columns.
    pub shape: super::Shape,
    /// The run's layout written out, for the `regions` cell of a record read without a layout
    /// of its own (from an input without the column, when another input has it): the layout
    /// it was solved on.
    layout_line: String,
    /// Set when the run no longer wants rows: batches stop before their next record.
    pub cancel: AtomicBool,
    /// Records handled so far by every batch, for progress within a chunk (counted every
    /// [`HANDLED_STEP`] records and at the end of each batch).
    pub handled: AtomicU64,
}

/// Records a batch handles between two updates of [`Work::handled`].
const HANDLED_STEP: u64 = 16;

/// A chunk being handled by the pool: each batch is a job of its own that puts its result in its
/// slot; the last job to end wakes the calling thread (one wake-up per chunk, not per batch).
/// Separate jobs, not a parallel iterator: a worker blocked in a `join` may run other jobs, and
/// with a chunk always queued behind the one being handled, chunks would nest on its stack.
pub(super) struct Running {
    results: Arc<Results>,
    /// The chunk's records, shared with the batches; each batch lets go of them before it
    /// counts as ended.
    items: Arc<Vec<Item>>,
    /// Batches handed over before the chunk ended ([`Waiter::batches`]): the first ones.
    taken: usize,
}

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
pub(super) struct Batch {
    /// The formatted rows of the records handled: text, or columns.
    pub rows: Rows,
    /// Rows in `rows`, by status.
    pub tally: Tally<RowStatus>,
    /// The records to report: (index of the input, line, status, reason).
    pub flagged: Vec<(usize, u64, RowStatus, String)>,
    /// Why the batch stopped before its end.
    pub stop: Option<RunError>,
    /// The dataset summary of the batch's rows, when asked for.
    pub dataset: Option<stats::Summary>,
    /// `canon --dedupe`: where each row ends and its class, for the writer to choose from.
    pub classes: Vec<canon::RowClass>,
}

impl Work {
    /// The work of a run that writes with `writer` rows of `shape`, from inputs named `names`.
    pub fn new(
        settings: Settings,
        writer: RowWriter,
        names: Vec<String>,
        shape: super::Shape,
    ) -> Work {
        Work {
            layout_line: settings.layout.to_line(),
            settings,
            writer,
            names,
            shape,
            cancel: AtomicBool::new(false),
            handled: AtomicU64::new(0),
        }
    }

    /// Hands the batches of a chunk to the pool and returns at once.
    pub fn start(work: &Arc<Work>, pool: &rayon::ThreadPool, items: Vec<Item>) -> Running {
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
                // Before the batch counts as ended: once all have, the caller holds the
                // records alone and can reuse them.
                drop(items);
                // The slots are gone when the run has stopped waiting: the batch is dropped.
                if let Some(slot) = ended.0.lock().batches.get_mut(index) {
                    *slot = Some(batch);
                }
            });
        }
        Running {
            results,
            items,
            taken: 0,
        }
    }

    pub fn process_batch(&self, items: &[Item]) -> Batch {
        let mut batch = Batch {
            rows: self.writer.rows(items.len()),
            dataset: self
                .settings
                .summarise
                .then(|| match self.settings.canonical {
                    true => stats::Summary::new().counting_forms(),
                    false => stats::Summary::new(),
                }),
            ..Batch::default()
        };
        let mut canonicaliser = crate::canon::Canonicaliser::new();
        let as_input = self.settings.as_input();
        let mut unreported = 0;
        for item in items {
            if unreported == HANDLED_STEP {
                self.handled.fetch_add(unreported, Ordering::Relaxed);
                unreported = 0;
            }
            unreported += 1;
            if self.cancel.load(Ordering::Relaxed) {
                batch.stop = Some(RunError::Interrupted);
                break;
            }
            let record = &item.record;
            if as_input && record.raw.is_none() {
                batch.stop = Some(RunError::AsInput {
                    name: self.names[item.source].clone(),
                    source: canon::AsInputError::TooLong {
                        line: record.line,
                        limit: crate::format::MAX_LINE,
                    },
                });
                break;
            }
            let out = &mut batch.rows;
            let dataset = &mut batch.dataset;
            let classes = &mut batch.classes;
            let canonicaliser = &mut canonicaliser;
            let handled = guarded(record, || {
                self.handle(item, out, dataset, classes, canonicaliser)
            });
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
        self.handled.fetch_add(unreported, Ordering::Relaxed);
        batch
    }

    /// Handles one record, appends its row to `out` (and adds it to `dataset`, when summarising):
    /// its status and why it is not good.
    fn handle(
        &self,
        item: &Item,
        out: &mut Rows,
        dataset: &mut Option<stats::Summary>,
        classes: &mut Vec<canon::RowClass>,
        canonicaliser: &mut crate::canon::Canonicaliser,
    ) -> Result<(RowStatus, Option<String>), SolverBug> {
        let record = &item.record;
        match &self.settings.job {
            Job::Solve(options) => {
                solve::handle(record, options, &self.settings.layout).map(|row| {
                    let mut text = [[0; crate::grid::CELLS]; 2];
                    self.write_row(item, row.cells(record.line, &mut text), out);
                    if let Some(dataset) = dataset {
                        dataset.add(&self.summary_row(item, &row, &text[0]));
                        self.count_form(record, row.puzzle, dataset, canonicaliser);
                    }
                    (row.status.into(), row.error)
                })
            }
            Job::Verify(options) => {
                verify::handle(record, options, &self.settings.layout).map(|row| {
                    let mut text = [0; crate::grid::CELLS];
                    let puzzle = self.settings.columns.keep.is_empty();
                    let cells = row.cells(record, puzzle, self.shape.original, &mut text);
                    self.write_row(item, cells, out);
                    (row.status.into(), row.error)
                })
            }
            Job::Rate(options) => {
                rate::handle(record, options, &self.settings.layout, canonicaliser).map(|row| {
                    let (mut text, mut techniques) = ([0; crate::grid::CELLS], String::new());
                    match options.scale {
                        Scale::Hodoku => self.write_row(
                            item,
                            row.cells(record.line, &mut text, &mut techniques),
                            out,
                        ),
                        Scale::Se => {
                            self.write_row(item, row.se_cells(record.line, &mut text), out)
                        }
                    }
                    if let Some(dataset) = dataset {
                        match options.scale {
                            Scale::Hodoku => dataset.add_rated(&row.summary_row()),
                            Scale::Se => dataset.add_se(&stats::rating::se::SeRow {
                                record: self.record_ref(item, row.puzzle.is_some(), &text),
                                ..row.se_summary_row()
                            }),
                        }
                        self.count_form(record, row.puzzle, dataset, canonicaliser);
                    }
                    (row.status.into(), row.error)
                })
            }
            Job::Augment(options) => {
                match augment::handle(record, item.source, &self.settings.layout, options) {
                    Ok(copies) => {
                        let mut text = ([[0; crate::grid::CELLS]; 2], String::new());
                        for (k, copy) in copies.iter().enumerate() {
                            let cells = copy.cells(record.line, k as u64, &mut text);
                            self.write_row(item, cells, out);
                        }
                        Ok((RowStatus::Ok, None))
                    }
                    Err((puzzle, error)) => {
                        let mut text = [0; crate::grid::CELLS];
                        let cells =
                            augment::invalid_cells(record.line, puzzle.as_ref(), &error, &mut text);
                        self.write_row(item, cells, out);
                        Ok((RowStatus::Invalid, Some(error)))
                    }
                }
            }
            Job::Canon(options) => {
                let row = canon::handle(record, &self.settings.layout, canonicaliser);
                match &record.raw {
                    Some(raw) if options.dedupe.is_some_and(|d| d.as_input) => {
                        self.writer.verbatim_row(raw, out);
                    }
                    _ => {
                        let mut text = [[0; crate::grid::CELLS]; 2];
                        self.write_row(item, row.cells(record.line, &mut text), out);
                    }
                }
                if let Some(dedupe) = options.dedupe {
                    classes.push(canon::RowClass {
                        end: out.len(),
                        digest: row.class(dedupe.exact),
                        source: item.source,
                        line: record.line,
                    });
                }
                Ok((row.status, row.error))
            }
        }
    }

    /// A solve row as the dataset summary counts it, naming its record as the row written
    /// does (`puzzle` holds the puzzle column written out).
    fn summary_row<'a>(
        &'a self,
        item: &'a Item,
        row: &solve::SolveRow,
        puzzle: &'a [u8; crate::grid::CELLS],
    ) -> stats::Row<'a> {
        let summary_row = row.summary_row();
        match self.record_ref(item, row.puzzle.is_some(), puzzle) {
            Some(record) => summary_row.about(record),
            None => summary_row,
        }
    }

    /// The record a row is about, as the row written names it (`puzzle` holds the puzzle
    /// column written out, when `written`).
    fn record_ref<'a>(
        &'a self,
        item: &'a Item,
        written: bool,
        puzzle: &'a [u8; crate::grid::CELLS],
    ) -> Option<stats::RecordRef<'a>> {
        let puzzle = std::str::from_utf8(puzzle).ok().filter(|_| written)?;
        let regions = item
            .record
            .regions
            .as_deref()
            .filter(|r| self.shape.regions && !r.is_empty())
            .and_then(|r| std::str::from_utf8(r).ok());
        Some(stats::RecordRef {
            file: (self.names.len() > 1).then(|| self.names[item.source].as_str()),
            line: item.record.line,
            puzzle,
            regions,
        })
    }

    /// With `--canonical`, counts the canonical form of the record's puzzle (when it has one)
    /// in the dataset summary.
    fn count_form(
        &self,
        record: &Record,
        puzzle: Option<crate::grid::Grid>,
        dataset: &mut stats::Summary,
        canonicaliser: &mut crate::canon::Canonicaliser,
    ) {
        if !self.settings.canonical {
            return;
        }
        let layout = record_layout(record, &self.settings.layout);
        let form = puzzle
            .zip(layout.ok())
            .and_then(|(puzzle, layout)| canonicaliser.canonical(&puzzle, &layout).ok());
        if let Some(form) = form {
            dataset.add_form(form.digest());
        }
    }

    /// Formats one row: the `file` column when there are several inputs, the job's `cells`,
    /// then the kept columns.
    fn write_row<'a>(
        &'a self,
        item: &'a Item,
        cells: impl IntoIterator<Item = Cell<'a>>,
        out: &mut Rows,
    ) {
        // The common row, the job's cells alone, without the chain of empty extras.
        if self.names.len() == 1 && self.settings.columns.keep.is_empty() && !self.shape.regions {
            self.writer.row(cells, out);
            return;
        }
        let file = (self.names.len() > 1).then(|| Cell::Text(&self.names[item.source]));
        // A record that could not be read has no kept values: their cells stay empty.
        let kept = item
            .record
            .kept
            .iter()
            .map(|k| Cell::Bytes(k))
            .chain(std::iter::repeat(Cell::Null))
            .take(self.settings.columns.keep.len());
        let regions = self.shape.regions.then(|| match &item.record.regions {
            Some(layout) => Cell::Bytes(layout),
            None if item.record.defect.is_some() => Cell::Null,
            None => Cell::Text(&self.layout_line),
        });
        self.writer.row(
            file.into_iter().chain(cells).chain(kept).chain(regions),
            out,
        );
    }
}

/// What the calling thread does while it waits for a chunk.
pub trait Waiter {
    /// Called every [`POLL`], for progress.
    fn tick(&mut self) {}

    /// Does a piece of other work (of a few milliseconds at most) on the waiting thread;
    /// `false` when there is none.
    fn help(&mut self) -> bool {
        false
    }

    /// Whether the waiter wants the batches done so far, before the chunk ends (asked every
    /// [`POLL`]): a slow chunk's rows can then be written, and checkpointed, as they are done.
    fn wants_batches(&mut self) -> bool {
        false
    }

    /// The batches done since the last call, in order: the first batches of the chunk not
    /// handed over yet, up to the first that is not done (or that stopped early: that one, and
    /// every batch after it, is left for [`Running::wait`] to return).
    fn batches(&mut self, batches: Vec<Batch>) {
        let _ = batches;
    }
}

/// Waits and does nothing else.
impl Waiter for () {}

impl Running {
    /// The chunk's batches in order, up to the first that stopped early. Once `interrupt` is set,
    /// batches are cancelled and get [`GRACE`] to report; one that has not reported by then (it
    /// is deep in a long search) ends the chunk as interrupted, and so does a task that died.
    /// `waiter` is told every [`POLL`] while the batches work, for progress, and asked for
    /// other work to do meanwhile.
    ///
    /// Also returns the chunk's records, for their buffers to be reused, when every batch has
    /// ended (`None` when the wait ended early).
    pub fn wait(
        mut self,
        interrupt: &AtomicBool,
        cancel: &AtomicBool,
        waiter: &mut dyn Waiter,
    ) -> (Vec<Batch>, Option<Vec<Item>>) {
        let mut deadline: Option<Instant> = None;
        let results = Arc::clone(&self.results);
        let mut guard = results.lock();
        while guard.ended < results.count {
            if deadline.is_none() && interrupt.load(Ordering::Relaxed) {
                cancel.store(true, Ordering::Relaxed);
                deadline = Some(Instant::now() + GRACE);
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            if deadline.is_none() {
                drop(guard);
                let helped = waiter.help();
                guard = results.lock();
                if helped {
                    continue;
                }
            }
            let timeout = deadline.map_or(POLL, |d| {
                d.saturating_duration_since(Instant::now()).min(POLL)
            });
            let (woken, waited) = results
                .ready
                .wait_timeout(guard, timeout)
                .unwrap_or_else(PoisonError::into_inner);
            guard = woken;
            if waited.timed_out() {
                let done = match deadline.is_none() && waiter.wants_batches() {
                    true => done_in_order(&mut guard, &mut self.taken),
                    false => Vec::new(),
                };
                drop(guard);
                if !done.is_empty() {
                    waiter.batches(done);
                }
                waiter.tick();
                guard = results.lock();
            }
        }
        let slots = std::mem::take(&mut guard.batches);
        drop(guard);
        let mut batches = Vec::with_capacity(slots.len());
        for slot in slots.into_iter().skip(self.taken) {
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
        (batches, Arc::try_unwrap(self.items).ok())
    }
}

/// Takes the batches done after the `taken` taken before, in order, up to the first not done
/// or stopped early.
fn done_in_order(slots: &mut Slots, taken: &mut usize) -> Vec<Batch> {
    let mut done = Vec::new();
    while let Some(slot) = slots.batches.get_mut(*taken) {
        if slot.as_ref().is_none_or(|batch| batch.stop.is_some()) {
            break;
        }
        done.extend(slot.take());
        *taken += 1;
    }
    done
}

/// Runs `f` on `record`, turning a panic (always a bug) into an error that names the record, so
/// that a bug ends the run with a message instead of a crash.
pub(super) fn guarded<T>(
    record: &Record,
    f: impl FnOnce() -> Result<T, SolverBug>,
) -> Result<T, SolverBug> {
    panic::catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        Err(SolverBug {
            puzzle: format::escape(&record.puzzle),
            detail: format!("panic: {}", format::panic_message(payload.as_ref())),
        })
    })
}
