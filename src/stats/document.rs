//! The summary file's schema: the JSON document that `stats --json` prints and `solve --summary`
//! and `merge` write, its writer and its reader, so that summaries saved by separate runs merge
//! later. Everything that reads or writes a summary file goes through this module.
//!
//! # Format (version 1)
//! One object. Field names are stable; a new field may be added in a later version, an
//! existing one is never renamed or changed in meaning without a new `version`.
//!
//! ```text
//! {
//!   "format": "sudoku-bulk-summary",     always this string
//!   "version": 1,
//!   "records": 4000,                     result rows summarised
//!   "status": {                          records per status of the search (rows of solve and
//!     "solved": 3998, "multiple": 0, "unsolvable": 0, "invalid": 2, "gave_up": 0, "stuck": 0
//!   },                                   verify); they add up to records. Rows of rate have
//!                                        statuses of their own, counted in rating.status or
//!                                        se_rating.status (which add up to records): here and
//!                                        in "counters" they count 0
//!   "status_share": { "solved": 0.9995, ... },   status / records (null when records is 0)
//!   "solved_without_guess": 1234,        status solved and guesses = 0
//!   "solved_without_guess_share": 0.3085,
//!   "counters": {                        one entry per counter, in this order:
//!     "recursions": {                    recursions, max_depth, guesses, backtracks,
//!       "count": 3998,                   naked_singles, hidden_singles, givens
//!       "sum": 100471,                   exact sum of the values
//!       "min": 1, "mean": 25.13, "p50": 12, "p90": 54, "p99": 210, "max": 1890,
//!       "histogram": [ {"from": 0, "to": 0, "count": 0}, {"from": 1, "to": 1, "count": 17}, ... ],
//!       "values": { "1": 17, "2": 40, ... }   value -> records with that value
//!     }, ...
//!   },
//!   "rating": { ... },                   only for rows of rate: see stats::rating::Doc
//!   "se_rating": { ... },                only for rows of rate --scale se: see
//!                                        stats::rating::se::SeDoc
//!   "by": "givens",                      grouping column, or null
//!   "bins": null,                        or, when the groups are ranges of a numeric column:
//!                                        { "chosen": "given" | "quantiles" | "automatic",
//!                                          "quantiles": 10 (bins asked, or null),
//!                                          "edges": ["0", "1.5", "3"] (as text: exact) }
//!   "groups": {                          per value of that column (per bin, named by its
//!     "17": { "records": ..., "status": ..., ..., "counters": ... }   label: "[0, 1.5]",
//!   },                                   "(1.5, 3]", "< 0", "> 3"): "records" to "counters"
//!   "hardest": [                         the 20 records that needed the most search
//!     { "file": null, "line": 118, "puzzle": "4.....8.5...", "status": "solved",
//!       "recursions": 945, "max_depth": 21, "guesses": 944, ...,  "givens": 24 }
//!   ],                                   (a "regions" member for a jigsaw record)
//!   "se_hardest": [                      only for rows of rate --scale se: the 20 highest
//!     { "file": null, "line": 7,         ER (er_at_least when the path stopped), then EP, ED
//!       "puzzle": "...", "er": 9.6, "er_at_least": 9.6, "ep": 1.2, "ed": 1.2,
//!       "hardest": "Dynamic Contradiction Forcing Chains", "steps": 93 }
//!   ],
//!   "canonical": {                       only when counted (--canonical): see stats::distinct
//!     "puzzles": 3998,                   rows whose puzzle has a canonical form
//!     "distinct": 3990,                  distinct canonical forms among them
//!     "digests": ["0a3f...", ...]        each form's digest (32 hex digits), sorted
//!   },
//!   "run": {                             in the summary of solve --summary and merge:
//!     "tool_version": "0.1.0",           what the rows were made from and how
//!     "inputs": [                        the inputs in order, each whole (see RunInfo)
//!       { "name": "data/a.txt.gz", "bytes": 90234, "digest": "3f1c...(32 hex digits)" }
//!     ],
//!     "options": { "algorithm": "fast", "max_solutions": 2, ... },
//!     "shard": { "index": 3, ... }       only for a shard (solve --shard):
//!   }                                    { "index", "count", "output_bytes", "output_digest" }
//! }
//! ```
//!
//! `count` is the number of records that carry counters (all but `invalid`); `min` to `max`
//! are null when it is 0. Quantiles follow the nearest-rank rule and histograms the buckets
//! defined in [`crate::stats`] (powers of two; one bucket per value for `max_depth` and
//! `givens`, unless their values span more than 256).
//!
//! Groups are described by the same fields as the whole; `hardest` is listed for the whole
//! only, ranked as [`super::hardest`] defines (by recursions, then guesses, then where the
//! record is), and `file` is the record's input when the results name it (several inputs).
//!
//! Reading takes `records`, `status`, `solved_without_guess`, each counter's `values`, `by`,
//! `bins`, `groups` and `hardest`; every other field is derived from them and ignored. The
//! numbers read must agree with each other ([`Summary::check`]: groups add up to the whole,
//! are bins when there are bins, the hardest records are among the counted values), so a
//! truncated or hand-edited file is refused rather than merged.
//!
//! `run` (first for shards, then for every `solve --summary` and `merge`), `bins` and
//! `hardest` were added within version 1: readers that do not know them ignore them, and
//! summaries with and without them merge (the hardest records are then those of the summaries
//! that list them). [`read_saved`] reads `run` too, for `merge` and the report's header. `canonical` was added
//! within version 1 too, and is read back (its digests are what merges).
//!
//! `rating` was added within version 1 too: `records` counts the rows of `solve` and of
//! `rate`, `status` and `counters` describe the rows of `solve`, `rating` (in the whole and in
//! each group that has any) those of `rate` ([`super::rating::Doc`]), and it is read back.
//! `se_rating` likewise, for the rows of `rate --scale se` ([`super::rating::se::SeDoc`]).

use std::collections::BTreeMap;
use std::io;

use serde::{Deserialize, Serialize};

use super::bins::Bins;
use super::hardest::Hardest;
use super::{Bucket, Counter, Distribution, Inconsistency, Summary};
use crate::files::digest::{Digest, Prefix};
use crate::row::{SolveStatus, Tally};

/// The value of the `format` field.
pub const FORMAT: &str = "sudoku-bulk-summary";

/// The format version this build writes and reads.
pub const VERSION: u64 = 1;

/// Why a text is not a summary this build can read.
#[derive(Debug, thiserror::Error)]
pub enum JsonError {
    /// Not JSON at all.
    #[error("not JSON: {0}")]
    Syntax(serde_json::Error),
    /// JSON, but not a summary document.
    #[error("not a sudoku-bulk summary (no \"format\": \"{FORMAT}\")")]
    NotASummary,
    /// A summary of another format version.
    #[error("summary format version {found}, but this build reads version {VERSION}")]
    Version {
        /// The `version` field as written.
        found: String,
    },
    /// A summary with missing or mistyped fields.
    #[error("malformed summary: {0}")]
    Shape(serde_json::Error),
    /// A summary whose numbers disagree.
    #[error("inconsistent summary: {0}")]
    Inconsistent(#[from] Inconsistency),
}

/// What the rows of a run were made from and how: the `run` field of its summary.
///
/// Two shards with equal `RunInfo` (shard index aside) read the same bytes with the same options
/// and the same version of the tool: they are shards of one run. A run that is not a shard has
/// no `shard`; nor has the summary `merge` writes, which is the one of a single run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The version of sudoku-bulk that wrote the rows.
    pub tool_version: String,
    /// The inputs, in order, each whole: its name, the length of its (decompressed) stream and
    /// the digest of it.
    pub inputs: Vec<Prefix>,
    /// The options that change the bytes of the output, by name.
    pub options: BTreeMap<String, serde_json::Value>,
    /// Which shard the rows are (always present in what this version writes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardInfo>,
}

/// Which shard a summary's rows are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// `K`, from 0.
    pub index: u64,
    /// `N`.
    pub count: u64,
    /// The size of the shard's output file when the shard finished.
    pub output_bytes: u64,
    /// The digest of the shard's output file when the shard finished.
    pub output_digest: Digest,
}

/// A summary document as saved, with its `run` field if it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    /// The counts.
    pub summary: Summary,
    /// What the rows were made from.
    pub run: Option<RunInfo>,
}

/// The summary as a pretty-printed JSON document, ending with a newline.
pub fn to_string(summary: &Summary) -> String {
    to_string_with_run(summary, None)
}

/// The summary as a pretty-printed JSON document with its `run` field, ending with a newline.
pub fn to_string_with_run(summary: &Summary, run: Option<&RunInfo>) -> String {
    let document = Document {
        run,
        ..Document::new(summary)
    };
    let mut text = serde_json::to_string_pretty(&document).expect("a summary always serialises");
    text.push('\n');
    text
}

/// Reads a summary document with its `run` field.
pub fn read_saved(input: impl io::Read) -> Result<Saved, JsonError> {
    let mut value: serde_json::Value = serde_json::from_reader(input).map_err(JsonError::Syntax)?;
    let run = match value.as_object_mut().and_then(|o| o.remove("run")) {
        None | Some(serde_json::Value::Null) => None,
        Some(run) => Some(serde_json::from_value(run).map_err(JsonError::Shape)?),
    };
    Ok(Saved {
        summary: from_value(value)?,
        run,
    })
}

/// Writes [`to_string`] to `out`.
pub fn write(out: &mut impl io::Write, summary: &Summary) -> io::Result<()> {
    out.write_all(to_string(summary).as_bytes())
}

/// Reads a summary document.
pub fn from_slice(bytes: &[u8]) -> Result<Summary, JsonError> {
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(JsonError::Syntax)?;
    from_value(value)
}

/// Reads a summary document.
pub fn from_str(text: &str) -> Result<Summary, JsonError> {
    from_slice(text.as_bytes())
}

/// Reads a summary document.
pub fn from_reader(input: impl io::Read) -> Result<Summary, JsonError> {
    let value: serde_json::Value = serde_json::from_reader(input).map_err(JsonError::Syntax)?;
    from_value(value)
}

fn from_value(value: serde_json::Value) -> Result<Summary, JsonError> {
    if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(JsonError::NotASummary);
    }
    match value.get("version") {
        Some(v) if v.as_u64() == Some(VERSION) => {}
        other => {
            return Err(JsonError::Version {
                found: other.map_or("(none)".to_string(), |v| v.to_string()),
            });
        }
    }
    let summary: Summary = serde_json::from_value(value).map_err(JsonError::Shape)?;
    summary.check()?;
    Ok(summary)
}

#[derive(Serialize)]
struct Document<'a> {
    format: &'static str,
    version: u64,
    #[serde(flatten)]
    body: Body<'a>,
    by: Option<&'a str>,
    bins: Option<&'a Bins>,
    groups: BTreeMap<&'a str, Body<'a>>,
    hardest: &'a Hardest,
    #[serde(skip_serializing_if = "Hardest::is_empty")]
    se_hardest: &'a Hardest<super::rating::se::SeHardRecord>,
    #[serde(skip_serializing_if = "Option::is_none")]
    canonical: Option<&'a super::distinct::DistinctForms>,
    #[serde(skip_serializing_if = "Option::is_none")]
    run: Option<&'a RunInfo>,
}

impl<'a> Document<'a> {
    fn new(summary: &'a Summary) -> Self {
        Document {
            format: FORMAT,
            version: VERSION,
            body: Body::new(summary),
            by: summary.by(),
            bins: summary.bins(),
            groups: summary
                .groups()
                .iter()
                .map(|(key, group)| (key.as_str(), Body::new(group)))
                .collect(),
            hardest: summary.hardest(),
            se_hardest: summary.se_hardest(),
            canonical: summary.canonical(),
            run: None,
        }
    }
}

#[derive(Serialize)]
struct Body<'a> {
    records: u64,
    status: &'a Tally<SolveStatus>,
    status_share: StatusShares,
    solved_without_guess: u64,
    solved_without_guess_share: Option<f64>,
    counters: CounterDocs<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<super::rating::Doc<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    se_rating: Option<super::rating::se::SeDoc<'a>>,
}

impl<'a> Body<'a> {
    fn new(summary: &'a Summary) -> Self {
        let share = |status| summary.share(summary.status().get(status));
        Body {
            records: summary.records(),
            status: summary.status(),
            status_share: StatusShares {
                solved: share(SolveStatus::Solved),
                multiple: share(SolveStatus::Multiple),
                unsolvable: share(SolveStatus::Unsolvable),
                invalid: share(SolveStatus::Invalid),
                gave_up: share(SolveStatus::GaveUp),
                stuck: share(SolveStatus::Stuck),
            },
            solved_without_guess: summary.solved_without_guess(),
            solved_without_guess_share: summary.share(summary.solved_without_guess()),
            counters: CounterDocs {
                recursions: CounterDoc::new(summary, Counter::Recursions),
                max_depth: CounterDoc::new(summary, Counter::MaxDepth),
                guesses: CounterDoc::new(summary, Counter::Guesses),
                backtracks: CounterDoc::new(summary, Counter::Backtracks),
                naked_singles: CounterDoc::new(summary, Counter::NakedSingles),
                hidden_singles: CounterDoc::new(summary, Counter::HiddenSingles),
                givens: CounterDoc::new(summary, Counter::Givens),
            },
            rating: summary.rating().map(super::rating::Doc::new),
            se_rating: summary.se_rating().map(super::rating::se::SeDoc::new),
        }
    }
}

#[derive(Serialize)]
struct StatusShares {
    solved: Option<f64>,
    multiple: Option<f64>,
    unsolvable: Option<f64>,
    invalid: Option<f64>,
    gave_up: Option<f64>,
    stuck: Option<f64>,
}

#[derive(Serialize)]
struct CounterDocs<'a> {
    recursions: CounterDoc<'a>,
    max_depth: CounterDoc<'a>,
    guesses: CounterDoc<'a>,
    backtracks: CounterDoc<'a>,
    naked_singles: CounterDoc<'a>,
    hidden_singles: CounterDoc<'a>,
    givens: CounterDoc<'a>,
}

/// A distribution as the summary document writes it: its statistics, its histogram, and the
/// count of every value. Also written for the rating's distributions (`stats::rating`).
#[derive(Serialize)]
pub(crate) struct CounterDoc<'a> {
    count: u64,
    sum: u128,
    min: Option<u64>,
    mean: Option<f64>,
    p50: Option<u64>,
    p90: Option<u64>,
    p99: Option<u64>,
    max: Option<u64>,
    histogram: Vec<Bucket>,
    /// Serialises as `"values": {...}`.
    #[serde(flatten)]
    distribution: &'a Distribution,
}

impl<'a> CounterDoc<'a> {
    fn new(summary: &'a Summary, counter: Counter) -> Self {
        let d = summary.counter(counter);
        Self::of(d, d.histogram(counter.buckets()))
    }

    /// The document of the distribution `d` with the histogram given.
    pub(crate) fn of(d: &'a Distribution, histogram: Vec<Bucket>) -> Self {
        CounterDoc {
            count: d.count(),
            sum: d.sum(),
            min: d.min(),
            mean: d.mean(),
            p50: d.percentile(50),
            p90: d.percentile(90),
            p99: d.percentile(99),
            max: d.max(),
            histogram,
            distribution: d,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SearchStats;
    use crate::stats::bins::Bins;
    use crate::stats::{RecordRef, Row};

    fn sample(by: Option<&str>) -> Summary {
        let mut s = by.map_or_else(Summary::new, Summary::grouped_by);
        for i in 0..50u64 {
            let stats = SearchStats {
                recursions: 1 + i * i,
                max_depth: 1 + i % 7,
                guesses: i * i,
                backtracks: i,
                naked_singles: 30 + i % 5,
                hidden_singles: 10 + i % 3,
                givens: 17 + i % 4,
            };
            let group = (i % 3).to_string();
            let puzzle = format!("{i:.>81}");
            let row = Row {
                status: if i % 10 == 9 {
                    SolveStatus::Multiple
                } else {
                    SolveStatus::Solved
                },
                counters: Some(stats),
                group: Some(&group),
                record: Some(RecordRef {
                    file: (i % 2 == 0).then_some("a.txt"),
                    line: i + 1,
                    puzzle: &puzzle,
                    regions: None,
                }),
            };
            s.add(&row);
        }
        s.add(&Row::invalid().with_group("0"));
        s
    }

    #[test]
    fn round_trip_keeps_every_count() {
        for by in [None, Some("k")] {
            let s = sample(by);
            let text = to_string(&s);
            assert_eq!(from_str(&text).unwrap(), s);
        }
        assert_eq!(
            from_str(&to_string(&Summary::new())).unwrap(),
            Summary::new()
        );
    }

    #[test]
    fn derived_fields_are_written() {
        let v: serde_json::Value = serde_json::from_str(&to_string(&sample(Some("k")))).unwrap();
        assert_eq!(v["format"], FORMAT);
        assert_eq!(v["version"], 1);
        assert_eq!(v["records"], 51);
        assert_eq!(v["status"]["multiple"], 5);
        assert_eq!(v["status"]["invalid"], 1);
        assert_eq!(v["by"], "k");
        assert_eq!(v["groups"]["0"]["records"], 18);
        let r = &v["counters"]["recursions"];
        assert_eq!(r["count"], 50);
        assert_eq!(r["min"], 1);
        assert_eq!(r["max"], 1 + 49 * 49);
        // Nearest rank: the 25th smallest of 1 + i*i for i in 0..50 is 1 + 24*24.
        assert_eq!(r["p50"], 1 + 24 * 24);
        assert_eq!(r["values"]["1"], 1);
        let empty: serde_json::Value = serde_json::from_str(&to_string(&Summary::new())).unwrap();
        assert!(empty["counters"]["givens"]["mean"].is_null());
        assert!(empty["status_share"]["solved"].is_null());
        assert!(empty["by"].is_null());
    }

    #[test]
    fn refuses_other_documents() {
        assert!(matches!(from_str("[1]"), Err(JsonError::NotASummary)));
        assert!(matches!(from_str("{"), Err(JsonError::Syntax(_))));
        let text = to_string(&sample(None));
        let v2 = text.replace("\"version\": 1", "\"version\": 2");
        assert_eq!(
            from_str(&v2).unwrap_err().to_string(),
            "summary format version 2, but this build reads version 1"
        );
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["records"] = 7.into();
        let err = from_str(&v.to_string()).unwrap_err().to_string();
        assert_eq!(
            err,
            "inconsistent summary: status counts add up to 51, but records is 7"
        );
        v["records"] = "many".into();
        assert!(matches!(from_str(&v.to_string()), Err(JsonError::Shape(_))));
    }

    fn run_info(shard: Option<ShardInfo>) -> RunInfo {
        RunInfo {
            tool_version: "0.1.0".into(),
            inputs: vec![Prefix {
                name: "a.txt".into(),
                bytes: 12,
                digest: crate::files::digest::of(b"twelve bytes"),
            }],
            options: [("seed".to_string(), serde_json::json!(0))].into(),
            shard,
        }
    }

    #[test]
    fn the_run_field_reads_back_and_other_readers_ignore_it() {
        let s = sample(None);
        let shard = ShardInfo {
            index: 1,
            count: 4,
            output_bytes: 99,
            output_digest: crate::files::digest::of(b"rows"),
        };
        for run in [run_info(None), run_info(Some(shard))] {
            let text = to_string_with_run(&s, Some(&run));
            assert_eq!(
                read_saved(text.as_bytes()).unwrap(),
                Saved {
                    summary: s.clone(),
                    run: Some(run.clone())
                }
            );
            assert_eq!(from_str(&text).unwrap(), s);
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["run"]["inputs"][0]["bytes"], 12);
        }
        let plain = to_string(&s);
        assert!(!plain.contains("\"run\""));
        assert_eq!(read_saved(plain.as_bytes()).unwrap().run, None);
        let without_shard = to_string_with_run(&s, Some(&run_info(None)));
        assert!(!without_shard.contains("\"shard\""));
        let mut v: serde_json::Value = serde_json::from_str(&without_shard).unwrap();
        v["run"]["inputs"] = 3.into();
        assert!(matches!(
            read_saved(v.to_string().as_bytes()),
            Err(JsonError::Shape(_))
        ));
    }

    #[test]
    fn bins_and_the_hardest_records_read_back() {
        let binned = sample(Some("k"))
            .binned(Bins::given(&["0.5", "1.5"]).unwrap())
            .unwrap();
        assert_eq!(binned.hardest().records().len(), 20);
        let text = to_string(&binned);
        assert_eq!(from_str(&text).unwrap(), binned);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["bins"]["edges"], serde_json::json!(["0.5", "1.5"]));
        assert_eq!(v["groups"]["< 0.5"]["records"], 18);
        assert_eq!(v["groups"]["[0.5, 1.5]"]["records"], 17);
        assert_eq!(v["groups"]["> 1.5"]["records"], 16);
        let hardest = &v["hardest"][0];
        assert_eq!(hardest["line"], 50);
        assert_eq!(hardest["recursions"], 1 + 49 * 49);
        assert_eq!(hardest["file"], serde_json::Value::Null);
        assert_eq!(v["hardest"][1]["file"], "a.txt");

        // A group that is no bin, a record the counters do not hold: refused.
        let mut bad = v.clone();
        let group = bad["groups"]["> 1.5"].clone();
        bad["groups"].as_object_mut().unwrap().remove("> 1.5");
        bad["groups"]["2"] = group;
        assert_eq!(
            from_str(&bad.to_string()).unwrap_err().to_string(),
            "inconsistent summary: group '2' is not one of the bins"
        );
        let mut bad = v.clone();
        bad["hardest"][0]["recursions"] = 7777.into();
        assert!(from_str(&bad.to_string()).is_err());
        let mut bad = v;
        bad["hardest"].as_array_mut().unwrap().swap(0, 1);
        assert_eq!(
            from_str(&bad.to_string()).unwrap_err().to_string(),
            "inconsistent summary: the list of the hardest records is out of order or too long"
        );
    }

    #[test]
    fn refuses_groups_that_do_not_add_up() {
        let mut v: serde_json::Value =
            serde_json::from_str(&to_string(&sample(Some("k")))).unwrap();
        v["groups"].as_object_mut().unwrap().remove("2");
        let err = from_str(&v.to_string()).unwrap_err().to_string();
        assert_eq!(
            err,
            "inconsistent summary: the groups do not add up to the whole summary"
        );
    }
}
