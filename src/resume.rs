//! Resuming an interrupted run: the checkpoint kept beside a partial output, what it records, and
//! the checks that make a resumed output byte-identical to an uninterrupted one.
//!
//! A run writing to a regular file `OUT` keeps its rows in `OUT.partial` until it completes (see
//! [`crate::output`]). When every input is a regular file, the run also keeps a checkpoint,
//! `OUT.checkpoint`: the inputs' identity (name, size, modification time, CRC-32 of the first
//! and of the last MiB), the options that shape the output bytes, the tool's version, and how
//! many records and bytes of `OUT.partial` are safely written, with their statuses. It is
//! written after a chunk of rows when `--checkpoint-every` seconds have passed since the last
//! one, and once more when the run is interrupted, always in this order: the rows are flushed
//! and `OUT.partial` is synced; then the checkpoint goes to `OUT.checkpoint.tmp`, which is
//! synced and renamed over `OUT.checkpoint`. So the checkpoint never claims more than the partial
//! file durably holds, whenever the process or the machine stops.
//!
//! `--resume` reads the checkpoint and refuses (naming every difference) when the inputs, the
//! options or the version differ; otherwise it cuts `OUT.partial` to the bytes recorded, skips
//! as many records and appends the rows of the rest. Every row is a pure function of its record
//! and the options, whatever the thread count or the timing, so the completed output is the
//! bytes an uninterrupted run writes.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::RunError;
use crate::fingerprint;
use crate::input::{Input, Source};
use crate::output::{self, Output, OutputError, PartialPaths, Target};
use crate::pipeline::{Job, Settings};
use crate::row::{RowStatus, Status, Tally};

/// The first line of every checkpoint: what the file is, and the version of its layout.
pub const FORMAT: &str = "sudoku-bulk checkpoint 1";

/// How much of the start and of the end of an input its identity covers.
const SAMPLE: u64 = 1 << 20;

/// How a run to a file keeps and uses checkpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Checkpoints {
    /// Continue the run recorded by the checkpoint beside the output (`--resume`).
    pub resume: bool,
    /// The least time between two checkpoints; zero writes one after every chunk.
    pub every: Duration,
}

impl Default for Checkpoints {
    fn default() -> Self {
        Checkpoints {
            resume: false,
            every: Duration::from_secs(1),
        }
    }
}

/// What a checkpoint records: the run, and how far its output got.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// Always [`FORMAT`].
    pub format: String,
    /// The tool and its version, as `sudoku-bulk 0.1.0`.
    pub tool: String,
    /// `solve` or `verify`.
    pub command: String,
    /// Every option that shapes the output bytes, by flag name.
    pub options: BTreeMap<String, String>,
    /// The inputs, in order.
    pub inputs: Vec<InputIdentity>,
    /// Rows safely written: the records a resumed run skips.
    pub records: u64,
    /// Bytes of the partial file that hold them (with the CSV header row).
    pub bytes: u64,
    /// Those rows by status name (statuses with no row left out).
    pub tally: BTreeMap<String, u64>,
}

/// What tells an input file from another, cheaply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputIdentity {
    /// The name as given (it fills the `file` column when there are several inputs).
    pub name: String,
    /// Size in bytes, as stored.
    pub size: u64,
    /// Modification time, nanoseconds since the Unix epoch (0 when the system does not say).
    pub modified_ns: u64,
    /// CRC-32 of the first MiB (of the whole file when it is smaller).
    pub head_crc32: u32,
    /// CRC-32 of the last MiB (of the whole file when it is smaller).
    pub tail_crc32: u32,
}

/// Why a run cannot start or resume as asked.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// The output could not be opened.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// `--resume` was asked for a run that has no checkpoint to go by.
    #[error("cannot resume: {reason}")]
    NotResumable {
        /// Why.
        reason: String,
    },
    /// An input could not be read to take its identity.
    #[error("cannot read {name}: {source}")]
    Input {
        /// The input's name.
        name: String,
        /// The OS error.
        source: io::Error,
    },
    /// The checkpoint could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The checkpoint's path.
        path: String,
        /// The OS error.
        source: io::Error,
    },
    /// The checkpoint is not one this version can read.
    #[error(
        "{path} is not a checkpoint this version can read ({detail}); run without --resume to start over"
    )]
    Corrupt {
        /// The checkpoint's path.
        path: String,
        /// What is wrong.
        detail: String,
    },
    /// The inputs, the options or the tool differ from the run the checkpoint records.
    #[error("cannot resume from {path}: {}; run without --resume to start over", differences.join("; "))]
    Mismatch {
        /// The checkpoint's path.
        path: String,
        /// Every difference found, in words.
        differences: Vec<String>,
    },
}

impl Checkpoint {
    /// The checkpoint of a run that has written nothing yet. Fails with
    /// [`ResumeError::NotResumable`] when an input is not a regular file (standard input, a
    /// FIFO): its content could not be checked to be the same when resuming.
    pub fn describe(settings: &Settings, inputs: &[Input]) -> Result<Checkpoint, ResumeError> {
        let (command, options) = output_options(settings);
        Ok(Checkpoint {
            format: FORMAT.to_string(),
            tool: tool(),
            command: command.to_string(),
            options,
            inputs: inputs
                .iter()
                .map(InputIdentity::of)
                .collect::<Result<_, _>>()?,
            records: 0,
            bytes: 0,
            tally: BTreeMap::new(),
        })
    }

    /// Reads the checkpoint at `path`; `None` when there is none.
    pub fn load(path: &Path) -> Result<Option<Checkpoint>, ResumeError> {
        let name = || path.to_string_lossy().into_owned();
        let text = match fs::read(path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(ResumeError::Read {
                    path: name(),
                    source,
                });
            }
        };
        let corrupt = |detail: String| ResumeError::Corrupt {
            path: name(),
            detail,
        };
        let checkpoint: Checkpoint =
            serde_json::from_slice(&text).map_err(|e| corrupt(e.to_string()))?;
        if checkpoint.format != FORMAT {
            return Err(corrupt(format!("format '{}'", checkpoint.format)));
        }
        checkpoint.done().map_err(corrupt)?;
        Ok(Some(checkpoint))
    }

    /// Writes the checkpoint to `path` atomically: to a temporary file beside it, synced, then
    /// renamed over it.
    pub fn store(&self, path: &Path) -> io::Result<()> {
        let temp = output::temporary(path);
        let mut text = serde_json::to_vec_pretty(self).map_err(io::Error::other)?;
        text.push(b'\n');
        let mut file = File::create(&temp)?;
        file.write_all(&text)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temp, path)?;
        output::sync_dir(path);
        Ok(())
    }

    /// The rows recorded, by status.
    pub fn done(&self) -> Result<Tally<RowStatus>, String> {
        let mut tally = Tally::default();
        for (name, &count) in &self.tally {
            tally.add_count(name.parse().map_err(|e| format!("{e}"))?, count);
        }
        if tally.records() != self.records {
            return Err(format!(
                "its statuses add up to {} records, not {}",
                tally.records(),
                self.records
            ));
        }
        Ok(tally)
    }

    /// How the run described by `now` differs from the one recorded here, in words; empty
    /// when it may resume.
    pub fn differences(&self, now: &Checkpoint) -> Vec<String> {
        let mut found = Vec::new();
        if self.tool != now.tool {
            found.push(format!(
                "it was written by {}, this is {}",
                self.tool, now.tool
            ));
        }
        if self.command != now.command {
            found.push(format!(
                "it records a {} run, this is {}",
                self.command, now.command
            ));
            return found;
        }
        let flags: std::collections::BTreeSet<&String> =
            self.options.keys().chain(now.options.keys()).collect();
        for flag in flags {
            let was = self.options.get(flag).map_or("(none)", String::as_str);
            let is = now.options.get(flag).map_or("(none)", String::as_str);
            if was != is {
                found.push(format!("{flag} was {was}, now {is}"));
            }
        }
        let names = |c: &Checkpoint| {
            c.inputs
                .iter()
                .map(|i| i.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        // The names matter when several inputs fill the `file` column.
        let same_names = self.inputs.len() == 1 && now.inputs.len() == 1
            || self
                .inputs
                .iter()
                .map(|i| &i.name)
                .eq(now.inputs.iter().map(|i| &i.name));
        if !same_names {
            found.push(format!(
                "the inputs were {}, now {}",
                names(self),
                names(now)
            ));
            return found;
        }
        for (was, is) in self.inputs.iter().zip(&now.inputs) {
            let mut changes = Vec::new();
            if was.size != is.size {
                changes.push(format!("size was {} bytes, now {}", was.size, is.size));
            }
            if was.modified_ns != is.modified_ns {
                changes.push("its modification time differs".to_string());
            }
            if was.head_crc32 != is.head_crc32 {
                changes.push("its first MiB differs".to_string());
            }
            if was.tail_crc32 != is.tail_crc32 {
                changes.push("its last MiB differs".to_string());
            }
            if !changes.is_empty() {
                found.push(format!(
                    "input {} changed ({})",
                    is.name,
                    changes.join(", ")
                ));
            }
        }
        found
    }
}

impl InputIdentity {
    /// The identity of a regular file input.
    pub fn of(input: &Input) -> Result<InputIdentity, ResumeError> {
        let path = match &input.source {
            Source::File(path) => path,
            Source::Stdin => {
                return Err(ResumeError::NotResumable {
                    reason: "standard input could not be checked to be the same again".into(),
                });
            }
        };
        let fail = |source| ResumeError::Input {
            name: input.name.clone(),
            source,
        };
        let meta = fs::metadata(path).map_err(fail)?;
        if !meta.is_file() {
            return Err(ResumeError::NotResumable {
                reason: format!(
                    "{} is not a regular file: it could not be checked to be the same again",
                    input.name
                ),
            });
        }
        let modified_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
        let mut file = File::open(path).map_err(fail)?;
        let size = meta.len();
        let head_crc32 = crc_of(&mut file, 0, size.min(SAMPLE)).map_err(fail)?;
        let tail_crc32 = crc_of(&mut file, size.saturating_sub(SAMPLE), size).map_err(fail)?;
        Ok(InputIdentity {
            name: input.name.clone(),
            size,
            modified_ns,
            head_crc32,
            tail_crc32,
        })
    }
}

/// The CRC-32 of the bytes `start..end` of `file`.
fn crc_of(file: &mut File, start: u64, end: u64) -> io::Result<u32> {
    file.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    file.take(end - start).read_to_end(&mut bytes)?;
    Ok(crc32fast::hash(&bytes))
}

/// The tool and its version.
fn tool() -> String {
    format!("sudoku-bulk {}", env!("CARGO_PKG_VERSION"))
}

/// The command, and every option that shapes the output bytes by its flag name: the options a
/// shard's fingerprint records ([`fingerprint::options`], one list for both), plus the shard. The
/// thread count, the chunk size and the messages shape nothing and are left out.
fn output_options(settings: &Settings) -> (&'static str, BTreeMap<String, String>) {
    let command = match settings.job {
        Job::Solve(_) => "solve",
        Job::Verify(_) => "verify",
    };
    let mut options: BTreeMap<String, String> = fingerprint::options(settings)
        .into_iter()
        .filter(|(name, _)| name != "command")
        .map(|(name, value)| {
            let flag = match name.as_str() {
                "layout" => "regions".to_string(),
                name => format!("--{}", name.replace('_', "-")),
            };
            let text = match value {
                Value::Null => "(default)".to_string(),
                Value::String(text) => text,
                Value::Array(items) => items
                    .iter()
                    .map(|item| item.as_str().unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join(","),
                other => other.to_string(),
            };
            (flag, text)
        })
        .collect();
    options.insert(
        "--shard".to_string(),
        settings
            .shard
            .map_or("(none)".to_string(), |s| format!("{}/{}", s.index, s.count)),
    );
    (command, options)
}

/// Writes the checkpoints of a run: syncs the partial file, then records how far it got.
pub struct Checkpointer {
    /// A second handle on the partial file.
    file: File,
    partial_name: String,
    path: PathBuf,
    checkpoint: Checkpoint,
    /// Rows written by the runs before this one.
    before: Tally<RowStatus>,
    every: Duration,
    last: Instant,
}

impl Checkpointer {
    /// Where the checkpoint goes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// All rows in the partial file at the last checkpoint, by status, earlier runs included.
    pub fn recorded(&self) -> u64 {
        self.checkpoint.records
    }

    /// Records a checkpoint after a chunk (every row this run counted in `this_run` has been
    /// flushed to the partial file) if the interval has passed since the last one, or at once
    /// when `now` is set.
    pub fn record(&mut self, this_run: &Tally<RowStatus>, now: bool) -> Result<(), RunError> {
        if !now && self.last.elapsed() < self.every {
            return Ok(());
        }
        let partial_error = |source| RunError::Write {
            name: self.partial_name.clone(),
            source,
        };
        self.file.sync_data().map_err(partial_error)?;
        let bytes = self.file.metadata().map_err(partial_error)?.len();
        let mut tally = self.before;
        tally += *this_run;
        self.checkpoint.records = tally.records();
        self.checkpoint.bytes = bytes;
        self.checkpoint.tally = RowStatus::ALL
            .iter()
            .copied()
            .filter(|s| tally.get(*s) > 0)
            .map(|s| (s.name().to_string(), tally.get(s)))
            .collect();
        self.checkpoint
            .store(&self.path)
            .map_err(|source| RunError::Write {
                name: self.path.to_string_lossy().into_owned(),
                source,
            })?;
        self.last = Instant::now();
        Ok(())
    }
}

/// An output opened for a run, with what resuming it takes.
pub struct Prepared {
    /// Where rows go.
    pub output: Output,
    /// The rows already in the output, by status: the run skips as many records.
    pub done: Tally<RowStatus>,
    /// Records checkpoints, when the run could be resumed.
    pub checkpointer: Option<Checkpointer>,
}

/// Opens the output of a run: from the start, or (with `--resume` and a checkpoint that
/// matches) after the rows an interrupted run left. `note` gets messages worth showing.
pub fn prepare(
    target: &Target,
    settings: &Settings,
    inputs: &[Input],
    checkpoints: &Checkpoints,
    note: &mut dyn FnMut(&str),
) -> Result<Prepared, ResumeError> {
    let Some(paths) = PartialPaths::of(target)? else {
        if checkpoints.resume {
            let name = match target {
                Target::Stdout => "standard output".to_string(),
                Target::Path(path) => path.to_string_lossy().into_owned(),
            };
            return Err(ResumeError::NotResumable {
                reason: format!(
                    "--resume needs -o with a regular file; rows written to {name} cannot be \
                     taken back"
                ),
            });
        }
        return Ok(Prepared {
            output: Output::open(target)?,
            done: Tally::default(),
            checkpointer: None,
        });
    };
    let now = match Checkpoint::describe(settings, inputs) {
        Ok(now) => Some(now),
        Err(ResumeError::NotResumable { .. }) if !checkpoints.resume => None,
        Err(e) => return Err(e),
    };
    let checkpoint_name = paths.checkpoint.to_string_lossy().into_owned();
    let partial_name = paths.partial.to_string_lossy().into_owned();
    let (output, done) = match (checkpoints.resume, now.as_ref()) {
        (true, Some(now)) => match Checkpoint::load(&paths.checkpoint)? {
            Some(saved) => {
                let differences = saved.differences(now);
                if !differences.is_empty() {
                    return Err(ResumeError::Mismatch {
                        path: checkpoint_name,
                        differences,
                    });
                }
                let done = saved.done().map_err(|detail| ResumeError::Corrupt {
                    path: checkpoint_name.clone(),
                    detail,
                })?;
                if saved.records == 0 {
                    (Output::open(target)?, Tally::default())
                } else {
                    let output = Output::resume(target, saved.bytes)?;
                    note(&format!(
                        "resuming after {} records ({} bytes of {partial_name})",
                        saved.records, saved.bytes
                    ));
                    (output, done)
                }
            }
            None => {
                note(&format!(
                    "nothing to resume ({checkpoint_name} does not exist): starting from the \
                     beginning"
                ));
                (Output::open(target)?, Tally::default())
            }
        },
        (true, None) => unreachable!("describe refused the inputs"),
        (false, _) => {
            // An earlier run's work is about to go: say so, and how it could have been kept.
            let earlier = Checkpoint::load(&paths.checkpoint).ok().flatten();
            let output = Output::open(target)?;
            if let Some(earlier) = earlier.filter(|c| c.records > 0) {
                note(&format!(
                    "starting over: the {} records of an interrupted run in {partial_name} are \
                     discarded (--resume continues such a run)",
                    earlier.records
                ));
            }
            (output, Tally::default())
        }
    };
    let checkpointer = match now {
        None => None,
        Some(mut checkpoint) => {
            let file = output
                .partial_file()
                .expect("a partial output has a partial file")
                .map_err(|source| {
                    ResumeError::Output(OutputError {
                        action: "create",
                        name: partial_name.clone(),
                        source,
                    })
                })?;
            checkpoint.records = done.records();
            Some(Checkpointer {
                file,
                partial_name,
                path: paths.checkpoint.clone(),
                checkpoint,
                before: done,
                every: checkpoints.every,
                last: Instant::now(),
            })
        }
    };
    Ok(Prepared {
        output,
        done,
        checkpointer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::OutputFormat;
    use crate::solver::{Algorithm, SolveOptions};

    fn settings() -> Settings {
        crate::test_data::solve_settings(1)
    }

    fn input(dir: &Path, name: &str, bytes: &[u8]) -> Input {
        let path = dir.join(name);
        fs::write(&path, bytes).unwrap();
        Input::file(path)
    }

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = [input(dir.path(), "a.txt", b"abc\n")];
        let mut checkpoint = Checkpoint::describe(&settings(), &inputs).unwrap();
        checkpoint.records = 3;
        checkpoint.bytes = 40;
        checkpoint.tally = [("solved".to_string(), 2), ("invalid".to_string(), 1)].into();
        let path = dir.path().join("out.checkpoint");
        checkpoint.store(&path).unwrap();
        assert_eq!(Checkpoint::load(&path).unwrap(), Some(checkpoint.clone()));
        assert_eq!(checkpoint.done().unwrap().get(RowStatus::Solved), 2);
        assert!(!output::temporary(&path).exists());
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("\"format\": \"sudoku-bulk checkpoint 1\""),
            "{text}"
        );
        assert_eq!(
            checkpoint.inputs[0].head_crc32,
            crc32fast::hash(b"abc\n"),
            "a small file is its own head"
        );
    }

    #[test]
    fn a_missing_checkpoint_is_none_and_a_bad_one_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.checkpoint");
        assert_eq!(Checkpoint::load(&path).unwrap(), None);
        fs::write(&path, b"{\"format\": 3}").unwrap();
        let err = Checkpoint::load(&path).unwrap_err().to_string();
        assert!(err.contains("out.checkpoint is not a checkpoint"), "{err}");
    }

    #[test]
    fn every_difference_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = [
            input(dir.path(), "a.txt", b"abc\n"),
            input(dir.path(), "b.txt", &vec![b'x'; 3 << 20]),
        ];
        let saved = Checkpoint::describe(&settings(), &inputs).unwrap();
        assert!(saved.differences(&saved).is_empty());

        let mut other = settings();
        other.job = Job::Solve(SolveOptions {
            algorithm: Algorithm::Naive,
            seed: 4,
            ..SolveOptions::default()
        });
        other.output_format = OutputFormat::Jsonl;
        other.threads = 7;
        let mut big = vec![b'x'; 3 << 20];
        big[(3 << 20) - 5] = b'y';
        fs::write(inputs[1].path().unwrap(), &big).unwrap();
        let now = Checkpoint::describe(&other, &inputs).unwrap();
        let found = saved.differences(&now);
        assert_eq!(
            found[..3],
            [
                "--algorithm was fast, now naive",
                "--output-format was csv, now jsonl",
                "--seed was 0, now 4",
            ]
        );
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(
            found[3].starts_with("input ") && found[3].ends_with("(its last MiB differs)")
                || found[3].ends_with("(its modification time differs, its last MiB differs)"),
            "{found:?}"
        );

        let fewer = Checkpoint::describe(&settings(), &inputs[..1]).unwrap();
        let found = saved.differences(&fewer);
        assert_eq!(found.len(), 1);
        assert!(found[0].starts_with("the inputs were "), "{found:?}");

        let mut older = saved.clone();
        older.tool = "sudoku-bulk 0.0.1".into();
        assert!(older.differences(&saved)[0].starts_with("it was written by sudoku-bulk 0.0.1"));
    }

    #[test]
    fn standard_input_cannot_be_described() {
        let err = Checkpoint::describe(&settings(), &[Input::stdin()]).unwrap_err();
        assert!(matches!(err, ResumeError::NotResumable { .. }), "{err}");
    }

    #[test]
    fn statuses_must_add_up_to_the_records() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = [input(dir.path(), "a.txt", b"abc\n")];
        let mut checkpoint = Checkpoint::describe(&settings(), &inputs).unwrap();
        checkpoint.records = 2;
        checkpoint.tally = [("solved".to_string(), 1)].into();
        assert!(checkpoint.done().is_err());
        checkpoint.tally = [("sorted".to_string(), 2)].into();
        assert!(
            checkpoint
                .done()
                .unwrap_err()
                .starts_with("unknown status 'sorted'")
        );
    }
}
