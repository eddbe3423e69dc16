//! CSV: records with a header row in, result rows out.
//!
//! Reading: the first non-blank line is the header, whose separator (`,`, else a tab or `;`) is
//! that of every record; the puzzle column is found by name
//! ([`PUZZLE_NAMES`], case-insensitive, or the user's choice), likewise the solution column for
//! verify ([`SOLUTION_NAMES`]). Fields follow RFC 4180: a field opening with `"` runs to its
//! closing quote, `""` inside standing for one `"`, so a quoted field may hold commas and
//! newlines (the record then spans several lines and keeps the number of its first). Blank lines
//! are skipped. This reads the Kaggle 1M (`quizzes,solutions`), 9M (`puzzle,solution`) and 3M
//! (`id,puzzle,solution,clues,difficulty`) files as they are.
//!
//! Writing: fields are quoted only when they hold a comma, a quote or a line break.

use std::io::{self, BufRead};

use super::lines::Lines;
use super::{
    Cell, Defect, HeaderError, MAX_LINE, Position, ReadOptions, Record, RecordReader, Span, escape,
};

/// Header names taken as the puzzle column, in order of preference.
pub const PUZZLE_NAMES: &[&str] = &["puzzle", "quizzes", "quiz", "question", "sudoku"];

/// Header names taken as the solution column, in order of preference.
pub const SOLUTION_NAMES: &[&str] = &["solution", "solutions", "answer"];

/// The header name taken as the column of per-record region layouts.
pub const REGIONS_NAME: &str = "regions";

/// Reads CSV records.
pub struct CsvReader<R> {
    lines: Lines<R>,
    span: Span,
    /// Header names, for messages.
    names: Vec<String>,
    puzzle: usize,
    solution: Option<usize>,
    kept: Vec<usize>,
    /// The column of per-record region layouts, if any.
    regions: Option<usize>,
    /// The current record's text (lines joined by `\n`).
    text: Vec<u8>,
    fields: Fields,
}

/// Where a raw record starts, and whether it was cut at the length limit.
struct Raw {
    line: u64,
    offset: u64,
    too_long: bool,
}

impl<R: BufRead> CsvReader<R> {
    /// Reads the header of `input` and finds the columns `options` asks for.
    pub fn new(input: R, options: &ReadOptions) -> Result<Self, super::ReaderError> {
        let mut reader = CsvReader {
            lines: Lines::new(input, options.span.start, MAX_LINE),
            span: options.span,
            names: Vec::new(),
            puzzle: 0,
            solution: None,
            kept: Vec::new(),
            regions: None,
            text: Vec::new(),
            fields: Fields::default(),
        };
        let Some(raw) = reader.next_raw()? else {
            // No header and nothing after it: an empty file has no records.
            return Ok(reader);
        };
        if raw.too_long {
            return Err(HeaderError::HeaderTooLong { limit: MAX_LINE }.into());
        }
        reader.fields.delimiter = delimiter_of(&reader.text);
        reader.fields.split(&reader.text);
        reader.names = reader
            .fields
            .iter()
            .map(|f| String::from_utf8_lossy(f.trim_ascii()).into_owned())
            .collect();
        let columns = &options.columns;
        reader.puzzle = reader.find("puzzle", columns.puzzle.as_deref(), PUZZLE_NAMES)?;
        if options.want_solution {
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
            None => reader.find("regions", None, &[REGIONS_NAME]).ok(),
        };
        Ok(reader)
    }

    /// The index of the column named `chosen`, or else of the first of `known` present.
    fn find(
        &self,
        role: &'static str,
        chosen: Option<&str>,
        known: &[&str],
    ) -> Result<usize, HeaderError> {
        let wanted: Vec<&str> = match chosen {
            Some(name) => vec![name],
            None => known.to_vec(),
        };
        wanted
            .iter()
            .find_map(|w| {
                self.names
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(w.trim()))
            })
            .ok_or_else(|| HeaderError::NoColumn {
                role,
                wanted: wanted.join(", "),
                header: shortened(
                    &self
                        .names
                        .iter()
                        .map(|n| escape(n.as_bytes()))
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
            })
    }

    /// Reads the next record's text into `self.text`, joining lines while a quote is open.
    fn next_raw(&mut self) -> io::Result<Option<Raw>> {
        self.text.clear();
        let mut raw: Option<Raw> = None;
        let mut open_quote = false;
        while let Some(line) = self.lines.next_line()? {
            match &mut raw {
                None => {
                    if line.text.trim_ascii().is_empty() {
                        continue;
                    }
                    raw = Some(Raw {
                        line: line.number,
                        offset: line.offset,
                        too_long: line.too_long,
                    });
                    if line.too_long {
                        break;
                    }
                    self.text.extend_from_slice(line.text);
                }
                Some(raw) => {
                    if line.too_long || self.text.len() + 1 + line.text.len() > MAX_LINE {
                        raw.too_long = true;
                    }
                    if !raw.too_long {
                        self.text.push(b'\n');
                        self.text.extend_from_slice(line.text);
                    }
                }
            }
            if memchr::memchr_iter(b'"', line.text).count() % 2 == 1 {
                open_quote = !open_quote;
            }
            if !open_quote {
                break;
            }
        }
        Ok(raw)
    }
}

impl<R: BufRead + Send> RecordReader for CsvReader<R> {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
        // Only a record's first line starts it, and which lines are first lines depends on the
        // quotes before them: records before the span are read to find where the next starts.
        let raw = loop {
            let Some(raw) = self.next_raw()? else {
                return Ok(None);
            };
            if !self.span.starts_after(raw.offset) {
                break raw;
            }
        };
        if self.span.ends_before(raw.offset) {
            return Ok(None);
        }
        let mut record = Record {
            line: raw.line,
            offset: raw.offset,
            ..Record::default()
        };
        if raw.too_long {
            record.defect = Some(Defect::RecordTooLong { limit: MAX_LINE });
            return Ok(Some(record));
        }
        self.fields.split(&self.text);
        let needed = std::iter::once(self.puzzle)
            .chain(self.solution)
            .chain(self.regions)
            .chain(self.kept.iter().copied());
        for column in needed {
            if column >= self.fields.len() {
                record.defect = Some(Defect::MissingField {
                    column: escape(self.names[column].as_bytes()),
                    fields: self.fields.len(),
                });
                return Ok(Some(record));
            }
        }
        record.puzzle = self.fields.get(self.puzzle).to_vec();
        record.solution = self.solution.map(|i| self.fields.get(i).to_vec());
        record.kept = self
            .kept
            .iter()
            .map(|&i| self.fields.get(i).to_vec())
            .collect();
        record.regions = self.regions.map(|i| self.fields.get(i).to_vec());
        Ok(Some(record))
    }

    fn position(&self) -> Position {
        self.lines.position()
    }

    fn has_regions(&self) -> bool {
        self.regions.is_some()
    }
}

/// The fields of one record, unquoted, stored back to back.
#[derive(Debug)]
struct Fields {
    bytes: Vec<u8>,
    ends: Vec<usize>,
    /// The field separator: `,` unless the header row says otherwise ([`delimiter_of`]).
    delimiter: u8,
}

impl Default for Fields {
    fn default() -> Self {
        Fields {
            bytes: Vec::new(),
            ends: Vec::new(),
            delimiter: b',',
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
    /// Splits `text` (one whole record) into fields.
    fn split(&mut self, text: &[u8]) {
        self.bytes.clear();
        self.ends.clear();
        let mut i = 0;
        loop {
            if text.get(i) == Some(&b'"') {
                i += 1;
                while i < text.len() {
                    if text[i] == b'"' {
                        if text.get(i + 1) == Some(&b'"') {
                            self.bytes.push(b'"');
                            i += 2;
                            continue;
                        }
                        i += 1;
                        break;
                    }
                    self.bytes.push(text[i]);
                    i += 1;
                }
            }
            // Unquoted text, or what follows a closing quote, up to the next separator.
            let end = memchr::memchr(self.delimiter, &text[i..]).map_or(text.len(), |n| i + n);
            self.bytes.extend_from_slice(&text[i..end]);
            self.ends.push(self.bytes.len());
            if end == text.len() {
                break;
            }
            i = end + 1;
        }
    }

    fn len(&self) -> usize {
        self.ends.len()
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
    for (i, cell) in cells.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
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
            Cell::Int(n) => out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes()),
            Cell::Null => {}
        }
    }
    out.push(b'\n');
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

    fn options(want_solution: bool, keep: &[&str]) -> ReadOptions {
        ReadOptions {
            want_solution,
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

    fn split(text: &str) -> Vec<String> {
        let mut fields = Fields::default();
        fields.split(text.as_bytes());
        fields
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
        assert_eq!(split("\"unterminated,x"), ["unterminated,x"]);
        assert_eq!(split("\"a\"b,c"), ["ab", "c"]);
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
