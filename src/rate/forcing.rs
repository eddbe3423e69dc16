//! Forcing chains and forcing nets: the last logical rungs.
//!
//! Each candidate is assumed true (and, for chains, also false) and the consequences are
//! followed:
//!
//! - **Forcing chain**: by single implications only, over the links of the current board
//!   (`chains::propagate` with every kind of link): a true candidate makes its weak partners
//!   false, a false one makes its strong partners true.
//! - **Forcing net**: the assumption is made on a copy of the board and naked and hidden
//!   singles are propagated to their fixpoint ([`Board::propagate`]), so a conclusion may
//!   rest on several earlier ones. (HoDoKu bounds its nets' depth; these are not bounded.)
//!
//! A step is found, in this order:
//!
//! 1. contradiction: an assumption that makes a candidate both true and false, empties a cell,
//!    or leaves a house without a place for a digit, is wrong: an assumed-true candidate is
//!    removed, an assumed-false one placed;
//! 2. cell verity: every candidate of a cell, assumed true, implies the same placement or
//!    removal: it holds;
//! 3. house verity: the same over the places of a digit in a house;
//! 4. (chains only) a candidate's truth and its falsehood imply the same thing.

use super::board::{Board, NoEvents};
use super::chains::{Implications, Kind, propagate};
use super::houses::{Cells, Houses, cells_of, count};
use super::step::{Candidate, Step};
use super::technique::Technique;

/// What an assumption implies: candidates true and false, per digit.
#[derive(Clone, Copy, Default)]
struct Outcome {
    broken: bool,
    on: [Cells; 9],
    off: [Cells; 9],
}

/// Memory reused from search to search: the outcome of every assumption.
#[derive(Clone, Default)]
pub struct Scratch {
    outcomes: Vec<Outcome>,
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scratch").finish_non_exhaustive()
    }
}

impl Scratch {
    fn outcomes(&mut self, n: usize) -> &mut Vec<Outcome> {
        self.outcomes.clear();
        self.outcomes.resize(n, EMPTY);
        &mut self.outcomes
    }
}

const EMPTY: Outcome = Outcome {
    broken: false,
    on: [0; 9],
    off: [0; 9],
};

/// Whether the implications break the board.
fn broken(board: &Board, houses: &Houses, on: &[Cells; 9], off: &[Cells; 9]) -> bool {
    let mut alive = 0 as Cells;
    for d in 0..9 {
        if on[d] & off[d] != 0 {
            return true;
        }
        alive |= board.digit[d] & !off[d];
    }
    if board.unsolved & !alive != 0 {
        return true;
    }
    for d in 0..9 {
        let left = board.digit[d] & !off[d];
        for h in 0..27 {
            let house = houses.house[h];
            if board.digit[d] & house != 0 && left & house == 0 {
                return true;
            }
        }
    }
    false
}

/// The live placements and removals that `on`/`off` hold, as a step.
fn conclusions(
    board: &Board,
    t: Technique,
    pattern: &[usize],
    digits: u16,
    on: &[Cells; 9],
    off: &[Cells; 9],
) -> Option<Step> {
    let mut s = Step::new(t);
    for d in 0..9 {
        for c in cells_of(on[d] & board.digit[d]) {
            s.placements.push(Candidate::new(c, d as u8 + 1));
        }
        for c in cells_of(off[d] & board.digit[d] & !on[d]) {
            s.eliminations.push(Candidate::new(c, d as u8 + 1));
        }
    }
    if s.placements.is_empty() && s.eliminations.is_empty() {
        return None;
    }
    s.cells = pattern.iter().map(|&c| c as u8).collect();
    s.digits = digits;
    Some(s)
}

/// Intersections of outcomes.
fn meet(outcomes: impl Iterator<Item = Outcome>) -> ([Cells; 9], [Cells; 9]) {
    let mut on = [!0 as Cells; 9];
    let mut off = [!0 as Cells; 9];
    for o in outcomes {
        for d in 0..9 {
            on[d] &= o.on[d];
            off[d] &= o.off[d];
        }
    }
    (on, off)
}

/// A forcing chain.
#[inline(never)]
pub fn chain(board: &Board, houses: &Houses, scratch: &mut Scratch) -> Option<Step> {
    let mut imp = Implications::new();
    let results = scratch.outcomes(729 * 2);
    for c in cells_of(board.unsolved) {
        for d in (0..9).filter(|&d| board.has(c, d)) {
            for (k, on) in [(0, true), (1, false)] {
                propagate(board, houses, Kind::Aic, (c, d), on, &mut imp, |_, _, _| {
                    None
                });
                let b = broken(board, houses, &imp.on, &imp.off);
                results[(c * 9 + d) * 2 + k] = Outcome {
                    broken: b,
                    on: imp.on,
                    off: imp.off,
                };
                if b {
                    let mut s = Step::new(Technique::ForcingChain);
                    s.cells = vec![c as u8];
                    s.digits = 1 << d;
                    if on {
                        s.eliminations.push(Candidate::new(c, d as u8 + 1));
                    } else {
                        s.placements.push(Candidate::new(c, d as u8 + 1));
                    }
                    return Some(s);
                }
            }
        }
    }
    let on_outcome = |c: usize, d: usize| results[(c * 9 + d) * 2];
    if let Some(s) = verities(board, houses, Technique::ForcingChain, &on_outcome) {
        return Some(s);
    }
    for c in cells_of(board.unsolved) {
        for d in (0..9).filter(|&d| board.has(c, d)) {
            let both = [results[(c * 9 + d) * 2], results[(c * 9 + d) * 2 + 1]];
            let (on, off) = meet(both.into_iter());
            if let Some(s) = conclusions(board, Technique::ForcingChain, &[c], 1 << d, &on, &off) {
                return Some(s);
            }
        }
    }
    None
}

/// Cell verities, then house verities, over the outcomes of assuming each candidate true.
fn verities(
    board: &Board,
    houses: &Houses,
    t: Technique,
    outcome: &dyn Fn(usize, usize) -> Outcome,
) -> Option<Step> {
    for c in cells_of(board.unsolved) {
        let cand = board.cand[c];
        let (on, off) = meet(
            (0..9)
                .filter(|&d| cand & (1 << d) != 0)
                .map(|d| outcome(c, d)),
        );
        if let Some(s) = conclusions(board, t, &[c], cand, &on, &off) {
            return Some(s);
        }
    }
    for h in 0..27 {
        for d in 0..9 {
            let places = board.digit[d] & houses.house[h];
            if count(places) < 2 {
                continue;
            }
            let (on, off) = meet(cells_of(places).map(|c| outcome(c, d)));
            let pattern: Vec<usize> = cells_of(places).collect();
            if let Some(s) = conclusions(board, t, &pattern, 1 << d, &on, &off) {
                return Some(s);
            }
        }
    }
    None
}

/// A forcing net.
#[inline(never)]
pub fn net(board: &Board, houses: &Houses, scratch: &mut Scratch) -> Option<Step> {
    let results = scratch.outcomes(729);
    for c in cells_of(board.unsolved) {
        for d in (0..9).filter(|&d| board.has(c, d)) {
            let mut copy = board.clone();
            copy.place(houses, c, d, &mut NoEvents);
            let outcome = match copy.propagate(houses) {
                Err(_) => Outcome {
                    broken: true,
                    ..EMPTY
                },
                Ok(()) => {
                    let mut o = EMPTY;
                    for e in 0..9 {
                        o.on[e] = copy.solved[e] & !board.solved[e];
                        o.off[e] = board.digit[e] & !copy.digit[e] & !copy.solved[e];
                    }
                    o
                }
            };
            if outcome.broken {
                let mut s = Step::new(Technique::ForcingNet);
                s.cells = vec![c as u8];
                s.digits = 1 << d;
                s.eliminations.push(Candidate::new(c, d as u8 + 1));
                return Some(s);
            }
            results[c * 9 + d] = outcome;
        }
    }
    verities(board, houses, Technique::ForcingNet, &|c, d| {
        results[c * 9 + d]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::test_support::{TestBoard, assert_sound};

    /// A wrong digit forced into an otherwise solved grid: every candidate of the cell but
    /// the true one breaks it, so a contradiction is found at once.
    #[test]
    fn a_contradiction_removes_the_wrong_candidate() {
        // The solution with r1c1 and r1c2 opened; r1c1 keeps {5,3}? r1c1 is 5, r1c2 is 3:
        // opening both leaves a bivalue pair the singles finish; force candidates instead.
        let mut marks: Vec<String> = crate::test_data::SOLUTION
            .chars()
            .map(|c| format!("+{c}"))
            .collect();
        marks[0] = "35".into();
        marks[1] = "3".into();
        let b = TestBoard::from_pencilmarks(&marks.join(" "));
        let s = net(&b.board, &b.houses, &mut Scratch::default()).unwrap();
        assert_eq!(s.eliminations, vec![Candidate::new(0, 3)]);
        assert_sound(&s, crate::test_data::SOLUTION);
        let s = chain(&b.board, &b.houses, &mut Scratch::default()).unwrap();
        assert_sound(&s, crate::test_data::SOLUTION);
    }

    #[test]
    fn nothing_to_force_on_a_solved_board() {
        let b = TestBoard::from_puzzle(crate::test_data::SOLUTION);
        assert!(net(&b.board, &b.houses, &mut Scratch::default()).is_none());
        assert!(chain(&b.board, &b.houses, &mut Scratch::default()).is_none());
    }
}
