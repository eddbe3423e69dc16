//! Summaries of result rows held in pyarrow: the status, counter and grouping columns (or the
//! rating columns of `rate`, on either scale) are read through the Arrow C data interface and
//! summarised by the library (`stats::table`), so the numbers are those of `sudoku-bulk stats`.

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::{Array, ArrayRef, StringArray, UInt64Array};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use sudoku_bulk::stats::bins::Numbers;
use sudoku_bulk::stats::table::GroupBy;
use sudoku_bulk::stats::{self, Counter, Summary, rating};

use crate::puzzles::import_array;

/// What a summary may grow to: groups (`stats --max-groups`) and, when canonical forms are
/// counted, distinct forms (`stats --max-classes`).
#[derive(Clone, Copy)]
pub(crate) struct Bounds {
    pub max_groups: usize,
    pub max_classes: Option<u64>,
}

/// The column `name` of a pyarrow.RecordBatch whose columns are `names`; a missing column is
/// named in the error, with the columns there are.
fn column<'py>(
    batch: &Bound<'py, PyAny>,
    names: &[String],
    name: &str,
) -> PyResult<Bound<'py, PyAny>> {
    if !names.iter().any(|n| n == name) {
        return Err(PyValueError::new_err(format!(
            "results: no column '{name}' (the columns are: {})",
            names.join(", ")
        )));
    }
    batch.call_method1("column", (name,))
}

/// A pyarrow array as Utf8 text: dictionaries decoded; large strings, string views and numbers
/// cast to it.
fn as_text(
    py: Python<'_>,
    pa: &Bound<'_, PyModule>,
    array: Bound<'_, PyAny>,
    name: &str,
) -> PyResult<ArrayRef> {
    let types = pa.getattr("types")?;
    let kind = array.getattr("type")?;
    let array = if types.call_method1("is_dictionary", (&kind,))?.is_truthy()? {
        array.call_method0("dictionary_decode")?
    } else {
        array
    };
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
}

/// Adds to `numbers` the numbers of column `name` of one pyarrow.RecordBatch (`before` rows
/// came before it, for messages), as `stats` surveys a column to find its quantile bins.
/// Returns the batch's rows.
pub(crate) fn survey_batch(
    py: Python<'_>,
    pa: &Bound<'_, PyModule>,
    batch: &Bound<'_, PyAny>,
    name: &str,
    before: u64,
    numbers: &mut Numbers,
) -> PyResult<u64> {
    let names: Vec<String> = batch.getattr("schema")?.getattr("names")?.extract()?;
    let cells = as_text(py, pa, column(batch, &names, name)?, name)?;
    let cells = cells.as_string::<i32>();
    stats::table::survey_numbers(numbers, name, cells.iter())
        .map_err(|e| PyValueError::new_err(format!("results: {}", e.after(before))))?;
    Ok(cells.len() as u64)
}

/// Adds the rows of one pyarrow.RecordBatch to `total`; `before` rows came before it (for
/// messages). Returns the batch's rows. With `by`, more than `max_groups` groups in all are
/// refused as soon as a row makes one too many (as `stats --max-groups`). With a
/// `max_classes` (and a `total` that counts forms), the canonical form of each row's puzzle is
/// counted (as `stats --canonical`), and more than `max_classes` forms in all are refused.
pub(crate) fn summarize_batch(
    py: Python<'_>,
    pa: &Bound<'_, PyModule>,
    batch: &Bound<'_, PyAny>,
    by: Option<GroupBy<'_>>,
    bounds: Bounds,
    before: u64,
    total: &mut Summary,
) -> PyResult<u64> {
    let names: Vec<String> = batch.getattr("schema")?.getattr("names")?.extract()?;
    let column = |name: &str| column(batch, &names, name);
    let as_text = |array: Bound<'_, PyAny>, name: &str| as_text(py, pa, array, name);
    let counts = |name: &str| -> PyResult<ArrayRef> {
        let array = column(name)?
            .call_method1("cast", (pa.call_method0("uint64")?,))
            .map_err(|e| {
                PyValueError::new_err(format!(
                    "results: column '{name}' is not counts: {}",
                    e.value(py)
                ))
            })?;
        import_array(&array)
    };
    let present = |name: &str| names.iter().any(|n| n == name);
    let group = by
        .map(|by| as_text(column(by.column())?, by.column()))
        .transpose()?;
    // Read when present, as the results reader reads them: what names a row's record (for the
    // hardest records), and for solve rows the solution count (checked).
    let optional_text = |name: &str| {
        present(name)
            .then(|| as_text(column(name)?, name))
            .transpose()
    };
    let optional_counts = |name: &str| present(name).then(|| counts(name)).transpose();
    let line = optional_counts("line")?;
    let [file, puzzle, regions] = ["file", "puzzle", "regions"].map(optional_text);
    let (file, puzzle, regions) = (file?, puzzle?, regions?);
    let max_groups = bounds.max_groups;
    let canonical = bounds.max_classes.is_some();
    if canonical && puzzle.is_none() {
        // The message of a missing column.
        column("puzzle")?;
    }
    // The rows of `rate` are told by their columns, as `stats` tells them.
    let scale = if present("er") && present("er_at_least") {
        Some(&rating::se::SE_ROW_COLUMNS[..])
    } else if ["level", "score", "techniques"].iter().all(|c| present(c)) {
        Some(&rating::COLUMNS[..])
    } else {
        None
    };
    let rated = scale
        .map(|wanted| {
            wanted
                .iter()
                .map(|name| as_text(column(name)?, name))
                .collect::<PyResult<Vec<_>>>()
        })
        .transpose()?;
    let (status, counters, solutions) = match rated {
        Some(_) => (None, Vec::new(), None),
        None => (
            Some(as_text(column("status")?, "status")?),
            Counter::ALL
                .iter()
                .map(|counter| counts(counter.name()))
                .collect::<PyResult<Vec<_>>>()?,
            optional_counts("solutions")?,
        ),
    };
    let rows = batch.getattr("num_rows")?.extract::<u64>()?;
    let summary = py.detach(|| {
        let texts = |a: &Option<ArrayRef>| a.as_ref().map(|a| a.as_string::<i32>().clone());
        let (group, file, puzzle, regions) =
            (texts(&group), texts(&file), texts(&puzzle), texts(&regions));
        let numbers =
            |a: &Option<ArrayRef>| a.as_ref().map(|a| a.as_primitive::<UInt64Type>().clone());
        let (solutions, line) = (numbers(&solutions), numbers(&line));
        let group_of = |i: usize| {
            group
                .as_ref()
                .and_then(|g| g.is_valid(i).then(|| g.value(i)))
        };
        let record_of = |i: usize| match (count_cell(&line, i), text_cell(&puzzle, i)) {
            (Some(line), Some(puzzle)) => Some(stats::RecordRef {
                file: text_cell(&file, i),
                line,
                puzzle,
                regions: text_cell(&regions, i),
            }),
            _ => None,
        };
        if let Some(fields) = &rated {
            let fields: Vec<StringArray> = fields
                .iter()
                .map(|a| a.as_string::<i32>().clone())
                .collect();
            let cells = (0..rows as usize).map(|i| stats::table::RatedCells {
                fields: std::array::from_fn(|k| {
                    fields
                        .get(k)
                        .and_then(|f| f.is_valid(i).then(|| f.value(i)))
                        .unwrap_or("")
                }),
                group: group_of(i),
                record: record_of(i),
            });
            let se = fields.len() == rating::se::SE_ROW_COLUMNS.len();
            return stats::table::summarize_rated(se, cells, by, max_groups);
        }
        let status = status.as_ref().expect("solve rows").as_string::<i32>();
        let counters: Vec<&UInt64Array> = counters.iter().map(|c| c.as_primitive()).collect();
        let cells = (0..status.len()).map(|i| stats::table::RowCells {
            status: status.is_valid(i).then(|| status.value(i)),
            counters: std::array::from_fn(|c| {
                counters[c].is_valid(i).then(|| counters[c].value(i))
            }),
            solutions: count_cell(&solutions, i),
            group: group_of(i),
            record: record_of(i),
        });
        stats::table::summarize(cells, by, max_groups)
    });
    let refused = |e: stats::table::TableError| {
        PyValueError::new_err(format!("results: {}", e.after(before)))
    };
    let mut summary = summary.map_err(refused)?;
    if canonical {
        summary = summary.counting_forms();
        let texts = |a: &Option<ArrayRef>| a.as_ref().map(|a| a.as_string::<i32>().clone());
        let (puzzle, regions) = (texts(&puzzle), texts(&regions));
        let cells = (0..rows as usize)
            .filter_map(|i| Some((text_cell(&puzzle, i)?, text_cell(&regions, i))));
        py.detach(|| stats::table::add_forms(&mut summary, cells));
    }
    // Batches of another command's rows (solve with rate): a wrong value, as stats refuses it.
    total
        .merge(&summary)
        .map_err(|e| PyValueError::new_err(format!("results: {e}")))?;
    // The groups of the batches before and this one's together.
    stats::table::check_groups(total, max_groups, rows.saturating_sub(1)).map_err(refused)?;
    if let Some(max) = bounds.max_classes {
        stats::table::check_forms(total, max, rows.saturating_sub(1)).map_err(refused)?;
    }
    Ok(rows)
}

/// Row `i` of an optional text column, `None` when null or empty (as an empty field in a file).
fn text_cell(column: &Option<StringArray>, i: usize) -> Option<&str> {
    column
        .as_ref()
        .and_then(|c| c.is_valid(i).then(|| c.value(i)))
        .filter(|v| !v.is_empty())
}

/// Row `i` of an optional count column, `None` when null.
fn count_cell(column: &Option<UInt64Array>, i: usize) -> Option<u64> {
    column
        .as_ref()
        .and_then(|c| c.is_valid(i).then(|| c.value(i)))
}

/// A summary as the dict of its JSON document (`stats --json`).
pub(crate) fn document<'py>(py: Python<'py>, summary: &Summary) -> PyResult<Bound<'py, PyAny>> {
    let text = stats::document::to_string(summary);
    py.import("json")?.call_method1("loads", (text,))
}
