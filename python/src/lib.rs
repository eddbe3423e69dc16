//! `sudoku_bulk`, the Python package of sudoku-bulk: the library's runs and summaries behind
//! functions (solve, verify, rate, canon, generate, solve_file, summarize) that take Python and
//! Arrow values and give back pyarrow tables, record batches and dicts.
//!
//! Only conversions live here ("Python bindings stay thin", STYLE.md): arguments are checked
//! and turned into the library's `Settings` and `Record`s; puzzles of every accepted kind (a
//! list of str, a pandas Series, a NumPy array, a pyarrow array, anything with the Arrow
//! PyCapsule interface) go through pyarrow into Arrow arrays, read here through the Arrow C data
//! interface; result rows come back as the library's columns (`format::columns`, already in the
//! Arrow layout) and cross into pyarrow the same way, their buffers moved, not copied. Every
//! run is a `pipeline::ColumnRun` (the pool, jobs and row builder of the command line), waited
//! for with the GIL released; the waiting thread wakes every [`SIGNAL_POLL`] so that Python can
//! deliver Ctrl-C, which stops the run.

mod arguments;
mod commands;
mod errors;
mod puzzles;
mod rows;
mod summary;

use std::sync::Mutex;
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use sudoku_bulk::command::config::{
    DEFAULT_MAX_GROUPS, DEFAULT_MAX_RECURSIONS, DEFAULT_MAX_SOLUTIONS, kept_column_entries,
    kept_columns,
};
use sudoku_bulk::files::Input;
use sudoku_bulk::format::columns::{ColumnBatch, ColumnKind};
use sudoku_bulk::format::{Columns, InputFormat};
use sudoku_bulk::pipeline::{
    ChunkSize, ColumnRun, DEFAULT_MAX_CLASSES, Job, Next, RecordSource, VerifyOptions,
};

use arguments::{
    bins_of, count, flag, layout_of, names, paths, records, regions_of, settings, solve_options,
    text, threads_of,
};
use errors::{arrow_error, is_type, run_error, type_name};
use puzzles::texts;
use rows::{arrow_batch, started, table, to_pyarrow};
use sudoku_bulk::stats;
use sudoku_bulk::stats::bins::{Bins, Chosen, Numbers};
use sudoku_bulk::stats::grouping::BinChoice;
use sudoku_bulk::stats::table::GroupBy;
use summary::{Bounds, document, summarize_batch, survey_batch};

/// How long a waiting call sleeps, at most, before it lets Python look for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// Rows per record batch of `solve_file` unless asked otherwise.
const DEFAULT_BATCH_SIZE: u64 = 16_384;

// The signatures below write the command line's defaults as literals (so that `help()` shows
// them): they must stay the library's.
const _: () = assert!(
    DEFAULT_MAX_RECURSIONS == 10_000_000
        && DEFAULT_MAX_SOLUTIONS == 2
        && DEFAULT_BATCH_SIZE == 16_384
        && DEFAULT_MAX_GROUPS == 10_000
        && DEFAULT_MAX_CLASSES == 10_000_000
);

/// Solve puzzles held in memory.
///
/// Every puzzle is solved on a pool of `threads` worker threads (default: one per core) with
/// the GIL released, each reported solution is checked by the independent verifier, and one row
/// per puzzle comes back, in input order, with the columns and types of the command line's
/// `solve` output in Parquet: `line` (the puzzle's position in `puzzles`, from 1), `puzzle`,
/// `solution`, `status`, `solutions`, the search counters (`recursions`, `max_depth`,
/// `guesses`, `backtracks`, `naked_singles`, `hidden_singles`, `givens`) and `error`, counts
/// as uint64 (null where no search ran), text as string; a `regions` column follows when
/// `regions` gives each puzzle its own layout.
///
/// puzzles: a list (or any iterable) of str, a pandas Series, a pyarrow string array, a NumPy
///     array of strings, or a NumPy integer array of shape (n, 81) with 0 for blank. Each
///     puzzle is 81 cells: 1-9 givens; '.', '0', '_' or '*' blanks. A puzzle that cannot be
///     read (wrong length, a stray character, None) or whose givens conflict is a row with
///     status 'invalid' and the reason in 'error'; nothing is raised for it.
/// max_solutions: stop after this many solutions; 2 (the default) makes 'solved' mean unique.
/// algorithm: 'fast' (the default), 'naive', 'candidates', 'random' or 'logic'.
/// max_recursions: the search budget per puzzle; past it the status is 'gave_up'.
/// seed: the seed of the algorithms that make random choices.
/// regions: jigsaw puzzles: one region layout (81 labels) for every puzzle, or one per puzzle
///     (a sequence as long as `puzzles`, of the same kinds; None for the 3x3 boxes, which the
///     `regions` column then writes out).
/// threads: worker threads; the result is the same for any number.
///
/// Returns a pyarrow.Table. Raises TypeError or ValueError, naming the argument, for an
/// argument of the wrong type or value, and KeyboardInterrupt on Ctrl-C (the run stops).
///
/// >>> import sudoku_bulk
/// >>> t = sudoku_bulk.solve(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"])
/// >>> t["status"][0].as_py(), t["guesses"][0].as_py()
/// ('solved', 0)
#[pyfunction]
#[pyo3(
    signature = (
        puzzles, *, max_solutions=None, algorithm=None, max_recursions=None, seed=None,
        regions=None, threads=None
    ),
    text_signature = "(puzzles, *, max_solutions=2, algorithm='fast', max_recursions=10000000, seed=0, regions=None, threads=None)"
)]
#[allow(clippy::too_many_arguments)]
fn solve<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    max_solutions: Option<&Bound<'py, PyAny>>,
    algorithm: Option<&Bound<'py, PyAny>>,
    max_recursions: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    regions: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let job = Job::Solve(solve_options(
        max_solutions,
        algorithm,
        max_recursions,
        seed,
    )?);
    rows_of_puzzles(py, job, puzzles, regions, threads)
}

/// The rows of `job` over puzzles held in memory (`solve`, `rate`), each on the layout
/// `regions` gives, on `threads` worker threads.
pub(crate) fn rows_of_puzzles<'py>(
    py: Python<'py>,
    job: Job,
    puzzles: &Bound<'py, PyAny>,
    regions: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let threads = threads_of(threads)?;
    let puzzles = texts(py, puzzles, "puzzles")?;
    let (layout, own) = regions_of(py, regions, puzzles.len())?;
    let records = records(puzzles, None, own);
    table(
        py,
        RecordSource::Records(records),
        settings(job, layout, threads),
    )
}

/// Verify proposed solutions of puzzles held in memory.
///
/// Each solution is checked by the independent verifier against its puzzle (and, with
/// `unique`, the puzzle is searched for a second solution); one row per puzzle comes back, in
/// input order, with the columns of the command line's `verify` output: `line` (the position,
/// from 1), `status` ('ok', 'wrong', 'invalid', or with `unique` 'gave_up'), `error` (why a
/// row is not 'ok') and `puzzle` (to join on), plus `regions` when each puzzle has its own
/// layout.
///
/// puzzles, solutions: of the same length, each of the kinds `solve` takes.
/// unique: also require the puzzle to have exactly one solution: the one given.
/// max_recursions: the budget of that uniqueness search per puzzle.
/// regions, threads: as for `solve`.
///
/// Returns a pyarrow.Table.
///
/// >>> import sudoku_bulk
/// >>> p = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
/// >>> sudoku_bulk.verify([p], ["1" * 81])["status"].to_pylist()
/// ['wrong']
#[pyfunction]
#[pyo3(
    signature = (
        puzzles, solutions, *, unique=None, max_recursions=None, regions=None, threads=None
    ),
    text_signature = "(puzzles, solutions, *, unique=False, max_recursions=10000000, regions=None, threads=None)"
)]
fn verify<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    solutions: &Bound<'py, PyAny>,
    unique: Option<&Bound<'py, PyAny>>,
    max_recursions: Option<&Bound<'py, PyAny>>,
    regions: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let job = verify_job(unique, max_recursions)?;
    let threads = threads_of(threads)?;
    let puzzles = texts(py, puzzles, "puzzles")?;
    let solutions = puzzles::solutions_for(py, solutions, puzzles.len())?;
    let (layout, own) = regions_of(py, regions, puzzles.len())?;
    let records = records(puzzles, Some(solutions), own);
    table(
        py,
        RecordSource::Records(records),
        settings(job, layout, threads),
    )
}

/// The job of `verify` and `verify_file`: its options checked.
fn verify_job(
    unique: Option<&Bound<'_, PyAny>>,
    max_recursions: Option<&Bound<'_, PyAny>>,
) -> PyResult<Job> {
    Ok(Job::Verify(VerifyOptions {
        unique: flag("unique", unique, false)?,
        max_recursions: count("max_recursions", max_recursions, DEFAULT_MAX_RECURSIONS, 1)?,
    }))
}

/// Solve every puzzle of files, as `sudoku-bulk solve` reads them, batch by batch.
///
/// Returns an iterator of pyarrow.RecordBatch, in input order, each of at most `batch_size`
/// rows (fewer when the records hold more than 64 MiB of text), with the columns and types of
/// the command line's `solve` output for the same files (`file` first when there are several
/// inputs; `line` is the line where the record starts; kept columns and `regions` at the end).
/// Memory stays bounded by a few batches whatever the size of the input: reading, solving and
/// your loop overlap, and the solving waits while you hold on to a batch.
///
/// path: a file (str or os.PathLike), or a list of files read in turn as one stream. Every
///     format the command line reads: one puzzle per line, CSV (the Kaggle sets as they are),
///     drawn grids, JSON lines, Parquet; plain or gzip.
/// input_format: 'line', 'csv', 'grid' or 'jsonl' instead of detecting each file's format.
/// puzzle_column: CSV, JSON lines, Parquet: the puzzle column (default: the first of puzzle,
///     quizzes, quiz, question, sudoku).
/// keep_columns: input columns copied to the end of each row; 'SOURCE=NAME' keeps one under
///     another name (['solutions=kaggle_solution'] for a Kaggle file: the rows have a
///     'solutions' column of their own).
/// regions: one region layout (81 labels) for every puzzle.
/// regions_column: the column holding each record's own layout (default: 'regions' if
///     present).
/// batch_size: rows per batch.
/// The other arguments are those of `solve`.
///
/// Raises FileNotFoundError or OSError when a file cannot be opened or read, and ValueError
/// when it does not fit its format (a CSV without the puzzle column); a bad record is a row.
/// Ctrl-C raises KeyboardInterrupt, also while the input sends nothing (a stalled pipe).
///
/// >>> import pyarrow.parquet as pq, sudoku_bulk
/// >>> batches = sudoku_bulk.solve_file("puzzles.txt.gz")
/// >>> with pq.ParquetWriter("solved.parquet", batches.schema) as out:
/// ...     for batch in batches:
/// ...         out.write_batch(batch)
#[pyfunction]
#[pyo3(
    signature = (
        path, *, max_solutions=None, algorithm=None, max_recursions=None, seed=None,
        regions=None, threads=None, batch_size=None, input_format=None, puzzle_column=None,
        keep_columns=None, regions_column=None
    ),
    text_signature = "(path, *, max_solutions=2, algorithm='fast', max_recursions=10000000, seed=0, regions=None, threads=None, batch_size=16384, input_format=None, puzzle_column=None, keep_columns=None, regions_column=None)"
)]
#[allow(clippy::too_many_arguments)]
fn solve_file<'py>(
    py: Python<'py>,
    path: &Bound<'py, PyAny>,
    max_solutions: Option<&Bound<'py, PyAny>>,
    algorithm: Option<&Bound<'py, PyAny>>,
    max_recursions: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    regions: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    batch_size: Option<&Bound<'py, PyAny>>,
    input_format: Option<&Bound<'py, PyAny>>,
    puzzle_column: Option<&Bound<'py, PyAny>>,
    keep_columns: Option<&Bound<'py, PyAny>>,
    regions_column: Option<&Bound<'py, PyAny>>,
) -> PyResult<Batches> {
    let job = Job::Solve(solve_options(
        max_solutions,
        algorithm,
        max_recursions,
        seed,
    )?);
    file_batches(
        py,
        job,
        path,
        FileArguments {
            regions,
            threads,
            batch_size,
            input_format,
            puzzle_column,
            keep_columns,
            regions_column,
            ..FileArguments::default()
        },
    )
}

/// Rate the puzzles of files for a person, as `sudoku-bulk rate FILE...` does, in bounded
/// memory: an iterator of pyarrow.RecordBatch, in input order, with the columns and types of
/// the command line's `rate` output for the same files (`rate --scale se`'s with
/// `scale='se'`).
///
/// path, input_format, puzzle_column, keep_columns, regions, regions_column, batch_size,
///     threads: as for `solve_file`.
/// max_recursions, scale, invariant: as for `rate`.
///
/// Raises as `solve_file` does.
///
/// >>> import sudoku_bulk
/// >>> batches = sudoku_bulk.rate_file("puzzles.txt.gz", scale="se")
/// >>> for batch in batches:
/// ...     print(batch.num_rows)
#[pyfunction]
#[pyo3(
    signature = (
        path, *, max_recursions=None, scale=None, invariant=None, regions=None, threads=None,
        batch_size=None, input_format=None, puzzle_column=None, keep_columns=None,
        regions_column=None
    ),
    text_signature = "(path, *, max_recursions=10000000, scale='hodoku', invariant=False, regions=None, threads=None, batch_size=16384, input_format=None, puzzle_column=None, keep_columns=None, regions_column=None)"
)]
#[allow(clippy::too_many_arguments)]
fn rate_file<'py>(
    py: Python<'py>,
    path: &Bound<'py, PyAny>,
    max_recursions: Option<&Bound<'py, PyAny>>,
    scale: Option<&Bound<'py, PyAny>>,
    invariant: Option<&Bound<'py, PyAny>>,
    regions: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    batch_size: Option<&Bound<'py, PyAny>>,
    input_format: Option<&Bound<'py, PyAny>>,
    puzzle_column: Option<&Bound<'py, PyAny>>,
    keep_columns: Option<&Bound<'py, PyAny>>,
    regions_column: Option<&Bound<'py, PyAny>>,
) -> PyResult<Batches> {
    let job = commands::rate_job(max_recursions, scale, invariant)?;
    file_batches(
        py,
        job,
        path,
        FileArguments {
            regions,
            threads,
            batch_size,
            input_format,
            puzzle_column,
            keep_columns,
            regions_column,
            ..FileArguments::default()
        },
    )
}

/// Verify the solutions files ship, as `sudoku-bulk verify FILE...` does, batch by batch in
/// bounded memory: the rows of the command line's `verify` output for the same files.
///
/// solution_column: the column of the solutions (default: the first of solution, solutions,
///     answer; the second field of a line).
/// unique, max_recursions: as for `verify`.
/// The other arguments are those of `solve_file`.
///
/// >>> import sudoku_bulk
/// >>> batches = sudoku_bulk.verify_file("kaggle.csv", unique=True)
#[pyfunction]
#[pyo3(
    signature = (
        path, *, unique=None, max_recursions=None, solution_column=None, regions=None,
        threads=None, batch_size=None, input_format=None, puzzle_column=None,
        keep_columns=None, regions_column=None
    ),
    text_signature = "(path, *, unique=False, max_recursions=10000000, solution_column=None, regions=None, threads=None, batch_size=16384, input_format=None, puzzle_column=None, keep_columns=None, regions_column=None)"
)]
#[allow(clippy::too_many_arguments)]
fn verify_file<'py>(
    py: Python<'py>,
    path: &Bound<'py, PyAny>,
    unique: Option<&Bound<'py, PyAny>>,
    max_recursions: Option<&Bound<'py, PyAny>>,
    solution_column: Option<&Bound<'py, PyAny>>,
    regions: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    batch_size: Option<&Bound<'py, PyAny>>,
    input_format: Option<&Bound<'py, PyAny>>,
    puzzle_column: Option<&Bound<'py, PyAny>>,
    keep_columns: Option<&Bound<'py, PyAny>>,
    regions_column: Option<&Bound<'py, PyAny>>,
) -> PyResult<Batches> {
    let job = verify_job(unique, max_recursions)?;
    file_batches(
        py,
        job,
        path,
        FileArguments {
            regions,
            threads,
            batch_size,
            input_format,
            puzzle_column,
            keep_columns,
            regions_column,
            solution_column,
        },
    )
}

/// The canonical form of every puzzle of files, as `sudoku-bulk canon FILE...` writes it,
/// batch by batch in bounded memory; with `dedupe=True` only the first record of each class,
/// as `canon --dedupe`.
///
/// dedupe, exact, max_classes: as for `canon`.
/// The other arguments are those of `solve_file` (the 3x3 boxes only).
///
/// >>> import sudoku_bulk
/// >>> batches = sudoku_bulk.canon_file("puzzles.txt.gz", dedupe=True)
#[pyfunction]
#[pyo3(
    signature = (
        path, *, dedupe=None, exact=None, max_classes=None, threads=None, batch_size=None,
        input_format=None, puzzle_column=None, keep_columns=None
    ),
    text_signature = "(path, *, dedupe=False, exact=False, max_classes=10000000, threads=None, batch_size=16384, input_format=None, puzzle_column=None, keep_columns=None)"
)]
#[allow(clippy::too_many_arguments)]
fn canon_file<'py>(
    py: Python<'py>,
    path: &Bound<'py, PyAny>,
    dedupe: Option<&Bound<'py, PyAny>>,
    exact: Option<&Bound<'py, PyAny>>,
    max_classes: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    batch_size: Option<&Bound<'py, PyAny>>,
    input_format: Option<&Bound<'py, PyAny>>,
    puzzle_column: Option<&Bound<'py, PyAny>>,
    keep_columns: Option<&Bound<'py, PyAny>>,
) -> PyResult<Batches> {
    let job = commands::canon_job(dedupe, exact, max_classes)?;
    file_batches(
        py,
        job,
        path,
        FileArguments {
            threads,
            batch_size,
            input_format,
            puzzle_column,
            keep_columns,
            ..FileArguments::default()
        },
    )
}

/// Random equivalent copies of every puzzle of files, as `sudoku-bulk augment FILE...` writes
/// them (drawn from the seed, the input and the record's line: the command line's copies),
/// batch by batch in bounded memory.
///
/// copies, seed, distinct: as for `augment`.
/// solutions: transform each record's solution alike, read from `solution_column` (default:
///     the first of solution, solutions, answer; the second field of a line).
/// The other arguments are those of `solve_file` (the 3x3 boxes only).
///
/// >>> import sudoku_bulk
/// >>> batches = sudoku_bulk.augment_file("kaggle.csv", copies=4, solutions=True)
#[pyfunction]
#[pyo3(
    signature = (
        path, *, copies=None, seed=None, distinct=None, solutions=None, solution_column=None,
        threads=None, batch_size=None, input_format=None, puzzle_column=None, keep_columns=None
    ),
    text_signature = "(path, *, copies=1, seed=0, distinct=False, solutions=False, solution_column=None, threads=None, batch_size=16384, input_format=None, puzzle_column=None, keep_columns=None)"
)]
#[allow(clippy::too_many_arguments)]
fn augment_file<'py>(
    py: Python<'py>,
    path: &Bound<'py, PyAny>,
    copies: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    distinct: Option<&Bound<'py, PyAny>>,
    solutions: Option<&Bound<'py, PyAny>>,
    solution_column: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    batch_size: Option<&Bound<'py, PyAny>>,
    input_format: Option<&Bound<'py, PyAny>>,
    puzzle_column: Option<&Bound<'py, PyAny>>,
    keep_columns: Option<&Bound<'py, PyAny>>,
) -> PyResult<Batches> {
    let with_solutions = flag("solutions", solutions, false)?;
    if !with_solutions && solution_column.is_some_and(|c| !c.is_none()) {
        return Err(PyValueError::new_err(
            "solution_column: only with solutions=True (it names the column they are read from)",
        ));
    }
    let job = commands::augment_job(copies, seed, distinct, with_solutions)?;
    file_batches(
        py,
        job,
        path,
        FileArguments {
            threads,
            batch_size,
            input_format,
            puzzle_column,
            keep_columns,
            solution_column,
            ..FileArguments::default()
        },
    )
}

/// The arguments of a run over files that every `*_file` function takes (those a function
/// does not take: `None`, their defaults).
#[derive(Default)]
struct FileArguments<'a, 'py> {
    regions: Option<&'a Bound<'py, PyAny>>,
    threads: Option<&'a Bound<'py, PyAny>>,
    batch_size: Option<&'a Bound<'py, PyAny>>,
    input_format: Option<&'a Bound<'py, PyAny>>,
    puzzle_column: Option<&'a Bound<'py, PyAny>>,
    keep_columns: Option<&'a Bound<'py, PyAny>>,
    regions_column: Option<&'a Bound<'py, PyAny>>,
    /// The column of the solutions (`verify_file`, `augment_file`); `None` for the others.
    solution_column: Option<&'a Bound<'py, PyAny>>,
}

/// `job` over the files `path` names, started: its batches as they come.
fn file_batches(
    py: Python<'_>,
    job: Job,
    path: &Bound<'_, PyAny>,
    arguments: FileArguments<'_, '_>,
) -> PyResult<Batches> {
    let FileArguments {
        regions,
        threads,
        batch_size,
        input_format,
        puzzle_column,
        keep_columns,
        regions_column,
        solution_column,
    } = arguments;
    let inputs: Vec<Input> = paths(path)?.into_iter().map(Input::file).collect();
    let regions = text("regions", regions)?;
    let mut settings = settings(job, layout_of(regions.as_deref())?, threads_of(threads)?);
    let batch_size = count("batch_size", batch_size, DEFAULT_BATCH_SIZE, 1)?;
    // Every chunk is a batch of `batch_size` rows, the first ones too.
    settings.chunk = ChunkSize {
        records: usize::try_from(batch_size).unwrap_or(usize::MAX),
        bytes: 64 << 20,
        grow: false,
    };
    settings.input_format = text("input_format", input_format)?
        .map(|name| {
            name.parse::<InputFormat>().map_err(|_| {
                PyValueError::new_err(format!(
                    "input_format: '{name}' is not one of 'line', 'csv', 'grid', 'jsonl' (Parquet is known by its content)"
                ))
            })
        })
        .transpose()?;
    // `SOURCE=NAME` renames a kept column, as on the command line.
    let (keep, keep_as) = kept_column_entries(&names("keep_columns", keep_columns)?)
        .map_err(errors::kept_columns_error)?;
    settings.columns = Columns {
        puzzle: text("puzzle_column", puzzle_column)?,
        solution: text("solution_column", solution_column)?,
        keep,
        keep_as,
        regions: text("regions_column", regions_column)?,
    };
    // The command line's check: no kept column named twice, or as one of the rows' own.
    kept_columns(&settings, inputs.len() > 1).map_err(errors::kept_columns_error)?;
    let run = started(py, RecordSource::Inputs(inputs), settings)?;
    Ok(Batches {
        columns: run.columns().to_vec(),
        kinds: run.kinds().to_vec(),
        run: Mutex::new(Some(run)),
    })
}

/// The dataset summary of solve or rate results: the numbers of `sudoku-bulk stats --json`.
///
/// results: what `solve`, `solve_file` or `rate` returns, or any table of its columns: a
///     pyarrow.Table or RecordBatch, a pandas or polars DataFrame, anything with the Arrow
///     PyCapsule stream interface, or an iterable of record batches (such as what `solve_file`
///     returns, summarised as it streams by); it needs the `status` column and the seven
///     counter columns (rows of `rate`: its rating columns, told as `stats` tells them), and
///     may hold any others.
/// by: a column to group by as well: the summary gains one group per value (its text; null
///     is the empty string), as `stats --by COL --bins none` (the command, without --bins,
///     puts a column of more than 30 numbers into bins on its own; here, bins are asked for).
/// bins: with `by`, put its numbers in bins, as `stats --bins`: an int N for N quantile bins
///     of about equal size, or a list of edges in increasing order ([A, B], (B, C], ..., with
///     < A and > the last for values outside); None or "none": one group per value. A value
///     that is neither a number nor empty raises ValueError. Quantiles of a table are exact
///     from a first reading of the column; of a stream of batches, from one group per value
///     (at most max_groups), gathered into bins at the end.
/// max_groups: with `by`, the most groups (default 10000, as `stats --max-groups`); a row that
///     makes one more is refused with ValueError (each group takes about half a kilobyte).
/// canonical: also count the distinct canonical forms of the `puzzle` column, as
///     `stats --canonical` (the `canonical` part of the dict).
/// max_classes: with `canonical`, the most distinct puzzles counted (default 10000000, as
///     `stats --max-classes`; each takes 20 to 60 bytes); one more raises ValueError.
///
/// Returns a dict: records, the count of every status, records solved without a guess, for
/// each counter its count, sum, mean, min, max, quantiles and histogram, and the hardest
/// records (named by the `line`, `puzzle`, `file` and `regions` columns, when present), exactly
/// as the library computes them (summaries of parts merge into the summary of the whole); for
/// rows of `rate`, the `rating` or `se_rating` part instead (and `se_hardest`). Raises
/// ValueError for a missing column or a row that is not a result.
///
/// >>> import sudoku_bulk
/// >>> rows = sudoku_bulk.solve(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"])
/// >>> sudoku_bulk.summarize(rows)["records"]
/// 1
#[pyfunction]
#[pyo3(
    signature = (results, by=None, *, bins=None, max_groups=None, canonical=None, max_classes=None),
    text_signature = "(results, by=None, *, bins=None, max_groups=10000, canonical=False, max_classes=10000000)"
)]
#[allow(clippy::too_many_arguments)]
fn summarize<'py>(
    py: Python<'py>,
    results: &Bound<'py, PyAny>,
    by: Option<&str>,
    bins: Option<&Bound<'py, PyAny>>,
    max_groups: Option<&Bound<'py, PyAny>>,
    canonical: Option<&Bound<'py, PyAny>>,
    max_classes: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let bins = bins_of(bins)?;
    if by.is_none() && bins != BinChoice::None {
        return Err(PyValueError::new_err(
            "bins: puts the numbers of the `by` column in bins; give by=COLUMN as well",
        ));
    }
    let max_groups = count("max_groups", max_groups, DEFAULT_MAX_GROUPS as u64, 1)?;
    let max_groups = usize::try_from(max_groups).unwrap_or(usize::MAX);
    let canonical = flag("canonical", canonical, false)?;
    if max_classes.is_some_and(|m| !m.is_none()) && !canonical {
        return Err(PyValueError::new_err(
            "max_classes: counts canonical forms; give canonical=True as well",
        ));
    }
    let max_classes = count("max_classes", max_classes, DEFAULT_MAX_CLASSES, 1)?;
    let bounds = Bounds {
        max_groups,
        max_classes: canonical.then_some(max_classes),
    };
    let empty = |by: Option<GroupBy<'_>>| {
        let summary = by.map_or_else(stats::Summary::new, GroupBy::summary);
        if canonical {
            summary.counting_forms()
        } else {
            summary
        }
    };
    let pa = py.import("pyarrow")?;
    let batches: Vec<Bound<'py, PyAny>> = if results.is_instance(&pa.getattr("Table")?)? {
        results.call_method0("to_batches")?.extract()?
    } else if results.is_instance(&pa.getattr("RecordBatch")?)? {
        vec![results.clone()]
    } else if is_type(results, "pandas", "DataFrame")? {
        let kwargs = PyDict::new(py);
        kwargs.set_item("preserve_index", false)?;
        pa.getattr("Table")?
            .call_method("from_pandas", (results,), Some(&kwargs))?
            .call_method0("to_batches")?
            .extract()?
    } else if is_type(results, "polars", "DataFrame")? {
        results
            .call_method0("to_arrow")?
            .call_method0("to_batches")?
            .extract()?
    } else if results.hasattr("__arrow_c_stream__")? && !results.is_instance_of::<Batches>() {
        pa.call_method1("table", (results,))?
            .call_method0("to_batches")?
            .extract()?
    } else if let Ok(items) = results.try_iter() {
        // Batches taken one at a time: a stream is summarised without being held, so quantile
        // bins are found from one group per value (bounded by max_groups), gathered at the end.
        let by = by.map(|column| match &bins {
            BinChoice::None | BinChoice::Automatic => GroupBy::Values(column),
            BinChoice::Quantiles(_) => GroupBy::Numbers(column),
            BinChoice::Edges(edges) => GroupBy::Bins(column, edges),
        });
        let mut total = empty(by);
        let mut seen = 0;
        for item in items {
            let item = item?;
            if !item.is_instance(&pa.getattr("RecordBatch")?)? {
                return Err(PyTypeError::new_err(format!(
                    "results: an iterable holding {}; expected pyarrow.RecordBatch",
                    type_name(&item)?
                )));
            }
            seen += summarize_batch(py, &pa, &item, by, bounds, seen, &mut total)?;
        }
        if let BinChoice::Quantiles(n) = bins {
            let numbers = stats::table::numbers_of_groups(&total);
            if let Some(quantiles) = Bins::quantiles(&numbers, n, Chosen::Quantiles) {
                total = total
                    .binned(quantiles)
                    .expect("every group is a number or empty");
                stats::table::check_groups(&total, max_groups, seen.saturating_sub(1))
                    .map_err(|e| PyValueError::new_err(format!("results: {e}")))?;
            }
        }
        return document(py, &total);
    } else {
        return Err(PyTypeError::new_err(format!(
            "results: {}; expected a pyarrow.Table or RecordBatch, a pandas or polars DataFrame, or an iterable of record batches",
            type_name(results)?
        )));
    };
    // A table held: quantile bins are found from a first reading of the `by` column alone.
    let quantiles = match (&bins, by) {
        (BinChoice::Quantiles(n), Some(column)) => {
            let mut numbers = Numbers::default();
            let mut seen = 0;
            for batch in &batches {
                seen += survey_batch(py, &pa, batch, column, seen, &mut numbers)?;
            }
            Bins::quantiles(&numbers, *n, Chosen::Quantiles)
        }
        _ => None,
    };
    let by = by.map(|column| match (&bins, &quantiles) {
        (BinChoice::None | BinChoice::Automatic, _) => GroupBy::Values(column),
        (BinChoice::Edges(edges), _) | (BinChoice::Quantiles(_), Some(edges)) => {
            GroupBy::Bins(column, edges)
        }
        // No number at all: every row in the empty group.
        (BinChoice::Quantiles(_), None) => GroupBy::Numbers(column),
    });
    let mut total = empty(by);
    let mut seen = 0;
    for batch in &batches {
        seen += summarize_batch(py, &pa, batch, by, bounds, seen, &mut total)?;
    }
    document(py, &total)
}

/// The record batches of a `solve_file` run, in input order.
#[pyclass(module = "sudoku_bulk")]
struct Batches {
    columns: Vec<String>,
    kinds: Vec<ColumnKind>,
    /// `None` once the run has ended or been closed.
    run: Mutex<Option<ColumnRun>>,
}

#[pymethods]
impl Batches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Ok(mut guard) = self.run.try_lock() else {
            return Err(PyRuntimeError::new_err(
                "these batches are being read by another thread",
            ));
        };
        let Some(run) = guard.as_mut() else {
            return Ok(None);
        };
        loop {
            let next = py.detach(|| run.next_within(SIGNAL_POLL));
            match next {
                Ok(Next::Rows(rows)) => {
                    let batch = py.detach(|| arrow_batch(&self.columns, &self.kinds, rows));
                    return to_pyarrow(py, batch.map_err(arrow_error)?).map(Some);
                }
                Ok(Next::Pending) => {
                    if let Err(interrupt) = py.check_signals() {
                        *guard = None;
                        return Err(interrupt);
                    }
                }
                Ok(Next::Done) => {
                    *guard = None;
                    return Ok(None);
                }
                Err(error) => {
                    *guard = None;
                    return Err(run_error(error));
                }
            }
        }
    }

    /// The pyarrow.Schema of every batch (also when there are none).
    #[getter]
    fn schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let empty = arrow_batch(&self.columns, &self.kinds, ColumnBatch::new(&self.kinds));
        to_pyarrow(py, empty.map_err(arrow_error)?)?.getattr("schema")
    }

    /// Stops the run: no more batches are read or solved.
    fn close(&self, py: Python<'_>) {
        let run = self.run.lock().ok().and_then(|mut guard| guard.take());
        // Stopping waits for the run's thread (a fraction of a second): without the GIL.
        py.detach(move || drop(run));
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &self,
        py: Python<'_>,
        _kind: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) {
        self.close(py);
    }
}

/// Solve, verify, rate, canonicalise, generate and summarise Sudoku puzzles in bulk, on every
/// core, into pyarrow tables: the rows and numbers of the `sudoku-bulk` command line.
///
/// Puzzles come in as a list of str, a pandas or polars Series, a pyarrow or NumPy array (one
/// puzzle of 81 cells each: 1-9 givens, '.', '0', '_' or '*' blanks); rows come back as a
/// pyarrow.Table with the columns and types of the command's Parquet output
/// (`table.to_pandas()`, `polars.from_arrow(table)`). A bad puzzle is a row with status
/// 'invalid' and the reason in `error`; a bad argument raises TypeError or ValueError, with the
/// command line's message; Ctrl-C raises KeyboardInterrupt within a fraction of a second.
///
/// Functions: solve, verify, rate, canon, augment, generate (puzzles in memory); show (the
/// report of one puzzle, as a str); solve_file, verify_file, rate_file, canon_file and
/// augment_file (files in every input format, batch by batch, in bounded memory); summarize (the numbers of `sudoku-bulk stats --json`).
///
/// `line` is a row's position among the puzzles given, from 1, in solve, verify, rate and
/// canon; in solve_file (and the command line) it is the line of the file where the record
/// starts (the row number, from 1, in a Parquet file).
///
/// >>> import sudoku_bulk
/// >>> t = sudoku_bulk.solve(["53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"])
/// >>> t.column("status").to_pylist()
/// ['solved']
#[pymodule(name = "sudoku_bulk")]
fn python_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(commands::rate, m)?)?;
    m.add_function(wrap_pyfunction!(commands::canon, m)?)?;
    m.add_function(wrap_pyfunction!(commands::generate, m)?)?;
    m.add_function(wrap_pyfunction!(commands::augment, m)?)?;
    m.add_function(wrap_pyfunction!(commands::show, m)?)?;
    m.add_function(wrap_pyfunction!(solve_file, m)?)?;
    m.add_function(wrap_pyfunction!(rate_file, m)?)?;
    m.add_function(wrap_pyfunction!(verify_file, m)?)?;
    m.add_function(wrap_pyfunction!(canon_file, m)?)?;
    m.add_function(wrap_pyfunction!(augment_file, m)?)?;
    m.add_function(wrap_pyfunction!(summarize, m)?)?;
    m.add_class::<Batches>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
