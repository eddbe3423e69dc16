//! Sue de Coq: where a line meets a region, two or more empty cells `I` hold digits `V`, at
//! least two more digits than cells. Cells `A` of the line (outside the region) and `B` of the
//! region (outside the line), with no digit in common, such that `I`, `A` and `B` together
//! hold exactly as many digits as cells, must hold each of those digits once: the digits of
//! `A`, and those of `V` not in `B`, leave the rest of the line; the digits of `B`, and those
//! of `V` not in `A`, leave the rest of the region.
//!
//! `A` and `B` are taken of one or two cells each, every cell holding a digit of `V`. Stated
//! over a line and a region, it works on jigsaw layouts.

use super::board::Board;
use super::houses::{Cells, Houses, bit, cells_of, count};
use super::step::{Candidate, Step};
use super::technique::Technique;

/// Subsets of one or two cells of `cells` each holding a digit of `v`: (cells, digits).
fn groups(board: &Board, cells: Cells, v: u16, out: &mut Vec<(Cells, u16)>) {
    out.clear();
    let list: Vec<usize> = cells_of(cells)
        .filter(|&c| board.cand[c] & v != 0)
        .collect();
    for (i, &x) in list.iter().enumerate() {
        out.push((bit(x), board.cand[x]));
        for &y in &list[i + 1..] {
            out.push((bit(x) | bit(y), board.cand[x] | board.cand[y]));
        }
    }
}

fn removals(board: &Board, cells: Cells, digits: u16) -> impl Iterator<Item = Candidate> + '_ {
    cells_of(cells).flat_map(move |c| {
        (0..9)
            .filter(move |&d| board.cand[c] & digits & (1 << d) != 0)
            .map(move |d| Candidate::new(c, d as u8 + 1))
    })
}

/// The first Sue de Coq: lines, then regions, then subsets of the intersection.
#[inline(never)]
pub fn find(board: &Board, houses: &Houses) -> Option<Step> {
    let (mut line_groups, mut region_groups) = (Vec::new(), Vec::new());
    for line in 0..18 {
        for region in 18..27 {
            let inter = board.unsolved & houses.house[line] & houses.house[region];
            if count(inter) < 2 {
                continue;
            }
            let list: Vec<usize> = cells_of(inter).collect();
            for mask in 1u32..(1 << list.len()) {
                if mask.count_ones() < 2 {
                    continue;
                }
                let i_cells: Cells = list
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| mask & (1 << k) != 0)
                    .fold(0, |s, (_, &c)| s | bit(c));
                let v: u16 = cells_of(i_cells).fold(0, |m, c| m | board.cand[c]);
                let n = count(i_cells);
                if v.count_ones() < n + 2 {
                    continue;
                }
                let line_rest = board.unsolved & houses.house[line] & !houses.house[region];
                let region_rest = board.unsolved & houses.house[region] & !houses.house[line];
                groups(board, line_rest, v, &mut line_groups);
                groups(board, region_rest, v, &mut region_groups);
                for &(a, va) in &line_groups {
                    for &(b, vb) in &region_groups {
                        if va & vb != 0 {
                            continue;
                        }
                        let total = (v | va | vb).count_ones();
                        if total != n + count(a) + count(b) {
                            continue;
                        }
                        let line_digits = va | (v & !vb);
                        let region_digits = vb | (v & !va);
                        let mut gone: Vec<Candidate> = removals(
                            board,
                            houses.house[line] & board.unsolved & !i_cells & !a,
                            line_digits,
                        )
                        .collect();
                        gone.extend(removals(
                            board,
                            houses.house[region] & board.unsolved & !i_cells & !b,
                            region_digits,
                        ));
                        gone.sort();
                        gone.dedup();
                        if !gone.is_empty() {
                            let mut s = Step::new(Technique::SueDeCoq);
                            s.cells = cells_of(i_cells | a | b).map(|c| c as u8).collect();
                            s.digits = v | va | vb;
                            s.eliminations = gone;
                            return Some(s);
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
    use crate::rate::test_support::TestBoard;

    #[test]
    fn classic_sue_de_coq() {
        // I = r1c1, r1c2 {1,2,3,4}; A = r1c5 {1,2} (row 1); B = r3c3 {3,4} (box 1).
        let mut b = TestBoard::empty();
        b.keep(0, &[1, 2, 3, 4]);
        b.keep(1, &[1, 2, 3, 4]);
        b.keep(4, &[1, 2]);
        b.keep(20, &[3, 4]);
        let s = find(&b.board, &b.houses).unwrap();
        assert_eq!(s.technique, Technique::SueDeCoq);
        // Row 1 loses 1, 2 (and 3, 4? no: 3, 4 are in B... V minus B's digits = {1,2}).
        for e in &s.eliminations {
            let c = e.cell as usize;
            if c == 2 {
                continue; // r1c3 is in the row and the box: it loses all four.
            }
            if c < 9 {
                assert!(e.digit == 1 || e.digit == 2, "{s}");
            } else {
                assert!(e.digit == 3 || e.digit == 4, "{s}");
            }
        }
        assert!(s.eliminations.contains(&Candidate::new(8, 1)));
        assert!(s.eliminations.contains(&Candidate::new(9, 3)));
        assert!(find(&TestBoard::empty().board, &b.houses).is_none());
    }
}
