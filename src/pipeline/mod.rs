//! The bulk run: inputs read in chunks, each chunk solved (or verified) on a thread pool, result
//! rows written in input order, with memory bounded by the chunk size.
//!
//! While the pool works on chunk `n`, the calling thread writes the rows of chunk `n - 1` and
//! reads chunk `n + 1`, so reading and writing overlap the solving. Within a chunk, records are
//! handled in batches; every batch formats its own rows, so the calling thread only copies bytes.
//! Rows come out in input order and every per-record result is a pure function of the record and
//! the settings, so the output is the same byte for byte for any thread count.
//!
//! A run stops early, and cleanly, when the interrupt flag is set (checked before each record):
//! every record finished before the first unfinished one is written, nothing after it.
//!
//! Hooks for resuming and sharding: [`Events::progress`] reports the rows written after every
//! chunk (a checkpoint can record it), [`Settings::skip_records`] skips that many records of a
//! restarted run, and [`Settings::shard`] reads only one shard's records ([`crate::shard`]:
//! every reader takes a [`format::Span`] of record offsets).

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::error::RunError;
use crate::format::{
    self, Cell, Columns, InputFormat, OutputFormat, ReadOptions, Record, RecordReader, RowWriter,
};
use crate::input::Input;
use crate::layout::Layout;
use crate::shard::{Plan, Shard};
use crate::solver::SolveOptions;
use crate::stats;

mod solve;
mod tally;
mod verify;

pub use tally::{RowStatus, Tally};

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
    /// Records to skip (read but not processed or written) at the start of the first input.
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
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Summary {
    /// Rows written, by status.
    pub tally: Tally,
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
    let writer = RowWriter::new(
        settings.output_format,
        columns(settings, inputs.len() > 1, regions),
    );
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
    let mut header = Vec::new();
    writer.header(&mut header);
    sink.write(&header)?;

    let work = Work {
        settings,
        writer: &writer,
        inputs,
        interrupt,
        regions,
    };
    let mut finished: Option<Done> = None;
    while !chunk.items.is_empty() {
        let mut batches = Vec::new();
        let mut next = Ok(Chunk::default());
        let mut written = Ok(false);
        pool.in_place_scope(|scope| {
            scope.spawn(|_| batches = work.process(&chunk.items));
            if let Some(previous) = finished.take() {
                written = sink.write_chunk(previous);
            }
            if matches!(written, Ok(false)) {
                next = feed.next_chunk(interrupt);
            }
        });
        if written? {
            return Ok(sink.summary);
        }
        finished = Some(Done {
            batches,
            read_to: chunk.read_to,
        });
        chunk = next?;
    }
    if let Some(last) = finished {
        sink.write_chunk(last)?;
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
                continue;
            }
            let r = &item.record;
            bytes += r.puzzle.len()
                + r.solution.as_ref().map_or(0, Vec::len)
                + r.kept.iter().map(Vec::len).sum::<usize>();
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

/// What the pool needs to handle records.
struct Work<'a> {
    settings: &'a Settings,
    writer: &'a RowWriter,
    inputs: &'a [Input],
    interrupt: &'a AtomicBool,
    /// Whether rows end with the record's `regions` column.
    regions: bool,
}

/// The result of one batch of records: their rows, formatted, and what to report.
#[derive(Default)]
struct Batch {
    /// The formatted rows of the records handled.
    bytes: Vec<u8>,
    /// Rows in `bytes`, by status.
    tally: Tally,
    /// The records to report: (index of the input, line, status, reason).
    flagged: Vec<(usize, u64, RowStatus, String)>,
    /// Why the batch stopped before its end.
    stop: Option<RunError>,
    /// The dataset summary of the batch's rows, when asked for.
    dataset: Option<stats::Summary>,
}

impl Work<'_> {
    fn process(&self, chunk: &[Item]) -> Vec<Batch> {
        chunk
            .par_chunks(BATCH)
            .map(|items| self.process_batch(items))
            .collect()
    }

    fn process_batch(&self, items: &[Item]) -> Batch {
        let mut batch = Batch {
            bytes: Vec::with_capacity(items.len() * 256),
            dataset: self.settings.summarise.then(stats::Summary::new),
            ..Batch::default()
        };
        for item in items {
            if self.interrupt.load(Ordering::Relaxed) {
                batch.stop = Some(RunError::Interrupted);
                break;
            }
            let record = &item.record;
            let out = &mut batch.bytes;
            let handled =
                match &self.settings.job {
                    Job::Solve(options) => solve::handle(record, options, &self.settings.layout)
                        .map(|row| {
                            let mut text = [[0; crate::grid::CELLS]; 2];
                            self.write_row(item, row.cells(record.line, &mut text), out);
                            if let Some(dataset) = &mut batch.dataset {
                                dataset.add(&row.summary_row());
                            }
                            (row.status, row.error)
                        }),
                    Job::Verify(options) => verify::handle(record, options, &self.settings.layout)
                        .map(|row| {
                            self.write_row(item, row.cells(record.line), out);
                            (row.status, row.error)
                        }),
                };
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
                        name: self.inputs[item.source].name.clone(),
                        line: record.line,
                        bug,
                    });
                    break;
                }
            }
        }
        batch
    }

    /// Formats one row: the `file` column when there are several inputs, the job's `cells`,
    /// then the kept columns.
    fn write_row<'a>(
        &'a self,
        item: &'a Item,
        cells: impl IntoIterator<Item = Cell<'a>>,
        out: &mut Vec<u8>,
    ) {
        let file = (self.inputs.len() > 1).then(|| Cell::Text(&self.inputs[item.source].name));
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

    /// Writes the batches of a chunk in order; `Ok(true)` when the run was interrupted in it.
    fn write_chunk(&mut self, done: Done) -> Result<bool, RunError> {
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
                    self.summary.interrupted = true;
                    self.progress(done.read_to);
                    return Ok(true);
                }
                Some(error) => return Err(error),
            }
        }
        self.progress(done.read_to);
        Ok(false)
    }

    fn progress(&mut self, read_to: u64) {
        self.events.progress(self.summary.tally.records(), read_to);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn settings(threads: usize, chunk: ChunkSize) -> Settings {
        Settings {
            job: Job::Solve(SolveOptions::default()),
            layout: Layout::standard(),
            input_format: None,
            columns: Columns::default(),
            output_format: OutputFormat::Csv,
            threads,
            skip_records: 0,
            summarise: false,
            chunk,
            shard: None,
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
    fn skipped_records_are_neither_handled_nor_written() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = [input(&dir, 10)];
        let mut s = settings(1, ChunkSize::default());
        s.skip_records = 6;
        let (text, summary, _) = run_to_string(&inputs, &s, false);
        assert_eq!(summary.tally.records(), 4);
        assert!(text.lines().nth(1).unwrap().starts_with("7,"), "{text}");
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
