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

/// Values below this are counted in a vector rather than a map: most counters of most records
/// are small, and adding a record must stay cheap next to solving its puzzle. The vector grows
/// only as far as the largest value seen (at most 8 KiB).
const DENSE: usize = 1024;

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
#[derive(Debug, Clone, Default)]
pub struct Distribution {
    /// `dense[v]` = occurrences of `v`, for `v < DENSE`.
    dense: Vec<u64>,
    /// Occurrences of values `>= DENSE`.
    sparse: Sparse,
    count: u64,
    sum: u128,
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

    /// Adds every occurrence recorded in `other`.
    pub fn merge(&mut self, other: &Distribution) {
        for (value, times) in other.iter() {
            self.add_count(value, times);
        }
    }

    /// `(value, occurrences)` for every value that occurred, in increasing order of value.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let dense = self
            .dense
            .iter()
            .enumerate()
            .filter(|&(_, &times)| times > 0)
            .map(|(value, &times)| (value as u64, times));
        let mut sparse: Vec<(u64, u64)> = self.sparse.iter().map(|(&v, &t)| (v, t)).collect();
        sparse.sort_unstable();
        dense.chain(sparse)
    }

    /// How many values were recorded.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Whether no value was recorded.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The exact sum of the values.
    pub fn sum(&self) -> u128 {
        self.sum
    }

    /// The smallest value, if any.
    pub fn min(&self) -> Option<u64> {
        self.iter().next().map(|(value, _)| value)
    }

    /// The largest value, if any.
    pub fn max(&self) -> Option<u64> {
        match self.sparse.keys().max() {
            Some(&value) => Some(value),
            None => self.dense.iter().rposition(|&t| t > 0).map(|v| v as u64),
        }
    }

    /// The exact sum divided by the count, rounded once to `f64`; `None` when empty.
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum as f64 / self.count as f64)
    }

    /// The `p`-th percentile by the nearest-rank rule (see the [module documentation](self)):
    /// the smallest value `v` such that at least `ceil(p * n / 100)` values are `<= v`, at
    /// least the first. `None` when empty.
    ///
    /// # Panics
    /// When `p` is above 100.
    pub fn percentile(&self, p: u32) -> Option<u64> {
        assert!(p <= 100, "a percentile is at most 100, not {p}");
        if self.count == 0 {
            return None;
        }
        let rank = (u128::from(p) * u128::from(self.count))
            .div_ceil(100)
            .max(1);
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
        self.count == other.count && self.iter().eq(other.iter())
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
