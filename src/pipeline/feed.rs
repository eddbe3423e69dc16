//! The inputs as one stream of records, read chunk by chunk on the calling thread.
//!
//! Each input is opened in turn (its format detected, or as the settings say), read through the
//! format's reader, and hashed as its bytes are consumed ([`crate::files::digest`]): every
//! chunk carries the digests of the input bytes read up to its last record, which a resumable
//! run records in its checkpoint. A resumed run checks those bytes again as it skips the
//! records written before, and reads on until the check is done before it hands over a chunk,
//! so that no row is written from an input that changed under it. A Parquet input is read from
//! its path ([`format::parquet`]) and hashed whole when it is opened: any of its rows depends on
//! the footer at its end.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::canon::AsInputError;
use super::error::{Place, RunError};
use super::settings::{Job, Settings};
use crate::files::Input;
use crate::files::digest::{HashingReader, Prefix, Tracker};
use crate::format::{self, ReadOptions, Record, RecordReader};
use crate::shard::Plan;

/// How many records are skipped between two looks at the interrupt flag.
const SKIP_POLL: u64 = 4096;

/// A record and the index of its input.
#[derive(Default)]
pub(super) struct Item {
    pub source: usize,
    pub record: Record,
}

/// Records read together.
#[derive(Default)]
pub(super) struct Chunk {
    pub items: Vec<Item>,
    /// Raw input bytes read before the chunk's first record (and after any record skipped).
    pub read_from: u64,
    /// Raw input bytes read when the chunk was complete.
    pub read_to: u64,
    /// The input bytes consumed up to the chunk's last record, by input (every input opened so
    /// far, in order).
    pub consumed: Vec<Prefix>,
    /// Whether the inputs ended within this chunk: no record comes after it.
    pub last: bool,
}

/// The input being read.
struct Current {
    index: usize,
    reader: Box<dyn RecordReader>,
    tracker: Arc<Mutex<Tracker>>,
    /// Whether the input is read as Parquet, whose records are rows, not lines.
    parquet: bool,
    /// Its format (`None`: Parquet).
    format: Option<format::InputFormat>,
}

/// `--as-input`: the format and header the records written share, the first input's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct AsInput {
    /// The first input's name.
    name: String,
    format: format::InputFormat,
    /// Its header as it was (CSV), written first; empty for formats without one.
    pub header: Vec<u8>,
}

/// The inputs as one stream of records, read chunk by chunk.
pub(super) struct Feed<'a> {
    inputs: &'a [Input],
    settings: &'a Settings,
    options: ReadOptions,
    raw_bytes: Arc<AtomicU64>,
    current: Option<Current>,
    /// The next input to open.
    next_input: usize,
    /// The inputs read to their end: what their reader consumed.
    finished: Vec<Prefix>,
    to_skip: u64,
    /// Whether reading stopped because the interrupt flag was set.
    pub interrupted: bool,
    /// Whether a reader opened so far gives records their own region layouts (after
    /// [`Feed::rows_carry_regions`]: whether the rows carry them).
    pub regions: bool,
    /// Whether the rows' columns are fixed ([`Feed::rows_carry_regions`] was asked).
    columns_fixed: bool,
    /// verify: whether the first input is the output of `solve`.
    pub original: super::Original,
    /// `--as-input`: the first input's format and header, once it is open.
    pub as_input: Option<AsInput>,
    /// The part of each input to read, when sharded.
    plan: Option<Plan>,
    /// The records of a chunk handled and given back ([`Feed::recycle`]), to read into again.
    spare: Vec<Item>,
    /// Chunks read so far: the first ones are smaller ([`chunk_records`]).
    chunks: u32,
    /// A failure met after some of a chunk's records were read: the chunk was handed on
    /// without it, and the next one is this error.
    failure: Option<RunError>,
}

/// The most records of the chunk read after `chunks` others, when a chunk holds at most `most`:
/// the first chunk a sixteenth of that (at least a batch), each next one twice the one before,
/// up to `most`. The pool waits for the first chunk before it starts, and solving a chunk takes
/// longer than reading one twice its size, so the pool starts early and never waits after.
fn chunk_records(most: usize, chunks: u32) -> usize {
    let first = (most / 16).max(super::BATCH);
    let growth = 1usize.checked_shl(chunks).unwrap_or(usize::MAX);
    first.saturating_mul(growth).min(most)
}

impl<'a> Feed<'a> {
    pub fn new(inputs: &'a [Input], settings: &'a Settings, plan: Option<Plan>) -> Self {
        let options = ReadOptions {
            wanted: match settings.job {
                Job::Solve(_) | Job::Canon(_) | Job::Rate(_) => format::Wanted::Puzzle,
                Job::Augment(a) if !a.solutions => format::Wanted::Puzzle,
                Job::Verify(_) | Job::Augment(_) => format::Wanted::PuzzleAndSolution,
            },
            columns: settings.columns.clone(),
            raw: settings.as_input(),
            optional: match settings.job {
                Job::Solve(_) | Job::Canon(_) | Job::Rate(_) | Job::Augment(_) => Vec::new(),
                Job::Verify(_) => super::verify::ORIGIN_COLUMNS.map(String::from).to_vec(),
            },
            ..ReadOptions::default()
        };
        Feed {
            inputs,
            settings,
            options,
            raw_bytes: Arc::new(AtomicU64::new(0)),
            current: None,
            next_input: 0,
            finished: Vec::new(),
            to_skip: settings.skip_records,
            interrupted: false,
            regions: false,
            columns_fixed: false,
            original: super::Original::None,
            as_input: None,
            plan,
            spare: Vec::new(),
            chunks: 0,
            failure: None,
        }
    }

    /// Takes back the records of a chunk that has been handled: the next chunk is read into
    /// them, so that neither they nor their buffers are allocated again.
    pub fn recycle(&mut self, items: Option<Vec<Item>>) {
        if let Some(items) = items {
            self.spare = items;
        }
    }

    /// The next chunk of records; empty at the end of the inputs or when interrupted. A failure
    /// to read comes after the records before it: when it ends a chunk, that chunk is given
    /// without it and the next call gives the error (a changed input, which makes every record
    /// read from it suspect, is told at once, and so is a failure while a resumed run still
    /// checks the bytes read before).
    pub fn next_chunk(&mut self, interrupt: &AtomicBool) -> Result<Chunk, RunError> {
        if let Some(failure) = self.failure.take() {
            return Err(failure);
        }
        let limit = self.settings.chunk;
        let most = match limit.grow {
            true => chunk_records(limit.records, self.chunks),
            false => limit.records,
        };
        self.chunks = self.chunks.saturating_add(1);
        // Records of a handled chunk, each read into again; new ones past their end.
        let mut items = std::mem::take(&mut self.spare);
        let mut count = 0;
        let mut bytes = 0;
        // The chunk's records lie past the bytes read so far (past the skipped ones, if any).
        let mut read_from = self.raw_bytes.load(Ordering::Relaxed);
        let mut skipped = false;
        if interrupt.load(Ordering::Relaxed) {
            self.interrupted = true;
            return Ok(Chunk::default());
        }
        // A check of the bytes an interrupted run read finishes before the chunk is handed over.
        let mut last = false;
        while (count < most && bytes < limit.bytes) || self.check_pending() {
            if count == items.len() {
                items.push(Item::default());
            }
            let item = &mut items[count];
            let source = match self.next_item(&mut item.record) {
                Ok(Some(source)) => source,
                Ok(None) => {
                    last = true;
                    break;
                }
                Err(failure)
                    if count > 0
                        && !self.check_pending()
                        && !matches!(failure, RunError::InputChanged { .. }) =>
                {
                    self.failure = Some(failure);
                    break;
                }
                Err(failure) => return Err(failure),
            };
            item.source = source;
            if self.to_skip > 0 {
                self.to_skip -= 1;
                skipped = true;
                // Skipping millions of records takes a while: stay interruptible.
                if self.to_skip.is_multiple_of(SKIP_POLL) && interrupt.load(Ordering::Relaxed) {
                    self.interrupted = true;
                    return Ok(Chunk::default());
                }
                continue;
            }
            bytes += item.record.text_len();
            if count == 0 && skipped {
                read_from = self.raw_bytes.load(Ordering::Relaxed);
            }
            count += 1;
        }
        items.truncate(count);
        // The chunk's digests cover its records' bytes.
        if let Some(current) = &mut self.current {
            current.reader.settle();
        }
        Ok(Chunk {
            items,
            read_from,
            read_to: self.raw_bytes.load(Ordering::Relaxed),
            consumed: self.consumed(),
            last,
        })
    }

    /// The input bytes consumed so far, by input.
    pub fn consumed(&self) -> Vec<Prefix> {
        let mut all = self.finished.clone();
        if let Some(current) = &self.current {
            let tracker = lock(&current.tracker);
            all.push(Prefix {
                name: self.inputs[current.index].name.clone(),
                bytes: tracker.hasher().len(),
                digest: tracker.hasher().digest(),
            });
        }
        all
    }

    /// Whether the input being read still has to reach the end of the bytes to check.
    fn check_pending(&self) -> bool {
        self.current
            .as_ref()
            .is_some_and(|c| lock(&c.tracker).pending())
    }

    /// Reads the next record of the inputs into `record` and returns the index of its input;
    /// `None` at the end of the inputs.
    fn next_item(&mut self, record: &mut Record) -> Result<Option<usize>, RunError> {
        loop {
            let current = match &mut self.current {
                Some(current) => current,
                None => {
                    let Some(input) = self.inputs.get(self.next_input) else {
                        return Ok(None);
                    };
                    let current = self.open(input, self.next_input)?;
                    if current.reader.has_regions() && self.columns_fixed && !self.regions {
                        // Only an input that could not be looked at in advance gets here.
                        return Err(RunError::Format {
                            name: input.name.clone(),
                            source: format::HeaderError::RegionsNotCarried,
                        });
                    }
                    self.regions |= current.reader.has_regions();
                    if self.next_input == 0 && matches!(self.settings.job, Job::Verify(_)) {
                        self.original = super::Original::of(&*current.reader);
                    }
                    if self.options.raw {
                        self.check_as_input(input, &current)?;
                    }
                    self.current.insert(current)
                }
            };
            let index = current.index;
            let read = current.reader.read_into(record);
            let input = &self.inputs[index];
            let changed = || RunError::InputChanged {
                name: input.name.clone(),
                bytes: self.settings.consumed[index].bytes,
            };
            match read {
                Ok(true) => {
                    // A resumed run checks each record's bytes before it hands the record on
                    // (only an input read before has bytes to check).
                    if self.settings.consumed.get(index).is_some() {
                        current.reader.settle();
                        if lock(&current.tracker).verdict() == Some(false) {
                            return Err(changed());
                        }
                    }
                    return Ok(Some(index));
                }
                Ok(false) => {
                    current.reader.settle();
                    let tracker = lock(&current.tracker);
                    match tracker.verdict() {
                        Some(false) => return Err(changed()),
                        // The input ended before the bytes the interrupted run had read.
                        None if tracker.pending() => return Err(changed()),
                        _ => {}
                    }
                    self.finished.push(Prefix {
                        name: input.name.clone(),
                        bytes: tracker.hasher().len(),
                        digest: tracker.hasher().digest(),
                    });
                    drop(tracker);
                    self.current = None;
                    self.next_input += 1;
                }
                Err(e) => {
                    let done = current.reader.position().line.saturating_sub(1);
                    return Err(RunError::Read {
                        name: input.name.clone(),
                        after: Place::after(current.parquet, done),
                        source: e,
                    });
                }
            }
        }
    }

    /// `--as-input`: whether the records of the input just opened can be written as they were,
    /// in one output with those of the inputs before it: the first sets the format and header
    /// that the others must have.
    fn check_as_input(&mut self, input: &Input, current: &Current) -> Result<(), RunError> {
        self.check_shape(input, current.format, current.reader.header())
    }

    /// `--as-input`: checks the inputs not yet opened that are regular files (looked at now:
    /// their format and header), so that one that cannot join the output is refused before
    /// anything is written. Others are checked when they open.
    pub fn check_inputs_ahead(&mut self) -> Result<(), RunError> {
        let unopened = self.next_input + usize::from(self.current.is_some());
        for input in &self.inputs[unopened..] {
            if !input
                .path()
                .is_some_and(|p| p.metadata().is_ok_and(|m| m.is_file()))
            {
                continue;
            }
            // One that fails to open fails again in its turn, with the error in its place.
            let Ok(opened) = input.open(Arc::default()) else {
                continue;
            };
            if opened.parquet {
                self.check_shape(input, None, None)?;
                continue;
            }
            let format = self.format_of(input, &opened.head);
            if let Ok(reader) = format::reader(format, opened.reader, &self.options) {
                self.check_shape(input, Some(format), reader.header())?;
            }
        }
        Ok(())
    }

    /// Whether an input of `format` (`None`: Parquet) with `header` can join the output.
    fn check_shape(
        &mut self,
        input: &Input,
        format: Option<format::InputFormat>,
        header: Option<&[u8]>,
    ) -> Result<(), RunError> {
        let refused = |source| RunError::AsInput {
            name: input.name.clone(),
            source,
        };
        let Some(format) = format.filter(|f| *f != format::InputFormat::Grid) else {
            let format = format.map_or("Parquet", format::InputFormat::name);
            return Err(refused(AsInputError::Format { format }));
        };
        let header = header.unwrap_or_default();
        let Some(first) = &self.as_input else {
            self.as_input = Some(AsInput {
                name: input.name.clone(),
                format,
                header: header.to_vec(),
            });
            return Ok(());
        };
        if first.format != format {
            return Err(refused(AsInputError::Mixed {
                format: format.name(),
                first: first.name.clone(),
                first_format: first.format.name(),
            }));
        }
        if first.header != header {
            return Err(refused(AsInputError::Header {
                first: first.name.clone(),
            }));
        }
        Ok(())
    }

    /// Whether the rows carry region layouts: an input opened so far gives records their own,
    /// or one still to read does (a regular file, looked at now: its header or first object).
    /// Asked once the first chunk is read, when the columns are fixed; an input that could not
    /// be looked at (standard input, a pipe) and has layouts that the rows do not carry is
    /// refused when it opens.
    pub fn rows_carry_regions(&mut self) -> bool {
        // The input being read (if any) has told already.
        let unopened = self.next_input + usize::from(self.current.is_some());
        self.regions = self.regions
            || self.inputs[unopened..]
                .iter()
                .any(|input| self.looks_to_have_regions(input));
        self.columns_fixed = true;
        self.regions
    }

    /// Whether `input`, a regular file not yet read, gives records their own region layouts;
    /// `false` for any other input, and for one that fails to open (it fails again in its turn,
    /// with the error in its place).
    fn looks_to_have_regions(&self, input: &Input) -> bool {
        let Some(path) = input
            .path()
            .filter(|p| p.metadata().is_ok_and(|m| m.is_file()))
        else {
            return false;
        };
        let Ok(opened) = input.open(Arc::default()) else {
            return false;
        };
        if opened.parquet {
            return format::parquet::ParquetReader::open(path, &self.options)
                .is_ok_and(|r| r.has_regions());
        }
        let format = self.format_of(input, &opened.head);
        format.has_columns()
            && format::reader(format, opened.reader, &self.options).is_ok_and(|r| r.has_regions())
    }

    /// The format of an input that is not Parquet: `--input-format`, or the one its name and
    /// first line `head` suggest.
    fn format_of(&self, input: &Input, head: &[u8]) -> format::InputFormat {
        self.settings
            .input_format
            .unwrap_or_else(|| format::detect(input.path(), head))
    }

    fn open(&self, input: &Input, index: usize) -> Result<Current, RunError> {
        let opened = input
            .open(self.raw_bytes.clone())
            .map_err(|source| RunError::Open {
                name: input.name.clone(),
                source,
            })?;
        if !opened.parquet && format::parquet::is_named(input.path()) {
            return Err(RunError::Format {
                name: input.name.clone(),
                source: format::parquet::misnamed(),
            });
        }
        // A Parquet file is known by its magic bytes, whatever `--input-format` says.
        let format = self.format_of(input, &opened.head);
        let options = ReadOptions {
            span: self
                .plan
                .as_ref()
                .map_or(self.options.span, |p| p.span(index)),
            ..self.options.clone()
        };
        let tracker = Arc::new(Mutex::new(Tracker::default()));
        if let Some(read_before) = self.settings.consumed.get(index) {
            lock(&tracker).expect(read_before.bytes, read_before.digest);
        }
        let mut hashed = HashingReader::new(opened.reader, Arc::clone(&tracker));
        let reader = if opened.parquet {
            // Any row may depend on the footer at the end: the whole file is what is read
            // (and checked again by a resumed run).
            std::io::copy(&mut hashed, &mut std::io::sink()).map_err(|source| RunError::Read {
                name: input.name.clone(),
                after: Place::Row(0),
                source,
            })?;
            let path = input.path().expect("only files are read as Parquet");
            format::parquet::ParquetReader::open(path, &options)
                .map(|r| Box::new(r) as Box<dyn RecordReader>)
        } else {
            format::reader(format, hashed, &options)
        };
        let reader = reader.map_err(|e| match e {
            format::ReaderError::Io(source) => RunError::Read {
                name: input.name.clone(),
                after: Place::after(opened.parquet, 0),
                source,
            },
            format::ReaderError::Header(source) => RunError::Format {
                name: input.name.clone(),
                source,
            },
        })?;
        Ok(Current {
            index,
            reader,
            tracker,
            parquet: opened.parquet,
            format: (!opened.parquet).then_some(format),
        })
    }
}

fn lock(tracker: &Mutex<Tracker>) -> std::sync::MutexGuard<'_, Tracker> {
    tracker.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_grow_from_a_sixteenth_to_the_most() {
        let sizes: Vec<usize> = (0..7).map(|n| chunk_records(8192, n)).collect();
        assert_eq!(sizes, [512, 1024, 2048, 4096, 8192, 8192, 8192]);
        for chunks in [58, 63, 64, 65, u32::MAX] {
            assert_eq!(chunk_records(8192, chunks), 8192, "after {chunks}");
        }
        // Small chunks start at a batch, or are whole from the start.
        assert_eq!(chunk_records(1000, 0), 64);
        assert_eq!(chunk_records(7, 0), 7);
        assert_eq!(chunk_records(1, 3), 1);
    }

    #[test]
    fn the_input_being_read_tells_its_regions_by_what_was_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("puzzles.txt");
        let line = format!("{}\n", crate::test_data::PUZZLE);
        std::fs::write(&path, line.repeat(1000)).unwrap();
        let inputs = [Input::file(path.clone())];
        let settings = crate::test_data::solve_settings(1);
        let mut feed = Feed::new(&inputs, &settings, None);
        let chunk = feed.next_chunk(&AtomicBool::new(false)).unwrap();
        assert!(!chunk.last);
        // Another file now has the input's name, one that gives records their own layouts: the
        // file being read has none, and is not opened again to be looked at.
        let other = dir.path().join("jigsaw.csv");
        std::fs::copy(
            concat!(env!("CARGO_MANIFEST_DIR"), "/data/jigsaw_sample.csv"),
            &other,
        )
        .unwrap();
        std::fs::rename(&other, &path).unwrap();
        assert!(!feed.rows_carry_regions());
    }
}
