//! The record path under arbitrary bytes: what the fuzz targets in `fuzz/` call, and what the
//! corpus replay test runs on every saved input under plain `cargo test`.
//!
//! [`check_bytes`] reads the bytes with one reader, hands every record to the same batch code a
//! run uses (parse, givens check, search, independent verifier), and checks the promises a run
//! makes: no panic, no solver bug, records in increasing line order with bounded text, one row
//! per record that reads back as CSV and as a JSON object, and every row reported `solved` or
//! `multiple` holding a solution of its puzzle that the verifier accepts, with `solved` agreeing
//! with a second, plain search.

use std::io::BufReader;

use crate::format::{self, InputFormat, MAX_LINE, OutputFormat, ReadOptions, RowWriter};
use crate::grid::{CELLS, Grid};
use crate::layout::Layout;
use crate::solver::{self, Algorithm, SolveOptions, Status};

use super::feed::Item;
use super::pool::Work;
use super::{Job, Settings, VerifyOptions};

/// The search budget per puzzle: enough for any real puzzle, small enough that a fuzz input
/// full of near-empty grids stays fast.
const BUDGET: u64 = 100_000;

/// What [`check_bytes`] saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Checked {
    /// Records read (by the solve pass).
    pub records: u64,
    /// Rows reported `solved` or `multiple`, each checked by the verifier.
    pub solved: u64,
}

/// Drives `bytes` through the reader of `format` and the solve job (and the verify job, for the
/// formats that hold solutions), checking every promise listed in the [module
/// documentation](self). `Err` describes the first broken one. The first byte, when there is
/// one, also picks the reader's buffer size, so that lines straddle buffer refills.
pub fn check_bytes(format: InputFormat, bytes: &[u8]) -> Result<Checked, String> {
    let mut checked = Checked::default();
    let solve = Job::Solve(SolveOptions {
        max_recursions: BUDGET,
        ..SolveOptions::default()
    });
    let verify = Job::Verify(VerifyOptions {
        unique: true,
        max_recursions: BUDGET,
    });
    let jobs: &[Job] = match format {
        InputFormat::Grid => &[solve],
        InputFormat::Line | InputFormat::Csv | InputFormat::Jsonl => &[solve, verify],
    };
    for job in jobs {
        let Some((items, regions)) = read(format, bytes, job)? else {
            // A file-level problem (a CSV without the needed column): an error, not a crash.
            continue;
        };
        if matches!(job, Job::Solve(_)) {
            checked.records = items.len() as u64;
        }
        for output_format in [OutputFormat::Csv, OutputFormat::Jsonl] {
            let rows = handle(&items, job, output_format, regions)?;
            let solved = check_rows(&items, job, output_format, regions, &rows)?;
            if matches!(job, Job::Solve(_)) && output_format == OutputFormat::Csv {
                checked.solved = solved;
            }
        }
    }
    Ok(checked)
}

/// Every record of `bytes`, checked for order and size, and whether they carry their own region
/// layouts (a CSV `regions` column); `None` when the reader refuses the input as a whole.
fn read(format: InputFormat, bytes: &[u8], job: &Job) -> Result<Option<(Vec<Item>, bool)>, String> {
    let capacity = bytes.first().map_or(8, |&b| usize::from(b % 64) + 1);
    let options = ReadOptions {
        wanted: if matches!(job, Job::Verify(_)) {
            format::Wanted::PuzzleAndSolution
        } else {
            format::Wanted::Puzzle
        },
        ..ReadOptions::default()
    };
    let mut reader =
        match format::reader(format, BufReader::with_capacity(capacity, bytes), &options) {
            Ok(reader) => reader,
            Err(format::ReaderError::Header(_)) => return Ok(None),
            Err(format::ReaderError::Io(e)) => {
                return Err(format!("reading from memory failed: {e}"));
            }
        };
    let mut items: Vec<Item> = Vec::new();
    loop {
        let record = match reader.next_record() {
            Ok(Some(record)) => record,
            Ok(None) => break,
            Err(e) => return Err(format!("reading from memory failed: {e}")),
        };
        if let Some(last) = items.last()
            && (record.line <= last.record.line || record.offset <= last.record.offset)
        {
            return Err(format!(
                "record at line {} (offset {}) after line {} (offset {})",
                record.line, record.offset, last.record.line, last.record.offset
            ));
        }
        let text = record.text_len();
        if text > MAX_LINE + CELLS {
            return Err(format!("record at line {} holds {text} bytes", record.line));
        }
        items.push(Item { source: 0, record });
    }
    Ok(Some((items, reader.has_regions())))
}

/// The settings of a run of `job` writing `output_format`.
fn settings(job: &Job, output_format: OutputFormat) -> Settings {
    Settings {
        output_format,
        summarise: matches!(job, Job::Solve(_)),
        ..Settings::new(*job, 1)
    }
}

/// The rows of `items`, formatted as a run formats them (ending with the `regions` column when
/// `regions` is set).
fn handle(
    items: &[Item],
    job: &Job,
    output_format: OutputFormat,
    regions: bool,
) -> Result<Vec<u8>, String> {
    let settings = settings(job, output_format);
    let shape = super::Shape {
        regions,
        ..super::Shape::default()
    };
    let writer = RowWriter::new(
        output_format,
        super::columns(&settings, &shape),
        super::column_kinds(&settings, &shape),
    );
    let work = Work::new(settings, writer, vec!["fuzz".to_string()], shape);
    let batch = work.process_batch(items);
    if let Some(error) = batch.stop {
        return Err(error.to_string());
    }
    if batch.tally.records() != items.len() as u64 {
        return Err(format!(
            "{} records gave {} rows",
            items.len(),
            batch.tally.records()
        ));
    }
    match batch.rows {
        format::Rows::Text(bytes) => Ok(bytes),
        format::Rows::Columns(_) => Err("the fuzz checks read text rows".to_string()),
    }
}

/// Reads `rows` back and checks each against its record; returns the rows reported solved or
/// multiple (solve only).
fn check_rows(
    items: &[Item],
    job: &Job,
    output_format: OutputFormat,
    regions: bool,
    rows: &[u8],
) -> Result<u64, String> {
    let fields: Vec<Vec<String>> = match output_format {
        OutputFormat::Csv => csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(rows)
            .byte_records()
            .map(|r| {
                r.map(|r| {
                    r.iter()
                        .map(|f| String::from_utf8_lossy(f).into_owned())
                        .collect()
                })
                .map_err(|e| format!("a CSV row does not read back: {e}"))
            })
            .collect::<Result<_, _>>()?,
        OutputFormat::Jsonl => {
            let shape = super::Shape {
                regions,
                ..super::Shape::default()
            };
            let columns = super::columns(&settings(job, output_format), &shape);
            rows.split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .map(|l| json_fields(l, &columns))
                .collect::<Result<_, _>>()?
        }
        OutputFormat::Parquet => return Err("the fuzz checks read text rows".to_string()),
    };
    if fields.len() != items.len() {
        return Err(format!(
            "{} records gave {} {output_format} rows",
            items.len(),
            fields.len()
        ));
    }
    let mut solved = 0;
    for (item, row) in items.iter().zip(&fields) {
        let line = item.record.line.to_string();
        if row.first() != Some(&line) {
            return Err(format!(
                "the row of line {line} says line {:?}",
                row.first()
            ));
        }
        if let Job::Solve(options) = job {
            // line, puzzle, solution, status, ...
            let [_, puzzle, solution, status, ..] = &row[..] else {
                return Err(format!("line {line}: a solve row of {} fields", row.len()));
            };
            // A record with its own regions is checked under them.
            let layout = match row.last().filter(|text| regions && !text.is_empty()) {
                Some(text) => Layout::parse(text.as_bytes())
                    .map_err(|e| format!("line {line}: the regions column does not parse: {e}"))?,
                None => Layout::standard(),
            };
            if status == "solved" || status == "multiple" {
                check_solution(puzzle, solution, status, options, &layout)
                    .map_err(|e| format!("line {line}: {e}"))?;
                solved += 1;
            }
        }
    }
    Ok(solved)
}

/// The values of one JSON row, in column order, written as CSV would write them.
fn json_fields(line: &[u8], columns: &[String]) -> Result<Vec<String>, String> {
    let value: serde_json::Value =
        serde_json::from_slice(line).map_err(|e| format!("a JSON row does not parse: {e}"))?;
    let object = value
        .as_object()
        .ok_or_else(|| "a JSON row is not an object".to_string())?;
    if object.len() != columns.len() {
        return Err(format!("a JSON row has {} keys", object.len()));
    }
    columns
        .iter()
        .map(|c| match object.get(c) {
            Some(serde_json::Value::Null) => Ok(String::new()),
            Some(serde_json::Value::String(s)) => Ok(s.clone()),
            Some(other) => Ok(other.to_string()),
            None => Err(format!("a JSON row has no key {c}")),
        })
        .collect()
}

/// Checks a reported solution with the verifier, and a `solved` one against a plain search.
fn check_solution(
    puzzle: &str,
    solution: &str,
    status: &str,
    options: &SolveOptions,
    layout: &Layout,
) -> Result<(), String> {
    let puzzle: Grid = puzzle
        .parse()
        .map_err(|e| format!("the puzzle column does not parse: {e}"))?;
    let solution: Grid = solution
        .parse()
        .map_err(|e| format!("the {status} row's solution does not parse: {e}"))?;
    crate::verify::verify(&puzzle, &solution, layout)
        .map_err(|e| format!("the reported solution is wrong: {e}"))?;
    if status == "solved" && options.algorithm == Algorithm::Fast {
        let plain = SolveOptions {
            algorithm: Algorithm::Candidates,
            ..*options
        };
        let outcome = solver::solve(&puzzle, layout, &plain)
            .map_err(|e| format!("candidates finds conflicting givens: {e}"))?;
        match outcome.status {
            Status::Solved if outcome.solution == Some(solution) => {}
            Status::GaveUp => {}
            other => {
                return Err(format!(
                    "fast finds one solution, candidates {other} ({:?})",
                    outcome.solution.map(|g| g.to_line())
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_data::{PUZZLE, SOLUTION};

    #[test]
    fn good_and_bad_records_pass_every_check() {
        let text = format!(
            "{PUZZLE} {SOLUTION}\n{}\n\u{0}\u{ff}x\n{PUZZLE}",
            ".".repeat(81)
        );
        let checked = check_bytes(InputFormat::Line, text.as_bytes()).unwrap();
        assert_eq!(
            checked,
            Checked {
                records: 4,
                solved: 3
            }
        );
        let csv = format!("puzzle,solution\n{PUZZLE},{SOLUTION}\n\"a\nb\",\n");
        let checked = check_bytes(InputFormat::Csv, csv.as_bytes()).unwrap();
        assert_eq!(
            checked,
            Checked {
                records: 2,
                solved: 1
            }
        );
        assert_eq!(
            check_bytes(InputFormat::Csv, b"no,column\n1,2\n").unwrap(),
            Checked::default()
        );
        let checked = check_bytes(InputFormat::Grid, PUZZLE.as_bytes()).unwrap();
        assert_eq!(
            checked,
            Checked {
                records: 1,
                solved: 1
            }
        );
    }

    #[test]
    fn a_wrong_solution_is_caught() {
        let mut wrong = SOLUTION.to_string();
        wrong.replace_range(0..2, "35");
        let options = SolveOptions::default();
        let err =
            check_solution(PUZZLE, &wrong, "solved", &options, &Layout::standard()).unwrap_err();
        assert!(err.starts_with("the reported solution is wrong"), "{err}");
        assert!(check_solution(PUZZLE, SOLUTION, "solved", &options, &Layout::standard()).is_ok());
        // A second solution claimed unique: the plain search disagrees.
        let open = ".".repeat(81);
        let any = crate::generate::random_solution(&Layout::standard(), 1, 100_000, 10)
            .unwrap()
            .to_line();
        let err = check_solution(&open, &any, "solved", &options, &Layout::standard()).unwrap_err();
        assert!(
            err.starts_with("fast finds one solution, candidates multiple"),
            "{err}"
        );
    }
}
