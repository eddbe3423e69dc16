//! Alternating inference chains: X-chains, XY-chains and nice loops / AICs, and the
//! propagation of single implications that forcing chains reuse.
//!
//! # Links
//! A node is a candidate (a digit in a cell). A *strong* link joins two candidates of which at
//! least one is true: the two candidates of a bivalue cell, or the two places of a digit in a
//! house that holds it twice. A *weak* link joins two candidates that cannot both be true: two
//! digits of one cell, or one digit in two cells that see each other.
//!
//! # Search
//! From each start candidate `s` (cells in reading order, digits increasing), a breadth-first
//! search follows "`s` is false, so its strong partner is true, so that one's weak partners
//! are false, ..." over the links the kind allows. Every candidate `v` reached as *true* closes
//! a chain: `s` or `v` is true. Then a candidate that sees both loses its digit:
//!
//! - same digit in two cells: the cells seeing both lose it (every kind);
//! - two digits in one cell: the cell loses its other candidates (AIC only);
//! - two digits in cells that see each other: each cell loses the other's digit (AIC only);
//! - `v` is `s` itself: `s` is true, its cell loses its other candidates (AIC only).
//!
//! Breadth first, so the chain reported for a start is a shortest one.
//!
//! | kind | strong links | weak links |
//! |---|---|---|
//! | [`Kind::X`] | houses, the start's digit only | peers, same digit |
//! | [`Kind::Xy`] | bivalue cells | peers, same digit, bivalue cells only |
//! | [`Kind::Aic`] | both | both |

use super::board::Board;
use super::houses::{Cells, Houses, bit, cells_of, count, is_two};
use super::step::{Candidate, Step};
use super::technique::Technique;

/// Which links a chain may use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// One digit, strong links in houses.
    X,
    /// Bivalue cells, weak links between cells.
    Xy,
    /// Any strong and weak links.
    Aic,
}

const NONE: u16 = u16::MAX;

/// The state of one propagation: candidates implied true (`on`) and false (`off`), and the
/// candidate each was implied from (`node = cell * 9 + digit`).
pub struct Implications {
    /// Candidates implied true, per digit.
    pub on: [Cells; 9],
    /// Candidates implied false, per digit.
    pub off: [Cells; 9],
    parent_on: [u16; 729],
    parent_off: [u16; 729],
}

impl Implications {
    /// A propagation with nothing implied yet.
    pub fn new() -> Implications {
        Implications {
            on: [0; 9],
            off: [0; 9],
            parent_on: [NONE; 729],
            parent_off: [NONE; 729],
        }
    }

    fn reset(&mut self) {
        for d in 0..9 {
            for c in cells_of(self.on[d]) {
                self.parent_on[c * 9 + d] = NONE;
            }
            for c in cells_of(self.off[d]) {
                self.parent_off[c * 9 + d] = NONE;
            }
        }
        self.on = [0; 9];
        self.off = [0; 9];
    }

    /// How many candidates the chain to `node` (implied true) has, the start included.
    fn length(&self, mut node: usize) -> usize {
        let (mut n, mut on) = (1, true);
        loop {
            let p = if on {
                self.parent_on[node]
            } else {
                self.parent_off[node]
            };
            if p == NONE || n > 1458 {
                return n;
            }
            node = p as usize;
            on = !on;
            n += 1;
        }
    }

    /// The chain that implied `node` (`on` says which state), back to the start: cells in
    /// chain order, start first, and the digits used.
    fn chain(&self, mut node: usize, mut on: bool) -> (Vec<u8>, u16) {
        let mut cells = Vec::new();
        let mut digits = 0u16;
        loop {
            let c = (node / 9) as u8;
            if cells.last() != Some(&c) {
                cells.push(c);
            }
            digits |= 1 << (node % 9);
            let p = if on {
                self.parent_on[node]
            } else {
                self.parent_off[node]
            };
            if p == NONE || cells.len() > 729 {
                break;
            }
            node = p as usize;
            on = !on;
        }
        cells.reverse();
        (cells, digits)
    }
}

impl Default for Implications {
    fn default() -> Self {
        Implications::new()
    }
}

/// The strong partners of candidate `(c, d)` under `kind`.
#[inline]
fn strong(
    board: &Board,
    houses: &Houses,
    kind: Kind,
    bivalue: Cells,
    c: usize,
    d: usize,
    out: &mut [(usize, usize); 4],
) -> usize {
    let mut n = 0;
    if kind != Kind::X && bivalue & bit(c) != 0 {
        let other = (board.cand[c] & !(1 << d)).trailing_zeros() as usize;
        out[n] = (c, other);
        n += 1;
    }
    if kind != Kind::Xy {
        for &h in &houses.cell_houses[c] {
            let here = board.digit[d] & houses.house[h as usize];
            if is_two(here) {
                out[n] = ((here & !bit(c)).trailing_zeros() as usize, d);
                n += 1;
            }
        }
    }
    n
}

/// Follows the implications of `start` being true (`start_on`) or false, over `kind`'s links,
/// to the end or until `stop` returns a step for a candidate newly implied true.
pub fn propagate(
    board: &Board,
    houses: &Houses,
    kind: Kind,
    start: (usize, usize),
    start_on: bool,
    imp: &mut Implications,
    mut stop: impl FnMut(&Implications, usize, usize) -> Option<Step>,
) -> Option<Step> {
    imp.reset();
    let bivalue = board.bivalue_cells();
    let weak_cells = if kind == Kind::Xy {
        bivalue
    } else {
        super::houses::ALL_CELLS
    };
    let (sc, sd) = start;
    let mut frontier_on = [0 as Cells; 9];
    let mut frontier_off = [0 as Cells; 9];
    if start_on {
        imp.on[sd] |= bit(sc);
        frontier_on[sd] = bit(sc);
    } else {
        imp.off[sd] |= bit(sc);
        frontier_off[sd] = bit(sc);
    }
    let mut partners = [(0, 0); 4];
    let mut strong_phase = !start_on;
    loop {
        let mut any = false;
        if strong_phase {
            // Off -> on, by strong links.
            for d in 0..9 {
                for c in cells_of(frontier_off[d]) {
                    let n = strong(board, houses, kind, bivalue, c, d, &mut partners);
                    for &(pc, pd) in &partners[..n] {
                        if imp.on[pd] & bit(pc) == 0 {
                            imp.on[pd] |= bit(pc);
                            imp.parent_on[pc * 9 + pd] = (c * 9 + d) as u16;
                            frontier_on[pd] |= bit(pc);
                            any = true;
                            if let Some(s) = stop(imp, pc, pd) {
                                return Some(s);
                            }
                        }
                    }
                }
            }
            frontier_off = [0; 9];
        } else {
            // On -> off, by weak links.
            for d in 0..9 {
                for c in cells_of(frontier_on[d]) {
                    let same_digit = houses.peers[c] & board.digit[d] & weak_cells & !imp.off[d];
                    for x in cells_of(same_digit) {
                        imp.parent_off[x * 9 + d] = (c * 9 + d) as u16;
                    }
                    imp.off[d] |= same_digit;
                    frontier_off[d] |= same_digit;
                    any |= same_digit != 0;
                    if kind == Kind::Aic {
                        let mut others = board.cand[c] & !(1 << d);
                        while others != 0 {
                            let e = others.trailing_zeros() as usize;
                            others &= others - 1;
                            if imp.off[e] & bit(c) == 0 {
                                imp.off[e] |= bit(c);
                                imp.parent_off[c * 9 + e] = (c * 9 + d) as u16;
                                frontier_off[e] |= bit(c);
                                any = true;
                            }
                        }
                    }
                }
            }
            frontier_on = [0; 9];
        }
        if !any {
            return None;
        }
        strong_phase = !strong_phase;
    }
}

/// The chain of `kind` that removes the most candidates (HoDoKu sorts its chains the same
/// way); among equals, the first found: starts in reading order, shortest chain from each.
pub fn find(board: &Board, houses: &Houses, kind: Kind) -> Option<Step> {
    let mut imp = Implications::new();
    let technique = match kind {
        Kind::X => Technique::XChain,
        Kind::Xy => Technique::XyChain,
        Kind::Aic => Technique::NiceLoop,
    };
    let starts = match kind {
        Kind::Xy => board.bivalue_cells(),
        _ => board.unsolved,
    };
    // The best so far: (candidates removed, HoDoKu's index sum, chain length) and its step.
    let mut best: Option<((u32, u64, usize), Step)> = None;
    for sc in cells_of(starts) {
        let mut digits = board.cand[sc];
        while digits != 0 {
            let sd = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            propagate(
                board,
                houses,
                kind,
                (sc, sd),
                false,
                &mut imp,
                |imp, vc, vd| {
                    let mut removed = removals(board, houses, kind, (sc, sd), (vc, vd));
                    if kind == Kind::Aic && weakly_linked(houses, (sc, sd), (vc, vd)) {
                        // A continuous loop: every link of it holds exactly one truth.
                        let gone = loop_removals(board, houses, imp, (sc, sd), (vc, vd));
                        for d in 0..9 {
                            removed[d] |= gone[d];
                        }
                    }
                    let n: u32 = removed.iter().map(|m| count(*m)).sum();
                    if n == 0 || best.as_ref().is_some_and(|b| n < b.0.0) {
                        return None;
                    }
                    let rank = (n, index_sum(&removed), imp.length(vc * 9 + vd));
                    let better = best.as_ref().is_none_or(|b| {
                        let r = b.0;
                        n > r.0 || (rank.1, rank.2) < (r.1, r.2)
                    });
                    if better {
                        let (cells, digits) = imp.chain(vc * 9 + vd, true);
                        let mut s = Step::new(technique);
                        s.cells = cells;
                        s.digits = digits;
                        for d in 0..9 {
                            s.eliminations.extend(
                                cells_of(removed[d]).map(|c| Candidate::new(c, d as u8 + 1)),
                            );
                        }
                        best = Some((rank, s));
                    }
                    None
                },
            );
        }
    }
    best.map(|(_, s)| s)
}

/// HoDoKu's tie-break between steps removing as many candidates (`getIndexSumme`): the
/// removed candidates sorted by digit, then cell, the `k`-th weighing `cell * (1 + 80k) +
/// digit`; the smaller sum wins.
fn index_sum(removed: &[Cells; 9]) -> u64 {
    let (mut sum, mut weight) = (0u64, 1u64);
    for (d, &cells) in removed.iter().enumerate() {
        for c in cells_of(cells) {
            sum += c as u64 * weight + d as u64 + 1;
            weight += 80;
        }
    }
    sum
}

/// Whether two distinct candidates cannot both be true.
fn weakly_linked(houses: &Houses, a: (usize, usize), b: (usize, usize)) -> bool {
    (a.0 == b.0 && a.1 != b.1) || (a.1 == b.1 && houses.sees(a.0, b.0))
}

/// What a link between candidates `a` and `b` holding exactly one truth removes: the
/// candidates seeing both.
fn link_removals(
    board: &Board,
    houses: &Houses,
    a: (usize, usize),
    b: (usize, usize),
    out: &mut [Cells; 9],
) {
    if a.0 == b.0 {
        let mut gone = board.cand[a.0] & !((1u16 << a.1) | (1 << b.1));
        while gone != 0 {
            out[gone.trailing_zeros() as usize] |= bit(a.0);
            gone &= gone - 1;
        }
    } else if a.1 == b.1 {
        out[a.1] |= board.digit[a.1] & houses.peers[a.0] & houses.peers[b.0];
    }
}

/// The removals of the continuous loop closed by the weak link from `v` (implied true) back
/// to the start `s` (assumed false): the loop alternates strong and weak links, as many of
/// each, every candidate of it in one of each; strong links hold at least one truth and weak
/// ones at most one, so each holds exactly one, and a candidate seeing both ends of any of its
/// links is false.
fn loop_removals(
    board: &Board,
    houses: &Houses,
    imp: &Implications,
    s: (usize, usize),
    v: (usize, usize),
) -> [Cells; 9] {
    let mut out = [0 as Cells; 9];
    let node = |n: usize| (n / 9, n % 9);
    link_removals(board, houses, v, s, &mut out);
    // The loop's candidates, to make sure none comes twice (a path may meet a candidate
    // false and later true: that is no loop).
    let mut seen = [0 as Cells; 9];
    seen[v.1] |= bit(v.0);
    let (mut n, mut on) = (v.0 * 9 + v.1, true);
    loop {
        let p = if on {
            imp.parent_on[n]
        } else {
            imp.parent_off[n]
        };
        if p == NONE {
            break;
        }
        let (pc, pd) = node(p as usize);
        if seen[pd] & bit(pc) != 0 {
            return [0; 9];
        }
        seen[pd] |= bit(pc);
        link_removals(board, houses, (pc, pd), node(n), &mut out);
        n = p as usize;
        on = !on;
    }
    out
}

/// What "`s` or `v` is true" removes, per digit.
fn removals(
    board: &Board,
    houses: &Houses,
    kind: Kind,
    s: (usize, usize),
    v: (usize, usize),
) -> [Cells; 9] {
    let ((sc, sd), (vc, vd)) = (s, v);
    let mut out = [0 as Cells; 9];
    if sd == vd && sc != vc {
        out[sd] = board.digit[sd] & houses.peers[sc] & houses.peers[vc];
        return out;
    }
    if kind != Kind::Aic {
        return out;
    }
    if sc == vc {
        // Two digits of one cell (or the start itself): the other candidates go.
        let keep = (1u16 << sd) | (1 << vd);
        let mut gone = board.cand[sc] & !keep;
        while gone != 0 {
            out[gone.trailing_zeros() as usize] |= bit(sc);
            gone &= gone - 1;
        }
    } else if houses.sees(sc, vc) {
        if board.has(sc, vd) {
            out[vd] |= bit(sc);
        }
        if board.has(vc, sd) {
            out[sd] |= bit(vc);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::test_support::TestBoard;

    #[test]
    fn x_chain_of_three_strong_links() {
        // Digit 5, five links: r1c1=r1c5 - r4c5=r4c8 - r8c8=r8c2; r1c1 or r8c2 is 5.
        let mut b = TestBoard::empty();
        b.only(0..9, &[0, 4], 5);
        b.only(27..36, &[31, 34], 5);
        b.only(63..72, &[70, 64], 5);
        let s = find(&b.board, &b.houses, Kind::X).unwrap();
        assert_eq!(s.technique, Technique::XChain);
        assert!(s.eliminations.iter().all(|e| e.digit == 5));
        assert!(find(&TestBoard::empty().board, &b.houses, Kind::X).is_none());
    }

    #[test]
    fn xy_chain_of_bivalue_cells() {
        let mut b = TestBoard::empty();
        // r1c1 {1,2} - r1c5 {2,3} - r5c5 {3,4} - r5c9 {4,1}: r1c9 and r5c1 lose 1.
        b.keep(0, &[1, 2]);
        b.keep(4, &[2, 3]);
        b.keep(40, &[3, 4]);
        b.keep(44, &[4, 1]);
        let s = find(&b.board, &b.houses, Kind::Xy).unwrap();
        assert_eq!(s.technique, Technique::XyChain);
        let mut cells: Vec<u8> = s.eliminations.iter().map(|e| e.cell).collect();
        cells.sort();
        assert_eq!(cells, vec![8, 36]);
        assert!(s.eliminations.iter().all(|e| e.digit == 1));
        assert!(find(&TestBoard::empty().board, &b.houses, Kind::Xy).is_none());
    }

    #[test]
    fn aic_mixes_cells_and_houses() {
        // r1c1 {1,2}; 2 in column 5 only at r1c5, r4c5; 1 in row 4 only at r4c5, r4c9.
        // r1c1 not 1 -> r1c1 is 2 -> r1c5 not 2 -> r4c5 is 2 -> r4c5 not 1 -> r4c9 is 1:
        // r1c1 or r4c9 is 1, and r1c9 sees both.
        let mut b = TestBoard::empty();
        b.keep(0, &[1, 2]);
        b.only((0..9).map(|r| r * 9 + 4), &[4, 31], 2);
        b.only(27..36, &[31, 35], 1);
        assert!(find(&b.board, &b.houses, Kind::X).is_none());
        assert!(find(&b.board, &b.houses, Kind::Xy).is_none());
        let s = find(&b.board, &b.houses, Kind::Aic).unwrap();
        assert_eq!(s.technique, Technique::NiceLoop);
        assert_eq!(s.eliminations, vec![Candidate::new(8, 1)]);
        assert!(find(&TestBoard::empty().board, &b.houses, Kind::Aic).is_none());
    }
}
