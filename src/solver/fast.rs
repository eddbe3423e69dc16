//! The `fast` engine for the standard layout: per-digit band bitboards, singles and locked
//! candidates propagated to a fixpoint, a guess on a cell with fewest candidates.
//!
//! # Bit layout
//! The grid is cut into three bands of three rows. For every digit `d` (0-based) and band `b`
//! one `u32` holds the 27 cells of that band where `d` may still go:
//!
//! ```text
//!  bit:  26 ........ 18 | 17 ......... 9 | 8 .......... 0
//!        row 2 of band  | row 1 of band  | row 0 of band     (each row: column 8 .. column 0)
//!  cand[b * 9 + d]      cell index = b * 27 + bit
//! ```
//!
//! Inside one band, a digit must sit exactly once in each of the three rows and once in each of
//! the three boxes: its positions form one of the six row-to-box permutations. For each row we
//! look up in which boxes the digit can still be (3 bits a row, 9 bits a band), and one table
//! lookup turns those 9 bits into the cells that belong to at least one permutation still
//! possible. That single step performs box/row locked candidates (pointing and claiming) and
//! hidden singles in boxes; a row left with one cell is a hidden single in that row.
//!
//! # Propagation order, and how placements are counted
//! At each call of the search procedure:
//! 1. every digit-band whose candidates changed is updated as above until none changes; each
//!    row left with one unsolved cell places it (a **hidden single**, in that row). Updates
//!    run in sweeps: each sweep updates, in index order, the digit-bands that lost a cell since
//!    their last update (a mask kept as cells are removed);
//! 2. when that is quiet, every unsolved cell with one candidate left is placed (a **naked
//!    single**), and propagation returns to step 1;
//! 3. when both are quiet, every digit with one cell left in a column places it (a **hidden
//!    single**, in that column), and propagation returns to step 1.
//!
//! A cell that two rules could place is counted under the rule that placed it first in this
//! order. A contradiction is a digit-band with no permutation left (which covers a row or a box
//! where a digit has no place), a cell with no candidate, or a column where a digit has no place.
//!
//! # Branching
//! When propagation is quiet, the search branches on a cell with the fewest candidates (two,
//! nearly always): among those, the one with the most unsolved cells in its row, column and
//! box, the first in reading order on a tie. Each candidate, in increasing order, is a guess
//! that enters the search procedure once more, on a copy of the board (copying is cheaper than
//! undoing); the last one reuses the board.
//!
//! # Memory access
//! Candidates are written one lane at a time, and a vector load of lanes still in the store
//! buffer cannot be forwarded from it: it waits until the stores reach the cache (about 40
//! cycles measured here). So the propagation loop keeps staleness as a mask instead of
//! comparing the board with a copy, and the steps that read a band's nine lanes right after
//! writing them (clearing placed cells, the candidate counts, a cell's candidates) use scalar
//! volatile loads, which the compiler cannot merge into vectors.

// Bands, digits and rows index parallel arrays; index loops say that most plainly.
#![allow(clippy::needless_range_loop)]

use super::{Event, Observer, Rule, Search, Stop};
use crate::grid::Grid;
use crate::layout::UnitName;

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// The cells of each row of a band.
const ROW_BITS: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];

/// For a row's 9 bits: bits 0-2, the boxes the row has a cell in; bit 3, exactly one cell.
static ROW_INFO: [u8; 512] = row_info();

/// For the 9 row-box presence bits of a digit-band (bit `row * 3 + box`): the cells that fit at
/// least one of the six row-to-box permutations still possible, or 0 when none is.
///
/// Bits 32..59 hold, for the same index, the cells of the row-box pairs left alone in their
/// row: the row's cells all lie in that box.
static PERMUTATIONS: [u64; 512] = permutations();

/// For the 9 columns (bits) where a digit can be inside one band: the cells the digit keeps in
/// the two other bands. A box whose candidates lie in a single column claims that column for
/// the band (pointing, column direction), so the other bands lose it.
///
/// Bits 32..59 hold the cells of the boxes whose candidates lie in a single column.
static POINTING: [u64; 512] = pointing();

/// For each position `0..27` in a band: the cells of its column in all three rows.
const COLUMN_CELLS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        t[p] = ROW_LOW << (p % 9);
        p += 1;
    }
    t
};

/// [`COLUMN_CELLS`] padded to 32 lanes for vector lookups.
static COLUMN_CELLS_32: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut p = 0;
    while p < 27 {
        t[p] = COLUMN_CELLS[p];
        p += 1;
    }
    t
};

/// For each position `0..27` in a band (32 lanes for vector lookups): the other cells of its
/// row and box.
static PEERS_IN_BAND: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut p = 0;
    while p < 27 {
        t[p] = BAND & !KEEP_IN_BAND[p];
        p += 1;
    }
    t
};

/// For each position `0..27` in a band: the cells a digit placed there keeps in its own
/// digit-band (everything outside its row and box, plus itself).
const KEEP_IN_BAND: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, k) = (p / 9, (p % 9) / 3);
        let boxed = (0x7 << (3 * k)) * (1 | (1 << 9) | (1 << 18));
        t[p] = (BAND & !(ROW_BITS[r] | boxed)) | (1 << p);
        p += 1;
    }
    t
};

const fn row_info() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        let mut info = 0u8;
        let mut k = 0;
        while k < 3 {
            if v & (0x7 << (3 * k)) != 0 {
                info |= 1 << k;
            }
            k += 1;
        }
        if (v as u32).count_ones() == 1 {
            info |= 1 << 3;
        }
        t[v] = info;
        v += 1;
    }
    t
}

const fn pointing() -> [u64; 512] {
    let mut t = [0u64; 512];
    let mut cols: u32 = 0;
    while cols < 512 {
        let mut lost = 0u32;
        let mut one_column = 0u64;
        let mut k = 0;
        while k < 3 {
            let in_box = (cols >> (3 * k)) & 7;
            if in_box.count_ones() == 1 {
                let c = in_box.trailing_zeros() + 3 * k;
                lost |= (1 << c) | (1 << (c + 9)) | (1 << (c + 18));
                one_column |= (0x7 << (3 * k)) * ROW_LOW as u64;
            }
            k += 1;
        }
        t[cols as usize] = (BAND & !lost) as u64 | (one_column << 32);
        cols += 1;
    }
    t
}

/// For the row-box pairs (bit `row * 3 + box`) holding givens of one digit in a band: the
/// cells outside their rows and boxes; bit 31 set when two pairs share a row or a box.
static GIVEN_ROWS_AND_BOXES: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut pairs = 0;
    while pairs < 512 {
        let mut outside = BAND;
        let mut clash = false;
        let mut k = 0;
        while k < 3 {
            let row = (pairs >> (3 * k)) & 7;
            let column = (pairs >> k) & 0o111;
            if row != 0 {
                outside &= !ROW_BITS[k];
            }
            if column != 0 {
                outside &= !((0x7 << (3 * k)) * ROW_LOW);
            }
            clash |= (row as u32).count_ones() > 1 || (column as u32).count_ones() > 1;
            k += 1;
        }
        t[pairs] = outside | ((clash as u32) << 31);
        pairs += 1;
    }
    t
};

/// For row-box pairs (bit `row * 3 + box`): the cells of those mini-rows.
const fn pair_cells() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut pairs = 0;
    while pairs < 512 {
        let mut p = 0;
        while p < 9 {
            if pairs & (1 << p) != 0 {
                t[pairs] |= 0x7 << (9 * (p / 3) + 3 * (p % 3));
            }
            p += 1;
        }
        pairs += 1;
    }
    t
}

const fn permutations() -> [u64; 512] {
    // The six permutations, as the box each of rows 0, 1, 2 goes to.
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let cells_of = pair_cells();
    let mut t = [0u64; 512];
    let mut p = 0;
    while p < 512 {
        let mut pairs = 0u32;
        let mut i = 0;
        while i < 6 {
            let perm = PERMUTATIONS[i];
            let fits = (p & (1 << perm[0])) != 0
                && (p & (1 << (3 + perm[1]))) != 0
                && (p & (1 << (6 + perm[2]))) != 0;
            if fits {
                pairs |= (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]));
            }
            i += 1;
        }
        let mut locked = 0u32;
        let mut r = 0;
        while r < 3 {
            let row = (pairs >> (3 * r)) & 7;
            if row.count_ones() == 1 {
                locked |= row << (3 * r);
            }
            r += 1;
        }
        t[p] = cells_of[pairs as usize] as u64 | ((cells_of[locked as usize] as u64) << 32);
        p += 1;
    }
    t
}

/// For each digit-band index `b * 9 + d`: the same digit's digit-bands in the two other bands.
/// (32 entries, so that any lane index of a 32-bit mask is in bounds; 27..32 are padding.)
const OTHER_BANDS: [[usize; 2]; 32] = {
    let mut t = [[27usize; 2]; 32];
    let mut i = 0;
    while i < 27 {
        let (b, d) = (i / 9, i % 9);
        t[i] = [((b + 1) % 3) * 9 + d, ((b + 2) % 3) * 9 + d];
        i += 1;
    }
    t
};

/// The lowest cell of each row of a band; `c * ROW_LOW` spreads 9 column bits to all rows.
const ROW_LOW: u32 = 1 | (1 << 9) | (1 << 18);

/// The search state: what is still possible, and what is solved. 128 bytes, 64-byte aligned:
/// the copy on a guess is two whole lines.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Board {
    /// `cand[b * 9 + d]`: cells of band `b` where digit `d` may go (see the module page).
    cand: [u32; 27],
    /// Cells of each band not yet placed.
    unsolved: [u32; 3],
    /// The stale digit-bands: bit `i` set when `cand[i]` lost a cell since its last update.
    stale: u32,
}

/// Propagation found that the board has no solution.
struct Contradiction;

/// Two givens of one digit share a row, column or box. The engine does not search; the caller
/// names the conflict with [`crate::layout::Layout::check_givens`].
#[derive(Debug)]
pub(crate) struct GivensConflict;

/// The few primitive steps that have a faster form on some instruction sets. Each form gives
/// the same answer; the search does not know which one it runs on.
trait Isa {
    /// The row-box presence index of digit-band `x`: bit `row * 3 + box` set when the digit
    /// can still go somewhere in that row and box.
    fn presence(x: u32) -> usize;
    /// Among the `pairs` cells (per band), the one with the most unsolved peers, as (band,
    /// bit); the first in reading order on a tie; `None` without pairs. See
    /// [`Board::branch_cell`].
    #[inline(always)]
    fn best_pair(pairs: &[u32; 3], unsolved: &[u32; 3]) -> Option<(usize, u32)> {
        let mut best = None;
        let mut most = 0;
        for (b, &cells) in pairs.iter().enumerate() {
            let mut cells = cells;
            while cells != 0 {
                let bit = cells & cells.wrapping_neg();
                cells &= cells - 1;
                let reach = unsolved_peers(unsolved, b, bit.trailing_zeros() as usize) + 1;
                if reach > most {
                    most = reach;
                    best = Some((b, bit));
                }
            }
        }
        best
    }
    /// Per band: the cells with at least one, at least two and at least three candidates.
    #[inline(always)]
    fn cell_counts(cand: &[u32; 27]) -> [[u32; 3]; 3] {
        std::array::from_fn(|b| {
            let (mut any, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = lane(cand, b * 9 + d);
                three |= two & x;
                two |= any & x;
                any |= x;
            }
            [any, two, three]
        })
    }

    /// The 81 cell values of the placed cells (0 where unsolved).
    #[inline(always)]
    fn placed_cells(cand: &[u32; 27], unsolved: &[u32; 3]) -> [u8; 81] {
        let mut cells = [0u8; 81];
        for b in 0..3 {
            let solved = BAND & !unsolved[b];
            for d in 0..9 {
                let mut x = cand[b * 9 + d] & solved;
                while x != 0 {
                    cells[b * 27 + x.trailing_zeros() as usize] = d as u8 + 1;
                    x &= x - 1;
                }
            }
        }
        cells
    }

    /// The givens of `cells`, per band and digit (0-based).
    #[inline(always)]
    fn givens(cells: &[u8; 81]) -> [[u32; 9]; 3] {
        // Per band and value; value 0, the blanks, is collected and ignored.
        let mut by_value = [[0u32; 10]; 3];
        for (b, band) in cells.chunks_exact(27).enumerate() {
            for (pos, &v) in band.iter().enumerate() {
                by_value[b][v as usize] |= 1 << pos;
            }
        }
        std::array::from_fn(|b| std::array::from_fn(|d| by_value[b][d + 1]))
    }

    /// The column scan of [`Board::column_singles`].
    #[inline(always)]
    fn column_scan(cand: &[u32; 27], unsolved: &[u32; 3]) -> ColumnScan {
        column_scan_portable(cand, unsolved)
    }
}

/// Where each digit has one cell left in a column, per band and digit (unsolved cells only),
/// and whether some column has no cell left for some digit. See [`Board::column_singles`].
struct ColumnScan {
    found: [[u32; 9]; 3],
    any_found: bool,
    empty: bool,
}

/// The column scan in plain Rust, laid out digit by digit so the compiler can use vectors.
#[inline(always)]
fn column_scan_portable(cand: &[u32; 27], unsolved: &[u32; 3]) -> ColumnScan {
    let mut found = [[0u32; 9]; 3];
    let mut empty = 0u32;
    let mut any_found = 0u32;
    for d in 0..9 {
        let x = [cand[d], cand[9 + d], cand[18 + d]];
        let mut any = [0u32; 3];
        let mut one = [0u32; 3];
        for b in 0..3 {
            let (r0, r1, r2) = (x[b] & 0x1FF, (x[b] >> 9) & 0x1FF, x[b] >> 18);
            any[b] = r0 | r1 | r2;
            one[b] = (r0 ^ r1 ^ r2) & !((r0 & r1) | (r1 & r2) | (r0 & r2));
        }
        let [a0, a1, a2] = any;
        empty |= !(a0 | a1 | a2) & 0x1FF;
        let one_band = (a0 ^ a1 ^ a2) & !((a0 & a1) | (a1 & a2) | (a0 & a2));
        for b in 0..3 {
            found[b][d] = x[b] & spread_columns(one[b] & one_band) & unsolved[b];
            any_found |= found[b][d];
        }
    }
    ColumnScan {
        found,
        any_found: any_found != 0,
        empty: empty != 0,
    }
}

/// Digit-band `i` of `cand`, read on its own. Lanes are written one at a time, and a vector load
/// of lanes still in the store buffer waits until they reach the cache (see the module page);
/// a volatile read cannot be merged into one. With [`set_lane`], the only unsafe code of the
/// engine outside the instruction-set impls.
#[inline(always)]
fn lane(cand: &[u32; 27], i: usize) -> u32 {
    let x = &cand[i];
    // SAFETY: `x` is a valid, aligned reference.
    unsafe { std::ptr::read_volatile(x) }
}

/// Writes digit-band `i` of `cand` on its own; see [`lane`].
#[inline(always)]
fn set_lane(cand: &mut [u32; 27], i: usize, value: u32) {
    let x = &mut cand[i];
    // SAFETY: `x` is a valid, aligned, exclusive reference.
    unsafe { std::ptr::write_volatile(x, value) }
}

/// Unsolved cells among the 20 that share a row, column or box with cell `pos` of band `b`.
#[inline(always)]
fn unsolved_peers(unsolved: &[u32; 3], b: usize, pos: usize) -> u32 {
    let [o1, o2] = OTHER_BANDS[b * 9];
    let column = COLUMN_CELLS[pos];
    (unsolved[b] & !KEEP_IN_BAND[pos]).count_ones()
        + (unsolved[o1 / 9] & column).count_ones()
        + (unsolved[o2 / 9] & column).count_ones()
}

/// Plain Rust, for every target.
struct Portable;

impl Isa for Portable {
    #[inline(always)]
    fn presence(x: u32) -> usize {
        (ROW_INFO[(x & 0x1FF) as usize] & 7) as usize
            | ((ROW_INFO[((x >> 9) & 0x1FF) as usize] & 7) as usize) << 3
            | ((ROW_INFO[(x >> 18) as usize] & 7) as usize) << 6
    }
}

/// AVX2 and BMI2 (x86-64). This impl (with [`Avx512`] and the lane accessors) is the only
/// unsafe code of the engine: its methods are
/// called only from the search instance compiled with these features, which is entered only
/// after the features were detected (see [`search`]).
#[cfg(target_arch = "x86_64")]
struct Avx2;

#[cfg(target_arch = "x86_64")]
impl Isa for Avx2 {
    #[inline(always)]
    fn presence(x: u32) -> usize {
        debug_assert!(std::arch::is_x86_feature_detected!("bmi2"));
        // Bit 3k of each row becomes "the row has a cell in box k"; keep those nine bits.
        let boxes = x | (x >> 1) | (x >> 2);
        // SAFETY: BMI2 is enabled (see above).
        unsafe { std::arch::x86_64::_pext_u32(boxes, 0o111_111_111) as usize }
    }
}

/// AVX-512 (F, VL, BW, DQ) on top of [`Avx2`]: 16 lanes a compare. The same safety argument
/// as for [`Avx2`] holds.
#[cfg(target_arch = "x86_64")]
struct Avx512;

#[cfg(target_arch = "x86_64")]
impl Isa for Avx512 {
    #[inline(always)]
    fn presence(x: u32) -> usize {
        Avx2::presence(x)
    }

    #[inline(always)]
    fn best_pair(pairs: &[u32; 3], unsolved: &[u32; 3]) -> Option<(usize, u32)> {
        use std::arch::x86_64::*;
        debug_assert!(std::arch::is_x86_feature_detected!("avx512vpopcntdq"));
        // All 27 cells of a band at once, in two vectors of 16 lanes (lane = position in the
        // band): count unsolved peers with a vector popcount, keep the largest key among the
        // pair cells. A key orders by reach, then earlier band, then earlier cell:
        // reach << 7 | (2 - band) << 5 | (31 - pos).
        // SAFETY: AVX-512F and VPOPCNTDQ are enabled (see above); the tables are 32 lanes.
        unsafe {
            let load = |table: &[u32; 32], half: usize| {
                _mm512_loadu_si512(table.as_ptr().add(16 * half).cast())
            };
            let lanes = _mm512_setr_epi32(
                31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
            );
            let mut best = _mm512_setzero_si512();
            for (b, &cells) in pairs.iter().enumerate() {
                if cells == 0 {
                    continue;
                }
                let [o1, o2] = OTHER_BANDS[b * 9];
                let own = _mm512_set1_epi32(unsolved[b] as i32);
                let above = _mm512_set1_epi32(unsolved[o1 / 9] as i32);
                let below = _mm512_set1_epi32(unsolved[o2 / 9] as i32);
                let tag = _mm512_set1_epi32(((2 - b) << 5) as i32);
                for half in 0..2 {
                    let chosen = (cells >> (16 * half)) as u16;
                    let peer = load(&PEERS_IN_BAND, half);
                    let column = load(&COLUMN_CELLS_32, half);
                    let reach = _mm512_add_epi32(
                        _mm512_popcnt_epi32(_mm512_and_si512(peer, own)),
                        _mm512_add_epi32(
                            _mm512_popcnt_epi32(_mm512_and_si512(column, above)),
                            _mm512_popcnt_epi32(_mm512_and_si512(column, below)),
                        ),
                    );
                    // 31 - pos for the lanes of this half.
                    let reverse = _mm512_sub_epi32(lanes, _mm512_set1_epi32((16 * half) as i32));
                    let key = _mm512_or_si512(
                        _mm512_slli_epi32::<7>(_mm512_add_epi32(reach, _mm512_set1_epi32(1))),
                        _mm512_or_si512(tag, reverse),
                    );
                    best = _mm512_mask_max_epu32(best, chosen, best, key);
                }
            }
            let best_key = _mm512_reduce_max_epu32(best);
            (best_key != 0).then(|| {
                let b = 2 - ((best_key >> 5) & 3) as usize;
                (b, 1 << (31 - (best_key & 31)))
            })
        }
    }

    #[inline(always)]
    fn placed_cells(cand: &[u32; 27], unsolved: &[u32; 3]) -> [u8; 81] {
        use std::arch::x86_64::*;
        // Per digit, its placed cells as an 81-bit mask (64 + 17 byte lanes), blended in.
        // SAFETY: AVX-512F/BW are enabled (see above); the stores write bytes 0..64 and,
        // masked, 64..81 of the 81.
        unsafe {
            let solved = [0, 1, 2].map(|b| u64::from(BAND & !unsolved[b]));
            let (mut low, mut high) = (_mm512_setzero_si512(), _mm512_setzero_si512());
            for d in 0..9 {
                let [x0, x1, x2] = [0, 1, 2].map(|b| u64::from(cand[b * 9 + d]) & solved[b]);
                let lo = x0 | (x1 << 27) | (x2 << 54);
                let hi = x2 >> 10;
                let digit = _mm512_set1_epi8(d as i8 + 1);
                low = _mm512_mask_mov_epi8(low, lo, digit);
                high = _mm512_mask_mov_epi8(high, hi, digit);
            }
            let mut cells = [0u8; 81];
            _mm512_storeu_si512(cells.as_mut_ptr().cast(), low);
            _mm512_mask_storeu_epi8(cells.as_mut_ptr().add(64).cast(), (1u64 << 17) - 1, high);
            cells
        }
    }

    #[inline(always)]
    fn givens(cells: &[u8; 81]) -> [[u32; 9]; 3] {
        use std::arch::x86_64::*;
        // One byte compare per digit over the 81 cells (64 + 17 lanes), then the 81-bit mask
        // cut into three bands of 27.
        // SAFETY: AVX-512F/BW are enabled (see above); the loads read bytes 0..64 and, masked,
        // 64..81 of the 81.
        unsafe {
            let low = _mm512_loadu_si512(cells.as_ptr().cast());
            let high = _mm512_maskz_loadu_epi8((1u64 << 17) - 1, cells.as_ptr().add(64).cast());
            let mut givens = [[0u32; 9]; 3];
            for d in 0..9 {
                let digit = _mm512_set1_epi8(d as i8 + 1);
                let lo = _mm512_cmpeq_epi8_mask(low, digit);
                let hi = _mm512_cmpeq_epi8_mask(high, digit);
                givens[0][d] = (lo as u32) & BAND;
                givens[1][d] = ((lo >> 27) as u32) & BAND;
                givens[2][d] = ((lo >> 54) | (hi << 10)) as u32 & BAND;
            }
            givens
        }
    }

    #[inline(always)]
    fn column_scan(cand: &[u32; 27], unsolved: &[u32; 3]) -> ColumnScan {
        use std::arch::x86_64::*;
        // Nine digit lanes per band; ternary logic does each three-input step in one go.
        // SAFETY: AVX-512F is enabled (see above); masked loads read lanes 0..9 of 9 * b.
        unsafe {
            let nine = 0x1FFu16;
            let low9 = _mm512_set1_epi32(0x1FF);
            let x =
                [0, 1, 2].map(|b| _mm512_maskz_loadu_epi32(nine, cand.as_ptr().add(9 * b).cast()));
            let mut any = [_mm512_setzero_si512(); 3];
            let mut one = [_mm512_setzero_si512(); 3];
            for b in 0..3 {
                let r0 = _mm512_and_si512(x[b], low9);
                let r1 = _mm512_and_si512(_mm512_srli_epi32::<9>(x[b]), low9);
                let r2 = _mm512_srli_epi32::<18>(x[b]);
                // 0xFE: a | b | c; 0x96: a ^ b ^ c; 0xE8: majority.
                any[b] = _mm512_ternarylogic_epi32::<0xFE>(r0, r1, r2);
                let odd = _mm512_ternarylogic_epi32::<0x96>(r0, r1, r2);
                let many = _mm512_ternarylogic_epi32::<0xE8>(r0, r1, r2);
                one[b] = _mm512_andnot_si512(many, odd);
            }
            let all = _mm512_ternarylogic_epi32::<0xFE>(any[0], any[1], any[2]);
            let empty = _mm512_mask_cmpneq_epu32_mask(nine, all, low9) != 0;
            let odd = _mm512_ternarylogic_epi32::<0x96>(any[0], any[1], any[2]);
            let many = _mm512_ternarylogic_epi32::<0xE8>(any[0], any[1], any[2]);
            let one_band = _mm512_andnot_si512(many, odd);
            let mut found = [[0u32; 9]; 3];
            let mut any_found = 0u16;
            for b in 0..3 {
                let columns = _mm512_and_si512(one[b], one_band);
                let spread = _mm512_ternarylogic_epi32::<0xFE>(
                    columns,
                    _mm512_slli_epi32::<9>(columns),
                    _mm512_slli_epi32::<18>(columns),
                );
                let cells = _mm512_and_si512(
                    _mm512_and_si512(x[b], spread),
                    _mm512_set1_epi32(unsolved[b] as i32),
                );
                let nonzero = _mm512_test_epi32_mask(cells, cells);
                if nonzero != 0 {
                    _mm512_mask_storeu_epi32(found[b].as_mut_ptr().cast(), nine, cells);
                }
                any_found |= nonzero;
            }
            ColumnScan {
                found,
                any_found: any_found != 0,
                empty,
            }
        }
    }
}

/// What a quiet board offers to branch on.
struct Quiet {
    /// Per band, the unsolved cells with exactly two candidates.
    pairs: [u32; 3],
}

/// The cells of the columns `cols` (9 bits) in all three rows of a band.
#[inline(always)]
fn spread_columns(cols: u32) -> u32 {
    cols * ROW_LOW
}

/// The columns (9 bits) where `cells` of a band has at least one cell.
#[inline(always)]
fn fold_columns(cells: u32) -> u32 {
    (cells | (cells >> 9) | (cells >> 18)) & 0x1FF
}

impl Board {
    /// Every digit possible everywhere, nothing placed.
    fn new() -> Board {
        let cand = [BAND; 27];
        Board {
            cand,
            unsolved: [BAND, BAND, BAND],
            stale: 0,
        }
    }

    /// Keeps only `keep` of digit-band `i`; returns bit `i` if it lost a cell.
    #[inline(always)]
    fn narrow(&mut self, i: usize, keep: u32) -> u32 {
        let x = self.cand[i];
        self.cand[i] = x & keep;
        u32::from(x & !keep != 0) << i
    }

    /// Removes `cells` of band `b` from every digit: they are being placed. Returns the
    /// digit-bands that lost a cell.
    #[inline(always)]
    fn clear_cells(&mut self, b: usize, cells: u32) -> u32 {
        self.unsolved[b] &= !cells;
        // Lane by lane (see `lane`); the lost bits are summed as a tree.
        let mut hit = [0u32; 9];
        for d in 0..9 {
            let old = lane(&self.cand, b * 9 + d);
            set_lane(&mut self.cand, b * 9 + d, old & !cells);
            hit[d] = u32::from(old & cells != 0);
        }
        let pairs = [0, 2, 4, 6].map(|d| hit[d] + 2 * hit[d + 1]);
        let quads = [pairs[0] + 4 * pairs[1], pairs[2] + 4 * pairs[3]];
        let lost = quads[0] + (quads[1] << 4) + (hit[8] << 8);
        lost << (b * 9)
    }

    /// Places digit `d` (0-based) in band `b` at the single bit `bit`: removes the digit from
    /// the cell's row, box and column, and every other digit from the cell.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, bit: u32) {
        let others = self.candidates_of(b, bit) & !(1 << d);
        self.place_among(d, b, bit, others);
    }

    /// [`Board::place`] for a cell whose other candidates are known: the digits `others`
    /// (bit `d`), whose digit-bands have already lost the cell or lose it here.
    #[inline(always)]
    fn place_among(&mut self, d: usize, b: usize, bit: u32, others: u32) {
        let pos = bit.trailing_zeros() as usize;
        let i = b * 9 + d;
        debug_assert!(pos < 27 && self.cand[i] & bit != 0 && others & (1 << d) == 0);
        self.unsolved[b] &= !bit;
        let mut rest = others;
        while rest != 0 {
            let e = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            self.cand[b * 9 + e] &= !bit;
        }
        self.cand[i] &= KEEP_IN_BAND[pos];
        let mut lost = (others << (b * 9)) | (1 << i);
        let column = COLUMN_CELLS[pos];
        for j in OTHER_BANDS[i] {
            lost |= self.narrow(j, !column);
        }
        self.stale |= lost;
    }

    /// A copy of the board with digit `d` placed as in [`Board::place_among`]. The lanes that
    /// change are computed from this board, not read back from the copy just stored.
    #[inline(always)]
    fn child(&self, d: usize, b: usize, bit: u32, others: u32) -> Board {
        let pos = bit.trailing_zeros() as usize;
        let i = b * 9 + d;
        debug_assert!(pos < 27 && self.cand[i] & bit != 0 && others & (1 << d) == 0);
        let mut child = *self;
        child.unsolved[b] = self.unsolved[b] & !bit;
        let mut rest = others;
        while rest != 0 {
            let e = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            child.cand[b * 9 + e] = self.cand[b * 9 + e] & !bit;
        }
        child.cand[i] = self.cand[i] & KEEP_IN_BAND[pos];
        let mut lost = (others << (b * 9)) | (1 << i);
        let column = COLUMN_CELLS[pos];
        for j in OTHER_BANDS[i] {
            let x = self.cand[j];
            child.cand[j] = x & !column;
            lost |= u32::from(x & column != 0) << j;
        }
        child.stale = self.stale | lost;
        child
    }

    /// Updates digit-band `i` (step 1 of the module page): the permutation step, pointing
    /// into the other bands, and the hidden singles of rows left with one cell.
    #[inline(always)]
    fn update<I: Isa, O: Observer>(
        &mut self,
        i: usize,
        search: &mut Search<'_, O>,
    ) -> Result<u32, Contradiction> {
        let (b, d) = (i / 9, i % 9);
        let x = self.cand[i];
        let permutations = PERMUTATIONS[I::presence(x) & 0x1FF];
        let y = x & permutations as u32;
        if y == 0 {
            return Err(Contradiction);
        }
        self.cand[i] = y;
        let pointing = POINTING[fold_columns(y) as usize];
        let mut lost = 0;
        for j in OTHER_BANDS[i] {
            lost |= self.narrow(j, pointing as u32);
        }
        // A row left alone in one box whose candidates lie in one column holds one cell.
        let single_rows = ((permutations & pointing) >> 32) as u32;
        let new = y & single_rows & self.unsolved[b];
        if new != 0 {
            search.stats.hidden_singles += u64::from(new.count_ones());
            if O::ACTIVE {
                let mut bits = new;
                while bits != 0 {
                    let pos = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    search.observer.event(&Event::Placed {
                        cell: b * 27 + pos,
                        digit: d as u8 + 1,
                        rule: Rule::HiddenSingle(UnitName::Row((b * 3 + pos / 9) as u8 + 1)),
                    });
                }
            }
            // The permutation step already cleared the boxes of these cells for `d`, and
            // pointing their columns in the other bands.
            lost |= self.clear_cells(b, new) & !(1 << i);
            self.cand[i] = y;
        }
        Ok(lost)
    }

    /// Updates stale digit-bands until none is stale.
    #[inline(always)]
    fn settle_bands<I: Isa, O: Observer>(
        &mut self,
        search: &mut Search<'_, O>,
    ) -> Result<(), Contradiction> {
        // The digit-bands for the next sweep: those that lost a cell since their update.
        let mut next = self.stale;
        self.stale = 0;
        while next != 0 {
            let mut sweep = next;
            next = 0;
            while sweep != 0 {
                let i = sweep.trailing_zeros() as usize;
                sweep &= sweep - 1;
                next &= !(1 << i);
                next |= self.update::<I, O>(i, search)?;
            }
        }
        Ok(())
    }

    /// Places every unsolved cell that has one candidate left (step 2). Returns how many were
    /// placed and, when none was, the cells with two candidates.
    #[inline(always)]
    fn naked_singles<I: Isa, O: Observer>(
        &mut self,
        search: &mut Search<'_, O>,
    ) -> Result<(u32, Quiet), Contradiction> {
        let mut placed = 0;
        let mut pairs = [0u32; 3];
        // Placing a single changes only its own band, so the counts of all three bands can be
        // taken up front.
        let counts = I::cell_counts(&self.cand);
        for (b, &[any, two, three]) in counts.iter().enumerate() {
            let unsolved = self.unsolved[b];
            if unsolved & !any != 0 {
                return Err(Contradiction);
            }
            pairs[b] = unsolved & two & !three;
            let mut singles = unsolved & !two;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles &= singles - 1;
                // An earlier placement of this pass may have taken the last candidate.
                let d = self.candidates_of(b, bit).trailing_zeros() as usize;
                if d == 32 {
                    return Err(Contradiction);
                }
                search.naked_single(b * 27 + bit.trailing_zeros() as usize, d as u8 + 1);
                self.place_among(d, b, bit, 0);
                placed += 1;
            }
        }
        Ok((placed, Quiet { pairs }))
    }

    /// Places every digit that has one cell left in a column (step 3). Returns how many were
    /// placed, or the contradiction of a column where a digit has no cell.
    #[inline(always)]
    fn column_singles<I: Isa, O: Observer>(
        &mut self,
        search: &mut Search<'_, O>,
    ) -> Result<u32, Contradiction> {
        // For each digit and band, the columns holding the digit in exactly one row; of those,
        // the columns no other band holds; and whether some column has no place at all.
        let scan = I::column_scan(&self.cand, &self.unsolved);
        if scan.empty {
            return Err(Contradiction);
        }
        if !scan.any_found {
            return Ok(0);
        }
        let found = scan.found;
        let mut placed = 0;
        for (b, digits) in found.iter().enumerate() {
            for (d, &cells) in digits.iter().enumerate() {
                let mut new = cells;
                while new != 0 {
                    let bit = new & new.wrapping_neg();
                    new &= new - 1;
                    // An earlier placement of this pass may have taken the cell or the digit.
                    if self.cand[b * 9 + d] & bit == 0 || self.unsolved[b] & bit == 0 {
                        return Err(Contradiction);
                    }
                    let pos = bit.trailing_zeros() as usize;
                    search.hidden_single(b * 27 + pos, d as u8 + 1, || {
                        UnitName::Column((pos % 9) as u8 + 1)
                    });
                    self.place(d, b, bit);
                    placed += 1;
                }
            }
        }
        Ok(placed)
    }

    /// Propagates to the fixpoint of the three steps; on a quiet unsolved board, returns what
    /// to branch on.
    #[inline(always)]
    fn propagate<I: Isa, O: Observer>(
        &mut self,
        search: &mut Search<'_, O>,
    ) -> Result<Option<Quiet>, Contradiction> {
        loop {
            self.settle_bands::<I, O>(search)?;
            if self.is_solved() {
                return Ok(None);
            }
            let (placed, quiet) = self.naked_singles::<I, O>(search)?;
            if placed != 0 {
                continue;
            }
            if self.column_singles::<I, O>(search)? == 0 {
                return Ok(Some(quiet));
            }
        }
    }

    /// The digits (bit `d`) that may still go in cell `bit` of band `b`.
    #[inline(always)]
    fn candidates_of(&self, b: usize, bit: u32) -> u32 {
        let mut digits = 0;
        for d in (0..9).rev() {
            digits = (digits << 1) | u32::from(lane(&self.cand, b * 9 + d) & bit != 0);
        }
        digits
    }

    #[inline(always)]
    fn is_solved(&self) -> bool {
        (self.unsolved[0] | self.unsolved[1] | self.unsolved[2]) == 0
    }

    /// The cell to branch on, as (band, bit): among the cells with the fewest candidates (two,
    /// nearly always), the one with the most unsolved cells in its row, column and box, the
    /// first in reading order on a tie. Its guesses then reach the most of the grid.
    #[inline(always)]
    fn branch_cell<I: Isa>(&self, quiet: &Quiet) -> (usize, u32) {
        I::best_pair(&quiet.pairs, &self.unsolved).unwrap_or_else(|| self.fewest_candidates())
    }

    /// When no cell has two candidates: the cell with the fewest, ties broken as above.
    #[inline(never)]
    fn fewest_candidates(&self) -> (usize, u32) {
        let mut best = (0, 0, u32::MAX, 0);
        for b in 0..3 {
            let mut cells = self.unsolved[b];
            while cells != 0 {
                let bit = cells & cells.wrapping_neg();
                cells &= cells - 1;
                let n = self.candidates_of(b, bit).count_ones();
                let reach = unsolved_peers(&self.unsolved, b, bit.trailing_zeros() as usize);
                if n < best.2 || (n == best.2 && reach > best.3) {
                    best = (b, bit, n, reach);
                }
            }
        }
        (best.0, best.1)
    }

    /// The grid of placed cells.
    #[inline(always)]
    fn placed_grid<I: Isa>(&self) -> Grid {
        Grid::from_cells_trusted(I::placed_cells(&self.cand, &self.unsolved))
    }
}

/// Runs the `fast` engine on `grid`, whose givens are known not to conflict.
///
/// The engine is compiled three times from the same source: for the x86-64 baseline, with AVX2
/// and BMI, and with AVX-512 (including VPOPCNTDQ), chosen at run time. All make the same moves
/// in the same order, so outcomes and counters do not depend on the machine.
pub(crate) fn search<O: Observer>(
    grid: &Grid,
    search: &mut Search<'_, O>,
) -> Result<(), GivensConflict> {
    match instance() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `instance` chose this one after detecting its features.
        Instance::Avx512 => unsafe { avx512::run(grid, search) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Instance::Avx2 => unsafe { avx2::run(grid, search) },
        Instance::Portable => portable::run(grid, search),
    }
}

/// The compiled instances of the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Instance {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

/// The fastest instance this CPU can run, detected once.
fn instance() -> Instance {
    use std::sync::OnceLock;
    static CHOSEN: OnceLock<Instance> = OnceLock::new();
    *CHOSEN.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let avx2 =
                has!("avx2") && has!("bmi1") && has!("bmi2") && has!("lzcnt") && has!("popcnt");
            // Every feature the AVX-512 instance is compiled with (see `search_instance!`).
            let avx512 = has!("avx512f")
                && has!("avx512vl")
                && has!("avx512bw")
                && has!("avx512dq")
                && has!("avx512vpopcntdq");
            if avx2 && avx512 {
                return Instance::Avx512;
            }
            if avx2 {
                return Instance::Avx2;
            }
        }
        Instance::Portable
    })
}

/// The board with the givens placed, built in bulk: each digit loses the rows, boxes and
/// columns of its givens, and every digit loses the cells of other digits' givens. Two givens
/// of one digit in one row, column or box are found on the way.
#[inline(always)]
fn initial_board<I: Isa>(grid: &Grid) -> Result<Board, GivensConflict> {
    let givens = I::givens(grid.cells());
    // Columns per digit and band; two bands sharing a column for one digit is a conflict.
    let mut columns = [0u32; 9];
    let mut clash = 0u32;
    for d in 0..9 {
        let [c0, c1, c2] = [0, 1, 2].map(|b| fold_columns(givens[b][d]));
        clash |= (c0 & c1) | (c0 & c2) | (c1 & c2);
        columns[d] = spread_columns(c0 | c1 | c2);
    }
    let mut board = Board::new();
    for b in 0..3 {
        let filled = givens[b].iter().fold(0, |acc, &g| acc | g);
        board.unsolved[b] = BAND & !filled;
        for d in 0..9 {
            let own = givens[b][d];
            // Two givens of the digit in one mini-row, or in one row or box of the band.
            clash |= own & (own >> 1) & 0o333_333_333;
            clash |= own & (own >> 2) & 0o111_111_111;
            let outside = GIVEN_ROWS_AND_BOXES[I::presence(own)];
            clash |= outside >> 31;
            board.cand[b * 9 + d] = (outside & !filled & !columns[d]) | own;
        }
    }
    // Every digit-band lost cells, or is whole and updating it changes nothing.
    board.stale = (1 << 27) - 1;
    if clash != 0 {
        return Err(GivensConflict);
    }
    Ok(board)
}

/// Stamps out the recursive search for one instruction set. Everything it calls is
/// `#[inline(always)]`, so the whole engine is compiled with the instance's target features.
macro_rules! search_instance {
    ($name:ident, $isa:ty $(, $features:literal)?) => {
        mod $name {
            use super::*;

            $(#[target_feature(enable = $features)])?
            pub(super) fn run<O: Observer>(
                grid: &Grid,
                search: &mut Search<'_, O>,
            ) -> Result<(), GivensConflict> {
                let mut board = initial_board::<$isa>(grid)?;
                // A stop is recorded in `search.stop`; nothing else to do with it here.
                let _ = node(&mut board, 1, search);
                Ok(())
            }

            /// One entry of the search procedure at `depth`: propagate, then report or branch.
            $(#[target_feature(enable = $features)])?
            fn node<O: Observer>(
                board: &mut Board,
                depth: u64,
                search: &mut Search<'_, O>,
            ) -> Result<(), Stop> {
                search.enter(depth)?;
                let propagated = board.propagate::<$isa, O>(search);
                if O::ACTIVE {
                    search.observer.event(&Event::Board(&board.placed_grid::<$isa>()));
                }
                let quiet = match propagated {
                    Err(Contradiction) => {
                        if O::ACTIVE {
                            search.observer.event(&Event::Contradiction);
                        }
                        return Ok(());
                    }
                    Ok(None) => return search.solution(|| board.placed_grid::<$isa>()),
                    Ok(Some(quiet)) => quiet,
                };
                let (b, bit) = board.branch_cell::<$isa>(&quiet);
                let cell = b * 27 + bit.trailing_zeros() as usize;
                let all = board.candidates_of(b, bit);
                let mut digits = all;
                while digits != 0 {
                    let d = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    search.guess(cell, d as u8 + 1, depth + 1);
                    if digits == 0 {
                        // The last candidate: no need to keep the parent board.
                        board.place_among(d, b, bit, all & !(1 << d));
                        node(board, depth + 1, search)?;
                    } else {
                        let mut child = board.child(d, b, bit, all & !(1 << d));
                        node(&mut child, depth + 1, search)?;
                    }
                    search.backtrack(cell, d as u8 + 1, depth + 1);
                }
                Ok(())
            }
        }
    };
}

search_instance!(portable, Portable);
#[cfg(target_arch = "x86_64")]
search_instance!(avx2, Avx2, "avx2,bmi1,bmi2,lzcnt,popcnt");
#[cfg(target_arch = "x86_64")]
search_instance!(
    avx512,
    Avx512,
    "avx512f,avx512vl,avx512bw,avx512dq,avx512vpopcntdq,avx2,bmi1,bmi2,lzcnt,popcnt"
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{NoTrace, SearchStats, Sink};
    use std::ops::ControlFlow;

    /// Runs one instance and returns its solutions (up to 3) and counters.
    fn run_with(
        grid: &Grid,
        run: fn(&Grid, &mut Search<'_, NoTrace>) -> Result<(), GivensConflict>,
    ) -> (Vec<Grid>, SearchStats) {
        let mut found = Vec::new();
        let mut on_solution = |g: &Grid| {
            found.push(*g);
            if found.len() == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let mut observer = NoTrace;
        let mut search = Search::new(u64::MAX, &mut observer, Sink::Each(&mut on_solution));
        run(grid, &mut search).unwrap();
        let stats = search.stats;
        (found, stats)
    }

    /// Puzzles for the instance comparison: a few by hand, and a sample of every shipped set.
    fn sample_puzzles() -> Vec<Grid> {
        let mut puzzles: Vec<Grid> = [
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
            ".................................................................................",
            "8.........95.......76.........426798...571243...893165......916....3.487....1.532",
        ]
        .iter()
        .map(|p| p.parse().unwrap())
        .collect();
        puzzles.extend(crate::test_data::shipped_puzzles(97));
        puzzles
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn every_instance_makes_the_same_moves() {
        let chosen = instance();
        if chosen == Instance::Portable {
            eprintln!("skipped: this CPU has no AVX2/BMI2, only the portable instance can run");
            return;
        }
        for grid in sample_puzzles() {
            let portable = run_with(&grid, portable::run::<NoTrace>);
            assert!(!portable.0.is_empty());
            // SAFETY: `instance` detected the features of the instance it chose, which include
            // AVX2's.
            let avx2 = run_with(&grid, |g, s| unsafe { avx2::run::<NoTrace>(g, s) });
            assert_eq!(portable, avx2, "{grid}");
            if chosen == Instance::Avx512 {
                // SAFETY: as above.
                let avx512 = run_with(&grid, |g, s| unsafe { avx512::run::<NoTrace>(g, s) });
                assert_eq!(portable, avx512, "{grid}");
            }
        }
    }
}

#[cfg(test)]
mod conflict_tests {
    use super::*;
    use crate::layout::Layout;
    use proptest::prelude::*;

    proptest! {
        /// The engine's own conflict finding agrees with the layout's givens check.
        #[test]
        fn engine_finds_exactly_the_conflicts_the_layout_finds(
            cells in proptest::collection::vec((0usize..81, 1u8..=9), 0..30)
        ) {
            let mut grid = Grid::EMPTY;
            for (i, v) in cells {
                grid.set(i, v);
            }
            let layout_says = Layout::standard().check_givens(&grid).is_err();
            prop_assert_eq!(initial_board::<Portable>(&grid).is_err(), layout_says, "{}", grid);
        }
    }
}
