//! The Parquet reader: the records of a Parquet file, row group by row group, a thousand rows
//! at a time, its columns chosen by name as a CSV's are.
//!
//! A Parquet file is read from its path: its index (the footer) is at its end. Only top-level
//! columns of one value per row are read; every physical type but `INT96` is taken as text the
//! way a CSV would hold it (strings and binary as their bytes, integers in decimal, unsigned
//! when their logical type says so, booleans as `true`/`false`, floats as Rust prints them);
//! a null is an empty value. Memory stays bounded by a page of each column read, and a thousand
//! rows: a row group is never held whole.
//!
//! A record's `line` is its row number in the file, from 1, and its `offset` the row number
//! from 0: a Parquet file has no lines, and these are what a reader of it counts.

use std::fs::File;
use std::io;
use std::path::Path;

use parquet::basic::{ConvertedType, LogicalType, Type as PhysicalType};
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::{AsBytes, DataType};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::schema::types::ColumnDescPtr;

use crate::format::columns::TextColumn;
use crate::format::csv::{self, PUZZLE_NAMES, REGIONS_NAME, SOLUTION_NAMES};
use crate::format::{HeaderError, Position, ReadOptions, ReaderError, Record, RecordReader};

/// Rows read from each column at a time.
const BATCH_ROWS: usize = 1024;

/// Reads the records of a Parquet file.
pub struct ParquetReader {
    file: SerializedFileReader<File>,
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
    /// The next row group to open.
    next_group: usize,
    /// The open row group's column readers, one per leaf read.
    cursors: Vec<Cursor>,
    /// The current batch of rows, one text column per leaf read.
    batch: Vec<TextColumn>,
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
        let file = File::open(path)?;
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
        let find = |role, chosen: Option<&str>, known: &[&str]| -> Result<usize, HeaderError> {
            let index = csv::find_column(&names, role, chosen, known)?;
            let name = &names[index];
            let (leaf, column) = flat
                .iter()
                .find(|(_, c)| c.name().as_bytes() == name.as_slice())
                .ok_or_else(|| HeaderError::ParquetColumn {
                    column: String::from_utf8_lossy(name).into_owned(),
                    detail: "a nested column (a struct, list or map)".to_string(),
                })?;
            if column.max_rep_level() > 0 {
                return Err(HeaderError::ParquetColumn {
                    column: column.name().to_string(),
                    detail: "a repeated column (a list)".to_string(),
                });
            }
            if column.physical_type() == PhysicalType::INT96 {
                return Err(HeaderError::ParquetColumn {
                    column: column.name().to_string(),
                    detail: "an INT96 timestamp".to_string(),
                });
            }
            Ok(*leaf)
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
            None if options.wanted.puzzle() => find("regions", None, &[REGIONS_NAME]).ok(),
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
            .map(|name| find("optional", Some(name), &[]).ok())
            .collect();
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
        Ok(ParquetReader {
            file,
            batch: vec![TextColumn::default(); leaves.len()],
            leaves,
            puzzle,
            solution,
            regions,
            kept,
            optional,
            names,
            next_group: 0,
            cursors: Vec::new(),
            at: 0,
            rows_before: 0,
        })
    }

    /// Reads the next batch of rows into `self.batch`; `false` at the end of the file.
    fn next_batch(&mut self) -> io::Result<bool> {
        self.rows_before += self.batch.first().map_or(0, |c| c.valid.len()) as u64;
        self.at = 0;
        loop {
            if !self.cursors.is_empty() {
                let mut rows = None;
                for (cursor, column) in self.cursors.iter_mut().zip(&mut self.batch) {
                    *column = TextColumn::default();
                    let read = cursor.read(BATCH_ROWS, column).map_err(invalid)?;
                    if *rows.get_or_insert(read) != read {
                        return Err(invalid("columns of a row group hold different row counts"));
                    }
                }
                if rows.unwrap_or(0) > 0 {
                    return Ok(true);
                }
                self.cursors.clear();
            }
            if self.next_group >= self.file.num_row_groups() {
                return Ok(false);
            }
            let group = self.file.get_row_group(self.next_group).map_err(invalid)?;
            self.next_group += 1;
            if group.metadata().num_rows() == 0 {
                continue;
            }
            self.cursors = self
                .leaves
                .iter()
                .map(|&leaf| {
                    let descr = group.metadata().column(leaf).column_descr_ptr();
                    group
                        .get_column_reader(leaf)
                        .map(|reader| Cursor::new(reader, descr))
                })
                .collect::<Result<_, _>>()
                .map_err(invalid)?;
            if self.cursors.is_empty() {
                // No column is read (stats asking for none): count the rows alone.
                let rows = group.metadata().num_rows() as usize;
                self.batch = vec![TextColumn::default()];
                self.batch[0].valid = vec![false; rows];
                return Ok(true);
            }
        }
    }

    fn value(&self, slot: usize) -> Vec<u8> {
        let column = &self.batch[slot];
        column.data[column.offsets[self.at]..column.offsets[self.at + 1]].to_vec()
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
}

impl Cursor {
    fn new(reader: ColumnReader, descr: ColumnDescPtr) -> Cursor {
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
        }
    }

    /// Reads up to `rows` rows into `out`, as text; the rows read.
    fn read(&mut self, rows: usize, out: &mut TextColumn) -> parquet::errors::Result<usize> {
        let max = self.descr.max_def_level();
        let unsigned = self.unsigned;
        match &mut self.reader {
            ColumnReader::BoolColumnReader(r) => read_text(r, rows, max, out, |v, o| {
                o.extend_from_slice(if *v { b"true" } else { b"false" })
            }),
            ColumnReader::Int32ColumnReader(r) => read_text(r, rows, max, out, |v, o| {
                let mut digits = itoa::Buffer::new();
                let text = if unsigned {
                    digits.format(*v as u32)
                } else {
                    digits.format(*v)
                };
                o.extend_from_slice(text.as_bytes())
            }),
            ColumnReader::Int64ColumnReader(r) => read_text(r, rows, max, out, |v, o| {
                let mut digits = itoa::Buffer::new();
                let text = if unsigned {
                    digits.format(*v as u64)
                } else {
                    digits.format(*v)
                };
                o.extend_from_slice(text.as_bytes())
            }),
            ColumnReader::FloatColumnReader(r) => read_text(r, rows, max, out, |v, o| {
                o.extend_from_slice(v.to_string().as_bytes())
            }),
            ColumnReader::DoubleColumnReader(r) => read_text(r, rows, max, out, |v, o| {
                o.extend_from_slice(v.to_string().as_bytes())
            }),
            ColumnReader::ByteArrayColumnReader(r) => {
                read_text(r, rows, max, out, |v, o| o.extend_from_slice(v.as_bytes()))
            }
            ColumnReader::FixedLenByteArrayColumnReader(r) => {
                read_text(r, rows, max, out, |v, o| o.extend_from_slice(v.as_bytes()))
            }
            ColumnReader::Int96ColumnReader(_) => unreachable!("INT96 columns are refused"),
        }
    }
}

/// Reads up to `rows` rows of an optional or required column into `out`, each value written
/// by `render`; a null is an empty value.
fn read_text<T: DataType>(
    reader: &mut ColumnReaderImpl<T>,
    rows: usize,
    max_def: i16,
    out: &mut TextColumn,
    render: impl Fn(&T::T, &mut Vec<u8>),
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
            render(value, &mut out.data);
        }
        out.offsets.push(out.data.len());
        out.valid.push(present);
    }
    Ok(read)
}
