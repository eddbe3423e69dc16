//! SE's singles, intersections, naked and hidden sets and fish, each in SE's search order.

use super::geometry::{Crossing, Geometry, RegionType, SCAN_TYPES, digits, set_members};
use super::{SeStep, SeTechnique};
use crate::rate::board::Board;
use crate::rate::houses::{cells_of, count, first, is_one};
use crate::rate::step::Candidate;

/// Hidden singles: first a region's last empty cell (blocks, columns, rows), then a digit with
/// one place in a region of several empty cells.
pub fn hidden_single(board: &Board, g: &Geometry) -> Option<SeStep> {
    for alone in [true, false] {
        for t in SCAN_TYPES {
            for i in 0..9 {
                let h = t.house(i);
                let empty = g.empty_count(board, h);
                if (empty == 1) != alone {
                    continue;
                }
                for d in 0..9 {
                    let left = board.digit[d] & g.houses.house[h];
                    if is_one(left) {
                        let technique = match (alone, t) {
                            (true, _) => SeTechnique::FullHouse,
                            (false, RegionType::Block) => SeTechnique::HiddenSingleBlock,
                            (false, _) => SeTechnique::HiddenSingleLine,
                        };
                        return Some(SeStep::placing(technique, first(left), d));
                    }
                }
            }
        }
    }
    None
}

/// Naked singles, cells in reading order.
pub fn naked_single(board: &Board) -> Option<SeStep> {
    (0..81)
        .find(|&i| board.cand[i] != 0 && board.cand[i] & (board.cand[i] - 1) == 0)
        .map(|i| {
            SeStep::placing(
                SeTechnique::NakedSingle,
                i,
                board.cand[i].trailing_zeros() as usize,
            )
        })
}

/// Pointing and claiming (`direct`: only those leaving a hidden single in a parallel region,
/// which is placed).
pub fn locking(board: &Board, g: &Geometry, direct: bool) -> Option<SeStep> {
    let house = &g.houses.house;
    for &Crossing {
        kind,
        number,
        first: r1,
        second: r2,
    } in &g.crossings
    {
        for d in 0..9 {
            let p = board.digit[d] & r1;
            if count(p) <= 1 || p & !r2 != 0 {
                continue;
            }
            let pointing = kind == RegionType::Block;
            if direct {
                for i3 in (0..9).filter(|&i3| i3 != number) {
                    let r3 = house[kind.house(i3)];
                    if r3 & r2 == 0 {
                        continue;
                    }
                    let p3 = board.digit[d] & r3;
                    if count(p3) > 1 {
                        let rest = p3 & !r2;
                        if is_one(rest) {
                            let t = if pointing {
                                SeTechnique::DirectPointing
                            } else {
                                SeTechnique::DirectClaiming
                            };
                            return Some(SeStep::placing(t, first(rest), d));
                        }
                    }
                }
            } else {
                let gone = board.digit[d] & r2 & !r1;
                if gone != 0 {
                    let t = if pointing {
                        SeTechnique::Pointing
                    } else {
                        SeTechnique::Claiming
                    };
                    let elims = cells_of(gone)
                        .map(|c| Candidate::new(c, d as u8 + 1))
                        .collect();
                    return Some(SeStep::removing(t, t.base_difficulty(), elims));
                }
            }
        }
    }
    None
}

/// SE's `CommonTuples.searchCommonTuple`: every set has two elements or more and their union
/// has exactly `k`.
#[inline]
pub fn common_tuple(sets: &[u16], k: usize) -> Option<u16> {
    let mut union = 0;
    for &s in sets {
        if s.count_ones() <= 1 {
            return None;
        }
        union |= s;
    }
    (union.count_ones() as usize == k).then_some(union)
}

/// Hidden pairs, triplets and quads (`direct`: pairs and triplets leaving a hidden single of
/// another digit in the region, which is placed).
pub fn hidden_set(board: &Board, g: &Geometry, k: usize, direct: bool) -> Option<SeStep> {
    for t in SCAN_TYPES {
        for i in 0..9 {
            let h = t.house(i);
            let empty = g.empty_count(board, h);
            if !(empty > 2 * k || (direct && empty > k)) {
                continue;
            }
            let pos = g.all_positions(board, h);
            let eligible = set_members(pos, k);
            if (eligible.count_ones() as usize) < k {
                continue;
            }
            for &values in &g.subsets[k] {
                if values & !eligible != 0 {
                    continue;
                }
                let mut sets = [0u16; 4];
                for (n, d) in digits(values).enumerate() {
                    sets[n] = pos[d];
                }
                let Some(cells) = common_tuple(&sets[..k], k) else {
                    continue;
                };
                if direct {
                    for d in (0..9).filter(|d| values & (1 << d) == 0) {
                        if pos[d].count_ones() > 1 {
                            let rest = pos[d] & !cells;
                            if rest.count_ones() == 1 {
                                let cell = g.cells(h)[rest.trailing_zeros() as usize] as usize;
                                let tech = if k == 2 {
                                    SeTechnique::DirectHiddenPair
                                } else {
                                    SeTechnique::DirectHiddenTriplet
                                };
                                return Some(SeStep::placing(tech, cell, d));
                            }
                        }
                    }
                } else {
                    let mut elims = Vec::new();
                    for idx in digits(cells) {
                        let c = g.cells(h)[idx] as usize;
                        for d in digits(board.cand[c] & !values) {
                            elims.push(Candidate::new(c, d as u8 + 1));
                        }
                    }
                    if !elims.is_empty() {
                        let tech = match k {
                            2 => SeTechnique::HiddenPair,
                            3 => SeTechnique::HiddenTriplet,
                            _ => SeTechnique::HiddenQuad,
                        };
                        return Some(SeStep::removing(tech, tech.base_difficulty(), elims));
                    }
                }
            }
        }
    }
    None
}

/// Naked pairs, triplets and quads.
pub fn naked_set(board: &Board, g: &Geometry, k: usize) -> Option<SeStep> {
    for t in SCAN_TYPES {
        for i in 0..9 {
            let h = t.house(i);
            if g.empty_count(board, h) < 2 * k {
                continue;
            }
            let cells = g.cells(h);
            let eligible = set_members(cells.map(|c| board.cand[c as usize]), k);
            if (eligible.count_ones() as usize) < k {
                continue;
            }
            for &chosen in &g.subsets[k] {
                if chosen & !eligible != 0 {
                    continue;
                }
                let mut sets = [0u16; 4];
                for (n, idx) in digits(chosen).enumerate() {
                    sets[n] = board.cand[cells[idx] as usize];
                }
                let Some(values) = common_tuple(&sets[..k], k) else {
                    continue;
                };
                let mut elims = Vec::new();
                for (idx, &c) in cells.iter().enumerate() {
                    if chosen & (1 << idx) == 0 {
                        for d in digits(board.cand[c as usize] & values) {
                            elims.push(Candidate::new(c as usize, d as u8 + 1));
                        }
                    }
                }
                if !elims.is_empty() {
                    let tech = match k {
                        2 => SeTechnique::NakedPair,
                        3 => SeTechnique::NakedTriplet,
                        _ => SeTechnique::NakedQuad,
                    };
                    return Some(SeStep::removing(tech, tech.base_difficulty(), elims));
                }
            }
        }
    }
    None
}

/// X-Wing, Swordfish, Jellyfish: base lines columns first, then rows.
pub fn fish(board: &Board, g: &Geometry, k: usize) -> Option<SeStep> {
    use RegionType::{Column, Row};
    let mut placed = [0u32; 9];
    for (d, n) in placed.iter_mut().enumerate() {
        *n = count(board.solved[d]);
    }
    for (base, cover) in [(Column, Row), (Row, Column)] {
        let (pos, eligible) = g.fish_lines(board, base, k);
        for &lines in &g.subsets[k] {
            for d in 0..9 {
                if placed[d] as usize + 2 * k > 9 || lines & !eligible[d] != 0 {
                    continue;
                }
                let mut sets = [0u16; 4];
                for (n, line) in digits(lines).enumerate() {
                    sets[n] = pos[line][d];
                }
                let Some(crosses) = common_tuple(&sets[..k], k) else {
                    continue;
                };
                let mut base_cells = 0;
                for line in digits(lines) {
                    base_cells |= g.houses.house[base.house(line)];
                }
                let mut gone = 0;
                for cross in digits(crosses) {
                    gone |= board.digit[d] & g.houses.house[cover.house(cross)] & !base_cells;
                }
                if gone != 0 {
                    let tech = match k {
                        2 => SeTechnique::XWing,
                        3 => SeTechnique::Swordfish,
                        _ => SeTechnique::Jellyfish,
                    };
                    let elims = cells_of(gone)
                        .map(|c| Candidate::new(c, d as u8 + 1))
                        .collect();
                    return Some(SeStep::removing(tech, tech.base_difficulty(), elims));
                }
            }
        }
    }
    None
}
