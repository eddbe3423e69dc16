//! `logic`: constraint propagation alone, never a guess. It answers "how far do naked and
//! hidden singles get?" with the layout-generic singles propagation of `general.rs`, on every
//! layout.
//!
//! # The procedure, and how it maps onto the counters
//! One call of the search procedure (`recursions = 1`, `max_depth = 1`) places the givens and
//! propagates naked singles and hidden singles in every row, column and region to their
//! fixpoint, in the order and with the counting of the `general` module page
//! (`naked_singles`, `hidden_singles`; `guesses = backtracks = 0` always). Then:
//!
//! - every cell filled: the grid is reported as a solution ([`super::Status::Solved`]; singles
//!   are sound deductions, so it is the only solution);
//! - a contradiction (a cell with no candidate, a digit with no cell in a unit):
//!   [`super::Status::Unsolvable`], for the same reason;
//! - otherwise [`super::Status::Stuck`], with the partially filled grid as the outcome's
//!   `solution` (its filled cells are the givens plus every placement).

use super::general::{Board, Units};
use super::{Event, Observer, Search, Stop};
use crate::grid::Grid;
use crate::layout::Layout;

/// Runs `logic` on `grid`, whose givens are known not to conflict.
pub(crate) fn search<O: Observer>(grid: &Grid, layout: &Layout, search: &mut Search<'_, O>) {
    if search.enter(1).is_err() {
        return;
    }
    let units = Units::of(layout);
    let mut board = Board::new(grid, &units);
    let propagated = board.propagate(&units, search);
    if O::ACTIVE {
        search.observer.event(&Event::Board(&board.grid()));
    }
    if propagated.is_err() {
        if O::ACTIVE {
            search.observer.event(&Event::Contradiction);
        }
    } else if board.is_solved() {
        // With one solution the limit cannot cut anything short.
        let _ = search.solution(|| board.grid());
    } else {
        search.sink.keep_partial(board.grid());
        search.stop = Some(Stop::Stuck);
    }
}
