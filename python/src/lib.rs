//! `sudoku_bulk`, the Python package of sudoku-bulk: the library's runs and summaries behind
//! four functions that take Python and Arrow values and give back pyarrow tables, record
//! batches and dicts.
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

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arrow_array::cast::AsArray;
use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema, from_ffi, to_ffi};
use arrow_array::{Array, ArrayRef, RecordBatch, StringArray, StructArray, UInt64Array};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer};
use arrow_schema::{ArrowError, DataType, Field, Schema};
use pyo3::exceptions::{
    PyFileNotFoundError, PyKeyboardInterrupt, PyOSError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyCapsule, PyDict, PyList, PyString, PyTuple};

use sudoku_bulk::Layout;
use sudoku_bulk::command::config::{DEFAULT_MAX_RECURSIONS, DEFAULT_MAX_SOLUTIONS};
use sudoku_bulk::files::Input;
use sudoku_bulk::format::columns::{Column, ColumnBatch, ColumnKind, TextColumn};
use sudoku_bulk::format::{Columns, InputFormat, OutputFormat, Record};
use sudoku_bulk::pipeline::{
    ChunkSize, ColumnRun, Job, Next, RecordSource, RunError, Settings, VerifyOptions,
};
use sudoku_bulk::solver::{Algorithm, SolveOptions};
use sudoku_bulk::stats::{self, Counter, Summary};

/// Values given in Python as text, in order, each as its bytes; `None` for a null.
type Texts = Vec<Option<Vec<u8>>>;

/// How long a waiting call sleeps, at most, before it lets Python look for Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// Rows per record batch of `solve_file` unless asked otherwise.
const DEFAULT_BATCH_SIZE: u64 = 65_536;

// The signatures below write the command line's defaults as literals (so that `help()` shows
// them): they must stay the library's.
const _: () = assert!(
    DEFAULT_MAX_RECURSIONS == 10_000_000
        && DEFAULT_MAX_SOLUTIONS == 2
        && DEFAULT_BATCH_SIZE == 65_536
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
///     (a sequence as long as `puzzles`, of the same kinds).
/// threads: worker threads; the result is the same for any number.
///
/// Returns a pyarrow.Table. Raises TypeError or ValueError, naming the argument, for an
/// argument of the wrong type or value, and KeyboardInterrupt on Ctrl-C (the run stops).
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
/// from 1), `status` ('ok', 'wrong', 'invalid', or with `unique` 'gave_up') and `error` (why a
/// row is not 'ok'), plus `regions` when each puzzle has its own layout.
///
/// puzzles, solutions: of the same length, each of the kinds `solve` takes.
/// unique: also require the puzzle to have exactly one solution: the one given.
/// max_recursions: the budget of that uniqueness search per puzzle.
/// regions, threads: as for `solve`.
///
/// Returns a pyarrow.Table.
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
    let job = Job::Verify(VerifyOptions {
        unique: flag("unique", unique, false)?,
        max_recursions: count("max_recursions", max_recursions, DEFAULT_MAX_RECURSIONS, 1)?,
    });
    let threads = threads_of(threads)?;
    let puzzles = texts(py, puzzles, "puzzles")?;
    let solutions = texts(py, solutions, "solutions")?;
    if solutions.len() != puzzles.len() {
        return Err(PyValueError::new_err(format!(
            "solutions: {} of them for {} puzzles; give one per puzzle",
            solutions.len(),
            puzzles.len()
        )));
    }
    let (layout, own) = regions_of(py, regions, puzzles.len())?;
    let records = records(puzzles, Some(solutions), own);
    table(
        py,
        RecordSource::Records(records),
        settings(job, layout, threads),
    )
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
/// keep_columns: input columns copied to the end of each row.
/// regions: one region layout (81 labels) for every puzzle.
/// regions_column: the column holding each record's own layout (default: 'regions' if
///     present).
/// batch_size: rows per batch.
/// The other arguments are those of `solve`.
///
/// Raises FileNotFoundError or OSError when a file cannot be opened or read, and ValueError
/// when it does not fit its format (a CSV without the puzzle column); a bad record is a row.
#[pyfunction]
#[pyo3(
    signature = (
        path, *, max_solutions=None, algorithm=None, max_recursions=None, seed=None,
        regions=None, threads=None, batch_size=None, input_format=None, puzzle_column=None,
        keep_columns=None, regions_column=None
    ),
    text_signature = "(path, *, max_solutions=2, algorithm='fast', max_recursions=10000000, seed=0, regions=None, threads=None, batch_size=65536, input_format=None, puzzle_column=None, keep_columns=None, regions_column=None)"
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
    let inputs = paths(path)?.into_iter().map(Input::file).collect();
    let regions = text("regions", regions)?;
    let mut settings = settings(job, layout_of(regions.as_deref())?, threads_of(threads)?);
    let batch_size = count("batch_size", batch_size, DEFAULT_BATCH_SIZE, 1)?;
    settings.chunk = ChunkSize {
        records: usize::try_from(batch_size).unwrap_or(usize::MAX),
        bytes: 64 << 20,
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
    settings.columns = Columns {
        puzzle: text("puzzle_column", puzzle_column)?,
        solution: None,
        keep: names("keep_columns", keep_columns)?,
        regions: text("regions_column", regions_column)?,
    };
    let run = py
        .detach(|| ColumnRun::start(RecordSource::Inputs(inputs), settings))
        .map_err(run_error)?;
    Ok(Batches {
        columns: run.columns().to_vec(),
        kinds: run.kinds().to_vec(),
        run: Mutex::new(Some(run)),
    })
}

/// The dataset summary of solve results: the numbers of `sudoku-bulk stats --json`.
///
/// results: a pyarrow.Table or RecordBatch, a pandas DataFrame, or an iterable of record
///     batches (such as what `solve_file` returns, summarised as it streams by); it needs the
///     `status` column and the seven counter columns, and may hold any others.
/// by: a column to group by as well: the summary gains one group per value (its text; null
///     is the empty string).
///
/// Returns a dict: records, the count of every status, records solved without a guess, and
/// for each counter its count, sum, mean, min, max, quantiles and histogram, exactly as the
/// library computes them (summaries of parts merge into the summary of the whole). Raises
/// ValueError for a missing column or a row that is not a solve result.
#[pyfunction]
#[pyo3(signature = (results, by=None))]
fn summarize<'py>(
    py: Python<'py>,
    results: &Bound<'py, PyAny>,
    by: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
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
    } else if let Ok(items) = results.try_iter() {
        // Batches taken one at a time: a stream is summarised without being held.
        let mut total = empty_summary(by);
        let mut seen = 0;
        for item in items {
            let item = item?;
            if !item.is_instance(&pa.getattr("RecordBatch")?)? {
                return Err(PyTypeError::new_err(format!(
                    "results: an iterable holding {}; expected pyarrow.RecordBatch",
                    type_name(&item)?
                )));
            }
            seen += summarize_batch(py, &pa, &item, by, seen, &mut total)?;
        }
        return document(py, &total);
    } else {
        return Err(PyTypeError::new_err(format!(
            "results: {}; expected a pyarrow.Table or RecordBatch, a pandas DataFrame, or an iterable of record batches",
            type_name(results)?
        )));
    };
    let mut total = empty_summary(by);
    let mut seen = 0;
    for batch in &batches {
        seen += summarize_batch(py, &pa, batch, by, seen, &mut total)?;
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
                    let batch = py.detach(|| arrow_batch(&self.columns, rows));
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
        let empty = arrow_batch(&self.columns, ColumnBatch::new(&self.kinds));
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

/// A record batch on its way to pyarrow, which takes it by the Arrow PyCapsule protocol.
#[pyclass(frozen)]
struct ArrowRows {
    batch: RecordBatch,
}

#[pymethods]
impl ArrowRows {
    /// The batch as an Arrow C struct array and its schema, each in a capsule that releases it
    /// unless the consumer moved it out.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let _ = requested_schema;
        let data = StructArray::from(self.batch.clone()).into_data();
        let (array, schema) = to_ffi(&data).map_err(arrow_error)?;
        let schema = PyCapsule::new_with_value(py, schema, c"arrow_schema")?;
        let array = PyCapsule::new_with_value(py, array, c"arrow_array")?;
        PyTuple::new(py, [schema, array])
    }
}

/// The module.
#[pymodule(name = "sudoku_bulk")]
fn python_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(solve_file, m)?)?;
    m.add_function(wrap_pyfunction!(summarize, m)?)?;
    m.add_class::<Batches>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

// ----- Arguments -----

// Optional arguments come in as Python objects (None: the default) and are checked here, so
// that every message names its argument on every Python version (PyO3's own conversion errors
// name it only in a note, from Python 3.11).

/// An integer argument of at least `min`; `default` when not given (or None).
fn count(name: &str, value: Option<&Bound<'_, PyAny>>, default: u64, min: u64) -> PyResult<u64> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(default);
    };
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected an int, not a bool"
        )));
    }
    let number: i128 = value.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name}: expected an int, not {}",
            type_name(value).unwrap_or_default()
        ))
    })?;
    u64::try_from(number)
        .ok()
        .filter(|&v| v >= min)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "{name} must be an integer from {min} to {}, not {number}",
                u64::MAX
            ))
        })
}

/// A str argument; `None` when not given (or None).
fn text(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    match value.cast::<PyString>() {
        Ok(text) => Ok(Some(text.to_cow()?.into_owned())),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name}: expected a str, not {}",
            type_name(value)?
        ))),
    }
}

/// A bool argument; `default` when not given (or None).
fn flag(name: &str, value: Option<&Bound<'_, PyAny>>, default: bool) -> PyResult<bool> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(default);
    };
    match value.cast::<PyBool>() {
        Ok(flag) => Ok(flag.is_true()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name}: expected a bool, not {}",
            type_name(value)?
        ))),
    }
}

/// A list of column names; empty when not given (or None).
fn names(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(Vec::new());
    };
    let expected = || {
        PyTypeError::new_err(format!(
            "{name}: expected a list of str, not {}",
            type_name(value).unwrap_or_default()
        ))
    };
    if value.is_instance_of::<PyString>() {
        return Err(expected());
    }
    value
        .try_iter()
        .map_err(|_| expected())?
        .map(|item| {
            let item = item?;
            text(name, Some(&item))?.ok_or_else(expected)
        })
        .collect()
}

fn solve_options(
    max_solutions: Option<&Bound<'_, PyAny>>,
    algorithm: Option<&Bound<'_, PyAny>>,
    max_recursions: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<SolveOptions> {
    let algorithm = text("algorithm", algorithm)?;
    Ok(SolveOptions {
        algorithm: algorithm
            .as_deref()
            .unwrap_or("fast")
            .parse::<Algorithm>()
            .map_err(|e| PyValueError::new_err(format!("algorithm: {e}")))?,
        max_solutions: count("max_solutions", max_solutions, DEFAULT_MAX_SOLUTIONS, 1)?,
        max_recursions: count("max_recursions", max_recursions, DEFAULT_MAX_RECURSIONS, 1)?,
        seed: count("seed", seed, 0, 0)?,
    })
}

/// The worker threads: as asked, or one per core.
fn threads_of(threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let asked = threads
        .filter(|n| !n.is_none())
        .map(|n| count("threads", Some(n), 1, 1).map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
        .transpose()?;
    sudoku_bulk::command::config::threads(asked).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// One region layout for every puzzle, written as 81 labels; the 3x3 boxes without it.
fn layout_of(regions: Option<&str>) -> PyResult<Layout> {
    match regions {
        None => Ok(Layout::standard()),
        Some(text) => Layout::parse(text.as_bytes())
            .map_err(|e| PyValueError::new_err(format!("regions: {e}"))),
    }
}

/// `regions` of `solve` and `verify`: one layout (a str), or one per puzzle (a sequence).
fn regions_of(
    py: Python<'_>,
    regions: Option<&Bound<'_, PyAny>>,
    puzzles: usize,
) -> PyResult<(Layout, Option<Texts>)> {
    let Some(regions) = regions else {
        return Ok((Layout::standard(), None));
    };
    if regions.is_none() {
        return Ok((Layout::standard(), None));
    }
    if let Ok(text) = regions.cast::<PyString>() {
        return Ok((layout_of(Some(&text.to_cow()?))?, None));
    }
    let own = texts(py, regions, "regions")?;
    if own.len() != puzzles {
        return Err(PyValueError::new_err(format!(
            "regions: {} layouts for {puzzles} puzzles; give one layout (a str) or one per puzzle",
            own.len()
        )));
    }
    Ok((Layout::standard(), Some(own)))
}

/// The files of `solve_file`: one path, or a list of them.
fn paths(path: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if let Ok(one) = path.extract::<PathBuf>() {
        return Ok(vec![one]);
    }
    match path.extract::<Vec<PathBuf>>() {
        Ok(paths) if paths.is_empty() => Err(PyValueError::new_err("path: an empty list of files")),
        Ok(paths) => Ok(paths),
        Err(_) => Err(PyTypeError::new_err(format!(
            "path: {}; expected a str or os.PathLike, or a list of them",
            type_name(path)?
        ))),
    }
}

/// The settings of a columnar run.
fn settings(job: Job, layout: Layout, threads: usize) -> Settings {
    Settings {
        job,
        layout,
        input_format: None,
        columns: Columns::default(),
        output_format: OutputFormat::Parquet,
        threads,
        skip_records: 0,
        consumed: Vec::new(),
        summarise: false,
        chunk: ChunkSize::default(),
        shard: None,
        file_metadata: Vec::new(),
    }
}

/// Records held in memory, numbered from 1; a null is an empty value, as a Parquet input's is.
fn records(puzzles: Texts, solutions: Option<Texts>, regions: Option<Texts>) -> Vec<Record> {
    let mut solutions = solutions.map(Vec::into_iter);
    let mut regions = regions.map(Vec::into_iter);
    (1..)
        .zip(puzzles)
        .map(|(line, puzzle)| Record {
            line,
            offset: line - 1,
            puzzle: puzzle.unwrap_or_default(),
            solution: solutions
                .as_mut()
                .map(|s| s.next().flatten().unwrap_or_default()),
            regions: regions.as_mut().and_then(|r| r.next().flatten()),
            ..Record::default()
        })
        .collect()
}

// ----- Puzzles in: Python values to Arrow arrays to bytes -----

/// The text of every value of `values` (the argument `name`), in order; `None` for a null.
fn texts(py: Python<'_>, values: &Bound<'_, PyAny>, name: &str) -> PyResult<Texts> {
    if values.is_instance_of::<PyString>() || values.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "{name}: one {}; expected a sequence of them (a list, a pandas Series, an array)",
            type_name(values)?
        )));
    }
    if is_type(values, "numpy", "ndarray")? {
        let kind: String = values.getattr("dtype")?.getattr("kind")?.extract()?;
        if kind == "i" || kind == "u" {
            return integer_grids(py, values, name);
        }
        let ndim: usize = values.getattr("ndim")?.extract()?;
        if !matches!(kind.as_str(), "U" | "S" | "O") || ndim != 1 {
            return Err(PyTypeError::new_err(format!(
                "{name}: a NumPy array of dtype {} and shape {}; expected one dimension of strings, or integers of shape (n, 81)",
                values.getattr("dtype")?.str()?,
                values.getattr("shape")?.str()?
            )));
        }
    }
    if is_type(values, "pandas", "DataFrame")? {
        return Err(PyTypeError::new_err(format!(
            "{name}: a DataFrame; pass one of its columns, e.g. df[\"puzzle\"]"
        )));
    }
    let mut out = Vec::new();
    for chunk in arrow_chunks(py, values, name)? {
        let array = import_array(&chunk)?;
        let got = py.detach(|| append_texts(array.as_ref(), &mut out));
        if let Err(found) = got {
            return Err(PyTypeError::new_err(format!(
                "{name}: an Arrow array of {found}; expected strings"
            )));
        }
    }
    Ok(out)
}

/// `values` as pyarrow arrays of strings (or bytes), one per chunk.
fn arrow_chunks<'py>(
    py: Python<'py>,
    values: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let pa = py.import("pyarrow")?;
    let from_pandas = PyDict::new(py);
    from_pandas.set_item("from_pandas", true)?;
    let converted = if values.is_instance(&pa.getattr("Array")?)?
        || values.is_instance(&pa.getattr("ChunkedArray")?)?
    {
        values.clone()
    } else if values.hasattr("__arrow_c_stream__")? {
        pa.call_method1("chunked_array", (values,))?
    } else if values.hasattr("__arrow_c_array__")? {
        pa.call_method1("array", (values,))?
    } else if is_type(values, "pandas", "Series")? || is_type(values, "numpy", "ndarray")? {
        // Missing values (None, NaN, NA) become nulls.
        pa.call_method("array", (values,), Some(&from_pandas))?
    } else {
        let values = if values.is_instance_of::<PyList>() {
            values.clone()
        } else {
            PyList::new(py, values.try_iter().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{name}: {}; expected a sequence of puzzles (a list of str, a pandas Series, a NumPy or pyarrow array)",
                    type_name(values).unwrap_or_default()
                ))
            })?.collect::<PyResult<Vec<_>>>()?)?
            .into_any()
        };
        from_pandas.set_item("type", pa.call_method0("string")?)?;
        match pa.call_method("array", (&values,), Some(&from_pandas)) {
            Ok(array) => array,
            Err(error) => return Err(not_text(py, &values, name, error)),
        }
    };
    let chunks: Vec<Bound<'py, PyAny>> = if converted.is_instance(&pa.getattr("ChunkedArray")?)? {
        converted.getattr("chunks")?.extract()?
    } else {
        vec![converted]
    };
    let types = pa.getattr("types")?;
    chunks
        .into_iter()
        .map(|chunk| {
            let kind = chunk.getattr("type")?;
            if types.call_method1("is_dictionary", (&kind,))?.is_truthy()? {
                chunk.call_method0("dictionary_decode")
            } else if types.call_method1("is_null", (&kind,))?.is_truthy()? {
                chunk.call_method1("cast", (pa.call_method0("string")?,))
            } else {
                Ok(chunk)
            }
        })
        .collect()
}

/// The error for a sequence pyarrow could not read as strings: the first value that is not a
/// str, bytes or missing, by its index; else what pyarrow said.
fn not_text(py: Python<'_>, values: &Bound<'_, PyAny>, name: &str, error: PyErr) -> PyErr {
    let first_bad = values.try_iter().ok().and_then(|items| {
        items.enumerate().find_map(|(i, item)| {
            let item = item.ok()?;
            let fine = item.is_none()
                || item.is_instance_of::<PyString>()
                || item.is_instance_of::<PyBytes>()
                || item.extract::<f64>().is_ok_and(f64::is_nan);
            (!fine).then(|| (i, type_name(&item).unwrap_or_default()))
        })
    });
    match first_bad {
        Some((i, kind)) => PyTypeError::new_err(format!("{name}[{i}] is {kind}, not a str")),
        None => PyTypeError::new_err(format!("{name}: {}", error.value(py))),
    }
}

/// A NumPy integer array of shape (n, 81), 0 for blank, as n puzzles of 81 characters.
fn integer_grids(py: Python<'_>, values: &Bound<'_, PyAny>, name: &str) -> PyResult<Texts> {
    let shape: Vec<usize> = values.getattr("shape")?.extract()?;
    if shape.len() != 2 || shape[1] != 81 {
        return Err(PyValueError::new_err(format!(
            "{name}: integers must come as an array of shape (n, 81), one row per puzzle; this one has shape {shape:?}"
        )));
    }
    let np = py.import("numpy")?;
    let outside = np.call_method1(
        "logical_or",
        (
            values.call_method1("__lt__", (0,))?,
            values.call_method1("__gt__", (9,))?,
        ),
    )?;
    if outside.call_method0("any")?.is_truthy()? {
        let first: Vec<usize> = np
            .call_method1("argwhere", (outside,))?
            .get_item(0)?
            .call_method0("tolist")?
            .extract()?;
        let (row, col) = (first[0], first[1]);
        let value = values.get_item((row, col))?;
        return Err(PyValueError::new_err(format!(
            "{name}: cells are 0 (blank) to 9, but {name}[{row}, {col}] is {value}"
        )));
    }
    let digits = values
        .call_method1("astype", ("uint8",))?
        .call_method1("__add__", (b'0',))?;
    let bytes = np
        .call_method1("ascontiguousarray", (digits,))?
        .call_method0("tobytes")?;
    let bytes = bytes.cast::<PyBytes>()?.as_bytes();
    Ok(bytes
        .chunks_exact(81)
        .map(|cells| Some(cells.to_vec()))
        .collect())
}

/// An Arrow array from an object of the Arrow PyCapsule protocol (`__arrow_c_array__`).
fn import_array(value: &Bound<'_, PyAny>) -> PyResult<ArrayRef> {
    let value = aligned(value)?;
    let capsules = value.call_method0("__arrow_c_array__")?;
    let (schema, array): (Bound<'_, PyCapsule>, Bound<'_, PyCapsule>) = capsules.extract()?;
    let schema = schema
        .pointer_checked(Some(c"arrow_schema"))?
        .cast::<FFI_ArrowSchema>();
    let array = array
        .pointer_checked(Some(c"arrow_array"))?
        .cast::<FFI_ArrowArray>();
    // SAFETY: by the protocol, capsules named "arrow_schema" and "arrow_array" hold an
    // initialised ArrowSchema and ArrowArray; the array is moved out (the capsule keeps a
    // released one), and the schema is only read while its capsule, held above, lives.
    let data = unsafe { from_ffi(FFI_ArrowArray::from_raw(array.as_ptr()), schema.as_ref()) }
        .map_err(arrow_error)?;
    Ok(arrow_array::make_array(data))
}

/// A pyarrow array whose buffers all start at a multiple of 8 bytes: `value` itself, or a copy
/// (`pyarrow.concat_arrays` allocates anew). Arrays unpickled from out-of-band buffers (as Dask
/// sends a pandas string column to a worker) may start anywhere, and the Arrow C data import
/// reads a string array's last offset through a pointer it assumes aligned.
fn aligned<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let pa = value.py().import("pyarrow")?;
    if !value.is_instance(&pa.getattr("Array")?)? {
        return Ok(value.clone());
    }
    let buffers: Vec<Option<Bound<'py, PyAny>>> = value.call_method0("buffers")?.extract()?;
    for buffer in buffers.iter().flatten() {
        let address: usize = buffer.getattr("address")?.extract()?;
        if !address.is_multiple_of(8) {
            return pa.call_method1("concat_arrays", (vec![value.clone()],));
        }
    }
    Ok(value.clone())
}

/// Appends the values of a string or binary array to `out`; the array's type when it is
/// neither.
fn append_texts(array: &dyn Array, out: &mut Texts) -> Result<(), DataType> {
    out.reserve(array.len());
    let owned = |v: Option<&[u8]>| v.map(<[u8]>::to_vec);
    match array.data_type() {
        DataType::Utf8 => out.extend(
            array
                .as_string::<i32>()
                .iter()
                .map(|v| owned(v.map(str::as_bytes))),
        ),
        DataType::LargeUtf8 => out.extend(
            array
                .as_string::<i64>()
                .iter()
                .map(|v| owned(v.map(str::as_bytes))),
        ),
        DataType::Utf8View => out.extend(
            array
                .as_string_view()
                .iter()
                .map(|v| owned(v.map(str::as_bytes))),
        ),
        DataType::Binary => out.extend(array.as_binary::<i32>().iter().map(owned)),
        DataType::LargeBinary => out.extend(array.as_binary::<i64>().iter().map(owned)),
        DataType::BinaryView => out.extend(array.as_binary_view().iter().map(owned)),
        other => return Err(other.clone()),
    }
    Ok(())
}

// ----- Rows out: the library's columns to pyarrow -----

/// Runs `source` to its end and gathers its rows into one pyarrow.Table.
fn table<'py>(
    py: Python<'py>,
    source: RecordSource,
    settings: Settings,
) -> PyResult<Bound<'py, PyAny>> {
    let mut run = py
        .detach(|| ColumnRun::start(source, settings))
        .map_err(run_error)?;
    let columns = run.columns().to_vec();
    let mut batches = Vec::new();
    loop {
        match py.detach(|| run.next_within(SIGNAL_POLL)) {
            Ok(Next::Rows(rows)) => batches.push(rows),
            Ok(Next::Pending) => {}
            Ok(Next::Done) => break,
            Err(error) => return Err(run_error(error)),
        }
        // Ctrl-C raises here; dropping `run` stops it.
        py.check_signals()?;
    }
    if batches.is_empty() {
        // The columns' types, on no rows.
        batches.push(ColumnBatch::new(run.kinds()));
    }
    let arrow = py
        .detach(|| {
            batches
                .into_iter()
                .map(|rows| arrow_batch(&columns, rows))
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(arrow_error)?;
    let batches = arrow
        .into_iter()
        .map(|batch| to_pyarrow(py, batch))
        .collect::<PyResult<Vec<_>>>()?;
    py.import("pyarrow")?
        .getattr("Table")?
        .call_method1("from_batches", (batches,))
}

/// A batch of rows as an Arrow record batch, its buffers moved in: counts as UInt64, text as
/// Utf8, every column nullable (as in the command line's Parquet output).
fn arrow_batch(columns: &[String], rows: ColumnBatch) -> Result<RecordBatch, ArrowError> {
    let (fields, arrays): (Vec<Field>, Vec<ArrayRef>) = columns
        .iter()
        .zip(rows.columns)
        .map(|(name, column)| {
            let array: ArrayRef = match column {
                Column::Count(c) => Arc::new(UInt64Array::new(c.values.into(), nulls(c.valid))),
                Column::Text(c) => Arc::new(text_array(c)?),
            };
            Ok((Field::new(name, array.data_type().clone(), true), array))
        })
        .collect::<Result<Vec<_>, ArrowError>>()?
        .into_iter()
        .unzip();
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays)
}

fn text_array(column: TextColumn) -> Result<StringArray, ArrowError> {
    let offsets = column
        .offsets
        .iter()
        .map(|&o| i32::try_from(o))
        .collect::<Result<Vec<i32>, _>>()
        .map_err(|_| ArrowError::ComputeError("a batch holds 2 GiB of text or more".into()))?;
    StringArray::try_new(
        OffsetBuffer::new(offsets.into()),
        Buffer::from_vec(column.data),
        nulls(column.valid),
    )
}

/// The validity of a column: `None` when no value is null.
fn nulls(valid: Vec<bool>) -> Option<NullBuffer> {
    let nulls = NullBuffer::from(valid);
    (nulls.null_count() > 0).then_some(nulls)
}

/// An Arrow record batch as a pyarrow.RecordBatch.
fn to_pyarrow(py: Python<'_>, batch: RecordBatch) -> PyResult<Bound<'_, PyAny>> {
    let rows = Bound::new(py, ArrowRows { batch })?;
    py.import("pyarrow")?.call_method1("record_batch", (rows,))
}

// ----- Summaries -----

fn empty_summary(by: Option<&str>) -> Summary {
    by.map_or_else(Summary::new, Summary::grouped_by)
}

/// Adds the rows of one pyarrow.RecordBatch to `total`; `before` rows came before it (for
/// messages). Returns the batch's rows.
fn summarize_batch(
    py: Python<'_>,
    pa: &Bound<'_, PyModule>,
    batch: &Bound<'_, PyAny>,
    by: Option<&str>,
    before: u64,
    total: &mut Summary,
) -> PyResult<u64> {
    let names: Vec<String> = batch.getattr("schema")?.getattr("names")?.extract()?;
    let column = |name: &str| -> PyResult<Bound<'_, PyAny>> {
        if !names.iter().any(|n| n == name) {
            return Err(PyValueError::new_err(format!(
                "results: no column '{name}' (the columns are: {})",
                names.join(", ")
            )));
        }
        batch.call_method1("column", (name,))
    };
    let as_text = |array: Bound<'_, PyAny>, name: &str| -> PyResult<ArrayRef> {
        let types = pa.getattr("types")?;
        let kind = array.getattr("type")?;
        let array = if types.call_method1("is_dictionary", (&kind,))?.is_truthy()? {
            array.call_method0("dictionary_decode")?
        } else {
            array
        };
        // Read below as Utf8 only: large strings, string views and numbers are cast to it.
        let kind = array.getattr("type")?;
        let array = if types.call_method1("is_string", (&kind,))?.is_truthy()? {
            array
        } else {
            array
                .call_method1("cast", (pa.call_method0("string")?,))
                .map_err(|e| {
                    PyValueError::new_err(format!("results: column '{name}': {}", e.value(py)))
                })?
        };
        import_array(&array)
    };
    let status = as_text(column("status")?, "status")?;
    let counters = Counter::ALL
        .iter()
        .map(|counter| {
            let array = column(counter.name())?
                .call_method1("cast", (pa.call_method0("uint64")?,))
                .map_err(|e| {
                    PyValueError::new_err(format!(
                        "results: column '{}' is not counts: {}",
                        counter.name(),
                        e.value(py)
                    ))
                })?;
            import_array(&array)
        })
        .collect::<PyResult<Vec<_>>>()?;
    let group = by.map(|name| as_text(column(name)?, name)).transpose()?;
    let rows = status.len() as u64;
    let summary = py.detach(|| {
        let status = status.as_string::<i32>();
        let counters: Vec<&UInt64Array> = counters.iter().map(|c| c.as_primitive()).collect();
        let group = group.as_ref().map(|g| g.as_string::<i32>());
        let cells = (0..status.len()).map(|i| stats::table::RowCells {
            status: status.is_valid(i).then(|| status.value(i)),
            counters: std::array::from_fn(|c| {
                counters[c].is_valid(i).then(|| counters[c].value(i))
            }),
            group: group.and_then(|g| g.is_valid(i).then(|| g.value(i))),
        });
        stats::table::summarize(cells, by)
    });
    let summary = summary.map_err(|mut e| {
        e.index += before;
        PyValueError::new_err(format!("results: {e}"))
    })?;
    total
        .merge(&summary)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    Ok(rows)
}

/// A summary as the dict of its JSON document (`stats --json`).
fn document<'py>(py: Python<'py>, summary: &Summary) -> PyResult<Bound<'py, PyAny>> {
    let text = stats::document::to_string(summary);
    py.import("json")?.call_method1("loads", (text,))
}

// ----- Errors and names -----

/// A run's error as the Python exception that says the same.
fn run_error(error: RunError) -> PyErr {
    let message = error.to_string();
    match &error {
        RunError::Open { source, .. } | RunError::Read { source, .. }
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            PyFileNotFoundError::new_err(message)
        }
        RunError::Open { .. } | RunError::Read { .. } | RunError::Write { .. } => {
            PyOSError::new_err(message)
        }
        RunError::Format { .. } => PyValueError::new_err(message),
        RunError::Interrupted => PyKeyboardInterrupt::new_err(message),
        _ => PyRuntimeError::new_err(message),
    }
}

fn arrow_error(error: ArrowError) -> PyErr {
    PyValueError::new_err(format!("Arrow: {error}"))
}

/// Whether `value`'s type is `name` from the package `package` (without importing it).
fn is_type(value: &Bound<'_, PyAny>, package: &str, name: &str) -> PyResult<bool> {
    let kind = value.get_type();
    let module: String = kind.getattr("__module__")?.extract()?;
    Ok(kind.name()?.to_cow()? == name
        && (module == package || module.starts_with(&format!("{package}."))))
}

/// The name of `value`'s type, for messages.
fn type_name(value: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(value.get_type().name()?.to_string())
}
