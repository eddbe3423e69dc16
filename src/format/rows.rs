//! Rows out: a [`RowWriter`] formats the cells of each row into a batch of [`Rows`] on any
//! thread (bytes for CSV and JSON lines, columns for Parquet), and a [`Sink`] writes the batches
//! to the output in order: bytes as they are, columns gathered into Parquet row groups.

use std::io::{self, Write};
use std::ops::Range;
use std::sync::Arc;

use super::columns::{ColumnBatch, ColumnKind, SpareBatches};
use super::{Cell, OutputFormat, csv, jsonl, parquet};

/// The rows of a batch, formatted: text (CSV, JSON lines) or columns (Parquet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rows {
    /// Rows as bytes, ready to write.
    Text(Vec<u8>),
    /// Rows as columns, for the writer to gather into row groups.
    Columns(ColumnBatch),
}

impl Rows {
    /// Where the rows end: the bytes of text rows, the count of columnar rows.
    pub fn len(&self) -> usize {
        match self {
            Rows::Text(bytes) => bytes.len(),
            Rows::Columns(columns) => columns.rows(),
        }
    }

    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for Rows {
    fn default() -> Self {
        Rows::Text(Vec::new())
    }
}

/// Formats rows of one format with fixed columns.
#[derive(Debug, Clone)]
pub struct RowWriter {
    format: OutputFormat,
    columns: Vec<String>,
    kinds: Vec<ColumnKind>,
    /// JSON lines: each column's `"name":`, encoded once.
    keys: Vec<Vec<u8>>,
    /// Parquet: batches emptied by the writer of the output, filled again by [`RowWriter::rows`].
    spare: Arc<SpareBatches>,
}

impl RowWriter {
    /// A writer of rows with these column names and types.
    pub fn new(format: OutputFormat, columns: Vec<String>, kinds: Vec<ColumnKind>) -> Self {
        assert_eq!(columns.len(), kinds.len(), "a kind per column");
        let keys = match format {
            OutputFormat::Jsonl => jsonl::keys(&columns),
            OutputFormat::Csv | OutputFormat::Parquet => Vec::new(),
        };
        RowWriter {
            format,
            columns,
            kinds,
            keys,
            spare: Arc::default(),
        }
    }

    /// No rows yet, for about `rows` rows.
    pub fn rows(&self, rows: usize) -> Rows {
        match self.format {
            OutputFormat::Csv | OutputFormat::Jsonl => Rows::Text(Vec::with_capacity(rows * 256)),
            // An emptied batch keeps the room its rows took; a new one gets room for the grids
            // of every row (the longest text of most columns).
            OutputFormat::Parquet => Rows::Columns(self.spare.take().unwrap_or_else(|| {
                ColumnBatch::with_capacity(&self.kinds, rows, rows * crate::grid::CELLS)
            })),
        }
    }

    /// Appends one row; `cells` gives one value per column, in order.
    #[inline(always)]
    pub fn row<'a>(&self, cells: impl IntoIterator<Item = Cell<'a>>, out: &mut Rows) {
        match (self.format, out) {
            (OutputFormat::Csv, Rows::Text(out)) => csv::write_row(cells, out),
            (OutputFormat::Jsonl, Rows::Text(out)) => jsonl::write_row(&self.keys, cells, out),
            (OutputFormat::Parquet, Rows::Columns(out)) => out.push_row(cells),
            (format, _) => panic!("rows of another format than {format}"),
        }
    }

    /// Starts the output in `out`: the CSV header row unless `continued` (the rows continue an
    /// earlier output, which has it); a Parquet file's magic bytes, with `metadata` kept for
    /// its footer.
    pub fn start<'a>(
        &self,
        out: &'a mut dyn Write,
        continued: bool,
        metadata: &[(String, String)],
    ) -> io::Result<Sink<'a>> {
        match self.format {
            OutputFormat::Csv | OutputFormat::Jsonl => {
                if !continued && self.format == OutputFormat::Csv {
                    let mut header = Vec::new();
                    csv::write_row(self.columns.iter().map(|c| Cell::Text(c)), &mut header);
                    out.write_all(&header)?;
                }
                Ok(Sink::Text(out))
            }
            OutputFormat::Parquet => {
                assert!(!continued, "a Parquet output cannot be continued");
                parquet::ParquetWriter::new(out, &self.columns, &self.kinds, metadata)
                    .map(|writer| Sink::Parquet(Box::new(writer.recycling(self.spare.clone()))))
            }
        }
    }
}

/// Where formatted rows go, in order: text rows are written as they are; columns are gathered
/// into row groups.
pub enum Sink<'a> {
    /// CSV or JSON lines.
    Text(&'a mut dyn Write),
    /// A Parquet file.
    Parquet(Box<parquet::ParquetWriter<'a>>),
}

impl Sink<'_> {
    /// Writes the rows of a batch (columns are kept until their row group is written).
    pub fn write(&mut self, rows: Rows) -> io::Result<()> {
        match (self, rows) {
            (Sink::Text(out), Rows::Text(bytes)) => out.write_all(&bytes),
            (Sink::Parquet(writer), Rows::Columns(columns)) => writer.write(columns),
            _ => panic!("rows of another format than the output's"),
        }
    }

    /// Writes some of the text rows of a batch: `rows[range]`, whole rows (as `canon --dedupe`
    /// chooses them). Columns cannot be chosen from this way: a bug of the caller.
    pub fn write_text_range(&mut self, rows: &Rows, range: Range<usize>) -> io::Result<()> {
        match (self, rows) {
            (Sink::Text(out), Rows::Text(bytes)) => out.write_all(&bytes[range]),
            _ => panic!("rows chosen by byte range from a columnar output"),
        }
    }

    /// Flushes the output (a Parquet row group being gathered stays in memory).
    pub fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Text(out) => out.flush(),
            Sink::Parquet(writer) => writer.flush(),
        }
    }

    /// Ends the output: a Parquet file's last row group and footer. Text needs nothing.
    pub fn finish(self) -> io::Result<()> {
        match self {
            Sink::Text(out) => out.flush(),
            Sink::Parquet(writer) => writer.finish(),
        }
    }
}
