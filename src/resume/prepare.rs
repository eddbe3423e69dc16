//! Opening the output of a run: from the start, or, with `--resume`, after the rows an
//! interrupted run left, once its checkpoint says the run may continue.

use std::io;
use std::time::{Duration, Instant};

use super::checkpoint::{Checkpoint, Checkpointer};
use crate::files::digest::Prefix;
use crate::files::{Input, Output, OutputError, PartialPaths, Target};
use crate::pipeline::Settings;
use crate::row::{RowStatus, Tally};

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

/// An output opened for a run, with what resuming it takes.
pub struct Prepared {
    /// Where rows go.
    pub output: Output,
    /// The rows already in the output, by status: the run skips as many records.
    pub done: Tally<RowStatus>,
    /// The input bytes the interrupted run had read, for the run to check before it writes
    /// ([`crate::pipeline::Settings::consumed`]).
    pub consumed: Vec<Prefix>,
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
            consumed: Vec::new(),
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
    let (output, done, consumed) = match (checkpoints.resume, now.as_ref()) {
        (true, Some(now)) => match Checkpoint::load(&paths.checkpoint)? {
            Some(saved) => {
                let differences = saved.differences(now);
                if !differences.is_empty() {
                    return Err(ResumeError::Mismatch {
                        path: checkpoint_name,
                        differences,
                    });
                }
                if saved.records == 0 {
                    (Output::open(target)?, Tally::default(), Vec::new())
                } else {
                    let output = Output::resume(target, saved.bytes, saved.digest)?;
                    note(&format!(
                        "resuming after {} records ({} bytes of {partial_name})",
                        saved.records, saved.bytes
                    ));
                    (output, saved.tally, saved.consumed)
                }
            }
            None => {
                note(&format!(
                    "nothing to resume ({checkpoint_name} does not exist): starting from the \
                     beginning"
                ));
                (Output::open(target)?, Tally::default(), Vec::new())
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
            (output, Tally::default(), Vec::new())
        }
    };
    let checkpointer = match now {
        None => None,
        Some(mut checkpoint) => {
            let written = output
                .written_digest()
                .expect("a partial output has a partial file");
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
            checkpoint.tally = done;
            checkpoint.consumed = consumed.clone();
            Some(Checkpointer {
                file,
                partial_name,
                written,
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
        consumed,
        checkpointer,
    })
}
