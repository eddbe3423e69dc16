//! The Parquet writer: batches of rows as columns ([`ColumnBatch`]) gathered into row groups of
//! bounded size; a full row group is encoded and compressed column by column (each column
//! chunk into its own pages in memory, by the run's pool and by the writer's thread while it
//! waits) as the next one is gathered, then its chunks are written to the output in order; the
//! footer (schema, row group index, key-value metadata) at the end. The grid columns' pages are
//! built here from the rows' bytes ([`encode_plain_text`]); the other columns go through the
//! `parquet` crate's column writer.
//!
//! The file is written front to back, never sought: it can go to a pipe. At most two row
//! groups are held: one gathered, one being encoded (its rows as columns, then its pages).

use std::io::{self, Write};
use std::sync::{Arc, Mutex, PoisonError, mpsc};

use bytes::Bytes;
use parquet::basic::{
    Compression, Encoding, IntType, LogicalType, Repetition, Type as PhysicalType, ZstdLevel,
};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::{ColumnCloseResult, ColumnWriter, get_column_writer};
use parquet::data_type::ByteArray;
use parquet::file::metadata::{ColumnChunkMetaData, KeyValue};
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesPtr};
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::types::{ColumnDescPtr, ColumnPath, Type};

use crate::format::columns::{Column, ColumnBatch, ColumnKind, TextColumn};
use crate::format::rows::{Rows, SpareRows};

/// Rows per row group, at most.
pub const ROW_GROUP_ROWS: usize = 128 * 1024;

/// Bytes of values gathered for a row group, at most (kept columns may be long): the memory a
/// Parquet output holds is a small multiple of this (a group's rows as they grow; the group
/// before, as rows and then as pages).
pub const ROW_GROUP_BYTES: usize = 4 << 20;

/// Rows handed to the encoder at a time, at least (then up to a batch more): the encoder's view
/// of a text column (a slice handle per value) is built for about this many values only.
const WRITE_BATCH: usize = 8192;

/// Bytes of values in a data page of a text column written by [`encode_plain_text`], about (a
/// page ends with the value that reaches this): the `parquet` crate's own default.
const PAGE_BYTES: usize = 1 << 20;

/// Rows in such a page, at most (short values and nulls take few bytes).
const PAGE_ROWS: usize = 32 * 1024;

/// The room left before a page's values for its definition levels, which are known only when
/// the page ends: their length (4 bytes), a run's header (a varint, 10 bytes at most) and a
/// bit for each row.
const LEVELS_ROOM: usize = 4 + 10 + PAGE_ROWS / 8;

/// The codec of a Parquet output's pages (`--parquet-compression`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ParquetCompression {
    /// No compression: the least CPU, the largest file.
    None,
    /// Snappy (the default, as in pyarrow and DuckDB): every column but the solutions, which
    /// it would shrink by a third only.
    #[default]
    Snappy,
    /// zstd at level 1 (polars' default codec): every column, the solutions too; the smallest
    /// file, for more CPU than Snappy.
    Zstd,
}

impl ParquetCompression {
    /// Every codec, in the order the help lists them.
    pub const ALL: [ParquetCompression; 3] = [
        ParquetCompression::None,
        ParquetCompression::Snappy,
        ParquetCompression::Zstd,
    ];

    /// The name of the codec as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            ParquetCompression::None => "none",
            ParquetCompression::Snappy => "snappy",
            ParquetCompression::Zstd => "zstd",
        }
    }

    /// The codec of the columns that are compressed.
    fn codec(self) -> Compression {
        match self {
            ParquetCompression::None => Compression::UNCOMPRESSED,
            ParquetCompression::Snappy => Compression::SNAPPY,
            // The `parquet` crate's default level, 1: as fast as zstd goes while still well
            // ahead of Snappy in size.
            ParquetCompression::Zstd => Compression::ZSTD(ZstdLevel::default()),
        }
    }
}

impl std::str::FromStr for ParquetCompression {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ParquetCompression::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown Parquet compression '{s}' (none, snappy or zstd)"))
    }
}

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
    /// The compression of a text column that [`encode_plain_text`] writes: one PLAIN, without
    /// statistics; `None` for the others, written by the `parquet` crate's column writer.
    fn plain_text(&self, kind: ColumnKind) -> Option<Compression> {
        (kind == ColumnKind::Text && self.plain == Some(Encoding::PLAIN) && !self.statistics)
            .then_some(self.compression)
    }

    /// The policy of a column by its name and kind, its pages compressed with `codec`.
    fn of(name: &str, kind: ColumnKind, codec: ParquetCompression) -> ColumnPolicy {
        let compression = codec.codec();
        match (name, kind) {
            // Consecutive numbers, a few bits a row once delta-encoded; their range per row
            // group lets a reader find a line without reading every group.
            ("line", _) => ColumnPolicy {
                plain: Some(Encoding::DELTA_BINARY_PACKED),
                compression,
                statistics: true,
            },
            // Nearly all distinct, half blanks or more: compression makes the column a fifth
            // (17 givens) to a half of its size.
            ("puzzle", _) => ColumnPolicy {
                plain: Some(Encoding::PLAIN),
                compression,
                statistics: false,
            },
            // The 81 digits of a solved grid have few repeats: Snappy would save about a third
            // of the column at about a tenth of an easy run's CPU, so they are kept as they
            // are, unless the smallest file is asked for (zstd).
            ("solution", _) => ColumnPolicy {
                plain: Some(Encoding::PLAIN),
                compression: match codec {
                    ParquetCompression::Zstd => compression,
                    _ => Compression::UNCOMPRESSED,
                },
                statistics: false,
            },
            // Small numbers, delta-encoded into a few bits each: smaller than with a dictionary,
            // and cheaper per value.
            (_, ColumnKind::Count) => ColumnPolicy {
                plain: Some(Encoding::DELTA_BINARY_PACKED),
                compression,
                statistics: true,
            },
            // Ratings: few distinct values, a dictionary's.
            // Statuses, messages, file names, layouts, kept values: few distinct values.
            (_, ColumnKind::Text | ColumnKind::Tenths) => ColumnPolicy {
                plain: None,
                compression,
                statistics: true,
            },
        }
    }
}

/// Writes rows as a Parquet file to `out`.
pub struct ParquetWriter<'a> {
    /// The file, written straight to the output (no copy of an encoded row group is held).
    file: SerializedFileWriter<&'a mut (dyn Write + Send)>,
    /// The batches of rows of the row group being gathered, encoded column by column when it
    /// is full (never copied into one).
    group: Vec<ColumnBatch>,
    /// Rows and bytes of values in `group`.
    group_rows: usize,
    group_bytes: usize,
    /// The row group before `group`, being encoded.
    encoding: Option<GroupEncoding>,
    /// Where the encoding of a row group's columns is shared out; `None`: this thread encodes
    /// every column as soon as the group is full.
    pool: Option<&'a rayon::ThreadPool>,
    /// Where the written batches go, emptied, for new rows; `None`: they are dropped.
    spare: Option<Arc<SpareRows>>,
    /// The page buffers of the last row group written, emptied, by column: the next group's.
    spare_pages: Vec<Vec<u8>>,
    /// By column: [`ColumnTask::plain_text`].
    plain_text: Vec<Option<Compression>>,
}

/// A full row group being encoded, one column chunk at a time, by whichever thread claims a
/// column first: a job of the pool, or the writer's own thread when it would otherwise wait.
struct GroupEncoding {
    shared: Arc<Claims>,
    done: mpsc::Receiver<Encoded>,
    /// Batches the rows came in.
    batches: usize,
}

/// The columns of a row group not yet claimed, and where each encoded one goes.
struct Claims {
    tasks: Mutex<Vec<ColumnTask>>,
    done: mpsc::Sender<Encoded>,
    properties: WriterPropertiesPtr,
}

/// One column of a row group: its values in every batch.
struct ColumnTask {
    index: usize,
    descriptor: ColumnDescPtr,
    parts: Vec<Column>,
    /// Where its pages go: the emptied buffer of the same column of the group before, if any.
    pages: Vec<u8>,
    /// `Some`: a text column without dictionary or statistics, written by [`encode_plain_text`]
    /// with this compression.
    plain_text: Option<Compression>,
}

/// One column chunk encoded (its pages, and what the footer says of them), and its parts,
/// emptied.
struct Encoded {
    index: usize,
    chunk: parquet::errors::Result<(Bytes, ColumnCloseResult)>,
    parts: Vec<Column>,
}

impl Claims {
    /// Claims a column not yet claimed and encodes it; `false` when none was left.
    fn encode_one(&self) -> bool {
        let Some(mut task) = self
            .tasks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
        else {
            return false;
        };
        let chunk = encode(&mut task, &self.properties);
        let encoded = Encoded {
            index: task.index,
            chunk,
            parts: task.parts,
        };
        // The writer is gone when the run has stopped: the column is dropped.
        let _ = self.done.send(encoded);
        true
    }
}

/// Encodes one column of a row group into its pages, in memory.
fn encode(
    task: &mut ColumnTask,
    properties: &WriterPropertiesPtr,
) -> parquet::errors::Result<(Bytes, ColumnCloseResult)> {
    if let Some(compression) = task.plain_text {
        return encode_plain_text(task, compression);
    }
    let mut pages = TrackedWrite::new(std::mem::take(&mut task.pages));
    let mut writer = get_column_writer(
        Arc::clone(&task.descriptor),
        Arc::clone(properties),
        Box::new(SerializedPageWriter::new(&mut pages)),
    );
    // The values of the parts are handed over WRITE_BATCH rows or more at a time, whatever the
    // size of the batches they came in.
    let mut levels = Vec::with_capacity(2 * WRITE_BATCH);
    match &mut writer {
        ColumnWriter::ByteArrayColumnWriter(out) => {
            let mut values = Vec::with_capacity(2 * WRITE_BATCH);
            // The bytes of the parts whose values are in `values`: the encoder's, without a
            // copy, until they are written; then the parts' again, emptied.
            let mut lent = Vec::new();
            for index in 0..task.parts.len() {
                let Column::Text(text) = &mut task.parts[index] else {
                    unreachable!("the parts of a column are of one kind");
                };
                let data = Bytes::from(std::mem::take(&mut text.data));
                values.extend(
                    (0..text.valid.len())
                        .filter(|&i| text.valid[i])
                        .map(|i| ByteArray::from(data.slice(text.offsets[i]..text.offsets[i + 1]))),
                );
                extend_levels(&text.valid, &mut levels);
                text.offsets.truncate(1);
                text.valid.clear();
                lent.push((index, data));
                let last = index + 1 == task.parts.len();
                if levels.len() >= WRITE_BATCH || last {
                    out.write_batch(&values, Some(&levels), None)?;
                    values.clear();
                    levels.clear();
                    for (index, data) in lent.drain(..) {
                        if let Column::Text(text) = &mut task.parts[index] {
                            text.data = Vec::from(data);
                            text.data.clear();
                        }
                    }
                }
            }
        }
        // Unsigned values in the signed physical type, bit for bit (the logical type says
        // they are unsigned).
        ColumnWriter::Int64ColumnWriter(out) => {
            write_numbers(out, &mut task.parts, &mut levels, |n| n as i64)?
        }
        ColumnWriter::DoubleColumnWriter(out) => {
            write_numbers(out, &mut task.parts, &mut levels, |tenths| {
                tenths as f64 / 10.0
            })?
        }
        _ => unreachable!("columns are text, counts or tenths"),
    }
    let close = writer.close()?;
    Ok((Bytes::from(pages.into_inner()?), close))
}

/// Writes the values of count columns (counts, or tenths) through `out`, each made by `value`,
/// WRITE_BATCH rows or more at a time; the parts are emptied.
fn write_numbers<T: parquet::data_type::DataType>(
    out: &mut parquet::column::writer::ColumnWriterImpl<'_, T>,
    parts: &mut [Column],
    levels: &mut Vec<i16>,
    value: impl Fn(u64) -> T::T,
) -> parquet::errors::Result<()> {
    let mut values = Vec::with_capacity(2 * WRITE_BATCH);
    let count = parts.len();
    for (index, part) in parts.iter_mut().enumerate() {
        let Column::Count(numbers) = part else {
            unreachable!("the parts of a column are of one kind");
        };
        values.extend(
            (0..numbers.valid.len())
                .filter(|&i| numbers.valid[i])
                .map(|i| value(numbers.values[i])),
        );
        extend_levels(&numbers.valid, levels);
        part.clear();
        if levels.len() >= WRITE_BATCH || index + 1 == count {
            out.write_batch(&values, Some(levels), None)?;
            values.clear();
            levels.clear();
        }
    }
    Ok(())
}

/// Encodes a text column that has neither dictionary nor statistics (the grids) straight from
/// the parts' bytes, into data pages (format v1) of about [`PAGE_BYTES`] of values and at most
/// [`PAGE_ROWS`] rows: the nulls as definition levels, each value PLAIN (its length in 4 bytes, little-endian, then its bytes),
/// the page compressed as a whole. The `parquet` crate's column writer would make a handle per
/// value and copy the values twice before compressing them: for the grids of an easy run that
/// is about a tenth of the CPU.
fn encode_plain_text(
    task: &mut ColumnTask,
    compression: Compression,
) -> parquet::errors::Result<(Bytes, ColumnCloseResult)> {
    let mut out = TrackedWrite::new(std::mem::take(&mut task.pages));
    let mut writer = SerializedPageWriter::new(&mut out);
    let mut page = PlainPage::new();
    let mut chunk = ChunkSizes::default();
    for part in &mut task.parts {
        let Column::Text(text) = part else {
            unreachable!("the parts of a column are of one kind");
        };
        let mut row = 0;
        while row < text.valid.len() {
            row = page.fill(text, row);
            if page.is_full() {
                chunk.add(page.write(&mut writer, compression)?);
            }
        }
        part.clear();
    }
    if !page.valid.is_empty() {
        chunk.add(page.write(&mut writer, compression)?);
    }
    writer.close()?;
    let metadata = ColumnChunkMetaData::builder(Arc::clone(&task.descriptor))
        .set_compression(compression)
        .set_encodings(vec![Encoding::PLAIN, Encoding::RLE])
        .set_num_values(chunk.values as i64)
        .set_total_compressed_size(chunk.compressed as i64)
        .set_total_uncompressed_size(chunk.uncompressed as i64)
        .set_data_page_offset(0)
        .build()?;
    let close = ColumnCloseResult {
        bytes_written: chunk.compressed,
        rows_written: chunk.values,
        metadata,
        bloom_filter: None,
        column_index: None,
        offset_index: None,
    };
    Ok((Bytes::from(out.into_inner()?), close))
}

/// The rows of a data page being built by [`encode_plain_text`].
struct PlainPage {
    /// Whether each row has a value.
    valid: Vec<bool>,
    /// [`LEVELS_ROOM`] bytes of room for the definition levels, then the values, PLAIN: the
    /// page is written from here, its values never copied behind its levels.
    body: Vec<u8>,
    /// The definition levels of the page being written.
    levels: Vec<u8>,
}

/// What a column chunk's pages add up to, for the footer.
#[derive(Default)]
struct ChunkSizes {
    /// Rows (values and nulls).
    values: u64,
    /// Bytes of the pages with their headers, as written and before compression.
    compressed: u64,
    uncompressed: u64,
}

impl ChunkSizes {
    fn add(&mut self, page: parquet::column::page::PageWriteSpec) {
        self.values += u64::from(page.num_values);
        self.compressed += page.bytes_written;
        self.uncompressed += page.uncompressed_size as u64;
    }
}

impl PlainPage {
    fn new() -> PlainPage {
        PlainPage {
            valid: Vec::new(),
            body: Self::room(),
            levels: Vec::new(),
        }
    }

    /// A page body with nothing but the room for the levels.
    fn room() -> Vec<u8> {
        let mut body = Vec::with_capacity(LEVELS_ROOM + PAGE_BYTES + 128);
        body.resize(LEVELS_ROOM, 0);
        body
    }

    fn is_full(&self) -> bool {
        self.body.len() - LEVELS_ROOM >= PAGE_BYTES || self.valid.len() >= PAGE_ROWS
    }

    /// Adds the rows of `text` from `row` on until the page is full or the rows end; returns
    /// the first row not added.
    fn fill(&mut self, text: &TextColumn, mut row: usize) -> usize {
        while row < text.valid.len() && !self.is_full() {
            let valid = text.valid[row];
            self.valid.push(valid);
            if valid {
                let value = &text.data[text.offsets[row]..text.offsets[row + 1]];
                // A value fits Parquet's 4-byte length: a field of a record is at most a line
                // of input (`format::MAX_LINE`) or a value of a Parquet input, itself so stored.
                self.body
                    .extend_from_slice(&(value.len() as u32).to_le_bytes());
                self.body.extend_from_slice(value);
            }
            row += 1;
        }
        row
    }

    /// Writes the page (its definition levels, put in the room before its values, then the
    /// values, compressed together) and empties it.
    fn write(
        &mut self,
        writer: &mut SerializedPageWriter<'_, Vec<u8>>,
        compression: Compression,
    ) -> parquet::errors::Result<parquet::column::page::PageWriteSpec> {
        self.levels.clear();
        definition_levels(&self.valid, &mut self.levels);
        let start = LEVELS_ROOM - self.levels.len();
        self.body[start..LEVELS_ROOM].copy_from_slice(&self.levels);
        let uncompressed = self.body.len() - start;
        let buf = match compression {
            // The body goes to the page as it is, and the next page gets a new one.
            Compression::UNCOMPRESSED => {
                Bytes::from(std::mem::replace(&mut self.body, Self::room())).slice(start..)
            }
            Compression::SNAPPY => {
                let compressed = snap::raw::Encoder::new()
                    .compress_vec(&self.body[start..])
                    .map_err(|e| parquet::errors::ParquetError::External(Box::new(e)))?;
                self.body.truncate(LEVELS_ROOM);
                Bytes::from(compressed)
            }
            Compression::ZSTD(level) => {
                let compressed =
                    zstd::bulk::compress(&self.body[start..], level.compression_level())
                        .map_err(|e| parquet::errors::ParquetError::External(Box::new(e)))?;
                self.body.truncate(LEVELS_ROOM);
                Bytes::from(compressed)
            }
            other => unreachable!("no text column is written with {other}"),
        };
        let page = Page::DataPage {
            buf,
            num_values: self.valid.len() as u32,
            encoding: Encoding::PLAIN,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        };
        self.valid.clear();
        writer.write_page(CompressedPage::new(page, uncompressed))
    }
}

/// Appends the definition levels of an optional column's rows (1: a value, 0: null) as a data
/// page (v1) holds them: their length in 4 bytes, little-endian, then the RLE / bit-packing
/// hybrid at bit width 1: one run when every row is alike, else every row bit-packed, 8 rows a
/// byte, the first in the lowest bit (the page's row count says where the last byte ends).
fn definition_levels(valid: &[bool], out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    if let Some(&first) = valid.first() {
        if valid.iter().all(|&v| v == first) {
            unsigned_varint((valid.len() as u64) << 1, out);
            out.push(u8::from(first));
        } else {
            unsigned_varint(((valid.len().div_ceil(8) as u64) << 1) | 1, out);
            out.extend(valid.chunks(8).map(|eight| {
                eight
                    .iter()
                    .enumerate()
                    .fold(0u8, |byte, (bit, &v)| byte | (u8::from(v) << bit))
            }));
        }
    }
    let length = (out.len() - start - 4) as u32;
    out[start..start + 4].copy_from_slice(&length.to_le_bytes());
}

/// Appends `value` as a ULEB128 varint (7 bits a byte, the lowest first).
fn unsigned_varint(mut value: u64, out: &mut Vec<u8>) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7F) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// An error of the Parquet encoder, as an I/O error of the output.
fn encoding_error(e: parquet::errors::ParquetError) -> io::Error {
    match e {
        parquet::errors::ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(io) => *io,
            Err(other) => io::Error::other(other),
        },
        other => io::Error::other(other),
    }
}

/// The schema of the rows: every column optional, counts as unsigned 64-bit integers, tenths
/// as doubles, text as UTF-8 strings.
fn schema(columns: &[String], kinds: &[ColumnKind]) -> io::Result<Type> {
    let fields = columns
        .iter()
        .zip(kinds)
        .map(|(name, kind)| {
            let (physical, logical) = match kind {
                ColumnKind::Text => (PhysicalType::BYTE_ARRAY, Some(LogicalType::String)),
                ColumnKind::Count => (
                    PhysicalType::INT64,
                    Some(LogicalType::Integer(IntType {
                        bit_width: 64,
                        is_signed: false,
                    })),
                ),
                ColumnKind::Tenths => (PhysicalType::DOUBLE, None),
            };
            Type::primitive_type_builder(name, physical)
                .with_repetition(Repetition::OPTIONAL)
                .with_logical_type(logical)
                .build()
                .map(Arc::new)
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(encoding_error)?;
    Type::group_type_builder("sudoku_bulk")
        .with_fields(fields)
        .build()
        .map_err(encoding_error)
}

impl<'a> ParquetWriter<'a> {
    /// A writer of rows with these columns to `out`, its pages compressed with `codec`;
    /// `metadata` goes to the file's key-value metadata. Writes the file's magic bytes.
    pub fn new(
        out: &'a mut (dyn Write + Send),
        columns: &[String],
        kinds: &[ColumnKind],
        metadata: &[(String, String)],
        codec: ParquetCompression,
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
        let mut plain_text = Vec::with_capacity(columns.len());
        for (name, &kind) in columns.iter().zip(kinds) {
            let policy = ColumnPolicy::of(name, kind, codec);
            plain_text.push(policy.plain_text(kind));
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
            out,
            Arc::new(schema(columns, kinds)?),
            Arc::new(properties.build()),
        )
        .map_err(encoding_error)?;
        let mut writer = ParquetWriter {
            file,
            group: Vec::new(),
            group_rows: 0,
            group_bytes: 0,
            encoding: None,
            pool: None,
            spare: None,
            spare_pages: Vec::new(),
            plain_text,
        };
        writer.file.flush()?;
        Ok(writer)
    }

    /// Hands the batches of every row group written, emptied, to `spare`.
    pub fn recycling(mut self, spare: Arc<SpareRows>) -> Self {
        self.spare = Some(spare);
        self
    }

    /// Shares the encoding of full row groups with `pool`: a row group is encoded, a column at
    /// a time, by the pool's threads and by this one (in [`ParquetWriter::help`], and when the
    /// next group is full), while the next group is gathered. At most two row groups are held.
    pub fn sharing(mut self, pool: &'a rayon::ThreadPool) -> Self {
        self.pool = Some(pool);
        self
    }

    /// Appends rows; a full row group is handed to the encoders.
    pub fn write(&mut self, rows: ColumnBatch) -> io::Result<()> {
        self.group_rows += rows.rows();
        self.group_bytes += rows.bytes();
        self.group.push(rows);
        if self.group_rows >= ROW_GROUP_ROWS || self.group_bytes >= ROW_GROUP_BYTES {
            self.write_group()?;
        }
        Ok(())
    }

    /// Encodes a column of the row group being encoded, if one is left unclaimed: work for
    /// this thread while it waits for rows. `false` when there was none.
    pub fn help(&mut self) -> bool {
        self.encoding
            .as_ref()
            .is_some_and(|encoding| encoding.shared.encode_one())
    }

    /// Flushes the output. Rows of the row groups being gathered and encoded stay in memory:
    /// they are written with their groups.
    pub fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }

    /// Writes the last row groups and the footer, and flushes the output.
    pub fn finish(mut self) -> io::Result<()> {
        self.write_group()?;
        self.write_encoded()?;
        self.file.finish().map_err(encoding_error)?;
        self.file.flush()
    }

    /// Writes out the row group being encoded, then hands the gathered rows to the encoders.
    fn write_group(&mut self) -> io::Result<()> {
        self.write_encoded()?;
        if self.group_rows == 0 {
            return Ok(());
        }
        let mut group = std::mem::take(&mut self.group);
        (self.group_rows, self.group_bytes) = (0, 0);
        let schema = self.file.schema_descr();
        let columns = schema.num_columns();
        // Each column is taken out of its batches by value, to come back emptied.
        let tasks = (0..columns)
            .rev()
            .map(|index| ColumnTask {
                index,
                descriptor: schema.column(index),
                parts: group
                    .iter_mut()
                    .map(|batch| {
                        std::mem::replace(
                            &mut batch.columns[index],
                            Column::Count(Default::default()),
                        )
                    })
                    .collect(),
                pages: self
                    .spare_pages
                    .get_mut(index)
                    .map(std::mem::take)
                    .unwrap_or_default(),
                plain_text: self.plain_text[index],
            })
            .collect();
        let (done, receiver) = mpsc::channel();
        let shared = Arc::new(Claims {
            tasks: Mutex::new(tasks),
            done,
            properties: Arc::clone(self.file.properties()),
        });
        self.encoding = Some(GroupEncoding {
            shared: Arc::clone(&shared),
            done: receiver,
            batches: group.len(),
        });
        match self.pool {
            Some(pool) => {
                for _ in 0..columns.min(pool.current_num_threads()) {
                    let shared = Arc::clone(&shared);
                    pool.spawn(move || while shared.encode_one() {});
                }
            }
            None => self.write_encoded()?,
        }
        Ok(())
    }

    /// Waits for the columns of the row group being encoded (encoding those still unclaimed
    /// on this thread) and writes them out as a row group.
    fn write_encoded(&mut self) -> io::Result<()> {
        let Some(encoding) = self.encoding.take() else {
            return Ok(());
        };
        while encoding.shared.encode_one() {}
        let columns = self.file.schema_descr().num_columns();
        let mut chunks: Vec<Encoded> = (0..columns)
            .map(|_| {
                encoding
                    .done
                    .recv()
                    .expect("every claimed column is sent back")
            })
            .collect();
        chunks.sort_unstable_by_key(|encoded| encoded.index);
        let mut batches: Vec<ColumnBatch> = (0..encoding.batches)
            .map(|_| ColumnBatch {
                columns: Vec::new(),
            })
            .collect();
        let mut spare_pages = Vec::with_capacity(columns);
        let mut writer = self.file.next_row_group().map_err(encoding_error)?;
        for encoded in chunks {
            let (pages, close) = encoded.chunk.map_err(encoding_error)?;
            writer
                .append_column(&pages, close)
                .map_err(encoding_error)?;
            spare_pages.push(emptied(pages));
            for (batch, part) in batches.iter_mut().zip(encoded.parts) {
                batch.columns.push(part);
            }
        }
        writer.close().map_err(encoding_error)?;
        self.spare_pages = spare_pages;
        if let Some(spare) = &self.spare {
            spare.give(batches.into_iter().map(Rows::Columns));
        }
        Ok(())
    }
}

/// The buffer of `pages`, emptied (a copy only if the encoder still held them, which it does not).
fn emptied(pages: Bytes) -> Vec<u8> {
    let mut buffer = Vec::from(pages);
    buffer.clear();
    buffer
}

/// Appends the definition levels of an optional column to `levels`: 1 for a value, 0 for a
/// null.
fn extend_levels(valid: &[bool], levels: &mut Vec<i16>) {
    levels.extend(valid.iter().map(|&v| i16::from(v)));
}
