//! The Sudoku Explainer part of a summary: what `stats` says about the rows of
//! `rate --scale se` ([`crate::rate::se`]). It merges exactly, as the rest of a
//! [`Summary`](crate::stats::Summary) does, and lives beside it
//! ([`Summary::se_rating`](crate::stats::Summary::se_rating)).
//!
//! # Definitions
//! Difficulties (ER, EP, ED) are counted in tenths, as `rate --scale se` writes them (one
//! digit after the point), so sums, means and quantiles are exact.
//! - **records**: rows added, whatever their status; **status counts** add up to it. Only
//!   `rated` rows (a puzzle with one solution) carry a rating.
//! - **complete**: rated rows with an ER: their whole path was found. A rated row without ER
//!   stopped where SE would take a nested forcing chain (not built yet); its `er_at_least` is a
//!   lower bound of its ER (at least 9.5). Rated rows are complete or **unfinished**.
//! - **levels**: rated rows per band of ER, with the bounds SE's own generator uses: easy
//!   1.0-1.2, medium 1.3-1.5, hard 1.6-2.5, fiendish 2.6-6.0, diabolical 6.1 and up ([`SeLevel`]).
//!   An unfinished row is diabolical (its ER is at least 9.5); a puzzle given complete (ER 0.0)
//!   is easy. The levels add up to the rated rows.
//! - **er**, **ep**, **ed**, **steps**: the exact distributions of those columns over the
//!   complete rows; **er_at_least**: that of the lower bound over the unfinished rows. ER's
//!   histogram has one band per whole unit (`1.0-1.9`, `2.0-2.9`, ...).
//! - **hardest**: complete rows per hardest technique (SE's name); a puzzle given complete has
//!   none, so these add up to at most the complete rows.
//!
//! # The row
//! [`SeRow::parse`] reads a row from its `status`, `er`, `ep`, `ed`, `er_at_least`,
//! `hardest` and `steps` fields ([`SE_ROW_COLUMNS`]) and checks that they agree: a complete
//! row has `ed <= ep <= er = er_at_least`; an unfinished one has no ER and `er_at_least` of at
//! least 9.5; any other status leaves them all empty (CSV) or null (JSON lines).

use std::cmp::{Ordering, Reverse};
use std::collections::BTreeMap;

use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use super::row::{RatingProblem, quote, rate_status};
use crate::rate::se::{SeTechnique, UNBUILT_FLOOR, tenths};
use crate::row::{RateStatus, Tally};
use crate::stats::distribution::{Bucket, Buckets, Distribution};
use crate::stats::hardest::Ranked;

/// The columns of a `rate --scale se` row that a summary reads, in this order.
pub const SE_ROW_COLUMNS: [&str; 7] = [
    "status",
    "er",
    "ep",
    "ed",
    "er_at_least",
    "hardest",
    "steps",
];

/// Sudoku Explainer's rating of one puzzle, difficulties in tenths: what `rate --scale se`
/// writes and a summary counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeRated {
    /// ER; `None` when the path needs a technique the rater does not have yet.
    pub er: Option<u64>,
    /// EP, when known.
    pub ep: Option<u64>,
    /// ED, when known.
    pub ed: Option<u64>,
    /// The least ER can be: ER itself when known.
    pub er_at_least: u64,
    /// The technique of the hardest step taken.
    pub hardest: Option<SeTechnique>,
    /// The steps taken.
    pub steps: u64,
}

impl From<&crate::rate::se::SeRating> for SeRated {
    fn from(rating: &crate::rate::se::SeRating) -> SeRated {
        let tenths = |d: f64| u64::from(tenths(d));
        SeRated {
            er: rating.er.map(tenths),
            ep: rating.ep.map(tenths),
            ed: rating.ed.map(tenths),
            er_at_least: tenths(rating.er_at_least),
            hardest: rating.hardest,
            steps: u64::from(rating.steps),
        }
    }
}

/// A band of ER, with the bounds of Sudoku Explainer's generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SeLevel {
    /// ER up to 1.2 (singles in blocks).
    Easy,
    /// ER 1.3 to 1.5.
    Medium,
    /// ER 1.6 to 2.5.
    Hard,
    /// ER 2.6 to 6.0.
    Fiendish,
    /// ER 6.1 and up.
    Diabolical,
}

impl SeLevel {
    /// Every level, easiest first.
    pub const ALL: [SeLevel; 5] = [
        SeLevel::Easy,
        SeLevel::Medium,
        SeLevel::Hard,
        SeLevel::Fiendish,
        SeLevel::Diabolical,
    ];

    /// The level of an ER of `tenths` tenths.
    pub fn of(tenths: u64) -> SeLevel {
        match tenths {
            0..=12 => SeLevel::Easy,
            13..=15 => SeLevel::Medium,
            16..=25 => SeLevel::Hard,
            26..=60 => SeLevel::Fiendish,
            _ => SeLevel::Diabolical,
        }
    }

    /// The level's name.
    pub fn name(self) -> &'static str {
        <SeLevel as super::Scale>::NAMES[self as usize]
    }

    /// The ERs of the level, in words.
    pub fn range(self) -> &'static str {
        match self {
            SeLevel::Easy => "1.0-1.2",
            SeLevel::Medium => "1.3-1.5",
            SeLevel::Hard => "1.6-2.5",
            SeLevel::Fiendish => "2.6-6.0",
            SeLevel::Diabolical => "6.1 and up",
        }
    }
}

/// One `rate --scale se` row as a summary sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeRow<'a> {
    /// How the record ended.
    pub status: RateStatus,
    /// The rating: present exactly when the status is `rated`.
    pub rated: Option<SeRated>,
    /// The record's value in the grouping column.
    pub group: Option<&'a str>,
    /// Where the record is and its puzzle, when known: for the list of the hardest.
    pub record: Option<crate::stats::RecordRef<'a>>,
}

/// A difficulty field (`7.2`, `7`, `7.20`) in tenths.
fn difficulty(column: &'static str, field: &[u8]) -> Result<u64, RatingProblem> {
    let bad = || RatingProblem::Value {
        column,
        found: quote(field),
        expected: "a difficulty with at most one digit after the point, as '7.2'",
    };
    let text = std::str::from_utf8(field).map_err(|_| bad())?;
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let fraction = fraction.trim_end_matches('0');
    if whole.is_empty() || !digits(whole) || !digits(fraction) || fraction.len() > 1 {
        return Err(bad());
    }
    let whole: u64 = whole
        .parse()
        .ok()
        .filter(|&w| w < 1 << 32)
        .ok_or_else(bad)?;
    Ok(whole * 10 + fraction.parse::<u64>().unwrap_or(0))
}

impl<'a> SeRow<'a> {
    /// Reads a row from its fields in [`SE_ROW_COLUMNS`] order, filed under `group`.
    pub fn parse(fields: [&[u8]; 7], group: Option<&'a str>) -> Result<SeRow<'a>, RatingProblem> {
        let [status, er, ep, ed, at_least, hardest, steps] = fields.map(<[u8]>::trim_ascii);
        let rating = [er, ep, ed, at_least, hardest, steps];
        let status = rate_status(status, &SE_ROW_COLUMNS, &rating)?;
        if status != RateStatus::Rated {
            return Ok(SeRow {
                status,
                rated: None,
                group,
                record: None,
            });
        }
        let optional = |column, field: &[u8]| {
            (!field.is_empty())
                .then(|| difficulty(column, field))
                .transpose()
        };
        let required = |column: &'static str, field: &[u8]| {
            optional(column, field)?.ok_or(RatingProblem::Missing { column })
        };
        let rated = SeRated {
            er: optional("er", er)?,
            ep: optional("ep", ep)?,
            ed: optional("ed", ed)?,
            er_at_least: required("er_at_least", at_least)?,
            hardest: if hardest.is_empty() {
                None
            } else {
                let name = std::str::from_utf8(hardest).unwrap_or_default();
                Some(
                    SeTechnique::from_name(name).ok_or_else(|| RatingProblem::Value {
                        column: "hardest",
                        found: quote(hardest),
                        expected: "the name of a Sudoku Explainer technique",
                    })?,
                )
            },
            steps: std::str::from_utf8(steps)
                .ok()
                .and_then(|t| t.parse().ok())
                .ok_or_else(|| match steps.is_empty() {
                    true => RatingProblem::Missing { column: "steps" },
                    false => RatingProblem::Value {
                        column: "steps",
                        found: quote(steps),
                        expected: "a count",
                    },
                })?,
        };
        check_row(&rated)?;
        Ok(SeRow {
            status,
            rated: Some(rated),
            group,
            record: None,
        })
    }
}

/// Whether a rating's figures agree (see the [module page](self)).
fn check_row(rated: &SeRated) -> Result<(), RatingProblem> {
    let shown = |t: Option<u64>| t.map_or("(none)".to_string(), decimal);
    let disagrees = |column: &'static str, found: Option<u64>, rule: String| {
        Err(RatingProblem::Breaks {
            column,
            found: shown(found),
            rule,
        })
    };
    let Some(er) = rated.er else {
        let floor = u64::from(tenths(UNBUILT_FLOOR));
        if rated.er_at_least < floor {
            return disagrees(
                "er_at_least",
                Some(rated.er_at_least),
                format!("it is at least {} when er is empty", shown(Some(floor))),
            );
        }
        return Ok(());
    };
    if rated.er_at_least != er {
        return disagrees(
            "er_at_least",
            Some(rated.er_at_least),
            format!("it equals er, {}, when er is given", shown(Some(er))),
        );
    }
    match (rated.ep, rated.ed) {
        (Some(ep), _) if ep > er => disagrees(
            "ep",
            Some(ep),
            format!("it is at most er, {}", shown(Some(er))),
        ),
        (Some(ep), Some(ed)) if ed > ep => disagrees(
            "ed",
            Some(ed),
            format!("it is at most ep, {}", shown(Some(ep))),
        ),
        (None, _) => Err(RatingProblem::Missing { column: "ep" }),
        (_, None) => Err(RatingProblem::Missing { column: "ed" }),
        _ if rated.hardest.is_none() && rated.steps > 0 => {
            Err(RatingProblem::Missing { column: "hardest" })
        }
        _ => Ok(()),
    }
}

/// A distribution of difficulties in tenths, serialised as `{"values": {"7.2": n, ...}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tenths(pub Distribution);

/// `t` tenths as a decimal with one digit after the point.
pub fn decimal(t: u64) -> String {
    format!("{}.{}", t / 10, t % 10)
}

impl Serialize for Tenths {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let values: Vec<(String, u64)> = self.0.iter().map(|(v, n)| (decimal(v), n)).collect();
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("values", &Values(&values))?;
        map.end()
    }
}

/// A list of pairs serialised as a map, in its order.
struct Values<'a>(&'a [(String, u64)]);

impl Serialize for Values<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, n) in self.0 {
            map.serialize_entry(key, n)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Tenths {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Form {
            values: BTreeMap<String, u64>,
        }
        let form = Form::deserialize(deserializer)?;
        let mut distribution = Distribution::new();
        for (key, times) in form.values {
            let value = difficulty("values", key.as_bytes()).map_err(de::Error::custom)?;
            distribution.add_count(value, times);
        }
        Ok(Tenths(distribution))
    }
}

impl super::Scale for SeLevel {
    const NAMES: [&'static str; 5] = ["easy", "medium", "hard", "fiendish", "diabolical"];

    fn position(self) -> usize {
        self as usize
    }
}

/// Rated rows per SE level, serialised as `{"easy": n, ..., "diabolical": n}`.
pub type SeLevels = super::Levels<SeLevel>;

/// Complete rows per hardest technique, serialised as an object keyed by SE's names, in SE's
/// order, zeros left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeHardest([u64; SeTechnique::COUNT]);

impl Default for SeHardest {
    fn default() -> Self {
        SeHardest([0; SeTechnique::COUNT])
    }
}

impl Serialize for SeHardest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for t in SeTechnique::ALL {
            if self.0[t.index()] > 0 {
                map.serialize_entry(t.name(), &self.0[t.index()])?;
            }
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for SeHardest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let named = BTreeMap::<String, u64>::deserialize(deserializer)?;
        let mut hardest = SeHardest::default();
        for (name, n) in named {
            let t = SeTechnique::from_name(&name)
                .ok_or_else(|| de::Error::custom(format!("unknown SE technique '{name}'")))?;
            hardest.0[t.index()] = n;
        }
        Ok(hardest)
    }
}

/// A summary of SE rating rows whose numbers disagree (a hand-edited or truncated file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeInconsistency {
    /// A count of rows that is not what the status and the other counts say.
    #[error("se_rating: {what} count {count} rows, but {expected} are {whom}")]
    Count {
        /// What counts them.
        what: &'static str,
        /// Their count.
        count: u64,
        /// The count expected.
        expected: u64,
        /// Which rows it should count.
        whom: &'static str,
    },
    /// A distribution with values a row cannot have.
    #[error("se_rating: {what} holds {value}, which no row of its kind has")]
    Value {
        /// The distribution.
        what: &'static str,
        /// The value, as a decimal.
        value: String,
    },
}

/// The summary of a set of `rate --scale se` rows (see the [module page](self) for the
/// definitions). Its serde form holds the counts; the document form adds the derived numbers
/// ([`SeDoc`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SeSummary {
    status: Tally<RateStatus>,
    levels: SeLevels,
    er: Tenths,
    ep: Tenths,
    ed: Tenths,
    er_at_least: Tenths,
    steps: Distribution,
    hardest: SeHardest,
}

impl SeSummary {
    /// Counts one row.
    pub fn add(&mut self, row: &SeRow<'_>) {
        self.status.add(row.status);
        let Some(rated) = &row.rated else { return };
        let Some(er) = rated.er else {
            self.levels.add(SeLevel::Diabolical);
            self.er_at_least.0.add(rated.er_at_least);
            return;
        };
        self.levels.add(SeLevel::of(er));
        self.er.0.add(er);
        // A complete row has EP and ED (checked by `SeRow::parse`; the rater gives them).
        self.ep.0.add(rated.ep.unwrap_or(er));
        self.ed.0.add(rated.ed.unwrap_or(er));
        self.steps.add(rated.steps);
        if let Some(t) = rated.hardest {
            self.hardest.0[t.index()] += 1;
        }
    }

    /// Adds everything counted in `other`.
    pub fn merge(&mut self, other: &SeSummary) {
        self.status += other.status;
        self.levels.merge(&other.levels);
        self.er.0.merge(&other.er.0);
        self.ep.0.merge(&other.ep.0);
        self.ed.0.merge(&other.ed.0);
        self.er_at_least.0.merge(&other.er_at_least.0);
        self.steps.merge(&other.steps);
        for (mine, theirs) in self.hardest.0.iter_mut().zip(other.hardest.0) {
            *mine += theirs;
        }
    }

    /// Rows counted.
    pub fn records(&self) -> u64 {
        self.status.records()
    }

    /// Rows per status.
    pub fn status(&self) -> &Tally<RateStatus> {
        &self.status
    }

    /// Rows with status `rated`.
    pub fn rated(&self) -> u64 {
        self.status.get(RateStatus::Rated)
    }

    /// Rated rows with an ER (their whole path found).
    pub fn complete(&self) -> u64 {
        self.er.0.count()
    }

    /// Rated rows per level.
    pub fn levels(&self) -> &SeLevels {
        &self.levels
    }

    /// ER of the complete rows, in tenths.
    pub fn er(&self) -> &Distribution {
        &self.er.0
    }

    /// EP of the complete rows, in tenths.
    pub fn ep(&self) -> &Distribution {
        &self.ep.0
    }

    /// ED of the complete rows, in tenths.
    pub fn ed(&self) -> &Distribution {
        &self.ed.0
    }

    /// The lower bound of ER of the unfinished rows, in tenths.
    pub fn er_at_least(&self) -> &Distribution {
        &self.er_at_least.0
    }

    /// Steps of the complete rows.
    pub fn steps(&self) -> &Distribution {
        &self.steps
    }

    /// Complete rows whose hardest technique is `technique`.
    pub fn hardest(&self, technique: SeTechnique) -> u64 {
        self.hardest.0[technique.index()]
    }

    /// `count` as a fraction of the rated rows; `None` when there are none.
    pub fn share_of_rated(&self, count: u64) -> Option<f64> {
        let rated = self.rated();
        (rated > 0).then(|| count as f64 / rated as f64)
    }

    /// ER's histogram, in tenths: one band per whole unit (`[10, 19]`, `[20, 29]`, ...), from
    /// the band of the lowest ER to that of the highest, without gaps.
    pub fn er_histogram(&self) -> Vec<Bucket> {
        let (Some(min), Some(max)) = (self.er.0.min(), self.er.0.max()) else {
            return Vec::new();
        };
        let mut histogram: Vec<Bucket> = (min / 10..=max / 10)
            .map(|unit| Bucket {
                from: unit * 10,
                to: unit * 10 + 9,
                count: 0,
            })
            .collect();
        for (value, times) in self.er.0.iter() {
            histogram[(value / 10 - min / 10) as usize].count += times;
        }
        histogram
    }

    /// The steps' histogram: one bucket per value (powers of two past a span of 256).
    pub fn steps_histogram(&self) -> Vec<Bucket> {
        self.steps.histogram(Buckets::PerValue)
    }

    /// Checks that the numbers agree (see [`SeInconsistency`]).
    pub fn check(&self) -> Result<(), SeInconsistency> {
        let rated = self.rated();
        let complete = self.complete();
        let unfinished = self.er_at_least.0.count();
        let count = |what, count, expected, whom| {
            (count != expected).then_some(SeInconsistency::Count {
                what,
                count,
                expected,
                whom,
            })
        };
        let problems = [
            count("levels", self.levels.total(), rated, "rated"),
            count("er and er_at_least", complete + unfinished, rated, "rated"),
            count("ep", self.ep.0.count(), complete, "complete"),
            count("ed", self.ed.0.count(), complete, "complete"),
            count("steps", self.steps.count(), complete, "complete"),
        ];
        if let Some(problem) = problems.into_iter().flatten().next() {
            return Err(problem);
        }
        let hardest: u64 = self.hardest.0.iter().sum();
        if hardest > complete {
            return Err(SeInconsistency::Count {
                what: "hardest",
                count: hardest,
                expected: complete,
                whom: "complete (at most)",
            });
        }
        let floor = u64::from(tenths(UNBUILT_FLOOR));
        if let Some(low) = self.er_at_least.0.min().filter(|&v| v < floor) {
            return Err(SeInconsistency::Value {
                what: "er_at_least",
                value: decimal(low),
            });
        }
        // The diabolical level holds every unfinished row and the complete ones from 6.1.
        let diabolical = unfinished
            + self
                .er
                .0
                .iter()
                .filter(|&(v, _)| SeLevel::of(v) == SeLevel::Diabolical)
                .map(|(_, n)| n)
                .sum::<u64>();
        for level in SeLevel::ALL {
            let expected = match level {
                SeLevel::Diabolical => diabolical,
                _ => self
                    .er
                    .0
                    .iter()
                    .filter(|&(v, _)| SeLevel::of(v) == level)
                    .map(|(_, n)| n)
                    .sum(),
            };
            if self.levels.get(level) != expected {
                return Err(SeInconsistency::Count {
                    what: "levels",
                    count: self.levels.get(level),
                    expected,
                    whom: level.name(),
                });
            }
        }
        Ok(())
    }
}

/// The document form of an [`SeSummary`]: its counts with the derived numbers beside them.
///
/// ```text
/// "se_rating": {
///   "records": 1000,                  rows of rate --scale se summarised
///   "status": { "rated": 990, "multiple": 6, "unsolvable": 0, "invalid": 4, "gave_up": 0 },
///   "complete": 980,                  rated rows with an ER
///   "unfinished": 10,                 rated rows without (nested forcing chains needed)
///   "levels": { "easy": 411, "medium": 203, "hard": 240, "fiendish": 80, "diabolical": 56 },
///   "level_share": { "easy": 0.4152, ... },   level / rated (null when none is rated)
///   "er": { "count": 980, "min": 1.2, "mean": 3.41, "p50": 2.6, "p90": 7.2, "p99": 8.9,
///           "max": 9.4, "histogram": [ {"from": 1.0, "to": 1.9, "count": 300}, ... ],
///           "values": { "1.2": 100, ... } },
///   "ep": { the same, no histogram }, "ed": { the same }, "er_at_least": { the same },
///   "steps": { "count", "sum", "min", "mean", "p50", "p90", "p99", "max", "histogram",
///              "values" },
///   "hardest": { "Hidden Single (block)": 100, "Forcing Chain": 41, ... }   SE's order
/// }
/// ```
///
/// Reading takes `status`, `levels`, the `values` of `er`, `ep`, `ed`, `er_at_least` and
/// `steps`, and `hardest`; the rest is derived and ignored.
#[derive(Serialize)]
pub struct SeDoc<'a> {
    records: u64,
    status: &'a Tally<RateStatus>,
    complete: u64,
    unfinished: u64,
    levels: &'a SeLevels,
    level_share: super::Named<SeLevel, Option<f64>>,
    er: TenthsDoc<'a>,
    ep: TenthsDoc<'a>,
    ed: TenthsDoc<'a>,
    er_at_least: TenthsDoc<'a>,
    steps: crate::stats::document::CounterDoc<'a>,
    hardest: &'a SeHardest,
}

impl<'a> SeDoc<'a> {
    /// The document form of `summary`.
    pub fn new(summary: &'a SeSummary) -> SeDoc<'a> {
        SeDoc {
            records: summary.records(),
            status: &summary.status,
            complete: summary.complete(),
            unfinished: summary.er_at_least.0.count(),
            levels: &summary.levels,
            level_share: super::Named::new(
                SeLevel::ALL.map(|l| summary.share_of_rated(summary.levels.get(l))),
            ),
            er: TenthsDoc::of(&summary.er, summary.er_histogram()),
            ep: TenthsDoc::of(&summary.ep, Vec::new()),
            ed: TenthsDoc::of(&summary.ed, Vec::new()),
            er_at_least: TenthsDoc::of(&summary.er_at_least, Vec::new()),
            steps: crate::stats::document::CounterDoc::of(
                &summary.steps,
                summary.steps_histogram(),
            ),
            hardest: &summary.hardest,
        }
    }
}

/// A distribution of difficulties as the document writes it: decimals, not tenths.
#[derive(Serialize)]
struct TenthsDoc<'a> {
    count: u64,
    min: Option<f64>,
    mean: Option<f64>,
    p50: Option<f64>,
    p90: Option<f64>,
    p99: Option<f64>,
    max: Option<f64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    histogram: Vec<TenthsBucket>,
    #[serde(flatten)]
    values: &'a Tenths,
}

#[derive(Serialize)]
struct TenthsBucket {
    from: f64,
    to: f64,
    count: u64,
}

/// `t` tenths as a number.
fn number(t: u64) -> f64 {
    t as f64 / 10.0
}

impl<'a> TenthsDoc<'a> {
    fn of(values: &'a Tenths, histogram: Vec<Bucket>) -> TenthsDoc<'a> {
        let d = &values.0;
        TenthsDoc {
            count: d.count(),
            min: d.min().map(number),
            mean: d.mean_in(10),
            p50: d.percentile(50).map(number),
            p90: d.percentile(90).map(number),
            p99: d.percentile(99).map(number),
            max: d.max().map(number),
            histogram: histogram
                .into_iter()
                .map(|b| TenthsBucket {
                    from: number(b.from),
                    to: number(b.to),
                    count: b.count,
                })
                .collect(),
            values,
        }
    }
}

/// One of the hardest rows on SE's scale: where it is, its puzzle and its rating. Rows are
/// ranked by `er_at_least` (ER itself when known), a row without ER before one with the same
/// ER, then by EP and ED, the highest first; ties go to the row that comes first by `file`
/// (no file first), then `line`, then the puzzle and the other fields, so that the list is the
/// same in whatever order the rows were added ([`super::super::hardest`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeHardRecord {
    /// The input it was read from, when the results name it (several inputs).
    pub file: Option<String>,
    /// The line where it starts in that input.
    pub line: u64,
    /// The puzzle, 81 characters.
    pub puzzle: String,
    /// ER, when the whole path was found.
    #[serde(with = "optional_tenths")]
    pub er: Option<u64>,
    /// The least ER can be (ER itself when known).
    #[serde(with = "tenths_number")]
    pub er_at_least: u64,
    /// EP, when known.
    #[serde(with = "optional_tenths")]
    pub ep: Option<u64>,
    /// ED, when known.
    #[serde(with = "optional_tenths")]
    pub ed: Option<u64>,
    /// The technique of the hardest step taken.
    #[serde(with = "technique_name")]
    pub hardest: Option<SeTechnique>,
    /// The steps taken.
    pub steps: u64,
}

impl SeHardRecord {
    /// The record of a rated row found at `record`.
    pub fn new(record: &crate::stats::RecordRef<'_>, rated: &SeRated) -> SeHardRecord {
        SeHardRecord {
            file: record.file.map(str::to_string),
            line: record.line,
            puzzle: record.puzzle.to_string(),
            er: rated.er,
            er_at_least: rated.er_at_least,
            ep: rated.ep,
            ed: rated.ed,
            hardest: rated.hardest,
            steps: rated.steps,
        }
    }

    /// The ranking key: the hardest first, then a total order over every field.
    #[allow(clippy::type_complexity)]
    fn key(
        &self,
    ) -> (
        Reverse<u64>,
        bool,
        Reverse<Option<u64>>,
        Reverse<Option<u64>>,
        &Option<String>,
        u64,
        &str,
        u64,
        Option<SeTechnique>,
    ) {
        (
            Reverse(self.er_at_least),
            self.er.is_some(),
            Reverse(self.ep),
            Reverse(self.ed),
            &self.file,
            self.line,
            &self.puzzle,
            self.steps,
            self.hardest,
        )
    }
}

impl crate::stats::hardest::Hardest<SeHardRecord> {
    /// Whether a row with this rating could enter the list: a cheap test before the record
    /// (its puzzle copied) is made. A lower `er_at_least` than the last one's ranks after it.
    pub fn could_take_rated(&self, rated: &SeRated) -> bool {
        let records = self.records();
        records.len() < crate::stats::hardest::HARDEST
            || records
                .last()
                .is_none_or(|last| rated.er_at_least >= last.er_at_least)
    }
}

impl Ranked for SeHardRecord {
    fn rank(&self, other: &SeHardRecord) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// Serde of a difficulty in tenths as a number (`7.2`).
mod tenths_number {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(t: &u64, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(*t as f64 / 10.0)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        let value = f64::deserialize(deserializer)?;
        let t = (value * 10.0).round();
        if !(0.0..1e12).contains(&t) || (value * 10.0 - t).abs() > 1e-6 {
            return Err(serde::de::Error::custom(format!(
                "{value} is not a difficulty with one digit after the point"
            )));
        }
        Ok(t as u64)
    }
}

/// Serde of an optional difficulty in tenths as a number or null.
mod optional_tenths {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(t: &Option<u64>, serializer: S) -> Result<S::Ok, S::Error> {
        match t {
            Some(t) => super::tenths_number::serialize(t, serializer),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<u64>, D::Error> {
        #[derive(Deserialize)]
        struct Number(#[serde(with = "super::tenths_number")] u64);
        Ok(Option::<Number>::deserialize(deserializer)?.map(|n| n.0))
    }
}

/// Serde of a technique as SE's name, or null.
mod technique_name {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::rate::se::SeTechnique;

    pub fn serialize<S: Serializer>(
        t: &Option<SeTechnique>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match t {
            Some(t) => serializer.serialize_str(t.name()),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<SeTechnique>, D::Error> {
        Option::<String>::deserialize(deserializer)?
            .map(|name| {
                SeTechnique::from_name(&name).ok_or_else(|| {
                    serde::de::Error::custom(format!("unknown SE technique '{name}'"))
                })
            })
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields<'a>(row: &'a [&'a str; 7]) -> [&'a [u8]; 7] {
        row.map(str::as_bytes)
    }

    fn rated(er: Option<u64>, at_least: u64, ep: u64, hardest: SeTechnique) -> SeRow<'static> {
        SeRow {
            status: RateStatus::Rated,
            rated: Some(SeRated {
                er,
                ep: Some(ep),
                ed: Some(ep),
                er_at_least: at_least,
                hardest: Some(hardest),
                steps: 60,
            }),
            group: None,
            record: None,
        }
    }

    #[test]
    fn levels_have_the_bounds_of_se_generator() {
        let cases = [
            (0, SeLevel::Easy),
            (12, SeLevel::Easy),
            (13, SeLevel::Medium),
            (15, SeLevel::Medium),
            (16, SeLevel::Hard),
            (25, SeLevel::Hard),
            (26, SeLevel::Fiendish),
            (60, SeLevel::Fiendish),
            (61, SeLevel::Diabolical),
            (120, SeLevel::Diabolical),
        ];
        for (tenths, level) in cases {
            assert_eq!(SeLevel::of(tenths), level, "{tenths}");
        }
    }

    #[test]
    fn rows_parse_and_their_figures_must_agree() {
        let good = ["rated", "7.2", "1.2", "1.2", "7.2", "Forcing Chain", "67"];
        let row = SeRow::parse(fields(&good), Some("g")).unwrap();
        let figures = row.rated.unwrap();
        assert_eq!(
            (figures.er, figures.ep, figures.steps),
            (Some(72), Some(12), 67)
        );
        assert_eq!(figures.hardest, Some(SeTechnique::ForcingChain));
        // Parquet writes 7.0 as 7; a trailing zero is the same number.
        let whole = ["rated", "7", "1.20", "1.2", "7.0", "Forcing Chain", "67"];
        assert_eq!(
            SeRow::parse(fields(&whole), None)
                .unwrap()
                .rated
                .unwrap()
                .er,
            Some(70)
        );
        let unfinished = ["rated", "", "1.2", "1.2", "9.5", "Forcing Chain", "40"];
        assert_eq!(
            SeRow::parse(fields(&unfinished), None)
                .unwrap()
                .rated
                .unwrap()
                .er,
            None
        );
        let none = ["multiple", "", "", "", "", "", ""];
        assert_eq!(SeRow::parse(fields(&none), None).unwrap().rated, None);
        let cases: [([&str; 7], &str); 8] = [
            (
                ["rated", "7.2", "1.2", "1.2", "7.3", "Forcing Chain", "67"],
                "er_at_least is 7.3, but it equals er, 7.2, when er is given",
            ),
            (
                ["rated", "7.2", "7.5", "1.2", "7.2", "Forcing Chain", "67"],
                "ep is 7.5, but it is at most er, 7.2",
            ),
            (
                ["rated", "7.2", "1.2", "2.0", "7.2", "Forcing Chain", "67"],
                "ed is 2.0, but it is at most ep, 1.2",
            ),
            (
                ["rated", "", "1.2", "1.2", "9.0", "Forcing Chain", "40"],
                "er_at_least is 9.0, but it is at least 9.5 when er is empty",
            ),
            (
                ["rated", "7.25", "1.2", "1.2", "7.2", "Forcing Chain", "67"],
                "er: '7.25' is not a difficulty with at most one digit after the point, as '7.2'",
            ),
            (
                ["rated", "7.2", "1.2", "1.2", "7.2", "Swordfishes", "67"],
                "hardest: 'Swordfishes' is not the name of a Sudoku Explainer technique",
            ),
            (
                ["multiple", "7.2", "", "", "", "", ""],
                "er is set in a 'multiple' row, which has no rating",
            ),
            (
                ["solved", "", "", "", "", "", ""],
                "status 'solved' is not one of rate's (rated, multiple, unsolvable, invalid, gave_up)",
            ),
        ];
        for (row, message) in cases {
            let err = SeRow::parse(fields(&row), None).unwrap_err();
            assert_eq!(err.to_string(), message, "{row:?}");
        }
    }

    #[test]
    fn summaries_count_levels_and_distributions_merge_and_round_trip() {
        let rows = [
            rated(Some(12), 12, 12, SeTechnique::HiddenSingleBlock),
            rated(Some(72), 72, 12, SeTechnique::ForcingChain),
            rated(None, 95, 12, SeTechnique::DynamicForcingChainPlus),
            rated(Some(26), 26, 26, SeTechnique::Pointing),
            SeRow {
                status: RateStatus::Invalid,
                rated: None,
                group: None,
                record: None,
            },
        ];
        let mut one = SeSummary::default();
        rows.iter().for_each(|r| one.add(r));
        let (mut a, mut b) = (SeSummary::default(), SeSummary::default());
        rows[..2].iter().for_each(|r| a.add(r));
        rows[2..].iter().for_each(|r| b.add(r));
        b.merge(&a);
        assert_eq!(b, one);
        assert_eq!((one.records(), one.rated(), one.complete()), (5, 4, 3));
        assert_eq!(one.levels().get(SeLevel::Easy), 1);
        assert_eq!(one.levels().get(SeLevel::Fiendish), 1);
        // The unfinished row is diabolical, beside the complete one of 7.2.
        assert_eq!(one.levels().get(SeLevel::Diabolical), 2);
        assert_eq!(one.er().sum(), 12 + 72 + 26);
        assert_eq!(one.er_at_least().count(), 1);
        assert_eq!(one.hardest(SeTechnique::ForcingChain), 1);
        assert_eq!(one.hardest(SeTechnique::DynamicForcingChainPlus), 0);
        let bands: Vec<(u64, u64, u64)> = one
            .er_histogram()
            .iter()
            .map(|b| (b.from, b.to, b.count))
            .collect();
        assert_eq!(bands.first(), Some(&(10, 19, 1)));
        assert_eq!(bands.last(), Some(&(70, 79, 1)));
        assert_eq!(bands.len(), 7);
        one.check().unwrap();
        let text = serde_json::to_string(&SeDoc::new(&one)).unwrap();
        let back: SeSummary = serde_json::from_str(&text).unwrap();
        assert_eq!(back, one);
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["er"]["max"], 7.2);
        assert_eq!(v["er"]["values"]["2.6"], 1);
        v["levels"]["easy"] = 2.into();
        let broken: SeSummary = serde_json::from_value(v).unwrap();
        assert_eq!(
            broken.check().unwrap_err().to_string(),
            "se_rating: levels count 5 rows, but 4 are rated"
        );
    }

    #[test]
    fn the_hardest_rank_by_er_then_unfinished_first_then_ep() {
        let record = |line, er: Option<u64>, at_least, ep| SeHardRecord {
            file: None,
            line,
            puzzle: format!("{line:0>81}"),
            er,
            er_at_least: at_least,
            ep: Some(ep),
            ed: Some(ep),
            hardest: None,
            steps: 1,
        };
        let mut list = crate::stats::hardest::Hardest::default();
        for r in [
            record(1, Some(72), 72, 12),
            record(2, Some(95), 95, 12),
            record(3, None, 95, 12),
            record(4, Some(72), 72, 20),
        ] {
            list.offer(r);
        }
        let lines: Vec<u64> = list.records().iter().map(|r| r.line).collect();
        assert_eq!(lines, [3, 2, 4, 1]);
        let text = serde_json::to_string(&list).unwrap();
        assert!(text.contains(r#""er":null,"er_at_least":9.5"#), "{text}");
        let back: crate::stats::hardest::Hardest<SeHardRecord> =
            serde_json::from_str(&text).unwrap();
        assert_eq!(back, list);
    }
}
