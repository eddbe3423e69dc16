//! The Parquet writer: batches of rows as columns ([`ColumnBatch`]) gathered into row groups of
//! bounded size, each encoded and compressed on the writer thread and written out at once, the
//! footer (schema, row group index, key-value metadata) at the end.
//!
//! The file is written front to back, never sought: it can go to a pipe. The encoder writes into
//! a spool in memory that is emptied into the output after every row group, so that at most one
//! row group (its rows as columns, then encoded) is held.

use std::io::{self, Write};
use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Compression, IntType, LogicalType, Repetition, Type as PhysicalType};
use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnPath, Type};

use crate::format::columns::{Column, ColumnBatch, ColumnKind};

/// Rows per row group, at most.
pub const ROW_GROUP_ROWS: usize = 128 * 1024;

/// Bytes of values gathered for a row group, at most (kept columns may be long): the memory a
/// Parquet output holds is a small multiple of this (the rows as they grow, then encoded).
pub const ROW_GROUP_BYTES: usize = 8 << 20;

/// Values handed to the encoder at a time: the encoder's view of a text column (a slice handle
/// per value) is built for this many values only.
const WRITE_BATCH: usize = 8192;

/// The compression of every column.
pub const COMPRESSION: Compression = Compression::SNAPPY;

/// Columns whose values are nearly all distinct (the grids, the line numbers): written without
/// a dictionary, which would only be built to be dropped.
const PLAIN_COLUMNS: &[&str] = &["line", "puzzle", "solution"];

/// Writes rows as a Parquet file to `out`.
pub struct ParquetWriter<'a> {
    file: SerializedFileWriter<Spool>,
    out: &'a mut dyn Write,
    /// The rows of the row group being gathered.
    group: ColumnBatch,
}

/// The encoder's output, emptied into the real one after every row group.
#[derive(Default)]
struct Spool(Vec<u8>);

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// An error of the Parquet encoder, as an I/O error of the output.
fn encoding(e: parquet::errors::ParquetError) -> io::Error {
    match e {
        parquet::errors::ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(io) => *io,
            Err(other) => io::Error::other(other),
        },
        other => io::Error::other(other),
    }
}

/// The schema of the rows: every column optional, counts as unsigned 64-bit integers, text as
/// UTF-8 strings.
fn schema(columns: &[String], kinds: &[ColumnKind]) -> io::Result<Type> {
    let fields = columns
        .iter()
        .zip(kinds)
        .map(|(name, kind)| {
            let (physical, logical) = match kind {
                ColumnKind::Text => (PhysicalType::BYTE_ARRAY, LogicalType::String),
                ColumnKind::Count => (
                    PhysicalType::INT64,
                    LogicalType::Integer(IntType {
                        bit_width: 64,
                        is_signed: false,
                    }),
                ),
            };
            Type::primitive_type_builder(name, physical)
                .with_repetition(Repetition::OPTIONAL)
                .with_logical_type(Some(logical))
                .build()
                .map(Arc::new)
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(encoding)?;
    Type::group_type_builder("sudoku_bulk")
        .with_fields(fields)
        .build()
        .map_err(encoding)
}

impl<'a> ParquetWriter<'a> {
    /// A writer of rows with these columns to `out`; `metadata` goes to the file's key-value
    /// metadata. Writes the file's magic bytes.
    pub fn new(
        out: &'a mut dyn Write,
        columns: &[String],
        kinds: &[ColumnKind],
        metadata: &[(String, String)],
    ) -> io::Result<Self> {
        assert_eq!(columns.len(), kinds.len(), "a kind per column");
        let mut properties = WriterProperties::builder()
            .set_compression(COMPRESSION)
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_created_by(format!("sudoku-bulk version {}", env!("CARGO_PKG_VERSION")))
            .set_key_value_metadata(Some(
                metadata
                    .iter()
                    .map(|(k, v)| KeyValue::new(k.clone(), v.clone()))
                    .collect(),
            ));
        for name in PLAIN_COLUMNS {
            properties =
                properties.set_column_dictionary_enabled(ColumnPath::from(name.to_string()), false);
        }
        let file = SerializedFileWriter::new(
            Spool::default(),
            Arc::new(schema(columns, kinds)?),
            Arc::new(properties.build()),
        )
        .map_err(encoding)?;
        let mut writer = ParquetWriter {
            file,
            out,
            group: ColumnBatch::new(kinds),
        };
        writer.forward()?;
        Ok(writer)
    }

    /// Appends rows; a full row group is written out.
    pub fn write(&mut self, rows: &ColumnBatch) -> io::Result<()> {
        self.group.append(rows);
        if self.group.rows() >= ROW_GROUP_ROWS || self.group.bytes() >= ROW_GROUP_BYTES {
            self.write_group()?;
        }
        Ok(())
    }

    /// Flushes the output. Rows of the row group being gathered stay in memory: they are
    /// written with it.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Writes the last row group and the footer, and flushes the output.
    pub fn finish(mut self) -> io::Result<()> {
        self.write_group()?;
        self.file.finish().map_err(encoding)?;
        self.forward()?;
        self.out.flush()
    }

    /// Encodes the gathered rows as one row group and writes it out.
    fn write_group(&mut self) -> io::Result<()> {
        if self.group.rows() == 0 {
            return Ok(());
        }
        let next = self.group.empty_like();
        let group = std::mem::replace(&mut self.group, next);
        let mut writer = self.file.next_row_group().map_err(encoding)?;
        for column in group.columns {
            let mut out = writer
                .next_column()
                .map_err(encoding)?
                .expect("a column writer per column of the schema");
            match column {
                Column::Text(text) => {
                    let data = Bytes::from(text.data);
                    for start in (0..text.valid.len()).step_by(WRITE_BATCH) {
                        let rows = start..(start + WRITE_BATCH).min(text.valid.len());
                        let values: Vec<ByteArray> = rows
                            .clone()
                            .filter(|&i| text.valid[i])
                            .map(|i| {
                                ByteArray::from(data.slice(text.offsets[i]..text.offsets[i + 1]))
                            })
                            .collect();
                        out.typed::<ByteArrayType>()
                            .write_batch(&values, Some(&levels(&text.valid[rows])), None)
                            .map_err(encoding)?;
                    }
                }
                Column::Count(counts) => {
                    for start in (0..counts.valid.len()).step_by(WRITE_BATCH) {
                        let rows = start..(start + WRITE_BATCH).min(counts.valid.len());
                        // Unsigned values in the signed physical type, bit for bit (the
                        // logical type says they are unsigned).
                        let values: Vec<i64> = rows
                            .clone()
                            .filter(|&i| counts.valid[i])
                            .map(|i| counts.values[i] as i64)
                            .collect();
                        out.typed::<Int64Type>()
                            .write_batch(&values, Some(&levels(&counts.valid[rows])), None)
                            .map_err(encoding)?;
                    }
                }
            }
            out.close().map_err(encoding)?;
        }
        writer.close().map_err(encoding)?;
        self.forward()
    }

    /// Moves what the encoder wrote to the output.
    fn forward(&mut self) -> io::Result<()> {
        self.file.flush()?;
        let spool = self.file.inner_mut();
        self.out.write_all(&spool.0)?;
        spool.0.clear();
        Ok(())
    }
}

/// The definition levels of an optional column: 1 for a value, 0 for a null.
fn levels(valid: &[bool]) -> Vec<i16> {
    valid.iter().map(|&v| i16::from(v)).collect()
}
