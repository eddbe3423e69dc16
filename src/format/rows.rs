//! Rows out: a [`RowWriter`] formats the cells of each row into a batch of [`Rows`] on any
//! thread (bytes for CSV and JSON lines, columns for Parquet), and a [`Sink`] writes the batches
//! to the output in order: bytes as they are, columns gathered into Parquet row groups.

use std::io::{self, Write};
use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

use super::columns::{ColumnBatch, ColumnKind};
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

    /// The bytes the rows' buffers have room for.
    fn capacity(&self) -> usize {
        match self {
            Rows::Text(bytes) => bytes.capacity(),
            Rows::Columns(columns) => columns.capacity(),
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

/// Rows written out, emptied, for later batches to format into: their buffers (and memory
/// pages) are reused instead of allocated anew on one thread and freed on another. At most
/// `limit` are kept.
#[derive(Debug, Default)]
pub struct SpareRows {
    rows: Mutex<Vec<Rows>>,
    limit: usize,
}

impl SpareRows {
    /// None kept yet, at most `limit` to keep.
    pub fn new(limit: usize) -> Self {
        SpareRows {
            rows: Mutex::default(),
            limit,
        }
    }

    /// Emptied rows, if any are spare.
    pub fn take(&self) -> Option<Rows> {
        self.rows
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
    }

    /// Keeps `rows`, emptied, while fewer than the limit are kept and unless they hold more
    /// than [`KEPT_BYTES`]; drops the others.
    pub fn give(&self, rows: impl IntoIterator<Item = Rows>) {
        let mut spare = self.rows.lock().unwrap_or_else(PoisonError::into_inner);
        for mut rows in rows
            .into_iter()
            .filter(|rows| rows.capacity() <= KEPT_BYTES)
            .take(self.limit.saturating_sub(spare.len()))
        {
            match &mut rows {
                Rows::Text(bytes) => bytes.clear(),
                Rows::Columns(columns) => columns.clear(),
            }
            spare.push(rows);
        }
    }
}

/// The most bytes a batch's buffers may have room for to be kept for reuse: a batch of 64 rows
/// takes 5 to 40 KiB; one with long kept values is not kept, so that the spare batches do not
/// each grow, in turn, to the size of the longest ever formatted.
const KEPT_BYTES: usize = 256 * 1024;

/// Formats rows of one format with fixed columns.
#[derive(Debug, Clone)]
pub struct RowWriter {
    format: OutputFormat,
    columns: Vec<String>,
    kinds: Vec<ColumnKind>,
    /// JSON lines: each column's `"name":`, encoded once.
    keys: Vec<Vec<u8>>,
    /// Rows written out and given back, filled again by [`RowWriter::rows`].
    spare: Arc<SpareRows>,
    /// Parquet: the codec of the pages.
    compression: parquet::ParquetCompression,
    /// Records written as they were ([`RowWriter::verbatim`]): the header written first.
    verbatim: Option<Vec<u8>>,
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
            compression: Default::default(),
            verbatim: None,
        }
    }

    /// A writer of records as they were in their input (`canon --dedupe --as-input`): each
    /// row's text given whole ([`RowWriter::verbatim_row`]), after `header` (the input's own,
    /// or empty).
    pub fn verbatim(header: Vec<u8>) -> Self {
        RowWriter {
            verbatim: Some(header),
            ..RowWriter::new(OutputFormat::Csv, Vec::new(), Vec::new())
        }
    }

    /// Parquet: compresses the pages with `compression` (Snappy by default).
    pub fn compressing(mut self, compression: parquet::ParquetCompression) -> Self {
        self.compression = compression;
        self
    }

    /// Keeps as many as `limit` rows written out, for later batches to format into (none by
    /// default).
    pub fn keeping_spare(mut self, limit: usize) -> Self {
        self.spare = Arc::new(SpareRows::new(limit));
        self
    }

    /// The types of the columns.
    pub fn kinds(&self) -> &[ColumnKind] {
        &self.kinds
    }

    /// Gives back rows that are done with (copied elsewhere), for later batches to format into.
    pub fn give_back(&self, rows: impl IntoIterator<Item = Rows>) {
        self.spare.give(rows);
    }

    /// No rows yet, for about `rows` rows: rows written out and given back when there are.
    pub fn rows(&self, rows: usize) -> Rows {
        if let Some(spare) = self.spare.take() {
            return spare;
        }
        match self.format {
            OutputFormat::Csv | OutputFormat::Jsonl => Rows::Text(Vec::with_capacity(rows * 256)),
            // Room for the grids of every row (the longest text of most columns).
            OutputFormat::Parquet => Rows::Columns(ColumnBatch::with_capacity(
                &self.kinds,
                rows,
                rows * crate::grid::CELLS,
            )),
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

    /// Appends one row of a [verbatim](RowWriter::verbatim) writer: `text`, as it is.
    pub fn verbatim_row(&self, text: &[u8], out: &mut Rows) {
        match (&self.verbatim, out) {
            (Some(_), Rows::Text(out)) => out.extend_from_slice(text),
            _ => panic!("a record as it was given to a writer of columns"),
        }
    }

    /// Starts the output in `out`: the CSV header row (a verbatim writer's header) unless
    /// `continued` (the rows continue an
    /// earlier output, which has it); a Parquet file's magic bytes, with `metadata` kept for
    /// its footer.
    pub fn start<'a>(
        &self,
        out: &'a mut (dyn Write + Send),
        continued: bool,
        metadata: &[(String, String)],
    ) -> io::Result<Sink<'a>> {
        let to = match self.format {
            OutputFormat::Csv | OutputFormat::Jsonl => {
                if !continued && self.format == OutputFormat::Csv {
                    let mut header = Vec::new();
                    match &self.verbatim {
                        Some(verbatim) => header.extend_from_slice(verbatim),
                        None => {
                            csv::write_row(self.columns.iter().map(|c| Cell::Text(c)), &mut header)
                        }
                    }
                    out.write_all(&header)?;
                }
                Destination::Text(out)
            }
            OutputFormat::Parquet => {
                assert!(!continued, "a Parquet output cannot be continued");
                let writer = parquet::ParquetWriter::new(
                    out,
                    &self.columns,
                    &self.kinds,
                    metadata,
                    self.compression,
                )?;
                Destination::Parquet(Box::new(writer.recycling(Arc::clone(&self.spare))))
            }
        };
        Ok(Sink {
            to,
            spare: Arc::clone(&self.spare),
        })
    }
}

/// Where formatted rows go, in order: text rows are written as they are; columns are gathered
/// into row groups. Rows written are given back to the [`RowWriter`] that made them.
pub struct Sink<'a> {
    to: Destination<'a>,
    spare: Arc<SpareRows>,
}

enum Destination<'a> {
    /// CSV or JSON lines.
    Text(&'a mut dyn Write),
    /// A Parquet file.
    Parquet(Box<parquet::ParquetWriter<'a>>),
}

impl<'a> Sink<'a> {
    /// Text rows written to `out` as they are, their buffers dropped.
    pub fn text(out: &'a mut dyn Write) -> Self {
        Sink {
            to: Destination::Text(out),
            spare: Arc::default(),
        }
    }

    /// Shares the encoding of a Parquet output's row groups with `pool` (text rows need no
    /// encoding): see [`parquet::ParquetWriter::sharing`].
    pub fn sharing(mut self, pool: &'a rayon::ThreadPool) -> Self {
        if let Destination::Parquet(writer) = self.to {
            self.to = Destination::Parquet(Box::new(writer.sharing(pool)));
        }
        self
    }

    /// Does a piece of the output's pending work on this thread (a column of a full Parquet
    /// row group); `false` when there is none.
    pub fn help(&mut self) -> bool {
        match &mut self.to {
            Destination::Text(_) => false,
            Destination::Parquet(writer) => writer.help(),
        }
    }

    /// Writes the rows of a batch (columns are kept until their row group is written).
    pub fn write(&mut self, rows: Rows) -> io::Result<()> {
        match (&mut self.to, rows) {
            (Destination::Text(out), Rows::Text(bytes)) => {
                out.write_all(&bytes)?;
                self.spare.give([Rows::Text(bytes)]);
                Ok(())
            }
            (Destination::Parquet(writer), Rows::Columns(columns)) => writer.write(columns),
            _ => panic!("rows of another format than the output's"),
        }
    }

    /// Writes some of the text rows of a batch: `rows[range]`, whole rows (as `canon --dedupe`
    /// chooses them). Columns cannot be chosen from this way: a bug of the caller.
    pub fn write_text_range(&mut self, rows: &Rows, range: Range<usize>) -> io::Result<()> {
        match (&mut self.to, rows) {
            (Destination::Text(out), Rows::Text(bytes)) => out.write_all(&bytes[range]),
            _ => panic!("rows chosen by byte range from a columnar output"),
        }
    }

    /// Gives back rows written by [`Sink::write_text_range`].
    pub fn done_with(&self, rows: Rows) {
        self.spare.give([rows]);
    }

    /// Flushes the output (a Parquet row group being gathered stays in memory).
    pub fn flush(&mut self) -> io::Result<()> {
        match &mut self.to {
            Destination::Text(out) => out.flush(),
            Destination::Parquet(writer) => writer.flush(),
        }
    }

    /// Ends the output: a Parquet file's last row group and footer. Text needs nothing.
    pub fn finish(self) -> io::Result<()> {
        match self.to {
            Destination::Text(out) => out.flush(),
            Destination::Parquet(writer) => writer.finish(),
        }
    }
}
