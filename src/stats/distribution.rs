//! The exact distribution of one counter (how many records had each value), with the
//! quantiles, the mean and the histograms derived from it.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::AddAssign;

use serde::{Deserialize, Serialize};

/// How a histogram groups values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Buckets {
    /// `[0]`, `[1]`, `[2,3]`, `[4,7]`, `[8,15]`, ...: bucket `k > 0` holds `2^(k-1) ..= 2^k - 1`.
    PowersOfTwo,
    /// One bucket per value, when the values span at most [`PER_VALUE_SPAN`]; otherwise
    /// powers of two.
    PerValue,
}

/// The widest range of values (`max - min + 1`) that [`Buckets::PerValue`] gives one bucket each.
pub const PER_VALUE_SPAN: u64 = 256;

impl Buckets {
    /// The index of the bucket holding `value`.
    fn index(self, value: u64) -> u64 {
        match self {
            Buckets::PowersOfTwo => u64::from(u64::BITS - value.leading_zeros()),
            Buckets::PerValue => value,
        }
    }

    /// The first and last value of bucket `index`.
    fn bounds(self, index: u64) -> (u64, u64) {
        match self {
            Buckets::PowersOfTwo if index == 0 => (0, 0),
            Buckets::PowersOfTwo => {
                let from = 1u64 << (index - 1);
                (from, from + (from - 1))
            }
            Buckets::PerValue => (index, index),
        }
    }
}

/// One histogram bucket: how many values lie in `from..=to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bucket {
    /// The smallest value of the bucket.
    pub from: u64,
    /// The largest value of the bucket.
    pub to: u64,
    /// How many values lie in `from..=to`.
    pub count: u64,
}

/// Values below this are counted in a vector rather than a map, once a distribution holds
/// [`MANY`] values: most counters of most records are small, and adding a record must stay
/// cheap next to solving its puzzle. The vector grows only as far as the largest value seen (at
/// most 8 KiB).
const DENSE: usize = 1024;

/// How many values a distribution holds before it counts them in the fast form ([`Many`]).
/// Below this it keeps a sorted list of `(value, occurrences)`, at most 16 bytes per value
/// recorded, so that the summary of a small group (`stats --by` over a column with a value per
/// row) costs a few words rather than kilobytes; at or above it the dense vector costs at most
/// 8 bytes per value recorded.
const MANY: u64 = 1024;

/// Occurrences of the values `>= DENSE`, hashed for cheap adds; sorted only when read.
type Sparse = HashMap<u64, u64, BuildHasherDefault<ValueHasher>>;

/// A fast hasher for `u64` keys (the splitmix64 finaliser): the keys are counter values, not
/// input an attacker chooses to collide.
#[derive(Debug, Clone, Copy, Default)]
struct ValueHasher(u64);

impl Hasher for ValueHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, value: u64) {
        let mut x = value.wrapping_add(0x9E37_79B9_7F4A_7C15);
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        self.0 = x ^ (x >> 31);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The exact distribution of one counter: how many times each value occurred.
///
/// Serialised as `{"values": {"VALUE": COUNT, ...}}` with values in increasing order and no
/// zero counts; two distributions are equal when they hold the same values the same number of
/// times.
///
/// It takes 24 bytes and nothing on the heap while it holds one distinct value, a sorted list
/// while it holds fewer than [`MANY`] values, and a vector indexed by value (plus a map for large
/// values) after that: the memory of a distribution never exceeds about 16 bytes per value
/// recorded plus 8 KiB, whatever the values.
#[derive(Debug, Clone, Default)]
pub struct Distribution {
    values: Values,
}

/// How a [`Distribution`] stores its values.
#[derive(Debug, Clone, Default)]
enum Values {
    /// No value yet.
    #[default]
    Empty,
    /// One distinct value and its occurrences (> 0).
    One((u64, u64)),
    /// Fewer than [`MANY`] values in all, distinct, sorted by value, occurrences > 0.
    Few(Vec<(u64, u64)>),
    /// The fast form.
    Many(Box<Many>),
}

/// Values counted by index below [`DENSE`] and hashed above it, with their count and sum.
#[derive(Debug, Clone, Default)]
struct Many {
    /// `dense[v]` = occurrences of `v`, for `v < DENSE`.
    dense: Vec<u64>,
    /// Occurrences of values `>= DENSE`.
    sparse: Sparse,
    count: u64,
    sum: u128,
}

impl Many {
    #[inline]
    fn add_count(&mut self, value: u64, times: u64) {
        if value < DENSE as u64 {
            let i = value as usize;
            if i >= self.dense.len() {
                self.dense.resize(i + 1, 0);
            }
            self.dense[i] += times;
        } else {
            *self.sparse.entry(value).or_insert(0) += times;
        }
        self.count += times;
        self.sum += u128::from(value) * u128::from(times);
    }
}

impl Distribution {
    /// An empty distribution.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one occurrence of `value`.
    #[inline]
    pub fn add(&mut self, value: u64) {
        self.add_count(value, 1);
    }

    /// Records `times` occurrences of `value`.
    #[inline]
    pub fn add_count(&mut self, value: u64, times: u64) {
        if times == 0 {
            return;
        }
        match &mut self.values {
            Values::Many(many) => many.add_count(value, times),
            Values::Empty => self.values = Values::One((value, times)),
            Values::One((v, t)) if *v == value => *t += times,
            Values::One((v, t)) => {
                let (one, other) = ((*v, *t), (value, times));
                self.values = Values::Few(if one.0 < other.0 {
                    vec![one, other]
                } else {
                    vec![other, one]
                });
                self.grow_if_many();
            }
            Values::Few(few) => {
                match few.binary_search_by_key(&value, |&(v, _)| v) {
                    Ok(i) => few[i].1 += times,
                    Err(i) => few.insert(i, (value, times)),
                }
                self.grow_if_many();
            }
        }
    }

    /// Moves a list of values that reached [`MANY`] values to the fast form.
    fn grow_if_many(&mut self) {
        let Values::Few(few) = &self.values else {
            return;
        };
        if few.iter().map(|&(_, t)| t).sum::<u64>() < MANY {
            return;
        }
        let mut many = Many::default();
        for &(value, times) in few {
            many.add_count(value, times);
        }
        self.values = Values::Many(Box::new(many));
    }

    /// Adds every occurrence recorded in `other`.
    pub fn merge(&mut self, other: &Distribution) {
        for (value, times) in other.iter() {
            self.add_count(value, times);
        }
    }

    /// `(value, occurrences)` for every value that occurred, in increasing order of value.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let (listed, many) = match &self.values {
            Values::Empty => (&[][..], None),
            Values::One(pair) => (std::slice::from_ref(pair), None),
            Values::Few(few) => (&few[..], None),
            Values::Many(many) => (&[][..], Some(&**many)),
        };
        let dense = many
            .map_or(&[][..], |m| &m.dense[..])
            .iter()
            .enumerate()
            .filter(|&(_, &times)| times > 0)
            .map(|(value, &times)| (value as u64, times));
        let sparse = many.map_or_else(Vec::new, |m| {
            let mut sparse: Vec<(u64, u64)> = m.sparse.iter().map(|(&v, &t)| (v, t)).collect();
            sparse.sort_unstable();
            sparse
        });
        listed.iter().copied().chain(dense).chain(sparse)
    }

    /// How many values were recorded.
    pub fn count(&self) -> u64 {
        match &self.values {
            Values::Many(many) => many.count,
            _ => self.iter().map(|(_, times)| times).sum(),
        }
    }

    /// Whether no value was recorded.
    pub fn is_empty(&self) -> bool {
        matches!(self.values, Values::Empty)
    }

    /// The exact sum of the values.
    pub fn sum(&self) -> u128 {
        match &self.values {
            Values::Many(many) => many.sum,
            _ => self
                .iter()
                .map(|(value, times)| u128::from(value) * u128::from(times))
                .sum(),
        }
    }

    /// The smallest value, if any.
    pub fn min(&self) -> Option<u64> {
        self.iter().next().map(|(value, _)| value)
    }

    /// The largest value, if any.
    pub fn max(&self) -> Option<u64> {
        match &self.values {
            Values::Empty => None,
            Values::One((value, _)) => Some(*value),
            Values::Few(few) => few.last().map(|&(value, _)| value),
            Values::Many(many) => match many.sparse.keys().max() {
                Some(&value) => Some(value),
                None => many.dense.iter().rposition(|&t| t > 0).map(|v| v as u64),
            },
        }
    }

    /// The exact sum divided by the count, rounded once to `f64`; `None` when empty.
    pub fn mean(&self) -> Option<f64> {
        self.mean_in(1)
    }

    /// [`Distribution::mean`] of values counted in `unit`ths (tenths: 10), in one division, so
    /// that a mean a decimal can hold prints as that decimal (5.73, not 5.7299999999999995).
    pub fn mean_in(&self, unit: u32) -> Option<f64> {
        let count = self.count();
        (count > 0).then(|| self.sum() as f64 / (count as f64 * f64::from(unit)))
    }

    /// The `p`-th percentile by the nearest-rank rule (see the [module documentation](self)):
    /// the smallest value `v` such that at least `ceil(p * n / 100)` values are `<= v`, at
    /// least the first. `None` when empty.
    ///
    /// # Panics
    /// When `p` is above 100.
    pub fn percentile(&self, p: u32) -> Option<u64> {
        assert!(p <= 100, "a percentile is at most 100, not {p}");
        let count = self.count();
        if count == 0 {
            return None;
        }
        let rank = (u128::from(p) * u128::from(count)).div_ceil(100).max(1);
        let mut seen = 0u128;
        self.iter().find_map(|(value, times)| {
            seen += u128::from(times);
            (seen >= rank).then_some(value)
        })
    }

    /// The histogram of the values in `buckets`, from the bucket of the minimum to the bucket
    /// of the maximum without gaps; empty when no value was recorded.
    pub fn histogram(&self, buckets: Buckets) -> Vec<Bucket> {
        let (Some(min), Some(max)) = (self.min(), self.max()) else {
            return Vec::new();
        };
        let buckets = match buckets {
            Buckets::PerValue if max - min >= PER_VALUE_SPAN => Buckets::PowersOfTwo,
            other => other,
        };
        let first = buckets.index(min);
        let mut histogram: Vec<Bucket> = (first..=buckets.index(max))
            .map(|index| {
                let (from, to) = buckets.bounds(index);
                Bucket { from, to, count: 0 }
            })
            .collect();
        for (value, times) in self.iter() {
            histogram[(buckets.index(value) - first) as usize].count += times;
        }
        histogram
    }
}

impl PartialEq for Distribution {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Distribution {}

impl AddAssign<&Distribution> for Distribution {
    fn add_assign(&mut self, other: &Distribution) {
        self.merge(other);
    }
}

/// The serialised form of a [`Distribution`].
#[derive(Serialize, Deserialize)]
struct DistributionForm {
    values: BTreeMap<u64, u64>,
}

impl Serialize for Distribution {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        DistributionForm {
            values: self.iter().collect(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Distribution {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let form = DistributionForm::deserialize(deserializer)?;
        let mut distribution = Distribution::new();
        for (value, times) in form.values {
            distribution.add_count(value, times);
        }
        Ok(distribution)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(values: &[u64]) -> Distribution {
        let mut d = Distribution::new();
        values.iter().for_each(|&v| d.add(v));
        d
    }

    #[test]
    fn nearest_rank_percentiles() {
        let d = dist(&[1, 2, 3, 4]);
        assert_eq!(d.percentile(50), Some(2));
        assert_eq!(d.percentile(51), Some(3));
        assert_eq!(d.percentile(100), Some(4));
        assert_eq!(d.percentile(0), Some(1));
        let ten = dist(&[10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
        assert_eq!(ten.percentile(90), Some(9));
        assert_eq!(ten.percentile(91), Some(10));
        assert_eq!(ten.percentile(99), Some(10));
        assert_eq!(dist(&[]).percentile(50), None);
    }

    #[test]
    fn percentiles_see_large_values_in_the_sparse_part() {
        let d = dist(&[70_000, 3, 1000, 5000, 5000, 1 << 40, 2000]);
        assert_eq!(d.min(), Some(3));
        assert_eq!(d.max(), Some(1 << 40));
        assert_eq!(d.percentile(50), Some(5000));
        assert_eq!(d.percentile(14), Some(3));
        assert_eq!(d.percentile(15), Some(1000));
        assert_eq!(d.percentile(29), Some(2000));
        assert_eq!(d.percentile(85), Some(70_000));
        assert_eq!(d.percentile(86), Some(1 << 40));
        let sum = 3 + 1000 + 2000 + 5000 + 5000 + 70_000 + (1u128 << 40);
        assert_eq!(d.sum(), sum);
        assert_eq!(d.mean(), Some(sum as f64 / 7.0));
        let values: Vec<u64> = d.iter().map(|(v, _)| v).collect();
        assert_eq!(values, [3, 1000, 2000, 5000, 70_000, 1 << 40]);
    }

    #[test]
    fn power_of_two_buckets_run_without_gaps() {
        let h = dist(&[2, 3, 9, 300]).histogram(Buckets::PowersOfTwo);
        let got: Vec<(u64, u64, u64)> = h.iter().map(|b| (b.from, b.to, b.count)).collect();
        assert_eq!(
            got,
            [
                (2, 3, 2),
                (4, 7, 0),
                (8, 15, 1),
                (16, 31, 0),
                (32, 63, 0),
                (64, 127, 0),
                (128, 255, 0),
                (256, 511, 1)
            ]
        );
        let zero = dist(&[0, 1, 1]).histogram(Buckets::PowersOfTwo);
        assert_eq!(
            zero,
            [
                Bucket {
                    from: 0,
                    to: 0,
                    count: 1
                },
                Bucket {
                    from: 1,
                    to: 1,
                    count: 2
                }
            ]
        );
    }

    #[test]
    fn power_of_two_bucket_of_the_largest_value() {
        let h = dist(&[u64::MAX]).histogram(Buckets::PowersOfTwo);
        assert_eq!(h.len(), 1);
        assert_eq!((h[0].from, h[0].to), (1 << 63, u64::MAX));
    }

    #[test]
    fn per_value_buckets_include_empty_values() {
        let h = dist(&[17, 19, 19]).histogram(Buckets::PerValue);
        let got: Vec<(u64, u64)> = h.iter().map(|b| (b.from, b.count)).collect();
        assert_eq!(got, [(17, 1), (18, 0), (19, 2)]);
        assert!(h.iter().all(|b| b.from == b.to));
    }

    #[test]
    fn per_value_buckets_fall_back_to_powers_of_two_over_a_wide_span() {
        let last = PER_VALUE_SPAN - 1;
        assert_eq!(dist(&[0, last]).histogram(Buckets::PerValue).len(), 256);
        let wide = dist(&[0, last + 1]).histogram(Buckets::PerValue);
        assert_eq!(wide, dist(&[0, last + 1]).histogram(Buckets::PowersOfTwo));
        let huge = dist(&[17, 1 << 40]).histogram(Buckets::PerValue);
        assert_eq!(huge.len(), 37);
    }

    #[test]
    fn a_distribution_of_few_values_is_small_and_answers_as_the_fast_form_does() {
        assert_eq!(std::mem::size_of::<Distribution>(), 24);
        // Values of a small group, then of a large one: every answer agrees with a sorted list
        // of the values, before and after the change of form at MANY values.
        let mut d = Distribution::new();
        let mut values = Vec::new();
        let mut x = 7u64;
        for n in 0..3 * MANY {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let value = match n % 3 {
                0 => (x >> 60) % 5,
                1 => (x >> 40) % 3000,
                _ => x >> 20,
            };
            d.add(value);
            values.push(value);
            if [1, 2, 3, 100, MANY - 1, MANY, MANY + 1, 3 * MANY - 1].contains(&(n + 1)) {
                let few = matches!(d.values, Values::One(_) | Values::Few(_));
                assert_eq!(few, n + 1 < MANY, "form after {} values", n + 1);
                let mut sorted = values.clone();
                sorted.sort_unstable();
                assert_eq!(d.count(), sorted.len() as u64);
                assert_eq!(d.sum(), sorted.iter().map(|&v| u128::from(v)).sum::<u128>());
                assert_eq!(
                    (d.min(), d.max()),
                    (sorted.first().copied(), sorted.last().copied())
                );
                for p in [1, 50, 90, 99, 100] {
                    let rank = (p * sorted.len()).div_ceil(100).max(1);
                    assert_eq!(d.percentile(p as u32), Some(sorted[rank - 1]), "p{p}");
                }
                let mut counted: Vec<(u64, u64)> = Vec::new();
                for &v in &sorted {
                    match counted.last_mut() {
                        Some((last, times)) if *last == v => *times += 1,
                        _ => counted.push((v, 1)),
                    }
                }
                assert!(d.iter().eq(counted.iter().copied()));
            }
        }
        // One value many times stays one value.
        let mut one = Distribution::new();
        one.add_count(17, 5 * MANY);
        one.add(17);
        assert!(matches!(one.values, Values::One((17, _))));
        assert_eq!(one.count(), 5 * MANY + 1);
    }

    #[test]
    fn distributions_equal_whatever_their_storage() {
        let mut a = dist(&[1, 300]);
        let b = dist(&[300, 1]);
        assert_eq!(a, b);
        a.add_count(7, 0);
        assert_eq!(a, b);
        a.add(2);
        assert_ne!(a, b);
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, r#"{"values":{"1":1,"2":1,"300":1}}"#);
        assert_eq!(serde_json::from_str::<Distribution>(&json).unwrap(), a);
    }
}
