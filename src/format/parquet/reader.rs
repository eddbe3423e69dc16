//! The Parquet reader: the records of a Parquet file, row group by row group, a thousand rows
//! at a time, its columns chosen by name as a CSV's are.
//!
//! A Parquet file is read from its path: its index (the footer) is at its end. Only top-level
//! columns of one value per row are read; every physical type but `INT96` is taken as text the
//! way a CSV would hold it (strings and binary as their bytes, integers in decimal, unsigned
//! when their logical type says so, booleans as `true`/`false`, floats as Rust prints them);
//! a null is an empty value. Memory stays bounded by a page of each column read, and a batch
//! of at most a thousand rows and [`BATCH_BYTES`] bytes: a row group is never held whole.
//!
//! A value longer than [`MAX_VALUE`] is not copied: its record is invalid, with a
//! [`Defect::ValueTooLong`], and reading goes on, as the text readers do with an over-long
//! line. The `parquet` crate hands byte-array values over as shared slices of the page (or of
//! the dictionary) that holds them, so such a value is never copied at all; the page itself is
//! held whole by the crate while it is read. Only `DELTA_BYTE_ARRAY` pages build each value anew
//! (a prefix of the one before and a suffix): a column chunk whose metadata lists that encoding
//! is read one row at a time, so at most one such value (no longer than its page) is built at
//! once.
//!
//! A record's `line` is its row number in the file, from 1, and its `offset` the row number
//! from 0: a Parquet file has no lines, and these are what a reader of it counts.

use std::fs::File;
use std::io;
use std::path::Path;

use parquet::basic::{Compression, ConvertedType, Encoding, LogicalType, Type as PhysicalType};
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::{AsBytes, DataType};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::schema::types::ColumnDescPtr;

use super::checked::CheckedFile;
use crate::format::columns::TextColumn;
use crate::format::csv::{self, PUZZLE_NAMES, REGIONS_NAME, SOLUTION_NAMES};
use crate::format::{
    Defect, HeaderError, MAX_LINE, Position, ReadOptions, ReaderError, Record, RecordReader,
};

/// Rows read from each column at a time, at most.
const BATCH_ROWS: usize = 1024;

/// The bytes of values a batch holds at most, all its columns together (unless one row at
/// [`MAX_VALUE`] in every column is more: a batch holds one row at least).
pub const BATCH_BYTES: usize = 4 << 20;

/// The longest value copied, as the text readers' longest line: a longer value makes its record
/// invalid.
pub const MAX_VALUE: usize = MAX_LINE;

/// The largest footer (the file's index, decoded whole) read: a few kilobytes a row group.
pub const MAX_FOOTER: u64 = 16 << 20;

/// The length of a Parquet file's footer, from its last eight bytes (the length, then `PAR1`),
/// checked against the file: a file that does not end with `PAR1`, or whose footer would begin
/// before its first bytes, was cut short (or is no Parquet file). `size` is the file's length.
fn footer_length(file: &mut File, size: u64) -> Result<u64, HeaderError> {
    use std::io::{Read, Seek, SeekFrom};
    let cut = |detail: String| HeaderError::NotParquet { detail };
    // PAR1, a footer, its length and PAR1: 12 bytes at the least.
    if size < 12 {
        return Err(cut(format!(
            "it is {size} bytes long, cut short: a Parquet file holds 12 at the least"
        )));
    }
    let mut tail = [0u8; 8];
    let read = |file: &mut File, tail: &mut [u8; 8]| -> io::Result<()> {
        file.seek(SeekFrom::Start(size - 8))?;
        file.read_exact(tail)?;
        file.seek(SeekFrom::Start(0)).map(drop)
    };
    read(file, &mut tail).map_err(|e| cut(format!("its end cannot be read ({e})")))?;
    let [a, b, c, d, magic @ ..] = tail;
    if magic != *super::MAGIC {
        return Err(cut(
            "it does not end with PAR1, as every whole Parquet file does: it is cut short \
             (not written to its end, or truncated since)"
                .to_string(),
        ));
    }
    let footer = u64::from(u32::from_le_bytes([a, b, c, d]));
    if footer > size - 12 {
        return Err(cut(format!(
            "its footer (the file's index) says it is {footer} bytes, but the file holds \
             {size}: it is cut short or corrupt"
        )));
    }
    Ok(footer)
}

/// Reads the records of a Parquet file.
pub struct ParquetReader {
    file: SerializedFileReader<CheckedFile>,
    /// The leaf index of each column read, in the order: puzzle, solution, regions, kept.
    leaves: Vec<usize>,
    /// Which of `leaves` is the puzzle, the solution, the regions column (kept: the rest).
    puzzle: Option<usize>,
    solution: Option<usize>,
    regions: Option<usize>,
    kept: Vec<usize>,
    /// Which of `leaves` is each optional column asked for, where the file has it.
    optional: Vec<Option<usize>>,
    /// The names of the file's top-level columns.
    names: Vec<Vec<u8>>,
    /// The name of each column read, in the order of `leaves`.
    leaf_names: Vec<String>,
    /// The next row group to open.
    next_group: usize,
    /// The open row group's column readers, one per leaf read.
    cursors: Vec<Cursor>,
    /// The rows the open row group says it holds, and those of them not read yet.
    group_rows: u64,
    group_left: u64,
    /// The current batch of rows, one text column per leaf read.
    batch: Vec<TextColumn>,
    /// The rows of the batch whose value is longer than [`MAX_VALUE`] (not copied: an empty
    /// value in `batch`), in order, one list per leaf read.
    too_long: Vec<Vec<usize>>,
    /// The next row of the batch.
    at: usize,
    /// Rows read before the current batch.
    rows_before: u64,
}

impl ParquetReader {
    /// Opens the Parquet file at `path` and finds the columns `options` asks for.
    pub fn open(path: &Path, options: &ReadOptions) -> Result<Self, ReaderError> {
        if options.span != Default::default() {
            return Err(HeaderError::ParquetSpan.into());
        }
        let mut file = File::open(path)?;
        let size = file.metadata()?.len();
        let footer = footer_length(&mut file, size)?;
        if footer > MAX_FOOTER {
            return Err(HeaderError::NotParquet {
                detail: format!(
                    "its footer (the file's index) says it is {footer} bytes, more than the {} MiB \
                     read: write the file with fewer row groups",
                    MAX_FOOTER >> 20
                ),
            }
            .into());
        }
        // A corrupt file can make the `parquet` crate panic: that is an error of the file.
        let file = CheckedFile::new(file, size);
        super::contained(|| Self::open_file(file, options)).unwrap_or_else(|panic| {
            Err(HeaderError::NotParquet {
                detail: format!("the Parquet library failed on it ({panic})"),
            }
            .into())
        })
    }

    /// [`ParquetReader::open`] once the footer's size is known to be within bounds.
    fn open_file(file: CheckedFile, options: &ReadOptions) -> Result<Self, ReaderError> {
        let file = SerializedFileReader::new(file).map_err(|e| HeaderError::NotParquet {
            detail: e.to_string(),
        })?;
        let schema = file.metadata().file_metadata().schema_descr_ptr();
        // Top-level columns by name: a leaf whose path has one part.
        let flat: Vec<(usize, ColumnDescPtr)> = (0..schema.num_columns())
            .map(|i| (i, schema.column(i)))
            .filter(|(_, c)| c.path().parts().len() == 1)
            .collect();
        let names: Vec<Vec<u8>> = schema
            .root_schema()
            .get_fields()
            .iter()
            .map(|f| f.name().as_bytes().to_vec())
            .collect();
        // The leaf of the top-level column at `index`, refused when it is not read as text.
        let leaf_of = |index: usize| -> Result<usize, HeaderError> {
            let name = &names[index];
            let (leaf, column) = flat
                .iter()
                .find(|(_, c)| c.name().as_bytes() == name.as_slice())
                .ok_or_else(|| HeaderError::ParquetColumn {
                    column: String::from_utf8_lossy(name).into_owned(),
                    detail:
                        "a nested column (a struct, list or map), which is not read: only flat \
                             columns are"
                            .to_string(),
                })?;
            if column.max_rep_level() > 0 {
                return Err(HeaderError::ParquetColumn {
                    column: column.name().to_string(),
                    detail: "a repeated column (a list), which is not read: only flat columns are"
                        .to_string(),
                });
            }
            if column.physical_type() == PhysicalType::INT96 {
                return Err(HeaderError::ParquetColumn {
                    column: column.name().to_string(),
                    detail: "an INT96 timestamp, which is not read: write it as a timestamp in \
                             microseconds or as text"
                        .to_string(),
                });
            }
            // Bytes that stand for a number: as text they would be the raw bytes.
            let number = match column.logical_type_ref() {
                Some(LogicalType::Decimal { .. }) => Some("a decimal"),
                Some(LogicalType::Float16) => Some("a float16"),
                _ if column.converted_type() == ConvertedType::DECIMAL => Some("a decimal"),
                _ => None,
            };
            if let (Some(kind), PhysicalType::BYTE_ARRAY | PhysicalType::FIXED_LEN_BYTE_ARRAY) =
                (number, column.physical_type())
            {
                return Err(HeaderError::ParquetColumn {
                    column: column.name().to_string(),
                    detail: format!(
                        "{kind} held as bytes, which is not read as text: write it as text or \
                         as a floating-point number"
                    ),
                });
            }
            Ok(*leaf)
        };
        let find = |role, chosen: Option<&str>, known: &[&str]| {
            leaf_of(csv::find_column(&names, role, chosen, known)?)
        };
        // A column that may be absent: absent, or not flat, is `None`; a name that several
        // columns answer to is an error, as in a CSV header.
        let find_optional = |role, chosen: Option<&str>, known: &[&str]| {
            csv::find_present(&names, role, chosen, known)
                .map(|found| found.and_then(|index| leaf_of(index).ok()))
        };
        let columns = &options.columns;
        let puzzle = options
            .wanted
            .puzzle()
            .then(|| find("puzzle", columns.puzzle.as_deref(), PUZZLE_NAMES))
            .transpose()?;
        let solution = options
            .wanted
            .solution()
            .then(|| find("solution", columns.solution.as_deref(), SOLUTION_NAMES))
            .transpose()?;
        let regions = match columns.regions.as_deref() {
            Some(name) => Some(find("regions", Some(name), &[])?),
            None if options.wanted.puzzle() => find_optional("regions", None, &[REGIONS_NAME])?,
            None => None,
        };
        let kept = columns
            .keep
            .iter()
            .map(|name| find("kept", Some(name), &[]))
            .collect::<Result<Vec<_>, _>>()?;
        let optional: Vec<Option<usize>> = options
            .optional
            .iter()
            .map(|name| find_optional("optional", Some(name), &[]))
            .collect::<Result<_, _>>()?;
        let mut leaves = Vec::new();
        let mut slot = |leaf: usize| {
            leaves.push(leaf);
            leaves.len() - 1
        };
        let puzzle = puzzle.map(&mut slot);
        let solution = solution.map(&mut slot);
        let regions = regions.map(&mut slot);
        let kept = kept.into_iter().map(&mut slot).collect();
        let optional = optional.into_iter().map(|o| o.map(&mut slot)).collect();
        let leaf_names: Vec<String> = leaves
            .iter()
            .map(|&leaf| schema.column(leaf).name().to_string())
            .collect();
        // A page compressed with a codec this build lacks (LZO, which no current writer
        // offers) would fail at its row group: refuse the file now, saying what to do.
        for group in file.metadata().row_groups() {
            for (&leaf, name) in leaves.iter().zip(&leaf_names) {
                let compression = group.column(leaf).compression();
                if compression == Compression::LZO {
                    return Err(HeaderError::ParquetCodec {
                        column: name.clone(),
                        codec: codec_name(compression),
                    }
                    .into());
                }
            }
        }
        Ok(ParquetReader {
            file,
            batch: vec![TextColumn::default(); leaves.len()],
            too_long: vec![Vec::new(); leaves.len()],
            leaves,
            leaf_names,
            puzzle,
            solution,
            regions,
            kept,
            optional,
            names,
            next_group: 0,
            cursors: Vec::new(),
            group_rows: 0,
            group_left: 0,
            at: 0,
            rows_before: 0,
        })
    }

    /// Reads the next batch of rows into `self.batch`; `false` at the end of the file. A panic of
    /// the `parquet` crate on a corrupt page is an error of the file, as its own errors are.
    fn next_batch(&mut self) -> io::Result<bool> {
        super::contained(|| self.read_batch())
            .unwrap_or_else(|panic| Err(invalid(format!("the Parquet library failed ({panic})"))))
    }

    /// [`ParquetReader::next_batch`], the `parquet` crate's panics not caught.
    fn read_batch(&mut self) -> io::Result<bool> {
        self.rows_before += self.batch.first().map_or(0, |c| c.valid.len()) as u64;
        self.at = 0;
        loop {
            if !self.cursors.is_empty() {
                for (column, long) in self.batch.iter_mut().zip(&mut self.too_long) {
                    *column = TextColumn::default();
                    long.clear();
                }
                if self.fill_batch()? > 0 {
                    return Ok(true);
                }
                // Its pages ended: a row the row group declares and does not hold is a record
                // lost, which is told (other readers read such a file short, silently).
                if self.group_left > 0 {
                    return Err(invalid(format!(
                        "row group {} says it holds {} rows, but its pages hold {}: the file is \
                         corrupt",
                        self.next_group,
                        self.group_rows,
                        self.group_rows - self.group_left
                    )));
                }
                self.cursors.clear();
            }
            if self.next_group >= self.file.num_row_groups() {
                return Ok(false);
            }
            let group = self.file.get_row_group(self.next_group).map_err(invalid)?;
            self.next_group += 1;
            if group.metadata().num_rows() <= 0 {
                continue;
            }
            self.group_rows = group.metadata().num_rows() as u64;
            self.group_left = self.group_rows;
            self.cursors = self
                .leaves
                .iter()
                .map(|&leaf| {
                    let chunk = group.metadata().column(leaf);
                    let encodings: Vec<Encoding> = chunk.encodings().collect();
                    let descr = chunk.column_descr_ptr();
                    group
                        .get_column_reader(leaf)
                        .map(|reader| Cursor::new(reader, descr, &encodings))
                })
                .collect::<Result<_, _>>()
                .map_err(invalid)?;
            if self.cursors.is_empty() {
                // No column is read (stats asking for none): count the rows alone.
                let rows = group.metadata().num_rows() as usize;
                self.group_left = 0;
                self.batch = vec![TextColumn::default()];
                self.batch[0].valid = vec![false; rows];
                return Ok(true);
            }
        }
    }

    /// Reads the open row group's next rows into the emptied batch, in rounds, until it holds
    /// [`BATCH_ROWS`] rows, or the row group ends, or another round could take it past
    /// [`BATCH_BYTES`]; the rows read. A round reads only as many rows as fit in the bytes left
    /// were every value [`MAX_VALUE`] long (one row at least), so the bound holds whatever the
    /// values are: rows of short values are read in a few rounds, long ones in many.
    fn fill_batch(&mut self) -> io::Result<usize> {
        let most_per_row = self.cursors.len() * MAX_VALUE;
        // Rows a round asks of the `parquet` crate at most: one where it builds each value
        // anew (`DELTA_BYTE_ARRAY`), since each of those values may be as long as its page.
        let most_per_round = match self.cursors.iter().any(|c| c.rebuilds_values) {
            true => 1,
            false => BATCH_ROWS,
        };
        let mut rows = 0;
        while rows < BATCH_ROWS && self.group_left > 0 {
            let held: usize = self.batch.iter().map(|c| c.data.len()).sum();
            let fit = BATCH_BYTES.saturating_sub(held) / most_per_row;
            if fit == 0 && rows > 0 {
                break;
            }
            let wanted = fit
                .clamp(1, BATCH_ROWS - rows)
                .min(most_per_round)
                .min(usize::try_from(self.group_left).unwrap_or(usize::MAX));
            let mut read = None;
            for ((cursor, column), long) in self
                .cursors
                .iter_mut()
                .zip(&mut self.batch)
                .zip(&mut self.too_long)
            {
                let n = cursor.read(wanted, column, long).map_err(invalid)?;
                if *read.get_or_insert(n) != n {
                    return Err(invalid("columns of a row group hold different row counts"));
                }
            }
            let read = read.unwrap_or(0);
            rows += read;
            self.group_left -= read as u64;
            if read < wanted {
                break;
            }
        }
        Ok(rows)
    }

    /// The defect of the current row: the first column read whose value is too long.
    fn defect(&self) -> Option<Defect> {
        let slot = self
            .too_long
            .iter()
            .position(|rows| rows.binary_search(&self.at).is_ok())?;
        Some(Defect::ValueTooLong {
            column: self.leaf_names[slot].clone(),
            limit: MAX_VALUE,
        })
    }

    fn value(&self, slot: usize) -> Vec<u8> {
        let column = &self.batch[slot];
        column.data[column.offsets[self.at]..column.offsets[self.at + 1]].to_vec()
    }
}

/// The name of a Parquet codec, as writers spell it in their options.
fn codec_name(compression: Compression) -> &'static str {
    match compression {
        Compression::UNCOMPRESSED => "none",
        Compression::SNAPPY => "snappy",
        Compression::GZIP(_) => "gzip",
        Compression::LZO => "lzo",
        Compression::BROTLI(_) => "brotli",
        Compression::LZ4 => "lz4",
        Compression::ZSTD(_) => "zstd",
        Compression::LZ4_RAW => "lz4_raw",
    }
}

/// A reading error of the Parquet library, as an I/O error.
fn invalid(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e.to_string())
}

impl RecordReader for ParquetReader {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
        let rows = self.batch.first().map_or(0, |c| c.valid.len());
        if self.at >= rows && !self.next_batch()? {
            return Ok(None);
        }
        let row = self.rows_before + self.at as u64;
        if let Some(defect) = self.defect() {
            self.at += 1;
            return Ok(Some(Record {
                line: row + 1,
                offset: row,
                defect: Some(defect),
                ..Record::default()
            }));
        }
        let record = Record {
            line: row + 1,
            offset: row,
            puzzle: self.puzzle.map_or_else(Vec::new, |s| self.value(s)),
            solution: self.solution.map(|s| self.value(s)),
            kept: self.kept.iter().map(|&s| self.value(s)).collect(),
            regions: self.regions.map(|s| self.value(s)),
            optional: self
                .optional
                .iter()
                .map(|o| o.map(|s| self.value(s)))
                .collect(),
            defect: None,
            // Rows have no text; `--as-input` refuses a Parquet input.
            raw: None,
        };
        self.at += 1;
        Ok(Some(record))
    }

    fn position(&self) -> Position {
        let row = self.rows_before + self.at as u64;
        Position {
            offset: row,
            line: row + 1,
        }
    }

    fn has_regions(&self) -> bool {
        self.regions.is_some()
    }

    fn has_column(&self, name: &str) -> bool {
        csv::find_column(&self.names, "optional", Some(name), &[]).is_ok()
    }
}

/// A column reader of any supported physical type, and how its values are written as text.
struct Cursor {
    reader: ColumnReader,
    descr: ColumnDescPtr,
    /// Whether integers are unsigned (their logical or converted type says so).
    unsigned: bool,
    /// Whether the column chunk lists `DELTA_BYTE_ARRAY`, whose values the `parquet` crate
    /// builds anew (see [`ParquetReader::fill_batch`]).
    rebuilds_values: bool,
}

impl Cursor {
    fn new(reader: ColumnReader, descr: ColumnDescPtr, encodings: &[Encoding]) -> Cursor {
        let unsigned = match descr.logical_type_ref() {
            Some(LogicalType::Integer(int)) => !int.is_signed,
            _ => matches!(
                descr.converted_type(),
                ConvertedType::UINT_8
                    | ConvertedType::UINT_16
                    | ConvertedType::UINT_32
                    | ConvertedType::UINT_64
            ),
        };
        Cursor {
            reader,
            descr,
            unsigned,
            rebuilds_values: encodings.contains(&Encoding::DELTA_BYTE_ARRAY),
        }
    }

    /// Reads up to `rows` rows into `out`, as text, and the rows of `out` whose value is longer
    /// than [`MAX_VALUE`] into `too_long` (such a value is not copied); the rows read.
    fn read(
        &mut self,
        rows: usize,
        out: &mut TextColumn,
        too_long: &mut Vec<usize>,
    ) -> parquet::errors::Result<usize> {
        let max = self.descr.max_def_level();
        let unsigned = self.unsigned;
        // Only byte arrays can be long: the other types' text is a few bytes.
        let bytes = |v: &[u8], o: &mut Vec<u8>| {
            let fits = v.len() <= MAX_VALUE;
            if fits {
                o.extend_from_slice(v);
            }
            fits
        };
        match &mut self.reader {
            ColumnReader::BoolColumnReader(r) => read_text(r, rows, max, out, too_long, |v, o| {
                o.extend_from_slice(if *v { b"true" } else { b"false" });
                true
            }),
            ColumnReader::Int32ColumnReader(r) => read_text(r, rows, max, out, too_long, |v, o| {
                let mut digits = itoa::Buffer::new();
                let text = if unsigned {
                    digits.format(*v as u32)
                } else {
                    digits.format(*v)
                };
                o.extend_from_slice(text.as_bytes());
                true
            }),
            ColumnReader::Int64ColumnReader(r) => read_text(r, rows, max, out, too_long, |v, o| {
                let mut digits = itoa::Buffer::new();
                let text = if unsigned {
                    digits.format(*v as u64)
                } else {
                    digits.format(*v)
                };
                o.extend_from_slice(text.as_bytes());
                true
            }),
            ColumnReader::FloatColumnReader(r) => read_text(r, rows, max, out, too_long, |v, o| {
                o.extend_from_slice(v.to_string().as_bytes());
                true
            }),
            ColumnReader::DoubleColumnReader(r) => {
                read_text(r, rows, max, out, too_long, |v, o| {
                    o.extend_from_slice(v.to_string().as_bytes());
                    true
                })
            }
            ColumnReader::ByteArrayColumnReader(r) => {
                read_text(r, rows, max, out, too_long, |v, o| bytes(v.as_bytes(), o))
            }
            ColumnReader::FixedLenByteArrayColumnReader(r) => {
                read_text(r, rows, max, out, too_long, |v, o| bytes(v.as_bytes(), o))
            }
            ColumnReader::Int96ColumnReader(_) => unreachable!("INT96 columns are refused"),
        }
    }
}

/// Reads up to `rows` rows of an optional or required column into `out`, each value written
/// by `render`, which says `false` when the value is too long and was not written (its row is
/// put in `too_long`); a null is an empty value, and so is a value too long.
fn read_text<T: DataType>(
    reader: &mut ColumnReaderImpl<T>,
    rows: usize,
    max_def: i16,
    out: &mut TextColumn,
    too_long: &mut Vec<usize>,
    render: impl Fn(&T::T, &mut Vec<u8>) -> bool,
) -> parquet::errors::Result<usize> {
    let mut levels = Vec::with_capacity(rows);
    let mut values = Vec::with_capacity(rows);
    let (read, _, _) = reader.read_records(rows, Some(&mut levels), None, &mut values)?;
    let mut values = values.iter();
    // A required column has no levels: every row has a value.
    let levels = levels.into_iter().chain(std::iter::repeat(max_def));
    for level in levels.take(read) {
        let present = level == max_def;
        if present {
            let value = values.next().ok_or_else(|| {
                parquet::errors::ParquetError::General("fewer values than levels".into())
            })?;
            if !render(value, &mut out.data) {
                too_long.push(out.valid.len());
            }
        }
        out.offsets.push(out.data.len());
        out.valid.push(present);
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Wanted;
    use parquet::data_type::{ByteArrayType, Int32Type};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;

    /// A dictionary-encoded file (the `parquet` crate's default) of `rows` rows: an `id` from 0
    /// and a `puzzle` given by `puzzle(id)`, in one row group.
    fn dictionary_file(path: &Path, rows: i32, puzzle: impl Fn(i32) -> Vec<u8>) {
        let schema =
            parse_message_type("message m { required int32 id; required binary puzzle (UTF8); }")
                .unwrap();
        let mut writer = SerializedFileWriter::new(
            File::create(path).unwrap(),
            Arc::new(schema),
            Arc::new(WriterProperties::builder().build()),
        )
        .unwrap();
        let mut group = writer.next_row_group().unwrap();
        let ids: Vec<i32> = (0..rows).collect();
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<Int32Type>()
            .write_batch(&ids, None, None)
            .unwrap();
        column.close().unwrap();
        let puzzles: Vec<_> = ids.iter().map(|&id| puzzle(id).into()).collect();
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<ByteArrayType>()
            .write_batch(&puzzles, None, None)
            .unwrap();
        column.close().unwrap();
        group.close().unwrap();
        writer.close().unwrap();
    }

    #[test]
    fn a_value_past_the_limit_makes_its_record_invalid_and_batches_stay_under_their_bytes() {
        // Every third puzzle is one byte too long, every third exactly at the limit (kept: it
        // fills batches at the most a value can), the others short; each long value is one
        // entry of the dictionary, repeated.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("long.parquet");
        let rows = 3000;
        let puzzle = |id: i32| match id % 3 {
            0 => vec![b'1'; MAX_VALUE + 1],
            1 => vec![b'2'; MAX_VALUE],
            _ => format!("{id:0>81}").into_bytes(),
        };
        dictionary_file(&path, rows, puzzle);
        let dictionary = SerializedFileReader::new(File::open(&path).unwrap())
            .unwrap()
            .metadata()
            .row_group(0)
            .column(1)
            .dictionary_page_offset();
        assert!(dictionary.is_some(), "the puzzles are dictionary-encoded");

        let options = ReadOptions {
            wanted: Wanted::Puzzle,
            columns: crate::format::Columns {
                keep: vec!["id".to_string()],
                ..Default::default()
            },
            ..ReadOptions::default()
        };
        let mut reader = ParquetReader::open(&path, &options).unwrap();
        let mut most_held = 0;
        for id in 0..rows {
            let record = reader.next_record().unwrap().unwrap();
            let held: usize = reader.batch.iter().map(|c| c.data.len()).sum();
            most_held = most_held.max(held);
            assert_eq!(record.line, id as u64 + 1);
            if id % 3 == 0 {
                assert_eq!(
                    record.defect.as_ref().map(ToString::to_string).as_deref(),
                    Some("value of column puzzle longer than 65536 bytes"),
                    "row {id}"
                );
                assert!(record.puzzle.is_empty() && record.kept.is_empty());
            } else {
                assert_eq!(record.defect, None, "row {id}");
                assert_eq!(record.puzzle, puzzle(id), "row {id}");
                assert_eq!(record.kept, [id.to_string().into_bytes()], "row {id}");
            }
        }
        assert_eq!(reader.next_record().unwrap(), None);
        assert!(most_held <= BATCH_BYTES, "{most_held} bytes held");
        // The bound was reached: a thousand rows would hold more.
        assert!(most_held > BATCH_BYTES / 2, "{most_held} bytes held");
    }
}
