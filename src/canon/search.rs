//! The minlex search: the canonical form built one row at a time, keeping every partial
//! transformation that ties for the smallest rows so far, with blank columns and stacks left
//! unplaced until a row tells them apart.
//!
//! # State of one partial transformation ([`Node`])
//! After `k` rows of the result are fixed, a node knows:
//!
//! - whether the source is transposed, and which source row gave each of the `k` rows;
//! - the columns: the result's stacks `0..free_stacks` are still *free* (no source stack chosen
//!   yet: every stack not placed is blank in the `k` rows, so any order of them gives the same
//!   rows); each later stack position holds a source stack whose first `f` columns are still free
//!   (source columns blank in the `k` rows, in any order) and whose last `3 - f` columns are
//!   pinned to source columns. Free places are always a prefix: a row puts its blanks first;
//! - the labels: which source digit became which digit of the result, by first appearance in
//!   reading order.
//!
//! # One row
//! For a candidate source row, the smallest row the node can still make is found without
//! trying column orders: each cell is a *symbol*: `0` blank, the label of a digit already
//! labelled, or [`NEW`] for a digit not seen yet (it will get the next free label, and labels
//! are handed out left to right, so comparing `NEW` as larger than every label compares the
//! real rows). Free columns of a placed stack take their cells sorted ascending; free stacks
//! each sort their three cells and are then sorted by those triples. The row is packed into a
//! `u64`, four bits per cell with the first cell highest, so comparing rows is comparing
//! integers.
//!
//! Every (node, source row) pair whose row equals the smallest one survives into the next level,
//! once for every arrangement that reaches it and differs in what it fixes: blank cells stay
//! free, but two columns (or stacks) whose cells are `NEW` in this row are told apart by the
//! labels they hand out, so each order of them becomes its own node.

use crate::grid::{CELLS, Grid};

/// The symbol of a digit not labelled yet: above every label `1..=9`.
pub(super) const NEW: u8 = 10;

/// A position of the result not tied to a source line yet.
const FREE: u8 = 0xFF;

/// The source grid and its transposition, cell by cell: `[transposed][row][col]`, and the
/// pattern of each row (bit `c` for a given in column `c`).
pub(super) struct Source {
    cells: [[[u8; 9]; 9]; 2],
    patterns: [[u16; 9]; 2],
}

impl Source {
    pub fn new(grid: &Grid) -> Source {
        let mut cells = [[[0u8; 9]; 9]; 2];
        let mut patterns = [[0u16; 9]; 2];
        for i in 0..CELLS {
            let (r, c) = (i / 9, i % 9);
            let d = grid.get(i);
            cells[0][r][c] = d;
            cells[1][c][r] = d;
            patterns[0][r] |= u16::from(d != 0) << c;
            patterns[1][c] |= u16::from(d != 0) << r;
        }
        Source { cells, patterns }
    }

    #[inline(always)]
    fn row(&self, transposed: bool, row: u8) -> &[u8; 9] {
        &self.cells[transposed as usize][row as usize]
    }
}

/// A partial transformation: see the module page.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub transposed: bool,
    /// Source row of each result row fixed so far.
    pub rows: [u8; 9],
    /// Source column of each result column, or [`FREE`].
    pub cols: [u8; 9],
    /// Source stack at each result stack position, or [`FREE`] (a prefix).
    stacks: [u8; 3],
    /// How many result stack positions are free (they are `0..free_stacks`).
    free_stacks: u8,
    /// Source stacks not placed yet (bit `s`).
    unplaced_stacks: u8,
    /// Source columns not pinned yet (bit `c`), including every column of an unplaced stack.
    free_cols: u16,
    /// Source rows used (bit `r`).
    used_rows: u16,
    /// The symbol of each source digit: its label, [`NEW`] while unlabelled (`labels[0]` stays
    /// `0`: blank).
    pub labels: [u8; 10],
    /// Labels handed out.
    labelled: u8,
}

impl Node {
    fn root(transposed: bool) -> Node {
        Node {
            transposed,
            rows: [FREE; 9],
            cols: [FREE; 9],
            stacks: [FREE; 3],
            free_stacks: 3,
            unplaced_stacks: 0b111,
            free_cols: 0x1FF,
            used_rows: 0,
            labels: [0, NEW, NEW, NEW, NEW, NEW, NEW, NEW, NEW, NEW],
            labelled: 0,
        }
    }

    /// The source rows that may give result row `level`: any row of an unused band at a band's
    /// first row, else the unused rows of the band in progress.
    #[inline]
    fn row_choices(&self, level: usize) -> u16 {
        if level.is_multiple_of(3) {
            let mut allowed = 0u16;
            for band in 0..3 {
                let mask = 0b111u16 << (3 * band);
                if self.used_rows & mask == 0 {
                    allowed |= mask;
                }
            }
            allowed
        } else {
            let band = self.rows[level - 1] / 3;
            (0b111u16 << (3 * band)) & !self.used_rows
        }
    }

    #[inline(always)]
    fn symbol(&self, digit: u8) -> u8 {
        self.labels[digit as usize]
    }

    /// The smallest row this node can make from source row `row` (see the module page),
    /// packed four bits per cell, first cell highest.
    #[inline]
    fn row_value(&self, row: &[u8; 9]) -> u64 {
        let mut sym = [0u8; 9];
        for (s, &d) in sym.iter_mut().zip(row) {
            *s = self.symbol(d);
        }
        let mut value = 0u64;
        if self.free_stacks > 0 {
            let mut keys = [0u16; 3];
            let mut n = 0;
            for s in 0..3 {
                if self.unplaced_stacks & (1 << s) != 0 {
                    keys[n] = sorted_triple(sym[3 * s], sym[3 * s + 1], sym[3 * s + 2]);
                    n += 1;
                }
            }
            sort_small(&mut keys[..n]);
            for &key in &keys[..n] {
                value = value << 12 | key as u64;
            }
        }
        for q in self.free_stacks as usize..3 {
            let s = self.stacks[q] as usize;
            let free = (self.free_cols >> (3 * s)) & 0b111;
            let f = free.count_ones() as usize;
            let mut part = [0u8; 3];
            let mut n = 0;
            for i in 0..3 {
                if free & (1 << i) != 0 {
                    part[n] = sym[3 * s + i];
                    n += 1;
                }
            }
            sort_small(&mut part[..n]);
            for &p in &part[..n] {
                value = value << 4 | p as u64;
            }
            for pos in f..3 {
                value = value << 4 | sym[self.cols[3 * q + pos] as usize] as u64;
            }
        }
        value
    }
}

/// The first row's value for each pattern of givens: every digit of the first row is new, so
/// the value depends on the pattern only (each stack's givens pushed right, stacks ordered by
/// their number of givens).
static FIRST_ROW: [u64; 512] = first_row_values();

const fn first_row_values() -> [u64; 512] {
    // A stack with `g` givens, pushed right: `g` trailing `NEW` symbols.
    const KEYS: [u64; 4] = [0x000, 0x00A, 0x0AA, 0xAAA];
    let mut table = [0u64; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut keys = [0u64; 3];
        let mut s = 0;
        while s < 3 {
            keys[s] = KEYS[((pattern >> (3 * s)) & 7usize).count_ones() as usize];
            s += 1;
        }
        // Three keys sorted ascending.
        let (a, b, c) = (keys[0], keys[1], keys[2]);
        let (a, b) = if a > b { (b, a) } else { (a, b) };
        let (b, c) = if b > c { (c, b) } else { (b, c) };
        let (a, b) = if a > b { (b, a) } else { (a, b) };
        table[pattern] = a << 24 | b << 12 | c;
        pattern += 1;
    }
    table
}

/// Three cell symbols sorted ascending, packed four bits each, smallest highest.
#[inline(always)]
fn sorted_triple(a: u8, b: u8, c: u8) -> u16 {
    let mut t = [a, b, c];
    sort_small(&mut t);
    (t[0] as u16) << 8 | (t[1] as u16) << 4 | t[2] as u16
}

/// Insertion sort for at most three items.
#[inline(always)]
fn sort_small<T: Copy + Ord>(items: &mut [T]) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && items[j - 1] > items[j] {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Orders of 1, 2 and 3 items: `PERMS[n]` lists the orders of `n` items.
const PERMS: [&[[u8; 3]]; 4] = [
    &[[0, 1, 2]],
    &[[0, 1, 2]],
    &[[0, 1, 2], [1, 0, 2]],
    &[
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ],
];

const FACTORIAL: [usize; 4] = [1, 1, 2, 6];

/// Things whose order the row leaves open but whose labels differ: result columns
/// `start..start + len` (cells `NEW`), or result stack positions `start..start + len` (equal
/// triples, not all blank).
#[derive(Clone, Copy)]
enum Tie {
    Columns { start: u8, len: u8 },
    Stacks { start: u8, len: u8 },
}

/// The reusable buffers of the search, and its result.
#[derive(Default)]
pub(super) struct Search {
    nodes: Vec<Node>,
    next: Vec<Node>,
    winners: Vec<(u32, u8)>,
}

impl Search {
    /// Runs the search on `source`; returns a node whose nine rows make the canonical form
    /// (every column pinned or free, every digit of the puzzle labelled).
    pub fn run(&mut self, source: &Source) -> Node {
        self.nodes.clear();
        self.nodes.push(Node::root(false));
        self.nodes.push(Node::root(true));
        for level in 0..9 {
            self.winners.clear();
            let mut best = u64::MAX;
            for (index, node) in self.nodes.iter().enumerate() {
                let mut choices = node.row_choices(level);
                while choices != 0 {
                    let x = choices.trailing_zeros() as u8;
                    choices &= choices - 1;
                    let value = if level == 0 {
                        let pattern = source.patterns[node.transposed as usize][x as usize];
                        FIRST_ROW[pattern as usize]
                    } else {
                        node.row_value(source.row(node.transposed, x))
                    };
                    debug_assert_eq!(value, node.row_value(source.row(node.transposed, x)));
                    if value < best {
                        best = value;
                        self.winners.clear();
                    }
                    if value == best {
                        self.winners.push((index as u32, x));
                    }
                }
            }
            self.next.clear();
            for &(index, x) in &self.winners {
                let node = &self.nodes[index as usize];
                expand(
                    node,
                    level,
                    x,
                    source.row(node.transposed, x),
                    &mut self.next,
                );
            }
            std::mem::swap(&mut self.nodes, &mut self.next);
        }
        self.nodes[0]
    }
}

/// Pushes onto `out` every node that `node` becomes when source row `x` (cells `row`) is
/// placed as result row `level` in its smallest arrangement, one per order of the ties.
fn expand(node: &Node, level: usize, x: u8, row: &[u8; 9], out: &mut Vec<Node>) {
    let mut base = *node;
    base.rows[level] = x;
    base.used_rows |= 1 << x;
    let sym: [u8; 9] = std::array::from_fn(|j| node.symbol(row[j]));
    let mut ties = [Tie::Columns { start: 0, len: 0 }; 8];
    let mut n_ties = 0;

    // Free stacks: sorted by their sorted triples; the all-blank ones stay free (first), the
    // others are placed, in order, after them.
    let nfs = node.free_stacks as usize;
    if nfs > 0 {
        let mut keyed = [(0u16, 0u8); 3];
        let mut n = 0;
        for s in 0..3u8 {
            if node.unplaced_stacks & (1 << s) != 0 {
                let b = 3 * s as usize;
                keyed[n] = (sorted_triple(sym[b], sym[b + 1], sym[b + 2]), s);
                n += 1;
            }
        }
        sort_small(&mut keyed[..n]);
        let blank = keyed[..n].iter().take_while(|(k, _)| *k == 0).count();
        base.free_stacks = blank as u8;
        let mut q = blank;
        while q < n {
            // Stacks with equal triples (never with a label: a row holds a digit once).
            let same = keyed[q..n]
                .iter()
                .take_while(|(k, _)| *k == keyed[q].0)
                .count();
            if same > 1 {
                ties[n_ties] = Tie::Stacks {
                    start: q as u8,
                    len: same as u8,
                };
                n_ties += 1;
            }
            for &(_, s) in &keyed[q..q + same] {
                base.stacks[q] = s;
                base.unplaced_stacks &= !(1 << s);
                place_free_columns(&mut base, q, s, 0b111, &sym, &mut ties, &mut n_ties);
                q += 1;
            }
        }
    }
    // Placed stacks: their free columns take the row's cells sorted ascending.
    for q in nfs..3 {
        let s = node.stacks[q];
        let free = (node.free_cols >> (3 * s)) & 0b111;
        if free != 0 {
            place_free_columns(&mut base, q, s, free, &sym, &mut ties, &mut n_ties);
        }
    }

    let ties = &ties[..n_ties];
    let combinations: usize = ties
        .iter()
        .map(|t| match *t {
            Tie::Columns { len, .. } | Tie::Stacks { len, .. } => FACTORIAL[len as usize],
        })
        .product();
    for mut k in 0..combinations {
        let mut child = base;
        // Stack orders first (whole blocks of three result columns), then column orders.
        for tie in ties {
            if let Tie::Stacks { start, len } = *tie {
                let order = PERMS[len as usize][k % FACTORIAL[len as usize]];
                k /= FACTORIAL[len as usize];
                let start = start as usize;
                for (i, &o) in order.iter().take(len as usize).enumerate() {
                    let from = start + o as usize;
                    child.stacks[start + i] = base.stacks[from];
                    child.cols[3 * (start + i)..3 * (start + i) + 3]
                        .copy_from_slice(&base.cols[3 * from..3 * from + 3]);
                }
            }
        }
        let placed = child.cols;
        for tie in ties {
            if let Tie::Columns { start, len } = *tie {
                let order = PERMS[len as usize][k % FACTORIAL[len as usize]];
                k /= FACTORIAL[len as usize];
                for i in 0..len as usize {
                    child.cols[start as usize + i] = placed[start as usize + order[i] as usize];
                }
            }
        }
        // Digits seen for the first time get the next labels, left to right.
        for c in 0..9 {
            let col = child.cols[c];
            if col != FREE {
                let d = row[col as usize] as usize;
                if child.labels[d] == NEW {
                    child.labelled += 1;
                    child.labels[d] = child.labelled;
                }
            }
        }
        out.push(child);
    }
}

/// Places the free columns `free` (bits within the stack) of source stack `s`, at result stack
/// position `q`, in the order of their symbols: blanks stay free (first), the others are pinned
/// after them; a run of two or more `NEW`s is a tie.
fn place_free_columns(
    node: &mut Node,
    q: usize,
    s: u8,
    free: u16,
    sym: &[u8; 9],
    ties: &mut [Tie; 8],
    n_ties: &mut usize,
) {
    let mut cols = [(0u8, 0u8); 3];
    let mut n = 0;
    for i in 0..3u8 {
        if free & (1 << i) != 0 {
            let c = 3 * s + i;
            cols[n] = (sym[c as usize], c);
            n += 1;
        }
    }
    sort_small(&mut cols[..n]);
    // The free slots of position `q` are its first `n` result columns.
    let first = 3 * q;
    let mut new_run = 0;
    for (i, &(symbol, c)) in cols[..n].iter().enumerate() {
        if symbol != 0 {
            node.cols[first + i] = c;
            node.free_cols &= !(1 << c);
        }
        if symbol == NEW {
            new_run += 1;
        }
    }
    if new_run > 1 {
        ties[*n_ties] = Tie::Columns {
            start: (first + n - new_run) as u8,
            len: new_run as u8,
        };
        *n_ties += 1;
    }
}

/// The full transformation a finished node stands for: free stacks and columns (blank in the
/// whole grid) in ascending source order, digits absent from the grid after the others, in
/// ascending order.
pub(super) fn finish(node: &Node) -> super::Transform {
    let mut cols = node.cols;
    let mut stacks = node.stacks;
    let mut unplaced = node.unplaced_stacks;
    for stack in stacks.iter_mut().take(node.free_stacks as usize) {
        let s = unplaced.trailing_zeros() as u8;
        unplaced &= unplaced - 1;
        *stack = s;
    }
    for q in 0..3 {
        let s = stacks[q];
        let mut free = (node.free_cols >> (3 * s)) & 0b111;
        for pos in 0..3 {
            if cols[3 * q + pos] == FREE {
                let i = free.trailing_zeros() as u8;
                free &= free - 1;
                cols[3 * q + pos] = 3 * s + i;
            }
        }
    }
    let mut digits = node.labels;
    let mut next = node.labelled + 1;
    for d in digits.iter_mut().skip(1) {
        if *d == NEW {
            *d = next;
            next += 1;
        }
    }
    super::Transform::new(node.transposed, node.rows, cols, digits)
        .expect("a finished node is a transformation of the group")
}
