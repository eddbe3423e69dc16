//! SE's geometry and search orders: its regions (blocks, rows, columns as house indexes), the
//! order it lists a cell's house cells in, and its order of k-subsets.
//!
//! Houses are numbered as in [`crate::rate::Houses`]: rows `0..9`, columns `9..18`, blocks
//! `18..27` (block `b` is SE's block `b`: row-major), each house's cells in SE's index order
//! (a row by column, a column by row, a block in reading order).

use crate::layout::Layout;
use crate::rate::Houses;
use crate::rate::board::Board;

/// SE's region types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegionType {
    /// The 3x3 blocks (houses `18..27`).
    Block,
    /// The rows (houses `0..9`).
    Row,
    /// The columns (houses `9..18`).
    Column,
}

impl RegionType {
    /// The house of region number `i` (`0..9`) of this type.
    #[inline]
    pub fn house(self, i: usize) -> usize {
        match self {
            RegionType::Row => i,
            RegionType::Column => 9 + i,
            RegionType::Block => 18 + i,
        }
    }

    /// This type's region holding cell `cell`.
    #[inline]
    pub fn house_of(self, cell: usize) -> usize {
        match self {
            RegionType::Row => cell / 9,
            RegionType::Column => 9 + cell % 9,
            RegionType::Block => 18 + (cell / 27) * 3 + (cell % 9) / 3,
        }
    }
}

/// `Grid.getRegionTypes()`: the order of a cell's regions.
pub const CELL_REGION_TYPES: [RegionType; 3] =
    [RegionType::Block, RegionType::Row, RegionType::Column];

/// The order most producers scan regions in: blocks, columns, rows.
pub const SCAN_TYPES: [RegionType; 3] = [RegionType::Block, RegionType::Column, RegionType::Row];

/// The houses and SE's orders over them.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// The standard houses.
    pub houses: Houses,
    /// `Cell.getHouseCells()`: the cells of the cell's block, row, then column (each in index
    /// order, no repeats, the cell itself left out).
    pub house_cells: [[u8; 20]; 81],
    /// `Permutations(k, 9)` for `k` in `0..=9`: the k-subsets of `0..9` as masks, in
    /// increasing order of the mask.
    pub subsets: Vec<Vec<u16>>,
    /// SE's `Locking` pairs of crossing regions, in its order: (block, column), (block, row),
    /// (column, block), (row, block) pairs, each by the first region's number, then the
    /// second's; only the pairs that share cells.
    pub crossings: Vec<Crossing>,
}

/// Two regions that share cells, as SE's `Locking` visits them.
#[derive(Debug, Clone, Copy)]
pub struct Crossing {
    /// The first region's type and number (`0..9`).
    pub kind: RegionType,
    pub number: usize,
    /// The cells of the first region and of the second.
    pub first: u128,
    pub second: u128,
}

impl Geometry {
    /// The standard geometry.
    pub fn new() -> Geometry {
        let houses = Houses::new(&Layout::standard());
        let mut house_cells = [[0u8; 20]; 81];
        for (cell, list) in house_cells.iter_mut().enumerate() {
            let mut n = 0;
            for t in CELL_REGION_TYPES {
                for &other in &houses.house_cells[t.house_of(cell)] {
                    if other as usize != cell && !list[..n].contains(&other) {
                        list[n] = other;
                        n += 1;
                    }
                }
            }
            debug_assert_eq!(n, 20);
        }
        let mut subsets = vec![Vec::new(); 10];
        for mask in 0u16..512 {
            subsets[mask.count_ones() as usize].push(mask);
        }
        use RegionType::{Block, Column, Row};
        let mut crossings = Vec::new();
        for (t1, t2) in [(Block, Column), (Block, Row), (Column, Block), (Row, Block)] {
            for i1 in 0..9 {
                let first = houses.house[t1.house(i1)];
                for i2 in 0..9 {
                    let second = houses.house[t2.house(i2)];
                    if first & second != 0 {
                        crossings.push(Crossing {
                            kind: t1,
                            number: i1,
                            first,
                            second,
                        });
                    }
                }
            }
        }
        Geometry {
            houses,
            house_cells,
            subsets,
            crossings,
        }
    }

    /// The cells of house `h` in SE's index order.
    #[inline]
    pub fn cells(&self, h: usize) -> &[u8; 9] {
        &self.houses.house_cells[h]
    }

    /// Each base line's positions of each digit (`[line][digit]`, lines of type `base`), and
    /// for each digit the lines where it can be in a fish of `k` lines ([`in_set`]).
    pub fn fish_lines(
        &self,
        board: &Board,
        base: RegionType,
        k: usize,
    ) -> ([[u16; 9]; 9], [u16; 9]) {
        let mut pos = [[0u16; 9]; 9];
        let mut eligible = [0u16; 9];
        for (line, p) in pos.iter_mut().enumerate() {
            *p = self.all_positions(board, base.house(line));
            for d in 0..9 {
                eligible[d] |= u16::from(in_set(p[d], k)) << line;
            }
        }
        (pos, eligible)
    }

    /// [`Geometry::positions`] of every digit in house `h`.
    #[inline]
    pub fn all_positions(&self, board: &Board, h: usize) -> [u16; 9] {
        let mut pos = [0u16; 9];
        for (k, &c) in self.houses.house_cells[h].iter().enumerate() {
            for d in digits(board.cand[c as usize]) {
                pos[d] |= 1 << k;
            }
        }
        pos
    }

    /// The positions (region indexes, bit `k` for the house's `k`-th cell) of digit `d`
    /// (`0..9`) in house `h`.
    #[inline]
    pub fn positions(&self, board: &Board, h: usize, d: usize) -> u16 {
        let mut p = 0u16;
        for (k, &c) in self.houses.house_cells[h].iter().enumerate() {
            if board.cand[c as usize] & (1 << d) != 0 {
                p |= 1 << k;
            }
        }
        p
    }

    /// How many empty cells house `h` has.
    #[inline]
    pub fn empty_count(&self, board: &Board, h: usize) -> usize {
        (board.unsolved & self.houses.house[h]).count_ones() as usize
    }
}

/// `Permutations(k, n)` for any `n <= 64`: the k-subsets of `0..n`, each as its sorted indexes,
/// in increasing order of their bitmask (colex order). Calls `f` until it returns `true`.
pub fn for_each_subset(n: usize, k: usize, mut f: impl FnMut(&[usize]) -> bool) {
    if k > n {
        return;
    }
    let mut idx: Vec<usize> = (0..k).collect();
    loop {
        if f(&idx) {
            return;
        }
        // Next in colex order: raise the lowest index that can move, reset those below it.
        let mut i = 0;
        loop {
            if i == k {
                return;
            }
            let limit = if i + 1 < k { idx[i + 1] } else { n };
            if idx[i] + 1 < limit {
                idx[i] += 1;
                for (j, v) in idx.iter_mut().enumerate().take(i) {
                    *v = j;
                }
                break;
            }
            i += 1;
        }
    }
}

/// Whether a member with these positions (or candidates) can be in a set of `k`: SE's
/// `searchCommonTuple` finds none with a member of fewer than two or more than `k`.
#[inline]
pub fn in_set(positions: u16, k: usize) -> bool {
    (2..=k as u32).contains(&positions.count_ones())
}

/// The members (`0..9`) of `of` that can be in a set of `k` ([`in_set`]), as a mask: the
/// subsets with any other are passed over, in the same order.
#[inline]
pub fn set_members(of: [u16; 9], k: usize) -> u16 {
    (0..9)
        .filter(|&i| in_set(of[i], k))
        .fold(0, |m, i| m | 1 << i)
}

/// The digits (`0..9`) of a candidate mask, lowest first.
#[inline]
pub fn digits(mut mask: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(d)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_come_in_colex_order() {
        let mut seen = Vec::new();
        for_each_subset(4, 2, |s| {
            seen.push(s.to_vec());
            false
        });
        assert_eq!(
            seen,
            vec![
                vec![0, 1],
                vec![0, 2],
                vec![1, 2],
                vec![0, 3],
                vec![1, 3],
                vec![2, 3]
            ]
        );
        let mut count = 0;
        for_each_subset(5, 0, |s| {
            assert!(s.is_empty());
            count += 1;
            false
        });
        assert_eq!(count, 1);
        let g = Geometry::new();
        assert_eq!(g.subsets[2][..3], [0b11, 0b101, 0b110]);
    }

    #[test]
    fn house_cells_are_block_then_row_then_column() {
        let g = Geometry::new();
        // r1c1: block cells r1c2 r1c3 r2c1.., then the rest of row 1, then of column 1.
        assert_eq!(g.house_cells[0][..8], [1, 2, 9, 10, 11, 18, 19, 20]);
        assert_eq!(g.house_cells[0][8..14], [3, 4, 5, 6, 7, 8]);
        assert_eq!(g.house_cells[0][14..], [27, 36, 45, 54, 63, 72]);
        assert_eq!(RegionType::Block.house_of(80), 26);
        assert_eq!(RegionType::Block.house_of(30), 22);
    }
}
