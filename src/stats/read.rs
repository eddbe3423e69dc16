//! Building a [`Summary`] from files: outputs of `solve` (CSV with a header, or JSON lines) and
//! summary JSON files (`solve --summary`), plain or gzip, in any mix.
//!
//! Results are read through the same code as puzzles: the input is opened and sniffed by
//! [`crate::files`] (gzip, a byte order mark, the first line that is neither blank nor a
//! comment), and its rows are records of the [`crate::format`] readers, their columns read by
//! name. What the input is, is found from that first line, not its name:
//! - a lone `{` (a pretty-printed document) or an object whose `format` is
//!   [`super::document::FORMAT`]: a *summary document*;
//! - another object: *JSON-lines rows*;
//! - anything else: *CSV* with a header row.
//!
//! Result rows need the `status` column and the seven counter columns (`recursions`,
//! `max_depth`, `guesses`, `backtracks`, `naked_singles`, `hidden_singles`, `givens`); other
//! columns are ignored unless named as the grouping column. An `invalid` row may leave every
//! counter empty (CSV) or null/absent (JSON lines); any other row must carry all seven. A CSV
//! row must have as many fields as the header. Errors name the file and the line of the input
//! where the bad record starts.
//!
//! The output of `rate`, told by its `level`, `score` and `techniques` columns, is read by the
//! rules of [`super::rating`] into the summary's rating part.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::document::JsonError;
use super::{Counter, Row, Summary};
use crate::files::{Input, Opened, input};
use crate::format::{self, Columns, HeaderError, InputFormat, ReadOptions, ReaderError, Wanted};
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
    /// A row of `rate` output that is not a rate row ([`super::rating`]).
    #[error(transparent)]
    Rating(#[from] super::rating::RatingProblem),
}

/// Summarises every input in order and merges the results; `-` is stdin. With `by`, rows are
/// also grouped by the value of that column (a summary document must be grouped by it too).
pub fn read_paths<P: AsRef<Path>>(paths: &[P], by: Option<&str>) -> Result<Summary, ReadError> {
    let mut total = empty(by);
    for path in paths {
        let summary = read_path(path.as_ref(), by)?;
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
    let input = Input::from_arg(path.as_os_str());
    let opened = input
        .open(Default::default())
        .map_err(|source| ReadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    read_opened(opened, path, by)
}

/// Summarises one input read from `input`; `path` names it in errors.
pub fn read_from(
    input: impl Read + Send + 'static,
    path: &Path,
    by: Option<&str>,
) -> Result<Summary, ReadError> {
    let opened = input::open_reader(input).map_err(|source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    read_opened(opened, path, by)
}

fn read_opened(mut opened: Opened, path: &Path, by: Option<&str>) -> Result<Summary, ReadError> {
    let io_error = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let head = opened.head.trim_ascii();
    if head == b"{" || is_summary_object(head) {
        let mut text = Vec::new();
        opened.reader.read_to_end(&mut text).map_err(io_error)?;
        return read_document(&text, path, by);
    }
    let format = if head.starts_with(b"{") {
        InputFormat::Jsonl
    } else {
        InputFormat::Csv
    };
    read_rows(opened, format, path, by)
}

/// Whether a line is a whole summary document on one line.
fn is_summary_object(line: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Format<'a> {
        #[serde(borrow)]
        format: Option<&'a str>,
    }
    serde_json::from_slice::<Format<'_>>(line)
        .is_ok_and(|object| object.format == Some(super::document::FORMAT))
}

fn empty(by: Option<&str>) -> Summary {
    match by {
        Some(column) => Summary::grouped_by(column),
        None => Summary::new(),
    }
}

/// The result rows of a CSV or JSON-lines input, summarised.
fn read_rows(
    opened: Opened,
    format: InputFormat,
    path: &Path,
    by: Option<&str>,
) -> Result<Summary, ReadError> {
    let mut summary = empty(by);
    if opened.head.is_empty() {
        return Ok(summary);
    }
    // The output of `rate` has its own columns ([`super::rating`]).
    let rating = super::rating::is_rate_output(&opened.head, format);
    if rating {
        summary = summary.rating_kept();
    }
    // The columns read, by name: the status, the counters (or the rating), and the grouping
    // column.
    let keep: Vec<String> = if rating {
        super::rating::COLUMNS[..]
            .iter()
            .chain(&by)
            .map(|c| c.to_string())
            .collect()
    } else {
        std::iter::once("status")
            .chain(Counter::ALL.iter().map(|c| c.name()))
            .chain(by)
            .map(str::to_string)
            .collect()
    };
    let options = ReadOptions {
        wanted: Wanted::Columns,
        columns: Columns {
            keep,
            ..Columns::default()
        },
        ..ReadOptions::default()
    };
    let mut reader = format::reader(format, opened.reader, &options).map_err(|e| match e {
        ReaderError::Io(source) => ReadError::Io {
            path: path.to_path_buf(),
            source,
        },
        ReaderError::Header(HeaderError::NoColumn { wanted, .. }) => ReadError::MissingColumn {
            path: path.to_path_buf(),
            column: wanted,
        },
        ReaderError::Header(other) => ReadError::Syntax {
            path: path.to_path_buf(),
            line: 1,
            message: other.to_string(),
        },
    })?;
    while let Some(record) = reader.next_record().map_err(|source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    })? {
        if let Some(defect) = &record.defect {
            return Err(ReadError::Syntax {
                path: path.to_path_buf(),
                line: record.line,
                message: defect.to_string(),
            });
        }
        let fields = &record.kept;
        if rating {
            let group = by.map(|_| String::from_utf8_lossy(&fields[6]));
            let fields = std::array::from_fn(|i| fields[i].as_slice());
            let row =
                super::rating::RatedRow::parse(fields, group.as_deref()).map_err(|problem| {
                    ReadError::Row {
                        path: path.to_path_buf(),
                        line: record.line,
                        problem: problem.into(),
                    }
                })?;
            summary.add_rated(&row);
            continue;
        }
        let group = by.map(|_| String::from_utf8_lossy(&fields[8]));
        let row = build_row(
            &fields[0],
            |i| count(Counter::ALL[i], &fields[1 + i]),
            group.as_deref(),
        )
        .map_err(|problem| ReadError::Row {
            path: path.to_path_buf(),
            line: record.line,
            problem,
        })?;
        summary.add(&row);
    }
    Ok(summary)
}

/// A counter field: empty is `None`.
fn count(counter: Counter, field: &[u8]) -> Result<Option<u64>, RowProblem> {
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
    if name.is_empty() {
        return Err(RowProblem::MissingField {
            column: "status".to_string(),
        });
    }
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
        read_from(
            std::io::Cursor::new(text.as_bytes().to_vec()),
            Path::new("r.csv"),
            by,
        )
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
        let s = read_from(
            std::io::Cursor::new(text.as_bytes().to_vec()),
            Path::new("r.jsonl"),
            Some("stars"),
        )
        .unwrap();
        assert_eq!(s.records(), 2);
        assert_eq!(s.groups()["4"].status().get(SolveStatus::Solved), 1);
        assert_eq!(s.groups()[""].status().get(SolveStatus::Invalid), 1);
        assert_eq!(s.counter(Counter::Givens).max(), Some(17));

        let bad = "{\"status\":\"solved\"}\n{\"status\":\"solved\",\n";
        let err = read_from(
            std::io::Cursor::new(bad.as_bytes().to_vec()),
            Path::new("r.jsonl"),
            None,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "r.jsonl:1: recursions is empty in a 'solved' row"
        );
        let bad = "{\"status\":\"invalid\"}\n{\"status\":\"solved\",\n";
        let err = read_from(
            std::io::Cursor::new(bad.as_bytes().to_vec()),
            Path::new("r.jsonl"),
            None,
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("r.jsonl:2: not a JSON object"));
    }

    #[test]
    fn gzip_and_bom_are_transparent() {
        use std::io::Write;
        let text = format!("\u{feff}{HEADER}2,p,s,solved,1,1,1,0,0,50,14,17,,easy\n");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text.as_bytes()).unwrap();
        let bytes = gz.finish().unwrap();
        let s = read_from(std::io::Cursor::new(bytes), Path::new("r.csv.gz"), None).unwrap();
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
