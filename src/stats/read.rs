//! Reading results for a [`Summary`]: outputs of `solve` (CSV with a header, or JSON lines) and
//! summary JSON files (`solve --summary`), plain or gzip, in any mix. How the rows are grouped
//! (by input, by a column's values or in bins of them) is [`super::grouping`]'s job.
//!
//! Results are read through the same code as puzzles: the input is opened and sniffed by
//! [`crate::files`] (gzip, a byte order mark, the first line that is neither blank nor a
//! comment), and its rows are records of the [`crate::format`] readers, their columns read by
//! name (a CSV record equal to the header, as a second file's header is in concatenated files,
//! is skipped there). What the input is, is found from that first line, not its name:
//! - a lone `{` (a pretty-printed document) or an object whose `format` is
//!   [`super::document::FORMAT`]: a *summary document*;
//! - another object: *JSON-lines rows*;
//! - anything else: *CSV* with a header row.
//!
//! Result rows need the `status` column and the seven counter columns (`recursions`,
//! `max_depth`, `guesses`, `backtracks`, `naked_singles`, `hidden_singles`, `givens`); the
//! `line`, `file`, `puzzle` and `regions` columns are read when present, for the list of the
//! hardest records and to count canonical forms (`--canonical` needs `puzzle`; a row counts
//! when its puzzle has a form, see [`super::distinct`]); other columns are ignored unless named
//! as the grouping column. An `invalid` row may leave every counter empty (CSV) or null/absent
//! (JSON lines); any other row must carry all seven. A CSV row must have as many fields as the
//! header. Errors name the file and the line of the input where the bad record starts.
//!
//! The output of `rate`, told by its `level`, `score` and `techniques` columns, is read by the
//! rules of [`super::rating`] into the summary's rating part.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::document::{JsonError, Saved};
use super::grouping::{self, Grouping};
use super::plausible::{self, Impossibility};
use super::{Counter, RecordRef, ResultRow, Row, Summary};
use crate::canon::Canonicaliser;
use crate::files::{Input, Opened, input};
use crate::format::{self, Columns, HeaderError, InputFormat, ReadOptions, ReaderError, Wanted};
use crate::grid::Grid;
use crate::layout::Layout;
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
    #[error("{}: no column '{column}' in the header{}", path.display(), hint(.column))]
    MissingColumn {
        /// The input.
        path: PathBuf,
        /// The column looked for.
        column: String,
    },
    /// An input that has no `status` column: puzzles, not the results of `solve` or `rate`.
    #[error(
        "{}: this looks like a file of puzzles, not of results ({}): stats summarises what solve or rate wrote; make results first with `sudoku-bulk solve {} -o results.csv`, then run `sudoku-bulk stats results.csv`",
        path.display(), .what, path.display()
    )]
    NotResults {
        /// The input.
        path: PathBuf,
        /// What it has instead, in words.
        what: String,
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
        source: super::Unmergeable,
    },
    /// More distinct canonical forms than `--max-classes` allows.
    #[error(
        "{}{}: more than {max} distinct puzzles (canonical forms) to count; raise --max-classes (each takes 20 to 60 bytes of memory)",
        path.display(),
        line.map_or(String::new(), |l| format!(":{l}"))
    )]
    TooManyForms {
        /// The input.
        path: PathBuf,
        /// 1-based line of the row that made one form too many (none for a summary document).
        line: Option<u64>,
        /// The most forms allowed.
        max: u64,
    },
    /// More groups than allowed.
    #[error(
        "{}{}: more than {max} distinct values of '{column}' to group by: group by a column with fewer values, or give --max-groups N to allow more (each group takes about half a kilobyte while read, and a few more while the report is written)",
        path.display(),
        line.map_or(String::new(), |l| format!(":{l}"))
    )]
    TooManyGroups {
        /// The input.
        path: PathBuf,
        /// 1-based line of the row that made one group too many (none for a summary document).
        line: Option<u64>,
        /// The grouping column.
        column: String,
        /// The most groups allowed.
        max: usize,
    },
    /// Numbers grouped one group per value, or in bins, that make more groups than allowed.
    #[error(
        "'{column}' makes {groups} groups, more than --max-groups {max}: give --bins N with N at most {max}, or a larger --max-groups"
    )]
    TooManyBins {
        /// The grouping column.
        column: String,
        /// The groups it makes.
        groups: usize,
        /// The most groups allowed.
        max: usize,
    },
    /// `--canonical` and a summary document that did not count canonical forms.
    #[error("{}: the summary has no canonical forms; summarise the results files, or make it with solve --summary --canonical", path.display())]
    NoForms {
        /// The input.
        path: PathBuf,
    },
    /// A summary document grouped otherwise than asked for: groups can only be rebuilt from
    /// the result rows.
    #[error("{}: the summary is {found}, so it cannot be {wanted}; summarise the results files instead", path.display())]
    Regroup {
        /// The input.
        path: PathBuf,
        /// How it is grouped, in words.
        found: String,
        /// The grouping asked for, in words.
        wanted: String,
    },
    /// A column to put in bins holds a value that is not a number.
    #[error("{}{}: {column}: {value} is not a number, so the column cannot be put in bins", path.display(), line.map_or(String::new(), |l| format!(":{l}")))]
    NotANumber {
        /// The input.
        path: PathBuf,
        /// The line of the row, or none for a group of a summary document.
        line: Option<u64>,
        /// The grouping column.
        column: String,
        /// The value, quoted, escaped and cut.
        value: String,
    },
    /// Standard input, where the inputs must be read twice.
    #[error(
        "standard input can be read only once, but '{column}' has more than {held} distinct numbers: to find its quantile bins the inputs are read twice; save it to a file, or give the edges (--bins A,B,...)"
    )]
    ReadTwice {
        /// The grouping column.
        column: String,
        /// The groups held in one reading ([`grouping::HELD_GROUPS`]).
        held: usize,
    },
}

/// A hint for a missing column: `file` is there only when `solve` read several inputs.
fn hint(column: &str) -> &'static str {
    if column == "file" {
        " (results of a single input have none; --by input groups by the results files)"
    } else if !Counter::ALL.iter().any(|c| c.name() == column) {
        ""
    } else {
        " (stats reads the rows of solve or rate; those of verify, canon and augment carry no \
         search counters: solve the puzzles first, `sudoku-bulk solve FILE -o results.csv`)"
    }
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
    /// Values that the definitions of the counters rule out ([`super::plausible`]).
    #[error(transparent)]
    Impossible(#[from] Impossibility),
}

/// Summarises every input in order and merges the results; `-` is stdin. With `by`, rows are
/// also grouped by the value of that column, one group per value (a summary document must be
/// grouped by it too).
pub fn read_paths<P: AsRef<Path>>(paths: &[P], by: Option<&str>) -> Result<Summary, ReadError> {
    let grouping = by.map(|name| Grouping::Column {
        name: name.to_string(),
        bins: grouping::BinChoice::None,
    });
    Ok(grouping::summarise(paths, grouping.as_ref(), usize::MAX, None)?.summary)
}

/// Summarises one input; `-` is stdin.
pub fn read_path(path: &Path, by: Option<&str>) -> Result<Summary, ReadError> {
    read_paths(&[path], by)
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
    let grouping = by.map(|name| Grouping::Column {
        name: name.to_string(),
        bins: grouping::BinChoice::None,
    });
    grouping::summarise_opened(opened, path, grouping.as_ref())
}

/// What an input turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Content {
    /// Result rows in this format.
    Rows(InputFormat),
    /// Result rows in a Parquet file.
    Parquet,
    /// A summary document.
    Document,
}

/// Opens an input; `-` is stdin.
pub(super) fn open(path: &Path) -> Result<Opened, ReadError> {
    Input::from_arg(path.as_os_str())
        .open(Default::default())
        .map_err(|source| ReadError::Io {
            path: path.to_path_buf(),
            source,
        })
}

/// What is done with each result row read: it is given with its line and, when canonical forms
/// are counted, the digest of its puzzle's form (none when the puzzle has no form).
pub(super) type EachRow<'e> =
    dyn FnMut(&ResultRow<'_>, u64, Option<u128>) -> Result<(), ReadError> + 'e;

/// Reads one opened input: its rows, each handed to `each` with its line (and its value of the
/// column `by`, as the row's group), or its summary document, returned. With `canonical`, the
/// canonical form of each row's puzzle is found too (the input must have a `puzzle` column).
pub(super) fn read_opened(
    opened: Opened,
    path: &Path,
    by: Option<&str>,
    canonical: bool,
    each: &mut EachRow<'_>,
) -> Result<(Content, Option<Saved>), ReadError> {
    let io_error = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    if !opened.parquet && format::parquet::is_named(Some(path)) {
        let detail = format::parquet::misnamed().to_string();
        return Err(io_error(io::Error::new(io::ErrorKind::InvalidData, detail)));
    }
    if opened.parquet {
        let open = |options: &ReadOptions| {
            format::parquet::ParquetReader::open(path, options)
                .map(|r| Box::new(r) as Box<dyn format::RecordReader>)
        };
        // The output of `rate` is told by its columns: those a reader finds.
        let rows = if open(&columns_options(&super::rating::SE_COLUMNS)).is_ok() {
            Rows::Se
        } else if open(&rating_options(Rows::Rate, by)).is_ok() {
            Rows::Rate
        } else {
            Rows::Solve
        };
        read_rows(open, path, by, rows, canonical, each)?;
        return Ok((Content::Parquet, None));
    }
    let head = opened.head.trim_ascii();
    if head == b"{" || is_summary_object(head) {
        use crate::files::side::{Bounded, MAX_SUMMARY};
        let text = std::io::BufReader::new(Bounded::new(opened.reader, MAX_SUMMARY));
        let saved = super::document::read_saved(text).map_err(|source| ReadError::Summary {
            path: path.to_path_buf(),
            source,
        })?;
        return Ok((Content::Document, Some(saved)));
    }
    let format = if head.starts_with(b"{") {
        InputFormat::Jsonl
    } else {
        InputFormat::Csv
    };
    if !opened.head.is_empty() {
        let rows = if super::rating::is_se_output(&opened.head, format) {
            Rows::Se
        } else if super::rating::is_rate_output(&opened.head, format) {
            Rows::Rate
        } else {
            Rows::Solve
        };
        let open = |options: &ReadOptions| format::reader(format, opened.reader, options);
        read_rows(open, path, by, rows, canonical, each)?;
    }
    Ok((Content::Rows(format), None))
}

/// Whether a header (its names escaped, comma-separated, as [`HeaderError::NoColumn`] gives
/// them) has a `status` column, as every output of `solve` and `rate` has.
fn has_status(header: &str) -> bool {
    header
        .split(", ")
        .any(|name| name.trim().eq_ignore_ascii_case("status"))
}

/// What a header without `status` holds, in words: a puzzle (a line of the line format, read
/// as a header), or its column names.
fn not_results(header: &str) -> String {
    let names: Vec<&str> = header.split(", ").collect();
    let cells = |name: &str| {
        name.bytes()
            .filter(|b| b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'*'))
            .count()
    };
    if names.iter().any(|name| cells(name) >= 17) {
        "its first line is a puzzle, and it has no column 'status'".to_string()
    } else {
        format!("no column 'status'; its columns are {header}")
    }
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

/// The digest of the canonical form of a results row's puzzle, if it has one (readable, no
/// conflict, the 3x3 boxes): what `stats --canonical` counts for the row.
pub(super) fn form_of(
    puzzle: &[u8],
    regions: Option<&[u8]>,
    canonicaliser: &mut Canonicaliser,
) -> Option<u128> {
    let grid = Grid::parse(puzzle).ok()?;
    if let Some(regions) = regions.filter(|r| !r.trim_ascii().is_empty())
        && !Layout::parse(regions).ok()?.is_standard()
    {
        return None;
    }
    canonicaliser
        .canonical(&grid, &Layout::standard())
        .ok()
        .map(|c| c.digest())
}

/// The columns read when the input has them, in this order: where each record is, for the
/// list of the hardest, and the solution count, for the checks of [`plausible`].
const OPTIONAL: [&str; 5] = ["line", "file", "puzzle", "regions", "solutions"];

/// The options that read these columns (and no puzzle).
fn columns_options(columns: &[&str]) -> ReadOptions {
    ReadOptions {
        wanted: Wanted::Columns,
        columns: Columns {
            keep: columns.iter().map(|c| c.to_string()).collect(),
            ..Columns::default()
        },
        ..ReadOptions::default()
    }
}

/// Which command's rows an input holds, as its columns tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rows {
    /// `solve` (or `verify`): a status and the search counters.
    Solve,
    /// `rate`: HoDoKu's ratings ([`super::rating::COLUMNS`]).
    Rate,
    /// `rate --scale se`: Sudoku Explainer's ([`super::rating::se::SE_ROW_COLUMNS`]).
    Se,
}

/// The options that read the rows of `rate` output (`rows` says on which scale: its columns
/// and the grouping column).
fn rating_options(rows: Rows, by: Option<&str>) -> ReadOptions {
    let columns: &[&str] = match rows {
        Rows::Se => &super::rating::se::SE_ROW_COLUMNS,
        _ => &super::rating::COLUMNS,
    };
    ReadOptions {
        wanted: Wanted::Columns,
        columns: Columns {
            keep: columns
                .iter()
                .copied()
                .chain(by)
                .map(str::to_string)
                .collect(),
            ..Columns::default()
        },
        optional: OPTIONAL.map(str::to_string).to_vec(),
        ..ReadOptions::default()
    }
}

/// The result rows of a CSV, JSON-lines or Parquet input, each handed to `each` (with the
/// digest of its puzzle's canonical form when `canonical`); `open` makes the reader for the
/// options given; `rows` says whose rows they are.
fn read_rows<'a>(
    open: impl FnOnce(&ReadOptions) -> Result<Box<dyn format::RecordReader + 'a>, ReaderError>,
    path: &Path,
    by: Option<&str>,
    rows: Rows,
    canonical: bool,
    each: &mut EachRow<'_>,
) -> Result<(), ReadError> {
    // The columns read, by name: the status, the counters, and the grouping column (or those
    // of a rate row).
    let keep: Vec<String> = std::iter::once("status")
        .chain(Counter::ALL.iter().map(|c| c.name()))
        .chain(by)
        .map(str::to_string)
        .collect();
    let mut canonicaliser = canonical.then(Canonicaliser::new);
    let options = if rows != Rows::Solve {
        rating_options(rows, by)
    } else {
        ReadOptions {
            wanted: Wanted::Columns,
            columns: Columns {
                keep,
                ..Columns::default()
            },
            optional: OPTIONAL.map(str::to_string).to_vec(),
            ..ReadOptions::default()
        }
    };
    let mut reader = open(&options).map_err(|e| match e {
        ReaderError::Io(source) => ReadError::Io {
            path: path.to_path_buf(),
            source,
        },
        ReaderError::Header(HeaderError::NoColumn { header, .. }) if !has_status(&header) => {
            ReadError::NotResults {
                path: path.to_path_buf(),
                what: not_results(&header),
            }
        }
        ReaderError::Header(HeaderError::NoColumn { wanted, .. }) => ReadError::MissingColumn {
            path: path.to_path_buf(),
            column: wanted,
        },
        // A whole file's faults, not a line's.
        ReaderError::Header(
            broken @ (HeaderError::NotParquet { .. } | HeaderError::ParquetCodec { .. }),
        ) => ReadError::Io {
            path: path.to_path_buf(),
            source: io::Error::new(io::ErrorKind::InvalidData, broken.to_string()),
        },
        ReaderError::Header(other) => ReadError::Syntax {
            path: path.to_path_buf(),
            line: 1,
            message: other.to_string(),
        },
    })?;
    // One record, read into again and again.
    let mut record = crate::format::Record::default();
    while reader
        .read_into(&mut record)
        .map_err(|source| ReadError::Io {
            path: path.to_path_buf(),
            source,
        })?
    {
        if let Some(defect) = &record.defect {
            return Err(ReadError::Syntax {
                path: path.to_path_buf(),
                line: record.line,
                message: defect.to_string(),
            });
        }
        let fields = &record.kept;
        let mut form = || match &mut canonicaliser {
            Some(canonicaliser) => {
                let Some(puzzle) = &record.optional[2] else {
                    return Err(ReadError::MissingColumn {
                        path: path.to_path_buf(),
                        column: "puzzle".to_string(),
                    });
                };
                let regions = record.optional[3].as_deref();
                Ok(form_of(puzzle, regions, canonicaliser))
            }
            None => Ok(None),
        };
        let found = |i: usize| {
            record.optional[i]
                .as_deref()
                .filter(|v| !v.is_empty())
                .and_then(|v| std::str::from_utf8(v).ok())
        };
        // A row names its record when it has a line and a puzzle.
        let place = match (found(0).and_then(|l| l.trim().parse().ok()), found(2)) {
            (Some(line), Some(puzzle)) => Some(RecordRef {
                file: found(1),
                line,
                puzzle,
                regions: found(3),
            }),
            _ => None,
        };
        let row_error = |problem: super::rating::RatingProblem| ReadError::Row {
            path: path.to_path_buf(),
            line: record.line,
            problem: problem.into(),
        };
        match rows {
            Rows::Rate => {
                let group = by.map(|_| String::from_utf8_lossy(&fields[6]));
                let fields = std::array::from_fn(|i| fields[i].as_slice());
                let row =
                    super::rating::RatedRow::parse(fields, group.as_deref()).map_err(row_error)?;
                each(&ResultRow::Rate(row), record.line, form()?)?;
                continue;
            }
            Rows::Se => {
                let group = by.map(|_| String::from_utf8_lossy(&fields[7]));
                let fields = std::array::from_fn(|i| fields[i].as_slice());
                let row = super::rating::se::SeRow {
                    record: place,
                    ..super::rating::se::SeRow::parse(fields, group.as_deref())
                        .map_err(row_error)?
                };
                each(&ResultRow::Se(row), record.line, form()?)?;
                continue;
            }
            Rows::Solve => {}
        }
        let group = by.map(|_| String::from_utf8_lossy(&fields[8]));
        let row_problem = |problem| ReadError::Row {
            path: path.to_path_buf(),
            line: record.line,
            problem,
        };
        let row = build_row(
            &fields[0],
            |i| count(Counter::ALL[i], &fields[1 + i]),
            group.as_deref(),
        )
        .map_err(row_problem)?;
        let solutions = found(4)
            .map(|field| count_named("solutions", field.as_bytes()))
            .transpose()
            .map_err(row_problem)?
            .flatten();
        plausible::check(row.status, row.counters.as_ref(), solutions)
            .map_err(|e| row_problem(e.into()))?;
        let form = form()?;
        let row = match place {
            Some(place) => row.about(place),
            None => row,
        };
        each(&ResultRow::Solve(row), record.line, form)?;
    }
    Ok(())
}

/// A counter field: empty is `None`.
fn count(counter: Counter, field: &[u8]) -> Result<Option<u64>, RowProblem> {
    count_named(counter.name(), field)
}

/// A count in the column `column`: empty is `None`.
fn count_named(column: &'static str, field: &[u8]) -> Result<Option<u64>, RowProblem> {
    let field = field.trim_ascii();
    if field.is_empty() {
        return Ok(None);
    }
    std::str::from_utf8(field)
        .ok()
        .and_then(|text| text.parse().ok())
        .map(Some)
        .ok_or_else(|| RowProblem::NotACount {
            column,
            found: quote(&String::from_utf8_lossy(field)),
        })
}

/// `text` in single quotes, control characters escaped, cut after 40 characters.
pub(super) fn quote(text: &str) -> String {
    let mut shown: String = text.chars().take(40).flat_map(char::escape_debug).collect();
    if text.chars().nth(40).is_some() {
        shown.push_str("...");
    }
    format!("'{shown}'")
}

/// A row from its status and its counters (`count(i)` is counter `Counter::ALL[i]`).
pub(super) fn build_row<'g>(
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
        record: None,
    })
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
    fn a_file_of_puzzles_is_told_and_the_command_that_makes_results_shown() {
        let make = "stats summarises what solve or rate wrote; make results first with \
                    `sudoku-bulk solve r.csv -o results.csv`, then run `sudoku-bulk stats results.csv`";
        let kaggle = format!("quizzes,solutions\n{},{}\n", "0".repeat(81), "1".repeat(81));
        assert_eq!(
            read(&kaggle, None).unwrap_err().to_string(),
            format!(
                "r.csv: this looks like a file of puzzles, not of results (no column 'status'; \
                 its columns are quizzes, solutions): {make}"
            )
        );
        let lines = format!("{}\n{}\n", ".".repeat(81), "1".repeat(81));
        assert_eq!(
            read(&lines, None).unwrap_err().to_string(),
            format!(
                "r.csv: this looks like a file of puzzles, not of results (its first line is a \
                 puzzle, and it has no column 'status'): {make}"
            )
        );
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
