//! JSON lines: one JSON object per line, in and out.
//!
//! Writing: keys in column order; counts are numbers, missing values `null`, bytes from the
//! input strings (invalid UTF-8 replaced by U+FFFD).
//!
//! Reading: blank lines are skipped; each other line is one record, an object whose members
//! are found by name as CSV columns are (the puzzle among [`PUZZLE_NAMES`], the solution among
//! [`SOLUTION_NAMES`], or the names chosen; `regions`; the kept columns): the member of that
//! exact name, or else the one member whose name differs only in case. A needed name that
//! several members of an object answer to (a key repeated, or several keys in other cases and
//! none exact) makes that record invalid, as a missing puzzle does. A string member is its
//! text; `null` or a missing member is empty; any other value is its JSON text exactly as
//! written, so an 81-digit number keeps every digit. A line that is not a JSON
//! object is an invalid record (the parser's complaint says at which column of the line). A UTF-8
//! byte order mark that opens a line is dropped, as the one opening the input is: files joined
//! with `cat` keep the marks that opened them. The input's columns ([`RecordReader::has_column`]) are the
//! members of its first object; so records carry region layouts when the first object has a
//! `regions` member (whatever its value) or `--regions-column` names one. Then a record whose
//! member is `null`, empty or missing has an empty layout, which is invalid, as a CSV field
//! would be; without, a record with a layout is invalid ([`Defect::RegionsAfterFirst`]), since
//! the output would not say which layout its row was checked on.

use std::fmt;
use std::io::{self, BufRead};

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::csv::{PUZZLE_NAMES, REGIONS_NAME, SOLUTION_NAMES};

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";
use super::lines::Lines;
use super::{
    Cell, Columns, Defect, MAX_LINE, Position, ReadOptions, Record, RecordReader, Span, Wanted,
    escape,
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
    /// Whether records keep their line as it was ([`Record::raw`]).
    raw: bool,
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
            raw: options.raw,
        };
        // The first object decides whether records carry layouts: until it is read, its own
        // layout is taken as found.
        let mut names = Vec::new();
        reader.first = reader.next_any(Some(&mut names))?;
        reader.first_names = names;
        if let Some(first) = &mut reader.first {
            reader.regions |= first.regions.is_some();
            let takes_layout = reader.wanted.puzzle() && first.defect.is_none();
            if reader.regions && takes_layout && first.regions.is_none() {
                first.regions = Some(Vec::new());
            }
        }
        Ok(reader)
    }

    /// The next record, whatever the span; `names` gets its object's member names.
    fn next_any(&mut self, names: Option<&mut Vec<String>>) -> io::Result<Option<Record>> {
        while let Some(line) = self.lines.next_line()? {
            let text = line.text.trim_ascii();
            let text = text.strip_prefix(BOM).unwrap_or(text).trim_ascii();
            if text.is_empty() {
                continue;
            }
            let mut record = Record {
                line: line.number,
                offset: line.offset,
                raw: (self.raw && !line.too_long).then(|| super::raw_line(None, line.text)),
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
                regions: names.is_none().then_some(self.regions),
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
    /// Whether records carry region layouts; `None` for the first object, which decides it.
    regions: Option<bool>,
}

/// Takes a record's fields from the object on its line; `names` gets the object's member names.
fn fill(record: &mut Record, text: &[u8], read: &Read<'_>, names: Option<&mut Vec<String>>) {
    let Members(members) = match serde_json::from_slice(text) {
        Ok(members) => members,
        Err(e) => {
            // The parser sees one line: its "line 1" would contradict the record's line.
            record.defect = Some(Defect::NotAnObject {
                detail: e.to_string().replace(" at line 1 column ", " at column "),
            });
            return;
        }
    };
    if let Some(names) = names {
        *names = members.iter().map(|(key, _)| key.clone()).collect();
    }
    if let Err(defect) = take_members(record, &members, read) {
        record.defect = Some(defect);
    }
}

/// Takes a record's fields from the members of its object; a needed member that is missing
/// or ambiguous is the record's defect.
fn take_members(
    record: &mut Record,
    members: &[(String, &RawValue)],
    read: &Read<'_>,
) -> Result<(), Defect> {
    let Read {
        wanted,
        columns,
        optional,
        regions,
    } = *read;
    // The member that answers to `chosen`, or else to the first of `known` present.
    let member = |chosen: Option<&str>, known: &[&str]| -> Result<Option<&RawValue>, Defect> {
        let names: Vec<&str> = chosen.map_or_else(|| known.to_vec(), |c| vec![c]);
        for name in names {
            let name = name.trim();
            let keys = members.iter().map(|(key, _)| key.as_bytes());
            match super::csv::column_named(keys, name.as_bytes()) {
                Ok(None) => continue,
                Ok(Some(i)) => return Ok(Some(members[i].1)),
                Err(candidates) => {
                    let keys: Vec<&str> = candidates.iter().map(|&i| &*members[i].0).collect();
                    return Err(Defect::AmbiguousMember {
                        name: escape(name.as_bytes()),
                        members: match keys[0] == name {
                            true => format!("{} times", keys.len()),
                            false => format!(
                                "only in other cases, as {}",
                                escape(keys.join(", ").as_bytes())
                            ),
                        },
                    });
                }
            }
        }
        Ok(None)
    };
    if wanted.puzzle() {
        match member(columns.puzzle.as_deref(), PUZZLE_NAMES)? {
            Some(value) => record.puzzle = text_of(value)?,
            None => {
                return Err(Defect::MissingField {
                    column: columns.puzzle.clone().unwrap_or_else(|| "puzzle".into()),
                    fields: members.len(),
                });
            }
        }
    }
    if wanted.solution() {
        record.solution = Some(text_or_empty(member(
            columns.solution.as_deref(),
            SOLUTION_NAMES,
        )?)?);
    }
    record.kept = columns
        .keep
        .iter()
        .map(|name| text_or_empty(member(Some(name), &[])?))
        .collect::<Result<_, Defect>>()?;
    if wanted.puzzle() {
        let layout = member(columns.regions.as_deref(), &[REGIONS_NAME])?
            .map(text_of)
            .transpose()?;
        record.regions = match (regions, layout) {
            (Some(true), layout) => Some(layout.unwrap_or_default()),
            (Some(false), Some(layout)) if !layout.is_empty() => {
                return Err(Defect::RegionsAfterFirst);
            }
            (Some(false), _) => None,
            (None, layout) => layout,
        };
    }
    record.optional = optional
        .iter()
        .map(|name| member(Some(name), &[])?.map(text_of).transpose())
        .collect::<Result<_, Defect>>()?;
    Ok(())
}

/// An object's members in the order written, a repeated key kept each time (a map would keep
/// only its last value, and hide that the key is ambiguous).
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = Members<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut members = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(member) = map.next_entry()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

/// A member's value as record text: a string's text, nothing for `null`, else its JSON as
/// written; a string that is no text (a lone surrogate escape) is a defect, never emptied.
fn text_of(value: &RawValue) -> Result<Vec<u8>, Defect> {
    let raw = value.get();
    Ok(if raw.starts_with('"') {
        serde_json::from_str::<String>(raw)
            .map(String::into_bytes)
            .map_err(|e| Defect::NotText {
                detail: e.to_string(),
            })?
    } else if raw == "null" {
        Vec::new()
    } else {
        raw.as_bytes().to_vec()
    })
}

/// The text of a member that may be absent (empty then).
fn text_or_empty(value: Option<&RawValue>) -> Result<Vec<u8>, Defect> {
    Ok(value.map(text_of).transpose()?.unwrap_or_default())
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
        let names = self.first_names.iter().map(|n| n.as_bytes());
        matches!(
            super::csv::column_named(names, name.trim().as_bytes()),
            Ok(Some(_))
        )
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
            Cell::Tenths(n) => super::write_tenths(n, out),
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
    fn a_byte_order_mark_opening_a_later_line_is_dropped_not_an_invalid_record() {
        // Two files joined by `cat`, the second opening with a byte order mark: it was
        // "not a JSON object: expected value at line 1 column 1" on line 2.
        let digits = "1".repeat(81);
        let text = format!(
            "\u{feff}{{\"puzzle\":\"{digits}\"}}\n\u{feff}{{\"puzzle\":\"{digits}\"}}\n\u{feff}\n{{\"puzzle\": x}}\n"
        );
        let records = read(&text, Wanted::Puzzle, &[]);
        assert_eq!(records.len(), 3);
        assert_eq!((records[1].line, records[1].defect.as_ref()), (2, None));
        assert_eq!(records[1].puzzle, digits.as_bytes());
        // A line that is not JSON says at which column of its line.
        assert_eq!(records[2].line, 4);
        assert_eq!(
            records[2].defect.as_ref().unwrap().to_string(),
            "not a JSON object: expected value at column 12"
        );
    }

    #[test]
    fn a_string_that_is_not_text_makes_the_record_invalid_never_empty() {
        // A lone surrogate escape, in the puzzle or in a kept value; a pair is text.
        let text = "{\"puzzle\":\"1\\ud83d.\"}\n{\"puzzle\":\"1.\",\"id\":\"a\\ude00b\"}\n\
                    {\"puzzle\":\"1.\",\"id\":\"\\ud83d\\ude00\"}\n";
        let records = read(text, Wanted::Puzzle, &["id"]);
        assert_eq!(records.len(), 3);
        for record in &records[..2] {
            let defect = record.defect.as_ref().expect("a defect").to_string();
            assert!(
                defect.starts_with("a string value that is not text: "),
                "{defect}"
            );
        }
        assert_eq!(records[2].defect, None);
        assert_eq!(records[2].kept, ["\u{1F600}".as_bytes().to_vec()]);
    }

    #[test]
    fn an_exact_key_wins_and_an_ambiguous_one_makes_the_record_invalid() {
        let text = concat!(
            "{\"ID\":\"upper\",\"id\":\"lower\",\"Puzzle\":\"bad\",\"puzzle\":\"1.3\"}\n",
            "{\"ID\":\"upper\",\"Id\":\"title\",\"puzzle\":\"1.3\"}\n",
            "{\"id\":1,\"puzzle\":\"1.3\",\"id\":2}\n",
            "{\"Puzzle\":\"1.3\",\"PUZZLE\":\"4.6\"}\n",
            "{\"ID\":\"upper\",\"Quizzes\":\"7.9\"}\n",
        );
        let records = read(text, Wanted::Puzzle, &["id"]);
        assert_eq!(
            (&records[0].puzzle[..], &records[0].kept[..]),
            (&b"1.3"[..], &[b"lower".to_vec()][..])
        );
        assert_eq!(records[0].defect, None);
        let reasons: Vec<String> = records[1..4]
            .iter()
            .map(|r| r.defect.as_ref().unwrap().to_string())
            .collect();
        assert_eq!(
            reasons,
            [
                "ambiguous member id: the object has it only in other cases, as ID, Id",
                "ambiguous member id: the object has it 2 times",
                "ambiguous member puzzle: the object has it only in other cases, as Puzzle, PUZZLE",
            ]
        );
        // One member in another case is the one meant.
        assert_eq!(
            (&records[4].puzzle[..], &records[4].kept[0][..]),
            (&b"7.9"[..], &b"upper"[..])
        );
    }

    #[test]
    fn the_first_object_decides_whether_records_carry_layouts() {
        let layouts = |text: &str| -> Vec<Result<Option<String>, Defect>> {
            let options = ReadOptions::default();
            let mut reader = JsonlReader::new(text.as_bytes(), &options).unwrap();
            let mut out = Vec::new();
            while let Some(r) = reader.next_record().unwrap() {
                out.push(match r.defect {
                    Some(defect) => Err(defect),
                    None => Ok(r.regions.map(|l| String::from_utf8(l).unwrap())),
                });
            }
            assert_eq!(
                reader.has_regions(),
                out.iter().any(|r| matches!(r, Ok(Some(_))))
            );
            out
        };
        // The first object has the member, whatever its value: every record has a layout,
        // empty where the member is null, empty or missing (which makes it invalid, as in CSV).
        for first in ["\"abc\"", "null", "\"\""] {
            let text = format!(
                "{{\"puzzle\":\"1\",\"regions\":{first}}}\n{{\"puzzle\":\"2\"}}\n\
                 {{\"puzzle\":\"3\",\"Regions\":\"xyz\"}}\n"
            );
            let expected = first.trim_matches('"').replace("null", "");
            assert_eq!(
                layouts(&text),
                [
                    Ok(Some(expected)),
                    Ok(Some(String::new())),
                    Ok(Some("xyz".into()))
                ]
            );
        }
        // Without it, a later layout would be used but not written: the record is invalid.
        let text = "{\"puzzle\":\"1\"}\n{\"puzzle\":\"2\",\"regions\":\"abc\"}\n\
                    {\"puzzle\":\"3\",\"regions\":null}\n";
        assert_eq!(
            layouts(text),
            [Ok(None), Err(Defect::RegionsAfterFirst), Ok(None)]
        );
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
