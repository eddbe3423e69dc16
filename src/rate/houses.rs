//! The geometry the techniques reason over: the 27 houses (rows, columns, regions) of a
//! [`Layout`] as cell bitboards, each cell's houses, and each cell's peers.
//!
//! A set of cells is a `u128` with bit `i` for cell `i` (reading order, bits 81..128 unused).
//! Houses are numbered as HoDoKu numbers its constraints: rows `0..9`, columns `9..18`,
//! regions (boxes on the standard layout) `18..27`. Every technique that speaks of "a house"
//! works on any layout; the few that need 3x3 boxes crossing rows in bands ask
//! [`Houses::standard`].

use crate::layout::{Layout, UnitName};

/// A set of cells: bit `i` is cell `i`.
pub type Cells = u128;

/// All 81 cells.
pub const ALL_CELLS: Cells = (1u128 << 81) - 1;

/// The houses of a layout and the relations between cells.
#[derive(Clone, Debug)]
pub struct Houses {
    /// The cells of each house: rows, columns, regions.
    pub(crate) house: [Cells; 27],
    /// The cells of each house in reading order.
    pub(crate) house_cells: [[u8; 9]; 27],
    /// Each cell's row, column and region house index.
    pub(crate) cell_houses: [[u8; 3]; 81],
    /// Each cell's place (`0..9`) in [`Houses::house_cells`] of its row, column and region.
    pub(crate) cell_places: [[u8; 3]; 81],
    /// The cells sharing a house with each cell, the cell itself excluded.
    pub(crate) peers: [Cells; 81],
    /// Whether the regions are the 3x3 boxes.
    pub(crate) standard: bool,
    /// How each region is named in messages.
    region_names: [UnitName; 9],
}

/// The bit of cell `i`.
#[inline]
pub const fn bit(i: usize) -> Cells {
    1u128 << i
}

/// The cells of a set, lowest first.
#[inline]
pub fn cells_of(mut set: Cells) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(i)
        }
    })
}

/// The lowest cell of a non-empty set.
#[inline]
pub fn first(set: Cells) -> usize {
    debug_assert!(set != 0);
    set.trailing_zeros() as usize
}

/// How many cells a set holds.
#[inline]
pub fn count(set: Cells) -> u32 {
    set.count_ones()
}

/// Whether a set holds exactly one cell: [`count`]`(set) == 1` without counting (a bit
/// count of 128 bits is a few dozen instructions on a CPU without POPCNT, which the
/// rater's baseline build assumes).
#[inline]
pub fn is_one(set: Cells) -> bool {
    set != 0 && set & set.wrapping_sub(1) == 0
}

/// Whether a set holds exactly two cells, without counting (see [`is_one`]).
#[inline]
pub fn is_two(set: Cells) -> bool {
    set != 0 && is_one(set & set.wrapping_sub(1))
}

/// How many of nine bits (digits, or lines of a fish) `mask` has set: a table's entry, for
/// the reason [`is_one`] gives.
#[inline]
pub fn nine_count(mask: u16) -> usize {
    const COUNTS: [u8; 512] = {
        let mut table = [0u8; 512];
        let mut m = 1;
        while m < 512 {
            table[m] = table[m >> 1] + (m & 1) as u8;
            m += 1;
        }
        table
    };
    debug_assert!(mask < 512, "more than nine bits: {mask:#x}");
    COUNTS[mask as usize & 511] as usize
}

/// Whether a set holds at most `n` cells, without counting (see [`is_one`]): its lowest
/// cell dropped `n` times leaves none.
#[inline]
pub fn at_most(mut set: Cells, n: usize) -> bool {
    for _ in 0..n {
        set &= set.wrapping_sub(1);
    }
    set == 0
}

impl Houses {
    /// The houses of `layout`.
    pub fn new(layout: &Layout) -> Houses {
        let mut house = [0 as Cells; 27];
        let mut house_cells = [[0u8; 9]; 27];
        let mut fill = [0usize; 27];
        let mut cell_houses = [[0u8; 3]; 81];
        let mut cell_places = [[0u8; 3]; 81];
        for (i, houses) in cell_houses.iter_mut().enumerate() {
            *houses = [
                (i / 9) as u8,
                (9 + i % 9) as u8,
                (18 + layout.region_of(i)) as u8,
            ];
            for (k, &h) in houses.iter().enumerate() {
                let h = h as usize;
                cell_places[i][k] = fill[h] as u8;
                house[h] |= bit(i);
                house_cells[h][fill[h]] = i as u8;
                fill[h] += 1;
            }
        }
        let mut peers = [0 as Cells; 81];
        for (i, p) in peers.iter_mut().enumerate() {
            for &h in &cell_houses[i] {
                *p |= house[h as usize];
            }
            *p &= !bit(i);
        }
        let mut region_names = [UnitName::Box(1); 9];
        for (r, name) in region_names.iter_mut().enumerate() {
            *name = layout.region_name(r);
        }
        Houses {
            house,
            house_cells,
            cell_houses,
            cell_places,
            peers,
            standard: layout.is_standard(),
            region_names,
        }
    }

    /// Whether the regions are the standard 3x3 boxes.
    #[inline]
    pub fn standard(&self) -> bool {
        self.standard
    }

    /// The cells of house `h` (rows `0..9`, columns `9..18`, regions `18..27`).
    #[inline]
    pub fn house(&self, h: usize) -> Cells {
        self.house[h]
    }

    /// The peers of cell `i`: every other cell of its row, column and region.
    #[inline]
    pub fn peers(&self, i: usize) -> Cells {
        self.peers[i]
    }

    /// The row house of cell `i`.
    #[inline]
    pub fn row_of(&self, i: usize) -> usize {
        self.cell_houses[i][0] as usize
    }

    /// The column house of cell `i` (`9..18`).
    #[inline]
    pub fn col_of(&self, i: usize) -> usize {
        self.cell_houses[i][1] as usize
    }

    /// The region house of cell `i` (`18..27`).
    #[inline]
    pub fn region_of(&self, i: usize) -> usize {
        self.cell_houses[i][2] as usize
    }

    /// Whether two distinct cells share a house.
    #[inline]
    pub fn sees(&self, a: usize, b: usize) -> bool {
        self.peers[a] & bit(b) != 0
    }

    /// The cells that see every cell of `set` (cells of `set` itself excluded).
    #[inline]
    pub fn seeing_all(&self, set: Cells) -> Cells {
        let mut common = crate::rate::houses::ALL_CELLS;
        for i in cells_of(set) {
            common &= self.peers[i];
        }
        common & !set
    }

    /// The house, if any, that holds every cell of a non-empty set, tried row, column, region.
    pub fn common_houses(&self, set: Cells) -> [Option<usize>; 3] {
        let i = first(set);
        let mut out = [None; 3];
        for (k, &h) in self.cell_houses[i].iter().enumerate() {
            if set & !self.house[h as usize] == 0 {
                out[k] = Some(h as usize);
            }
        }
        out
    }

    /// How house `h` is named in messages (`row 3`, `column 5`, `box 7`, `region c`).
    pub fn name(&self, h: usize) -> UnitName {
        match h {
            0..9 => UnitName::Row(h as u8 + 1),
            9..18 => UnitName::Column(h as u8 - 8),
            _ => self.region_names[h - 18],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_houses_have_nine_cells_and_twenty_peers() {
        let h = Houses::new(&Layout::standard());
        for k in 0..27 {
            assert_eq!(count(h.house(k)), 9);
        }
        for i in 0..81 {
            assert_eq!(count(h.peers(i)), 20);
            assert_eq!(h.peers(i) & bit(i), 0);
        }
        assert_eq!(h.region_of(80), 26);
        assert_eq!(h.name(9).to_string(), "column 1");
        assert_eq!(h.name(26).to_string(), "box 9");
        assert!(h.sees(0, 20) && !h.sees(0, 30));
    }

    #[test]
    fn seeing_all_and_common_houses() {
        let h = Houses::new(&Layout::standard());
        // r1c1 and r1c2 share row 1 and box 1.
        let pair = bit(0) | bit(1);
        assert_eq!(h.common_houses(pair), [Some(0), None, Some(18)]);
        let seen = h.seeing_all(pair);
        assert_eq!(count(seen), 7 + 6);
    }
}
