//! Fish on one digit: `n` base lines (rows, or columns) whose candidates lie in `n` cover lines
//! (columns, or rows); the cover lines lose the digit outside the base lines. X-Wing,
//! Swordfish, Jellyfish for `n = 2, 3, 4`.
//!
//! Finned fish: the base candidates outside the cover lines (the fins) all lie in one region;
//! then only cells of the cover lines inside that region (outside the base lines) lose the
//! digit, since they see every fin. A finned fish is *sashimi* when, without its fins, some
//! base line keeps at most one candidate (the plain fish would be degenerate). Rows and
//! columns exist on every layout and fins are taken per region, so all of this works on
//! jigsaw layouts.

use std::cell::Cell;

use super::board::Board;
use super::houses::{Cells, Houses, at_most, cells_of, nine_count};
use super::step::{Candidate, Step};
use super::technique::Technique;

/// Which finned fish a search accepts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fins {
    /// No fins: the basic fish.
    None,
    /// Fins, and every base line keeps at least two candidates without them.
    Finned,
    /// Fins, and some base line keeps at most one candidate without them.
    Sashimi,
}

fn technique(n: usize, fins: Fins) -> Technique {
    match (n, fins) {
        (2, Fins::None) => Technique::XWing,
        (3, Fins::None) => Technique::Swordfish,
        (_, Fins::None) => Technique::Jellyfish,
        (2, Fins::Finned) => Technique::FinnedXWing,
        (3, Fins::Finned) => Technique::FinnedSwordfish,
        (_, Fins::Finned) => Technique::FinnedJellyfish,
        (2, Fins::Sashimi) => Technique::SashimiXWing,
        (3, Fins::Sashimi) => Technique::SashimiSwordfish,
        (_, Fins::Sashimi) => Technique::SashimiJellyfish,
    }
}

/// The first fish of size `n` of the given kind on digit `d` (0-based): rows as base lines
/// before columns.
pub fn find(board: &Board, houses: &Houses, n: usize, fins: Fins, d: usize) -> Option<Step> {
    find_telling(board, houses, n, fins, d, &mut false)
}

/// [`find`], telling in `sashimi_too` whether a search for finned fish that finds none has
/// shown that there is no sashimi fish of the size on the digit either (the two differ only in
/// the kind they keep, so it passed over every sashimi fish there is).
pub fn find_telling(
    board: &Board,
    houses: &Houses,
    n: usize,
    fins: Fins,
    d: usize,
    sashimi_too: &mut bool,
) -> Option<Step> {
    let sashimi_seen = Cell::new(false);
    for rows_base in [true, false] {
        let mut search = Search {
            board,
            houses,
            d,
            n,
            fins,
            base_first: if rows_base { 0 } else { 9 },
            cover_first: if rows_base { 9 } else { 0 },
            lines: [0; 9],
            cover: [0; 9],
            cover_in: [[0; 9]; 9],
            cover_out: [[0; 9]; 9],
            chosen: [0; 4],
            usable: [0; 9],
            len: 0,
            sashimi_seen: &sashimi_seen,
        };
        for k in 0..9 {
            let cells = board.digit[d] & houses.house[search.base_first + k];
            search.lines[k] = cells;
            search.cover[k] = search.cover_mask(cells);
            if fins != Fins::None {
                for i in cells_of(cells) {
                    let line = if rows_base { i % 9 } else { i / 9 };
                    search.cover_in[k][houses.region_of(i) - 18] |= 1 << line;
                }
                // Outside region g: the regions before it and those after it.
                let inside = search.cover_in[k];
                let mut after = [0u16; 10];
                for g in (0..9).rev() {
                    after[g] = after[g + 1] | inside[g];
                }
                let mut before = 0;
                for g in 0..9 {
                    search.cover_out[k][g] = before | after[g + 1];
                    before |= inside[g];
                }
            }
            let fits = match fins {
                Fins::None => cells != 0 && at_most(cells, n),
                _ => cells != 0,
            };
            if fits {
                search.usable[search.len] = k as u8;
                search.len += 1;
            }
        }
        if search.len < n {
            continue;
        }
        if let Some(step) = search.combos(0, 0, 0, [0; 9]) {
            return Some(step);
        }
    }
    *sashimi_too = fins == Fins::Finned && !sashimi_seen.get();
    None
}

struct Search<'a> {
    board: &'a Board,
    houses: &'a Houses,
    d: usize,
    n: usize,
    fins: Fins,
    base_first: usize,
    cover_first: usize,
    /// The digit's cells in each base line.
    lines: [Cells; 9],
    /// The cover lines each base line touches (bit k: cover line k).
    cover: [u16; 9],
    /// The same, per region (`[line][region]`): the cover lines of the line's cells there.
    cover_in: [[u16; 9]; 9],
    /// The cover lines of the line's cells outside each region.
    cover_out: [[u16; 9]; 9],
    chosen: [u8; 4],
    usable: [u8; 9],
    len: usize,
    /// Set when a fish of the other finned kind with eliminations was passed over.
    sashimi_seen: &'a Cell<bool>,
}

impl Search<'_> {
    fn cover_mask(&self, cells: Cells) -> u16 {
        cells_of(cells).fold(0, |m, i| {
            let line = if self.cover_first == 9 { i % 9 } else { i / 9 };
            m | 1 << line
        })
    }

    fn houses_of(&self, first: usize, mask: u16) -> Cells {
        let mut out = 0;
        let mut m = mask;
        while m != 0 {
            out |= self.houses.house[first + m.trailing_zeros() as usize];
            m &= m - 1;
        }
        out
    }

    /// The base lines chosen from `usable[from..]` at `depth`, in order; `cover` and
    /// `outside` are the chosen lines' cover lines, in all and outside each region. A choice
    /// no further line can make a fish is not extended: a basic fish's cover lines, or for
    /// every region the cover lines outside it, already more than `n` (both only grow).
    fn combos(&mut self, from: usize, depth: usize, cover: u16, outside: [u16; 9]) -> Option<Step> {
        if depth == self.n {
            return self.check();
        }
        for k in from..=self.len - (self.n - depth) {
            let line = self.usable[k] as usize;
            self.chosen[depth] = line as u8;
            let cover = cover | self.cover[line];
            let mut out = outside;
            let fits = match self.fins {
                Fins::None => nine_count(cover) <= self.n,
                _ => {
                    let mut any = false;
                    for g in 0..9 {
                        out[g] |= self.cover_out[line][g];
                        any |= nine_count(out[g]) <= self.n;
                    }
                    any
                }
            };
            if fits && let Some(s) = self.combos(k + 1, depth + 1, cover, out) {
                return Some(s);
            }
        }
        None
    }

    fn check(&self) -> Option<Step> {
        let chosen = &self.chosen[..self.n];
        let base_cells: Cells = chosen.iter().fold(0, |s, &k| s | self.lines[k as usize]);
        let base_mask: u16 = chosen.iter().fold(0, |m, &k| m | 1 << k);
        let base_houses = self.houses_of(self.base_first, base_mask);
        let cover_all: u16 = chosen.iter().fold(0, |m, &k| m | self.cover[k as usize]);
        if self.fins == Fins::None {
            if nine_count(cover_all) != self.n {
                return None;
            }
            let removed = self.board.digit[self.d]
                & self.houses_of(self.cover_first, cover_all)
                & !base_houses;
            return (removed != 0).then(|| self.step(base_cells, 0, removed, Fins::None));
        }
        for g in 0..9 {
            let (mut inside, mut outside) = (0u16, 0u16);
            for &k in chosen {
                let k = k as usize;
                inside |= self.cover_in[k][g];
                outside |= self.cover_out[k][g];
            }
            if inside == 0 {
                continue;
            }
            let needed = outside;
            let have = needed.count_ones() as usize;
            if have > self.n {
                continue;
            }
            let region = self.houses.house[18 + g];
            let optional = inside & !needed;
            // Every way to fill the cover up to n lines with lines through the region.
            let mut extra = optional;
            loop {
                if extra.count_ones() as usize + have == self.n
                    && let Some(s) = self.finned(base_cells, base_houses, region, needed | extra)
                {
                    return Some(s);
                }
                if extra == 0 {
                    break;
                }
                extra = (extra - 1) & optional;
            }
        }
        None
    }

    fn finned(
        &self,
        base_cells: Cells,
        base_houses: Cells,
        region: Cells,
        cover: u16,
    ) -> Option<Step> {
        let cover_houses = self.houses_of(self.cover_first, cover);
        let fins = base_cells & !cover_houses;
        if fins == 0 {
            return None;
        }
        let removed = self.board.digit[self.d] & cover_houses & region & !base_houses;
        if removed == 0 {
            return None;
        }
        let sashimi = self.chosen[..self.n]
            .iter()
            .any(|&k| at_most(self.lines[k as usize] & !fins, 1));
        let kind = if sashimi { Fins::Sashimi } else { Fins::Finned };
        if kind != self.fins && kind == Fins::Sashimi {
            self.sashimi_seen.set(true);
        }
        (kind == self.fins).then(|| self.step(base_cells, fins, removed, kind))
    }

    fn step(&self, base_cells: Cells, fins: Cells, removed: Cells, kind: Fins) -> Step {
        let mut step = Step::new(technique(self.n, kind));
        step.cells = cells_of(base_cells & !fins)
            .chain(cells_of(fins))
            .map(|c| c as u8)
            .collect();
        step.digits = 1 << self.d;
        step.eliminations = cells_of(removed)
            .map(|c| Candidate::new(c, self.d as u8 + 1))
            .collect();
        step
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::test_support::{TestBoard, any_digit};

    /// Keeps digit `d` in row `r` only at the given columns (0-based).
    fn row_only(b: &mut TestBoard, r: usize, cols: &[usize], d: usize) {
        for c in 0..9 {
            if !cols.contains(&c) {
                b.remove_candidate(r * 9 + c, d);
            }
        }
    }

    #[test]
    fn x_wing_on_rows_clears_the_columns() {
        let mut b = TestBoard::empty();
        row_only(&mut b, 1, &[1, 7], 3);
        row_only(&mut b, 6, &[1, 7], 3);
        let s = any_digit(|d| find(&b.board, &b.houses, 2, Fins::None, d)).unwrap();
        assert_eq!(s.technique, Technique::XWing);
        assert_eq!(s.eliminations.len(), 14);
        assert!(
            s.eliminations
                .iter()
                .all(|e| e.cell % 9 == 1 || e.cell % 9 == 7)
        );
        assert!(
            any_digit(|d| find(&TestBoard::empty().board, &b.houses, 2, Fins::None, d)).is_none()
        );
        assert!(
            any_digit(|d| find(&b.board, &b.houses, 2, Fins::Finned, d)).is_none(),
            "no fins"
        );
    }

    #[test]
    fn swordfish_needs_three_lines_on_three_columns() {
        let mut b = TestBoard::empty();
        row_only(&mut b, 0, &[0, 4], 5);
        row_only(&mut b, 4, &[4, 8], 5);
        row_only(&mut b, 8, &[0, 8], 5);
        assert!(any_digit(|d| find(&b.board, &b.houses, 2, Fins::None, d)).is_none());
        let s = any_digit(|d| find(&b.board, &b.houses, 3, Fins::None, d)).unwrap();
        assert_eq!(s.technique, Technique::Swordfish);
        assert_eq!(s.eliminations.len(), 18);
    }

    #[test]
    fn finned_and_sashimi_x_wing() {
        // Row 2: c2, c8; row 7: c2, c8 and a fin at c9 (box 9): only r8c8/r9c8 lose 3.
        let mut b = TestBoard::empty();
        row_only(&mut b, 1, &[1, 7], 3);
        row_only(&mut b, 6, &[1, 7, 8], 3);
        assert!(any_digit(|d| find(&b.board, &b.houses, 2, Fins::None, d)).is_none());
        let s = any_digit(|d| find(&b.board, &b.houses, 2, Fins::Finned, d)).unwrap();
        assert_eq!(s.technique, Technique::FinnedXWing);
        let mut cells: Vec<u8> = s.eliminations.iter().map(|e| e.cell).collect();
        cells.sort();
        assert_eq!(cells, vec![70, 79]);
        // Without r7c8 it is sashimi.
        let mut b = TestBoard::empty();
        row_only(&mut b, 1, &[1, 7], 3);
        row_only(&mut b, 6, &[1, 8], 3);
        assert!(any_digit(|d| find(&b.board, &b.houses, 2, Fins::Finned, d)).is_none());
        let s = any_digit(|d| find(&b.board, &b.houses, 2, Fins::Sashimi, d)).unwrap();
        assert_eq!(s.technique, Technique::SashimiXWing);
        // Rows 2 and 7 on columns 2 and 9 with the fin r2c8 (box 3) come first: r1c9, r3c9.
        let mut cells: Vec<u8> = s.eliminations.iter().map(|e| e.cell).collect();
        cells.sort();
        assert_eq!(cells, vec![8, 26]);
    }
}
