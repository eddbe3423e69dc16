//! Locked candidates: a digit of a region confined to one line (pointing, HoDoKu's type 1)
//! or a digit of a line confined to one region (claiming, type 2). Both are stated over
//! houses and work on jigsaw layouts, where a region may meet a line in more than three cells.
//!
//! Search order as HoDoKu's: pointing over regions 1..9 and digits 1..9, row before column;
//! claiming over rows, then columns, digits 1..9.

use super::board::Board;
use super::houses::{Houses, cells_of, count, first};
use super::step::Step;
use super::technique::Technique;

/// Pointing: the digit's cells in a region all lie in one line; the rest of the line loses it.
#[inline(never)]
pub fn pointing(board: &Board, houses: &Houses) -> Option<Step> {
    for region in 18..27 {
        for d in 0..9 {
            let here = board.digit[d] & houses.house[region];
            if count(here) < 2 {
                continue;
            }
            let cell = first(here);
            for line in [houses.row_of(cell), houses.col_of(cell)] {
                let line_cells = houses.house[line];
                if here & !line_cells == 0 {
                    let removed = board.digit[d] & line_cells & !houses.house[region];
                    if removed != 0 {
                        let mut s = Step::pattern(
                            Technique::LockedCandidatesPointing,
                            cells_of(here),
                            1 << d,
                        );
                        s.remove(d, cells_of(removed));
                        return Some(s);
                    }
                }
            }
        }
    }
    None
}

/// Claiming: the digit's cells in a line all lie in one region; the rest of the region loses
/// it.
#[inline(never)]
pub fn claiming(board: &Board, houses: &Houses) -> Option<Step> {
    for line in 0..18 {
        for d in 0..9 {
            let here = board.digit[d] & houses.house[line];
            if count(here) < 2 {
                continue;
            }
            let region = houses.region_of(first(here));
            let region_cells = houses.house[region];
            if here & !region_cells == 0 {
                let removed = board.digit[d] & region_cells & !houses.house[line];
                if removed != 0 {
                    let mut s =
                        Step::pattern(Technique::LockedCandidatesClaiming, cells_of(here), 1 << d);
                    s.remove(d, cells_of(removed));
                    return Some(s);
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
    use crate::rate::test_support::TestBoard;

    #[test]
    fn pointing_removes_from_the_line() {
        // Digit 1 in box 1 only in row 1 (r1c1, r1c2); also a candidate at r1c9.
        let mut b = TestBoard::empty();
        for &c in &[9usize, 10, 11, 18, 19, 20, 2] {
            b.remove_candidate(c, 1);
        }
        let s = pointing(&b.board, &b.houses).unwrap();
        assert_eq!(s.technique, Technique::LockedCandidatesPointing);
        assert_eq!(s.cells, vec![0, 1]);
        assert!(s.eliminations.contains(&Candidate::new(8, 1)));
        assert!(s.eliminations.iter().all(|c| c.cell < 9 && c.cell > 2));
        // The empty grid has none.
        let b = TestBoard::empty();
        assert!(pointing(&b.board, &b.houses).is_none());
    }

    #[test]
    fn claiming_removes_from_the_region() {
        // Digit 5 in row 1 only in box 1.
        let mut b = TestBoard::empty();
        for c in 3..9 {
            b.remove_candidate(c, 5);
        }
        let s = claiming(&b.board, &b.houses).unwrap();
        assert_eq!(s.technique, Technique::LockedCandidatesClaiming);
        assert_eq!(s.eliminations.len(), 6);
        assert!(
            s.eliminations
                .iter()
                .all(|c| c.digit == 5 && (9..21).contains(&c.cell))
        );
        let b = TestBoard::empty();
        assert!(claiming(&b.board, &b.houses).is_none());
    }
}
