//! Summaries over result files: the JSON equals a recomputation from the rows, parts merge to
//! the whole (also through saved JSON), groups add up, and merging is associative and
//! commutative.
//!
//! The result files are written here, in the columns of `solve`'s output, from puzzles of
//! `data/` solved with the library; a few rows are made invalid, unsolvable or out of budget.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use proptest::prelude::*;
use serde_json::Value;
use sudoku_bulk::report::{html, text};
use sudoku_bulk::row::{SolveStatus, Status};
use sudoku_bulk::solver::{SearchStats, SolveOptions, solve};
use sudoku_bulk::stats::document as json;
use sudoku_bulk::stats::read::{ReadError, read_paths};
use sudoku_bulk::stats::{Counter, PER_VALUE_SPAN, RecordRef, Row, Summary};
use sudoku_bulk::{Grid, Layout};

/// One result row, as `solve` writes it.
#[derive(Debug, Clone)]
struct ResultRow {
    puzzle: String,
    solution: String,
    status: SolveStatus,
    solutions: u64,
    counters: Option<SearchStats>,
    error: String,
    /// A kept input column: which data file the puzzle came from.
    source: String,
    /// The record's line in the results (1-based among the records of the dataset).
    line: u64,
}

impl ResultRow {
    fn row(&self, by: Option<&str>) -> Row<'_> {
        let group = by.map(|column| match column {
            "source" => self.source.as_str(),
            "status" => self.status.name(),
            other => panic!("no column {other} in the test rows"),
        });
        // The reader names a record that has a line and a puzzle.
        let record = (!self.puzzle.is_empty()).then_some(RecordRef {
            file: None,
            line: self.line,
            puzzle: &self.puzzle,
            regions: None,
        });
        Row {
            status: self.status,
            counters: self.counters,
            group,
            record,
        }
    }
}

fn puzzles(name: &str, count: usize) -> Vec<String> {
    crate::workdir::puzzles(name, count)
}

/// Solves `text` as `solve` would, with a recursion budget.
fn result(text: &str, source: &str, max_recursions: u64) -> ResultRow {
    let mut row = ResultRow {
        puzzle: String::new(),
        solution: String::new(),
        status: SolveStatus::Invalid,
        solutions: 0,
        counters: None,
        error: String::new(),
        source: source.to_string(),
        line: 0,
    };
    let grid: Grid = match text.parse() {
        Ok(grid) => grid,
        Err(e) => {
            row.error = e.to_string();
            return row;
        }
    };
    row.puzzle = grid.to_line();
    let options = SolveOptions {
        max_recursions,
        ..SolveOptions::default()
    };
    match solve(&grid, &Layout::standard(), &options) {
        Ok(outcome) => {
            row.status = outcome.status.into();
            row.solutions = outcome.solutions;
            row.counters = Some(outcome.stats);
            row.solution = outcome.solution.map(|g| g.to_line()).unwrap_or_default();
        }
        Err(conflict) => row.error = conflict.to_string(),
    }
    row
}

/// Puzzles from three data files, a few out of budget, and hand-made invalid and unsolvable
/// records, interleaved so that every part of a split holds several kinds.
fn dataset() -> Vec<ResultRow> {
    let mut rows = Vec::new();
    for (i, p) in puzzles("puzzles2_17_clue.txt.gz", 150).iter().enumerate() {
        rows.push(result(p, "17_clue", u64::MAX));
        if i % 10 == 3 {
            rows.push(result(
                "12345678.........9...............................................................",
                "hand",
                u64::MAX,
            ));
        }
    }
    for (i, p) in puzzles("puzzles5_forum_hardest_1905_11+.txt.gz", 150)
        .iter()
        .enumerate()
    {
        let budget = if i % 25 == 0 { 20 } else { u64::MAX };
        rows.push(result(p, "forum, hardest", budget));
        if i % 30 == 1 {
            rows.push(result("11..", "hand", u64::MAX));
            rows.push(result(&format!("11{}", ".".repeat(79)), "hand", u64::MAX));
        }
    }
    for p in puzzles("puzzles7_serg_benchmark.txt.gz", 20) {
        rows.push(result(&p, "serg", u64::MAX));
    }
    for (i, row) in rows.iter_mut().enumerate() {
        row.line = i as u64 + 1;
    }
    rows
}

fn counter_cells(counters: &Option<SearchStats>) -> Vec<String> {
    Counter::ALL
        .iter()
        .map(|c| counters.map_or(String::new(), |s| c.of(&s).to_string()))
        .collect()
}

/// The rows as `solve --output-format csv` writes them, with a kept `source` column.
fn write_csv(path: &Path, rows: &[ResultRow]) {
    let mut out = csv::Writer::from_path(path).unwrap();
    out.write_record([
        "line",
        "puzzle",
        "solution",
        "status",
        "solutions",
        "recursions",
        "max_depth",
        "guesses",
        "backtracks",
        "naked_singles",
        "hidden_singles",
        "givens",
        "error",
        "source",
    ])
    .unwrap();
    for r in rows {
        let mut record = vec![
            r.line.to_string(),
            r.puzzle.clone(),
            r.solution.clone(),
            r.status.name().to_string(),
            r.solutions.to_string(),
        ];
        record.extend(counter_cells(&r.counters));
        record.push(r.error.clone());
        record.push(r.source.clone());
        out.write_record(&record).unwrap();
    }
    out.flush().unwrap();
}

/// The rows as `solve --output-format jsonl` writes them.
fn write_jsonl(path: &Path, rows: &[ResultRow]) {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for r in rows {
        let mut object = serde_json::Map::new();
        object.insert("line".into(), r.line.into());
        object.insert("puzzle".into(), r.puzzle.clone().into());
        object.insert("status".into(), r.status.name().into());
        for c in Counter::ALL {
            let value = r.counters.map_or(Value::Null, |s| c.of(&s).into());
            object.insert(c.name().into(), value);
        }
        object.insert("source".into(), r.source.clone().into());
        writeln!(out, "{}", Value::Object(object)).unwrap();
    }
    out.flush().unwrap();
}

fn summary_of(rows: &[ResultRow], by: Option<&str>) -> Summary {
    let mut s = by.map_or_else(Summary::new, Summary::grouped_by);
    for r in rows {
        s.add(&r.row(by));
    }
    s
}

/// Every number of one summary body, recomputed from `rows` by sorting values.
fn expected_body(rows: &[&ResultRow]) -> BTreeMap<String, Value> {
    let records = rows.len() as u64;
    let share = |count: u64| {
        if records == 0 {
            Value::Null
        } else {
            (count as f64 / records as f64).into()
        }
    };
    let mut body = BTreeMap::new();
    body.insert("records".to_string(), records.into());
    let mut status = serde_json::Map::new();
    let mut status_share = serde_json::Map::new();
    for &s in SolveStatus::ALL {
        let count = rows.iter().filter(|r| r.status == s).count() as u64;
        status.insert(s.name().into(), count.into());
        status_share.insert(s.name().into(), share(count));
    }
    body.insert("status".to_string(), status.into());
    body.insert("status_share".to_string(), status_share.into());
    let without = rows
        .iter()
        .filter(|r| r.status == SolveStatus::Solved && r.counters.unwrap().guesses == 0)
        .count() as u64;
    body.insert("solved_without_guess".to_string(), without.into());
    body.insert("solved_without_guess_share".to_string(), share(without));

    let mut counters = serde_json::Map::new();
    for c in Counter::ALL {
        let mut values: Vec<u64> = rows
            .iter()
            .filter_map(|r| r.counters.map(|s| c.of(&s)))
            .collect();
        values.sort_unstable();
        let n = values.len() as u64;
        let nearest_rank = |p: u64| -> Value {
            if n == 0 {
                return Value::Null;
            }
            let rank = (p * n).div_ceil(100).max(1);
            values[rank as usize - 1].into()
        };
        let sum: u128 = values.iter().map(|&v| u128::from(v)).sum();
        let mut by_value = serde_json::Map::new();
        for &v in &values {
            let entry = by_value.entry(v.to_string()).or_insert(Value::from(0u64));
            *entry = (entry.as_u64().unwrap() + 1).into();
        }
        let mut d = serde_json::Map::new();
        d.insert("count".into(), n.into());
        d.insert("sum".into(), serde_json::to_value(sum).unwrap());
        d.insert("min".into(), values.first().copied().into());
        d.insert(
            "mean".into(),
            if n == 0 {
                Value::Null
            } else {
                (sum as f64 / n as f64).into()
            },
        );
        d.insert("p50".into(), nearest_rank(50));
        d.insert("p90".into(), nearest_rank(90));
        d.insert("p99".into(), nearest_rank(99));
        d.insert("max".into(), values.last().copied().into());
        d.insert("histogram".into(), expected_histogram(c, &values));
        d.insert("values".into(), by_value.into());
        counters.insert(c.name().into(), d.into());
    }
    body.insert("counters".to_string(), counters.into());
    body
}

/// The histogram by its definition: bucket bounds from the value's bits (or the value itself),
/// every bucket between the first and the last present.
fn expected_histogram(counter: Counter, sorted: &[u64]) -> Value {
    let (Some(&first), Some(&last)) = (sorted.first(), sorted.last()) else {
        return Value::Array(Vec::new());
    };
    let per_value =
        matches!(counter, Counter::MaxDepth | Counter::Givens) && last - first < PER_VALUE_SPAN;
    let bucket_of = |v: u64| -> (u64, u64) {
        if per_value || v == 0 {
            (v, v)
        } else {
            let from = 1u64 << (63 - v.leading_zeros());
            (from, from + (from - 1))
        }
    };
    let mut buckets = Vec::new();
    let mut bucket = bucket_of(first);
    loop {
        let count = sorted
            .iter()
            .filter(|&&v| bucket.0 <= v && v <= bucket.1)
            .count() as u64;
        buckets.push(serde_json::json!({"from": bucket.0, "to": bucket.1, "count": count}));
        if bucket.1 >= last {
            break;
        }
        bucket = bucket_of(bucket.1 + 1);
    }
    Value::Array(buckets)
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// The fields of `body` named in `expected`, with `expected`'s values side by side on failure.
fn assert_body(got: &Value, expected: &BTreeMap<String, Value>, context: &str) {
    for (field, want) in expected {
        if field == "counters" {
            for (counter, want) in want.as_object().unwrap() {
                for (k, want) in want.as_object().unwrap() {
                    let got = &got["counters"][counter][k];
                    assert_eq!(got, want, "{context}: counters.{counter}.{k}");
                }
            }
        } else {
            assert_eq!(&got[field], want, "{context}: {field}");
        }
    }
}

#[test]
fn json_of_a_results_file_equals_a_recomputation_from_its_rows() {
    let rows = dataset();
    // The data set has every status but stuck (no algorithm here stops without guessing).
    for s in &SolveStatus::ALL[..5] {
        assert!(rows.iter().any(|r| r.status == *s), "no {s} row");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.csv");
    write_csv(&path, &rows);

    let whole = read_paths(&[&path], None).unwrap();
    let doc = parse(&json::to_string(&whole));
    assert_eq!(doc["format"], "sudoku-bulk-summary");
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["by"], Value::Null);
    assert_eq!(doc["groups"], serde_json::json!({}));
    let all: Vec<&ResultRow> = rows.iter().collect();
    assert_body(&doc, &expected_body(&all), "whole");

    let grouped = read_paths(&[&path], Some("source")).unwrap();
    let doc = parse(&json::to_string(&grouped));
    assert_eq!(doc["by"], "source");
    assert_body(&doc, &expected_body(&all), "whole of grouped");
    let sources: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r.source.as_str()).collect();
    assert_eq!(doc["groups"].as_object().unwrap().len(), sources.len());
    for source in sources {
        let members: Vec<&ResultRow> = rows.iter().filter(|r| r.source == source).collect();
        assert_body(&doc["groups"][source], &expected_body(&members), source);
    }
}

#[test]
fn jsonl_and_gzip_inputs_give_the_same_summary_as_csv() {
    let rows = dataset();
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("r.csv");
    let jsonl_path = dir.path().join("r.jsonl");
    write_csv(&csv_path, &rows);
    write_jsonl(&jsonl_path, &rows);
    let gz_path = dir.path().join("r.jsonl.gz");
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz_path).unwrap(),
        flate2::Compression::fast(),
    );
    gz.write_all(&std::fs::read(&jsonl_path).unwrap()).unwrap();
    gz.finish().unwrap();

    let from_csv = read_paths(&[&csv_path], Some("source")).unwrap();
    assert_eq!(from_csv, summary_of(&rows, Some("source")));
    assert_eq!(
        read_paths(&[&jsonl_path], Some("source")).unwrap(),
        from_csv
    );
    assert_eq!(read_paths(&[&gz_path], Some("source")).unwrap(), from_csv);
}

#[test]
fn summary_of_parts_equals_summary_of_their_concatenation() {
    let rows = dataset();
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = rows.split_at(rows.len() / 3);
    let a_path = dir.path().join("a.csv");
    let b_path = dir.path().join("b.csv");
    let all_path = dir.path().join("all.csv");
    write_csv(&a_path, a);
    write_csv(&b_path, b);
    write_csv(&all_path, &rows);

    for by in [None, Some("source")] {
        let whole = read_paths(&[&all_path], by).unwrap();
        assert_eq!(read_paths(&[&a_path, &b_path], by).unwrap(), whole);
        assert_eq!(read_paths(&[&b_path, &a_path], by).unwrap(), whole);
        assert_eq!(
            json::to_string(&read_paths(&[&a_path, &b_path], by).unwrap()),
            json::to_string(&whole)
        );

        // Through saved JSON summaries: read back, and given to the reader as inputs.
        let a_json = dir.path().join("a.json");
        let b_json = dir.path().join("b.json");
        std::fs::write(
            &a_json,
            json::to_string(&read_paths(&[&a_path], by).unwrap()),
        )
        .unwrap();
        std::fs::write(
            &b_json,
            json::to_string(&read_paths(&[&b_path], by).unwrap()),
        )
        .unwrap();
        let mut merged = json::from_str(&std::fs::read_to_string(&a_json).unwrap()).unwrap();
        merged
            .merge(&json::from_str(&std::fs::read_to_string(&b_json).unwrap()).unwrap())
            .unwrap();
        assert_eq!(merged, whole);
        assert_eq!(read_paths(&[&a_json, &b_json], by).unwrap(), whole);
        // A summary file and a results file mix.
        assert_eq!(read_paths(&[&a_json, &b_path], by).unwrap(), whole);
    }
}

#[test]
fn a_grouped_summary_file_reads_ungrouped_but_not_regrouped() {
    let rows = dataset();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.json");
    std::fs::write(&path, json::to_string(&summary_of(&rows, Some("source")))).unwrap();
    assert_eq!(read_paths(&[&path], None).unwrap(), summary_of(&rows, None));
    let err = read_paths(&[&path], Some("status")).unwrap_err();
    assert!(matches!(err, ReadError::Regroup { .. }), "{err}");
    assert!(err.to_string().contains("grouped by 'source'"), "{err}");
}

#[test]
fn groups_add_up_to_the_whole() {
    let rows = dataset();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.csv");
    write_csv(&path, &rows);
    for by in ["source", "givens", "status"] {
        let grouped = read_paths(&[&path], Some(by)).unwrap();
        let mut total = Summary::new();
        for group in grouped.groups().values() {
            total.merge(group).unwrap();
        }
        // Groups keep no list of the hardest records: the whole has it.
        let ungrouped = read_paths(&[&path], None).unwrap();
        assert!(total.hardest().is_empty());
        assert_eq!(grouped.hardest(), ungrouped.hardest());
        assert_eq!(grouped.hardest().records().len(), 20);
        let counts = |s: &Summary| {
            let mut v = parse(&json::to_string(s));
            v.as_object_mut().unwrap().remove("hardest");
            v
        };
        assert_eq!(
            counts(&total),
            counts(&grouped.clone().ungrouped()),
            "by {by}"
        );
        assert_eq!(counts(&total), counts(&ungrouped), "by {by}");
        let records: u64 = grouped.groups().values().map(Summary::records).sum();
        assert_eq!(records, rows.len() as u64);
    }
    // Grouping by givens: each group holds exactly the rows with that many givens (invalid
    // rows have none and form the empty group).
    let by_givens = read_paths(&[&path], Some("givens")).unwrap();
    for (key, group) in by_givens.groups() {
        let members: Vec<&ResultRow> = rows
            .iter()
            .filter(|r| r.counters.map_or(String::new(), |s| s.givens.to_string()) == *key)
            .collect();
        assert_eq!(group.records(), members.len() as u64, "givens {key}");
        if !key.is_empty() {
            let givens = group.counter(Counter::Givens);
            assert_eq!(givens.min(), givens.max());
            assert_eq!(givens.min().unwrap().to_string(), *key);
        }
    }
}

#[test]
fn read_errors_name_the_file_and_line() {
    let rows = dataset();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.csv");
    write_csv(&path, &rows[..10]);
    let mut text = std::fs::read_to_string(&path).unwrap();
    // Line 8 is the 7th row; replace its status.
    let line7: Vec<&str> = text.lines().collect();
    let bad = line7[7].replacen(rows[6].status.name(), "finished", 1);
    text = text.replacen(line7[7], &bad, 1);
    std::fs::write(&path, text).unwrap();
    let err = read_paths(&[&path], None).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("{}:8: unknown status 'finished'", path.display())),
        "{err}"
    );

    let missing = dir.path().join("missing.csv");
    let err = read_paths(&[&missing], None).unwrap_err().to_string();
    assert!(err.starts_with(&missing.display().to_string()), "{err}");
}

#[test]
fn text_and_html_show_the_summary_of_real_results() {
    let rows = dataset();
    let s = summary_of(&rows, Some("source"));
    let table = text::render(&s, true);
    assert!(
        table.starts_with(&format!("records: {}\n", rows.len())),
        "{table}"
    );
    let solved = rows
        .iter()
        .filter(|r| r.status == SolveStatus::Solved)
        .count();
    assert!(
        table.lines().any(|l| l
            .split_whitespace()
            .take(2)
            .eq(["solved", solved.to_string().as_str()])),
        "{table}"
    );
    assert!(
        table.contains("\n== source = forum, hardest ==\n"),
        "{table}"
    );

    let page = html::render(&s, &html::About::default()).unwrap();
    assert_eq!(page.matches("<svg").count(), 6);
    assert!(page.contains("forum, hardest"));
}

/// A random row: any status, counters spread over small (dense) and large (sparse) values.
fn arb_row() -> impl Strategy<Value = (SolveStatus, [u64; 7], u8)> {
    (
        prop::sample::select(SolveStatus::ALL.to_vec()),
        prop::array::uniform7(prop_oneof![0u64..20, 200u64..400, 1_000u64..100_000]),
        0u8..4,
    )
}

fn summarise(rows: &[(SolveStatus, [u64; 7], u8)]) -> Summary {
    let mut s = Summary::grouped_by("g");
    for (status, values, group) in rows {
        let counters = (*status != SolveStatus::Invalid).then_some(SearchStats {
            recursions: values[0],
            max_depth: values[1],
            guesses: values[2],
            backtracks: values[3],
            naked_singles: values[4],
            hidden_singles: values[5],
            givens: values[6],
        });
        let group = group.to_string();
        // Where the record is: the counters make its line, so the parts of a split agree.
        let puzzle = format!("{values:?}");
        s.add(&Row {
            status: *status,
            counters,
            group: Some(&group),
            record: Some(RecordRef {
                file: None,
                line: values[1],
                puzzle: &puzzle,
                regions: None,
            }),
        });
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn merging_parts_in_any_order_gives_the_whole(
        rows in prop::collection::vec(arb_row(), 0..60),
        cut1 in 0usize..60,
        cut2 in 0usize..60,
    ) {
        let (i, j) = (cut1.min(cut2).min(rows.len()), cut1.max(cut2).min(rows.len()));
        let whole = summarise(&rows);
        let (a, b, c) = (summarise(&rows[..i]), summarise(&rows[i..j]), summarise(&rows[j..]));

        let mut ab_c = a.clone();
        ab_c.merge(&b).unwrap();
        ab_c.merge(&c).unwrap();
        let mut bc = b.clone();
        bc.merge(&c).unwrap();
        let mut a_bc = a.clone();
        a_bc.merge(&bc).unwrap();
        let mut c_b_a = c.clone();
        c_b_a.merge(&b).unwrap();
        c_b_a.merge(&a).unwrap();
        prop_assert_eq!(&ab_c, &whole);
        prop_assert_eq!(&a_bc, &whole);
        prop_assert_eq!(&c_b_a, &whole);

        // The same through JSON: each part saved, read back, merged.
        let mut through_json = Summary::default();
        for part in [&c, &a, &b] {
            through_json.merge(&json::from_str(&json::to_string(part)).unwrap()).unwrap();
        }
        prop_assert_eq!(&through_json, &whole);
        prop_assert_eq!(json::to_string(&through_json), json::to_string(&whole));
    }
}
