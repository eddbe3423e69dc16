//! The instruction-set instances of the `fast` engine, and the only unsafe code of its
//! primitives.
//!
//! A few steps of the search have a faster form with AVX2/BMI2 or AVX-512. Each form is a
//! method of [`Isa`], implemented by a token type whose value proves that the CPU has the
//! features the method uses: [`Portable`] needs none; [`PortableV2`] (the same methods, for the
//! portable code compiled for x86-64-v2), [`Avx2`] and [`Avx512`] are made only by their
//! `detect` constructors, after `is_x86_feature_detected!`. So a SIMD method cannot be
//! called, from any code, on a CPU that lacks its features: without detection there is no
//! `self` to call it on. The search instances compiled with those features (`#[target_feature]`,
//! see [`mod@super::search`]) take the token too, and the one dispatch in [`super`] enters them.
//!
//! Besides the intrinsics, the lane accessor [`lane`] is unsafe code: one volatile read of a
//! candidate word, for the store-forwarding reason on the [engine's page](super).

// Bands, digits and rows index parallel arrays; index loops say that most plainly.
#![allow(clippy::needless_range_loop)]

use super::tables::{BAND, ROW_INFO, fold_columns, spread_columns, unsolved_peers};
// Only the x86-64 instances look these up.
#[cfg(target_arch = "x86_64")]
use super::tables::{COLUMN_CELLS_32, OTHER_BANDS, PEERS_IN_BAND, ROW_LOW};

/// The few primitive steps that have a faster form on some instruction sets. Each form gives
/// the same answer; the search does not know which one it runs on.
///
/// A value of an implementing type is a proof that the CPU running the program has every
/// feature its methods use: the methods take it as `self` and may use those features'
/// intrinsics, `self` being the proof. The search is generic over `Isa` and passes the value
/// down to every call.
///
/// # Safety
/// Implement this only for a type whose values cannot exist on a CPU that lacks a feature its
/// methods use: a zero-sized token with a private field, made only by a constructor that has
/// detected those features (as [`Avx2::detect`] does), or a type whose methods need no
/// feature at all ([`Portable`]).
pub(super) unsafe trait Isa: Copy {
    /// Whether counting the bits of a word is one instruction (POPCNT) here; without it a
    /// count is a dozen, and the search counts as rarely as it can (the same numbers).
    const ONE_INSTRUCTION_COUNT: bool = false;

    /// The row-box presence index of digit-band `x`: bit `row * 3 + box` set when the digit
    /// can still go somewhere in that row and box.
    fn presence(self, x: u32) -> usize;
    /// Among the `pairs` cells (per band), the one with the most unsolved peers, as (band,
    /// bit); the first in reading order on a tie; `None` without pairs. See
    /// [`super::board::Board::branch_cell`].
    #[inline(always)]
    fn best_pair(self, pairs: &[u32; 3], unsolved: &[u32; 3]) -> Option<(usize, u32)> {
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
    /// Takes the cells `cells` of band `b` from every digit but the one `found` places in each
    /// (`found`: per digit-band, the cells it places): the step of
    /// [`super::board::Board::place_found`] for one band. Returns the digits (bit `d`) that lost
    /// a cell, or `None` when a digit was placed in a cell it had lost.
    #[inline(always)]
    fn remove_found(
        self,
        cand: &mut [u32; 27],
        found: &[u32; 27],
        b: usize,
        cells: u32,
    ) -> Option<u32> {
        // The band's nine lanes read, computed and written back whole, which the compiler
        // turns into vectors (measured 2-4% faster on hard sets and serg than a lane at a time
        // with the lost digits summed as a tree).
        let at = 9 * b;
        let own: [u32; 9] = found[at..at + 9].try_into().unwrap();
        let old: [u32; 9] = cand[at..at + 9].try_into().unwrap();
        let mut missing = 0;
        let mut hit = 0;
        let mut new = [0u32; 9];
        for d in 0..9 {
            missing |= own[d] & !old[d];
            let gone = cells & !own[d];
            new[d] = old[d] & !gone;
            hit |= u32::from(old[d] & gone != 0) << d;
        }
        cand[at..at + 9].copy_from_slice(&new);
        if missing != 0 {
            return None;
        }
        Some(hit)
    }

    /// One sweep of the digit-bands `sweep` (step 1 on the [engine's page](super)) in a few
    /// vectors, with the outcome of the board's loop over them in index order
    /// ([`super::board::Board::settle_bands`]); `None` where only that loop does it.
    #[inline(always)]
    fn sweep(self, _cand: &mut [u32; 27], _unsolved: &mut [u32; 3], _sweep: u32) -> Option<Swept> {
        None
    }

    /// The board the givens `cells` leave, as [`super::board::initial_board`] builds it: the
    /// candidates of every digit-band and the unsolved cells written to `cand` and
    /// `unsolved`; `None` where only that function's loop does it.
    #[inline(always)]
    fn initial(
        self,
        _cells: &[u8; 81],
        _cand: &mut [u32; 27],
        _unsolved: &mut [u32; 3],
    ) -> Option<Initial> {
        None
    }

    /// Per band: the cells with at least one, at least two and at least three candidates.
    #[inline(always)]
    fn cell_counts(self, cand: &[u32; 27]) -> [[u32; 3]; 3] {
        // A plain loop, not `array::from_fn`: that one is not always inlined, and out of line
        // it is compiled without the instance's target features.
        let mut counts = [[0u32; 3]; 3];
        for (b, count) in counts.iter_mut().enumerate() {
            let (mut any, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = lane(cand, b * 9 + d);
                three |= two & x;
                two |= any & x;
                any |= x;
            }
            *count = [any, two, three];
        }
        counts
    }

    /// The 81 cell values of the placed cells (0 where unsolved).
    #[inline(always)]
    fn placed_cells(self, cand: &[u32; 27], unsolved: &[u32; 3]) -> [u8; 81] {
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
    fn givens(self, cells: &[u8; 81]) -> [[u32; 9]; 3] {
        // Per band and value; value 0, the blanks, is collected and ignored.
        let mut by_value = [[0u32; 10]; 3];
        for (b, band) in cells.chunks_exact(27).enumerate() {
            for (pos, &v) in band.iter().enumerate() {
                by_value[b][v as usize] |= 1 << pos;
            }
        }
        std::array::from_fn(|b| std::array::from_fn(|d| by_value[b][d + 1]))
    }

    /// The column scan of [`super::board::Board::column_singles`].
    #[inline(always)]
    fn column_scan(self, cand: &[u32; 27], unsolved: &[u32; 3]) -> ColumnScan {
        column_scan_portable(cand, unsolved)
    }
}

/// How a sweep of digit-band updates, with the hidden singles it found placed, ended
/// ([`Isa::sweep`]): with the hidden singles counted, and the digit-bands that lost a cell
/// since their update; or in a contradiction, with the hidden singles found before it.
/// Only the AVX-512 instance sweeps in vectors, so elsewhere nothing makes one.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) enum Swept {
    Done { singles: u64, next: u32 },
    Contradiction { singles: u64 },
}

/// What the givens show before any propagation ([`Isa::initial`]).
pub(super) struct Initial {
    /// Two givens of one digit share a row, column or box.
    pub(super) conflict: bool,
    /// An unsolved cell has no candidate, or a digit no place in some column.
    pub(super) dead: bool,
}

/// Where each digit has one cell left in a column, per band and digit (unsolved cells only),
/// and whether some column has no cell left for some digit. See [`super::board::Board::column_singles`].
pub(super) struct ColumnScan {
    /// Per band and digit, the cells placed by a column single.
    pub(super) found: [[u32; 9]; 3],
    /// Whether `found` holds any cell.
    pub(super) any_found: bool,
    /// Whether some digit has no cell left in some column.
    pub(super) empty: bool,
}

/// The column scan in plain Rust, laid out digit by digit so the compiler can use vectors.
#[inline(always)]
fn column_scan_portable(cand: &[u32; 27], unsolved: &[u32; 3]) -> ColumnScan {
    // Per band and digit: the columns holding the digit in at least one row, and in exactly
    // one; each step a loop over the nine digits, which the compiler turns into vectors.
    let mut any = [[0u32; 9]; 3];
    let mut one = [[0u32; 9]; 3];
    for b in 0..3 {
        for d in 0..9 {
            let x = cand[b * 9 + d];
            let (r0, r1, r2) = (x & 0x1FF, (x >> 9) & 0x1FF, x >> 18);
            any[b][d] = fold_columns(x);
            one[b][d] = exactly_one(r0, r1, r2);
        }
    }
    let mut found = [[0u32; 9]; 3];
    let mut empty = 0u32;
    let mut any_found = 0u32;
    for d in 0..9 {
        let [a0, a1, a2] = [any[0][d], any[1][d], any[2][d]];
        empty |= !(a0 | a1 | a2) & 0x1FF;
        let one_band = exactly_one(a0, a1, a2);
        for b in 0..3 {
            found[b][d] = cand[b * 9 + d] & spread_columns(one[b][d] & one_band) & unsolved[b];
            any_found |= found[b][d];
        }
    }
    ColumnScan {
        found,
        any_found: any_found != 0,
        empty: empty != 0,
    }
}

/// The bits set in exactly one of `a`, `b` and `c`.
#[inline(always)]
fn exactly_one(a: u32, b: u32, c: u32) -> u32 {
    (a ^ b ^ c) & !((a & b) | (b & c) | (a & c))
}

/// Digit-band `i` of `cand`, read on its own. Lanes are written one at a time, and a vector load
/// of lanes still in the store buffer waits until they reach the cache (see the
/// [engine's page](super)); a volatile read cannot be merged into one.
#[inline(always)]
pub(super) fn lane(cand: &[u32; 27], i: usize) -> u32 {
    let x = &cand[i];
    // SAFETY: `x` is a valid, aligned reference.
    unsafe { std::ptr::read_volatile(x) }
}

/// Plain Rust, for every target: needs no feature, so anyone may make one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Portable;

// SAFETY: its methods use no CPU feature beyond the target's baseline.
unsafe impl Isa for Portable {
    #[inline(always)]
    fn presence(self, x: u32) -> usize {
        (ROW_INFO[(x & 0x1FF) as usize] & 7) as usize
            | ((ROW_INFO[((x >> 9) & 0x1FF) as usize] & 7) as usize) << 3
            | ((ROW_INFO[(x >> 18) as usize] & 7) as usize) << 6
    }
}

/// The portable code compiled for x86-64-v2 (SSE3 to SSE4.2 and POPCNT, which every x86-64
/// CPU since about 2009 has): the proof that this CPU has them, made only by
/// [`PortableV2::detect`]. Its methods are [`Portable`]'s; only the compiler's choice of
/// instructions (and a bit count being one instruction) differs.
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PortableV2 {
    /// Private: no value without detection.
    _detected: (),
}

#[cfg(target_arch = "x86_64")]
impl PortableV2 {
    /// The token, when this CPU has the x86-64-v2 features the instance is compiled with.
    pub(super) fn detect() -> Option<PortableV2> {
        use std::arch::is_x86_feature_detected as has;
        let all =
            has!("sse3") && has!("ssse3") && has!("sse4.1") && has!("sse4.2") && has!("popcnt");
        all.then_some(PortableV2 { _detected: () })
    }
}

// SAFETY: a `PortableV2` exists only after `PortableV2::detect` found the features its search
// instance is compiled with; its methods are `Portable`'s and use no intrinsic.
#[cfg(target_arch = "x86_64")]
unsafe impl Isa for PortableV2 {
    const ONE_INSTRUCTION_COUNT: bool = true;

    #[inline(always)]
    fn presence(self, x: u32) -> usize {
        Portable.presence(x)
    }
}

/// AVX2, BMI1/2, LZCNT and POPCNT (x86-64): the proof that this CPU has them, made only by
/// [`Avx2::detect`].
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Avx2 {
    /// Private: no value without detection.
    _detected: (),
}

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The token, when this CPU has AVX2, BMI1, BMI2, LZCNT and POPCNT: the features the AVX2
    /// search instance is compiled with.
    pub(super) fn detect() -> Option<Avx2> {
        use std::arch::is_x86_feature_detected as has;
        let all = has!("avx2") && has!("bmi1") && has!("bmi2") && has!("lzcnt") && has!("popcnt");
        all.then_some(Avx2 { _detected: () })
    }
}

// SAFETY: an `Avx2` exists only after `Avx2::detect` found every feature its methods use.
#[cfg(target_arch = "x86_64")]
unsafe impl Isa for Avx2 {
    const ONE_INSTRUCTION_COUNT: bool = true;

    #[inline(always)]
    fn remove_found(
        self,
        cand: &mut [u32; 27],
        found: &[u32; 27],
        b: usize,
        cells: u32,
    ) -> Option<u32> {
        use std::arch::x86_64::*;
        // Digits 0..8 in one vector of eight lanes, digit 8 alone (measured 3-6% faster on every
        // set than the portable loop). Plain loads and stores, not masked ones: the steps after
        // this read single lanes, and a plain store forwards to them (nine lanes masked in one
        // AVX-512 vector measured 3% slower than this).
        // SAFETY: `self` proves AVX2; the vector reads and writes lanes 9b..9b+8 of 27.
        unsafe {
            let at = 9 * b;
            let own = _mm256_loadu_si256(found.as_ptr().add(at).cast());
            let old = _mm256_loadu_si256(cand.as_ptr().add(at).cast());
            let (own8, old8) = (found[at + 8], cand[at + 8]);
            let missing = _mm256_andnot_si256(old, own);
            if _mm256_testz_si256(missing, missing) == 0 || own8 & !old8 != 0 {
                return None;
            }
            let gone = _mm256_andnot_si256(own, _mm256_set1_epi32(cells as i32));
            let gone8 = cells & !own8;
            _mm256_storeu_si256(
                cand.as_mut_ptr().add(at).cast(),
                _mm256_andnot_si256(gone, old),
            );
            cand[at + 8] = old8 & !gone8;
            // A lane whose digit kept none of the cells compares equal to zero.
            let kept = _mm256_cmpeq_epi32(_mm256_and_si256(old, gone), _mm256_setzero_si256());
            let hit = !(_mm256_movemask_ps(_mm256_castsi256_ps(kept)) as u32) & 0xFF;
            Some(hit | u32::from(old8 & gone8 != 0) << 8)
        }
    }

    #[inline(always)]
    fn placed_cells(self, cand: &[u32; 27], unsolved: &[u32; 3]) -> [u8; 81] {
        use std::arch::x86_64::*;
        // Each digit-band's placed cells spread to one byte a cell (byte k takes byte k / 8 of
        // the word and tests bit k % 8), the digit kept where the bit is set. A band's 27 bytes
        // are stored whole, the 5 past them overwritten by the next band's (or left in the
        // padding).
        let mut cells = [0u8; 96];
        // SAFETY: `self` proves AVX2; each store writes bytes 27b..27b+32 of 96.
        unsafe {
            let spread = _mm256_setr_epi8(
                0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3,
                3, 3, 3, 3,
            );
            let bits = _mm256_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
            for b in 0..3 {
                let solved = BAND & !unsolved[b];
                let mut band = _mm256_setzero_si256();
                for d in 0..9 {
                    let word = _mm256_set1_epi32((cand[b * 9 + d] & solved) as i32);
                    let bytes = _mm256_and_si256(_mm256_shuffle_epi8(word, spread), bits);
                    let placed = _mm256_cmpeq_epi8(bytes, bits);
                    let digit = _mm256_set1_epi8(d as i8 + 1);
                    band = _mm256_or_si256(band, _mm256_and_si256(placed, digit));
                }
                _mm256_storeu_si256(cells.as_mut_ptr().add(27 * b).cast(), band);
            }
        }
        let mut placed = [0u8; 81];
        placed.copy_from_slice(&cells[..81]);
        placed
    }

    #[inline(always)]
    fn givens(self, cells: &[u8; 81]) -> [[u32; 9]; 3] {
        use std::arch::x86_64::*;
        // A band's 27 cells in one vector (the bytes past them masked off), compared with each
        // digit: one bit a cell, as the loop sets them.
        let mut padded = [0u8; 96];
        padded[..81].copy_from_slice(cells);
        let mut givens = [[0u32; 9]; 3];
        for (b, band) in givens.iter_mut().enumerate() {
            // SAFETY: `self` proves AVX2; the load reads bytes 27b..27b+32 of 96.
            unsafe {
                let v = _mm256_loadu_si256(padded.as_ptr().add(27 * b).cast());
                for (d, cells) in band.iter_mut().enumerate() {
                    let same = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(d as i8 + 1));
                    *cells = _mm256_movemask_epi8(same) as u32 & BAND;
                }
            }
        }
        givens
    }

    #[inline(always)]
    fn presence(self, x: u32) -> usize {
        debug_assert!(std::arch::is_x86_feature_detected!("bmi2"));
        // Bit 3k of each row becomes "the row has a cell in box k"; keep those nine bits.
        let boxes = x | (x >> 1) | (x >> 2);
        // SAFETY: `self` proves BMI2.
        unsafe { std::arch::x86_64::_pext_u32(boxes, 0o111_111_111) as usize }
    }
}

/// AVX-512 (F, VL, BW, DQ, VPOPCNTDQ) on top of [`Avx2`]'s features, 16 lanes a compare: the
/// proof that this CPU has them all, made only by [`Avx512::detect`].
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Avx512 {
    /// The AVX2 features are part of the proof. Private: no value without detection.
    avx2: Avx2,
}

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// The token, when this CPU has AVX-512 F, VL, BW, DQ and VPOPCNTDQ besides the features
    /// of [`Avx2::detect`]: the features the AVX-512 search instance is compiled with.
    pub(super) fn detect() -> Option<Avx512> {
        use std::arch::is_x86_feature_detected as has;
        let avx2 = Avx2::detect()?;
        let all = has!("avx512f")
            && has!("avx512vl")
            && has!("avx512bw")
            && has!("avx512dq")
            && has!("avx512vpopcntdq");
        all.then_some(Avx512 { avx2 })
    }
}

// Vector steps shared by the AVX-512 forms, on 16 lanes of 32 bits. Macros, not closures or
// functions: a closure may be compiled out of line, without its caller's target features, and
// then every intrinsic in it is a call. The caller brings `std::arch::x86_64::*` into scope.
#[cfg(target_arch = "x86_64")]
macro_rules! set {
    ($v:expr) => {
        _mm512_set1_epi32($v as i32)
    };
}
#[cfg(target_arch = "x86_64")]
macro_rules! and {
    ($a:expr, $b:expr) => {
        _mm512_and_si512($a, $b)
    };
}
#[cfg(target_arch = "x86_64")]
macro_rules! or3 {
    ($a:expr, $b:expr, $c:expr) => {
        _mm512_or_si512(_mm512_or_si512($a, $b), $c)
    };
}
// Bits of row 0 of a band to all three rows.
#[cfg(target_arch = "x86_64")]
macro_rules! rows3 {
    ($v:expr) => {
        or3!($v, _mm512_slli_epi32::<9>($v), _mm512_slli_epi32::<18>($v))
    };
}
// The columns (9 bits) where each lane's cells lie.
#[cfg(target_arch = "x86_64")]
macro_rules! columns_of {
    ($v:expr) => {{
        let v = $v;
        and!(
            or3!(v, _mm512_srli_epi32::<9>(v), _mm512_srli_epi32::<18>(v)),
            set!(0x1FF)
        )
    }};
}

// SAFETY: an `Avx512` exists only after `Avx512::detect` found every feature its methods use.
#[cfg(target_arch = "x86_64")]
unsafe impl Isa for Avx512 {
    const ONE_INSTRUCTION_COUNT: bool = true;

    #[inline(always)]
    fn presence(self, x: u32) -> usize {
        self.avx2.presence(x)
    }

    #[inline(always)]
    fn best_pair(self, pairs: &[u32; 3], unsolved: &[u32; 3]) -> Option<(usize, u32)> {
        use std::arch::x86_64::*;
        debug_assert!(std::arch::is_x86_feature_detected!("avx512vpopcntdq"));
        // All 27 cells of a band at once, in two vectors of 16 lanes (lane = position in the
        // band): count unsolved peers with a vector popcount, keep the largest key among the
        // pair cells. A key orders by reach, then earlier band, then earlier cell:
        // reach << 7 | (2 - band) << 5 | (31 - pos).
        // SAFETY: `self` proves AVX-512F and VPOPCNTDQ; the tables are 32 lanes.
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
    fn placed_cells(self, cand: &[u32; 27], unsolved: &[u32; 3]) -> [u8; 81] {
        use std::arch::x86_64::*;
        // Per digit, its placed cells as an 81-bit mask (64 + 17 byte lanes), blended in.
        // SAFETY: `self` proves AVX-512F/BW; the stores write bytes 0..64 and,
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
    fn remove_found(
        self,
        cand: &mut [u32; 27],
        found: &[u32; 27],
        b: usize,
        cells: u32,
    ) -> Option<u32> {
        self.avx2.remove_found(cand, found, b, cells)
    }

    #[inline(always)]
    fn sweep(self, cand: &mut [u32; 27], unsolved: &mut [u32; 3], sweep: u32) -> Option<Swept> {
        // SAFETY: `self` proves every feature `sweep_avx512` enables.
        unsafe { sweep_avx512(cand, unsolved, sweep) }
    }

    #[inline(always)]
    fn initial(
        self,
        cells: &[u8; 81],
        cand: &mut [u32; 27],
        unsolved: &mut [u32; 3],
    ) -> Option<Initial> {
        use std::arch::x86_64::*;
        // The cells of the units (three masks) that each lane has a cell in.
        macro_rules! units_hit {
            ($v:expr, $units:expr) => {{
                let (v, [u0, u1, u2]) = ($v, $units);
                or3!(
                    _mm512_maskz_mov_epi32(_mm512_test_epi32_mask(v, set!(u0)), set!(u0)),
                    _mm512_maskz_mov_epi32(_mm512_test_epi32_mask(v, set!(u1)), set!(u1)),
                    _mm512_maskz_mov_epi32(_mm512_test_epi32_mask(v, set!(u2)), set!(u2))
                )
            }};
        }
        const ROWS: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];
        const BOXES: [u32; 3] = [0o7 * ROW_LOW, 0o70 * ROW_LOW, 0o700 * ROW_LOW];
        // The loop's steps as vectors of nine digit lanes, one per band: the givens of each
        // digit; the columns that two bands give a digit (a conflict) and those it has; a
        // digit's rows and boxes with givens, as many rows and as many boxes as givens unless
        // two share one (a conflict); the cells outside them and not given or in a column
        // given, with the digit's own givens; cells and columns left with no digit.
        // SAFETY: `self` proves AVX-512F/BW/DQ/VPOPCNTDQ; the loads read bytes 0..64 and,
        // masked, 64..81 of the 81; the stores write lanes 9b..9b+8 of 27.
        unsafe {
            let low = _mm512_loadu_si512(cells.as_ptr().cast());
            let high = _mm512_maskz_loadu_epi8((1u64 << 17) - 1, cells.as_ptr().add(64).cast());
            // Digits 1..8 as 64-bit lanes of the cells holding them (0..63 and 64..80), 9 alone.
            let (mut lo, mut hi) = (_mm512_setzero_si512(), _mm512_setzero_si512());
            for d in 0..8u8 {
                let digit = _mm512_set1_epi8(d as i8 + 1);
                lo = _mm512_mask_set1_epi64(lo, 1 << d, _mm512_cmpeq_epi8_mask(low, digit) as i64);
                hi = _mm512_mask_set1_epi64(hi, 1 << d, _mm512_cmpeq_epi8_mask(high, digit) as i64);
            }
            let nine = _mm512_set1_epi8(9);
            let (lo9, hi9) = (
                _mm512_cmpeq_epi8_mask(low, nine),
                _mm512_cmpeq_epi8_mask(high, nine),
            );
            let (lo_filled, hi_filled) = (
                _mm512_test_epi8_mask(low, low),
                _mm512_test_epi8_mask(high, high),
            );
            let cut = |lo: u64, hi: u64| {
                [
                    lo as u32 & BAND,
                    (lo >> 27) as u32 & BAND,
                    ((lo >> 54) | (hi << 10)) as u32 & BAND,
                ]
            };
            let band = _mm512_set1_epi64(i64::from(BAND));
            let wide = [
                _mm512_and_si512(lo, band),
                _mm512_and_si512(_mm512_srli_epi64::<27>(lo), band),
                _mm512_and_si512(
                    _mm512_or_si512(_mm512_srli_epi64::<54>(lo), _mm512_slli_epi64::<10>(hi)),
                    band,
                ),
            ];
            let last = cut(lo9, hi9);
            let filled = cut(lo_filled, hi_filled);
            let mut given = [_mm512_setzero_si512(); 3];
            for b in 0..3 {
                let eight = _mm512_zextsi256_si512(_mm512_cvtepi64_epi32(wide[b]));
                given[b] = _mm512_mask_set1_epi32(eight, 1 << 8, last[b] as i32);
            }
            let lanes: __mmask16 = 0x1FF;
            let columns = [
                columns_of!(given[0]),
                columns_of!(given[1]),
                columns_of!(given[2]),
            ];
            let two_bands = _mm512_ternarylogic_epi32::<0xE8>(columns[0], columns[1], columns[2]);
            let mut conflict = _mm512_test_epi32_mask(two_bands, two_bands) != 0;
            let taken = or3!(columns[0], columns[1], columns[2]);
            let column_cells = rows3!(taken);
            let mut dead = false;
            let mut places = _mm512_setzero_si512();
            for b in 0..3 {
                let g = given[b];
                let rows = units_hit!(g, ROWS);
                let boxes = units_hit!(g, BOXES);
                let count = _mm512_popcnt_epi32(g);
                let nine_times = _mm512_add_epi32(_mm512_slli_epi32::<3>(count), count);
                conflict |= _mm512_cmpneq_epi32_mask(_mm512_popcnt_epi32(rows), nine_times)
                    | _mm512_cmpneq_epi32_mask(_mm512_popcnt_epi32(boxes), nine_times)
                    != 0;
                let blocked = _mm512_or_si512(or3!(rows, boxes, column_cells), set!(filled[b]));
                let x = _mm512_maskz_mov_epi32(
                    lanes,
                    _mm512_or_si512(_mm512_andnot_si512(blocked, set!(BAND)), g),
                );
                unsolved[b] = BAND & !filled[b];
                dead |= unsolved[b] & !(_mm512_reduce_or_epi32(x) as u32) != 0;
                places = _mm512_or_si512(places, x);
                // Plain stores of eight lanes and one, as the sweep stores them.
                _mm256_storeu_si256(
                    cand.as_mut_ptr().add(9 * b).cast(),
                    _mm512_castsi512_si256(x),
                );
                cand[9 * b + 8] = _mm_cvtsi128_si32(_mm512_extracti32x4_epi32::<2>(x)) as u32;
            }
            dead |= _mm512_mask_cmpneq_epi32_mask(lanes, columns_of!(places), set!(0x1FF)) != 0;
            Some(Initial { conflict, dead })
        }
    }

    #[inline(always)]
    fn column_scan(self, cand: &[u32; 27], unsolved: &[u32; 3]) -> ColumnScan {
        use std::arch::x86_64::*;
        // Nine digit lanes per band; ternary logic does each three-input step in one go.
        // SAFETY: `self` proves AVX-512F; masked loads read lanes 0..9 of 9 * b.
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

/// [`Isa::sweep`] with AVX-512. Out of line: inlined into the search, it changed the code of the
/// loop that does the other sweeps, and the hard sets ran 4% slower.
///
/// # Safety
/// The CPU must have the features enabled here; [`Avx512::sweep`] calls it with the proof.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx512vpopcntdq,avx2")]
unsafe fn sweep_avx512(cand: &mut [u32; 27], unsolved: &mut [u32; 3], sweep: u32) -> Option<Swept> {
    use std::arch::x86_64::*;
    // The digit-bands of one band are updated together, nine digit lanes, band after band:
    // an update changes only the same digit's lanes in the other bands, so this is the
    // loop's order. The tables' lookups are computed instead (the compiler turns the
    // three-input steps into ternary logic):
    // - presence: bit 9r + 3k when row r has a cell in box k;
    // - the row-box pairs of a permutation still possible: pair (r, k) needs, in the two
    //   other rows, the two other boxes, one way or the other (rotating a row's box bits
    //   by one or two boxes lines them up);
    // - a row left with one pair is locked to it; a box whose cells lie in one column
    //   claims it (its other bands lose it), and a locked row in such a box has one cell.
    // Macros, not closures (see those above `Avx512`'s implementation).
    // A row's box bits (0, 3, 6) rotated by one box, or by two.
    macro_rules! rot1 {
        ($r:expr) => {
            and!(
                _mm512_or_si512(_mm512_srli_epi32::<3>($r), _mm512_slli_epi32::<6>($r)),
                set!(0o111)
            )
        };
    }
    macro_rules! rot2 {
        ($r:expr) => {
            and!(
                _mm512_or_si512(_mm512_srli_epi32::<6>($r), _mm512_slli_epi32::<3>($r)),
                set!(0o111)
            )
        };
    }
    // Bits at 3k to the three bits 3k..3k+2.
    macro_rules! spread3 {
        ($v:expr) => {
            or3!($v, _mm512_slli_epi32::<1>($v), _mm512_slli_epi32::<2>($v))
        };
    }
    // The boxes of row `own` that fit a permutation, given the two other rows' boxes.
    macro_rules! fits {
        ($own:expr, $p:expr, $q:expr) => {
            and!(
                $own,
                _mm512_or_si512(and!(rot1!($p), rot2!($q)), and!(rot2!($p), rot1!($q)))
            )
        };
    }
    macro_rules! alone {
        ($p:expr) => {
            _mm512_andnot_si512(_mm512_or_si512(rot1!($p), rot2!($p)), $p)
        };
    }
    // One band's update of its nine digit lanes `v`: the lanes left, the cells the other
    // bands lose, the hidden singles found (unsolved cells of `unsolved`).
    macro_rules! update {
        ($v:expr, $unsolved:expr) => {{
            let v = $v;
            let present = and!(
                or3!(v, _mm512_srli_epi32::<1>(v), _mm512_srli_epi32::<2>(v)),
                set!(0o111_111_111)
            );
            let r0 = and!(present, set!(0o111));
            let r1 = and!(_mm512_srli_epi32::<9>(present), set!(0o111));
            let r2 = _mm512_srli_epi32::<18>(present);
            let (a0, a1, a2) = (fits!(r0, r1, r2), fits!(r1, r0, r2), fits!(r2, r0, r1));
            let pairs = or3!(a0, _mm512_slli_epi32::<9>(a1), _mm512_slli_epi32::<18>(a2));
            let locked = or3!(
                alone!(a0),
                _mm512_slli_epi32::<9>(alone!(a1)),
                _mm512_slli_epi32::<18>(alone!(a2))
            );
            let y = and!(v, spread3!(pairs));
            let columns = columns_of!(y);
            let c0 = and!(columns, set!(0o111));
            let c1 = and!(_mm512_srli_epi32::<1>(columns), set!(0o111));
            let c2 = and!(_mm512_srli_epi32::<2>(columns), set!(0o111));
            // Stacks (bit 3k) where exactly one column is left.
            let one = _mm512_andnot_si512(
                and!(and!(c0, c1), c2),
                _mm512_xor_si512(_mm512_xor_si512(c0, c1), c2),
            );
            let one_column = spread3!(one);
            let lost = rows3!(and!(columns, one_column));
            let new = and!(
                and!(y, spread3!(locked)),
                and!(rows3!(one_column), set!($unsolved))
            );
            (y, lost, new)
        }};
    }
    // SAFETY: the caller vouches for the features; lanes 9b..9b+8 of 27 are read and
    // written.
    unsafe {
        let nine: __mmask16 = 0x1FF;
        let mut x = [
            _mm512_maskz_loadu_epi32(nine, cand.as_ptr().cast()),
            _mm512_maskz_loadu_epi32(nine, cand.as_ptr().add(9).cast()),
            _mm512_maskz_loadu_epi32(nine, cand.as_ptr().add(18).cast()),
        ];
        let act = [
            (sweep & 0x1FF) as __mmask16,
            ((sweep >> 9) & 0x1FF) as __mmask16,
            (sweep >> 18) as __mmask16 & 0x1FF,
        ];
        let mut found = [_mm512_setzero_si512(); 3];
        // Hidden singles found, per lane.
        let mut counted = _mm512_setzero_si512();
        let mut next = 0u32;
        // The three bands' updates from the lanes as they are, at once: the loop's order
        // gives the same unless an update narrows a later band's lane that updates too.
        let ahead = [
            update!(x[0], unsolved[0]),
            update!(x[1], unsolved[1]),
            update!(x[2], unsolved[2]),
        ];
        macro_rules! narrows {
            ($b:expr, $o:expr) => {{
                let gone = and!(x[$o], ahead[$b].1);
                _mm512_mask_test_epi32_mask(act[$b] & act[$o], gone, gone)
            }};
        }
        // Band `b`'s update `y` of its stale lanes, with the hidden singles `new`, taken as the
        // loop takes it: a lane left empty ends the sweep, counting the singles of the lanes
        // before it; else the lanes and their singles are kept.
        macro_rules! take {
            ($b:expr, $y:expr, $new:expr) => {{
                let (b, y, new) = ($b, $y, $new);
                let empty = _mm512_mask_testn_epi32_mask(act[b], y, y);
                if empty != 0 {
                    let before = act[b] & (empty & empty.wrapping_neg()).wrapping_sub(1);
                    let counts =
                        _mm512_mask_add_epi32(counted, before, counted, _mm512_popcnt_epi32(new));
                    let singles = _mm512_reduce_add_epi32(counts) as u64;
                    return Some(Swept::Contradiction { singles });
                }
                x[b] = _mm512_mask_mov_epi32(x[b], act[b], y);
                found[b] = _mm512_maskz_mov_epi32(act[b], new);
                counted = _mm512_add_epi32(counted, _mm512_popcnt_epi32(found[b]));
            }};
        }
        if narrows!(0, 1) | narrows!(0, 2) | narrows!(1, 2) == 0 {
            let mut lost = [_mm512_setzero_si512(); 3];
            for b in 0..3 {
                let (y, narrow, new) = ahead[b];
                take!(b, y, new);
                for o in [(b + 1) % 3, (b + 2) % 3] {
                    lost[o] = _mm512_mask_or_epi32(lost[o], act[b], lost[o], narrow);
                }
            }
            for o in 0..3 {
                let gone = and!(x[o], lost[o]);
                next |= u32::from(_mm512_test_epi32_mask(gone, gone)) << (9 * o);
                x[o] = _mm512_andnot_si512(lost[o], x[o]);
            }
        } else {
            for b in 0..3 {
                if act[b] == 0 {
                    continue;
                }
                let (y, lost, new) = update!(x[b], unsolved[b]);
                take!(b, y, new);
                next &= !(u32::from(act[b]) << (9 * b));
                for o in [(b + 1) % 3, (b + 2) % 3] {
                    let gone = and!(x[o], lost);
                    next |= u32::from(_mm512_mask_test_epi32_mask(act[b], gone, gone)) << (9 * o);
                    x[o] = _mm512_mask_andnot_epi32(x[o], act[b], lost, x[o]);
                }
            }
        }
        // The hidden singles found are placed as Board::place_found places them: a cell
        // found by two digits (counted twice), or a digit that lost a cell found for it,
        // is a contradiction; the other digits lose the cells.
        let singles = _mm512_reduce_add_epi32(counted) as u32;
        let cells = [
            _mm512_reduce_or_epi32(found[0]) as u32,
            _mm512_reduce_or_epi32(found[1]) as u32,
            _mm512_reduce_or_epi32(found[2]) as u32,
        ];
        let swept = Swept::Contradiction {
            singles: u64::from(singles),
        };
        if cells.iter().map(|c| c.count_ones()).sum::<u32>() != singles {
            return Some(swept);
        }
        for b in 0..3 {
            if cells[b] != 0 {
                let missing = _mm512_andnot_si512(x[b], found[b]);
                if _mm512_test_epi32_mask(missing, missing) != 0 {
                    return Some(swept);
                }
                unsolved[b] &= !cells[b];
                let gone = _mm512_andnot_si512(found[b], set!(cells[b]));
                let hit = and!(x[b], gone);
                next |= u32::from(_mm512_mask_test_epi32_mask(nine, hit, hit)) << (9 * b);
                x[b] = _mm512_andnot_si512(gone, x[b]);
            }
            // Plain stores of eight lanes and one: they forward to the reads that follow.
            _mm256_storeu_si256(
                cand.as_mut_ptr().add(9 * b).cast(),
                _mm512_castsi512_si256(x[b]),
            );
            cand[9 * b + 8] = _mm_cvtsi128_si32(_mm512_extracti32x4_epi32::<2>(x[b])) as u32;
        }
        Some(Swept::Done {
            singles: u64::from(singles),
            next,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::CELLS;

    /// Runs `$check` with `$isa` bound to each instance this CPU has, the portable one first.
    macro_rules! each_instance {
        ($isa:ident => $check:expr) => {{
            {
                let $isa = Portable;
                $check;
            }
            #[cfg(target_arch = "x86_64")]
            {
                if let Some($isa) = PortableV2::detect() {
                    $check;
                }
                if let Some($isa) = Avx2::detect() {
                    $check;
                }
                if let Some($isa) = Avx512::detect() {
                    $check;
                }
            }
        }};
    }

    /// The givens by their definition: bit `pos` of band `b`, digit `d`, set when cell
    /// `27b + pos` holds `d + 1`.
    fn givens_by_definition(cells: &[u8; CELLS]) -> [[u32; 9]; 3] {
        let mut givens = [[0u32; 9]; 3];
        for (cell, &v) in cells.iter().enumerate() {
            if v != 0 {
                givens[cell / 27][v as usize - 1] |= 1 << (cell % 27);
            }
        }
        givens
    }

    /// The placed cells by their definition: a cell not unsolved holds the digit whose
    /// digit-band holds it.
    fn placed_by_definition(cand: &[u32; 27], unsolved: &[u32; 3]) -> [u8; CELLS] {
        let mut cells = [0u8; CELLS];
        for (cell, value) in cells.iter_mut().enumerate() {
            let (b, bit) = (cell / 27, 1 << (cell % 27));
            if unsolved[b] & bit == 0 {
                let digit = (0..9).find(|&d| cand[b * 9 + d] & bit != 0);
                *value = digit.map_or(0, |d| d as u8 + 1);
            }
        }
        cells
    }

    /// Every instance this CPU has writes the placed cells of boards part solved (each placed
    /// cell held by one digit, the unsolved ones by any) by their definition.
    #[test]
    fn every_instance_writes_the_placed_cells_by_their_definition() {
        let mut rng = crate::rng::SplitMix64::new(38);
        for _ in 0..2_000 {
            let unsolved = [0, 1, 2].map(|_| rng.next_u64() as u32 & BAND);
            let mut cand = [0u32; 27];
            for (i, word) in cand.iter_mut().enumerate() {
                *word = rng.next_u64() as u32 & unsolved[i / 9];
            }
            for b in 0..3 {
                for pos in 0..27 {
                    if unsolved[b] & 1 << pos == 0 {
                        cand[b * 9 + rng.below(9)] |= 1 << pos;
                    }
                }
            }
            let expected = placed_by_definition(&cand, &unsolved);
            each_instance!(isa => assert_eq!(isa.placed_cells(&cand, &unsolved), expected));
        }
    }

    /// Every instance this CPU has finds the givens of random grids (blank to full) by their
    /// definition.
    #[test]
    fn every_instance_finds_the_givens_by_their_definition() {
        let mut rng = crate::rng::SplitMix64::new(37);
        for k in 0..2_000 {
            let chance = 1 + k % 10;
            let mut cells = [0u8; CELLS];
            for cell in &mut cells {
                if rng.below(chance) == 0 {
                    *cell = rng.below(9) as u8 + 1;
                }
            }
            let expected = givens_by_definition(&cells);
            each_instance!(isa => assert_eq!(isa.givens(&cells), expected));
        }
    }
}
