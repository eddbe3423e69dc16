//! The rating part of a summary: what `stats` says about the rows of `rate`. It merges exactly,
//! as the rest of a [`Summary`](super::Summary) does, and lives beside it
//! ([`Summary::rating`](super::Summary::rating)): a summary counts solve rows and rate rows
//! alike in its `records`, the solve rows in its `status` and counters, the rate rows here.
//!
//! # Definitions
//! - **records**: rate rows added, whatever their status; **status counts** add up to it.
//! - **levels**: `rated` rows per HoDoKu level ([`Level`]); they add up to the `rated` count.
//!   Only `rated` rows carry a rating: `rate` rates a puzzle only when it has one solution.
//! - **score** and **steps**: the exact distributions of the `score` and `steps` columns over
//!   the `rated` rows, with the quantiles and mean defined in [`crate::stats`]. The score's
//!   histogram has *score bands*: 100 points wide below 2000 (so HoDoKu's level bounds 800,
//!   1000, 1600 and 1800 fall between bands), then doubling: `[2000, 3999]`, `[4000, 7999]`,
//!   and so on. The steps' histogram has one bucket per value.
//! - **hardest**: `rated` rows per hardest technique (the `hardest` column); a puzzle with no
//!   empty cell has none, so these add up to at most the `rated` count.
//! - **techniques**: for each technique, the `rated` rows that used it at least once
//!   (`puzzles`) and how many times it was applied in all (`steps`), from the `techniques`
//!   column; the steps of every technique add up to the sum of the `steps` column.
//!
//! # The row
//! [`RatedRow::parse`] reads a rate row from its `status`, `level`, `score`, `hardest`,
//! `steps` and `techniques` fields ([`COLUMNS`]). A `rated` row must carry all of them and
//! they must agree: the level, the score, the hardest technique and the steps are each
//! derived from the technique counts by HoDoKu's rules ([`Rated::from_counts`]), so a row
//! whose numbers disagree (a hand edit, a column from another file) is refused. Any other row
//! leaves them empty (CSV) or null (JSON lines).
//!
//! The `techniques` field lists every technique used, in ladder order, as `key:count` pairs
//! separated by one space: `hidden-single:41 naked-single:12 x-wing:1`
//! ([`techniques_field`]).

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use super::distribution::{Bucket, Buckets, Distribution};
use crate::format::InputFormat;
use crate::rate::{LADDER, Level, Technique};
use crate::row::{RateStatus, RowStatus, Status, Tally, UnknownStatus};

/// The columns of a rate row that a summary reads, in this order.
pub const COLUMNS: [&str; 6] = ["status", "level", "score", "hardest", "steps", "techniques"];

/// The figures of one rated puzzle: everything a summary counts of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rated {
    /// HoDoKu's level.
    pub level: Level,
    /// The sum of the base scores of the steps.
    pub score: u64,
    /// The hardest technique used; `None` for a puzzle with no empty cell.
    pub hardest: Option<Technique>,
    /// How many times each technique was applied, by [`Technique::index`].
    pub counts: [u32; Technique::COUNT],
}

impl Rated {
    /// The figures of a puzzle whose steps used each technique `counts[t.index()]` times:
    /// the score, the hardest technique and the level by HoDoKu's rules, as the rater finds
    /// them ([`crate::rate`]).
    pub fn from_counts(counts: [u32; Technique::COUNT]) -> Rated {
        let used = || LADDER.iter().copied().filter(|t| counts[t.index()] > 0);
        let score = used()
            .map(|t| u64::from(t.score()) * u64::from(counts[t.index()]))
            .sum::<u64>();
        let hardest = used().max_by_key(|t| (t.level(), t.score(), t.index()));
        let level = Level::of(
            hardest.map_or(Level::Easy, Technique::level),
            u32::try_from(score).unwrap_or(u32::MAX),
        );
        Rated {
            level,
            score,
            hardest,
            counts,
        }
    }

    /// How many steps were applied.
    pub fn steps(&self) -> u64 {
        self.counts.iter().map(|&c| u64::from(c)).sum()
    }
}

impl From<&crate::rate::Rating> for Rated {
    fn from(rating: &crate::rate::Rating) -> Rated {
        Rated {
            level: rating.level,
            score: u64::from(rating.score),
            hardest: rating.hardest,
            counts: rating.counts,
        }
    }
}

/// The `techniques` field of a rate row: `key:count` for every technique used, in ladder
/// order, separated by one space; empty when no technique was used.
pub fn techniques_field(counts: &[u32; Technique::COUNT]) -> String {
    let mut text = String::new();
    for &t in LADDER {
        let n = counts[t.index()];
        if n > 0 {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(t.key());
            text.push(':');
            text.push_str(itoa::Buffer::new().format(n));
        }
    }
    text
}

/// One `rate` result row as a summary sees it: built by the pipeline for each record, or
/// read from a line of a results file ([`RatedRow::parse`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedRow<'a> {
    /// How the record ended.
    pub status: RateStatus,
    /// The rating: present exactly when the status is `rated`.
    pub rated: Option<Rated>,
    /// The record's value in the grouping column (as [`super::Row::group`]).
    pub group: Option<&'a str>,
}

/// What is wrong with one rate row.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RatingProblem {
    /// The status is not a known name.
    #[error(transparent)]
    Status(#[from] UnknownStatus),
    /// The status is another command's.
    #[error("status '{0}' is not one of rate's (rated, multiple, unsolvable, invalid, gave_up)")]
    NotRate(RowStatus),
    /// A field is empty in a `rated` row.
    #[error("{column} is empty in a 'rated' row")]
    Missing {
        /// The column.
        column: &'static str,
    },
    /// A field is set in a row that is not `rated`.
    #[error("{column} is set in a '{status}' row, which has no rating")]
    Unexpected {
        /// The column.
        column: &'static str,
        /// The row's status.
        status: RateStatus,
    },
    /// A value that is not what its column holds.
    #[error("{column}: {found} is not {expected}")]
    Value {
        /// The column.
        column: &'static str,
        /// The value, quoted and escaped.
        found: String,
        /// What the column holds.
        expected: &'static str,
    },
    /// A technique listed twice in the `techniques` field.
    #[error("techniques: {key} is listed twice")]
    Twice {
        /// The technique's key.
        key: &'static str,
    },
    /// A field that disagrees with what the technique counts give.
    #[error("{column} is {found}, but the techniques give {derived}")]
    Disagrees {
        /// The column.
        column: &'static str,
        /// Its value.
        found: String,
        /// The value the `techniques` field gives.
        derived: String,
    },
}

/// `text` in single quotes, control characters escaped, cut after 40 characters.
fn quote(field: &[u8]) -> String {
    let text = String::from_utf8_lossy(field);
    let mut shown: String = text.chars().take(40).flat_map(char::escape_debug).collect();
    if text.chars().nth(40).is_some() {
        shown.push_str("...");
    }
    format!("'{shown}'")
}

impl<'a> RatedRow<'a> {
    /// Reads a row from its fields in [`COLUMNS`] order (`status`, `level`, `score`,
    /// `hardest`, `steps`, `techniques`), filed under `group`.
    pub fn parse(
        fields: [&[u8]; 6],
        group: Option<&'a str>,
    ) -> Result<RatedRow<'a>, RatingProblem> {
        let [status, level, score, hardest, steps, techniques] = fields.map(<[u8]>::trim_ascii);
        let name = String::from_utf8_lossy(status);
        if name.is_empty() {
            return Err(RatingProblem::Missing { column: "status" });
        }
        let status = match RateStatus::from_name(&name) {
            Some(status) => status,
            None => return Err(RatingProblem::NotRate(name.parse::<RowStatus>()?)),
        };
        if status != RateStatus::Rated {
            let set = [level, score, hardest, steps, techniques]
                .iter()
                .position(|f| !f.is_empty());
            if let Some(i) = set {
                return Err(RatingProblem::Unexpected {
                    column: COLUMNS[1 + i],
                    status,
                });
            }
            return Ok(RatedRow {
                status,
                rated: None,
                group,
            });
        }
        for (i, field) in [level, score, steps].iter().enumerate() {
            if field.is_empty() {
                return Err(RatingProblem::Missing {
                    column: ["level", "score", "steps"][i],
                });
            }
        }
        let rated = Rated::from_counts(parse_techniques(techniques)?);
        let level_found = Level::ALL
            .iter()
            .copied()
            .find(|l| l.name().as_bytes() == level)
            .ok_or_else(|| RatingProblem::Value {
                column: "level",
                found: quote(level),
                expected: "a level (easy, medium, hard, unfair, extreme)",
            })?;
        let number = |column: &'static str, field: &[u8]| {
            std::str::from_utf8(field)
                .ok()
                .and_then(|t| t.parse::<u64>().ok())
                .ok_or_else(|| RatingProblem::Value {
                    column,
                    found: quote(field),
                    expected: "a count",
                })
        };
        let score_found = number("score", score)?;
        let steps_found = number("steps", steps)?;
        let hardest_found = if hardest.is_empty() {
            None
        } else {
            let key = std::str::from_utf8(hardest).unwrap_or_default();
            Some(
                Technique::from_key(key).ok_or_else(|| RatingProblem::Value {
                    column: "hardest",
                    found: quote(hardest),
                    expected: "a technique's key",
                })?,
            )
        };
        let disagrees = |column: &'static str, found: String, derived: String| {
            Err(RatingProblem::Disagrees {
                column,
                found,
                derived,
            })
        };
        if steps_found != rated.steps() {
            return disagrees("steps", steps_found.to_string(), rated.steps().to_string());
        }
        if score_found != rated.score {
            return disagrees("score", score_found.to_string(), rated.score.to_string());
        }
        if hardest_found != rated.hardest {
            let key = |t: Option<Technique>| t.map_or("(none)", Technique::key).to_string();
            return disagrees("hardest", key(hardest_found), key(rated.hardest));
        }
        if level_found != rated.level {
            return disagrees(
                "level",
                level_found.name().to_string(),
                rated.level.name().to_string(),
            );
        }
        Ok(RatedRow {
            status,
            rated: Some(rated),
            group,
        })
    }
}

/// The technique counts of a `techniques` field ([`techniques_field`]); pairs in any order.
pub fn parse_techniques(field: &[u8]) -> Result<[u32; Technique::COUNT], RatingProblem> {
    let mut counts = [0; Technique::COUNT];
    for pair in field
        .split(u8::is_ascii_whitespace)
        .filter(|p| !p.is_empty())
    {
        let bad = || RatingProblem::Value {
            column: "techniques",
            found: quote(pair),
            expected: "a technique's key and a count, as 'x-wing:2'",
        };
        let text = std::str::from_utf8(pair).map_err(|_| bad())?;
        let (key, count) = text.split_once(':').ok_or_else(bad)?;
        let technique = Technique::from_key(key).ok_or_else(bad)?;
        let count: u32 = count.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?;
        if counts[technique.index()] > 0 {
            return Err(RatingProblem::Twice {
                key: technique.key(),
            });
        }
        counts[technique.index()] = count;
    }
    Ok(counts)
}

/// Whether the first line of a results input is that of `rate` output: a CSV header, or a
/// first JSON-lines row, with the `level`, `score` and `techniques` columns.
pub fn is_rate_output(head: &[u8], format: InputFormat) -> bool {
    let wanted = ["level", "score", "techniques"];
    match format {
        InputFormat::Jsonl => serde_json::from_slice::<serde_json::Value>(head)
            .is_ok_and(|row| wanted.iter().all(|name| row.get(name).is_some())),
        _ => {
            let names: Vec<&[u8]> = head
                .split(|&b| b == b',')
                .map(|field| {
                    let field = field.trim_ascii();
                    field
                        .strip_prefix(b"\"")
                        .and_then(|f| f.strip_suffix(b"\""))
                        .unwrap_or(field)
                })
                .collect();
            wanted.iter().all(|name| names.contains(&name.as_bytes()))
        }
    }
}

/// How often a technique was used: by how many puzzles, in how many steps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Rated puzzles that used the technique at least once.
    pub puzzles: u64,
    /// Times the technique was applied, in all puzzles.
    pub steps: u64,
}

/// A value per technique, indexed by [`Technique::index`]; serialised as an object keyed by
/// the technique's key, in ladder order, values that are zero (default) left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerTechnique<T>([T; Technique::COUNT]);

impl<T: Copy + Default> Default for PerTechnique<T> {
    fn default() -> Self {
        PerTechnique([T::default(); Technique::COUNT])
    }
}

impl<T> PerTechnique<T> {
    /// The value of `technique`.
    pub fn get(&self, technique: Technique) -> &T {
        &self.0[technique.index()]
    }

    fn get_mut(&mut self, technique: Technique) -> &mut T {
        &mut self.0[technique.index()]
    }
}

impl<T: Serialize + Default + PartialEq> Serialize for PerTechnique<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let zero = T::default();
        let mut map = serializer.serialize_map(None)?;
        for &t in LADDER {
            let value = self.get(t);
            if *value != zero {
                map.serialize_entry(t.key(), value)?;
            }
        }
        map.end()
    }
}

impl<'de, T: Deserialize<'de> + Copy + Default> Deserialize<'de> for PerTechnique<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries<T>(std::marker::PhantomData<T>);

        impl<'de, T: Deserialize<'de> + Copy + Default> Visitor<'de> for Entries<T> {
            type Value = PerTechnique<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a value per technique key")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut values = PerTechnique::default();
                while let Some(key) = map.next_key::<String>()? {
                    let technique = Technique::from_key(&key)
                        .ok_or_else(|| de::Error::custom(format!("unknown technique '{key}'")))?;
                    *values.get_mut(technique) = map.next_value()?;
                }
                Ok(values)
            }
        }

        deserializer.deserialize_map(Entries(std::marker::PhantomData))
    }
}

/// Rated rows per level, serialised as `{"easy": n, ..., "extreme": n}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Levels([u64; 5]);

impl Levels {
    /// Rated rows of `level`.
    pub fn get(&self, level: Level) -> u64 {
        self.0[level as usize]
    }

    /// Rated rows of every level.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
}

impl Serialize for Levels {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(Level::ALL.len()))?;
        for level in Level::ALL {
            map.serialize_entry(level.name(), &self.get(level))?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Levels {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let named = std::collections::BTreeMap::<String, u64>::deserialize(deserializer)?;
        let mut levels = Levels::default();
        for (name, n) in named {
            let level = Level::ALL
                .iter()
                .find(|l| l.name() == name)
                .ok_or_else(|| de::Error::custom(format!("unknown level '{name}'")))?;
            levels.0[*level as usize] = n;
        }
        Ok(levels)
    }
}

/// A rating summary whose numbers disagree (a hand-edited or truncated summary file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RatingInconsistency {
    /// A count of rated rows that is not the `rated` status count.
    #[error("rating: {what} count {count} rated rows, but the status says {rated}")]
    Rated {
        /// What counts them (`levels`, `score`, `steps`).
        what: &'static str,
        /// Their count.
        count: u64,
        /// The `rated` status count.
        rated: u64,
    },
    /// More rows with a hardest technique, or using a technique, than rated rows, or a
    /// technique used by more puzzles than it has steps.
    #[error("rating: {what} describes more rows than the {rated} rated")]
    TooMany {
        /// What.
        what: String,
        /// The `rated` status count.
        rated: u64,
    },
    /// The steps of the techniques do not add up to the sum of the steps distribution.
    #[error("rating: the techniques' steps add up to {techniques}, the steps column to {steps}")]
    Steps {
        /// Sum of the techniques' steps.
        techniques: u64,
        /// Sum of the steps distribution.
        steps: u128,
    },
}

/// The summary of a set of `rate` rows (see the [module page](self) for the definitions).
/// Its serde form holds the counts only; the document form, with the derived numbers beside
/// them, is [`Doc`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RatingSummary {
    status: Tally<RateStatus>,
    levels: Levels,
    score: Distribution,
    steps: Distribution,
    hardest: PerTechnique<u64>,
    techniques: PerTechnique<Usage>,
}

impl RatingSummary {
    /// Counts one rate row.
    pub fn add(&mut self, row: &RatedRow<'_>) {
        self.status.add(row.status);
        let Some(rated) = &row.rated else { return };
        self.levels.0[rated.level as usize] += 1;
        self.score.add(rated.score);
        self.steps.add(rated.steps());
        if let Some(hardest) = rated.hardest {
            *self.hardest.get_mut(hardest) += 1;
        }
        for &t in LADDER {
            let n = u64::from(rated.counts[t.index()]);
            if n > 0 {
                let usage = self.techniques.get_mut(t);
                usage.puzzles += 1;
                usage.steps += n;
            }
        }
    }

    /// Adds everything counted in `other`.
    pub fn merge(&mut self, other: &RatingSummary) {
        self.status += other.status;
        for level in Level::ALL {
            self.levels.0[level as usize] += other.levels.get(level);
        }
        self.score.merge(&other.score);
        self.steps.merge(&other.steps);
        for &t in LADDER {
            *self.hardest.get_mut(t) += other.hardest.get(t);
            let (mine, theirs) = (self.techniques.get_mut(t), other.techniques.get(t));
            mine.puzzles += theirs.puzzles;
            mine.steps += theirs.steps;
        }
    }

    /// Rate rows counted.
    pub fn records(&self) -> u64 {
        self.status.records()
    }

    /// Rate rows per status.
    pub fn status(&self) -> &Tally<RateStatus> {
        &self.status
    }

    /// Rows with status `rated`: those with a level, a score and steps.
    pub fn rated(&self) -> u64 {
        self.status.get(RateStatus::Rated)
    }

    /// Rated rows per level.
    pub fn levels(&self) -> &Levels {
        &self.levels
    }

    /// The distribution of the scores of the rated rows.
    pub fn score(&self) -> &Distribution {
        &self.score
    }

    /// The distribution of the steps of the rated rows.
    pub fn steps(&self) -> &Distribution {
        &self.steps
    }

    /// Rated rows whose hardest technique is `technique`.
    pub fn hardest(&self, technique: Technique) -> u64 {
        *self.hardest.get(technique)
    }

    /// How often `technique` was used.
    pub fn usage(&self, technique: Technique) -> Usage {
        *self.techniques.get(technique)
    }

    /// `count` as a fraction of the rated rows; `None` when there are none.
    pub fn share_of_rated(&self, count: u64) -> Option<f64> {
        let rated = self.rated();
        (rated > 0).then(|| count as f64 / rated as f64)
    }

    /// The score's histogram in score bands (see the [module page](self)), from the band of
    /// the lowest score to that of the highest, without gaps.
    pub fn score_histogram(&self) -> Vec<Bucket> {
        let (Some(min), Some(max)) = (self.score.min(), self.score.max()) else {
            return Vec::new();
        };
        let mut histogram: Vec<Bucket> = Vec::new();
        let mut band = score_band(min);
        loop {
            histogram.push(Bucket {
                from: band.0,
                to: band.1,
                count: 0,
            });
            if band.1 >= max {
                break;
            }
            band = score_band(band.1 + 1);
        }
        for (value, times) in self.score.iter() {
            let at = histogram.partition_point(|b| b.to < value);
            histogram[at].count += times;
        }
        histogram
    }

    /// The steps' histogram: one bucket per value (powers of two past a span of 256).
    pub fn steps_histogram(&self) -> Vec<Bucket> {
        self.steps.histogram(Buckets::PerValue)
    }

    /// Checks that the numbers agree (see [`RatingInconsistency`]).
    pub fn check(&self) -> Result<(), RatingInconsistency> {
        let rated = self.rated();
        for (what, count) in [
            ("levels", self.levels.total()),
            ("score", self.score.count()),
            ("steps", self.steps.count()),
        ] {
            if count != rated {
                return Err(RatingInconsistency::Rated { what, count, rated });
            }
        }
        let hardest: u64 = LADDER.iter().map(|&t| self.hardest(t)).sum();
        if hardest > rated {
            return Err(RatingInconsistency::TooMany {
                what: "hardest".to_string(),
                rated,
            });
        }
        let mut steps = 0u64;
        for &t in LADDER {
            let usage = self.usage(t);
            if usage.puzzles > rated || usage.puzzles > usage.steps {
                return Err(RatingInconsistency::TooMany {
                    what: format!("techniques.{}", t.key()),
                    rated,
                });
            }
            steps = steps.saturating_add(usage.steps);
        }
        if u128::from(steps) != self.steps.sum() {
            return Err(RatingInconsistency::Steps {
                techniques: steps,
                steps: self.steps.sum(),
            });
        }
        Ok(())
    }
}

/// The score band holding `score`: `[100k, 100k + 99]` below 2000, then `[2000, 3999]`,
/// `[4000, 7999]`, ... (each twice as wide as the one before).
pub fn score_band(score: u64) -> (u64, u64) {
    if score < 2000 {
        let from = score / 100 * 100;
        return (from, from + 99);
    }
    let mut from = 2000u64;
    while score / 2 >= from {
        from *= 2;
    }
    (from, from.saturating_mul(2) - 1)
}

/// The rating part of a summary document, with the derived numbers beside the counts:
///
/// ```text
/// "rating": {
///   "records": 1000,                  rate rows summarised
///   "status": { "rated": 990, "multiple": 6, "unsolvable": 0, "invalid": 4, "gave_up": 0 },
///   "levels": { "easy": 411, "medium": 203, "hard": 240, "unfair": 80, "extreme": 56 },
///   "level_share": { "easy": 0.4152, ... },   level / rated (null when none is rated)
///   "score": { "count": 990, "sum": ..., "min": ..., "mean": ..., "p50": ..., "p90": ...,
///              "p99": ..., "max": ..., "histogram": [ {"from": 0, "to": 99, "count": 0}, ... ],
///              "values": { "412": 3, ... } },
///   "steps": { the same, one histogram bucket per value },
///   "hardest": { "hidden-single": 300, "x-wing": 41, ... },   in ladder order, zeros left out
///   "techniques": { "hidden-single": { "puzzles": 990, "steps": 40211 }, ... }
/// }
/// ```
///
/// Reading takes `status`, `levels`, the `values` of `score` and `steps`, `hardest` and
/// `techniques`; the rest is derived and ignored.
#[derive(Serialize)]
pub struct Doc<'a> {
    records: u64,
    status: &'a Tally<RateStatus>,
    levels: &'a Levels,
    level_share: LevelShares,
    score: DistributionDoc<'a>,
    steps: DistributionDoc<'a>,
    hardest: &'a PerTechnique<u64>,
    techniques: &'a PerTechnique<Usage>,
}

impl<'a> Doc<'a> {
    /// The document form of `rating`.
    pub fn new(rating: &'a RatingSummary) -> Doc<'a> {
        Doc {
            records: rating.records(),
            status: &rating.status,
            levels: &rating.levels,
            level_share: LevelShares(
                Level::ALL.map(|l| rating.share_of_rated(rating.levels.get(l))),
            ),
            score: DistributionDoc::new(&rating.score, rating.score_histogram()),
            steps: DistributionDoc::new(&rating.steps, rating.steps_histogram()),
            hardest: &rating.hardest,
            techniques: &rating.techniques,
        }
    }
}

/// Shares per level, serialised as `{"easy": share, ...}`.
struct LevelShares([Option<f64>; 5]);

impl Serialize for LevelShares {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(Level::ALL.len()))?;
        for level in Level::ALL {
            map.serialize_entry(level.name(), &self.0[level as usize])?;
        }
        map.end()
    }
}

#[derive(Serialize)]
struct DistributionDoc<'a> {
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

impl<'a> DistributionDoc<'a> {
    fn new(d: &'a Distribution, histogram: Vec<Bucket>) -> Self {
        DistributionDoc {
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

    fn counts(pairs: &[(Technique, u32)]) -> [u32; Technique::COUNT] {
        let mut counts = [0; Technique::COUNT];
        for &(t, n) in pairs {
            counts[t.index()] = n;
        }
        counts
    }

    fn rated(pairs: &[(Technique, u32)]) -> RatedRow<'static> {
        RatedRow {
            status: RateStatus::Rated,
            rated: Some(Rated::from_counts(counts(pairs))),
            group: None,
        }
    }

    fn fields<'a>(row: &'a [&'a str; 6]) -> [&'a [u8]; 6] {
        row.map(str::as_bytes)
    }

    #[test]
    fn figures_follow_hodoku_rules_from_the_counts() {
        let r = Rated::from_counts(counts(&[
            (Technique::HiddenSingle, 40),
            (Technique::NakedSingle, 10),
            (Technique::XWing, 1),
        ]));
        assert_eq!(r.score, 40 * 14 + 10 * 4 + 140);
        assert_eq!(r.hardest, Some(Technique::XWing));
        assert_eq!(r.level, Level::Hard);
        assert_eq!(r.steps(), 51);
        // Singles alone above 800 points are medium.
        let r = Rated::from_counts(counts(&[(Technique::HiddenSingle, 58)]));
        assert_eq!((r.score, r.level), (812, Level::Medium));
        let none = Rated::from_counts([0; Technique::COUNT]);
        assert_eq!(
            (none.score, none.hardest, none.level),
            (0, None, Level::Easy)
        );
    }

    #[test]
    fn the_techniques_field_round_trips() {
        let c = counts(&[(Technique::XWing, 2), (Technique::HiddenSingle, 41)]);
        let text = techniques_field(&c);
        assert_eq!(text, "hidden-single:41 x-wing:2");
        assert_eq!(parse_techniques(text.as_bytes()), Ok(c));
        assert_eq!(parse_techniques(b"x-wing:2  hidden-single:41 "), Ok(c));
        assert_eq!(techniques_field(&[0; Technique::COUNT]), "");
        assert_eq!(
            parse_techniques(b"x-wing:1 x-wing:2"),
            Err(RatingProblem::Twice { key: "x-wing" })
        );
        for bad in ["x-wing", "x-wing:0", "x-wing:-1", "nope:3", "x-wing:2:3"] {
            assert!(parse_techniques(bad.as_bytes()).is_err(), "{bad}");
        }
    }

    #[test]
    fn rows_parse_and_must_agree_with_their_techniques() {
        let good = [
            "rated",
            "hard",
            "740",
            "x-wing",
            "51",
            "naked-single:10 hidden-single:40 x-wing:1",
        ];
        let row = RatedRow::parse(fields(&good), Some("g")).unwrap();
        assert_eq!(row.status, RateStatus::Rated);
        assert_eq!(row.rated.as_ref().unwrap().score, 740);
        assert_eq!(row.group, Some("g"));
        let empty = ["invalid", "", "", "", "", ""];
        assert_eq!(RatedRow::parse(fields(&empty), None).unwrap().rated, None);
        let cases: [([&str; 6], &str); 7] = [
            (
                ["rated", "hard", "741", "x-wing", "51", good[5]],
                "score is 741, but the techniques give 740",
            ),
            (
                ["rated", "easy", "740", "x-wing", "51", good[5]],
                "level is easy, but the techniques give hard",
            ),
            (
                ["rated", "hard", "740", "", "51", good[5]],
                "hardest is (none), but the techniques give x-wing",
            ),
            (
                ["rated", "", "740", "x-wing", "51", good[5]],
                "level is empty in a 'rated' row",
            ),
            (
                ["multiple", "hard", "", "", "", ""],
                "level is set in a 'multiple' row, which has no rating",
            ),
            (
                ["solved", "", "", "", "", ""],
                "status 'solved' is not one of rate's (rated, multiple, unsolvable, invalid, gave_up)",
            ),
            (
                ["rated", "hard", "lots", "x-wing", "51", good[5]],
                "score: 'lots' is not a count",
            ),
        ];
        for (row, message) in cases {
            let err = RatedRow::parse(fields(&row), None).unwrap_err();
            assert_eq!(err.to_string(), message);
        }
    }

    #[test]
    fn rate_output_is_told_by_its_columns() {
        let header = b"line,puzzle,status,level,score,hardest,steps,singles,techniques,error";
        assert!(is_rate_output(header, InputFormat::Csv));
        assert!(is_rate_output(
            b"\"level\",score,techniques",
            InputFormat::Csv
        ));
        assert!(!is_rate_output(
            b"line,puzzle,status,recursions,level",
            InputFormat::Csv
        ));
        assert!(is_rate_output(
            br#"{"line":1,"level":null,"score":null,"techniques":null}"#,
            InputFormat::Jsonl
        ));
        assert!(!is_rate_output(
            br#"{"line":1,"level":"x"}"#,
            InputFormat::Jsonl
        ));
    }

    #[test]
    fn summaries_count_levels_scores_hardest_and_usage_and_merge() {
        let mut a = RatingSummary::default();
        a.add(&rated(&[(Technique::HiddenSingle, 50)]));
        a.add(&rated(&[
            (Technique::HiddenSingle, 40),
            (Technique::XWing, 2),
        ]));
        let mut b = RatingSummary::default();
        b.add(&RatedRow {
            status: RateStatus::Multiple,
            rated: None,
            group: None,
        });
        b.add(&rated(&[
            (Technique::NakedSingle, 30),
            (Technique::XWing, 1),
        ]));
        let mut whole = a.clone();
        whole.merge(&b);
        assert_eq!(whole.records(), 4);
        assert_eq!(whole.rated(), 3);
        assert_eq!(whole.levels().get(Level::Easy), 1);
        assert_eq!(whole.levels().get(Level::Hard), 2);
        assert_eq!(whole.hardest(Technique::XWing), 2);
        assert_eq!(whole.hardest(Technique::HiddenSingle), 1);
        assert_eq!(
            whole.usage(Technique::XWing),
            Usage {
                puzzles: 2,
                steps: 3
            }
        );
        assert_eq!(whole.score().count(), 3);
        assert_eq!(whole.score().max(), Some(40 * 14 + 280));
        whole.check().unwrap();
        // The same rows added one by one give the same summary.
        let mut one = RatingSummary::default();
        for row in [
            rated(&[(Technique::HiddenSingle, 50)]),
            rated(&[(Technique::HiddenSingle, 40), (Technique::XWing, 2)]),
            RatedRow {
                status: RateStatus::Multiple,
                rated: None,
                group: None,
            },
            rated(&[(Technique::NakedSingle, 30), (Technique::XWing, 1)]),
        ] {
            one.add(&row);
        }
        assert_eq!(one, whole);
    }

    #[test]
    fn score_bands_are_hundreds_then_doubling() {
        assert_eq!(score_band(0), (0, 99));
        assert_eq!(score_band(799), (700, 799));
        assert_eq!(score_band(800), (800, 899));
        assert_eq!(score_band(1999), (1900, 1999));
        assert_eq!(score_band(2000), (2000, 3999));
        assert_eq!(score_band(3999), (2000, 3999));
        assert_eq!(score_band(4000), (4000, 7999));
        assert_eq!(score_band(12_000), (8000, 15_999));
        let mut s = RatingSummary::default();
        s.add(&rated(&[(Technique::HiddenSingle, 10)]));
        s.add(&rated(&[(Technique::BruteForce, 1)]));
        let h = s.score_histogram();
        assert_eq!(h.first().map(|b| (b.from, b.count)), Some((100, 1)));
        assert_eq!(
            h.last().map(|b| (b.from, b.to, b.count)),
            Some((8000, 15_999, 1))
        );
        assert_eq!(h.len(), 19 + 3);
        assert_eq!(h.iter().map(|b| b.count).sum::<u64>(), 2);
        assert!(h.windows(2).all(|w| w[0].to + 1 == w[1].from));
    }

    #[test]
    fn counts_round_trip_through_serde_and_check_refuses_disagreement() {
        let mut s = RatingSummary::default();
        s.add(&rated(&[
            (Technique::HiddenSingle, 40),
            (Technique::XWing, 2),
        ]));
        s.add(&RatedRow {
            status: RateStatus::Invalid,
            rated: None,
            group: None,
        });
        let text = serde_json::to_string(&Doc::new(&s)).unwrap();
        let back: RatingSummary = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s);
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["levels"]["hard"], 1);
        assert_eq!(v["techniques"]["x-wing"]["steps"], 2);
        assert_eq!(v["score"]["histogram"][0]["from"], 800);
        v["levels"]["easy"] = 1.into();
        let broken: RatingSummary = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(
            broken.check().unwrap_err().to_string(),
            "rating: levels count 2 rated rows, but the status says 1"
        );
        v["levels"]["easy"] = 0.into();
        v["techniques"]["x-wing"]["steps"] = 3.into();
        let broken: RatingSummary = serde_json::from_value(v.clone()).unwrap();
        assert!(matches!(
            broken.check(),
            Err(RatingInconsistency::Steps { .. })
        ));
        v["techniques"]["nope"] = serde_json::json!({"puzzles": 1, "steps": 1});
        let err = serde_json::from_value::<RatingSummary>(v).unwrap_err();
        assert!(
            err.to_string().contains("unknown technique 'nope'"),
            "{err}"
        );
    }
}
