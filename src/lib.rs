//! sudoku-bulk: solve, verify and measure Sudoku puzzles in bulk.
//!
//! The library is layered; each top-level module is one layer (a folder, or a file when it is
//! one job), and a module uses only layers below its own (ARCHITECTURE.md draws the table,
//! and a test keeps the imports to it). From the bottom:
//!
//! - [`grid`], [`rng`]: the 9x9 [`Grid`] and parsing of one puzzle; the crate's one seeded
//!   generator;
//! - [`layout`]: boxes or free-form regions, and the givens check;
//! - [`solver`]: every search algorithm behind one API, with exact [`solver::SearchStats`];
//!   [`verify`]: the independent checker of solutions; [`rate`]: how hard a puzzle is for a
//!   person, a logic solver with a ladder of human techniques rated as HoDoKu rates;
//!   [`canon`]: canonical (minlex) forms of puzzles under the Sudoku symmetry group;
//! - [`generate`]: reproducible random layouts, grids and puzzles; [`render`]: text views of
//!   puzzles, outcomes and search traces.
//!
//! None of the modules above does I/O. Above them, the bulk tool:
//!
//! - [`files`]: inputs (files, standard input, gzip) and outputs (replaced only when complete),
//!   and the one digest; [`row`]: the statuses of result rows and their tally;
//! - [`format`](mod@format): readers of the line, CSV, JSON-lines, grid and Parquet formats;
//!   CSV, JSON-lines and Parquet writers;
//! - [`stats`]: dataset summaries that merge, the summary file's schema, and the results
//!   reader; [`shard`]: which records shard `K` of `N` handles;
//! - [`pipeline`]: chunked reading, parallel solving and verifying, in-order writing;
//! - [`identity`]: what a run's rows depend on, for resuming and merging;
//! - [`resume`]: checkpoints, and resuming after an interruption; [`merge`]: joining the
//!   shards' outputs; [`report`]: a summary as a text table or an HTML page; [`progress`]: the
//!   progress bar;
//! - [`command`]: validated settings of a command (the binary's `cli` module turns the
//!   arguments into them), running it, exit codes.

#![warn(missing_docs)]

pub mod canon;
pub mod command;
pub mod files;
pub mod format;
pub mod generate;
pub mod grid;
pub mod identity;
pub mod layout;
pub mod merge;
pub mod pipeline;
pub mod progress;
pub mod rate;
pub mod render;
pub mod report;
pub mod resume;
pub mod rng;
pub mod row;
pub mod shard;
pub mod solver;
pub mod stats;
pub mod verify;

#[cfg(test)]
pub(crate) mod test_data;

pub use grid::Grid;
pub use layout::Layout;
