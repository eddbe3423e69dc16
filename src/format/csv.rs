//! CSV: records with a header row in, result rows out.
//!
//! Reading: the first non-blank line is the header, whose separator (`,`, else a tab or `;`) is
//! that of every record; the puzzle column is found by name
//! ([`PUZZLE_NAMES`] or the user's choice), likewise the solution column for verify
//! ([`SOLUTION_NAMES`]): the column of that exact name, or else the one column whose name
//! differs only in case; a name that several columns answer to is an error
//! ([`column_named`]). Fields follow RFC 4180: a field opening with `"` runs to its
//! closing quote, `""` inside standing for one `"`, so a quoted field may hold commas and
//! newlines (the record then spans several lines and keeps the number of its first). Blank lines
//! are skipped, and so is a record equal to the header (the header row of a second file, when
//! CSV files are concatenated: `cat a.csv b.csv`), for every command that reads CSV. This reads the Kaggle 1M (`quizzes,solutions`), 9M (`puzzle,solution`) and 3M
//! (`id,puzzle,solution,clues,difficulty`) files as they are.
//!
//! Writing: fields are quoted only when they hold a comma, a quote or a line break.

use std::io::{self, BufRead};

use super::lines::Lines;
use super::{
    Cell, Defect, HeaderError, MAX_LINE, Position, ReadOptions, Record, RecordReader, Span, Spare,
    escape, refilled,
};

/// Header names taken as the puzzle column, in order of preference.
pub const PUZZLE_NAMES: &[&str] = &["puzzle", "quizzes", "quiz", "question", "sudoku"];

/// Header names taken as the solution column, in order of preference.
pub const SOLUTION_NAMES: &[&str] = &["solution", "solutions", "answer"];

/// The header name taken as the column of per-record region layouts.
pub const REGIONS_NAME: &str = "regions";

/// Reads CSV records: the one CSV reader of the crate.
///
/// Lines come from the capped line splitter shared by every reader (line numbers, offsets, byte
/// order mark, CRLF, over-long lines); `csv_core` parses them into fields, so quotes, `""` and
/// quoted line breaks follow RFC 4180 exactly. A record on one line without a quote, the
/// common case, is split at its separators directly, which gives the same fields. A record's
/// fields are held in a buffer of at most [`MAX_LINE`] bytes: a longer record is read to its
/// end and reported, never held. Records are read into the buffers of the ones given back.
pub struct CsvReader<R> {
    lines: Lines<R>,
    span: Span,
    parser: csv_core::Reader,
    /// The field separator (the parser's).
    delimiter: u8,
    /// Whether the parser still has to learn the separator from the header's first line.
    separator_unknown: bool,
    /// Header names (trimmed), as found.
    names: Vec<Vec<u8>>,
    puzzle: Option<usize>,
    solution: Option<usize>,
    kept: Vec<usize>,
    /// The column of per-record region layouts, if any.
    regions: Option<usize>,
    /// The optional columns asked for, where the header has them.
    optional: Vec<Option<usize>>,
    /// Whether every record must have as many fields as the header (the rows of a results
    /// file, read by name).
    strict: bool,
    fields: Fields,
    /// Whether records keep their text as it was ([`Record::raw`]).
    keep_text: bool,
    /// The text of the record read last, when kept: its lines, each ended by `\n`, up to
    /// [`MAX_LINE`] bytes (a longer record is too long).
    text: Vec<u8>,
    /// The header record's text, when kept.
    header: Option<Vec<u8>>,
}

/// Where a raw record starts, and what went wrong reading it.
struct Raw {
    line: u64,
    offset: u64,
    /// Longer than the limit: its fields were not kept.
    too_long: bool,
    /// The input ended inside a quoted field that opened at this line.
    unclosed_quote: Option<u64>,
}

impl<R: BufRead> CsvReader<R> {
    /// Reads the header of `input` and finds the columns `options` asks for.
    pub fn new(input: R, options: &ReadOptions) -> Result<Self, super::ReaderError> {
        let mut reader = CsvReader {
            lines: Lines::new(input, options.span.start, MAX_LINE).deferred(),
            span: options.span,
            parser: parser(b','),
            delimiter: b',',
            separator_unknown: true,
            names: Vec::new(),
            puzzle: None,
            solution: None,
            kept: Vec::new(),
            regions: None,
            optional: Vec::new(),
            strict: options.wanted == super::Wanted::Columns,
            fields: Fields::default(),
            keep_text: options.raw,
            text: Vec::new(),
            header: None,
        };
        let Some(raw) = reader.next_raw()? else {
            // No header and nothing after it: an empty file has no records.
            return Ok(reader);
        };
        if raw.too_long {
            return Err(HeaderError::HeaderTooLong { limit: MAX_LINE }.into());
        }
        if reader.keep_text {
            reader.header = Some(reader.text.clone());
        }
        reader.names = reader
            .fields
            .iter()
            .map(|f| f.trim_ascii().to_vec())
            .collect();
        let columns = &options.columns;
        if options.wanted.puzzle() {
            reader.puzzle = Some(reader.find("puzzle", columns.puzzle.as_deref(), PUZZLE_NAMES)?);
        }
        if options.wanted.solution() {
            let solution = columns.solution.as_deref();
            reader.solution = Some(reader.find("solution", solution, SOLUTION_NAMES)?);
        }
        reader.kept = columns
            .keep
            .iter()
            .map(|name| reader.find("kept", Some(name), &[]))
            .collect::<Result<_, _>>()?;
        reader.regions = match columns.regions.as_deref() {
            Some(name) => Some(reader.find("regions", Some(name), &[])?),
            None if options.wanted.puzzle() => {
                find_present(&reader.names, "regions", None, &[REGIONS_NAME])?
            }
            None => None,
        };
        reader.optional = options
            .optional
            .iter()
            .map(|name| find_present(&reader.names, "optional", Some(name), &[]))
            .collect::<Result<_, _>>()?;
        Ok(reader)
    }

    /// Whether the record in `self.fields` repeats the header row: the same fields, each equal
    /// to its name once trimmed (a byte order mark before the first ignored, as a second
    /// file's would be).
    fn repeats_header(&self) -> bool {
        self.fields.len() == self.names.len()
            && self
                .fields
                .iter()
                .zip(&self.names)
                .enumerate()
                .all(|(i, (field, name))| {
                    let field = field.trim_ascii();
                    let field = match i {
                        0 => field.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(field),
                        _ => field,
                    };
                    field == name.as_slice()
                })
    }

    /// The index of the column named `chosen`, or else of the first of `known` present.
    fn find(
        &self,
        role: &'static str,
        chosen: Option<&str>,
        known: &[&str],
    ) -> Result<usize, HeaderError> {
        find_column(&self.names, role, chosen, known)
    }

    /// Reads the next record into `self.fields` (and its text into `self.text`, when kept):
    /// its lines fed to the parser until it ends a record. Blank lines before a record are
    /// skipped; a line longer than the limit ends its record (reading goes on at the next
    /// line), and so does a kept text longer than the limit.
    fn next_raw(&mut self) -> io::Result<Option<Raw>> {
        self.text.clear();
        let mut raw = self.next_fields()?;
        if let Some(raw) = &mut raw
            && self.text.len() > MAX_LINE
        {
            raw.too_long = true;
        }
        Ok(raw)
    }

    /// [`CsvReader::next_raw`] but for the kept text's limit.
    fn next_fields(&mut self) -> io::Result<Option<Raw>> {
        self.fields.clear();
        let mut raw: Option<Raw> = None;
        // Whether a quote is open, and the line where the last one opened.
        let (mut open, mut opened_at) = (false, 0);
        while let Some(line) = self.lines.next_line()? {
            let current = match &mut raw {
                Some(current) => current,
                None if line.text.trim_ascii().is_empty() => continue,
                // `#` comment lines before the header, as format detection passes over them.
                None if self.separator_unknown && line.text.trim_ascii().starts_with(b"#") => {
                    continue;
                }
                None if self.separator_unknown => {
                    self.separator_unknown = false;
                    self.delimiter = delimiter_of(line.text);
                    self.parser = parser(self.delimiter);
                    raw.insert(Raw {
                        line: line.number,
                        offset: line.offset,
                        too_long: false,
                        unclosed_quote: None,
                    })
                }
                None => raw.insert(Raw {
                    line: line.number,
                    offset: line.offset,
                    too_long: false,
                    unclosed_quote: None,
                }),
            };
            if line.too_long {
                current.too_long = true;
                self.parser.reset();
                return Ok(raw);
            }
            let keep = self.keep_text && self.text.len() <= MAX_LINE;
            if keep {
                self.text.extend_from_slice(line.text);
            }
            // The common record: one line without quotes, whose fields are what lies between
            // the separators (as the parser would find them, at less cost).
            if !open && self.fields.count == 0 && memchr::memchr(b'"', line.text).is_none() {
                if keep {
                    self.text.push(b'\n');
                }
                self.fields.split(line.text, self.delimiter);
                current.too_long = self.fields.overflow;
                return Ok(raw);
            }
            for _ in memchr::memchr_iter(b'"', line.text) {
                open = !open;
                if open {
                    opened_at = line.number;
                }
            }
            // A line break inside quotes is the field's own, `\r\n` or `\n` as it was.
            let end: &[u8] = if open && line.crlf { b"\r\n" } else { b"\n" };
            if keep {
                self.text.extend_from_slice(end);
            }
            self.fields.feed(&mut self.parser, line.text);
            if self.fields.feed(&mut self.parser, end) {
                current.too_long = self.fields.overflow;
                return Ok(raw);
            }
        }
        // The end of the input inside a record: only an open quote keeps one going past a line.
        if let Some(current) = &mut raw {
            self.fields.end(&mut self.parser);
            current.too_long = self.fields.overflow;
            current.unclosed_quote = open.then_some(opened_at);
            self.parser.reset();
        }
        Ok(raw)
    }
}

/// The index of the column named `chosen` among `names`, or else of the first of `known`
/// present: how every format with named columns finds the ones it needs. A name is matched as
/// [`column_named`] says: an exact match first, else one that differs only in case, and an
/// ambiguous name is an error.
pub(crate) fn find_column(
    names: &[Vec<u8>],
    role: &'static str,
    chosen: Option<&str>,
    known: &[&str],
) -> Result<usize, HeaderError> {
    find_present(names, role, chosen, known)?.ok_or_else(|| HeaderError::NoColumn {
        role,
        wanted: match chosen {
            Some(name) => name.to_string(),
            None => known.join(", "),
        },
        header: shortened(
            &names
                .iter()
                .map(|n| escape(n))
                .collect::<Vec<_>>()
                .join(", "),
        ),
    })
}

/// As [`find_column`], for a column that may be absent: `None` when no column has the name,
/// an error only when several do.
pub(crate) fn find_present(
    names: &[Vec<u8>],
    role: &'static str,
    chosen: Option<&str>,
    known: &[&str],
) -> Result<Option<usize>, HeaderError> {
    let wanted: Vec<&str> = match chosen {
        Some(name) => vec![name],
        None => known.to_vec(),
    };
    for name in wanted {
        let name = name.trim();
        match column_named(names.iter().map(Vec::as_slice), name.as_bytes()) {
            Ok(None) => continue,
            Ok(Some(index)) => return Ok(Some(index)),
            Err(candidates) => {
                let escaped = |i: usize| escape(&names[i]);
                return Err(if names[candidates[0]] == name.as_bytes() {
                    HeaderError::SameName {
                        role,
                        name: escaped(candidates[0]),
                        columns: listed(candidates.iter().map(|i| (i + 1).to_string())),
                    }
                } else {
                    HeaderError::CaseVariants {
                        role,
                        wanted: escape(name.as_bytes()),
                        candidates: listed(
                            candidates
                                .iter()
                                .map(|&i| format!("{} (column {})", escaped(i), i + 1)),
                        ),
                    }
                });
            }
        }
    }
    Ok(None)
}

/// Which of `names` answers to `wanted`: the one that is `wanted` exactly, or else the one
/// that differs from it only in ASCII case. Two names equal to `wanted`, or none equal and
/// several that differ only in case, are ambiguous: `Err` with the index of each. No column
/// is ever taken for another that has the name exactly, nor chosen among several.
pub(crate) fn column_named<'a, I>(names: I, wanted: &[u8]) -> Result<Option<usize>, Vec<usize>>
where
    I: IntoIterator<Item = &'a [u8]>,
    I::IntoIter: Clone,
{
    let names = names.into_iter();
    let exact = |name: &[u8]| name == wanted;
    let folded = |name: &[u8]| name.eq_ignore_ascii_case(wanted);
    for matches in [&exact as &dyn Fn(&[u8]) -> bool, &folded] {
        let mut found = names
            .clone()
            .enumerate()
            .filter(|&(_, name)| matches(name))
            .map(|(i, _)| i);
        match (found.next(), found.next()) {
            (None, _) => continue,
            (Some(i), None) => return Ok(Some(i)),
            (Some(i), Some(j)) => return Err([i, j].into_iter().chain(found).collect()),
        }
    }
    Ok(None)
}

/// `items` as a list in words: `a`, `a and b`, `a, b and c`.
fn listed(items: impl Iterator<Item = String>) -> String {
    let mut items: Vec<String> = items.collect();
    match items.pop() {
        None => String::new(),
        Some(last) if items.is_empty() => last,
        Some(last) => format!("{} and {last}", items.join(", ")),
    }
}

/// A parser of records separated by `delimiter`, each ending at a line break (the lines are
/// fed without their `\r`).
fn parser(delimiter: u8) -> csv_core::Reader {
    csv_core::ReaderBuilder::new()
        .delimiter(delimiter)
        .terminator(csv_core::Terminator::Any(b'\n'))
        .build()
}

impl<R: BufRead + Send> RecordReader for CsvReader<R> {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
        let mut record = Record::default();
        Ok(self.read_into(&mut record)?.then_some(record))
    }

    fn read_into(&mut self, record: &mut Record) -> io::Result<bool> {
        // Only a record's first line starts it, and which lines are first lines depends on the
        // quotes before them: records before the span are read to find where the next starts.
        let raw = loop {
            let Some(raw) = self.next_raw()? else {
                return Ok(false);
            };
            if self.span.starts_after(raw.offset) {
                continue;
            }
            if self.span.ends_before(raw.offset) {
                return Ok(false);
            }
            let whole = !raw.too_long && raw.unclosed_quote.is_none();
            if !(whole && self.repeats_header()) {
                break raw;
            }
        };
        let Spare {
            solution: solution_buffer,
            kept: mut kept_buffers,
            regions: regions_buffer,
            optional: mut optional_buffers,
            raw: raw_buffer,
        } = record.restart(raw.line, raw.offset);
        record.defect = if let Some(line) = raw.unclosed_quote {
            Some(Defect::UnclosedQuote { line })
        } else if raw.too_long {
            Some(Defect::RecordTooLong { limit: MAX_LINE })
        } else if self.strict && self.fields.len() != self.names.len() {
            Some(Defect::FieldCount {
                found: self.fields.len(),
                expected: self.names.len(),
            })
        } else {
            self.puzzle
                .into_iter()
                .chain(self.solution)
                .chain(self.regions)
                .chain(self.kept.iter().copied())
                .find(|&column| column >= self.fields.len())
                .map(|column| Defect::MissingField {
                    column: escape(&self.names[column]),
                    fields: self.fields.len(),
                })
        };
        if self.keep_text && !raw.too_long {
            record.raw = Some(refilled(raw_buffer, &self.text));
        }
        if record.defect.is_some() {
            return Ok(true);
        }
        if let Some(column) = self.puzzle {
            record.puzzle.extend_from_slice(self.fields.get(column));
        }
        record.solution = self
            .solution
            .map(|column| refilled(solution_buffer, self.fields.get(column)));
        kept_buffers.truncate(self.kept.len());
        kept_buffers.resize_with(self.kept.len(), Vec::new);
        for (buffer, &column) in kept_buffers.iter_mut().zip(&self.kept) {
            buffer.clear();
            buffer.extend_from_slice(self.fields.get(column));
        }
        record.kept = kept_buffers;
        record.regions = self
            .regions
            .map(|column| refilled(regions_buffer, self.fields.get(column)));
        optional_buffers.truncate(self.optional.len());
        optional_buffers.resize_with(self.optional.len(), || None);
        for (buffer, column) in optional_buffers.iter_mut().zip(&self.optional) {
            let old = buffer.take();
            *buffer = column
                .filter(|&i| i < self.fields.len())
                .map(|i| refilled(old, self.fields.get(i)));
        }
        record.optional = optional_buffers;
        Ok(true)
    }

    fn position(&self) -> Position {
        self.lines.position()
    }

    fn settle(&mut self) {
        self.lines.settle();
    }

    fn has_regions(&self) -> bool {
        self.regions.is_some()
    }

    fn has_column(&self, name: &str) -> bool {
        self.find("optional", Some(name), &[]).is_ok()
    }

    fn header(&self) -> Option<&[u8]> {
        self.header.as_deref()
    }
}

/// The fields of one record, unquoted, stored back to back in at most [`MAX_LINE`] bytes.
#[derive(Debug)]
struct Fields {
    bytes: Vec<u8>,
    /// Bytes of `bytes` in use.
    used: usize,
    ends: Vec<usize>,
    /// Fields ended so far.
    count: usize,
    /// The record did not fit: its fields are not kept.
    overflow: bool,
}

impl Default for Fields {
    fn default() -> Self {
        Fields {
            bytes: vec![0; MAX_LINE],
            used: 0,
            ends: vec![0; 64],
            count: 0,
            overflow: false,
        }
    }
}

/// The first record of `input` (its header) as written, with its line end: up to the first
/// line break outside quotes, found by the parser every CSV input is read with; the rest of
/// `input` is left unread. `merge` copies a shard's header so, and compares it with the first.
pub fn header_record(input: &mut impl BufRead) -> std::io::Result<Vec<u8>> {
    let mut parser = parser(b',');
    let mut header = Vec::new();
    // Only where the record ends matters: the fields go to a small scratch space, overwritten.
    let (mut fields, mut ends) = ([0; 1024], [0; 64]);
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            return Ok(header);
        }
        let mut at = 0;
        let ended = loop {
            let (result, read, _, _) = parser.read_record(&available[at..], &mut fields, &mut ends);
            at += read;
            match result {
                csv_core::ReadRecordResult::Record => break true,
                csv_core::ReadRecordResult::InputEmpty | csv_core::ReadRecordResult::End => {
                    break false;
                }
                csv_core::ReadRecordResult::OutputFull
                | csv_core::ReadRecordResult::OutputEndsFull => {}
            }
        };
        header.extend_from_slice(&available[..at]);
        input.consume(at);
        if ended {
            return Ok(header);
        }
    }
}

/// The field separator of a header row: `,` when it holds one; else a tab or `;` (the
/// tab-separated and the European spreadsheet exports), whichever it holds; else `,`.
pub(crate) fn delimiter_of(header: &[u8]) -> u8 {
    [b',', b'\t', b';']
        .into_iter()
        .find(|d| header.contains(d))
        .unwrap_or(b',')
}

impl Fields {
    fn clear(&mut self) {
        self.used = 0;
        self.count = 0;
        self.overflow = false;
    }

    /// Feeds `input` to `parser`; whether a record ended.
    fn feed(&mut self, parser: &mut csv_core::Reader, input: &[u8]) -> bool {
        // An empty slice means the end of the input to the parser: feed none for an empty line.
        !input.is_empty() && self.parse(parser, input)
    }

    /// Tells `parser` the input has ended; whether that ended a record.
    fn end(&mut self, parser: &mut csv_core::Reader) -> bool {
        self.parse(parser, b"")
    }

    fn parse(&mut self, parser: &mut csv_core::Reader, mut input: &[u8]) -> bool {
        loop {
            let (result, read, written, ended) = parser.read_record(
                input,
                &mut self.bytes[self.used..],
                &mut self.ends[self.count..],
            );
            input = &input[read..];
            self.used += written;
            self.count += ended;
            match result {
                csv_core::ReadRecordResult::InputEmpty => return false,
                csv_core::ReadRecordResult::OutputFull => {
                    // Too long to keep: go on parsing to find its end, throwing the bytes away.
                    self.overflow = true;
                    self.used = 0;
                    self.count = 0;
                }
                csv_core::ReadRecordResult::OutputEndsFull => {
                    if self.overflow {
                        self.count = 0;
                    } else {
                        self.more_ends();
                    }
                }
                csv_core::ReadRecordResult::Record => return true,
                csv_core::ReadRecordResult::End => return false,
            }
        }
    }

    /// The fields of a whole record on one line without quotes: the bytes between the
    /// separators `delimiter`.
    fn split(&mut self, line: &[u8], delimiter: u8) {
        let mut start = 0;
        for end in memchr::memchr_iter(delimiter, line).chain([line.len()]) {
            let field = &line[start..end];
            start = end + 1;
            if self.count == self.ends.len() && !self.more_ends() {
                return;
            }
            // A line is at most MAX_LINE bytes, as `bytes` is: every field fits.
            self.bytes[self.used..self.used + field.len()].copy_from_slice(field);
            self.used += field.len();
            self.ends[self.count] = self.used;
            self.count += 1;
        }
    }

    /// Room for twice as many field ends; at the limit (a record of more than [`MAX_LINE`]
    /// fields), none: the record overflows and its fields are dropped.
    fn more_ends(&mut self) -> bool {
        if self.ends.len() >= MAX_LINE {
            self.overflow = true;
            self.count = 0;
            return false;
        }
        let more = self.ends.len();
        self.ends.resize(more * 2, 0);
        true
    }

    fn len(&self) -> usize {
        self.count
    }

    fn get(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.bytes[start..self.ends[i]]
    }

    fn iter(&self) -> impl Iterator<Item = &[u8]> {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// Appends one CSV row (ending in `\n`).
pub(crate) fn write_row<'a>(cells: impl IntoIterator<Item = Cell<'a>>, out: &mut Vec<u8>) {
    let start = out.len();
    // Each cell is followed by a comma; the last comma becomes the line's end.
    for cell in cells {
        match cell {
            Cell::Text(s) => write_field(s.as_bytes(), out),
            Cell::Plain(b) => {
                debug_assert!(
                    b.iter()
                        .all(|&c| c.is_ascii_alphanumeric() || c == b'.' || c == b'_')
                );
                out.extend_from_slice(b)
            }
            Cell::Bytes(b) => write_field(b, out),
            Cell::Int(n @ 0..10) => out.push(b'0' + n as u8),
            Cell::Int(n) => out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes()),
            Cell::Tenths(n) => super::write_tenths(n, out),
            Cell::Null => {}
        }
        out.push(b',');
    }
    match out.len() > start {
        true => *out.last_mut().expect("a comma") = b'\n',
        false => out.push(b'\n'),
    }
}

/// `text` cut to its first 200 characters, marked as cut: a header of binary junk stays readable.
fn shortened(text: &str) -> String {
    const SHOWN: usize = 200;
    match text.char_indices().nth(SHOWN) {
        Some((end, _)) => format!(
            "{}... ({} characters in all)",
            &text[..end],
            text.chars().count()
        ),
        None => text.to_string(),
    }
}

/// Appends one field, quoted when it holds a comma, a quote or a line break.
fn write_field(field: &[u8], out: &mut Vec<u8>) {
    if !field
        .iter()
        .any(|&b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
    {
        out.extend_from_slice(field);
        return;
    }
    out.push(b'"');
    for &b in field {
        if b == b'"' {
            out.push(b'"');
        }
        out.push(b);
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::super::{Columns, ReaderError};
    use super::*;

    #[test]
    fn the_header_record_ends_at_a_newline_outside_quotes() {
        use std::io::Read;
        let mut input = &b"a,\"b\nc\",d\nrow\n"[..];
        assert_eq!(header_record(&mut input).unwrap(), b"a,\"b\nc\",d\n");
        let mut rest = Vec::new();
        input.read_to_end(&mut rest).unwrap();
        assert_eq!(rest, b"row\n");
        assert_eq!(header_record(&mut &b"x,y"[..]).unwrap(), b"x,y");
        // A CRLF line end is the header's, whole; a quoted CRLF is inside it.
        let mut input = &b"a,\"b\r\nc\"\r\nrow\r\n"[..];
        assert_eq!(header_record(&mut input).unwrap(), b"a,\"b\r\nc\"\r\n");
        assert_eq!(input, b"row\r\n");
        // Read through a buffer smaller than the header, the record is found all the same.
        let text = format!("{},\"x\ny\"\nrow\n", "n".repeat(100));
        let mut small = std::io::BufReader::with_capacity(7, text.as_bytes());
        let header = header_record(&mut small).unwrap();
        assert_eq!(header, format!("{},\"x\ny\"\n", "n".repeat(100)).as_bytes());
    }

    proptest::proptest! {
        /// A line without quotes is split into the fields the parser finds in it, whatever
        /// the separator, blanks and empty fields.
        #[test]
        fn a_line_without_quotes_splits_as_the_parser_parses_it(
            line in proptest::collection::vec(
                proptest::sample::select(b"1.a ,;\t\x00\xff".to_vec()), 1..40),
            delimiter in proptest::sample::select(b",;\t".to_vec()),
        ) {
            let mut parsed = Fields::default();
            let mut parser = parser(delimiter);
            parsed.feed(&mut parser, &line);
            proptest::prop_assert!(parsed.feed(&mut parser, b"\n"));
            let mut split = Fields::default();
            split.split(&line, delimiter);
            proptest::prop_assert_eq!(
                split.iter().collect::<Vec<_>>(),
                parsed.iter().collect::<Vec<_>>()
            );
        }
    }

    fn options(want_solution: bool, keep: &[&str]) -> ReadOptions {
        ReadOptions {
            wanted: if want_solution {
                super::super::Wanted::PuzzleAndSolution
            } else {
                super::super::Wanted::Puzzle
            },
            columns: Columns {
                keep: keep.iter().map(|s| s.to_string()).collect(),
                ..Columns::default()
            },
            ..ReadOptions::default()
        }
    }

    fn read(input: &str, options: &ReadOptions) -> Result<Vec<Record>, ReaderError> {
        let mut reader = CsvReader::new(input.as_bytes(), options)?;
        let mut out = Vec::new();
        while let Some(r) = reader.next_record()? {
            out.push(r);
        }
        Ok(out)
    }

    #[test]
    fn a_reused_record_reads_as_a_fresh_one() {
        let input = "id,puzzle,solution,note\n1,1.3,x,a\n2,\"4,5\",y\n3,7.8,z,\"two\nlines\"\n4\n5,9..,w,b\n";
        let options = ReadOptions {
            optional: vec!["note".to_string()],
            ..options(true, &["id"])
        };
        let fresh = read(input, &options).unwrap();
        assert_eq!(fresh.len(), 5);
        assert!(fresh[3].defect.is_some());
        let stale = Record {
            kept: vec![b"old".to_vec(), b"older".to_vec()],
            regions: Some(b"old".to_vec()),
            ..fresh[2].clone()
        };
        let mut reader = CsvReader::new(input.as_bytes(), &options).unwrap();
        super::super::assert_reads_as_fresh(&mut reader, stale, &fresh);
    }

    #[test]
    fn tab_and_semicolon_separated_files_read_like_csv() {
        let expected = read("id,puzzle,solution\n7,1.3,x\n", &options(true, &["id"])).unwrap();
        for text in [
            "id\tpuzzle\tsolution\n7\t1.3\tx\n",
            "id;puzzle;solution\n7;1.3;x\n",
        ] {
            assert_eq!(
                read(text, &options(true, &["id"])).unwrap(),
                expected,
                "{text}"
            );
        }
        // A comma in the header wins: the other separators are then text.
        let records = read("puzzle,note\n1.3,a;b\tc\n", &options(false, &["note"])).unwrap();
        assert_eq!(records[0].kept, vec![b"a;b\tc".to_vec()]);
        assert_eq!(delimiter_of(b"puzzle"), b',');
    }

    /// The fields of the one record of `text`, read under a header naming enough columns.
    fn split(text: &str) -> Vec<String> {
        let header = (0..8)
            .map(|i| format!("c{i}"))
            .collect::<Vec<_>>()
            .join(",");
        let text = format!("{header}\n{text}");
        let mut reader = CsvReader::new(
            text.as_bytes(),
            &ReadOptions {
                wanted: super::super::Wanted::Columns,
                ..ReadOptions::default()
            },
        )
        .unwrap();
        reader.next_record().unwrap().unwrap();
        reader
            .fields
            .iter()
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect()
    }

    #[test]
    fn splits_quoted_fields() {
        assert_eq!(split("a,b,,c"), ["a", "b", "", "c"]);
        assert_eq!(
            split("\"a,b\",\"say \"\"hi\"\"\",x"),
            ["a,b", "say \"hi\"", "x"]
        );
        assert_eq!(split("\"two\nlines\","), ["two\nlines", ""]);
        assert_eq!(split("\"two\r\nlines\",x\r"), ["two\r\nlines", "x"]);
        assert_eq!(split("\"a\"b,c"), ["ab", "c"]);
    }

    #[test]
    fn comment_lines_before_the_header_are_skipped() {
        let records = read(
            "# made by a script\n\n  # on a machine\nid,puzzle\n1,abc\n",
            &options(false, &["id"]),
        )
        .unwrap();
        assert_eq!(records.len(), 1);
        assert_eq!((records[0].line, &records[0].puzzle[..]), (5, &b"abc"[..]));
    }

    #[test]
    fn an_unclosed_quote_is_named_with_the_line_it_opened_at() {
        let records = read(
            "id,puzzle\n1,2\n2,\"3\n4,5\n5,6\n",
            &options(false, &["id"]),
        )
        .unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[1].line, 3);
        assert_eq!(records[1].defect, Some(Defect::UnclosedQuote { line: 3 }));
        assert_eq!(
            records[1].defect.as_ref().unwrap().to_string(),
            "unclosed quote opened at line 3 (the record runs to the end of the input)"
        );
    }

    #[test]
    fn a_long_record_is_read_to_its_end_and_reported() {
        let long = "x".repeat(MAX_LINE / 2);
        let text = format!("id,puzzle\n1,\"{long}\n{long}\n{long}\",9\n2,7\n");
        let records = read(&text, &options(false, &["id"])).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(
            records[0].defect,
            Some(Defect::RecordTooLong { limit: MAX_LINE })
        );
        assert_eq!((records[1].line, &records[1].puzzle[..]), (5, &b"7"[..]));
        // A line too long to hold ends its record; reading goes on at the next line.
        let text = format!("id,puzzle\n1,{}\n2,7\n", "y".repeat(MAX_LINE + 10));
        let records = read(&text, &options(false, &["id"])).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[1].puzzle, b"7");
    }

    #[test]
    fn a_header_name_with_a_bad_byte_is_shown_as_that_byte() {
        let err = read("id,\u{7f}\n", &options(false, &[])).unwrap_err();
        assert!(
            err.to_string().contains("the header has id, \\x7f"),
            "{err}"
        );
        let mut reader = CsvReader::new(&b"id,x\xff\n"[..], &options(false, &[]));
        let err = reader.as_mut().err().unwrap().to_string();
        assert!(err.contains("the header has id, x\\xff"), "{err}");
    }

    #[test]
    fn finds_columns_by_known_names_in_any_case() {
        let records = read(
            "\u{feff}Id,Quizzes,Solutions\r\n7,12,34\r\n\r\n8,56,78",
            &options(true, &["id"]),
        )
        .unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].line, 2);
        assert_eq!(records[0].puzzle, b"12");
        assert_eq!(records[0].solution.as_deref(), Some(&b"34"[..]));
        assert_eq!(records[0].kept, vec![b"7".to_vec()]);
        assert_eq!(records[1].line, 4);
        assert_eq!(records[1].kept, vec![b"8".to_vec()]);
    }

    #[test]
    fn an_exact_name_wins_over_one_in_another_case() {
        let text = "ID,id,Puzzle,puzzle\nupper,lower,P,p\n";
        let records = read(text, &options(false, &["id", "ID"])).unwrap();
        assert_eq!(records[0].kept, [b"lower".to_vec(), b"upper".to_vec()]);
        assert_eq!(records[0].puzzle, b"p");
        let mut chosen = options(false, &[]);
        chosen.columns.puzzle = Some("Puzzle".into());
        assert_eq!(read(text, &chosen).unwrap()[0].puzzle, b"P");
        // A name that only one column has in another case is that column's.
        let records = read("ID,puzzle\nupper,p\n", &options(false, &["Id"])).unwrap();
        assert_eq!(records[0].kept[0], b"upper");
    }

    #[test]
    fn a_name_that_several_columns_answer_to_is_an_error_listing_them() {
        let err = read("ID,Id,puzzle\n1,2,3\n", &options(false, &["id"])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "ambiguous kept column: no column is named id exactly, and several differ from it \
             only in case: ID (column 1) and Id (column 2); give the one meant exactly as the \
             header spells it"
        );
        let err = read("id,puzzle,id\n1,2,3\n", &options(false, &["id"])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "ambiguous kept column: id is the name of columns 1 and 3 of the header, which \
             cannot be told apart; rename all but one"
        );
        // The known names and the columns read when present are matched the same way.
        for (text, options) in [
            ("Puzzle,PUZZLE\n1,2\n", options(false, &[])),
            ("puzzle,puzzle\n1,2\n", options(false, &[])),
            ("puzzle,Regions,REGIONS\n1,2,3\n", options(false, &[])),
            (
                "puzzle,Line,LINE\n1,2,3\n",
                ReadOptions {
                    optional: vec!["line".into()],
                    ..options(false, &[])
                },
            ),
        ] {
            let err = read(text, &options).unwrap_err().to_string();
            assert!(err.starts_with("ambiguous "), "{text}: {err}");
        }
        // Columns that are not asked for may share a name.
        let records = read("id,ID,id,puzzle\n1,2,3,4\n", &options(false, &[])).unwrap();
        assert_eq!(records[0].puzzle, b"4");
    }

    #[test]
    fn a_quoted_newline_keeps_the_first_line_number() {
        let records = read("note,puzzle\n\"a\nb\",1\n\"c\",2\n", &options(false, &[])).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!((records[0].line, records[1].line), (2, 4));
        assert_eq!(records[1].puzzle, b"2");
    }

    #[test]
    fn missing_columns_are_named() {
        let err = read("id,clues\n1,2\n", &options(false, &[])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no puzzle column (looked for puzzle, quizzes, quiz, question, sudoku; \
             the header has id, clues)"
        );
        let err = read("puzzle\n1\n", &options(true, &[])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no solution column (looked for solution, solutions, answer; the header has puzzle)"
        );
        let err = read("puzzle\n1\n", &options(false, &["x\u{1b}"])).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("no kept column (looked for x\u{1b}")
        );
    }

    #[test]
    fn a_chosen_column_wins() {
        let mut opts = options(false, &[]);
        opts.columns.puzzle = Some("B".into());
        let records = read("puzzle,b\n1,2\n", &opts).unwrap();
        assert_eq!(records[0].puzzle, b"2");
    }

    #[test]
    fn a_short_record_is_a_defect() {
        let records = read("id,puzzle\n1\n", &options(false, &[])).unwrap();
        assert_eq!(
            records[0].defect,
            Some(Defect::MissingField {
                column: "puzzle".into(),
                fields: 1
            })
        );
    }

    #[test]
    fn a_record_equal_to_the_header_is_skipped() {
        // Two files concatenated, the second with a byte order mark and CRLF; a record that
        // only looks like the header (another value, a missing field) is read.
        let text = "id,puzzle\n1,12\n\u{feff}id,puzzle\r\n2,34\n id , puzzle \nid,puzzlf\nid\n";
        let records = read(text, &options(false, &["id"])).unwrap();
        let read: Vec<(u64, Vec<u8>)> =
            records.iter().map(|r| (r.line, r.puzzle.clone())).collect();
        assert_eq!(
            read,
            [
                (2, b"12".to_vec()),
                (4, b"34".to_vec()),
                (6, b"puzzlf".to_vec()),
                (7, vec![])
            ]
        );
        assert!(records[3].defect.is_some());
        // Results read by name: the repeated header is skipped there too.
        let mut reader = CsvReader::new(
            "status,n\nsolved,1\nstatus,n\nsolved,2\n".as_bytes(),
            &ReadOptions {
                wanted: super::super::Wanted::Columns,
                columns: Columns {
                    keep: vec!["n".into()],
                    ..Columns::default()
                },
                ..ReadOptions::default()
            },
        )
        .unwrap();
        let mut kept = Vec::new();
        while let Some(record) = reader.next_record().unwrap() {
            assert_eq!(record.defect, None);
            kept.push(record.kept[0].clone());
        }
        assert_eq!(kept, [b"1".to_vec(), b"2".to_vec()]);
    }

    #[test]
    fn optional_columns_are_read_where_the_header_has_them() {
        let mut opts = options(false, &[]);
        opts.optional = vec!["LINE".into(), "file".into()];
        let mut reader = CsvReader::new("puzzle,line\n12,7\n34\n".as_bytes(), &opts).unwrap();
        assert!(reader.has_column("line") && reader.has_column("Puzzle"));
        assert!(!reader.has_column("file"));
        let first = reader.next_record().unwrap().unwrap();
        assert_eq!(first.optional, [Some(b"7".to_vec()), None]);
        // A short record lacks the field: no value, and no defect for it.
        let second = reader.next_record().unwrap().unwrap();
        assert_eq!(
            (second.optional.clone(), second.defect),
            (vec![None, None], None)
        );
    }

    #[test]
    fn an_empty_file_has_no_records() {
        assert_eq!(read("\n\n", &options(true, &["id"])).unwrap(), vec![]);
    }

    #[test]
    fn written_rows_read_back_with_the_csv_crate() {
        let values = ["plain", "a,b", "say \"hi\"", "two\r\nlines", ""];
        let mut out = Vec::new();
        write_row(values.iter().map(|v| Cell::Text(v)), &mut out);
        write_row([Cell::Int(42), Cell::Null, Cell::Bytes(b"\xff")], &mut out);
        let mut reader = ::csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(&out[..]);
        let rows: Vec<::csv::ByteRecord> = reader.byte_records().map(Result::unwrap).collect();
        assert_eq!(
            rows[0].iter().collect::<Vec<_>>(),
            values.map(str::as_bytes)
        );
        assert_eq!(
            rows[1].iter().collect::<Vec<_>>(),
            [&b"42"[..], b"", b"\xff"]
        );
    }
}
