//! Techniques that assume the puzzle has one solution: unique rectangles (types 1-4), the
//! hidden rectangle, and BUG+1. The rater runs them only when told the puzzle is unique.
//!
//! A rectangle is four empty cells on two rows and two columns, in exactly two regions (on
//! jigsaw layouts too), all holding digits `a` and `b`. If all four could only be `a` or `b`,
//! the two digits could be swapped and the puzzle would have two solutions; so some cell must
//! take another digit. With the "floor" (cells holding exactly `{a,b}`) and the "roof" (the
//! others):
//!
//! - Type 1: three floor cells; the roof cell loses `a` and `b`.
//! - Type 2: two roof cells on one line with the same one extra digit `c`: one of them is `c`,
//!   so cells seeing both lose `c`.
//! - Type 3: two roof cells in one house; their extra digits act as one cell that, with `k`
//!   other cells of the house, forms a naked subset of `k + 1` digits.
//! - Type 4: two roof cells in one house where `a` has no other place: the roof cells lose
//!   `b`.
//! - Hidden rectangle: a floor cell whose opposite corner sees `a` only inside the rectangle
//!   along both its row and its column: that corner loses `b`.
//!
//! BUG+1: every empty cell holds two candidates but one, which holds three, and every house
//! holds each digit in zero or two places except the digit seen three times in that cell's
//! houses: were the cell not that digit, the grid would be a "bivalue universal grave" with
//! two solutions. The cell loses its other two candidates.

use super::board::Board;
use super::houses::{Cells, Houses, bit, cells_of, count, nine_count};
use super::step::{Candidate, Step};
use super::technique::Technique;
use crate::layout::Layout;

fn step(t: Technique, cells: &[usize], digits: u16, removed: &[(usize, usize)]) -> Step {
    let mut s = Step::new(t);
    s.cells = cells.iter().map(|&c| c as u8).collect();
    s.digits = digits;
    s.eliminations = removed
        .iter()
        .map(|&(c, d)| Candidate::new(c, d as u8 + 1))
        .collect();
    s
}

/// Four cells a deadly pattern can lie on, corners in the order `r1c1, r1c2, r2c1, r2c2`,
/// with their set.
pub type Rectangle = ([u8; 4], Cells);

/// The rectangles of `layout` a deadly pattern can lie on: four cells on two rows and two
/// columns, in exactly two regions, each holding two of them on one line (on a jigsaw layout a
/// region could hold two opposite corners: no deadly pattern then); by `(r1, r2, c1, c2)`.
/// On the boxes, 486 of the 1,296 that rows and columns make.
pub fn rectangles(layout: &Layout) -> Vec<Rectangle> {
    let mut out = Vec::new();
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    let corners = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2];
                    let region = |k: usize| layout.region_of(corners[k]);
                    let by_rows = region(0) == region(1) && region(2) == region(3);
                    let by_cols = region(0) == region(2) && region(1) == region(3);
                    if region(0) != region(3) && (by_rows || by_cols) {
                        let set = corners.iter().fold(0, |s, &c| s | bit(c));
                        out.push((corners.map(|c| c as u8), set));
                    }
                }
            }
        }
    }
    out
}

/// The first unique rectangle of type `t` (one of the `UniqueRectangle*` techniques or
/// [`Technique::HiddenRectangle`]).
///
/// Every type needs a floor cell (a corner holding exactly the two digits), so the two digits
/// are all the four corners share: rectangles without a bivalue corner, or sharing other than
/// two digits, are passed over.
pub fn rectangle(
    board: &Board,
    houses: &Houses,
    rectangles: &[Rectangle],
    t: Technique,
) -> Option<Step> {
    let bivalue = board.bivalue_cells();
    for &(corners, set) in rectangles {
        if set & !board.unsolved != 0 || set & bivalue == 0 {
            continue;
        }
        let cells = corners.map(usize::from);
        let pair = cells.iter().fold(0x1FF, |m, &c| m & board.cand[c]);
        if nine_count(pair) != 2 {
            continue;
        }
        if let Some(s) = one_rectangle(board, houses, t, &cells, set, pair) {
            return Some(s);
        }
    }
    None
}

fn one_rectangle(
    board: &Board,
    houses: &Houses,
    t: Technique,
    cells: &[usize; 4],
    set: Cells,
    pair: u16,
) -> Option<Step> {
    let a = pair.trailing_zeros() as usize;
    let b = 15 - pair.leading_zeros() as usize;
    let (mut floor, mut roof) = ([0usize; 4], [0usize; 4]);
    let (mut floors, mut roofs) = (0, 0);
    for &c in cells {
        if board.cand[c] == pair {
            floor[floors] = c;
            floors += 1;
        } else {
            roof[roofs] = c;
            roofs += 1;
        }
    }
    let (floor, roof) = (&floor[..floors], &roof[..roofs]);
    match t {
        Technique::UniqueRectangle1 if roof.len() == 1 => {
            let r = roof[0];
            Some(step(t, cells, pair, &[(r, a), (r, b)]))
        }
        Technique::UniqueRectangle2 if roof.len() == 2 => {
            let (e1, e2) = (roof[0], roof[1]);
            let extra = board.cand[e1] & !pair;
            if extra.count_ones() != 1 || board.cand[e2] & !pair != extra {
                return None;
            }
            if houses.row_of(e1) != houses.row_of(e2) && houses.col_of(e1) != houses.col_of(e2) {
                return None;
            }
            let d = extra.trailing_zeros() as usize;
            let removed = board.digit[d] & houses.peers[e1] & houses.peers[e2] & !set;
            let list: Vec<(usize, usize)> = cells_of(removed).map(|c| (c, d)).collect();
            (!list.is_empty()).then(|| step(t, cells, pair | extra, &list))
        }
        Technique::UniqueRectangle3 if roof.len() == 2 => {
            type3(board, houses, cells, pair, roof[0], roof[1])
        }
        Technique::UniqueRectangle4 if roof.len() == 2 => {
            let (e1, e2) = (roof[0], roof[1]);
            for h in shared_houses(houses, e1, e2) {
                for (strong, gone) in [(a, b), (b, a)] {
                    if board.digit[strong] & houses.house[h] == bit(e1) | bit(e2) {
                        return Some(step(t, cells, pair, &[(e1, gone), (e2, gone)]));
                    }
                }
            }
            None
        }
        Technique::HiddenRectangle if !floor.is_empty() => {
            for &corner in floor {
                // cells are [r1c1, r1c2, r2c1, r2c2]: the opposite of k is 3 - k.
                let k = cells.iter().position(|&c| c == corner).expect("a corner");
                let opposite = cells[3 - k];
                let row = houses.house[houses.row_of(opposite)];
                let col = houses.house[houses.col_of(opposite)];
                for (strong, gone) in [(a, b), (b, a)] {
                    if board.digit[strong] & (row | col) & !set == 0 && board.has(opposite, gone) {
                        return Some(step(t, cells, pair, &[(opposite, gone)]));
                    }
                }
            }
            None
        }
        _ => None,
    }
}

/// The houses two cells share.
fn shared_houses(houses: &Houses, x: usize, y: usize) -> impl Iterator<Item = usize> + '_ {
    (0..3).filter_map(move |k| {
        let h = houses.cell_houses[x][k];
        (h == houses.cell_houses[y][k]).then_some(h as usize)
    })
}

/// Type 3: the roof's extra digits with `k` cells of a shared house form a naked subset.
fn type3(
    board: &Board,
    houses: &Houses,
    cells: &[usize; 4],
    pair: u16,
    e1: usize,
    e2: usize,
) -> Option<Step> {
    let extra = (board.cand[e1] | board.cand[e2]) & !pair;
    if extra.count_ones() < 2 {
        return None;
    }
    for h in shared_houses(houses, e1, e2) {
        let others: Vec<usize> =
            cells_of(board.unsolved & houses.house[h] & !(bit(e1) | bit(e2))).collect();
        for mask in 1u32..(1 << others.len()) {
            let k = mask.count_ones() as usize;
            if k > 3 {
                continue;
            }
            let subset: Vec<usize> = (0..others.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| others[i])
                .collect();
            let digits = subset.iter().fold(extra, |m, &c| m | board.cand[c]);
            if digits.count_ones() as usize != k + 1 {
                continue;
            }
            let mut removed = Vec::new();
            for &c in &others {
                if subset.contains(&c) {
                    continue;
                }
                let mut gone = board.cand[c] & digits;
                while gone != 0 {
                    removed.push((c, gone.trailing_zeros() as usize));
                    gone &= gone - 1;
                }
            }
            if !removed.is_empty() {
                let mut pattern = cells.to_vec();
                pattern.extend(subset);
                return Some(step(
                    Technique::UniqueRectangle3,
                    &pattern,
                    pair | digits,
                    &removed,
                ));
            }
        }
    }
    None
}

/// BUG+1.
#[inline(never)]
pub fn bug_plus_one(board: &Board, houses: &Houses) -> Option<Step> {
    let mut three = None;
    for c in cells_of(board.unsolved) {
        match board.cand[c].count_ones() {
            2 => {}
            3 if three.is_none() => three = Some(c),
            _ => return None,
        }
    }
    let t = three?;
    let mut odd = None;
    for h in 0..27 {
        let here = houses.house[h] & bit(t) != 0;
        for d in 0..9 {
            match count(board.digit[d] & houses.house[h]) {
                0 | 2 => {}
                3 if here && odd.is_none_or(|x| x == d) => odd = Some(d),
                _ => return None,
            }
        }
    }
    let x = odd?;
    if !board.has(t, x) {
        return None;
    }
    // Without `x` in `t`, each of t's houses must hold `x` twice: so three times now.
    if houses.cell_houses[t]
        .iter()
        .any(|&h| count(board.digit[x] & houses.house[h as usize]) != 3)
    {
        return None;
    }
    let removed: Vec<(usize, usize)> = (0..9)
        .filter(|&d| d != x && board.has(t, d))
        .map(|d| (t, d))
        .collect();
    Some(step(Technique::BugPlusOne, &[t], 1 << x, &removed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::test_support::TestBoard;

    /// r1c1, r1c4, r3c1, r3c4: rows 1 and 3, columns 1 and 4, boxes 1 and 2.
    const RECT: [usize; 4] = [0, 3, 18, 21];

    fn find(b: &TestBoard, t: Technique) -> Option<Step> {
        rectangle(&b.board, &b.houses, &rectangles(&Layout::standard()), t)
    }

    #[test]
    fn rectangles_lie_in_two_boxes() {
        // Two rows of a band and two columns of different stacks, or the other way round:
        // 9 * 27 each way.
        let all = rectangles(&Layout::standard());
        assert_eq!(all.len(), 486);
        assert!(all.contains(&([0, 3, 18, 21], RECT.iter().fold(0, |s, &c| s | bit(c)))));
        assert!(!all.iter().any(|r| r.0 == [0, 1, 9, 10]));
    }

    #[test]
    fn type_1_clears_the_roof() {
        let mut b = TestBoard::empty();
        for &c in &RECT[..3] {
            b.keep(c, &[1, 2]);
        }
        let s = find(&b, Technique::UniqueRectangle1).unwrap();
        assert_eq!(
            s.eliminations,
            vec![Candidate::new(21, 1), Candidate::new(21, 2)]
        );
        assert!(find(&TestBoard::empty(), Technique::UniqueRectangle1).is_none());
    }

    #[test]
    fn type_1_needs_two_regions() {
        // r1c1, r1c2, r2c1, r2c2 lie in one box: no deadly pattern there.
        let mut b = TestBoard::empty();
        for c in [0, 1, 9] {
            b.keep(c, &[1, 2]);
        }
        assert!(find(&b, Technique::UniqueRectangle1).is_none());
    }

    #[test]
    fn type_2_and_type_4() {
        let mut b = TestBoard::empty();
        b.keep(0, &[1, 2]);
        b.keep(3, &[1, 2]);
        b.keep(18, &[1, 2, 7]);
        b.keep(21, &[1, 2, 7]);
        let s = find(&b, Technique::UniqueRectangle2).unwrap();
        assert!(
            s.eliminations
                .iter()
                .all(|e| e.digit == 7 && e.cell / 9 == 2)
        );
        assert!(find(&b, Technique::UniqueRectangle4).is_none());
        // 1 confined to r3c1 and r3c4 in row 3: they lose 2.
        for c in 18..27 {
            if c != 18 && c != 21 {
                b.remove_candidate(c, 1);
            }
        }
        let s = find(&b, Technique::UniqueRectangle4).unwrap();
        assert_eq!(
            s.eliminations,
            vec![Candidate::new(18, 2), Candidate::new(21, 2)]
        );
    }

    #[test]
    fn type_3_with_a_naked_pair() {
        let mut b = TestBoard::empty();
        b.keep(0, &[1, 2]);
        b.keep(3, &[1, 2]);
        b.keep(18, &[1, 2, 5]);
        b.keep(21, &[1, 2, 6]);
        b.keep(26, &[5, 6]); // r3c9: with the roof's {5,6}, a pair in row 3
        let s = find(&b, Technique::UniqueRectangle3).unwrap();
        assert!(
            s.eliminations
                .iter()
                .all(|e| (e.digit == 5 || e.digit == 6) && e.cell / 9 == 2)
        );
        assert!(!s.eliminations.is_empty());
    }

    #[test]
    fn hidden_rectangle() {
        let mut b = TestBoard::empty();
        b.keep(0, &[1, 2]); // the floor corner r1c1; opposite r3c4
        // 1 in row 3 only at r3c1, r3c4; in column 4 only at r1c4, r3c4.
        for c in 18..27 {
            if c != 18 && c != 21 {
                b.remove_candidate(c, 1);
            }
        }
        for r in 0..9 {
            if r != 0 && r != 2 {
                b.remove_candidate(r * 9 + 3, 1);
            }
        }
        let s = find(&b, Technique::HiddenRectangle).unwrap();
        assert_eq!(s.eliminations, vec![Candidate::new(21, 2)]);
    }

    #[test]
    fn bug_plus_one_needs_a_grave() {
        // A solved board has no trivalue cell; an open cell with all digits is no grave.
        let solved = crate::test_data::SOLUTION;
        let mut marks: Vec<String> = solved.chars().map(|c| format!("+{c}")).collect();
        let b = TestBoard::from_pencilmarks(&marks.join(" "));
        assert!(bug_plus_one(&b.board, &b.houses).is_none());
        marks[0] = "125".into();
        let b = TestBoard::from_pencilmarks(&marks.join(" "));
        assert!(bug_plus_one(&b.board, &b.houses).is_none());
    }

    /// Regression: a digit seen three times in the trivalue cell's houses but not a candidate
    /// of that cell made a false BUG+1 (magictour puzzle `.672......2....`).
    #[test]
    fn bug_plus_one_digit_must_be_in_the_cell() {
        let b = TestBoard::from_pencilmarks(
            "+9 +6 +7 +2 +3 +5 +4 18 18 15 +2 45 49 +8 19 36 36 +7 18 34 38 46 +7 16 +9 +2 +5 46 +1 34 +7 +5 +2 +8 36 +9 56 35 29 69 +4 +8 123 +7 16 +7 +8 29 +3 +1 69 26 +5 +4 28 +9 68 +1 26 +7 +5 +4 +3 +3 57 56 +8 69 +4 17 19 +2 24 47 +1 +5 29 +3 67 89 68",
        );
        assert!(bug_plus_one(&b.board, &b.houses).is_none());
    }
}
