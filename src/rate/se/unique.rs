//! SE's uniqueness techniques: unique rectangles and loops (types 1 to 4) and the bivalue
//! universal grave (types 1 to 4), in SE's search order.
//!
//! SE collects every unique-loop step, sorts them (stably) by difficulty then type, and takes
//! the first. Its loop search keeps the extra values it has seen across the siblings of a level
//! (`exValues` is copied only on entering a level); that decides which loops it finds, so it is
//! kept here.

use super::geometry::{CELL_REGION_TYPES, Geometry, digits, for_each_subset};
use super::{SeStep, SeTechnique};
use crate::rate::board::Board;
use crate::rate::houses::nine_count;
use crate::rate::step::Candidate;

/// One unique-loop step being gathered.
struct LoopHint {
    /// 1 to 4 (type 3 naked and hidden are told apart by `hidden`).
    kind: u8,
    hidden: bool,
    /// The loop's cells, as a set (SE compares hints by class and cell set).
    cells: u128,
    difficulty: f64,
    elims: Vec<Candidate>,
}

fn loop_difficulty(size: usize) -> f64 {
    let mut d = 4.5;
    if size >= 10 {
        d += 0.3;
    }
    if size >= 8 {
        d += 0.2;
    } else if size >= 6 {
        d += 0.1;
    }
    d
}

/// Unique rectangles and loops: the first after SE's sort.
pub fn unique_loops(board: &Board, g: &Geometry) -> Option<SeStep> {
    let cand = &board.cand;
    let mut hints: Vec<LoopHint> = Vec::new();
    let mut search = LoopSearch {
        g,
        cand,
        pair: 0,
        holding: 0,
        path: Vec::new(),
        on_path: 0,
        cells: Vec::new(),
        ends: Vec::new(),
    };
    for cell in 0..81 {
        if cand[cell].count_ones() != 2 {
            continue;
        }
        let mut ds = digits(cand[cell]);
        let (v1, v2) = (ds.next().unwrap(), ds.next().unwrap());
        search.pair = cand[cell];
        search.holding = board.digit[v1] & board.digit[v2];
        search.run(cell);
        for lp in search.loops() {
            if !is_valid_loop(lp) {
                continue;
            }
            let set = lp.iter().fold(0u128, |s, &c| s | (1u128 << c));
            let extra: Vec<usize> = lp
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| cand[c].count_ones() > 2)
                .collect();
            let base = loop_difficulty(lp.len());
            let pair = (1u16 << v1) | (1 << v2);
            let add = |h: LoopHint, hints: &mut Vec<LoopHint>| {
                let dup = hints
                    .iter()
                    .any(|o| o.kind == h.kind && o.hidden == h.hidden && o.cells == h.cells);
                if !dup && !h.elims.is_empty() {
                    hints.push(h);
                }
            };
            match extra.len() {
                0 => {}
                1 => {
                    let c = extra[0];
                    let elims = digits(cand[c] & pair)
                        .map(|d| Candidate::new(c, d as u8 + 1))
                        .collect();
                    add(
                        LoopHint {
                            kind: 1,
                            hidden: false,
                            cells: set,
                            difficulty: base,
                            elims,
                        },
                        &mut hints,
                    );
                }
                2 => {
                    let (c1, c2) = (extra[0], extra[1]);
                    let rest = (cand[c1] | cand[c2]) & !pair;
                    if rest.count_ones() == 1 {
                        add(type2(board, g, set, base, &extra, pair), &mut hints);
                    } else if rest.count_ones() >= 2 {
                        for h in type3(board, g, set, base, c1, c2, v1, v2) {
                            add(h, &mut hints);
                        }
                    }
                    if let Some(h) = type4(board, g, set, base, c1, c2, v1, v2) {
                        add(h, &mut hints);
                    }
                }
                _ => add(type2(board, g, set, base, &extra, pair), &mut hints),
            }
        }
    }
    // Stable sort by (difficulty, type), as SE's Collections.sort.
    hints.sort_by(|a, b| {
        a.difficulty
            .partial_cmp(&b.difficulty)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.kind.cmp(&b.kind))
    });
    hints
        .into_iter()
        .next()
        .map(|h| SeStep::removing(SeTechnique::UniqueLoop, h.difficulty, h.elims))
}

/// SE's `checkForLoops` from one bivalue cell: a depth-first search of loops through the cells
/// holding both digits, each loop found kept (as found, back to back) in `loops`.
struct LoopSearch<'a> {
    g: &'a Geometry,
    cand: &'a [u16; 81],
    /// The two digits.
    pair: u16,
    /// The cells holding both.
    holding: u128,
    /// The cells of the path, in order, and as a set.
    path: Vec<u8>,
    on_path: u128,
    /// The loops found, back to back, and where each ends.
    cells: Vec<u8>,
    ends: Vec<usize>,
}

impl LoopSearch<'_> {
    /// The loops through `start`, in SE's order.
    fn run(&mut self, start: usize) {
        self.path.clear();
        self.on_path = 0;
        self.cells.clear();
        self.ends.clear();
        self.search(start, 2, 0, None);
    }

    /// The loops found so far, each as its cells in order.
    fn loops(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(a, &b)| &self.cells[a..b])
    }

    /// SE visits, from `cell`, the cells of its block, row and column (but the region it came
    /// by) in index order, which is cell order: the path's first cell closes a loop once the
    /// path has four cells; a cell off the path holding both digits adds its other digits to
    /// the extra values seen (`ex`, kept across siblings as SE keeps it) and is entered when it
    /// holds the two alone, the extra values are one digit, or extra cells are still allowed.
    /// Only those cells are looked at here (as bits of the region), in the same order.
    fn search(&mut self, cell: usize, allowed_ex: i32, ex_values: u16, last: Option<usize>) {
        self.path.push(cell as u8);
        self.on_path |= 1 << cell;
        let start = self.path[0] as usize;
        let mut ex = ex_values;
        for (t_index, t) in CELL_REGION_TYPES.iter().enumerate() {
            if last == Some(t_index) {
                continue;
            }
            let closing = if self.path.len() >= 4 {
                1u128 << start
            } else {
                0
            };
            let house = self.g.houses.house[t.house_of(cell)];
            let mut next_cells = house & ((self.holding & !self.on_path) | closing);
            while next_cells != 0 {
                let next = next_cells.trailing_zeros() as usize;
                next_cells &= next_cells - 1;
                if next == start {
                    self.cells.extend_from_slice(&self.path);
                    self.ends.push(self.cells.len());
                    continue;
                }
                let p = self.cand[next];
                ex |= p;
                ex &= !self.pair;
                let card = nine_count(p);
                if card == 2 || nine_count(ex) == 1 || allowed_ex > 0 {
                    let allowed = if card > 2 { allowed_ex - 1 } else { allowed_ex };
                    self.search(next, allowed, ex, Some(t_index));
                }
            }
        }
        self.path.pop();
        self.on_path &= !(1 << cell);
    }
}

/// SE's `isValidLoop`: alternating positions visit each region at most once per parity, and
/// the same regions at both parities.
fn is_valid_loop(lp: &[u8]) -> bool {
    let (mut odd_seen, mut even_seen) = (0u32, 0u32);
    let mut odd = false;
    for &c in lp {
        for t in CELL_REGION_TYPES {
            let bit = 1u32 << t.house_of(c as usize);
            let seen = if odd { &mut odd_seen } else { &mut even_seen };
            if *seen & bit != 0 {
                return false;
            }
            *seen |= bit;
        }
        odd = !odd;
    }
    odd_seen == even_seen
}

/// Type 2: the one extra digit of the extra cells leaves the cells seeing them all.
fn type2(
    board: &Board,
    g: &Geometry,
    set: u128,
    base: f64,
    extra: &[usize],
    pair: u16,
) -> LoopHint {
    let d = (board.cand[extra[0]] & !pair).trailing_zeros() as usize;
    let mut common = crate::rate::houses::ALL_CELLS;
    for &c in extra {
        common &= g.houses.peers[c];
    }
    let elims = crate::rate::houses::cells_of(common & board.digit[d])
        .map(|c| Candidate::new(c, d as u8 + 1))
        .collect();
    LoopHint {
        kind: 2,
        hidden: false,
        cells: set,
        difficulty: base,
        elims,
    }
}

/// Type 3: the extra digits of the two extra cells form a naked or hidden set with other cells
/// of a region they share.
#[allow(clippy::too_many_arguments)]
fn type3(
    board: &Board,
    g: &Geometry,
    set: u128,
    base: f64,
    c1: usize,
    c2: usize,
    v1: usize,
    v2: usize,
) -> Vec<LoopHint> {
    let cand = &board.cand;
    let pair = (1u16 << v1) | (1 << v2);
    let extra = (cand[c1] | cand[c2]) & !pair;
    let mut out = Vec::new();
    for degree in extra.count_ones() as usize..=7 {
        for t in CELL_REGION_TYPES {
            let h = t.house_of(c1);
            if h != t.house_of(c2) {
                continue;
            }
            let empty = g.empty_count(board, h);
            let cells = g.cells(h);
            let index1 = cells.iter().position(|&c| c as usize == c1).unwrap();
            let index2 = cells.iter().position(|&c| c as usize == c2).unwrap();
            if degree * 2 <= empty {
                for &chosen in &g.subsets[degree] {
                    if chosen & (1 << index1) == 0 || chosen & (1 << index2) != 0 {
                        continue;
                    }
                    let mut naked = extra & cand[c1] & cand[c2];
                    let mut sets = [0u16; 9];
                    let mut others = 0u16;
                    for (n, idx) in digits(chosen).enumerate() {
                        if idx == index1 {
                            sets[n] = extra;
                        } else {
                            sets[n] = cand[cells[idx] as usize];
                            naked |= sets[n];
                            others |= 1 << idx;
                        }
                    }
                    if naked.count_ones() as usize != degree {
                        continue;
                    }
                    let Some(values) = super::basic::common_tuple(&sets[..degree], degree) else {
                        continue;
                    };
                    let mut elims = Vec::new();
                    for (idx, &c) in cells.iter().enumerate() {
                        if others & (1 << idx) != 0 || idx == index1 || idx == index2 {
                            continue;
                        }
                        for d in digits(cand[c as usize] & values) {
                            elims.push(Candidate::new(c as usize, d as u8 + 1));
                        }
                    }
                    out.push(LoopHint {
                        kind: 3,
                        hidden: false,
                        cells: set,
                        difficulty: base + (values.count_ones() - 1) as f64 * 0.1,
                        elims,
                    });
                }
            }
            if degree * 2 < empty {
                let rem: Vec<usize> = (0..9)
                    .filter(|&v| v != v1 && v != v2 && extra & (1 << v) == 0)
                    .collect();
                if degree - 2 <= rem.len() {
                    for_each_subset(rem.len(), degree - 2, |chosen| {
                        let mut values = 0u16;
                        let mut positions = [0u16; 9];
                        let mut n = 0;
                        for &i in chosen {
                            values |= 1 << rem[i];
                            positions[n] = g.positions(board, h, rem[i]) & !(1 << index2);
                            n += 1;
                        }
                        for v in [v1, v2] {
                            values |= 1 << v;
                            positions[n] = g.positions(board, h, v) & !(1 << index2);
                            n += 1;
                        }
                        // SE's searchCommonTupleLight: every set non-empty, union of `degree`.
                        let mut union = 0u16;
                        for &p in &positions[..degree] {
                            if p == 0 {
                                return false;
                            }
                            union |= p;
                        }
                        if union.count_ones() as usize != degree {
                            return false;
                        }
                        let hidden_idx = union & !(1 << index1) & !(1 << index2);
                        let mut elims = Vec::new();
                        for idx in digits(hidden_idx) {
                            let c = cells[idx] as usize;
                            for d in digits(cand[c] & !values) {
                                elims.push(Candidate::new(c, d as u8 + 1));
                            }
                        }
                        out.push(LoopHint {
                            kind: 3,
                            hidden: true,
                            cells: set,
                            difficulty: base + (hidden_idx.count_ones() as f64 - 1.0) * 0.1,
                            elims,
                        });
                        false
                    });
                }
            }
        }
    }
    out
}

/// Type 4: one loop digit is confined to the two extra cells in a region they share: the other
/// leaves both.
#[allow(clippy::too_many_arguments)]
fn type4(
    board: &Board,
    g: &Geometry,
    set: u128,
    base: f64,
    c1: usize,
    c2: usize,
    v1: usize,
    v2: usize,
) -> Option<LoopHint> {
    let (mut r1, mut r2) = (false, false);
    for t in CELL_REGION_TYPES {
        let h = t.house_of(c1);
        if h != t.house_of(c2) {
            continue;
        }
        let others = g.houses.house[h] & !(1u128 << c1) & !(1u128 << c2);
        if board.digit[v1] & others == 0 {
            r1 = true;
        }
        if board.digit[v2] & others == 0 {
            r2 = true;
        }
    }
    let gone = if r1 {
        v2
    } else if r2 {
        v1
    } else {
        return None;
    };
    let elims = [c1, c2]
        .into_iter()
        .filter(|&c| board.has(c, gone))
        .map(|c| Candidate::new(c, gone as u8 + 1))
        .collect();
    Some(LoopHint {
        kind: 4,
        hidden: false,
        cells: set,
        difficulty: base,
        elims,
    })
}

/// The bivalue universal grave, types 1 to 4: the first SE emits.
pub fn bug(board: &Board, g: &Geometry) -> Option<SeStep> {
    let cand = &board.cand;
    let mut temp = *cand;
    let mut bug_cells: Vec<usize> = Vec::new();
    let mut bug_values = [0u16; 81];
    let mut all_bug_values = 0u16;
    // SE's `commonCells`, an ordered set (None until the first BUG cell).
    let mut common: Option<Vec<u8>> = None;
    for t in CELL_REGION_TYPES {
        for i in 0..9 {
            let h = t.house(i);
            for d in 0..9 {
                let positions = board.digit[d] & g.houses.house[h];
                let n = positions.count_ones();
                if n == 0 || n == 2 {
                    continue;
                }
                let mut new_cells = g
                    .cells(h)
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| positions & (1u128 << c) != 0 && cand[c].count_ones() >= 3);
                let first_new = new_cells.next();
                let second_new = new_cells.next();
                match (first_new, second_new) {
                    (None, _) => return None,
                    (Some(cell), None) => {
                        if !bug_cells.contains(&cell) {
                            bug_cells.push(cell);
                        }
                        bug_values[cell] |= 1 << d;
                        all_bug_values |= 1 << d;
                        temp[cell] &= !(1 << d);
                        let list = common.get_or_insert_with(|| g.house_cells[cell].to_vec());
                        list.retain(|c| g.house_cells[cell].contains(c));
                        list.retain(|&c| !bug_cells.contains(&(c as usize)));
                        if bug_cells.len() > 1 && all_bug_values.count_ones() > 1 && list.is_empty()
                        {
                            return None;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    // With the BUG values gone, every empty cell has two candidates and every digit two places
    // (or none) in every region.
    if (0..81).any(|c| board.value[c] == 0 && temp[c].count_ones() != 2) {
        return None;
    }
    for h in 0..27 {
        for d in 0..9 {
            let n = g
                .cells(h)
                .iter()
                .filter(|&&c| temp[c as usize] & (1 << d) != 0)
                .count();
            if n != 0 && n != 2 {
                return None;
            }
        }
    }
    let common = common.unwrap_or_default();
    if bug_cells.len() == 1 {
        let c = bug_cells[0];
        let elims = digits(cand[c] & !all_bug_values)
            .map(|d| Candidate::new(c, d as u8 + 1))
            .collect();
        return Some(SeStep::removing(SeTechnique::Bug, 5.6, elims));
    }
    if all_bug_values.count_ones() == 1 {
        let d = all_bug_values.trailing_zeros() as usize;
        let elims: Vec<Candidate> = common
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| board.has(c, d))
            .map(|c| Candidate::new(c, d as u8 + 1))
            .collect();
        if !elims.is_empty() {
            return Some(SeStep::removing(SeTechnique::Bug, 5.7, elims));
        }
        if bug_cells.len() == 2 {
            return bug4(board, &bug_cells, &bug_values, all_bug_values);
        }
        return None;
    }
    if common.is_empty() {
        return None;
    }
    if bug_cells.len() == 2
        && let Some(step) = bug4(board, &bug_cells, &bug_values, all_bug_values)
    {
        return Some(step);
    }
    bug3(board, &bug_cells, all_bug_values, &common)
}

fn bug4(board: &Board, bug_cells: &[usize], bug_values: &[u16; 81], all: u16) -> Option<SeStep> {
    let cand = &board.cand;
    let (c1, c2) = (bug_cells[0], bug_cells[1]);
    let common = cand[c1] & cand[c2] & !all;
    if common.count_ones() != 1 {
        return None;
    }
    let shares = CELL_REGION_TYPES
        .iter()
        .any(|t| t.house_of(c1) == t.house_of(c2));
    if !shares {
        return None;
    }
    let mut elims = Vec::new();
    for c in [c1, c2] {
        for d in digits(cand[c] & !bug_values[c] & !common) {
            elims.push(Candidate::new(c, d as u8 + 1));
        }
    }
    Some(SeStep::removing(SeTechnique::Bug, 5.7, elims))
}

fn bug3(board: &Board, bug_cells: &[usize], all: u16, common: &[u8]) -> Option<SeStep> {
    let cand = &board.cand;
    for t in CELL_REGION_TYPES {
        let h = t.house_of(bug_cells[0]);
        if bug_cells.iter().any(|&c| t.house_of(c) != h) {
            continue;
        }
        let region_cells: Vec<usize> = common
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| t.house_of(c) == h)
            .collect();
        for degree in 2..=6 {
            if region_cells.len() < degree {
                continue;
            }
            let mut found = None;
            for_each_subset(region_cells.len(), degree - 1, |chosen| {
                let mut sets = [0u16; 6];
                let mut other = 0u16;
                for (n, &i) in chosen.iter().enumerate() {
                    sets[n] = cand[region_cells[i]];
                    other |= sets[n];
                }
                sets[degree - 1] = all;
                if other.count_ones() as usize != degree {
                    return false;
                }
                let Some(naked) = super::basic::common_tuple(&sets[..degree], degree) else {
                    return false;
                };
                let mut elims = Vec::new();
                for (i, &c) in region_cells.iter().enumerate() {
                    if chosen.contains(&i) || bug_cells.contains(&c) {
                        continue;
                    }
                    for d in digits(cand[c] & naked) {
                        elims.push(Candidate::new(c, d as u8 + 1));
                    }
                }
                if elims.is_empty() {
                    return false;
                }
                let difficulty = 5.7 + (naked.count_ones() - 1) as f64 * 0.1;
                found = Some(SeStep::removing(SeTechnique::Bug, difficulty, elims));
                true
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}
