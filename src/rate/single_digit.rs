//! Single-digit patterns: two strong links of one digit (a house with exactly two places for
//! it) joined so that one of the two far ends must hold the digit; every cell seeing both far
//! ends loses it.
//!
//! - Skyscraper: two rows (or two columns) strong links with one end each in a common
//!   column (row).
//! - 2-String Kite: a row and a column strong link with one end each in a common region.
//! - Turbot Fish: any two strong links (rows, columns or regions) whose near ends see each
//!   other.
//! - Empty Rectangle: the digit's places in a box lie on one row and one column of it (a
//!   cross); with a strong link in a line outside the box, one end on the cross's row (or
//!   column), the cell where the other end's line crosses the cross's other line loses the
//!   digit. It needs 3x3 boxes and is skipped on jigsaw layouts.

use super::board::Board;
use super::houses::{Cells, Houses, bit, cells_of, count, first, is_two};
use super::step::Step;
use super::technique::Technique;

/// The strong links of digit `d` in houses `from..to`: the two cells of each.
fn links(
    board: &Board,
    houses: &Houses,
    d: usize,
    from: usize,
    to: usize,
) -> ([(usize, usize); 27], usize) {
    let mut out = [(0, 0); 27];
    let mut n = 0;
    for h in from..to {
        let cells = board.digit[d] & houses.house[h];
        if is_two(cells) {
            let a = first(cells);
            out[n] = (a, first(cells & !bit(a)));
            n += 1;
        }
    }
    (out, n)
}

fn step(t: Technique, d: usize, pattern: &[usize], removed: Cells) -> Step {
    let mut s = Step::pattern(t, pattern.iter().copied(), 1 << d);
    s.remove(d, cells_of(removed));
    s
}

/// Eliminations of digit `d` for far ends `a` and `b`, the pattern's cells excluded.
fn seen_by_both(
    board: &Board,
    houses: &Houses,
    d: usize,
    a: usize,
    b: usize,
    pattern: Cells,
) -> Cells {
    board.digit[d] & houses.peers[a] & houses.peers[b] & !pattern
}

/// Skyscraper on digit `d` (0-based): rows first, then columns.
#[inline(never)]
pub fn skyscraper(board: &Board, houses: &Houses, d: usize) -> Option<Step> {
    for (from, line_of) in [(0usize, 1usize), (9, 0)] {
        // line_of: which house of a cell must be shared by the near ends (column for
        // row links, row for column links).
        let (l, n) = links(board, houses, d, from, from + 9);
        for i in 0..n {
            for j in i + 1..n {
                let (a1, b1) = l[i];
                let (a2, b2) = l[j];
                for (near1, far1) in [(a1, b1), (b1, a1)] {
                    for (near2, far2) in [(a2, b2), (b2, a2)] {
                        let same = |x: usize, y: usize| {
                            houses.cell_houses[x][line_of] == houses.cell_houses[y][line_of]
                        };
                        if !same(near1, near2) || same(far1, far2) {
                            continue;
                        }
                        let pattern = bit(a1) | bit(b1) | bit(a2) | bit(b2);
                        let removed = seen_by_both(board, houses, d, far1, far2, pattern);
                        if removed != 0 {
                            return Some(step(
                                Technique::Skyscraper,
                                d,
                                &[far1, near1, near2, far2],
                                removed,
                            ));
                        }
                    }
                }
            }
        }
    }
    None
}

/// 2-String Kite: a row link and a column link with one end each in one region.
#[inline(never)]
pub fn two_string_kite(board: &Board, houses: &Houses, d: usize) -> Option<Step> {
    let (rows, nr) = links(board, houses, d, 0, 9);
    let (cols, nc) = links(board, houses, d, 9, 18);
    for &(a1, b1) in &rows[..nr] {
        for &(a2, b2) in &cols[..nc] {
            let pattern = bit(a1) | bit(b1) | bit(a2) | bit(b2);
            if count(pattern) != 4 {
                continue;
            }
            for (near1, far1) in [(a1, b1), (b1, a1)] {
                for (near2, far2) in [(a2, b2), (b2, a2)] {
                    if houses.region_of(near1) != houses.region_of(near2) {
                        continue;
                    }
                    let removed = seen_by_both(board, houses, d, far1, far2, pattern);
                    if removed != 0 {
                        return Some(step(
                            Technique::TwoStringKite,
                            d,
                            &[far1, near1, near2, far2],
                            removed,
                        ));
                    }
                }
            }
        }
    }
    None
}

/// Turbot Fish: any two strong links whose near ends see each other.
#[inline(never)]
pub fn turbot_fish(board: &Board, houses: &Houses, d: usize) -> Option<Step> {
    let (l, n) = links(board, houses, d, 0, 27);
    // The cells each link's ends see, and each link's two cells: a pair whose ends do not
    // see each other at all is passed over with one test.
    let mut seen = [0 as Cells; 27];
    let mut ends = [0 as Cells; 27];
    for (k, &(a, b)) in l[..n].iter().enumerate() {
        seen[k] = houses.peers[a] | houses.peers[b];
        ends[k] = bit(a) | bit(b);
    }
    for i in 0..n {
        for j in 0..n {
            if i == j || seen[i] & ends[j] == 0 {
                continue;
            }
            let (a1, b1) = l[i];
            let (a2, b2) = l[j];
            if a1 == a2 || a1 == b2 || b1 == a2 || b1 == b2 {
                continue;
            }
            let pattern = ends[i] | ends[j];
            for (near1, far1) in [(a1, b1), (b1, a1)] {
                for (near2, far2) in [(a2, b2), (b2, a2)] {
                    if !houses.sees(near1, near2) {
                        continue;
                    }
                    let removed = seen_by_both(board, houses, d, far1, far2, pattern);
                    if removed != 0 {
                        return Some(step(
                            Technique::TurbotFish,
                            d,
                            &[far1, near1, near2, far2],
                            removed,
                        ));
                    }
                }
            }
        }
    }
    None
}

/// Empty Rectangle (standard layout only).
#[inline(never)]
pub fn empty_rectangle(board: &Board, houses: &Houses, d: usize) -> Option<Step> {
    if !houses.standard() {
        return None;
    }
    for b in 0..9 {
        let in_box = board.digit[d] & houses.house[18 + b];
        if count(in_box) < 2 {
            continue;
        }
        let (r0, c0) = ((b / 3) * 3, (b % 3) * 3);
        for r in r0..r0 + 3 {
            for c in c0..c0 + 3 {
                let row = houses.house[r];
                let col = houses.house[9 + c];
                if in_box & !(row | col) != 0 || in_box & !row == 0 || in_box & !col == 0 {
                    continue;
                }
                // Strong links in columns outside the box, one end on row r.
                for c2 in (0..9).filter(|&x| x / 3 != b % 3) {
                    let link = board.digit[d] & houses.house[9 + c2];
                    if !is_two(link) || link & row == 0 {
                        continue;
                    }
                    let far = first(link & !row);
                    if far / 9 / 3 == b / 3 {
                        continue;
                    }
                    let target = (far / 9) * 9 + c;
                    if board.has(target, d) {
                        let mut pattern: Vec<usize> = cells_of(in_box).collect();
                        pattern.extend(cells_of(link));
                        return Some(step(Technique::EmptyRectangle, d, &pattern, bit(target)));
                    }
                }
                // Strong links in rows outside the box, one end on column c.
                for r2 in (0..9).filter(|&x| x / 3 != b / 3) {
                    let link = board.digit[d] & houses.house[r2];
                    if !is_two(link) || link & col == 0 {
                        continue;
                    }
                    let far = first(link & !col);
                    if (far % 9) / 3 == b % 3 {
                        continue;
                    }
                    let target = r * 9 + far % 9;
                    if board.has(target, d) {
                        let mut pattern: Vec<usize> = cells_of(in_box).collect();
                        pattern.extend(cells_of(link));
                        return Some(step(Technique::EmptyRectangle, d, &pattern, bit(target)));
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
    fn skyscraper_on_two_rows() {
        // Row 1: 4 at r1c1, r1c5; row 5: 4 at r5c1, r5c6. Far ends r1c5 and r5c6.
        let mut b = TestBoard::empty();
        b.only(0..9, &[0, 4], 4);
        b.only(36..45, &[36, 41], 4);
        let s = any_digit(|d| skyscraper(&b.board, &b.houses, d)).unwrap();
        assert_eq!(s.technique, Technique::Skyscraper);
        let mut cells: Vec<u8> = s.eliminations.iter().map(|e| e.cell).collect();
        cells.sort();
        assert_eq!(cells, vec![14, 23, 31, 49]);
        assert!(any_digit(|d| skyscraper(&TestBoard::empty().board, &b.houses, d)).is_none());
    }

    #[test]
    fn two_string_kite_joins_in_a_box() {
        // Row 1: 6 at r1c2, r1c9; column 1: 6 at r2c1, r8c1; r1c2 and r2c1 share box 1.
        let mut b = TestBoard::empty();
        b.only(0..9, &[1, 8], 6);
        b.only((0..9).map(|r| r * 9), &[9, 63], 6);
        let s = any_digit(|d| two_string_kite(&b.board, &b.houses, d)).unwrap();
        assert_eq!(s.technique, Technique::TwoStringKite);
        // r8c9 sees r1c9 (column) and r8c1 (row).
        assert_eq!(s.eliminations, vec![Candidate::new(71, 6)]);
        assert!(any_digit(|d| two_string_kite(&TestBoard::empty().board, &b.houses, d)).is_none());
    }

    #[test]
    fn turbot_fish_with_a_box_link() {
        // Box 1: 2 at r1c1 and r2c3; row 5: 2 at r5c3 and r5c7. r2c3 sees r5c3 (column 3).
        let mut b = TestBoard::empty();
        let box1: Vec<usize> = cells_of(b.houses.house(18)).collect();
        b.only(box1, &[0, 11], 2);
        b.only(36..45, &[38, 42], 2);
        let s = any_digit(|d| turbot_fish(&b.board, &b.houses, d)).unwrap();
        assert_eq!(s.technique, Technique::TurbotFish);
        assert!(s.eliminations.iter().all(|e| {
            let c = e.cell as usize;
            e.digit == 2 && b.houses.sees(c, 0) && b.houses.sees(c, 42)
        }));
        assert!(any_digit(|d| turbot_fish(&TestBoard::empty().board, &b.houses, d)).is_none());
    }

    #[test]
    fn empty_rectangle_with_a_column_link() {
        // Box 1: 9 on row 2 and column 2 only (r2c1, r2c2, r2c3, r1c2, r3c2 kept).
        // Column 6: 9 only at r2c6 and r7c6. Target: r7c2.
        let mut b = TestBoard::empty();
        let box1: Vec<usize> = cells_of(b.houses.house(18)).collect();
        b.only(box1, &[9, 10, 11, 1, 19], 9);
        b.only((0..9).map(|r| r * 9 + 5), &[14, 59], 9);
        let s = any_digit(|d| empty_rectangle(&b.board, &b.houses, d)).unwrap();
        assert_eq!(s.technique, Technique::EmptyRectangle);
        assert_eq!(s.eliminations, vec![Candidate::new(55, 9)]);
        assert!(any_digit(|d| empty_rectangle(&TestBoard::empty().board, &b.houses, d)).is_none());
    }
}
