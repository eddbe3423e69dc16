//! What a run is asked to do: the job for each record and everything else the pipeline needs
//! besides its inputs and output.

use crate::files::digest::Prefix;
use crate::format::parquet::ParquetCompression;
use crate::format::{Columns, InputFormat, OutputFormat};
use crate::layout::Layout;
use crate::shard::Shard;
use crate::solver::SolveOptions;

pub use super::augment::{AugmentOptions, MAX_COPIES};
pub use super::canon::{CanonOptions, DedupeOptions};

/// What to do with each record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Job {
    /// Solve the puzzle.
    Solve(SolveOptions),
    /// Check the proposed solution.
    Verify(VerifyOptions),
    /// Rate the puzzle for a person ([`crate::rate`]).
    Rate(RatingOptions),
    /// Find the puzzle's canonical form (and with `--dedupe` keep the first of each class).
    Canon(CanonOptions),
    /// Write random equivalent copies of the puzzle (and its solution).
    Augment(AugmentOptions),
}

impl Job {
    /// The command's name: `solve`, `verify`, `rate`, `canon` or `augment`.
    pub fn name(&self) -> &'static str {
        match self {
            Job::Solve(_) => "solve",
            Job::Verify(_) => "verify",
            Job::Rate(_) => "rate",
            Job::Canon(_) => "canon",
            Job::Augment(_) => "augment",
        }
    }
}

/// How `verify` checks a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VerifyOptions {
    /// Also require the puzzle to have exactly one solution (found by the solver, limit 2).
    pub unique: bool,
    /// The recursion budget of that uniqueness search.
    pub max_recursions: u64,
}

/// How `rate` handles a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RatingOptions {
    /// The recursion budget of the search that tells a puzzle with one solution (rated) from
    /// one with several (not rated).
    pub max_recursions: u64,
    /// Whose scale: HoDoKu's levels and scores, or Sudoku Explainer's ER, EP and ED.
    pub scale: Scale,
    /// Rate each puzzle's canonical form ([`crate::canon`]) instead of the puzzle as written:
    /// every puzzle equivalent to it (relabelled, rows and columns swapped, transposed) gets the
    /// same rating. Both raters' paths depend on where the cells are, so without it two
    /// equivalent puzzles may differ.
    pub invariant: bool,
}

/// The difficulty scale `rate` writes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Scale {
    /// HoDoKu's levels and scores ([`crate::rate`]).
    #[default]
    Hodoku,
    /// Sudoku Explainer's ER, EP and ED ([`crate::rate::se`]).
    Se,
}

impl Scale {
    /// Every scale, by its name.
    pub const ALL: [Scale; 2] = [Scale::Hodoku, Scale::Se];

    /// The name `--scale` takes.
    pub fn name(self) -> &'static str {
        match self {
            Scale::Hodoku => "hodoku",
            Scale::Se => "se",
        }
    }
}

impl std::str::FromStr for Scale {
    type Err = String;

    fn from_str(name: &str) -> Result<Scale, String> {
        Scale::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| format!("unknown scale '{name}': hodoku or se"))
    }
}

/// How many records a chunk holds at most, by count and by bytes of record text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChunkSize {
    /// Records per chunk.
    pub records: usize,
    /// Bytes of record text per chunk (puzzle, solution and kept fields).
    pub bytes: usize,
    /// Whether the first chunks are smaller and grow to `records`, so that the pool starts
    /// sooner; `false` for a caller that hands each chunk out as a batch of `records` rows.
    pub grow: bool,
}

/// Records per chunk, at most.
pub const CHUNK_RECORDS: usize = 8192;

/// Records per chunk for each worker thread ([`ChunkSize::for_threads`]). A chunk's records and
/// rows are touched by a worker and then by the calling thread: the smaller the chunks, the more
/// of them is still in the cache the second time, and the less fresh memory a run faults in
/// (measured, one thread: chunks of 8,192 records took 5-7% longer than 1,024-2,048 on serg and
/// easy sets).
const THREAD_RECORDS: usize = 1024;

/// Records per chunk at least: smaller chunks spend the time on wake-ups and writes instead
/// (512 records a chunk took 5-10% longer than 2,048 on one thread).
const LEAST_RECORDS: usize = 2048;

/// The most worker threads a run can keep busy, and so the most `--threads` accepts: the pool
/// holds two chunks of at most [`CHUNK_RECORDS`] records, in batches of
/// [`BATCH`](super::BATCH), so no more batches than this are ever waiting for a thread.
pub const MAX_THREADS: usize = pool_batches(CHUNK_RECORDS);

/// The most batches the pool holds with chunks of `records`: two chunks' worth.
const fn pool_batches(records: usize) -> usize {
    2 * chunk_batches(records)
}

/// The batches of a chunk of `records`.
const fn chunk_batches(records: usize) -> usize {
    records.div_ceil(super::BATCH)
}

impl ChunkSize {
    /// The chunk size of a run on `threads` workers: [`THREAD_RECORDS`] records a thread,
    /// [`LEAST_RECORDS`] at least and [`CHUNK_RECORDS`] at most (from 8 threads on): up to 8
    /// threads, a chunk holds 16 batches or more for each.
    pub fn for_threads(threads: usize) -> Self {
        ChunkSize {
            records: threads
                .saturating_mul(THREAD_RECORDS)
                .clamp(LEAST_RECORDS, CHUNK_RECORDS),
            ..ChunkSize::default()
        }
    }

    /// The most batches the pool holds: two chunks' worth.
    pub fn pool_batches(&self) -> usize {
        pool_batches(self.records)
    }

    /// The batches of one chunk.
    pub fn batches(&self) -> usize {
        chunk_batches(self.records)
    }
}

impl Default for ChunkSize {
    fn default() -> Self {
        ChunkSize {
            records: CHUNK_RECORDS,
            bytes: 2 << 20,
            grow: true,
        }
    }
}

/// The default bound of the canonical classes a run keeps (`--max-classes`: `canon --dedupe`,
/// `solve` and `rate` with `--canonical`): ten million, a summary of about 350 MB, well within
/// what `stats` and `merge` read back ([`crate::files::side::MAX_SUMMARY`]).
pub const DEFAULT_MAX_CLASSES: u64 = 10_000_000;

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
    /// Parquet output: the codec of its pages.
    pub parquet_compression: ParquetCompression,
    /// Worker threads, at most: a run starts no more than its batches can keep busy.
    pub threads: usize,
    /// Records to skip (read but neither handled nor written) at the start of the inputs, across
    /// input boundaries. When it is not zero the header row is not written either: the run
    /// continues an earlier output, which has it.
    pub skip_records: u64,
    /// The input bytes an interrupted run had read (by input, in order), which this run checks
    /// are unchanged before it writes any row ([`crate::pipeline::RunError::InputChanged`]).
    pub consumed: Vec<Prefix>,
    /// Whether to build a dataset summary ([`crate::stats::Summary`]) of the rows (solve).
    pub summarise: bool,
    /// Whether that summary also counts the distinct canonical forms of the puzzles
    /// ([`crate::stats::distinct`]).
    pub canonical: bool,
    /// With `canonical`: the most distinct forms the summary counts (`--max-classes`); one
    /// more ends the run with [`crate::pipeline::RunError::TooManyForms`].
    pub max_classes: u64,
    /// The chunk size.
    pub chunk: ChunkSize,
    /// Handle only the records of this shard of the inputs ([`crate::shard`]); `None`: all.
    pub shard: Option<Shard>,
    /// Key-value pairs for the output file's own metadata (Parquet): the tool version and the
    /// run's options, set by the command ([`crate::identity::file_metadata`]).
    pub file_metadata: Vec<(String, String)>,
}

impl Settings {
    /// The settings of a plain run of `job` on `threads` workers: the standard layout, formats
    /// detected, CSV out, every record, chunks sized for the threads; the other fields are set
    /// where a run wants them.
    pub fn new(job: Job, threads: usize) -> Self {
        let mut chunk = ChunkSize::for_threads(threads);
        if let Job::Augment(augment) = job {
            // A record makes `copies` rows: a chunk holds that many times fewer records (a
            // batch at least), so that the rows in memory stay about those of other runs.
            let copies = augment.copies.max(1) as usize;
            chunk.records = (chunk.records / copies).max(super::BATCH);
        }
        Settings {
            job,
            layout: Layout::standard(),
            input_format: None,
            columns: Columns::default(),
            output_format: OutputFormat::Csv,
            parquet_compression: ParquetCompression::default(),
            threads,
            skip_records: 0,
            consumed: Vec::new(),
            summarise: false,
            canonical: false,
            max_classes: DEFAULT_MAX_CLASSES,
            chunk,
            shard: None,
            file_metadata: Vec::new(),
        }
    }

    /// Whether the rows written are the input's records as they were (`canon --dedupe
    /// --as-input`), not rows of the job's columns.
    pub fn as_input(&self) -> bool {
        matches!(self.job, Job::Canon(CanonOptions { dedupe: Some(d) }) if d.as_input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_augment_chunk_holds_about_the_rows_of_another_run() {
        let plain = Settings::new(Job::Solve(Default::default()), 2)
            .chunk
            .records;
        for copies in [1, 8, 100, MAX_COPIES] {
            let job = Job::Augment(AugmentOptions {
                copies,
                seed: 0,
                distinct: false,
                solutions: false,
            });
            let records = Settings::new(job, 2).chunk.records;
            assert!(records >= super::super::BATCH, "{copies}");
            assert!(records * copies as usize <= plain.max(super::super::BATCH * copies as usize));
        }
    }
}
