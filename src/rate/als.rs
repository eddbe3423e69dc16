//! Almost locked sets: `n` cells of one house holding `n + 1` digits together (a bivalue cell
//! is the smallest). Two sets share a *restricted common* digit `x` when every `x` of one
//! sees every `x` of the other: then `x` is in at most one of them.
//!
//! - ALS-XZ: sets `A` and `B` with a restricted common `x` and another common digit `z`:
//!   `A` or `B` loses `x` and becomes locked, so `z` is in `A` or `B`; cells seeing every `z`
//!   of both lose `z`.
//! - ALS-XY-Wing: a pivot set `C` with restricted commons `x` to `A` and `y` to `B`
//!   (`x != y`): some `z` of `A` or `B` is true, so cells seeing every `z` of both lose it.
//!
//! Sets are taken from every house (rows, columns, regions: any layout), without repeats;
//! sets of one pattern never share a cell.

use super::board::Board;
use super::houses::{ALL_CELLS, Cells, Houses, cells_of};
use super::step::{Candidate, Step};
use super::technique::Technique;

/// One almost locked set.
#[derive(Clone, Copy, Debug)]
struct Als {
    cells: Cells,
    digits: u16,
    /// The set's cells holding each digit.
    by_digit: [Cells; 9],
    /// The cells outside the set seeing all of the set's cells holding each digit.
    sees_all: [Cells; 9],
}

/// Memory reused from search to search, and the sets of the last board searched (ALS-XZ and
/// ALS-XY-Wing are tried one after the other on the same board).
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    sets: Vec<Als>,
    /// Each set's cells and digits, packed for the pair loops.
    keys: Vec<(Cells, u16)>,
    /// Pairs of disjoint sets with a restricted common digit: `(i, j, digits)`, `i < j`.
    links: Vec<(u32, u32, u16)>,
    /// The same as adjacency lists: the links of set `k` are
    /// `adjacent[start[k]..start[k + 1]]`, each `(other set, digits)`.
    start: Vec<u32>,
    adjacent: Vec<(u32, u16)>,
    /// The candidates the sets were collected from.
    board: Option<[u16; 81]>,
}

impl Scratch {
    /// Collects the sets of `board` unless they are those of the last call.
    fn prepare(&mut self, board: &Board, houses: &Houses) {
        if self.board == Some(board.cand) {
            return;
        }
        collect(board, houses, &mut self.sets);
        self.keys.clear();
        self.keys
            .extend(self.sets.iter().map(|a| (a.cells, a.digits)));
        self.links.clear();
        for (i, &(a_cells, a_digits)) in self.keys.iter().enumerate() {
            for (j, &(b_cells, b_digits)) in self.keys.iter().enumerate().skip(i + 1) {
                if a_cells & b_cells != 0 || a_digits & b_digits == 0 {
                    continue;
                }
                let r = restricted(&self.sets[i], &self.sets[j]);
                if r != 0 {
                    self.links.push((i as u32, j as u32, r));
                }
            }
        }
        let n = self.sets.len();
        self.start.clear();
        self.start.resize(n + 1, 0);
        for &(i, j, _) in &self.links {
            self.start[i as usize + 1] += 1;
            self.start[j as usize + 1] += 1;
        }
        for k in 0..n {
            self.start[k + 1] += self.start[k];
        }
        self.adjacent.clear();
        self.adjacent.resize(self.links.len() * 2, (0, 0));
        let mut fill: Vec<u32> = self.start[..n].to_vec();
        for &(i, j, r) in &self.links {
            self.adjacent[fill[i as usize] as usize] = (j, r);
            fill[i as usize] += 1;
            self.adjacent[fill[j as usize] as usize] = (i, r);
            fill[j as usize] += 1;
        }
        self.board = Some(board.cand);
    }
}

fn collect(board: &Board, houses: &Houses, out: &mut Vec<Als>) {
    out.clear();
    for h in 0..27 {
        let cells: Vec<usize> = cells_of(board.unsolved & houses.house[h]).collect();
        let n = cells.len();
        for mask in 1u32..(1 << n) {
            let mut set = 0 as Cells;
            let mut digits = 0u16;
            for (k, &c) in cells.iter().enumerate() {
                if mask & (1 << k) != 0 {
                    set |= 1 << c;
                    digits |= board.cand[c];
                }
            }
            if digits.count_ones() == mask.count_ones() + 1 {
                out.push(Als {
                    cells: set,
                    digits,
                    by_digit: [0; 9],
                    sees_all: [0; 9],
                });
            }
        }
    }
    out.sort_unstable_by_key(|a| a.cells);
    out.dedup_by_key(|a| a.cells);
    for a in out.iter_mut() {
        for d in 0..9 {
            if a.digits & (1 << d) == 0 {
                continue;
            }
            a.by_digit[d] = a.cells & board.digit[d];
            let mut seen = ALL_CELLS;
            for c in cells_of(a.by_digit[d]) {
                seen &= houses.peers[c];
            }
            a.sees_all[d] = seen & !a.cells;
        }
    }
}

/// The restricted common digits of two disjoint sets.
fn restricted(a: &Als, b: &Als) -> u16 {
    let mut out = 0;
    let mut common = a.digits & b.digits;
    while common != 0 {
        let x = common.trailing_zeros() as usize;
        common &= common - 1;
        if a.by_digit[x] & !b.sees_all[x] == 0 {
            out |= 1 << x;
        }
    }
    out
}

/// The eliminations of "some `z` of `a` or `b` is true" for every `z` of `zs`.
fn removals(board: &Board, a: &Als, b: &Als, zs: u16, exclude: Cells) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut zs = zs;
    while zs != 0 {
        let z = zs.trailing_zeros() as usize;
        zs &= zs - 1;
        let gone = board.digit[z] & a.sees_all[z] & b.sees_all[z] & !exclude;
        out.extend(cells_of(gone).map(|c| Candidate::new(c, z as u8 + 1)));
    }
    out
}

fn step(t: Technique, sets: &[&Als], eliminations: Vec<Candidate>) -> Step {
    let mut s = Step::new(t);
    for a in sets {
        s.cells.extend(cells_of(a.cells).map(|c| c as u8));
        s.digits |= a.digits;
    }
    s.eliminations = eliminations;
    s
}

/// ALS-XZ.
#[inline(never)]
pub fn xz(board: &Board, houses: &Houses, scratch: &mut Scratch) -> Option<Step> {
    scratch.prepare(board, houses);
    let sets = &scratch.sets;
    for &(i, j, rcc) in &scratch.links {
        let (a, b) = (&sets[i as usize], &sets[j as usize]);
        let common = a.digits & b.digits;
        if common.count_ones() < 2 {
            continue;
        }
        let mut rcc = rcc;
        while rcc != 0 {
            let x = rcc.trailing_zeros() as usize;
            rcc &= rcc - 1;
            let gone = removals(board, a, b, common & !(1 << x), a.cells | b.cells);
            if !gone.is_empty() {
                return Some(step(Technique::AlsXz, &[a, b], gone));
            }
        }
    }
    None
}

/// ALS-XY-Wing.
#[inline(never)]
pub fn xy_wing(board: &Board, houses: &Houses, scratch: &mut Scratch) -> Option<Step> {
    scratch.prepare(board, houses);
    let (sets, keys) = (&scratch.sets, &scratch.keys);
    for (k, c) in sets.iter().enumerate() {
        let linked = &scratch.adjacent[scratch.start[k] as usize..scratch.start[k + 1] as usize];
        for (i, &(ka, ra)) in linked.iter().enumerate() {
            for &(kb, rb) in &linked[i + 1..] {
                let (ka, kb) = (ka as usize, kb as usize);
                let ((a_cells, a_digits), (b_cells, b_digits)) = (keys[ka], keys[kb]);
                if a_cells & b_cells != 0 || a_digits & b_digits == 0 {
                    continue;
                }
                let (a, b) = (&sets[ka], &sets[kb]);
                // x from A-C and y from B-C, different.
                for x in (0..9).filter(|x| ra & (1 << x) != 0) {
                    for y in (0..9).filter(|y| rb & (1 << y) != 0 && *y != x) {
                        let zs = a.digits & b.digits & !(1 << x) & !(1 << y);
                        if zs == 0 {
                            continue;
                        }
                        let gone = removals(board, a, b, zs, a.cells | b.cells | c.cells);
                        if !gone.is_empty() {
                            return Some(step(Technique::AlsXyWing, &[c, a, b], gone));
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
    fn als_xz_with_two_bivalue_sets_is_an_xy_like_pattern() {
        // A = r1c1 {1,2} and B = r1c2..? Use A = {r1c1 {1,2}}, B = {r5c1 {1,3}, r5c2 {3,2}}
        // in row 5. x = 1 (r1c1 sees r5c1, column 1); z = 2: cells seeing r1c1 and r5c2
        // (the 2s) lose 2: r2c2, r3c2 (box 1 and column 2)... and r1c2? It sees r1c1 (row)
        // and r5c2 (column): yes.
        let mut b = TestBoard::empty();
        b.keep(0, &[1, 2]);
        b.keep(36, &[1, 3]);
        b.keep(37, &[2, 3]);
        let mut scratch = Scratch::default();
        let s = xz(&b.board, &b.houses, &mut scratch).unwrap();
        assert_eq!(s.technique, Technique::AlsXz);
        assert!(s.eliminations.iter().all(|e| {
            let c = e.cell as usize;
            let z = e.digit as usize - 1;
            // Every removed z sees every z of the two sets that hold it.
            z < 9
                && !s.cells.contains(&e.cell)
                && (b.houses.sees(c, 0) || b.houses.sees(c, 36) || b.houses.sees(c, 37))
        }));
        assert!(s.eliminations.contains(&Candidate::new(1, 2)));
        assert!(xz(&TestBoard::empty().board, &b.houses, &mut scratch).is_none());
    }

    #[test]
    fn als_xy_wing_three_bivalue_sets() {
        // C = r5c5 {1,2}; A = r5c1 {1,3} (x = 1, row 5); B = r1c5 {2,3} (y = 2, column 5);
        // z = 3: r1c1 sees r5c1 and r1c5.
        let mut b = TestBoard::empty();
        b.keep(40, &[1, 2]);
        b.keep(36, &[1, 3]);
        b.keep(4, &[2, 3]);
        let mut scratch = Scratch::default();
        let s = xy_wing(&b.board, &b.houses, &mut scratch).unwrap();
        assert_eq!(s.technique, Technique::AlsXyWing);
        assert!(s.eliminations.contains(&Candidate::new(0, 3)));
        assert!(xy_wing(&TestBoard::empty().board, &b.houses, &mut scratch).is_none());
    }
}
