//! Runs whose rows come back as columns in memory instead of being written: the library side of
//! the Python package (`python/`), which turns each batch into an Arrow record batch.
//!
//! A [`ColumnRun`] handles records held in memory ([`RecordSource::Records`]) or read from inputs as
//! [`super::run`] reads them ([`RecordSource::Inputs`]), through the same pool, the same jobs and the
//! same columnar row builder as a run that writes Parquet, so every cell is the one the command
//! line writes. The run goes on in a thread of its own: it keeps two chunks in the pool, as
//! [`super::run`] does, and hands each finished chunk, its rows in input order, over a channel
//! that holds one, so memory stays bounded by a few chunks however many records there are. The
//! caller takes the chunks with a timeout ([`ColumnRun::next_within`]), so that it can look for
//! its own interrupts (Python's Ctrl-C) while it waits; dropping the run stops it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::canon::{CanonOptions, Dedupe};
use super::error::RunError;
use super::feed::{Feed, Item};
use super::pool::{CancelOnDrop, Running, Work};
use super::settings::{Job, Settings};
use super::{Original, Shape};
use crate::files::Input;
use crate::format::columns::{ColumnBatch, ColumnKind};
use crate::format::{OutputFormat, Record, RowWriter, Rows};

/// How long dropping a [`ColumnRun`] waits for its thread to stop, at most.
pub const END_WAIT: Duration = Duration::from_millis(500);

/// Where the records of a [`ColumnRun`] come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordSource {
    /// Records held in memory, handled in this order; each keeps the `line` it was given. The
    /// rows end with a `regions` column when any record carries its own layout.
    Records(Vec<Record>),
    /// Inputs read in order as one stream, each in its own format, exactly as [`super::run`]
    /// reads them (a `file` column when there are several).
    Inputs(Vec<Input>),
}

/// What [`ColumnRun::next_within`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// The rows of the next chunk of records, in input order.
    Rows(ColumnBatch),
    /// No chunk was finished within the time given; ask again.
    Pending,
    /// Every record has been handed over.
    Done,
}

/// A message from the run's thread: the columns first, then the chunks' rows.
enum Message {
    Columns(Vec<String>, Vec<ColumnKind>),
    Rows(ColumnBatch),
}

/// A run whose rows come back as [`ColumnBatch`]es, one per chunk of records, in input order.
///
/// The chunks follow [`Settings::chunk`]: each holds at most that many records (a chunk of
/// inputs also ends once its records hold that many bytes of text). Only [`Settings::job`],
/// [`Settings::layout`], [`Settings::input_format`], [`Settings::columns`],
/// [`Settings::threads`] and [`Settings::chunk`] are used: nothing is skipped, sharded or
/// summarised, and the rows are always columns.
pub struct ColumnRun {
    columns: Vec<String>,
    kinds: Vec<ColumnKind>,
    /// Whether `columns` and `kinds` are known ([`ColumnRun::columns_within`]).
    named: bool,
    /// `None` once the run has ended (or been dropped).
    receiver: Option<Receiver<Result<Message, RunError>>>,
    /// Set to stop the run's thread and the batches in the pool.
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ColumnRun {
    /// Starts the run in a thread of its own and returns once its columns are known (after the
    /// first chunk has been read: whether the records carry their own region layouts decides
    /// them). An input that cannot be opened or does not fit its format is an error here.
    pub fn start(source: RecordSource, settings: Settings) -> Result<ColumnRun, RunError> {
        let mut run = ColumnRun::begin(source, settings)?;
        while !run.columns_within(Duration::from_secs(3600))? {}
        Ok(run)
    }

    /// Starts the run in a thread of its own and returns at once: its columns are known once
    /// [`ColumnRun::columns_within`] says so, which a caller that must stay interruptible (the
    /// first chunk of a pipe that sends nothing never comes) waits for a little at a time.
    pub fn begin(source: RecordSource, settings: Settings) -> Result<ColumnRun, RunError> {
        let stop = Arc::new(AtomicBool::new(false));
        // One finished chunk waits in the channel while the pool works on the next two.
        let (sender, receiver) = sync_channel(1);
        let thread = {
            let stop = Arc::clone(&stop);
            std::thread::Builder::new()
                .name("sudoku-bulk-run".to_string())
                .spawn(move || {
                    if let Err(error) = produce(source, &settings, &stop, &sender) {
                        // The receiver may be gone: then nobody wants to know.
                        let _ = sender.send(Err(error));
                    }
                })
                .map_err(|e| RunError::Threads(e.to_string()))?
        };
        Ok(ColumnRun {
            columns: Vec::new(),
            kinds: Vec::new(),
            named: false,
            receiver: Some(receiver),
            stop,
            thread: Some(thread),
        })
    }

    /// Waits at most `wait` for the run's columns (known after its first chunk has been read);
    /// whether they are known. An input that cannot be opened or does not fit its format is an
    /// error here.
    pub fn columns_within(&mut self, wait: Duration) -> Result<bool, RunError> {
        if self.named {
            return Ok(true);
        }
        let ended = || RunError::Threads("the run ended before naming its columns".to_string());
        match self.receive(Some(wait))? {
            Some(Message::Columns(columns, kinds)) => {
                self.columns = columns;
                self.kinds = kinds;
                self.named = true;
                Ok(true)
            }
            // The thread sends its columns before any rows, or fails.
            Some(Message::Rows(_)) => Err(ended()),
            None if self.receiver.is_some() => Ok(false),
            None => Err(ended()),
        }
    }

    /// The output columns' names, in order: those of the command line's rows.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// The type of each of [`ColumnRun::columns`].
    pub fn kinds(&self) -> &[ColumnKind] {
        &self.kinds
    }

    /// The next chunk's rows, waiting at most `wait` for them.
    pub fn next_within(&mut self, wait: Duration) -> Result<Next, RunError> {
        match self.receive(Some(wait)) {
            Ok(Some(Message::Rows(rows))) => Ok(Next::Rows(rows)),
            Ok(Some(Message::Columns(..))) => unreachable!("the columns are sent once, first"),
            Ok(None) if self.receiver.is_some() => Ok(Next::Pending),
            Ok(None) => Ok(Next::Done),
            Err(error) => Err(error),
        }
    }

    /// A message, waiting at most `wait` (`None`: as long as it takes). `Ok(None)`: nothing
    /// yet, or (with the receiver gone) nothing more; the run is over after an error.
    fn receive(&mut self, wait: Option<Duration>) -> Result<Option<Message>, RunError> {
        let Some(receiver) = &self.receiver else {
            return Ok(None);
        };
        let received = match wait {
            Some(wait) => receiver.recv_timeout(wait),
            None => receiver.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok(Ok(message)) => Ok(Some(message)),
            Ok(Err(error)) => {
                self.end();
                Err(error)
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => {
                self.end();
                Ok(None)
            }
        }
    }

    /// Stops the run's thread (at its next record or chunk) and waits for it, [`END_WAIT`] at
    /// most: a thread blocked in a read of an input that sends nothing (a stalled pipe) cannot
    /// be woken, and is left to end on its own when the read returns, the stop flag set.
    fn end(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Without a receiver the thread's next send fails, so it cannot block on a full channel.
        drop(self.receiver.take());
        if let Some(thread) = self.thread.take() {
            let deadline = Instant::now() + END_WAIT;
            while !thread.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            if thread.is_finished() {
                // A panic in the thread has already said what it was; its run simply ends.
                let _ = thread.join();
            }
        }
    }
}

impl Iterator for ColumnRun {
    type Item = Result<ColumnBatch, RunError>;

    /// The next chunk's rows, waiting as long as it takes.
    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match self.next_within(Duration::from_secs(3600)) {
                Ok(Next::Rows(rows)) => return Some(Ok(rows)),
                Ok(Next::Pending) => continue,
                Ok(Next::Done) => return None,
                Err(error) => return Some(Err(error)),
            }
        }
    }
}

impl Drop for ColumnRun {
    fn drop(&mut self) {
        self.end();
    }
}

/// The run's thread: reads the records chunk by chunk and sends the rows of each.
fn produce(
    source: RecordSource,
    settings: &Settings,
    stop: &AtomicBool,
    sender: &SyncSender<Result<Message, RunError>>,
) -> Result<(), RunError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads)
        .thread_name(|i| format!("sudoku-bulk-{i}"))
        .build()
        .map_err(|e| RunError::Threads(e.to_string()))?;
    match source {
        RecordSource::Records(records) => {
            let shape = Shape {
                several_inputs: false,
                regions: records.iter().any(|r| r.regions.is_some()),
                original: Original::None,
            };
            let size = settings.chunk.records.max(1);
            let mut items = records.into_iter().map(|record| Item { source: 0, record });
            let next = || Ok(items.by_ref().take(size).collect());
            let names = vec!["<memory>".to_string()];
            stream(&pool, settings, names, shape, next, stop, sender)
        }
        RecordSource::Inputs(inputs) => {
            let mut feed = Feed::new(&inputs, settings, None);
            // Whether the first input carries region layouts (or is a solve output, for
            // verify) is known once it is open.
            let mut first = Some(feed.next_chunk(stop)?.items);
            let shape = Shape {
                several_inputs: inputs.len() > 1,
                regions: feed.rows_carry_regions() || settings.columns.regions.is_some(),
                original: feed.original,
            };
            let next = || match first.take() {
                Some(items) => Ok(items),
                None => feed.next_chunk(stop).map(|chunk| chunk.items),
            };
            let names = inputs.iter().map(|i| i.name.clone()).collect();
            stream(&pool, settings, names, shape, next, stop, sender)
        }
    }
}

/// Sends the columns, then handles the chunks `next` gives until it gives an empty one, two
/// at a time in the pool, and sends the rows of each in order. Returns early, without an
/// error, when the receiver has gone.
fn stream(
    pool: &rayon::ThreadPool,
    settings: &Settings,
    names: Vec<String>,
    shape: Shape,
    mut next: impl FnMut() -> Result<Vec<Item>, RunError>,
    stop: &AtomicBool,
    sender: &SyncSender<Result<Message, RunError>>,
) -> Result<(), RunError> {
    let columns = super::columns(settings, &shape);
    let kinds = super::column_kinds(settings, &shape);
    // The batches' rows, once gathered, go back for later batches to fill.
    let writer = RowWriter::new(OutputFormat::Parquet, columns.clone(), kinds.clone())
        .keeping_spare(settings.chunk.pool_batches());
    let work = Arc::new(Work::new(settings.clone(), writer, names, shape));
    let _stop_batches = CancelOnDrop(Arc::clone(&work));
    if sender
        .send(Ok(Message::Columns(columns, kinds.clone())))
        .is_err()
    {
        return Ok(());
    }
    // `canon` with dedupe: the first row of each class only, as the command line writes.
    let mut dedupe = match settings.job {
        Job::Canon(CanonOptions {
            dedupe: Some(options),
        }) => Some(Dedupe::new(options)),
        _ => None,
    };
    let mut previous: Option<Running> = None;
    loop {
        let items = next()?;
        let started = (!items.is_empty()).then(|| Work::start(&work, pool, items));
        if let Some(running) = previous.take() {
            let batches = running.wait(stop, &work.cancel, &mut ()).0;
            let rows = gather(batches, &work.writer, dedupe.as_mut())?;
            if sender.send(Ok(Message::Rows(rows))).is_err() {
                return Ok(());
            }
        }
        let Some(running) = started else { break };
        previous = Some(running);
    }
    Ok(())
}

/// The rows of a chunk's batches, in order, as one batch of columns (the batches' own go back to
/// `writer`), with `dedupe` only the first row of each class; the first batch that stopped
/// early (an interrupt, a solver bug) ends the run with its error.
fn gather(
    batches: Vec<super::pool::Batch>,
    writer: &RowWriter,
    mut dedupe: Option<&mut Dedupe>,
) -> Result<ColumnBatch, RunError> {
    let mut parts = Vec::with_capacity(batches.len());
    for batch in batches {
        let columns = match batch.rows {
            Rows::Columns(columns) => columns,
            Rows::Text(_) => unreachable!("a columnar run's batches hold columns"),
        };
        if let Some(error) = batch.stop {
            return Err(error);
        }
        match dedupe.as_deref_mut() {
            None => parts.push(columns),
            Some(dedupe) => {
                // Each row's class says where it ends (a row count, with columns).
                let mut firsts = columns.empty_like();
                for run in dedupe.runs(&batch.classes, |_, _, _| {})? {
                    firsts.append_rows(&columns, run);
                }
                writer.give_back([Rows::Columns(columns)]);
                parts.push(firsts);
            }
        }
    }
    let rows = ColumnBatch::gathered(writer.kinds(), &parts);
    writer.give_back(parts.into_iter().map(Rows::Columns));
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::columns::Column;
    use crate::pipeline::{ChunkSize, Events, Job, VerifyOptions};
    use crate::row::RowStatus;
    use crate::test_data::{PUZZLE, SOLUTION};

    fn settings(threads: usize, records: usize) -> Settings {
        Settings {
            chunk: ChunkSize {
                records,
                ..ChunkSize::default()
            },
            ..crate::test_data::solve_settings(threads)
        }
    }

    fn record(line: u64, puzzle: &str) -> Record {
        Record {
            line,
            puzzle: puzzle.as_bytes().to_vec(),
            ..Record::default()
        }
    }

    /// Every chunk of a run, appended into one batch.
    fn collect(run: ColumnRun) -> ColumnBatch {
        let mut all = ColumnBatch::new(run.kinds());
        for rows in run {
            all.append(&rows.unwrap());
        }
        all
    }

    /// `n` records: good puzzles, every third one cut short, every seventh one with a clash.
    fn records(n: u64) -> Vec<Record> {
        let clash = format!("55{}", &PUZZLE[2..]);
        (1..=n)
            .map(|line| match line {
                l if l % 3 == 0 => record(l, &PUZZLE[..(l % 80 + 1) as usize]),
                l if l % 7 == 0 => record(l, &clash),
                l => record(l, PUZZLE),
            })
            .collect()
    }

    fn text(batch: &ColumnBatch, column: usize) -> Vec<Option<String>> {
        let Column::Text(c) = &batch.columns[column] else {
            panic!("column {column} is not text")
        };
        (0..batch.rows())
            .map(|i| c.get(i).map(String::from))
            .collect()
    }

    #[test]
    fn records_in_memory_give_the_rows_of_a_file_for_any_thread_count_and_chunk() {
        let records = records(300);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.txt");
        let lines: String = records
            .iter()
            .map(|r| format!("{}\n", String::from_utf8_lossy(&r.puzzle)))
            .collect();
        std::fs::write(&path, lines).unwrap();
        let from_file = collect(
            ColumnRun::start(
                RecordSource::Inputs(vec![Input::file(path)]),
                settings(2, 8192),
            )
            .unwrap(),
        );
        assert_eq!(from_file.rows(), 300);
        for (threads, chunk) in [(1, 8192), (2, 7), (3, 1)] {
            let run = ColumnRun::start(
                RecordSource::Records(records.clone()),
                settings(threads, chunk),
            )
            .unwrap();
            assert_eq!(run.columns()[..4], ["line", "puzzle", "solution", "status"]);
            assert_eq!(collect(run), from_file, "threads {threads}, chunk {chunk}");
        }
        let status = text(&from_file, 3);
        assert_eq!(status[0].as_deref(), Some("solved"));
        assert_eq!(status[2].as_deref(), Some("invalid"));
        assert_eq!(text(&from_file, 2)[0].as_deref(), Some(SOLUTION));
        assert_eq!(
            text(&from_file, 12)[6].as_deref(),
            Some("digit 5 twice in row 1: r1c1 and r1c2")
        );
    }

    /// The rows `pipeline::run` writes as CSV, each cell as text (empty: null).
    fn csv_rows(inputs: &[Input], settings: &Settings) -> Vec<Vec<String>> {
        struct Quiet;
        impl Events for Quiet {
            fn progress(&mut self, _: u64, _: u64) {}
            fn flagged(&mut self, _: &str, _: u64, _: RowStatus, _: &str) {}
        }
        let mut out = Vec::new();
        let flag = AtomicBool::new(false);
        crate::pipeline::run(inputs, settings, &mut out, "out", &mut Quiet, &flag).unwrap();
        csv::Reader::from_reader(&out[..])
            .records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect()
    }

    /// The rows of a batch, each cell as CSV writes it.
    fn cells(batch: &ColumnBatch) -> Vec<Vec<String>> {
        (0..batch.rows())
            .map(|i| {
                batch
                    .columns
                    .iter()
                    .map(|column| match column {
                        Column::Text(c) => c.get(i).unwrap_or("").to_string(),
                        Column::Count(c) => {
                            if c.valid[i] {
                                c.values[i].to_string()
                            } else {
                                String::new()
                            }
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn inputs_give_the_command_lines_rows_with_file_kept_and_regions_columns() {
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("a.csv");
        let layout = crate::Layout::standard().to_line();
        std::fs::write(
            &first,
            format!(
                "id,puzzle,regions\n7,{PUZZLE},{layout}\n8,{},\n",
                &PUZZLE[1..]
            ),
        )
        .unwrap();
        let second = dir.path().join("b.csv");
        std::fs::write(&second, format!("puzzle,id\n{PUZZLE},9\n")).unwrap();
        let inputs = vec![Input::file(first), Input::file(second)];
        let mut s = settings(2, 8192);
        s.columns.keep = vec!["id".to_string()];
        let run = ColumnRun::start(RecordSource::Inputs(inputs.clone()), s.clone()).unwrap();
        assert_eq!(run.columns()[0], "file");
        assert_eq!(run.columns().last().map(String::as_str), Some("regions"));
        assert_eq!(cells(&collect(run)), csv_rows(&inputs, &s));
    }

    #[test]
    fn verify_runs_check_the_solutions_held_in_memory() {
        let mut good = record(1, PUZZLE);
        good.solution = Some(SOLUTION.as_bytes().to_vec());
        let mut wrong = record(2, PUZZLE);
        wrong.solution = Some(PUZZLE.as_bytes().to_vec());
        let s = Settings {
            job: Job::Verify(VerifyOptions {
                unique: true,
                max_recursions: 1000,
            }),
            ..settings(1, 8192)
        };
        let rows = collect(ColumnRun::start(RecordSource::Records(vec![good, wrong]), s).unwrap());
        assert_eq!(text(&rows, 1), [Some("ok".into()), Some("wrong".into())]);
        assert_eq!(text(&rows, 2)[1].as_deref(), Some("r1c3 is empty"));
    }

    #[test]
    fn an_unreadable_input_fails_at_the_start_and_no_records_give_no_rows() {
        let missing = Input::file("no/such/file.txt".into());
        let error = ColumnRun::start(RecordSource::Inputs(vec![missing]), settings(1, 8192))
            .err()
            .unwrap();
        assert!(matches!(error, RunError::Open { .. }), "{error}");
        let run = ColumnRun::start(RecordSource::Records(Vec::new()), settings(1, 8192)).unwrap();
        assert_eq!(run.columns().len(), 13);
        assert_eq!(run.count(), 0);
    }

    #[test]
    fn a_run_dropped_early_stops() {
        let mut run =
            ColumnRun::start(RecordSource::Records(records(5000)), settings(2, 64)).unwrap();
        let first = run.next().unwrap().unwrap();
        assert_eq!(first.rows(), 64);
        // Dropping joins the run's thread: this returns only once it has stopped.
        drop(run);
    }
}
