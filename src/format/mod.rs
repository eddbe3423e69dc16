//! Record formats: readers that turn input bytes into [`Record`]s, writers that turn result
//! cells into output rows.
//!
//! Every reader has the same shape ([`RecordReader`]): the text formats read lines through one
//! capped line splitter, so line numbers, byte offsets, CRLF, a byte order mark and over-long
//! lines are handled once for all of them; Parquet ([`parquet`]) reads rows from a file's path.
//! Every writer has the same shape too: a [`RowWriter`] formats [`Cell`]s into a batch of
//! [`Rows`] (bytes for CSV and JSON lines, [`columns`] for Parquet) on any thread, and a [`Sink`]
//! writes the batches in order (copying bytes, or gathering columns into Parquet row groups). A
//! new format is one module and one enum arm.

use std::fmt;
use std::io::BufRead;
use std::path::Path;
use std::str::FromStr;

pub mod columns;
pub mod csv;
pub mod grid;
pub mod jsonl;
pub mod line;
mod lines;
pub mod parquet;
mod rows;

pub use rows::{RowWriter, Rows, Sink, SpareRows};

/// The longest line a reader holds in memory; longer lines become invalid records.
pub const MAX_LINE: usize = 64 * 1024;

/// A place in an input: a byte offset and the number of the line starting there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Bytes before this place (after decompression).
    pub offset: u64,
    /// 1-based number of the line that starts here.
    pub line: u64,
}

impl Position {
    /// The start of an input.
    pub const START: Position = Position { offset: 0, line: 1 };
}

impl Default for Position {
    fn default() -> Self {
        Position::START
    }
}

/// The part of an input a reader covers: the input handed to it begins at `start` (the caller
/// has positioned it there), and it returns only the records whose first byte lies in
/// `from..end`, each read to its own end even when that lies past `end`.
///
/// A record's first byte is the first byte of the line where it starts. Records that start
/// before `from` are passed over: the line format skips whole lines by counting newlines (any
/// line may start a record), while CSV and grid read them as records and drop them, since where
/// their records start depends on what comes before (a quoted line break, a grid's row count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    /// Where the input handed to the reader begins.
    pub start: Position,
    /// Records starting before this offset are not returned (0, or at most `start.offset`:
    /// none is passed over).
    pub from: u64,
    /// Records starting at or after this offset are not returned. `None`: read to the end.
    pub end: Option<u64>,
}

impl Span {
    /// Whether a record starting at `offset` lies past the end of the span.
    fn ends_before(&self, offset: u64) -> bool {
        self.end.is_some_and(|end| offset >= end)
    }

    /// Whether a record starting at `offset` lies before the span.
    fn starts_after(&self, offset: u64) -> bool {
        offset < self.from
    }
}

/// One puzzle as read, before any parsing of its cells.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Record {
    /// 1-based line where the record starts.
    pub line: u64,
    /// Byte offset where the record starts.
    pub offset: u64,
    /// The puzzle's cell text as found (not yet checked).
    pub puzzle: Vec<u8>,
    /// The proposed solution's text, when the reader was asked for one and found it.
    pub solution: Option<Vec<u8>>,
    /// Values of the kept columns (CSV), in the order asked for.
    pub kept: Vec<Vec<u8>>,
    /// The record's own region layout (CSV `regions` column), as found (not yet checked).
    pub regions: Option<Vec<u8>>,
    /// Values of the [optional columns](ReadOptions::optional), in the order asked for: `None`
    /// where the input (its CSV header, or this JSON object) has no such column. Empty for a
    /// record with a [`Defect`].
    pub optional: Vec<Option<Vec<u8>>>,
    /// Why the record could not be read at all; such a record is invalid whatever its text.
    pub defect: Option<Defect>,
    /// The record's text as it was in the input, each of its lines ended by `\n`, when the
    /// reader was asked for it ([`ReadOptions::raw`]: line, CSV and JSON-lines readers) and the
    /// record was read whole (`None` for one longer than [`MAX_LINE`]).
    pub raw: Option<Vec<u8>>,
}

impl Record {
    /// The bytes of text the record holds: puzzle, solution and kept values.
    pub fn text_len(&self) -> usize {
        self.puzzle.len()
            + self.solution.as_ref().map_or(0, Vec::len)
            + self.kept.iter().map(Vec::len).sum::<usize>()
            + self.optional.iter().flatten().map(Vec::len).sum::<usize>()
            + self.raw.as_ref().map_or(0, Vec::len)
    }

    /// Starts the record over as the one at `line` and `offset`, for a reader that reuses
    /// records: every field is set afresh (the pattern names them all, so a field added later
    /// cannot be left stale), the puzzle emptied in its buffer, and the buffers of the other
    /// fields handed back for the reader to fill ([`refilled`]) or drop.
    pub(crate) fn restart(&mut self, line: u64, offset: u64) -> Spare {
        let Record {
            line: number,
            offset: start,
            puzzle,
            solution,
            kept,
            regions,
            optional,
            defect,
            raw,
        } = self;
        (*number, *start) = (line, offset);
        puzzle.clear();
        bound(puzzle);
        *defect = None;
        let mut kept = std::mem::take(kept);
        kept.iter_mut().for_each(bound);
        let mut optional = std::mem::take(optional);
        optional.iter_mut().flatten().for_each(bound);
        Spare {
            solution: solution.take().map(bounded),
            kept,
            regions: regions.take().map(bounded),
            optional,
            raw: raw.take().map(bounded),
        }
    }
}

/// The most capacity a field's buffer keeps from one record to the next read into it: a buffer
/// that held a longer value is dropped, so that the records a run reuses do not each keep the
/// size of the longest value they ever held (a few long fields among many short ones would make
/// every buffer long in turn).
const REUSED_CAPACITY: usize = 4096;

/// Drops `buffer`'s allocation when it is larger than [`REUSED_CAPACITY`].
fn bound(buffer: &mut Vec<u8>) {
    if buffer.capacity() > REUSED_CAPACITY {
        *buffer = Vec::new();
    }
}

/// `buffer`, without its allocation when it is larger than [`REUSED_CAPACITY`].
fn bounded(mut buffer: Vec<u8>) -> Vec<u8> {
    bound(&mut buffer);
    buffer
}

/// The buffers of a record's fields beside the puzzle, taken by [`Record::restart`].
pub(crate) struct Spare {
    pub solution: Option<Vec<u8>>,
    pub kept: Vec<Vec<u8>>,
    pub regions: Option<Vec<u8>>,
    pub optional: Vec<Option<Vec<u8>>>,
    pub raw: Option<Vec<u8>>,
}

/// `bytes` in `buffer`, a field's buffer from a record read before, when there is one: what
/// a reader that reuses records fills a field with.
pub(crate) fn refilled(buffer: Option<Vec<u8>>, bytes: &[u8]) -> Vec<u8> {
    let mut buffer = buffer.unwrap_or_default();
    buffer.clear();
    buffer.extend_from_slice(bytes);
    buffer
}

/// One line's `text` with a `\n` end in `buffer` (as [`refilled`]): a record's [`Record::raw`]
/// text when it is one line.
pub(crate) fn raw_line(buffer: Option<Vec<u8>>, text: &[u8]) -> Vec<u8> {
    let mut raw = refilled(buffer, text);
    raw.push(b'\n');
    raw
}

/// A record the reader could not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Defect {
    /// A line longer than [`MAX_LINE`].
    #[error("line longer than {limit} bytes")]
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// A line with a carriage return before its end, in an input whose first lines end in
    /// newlines: read on, the text after it would be taken for trailing fields and lost.
    #[error(
        "a carriage return inside the line: line ends of a carriage return alone are not read \
         (the puzzles after it would be lost); convert them to newlines"
    )]
    CarriageReturn,
    /// A CSV record (quoted newlines included) longer than [`MAX_LINE`].
    #[error("record longer than {limit} bytes")]
    RecordTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// A Parquet value longer than [`parquet::reader::MAX_VALUE`] (not read).
    #[error("value of column {column} longer than {limit} bytes")]
    ValueTooLong {
        /// The column's name.
        column: String,
        /// The limit in bytes.
        limit: usize,
    },
    /// A CSV record with another number of fields than its header (only where every field is
    /// read by name: the rows of a results file).
    #[error("{found} fields where the header has {expected}")]
    FieldCount {
        /// The record's fields.
        found: usize,
        /// The header's.
        expected: usize,
    },
    /// A JSON-lines record that is not a JSON object.
    #[error("not a JSON object: {detail}")]
    NotAnObject {
        /// What the JSON parser said.
        detail: String,
    },
    /// A JSON-lines string value that is not text: a lone surrogate escape (`\ud83d` alone).
    #[error("a string value that is not text: {detail}")]
    NotText {
        /// What the JSON parser said.
        detail: String,
    },
    /// A JSON-lines record whose object has several members that answer to the name of a
    /// column that is needed: a key repeated, or none exactly and several in other cases.
    #[error("ambiguous member {name}: the object has it {members}")]
    AmbiguousMember {
        /// The name looked for, escaped.
        name: String,
        /// How the object has it: `2 times`, or `only in other cases, as ID, Id`.
        members: String,
    },
    /// A JSON-lines record with a region layout in an input whose first object has none: the
    /// output would have no `regions` column to say which layout its row was checked on.
    #[error(
        "a regions member, but the first object of the input has none, so the output would not \
         say which layout the row is on: give the first object a regions member too (the 3x3 \
         boxes written out) or name the column with --regions-column"
    )]
    RegionsAfterFirst,
    /// A CSV record whose quoted field runs to the end of the input.
    #[error("unclosed quote opened at line {line} (the record runs to the end of the input)")]
    UnclosedQuote {
        /// The line where the last quote that was not closed opened.
        line: u64,
    },
    /// A CSV record with too few fields for a column that is needed.
    #[error("no {column} field (the record has {fields} fields)")]
    MissingField {
        /// The header name of the missing column.
        column: String,
        /// How many fields the record has.
        fields: usize,
    },
}

/// A file-level problem that stops a reader before its first record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// The header row is longer than [`MAX_LINE`].
    #[error("the CSV header row is longer than {limit} bytes")]
    HeaderTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// A column that is needed is not in the header.
    #[error("no {role} column (looked for {wanted}; the header has {header})")]
    NoColumn {
        /// What the column is for: `puzzle`, `solution`, `regions` or `kept`.
        role: &'static str,
        /// The names looked for, comma-separated.
        wanted: String,
        /// The header's names, escaped, comma-separated.
        header: String,
    },
    /// Several columns have the exact name of a column that is needed.
    #[error(
        "ambiguous {role} column: {name} is the name of columns {columns} of the header, which cannot be told apart; rename all but one"
    )]
    SameName {
        /// What the column is for, as in [`HeaderError::NoColumn`].
        role: &'static str,
        /// The name, escaped.
        name: String,
        /// The columns of that name, counted from 1, in words (`1 and 3`).
        columns: String,
    },
    /// No column has the name of a column that is needed exactly, and several have it in
    /// other cases: none is taken for it.
    #[error(
        "ambiguous {role} column: no column is named {wanted} exactly, and several differ from it only in case: {candidates}; give the one meant exactly as the header spells it"
    )]
    CaseVariants {
        /// What the column is for, as in [`HeaderError::NoColumn`].
        role: &'static str,
        /// The name looked for, escaped.
        wanted: String,
        /// The columns that differ from it only in case, escaped, each with its position.
        candidates: String,
    },
    /// The grid format has no field for a solution.
    #[error(
        "the grid format holds no solutions: verify reads line, CSV, JSON lines or Parquet input (give --input-format line for one puzzle and its solution a line, if the first line made this input look like grids)"
    )]
    NoSolutionField,
    /// A column of region layouts was asked for, but the format has no columns.
    #[error(
        "--regions-column needs CSV, JSON lines or Parquet input, but this input is read as {format}"
    )]
    NoRegionsColumn {
        /// The format the input is read as.
        format: InputFormat,
    },
    /// Columns to keep were asked for, but the format has no columns.
    #[error(
        "--keep-columns needs CSV, JSON lines or Parquet input, but this input is read as {format}"
    )]
    NoColumns {
        /// The format the input is read as.
        format: InputFormat,
    },
    /// A file that starts as Parquet does but cannot be read as Parquet (truncated, corrupt).
    #[error("not a readable Parquet file: {detail}")]
    NotParquet {
        /// What the Parquet library said.
        detail: String,
    },
    /// A Parquet column that is needed has a shape or type that is not read.
    #[error("column {column} is {detail}")]
    ParquetColumn {
        /// The column's name.
        column: String,
        /// What it is, why it is not read, and what to do.
        detail: String,
    },
    /// A Parquet column whose pages are compressed with a codec this build cannot read (it
    /// reads uncompressed, Snappy, gzip, LZ4, zstd and Brotli pages: LZO only is not read).
    #[error(
        "column {column} is compressed with {codec}, which this build does not read (it reads \
         uncompressed, Snappy, gzip, LZ4, zstd and Brotli Parquet): write the file again with \
         another codec, e.g. pyarrow.parquet.write_table(table, path, compression='zstd')"
    )]
    ParquetCodec {
        /// The first column read that is compressed so.
        column: String,
        /// The codec, as writers spell it (`zstd`, `gzip`, ...).
        codec: &'static str,
    },
    /// An input with a column of region layouts, read after the rows' columns were fixed
    /// without one (it could not be looked at in advance: standard input, a pipe).
    #[error(
        "it has a regions column, but the rows of this run carry no layouts (no input before it \
         has one, and it could not be looked at in advance, as standard input or a pipe): give it \
         as the first input, or as a file"
    )]
    RegionsNotCarried,
    /// A Parquet input in a sharded run.
    #[error(
        "a Parquet input cannot be sharded: --shard divides inputs by bytes of text; convert it to CSV, or run it whole"
    )]
    ParquetSpan,
}

/// Which columns to read from a CSV, as the user chose them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Columns {
    /// The puzzle column's name; `None`: the first known name found.
    pub puzzle: Option<String>,
    /// The solution column's name (verify); `None`: the first known name found.
    pub solution: Option<String>,
    /// Columns passed through to the output, in this order, by their names in the input.
    pub keep: Vec<String>,
    /// The name in the output of each kept column that is renamed (`--keep-columns
    /// SOURCE=NAME`), by its place in [`Columns::keep`]; a missing or `None` entry: the
    /// column keeps its input name.
    pub keep_as: Vec<Option<String>>,
    /// The column of per-record region layouts; `None`: a column named `regions`, if any.
    pub regions: Option<String>,
}

impl Columns {
    /// The output names of the kept columns, in order: as renamed, or their input names.
    pub fn kept_names(&self) -> impl Iterator<Item = &str> {
        self.keep
            .iter()
            .enumerate()
            .map(|(i, name)| match self.keep_as.get(i) {
                Some(Some(renamed)) => renamed.as_str(),
                _ => name.as_str(),
            })
    }

    /// The kept columns as `--keep-columns` takes them: `NAME`, or `SOURCE=NAME` when renamed.
    pub fn kept_as_given(&self) -> Vec<String> {
        self.keep
            .iter()
            .zip(self.kept_names())
            .map(|(source, name)| {
                if source == name {
                    source.clone()
                } else {
                    format!("{source}={name}")
                }
            })
            .collect()
    }
}

/// What each record is read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Wanted {
    /// Its puzzle (solve).
    #[default]
    Puzzle,
    /// Its puzzle and a proposed solution (verify).
    PuzzleAndSolution,
    /// Only the columns asked for ([`Columns::keep`]): the rows of a results file, read by
    /// `stats`. Only formats with named columns (CSV, JSON lines) can be read so.
    Columns,
}

impl Wanted {
    /// Whether each record needs a puzzle.
    pub fn puzzle(self) -> bool {
        self != Wanted::Columns
    }

    /// Whether each record needs a proposed solution.
    pub fn solution(self) -> bool {
        self == Wanted::PuzzleAndSolution
    }
}

/// What a reader is asked to read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReadOptions {
    /// What each record is read for.
    pub wanted: Wanted,
    /// Column choices for CSV.
    pub columns: Columns,
    /// Columns read when the input has them, into [`Record::optional`] (CSV and JSON lines;
    /// names matched as kept columns are). Unlike a kept column, a missing one is no error:
    /// `verify` reads the `line` and `file` of a `solve` output this way, `stats` the `line`,
    /// `file` and `puzzle` of the hardest records.
    pub optional: Vec<String>,
    /// The part of the input to read.
    pub span: Span,
    /// Keep each record's text as it was ([`Record::raw`]) and a CSV header's
    /// ([`RecordReader::header`]): `canon --dedupe --as-input` writes them. The line, CSV and
    /// JSON-lines readers do; grid and Parquet records have no such text.
    pub raw: bool,
}

/// An input format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InputFormat {
    /// One puzzle per line, optionally followed by other fields.
    Line,
    /// A CSV file with a header row.
    Csv,
    /// Nine rows of nine cells per puzzle (or 81 numbers), puzzles separated by blank lines.
    Grid,
    /// One JSON object per line, fields by name as CSV columns are.
    Jsonl,
}

impl InputFormat {
    /// Every input format.
    pub const ALL: &'static [InputFormat] = &[
        InputFormat::Line,
        InputFormat::Csv,
        InputFormat::Grid,
        InputFormat::Jsonl,
    ];

    /// Whether records have named fields (columns to keep, a regions column).
    pub fn has_columns(self) -> bool {
        matches!(self, InputFormat::Csv | InputFormat::Jsonl)
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::Line => "line",
            InputFormat::Csv => "csv",
            InputFormat::Grid => "grid",
            InputFormat::Jsonl => "jsonl",
        }
    }
}

impl fmt::Display for InputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown format '{0}'")]
pub struct UnknownFormat(pub String);

impl FromStr for InputFormat {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        InputFormat::ALL
            .iter()
            .copied()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

/// Reads records one at a time.
pub trait RecordReader: Send {
    /// The next record, or `None` at the end of the input (or of the span).
    fn next_record(&mut self) -> std::io::Result<Option<Record>>;

    /// The next record, read into `record` (whose buffers a reader may reuse: a record handled
    /// and given back costs no allocation); `false`, and `record` left as it was or emptied, at
    /// the end of the input. The same records as [`RecordReader::next_record`].
    fn read_into(&mut self, record: &mut Record) -> std::io::Result<bool> {
        Ok(match self.next_record()? {
            Some(next) => {
                *record = next;
                true
            }
            None => false,
        })
    }

    /// Where the next unread line starts.
    fn position(&self) -> Position;

    /// Consumes from the input every byte of the records returned so far. A reader may hold
    /// back the consumption of the lines it has read (the line format does, to hand them to the
    /// input in bulk); whoever looks at what the input has consumed (its hash, its byte count)
    /// settles the reader first. At the end of the input, everything is consumed.
    fn settle(&mut self) {}

    /// Whether records carry their own region layouts (a CSV `regions` column).
    fn has_regions(&self) -> bool {
        false
    }

    /// Whether the input has a column named `name` (exactly, or else in another case by one
    /// column only, as every name is matched): in its CSV header, or as a member of its first
    /// JSON object. Formats without columns have none.
    fn has_column(&self, name: &str) -> bool {
        let _ = name;
        false
    }

    /// The input's header record as it was, ended by `\n`, when [`ReadOptions::raw`] asked
    /// for it (CSV). Formats without a header have none.
    fn header(&self) -> Option<&[u8]> {
        None
    }
}

/// A reader of `format` over `input`, or the reason the input cannot be read as that format.
pub fn reader<'a, R: BufRead + Send + 'a>(
    format: InputFormat,
    input: R,
    options: &ReadOptions,
) -> Result<Box<dyn RecordReader + 'a>, ReaderError> {
    if !format.has_columns() {
        if !options.columns.keep.is_empty() || !options.wanted.puzzle() {
            return Err(HeaderError::NoColumns { format }.into());
        }
        if options.columns.regions.is_some() {
            return Err(HeaderError::NoRegionsColumn { format }.into());
        }
    }
    Ok(match format {
        InputFormat::Line => Box::new(line::LineReader::new(input, options)),
        InputFormat::Csv => Box::new(csv::CsvReader::new(input, options)?),
        InputFormat::Jsonl => Box::new(jsonl::JsonlReader::new(input, options)?),
        InputFormat::Grid => {
            if options.wanted.solution() {
                return Err(HeaderError::NoSolutionField.into());
            }
            Box::new(grid::GridReader::new(input, options))
        }
    })
}

/// Why a reader could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReaderError {
    /// Reading the header failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The input does not fit the format.
    #[error(transparent)]
    Header(#[from] HeaderError),
}

/// Guesses the format of an input from its name and its first bytes.
///
/// A name ending in `.csv` or `.tsv` (or with `.gz` after) is CSV, `.jsonl` or `.ndjson` JSON
/// lines. Otherwise the first line that is neither blank nor a `#` comment decides: `{` at its
/// start makes it `jsonl`; more than 40 cells at its start (a puzzle, of the right length or
/// not) make it `line`; a comma, or the name of a
/// puzzle column alone, makes it `csv`; a row of a grid (up to nine cells between spaces and
/// `|` `-` `+` separators) or 81 separated cells make it `grid`; anything else is read as
/// `line`, so that each bad line is reported.
pub fn detect(name: Option<&Path>, head: &[u8]) -> InputFormat {
    if let Some(name) = name.and_then(|p| p.file_name()) {
        let name = name.to_string_lossy().to_ascii_lowercase();
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        if name.ends_with(".csv") || name.ends_with(".tsv") {
            return InputFormat::Csv;
        }
        if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
            return InputFormat::Jsonl;
        }
    }
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let Some(first) = head
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .find(|l| !l.is_empty() && l[0] != b'#')
    else {
        return InputFormat::Line;
    };
    if first.starts_with(b"{") {
        return InputFormat::Jsonl;
    }
    // More than half a grid of cells before any separator is a puzzle, of the right length or
    // not (a header names its columns): the line format, which reports a bad one as such.
    let token = line::puzzle_token(first);
    if token.len() > crate::grid::CELLS / 2 && token.iter().all(|&b| is_cell(b)) {
        return InputFormat::Line;
    }
    if first.contains(&b',') {
        return InputFormat::Csv;
    }
    // A header row that names a puzzle column: fields separated by tabs or `;`, or one alone.
    let delimiter = csv::delimiter_of(first);
    if first.split(|&b| b == delimiter).any(is_puzzle_name) {
        return InputFormat::Csv;
    }
    let mut cells = 0;
    for &b in first {
        if is_cell(b) {
            cells += 1;
        } else if !grid::is_separator(b) {
            return InputFormat::Line;
        }
    }
    // A grid row, a separator line, or all 81 cells as separated numbers.
    if cells <= 9 || cells == crate::grid::CELLS {
        InputFormat::Grid
    } else {
        InputFormat::Line
    }
}

/// The text of a panic's payload (a bug's, or the `parquet` crate's on a corrupt file), for an
/// error message.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string())
}

/// Whether a header field, quoted or not, is one of the names a puzzle column goes by.
fn is_puzzle_name(field: &[u8]) -> bool {
    let name = field.trim_ascii();
    let name = name
        .strip_prefix(b"\"")
        .and_then(|n| n.strip_suffix(b"\""))
        .unwrap_or(name);
    csv::PUZZLE_NAMES
        .iter()
        .any(|known| name.eq_ignore_ascii_case(known.as_bytes()))
}

/// Whether a byte writes a cell: a digit or a blank marker.
fn is_cell(b: u8) -> bool {
    matches!(b, b'0'..=b'9' | b'.' | b'_' | b'*')
}

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OutputFormat {
    /// Comma-separated values with a header row.
    #[default]
    Csv,
    /// One JSON object per line.
    Jsonl,
    /// A Parquet file: typed columns, compressed ([`parquet`]).
    Parquet,
}

impl OutputFormat {
    /// Every output format.
    pub const ALL: &'static [OutputFormat] = &[
        OutputFormat::Csv,
        OutputFormat::Jsonl,
        OutputFormat::Parquet,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Csv => "csv",
            OutputFormat::Jsonl => "jsonl",
            OutputFormat::Parquet => "parquet",
        }
    }

    /// The format an output file's name asks for: a name ending in `.parquet` is Parquet, one
    /// ending in `.jsonl` or `.ndjson` JSON lines, one ending in `.csv` CSV.
    pub fn of_name(path: &Path) -> Option<OutputFormat> {
        let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
        let extension = name.rsplit_once('.')?.1;
        match extension {
            "parquet" => Some(OutputFormat::Parquet),
            "jsonl" | "ndjson" => Some(OutputFormat::Jsonl),
            "csv" => Some(OutputFormat::Csv),
            _ => None,
        }
    }

    /// Whether the rows are text, one per line, that can be appended to and concatenated
    /// (CSV, JSON lines); a Parquet file is whole only once its footer is written.
    pub fn is_text(self) -> bool {
        self != OutputFormat::Parquet
    }
}

impl fmt::Display for OutputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for OutputFormat {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        OutputFormat::ALL
            .iter()
            .copied()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

/// One value of an output row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell<'a> {
    /// Text made by the tool.
    Text(&'a str),
    /// Text made by the tool that needs no quoting or escaping in any format (ASCII letters,
    /// digits, `.`, `_`): grids and status names, written without being scanned.
    Plain(&'a [u8]),
    /// Bytes taken from the input (a kept column): written as they are in CSV, as lossy UTF-8
    /// in JSON.
    Bytes(&'a [u8]),
    /// A count.
    Int(u64),
    /// A number of tenths, written as a decimal with one digit after the point (`72`: `7.2`).
    Tenths(u64),
    /// No value: an empty field in CSV, `null` in JSON.
    Null,
}

/// Writes `tenths` as a decimal with one digit after the point (`72`: `7.2`, `0`: `0.0`), as
/// CSV and JSON write a [`Cell::Tenths`].
fn write_tenths(tenths: u64, out: &mut Vec<u8>) {
    out.extend_from_slice(itoa::Buffer::new().format(tenths / 10).as_bytes());
    out.push(b'.');
    out.push(b'0' + (tenths % 10) as u8);
}

/// Quotes a name or value taken from the input for a message: printable ASCII as it is,
/// everything else escaped, so that control bytes never reach a terminal.
pub fn escape(bytes: &[u8]) -> String {
    bytes.escape_ascii().to_string()
}

/// Escapes the control characters of a text made by the tool (a message, a file name) so that
/// none reaches a terminal raw; everything else is left as it is.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return text.into();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

/// Reads every record of `reader` into one record that starts as `stale` (buffers and fields
/// of another record) and checks each against `fresh`, the same input read record by record:
/// a reader that reuses buffers must leave nothing of the record before.
#[cfg(test)]
pub(crate) fn assert_reads_as_fresh(
    reader: &mut dyn RecordReader,
    stale: Record,
    fresh: &[Record],
) {
    let mut record = stale;
    for expected in fresh {
        assert!(reader.read_into(&mut record).unwrap());
        assert_eq!(&record, expected);
    }
    assert!(!reader.read_into(&mut record).unwrap());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_name_chooses_its_format_by_extension() {
        let of = |name: &str| OutputFormat::of_name(Path::new(name));
        assert_eq!(of("out.parquet"), Some(OutputFormat::Parquet));
        assert_eq!(of("dir/OUT.JSONL"), Some(OutputFormat::Jsonl));
        assert_eq!(of("out.ndjson"), Some(OutputFormat::Jsonl));
        assert_eq!(of("out.csv"), Some(OutputFormat::Csv));
        assert_eq!(of("out.jsonl.gz"), None);
        assert_eq!(of("jsonl"), None);
        assert_eq!(of("out.txt"), None);
    }

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn detects_by_name_then_content() {
        let line = format!("# comment\n\n{PUZZLE} extra\n");
        assert_eq!(detect(None, line.as_bytes()), InputFormat::Line);
        assert_eq!(
            detect(Some(Path::new("x.CSV.gz")), line.as_bytes()),
            InputFormat::Csv
        );
        assert_eq!(detect(None, b"quizzes,solutions\n"), InputFormat::Csv);
        // A header of one column, as `cut -d, -f1 sudoku.csv` leaves it.
        assert_eq!(detect(None, b"quizzes\n"), InputFormat::Csv);
        assert_eq!(detect(None, b"\"Puzzle\"\r\n"), InputFormat::Csv);
        assert_eq!(
            detect(None, b"\xEF\xBB\xBFid,puzzle,solution\r\n"),
            InputFormat::Csv
        );
        assert_eq!(detect(None, b"53..7....\n6..195...\n"), InputFormat::Grid);
        assert_eq!(detect(None, b"5 3 . | . 7 . | . . .\n"), InputFormat::Grid);
        assert_eq!(detect(None, b"------+------+------\n"), InputFormat::Grid);
        assert_eq!(detect(None, b"5 3 0 0 7 0 0 0 0\n"), InputFormat::Grid);
        let numbers = format!("{}\n", ["0"; 81].join(" "));
        assert_eq!(detect(None, numbers.as_bytes()), InputFormat::Grid);
        assert_eq!(detect(None, &PUZZLE.as_bytes()[1..]), InputFormat::Line);
        // A first puzzle a cell short, with its solution after a comma: still a puzzle line
        // (reported as too short), not the header of a CSV without a puzzle column.
        let short = format!("{},{PUZZLE}\n", &PUZZLE[1..]);
        assert_eq!(detect(None, short.as_bytes()), InputFormat::Line);
        assert_eq!(detect(None, b"1,2\n"), InputFormat::Csv);
        assert_eq!(detect(None, b"hello\n"), InputFormat::Line);
        assert_eq!(detect(None, b""), InputFormat::Line);
        // Tab- and semicolon-separated headers that name a puzzle column.
        assert_eq!(detect(None, b"id\tPuzzle\tsolution\n"), InputFormat::Csv);
        assert_eq!(
            detect(None, b"\"quizzes\";\"solutions\"\n"),
            InputFormat::Csv
        );
        assert_eq!(detect(None, b"hello;world\n"), InputFormat::Line);
        assert_eq!(
            detect(Some(Path::new("x.tsv")), PUZZLE.as_bytes()),
            InputFormat::Csv
        );
    }

    #[test]
    fn keep_columns_need_csv() {
        let options = ReadOptions {
            columns: Columns {
                keep: vec!["id".into()],
                ..Columns::default()
            },
            ..ReadOptions::default()
        };
        let err = reader(InputFormat::Line, &b""[..], &options).err().unwrap();
        assert_eq!(
            err.to_string(),
            "--keep-columns needs CSV, JSON lines or Parquet input, but this input is read as line"
        );
    }

    /// Every record of `input` read as `format` with `from..end`.
    fn records_in(
        format: InputFormat,
        input: &[u8],
        keep: &[&str],
        from: u64,
        end: Option<u64>,
    ) -> Vec<Record> {
        let options = ReadOptions {
            columns: Columns {
                keep: keep.iter().map(|k| k.to_string()).collect(),
                ..Columns::default()
            },
            span: Span {
                start: Position::START,
                from,
                end,
            },
            ..ReadOptions::default()
        };
        // A tiny buffer makes lines straddle refills, in the skip as in the reading.
        let input = std::io::BufReader::with_capacity(5, input);
        let mut reader = reader(format, input, &options).unwrap();
        let mut out = Vec::new();
        while let Some(record) = reader.next_record().unwrap() {
            out.push(record);
        }
        out
    }

    /// Inputs with a byte order mark, CRLF and LF, blank and comment lines, no final newline,
    /// and records spanning lines (CSV quoted line breaks, grids).
    fn awkward_inputs() -> Vec<(InputFormat, Vec<u8>, &'static [&'static str])> {
        let rows =
            |p: &str| -> Vec<String> { (0..9).map(|r| p[r * 9..r * 9 + 9].to_string()).collect() };
        let numbers: Vec<String> = PUZZLE.replace('.', "0").chars().map(String::from).collect();
        let line = format!(
            "\u{feff}# set\r\n{PUZZLE}\r\n\r\n  {PUZZLE} tail\n#{PUZZLE}\n\n\n123\n{PUZZLE}"
        );
        let csv = format!(
            "\u{feff}\"id\",puzzle,note\r\n1,{PUZZLE},plain\r\n\r\n2,{PUZZLE},\"two\r\nlines, \"\"quoted\"\"\"\n\
             3,{PUZZLE},\"\n\n{PUZZLE}\n\"\n\n4,\"{PUZZLE}\",x\n5,{PUZZLE}"
        );
        let grid = format!(
            "\u{feff}# grids\r\n{}\r\n\r\n------+------\n{}\n{}\n\n\n{}\n# c\n{}",
            rows(PUZZLE).join("\r\n"),
            rows(PUZZLE)[..4].join("\n"),
            rows(PUZZLE)[4..].join("\n"),
            numbers.join(" "),
            numbers
                .chunks(9)
                .map(|r| r.join(" "))
                .collect::<Vec<_>>()
                .join("\n"),
        );
        vec![
            (InputFormat::Line, line.into_bytes(), &[]),
            (InputFormat::Csv, csv.into_bytes(), &["note"]),
            (InputFormat::Grid, grid.into_bytes(), &[]),
        ]
    }

    #[test]
    fn spans_split_the_records_at_every_byte_exactly() {
        for (format, input, keep) in awkward_inputs() {
            let whole = records_in(format, &input, keep, 0, None);
            assert!(whole.len() >= 4, "{format}: {whole:?}");
            for cut in 0..=input.len() as u64 + 1 {
                let mut parts = records_in(format, &input, keep, 0, Some(cut));
                parts.extend(records_in(format, &input, keep, cut, None));
                assert_eq!(parts, whole, "{format} cut at {cut}");
            }
        }
    }

    #[test]
    fn a_span_returns_the_records_starting_in_it_with_their_lines() {
        for (format, input, keep) in awkward_inputs() {
            let whole = records_in(format, &input, keep, 0, None);
            for w in whole.windows(2) {
                let got = records_in(format, &input, keep, w[0].offset, Some(w[1].offset));
                assert_eq!(got, vec![w[0].clone()], "{format}");
                // One byte later, the span starts inside the first record: it is left out.
                let got = records_in(format, &input, keep, w[0].offset + 1, Some(w[1].offset + 1));
                assert_eq!(got, vec![w[1].clone()], "{format}");
            }
        }
    }

    #[test]
    fn escape_shows_control_bytes() {
        assert_eq!(escape(b"a\x1b[31m\xff"), "a\\x1b[31m\\xff");
        assert_eq!(
            escape_controls("r\u{e9}sum\u{e9}\t'\\'"),
            "r\u{e9}sum\u{e9}\\t'\\'"
        );
    }
}
