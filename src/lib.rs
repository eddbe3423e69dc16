//! sudoku-bulk: solve, verify and measure Sudoku puzzles in bulk.
//!
//! The library is layered so that the bottom never depends on the top:
//!
//! - [`grid`]: the 9x9 [`Grid`] and parsing of one puzzle;
//! - [`layout`]: boxes or free-form regions, and the givens check;
//! - [`solver`]: every search algorithm behind one API, with exact [`solver::SearchStats`];
//! - [`verify`]: the independent checker of solutions;
//! - [`generate`]: reproducible random layouts, grids and puzzles;
//! - [`render`]: text views of puzzles, outcomes and search traces.
//!
//! No module above this line does I/O. Above the core:
//!
//! - [`stats`]: dataset summaries that merge, and their reader from result files;
//! - [`report`]: a summary rendered as a text table, JSON, or an HTML page with charts.

#![warn(missing_docs)]

pub mod generate;
pub mod grid;
pub mod layout;
pub mod render;
pub mod report;
pub mod solver;
pub mod stats;
pub mod verify;

pub use grid::Grid;
pub use layout::Layout;
