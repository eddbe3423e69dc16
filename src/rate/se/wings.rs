//! SE's XY-Wing, XYZ-Wing and aligned pair exclusion, in SE's search order.

use super::geometry::{Geometry, digits, for_each_subset};
use super::{SeStep, SeTechnique};
use crate::rate::board::Board;
use crate::rate::houses::cells_of;
use crate::rate::step::Candidate;

/// XY-Wings (`xyz`: XYZ-Wings): the pivot in reading order, each wing among the pivot's house
/// cells in SE's order.
pub fn xy_wing(board: &Board, g: &Geometry, xyz: bool) -> Option<SeStep> {
    let target = if xyz { 3 } else { 2 };
    let cand = &board.cand;
    for xy in 0..81 {
        let xy_values = cand[xy];
        if xy_values.count_ones() != target {
            continue;
        }
        for &xz in &g.house_cells[xy] {
            let xz_values = cand[xz as usize];
            if xz_values.count_ones() != 2 || (xy_values & !xz_values).count_ones() != 1 {
                continue;
            }
            for &yz in &g.house_cells[xy] {
                let yz_values = cand[yz as usize];
                if yz_values.count_ones() != 2 {
                    continue;
                }
                let union = (xy_values | xz_values | yz_values).count_ones();
                let inter = (xy_values & xz_values & yz_values).count_ones();
                if union != 3 || inter != u32::from(xyz) {
                    continue;
                }
                let z = (xz_values & yz_values).trailing_zeros() as usize;
                let (xz, yz) = (xz as usize, yz as usize);
                let mut victims = g.houses.peers[xz] & g.houses.peers[yz];
                if xyz {
                    victims &= g.houses.peers[xy];
                }
                victims &= !(1u128 << xy) & !(1u128 << xz) & !(1u128 << yz);
                let gone = victims & board.digit[z];
                if gone != 0 {
                    let tech = if xyz {
                        SeTechnique::XyzWing
                    } else {
                        SeTechnique::XyWing
                    };
                    let elims = cells_of(gone)
                        .map(|c| Candidate::new(c, z as u8 + 1))
                        .collect();
                    return Some(SeStep::removing(tech, tech.base_difficulty(), elims));
                }
            }
        }
    }
    None
}

/// Aligned pair exclusion: two base cells sharing at least two bivalue excluder cells; a value
/// of a base cell that no allowed pair of values uses is removed.
pub fn aligned_pair_exclusion(board: &Board, g: &Geometry) -> Option<SeStep> {
    let cand = &board.cand;
    let mut bases: Vec<usize> = Vec::new();
    // Each base cell's excluders, as a set of cells.
    let mut excluders: Vec<u128> = Vec::new();
    for cell in 0..81 {
        if cand[cell].count_ones() < 2 {
            continue;
        }
        let mut has_single = false;
        let mut ex = 0u128;
        for &other in &g.house_cells[cell] {
            match cand[other as usize].count_ones() {
                1 => has_single = true,
                2 => ex |= 1 << other,
                _ => {}
            }
        }
        if !has_single && ex != 0 {
            bases.push(cell);
            excluders.push(ex);
        }
    }
    let mut found = None;
    let mut common = [0u16; 20];
    for_each_subset(bases.len(), 2, |pair| {
        let (c0, c1) = (bases[pair[0]], bases[pair[1]]);
        let shared = excluders[pair[0]] & excluders[pair[1]];
        if shared.count_ones() < 2 {
            return false;
        }
        let mut n = 0;
        for e in cells_of(shared) {
            common[n] = cand[e];
            n += 1;
        }
        let common = &common[..n];
        let sees = g.houses.peers[c0] & (1u128 << c1) != 0;
        let (mut allowed0, mut allowed1) = (0u16, 0u16);
        for p0 in digits(cand[c0]) {
            for p1 in digits(cand[c1]) {
                if p0 == p1 && sees {
                    continue;
                }
                let both = (1u16 << p0) | (1 << p1);
                if common.iter().any(|&m| m & !both == 0) {
                    continue;
                }
                allowed0 |= 1 << p0;
                allowed1 |= 1 << p1;
            }
        }
        let mut elims = Vec::new();
        for (cell, allowed) in [(c0, allowed0), (c1, allowed1)] {
            for d in digits(cand[cell] & !allowed) {
                elims.push(Candidate::new(cell, d as u8 + 1));
            }
        }
        if elims.is_empty() {
            return false;
        }
        let tech = SeTechnique::AlignedPairExclusion;
        found = Some(SeStep::removing(tech, tech.base_difficulty(), elims));
        true
    });
    found
}

/// Aligned triplet exclusion (SE's `AlignedExclusion(3)`): base cells (reading order) with
/// their excluders (house cells with two or three candidates, none with one); pairs of base
/// cells in SE's order, each with every base cell among either's excluders as the third; a
/// value of a base cell used by no allowed combination is removed.
pub fn aligned_triplet_exclusion(board: &Board, g: &Geometry) -> Option<SeStep> {
    let cand = &board.cand;
    let mut bases: Vec<usize> = Vec::new();
    let mut excluders: Vec<Vec<u8>> = Vec::new();
    // The same as cell sets, and the base cells as one.
    let mut masks: Vec<u128> = Vec::new();
    let mut base_cells: u128 = 0;
    let mut base_index = [usize::MAX; 81];
    for cell in 0..81 {
        if cand[cell].count_ones() < 2 {
            continue;
        }
        let mut has_single = false;
        let mut ex = Vec::new();
        let mut mask = 0u128;
        for &other in &g.house_cells[cell] {
            match cand[other as usize].count_ones() {
                1 => has_single = true,
                2 | 3 => {
                    ex.push(other);
                    mask |= 1 << other;
                }
                _ => {}
            }
        }
        if !has_single && !ex.is_empty() {
            base_index[cell] = bases.len();
            bases.push(cell);
            excluders.push(ex);
            masks.push(mask);
            base_cells |= 1 << cell;
        }
    }
    if bases.len() < 3 {
        return None;
    }
    let mut found = None;
    let mut twin: Vec<usize> = Vec::new();
    for_each_subset(bases.len(), 2, |pair| {
        let (c0, c1) = (bases[pair[0]], bases[pair[1]]);
        let common01 = masks[pair[0]] & masks[pair[1]];
        // Every third cell needs two common excluders among these.
        if common01.count_ones() < 2 {
            return false;
        }
        // The twin area: the base cells among either cell's excluders, in that order.
        twin.clear();
        let pair_cells = (1u128 << c0) | (1u128 << c1);
        let mut taken = 0u128;
        for &e in excluders[pair[0]].iter().chain(&excluders[pair[1]]) {
            let bit = 1u128 << e;
            if base_cells & bit != 0 && pair_cells & bit == 0 && taken & bit == 0 {
                taken |= bit;
                twin.push(e as usize);
            }
        }
        for &c2 in &twin {
            let common = common01 & masks[base_index[c2]];
            if common.count_ones() < 2 {
                continue;
            }
            let mut values = [0u16; 20];
            let mut n = 0;
            for e in cells_of(common) {
                values[n] = cand[e];
                n += 1;
            }
            let common = &values[..n];
            let cells = [c0, c1, c2];
            let sees = |a: usize, b: usize| g.houses.peers[cells[a]] & (1u128 << cells[b]) != 0;
            let see = [sees(0, 1), sees(0, 2), sees(1, 2)];
            let mut allowed = [0u16; 3];
            for p0 in digits(cand[c0]) {
                for p1 in digits(cand[c1]) {
                    if p0 == p1 && see[0] {
                        continue;
                    }
                    // The values of the third cell that leave some excluder no value: those
                    // that complete one's candidates (two or three) with p0 and p1, or every
                    // value when p0 and p1 alone do.
                    let pair = (1u16 << p0) | (1 << p1);
                    let mut excluded = 0u16;
                    for &m in common {
                        let rest = m & !pair;
                        if rest & rest.wrapping_sub(1) == 0 {
                            excluded |= if rest == 0 { u16::MAX } else { rest };
                        }
                    }
                    let mut third = cand[c2] & !excluded;
                    if see[1] {
                        third &= !(1 << p0);
                    }
                    if see[2] {
                        third &= !(1 << p1);
                    }
                    if third != 0 {
                        allowed[0] |= 1 << p0;
                        allowed[1] |= 1 << p1;
                        allowed[2] |= third;
                    }
                }
            }
            let mut elims = Vec::new();
            for (i, &cell) in cells.iter().enumerate() {
                for d in digits(cand[cell] & !allowed[i]) {
                    elims.push(Candidate::new(cell, d as u8 + 1));
                }
            }
            if !elims.is_empty() {
                let tech = SeTechnique::AlignedTripletExclusion;
                found = Some(SeStep::removing(tech, tech.base_difficulty(), elims));
                return true;
            }
        }
        false
    });
    found
}
