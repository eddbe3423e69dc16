//! `merge`: the outputs of the shards of one run ([`crate::shard`]) joined into the output of a
//! single run, and their summaries merged into its summary.
//!
//! Each shard output `P` has its summary beside it, `P.summary.json`
//! ([`shard::summary_path`]), whose `run` field says which shard `P` is and what it was made
//! from. Before writing anything, `merge` checks that the shards are of one run, that is that
//! they agree on the number of shards, the tool version, the inputs' fingerprints and the
//! options that change output bytes; that each shard is there exactly once; and that each
//! output still has the size its shard wrote, and that `OUT` and the merged summary are two
//! files, neither of them a shard's. Then it writes the outputs in the order of `K` (a CSV
//! header once, JSON lines as they are) and the merged summary (its `run` field without the
//! `shard` part), each to a temporary file; only once both are whole are they renamed over
//! `OUT` and its summary, so a merge that fails leaves both as they were. They are then byte
//! for byte what a single run over the same inputs writes (`solve -o OUT --summary
//! OUT.summary.json`).

use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use crate::files::digest::{Digest, Hasher, Prefix};
use crate::files::file_id::{Clash, RunFiles};
use crate::files::input::filled;
use crate::files::output::{Output, OutputError, Target, sealed_file};
use crate::files::side;
use crate::format::OutputFormat;
use crate::identity::options;
use crate::shard;
use crate::stats::Summary;
use crate::stats::document::{self, JsonError, RunInfo, ShardInfo};

/// Why shard outputs cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A shard output or its summary cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// A shard output has no summary beside it.
    #[error(
        "{}: no summary beside this shard output (looked for {}); solve --shard writes it there unless --summary names another file",
        output.display(), summary.display()
    )]
    NoSummary {
        /// The shard output.
        output: PathBuf,
        /// Where its summary was looked for.
        summary: PathBuf,
    },
    /// A summary that cannot be read.
    #[error("{}: {source}", path.display())]
    Summary {
        /// The summary file.
        path: PathBuf,
        /// What is wrong with it.
        source: JsonError,
    },
    /// A summary that records no shard.
    #[error(
        "{} is not the output of solve --shard: its summary records no shard (is it a merged output?)",
        output.display()
    )]
    NotAShard {
        /// The output.
        output: PathBuf,
    },
    /// Two shards of different runs.
    #[error("{} and {} are not shards of one run: {difference}", first.display(), other.display())]
    Foreign {
        /// The shard the others are compared with.
        first: PathBuf,
        /// The shard that differs.
        other: PathBuf,
        /// What differs.
        difference: String,
    },
    /// The same shard twice.
    #[error("{} and {} are both shard {index} of {count}", first.display(), other.display())]
    Duplicate {
        /// `K`.
        index: u64,
        /// `N`.
        count: u64,
        /// One output.
        first: PathBuf,
        /// The other.
        other: PathBuf,
    },
    /// Shards not given.
    #[error("{}", missing_message(.missing, *.count))]
    Missing {
        /// The missing `K`s.
        missing: Vec<u64>,
        /// `N`.
        count: u64,
    },
    /// A shard output whose size is not the one its shard recorded.
    #[error(
        "{} has {found} bytes, but its shard wrote {expected}: it was changed after the shard finished",
        output.display()
    )]
    Changed {
        /// The output.
        output: PathBuf,
        /// Its size now.
        found: u64,
        /// The size its summary records.
        expected: u64,
    },
    /// A shard output whose bytes are not the ones its shard wrote (same size, another digest).
    #[error(
        "{} is not the file its shard wrote (digest {found}, its shard wrote {expected}): it was changed after the shard finished",
        output.display()
    )]
    Altered {
        /// The output.
        output: PathBuf,
        /// Its digest now.
        found: Digest,
        /// The digest its summary records.
        expected: Digest,
    },
    /// A CSV shard output whose header is not the first shard's.
    #[error("{} does not start with the header row of {}", other.display(), first.display())]
    Header {
        /// The first shard's output.
        first: PathBuf,
        /// The output that differs.
        other: PathBuf,
    },
    /// The merged output would replace one of the shards.
    #[error(
        "{} is a shard output itself: name the merged file first (merge OUT SHARD_OUTPUT...)",
        output.display()
    )]
    WouldOverwrite {
        /// The output named.
        output: PathBuf,
    },
    /// The merged output's name asks for another format than the shards are in.
    #[error(
        "{} names a {named} file, but the shards are {shards}: merge joins their rows as they are; give the merged output a .{shards} name",
        output.display()
    )]
    FormatName {
        /// The output named.
        output: PathBuf,
        /// The format its name asks for.
        named: OutputFormat,
        /// The shards' format.
        shards: String,
    },
    /// The merged output and summary are one file, or one of them is a shard's file.
    #[error(transparent)]
    Clash(#[from] Clash),
    /// The merged output or summary cannot be written.
    #[error(transparent)]
    Output(#[from] OutputError),
}

fn missing_message(missing: &[u64], count: u64) -> String {
    let list: Vec<String> = missing.iter().map(u64::to_string).collect();
    match missing {
        [one] => format!("shard {one} of {count} is missing (no output given for it)"),
        _ => format!(
            "shards {} of {count} are missing (no output given for them)",
            list.join(", ")
        ),
    }
}

/// What a merge did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    /// The merged output.
    pub output: PathBuf,
    /// Where the merged summary went.
    pub summary: PathBuf,
    /// How many shards were joined.
    pub shards: u64,
    /// The rows of all of them.
    pub records: u64,
}

impl fmt::Display for Merged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "merged {} shards ({} records) into {}; summary in {}",
            self.shards,
            self.records,
            self.output.display(),
            self.summary.display()
        )
    }
}

/// One shard output with what its summary says.
struct Part {
    output: PathBuf,
    summary: Summary,
    run: RunInfo,
    shard: ShardInfo,
}

/// What `merge` is asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The merged output.
    pub output: PathBuf,
    /// The shards' outputs, in any order; each has its summary beside it.
    pub shards: Vec<PathBuf>,
    /// Where the merged summary goes.
    pub summary: PathBuf,
}

/// Checks the shards of `run` and writes the merged output and summary.
pub fn merge(run: &Request) -> Result<Merged, MergeError> {
    let mut parts = run
        .shards
        .iter()
        .map(|output| read_part(output))
        .collect::<Result<Vec<Part>, _>>()?;
    if run.shards.contains(&run.output) || is_shard_output(&run.output) {
        return Err(MergeError::WouldOverwrite {
            output: run.output.clone(),
        });
    }
    refuse_clashing_files(run, &parts[0].run.inputs)?;
    let first = &parts[0];
    for other in &parts[1..] {
        if let Some(difference) = difference(first, other) {
            return Err(MergeError::Foreign {
                first: first.output.clone(),
                other: other.output.clone(),
                difference,
            });
        }
    }
    // The shards share their options, the output format among them.
    let shards_format = first
        .run
        .options
        .get("output_format")
        .and_then(|f| f.as_str());
    if let (Some(named), Some(shards)) = (OutputFormat::of_name(&run.output), shards_format)
        && named.name() != shards
    {
        return Err(MergeError::FormatName {
            output: run.output.clone(),
            named,
            shards: shards.to_string(),
        });
    }
    let count = first.shard.count;
    let mut by_index: BTreeMap<u64, &Part> = BTreeMap::new();
    for part in &parts {
        if let Some(seen) = by_index.insert(part.shard.index, part) {
            return Err(MergeError::Duplicate {
                index: part.shard.index,
                count,
                first: seen.output.clone(),
                other: part.output.clone(),
            });
        }
    }
    let missing: Vec<u64> = (0..count).filter(|k| !by_index.contains_key(k)).collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing { missing, count });
    }
    parts.sort_by_key(|p| p.shard.index);
    for part in &parts {
        let found = std::fs::metadata(&part.output)
            .map_err(|source| MergeError::Read {
                path: part.output.clone(),
                source,
            })?
            .len();
        if found != part.shard.output_bytes {
            return Err(MergeError::Changed {
                output: part.output.clone(),
                found,
                expected: part.shard.output_bytes,
            });
        }
    }

    let is_csv = parts[0].run.options.get("output_format") == Some(&serde_json::json!("csv"));
    let mut output = Output::open(&Target::Path(run.output.clone()))?;
    let name = output.name().to_string();
    concatenate(&parts, is_csv, output.writer()).map_err(|e| match e {
        JoinError::Read(path, source) => MergeError::Read { path, source },
        JoinError::Header(other) => MergeError::Header {
            first: parts[0].output.clone(),
            other,
        },
        JoinError::Altered(output, found, expected) => MergeError::Altered {
            output,
            found,
            expected,
        },
        JoinError::Write(source) => MergeError::Output(OutputError {
            action: "write",
            name: name.clone(),
            source,
        }),
    })?;

    let mut summary = Summary::new();
    for part in &parts {
        // The summaries of solve are not grouped; an edited one may be.
        summary
            .merge(&part.summary)
            .map_err(|e| MergeError::Foreign {
                first: parts[0].output.clone(),
                other: part.output.clone(),
                difference: e.to_string(),
            })?;
    }
    // Both files whole before either replaces an existing one: a failure leaves both as they
    // were.
    let rows = output.seal()?;
    // What a single run over the same inputs records: the shards' run, which they share.
    let single = RunInfo {
        shard: None,
        ..parts[0].run.clone()
    };
    let text = document::to_string_with_run(&summary, Some(&single));
    let summary_file = sealed_file(&run.summary, text.as_bytes())?;
    // The rows first: a summary never describes rows that are not there.
    rows.commit()?;
    summary_file.commit()?;
    Ok(Merged {
        output: run.output.clone(),
        summary: run.summary.clone(),
        shards: count,
        records: summary.records(),
    })
}

/// Refuses, before anything is written, a merged output and summary that are one file, and
/// either of them being a shard's output or summary, or one of the inputs the shards read
/// (by the names their summaries record, as found from here).
fn refuse_clashing_files(run: &Request, inputs: &[Prefix]) -> Result<(), Clash> {
    let mut files = RunFiles::new();
    files.output("OUT", &Target::Path(run.output.clone()))?;
    files.output("--summary", &Target::Path(run.summary.clone()))?;
    for shard in &run.shards {
        let name = shard.display().to_string();
        files.input_path(&name, shard)?;
        let summary = shard::summary_path(shard);
        files.input_path(&summary.display().to_string(), &summary)?;
    }
    for input in inputs.iter().filter(|i| i.name != "-") {
        files.input_path(&input.name, Path::new(&input.name))?;
    }
    Ok(())
}

/// Reads the summary beside a shard output.
fn read_part(output: &Path) -> Result<Part, MergeError> {
    let path = shard::summary_path(output);
    let file = match side::open(&path, side::MAX_SUMMARY) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let missing = if output.exists() {
                MergeError::NoSummary {
                    output: output.to_path_buf(),
                    summary: path,
                }
            } else {
                MergeError::Read {
                    path: output.to_path_buf(),
                    source: e,
                }
            };
            return Err(missing);
        }
        Err(source) => return Err(MergeError::Read { path, source }),
    };
    let saved = document::read_saved(file).map_err(|source| MergeError::Summary {
        path: path.clone(),
        source,
    })?;
    let not_a_shard = || MergeError::NotAShard {
        output: output.to_path_buf(),
    };
    let run = saved.run.ok_or_else(not_a_shard)?;
    let shard = run.shard.ok_or_else(not_a_shard)?;
    Ok(Part {
        output: output.to_path_buf(),
        summary: saved.summary,
        run,
        shard,
    })
}

/// Whether `path` has a shard's summary beside it.
fn is_shard_output(path: &Path) -> bool {
    side::open(&shard::summary_path(path), side::MAX_SUMMARY)
        .ok()
        .and_then(|file| document::read_saved(file).ok())
        .and_then(|saved| saved.run)
        .is_some_and(|run| run.shard.is_some())
}

/// What makes `other` a shard of another run than `first`, if anything.
fn difference(first: &Part, other: &Part) -> Option<String> {
    let (a, b) = (&first.run, &other.run);
    if first.shard.count != other.shard.count {
        return Some(format!(
            "one is shard {} of {}, the other shard {} of {}",
            first.shard.index, first.shard.count, other.shard.index, other.shard.count
        ));
    }
    if a.tool_version != b.tool_version {
        return Some(format!(
            "made by sudoku-bulk {} and {}",
            a.tool_version, b.tool_version
        ));
    }
    // One input's name is in no row (the `file` column is for several): the same bytes named
    // otherwise (a relative path on one node, an absolute one on another) are the same input.
    let bytes = |inputs: &[Prefix]| -> Vec<(u64, Digest)> {
        inputs.iter().map(|i| (i.bytes, i.digest)).collect()
    };
    let renamed = a.inputs.len() == 1 && bytes(&a.inputs) == bytes(&b.inputs);
    if a.inputs != b.inputs && !renamed {
        let describe = |inputs: &[crate::files::digest::Prefix]| -> String {
            inputs
                .iter()
                .map(|i| format!("{} ({} bytes, digest {})", i.name, i.bytes, i.digest))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let what = match bytes(&a.inputs) == bytes(&b.inputs) {
            true => {
                "their inputs are the same bytes under other names, which the file column \
                     gives as they were given (name them alike in every shard)"
            }
            false => "their inputs differ",
        };
        return Some(format!(
            "{what}: {} vs {}",
            describe(&a.inputs),
            describe(&b.inputs)
        ));
    }
    // Shards of two commands differ in most options: the commands say it.
    let command = |options: &options::Options| options::shown(options.get("command"));
    if command(&a.options) != command(&b.options) {
        return Some(format!(
            "one is a shard of {}, the other of {}",
            command(&a.options),
            command(&b.options)
        ));
    }
    options::changes(&a.options, &b.options)
        .first()
        .map(|change| {
            format!(
                "option {} is {} vs {}",
                change.name,
                change.was_shown(),
                change.now_shown()
            )
        })
}

/// Why joining the outputs stopped.
enum JoinError {
    /// A shard output could not be read.
    Read(PathBuf, io::Error),
    /// A CSV shard output starts with another header row than the first.
    Header(PathBuf),
    /// A shard output's bytes have another digest than its shard recorded.
    Altered(PathBuf, Digest, Digest),
    /// The merged output could not be written.
    Write(io::Error),
}

/// Writes the outputs of `parts` one after the other; of CSV outputs, the header row of the
/// first only (every other must start with the same one).
fn concatenate(parts: &[Part], csv: bool, out: &mut dyn Write) -> Result<(), JoinError> {
    let mut header: Option<Vec<u8>> = None;
    for part in parts {
        let path = &part.output;
        let read = |e| JoinError::Read(path.clone(), e);
        let mut input = BufReader::with_capacity(256 * 1024, File::open(path).map_err(read)?);
        let mut hasher = Hasher::default();
        if csv {
            let own = crate::format::csv::header_record(&mut input).map_err(read)?;
            hasher.update(&own);
            match &header {
                None => {
                    out.write_all(&own).map_err(JoinError::Write)?;
                    header = Some(own);
                }
                Some(first) if *first == own => {}
                Some(_) => return Err(JoinError::Header(path.clone())),
            }
        }
        copy(&mut input, path, out, &mut hasher)?;
        // The bytes copied are the ones the shard wrote, or the merge stops before OUT exists.
        if hasher.digest() != part.shard.output_digest {
            return Err(JoinError::Altered(
                path.clone(),
                hasher.digest(),
                part.shard.output_digest,
            ));
        }
    }
    Ok(())
}

/// Copies the rest of `input` (read from `path`) to `out`, adding it to `hasher`.
fn copy(
    input: &mut impl BufRead,
    path: &Path,
    out: &mut dyn Write,
    hasher: &mut Hasher,
) -> Result<(), JoinError> {
    loop {
        let buf = filled(input).map_err(|e| JoinError::Read(path.to_path_buf(), e))?;
        if buf.is_empty() {
            return Ok(());
        }
        out.write_all(buf).map_err(JoinError::Write)?;
        hasher.update(buf);
        let n = buf.len();
        input.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_shards_are_named() {
        assert_eq!(
            missing_message(&[2], 4),
            "shard 2 of 4 is missing (no output given for it)"
        );
        assert_eq!(
            missing_message(&[0, 5], 8),
            "shards 0, 5 of 8 are missing (no output given for them)"
        );
    }
}
