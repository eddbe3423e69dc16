//! The canonical form of a complete grid, by branch and bound on the column order.
//!
//! In a complete grid every row holds the nine digits, so whatever the first row and the column
//! order, the first row becomes `123456789`: the label of a digit is one more than the result
//! column it lands in. Fix the transposition, the first row `R0` and the second `R1` (same band:
//! 36 choices). Let `sigma(j)` be the source column where `R0` holds the digit that `R1` holds
//! in column `j`; then the second row of the result is `c -> 1 + pos(sigma(col(c)))`, where
//! `col(c)` is the source column put at result column `c` and `pos` its inverse. It is
//! minimised column by column:
//!
//! - at result column `c`, try each source column `j` that may go there (an unused column of
//!   the stack already at that stack position, or of any unplaced stack at a stack's first
//!   column), unless an earlier step already put one there;
//! - the value is `1 + pos(sigma(j))`; when `sigma(j)` has no place yet, the smallest one is
//!   given to it: the first free column of its stack's position, or the first column of the
//!   first unplaced stack position (that is always the smallest value reachable, so nothing is
//!   lost);
//! - only the choices with the smallest value go on, and a path stops as soon as its prefix is
//!   above the best second row found so far.
//!
//! Each surviving path fixes every column. The rest of the grid follows without choice: the
//! third row is the band's last row, and the later rows are the remaining rows in increasing
//! order within the constraint of bands (rows of a complete grid are all different). The
//! smallest full grid over all paths is the form; a path's rows are compared with the best as
//! they are made, so most paths stop at their second or third row.
//!
//! The second row always starts `45`; it can start `456` only when some stack of `R0` has its
//! three digits in one stack of `R1`. The starts that can are tried first, and once a `456` row
//! is known the others are skipped.

use crate::grid::{CELLS, Grid};

use super::Transform;

const UNSET: u8 = 0xFF;

/// The column order built so far on one path.
#[derive(Clone, Copy)]
struct Columns {
    /// Source column at each result column.
    col: [u8; 9],
    /// Result column of each source column.
    pos: [u8; 9],
    /// Source stack at each result stack position.
    stack_at: [u8; 3],
    /// Result stack position of each source stack.
    stack_pos: [u8; 3],
}

impl Columns {
    const EMPTY: Columns = Columns {
        col: [UNSET; 9],
        pos: [UNSET; 9],
        stack_at: [UNSET; 3],
        stack_pos: [UNSET; 3],
    };

    fn put(&mut self, j: u8, c: u8) {
        self.col[c as usize] = j;
        self.pos[j as usize] = c;
        let (s, q) = (j / 3, c / 3);
        self.stack_at[q as usize] = s;
        self.stack_pos[s as usize] = q;
    }

    /// The smallest result column source column `j` can still take, once `taken` (a source
    /// column and the result column it is about to take) is placed too.
    fn smallest_place(&self, j: u8, taken: Option<(u8, u8)>) -> u8 {
        let stack_at = |q: u8| match taken {
            Some((t, c)) if c / 3 == q => t / 3,
            _ => self.stack_at[q as usize],
        };
        let is_free = |p: u8| self.col[p as usize] == UNSET && taken.is_none_or(|(_, c)| c != p);
        let s = j / 3;
        let q = match self.stack_pos[s as usize] {
            UNSET => (0..3)
                .find(|&q| stack_at(q) == s)
                .or_else(|| (0..3).find(|&q| stack_at(q) == UNSET))
                .expect("a stack position is free for an unplaced stack"),
            q => q,
        };
        (3 * q..3 * q + 3)
            .find(|&p| is_free(p))
            .expect("a free column in the stack of an unplaced column")
    }
}

/// The best grid so far: its rows (labels `1..=9`) and the transformation.
struct Best {
    rows: [[u8; 9]; 9],
    transform: Option<Transform>,
}

/// The search for one grid: the source in both orientations, the first two rows being tried.
struct Search<'a> {
    cells: &'a [[[u8; 9]; 9]; 2],
    transposed: bool,
    r0: u8,
    r1: u8,
    sigma: [u8; 9],
    best: Best,
}

/// The canonical transformation of a complete, valid grid.
pub(super) fn canonical_complete(grid: &Grid) -> Transform {
    let mut cells = [[[0u8; 9]; 9]; 2];
    for i in 0..CELLS {
        cells[0][i / 9][i % 9] = grid.get(i);
        cells[1][i % 9][i / 9] = grid.get(i);
    }
    let mut search = Search {
        cells: &cells,
        transposed: false,
        r0: 0,
        r1: 0,
        sigma: [0; 9],
        best: Best {
            rows: [[10; 9]; 9],
            transform: None,
        },
    };
    // The 36 choices of orientation and first two rows, those whose second row can start
    // `456` first: some stack of the first row has its three digits in one other stack of the
    // second row. The others start `457` at best, and are skipped once a `456` is known.
    let mut starts = [(false, 0u8, 0u8, false); 36];
    let mut n = 0;
    for transposed in [false, true] {
        let rows = &cells[transposed as usize];
        for r0 in 0..9u8 {
            let band = r0 / 3;
            for r1 in (3 * band..3 * band + 3).filter(|&r| r != r0) {
                let sigma = sigma_of(rows, r0, r1);
                let pure = (0..3).any(|s| {
                    let target = sigma[3 * s] / 3;
                    (3 * s..3 * s + 3).all(|j| sigma[j] / 3 == target)
                });
                starts[n] = (transposed, r0, r1, pure);
                n += 1;
            }
        }
    }
    starts.sort_by_key(|&(_, _, _, pure)| !pure);
    for (transposed, r0, r1, pure) in starts {
        if !pure && search.best.rows[1][..3] == [4, 5, 6] {
            break;
        }
        search.transposed = transposed;
        search.r0 = r0;
        search.r1 = r1;
        search.sigma = sigma_of(&cells[transposed as usize], r0, r1);
        search.step(Columns::EMPTY, 0, false);
    }
    search.best.transform.expect("every grid has a form")
}

/// For each source column `j`, the column where row `r0` holds the digit row `r1` holds at `j`.
fn sigma_of(rows: &[[u8; 9]; 9], r0: u8, r1: u8) -> [u8; 9] {
    let mut column_of = [0u8; 10];
    for (j, &d) in rows[r0 as usize].iter().enumerate() {
        column_of[d as usize] = j as u8;
    }
    std::array::from_fn(|j| column_of[rows[r1 as usize][j] as usize])
}

impl Search<'_> {
    /// Result column `c` of the second row, on a path whose earlier values are already below
    /// the best second row when `below` (else equal to it, or above a best found since).
    fn step(&mut self, columns: Columns, c: u8, below: bool) {
        if c == 9 {
            self.finish(&columns);
            return;
        }
        // Each choice of source column for result column `c`, with the value it gives.
        let mut options = [(0u8, 0u8); 9];
        let mut n = 0;
        let q = (c / 3) as usize;
        if columns.col[c as usize] != UNSET {
            options[0] = (columns.col[c as usize], 0);
            n = 1;
        } else {
            for j in 0..9u8 {
                let s = (j / 3) as usize;
                let allowed = match columns.stack_at[q] {
                    UNSET => columns.stack_pos[s] == UNSET,
                    placed => placed as usize == s,
                };
                if allowed && columns.pos[j as usize] == UNSET {
                    options[n] = (j, 0);
                    n += 1;
                }
            }
        }
        for option in &mut options[..n] {
            let j = option.0;
            let taken = (columns.col[c as usize] == UNSET).then_some((j, c));
            let target = self.sigma[j as usize];
            let place = match columns.pos[target as usize] {
                UNSET => columns.smallest_place(target, taken),
                p => p,
            };
            option.1 = place + 1;
        }
        let smallest = options[..n].iter().map(|o| o.1).min().expect("a choice");
        let best = self.best.rows[1][c as usize];
        if !below && smallest > best {
            return;
        }
        let below = below || smallest < best;
        for &(j, value) in &options[..n] {
            if value == smallest {
                let mut next = columns;
                if next.col[c as usize] == UNSET {
                    next.put(j, c);
                }
                let target = self.sigma[j as usize];
                if next.pos[target as usize] == UNSET {
                    next.put(target, value - 1);
                }
                self.step(next, c + 1, below);
            }
        }
    }

    /// A full column order: the rest of the grid follows; kept if below the best.
    fn finish(&mut self, columns: &Columns) {
        let source = &self.cells[self.transposed as usize];
        let mut labels = [0u8; 10];
        for (j, &d) in source[self.r0 as usize].iter().enumerate() {
            labels[d as usize] = columns.pos[j] + 1;
        }
        let row_of = |r: u8| -> [u8; 9] {
            std::array::from_fn(|c| labels[source[r as usize][columns.col[c] as usize] as usize])
        };
        let band = self.r0 / 3;
        let r2 = (3 * band..3 * band + 3)
            .find(|&r| r != self.r0 && r != self.r1)
            .expect("a band has three rows");
        let mut order = [self.r0, self.r1, r2, 0, 0, 0, 0, 0, 0];
        let mut rows = [[0u8; 9]; 9];
        // Rows are compared with the best as they are made: most paths lose on the second or
        // third row, before the later rows are sorted.
        let mut below = false;
        let mut worse = |k: usize, row: &[u8; 9]| -> bool {
            if !below {
                match row.cmp(&self.best.rows[k]) {
                    std::cmp::Ordering::Greater => return true,
                    std::cmp::Ordering::Less => below = true,
                    std::cmp::Ordering::Equal => {}
                }
            }
            false
        };
        rows[0] = row_of(self.r0);
        rows[1] = row_of(self.r1);
        if worse(1, &rows[1]) {
            return;
        }
        rows[2] = row_of(r2);
        if worse(2, &rows[2]) {
            return;
        }
        // Later bands: the band holding the smallest remaining row first, each band's rows
        // ascending (the rows of a complete grid all differ, so there is no tie).
        let mut others = [(0u8, [0u8; 9]); 6];
        for (k, r) in (0..9u8).filter(|r| r / 3 != band).enumerate() {
            others[k] = (r, row_of(r));
        }
        others.sort_unstable_by_key(|&(_, values)| values);
        let first_band = others[0].0 / 3;
        let near = others.iter().filter(|(r, _)| r / 3 == first_band);
        let far = others.iter().filter(|(r, _)| r / 3 != first_band);
        for (k, &(r, values)) in near.chain(far).enumerate() {
            order[3 + k] = r;
            rows[3 + k] = values;
            if worse(3 + k, &values) {
                return;
            }
        }
        if rows < self.best.rows {
            self.best.rows = rows;
            let mut digits = [0u8; 10];
            digits[1..].copy_from_slice(&labels[1..]);
            self.best.transform = Some(
                Transform::new(self.transposed, order, columns.col, digits)
                    .expect("rows by bands, columns by stacks, digits a permutation"),
            );
        }
    }
}
