//! Rows counted by status: the one tally of the crate, a value that merges across batches,
//! runs, files and machines.
//!
//! Serialised as an object with one field per status of its kind, in [`Status::ALL`] order
//! (`{"solved": 3, "multiple": 0, ...}`); reading accepts the fields in any order, takes a
//! missing one as 0 and refuses a name of another kind.

use std::fmt;
use std::marker::PhantomData;
use std::ops::AddAssign;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::status::Status;

/// More statuses than any kind has.
const SLOTS: usize = 16;

/// Rows counted by status `S`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tally<S> {
    counts: [u64; SLOTS],
    kind: PhantomData<S>,
}

impl<S: Status> Default for Tally<S> {
    fn default() -> Self {
        debug_assert!(S::ALL.len() <= SLOTS);
        Tally {
            counts: [0; SLOTS],
            kind: PhantomData,
        }
    }
}

impl<S: Status> Tally<S> {
    /// Counts one row.
    pub fn add(&mut self, status: S) {
        self.counts[status.index()] += 1;
    }

    /// Counts `n` rows.
    pub fn add_count(&mut self, status: S, n: u64) {
        self.counts[status.index()] += n;
    }

    /// Rows with `status`.
    pub fn get(&self, status: S) -> u64 {
        self.counts[status.index()]
    }

    /// Rows of every status together.
    pub fn records(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// `(status, rows)` for every status of the kind, in [`Status::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (S, u64)> + '_ {
        S::ALL.iter().map(|&s| (s, self.get(s)))
    }

    /// The same rows, counted under the statuses `S` maps to.
    pub fn map<T: Status>(&self, to: impl Fn(S) -> T) -> Tally<T> {
        let mut mapped = Tally::default();
        for (status, n) in self.iter() {
            mapped.add_count(to(status), n);
        }
        mapped
    }
}

impl<S: Status> AddAssign for Tally<S> {
    fn add_assign(&mut self, other: Tally<S>) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
    }
}

impl<S: Status> fmt::Debug for Tally<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(
                self.iter()
                    .filter(|(_, n)| *n > 0)
                    .map(|(s, n)| (s.name(), n)),
            )
            .finish()
    }
}

impl<S: Status> Serialize for Tally<S> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        let mut map = serializer.serialize_map(Some(S::ALL.len()))?;
        for (status, n) in self.iter() {
            map.serialize_entry(status.name(), &n)?;
        }
        map.end()
    }
}

impl<'de, S: Status> Deserialize<'de> for Tally<S> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Counts<S>(PhantomData<S>);

        impl<'de, S: Status> Visitor<'de> for Counts<S> {
            type Value = Tally<S>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a count per status name")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tally<S>, A::Error> {
                let mut tally = Tally::default();
                while let Some((name, n)) = map.next_entry::<String, u64>()? {
                    let status = S::from_name(&name).ok_or_else(|| {
                        let names: Vec<&str> = S::ALL.iter().map(|s| s.name()).collect();
                        serde::de::Error::custom(format!(
                            "unknown status '{name}' (expected one of {})",
                            names.join(", ")
                        ))
                    })?;
                    tally.add_count(status, n);
                }
                Ok(tally)
            }
        }

        deserializer.deserialize_map(Counts(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::{RowStatus, SolveStatus};

    #[test]
    fn tallies_merge() {
        let mut a = Tally::default();
        a.add(RowStatus::Solved);
        a.add(RowStatus::Invalid);
        let mut b = Tally::default();
        b.add(RowStatus::Solved);
        a += b;
        assert_eq!(a.get(RowStatus::Solved), 2);
        assert_eq!(a.get(RowStatus::Invalid), 1);
        assert_eq!(a.get(RowStatus::Ok), 0);
        assert_eq!(a.records(), 3);
        a.add_count(RowStatus::Ok, 5);
        assert_eq!(a.get(RowStatus::Ok), 5);
    }

    #[test]
    fn serialises_every_status_of_its_kind_and_reads_back() {
        let mut t = Tally::default();
        t.add_count(SolveStatus::Multiple, 3);
        let text = serde_json::to_string(&t).unwrap();
        assert_eq!(
            text,
            r#"{"solved":0,"multiple":3,"unsolvable":0,"invalid":0,"gave_up":0,"stuck":0}"#
        );
        assert_eq!(
            serde_json::from_str::<Tally<SolveStatus>>(&text).unwrap(),
            t
        );
        assert_eq!(
            serde_json::from_str::<Tally<SolveStatus>>(r#"{"multiple":3}"#).unwrap(),
            t
        );
        let err = serde_json::from_str::<Tally<SolveStatus>>(r#"{"ok":1}"#).unwrap_err();
        assert!(err.to_string().contains("unknown status 'ok'"), "{err}");
    }

    #[test]
    fn a_tally_maps_onto_another_kind() {
        let mut t = Tally::default();
        t.add_count(SolveStatus::Stuck, 2);
        let rows: Tally<RowStatus> = t.map(RowStatus::from);
        assert_eq!(rows.get(RowStatus::Stuck), 2);
        assert_eq!(rows.records(), 2);
    }
}
