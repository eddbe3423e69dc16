//! The arguments of the module's functions, checked and turned into the library's settings and
//! records. Optional arguments come in as Python objects (None: the default) and are checked
//! here, so that every message names its argument on every Python version (PyO3's own
//! conversion errors name it only in a note, from Python 3.11).

use std::path::PathBuf;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};

use sudoku_bulk::Layout;
use sudoku_bulk::command::config::{self, DEFAULT_MAX_RECURSIONS, DEFAULT_MAX_SOLUTIONS};
use sudoku_bulk::format::{OutputFormat, Record};
use sudoku_bulk::pipeline::MAX_THREADS;
use sudoku_bulk::pipeline::{Job, Settings};
use sudoku_bulk::solver::{Algorithm, SolveOptions};
use sudoku_bulk::stats::bins::Bins;
use sudoku_bulk::stats::grouping::BinChoice;

use crate::errors::type_name;
use crate::puzzles::{Texts, texts};

/// An integer argument of at least `min`; `default` when not given (or None).
pub(crate) fn count(
    name: &str,
    value: Option<&Bound<'_, PyAny>>,
    default: u64,
    min: u64,
) -> PyResult<u64> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(default);
    };
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name}: expected an int, not a bool"
        )));
    }
    // Only ints: Python 3.9 would turn a float into one (with a deprecation warning).
    let not_int = || {
        PyTypeError::new_err(format!(
            "{name}: expected an int, not {}",
            type_name(value).unwrap_or_default()
        ))
    };
    if !value.is_instance_of::<PyInt>() {
        return Err(not_int());
    }
    let number: i128 = value.extract().map_err(|_| not_int())?;
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
pub(crate) fn text(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
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
pub(crate) fn flag(name: &str, value: Option<&Bound<'_, PyAny>>, default: bool) -> PyResult<bool> {
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
pub(crate) fn names(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
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

/// The search options of `solve` and `solve_file`.
pub(crate) fn solve_options(
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

/// The worker threads: as asked (1 to the command line's most), or one per core.
pub(crate) fn threads_of(threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let Some(threads) = threads.filter(|n| !n.is_none()) else {
        return config::threads(None).map_err(|e| PyValueError::new_err(e.to_string()));
    };
    // Any int is read (a negative one too), so that the message can give the range.
    let asked =
        count("threads", Some(threads), 1, 0).or_else(|e| match threads.extract::<i128>() {
            Ok(_) if !threads.is_instance_of::<PyBool>() => Ok(0),
            _ => Err(e),
        })?;
    match usize::try_from(asked) {
        Ok(n @ 1..=MAX_THREADS) => Ok(n),
        _ => Err(PyValueError::new_err(format!(
            "threads must be from 1 to {MAX_THREADS} (no run can keep more busy: at most \
             {MAX_THREADS} batches of records are ever waiting for a thread), not {}",
            threads.str()?
        ))),
    }
}

/// One region layout for every puzzle, written as 81 labels; the 3x3 boxes without it.
pub(crate) fn layout_of(regions: Option<&str>) -> PyResult<Layout> {
    match regions {
        None => Ok(Layout::standard()),
        Some(text) => Layout::parse(text.as_bytes())
            .map_err(|e| PyValueError::new_err(format!("regions: {e}"))),
    }
}

/// `regions` of `solve` and `verify`: one layout (a str), or one per puzzle (a sequence).
pub(crate) fn regions_of(
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
pub(crate) fn paths(path: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    match path.extract::<PathBuf>() {
        Ok(one) => return Ok(vec![one]),
        // A str the file system cannot take (a lone surrogate): a wrong value, not type.
        Err(e) if path.is_instance_of::<PyString>() => {
            return Err(PyValueError::new_err(format!(
                "path: {} cannot name a file: {}",
                path.repr()?,
                e.value(path.py())
            )));
        }
        Err(_) => {}
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
pub(crate) fn settings(job: Job, layout: Layout, threads: usize) -> Settings {
    Settings {
        layout,
        output_format: OutputFormat::Parquet,
        ..Settings::new(job, threads)
    }
}

/// Records held in memory, numbered from 1; a null is an empty value, as a Parquet input's is.
pub(crate) fn records(
    puzzles: Texts,
    solutions: Option<Texts>,
    regions: Option<Texts>,
) -> Vec<Record> {
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

/// The `bins` argument: None or "none" (one group per value), an int N of at least 1 (N
/// quantile bins) or a list of edges in increasing order (ints, floats or str, as the
/// command's `--bins A,B,...`). Never [`BinChoice::Automatic`]: bins are only asked for.
pub(crate) fn bins_of(value: Option<&Bound<'_, PyAny>>) -> PyResult<BinChoice> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(BinChoice::None);
    };
    if let Ok(text) = value.cast::<PyString>() {
        return match text.to_cow()?.trim() {
            t if t.eq_ignore_ascii_case("none") => Ok(BinChoice::None),
            t => Err(PyValueError::new_err(format!(
                "bins: {t:?}: give an int N (N quantile bins), a list of edges or \"none\""
            ))),
        };
    }
    if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
        let n = count("bins", Some(value), 0, 1)?;
        return Ok(BinChoice::Quantiles(
            usize::try_from(n).unwrap_or(usize::MAX),
        ));
    }
    let expected = || {
        PyTypeError::new_err(format!(
            "bins: expected an int, a list of edges or \"none\", not {}",
            type_name(value).unwrap_or_default()
        ))
    };
    let items = value.try_iter().map_err(|_| expected())?;
    let mut edges = Vec::new();
    for item in items {
        let item = item?;
        // An edge as the command reads it: ints and str as written, floats as Python writes
        // them back exactly (repr).
        let edge = if item.is_instance_of::<PyBool>() {
            return Err(expected());
        } else if item.is_instance_of::<PyString>() || item.is_instance_of::<PyInt>() {
            item.str()?.to_string()
        } else if item.is_instance_of::<PyFloat>() {
            item.repr()?.to_string()
        } else {
            return Err(PyTypeError::new_err(format!(
                "bins: an edge of {}; expected an int, a float or a str",
                type_name(&item)?
            )));
        };
        edges.push(edge);
    }
    let edges: Vec<&str> = edges.iter().map(|e| e.trim()).collect();
    Bins::given(&edges)
        .map(BinChoice::Edges)
        .map_err(|e| PyValueError::new_err(format!("bins: {e}")))
}
