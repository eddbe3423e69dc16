//! Coloring on one digit: the cells joined by strong links (houses with exactly two places
//! for the digit) form clusters whose cells take two colours, one of which holds the digit.
//!
//! - Simple Colors, trap: a cell outside a cluster seeing both colours loses the digit.
//!   Wrap: two cells of one colour see each other, so that colour is false everywhere.
//! - Multi Colors: with two clusters, if a cell of colour `A1` sees a cell of `A2`, then `B1`
//!   or `B2` is true, and cells seeing both lose the digit; if `A1` sees both colours of the
//!   other cluster, `A1` is false everywhere.

use super::board::Board;
use super::houses::{Cells, Houses, bit, cells_of, is_two};
use super::step::Step;
use super::technique::Technique;

/// One cluster's two colours.
#[derive(Clone, Copy)]
struct Cluster {
    a: Cells,
    b: Cells,
}

/// The cells each cell of `d` is strongly linked to.
fn partners(board: &Board, houses: &Houses, d: usize, c: usize) -> Cells {
    let mut out = 0;
    for &h in &houses.cell_houses[c] {
        let here = board.digit[d] & houses.house[h as usize];
        if is_two(here) {
            out |= here & !bit(c);
        }
    }
    out
}

/// The clusters of digit `d` with at least one strong link, in order of their first cell.
fn clusters(board: &Board, houses: &Houses, d: usize, out: &mut Vec<Cluster>) {
    out.clear();
    let mut seen: Cells = 0;
    for c in cells_of(board.digit[d]) {
        if seen & bit(c) != 0 || partners(board, houses, d, c) == 0 {
            continue;
        }
        let (mut a, mut b) = (bit(c), 0 as Cells);
        let mut frontier = bit(c);
        let mut to_b = true;
        while frontier != 0 {
            let mut next = 0;
            for x in cells_of(frontier) {
                next |= partners(board, houses, d, x);
            }
            next &= !(a | b);
            if to_b {
                b |= next;
            } else {
                a |= next;
            }
            to_b = !to_b;
            frontier = next;
        }
        seen |= a | b;
        out.push(Cluster { a, b });
    }
}

fn seen_by(houses: &Houses, set: Cells) -> Cells {
    cells_of(set).fold(0, |s, c| s | houses.peers[c])
}

fn step(t: Technique, d: usize, pattern: Cells, removed: Cells) -> Step {
    let mut s = Step::pattern(t, cells_of(pattern), 1 << d);
    s.remove(d, cells_of(removed));
    s
}

/// Simple Colors on digit `d` (0-based): clusters in order, wrap before trap.
#[inline(never)]
pub fn simple(board: &Board, houses: &Houses, d: usize) -> Option<Step> {
    let mut list = Vec::new();
    clusters(board, houses, d, &mut list);
    for cl in &list {
        for colour in [cl.a, cl.b] {
            if cells_of(colour).any(|c| houses.peers[c] & colour != 0) {
                return Some(step(Technique::SimpleColors, d, cl.a | cl.b, colour));
            }
        }
        let removed =
            board.digit[d] & seen_by(houses, cl.a) & seen_by(houses, cl.b) & !(cl.a | cl.b);
        if removed != 0 {
            return Some(step(Technique::SimpleColors, d, cl.a | cl.b, removed));
        }
    }
    None
}

/// Multi Colors on digit `d` (0-based): pairs of clusters in order.
#[inline(never)]
pub fn multi(board: &Board, houses: &Houses, d: usize) -> Option<Step> {
    let mut list = Vec::new();
    clusters(board, houses, d, &mut list);
    for (i, c1) in list.iter().enumerate() {
        for (j, c2) in list.iter().enumerate() {
            if i == j {
                continue;
            }
            let pattern = c1.a | c1.b | c2.a | c2.b;
            for (x, y) in [(c1.a, c1.b), (c1.b, c1.a)] {
                let sx = seen_by(houses, x);
                // x sees both colours of the other cluster: x is false.
                if sx & c2.a != 0 && sx & c2.b != 0 {
                    return Some(step(Technique::MultiColors, d, pattern, x));
                }
                for (u, v) in [(c2.a, c2.b), (c2.b, c2.a)] {
                    if sx & u != 0 {
                        // x and u cannot both be true: y or v is.
                        let removed =
                            board.digit[d] & seen_by(houses, y) & seen_by(houses, v) & !(y | v);
                        if removed != 0 {
                            return Some(step(Technique::MultiColors, d, pattern, removed));
                        }
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
    use crate::rate::step::Candidate;
    use crate::rate::test_support::{TestBoard, any_digit};

    #[test]
    fn simple_colors_trap() {
        // Digit 4: box 1 r1c1=r2c3, column 3 r2c3=r8c3, row 8 r8c3=r8c7. Colours
        // {r1c1, r8c3} and {r2c3, r8c7}: r1c7 sees r1c1 and r8c7.
        let mut b = TestBoard::empty();
        let box1: Vec<usize> = cells_of(b.houses.house(18)).collect();
        b.only(box1, &[0, 11], 4);
        b.only((0..9).map(|r| r * 9 + 2), &[11, 65], 4);
        b.only(63..72, &[65, 69], 4);
        let s = any_digit(|d| simple(&b.board, &b.houses, d)).unwrap();
        assert_eq!(s.technique, Technique::SimpleColors);
        assert!(s.eliminations.contains(&Candidate::new(6, 4)), "{s}");
        for e in &s.eliminations {
            let c = e.cell as usize;
            assert!(![0, 11, 65, 69].contains(&c));
        }
        assert!(any_digit(|d| simple(&TestBoard::empty().board, &b.houses, d)).is_none());
    }

    #[test]
    fn multi_colors_on_two_clusters() {
        // Cluster 1: row 1 link r1c1-r1c5. Cluster 2: column 2 link r2c2-r8c2.
        // r1c1 sees r2c2 (box 1): r1c5 or r8c2 is 7, so r8c5 loses 7.
        let mut b = TestBoard::empty();
        b.only(0..9, &[0, 4], 7);
        b.only((0..9).map(|r| r * 9 + 1), &[10, 64], 7);
        let s = any_digit(|d| multi(&b.board, &b.houses, d)).unwrap();
        assert_eq!(s.technique, Technique::MultiColors);
        assert_eq!(s.eliminations, vec![Candidate::new(67, 7)]);
        let mut b = TestBoard::empty();
        b.only(0..9, &[0, 4], 7);
        assert!(
            any_digit(|d| multi(&b.board, &b.houses, d)).is_none(),
            "one cluster only"
        );
    }
}
