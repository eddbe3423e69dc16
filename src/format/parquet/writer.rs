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
use parquet::basic::{
    Compression, Encoding, IntType, LogicalType, Repetition, Type as PhysicalType,
};
use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnPath, Type};

use crate::format::columns::{Column, ColumnBatch, ColumnKind};
use crate::format::rows::{Rows, SpareRows};

/// Rows per row group, at most.
pub const ROW_GROUP_ROWS: usize = 128 * 1024;

/// Bytes of values gathered for a row group, at most (kept columns may be long): the memory a
/// Parquet output holds is a small multiple of this (the rows as they grow, then encoded).
pub const ROW_GROUP_BYTES: usize = 8 << 20;

/// Values handed to the encoder at a time: the encoder's view of a text column (a slice handle
/// per value) is built for this many values only.
const WRITE_BATCH: usize = 8192;

/// The compression of every column but the solution's.
pub const COMPRESSION: Compression = Compression::SNAPPY;

/// How a column is written. The writer's CPU is spent per value, so each column gets only what
/// pays for it: a dictionary where few values repeat often, compression where it shrinks the
/// column, statistics (null count, min and max, for readers to skip row groups) for every column
/// but the grids, whose min and max mean nothing and cost a comparison a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ColumnPolicy {
    /// `None`: no dictionary, values written with this encoding.
    plain: Option<Encoding>,
    compression: Compression,
    statistics: bool,
}

impl ColumnPolicy {
    /// The policy of a column by its name and kind.
    fn of(name: &str, kind: ColumnKind) -> ColumnPolicy {
        match (name, kind) {
            // Consecutive numbers, a few bits a row once delta-encoded; their range per row
            // group lets a reader find a line without reading every group.
            ("line", _) => ColumnPolicy {
                plain: Some(Encoding::DELTA_BINARY_PACKED),
                compression: COMPRESSION,
                statistics: true,
            },
            // Nearly all distinct, half blanks or more: compression makes the column a fifth
            // (17 givens) to a half of its size.
            ("puzzle", _) => ColumnPolicy {
                plain: Some(Encoding::PLAIN),
                compression: COMPRESSION,
                statistics: false,
            },
            // The 81 digits of a solved grid have few repeats: compression would save about a
            // third of the column at about a tenth of an easy run's CPU, so they are kept as
            // they are.
            ("solution", _) => ColumnPolicy {
                plain: Some(Encoding::PLAIN),
                compression: Compression::UNCOMPRESSED,
                statistics: false,
            },
            // Small numbers, delta-encoded into a few bits each: smaller than with a dictionary,
            // and cheaper per value.
            (_, ColumnKind::Count) => ColumnPolicy {
                plain: Some(Encoding::DELTA_BINARY_PACKED),
                compression: COMPRESSION,
                statistics: true,
            },
            // Statuses, messages, file names, layouts, kept values: few distinct values.
            (_, ColumnKind::Text) => ColumnPolicy {
                plain: None,
                compression: COMPRESSION,
                statistics: true,
            },
        }
    }
}

/// Writes rows as a Parquet file to `out`.
pub struct ParquetWriter<'a> {
    file: SerializedFileWriter<Spool>,
    out: &'a mut dyn Write,
    /// The batches of rows of the row group being gathered, written column by column when it
    /// is full (never copied into one).
    group: Vec<ColumnBatch>,
    /// Rows and bytes of values in `group`.
    group_rows: usize,
    group_bytes: usize,
    /// Where the written batches go, emptied, for new rows; `None`: they are dropped.
    spare: Option<Arc<SpareRows>>,
    /// Buffers for the encoder's input, kept from one call to the next.
    texts: Vec<ByteArray>,
    counts: Vec<i64>,
    levels: Vec<i16>,
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
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_created_by(format!("sudoku-bulk version {}", env!("CARGO_PKG_VERSION")))
            .set_key_value_metadata(Some(
                metadata
                    .iter()
                    .map(|(k, v)| KeyValue::new(k.clone(), v.clone()))
                    .collect(),
            ));
        for (name, &kind) in columns.iter().zip(kinds) {
            let policy = ColumnPolicy::of(name, kind);
            let path = ColumnPath::from(name.clone());
            properties = properties
                .set_column_compression(path.clone(), policy.compression)
                .set_column_statistics_enabled(
                    path.clone(),
                    if policy.statistics {
                        EnabledStatistics::Chunk
                    } else {
                        EnabledStatistics::None
                    },
                )
                .set_column_dictionary_enabled(path.clone(), policy.plain.is_none());
            if let Some(encoding) = policy.plain {
                properties = properties.set_column_encoding(path, encoding);
            }
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
            group: Vec::new(),
            group_rows: 0,
            group_bytes: 0,
            spare: None,
            texts: Vec::with_capacity(WRITE_BATCH),
            counts: Vec::with_capacity(WRITE_BATCH),
            levels: Vec::with_capacity(WRITE_BATCH),
        };
        writer.forward()?;
        Ok(writer)
    }

    /// Hands the batches of every row group written, emptied, to `spare`.
    pub fn recycling(mut self, spare: Arc<SpareRows>) -> Self {
        self.spare = Some(spare);
        self
    }

    /// Appends rows; a full row group is written out.
    pub fn write(&mut self, rows: ColumnBatch) -> io::Result<()> {
        self.group_rows += rows.rows();
        self.group_bytes += rows.bytes();
        self.group.push(rows);
        if self.group_rows >= ROW_GROUP_ROWS || self.group_bytes >= ROW_GROUP_BYTES {
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
        if self.group_rows == 0 {
            return Ok(());
        }
        let mut group = std::mem::take(&mut self.group);
        (self.group_rows, self.group_bytes) = (0, 0);
        let mut writer = self.file.next_row_group().map_err(encoding)?;
        for index in 0.. {
            let Some(mut out) = writer.next_column().map_err(encoding)? else {
                break;
            };
            for batch in &mut group {
                // Each column is taken by value: its bytes become the encoder's without a copy,
                // and come back emptied.
                let column =
                    std::mem::replace(&mut batch.columns[index], Column::Count(Default::default()));
                batch.columns[index] = match column {
                    Column::Text(mut text) => {
                        let data = Bytes::from(std::mem::take(&mut text.data));
                        for start in (0..text.valid.len()).step_by(WRITE_BATCH) {
                            let rows = start..(start + WRITE_BATCH).min(text.valid.len());
                            self.texts.clear();
                            self.texts
                                .extend(rows.clone().filter(|&i| text.valid[i]).map(|i| {
                                    ByteArray::from(
                                        data.slice(text.offsets[i]..text.offsets[i + 1]),
                                    )
                                }));
                            levels(&text.valid[rows], &mut self.levels);
                            out.typed::<ByteArrayType>()
                                .write_batch(&self.texts, Some(&self.levels), None)
                                .map_err(encoding)?;
                        }
                        self.texts.clear();
                        // The encoder holds no value any more: the bytes are the column's again.
                        text.data = Vec::from(data);
                        text.data.clear();
                        text.offsets.truncate(1);
                        text.valid.clear();
                        Column::Text(text)
                    }
                    Column::Count(mut counts) => {
                        for start in (0..counts.valid.len()).step_by(WRITE_BATCH) {
                            let rows = start..(start + WRITE_BATCH).min(counts.valid.len());
                            // Unsigned values in the signed physical type, bit for bit (the
                            // logical type says they are unsigned).
                            self.counts.clear();
                            self.counts.extend(
                                rows.clone()
                                    .filter(|&i| counts.valid[i])
                                    .map(|i| counts.values[i] as i64),
                            );
                            levels(&counts.valid[rows], &mut self.levels);
                            out.typed::<Int64Type>()
                                .write_batch(&self.counts, Some(&self.levels), None)
                                .map_err(encoding)?;
                        }
                        counts.values.clear();
                        counts.valid.clear();
                        Column::Count(counts)
                    }
                }
            }
            out.close().map_err(encoding)?;
        }
        writer.close().map_err(encoding)?;
        if let Some(spare) = &self.spare {
            spare.give(group.into_iter().map(Rows::Columns));
        }
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

/// The definition levels of an optional column into `levels`: 1 for a value, 0 for a null.
fn levels(valid: &[bool], levels: &mut Vec<i16>) {
    levels.clear();
    levels.extend(valid.iter().map(|&v| i16::from(v)));
}
