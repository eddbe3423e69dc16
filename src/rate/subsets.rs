//! Naked and hidden subsets (pairs, triples, quadruples) and the locked pair and triple.
//!
//! A naked subset is `n` cells of a house whose candidates together are `n` digits: those
//! digits leave every other cell of every house the `n` cells share. It is *locked* (HoDoKu's
//! Locked Pair/Triple, tried earlier and scored lower) when the cells share a region and a
//! line and candidates go from both. A hidden subset is `n` digits confined to the same `n`
//! cells of a house: those cells lose every other candidate.
//!
//! Search order as HoDoKu's `SimpleSolver`: naked subsets over regions, then rows, then
//! columns; hidden subsets the same; cells (digits) combined in increasing order.

use super::board::Board;
use super::houses::{Cells, Houses, at_most, bit, cells_of, nine_count};
use super::step::{Candidate, Step};
use super::technique::Technique;

/// Which naked subsets a search accepts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Locked pairs and triples (a region and a line shared, candidates gone from both).
    Locked,
    /// The others.
    Plain,
}

/// The houses the searches visit, in order: regions, then rows, then columns.
pub const HOUSE_ORDER: [usize; 27] = [
    18, 19, 20, 21, 22, 23, 24, 25, 26, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
    17,
];

/// The locked pair (`n = 2`) or triple (`n = 3`), in regions.
#[cfg(test)]
pub fn locked(board: &Board, houses: &Houses, n: usize) -> Option<Step> {
    (18..27).find_map(|h| naked_in(board, houses, h, n, Kind::Locked, &mut true))
}

/// The naked subset of `n` cells that is not locked: regions, rows, columns.
#[cfg(test)]
pub fn naked(board: &Board, houses: &Houses, n: usize) -> Option<Step> {
    HOUSE_ORDER
        .into_iter()
        .find_map(|h| naked_in(board, houses, h, n, Kind::Plain, &mut true))
}

/// The hidden subset of `n` digits: regions, rows, columns.
#[cfg(test)]
pub fn hidden(board: &Board, houses: &Houses, n: usize) -> Option<Step> {
    HOUSE_ORDER
        .into_iter()
        .find_map(|h| hidden_in(board, houses, h, n))
}

/// The naked subset of `n` cells of house `h` of the kind asked for. Finding none, it clears
/// `settled` when, asked for plain ones, it passed over a locked one (losing candidates outside
/// the house can make that one plain); otherwise none is found while the house's cells keep
/// their candidates (eliminations outside them only go, and an unlocked subset stays so).
pub fn naked_in(
    board: &Board,
    houses: &Houses,
    h: usize,
    n: usize,
    kind: Kind,
    settled: &mut bool,
) -> Option<Step> {
    let mut eligible = [0u8; 9];
    let mut len = 0;
    for &c in &houses.house_cells[h] {
        let k = nine_count(board.cand[c as usize]);
        if k > 0 && k <= n {
            eligible[len] = c;
            len += 1;
        }
    }
    if len < n {
        return None;
    }
    let mut chosen = [0u8; 4];
    let mut search = NakedSearch {
        board,
        houses,
        eligible: &eligible[..len],
        n,
        chosen: &mut chosen,
        kind,
        settled,
    };
    search.combos(0, 0, 0)
}

/// One house's search for naked subsets.
struct NakedSearch<'a> {
    board: &'a Board,
    houses: &'a Houses,
    /// Its unsolved cells with at most `n` candidates.
    eligible: &'a [u8],
    n: usize,
    chosen: &'a mut [u8; 4],
    kind: Kind,
    /// Cleared when a subset of the other kind was passed over (see [`naked_in`]).
    settled: &'a mut bool,
}

impl NakedSearch<'_> {
    fn combos(&mut self, from: usize, depth: usize, union: u16) -> Option<Step> {
        let n = self.n;
        if depth == n {
            let cells = &self.chosen[..n];
            return match naked_step(self.board, self.houses, cells, union, self.kind) {
                Ok(step) => step,
                Err(OtherKind) => {
                    // A locked subset passed over can turn plain; an unlocked one stays so.
                    if self.kind == Kind::Plain {
                        *self.settled = false;
                    }
                    None
                }
            };
        }
        for k in from..=self.eligible.len() - (n - depth) {
            let cell = self.eligible[k];
            let u = union | self.board.cand[cell as usize];
            if nine_count(u) > n {
                continue;
            }
            self.chosen[depth] = cell;
            if let Some(s) = self.combos(k + 1, depth + 1, u) {
                return Some(s);
            }
        }
        None
    }
}

/// A naked subset with eliminations, passed over for being locked (or not locked) when the
/// other kind was asked for.
struct OtherKind;

/// HoDoKu's `createSubsetStep` for naked subsets: eliminations in every shared house; locked
/// when the cells share a region and a line and candidates go from the region and from the
/// line outside the region.
fn naked_step(
    board: &Board,
    houses: &Houses,
    cells: &[u8],
    digits: u16,
    kind: Kind,
) -> Result<Option<Step>, OtherKind> {
    if digits.count_ones() as usize != cells.len() {
        return Ok(None);
    }
    let set: Cells = cells.iter().fold(0, |s, &c| s | bit(c as usize));
    let shared = houses.common_houses(set);
    let region = houses.region_of(cells[0] as usize);
    let mut removed = [0 as Cells; 9];
    let mut houses_hit = 0;
    for (k, h) in shared.iter().enumerate() {
        let Some(h) = *h else { continue };
        let mut hit = false;
        for d in 0..9 {
            if digits & (1 << d) == 0 {
                continue;
            }
            let gone = board.digit[d] & houses.house[h] & !set;
            removed[d] |= gone;
            let counted = if k == 2 {
                gone
            } else {
                gone & !houses.house[region]
            };
            hit |= counted != 0;
        }
        houses_hit += hit as u32;
    }
    if removed.iter().all(|&r| r == 0) {
        return Ok(None);
    }
    let is_locked = cells.len() < 4
        && houses_hit > 1
        && shared[2].is_some()
        && (shared[0].is_some() || shared[1].is_some());
    if is_locked != (kind == Kind::Locked) {
        return Err(OtherKind);
    }
    let technique = match (cells.len(), is_locked) {
        (2, true) => Technique::LockedPair,
        (3, true) => Technique::LockedTriple,
        (2, false) => Technique::NakedPair,
        (3, false) => Technique::NakedTriple,
        _ => Technique::NakedQuad,
    };
    let mut step = Step::new(technique);
    step.cells = cells.to_vec();
    step.digits = digits;
    for i in cells_of(removed.iter().fold(0, |a, &r| a | r)) {
        for (d, r) in removed.iter().enumerate() {
            if r & bit(i) != 0 {
                step.eliminations.push(Candidate::new(i, d as u8 + 1));
            }
        }
    }
    Ok(Some(step))
}

/// The hidden subset of `n` digits of house `h`: it reads only the house's cells.
pub fn hidden_in(board: &Board, houses: &Houses, h: usize, n: usize) -> Option<Step> {
    let house = houses.house[h];
    if at_most(board.unsolved & house, n) {
        return None;
    }
    let mut eligible = [0u8; 9];
    let mut len = 0;
    for d in 0..9 {
        let places = board.digit[d] & house;
        if places != 0 && at_most(places, n) {
            eligible[len] = d as u8;
            len += 1;
        }
    }
    if len < n {
        return None;
    }
    let mut chosen = [0u8; 4];
    hidden_combos(board, house, &eligible[..len], 0, 0, n, 0, &mut chosen)
}

#[allow(clippy::too_many_arguments)]
fn hidden_combos(
    board: &Board,
    house: Cells,
    eligible: &[u8],
    from: usize,
    depth: usize,
    n: usize,
    union: Cells,
    chosen: &mut [u8; 4],
) -> Option<Step> {
    if depth == n {
        // Exactly n cells.
        if !at_most(union, n) || at_most(union, n - 1) {
            return None;
        }
        let digits: u16 = chosen[..n].iter().fold(0, |m, &d| m | 1 << d);
        let mut step = Step::new(match n {
            2 => Technique::HiddenPair,
            3 => Technique::HiddenTriple,
            _ => Technique::HiddenQuad,
        });
        for i in cells_of(union) {
            let mut extra = board.cand[i] & !digits;
            while extra != 0 {
                let d = extra.trailing_zeros() as u8;
                extra &= extra - 1;
                step.eliminations.push(Candidate::new(i, d + 1));
            }
        }
        if step.eliminations.is_empty() {
            return None;
        }
        step.cells = cells_of(union).map(|c| c as u8).collect();
        step.digits = digits;
        return Some(step);
    }
    for k in from..=eligible.len() - (n - depth) {
        let u = union | (board.digit[eligible[k] as usize] & house);
        if !at_most(u, n) {
            continue;
        }
        chosen[depth] = eligible[k];
        if let Some(s) = hidden_combos(board, house, eligible, k + 1, depth + 1, n, u, chosen) {
            return Some(s);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::test_support::TestBoard;

    #[test]
    fn naked_pair_in_a_row_removes_its_digits_from_the_row() {
        let mut b = TestBoard::empty();
        // r1c1 and r1c5 hold {4,7}; they share row 1 only.
        b.keep(0, &[4, 7]);
        b.keep(4, &[4, 7]);
        assert!(locked(&b.board, &b.houses, 2).is_none());
        let s = naked(&b.board, &b.houses, 2).unwrap();
        assert_eq!(s.technique, Technique::NakedPair);
        assert_eq!(s.cells, vec![0, 4]);
        assert_eq!(s.eliminations.len(), 14);
        assert!(
            s.to_string()
                .starts_with("Naked Pair r1c1/r1c5 {4,7}: removes 4 from r1c2")
        );
        assert!(naked(&TestBoard::empty().board, &b.houses, 2).is_none());
    }

    #[test]
    fn pair_in_a_row_and_a_box_is_locked() {
        let mut b = TestBoard::empty();
        b.keep(0, &[4, 7]);
        b.keep(1, &[4, 7]);
        let s = locked(&b.board, &b.houses, 2).unwrap();
        assert_eq!(s.technique, Technique::LockedPair);
        assert!(naked(&b.board, &b.houses, 2).is_none());
    }

    #[test]
    fn naked_triple_and_quad() {
        let mut b = TestBoard::empty();
        b.keep(0, &[1, 2]);
        b.keep(4, &[2, 3]);
        b.keep(8, &[1, 3]);
        let s = naked(&b.board, &b.houses, 3).unwrap();
        assert_eq!(s.technique, Technique::NakedTriple);
        b.keep(2, &[5, 6]);
        b.keep(6, &[6, 7]);
        assert!(
            naked(&b.board, &b.houses, 4).is_none(),
            "no four cells on four digits"
        );
    }

    #[test]
    fn hidden_pair_strips_the_other_candidates() {
        let mut b = TestBoard::empty();
        // 1 and 2 in row 1 only at r1c1 and r1c2; region 1 keeps them elsewhere.
        for c in 2..9 {
            b.remove_candidate(c, 1);
            b.remove_candidate(c, 2);
        }
        let s = hidden(&b.board, &b.houses, 2).unwrap();
        assert_eq!(s.technique, Technique::HiddenPair);
        assert_eq!(s.cells, vec![0, 1]);
        assert_eq!(s.eliminations.len(), 14);
        assert!(hidden(&TestBoard::empty().board, &b.houses, 2).is_none());
        assert!(hidden(&TestBoard::empty().board, &b.houses, 3).is_none());
    }
}
