//! Rows out: the library's columns (`format::columns`, already in the Arrow layout) become
//! Arrow record batches, their buffers moved, not copied, and cross into pyarrow by the Arrow
//! PyCapsule protocol.

use std::sync::Arc;

use arrow_array::ffi::to_ffi;
use arrow_array::{
    Array, ArrayRef, Float64Array, RecordBatch, StringArray, StructArray, UInt64Array,
};
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer};
use arrow_schema::{ArrowError, Field, Schema};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};

use sudoku_bulk::format::columns::{Column, ColumnBatch, ColumnKind, TextColumn};
use sudoku_bulk::pipeline::{ColumnRun, Next, RecordSource, Settings};

use crate::SIGNAL_POLL;
use crate::errors::{arrow_error, run_error};

/// Runs `source` to its end and gathers its rows into one pyarrow.Table.
pub(crate) fn table<'py>(
    py: Python<'py>,
    source: RecordSource,
    settings: Settings,
) -> PyResult<Bound<'py, PyAny>> {
    let mut run = started(py, source, settings)?;
    let mut gathered = Gathered::new(run.columns().to_vec(), run.kinds());
    loop {
        match py.detach(|| run.next_within(SIGNAL_POLL)) {
            Ok(Next::Rows(rows)) => gathered.push(rows),
            Ok(Next::Pending) => {}
            Ok(Next::Done) => break,
            Err(error) => return Err(run_error(error)),
        }
        // Ctrl-C raises here; dropping `run` stops it.
        py.check_signals()?;
    }
    gathered.table(py)
}

/// A run started and its columns known, waited for a little at a time with the GIL released, so
/// that Ctrl-C is noticed while its first records are read (from a pipe that may send nothing).
pub(crate) fn started(
    py: Python<'_>,
    source: RecordSource,
    settings: Settings,
) -> PyResult<ColumnRun> {
    let mut run = py
        .detach(|| ColumnRun::begin(source, settings))
        .map_err(run_error)?;
    while !py
        .detach(|| run.columns_within(SIGNAL_POLL))
        .map_err(run_error)?
    {
        // Ctrl-C raises here; dropping `run` stops it (or leaves its thread to end on its own
        // when it is blocked in a read).
        py.check_signals()?;
    }
    Ok(run)
}

/// Rows gathered batch by batch into one pyarrow.Table.
pub(crate) struct Gathered {
    columns: Vec<String>,
    kinds: Vec<ColumnKind>,
    batches: Vec<ColumnBatch>,
}

impl Gathered {
    /// No rows yet, of these columns.
    pub(crate) fn new(columns: Vec<String>, kinds: &[ColumnKind]) -> Gathered {
        Gathered {
            columns,
            kinds: kinds.to_vec(),
            batches: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, rows: ColumnBatch) {
        self.batches.push(rows);
    }

    /// The rows as one pyarrow.Table (the columns' types on no rows when there are none).
    pub(crate) fn table(mut self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        if self.batches.is_empty() {
            self.batches.push(ColumnBatch::new(&self.kinds));
        }
        let (columns, kinds) = (self.columns, self.kinds);
        let batches = self.batches;
        let arrow = py
            .detach(|| {
                batches
                    .into_iter()
                    .map(|rows| arrow_batch(&columns, &kinds, rows))
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
}

/// A batch of rows as an Arrow record batch, its buffers moved in: counts as UInt64, tenths as
/// Float64, text as Utf8, every column nullable (as in the command line's Parquet output).
pub(crate) fn arrow_batch(
    columns: &[String],
    kinds: &[ColumnKind],
    rows: ColumnBatch,
) -> Result<RecordBatch, ArrowError> {
    let (fields, arrays): (Vec<Field>, Vec<ArrayRef>) = columns
        .iter()
        .zip(kinds)
        .zip(rows.columns)
        .map(|((name, kind), column)| {
            let array: ArrayRef = match column {
                Column::Count(c) if *kind == ColumnKind::Tenths => {
                    let values: Vec<f64> = c.values.iter().map(|&t| t as f64 / 10.0).collect();
                    Arc::new(Float64Array::new(values.into(), nulls(c.valid)))
                }
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

/// A text column as an Arrow string array (32-bit offsets, as the Parquet output reads back).
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
pub(crate) fn to_pyarrow(py: Python<'_>, batch: RecordBatch) -> PyResult<Bound<'_, PyAny>> {
    let rows = Bound::new(py, ArrowRows { batch })?;
    py.import("pyarrow")?.call_method1("record_batch", (rows,))
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
