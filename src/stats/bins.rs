//! Ranges of a numeric grouping column (`stats --by COLUMN --bins EDGES|N`): the edges, given or
//! found as quantiles of the column's values, the bin of each value, and the bins' labels.
//!
//! # Definitions
//! A value is a *number* when its text (trimmed) parses as a finite decimal number (`3`,
//! `-0.25`, `1e3`); an empty value is no number and goes to the empty group, as without bins.
//!
//! Edges `e0 < e1 < ... < em` make the bins `[e0, e1]`, `(e1, e2]`, ..., `(e(m-1), em]`: each
//! bin holds the values above its lower edge up to and including its upper edge, and the first
//! one holds `e0` too (a single edge makes the one bin `[e0, e0]`). Values below `e0` form the
//! bin `< e0`, values above `em` the bin `> em`. Every number lies in exactly one bin, so the
//! bins add up to the whole.
//!
//! *Quantile bins* (`--bins N`) take as edges the smallest and the largest number of the column
//! and, between them, its `k/N`-quantiles for `k = 1 .. N-1` by the nearest-rank rule of
//! [`crate::stats`] (the smallest value `v` such that at least `ceil(k * n / N)` of the `n`
//! numbers are `<= v`), each counted once: a column with few distinct values has fewer bins.
//! The `k` first bins then hold at least `ceil(k * n / N)` numbers, exactly that many when no
//! value repeats. Edges are values of the column, so labels show numbers that occur in it.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A finite number read from a column, ordered and compared exactly (`-0` equals `0`).
#[derive(Debug, Clone, Copy)]
pub struct Number(f64);

impl Number {
    /// The number a column's text holds (trimmed), if it is a finite number.
    pub fn parse(text: &[u8]) -> Option<Number> {
        let text = std::str::from_utf8(text.trim_ascii()).ok()?;
        // `f64::from_str` also takes `inf` and `NaN`: only finite values are numbers here.
        let value: f64 = text.parse().ok()?;
        value.is_finite().then_some(Number(value + 0.0))
    }

    /// The value.
    pub fn value(self) -> f64 {
        self.0
    }

    /// A key for maps: the same for equal numbers.
    fn key(self) -> u64 {
        (self.0 + 0.0).to_bits()
    }
}

impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Number {}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Number {
    fn cmp(&self, other: &Self) -> Ordering {
        // Finite values, `-0` made `0`: the total order is the numeric one.
        (self.0 + 0.0).total_cmp(&(other.0 + 0.0))
    }
}

impl fmt::Display for Number {
    /// The shortest text that reads back as the same number (`0.1`, `3`, `-2.5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// How many rows had each number of a column: what quantile edges are found from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Numbers {
    counts: HashMap<u64, u64>,
    rows: u64,
}

impl Numbers {
    /// Counts `times` rows with `value`.
    pub fn add(&mut self, value: Number, times: u64) {
        *self.counts.entry(value.key()).or_insert(0) += times;
        self.rows += times;
    }

    /// Distinct numbers counted.
    pub fn distinct(&self) -> usize {
        self.counts.len()
    }

    /// Rows counted.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// `(number, rows)` in increasing order.
    fn sorted(&self) -> Vec<(Number, u64)> {
        let mut all: Vec<(Number, u64)> = self
            .counts
            .iter()
            .map(|(&bits, &times)| (Number(f64::from_bits(bits)), times))
            .collect();
        all.sort_unstable_by_key(|a| a.0);
        all
    }
}

/// How the bins of a grouping were chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Chosen {
    /// Edges given on the command line.
    Given,
    /// `N` quantile bins asked for.
    Quantiles,
    /// Quantile bins chosen by `stats` for a numeric column with many distinct values.
    Automatic,
}

/// The bins of a numeric grouping column (see the [module documentation](self)). Two are equal
/// when their edges are: how they were chosen is only told.
#[derive(Debug, Clone)]
pub struct Bins {
    edges: Vec<Number>,
    chosen: Chosen,
    /// The number of quantile bins asked for (`N`), when they are quantile bins.
    asked: Option<usize>,
    /// Labels: `< e0`, the bins in order, `> em`.
    labels: Vec<String>,
}

impl PartialEq for Bins {
    fn eq(&self, other: &Self) -> bool {
        self.edges == other.edges
    }
}

impl Eq for Bins {}

/// Edges that make no bins.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BinsError {
    /// An edge is not a finite number.
    #[error("bin edge '{0}' is not a number")]
    NotANumber(String),
    /// Edges out of order or repeated.
    #[error("bin edges must increase: {later} follows {earlier}")]
    NotIncreasing {
        /// The edge before.
        earlier: String,
        /// The edge that is not above it.
        later: String,
    },
    /// No edge.
    #[error("no bin edges")]
    Empty,
}

impl Bins {
    /// The bins of edges given in increasing order (at least one).
    pub fn given(edges: &[&str]) -> Result<Bins, BinsError> {
        let numbers = edges
            .iter()
            .map(|e| {
                Number::parse(e.as_bytes()).ok_or_else(|| BinsError::NotANumber(e.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Bins::new(numbers, Chosen::Given, None)
    }

    /// `n` quantile bins of `numbers` (see the [module documentation](self)); `None` when there
    /// are no numbers.
    pub fn quantiles(numbers: &Numbers, n: usize, chosen: Chosen) -> Option<Bins> {
        let sorted = numbers.sorted();
        let (first, last) = (sorted.first()?.0, sorted.last()?.0);
        let n = n.max(1);
        let total = numbers.rows();
        let (bins, rows) = (n as u128, u128::from(total));
        let mut edges = vec![first];
        let mut seen = 0u64;
        let mut values = sorted.iter();
        let mut current = values.next();
        // Edge k is the smallest value with at least ceil(k * total / n) numbers at or below
        // it. Each distinct value is visited once: the edges a value makes for several k are
        // one edge, so the loop and the edges are bounded by the distinct values, not by `n`.
        let mut k = 1u128;
        while k < bins {
            let rank = (rows * k).div_ceil(bins).max(1);
            while let Some(&(_, times)) = current {
                if u128::from(seen + times) >= rank {
                    break;
                }
                seen += times;
                current = values.next();
            }
            let Some(&(value, times)) = current else {
                break;
            };
            if edges.last() != Some(&value) {
                edges.push(value);
            }
            // The next k whose rank lies past this value's numbers.
            k = u128::from(seen + times) * bins / rows + 1;
        }
        edges.push(last);
        edges.dedup();
        Some(Bins::new(edges, chosen, Some(n)).expect("sorted, deduplicated edges"))
    }

    fn new(edges: Vec<Number>, chosen: Chosen, asked: Option<usize>) -> Result<Bins, BinsError> {
        if edges.is_empty() {
            return Err(BinsError::Empty);
        }
        if let Some(pair) = edges.windows(2).find(|w| w[0] >= w[1]) {
            return Err(BinsError::NotIncreasing {
                earlier: pair[0].to_string(),
                later: pair[1].to_string(),
            });
        }
        let last = edges.len() - 1;
        let mut labels = vec![format!("< {}", edges[0])];
        labels.push(format!("[{}, {}]", edges[0], edges[last.min(1)]));
        for i in 1..last {
            labels.push(format!("({}, {}]", edges[i], edges[i + 1]));
        }
        labels.push(format!("> {}", edges[last]));
        Ok(Bins {
            edges,
            chosen,
            asked,
            labels,
        })
    }

    /// The edges, in increasing order.
    pub fn edges(&self) -> &[Number] {
        &self.edges
    }

    /// How the bins were chosen.
    pub fn chosen(&self) -> Chosen {
        self.chosen
    }

    /// The number of quantile bins asked for, for quantile bins.
    pub fn asked(&self) -> Option<usize> {
        self.asked
    }

    /// The label of the bin holding `value`.
    pub fn label_of(&self, value: Number) -> &str {
        &self.labels[self.position(value)]
    }

    /// The place of `value`'s bin among the [labels](Bins::labels).
    fn position(&self, value: Number) -> usize {
        let last = self.edges.len() - 1;
        if value < self.edges[0] {
            0
        } else if value > self.edges[last] {
            self.labels.len() - 1
        } else {
            1 + self.edges[1..].partition_point(|edge| *edge < value)
        }
    }

    /// Every label in order: `< e0`, the bins from the lowest, `> em`.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// The place of a label among the [labels](Bins::labels), if it is one.
    pub fn rank_of(&self, label: &str) -> Option<usize> {
        self.labels.iter().position(|l| l == label)
    }

    /// How many bins lie between the first and the last edge.
    pub fn count(&self) -> usize {
        self.labels.len() - 2
    }

    /// How the bins were made, in words: `10 quantile bins`, `bins at edges 0, 1.5, 3`.
    pub fn describe(&self) -> String {
        let edges: Vec<String> = self.edges.iter().map(Number::to_string).collect();
        let bins = self.count();
        let plural = if bins == 1 { "" } else { "s" };
        match (self.chosen, self.asked) {
            (Chosen::Given, _) => format!("bins at edges {}", edges.join(", ")),
            (_, Some(asked)) if asked != bins => format!(
                "{bins} quantile bin{plural} ({asked} asked: the column has few distinct values)"
            ),
            _ => format!("{bins} quantile bin{plural}"),
        }
    }
}

/// The serde form of [`Bins`]: edges as text, which reads back exactly.
#[derive(Serialize, Deserialize)]
struct BinsDoc {
    chosen: Chosen,
    quantiles: Option<usize>,
    edges: Vec<String>,
}

impl Serialize for Bins {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        BinsDoc {
            chosen: self.chosen,
            quantiles: self.asked,
            edges: self.edges.iter().map(Number::to_string).collect(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Bins {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let doc = BinsDoc::deserialize(deserializer)?;
        let edges: Vec<&str> = doc.edges.iter().map(String::as_str).collect();
        let given = Bins::given(&edges).map_err(serde::de::Error::custom)?;
        Ok(Bins {
            chosen: doc.chosen,
            asked: doc.quantiles,
            ..given
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(values: &[f64]) -> Numbers {
        let mut n = Numbers::default();
        for &v in values {
            n.add(Number::parse(v.to_string().as_bytes()).unwrap(), 1);
        }
        n
    }

    fn edges(bins: &Bins) -> Vec<f64> {
        bins.edges().iter().map(|e| e.value()).collect()
    }

    #[test]
    fn numbers_are_finite_decimals() {
        for good in ["3", " -0.25 ", "1e3", "+7", "0.1"] {
            assert!(Number::parse(good.as_bytes()).is_some(), "{good}");
        }
        for bad in ["", "NaN", "inf", "-infinity", "1,5", "x", "1e999"] {
            assert!(Number::parse(bad.as_bytes()).is_none(), "{bad}");
        }
        let zero = Number::parse(b"0").unwrap();
        assert_eq!(Number::parse(b"-0").unwrap(), zero);
        assert_eq!(Number::parse(b"-0").unwrap().to_string(), "0");
        assert_eq!(Number::parse(b"2.50").unwrap().to_string(), "2.5");
    }

    #[test]
    fn given_edges_make_closed_right_bins_and_two_outer_ones() {
        let bins = Bins::given(&["0", "1.5", "3"]).unwrap();
        assert_eq!(bins.labels(), ["< 0", "[0, 1.5]", "(1.5, 3]", "> 3"]);
        let label = |v: &str| {
            bins.label_of(Number::parse(v.as_bytes()).unwrap())
                .to_string()
        };
        assert_eq!(label("-0.1"), "< 0");
        assert_eq!(label("0"), "[0, 1.5]");
        assert_eq!(label("1.5"), "[0, 1.5]");
        assert_eq!(label("1.50001"), "(1.5, 3]");
        assert_eq!(label("3"), "(1.5, 3]");
        assert_eq!(label("3.01"), "> 3");
        let one = Bins::given(&["5"]).unwrap();
        assert_eq!(one.labels(), ["< 5", "[5, 5]", "> 5"]);
        assert_eq!(one.label_of(Number::parse(b"5").unwrap()), "[5, 5]");
        assert_eq!(
            Bins::given(&["1", "1"]).unwrap_err().to_string(),
            "bin edges must increase: 1 follows 1"
        );
        assert_eq!(
            Bins::given(&["1", "x"]).unwrap_err(),
            BinsError::NotANumber("x".into())
        );
    }

    #[test]
    fn quantile_edges_follow_the_nearest_rank_rule() {
        let values: Vec<f64> = (1..=10).map(f64::from).collect();
        let bins = Bins::quantiles(&numbers(&values), 4, Chosen::Quantiles).unwrap();
        // ranks ceil(10/4) = 3, ceil(20/4) = 5, ceil(30/4) = 8.
        assert_eq!(edges(&bins), [1.0, 3.0, 5.0, 8.0, 10.0]);
        // Ties collapse bins: a column of two values has at most two bins.
        let tied = numbers(&[2.0, 2.0, 2.0, 2.0, 9.0]);
        let bins = Bins::quantiles(&tied, 10, Chosen::Automatic).unwrap();
        assert_eq!(edges(&bins), [2.0, 9.0]);
        assert_eq!(bins.labels(), ["< 2", "[2, 9]", "> 9"]);
        let single = Bins::quantiles(&numbers(&[4.0, 4.0]), 3, Chosen::Quantiles).unwrap();
        assert_eq!(edges(&single), [4.0]);
        assert!(Bins::quantiles(&Numbers::default(), 3, Chosen::Quantiles).is_none());
    }

    #[test]
    fn quantile_edges_cost_the_distinct_values_not_the_bins_asked_for() {
        let values = [1.0, 1.0, 2.0, 3.0, 3.0, 3.0, 7.0, 8.0, 8.0, 9.5];
        let set = numbers(&values);
        // The nearest-rank rule computed bin by bin.
        let by_bin = |n: usize| {
            let mut edges = vec![values[0]];
            for k in 1..n {
                let rank = (values.len() * k).div_ceil(n).max(1);
                edges.push(values[rank - 1]);
            }
            edges.push(values[values.len() - 1]);
            edges.dedup();
            edges
        };
        for n in 1..=40 {
            let bins = Bins::quantiles(&set, n, Chosen::Quantiles).unwrap();
            assert_eq!(edges(&bins), by_bin(n), "{n} bins");
        }
        // Asking for 2^64 - 1 bins makes every distinct value an edge, at once and in a few
        // bytes (bin by bin, it had allocated an edge per bin asked for).
        let bins = Bins::quantiles(&set, usize::MAX, Chosen::Quantiles).unwrap();
        assert_eq!(edges(&bins), [1.0, 2.0, 3.0, 7.0, 8.0, 9.5]);
        assert_eq!(bins.asked(), Some(usize::MAX));
    }

    #[test]
    fn quantile_bins_hold_their_share_of_distinct_values() {
        // 1000 distinct values, 10 bins: 100 values each, exactly.
        let values: Vec<f64> = (0..1000).map(|i| f64::from(i) * 0.37 - 50.0).collect();
        let bins = Bins::quantiles(&numbers(&values), 10, Chosen::Quantiles).unwrap();
        let mut counts = std::collections::BTreeMap::new();
        for v in &values {
            let label = bins.label_of(Number::parse(v.to_string().as_bytes()).unwrap());
            *counts.entry(bins.rank_of(label).unwrap()).or_insert(0) += 1;
        }
        let sizes: Vec<u32> = counts.values().copied().collect();
        assert_eq!(sizes, [100; 10]);
    }

    #[test]
    fn bins_read_back_from_their_serde_form() {
        let bins = Bins::quantiles(&numbers(&[0.1, 0.2, 0.7, 1.3]), 2, Chosen::Automatic).unwrap();
        let text = serde_json::to_string(&bins).unwrap();
        assert_eq!(
            text,
            r#"{"chosen":"automatic","quantiles":2,"edges":["0.1","0.2","1.3"]}"#
        );
        let back: Bins = serde_json::from_str(&text).unwrap();
        assert_eq!(back, bins);
        assert!(
            serde_json::from_str::<Bins>(
                r#"{"chosen":"given","quantiles":null,"edges":["2","1"]}"#
            )
            .is_err()
        );
    }
}
