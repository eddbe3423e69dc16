//! The checkpoint file: what it records, how it is written and read back, and how a run differs
//! from the one it records.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::prepare::ResumeError;
use crate::files::digest::{self, Digest, Prefix};
use crate::files::output::{self, WrittenDigest};
use crate::files::{Input, Source};
use crate::identity::{self, options};
use crate::pipeline::{CanonOptions, Job, RunError, Settings};
use crate::row::{RowStatus, Tally};

/// The first line of every checkpoint: what the file is, and the version of its layout.
pub const FORMAT: &str = "sudoku-bulk checkpoint 3";

/// What a checkpoint records: the run, and how far its output got.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// Always [`FORMAT`].
    pub format: String,
    /// The tool and its version, as `sudoku-bulk 0.1.0`.
    pub tool: String,
    /// Every option that shapes the output bytes ([`crate::identity::options`]), with the
    /// command and the shard.
    pub options: options::Options,
    /// The inputs, in order.
    pub inputs: Vec<InputSize>,
    /// The input bytes read for the rows written (a little more: to the end of the chunk of the
    /// last of them), by input in order: what a resumed run checks before it writes.
    pub consumed: Vec<Prefix>,
    /// Rows safely written: the records a resumed run skips.
    pub records: u64,
    /// Bytes of the partial file that hold them (with the CSV header row).
    pub bytes: u64,
    /// The digest of those bytes as they were written: a resumed run reads them back and
    /// refuses to go on from bytes that changed since.
    pub digest: Digest,
    /// Those rows by status.
    pub tally: Tally<RowStatus>,
}

/// An input's name and size as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputSize {
    /// The name as given (it fills the `file` column when there are several inputs).
    pub name: String,
    /// Size in bytes, as stored.
    pub size: u64,
}

impl Checkpoint {
    /// The checkpoint of a run that has written nothing yet. Fails with
    /// [`ResumeError::NotResumable`] when an input is not a regular file (standard input, a
    /// FIFO): its content could not be checked to be the same when resuming; or when the output
    /// is Parquet, whose rows cannot be appended to.
    pub fn describe(settings: &Settings, inputs: &[Input]) -> Result<Checkpoint, ResumeError> {
        if !settings.output_format.is_text() {
            return Err(ResumeError::NotResumable {
                reason: format!(
                    "a {} output is readable only once complete (its index is written last): \
                     its rows cannot be continued",
                    settings.output_format
                ),
            });
        }
        if matches!(settings.job, Job::Canon(CanonOptions { dedupe: Some(_) })) {
            return Err(ResumeError::NotResumable {
                reason: "--dedupe keeps the classes it has seen in memory only: an interrupted \
                         run cannot be continued"
                    .to_string(),
            });
        }
        let mut options = options::of(settings);
        options.insert(
            "shard".to_string(),
            serde_json::json!(
                settings
                    .shard
                    .map_or("(none)".to_string(), |s| s.to_string())
            ),
        );
        Ok(Checkpoint {
            format: FORMAT.to_string(),
            tool: tool(),
            options,
            inputs: inputs.iter().map(InputSize::of).collect::<Result<_, _>>()?,
            consumed: Vec::new(),
            records: 0,
            bytes: 0,
            digest: digest::of(b""),
            tally: Tally::default(),
        })
    }

    /// Reads the checkpoint at `path`; `None` when there is none.
    pub fn load(path: &Path) -> Result<Option<Checkpoint>, ResumeError> {
        let name = || path.to_string_lossy().into_owned();
        let text = match crate::files::side::read(path, crate::files::side::MAX_CHECKPOINT) {
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
        let format = serde_json::from_slice::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.get("format").and_then(|f| f.as_str().map(str::to_string)));
        if let Some(format) = format.filter(|f| f != FORMAT) {
            return Err(corrupt(format!("format '{format}'")));
        }
        let checkpoint: Checkpoint =
            serde_json::from_slice(&text).map_err(|e| corrupt(e.to_string()))?;
        if checkpoint.tally.records() != checkpoint.records {
            return Err(corrupt(format!(
                "its statuses add up to {} records, not {}",
                checkpoint.tally.records(),
                checkpoint.records
            )));
        }
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

    /// How the run described by `now` differs from the one recorded here, in words; empty
    /// when it may resume. The bytes of the inputs are checked later, as they are read again.
    pub fn differences(&self, now: &Checkpoint) -> Vec<String> {
        let mut found = Vec::new();
        if self.tool != now.tool {
            found.push(format!(
                "it was written by {}, this is {}",
                self.tool, now.tool
            ));
        }
        let command = |c: &Checkpoint| options::shown(c.options.get("command"));
        if command(self) != command(now) {
            found.push(format!(
                "it records a {} run, this is {}",
                command(self),
                command(now)
            ));
            return found;
        }
        for change in options::changes(&self.options, &now.options) {
            found.push(format!(
                "{} was {}, now {}",
                change.flag(),
                change.was_shown(),
                change.now_shown()
            ));
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
            if was.size != is.size {
                found.push(format!(
                    "input {} changed (size was {} bytes, now {} bytes)",
                    is.name, was.size, is.size
                ));
            }
        }
        found
    }
}

impl InputSize {
    /// The name and size of a regular file input.
    pub fn of(input: &Input) -> Result<InputSize, ResumeError> {
        let path = match &input.source {
            Source::File(path) => path,
            Source::Stdin => {
                return Err(ResumeError::NotResumable {
                    reason: "standard input could not be checked to be the same again".into(),
                });
            }
        };
        let meta = fs::metadata(path).map_err(|source| ResumeError::Input {
            name: input.name.clone(),
            source,
        })?;
        if !meta.is_file() {
            return Err(ResumeError::NotResumable {
                reason: format!(
                    "{} is not a regular file: it could not be checked to be the same again",
                    input.name
                ),
            });
        }
        Ok(InputSize {
            name: input.name.clone(),
            size: meta.len(),
        })
    }
}

/// The tool and its version.
fn tool() -> String {
    format!("sudoku-bulk {}", identity::VERSION)
}

/// Writes the checkpoints of a run: syncs the partial file, then records how far it got.
pub struct Checkpointer {
    /// A second handle on the partial file.
    pub(super) file: File,
    pub(super) partial_name: String,
    /// The digest of the bytes written to the partial file.
    pub(super) written: WrittenDigest,
    pub(super) path: PathBuf,
    pub(super) checkpoint: Checkpoint,
    /// Rows written by the runs before this one.
    pub(super) before: Tally<RowStatus>,
    pub(super) every: Duration,
    pub(super) last: Instant,
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

    /// Whether `--checkpoint-every` has passed since the last checkpoint.
    pub fn due(&self) -> bool {
        self.last.elapsed() >= self.every
    }

    /// Records a checkpoint after a chunk (every row this run counted in `this_run` has been
    /// flushed to the partial file, and `consumed` covers the input bytes read for them) if the
    /// interval has passed since the last one, or at once when `now` is set.
    pub fn record(
        &mut self,
        this_run: &Tally<RowStatus>,
        consumed: &[Prefix],
        now: bool,
    ) -> Result<(), RunError> {
        // A run interrupted before its first chunk was written has read nothing new: what the
        // run it resumed had read still stands.
        if !consumed.is_empty() {
            self.checkpoint.consumed = consumed.to_vec();
        }
        if !now && !self.due() {
            return Ok(());
        }
        let partial_error = |source| RunError::Write {
            name: self.partial_name.clone(),
            source,
        };
        self.file.sync_data().map_err(partial_error)?;
        // Every row has been flushed: the bytes hashed are the file's.
        let (bytes, digest) = self.written.get();
        debug_assert_eq!(
            Some(bytes),
            self.file.metadata().ok().map(|m| m.len()),
            "the bytes hashed are the partial file's"
        );
        let mut tally = self.before;
        tally += *this_run;
        self.checkpoint.records = tally.records();
        self.checkpoint.bytes = bytes;
        self.checkpoint.digest = digest;
        self.checkpoint.tally = tally;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::digest;
    use crate::format::OutputFormat;
    use crate::pipeline::Job;
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
        checkpoint.tally.add_count(RowStatus::Solved, 2);
        checkpoint.tally.add(RowStatus::Invalid);
        checkpoint.consumed = vec![Prefix {
            name: inputs[0].name.clone(),
            bytes: 4,
            digest: digest::of(b"abc\n"),
        }];
        let path = dir.path().join("out.checkpoint");
        checkpoint.store(&path).unwrap();
        assert_eq!(Checkpoint::load(&path).unwrap(), Some(checkpoint.clone()));
        assert!(!output::temporary(&path).exists());
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("\"format\": \"sudoku-bulk checkpoint 3\""),
            "{text}"
        );
        assert_eq!(checkpoint.inputs[0].size, 4);
    }

    #[test]
    fn a_missing_checkpoint_is_none_and_a_bad_one_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.checkpoint");
        assert_eq!(Checkpoint::load(&path).unwrap(), None);
        fs::write(&path, b"{\"format\": 3}").unwrap();
        let err = Checkpoint::load(&path).unwrap_err().to_string();
        assert!(err.contains("out.checkpoint is not a checkpoint"), "{err}");
        fs::write(&path, b"{\"format\": \"sudoku-bulk checkpoint 1\"}").unwrap();
        let err = Checkpoint::load(&path).unwrap_err().to_string();
        assert!(err.contains("format 'sudoku-bulk checkpoint 1'"), "{err}");
    }

    #[test]
    fn every_difference_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = [
            input(dir.path(), "a.txt", b"abc\n"),
            input(dir.path(), "b.txt", &vec![b'x'; 3 << 10]),
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
        fs::write(inputs[1].path().unwrap(), vec![b'x'; 5 << 10]).unwrap();
        let now = Checkpoint::describe(&other, &inputs).unwrap();
        let found = saved.differences(&now);
        assert_eq!(
            found,
            [
                "--algorithm was fast, now naive",
                "--output-format was csv, now jsonl",
                "--seed was 0, now 4",
                "input b.txt changed (size was 3072 bytes, now 5120 bytes)"
                    .replace("b.txt", &inputs[1].name)
                    .as_str(),
            ]
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
        let path = dir.path().join("out.checkpoint");
        let mut checkpoint = Checkpoint::describe(&settings(), &inputs).unwrap();
        checkpoint.records = 2;
        checkpoint.tally.add(RowStatus::Solved);
        checkpoint.store(&path).unwrap();
        let err = Checkpoint::load(&path).unwrap_err().to_string();
        assert!(
            err.contains("its statuses add up to 1 records, not 2"),
            "{err}"
        );
        let text = fs::read_to_string(&path)
            .unwrap()
            .replace("\"solved\": 1", "\"sorted\": 2");
        fs::write(&path, text).unwrap();
        let err = Checkpoint::load(&path).unwrap_err().to_string();
        assert!(err.contains("unknown status 'sorted'"), "{err}");
    }
}
