//! Errors that stop a run of the pipeline, each naming the file (and line) it is about.
//!
//! A bad record is not an error: it becomes an `invalid` row. These are the faults that end the
//! run with exit code 2 (or 130 for [`RunError::Interrupted`]).

use std::io;

use crate::format::HeaderError;

/// A fault that ends a run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// An input could not be opened.
    #[error("cannot open {name}: {source}")]
    Open {
        /// The input's name.
        name: String,
        /// The OS error.
        source: io::Error,
    },
    /// Reading an input failed (an I/O error, a corrupt or truncated gzip stream, a corrupt
    /// Parquet page).
    #[error("cannot read {name} after {after}: {source}")]
    Read {
        /// The input's name.
        name: String,
        /// The last line (or Parquet row) read completely.
        after: Place,
        /// The error.
        source: io::Error,
    },
    /// An input does not fit its format (no header, no puzzle column, ...).
    #[error("{name}: {source}")]
    Format {
        /// The input's name.
        name: String,
        /// What is wrong.
        source: HeaderError,
    },
    /// Writing the output failed.
    #[error("cannot write {name}: {source}")]
    Write {
        /// The output's name.
        name: String,
        /// The OS error.
        source: io::Error,
    },
    /// The worker threads could not be started.
    #[error("cannot start worker threads: {0}")]
    Threads(String),
    /// The solver reported something the independent verifier rejects.
    #[error("{name}:{line}: {bug}")]
    SolverBug {
        /// The input's name.
        name: String,
        /// The record's line.
        line: u64,
        /// What went wrong.
        bug: SolverBug,
    },
    /// The inputs cannot be divided into shards.
    #[error(transparent)]
    Shard(#[from] crate::shard::PlanError),
    /// `--resume`: an input is not the one the interrupted run read (checked on the bytes it had
    /// read, before any row is written).
    #[error(
        "{name} changed since the interrupted run read it: its first {bytes} bytes differ; run without --resume to start over"
    )]
    InputChanged {
        /// The input's name.
        name: String,
        /// The bytes the interrupted run had read.
        bytes: u64,
    },
    /// `canon --dedupe`: more classes than the bound allows.
    #[error(
        "--dedupe: more than {limit} classes; raise --max-classes (each class takes 40 to 115 \
         bytes of memory)"
    )]
    TooManyClasses {
        /// The bound.
        limit: u64,
    },
    /// `canon --dedupe --as-input`: an input whose records cannot be written as they were.
    #[error("{name}: --as-input: {source}")]
    AsInput {
        /// The input's name.
        name: String,
        /// Why.
        source: super::canon::AsInputError,
    },
    /// `--canonical`: more distinct canonical forms than the bound allows.
    #[error(
        "--canonical: more than {limit} distinct puzzles (classes); raise --max-classes (each \
         class takes 20 to 60 bytes of memory, 100 while the summary is written, and 42 bytes \
         of the summary)"
    )]
    TooManyForms {
        /// The bound.
        limit: u64,
    },
    /// The run was interrupted.
    #[error("interrupted")]
    Interrupted,
}

/// A place in an input: a line of text, or a row of a Parquet file (which has no lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A 1-based line number (0: before the first line).
    Line(u64),
    /// A 1-based row number (0: before the first row).
    Row(u64),
}

impl Place {
    /// Where an input is after `done` records: rows for a Parquet input, else lines.
    pub fn after(parquet: bool, done: u64) -> Place {
        match parquet {
            true => Place::Row(done),
            false => Place::Line(done),
        }
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Line(line) => write!(f, "line {line}"),
            Place::Row(row) => write!(f, "row {row}"),
        }
    }
}

impl RunError {
    /// Whether this is a write to a reader that went away (`| head`): not worth a message.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, RunError::Write { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// A solver result that the independent verifier contradicts: always a bug in the solver.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("solver bug: {detail} (puzzle {puzzle}); please report it")]
pub struct SolverBug {
    /// The puzzle, as 81 characters.
    pub puzzle: String,
    /// What the solver reported and why it is wrong.
    pub detail: String,
}
