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

mod doc;
mod row;
pub mod se;

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use super::distribution::{Bucket, Buckets, Distribution};
use crate::rate::{LADDER, Level, Technique};
use crate::row::{RateStatus, Tally};

pub use doc::Doc;
pub use row::{
    COLUMNS, Rated, RatedRow, RatingProblem, SE_COLUMNS, is_rate_output, is_se_output,
    parse_techniques, techniques_field,
};

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

/// The levels of a rating scale, as a summary counts them: five, named, in order.
pub trait Scale: Copy {
    /// The levels' names, easiest first.
    const NAMES: [&'static str; 5];
    /// The level's position in [`Scale::NAMES`].
    fn position(self) -> usize;
}

impl Scale for Level {
    const NAMES: [&'static str; 5] = ["easy", "medium", "hard", "unfair", "extreme"];

    fn position(self) -> usize {
        self as usize
    }
}

/// Rated rows per level of a scale (HoDoKu's by default), serialised as `{"easy": n, ...}` in
/// level order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Levels<L = Level>([u64; 5], std::marker::PhantomData<L>);

impl<L> Default for Levels<L> {
    fn default() -> Self {
        Levels([0; 5], std::marker::PhantomData)
    }
}

impl<L: Scale> Levels<L> {
    /// Rated rows of `level`.
    pub fn get(&self, level: L) -> u64 {
        self.0[level.position()]
    }

    /// Counts one more row of `level`.
    fn add(&mut self, level: L) {
        self.0[level.position()] += 1;
    }

    /// Adds the counts of `other`.
    fn merge(&mut self, other: &Levels<L>) {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            *mine += theirs;
        }
    }

    /// Rated rows of every level.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
}

impl<L: Scale> Serialize for Levels<L> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Named::<L, u64>::new(self.0).serialize(serializer)
    }
}

impl<'de, L: Scale> Deserialize<'de> for Levels<L> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let named = std::collections::BTreeMap::<String, u64>::deserialize(deserializer)?;
        let mut levels = Levels::default();
        for (name, n) in named {
            let at = L::NAMES
                .iter()
                .position(|&l| l == name)
                .ok_or_else(|| de::Error::custom(format!("unknown level '{name}'")))?;
            levels.0[at] = n;
        }
        Ok(levels)
    }
}

/// A value per level of a scale, serialised as `{"easy": value, ...}` in level order (the
/// counts of [`Levels`], the shares of a document).
pub struct Named<L, T>([T; 5], std::marker::PhantomData<L>);

impl<L: Scale, T> Named<L, T> {
    /// The values, in level order.
    pub fn new(values: [T; 5]) -> Named<L, T> {
        Named(values, std::marker::PhantomData)
    }
}

impl<L: Scale, T: Serialize> Serialize for Named<L, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(5))?;
        for (name, value) in L::NAMES.iter().zip(&self.0) {
            map.serialize_entry(name, value)?;
        }
        map.end()
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
        self.levels.add(rated.level);
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
        self.levels.merge(&other.levels);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::InputFormat;

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
    fn the_level_names_of_a_summary_are_the_levels_own() {
        for level in Level::ALL {
            assert_eq!(<Level as Scale>::NAMES[level.position()], level.name());
        }
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
