//! Building a [`Summary`] from files: outputs of `solve` (CSV with a header, or JSONL) and
//! summary JSON files (`solve --summary`), plain or gzip, in any mix.
//!
//! The kind of each input is found from its content, not its name:
//! - gzip (magic bytes `1f 8b`) is decompressed first, every member read;
//! - a UTF-8 byte order mark is skipped;
//! - input whose first non-blank byte is `{` is JSON: a *summary document* when its first line
//!   is a lone `{` (pretty-printed) or an object whose `format` is
//!   [`super::document::FORMAT`], otherwise *JSONL rows*, one object per line;
//! - anything else is CSV with a header row.
//!
//! Result rows need the `status` column and the seven counter columns (`recursions`,
//! `max_depth`, `guesses`, `backtracks`, `naked_singles`, `hidden_singles`, `givens`); other
//! columns are ignored unless named as the grouping column. An `invalid` row may leave every
//! counter empty (CSV) or null/absent (JSONL); any other row must carry all seven. Errors name
//! the file and the line of the input where the bad record starts.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde_json::{Map, Value};

use super::document::JsonError;
use super::{Counter, Row, Summary};
use crate::row::{RowStatus, SolveStatus, Status, UnknownStatus};
use crate::solver::SearchStats;

/// Why an input could not be summarised.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The input could not be opened or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The input (`-` for stdin).
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// A CSV input lacks a needed column.
    #[error("{}: no column '{column}' in the header", path.display())]
    MissingColumn {
        /// The input.
        path: PathBuf,
        /// The column looked for.
        column: String,
    },
    /// A record is malformed: not CSV or JSON, or fields in the wrong number.
    #[error("{}:{line}: {message}", path.display())]
    Syntax {
        /// The input.
        path: PathBuf,
        /// 1-based line where the record starts.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// A well-formed record whose values are not a result row.
    #[error("{}:{line}: {problem}", path.display())]
    Row {
        /// The input.
        path: PathBuf,
        /// 1-based line where the record starts.
        line: u64,
        /// What is wrong.
        problem: RowProblem,
    },
    /// A summary document that cannot be read.
    #[error("{}: {source}", path.display())]
    Summary {
        /// The input.
        path: PathBuf,
        /// What is wrong.
        source: JsonError,
    },
    /// Summaries that cannot be merged.
    #[error("{}: {source}", path.display())]
    Grouping {
        /// The input.
        path: PathBuf,
        /// Why.
        source: super::GroupingMismatch,
    },
    /// A summary document grouped by another column than the one asked for: groups can only
    /// be rebuilt from the result rows.
    #[error("{}: the summary is {}, so it cannot be grouped by '{wanted}'; summarise the results files instead", path.display(), found.as_ref().map_or("not grouped".to_string(), |c| format!("grouped by '{c}'")))]
    Regroup {
        /// The input.
        path: PathBuf,
        /// Its grouping column.
        found: Option<String>,
        /// The grouping column asked for.
        wanted: String,
    },
}

/// What is wrong with one result row.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RowProblem {
    /// The status is not a known name.
    #[error(transparent)]
    Status(#[from] UnknownStatus),
    /// The status is one of `verify`'s, not of `solve`'s.
    #[error("status '{0}' comes from verify; stats reads the output of solve")]
    NotSolve(RowStatus),
    /// A counter is neither empty nor a non-negative integer.
    #[error("{column}: {found} is not a count")]
    NotACount {
        /// The counter column.
        column: &'static str,
        /// The value, quoted and escaped.
        found: String,
    },
    /// A counter is missing from a row that must carry all of them.
    #[error("{column} is empty in a '{status}' row")]
    MissingCounter {
        /// The first missing counter.
        column: &'static str,
        /// The row's status.
        status: SolveStatus,
    },
    /// A JSONL row lacks a field it needs.
    #[error("no field '{column}'")]
    MissingField {
        /// The field.
        column: String,
    },
}

/// Summarises every input in order and merges the results; `-` is stdin. With `by`, rows are
/// also grouped by the value of that column (a summary document must be grouped by it too).
pub fn read_paths<P: AsRef<Path>>(paths: &[P], by: Option<&str>) -> Result<Summary, ReadError> {
    let mut total = match by {
        Some(column) => Summary::grouped_by(column),
        None => Summary::new(),
    };
    for path in paths {
        let summary = read_path(path.as_ref(), by)?;
        // Both are grouped by `by` (or not at all), so they merge.
        total
            .merge(&summary)
            .map_err(|source| ReadError::Grouping {
                path: path.as_ref().to_path_buf(),
                source,
            })?;
    }
    Ok(total)
}

/// Summarises one input; `-` is stdin.
pub fn read_path(path: &Path, by: Option<&str>) -> Result<Summary, ReadError> {
    let io_error = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let input: Box<dyn Read> = if path == Path::new("-") {
        Box::new(io::stdin().lock())
    } else {
        Box::new(File::open(path).map_err(io_error)?)
    };
    read_from(input, path, by)
}

/// Summarises one input read from `input`; `path` names it in errors.
pub fn read_from(input: impl Read, path: &Path, by: Option<&str>) -> Result<Summary, ReadError> {
    let io_error = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut input = BufReader::with_capacity(1 << 16, input);
    let gzip = input
        .fill_buf()
        .map_err(io_error)?
        .starts_with(&[0x1f, 0x8b]);
    let mut input: Box<dyn BufRead> = if gzip {
        Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(input),
        ))
    } else {
        Box::new(input)
    };
    let head = input.fill_buf().map_err(io_error)?;
    let bom = head.starts_with(b"\xEF\xBB\xBF");
    let first = head[if bom { 3 } else { 0 }..]
        .iter()
        .find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'{') {
        if bom {
            input.consume(3);
        }
        read_json(input, path, by)
    } else {
        read_csv(input, path, by)
    }
}

fn empty(by: Option<&str>) -> Summary {
    match by {
        Some(column) => Summary::grouped_by(column),
        None => Summary::new(),
    }
}

fn read_csv(input: impl BufRead, path: &Path, by: Option<&str>) -> Result<Summary, ReadError> {
    let log = Rc::new(RefCell::new(VecDeque::new()));
    let mut lines = Lines {
        lines: Rc::clone(&log),
        passed: 0,
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(LineLog {
            inner: input,
            offset: 0,
            line_start: 0,
            line_has_text: false,
            lines: log,
        });
    let headers = reader
        .byte_headers()
        .map_err(|e| csv_error(path, e, &mut lines))?
        .clone();
    let mut summary = empty(by);
    if headers.is_empty() {
        return Ok(summary);
    }
    let find = |column: &str| {
        headers
            .iter()
            .position(|h| h == column.as_bytes())
            .ok_or_else(|| ReadError::MissingColumn {
                path: path.to_path_buf(),
                column: column.to_string(),
            })
    };
    let status_at = find("status")?;
    let mut counter_at = [0usize; 7];
    for (at, counter) in counter_at.iter_mut().zip(Counter::ALL) {
        *at = find(counter.name())?;
    }
    let group_at = by.map(find).transpose()?;

    let mut record = csv::ByteRecord::new();
    while reader
        .read_byte_record(&mut record)
        .map_err(|e| csv_error(path, e, &mut lines))?
    {
        let line = record.position().map_or(0, |p| lines.line_at(p.byte()));
        let group = group_at.map(|at| String::from_utf8_lossy(&record[at]));
        let row = build_row(
            &record[status_at],
            |i| csv_count(Counter::ALL[i], &record[counter_at[i]]),
            group.as_deref(),
        )
        .map_err(|problem| ReadError::Row {
            path: path.to_path_buf(),
            line,
            problem,
        })?;
        summary.add(&row);
    }
    Ok(summary)
}

/// Logs where every line starts and whether it is blank, so that the byte offset of a CSV
/// record can be turned into the line it starts on: the csv crate leaves blank lines out of its
/// line numbers, and the offset it gives for a record after blank lines is that of the first
/// blank line. Only the lines the reader has read ahead of the current record are kept.
struct LineLog<R> {
    inner: R,
    offset: u64,
    line_start: u64,
    line_has_text: bool,
    lines: Rc<RefCell<VecDeque<LineStart>>>,
}

/// One complete line: where it starts, and whether it holds nothing but a line end.
struct LineStart {
    at: u64,
    blank: bool,
}

impl<R: Read> Read for LineLog<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let mut lines = self.lines.borrow_mut();
        for (i, &b) in buf[..n].iter().enumerate() {
            if b == b'\n' {
                lines.push_back(LineStart {
                    at: self.line_start,
                    blank: !self.line_has_text,
                });
                self.line_start = self.offset + i as u64 + 1;
                self.line_has_text = false;
            } else if b != b'\r' {
                self.line_has_text = true;
            }
        }
        self.offset += n as u64;
        Ok(n)
    }
}

/// Turns the byte offsets of records, asked in increasing order, into 1-based line numbers.
struct Lines {
    lines: Rc<RefCell<VecDeque<LineStart>>>,
    /// Lines before the last record asked.
    passed: u64,
}

impl Lines {
    fn line_at(&mut self, byte: u64) -> u64 {
        let mut lines = self.lines.borrow_mut();
        while lines.front().is_some_and(|l| l.at < byte || l.blank) {
            lines.pop_front();
            self.passed += 1;
        }
        self.passed + 1
    }
}

fn csv_error(path: &Path, error: csv::Error, lines: &mut Lines) -> ReadError {
    let line = error.position().map_or(0, |p| lines.line_at(p.byte()));
    let message = match error.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("{len} fields where the header has {expected_len}"),
        _ => error.to_string(),
    };
    match error.into_kind() {
        csv::ErrorKind::Io(source) => ReadError::Io {
            path: path.to_path_buf(),
            source,
        },
        _ => ReadError::Syntax {
            path: path.to_path_buf(),
            line,
            message,
        },
    }
}

/// A CSV counter field: empty is `None`.
fn csv_count(counter: Counter, field: &[u8]) -> Result<Option<u64>, RowProblem> {
    let field = field.trim_ascii();
    if field.is_empty() {
        return Ok(None);
    }
    std::str::from_utf8(field)
        .ok()
        .and_then(|text| text.parse().ok())
        .map(Some)
        .ok_or_else(|| RowProblem::NotACount {
            column: counter.name(),
            found: quote(&String::from_utf8_lossy(field)),
        })
}

/// A JSON counter field: null, absent or `""` is `None`; a number or a string of digits is a
/// count.
fn json_count(counter: Counter, value: Option<&Value>) -> Result<Option<u64>, RowProblem> {
    let not_a_count = |found: String| RowProblem::NotACount {
        column: counter.name(),
        found,
    };
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) if text.trim().is_empty() => Ok(None),
        Some(Value::String(text)) => text
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| not_a_count(quote(text))),
        Some(Value::Number(n)) => n
            .as_u64()
            .map(Some)
            .ok_or_else(|| not_a_count(n.to_string())),
        Some(other) => Err(not_a_count(other.to_string())),
    }
}

/// `text` in single quotes, control characters escaped, cut after 40 characters.
fn quote(text: &str) -> String {
    let mut shown: String = text.chars().take(40).flat_map(char::escape_debug).collect();
    if text.chars().nth(40).is_some() {
        shown.push_str("...");
    }
    format!("'{shown}'")
}

/// A row from its status and its counters (`count(i)` is counter `Counter::ALL[i]`).
fn build_row<'g>(
    status: &[u8],
    mut count: impl FnMut(usize) -> Result<Option<u64>, RowProblem>,
    group: Option<&'g str>,
) -> Result<Row<'g>, RowProblem> {
    let name = String::from_utf8_lossy(status.trim_ascii());
    let status: SolveStatus = match SolveStatus::from_name(&name) {
        Some(status) => status,
        None => return Err(RowProblem::NotSolve(name.parse::<RowStatus>()?)),
    };
    let mut values = [None; 7];
    for (i, value) in values.iter_mut().enumerate() {
        *value = count(i)?;
    }
    let counters = match values {
        [
            Some(recursions),
            Some(max_depth),
            Some(guesses),
            Some(backtracks),
            Some(naked_singles),
            Some(hidden_singles),
            Some(givens),
        ] => Some(SearchStats {
            recursions,
            max_depth,
            guesses,
            backtracks,
            naked_singles,
            hidden_singles,
            givens,
        }),
        [None, None, None, None, None, None, None] if status == SolveStatus::Invalid => None,
        _ => {
            let missing = values.iter().position(Option::is_none).unwrap_or(0);
            return Err(RowProblem::MissingCounter {
                column: Counter::ALL[missing].name(),
                status,
            });
        }
    };
    Ok(Row {
        status,
        counters,
        group,
    })
}

fn read_json(mut input: impl BufRead, path: &Path, by: Option<&str>) -> Result<Summary, ReadError> {
    let io_error = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut line = Vec::new();
    let mut number = 0u64;
    // The first non-blank line says whether this is a summary document or rows.
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line).map_err(io_error)? == 0 {
            return Ok(empty(by));
        }
        number += 1;
        if !line.trim_ascii().is_empty() {
            break;
        }
    }
    let first: Option<Map<String, Value>> = serde_json::from_slice(&line).ok();
    let is_document = match &first {
        None => line.trim_ascii() == b"{",
        Some(object) => {
            object.get("format").and_then(Value::as_str) == Some(super::document::FORMAT)
        }
    };
    if is_document {
        input.read_to_end(&mut line).map_err(io_error)?;
        return read_document(&line, path, by);
    }

    let mut summary = empty(by);
    loop {
        if !line.trim_ascii().is_empty() {
            let object: Map<String, Value> =
                serde_json::from_slice(&line).map_err(|e| ReadError::Syntax {
                    path: path.to_path_buf(),
                    line: number,
                    message: format!("not a JSON object: {e}"),
                })?;
            add_json_row(&mut summary, &object, by).map_err(|problem| ReadError::Row {
                path: path.to_path_buf(),
                line: number,
                problem,
            })?;
        }
        line.clear();
        if input.read_until(b'\n', &mut line).map_err(io_error)? == 0 {
            return Ok(summary);
        }
        number += 1;
    }
}

fn add_json_row(
    summary: &mut Summary,
    object: &Map<String, Value>,
    by: Option<&str>,
) -> Result<(), RowProblem> {
    let missing = |column: &str| RowProblem::MissingField {
        column: column.to_string(),
    };
    let status = match object.get("status") {
        Some(Value::String(status)) => status.as_str(),
        Some(other) => return Err(UnknownStatus(other.to_string()).into()),
        None => return Err(missing("status")),
    };
    let group: Option<Cow<'_, str>> = match by {
        None => None,
        Some(column) => Some(match object.get(column) {
            None => return Err(missing(column)),
            Some(Value::Null) => Cow::Borrowed(""),
            Some(Value::String(text)) => Cow::Borrowed(text.as_str()),
            Some(other) => Cow::Owned(other.to_string()),
        }),
    };
    let row = build_row(
        status.as_bytes(),
        |i| json_count(Counter::ALL[i], object.get(Counter::ALL[i].name())),
        group.as_deref(),
    )?;
    summary.add(&row);
    Ok(())
}

fn read_document(text: &[u8], path: &Path, by: Option<&str>) -> Result<Summary, ReadError> {
    let summary = super::document::from_slice(text).map_err(|source| ReadError::Summary {
        path: path.to_path_buf(),
        source,
    })?;
    match by {
        None => Ok(summary.ungrouped()),
        Some(wanted) if summary.by() == Some(wanted) => Ok(summary),
        // An empty summary holds no rows to regroup.
        Some(wanted) if summary.records() == 0 => Ok(Summary::grouped_by(wanted)),
        Some(wanted) => Err(ReadError::Regroup {
            path: path.to_path_buf(),
            found: summary.by().map(str::to_string),
            wanted: wanted.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, by: Option<&str>) -> Result<Summary, ReadError> {
        read_from(text.as_bytes(), Path::new("r.csv"), by)
    }

    const HEADER: &str = "line,puzzle,solution,status,solutions,recursions,max_depth,guesses,backtracks,naked_singles,hidden_singles,givens,error,difficulty\n";

    #[test]
    fn csv_rows_and_an_invalid_row() {
        let text = format!(
            "{HEADER}2,p,s,solved,1,1,1,0,0,50,14,17,,easy\n3,p,,invalid,0,,,,,,,,bad,hard\n4,p,s,solved,1,9,4,5,3,30,10,21,,hard\n"
        );
        let s = read(&text, Some("difficulty")).unwrap();
        assert_eq!(s.records(), 3);
        assert_eq!(s.status().get(SolveStatus::Invalid), 1);
        assert_eq!(s.solved_without_guess(), 1);
        assert_eq!(s.counter(Counter::Givens).count(), 2);
        assert_eq!(s.groups()["hard"].records(), 2);
        assert_eq!(s.groups()["easy"].records(), 1);
    }

    #[test]
    fn errors_name_file_and_line() {
        let text = format!(
            "{HEADER}2,p,s,solved,1,1,1,0,0,50,14,17,,easy\n\n4,p,s,solved,1,x7,1,0,0,50,14,17,,easy\n"
        );
        let err = read(&text, None).unwrap_err();
        assert_eq!(err.to_string(), "r.csv:4: recursions: 'x7' is not a count");

        let text = format!("{HEADER}2,p,s,done,1,1,1,0,0,50,14,17,,easy\n");
        let err = read(&text, None).unwrap_err().to_string();
        assert!(err.starts_with("r.csv:2: unknown status 'done'"), "{err}");

        let text = format!("{HEADER}2,p,s,solved,1,1,1,,0,50,14,17,,easy\n");
        let err = read(&text, None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "r.csv:2: guesses is empty in a 'solved' row"
        );

        let text = format!("{HEADER}2,p,s,solved,1\n");
        let err = read(&text, None).unwrap_err();
        assert_eq!(err.to_string(), "r.csv:2: 5 fields where the header has 14");

        let err = read(HEADER, Some("source")).unwrap_err();
        assert_eq!(err.to_string(), "r.csv: no column 'source' in the header");
    }

    #[test]
    fn csv_lines_count_blank_lines_quoted_newlines_and_crlf() {
        let good = "2,p,s,solved,1,1,1,0,0,50,14,17,,easy";
        let bad = "2,p,s,solved,1,1,1,0,0,50,14,17,,easy,extra";
        let cases = [
            (format!("{HEADER}{good}\n\n\n{bad}\n"), 5),
            (
                format!("{HEADER}2,p,s,solved,1,1,1,0,0,50,14,17,\"two\nlines\",easy\n{bad}\n"),
                4,
            ),
            (
                format!("{HEADER}{good}\r\n\r\n{bad}\r\n")
                    .replace(",difficulty\n", ",difficulty\r\n"),
                4,
            ),
            (format!("{HEADER}\n{bad}"), 3),
        ];
        for (text, line) in cases {
            let err = read(&text, None).unwrap_err();
            assert!(
                matches!(err, ReadError::Syntax { line: l, .. } if l == line),
                "{err} for {text:?}"
            );
        }
        let text = format!(
            "{HEADER}\n\n2,p,s,solved,1,1,1,0,0,50,14,17,,easy\n\n2,p,s,solved,1,1,1,0,0,50,-1,17,,easy\n"
        );
        let err = read(&text, None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "r.csv:6: hidden_singles: '-1' is not a count"
        );
    }

    #[test]
    fn jsonl_rows_with_numbers_strings_and_nulls() {
        let text = concat!(
            "{\"line\":1,\"status\":\"solved\",\"recursions\":3,\"max_depth\":2,\"guesses\":2,\"backtracks\":1,\"naked_singles\":40,\"hidden_singles\":20,\"givens\":\"17\",\"stars\":4}\n",
            "\n",
            "{\"line\":2,\"status\":\"invalid\",\"recursions\":null,\"max_depth\":\"\",\"stars\":null}\n",
        );
        let s = read_from(text.as_bytes(), Path::new("r.jsonl"), Some("stars")).unwrap();
        assert_eq!(s.records(), 2);
        assert_eq!(s.groups()["4"].status().get(SolveStatus::Solved), 1);
        assert_eq!(s.groups()[""].status().get(SolveStatus::Invalid), 1);
        assert_eq!(s.counter(Counter::Givens).max(), Some(17));

        let bad = "{\"status\":\"solved\"}\n{\"status\":\"solved\",\n";
        let err = read_from(bad.as_bytes(), Path::new("r.jsonl"), None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "r.jsonl:1: recursions is empty in a 'solved' row"
        );
        let bad = "{\"status\":\"invalid\"}\n{\"status\":\"solved\",\n";
        let err = read_from(bad.as_bytes(), Path::new("r.jsonl"), None).unwrap_err();
        assert!(err.to_string().starts_with("r.jsonl:2: not a JSON object"));
    }

    #[test]
    fn gzip_and_bom_are_transparent() {
        use std::io::Write;
        let text = format!("\u{feff}{HEADER}2,p,s,solved,1,1,1,0,0,50,14,17,,easy\n");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text.as_bytes()).unwrap();
        let bytes = gz.finish().unwrap();
        let s = read_from(&bytes[..], Path::new("r.csv.gz"), None).unwrap();
        assert_eq!(s.records(), 1);
        assert_eq!(read(&text, None).unwrap(), s);
    }

    #[test]
    fn empty_inputs_are_empty_summaries() {
        assert_eq!(read("", None).unwrap(), Summary::new());
        assert_eq!(read(HEADER, None).unwrap(), Summary::new());
        assert_eq!(
            read("", Some("givens")).unwrap(),
            Summary::grouped_by("givens")
        );
    }
}
