//! JSON lines: one JSON object per line, in and out.
//!
//! Writing: keys in column order; counts are numbers, missing values `null`, bytes from the
//! input strings (invalid UTF-8 replaced by U+FFFD).
//!
//! Reading: blank lines are skipped; each other line is one record, an object whose members
//! are found by name as CSV columns are (the puzzle among [`PUZZLE_NAMES`], the solution among
//! [`SOLUTION_NAMES`], case-insensitive, or the names chosen; `regions`; the kept columns). A
//! string member is its text; `null` or a missing member is empty; any other value is its JSON
//! text exactly as written, so an 81-digit number keeps every digit. A line that is not a JSON
//! object is an invalid record. The input's columns ([`RecordReader::has_column`]) are the
//! members of its first object.

use std::collections::BTreeMap;
use std::io::{self, BufRead};

use serde_json::value::RawValue;

use super::csv::{PUZZLE_NAMES, REGIONS_NAME, SOLUTION_NAMES};
use super::lines::Lines;
use super::{
    Cell, Columns, Defect, MAX_LINE, Position, ReadOptions, Record, RecordReader, Span, Wanted,
};

/// Reads JSON lines.
pub struct JsonlReader<R> {
    lines: Lines<R>,
    span: Span,
    wanted: Wanted,
    columns: Columns,
    optional: Vec<String>,
    /// The first record, read ahead to learn whether records carry region layouts.
    first: Option<Record>,
    /// The member names of the first record's object.
    first_names: Vec<String>,
    regions: bool,
}

impl<R: BufRead> JsonlReader<R> {
    /// A reader over `input`, positioned at `options.span.start`; reads the first record ahead.
    pub fn new(input: R, options: &ReadOptions) -> io::Result<Self> {
        let mut reader = JsonlReader {
            lines: Lines::new(input, options.span.start, MAX_LINE),
            span: options.span,
            wanted: options.wanted,
            columns: options.columns.clone(),
            optional: options.optional.clone(),
            first: None,
            first_names: Vec::new(),
            regions: options.columns.regions.is_some(),
        };
        let mut names = Vec::new();
        reader.first = reader.next_any(Some(&mut names))?;
        reader.first_names = names;
        if let Some(first) = &reader.first {
            reader.regions |= first.regions.is_some();
        }
        Ok(reader)
    }

    /// The next record, whatever the span; `names` gets its object's member names.
    fn next_any(&mut self, names: Option<&mut Vec<String>>) -> io::Result<Option<Record>> {
        while let Some(line) = self.lines.next_line()? {
            let text = line.text.trim_ascii();
            if text.is_empty() {
                continue;
            }
            let mut record = Record {
                line: line.number,
                offset: line.offset,
                ..Record::default()
            };
            if line.too_long {
                record.defect = Some(Defect::LineTooLong { limit: MAX_LINE });
                return Ok(Some(record));
            }
            let read = Read {
                wanted: self.wanted,
                columns: &self.columns,
                optional: &self.optional,
            };
            fill(&mut record, text, &read, names);
            return Ok(Some(record));
        }
        Ok(None)
    }
}

/// What a reader takes from each object.
struct Read<'a> {
    wanted: Wanted,
    columns: &'a Columns,
    optional: &'a [String],
}

/// Takes a record's fields from the object on its line; `names` gets the object's member names.
fn fill(record: &mut Record, text: &[u8], read: &Read<'_>, names: Option<&mut Vec<String>>) {
    let Read {
        wanted,
        columns,
        optional,
    } = *read;
    let object: BTreeMap<String, &RawValue> = match serde_json::from_slice(text) {
        Ok(object) => object,
        Err(e) => {
            record.defect = Some(Defect::NotAnObject {
                detail: e.to_string(),
            });
            return;
        }
    };
    if let Some(names) = names {
        *names = object.keys().cloned().collect();
    }
    let member = |chosen: Option<&str>, known: &[&str]| -> Option<&RawValue> {
        let names: Vec<&str> = chosen.map_or_else(|| known.to_vec(), |c| vec![c]);
        names.iter().find_map(|name| {
            object
                .iter()
                .find(|(key, _)| key.eq_ignore_ascii_case(name.trim()))
                .map(|(_, value)| *value)
        })
    };
    if wanted.puzzle() {
        match member(columns.puzzle.as_deref(), PUZZLE_NAMES) {
            Some(value) => record.puzzle = text_of(value),
            None => {
                record.defect = Some(Defect::MissingField {
                    column: columns.puzzle.clone().unwrap_or_else(|| "puzzle".into()),
                    fields: object.len(),
                });
                return;
            }
        }
    }
    if wanted.solution() {
        record.solution = Some(
            member(columns.solution.as_deref(), SOLUTION_NAMES).map_or_else(Vec::new, text_of),
        );
    }
    record.kept = columns
        .keep
        .iter()
        .map(|name| member(Some(name), &[]).map_or_else(Vec::new, text_of))
        .collect();
    if wanted.puzzle() {
        record.regions = member(columns.regions.as_deref(), &[REGIONS_NAME])
            .map(text_of)
            .filter(|r| !r.is_empty());
    }
    record.optional = optional
        .iter()
        .map(|name| member(Some(name), &[]).map(text_of))
        .collect();
}

/// A member's value as record text: a string's text, nothing for `null`, else its JSON as
/// written.
fn text_of(value: &RawValue) -> Vec<u8> {
    let raw = value.get();
    if raw.starts_with('"') {
        serde_json::from_str::<String>(raw)
            .map(String::into_bytes)
            .unwrap_or_default()
    } else if raw == "null" {
        Vec::new()
    } else {
        raw.as_bytes().to_vec()
    }
}

impl<R: BufRead + Send> RecordReader for JsonlReader<R> {
    fn next_record(&mut self) -> io::Result<Option<Record>> {
        // Any line may start a record, so the lines before the span are passed over unread.
        loop {
            let record = match self.first.take() {
                Some(first) => Some(first),
                None => {
                    if self.lines.position().offset < self.span.from {
                        self.lines.skip_to(self.span.from)?;
                    }
                    self.next_any(None)?
                }
            };
            match record {
                Some(record) if self.span.starts_after(record.offset) => continue,
                Some(record) if self.span.ends_before(record.offset) => return Ok(None),
                other => return Ok(other),
            }
        }
    }

    fn position(&self) -> Position {
        self.lines.position()
    }

    fn has_regions(&self) -> bool {
        self.regions
    }

    fn has_column(&self, name: &str) -> bool {
        self.first_names
            .iter()
            .any(|n| n.eq_ignore_ascii_case(name.trim()))
    }
}

/// The key of each column as it opens a member, `"name":`, encoded once for every row.
pub(crate) fn keys(columns: &[String]) -> Vec<Vec<u8>> {
    columns
        .iter()
        .map(|name| {
            let mut key = Vec::new();
            write_string(name, &mut key);
            key.push(b':');
            key
        })
        .collect()
}

/// Appends one row as a JSON object and a newline; `keys` from [`keys`].
pub(crate) fn write_row<'a>(
    keys: &[Vec<u8>],
    cells: impl IntoIterator<Item = Cell<'a>>,
    out: &mut Vec<u8>,
) {
    out.push(b'{');
    for (i, (key, cell)) in keys.iter().zip(cells).enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(key);
        match cell {
            Cell::Text(s) => write_string(s, out),
            Cell::Plain(b) => {
                debug_assert!(
                    b.iter()
                        .all(|&c| c.is_ascii_alphanumeric() || c == b'.' || c == b'_')
                );
                out.push(b'"');
                out.extend_from_slice(b);
                out.push(b'"');
            }
            Cell::Bytes(b) => write_string(&String::from_utf8_lossy(b), out),
            Cell::Int(n @ 0..10) => out.push(b'0' + n as u8),
            Cell::Int(n) => out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes()),
            Cell::Null => out.extend_from_slice(b"null"),
        }
    }
    out.extend_from_slice(b"}\n");
}

fn write_string(s: &str, out: &mut Vec<u8>) {
    // Writing into a Vec cannot fail, and a str always serialises.
    serde_json::to_writer(&mut *out, s).expect("a string serialises into a Vec");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, wanted: Wanted, keep: &[&str]) -> Vec<Record> {
        let options = ReadOptions {
            wanted,
            columns: Columns {
                keep: keep.iter().map(|k| k.to_string()).collect(),
                ..Columns::default()
            },
            ..ReadOptions::default()
        };
        let mut reader = JsonlReader::new(text.as_bytes(), &options).unwrap();
        let mut out = Vec::new();
        while let Some(record) = reader.next_record().unwrap() {
            out.push(record);
        }
        out
    }

    #[test]
    fn members_are_read_by_name_with_every_digit_kept() {
        let digits = "4".repeat(81);
        let text = format!(
            "{{\"Quizzes\":\"1.3\",\"solution\":{digits},\"id\":7,\"note\":null}}\n\n[1]\n{{\"id\":8}}\n"
        );
        let records = read(&text, Wanted::PuzzleAndSolution, &["id", "note", "gone"]);
        assert_eq!(records.len(), 3);
        assert_eq!(records[0].puzzle, b"1.3");
        assert_eq!(records[0].solution.as_deref(), Some(digits.as_bytes()));
        assert_eq!(records[0].kept, [b"7".to_vec(), vec![], vec![]]);
        assert_eq!(records[1].line, 3);
        assert!(matches!(
            records[1].defect,
            Some(Defect::NotAnObject { .. })
        ));
        assert_eq!(
            records[2].defect,
            Some(Defect::MissingField {
                column: "puzzle".into(),
                fields: 1
            })
        );
        let rows = read(&text, Wanted::Columns, &["id"]);
        assert_eq!(rows[2].kept, [b"8".to_vec()]);
        assert_eq!(rows[2].defect, None);
    }

    #[test]
    fn optional_members_and_the_columns_of_the_first_object() {
        let options = ReadOptions {
            optional: vec!["line".into(), "file".into()],
            ..ReadOptions::default()
        };
        let text =
            "{\"puzzle\":\"1\",\"Line\":3,\"status\":null}\n{\"puzzle\":\"2\",\"file\":\"a\"}\n";
        let mut reader = JsonlReader::new(text.as_bytes(), &options).unwrap();
        assert!(reader.has_column("line") && reader.has_column("STATUS"));
        assert!(!reader.has_column("file"));
        let first = reader.next_record().unwrap().unwrap();
        assert_eq!(first.optional, [Some(b"3".to_vec()), None]);
        let second = reader.next_record().unwrap().unwrap();
        assert_eq!(second.optional, [None, Some(b"a".to_vec())]);
    }

    #[test]
    fn rows_parse_back_as_json_with_keys_in_order() {
        let columns: Vec<String> = ["line", "note", "n", "gone"].map(String::from).to_vec();
        let mut out = Vec::new();
        write_row(
            &keys(&columns),
            [
                Cell::Int(3),
                Cell::Bytes(b"a\"b\n\xff"),
                Cell::Plain(b"x.1"),
                Cell::Null,
            ],
            &mut out,
        );
        let text = String::from_utf8(out).unwrap();
        assert!(text.ends_with("}\n"));
        assert!(text.starts_with("{\"line\":3,\"note\":"));
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["note"], "a\"b\n\u{fffd}");
        assert_eq!(value["n"], "x.1");
        assert!(value["gone"].is_null());
    }
}
