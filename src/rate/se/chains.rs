//! SE's chaining techniques: bidirectional cycles and forcing X/Y chains, Nishio, multiple
//! (cell and region) and dynamic forcing chains, and dynamic forcing chains (+), in SE's search
//! order, with SE's chain complexities, length increments and hint ordering.
//!
//! # Potentials and chains
//! A potential is a candidate assumed true ("on") or false ("off"). A chain is a tree of
//! potentials, each remembering the potentials it was deduced from (its parents): an "on"
//! makes the other candidates of its cell and the other places of its digit in its block, row
//! and column "off"; an "off" makes "on" the other candidate of a bivalue cell and the other
//! place of a digit with two places in a block, row or column. Potentials live in an arena
//! ([`Arena`]) and are equal when their cell, digit and state are (SE's `Potential.equals`),
//! whatever their parents; sets of potentials keep the first version added and their
//! insertion order (SE's `LinkedSet`).
//!
//! # Ordering
//! Each producer computes all its hints, and SE sorts them stably by difficulty, then
//! complexity (the number of distinct potentials of the chains: SE's `getAncestorCount`), then
//! a sort key by kind; the first one is applied. Only that first one matters to the rating, so
//! the producers here keep the first minimal hint in SE's generation order ([`Best`]).
//!
//! # Dynamic chains
//! A dynamic chain removes each "off" potential from a working copy of the grid as it is
//! processed, so later deductions see the reduced grid; an "on" deduced that way gets as extra
//! ("hidden") parents the "off" potentials that emptied its cell or region.
//!
//! Dynamic chains (+) (SE's nesting level 1) go on, when nothing else follows, with the
//! removals of the first of intersections, hidden pairs, naked pairs and X-Wings to find any
//! on the working grid ([`RuleHints`]). SE takes a rule's removals in the order of a
//! `HashMap` keyed by cell objects without their own hash (so in an order that may change
//! from one run of SE to the next); here they are taken in reading order.
//!
//! # Not built
//! SE's nesting levels 2 to 5 (9.5 and up: forcing chains, multiple and dynamic forcing
//! chains themselves nested in dynamic chains) would extend [`Engine::advanced`] with those
//! producers' hints, their rule parents (SE's `collectRuleParents`, which needs each
//! potential's cause: cell, block, row or column) and the nested chains' complexities.

use std::collections::VecDeque;

use super::geometry::{CELL_REGION_TYPES, Geometry, digits};
use super::{SeStep, SeTechnique};
use crate::grid::Grid;
use crate::rate::board::Board;
use crate::rate::houses::{at_most, cells_of, is_two, nine_count};
use crate::rate::step::Candidate;

/// A potential's key: `(cell * 9 + digit) * 2`, plus one when "on".
#[inline]
fn key(cell: usize, d: usize, on: bool) -> usize {
    (cell * 9 + d) * 2 + usize::from(on)
}

/// How many keys there are.
const KEYS: usize = 81 * 9 * 2;

/// "No node" in an index table.
const NONE: u32 = u32::MAX;

/// One potential of a chain.
#[derive(Debug, Clone, Copy)]
struct Node {
    cell: u8,
    digit: u8,
    on: bool,
    /// Where its parents start in [`Arena::parents`].
    first_parent: u32,
    /// How many parents it has.
    parent_count: u16,
}

impl Node {
    /// The potential alone, outside the arena (no parents): a hint's result.
    fn bare(cell: usize, d: usize, on: bool) -> Node {
        Node {
            cell: cell as u8,
            digit: d as u8,
            on,
            first_parent: 0,
            parent_count: 0,
        }
    }

    #[inline]
    fn key(&self) -> usize {
        key(self.cell as usize, self.digit as usize, self.on)
    }
}

/// The potentials of a search; a node's parents are stored together when it is made.
#[derive(Debug, Default)]
struct Arena {
    nodes: Vec<Node>,
    parents: Vec<u32>,
    /// Scratch for [`Arena::ancestor_count`].
    seen: Vec<u64>,
    todo: Vec<u32>,
    next: Vec<u32>,
}

impl Arena {
    fn clear(&mut self) {
        self.nodes.clear();
        self.parents.clear();
    }

    fn push(&mut self, cell: usize, d: usize, on: bool, parents: &[u32]) -> u32 {
        let first_parent = self.parents.len() as u32;
        self.parents.extend_from_slice(parents);
        self.nodes.push(Node {
            cell: cell as u8,
            digit: d as u8,
            on,
            first_parent,
            parent_count: parents.len() as u16,
        });
        (self.nodes.len() - 1) as u32
    }

    #[inline]
    fn node(&self, n: u32) -> Node {
        self.nodes[n as usize]
    }

    #[inline]
    fn parents_of(&self, n: u32) -> &[u32] {
        let node = &self.nodes[n as usize];
        let start = node.first_parent as usize;
        &self.parents[start..start + node.parent_count as usize]
    }

    /// SE's `isParent`: whether a potential equal to `k` is on the first-parent path above
    /// `child` (the child itself excluded).
    fn is_parent(&self, child: u32, k: usize) -> bool {
        let mut p = child;
        while let Some(&first) = self.parents_of(p).first() {
            p = first;
            if self.node(p).key() == k {
                return true;
            }
        }
        false
    }

    /// SE's `getAncestorCount`: the distinct potentials reachable through parents, the node
    /// included; breadth first, each potential's parents followed from its first version met.
    fn ancestor_count(&mut self, n: u32) -> u32 {
        self.seen.clear();
        self.seen.resize(KEYS.div_ceil(64), 0);
        self.todo.clear();
        self.todo.push(n);
        let mut count = 0;
        while !self.todo.is_empty() {
            self.next.clear();
            for i in 0..self.todo.len() {
                let p = self.todo[i];
                let k = self.nodes[p as usize].key();
                if self.seen[k / 64] & (1 << (k % 64)) == 0 {
                    self.seen[k / 64] |= 1 << (k % 64);
                    count += 1;
                    let node = &self.nodes[p as usize];
                    let start = node.first_parent as usize;
                    let end = start + node.parent_count as usize;
                    self.next.extend_from_slice(&self.parents[start..end]);
                }
            }
            std::mem::swap(&mut self.todo, &mut self.next);
        }
        count
    }
}

/// SE's `LinkedSet<Potential>`: at most one node per key (the first added), in insertion
/// order. Sets are reused ([`Engine::new_set`], [`Engine::recycle`]): clearing one resets only
/// the keys it holds.
#[derive(Debug)]
struct PotSet {
    index: Vec<u32>,
    order: Vec<u32>,
    keys: Vec<u16>,
}

impl PotSet {
    fn new() -> PotSet {
        PotSet {
            index: vec![NONE; KEYS],
            order: Vec::new(),
            keys: Vec::new(),
        }
    }

    #[inline]
    fn get(&self, k: usize) -> Option<u32> {
        let n = self.index[k];
        (n != NONE).then_some(n)
    }

    #[inline]
    fn contains(&self, k: usize) -> bool {
        self.index[k] != NONE
    }

    /// Adds `n` (key `k`) unless a potential equal to it is in already.
    #[inline]
    fn add(&mut self, k: usize, n: u32) {
        if self.index[k] == NONE {
            self.index[k] = n;
            self.order.push(n);
            self.keys.push(k as u16);
        }
    }

    /// `retainAll`: keeps the potentials whose key `other` holds, in this set's order.
    fn retain(&mut self, other: &PotSet) {
        let mut kept = 0;
        for i in 0..self.order.len() {
            let k = self.keys[i] as usize;
            if other.contains(k) {
                self.order[kept] = self.order[i];
                self.keys[kept] = self.keys[i];
                kept += 1;
            } else {
                self.index[k] = NONE;
            }
        }
        self.order.truncate(kept);
        self.keys.truncate(kept);
    }

    /// Empties the set.
    fn clear(&mut self) {
        for &k in &self.keys {
            self.index[k as usize] = NONE;
        }
        self.order.clear();
        self.keys.clear();
    }
}

/// A set of potential keys emptied in constant time: a key is in when its mark is the current
/// stamp.
#[derive(Debug, Default)]
struct Marks {
    stamp: u32,
    mark: Vec<u32>,
}

impl Marks {
    /// Empties the set.
    fn start(&mut self) {
        if self.mark.is_empty() {
            self.mark = vec![0; KEYS];
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
    }

    #[inline]
    fn is_set(&self, k: usize) -> bool {
        self.mark[k] == self.stamp
    }

    #[inline]
    fn set(&mut self, k: usize) {
        self.mark[k] = self.stamp;
    }
}

/// A set of candidates, bit `cell * 9 + digit`: the potentials a forcing chain reached.
type CandSet = [u64; 12];

#[inline]
fn has(set: &CandSet, i: usize) -> bool {
    set[i / 64] & (1 << (i % 64)) != 0
}

#[inline]
fn insert(set: &mut CandSet, i: usize) {
    set[i / 64] |= 1 << (i % 64);
}

#[inline]
fn union_with(set: &mut CandSet, other: &CandSet) {
    for (a, b) in set.iter_mut().zip(other) {
        *a |= b;
    }
}

/// Calls `f` with each candidate of `set`, in increasing order (a plain loop over the words:
/// measured 5% faster on QQWing's experts than an iterator of them).
#[inline(always)]
fn for_members(set: &CandSet, mut f: impl FnMut(usize)) {
    for (w, &word) in set.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            f(w * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

/// A static chain's links on the grid, per candidate: the "off" potentials its "on" makes
/// (SE's `getOnToOff`) and the "on" ones its "off" makes (`getOffToOn`, X-links always).
#[derive(Debug)]
struct Links {
    off_of_on: Vec<CandSet>,
    on_of_off: Vec<CandSet>,
    /// The candidates whose two entries were written (every other entry is empty), so that
    /// the tables are emptied for the next grid by clearing those alone.
    filled: Vec<u16>,
}

impl Links {
    fn new() -> Links {
        Links {
            off_of_on: vec![[0; 12]; 81 * 9],
            on_of_off: vec![[0; 12]; 81 * 9],
            filled: Vec::new(),
        }
    }

    /// Every entry empty again.
    fn empty(&mut self) {
        for &i in &self.filled {
            self.off_of_on[i as usize] = [0; 12];
            self.on_of_off[i as usize] = [0; 12];
        }
        self.filled.clear();
    }
}

/// SE's `getLengthDifficulty`: 0.1 for each threshold (4, 6, 8, 12, 16, 24, 32, ...: times
/// 3/2 and 4/3 in turn, integer division) the chain's length (complexity - 2) is above, added
/// in SE's order (so the sums are SE's doubles).
pub fn length_difficulty(complexity: u32) -> f64 {
    let mut added = 0.0;
    let mut ceil: i64 = 4;
    let length = i64::from(complexity) - 2;
    let mut odd = false;
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// A chaining hint as SE sorts it.
#[derive(Debug, Clone)]
struct ChainHint {
    difficulty: f64,
    complexity: u32,
    sort_key: u8,
    technique: SeTechnique,
    eliminations: Vec<Candidate>,
    placement: Option<Candidate>,
}

/// The first hint of SE's stable sort: the first minimal one in generation order.
#[derive(Debug, Default)]
struct Best(Option<ChainHint>);

impl Best {
    /// Whether a hint with these keys would come first (before the best so far).
    fn beaten_by(&self, difficulty: f64, complexity: u32, sort_key: u8) -> bool {
        match &self.0 {
            None => true,
            Some(b) => {
                if difficulty != b.difficulty {
                    difficulty < b.difficulty
                } else if complexity != b.complexity {
                    complexity < b.complexity
                } else {
                    sort_key < b.sort_key
                }
            }
        }
    }

    /// The largest complexity a hint of difficulty `base` plus its length increment and of
    /// this sort key may have and still come first (`u32::MAX` when there is no best yet).
    /// Whether a hint beats the best is monotone in its complexity for a fixed base and key.
    fn complexity_limit(&self, base: f64, sort_key: u8) -> u32 {
        if self.0.is_none() {
            return u32::MAX;
        }
        let mut c = 0;
        while c < KEYS as u32 && self.beaten_by(base + length_difficulty(c + 1), c + 1, sort_key) {
            c += 1;
        }
        c
    }

    fn offer(&mut self, h: ChainHint) {
        if self.beaten_by(h.difficulty, h.complexity, h.sort_key) {
            self.0 = Some(h);
        }
    }

    fn into_step(self) -> Option<SeStep> {
        self.0.map(|h| SeStep {
            technique: h.technique,
            difficulty: h.difficulty,
            placement: h.placement,
            eliminations: h.eliminations,
        })
    }
}

/// What a producer searches (SE's `Chaining(isMultiple, isDynamic, isNishio, 0)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Nishio forcing chains (7.5): dynamic, X-links only, contradictions only.
    Nishio,
    /// Cell and region forcing chains (8.0), static.
    Multiple,
    /// Dynamic forcing chains (8.5): double and contradiction chains, cell and region ones.
    Dynamic,
    /// Dynamic forcing chains (+) (9.0): dynamic ones that also deduce with intersections,
    /// hidden and naked pairs and X-Wings on the working grid when nothing else follows.
    DynamicPlus,
}

impl Mode {
    fn dynamic(self) -> bool {
        self != Mode::Multiple
    }
    fn nishio(self) -> bool {
        self == Mode::Nishio
    }
    fn multiple(self) -> bool {
        self != Mode::Nishio
    }
    fn difficulty(self) -> f64 {
        match self {
            Mode::Nishio => 7.5,
            Mode::Multiple => 8.0,
            Mode::Dynamic => 8.5,
            Mode::DynamicPlus => 9.0,
        }
    }
    /// SE's nesting level: whether simple rules extend a chain.
    fn level(self) -> u8 {
        u8::from(self == Mode::DynamicPlus)
    }
}

/// What a candidate assumed "on" implies ([`Engine::on_chaining`]): the potentials made "on"
/// and "off", and the first contradiction met (the chaining stops there).
#[derive(Debug)]
struct Chained {
    on: PotSet,
    off: PotSet,
    absurd: Option<(u32, u32)>,
}

/// What the chaining searches of one rater keep from one search to the next, so that they
/// do not allocate it again: emptied sets, the arena, the table of chainings
/// ([`Engine::multiple`]), the marks and the static chains' tables (emptied by the engine
/// that takes them: a few hundred kilobytes that a new engine zeroed each time). Nothing in
/// it carries a result over.
#[derive(Debug, Default)]
pub struct Scratch {
    pool: Vec<PotSet>,
    arena: Arena,
    cache: Vec<Option<Chained>>,
    marks: Marks,
    static_on: Vec<[(u8, u8); 4]>,
    static_len: Vec<u8>,
    static_off_at: Vec<(u32, u32)>,
    static_off: Vec<(u8, u8)>,
    links: [Option<Box<Links>>; 2],
}

/// A copy starts empty: the memory is scratch, not state.
impl Clone for Scratch {
    fn clone(&self) -> Scratch {
        Scratch::default()
    }
}

/// The chaining engine over one grid.
struct Engine<'a> {
    g: &'a Geometry,
    board: &'a Board,
    /// The grid's candidates (SE's grid, restored after each chaining).
    base: [u16; 81],
    /// The working copy a dynamic chaining removes its "off" potentials from.
    work: [u16; 81],
    arena: Arena,
    /// The grid's cells having each digit.
    digit_cells: [u128; 9],
    /// The working grid's cells having each digit.
    work_digit: [u128; 9],
    /// Scratch lists of deduced (cell, digit) pairs and their hidden parents.
    found: Vec<(u8, u8)>,
    hidden: Vec<u32>,
    /// Emptied sets for reuse.
    pool: Vec<PotSet>,
    /// The potentials a cycle or forcing chain search reached.
    marks: Marks,
    /// The "on" and "off" queues of [`Engine::chaining`], kept for reuse.
    queues: (VecDeque<u32>, VecDeque<u32>),
    /// A static chain's `getOffToOn` per candidate and links (Y, X): the potentials made "on"
    /// and their count (`u8::MAX`: not computed yet).
    static_on: Vec<[(u8, u8); 4]>,
    static_len: Vec<u8>,
    /// Per candidate and Y-links or not, where its static "off" potentials (SE's `getOnToOff`
    /// on the grid) lie in `static_off` (`u32::MAX`: not computed yet).
    static_off_at: Vec<(u32, u32)>,
    static_off: Vec<(u8, u8)>,
    /// Whether `static_off_at` (0) and `static_len` (1) were set to "not computed yet" for
    /// this engine's grid: on first use, as their memory may hold an earlier grid's.
    statics_made: [bool; 2],
    /// The static links without and with Y-links, made when first needed (`links_made`);
    /// tables of an earlier grid are emptied then.
    links: [Option<Box<Links>>; 2],
    links_made: [bool; 2],
    /// The solution's digit of each cell (0-based), or [`NO_TRUTH`] without a solution.
    truth: [u8; 81],
}

/// "The solution is not known" in [`Engine::truth`].
const NO_TRUTH: u8 = u8::MAX;

impl<'a> Engine<'a> {
    /// An engine over `board`, with the arena and sets of `scratch` (given back by
    /// [`Engine::finish`]).
    fn new(
        board: &'a Board,
        g: &'a Geometry,
        solution: Option<&Grid>,
        scratch: &mut Scratch,
    ) -> Engine<'a> {
        let truth = solution.map_or([NO_TRUTH; 81], |s| {
            std::array::from_fn(|cell| s.get(cell).wrapping_sub(1))
        });
        let mut arena = std::mem::take(&mut scratch.arena);
        arena.clear();
        Engine {
            g,
            board,
            base: board.cand,
            work: board.cand,
            digit_cells: board.digit,
            work_digit: board.digit,
            arena,
            found: Vec::new(),
            hidden: Vec::new(),
            pool: std::mem::take(&mut scratch.pool),
            marks: std::mem::take(&mut scratch.marks),
            queues: Default::default(),
            static_on: std::mem::take(&mut scratch.static_on),
            static_len: std::mem::take(&mut scratch.static_len),
            static_off_at: std::mem::take(&mut scratch.static_off_at),
            static_off: std::mem::take(&mut scratch.static_off),
            statics_made: [false; 2],
            links: std::mem::take(&mut scratch.links),
            links_made: [false; 2],
            truth,
        }
    }

    /// Gives the arena and the emptied sets back to `scratch`.
    fn finish(self, scratch: &mut Scratch) {
        scratch.arena = self.arena;
        scratch.pool = self.pool;
        scratch.marks = self.marks;
        scratch.static_on = self.static_on;
        scratch.static_len = self.static_len;
        scratch.static_off_at = self.static_off_at;
        scratch.static_off = self.static_off;
        scratch.links = self.links;
    }

    /// An empty set, reused when one is free.
    fn new_set(&mut self) -> PotSet {
        self.pool.pop().unwrap_or_else(PotSet::new)
    }

    /// A copy of `from`.
    fn copy_set(&mut self, from: &PotSet) -> PotSet {
        let mut set = self.new_set();
        for (&n, &k) in from.order.iter().zip(&from.keys) {
            set.add(k as usize, n);
        }
        set
    }

    /// Gives a set back for reuse.
    fn recycle(&mut self, mut set: PotSet) {
        set.clear();
        self.pool.push(set);
    }

    /// The positions (bit `k` for the house's `k`-th cell) of digit `d` in house `h` of the
    /// grid `cand`.
    #[inline]
    fn positions(&self, cand: &[u16; 81], h: usize, d: usize) -> u16 {
        let mut p = 0u16;
        for (k, &c) in self.g.cells(h).iter().enumerate() {
            if cand[c as usize] & (1 << d) != 0 {
                p |= 1 << k;
            }
        }
        p
    }

    /// SE's `getOnToOff` on the working grid: into `self.found`, the (cell, digit) pairs made
    /// "off" by `(cell, d)` on: the cell's other digits (with Y-links), then the digit's other
    /// places in the block, row and column, each once.
    fn on_to_off(&mut self, cell: usize, d: usize, y_links: bool) {
        self.found.clear();
        if y_links {
            for v in digits(self.work[cell] & !(1 << d)) {
                self.found.push((cell as u8, v as u8));
            }
        }
        // A house's cells in SE's index order are in increasing cell order.
        let mut seen: u128 = 1 << cell;
        for t in CELL_REGION_TYPES {
            let places = self.g.houses.house[t.house_of(cell)] & self.work_digit[d] & !seen;
            seen |= places;
            for o in cells_of(places) {
                self.found.push((o as u8, d as u8));
            }
        }
    }

    /// [`Engine::on_to_off`] on the grid (a static chain's), computed once per candidate:
    /// where the potentials lie in `static_off`.
    fn static_offs(&mut self, cell: usize, d: usize, y_links: bool) -> std::ops::Range<usize> {
        let idx = (cell * 9 + d) * 2 + usize::from(y_links);
        if !self.statics_made[0] {
            self.static_off_at.clear();
            self.static_off_at.resize(81 * 9 * 2, (u32::MAX, 0));
            self.static_off.clear();
            self.statics_made[0] = true;
        }
        if self.static_off_at[idx].0 == u32::MAX {
            debug_assert_eq!(self.work, self.base);
            self.on_to_off(cell, d, y_links);
            let start = self.static_off.len() as u32;
            self.static_off.extend_from_slice(&self.found);
            self.static_off_at[idx] = (start, self.found.len() as u32);
        }
        let (start, len) = self.static_off_at[idx];
        start as usize..(start + len) as usize
    }

    /// The conjugate places of digit `d` from `cell` on the working grid, in SE's order: for
    /// each region of the cell (block, row, column) where `d` has exactly two places, the other
    /// one (the first place in SE's index order, which is cell order, or the second when the
    /// first is the cell), each cell once, with the region; and how many there are.
    fn conjugates(&self, cell: usize, d: usize) -> ([(usize, u128); 3], usize) {
        let mut partners = [(0, 0); 3];
        let mut n = 0;
        let mut seen: u128 = 0;
        for t in CELL_REGION_TYPES {
            let house = self.g.houses.house[t.house_of(cell)];
            let pos = house & self.work_digit[d];
            if !is_two(pos) {
                continue;
            }
            let mut other = pos.trailing_zeros() as usize;
            if other == cell {
                other = (pos & !(1 << other)).trailing_zeros() as usize;
            }
            if seen & (1 << other) == 0 {
                seen |= 1 << other;
                partners[n] = (other, house);
                n += 1;
            }
        }
        (partners, n)
    }

    /// A static chain's `getOffToOn` for candidate (cell, d) off: the working grid is the
    /// grid, so the potentials made "on" (and their count) depend on the candidate only; they
    /// are computed once.
    #[inline]
    fn static_ons(
        &mut self,
        cell: usize,
        d: usize,
        y_links: bool,
        x_links: bool,
    ) -> ([(u8, u8); 4], usize) {
        let idx = ((cell * 9 + d) * 2 + usize::from(y_links)) * 2 + usize::from(x_links);
        if !self.statics_made[1] {
            self.static_len.clear();
            self.static_len.resize(81 * 9 * 4, u8::MAX);
            // Read only where `static_len` says computed.
            self.static_on.resize(81 * 9 * 4, [(0, 0); 4]);
            self.statics_made[1] = true;
        }
        if self.static_len[idx] == u8::MAX {
            let mut list = [(0u8, 0u8); 4];
            let mut len = 0;
            if y_links && nine_count(self.work[cell]) == 2 {
                let other = (self.work[cell] & !(1 << d)).trailing_zeros() as usize;
                list[len] = (cell as u8, other as u8);
                len += 1;
            }
            if x_links {
                let (partners, n) = self.conjugates(cell, d);
                for &(other, _) in &partners[..n] {
                    list[len] = (other as u8, d as u8);
                    len += 1;
                }
            }
            self.static_on[idx] = list;
            self.static_len[idx] = len as u8;
        }
        (self.static_on[idx], self.static_len[idx] as usize)
    }

    /// SE's `getOffToOn` on the working grid: the potentials made "on" by node `p` (off),
    /// pushed to the arena with `p` and, in a dynamic chain, their hidden parents (looked up
    /// in `offs`: the working grid lost only the "off" potentials processed, all in `offs`).
    /// Returns the range of the new nodes.
    fn off_to_on(
        &mut self,
        p: u32,
        y_links: bool,
        x_links: bool,
        offs: Option<&PotSet>,
    ) -> std::ops::Range<u32> {
        let start = self.arena.nodes.len() as u32;
        let node = self.arena.node(p);
        let (cell, d) = (node.cell as usize, node.digit as usize);
        if offs.is_none() {
            let (list, len) = self.static_ons(cell, d, y_links, x_links);
            for &(c, v) in &list[..len] {
                self.arena.push(c as usize, v as usize, true, &[p]);
            }
            return start..self.arena.nodes.len() as u32;
        }
        if y_links && nine_count(self.work[cell]) == 2 {
            let other = (self.work[cell] & !(1 << d)).trailing_zeros() as usize;
            self.hidden.clear();
            self.hidden.push(p);
            if let Some(offs) = offs {
                for v in digits(self.base[cell] & !self.work[cell]) {
                    let parent = offs.get(key(cell, v, false)).expect("hidden parent");
                    self.hidden.push(parent);
                }
            }
            let hidden = std::mem::take(&mut self.hidden);
            self.arena.push(cell, other, true, &hidden);
            self.hidden = hidden;
        }
        if x_links {
            let (partners, n) = self.conjugates(cell, d);
            for &(other, house) in &partners[..n] {
                let pos = house & self.work_digit[d];
                self.hidden.clear();
                self.hidden.push(p);
                if let Some(offs) = offs {
                    for c in cells_of(house & self.digit_cells[d] & !pos) {
                        let parent = offs.get(key(c, d, false)).expect("hidden parent");
                        self.hidden.push(parent);
                    }
                }
                let hidden = std::mem::take(&mut self.hidden);
                self.arena.push(other, d, true, &hidden);
                self.hidden = hidden;
            }
        }
        start..self.arena.nodes.len() as u32
    }

    // ----- Cycles and forcing X/Y chains (SE's unary chaining) -----

    /// SE's `doCycles` from `src` (on): breadth first by levels, an "off" taken again each
    /// time it is deduced (unless it is on its own path), an "on" once; the ends of the cycles
    /// found back at `src` after at least four levels.
    ///
    /// A cycle ending at level `length` has complexity `length` (its potentials are distinct
    /// but for the end, equal to `src`): the search stops before the levels whose cycles
    /// would have a complexity above `limit`.
    fn cycles(&mut self, src: u32, y_links: bool, x_links: bool, ends: &mut Vec<u32>, limit: u32) {
        let src_key = self.arena.node(src).key();
        self.marks.start();
        self.marks.set(src_key);
        let mut pending_on = vec![src];
        let mut pending_off: Vec<u32> = Vec::new();
        let mut length = 0;
        while !pending_on.is_empty() || !pending_off.is_empty() {
            if length + 2 > limit {
                break;
            }
            length += 1;
            // Each level's list is read while the next level's fills the other one.
            let mut batch = std::mem::take(&mut pending_on);
            for &p in &batch {
                let node = self.arena.node(p);
                let offs = self.static_offs(node.cell as usize, node.digit as usize, y_links);
                for i in offs {
                    let (c, v) = (self.static_off[i].0 as usize, self.static_off[i].1 as usize);
                    // An "off" whose "on" potentials are all taken already (none of them the
                    // source, which would end a cycle) would add nothing: it is passed over.
                    let (ons, len) = self.static_ons(c, v, y_links, x_links);
                    let adds = ons[..len].iter().any(|&(oc, ov)| {
                        let k = key(oc as usize, ov as usize, true);
                        k == src_key || !self.marks.is_set(k)
                    });
                    if adds && !self.arena.is_parent(p, key(c, v, false)) {
                        let n = self.arena.push(c, v, false, &[p]);
                        pending_off.push(n);
                    }
                }
            }
            batch.clear();
            pending_on = batch;
            length += 1;
            let mut batch = std::mem::take(&mut pending_off);
            for &p in &batch {
                let node = self.arena.node(p);
                let (ons, len) =
                    self.static_ons(node.cell as usize, node.digit as usize, y_links, x_links);
                // Only the "on" potentials that end a cycle or are new are made: the others
                // would be left unused.
                for &(c, v) in &ons[..len] {
                    let (c, v) = (c as usize, v as usize);
                    let k = key(c, v, true);
                    let ends_cycle = length >= 4 && k == src_key;
                    let new = !self.marks.is_set(k);
                    if !ends_cycle && !new {
                        continue;
                    }
                    let n = self.arena.push(c, v, true, &[p]);
                    if ends_cycle {
                        debug_assert_eq!(self.arena.ancestor_count(n), length);
                        ends.push(n);
                    }
                    if new {
                        self.marks.set(k);
                        pending_on.push(n);
                    }
                }
            }
            batch.clear();
            pending_off = batch;
        }
    }

    /// The static links on the grid, with or without Y-links.
    fn links(&mut self, y_links: bool) -> &Links {
        let slot = usize::from(y_links);
        if !self.links_made[slot] {
            let mut links = self.links[slot]
                .take()
                .unwrap_or_else(|| Box::new(Links::new()));
            links.empty();
            for cell in 0..81 {
                for d in digits(self.base[cell]) {
                    let i = cell * 9 + d;
                    links.filled.push(i as u16);
                    for k in self.static_offs(cell, d, y_links) {
                        let (c, v) = self.static_off[k];
                        insert(&mut links.off_of_on[i], c as usize * 9 + v as usize);
                    }
                    if y_links && nine_count(self.base[cell]) == 2 {
                        let other = (self.base[cell] & !(1 << d)).trailing_zeros() as usize;
                        insert(&mut links.on_of_off[i], cell * 9 + other);
                    }
                    let (partners, n) = self.conjugates(cell, d);
                    for &(other, _) in &partners[..n] {
                        insert(&mut links.on_of_off[i], other * 9 + d);
                    }
                }
            }
            self.links[slot] = Some(links);
            self.links_made[slot] = true;
        }
        self.links[slot].as_deref().expect("made above")
    }

    /// SE's `doForcingChains` from candidate (cell, d) assumed `on` or off: the complexity of
    /// the first potential found contradicting it (its own negation), if any.
    ///
    /// SE's search is breadth first, each potential taken once (an "off" equal to one of its
    /// own ancestors is among those taken already), so the first contradiction is found in
    /// the first round `i` that reaches it, with `2 * i` distinct potentials: the rounds are
    /// run here on sets of candidates. The search stops before the rounds whose contradiction
    /// would have a complexity above `limit`.
    fn forcing_chain(
        &mut self,
        cell: usize,
        d: usize,
        on: bool,
        y_links: bool,
        limit: u32,
    ) -> Option<u32> {
        let links = self.links(y_links);
        let src = cell * 9 + d;
        let (mut reached_on, mut reached_off) = ([0u64; 12], [0u64; 12]);
        let (mut frontier_on, mut frontier_off) = ([0u64; 12], [0u64; 12]);
        if on {
            insert(&mut reached_on, src);
            insert(&mut frontier_on, src);
        } else {
            insert(&mut reached_off, src);
            insert(&mut frontier_off, src);
        }
        let mut round: u32 = 0;
        while frontier_on.iter().chain(&frontier_off).any(|&w| w != 0) {
            round += 1;
            if round.saturating_mul(2) > limit {
                return None;
            }
            let mut offs = [0u64; 12];
            for_members(&frontier_on, |p| union_with(&mut offs, &links.off_of_on[p]));
            if on && has(&offs, src) {
                return Some(2 * round);
            }
            for (w, (o, r)) in frontier_off
                .iter_mut()
                .zip(offs.iter().zip(&mut reached_off))
            {
                *w |= o & !*r;
                *r |= o;
            }
            let mut ons = [0u64; 12];
            for_members(&frontier_off, |q| union_with(&mut ons, &links.on_of_off[q]));
            if !on && has(&ons, src) {
                return Some(2 * round);
            }
            for (w, (o, r)) in frontier_on.iter_mut().zip(ons.iter().zip(&mut reached_on)) {
                *w = o & !*r;
                *r |= o;
            }
            frontier_off = [0; 12];
        }
        None
    }

    /// SE's `createCycleHint`: the digits seen by both an "on" and an "off" of the cycle,
    /// outside the cycle's cells.
    fn cycle_hint(&mut self, end: u32, y_links: bool, x_links: bool) -> Option<ChainHint> {
        let mut cells: u128 = 0;
        let mut p = end;
        while let Some(&parent) = self.arena.parents_of(p).first() {
            cells |= 1 << self.arena.node(p).cell;
            p = parent;
        }
        // Per digit, the cells seen by an "on" (forward) and by an "off" (backward).
        let mut forward = [0u128; 9];
        let mut backward = [0u128; 9];
        let mut p = end;
        while let Some(&parent) = self.arena.parents_of(p).first() {
            let n = self.arena.node(p);
            let (cell, d) = (n.cell as usize, n.digit as usize);
            let seen = self.g.houses.peers[cell] & !cells & self.digit_cells[d];
            let side = if n.on { &mut forward } else { &mut backward };
            side[d] |= seen;
            p = parent;
        }
        let mut eliminations = Vec::new();
        for d in 0..9 {
            for c in cells_of(forward[d] & backward[d]) {
                eliminations.push(Candidate::new(c, d as u8 + 1));
            }
        }
        if eliminations.is_empty() {
            return None;
        }
        eliminations.sort_by_key(|e| (e.cell, e.digit));
        let complexity = self.arena.ancestor_count(end);
        let xy = x_links && y_links;
        let technique = if xy {
            SeTechnique::BidirectionalCycle
        } else if y_links {
            SeTechnique::BidirectionalYCycle
        } else {
            SeTechnique::BidirectionalXCycle
        };
        let base = if xy { 7.0 } else { 6.5 };
        Some(ChainHint {
            difficulty: base + length_difficulty(complexity),
            complexity,
            sort_key: sort_key(x_links, y_links),
            technique,
            eliminations,
            placement: None,
        })
    }

    /// SE's `createForcingChainHint`: the target's digit removed (target off) or placed; its
    /// chain has `complexity` potentials.
    fn forcing_chain_hint(&self, target: Node, complexity: u32, y_links: bool) -> ChainHint {
        let (technique, base) = if y_links {
            (SeTechnique::ForcingChain, 7.0)
        } else {
            (SeTechnique::ForcingXChain, 6.6)
        };
        let (eliminations, placement) = self.target_effect(target);
        ChainHint {
            difficulty: base + length_difficulty(complexity),
            complexity,
            sort_key: sort_key(true, y_links),
            technique,
            eliminations,
            placement,
        }
    }

    /// What a hint whose result is `n` does: an "off" removes its candidate; an "on" removes
    /// its cell's other candidates and places it.
    fn target_effect(&self, n: Node) -> (Vec<Candidate>, Option<Candidate>) {
        let (cell, d) = (n.cell as usize, n.digit as usize);
        if n.on {
            let elims = digits(self.base[cell] & !(1 << d))
                .map(|v| Candidate::new(cell, v as u8 + 1))
                .collect();
            (elims, Some(Candidate::new(cell, d as u8 + 1)))
        } else {
            (vec![Candidate::new(cell, d as u8 + 1)], None)
        }
    }

    /// SE's `getLoopHintList` and `doUnaryChaining`: for every candidate of every cell with
    /// two or more (reading order, digits ascending), its cycles, then its forcing chains
    /// from "on" and from "off".
    fn unary(&mut self, y_links: bool, x_links: bool, best: &mut Best) {
        let mut ends = Vec::new();
        let cycle_base = if x_links && y_links { 7.0 } else { 6.5 };
        let cycle_key = sort_key(x_links, y_links);
        let chain_base = if y_links { 7.0 } else { 6.6 };
        let chain_key = sort_key(true, y_links);
        for cell in 0..81 {
            let cand = self.base[cell];
            if nine_count(cand) < 2 {
                continue;
            }
            if nine_count(cand) > 2 && !x_links {
                continue;
            }
            for d in digits(cand) {
                self.arena.clear();
                ends.clear();
                // The hints are offered in SE's order (cycles, then the forcing chains from
                // "on", then from "off"); each search skips what cannot beat the best so far.
                let on = self.arena.push(cell, d, true, &[]);
                let limit = best.complexity_limit(cycle_base, cycle_key);
                self.cycles(on, y_links, x_links, &mut ends, limit);
                for &end in &ends {
                    if let Some(h) = self.cycle_hint(end, y_links, x_links) {
                        debug_assert!(h.complexity <= limit);
                        best.offer(h);
                    }
                }
                if x_links {
                    for on in [true, false] {
                        if self.cannot_contradict(cell, d, on) {
                            continue;
                        }
                        let limit = best.complexity_limit(chain_base, chain_key);
                        if let Some(complexity) = self.forcing_chain(cell, d, on, y_links, limit) {
                            let target = Node::bare(cell, d, !on);
                            best.offer(self.forcing_chain_hint(target, complexity, y_links));
                        }
                    }
                }
            }
        }
    }

    // ----- Nishio, multiple and dynamic forcing chains -----

    /// SE's `doChaining`: completes `to_on` and `to_off` with everything they imply (one
    /// potential at a time, "on" ones first); in a dynamic chain each "off" processed leaves
    /// the working grid. Returns the first contradiction (an "on" and an "off" of the same
    /// candidate), if any. The working grid is restored after.
    fn chaining(
        &mut self,
        mode: Mode,
        to_on: &mut PotSet,
        to_off: &mut PotSet,
    ) -> Option<(u32, u32)> {
        self.work = self.base;
        self.work_digit = self.digit_cells;
        let (mut pending_on, mut pending_off) = std::mem::take(&mut self.queues);
        pending_on.clear();
        pending_off.clear();
        pending_on.extend(&to_on.order);
        pending_off.extend(&to_off.order);
        let y_links = !mode.nishio();
        let result = loop {
            if let Some(p) = pending_on.pop_front() {
                let node = self.arena.node(p);
                self.on_to_off(node.cell as usize, node.digit as usize, y_links);
                let mut contradiction = None;
                for i in 0..self.found.len() {
                    let (c, v) = self.found[i];
                    let (c, v) = (c as usize, v as usize);
                    if let Some(on) = to_on.get(key(c, v, true)) {
                        let off = self.arena.push(c, v, false, &[p]);
                        contradiction = Some((on, off));
                        break;
                    }
                    let k = key(c, v, false);
                    if !to_off.contains(k) {
                        let n = self.arena.push(c, v, false, &[p]);
                        to_off.add(k, n);
                        pending_off.push_back(n);
                    }
                }
                if contradiction.is_some() {
                    break contradiction;
                }
            } else if let Some(p) = pending_off.pop_front() {
                let offs = if mode.dynamic() { Some(&*to_off) } else { None };
                let made = self.off_to_on(p, y_links, true, offs);
                if mode.dynamic() {
                    let node = self.arena.node(p);
                    self.work[node.cell as usize] &= !(1 << node.digit);
                    self.work_digit[node.digit as usize] &= !(1u128 << node.cell);
                }
                let mut contradiction = None;
                for n in made {
                    let node = self.arena.node(n);
                    let (c, v) = (node.cell as usize, node.digit as usize);
                    if let Some(off) = to_off.get(key(c, v, false)) {
                        contradiction = Some((n, off));
                        break;
                    }
                    to_on.add(node.key(), n);
                    if to_on.get(node.key()) == Some(n) {
                        pending_on.push_back(n);
                    }
                }
                if contradiction.is_some() {
                    break contradiction;
                }
            } else {
                break None;
            }
            if pending_on.is_empty() && pending_off.is_empty() && mode.level() > 0 {
                for n in self.advanced(to_off) {
                    let k = self.arena.node(n).key();
                    if !to_off.contains(k) {
                        to_off.add(k, n);
                        pending_off.push_back(n);
                    }
                }
            }
        };
        self.work = self.base;
        self.work_digit = self.digit_cells;
        self.queues = (pending_on, pending_off);
        result
    }

    /// SE's `getAdvancedPotentials` (level 1): the "off" potentials the first of
    /// intersections, hidden pairs, naked pairs and X-Wings to find any deduces on the working
    /// grid, each with the "off" potentials of the chain the rule needed (SE's
    /// `getRuleParents`; a rule needing none already applies without the chain and is
    /// skipped). A rule's removals are taken cell by cell in reading order.
    fn advanced(&mut self, to_off: &PotSet) -> Vec<u32> {
        let work = Board {
            value: self.board.value,
            cand: self.work,
            digit: self.work_digit,
            solved: self.board.solved,
            unsolved: self.board.unsolved,
        };
        let mut result = Vec::new();
        let mut hints = Vec::new();
        for rule in 0..4 {
            hints.clear();
            let rules = RuleHints {
                g: self.g,
                base: &self.base,
                work: &work,
            };
            match rule {
                0 => rules.locking(&mut hints),
                1 => rules.hidden_pairs(&mut hints),
                2 => rules.naked_pairs(&mut hints),
                _ => rules.x_wings(&mut hints),
            }
            for (elims, parents) in &hints {
                if parents.is_empty() {
                    continue;
                }
                let real: Vec<u32> = parents
                    .iter()
                    .map(|&(c, d)| {
                        to_off
                            .get(key(c as usize, d as usize, false))
                            .expect("rule parent in the chain")
                    })
                    .collect();
                for &(c, d) in elims {
                    result.push(self.arena.push(c as usize, d as usize, false, &real));
                }
            }
            if !result.is_empty() {
                break;
            }
        }
        result
    }

    /// A hint whose result is `result`, proven by the chains ending at `ends`, when it is
    /// worth applying and comes before `best` in SE's order.
    fn multi_hint(
        &mut self,
        mode: Mode,
        technique: SeTechnique,
        sort_key: u8,
        result: Node,
        ends: &[u32],
        best: &Best,
    ) -> Option<ChainHint> {
        // SE's `isWorth`: an "on" result must leave its cell other candidates to remove.
        if result.on && self.base[result.cell as usize] & !(1 << result.digit) == 0 {
            return None;
        }
        let mut complexity = 0;
        for &e in ends {
            complexity += self.arena.ancestor_count(e);
        }
        let difficulty = mode.difficulty() + length_difficulty(complexity);
        if !best.beaten_by(difficulty, complexity, sort_key) {
            return None;
        }
        let (eliminations, placement) = self.target_effect(result);
        Some(ChainHint {
            difficulty,
            complexity,
            sort_key,
            technique,
            eliminations,
            placement,
        })
    }

    /// Whether a chain from candidate (cell, d) assumed `on` (or off) is known to reach no
    /// contradiction: the assumption agrees with the solution, when it is known. Every
    /// implication of a chain is sound, so from a true assumption only true ones follow (the
    /// board keeps every digit of the solution: each step is checked against it). A search
    /// for that contradiction would find none; it is skipped, and nothing else changes.
    #[inline]
    fn cannot_contradict(&self, cell: usize, d: usize, on: bool) -> bool {
        let truth = self.truth[cell];
        truth != NO_TRUTH && (usize::from(truth) == d) == on
    }

    /// SE's `doChaining` from candidate (cell, d) assumed on, alone: what it implies, and the
    /// contradiction it ran into, if any.
    fn on_chaining(&mut self, mode: Mode, cell: usize, d: usize) -> Chained {
        let mut on = self.new_set();
        let mut off = self.new_set();
        let p_on = self.arena.push(cell, d, true, &[]);
        on.add(key(cell, d, true), p_on);
        let absurd = self.chaining(mode, &mut on, &mut off);
        Chained { on, off, absurd }
    }

    /// The index in `cache` of candidate (cell, d)'s [`Engine::on_chaining`], computed there
    /// first if it is not yet; and whether it was.
    fn cached_on_chaining(
        &mut self,
        mode: Mode,
        cache: &mut [Option<Chained>],
        cell: usize,
        d: usize,
    ) -> (usize, bool) {
        let i = cell * 9 + d;
        let new = cache[i].is_none();
        if new {
            cache[i] = Some(self.on_chaining(mode, cell, d));
        }
        (i, new)
    }

    /// SE's `doBinaryChaining` for candidate (cell, d): its consequences when on (`on`, from
    /// [`Engine::on_chaining`]) and when off; contradiction and double chain hints.
    #[allow(clippy::too_many_arguments)]
    fn binary(
        &mut self,
        mode: Mode,
        cell: usize,
        d: usize,
        on: &Chained,
        reduction: bool,
        contradiction: bool,
        best: &mut Best,
    ) {
        let (double_tech, absurd_tech) = match mode {
            Mode::Nishio => (
                SeTechnique::NishioForcingChain,
                SeTechnique::NishioForcingChain,
            ),
            Mode::DynamicPlus => (
                SeTechnique::DynamicForcingChainPlus,
                SeTechnique::DynamicForcingChainPlus,
            ),
            _ => (
                SeTechnique::DynamicDoubleForcingChain,
                SeTechnique::DynamicContradictionForcingChain,
            ),
        };
        let (on_to_on, on_to_off) = (&on.on, &on.off);
        let p_off = self.arena.push(cell, d, false, &[]);
        let mut off_to_on = self.new_set();
        let mut off_to_off = self.new_set();
        if contradiction && let Some((a, b)) = on.absurd {
            let result = self.arena.node(p_off);
            if let Some(h) = self.multi_hint(mode, absurd_tech, 7, result, &[a, b], best) {
                best.offer(h);
            }
        }
        off_to_off.add(key(cell, d, false), p_off);
        // Without double chains, the chaining from "off" serves its contradiction alone.
        let needed = reduction || (contradiction && !self.cannot_contradict(cell, d, false));
        let absurd = if needed {
            self.chaining(mode, &mut off_to_on, &mut off_to_off)
        } else {
            None
        };
        if contradiction && let Some((a, b)) = absurd {
            let result = Node::bare(cell, d, true);
            if let Some(h) = self.multi_hint(mode, absurd_tech, 7, result, &[a, b], best) {
                best.offer(h);
            }
        }
        if reduction {
            for i in 0..on_to_on.order.len() {
                let from_on = on_to_on.order[i];
                let k = self.arena.node(from_on).key();
                if let Some(from_off) = off_to_on.get(k) {
                    let result = self.arena.node(from_on);
                    if let Some(h) =
                        self.multi_hint(mode, double_tech, 1, result, &[from_on, from_off], best)
                    {
                        best.offer(h);
                    }
                }
            }
            for i in 0..on_to_off.order.len() {
                let from_on = on_to_off.order[i];
                let k = self.arena.node(from_on).key();
                if let Some(from_off) = off_to_off.get(k) {
                    let result = self.arena.node(from_on);
                    if let Some(h) =
                        self.multi_hint(mode, double_tech, 1, result, &[from_on, from_off], best)
                    {
                        best.offer(h);
                    }
                }
            }
        }
        self.recycle(off_to_on);
        self.recycle(off_to_off);
    }

    /// SE's `doRegionChainings` for candidate (cell, d): in each of the cell's regions where
    /// `d` has two places (or more, multiple chains) and `cell` is the first, what every
    /// place of `d` there implies alike. Returns how many chainings it added to `cache`.
    fn regions(
        &mut self,
        mode: Mode,
        cell: usize,
        d: usize,
        own: &Chained,
        cache: &mut [Option<Chained>],
        best: &mut Best,
    ) -> u32 {
        let (on_to_on, on_to_off) = (&own.on, &own.off);
        let mut added = 0;
        let tech = if mode.level() > 0 {
            SeTechnique::DynamicForcingChainPlus
        } else if mode.dynamic() {
            SeTechnique::DynamicRegionForcingChain
        } else {
            SeTechnique::RegionForcingChain
        };
        for t in CELL_REGION_TYPES {
            let h = t.house_of(cell);
            let pos = self.positions(&self.base, h, d);
            let n = pos.count_ones();
            if !(n == 2 || (mode.multiple() && n > 2)) {
                continue;
            }
            let cells = *self.g.cells(h);
            if cells[pos.trailing_zeros() as usize] as usize != cell {
                continue;
            }
            // Each place's consequences, in `cache`; `None`: the cell's own (`own`). The other
            // places come later in reading order, where their binary chaining finds them.
            let mut places: Vec<Option<usize>> = Vec::new();
            let mut region_on = self.copy_set(on_to_on);
            let mut region_off = self.copy_set(on_to_off);
            for k in digits(pos) {
                let other = cells[k] as usize;
                if other == cell {
                    places.push(None);
                } else {
                    let (i, new) = self.cached_on_chaining(mode, cache, other, d);
                    added += u32::from(new);
                    let chained = cache[i].as_ref().expect("cached above");
                    region_on.retain(&chained.on);
                    region_off.retain(&chained.off);
                    places.push(Some(i));
                }
            }
            for (region, on) in [(&region_on, true), (&region_off, false)] {
                for &p in &region.order {
                    let k = self.arena.node(p).key();
                    let ends: Vec<u32> = places
                        .iter()
                        .map(|&i| {
                            let chained = i.map_or(own, |i| cache[i].as_ref().expect("cached"));
                            let set = if on { &chained.on } else { &chained.off };
                            set.get(k).expect("in every place's consequences")
                        })
                        .collect();
                    let result = self.arena.node(p);
                    if let Some(hint) = self.multi_hint(mode, tech, 6, result, &ends, best) {
                        best.offer(hint);
                    }
                }
            }
            self.recycle(region_on);
            self.recycle(region_off);
        }
        added
    }

    /// SE's `getMultipleChainsHintList`: for every cell (reading order) with three or more
    /// candidates (two or more in a dynamic search), each candidate's binary and region
    /// chains, then the cell's own reductions (what all its candidates imply alike).
    fn multiple(&mut self, mode: Mode, cache: &mut Vec<Option<Chained>>, best: &mut Best) {
        let cell_tech = if mode.level() > 0 {
            SeTechnique::DynamicForcingChainPlus
        } else if mode.dynamic() {
            SeTechnique::DynamicCellForcingChain
        } else {
            SeTechnique::CellForcingChain
        };
        // Each candidate's chaining from "on", kept from the region chainings of an earlier
        // cell (which need the chainings of the later places of their digit) until its own
        // cell's binary chaining: each is computed once. Their potentials stay in the arena
        // until the arena is next empty of them.
        cache.clear();
        cache.resize_with(81 * 9, || None);
        // How many chainings `cache` holds.
        let mut held = 0;
        for cell in 0..81 {
            let cand = self.base[cell];
            let n = cand.count_ones();
            if !(n > 2 || (n > 1 && mode.dynamic())) {
                continue;
            }
            if held == 0 {
                self.arena.clear();
            }
            let mut value_on: Vec<PotSet> = Vec::new();
            let mut value_off: Vec<PotSet> = Vec::new();
            let mut cell_on: Option<PotSet> = None;
            let mut cell_off: Option<PotSet> = None;
            for d in digits(cand) {
                let on = match cache[cell * 9 + d].take() {
                    Some(on) => {
                        held -= 1;
                        on
                    }
                    None if mode.nishio() && self.cannot_contradict(cell, d, true) => {
                        // Nishio uses a chaining for its contradiction alone.
                        Chained {
                            on: self.new_set(),
                            off: self.new_set(),
                            absurd: None,
                        }
                    }
                    None => self.on_chaining(mode, cell, d),
                };
                let double = n >= 3 && !mode.nishio() && mode.dynamic();
                let contradiction = mode.dynamic() || mode.nishio();
                self.binary(mode, cell, d, &on, double, contradiction, best);
                if !mode.nishio() {
                    held += self.regions(mode, cell, d, &on, cache, best);
                }
                let Chained {
                    on: on_to_on,
                    off: on_to_off,
                    ..
                } = on;
                match (&mut cell_on, &mut cell_off) {
                    (Some(con), Some(coff)) => {
                        con.retain(&on_to_on);
                        coff.retain(&on_to_off);
                    }
                    _ => {
                        cell_on = Some(self.copy_set(&on_to_on));
                        cell_off = Some(self.copy_set(&on_to_off));
                    }
                }
                value_on.push(on_to_on);
                value_off.push(on_to_off);
            }
            let (Some(cell_on), Some(cell_off)) = (cell_on, cell_off) else {
                continue;
            };
            if !mode.nishio() && (n == 2 || (mode.multiple() && n > 2)) {
                for (common, per_value) in [(&cell_on, &value_on), (&cell_off, &value_off)] {
                    for &p in &common.order {
                        let k = self.arena.node(p).key();
                        let ends: Vec<u32> = per_value.iter().map(|s| s.get(k).unwrap()).collect();
                        let result = self.arena.node(p);
                        if let Some(hint) = self.multi_hint(mode, cell_tech, 5, result, &ends, best)
                        {
                            best.offer(hint);
                        }
                    }
                }
            }
            self.recycle(cell_on);
            self.recycle(cell_off);
            for set in value_on.into_iter().chain(value_off) {
                self.recycle(set);
            }
        }
        for chained in cache.drain(..).flatten() {
            self.recycle(chained.on);
            self.recycle(chained.off);
        }
    }
}

/// A simple rule's hint on the working grid: its removals and the candidates it needed gone
/// (cell, digit `0..9`).
type RuleHint = (Vec<(u8, u8)>, Vec<(u8, u8)>);

/// SE's simple rules as nested in dynamic chains (level 1): every hint, in SE's search order,
/// with its rule parents (candidates of the grid the chain started from that the working grid
/// lost and the rule relies on).
struct RuleHints<'b> {
    g: &'b Geometry,
    base: &'b [u16; 81],
    work: &'b Board,
}

impl RuleHints<'_> {
    /// Whether the chain removed digit `d` from cell `c`.
    #[inline]
    fn gone(&self, c: usize, d: usize) -> bool {
        self.base[c] & !self.work.cand[c] & (1 << d) != 0
    }

    /// SE's `Locking(false)`: a digit of region 1 confined to region 2; parents: the digit's
    /// lost places in region 1 outside region 2.
    fn locking(&self, out: &mut Vec<RuleHint>) {
        let b = self.work;
        for crossing in &self.g.crossings {
            let (r1, r2) = (crossing.first, crossing.second);
            for d in 0..9 {
                let p = b.digit[d] & r1;
                if at_most(p, 1) || p & !r2 != 0 {
                    continue;
                }
                let gone = b.digit[d] & r2 & !r1;
                if gone == 0 {
                    continue;
                }
                let elims = cells_of(gone).map(|c| (c as u8, d as u8)).collect();
                let parents = self
                    .g
                    .cells(crossing.kind.house(crossing.number))
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| self.gone(c, d) && r2 & (1 << c) == 0)
                    .map(|c| (c as u8, d as u8))
                    .collect();
                out.push((elims, parents));
            }
        }
    }

    /// SE's `HiddenSet(2, false)`; parents: the pair's digits lost from the region's other
    /// cells.
    fn hidden_pairs(&self, out: &mut Vec<RuleHint>) {
        let (g, b) = (self.g, self.work);
        for t in super::geometry::SCAN_TYPES {
            for i in 0..9 {
                let h = t.house(i);
                if g.empty_count(b, h) <= 4 {
                    continue;
                }
                let pos = g.all_positions(b, h);
                let eligible = super::geometry::set_members(pos, 2);
                for &values in &g.subsets[2] {
                    if values & !eligible != 0 {
                        continue;
                    }
                    let mut ds = digits(values);
                    let (d1, d2) = (ds.next().expect("two"), ds.next().expect("two"));
                    let Some(cells) = super::basic::common_tuple(&[pos[d1], pos[d2]], 2) else {
                        continue;
                    };
                    let mut elims = Vec::new();
                    for idx in digits(cells) {
                        let c = g.cells(h)[idx] as usize;
                        for d in digits(b.cand[c] & !values) {
                            elims.push((c as u8, d as u8));
                        }
                    }
                    if elims.is_empty() {
                        continue;
                    }
                    elims.sort_unstable();
                    let mut parents = Vec::new();
                    for (idx, &c) in g.cells(h).iter().enumerate() {
                        if cells & (1 << idx) == 0 {
                            for d in digits(values & self.base[c as usize]) {
                                parents.push((c, d as u8));
                            }
                        }
                    }
                    out.push((elims, parents));
                }
            }
        }
    }

    /// SE's `NakedSet(2)`; parents: the other digits the pair's cells lost.
    fn naked_pairs(&self, out: &mut Vec<RuleHint>) {
        let (g, b) = (self.g, self.work);
        for t in super::geometry::SCAN_TYPES {
            for i in 0..9 {
                let h = t.house(i);
                if g.empty_count(b, h) < 4 {
                    continue;
                }
                let cells = g.cells(h);
                let eligible = super::geometry::set_members(cells.map(|c| b.cand[c as usize]), 2);
                for &chosen in &g.subsets[2] {
                    if chosen & !eligible != 0 {
                        continue;
                    }
                    let mut idx = digits(chosen);
                    let (i1, i2) = (idx.next().expect("two"), idx.next().expect("two"));
                    let sets = [b.cand[cells[i1] as usize], b.cand[cells[i2] as usize]];
                    let Some(values) = super::basic::common_tuple(&sets, 2) else {
                        continue;
                    };
                    let mut elims = Vec::new();
                    for (idx, &c) in cells.iter().enumerate() {
                        if chosen & (1 << idx) == 0 {
                            for d in digits(b.cand[c as usize] & values) {
                                elims.push((c, d as u8));
                            }
                        }
                    }
                    if elims.is_empty() {
                        continue;
                    }
                    let mut parents = Vec::new();
                    for idx in digits(chosen) {
                        let c = cells[idx];
                        for d in digits(self.base[c as usize] & !values) {
                            parents.push((c, d as u8));
                        }
                    }
                    out.push((elims, parents));
                }
            }
        }
    }

    /// SE's `Fisherman(2)`; parents: the digit's lost places in the base lines outside the
    /// cover lines.
    fn x_wings(&self, out: &mut Vec<RuleHint>) {
        use super::geometry::RegionType::{Column, Row};
        let (g, b) = (self.g, self.work);
        let house = &g.houses.house;
        for (base, cover) in [(Column, Row), (Row, Column)] {
            let (pos, eligible) = g.fish_lines(b, base, 2);
            for &lines in &g.subsets[2] {
                for d in 0..9 {
                    if b.solved[d].count_ones() as usize + 4 > 9 || lines & !eligible[d] != 0 {
                        continue;
                    }
                    let mut ls = digits(lines);
                    let (l1, l2) = (ls.next().expect("two"), ls.next().expect("two"));
                    let Some(crosses) = super::basic::common_tuple(&[pos[l1][d], pos[l2][d]], 2)
                    else {
                        continue;
                    };
                    let mut base_cells = 0;
                    for l in digits(lines) {
                        base_cells |= house[base.house(l)];
                    }
                    let mut cover_cells = 0;
                    for x in digits(crosses) {
                        cover_cells |= house[cover.house(x)];
                    }
                    let gone = b.digit[d] & cover_cells & !base_cells;
                    if gone == 0 {
                        continue;
                    }
                    let elims = cells_of(gone).map(|c| (c as u8, d as u8)).collect();
                    let mut parents = Vec::new();
                    for l in digits(lines) {
                        for &c in g.cells(base.house(l)) {
                            let cu = c as usize;
                            if self.gone(cu, d) && cover_cells & (1 << cu) == 0 {
                                parents.push((c, d as u8));
                            }
                        }
                    }
                    out.push((elims, parents));
                }
            }
        }
    }
}

/// SE's sort key of cycles and forcing chains: X 2, Y 3, both 4.
fn sort_key(x_links: bool, y_links: bool) -> u8 {
    match (x_links, y_links) {
        (true, true) => 4,
        (false, true) => 3,
        _ => 2,
    }
}

/// SE's `Chaining(false, false, false, 0)`: bidirectional X-cycles, then Y-cycles, then
/// XY-cycles, each with its forcing chains; the first hint of SE's sort.
pub fn cycles_and_forcing_chains(
    board: &Board,
    g: &Geometry,
    solution: Option<&Grid>,
    scratch: &mut Scratch,
) -> Option<SeStep> {
    let mut engine = Engine::new(board, g, solution, scratch);
    let mut best = Best::default();
    engine.unary(false, true, &mut best);
    engine.unary(true, false, &mut best);
    engine.unary(true, true, &mut best);
    engine.finish(scratch);
    best.into_step()
}

/// SE's Nishio, multiple or dynamic forcing chains: the first hint of SE's sort.
pub fn forcing_chains(
    board: &Board,
    g: &Geometry,
    mode: Mode,
    solution: Option<&Grid>,
    scratch: &mut Scratch,
) -> Option<SeStep> {
    let mut engine = Engine::new(board, g, solution, scratch);
    let mut best = Best::default();
    let mut cache = std::mem::take(&mut scratch.cache);
    engine.multiple(mode, &mut cache, &mut best);
    scratch.cache = cache;
    engine.finish(scratch);
    best.into_step()
}

#[cfg(test)]
mod tests {
    use super::length_difficulty;

    #[test]
    fn length_increments_follow_se_thresholds() {
        let tenths = |c| (length_difficulty(c) * 10.0 + 0.5) as u32;
        // Length (complexity - 2) thresholds 4, 6, 8, 12, 16, 24, 32, 48: *3/2 and *4/3 in turn.
        let steps: Vec<u32> = (2..60).map(tenths).collect();
        let first = |t: u32| steps.iter().position(|&s| s == t).unwrap() as u32 + 2;
        assert_eq!(tenths(6), 0);
        assert_eq!(
            [1, 2, 3, 4, 5, 6, 7, 8].map(first),
            [7, 9, 11, 15, 19, 27, 35, 51]
        );
        assert!(steps.windows(2).all(|w| w[0] <= w[1]));
    }
}
