//! Wings and remote pairs: short patterns of bivalue cells.
//!
//! - Remote Pair: bivalue cells with the same two digits, linked cell to cell by shared
//!   houses (at least four of them). Along the links the two digits alternate, so a cell
//!   seeing two cells an odd number of links apart loses both digits.
//! - XY-Wing: a pivot `{x,y}` seeing pincers `{x,z}` and `{y,z}`: one pincer is `z`, so cells
//!   seeing both pincers lose `z`.
//! - XYZ-Wing: a pivot `{x,y,z}` seeing pincers `{x,z}` and `{y,z}`: cells seeing all three
//!   lose `z`.
//! - W-Wing: two cells `{a,b}` that do not see each other, and a strong link on `b` whose ends
//!   see one cell each: one of the two cells is `a`, so cells seeing both lose `a`.

use super::board::Board;
use super::houses::{Cells, Houses, bit, cells_of, count, first, is_two};
use super::step::{Candidate, Step};
use super::technique::Technique;

fn step(t: Technique, cells: &[usize], digits: u16, removed: &[(Cells, usize)]) -> Step {
    let mut s = Step::new(t);
    s.cells = cells.iter().map(|&c| c as u8).collect();
    s.digits = digits;
    for &(set, d) in removed {
        s.eliminations
            .extend(cells_of(set).map(|c| Candidate::new(c, d as u8 + 1)));
    }
    s
}

/// Remote Pair: per pair of digits, per chain of at least four cells.
#[inline(never)]
pub fn remote_pair(board: &Board, houses: &Houses) -> Option<Step> {
    let bivalue = board.bivalue_cells();
    let mut done: Cells = 0;
    for start in cells_of(bivalue) {
        if done & bit(start) != 0 {
            continue;
        }
        let pair = board.cand[start];
        let same: Cells = cells_of(bivalue)
            .filter(|&c| board.cand[c] == pair)
            .fold(0, |s, c| s | bit(c));
        // Two colours by parity of links from `start`.
        let (mut colour, mut other) = (bit(start), 0 as Cells);
        let mut frontier = bit(start);
        let mut parity = false;
        while frontier != 0 {
            let mut next = 0;
            for c in cells_of(frontier) {
                next |= houses.peers[c] & same;
            }
            next &= !(colour | other);
            parity = !parity;
            if parity {
                other |= next;
            } else {
                colour |= next;
            }
            frontier = next;
        }
        let component = colour | other;
        done |= component;
        if count(component) < 4 || colour & other != 0 {
            continue;
        }
        let seen = |set: Cells| cells_of(set).fold(0 as Cells, |s, c| s | houses.peers[c]);
        let targets = seen(colour) & seen(other) & !component;
        let (a, b) = (
            pair.trailing_zeros() as usize,
            15 - (pair.leading_zeros() as usize),
        );
        let ra = targets & board.digit[a];
        let rb = targets & board.digit[b];
        if ra | rb != 0 {
            let cells: Vec<usize> = cells_of(component).collect();
            return Some(step(
                Technique::RemotePair,
                &cells,
                pair,
                &[(ra, a), (rb, b)],
            ));
        }
    }
    None
}

/// XY-Wing: pivots in reading order.
#[inline(never)]
pub fn xy_wing(board: &Board, houses: &Houses) -> Option<Step> {
    let bivalue = board.bivalue_cells();
    for p in cells_of(bivalue) {
        let xy = board.cand[p];
        let wings = cells_of(houses.peers[p] & bivalue)
            .filter(|&w| (board.cand[w] & xy).count_ones() == 1)
            .fold(0 as Cells, |s, w| s | bit(w));
        for a in cells_of(wings) {
            let a_after = wings & !((bit(a) << 1) - 1);
            for b in cells_of(a_after) {
                let (ca, cb) = (board.cand[a], board.cand[b]);
                let z = ca & cb & !xy;
                if z == 0 || ca == cb || (ca | cb) & xy != xy {
                    continue;
                }
                let d = z.trailing_zeros() as usize;
                let removed = board.digit[d] & houses.peers[a] & houses.peers[b] & !bit(p);
                if removed != 0 {
                    return Some(step(Technique::XyWing, &[p, a, b], xy | z, &[(removed, d)]));
                }
            }
        }
    }
    None
}

/// XYZ-Wing: trivalue pivots in reading order.
#[inline(never)]
pub fn xyz_wing(board: &Board, houses: &Houses) -> Option<Step> {
    let bivalue = board.bivalue_cells();
    for p in cells_of(board.unsolved) {
        let xyz = board.cand[p];
        if xyz.count_ones() != 3 {
            continue;
        }
        let wings = cells_of(houses.peers[p] & bivalue)
            .filter(|&w| board.cand[w] & !xyz == 0)
            .fold(0 as Cells, |s, w| s | bit(w));
        for a in cells_of(wings) {
            let a_after = wings & !((bit(a) << 1) - 1);
            for b in cells_of(a_after) {
                let z = board.cand[a] & board.cand[b];
                if z.count_ones() != 1 {
                    continue;
                }
                let d = z.trailing_zeros() as usize;
                let removed = board.digit[d] & houses.peers[p] & houses.peers[a] & houses.peers[b];
                if removed != 0 {
                    return Some(step(Technique::XyzWing, &[p, a, b], xyz, &[(removed, d)]));
                }
            }
        }
    }
    None
}

/// W-Wing: pairs of equal bivalue cells in reading order.
#[inline(never)]
pub fn w_wing(board: &Board, houses: &Houses) -> Option<Step> {
    let bivalue = board.bivalue_cells();
    for c1 in cells_of(bivalue) {
        let pair = board.cand[c1];
        for c2 in cells_of(bivalue & !((bit(c1) << 1) - 1)) {
            if board.cand[c2] != pair || houses.sees(c1, c2) {
                continue;
            }
            let (a, b) = (
                pair.trailing_zeros() as usize,
                15 - pair.leading_zeros() as usize,
            );
            for (keep, link) in [(a, b), (b, a)] {
                let removed = board.digit[keep] & houses.peers[c1] & houses.peers[c2];
                if removed == 0 {
                    continue;
                }
                for h in 0..27 {
                    let ends = board.digit[link] & houses.house[h];
                    if !is_two(ends) || ends & (bit(c1) | bit(c2)) != 0 {
                        continue;
                    }
                    let e1 = first(ends);
                    let e2 = first(ends & !bit(e1));
                    let joined = (houses.sees(e1, c1) && houses.sees(e2, c2))
                        || (houses.sees(e1, c2) && houses.sees(e2, c1));
                    if joined {
                        return Some(step(
                            Technique::WWing,
                            &[c1, e1, e2, c2],
                            pair,
                            &[(removed, keep)],
                        ));
                    }
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::test_support::TestBoard;

    #[test]
    fn xy_wing_removes_z_seen_by_both_pincers() {
        let mut b = TestBoard::empty();
        b.keep(0, &[1, 2]); // pivot r1c1
        b.keep(5, &[1, 3]); // r1c6
        b.keep(27, &[2, 3]); // r4c1
        let s = xy_wing(&b.board, &b.houses).unwrap();
        assert_eq!(s.cells, vec![0, 5, 27]);
        // r4c6 sees both pincers; so do box cells of each... only common peers.
        assert!(s.eliminations.contains(&Candidate::new(32, 3)));
        assert!(s.eliminations.iter().all(|e| e.digit == 3));
        let mut b = TestBoard::empty();
        b.keep(0, &[1, 2]);
        b.keep(5, &[1, 3]);
        b.keep(27, &[2, 4]);
        assert!(xy_wing(&b.board, &b.houses).is_none());
    }

    #[test]
    fn xyz_wing_removes_z_seen_by_all_three() {
        let mut b = TestBoard::empty();
        b.keep(0, &[1, 2, 3]); // pivot r1c1
        b.keep(7, &[1, 3]); // r1c8
        b.keep(19, &[2, 3]); // r3c2, box 1
        let s = xyz_wing(&b.board, &b.houses).unwrap();
        // Cells seeing r1c1, r1c8 and r3c2: r1c2, r1c3.
        let mut cells: Vec<u8> = s.eliminations.iter().map(|e| e.cell).collect();
        cells.sort();
        assert_eq!(cells, vec![1, 2]);
        assert!(xyz_wing(&TestBoard::empty().board, &b.houses).is_none());
    }

    #[test]
    fn w_wing_needs_a_strong_link() {
        let mut b = TestBoard::empty();
        b.keep(0, &[5, 8]); // r1c1
        b.keep(40, &[5, 8]); // r5c5
        assert!(w_wing(&b.board, &b.houses).is_none());
        // 8 in row 9 only at r9c1 and r9c5.
        for c in 72..81 {
            if c != 72 && c != 76 {
                b.remove_candidate(c, 8);
            }
        }
        let s = w_wing(&b.board, &b.houses).unwrap();
        assert_eq!(s.technique, Technique::WWing);
        let mut cells: Vec<u8> = s.eliminations.iter().map(|e| e.cell).collect();
        cells.sort();
        assert_eq!(cells, vec![4, 36]);
        assert!(s.eliminations.iter().all(|e| e.digit == 5));
    }

    #[test]
    fn remote_pair_of_four_cells() {
        let mut b = TestBoard::empty();
        // r1c1 - r1c5 - r5c5 - r5c9 with {3,6}: r1c1 and r5c9 are three links apart.
        for c in [0, 4, 40, 44] {
            b.keep(c, &[3, 6]);
        }
        let s = remote_pair(&b.board, &b.houses).unwrap();
        assert_eq!(s.technique, Technique::RemotePair);
        // r1c9 and r5c1 see both ends.
        assert!(s.eliminations.contains(&Candidate::new(8, 3)));
        assert!(s.eliminations.contains(&Candidate::new(36, 6)));
        let mut b = TestBoard::empty();
        for c in [0, 4, 40] {
            b.keep(c, &[3, 6]);
        }
        assert!(remote_pair(&b.board, &b.houses).is_none());
    }
}
