//! Deterministic shards: which records of the inputs shard `K` of `N` handles, so that `N`
//! independent runs (a Slurm job array, a Kubernetes Indexed Job) together handle every record
//! once, and their outputs, concatenated in the order of `K`, are the output of one run.
//!
//! # The rules
//! - **One stream.** The inputs, in the order given, are one stream of bytes: each plain file
//!   counts with its size, each gzip file with the size of its *decompressed* bytes. With `T`
//!   the stream's length, shard `K` of `N` (`K` from 0) owns the bytes
//!   `floor(K * T / N) .. floor((K + 1) * T / N)`.
//! - **A record belongs to the shard whose bytes hold its first byte**, the first byte of the
//!   line where the record starts; a shard reads its last record to its end, past its own
//!   bytes (as Hadoop's line reader does). Blank and comment lines belong to no record.
//! - **Finding the first record.** A shard reads each input from its start and passes over the
//!   records that start before its bytes ([`crate::format::Span::from`]), so every record keeps
//!   its true line number and the records are exactly those a single run reads:
//!   - *line*: any line may start a record, so the lines before are skipped by counting
//!     newlines, without being parsed;
//!   - *CSV*: every shard reads the header; then, since a quoted field may hold line breaks, a
//!     line starts a record only if no quote is open before it, which only a scan from the
//!     start can tell: the records before are read (not solved) and dropped;
//!   - *grid*: a line starts a puzzle only after a blank line or a completed puzzle, so the
//!     records before are read and dropped in the same way.
//! - **Gzip** cannot be entered in the middle: a shard decompresses a gzip input from its start
//!   up to the end of its bytes, after decompressing it once whole to learn its length. The
//!   shares are contiguous ranges like those of a plain file, so that outputs concatenate.
//! - **Every shard opens every input**, even one holding none of its records, so that an input
//!   that cannot be read (a missing CSV column) fails every shard as it fails a single run.
//! - Standard input cannot be sharded (it cannot be read twice); nor can a FIFO or a device.
//!
//! Output rows follow input order, and the `file` column is there when there are several inputs,
//! as in a single run, so `merge` only concatenates. `--shard auto` takes `K` and `N` from the
//! scheduler's environment ([`Shard::from_env`]).

use std::ffi::OsString;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::files::Input;
use crate::files::digest::Prefix;
use crate::format::{Position, Span};

/// Where the summary of the rows in `output` is written by `solve --shard` (unless `--summary`
/// says otherwise) and by `merge`, and where `merge` looks for it: beside it, with
/// `.summary.json` added to its name (`part-3.csv` -> `part-3.csv.summary.json`).
pub fn summary_path(output: &Path) -> PathBuf {
    let mut name = OsString::from(output.as_os_str());
    name.push(".summary.json");
    PathBuf::from(name)
}

/// Shard `index` of `count` (`index` from 0, below `count`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    /// `K`: which shard, from 0.
    pub index: u64,
    /// `N`: how many shards there are.
    pub count: u64,
}

/// Why a shard cannot be named or found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// `--shard` is neither `K/N` nor `auto`.
    #[error("--shard takes K/N (K from 0, below N: 0/16 .. 15/16) or auto, not '{0}'")]
    Syntax(String),
    /// `N` is 0.
    #[error("the number of shards must be at least 1")]
    NoShards,
    /// `K` is not below `N`.
    #[error(
        "shard {index} of {count} does not exist: K counts from 0, so it must be below {count}"
    )]
    OutOfRange {
        /// `K`.
        index: u64,
        /// `N`.
        count: u64,
    },
    /// `--shard auto` without a scheduler's variables.
    #[error(
        "--shard auto needs SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (a Slurm job array) \
         or JOB_COMPLETION_INDEX and --shards N (a Kubernetes Indexed Job); none is set"
    )]
    NoScheduler,
    /// A scheduler's variable is missing or not a number.
    #[error("--shard auto: {name} is {}", .value.as_deref().map_or("not set".to_string(), |v| format!("'{v}', not a number")))]
    Variable {
        /// The variable.
        name: &'static str,
        /// Its value, if set.
        value: Option<String>,
    },
    /// The Slurm array's task ids are not one evenly spaced range, so they do not map to
    /// `0..N`.
    #[error(
        "--shard auto: the Slurm array's task ids are not one evenly spaced range (task {id}, \
         min {min}, step {step}, count {count}); submit it as --array=0-{last}, or give --shard K/N",
        last = .count.saturating_sub(1)
    )]
    Uneven {
        /// SLURM_ARRAY_TASK_ID.
        id: u64,
        /// SLURM_ARRAY_TASK_MIN.
        min: u64,
        /// SLURM_ARRAY_TASK_STEP.
        step: u64,
        /// SLURM_ARRAY_TASK_COUNT.
        count: u64,
    },
    /// JOB_COMPLETION_INDEX without the number of shards.
    #[error(
        "--shard auto: JOB_COMPLETION_INDEX is set, but not how many shards there are: \
         give --shards N (the Job's completions)"
    )]
    NoCount,
    /// `--shards` disagrees with the scheduler.
    #[error("--shards {given}, but {name} is {found}")]
    CountDiffers {
        /// `--shards`.
        given: u64,
        /// The variable that gives the count.
        name: &'static str,
        /// Its value.
        found: u64,
    },
}

impl Shard {
    /// Shard `index` of `count`, when it exists.
    pub fn new(index: u64, count: u64) -> Result<Shard, ShardError> {
        if count == 0 {
            Err(ShardError::NoShards)
        } else if index >= count {
            Err(ShardError::OutOfRange { index, count })
        } else {
            Ok(Shard { index, count })
        }
    }

    /// The shard of this task of a job array, from the scheduler's environment (`var` looks a
    /// variable up), with `count` the `--shards` given, if any.
    ///
    /// - Slurm (`sbatch --array`): `K = (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN) /
    ///   SLURM_ARRAY_TASK_STEP` and `N = SLURM_ARRAY_TASK_COUNT`, so `--array=0-15` and
    ///   `--array=1-16` are both shards 0 to 15 of 16. Ids that are not one evenly spaced
    ///   range (`--array=1,4,9`) are refused.
    /// - Kubernetes Indexed Job: `K = JOB_COMPLETION_INDEX`, `N` = `count` (the Job's
    ///   `completions`, which Kubernetes does not pass to the pod).
    pub fn from_env(
        var: impl Fn(&str) -> Option<String>,
        count: Option<u64>,
    ) -> Result<Shard, ShardError> {
        let number = |name: &'static str| -> Result<Option<u64>, ShardError> {
            match var(name) {
                None => Ok(None),
                Some(value) => value
                    .trim()
                    .parse()
                    .map(Some)
                    .map_err(|_| ShardError::Variable {
                        name,
                        value: Some(value),
                    }),
            }
        };
        let required =
            |name: &'static str| number(name)?.ok_or(ShardError::Variable { name, value: None });
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let total = required("SLURM_ARRAY_TASK_COUNT")?;
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let max = number("SLURM_ARRAY_TASK_MAX")?;
            let uneven = ShardError::Uneven {
                id,
                min,
                step,
                count: total,
            };
            let offset = id.checked_sub(min).ok_or(uneven.clone())?;
            let spans_ids = max.is_none_or(|max| {
                total.checked_sub(1).and_then(|n| n.checked_mul(step)) == max.checked_sub(min)
            });
            // A task past the array's count (its variables set by hand, or not by one array)
            // is named by the variables, not by the K they make.
            if offset % step != 0 || !spans_ids || offset / step >= total {
                return Err(uneven);
            }
            if let Some(given) = count.filter(|&c| c != total) {
                return Err(ShardError::CountDiffers {
                    given,
                    name: "SLURM_ARRAY_TASK_COUNT",
                    found: total,
                });
            }
            return Shard::new(offset / step, total);
        }
        if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            return Shard::new(index, count.ok_or(ShardError::NoCount)?);
        }
        Err(ShardError::NoScheduler)
    }

    /// This shard's bytes of a stream of `total` bytes: `start..end`.
    pub fn range(self, total: u64) -> (u64, u64) {
        let at = |k: u64| (u128::from(k) * u128::from(total) / u128::from(self.count)) as u64;
        (at(self.index), at(self.index + 1))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    /// `K/N`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let syntax = || ShardError::Syntax(s.to_string());
        let (index, count) = s.split_once('/').ok_or_else(syntax)?;
        let number = |t: &str| t.trim().parse::<u64>().map_err(|_| syntax());
        Shard::new(number(index)?, number(count)?)
    }
}

/// What `--shard` says: a shard, or `auto` (from the scheduler's environment).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShardChoice {
    /// `K/N`.
    Fixed(Shard),
    /// `auto`.
    Auto,
}

impl FromStr for ShardChoice {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.trim().eq_ignore_ascii_case("auto") {
            Ok(ShardChoice::Auto)
        } else {
            s.parse().map(ShardChoice::Fixed)
        }
    }
}

/// Why the inputs cannot be divided into shards.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// Standard input, a FIFO or a device: it cannot be read again by every shard.
    #[error(
        "cannot shard {name}: only regular files can be sharded (every shard reads them from the start)"
    )]
    NotAFile {
        /// The input's name.
        name: String,
    },
    /// Measuring an input failed (a missing file, a corrupt gzip stream).
    #[error("cannot read {name} to divide it into shards: {source}")]
    Measure {
        /// The input's name.
        name: String,
        /// The error.
        source: io::Error,
    },
}

/// Which part of each input one shard reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Per input: the offsets of its records that this shard handles (`from..end`, `None`: to
    /// the end), or `None` when it handles none.
    shares: Vec<Option<(u64, Option<u64>)>>,
    /// The inputs as measured, each whole: name, stream length and digest.
    inputs: Vec<Prefix>,
}

impl Plan {
    /// Shard `shard` of inputs whose streams are `lengths` bytes long, in order.
    pub fn new(lengths: &[u64], shard: Shard) -> Plan {
        let total = lengths.iter().sum();
        let (start, end) = shard.range(total);
        let mut base = 0;
        let shares = lengths
            .iter()
            .map(|&length| {
                let (first, last) = (base, base + length);
                base = last;
                (length > 0 && start < last && end > first).then(|| {
                    let from = start.saturating_sub(first);
                    (from, (end < last).then(|| end - first))
                })
            })
            .collect();
        Plan {
            shares,
            inputs: Vec::new(),
        }
    }

    /// Measures `inputs` (reading each whole, decompressing the gzip ones: its length, and its
    /// digest for the shard's summary) and plans shard `shard` of them.
    pub fn measure(inputs: &[Input], shard: Shard) -> Result<Plan, PlanError> {
        let measured = inputs
            .iter()
            .map(|input| {
                let not_a_file = || PlanError::NotAFile {
                    name: input.name.clone(),
                };
                let path = input.path().ok_or_else(not_a_file)?;
                let measure = |source| PlanError::Measure {
                    name: input.name.clone(),
                    source,
                };
                if !std::fs::metadata(path).map_err(measure)?.is_file() {
                    return Err(not_a_file());
                }
                input.whole().map_err(measure)
            })
            .collect::<Result<Vec<Prefix>, PlanError>>()?;
        let lengths: Vec<u64> = measured.iter().map(|m| m.bytes).collect();
        Ok(Plan {
            inputs: measured,
            ..Plan::new(&lengths, shard)
        })
    }

    /// The inputs as [`Plan::measure`] found them, each whole.
    pub fn inputs(&self) -> &[Prefix] {
        &self.inputs
    }

    /// The span a reader of input `index` covers: the records of this shard, or none (the
    /// reader then stops at the first record, after reading a CSV's header).
    pub fn span(&self, index: usize) -> Span {
        let (from, end) = self.shares[index].unwrap_or((0, Some(0)));
        Span {
            start: Position::START,
            from,
            end,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn parses_k_of_n() {
        assert_eq!(
            "3/16".parse(),
            Ok(Shard {
                index: 3,
                count: 16
            })
        );
        assert_eq!("auto".parse(), Ok(ShardChoice::Auto));
        assert_eq!(
            "0/1".parse(),
            Ok(ShardChoice::Fixed(Shard { index: 0, count: 1 }))
        );
        assert_eq!(
            "16/16".parse::<Shard>(),
            Err(ShardError::OutOfRange {
                index: 16,
                count: 16
            })
        );
        assert_eq!("0/0".parse::<Shard>(), Err(ShardError::NoShards));
        for bad in ["3", "a/4", "1/-2", "", "1/2/3"] {
            assert_eq!(
                bad.parse::<Shard>(),
                Err(ShardError::Syntax(bad.to_string()))
            );
        }
    }

    #[test]
    fn ranges_cover_the_stream_once_in_order() {
        for total in [0u64, 1, 7, 100, u64::MAX] {
            for count in 1..=9 {
                let mut next = 0;
                for index in 0..count {
                    let (start, end) = Shard { index, count }.range(total);
                    assert_eq!(start, next);
                    assert!(end >= start);
                    next = end;
                }
                assert_eq!(next, total, "{total} bytes in {count} shards");
            }
        }
        assert_eq!(Shard { index: 1, count: 3 }.range(10), (3, 6));
    }

    #[test]
    fn plans_give_each_input_its_part_of_the_range() {
        // Three inputs of 10, 0 and 20 bytes: 30 bytes, 10 per shard of 3.
        let lengths = [10, 0, 20];
        let plan = |k| Plan::new(&lengths, Shard { index: k, count: 3 }).shares;
        assert_eq!(plan(0), vec![Some((0, None)), None, None]);
        assert_eq!(plan(1), vec![None, None, Some((0, Some(10)))]);
        assert_eq!(plan(2), vec![None, None, Some((10, None))]);
        let plan = Plan::new(&lengths, Shard { index: 0, count: 2 });
        assert_eq!(plan.shares, vec![Some((0, None)), None, Some((0, Some(5)))]);
        assert_eq!(plan.span(1).end, Some(0));
        assert_eq!(plan.span(2).from, 0);
    }

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn slurm_task_ids_map_to_shards_from_zero() {
        let slurm = |id: &str, min: &str, max: &str, count: &str| {
            env(&[
                ("SLURM_ARRAY_TASK_ID", id),
                ("SLURM_ARRAY_TASK_MIN", min),
                ("SLURM_ARRAY_TASK_MAX", max),
                ("SLURM_ARRAY_TASK_COUNT", count),
            ])
        };
        let shard = |index, count| Ok(Shard { index, count });
        assert_eq!(
            Shard::from_env(slurm("5", "0", "15", "16"), None),
            shard(5, 16)
        );
        // --array=1-16: task 1 is shard 0.
        assert_eq!(
            Shard::from_env(slurm("1", "1", "16", "16"), None),
            shard(0, 16)
        );
        assert_eq!(
            Shard::from_env(slurm("16", "1", "16", "16"), Some(16)),
            shard(15, 16)
        );
        // --array=0-30:10 has tasks 0, 10, 20, 30.
        let stepped = env(&[
            ("SLURM_ARRAY_TASK_ID", "20"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "30"),
            ("SLURM_ARRAY_TASK_STEP", "10"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(Shard::from_env(stepped, None), shard(2, 4));
        // Task 4 of an array of 3 from 1, no MAX given: past the array.
        let past = env(&[
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_STEP", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ]);
        let err = Shard::from_env(past, None).unwrap_err();
        assert!(matches!(err, ShardError::Uneven { id: 4, .. }), "{err}");
        assert!(err.to_string().contains("--array=0-2"), "{err}");
        // --array=1,4,9: three tasks whose ids are not a range.
        assert!(matches!(
            Shard::from_env(slurm("4", "1", "9", "3"), None),
            Err(ShardError::Uneven { .. })
        ));
        assert_eq!(
            Shard::from_env(slurm("2", "0", "3", "4"), Some(8)),
            Err(ShardError::CountDiffers {
                given: 8,
                name: "SLURM_ARRAY_TASK_COUNT",
                found: 4
            })
        );
        assert_eq!(
            Shard::from_env(env(&[("SLURM_ARRAY_TASK_ID", "2")]), None),
            Err(ShardError::Variable {
                name: "SLURM_ARRAY_TASK_COUNT",
                value: None
            })
        );
        let err = Shard::from_env(slurm("x", "0", "3", "4"), None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--shard auto: SLURM_ARRAY_TASK_ID is 'x', not a number"
        );
    }

    #[test]
    fn kubernetes_index_needs_the_count() {
        let k8s = env(&[("JOB_COMPLETION_INDEX", "7")]);
        assert_eq!(
            Shard::from_env(&k8s, Some(16)),
            Ok(Shard {
                index: 7,
                count: 16
            })
        );
        assert_eq!(Shard::from_env(&k8s, None), Err(ShardError::NoCount));
        assert_eq!(
            Shard::from_env(&k8s, Some(4)),
            Err(ShardError::OutOfRange { index: 7, count: 4 })
        );
        assert_eq!(
            Shard::from_env(env(&[]), Some(4)),
            Err(ShardError::NoScheduler)
        );
    }
}
