//! How many essentially different puzzles a set of rows holds: the distinct canonical forms
//! ([`crate::canon`]) of their puzzles, exactly, in a form that merges across batches, files
//! and shards.
//!
//! # Definition
//! - **puzzles**: rows whose puzzle has a canonical form: it could be read, its givens do not
//!   conflict, and its layout is the 3x3 boxes (jigsaw rows and `invalid` rows are not counted).
//! - **distinct**: the number of different canonical forms among them, that is of classes of
//!   puzzles equivalent under the symmetry group.
//!
//! The set is kept as the 128-bit digests of the forms ([`crate::canon::Canonical::digest`]):
//! two classes are counted as one only if their digests collide, with odds stated there (below
//! 10^-20 for a billion classes). Merging two sets is their union, so the merge of the parts'
//! counts is the count of the whole, in any order. The summary file holds the digests (as 32
//! hexadecimal digits each, sorted), so a saved summary costs about 42 bytes per class.
//!
//! Memory: a digest (16 bytes and a control byte) a class in a hash table at most 7/8 full that
//! grows by doubling: 20 to 39 bytes a class, up to 58 while it grows (the old table and the new
//! one together); writing the summary adds a sorted copy (16 bytes) and the text (42 bytes), so
//! about 100 bytes a class then. `solve` and `rate` bound the classes with `--max-classes`.

use std::collections::HashSet;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The distinct canonical forms of a set of rows; see the [module page](self).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DistinctForms {
    puzzles: u64,
    digests: HashSet<u128>,
}

impl DistinctForms {
    /// No rows.
    pub fn new() -> DistinctForms {
        DistinctForms::default()
    }

    /// Counts one puzzle whose canonical form has `digest`.
    pub fn add(&mut self, digest: u128) {
        self.puzzles += 1;
        self.digests.insert(digest);
    }

    /// Adds the puzzles and classes of `other`.
    pub fn merge(&mut self, other: &DistinctForms) {
        self.puzzles += other.puzzles;
        self.digests.extend(&other.digests);
    }

    /// Puzzles counted.
    pub fn puzzles(&self) -> u64 {
        self.puzzles
    }

    /// Distinct canonical forms among them.
    pub fn distinct(&self) -> u64 {
        self.digests.len() as u64
    }
}

/// The summary document's form: `{"puzzles": N, "distinct": D, "digests": ["...", ...]}`, the
/// digests sorted, so the same set always writes the same bytes.
#[derive(Serialize, Deserialize)]
struct Document {
    puzzles: u64,
    distinct: u64,
    digests: Vec<String>,
}

impl Serialize for DistinctForms {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut sorted: Vec<u128> = self.digests.iter().copied().collect();
        sorted.sort_unstable();
        // The fields of [`Document`], the digests written out one at a time (not gathered as
        // strings first: 56 bytes more a class while the summary is written).
        let mut document = serializer.serialize_struct("Document", 3)?;
        document.serialize_field("puzzles", &self.puzzles)?;
        document.serialize_field("distinct", &self.distinct())?;
        document.serialize_field("digests", &Hex(&sorted))?;
        document.end()
    }
}

/// Digests written as 32 hexadecimal digits each, in order.
struct Hex<'a>(&'a [u128]);

impl Serialize for Hex<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct One(u128);
        impl Serialize for One {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(&format_args!("{:032x}", self.0))
            }
        }
        serializer.collect_seq(self.0.iter().map(|&d| One(d)))
    }
}

impl<'de> Deserialize<'de> for DistinctForms {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let document = Document::deserialize(deserializer)?;
        let mut digests = HashSet::with_capacity(document.digests.len());
        for text in &document.digests {
            let digest = u128::from_str_radix(text, 16)
                .ok()
                .filter(|_| text.len() == 32)
                .ok_or_else(|| D::Error::custom(format!("'{text}' is not a digest")))?;
            digests.insert(digest);
        }
        if digests.len() as u64 != document.distinct || document.distinct > document.puzzles {
            return Err(D::Error::custom(format!(
                "canonical: {} distinct digests listed, 'distinct' says {}, 'puzzles' {}",
                digests.len(),
                document.distinct,
                document.puzzles
            )));
        }
        Ok(DistinctForms {
            puzzles: document.puzzles,
            digests,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_parts_counts_the_whole() {
        let (mut a, mut b, mut whole) = (
            DistinctForms::new(),
            DistinctForms::new(),
            DistinctForms::new(),
        );
        for (i, d) in [1u128, 2, 2, 3, 1, 4].into_iter().enumerate() {
            if i % 2 == 0 {
                a.add(d)
            } else {
                b.add(d)
            }
            whole.add(d);
        }
        a.merge(&b);
        assert_eq!(a, whole);
        assert_eq!((whole.puzzles(), whole.distinct()), (6, 4));
    }

    #[test]
    fn the_document_round_trips_and_refuses_nonsense() {
        let mut forms = DistinctForms::new();
        forms.add(0xab);
        forms.add(7);
        forms.add(7);
        let text = serde_json::to_string(&forms).unwrap();
        assert_eq!(
            text,
            format!(
                r#"{{"puzzles":3,"distinct":2,"digests":["{:032x}","{:032x}"]}}"#,
                7, 0xab
            )
        );
        assert_eq!(serde_json::from_str::<DistinctForms>(&text).unwrap(), forms);
        let wrong_count = text.replace("\"distinct\":2", "\"distinct\":3");
        assert!(serde_json::from_str::<DistinctForms>(&wrong_count).is_err());
        let short = r#"{"puzzles":1,"distinct":1,"digests":["ab"]}"#;
        assert!(serde_json::from_str::<DistinctForms>(short).is_err());
    }
}
