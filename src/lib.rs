//! sudoku-bulk: solve, verify and measure Sudoku puzzles in bulk.
//!
//! The library is layered so that the bottom never depends on the top:
//!
//! - [`grid`]: the 9x9 [`Grid`] and parsing of one puzzle;
//! - [`layout`]: boxes or free-form regions, and the givens check;
//! - [`solver`]: every search algorithm behind one API, with exact [`solver::SearchStats`];
//! - [`verify`]: the independent checker of solutions;
//! - [`canon`]: canonical (minlex) forms of puzzles under the Sudoku symmetry group;
//! - [`generate`]: reproducible random layouts, grids and puzzles;
//! - [`render`]: text views of puzzles, outcomes and search traces.
//!
//! None of the modules above does I/O. Above them, the bulk tool:
//!
//! - [`format`](mod@format): readers of the line, CSV and grid formats; CSV and JSON-lines writers;
//! - [`input`]: files or standard input, plain or gzip;
//! - [`pipeline`]: chunked reading, parallel solving and verifying, in-order writing;
//! - [`shard`]: which records shard `K` of `N` handles, for job arrays; [`merge`]: joining
//!   the shards' outputs and summaries into those of a single run;
//! - [`output`]: standard output, or a file replaced only when the run completes;
//! - [`resume`]: checkpoints of runs to a file, and resuming them after an interruption;
//! - [`progress`]: the progress bar;
//! - [`status`]: the status of a result row, shared by the pipeline and the statistics;
//! - [`stats`]: dataset summaries that merge, and their reader from result files;
//! - [`fingerprint`]: what a run's rows depend on (inputs, options, version), for summaries;
//! - [`report`]: a summary rendered as a text table, JSON, or an HTML page with charts;
//! - [`config`], [`run`], [`exit`], [`error`]: validated settings of a command (the binary's
//!   `cli` module turns the arguments into them), running it, exit codes and errors.

#![warn(missing_docs)]

pub mod canon;
pub mod config;
pub mod error;
pub mod exit;
pub mod fingerprint;
pub mod format;
pub mod generate;
pub mod grid;
pub mod input;
pub mod layout;
pub mod merge;
pub mod output;
pub mod pipeline;
pub mod progress;
pub mod render;
pub mod report;
pub mod resume;
pub mod rng;
pub mod run;
pub mod shard;
pub mod solver;
pub mod stats;
pub mod status;
pub mod verify;

#[cfg(test)]
pub(crate) mod test_data;

pub use grid::Grid;
pub use layout::Layout;
