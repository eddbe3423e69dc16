//! The constant tables of the `fast` engine and the few bit helpers built on them: everything
//! the board and the instruction-set instances look up, computed at compile time. The bit
//! layout they index is drawn on the [engine's page](super).

// Bands, digits and rows index parallel arrays; index loops say that most plainly.
#![allow(clippy::needless_range_loop)]
#![forbid(unsafe_code)]

/// All 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// The cells of each row of a band.
pub(super) const ROW_BITS: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];

/// For a row's 9 bits: bits 0-2, the boxes the row has a cell in; bit 3, exactly one cell.
pub(super) static ROW_INFO: [u8; 512] = row_info();

/// For the 9 row-box presence bits of a digit-band (bit `row * 3 + box`): the cells that fit at
/// least one of the six row-to-box permutations still possible, or 0 when none is.
///
/// Bits 32..59 hold, for the same index, the cells of the row-box pairs left alone in their
/// row: the row's cells all lie in that box.
pub(super) static PERMUTATIONS: [u64; 512] = permutations();

/// For the 9 columns (bits) where a digit can be inside one band: the cells the digit keeps in
/// the two other bands. A box whose candidates lie in a single column claims that column for
/// the band (pointing, column direction), so the other bands lose it.
///
/// Bits 32..59 hold the cells of the boxes whose candidates lie in a single column.
pub(super) static POINTING: [u64; 512] = pointing();

/// For each position `0..27` in a band: the cells of its column in all three rows.
pub(super) const COLUMN_CELLS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        t[p] = ROW_LOW << (p % 9);
        p += 1;
    }
    t
};

/// [`COLUMN_CELLS`] padded to 32 lanes for vector lookups (the x86-64 instances').
#[cfg(target_arch = "x86_64")]
pub(super) static COLUMN_CELLS_32: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut p = 0;
    while p < 27 {
        t[p] = COLUMN_CELLS[p];
        p += 1;
    }
    t
};

/// For each position `0..27` in a band (32 lanes for vector lookups): the other cells of its
/// row and box (the x86-64 instances').
#[cfg(target_arch = "x86_64")]
pub(super) static PEERS_IN_BAND: [u32; 32] = {
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
pub(super) const KEEP_IN_BAND: [u32; 27] = {
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
pub(super) static GIVEN_ROWS_AND_BOXES: [u32; 512] = {
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
pub(super) const OTHER_BANDS: [[usize; 2]; 32] = {
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
pub(super) const ROW_LOW: u32 = 1 | (1 << 9) | (1 << 18);

/// The cells of the columns `cols` (9 bits) in all three rows of a band.
#[inline(always)]
pub(super) fn spread_columns(cols: u32) -> u32 {
    cols * ROW_LOW
}

/// The columns (9 bits) where `cells` of a band has at least one cell.
#[inline(always)]
pub(super) fn fold_columns(cells: u32) -> u32 {
    (cells | (cells >> 9) | (cells >> 18)) & 0x1FF
}

/// Unsolved cells among the 20 that share a row, column or box with cell `pos` of band `b`.
#[inline(always)]
pub(super) fn unsolved_peers(unsolved: &[u32; 3], b: usize, pos: usize) -> u32 {
    let [o1, o2] = OTHER_BANDS[b * 9];
    let column = COLUMN_CELLS[pos];
    // One count of three disjoint sets: the column's cells of the other bands lie in one column
    // (bits c, c + 9, c + 18), so one of them shifted by a bit meets neither; the band's own
    // peers in the high half.
    let below = (unsolved[o1 / 9] & column) | ((unsolved[o2 / 9] & column) << 1);
    let own = unsolved[b] & !KEEP_IN_BAND[pos];
    ((u64::from(own) << 32) | u64::from(below)).count_ones()
}
