//! `fast` on jigsaw layouts runs its own engine (`src/solver/jigsaw.rs`: bitboards, singles and
//! locked candidates). These tests hold it against `candidates`, plain backtracking that shares
//! none of its code, on many random jigsaw puzzles and on odd layouts, check every solution it
//! reports with the independent checker, and check that its trace and counters tell the same
//! story.

use std::ops::ControlFlow;

use sudoku_bulk::generate::random_jigsaw;
use sudoku_bulk::layout::UnitName;
use sudoku_bulk::solver::{
    Algorithm, Event, Rule, SearchStats, SolveOptions, Status, for_each_solution, solve,
    solve_traced,
};
use sudoku_bulk::verify::verify;
use sudoku_bulk::{Grid, Layout};

use crate::jigsaw::sample;

/// Solutions are compared up to this many.
const LIMIT: usize = 3;

/// The budget of `candidates`: enough for every puzzle made here (a puzzle that needs more is
/// a test failure, not a skip).
const BUDGET: u64 = 20_000_000;

/// A small generator for choosing clues (xorshift64*), so the test needs nothing from the
/// crate's own random numbers.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// `solution` with `clues` cells kept, chosen by `draw`.
fn keep_clues(solution: &Grid, clues: usize, draw: &mut Draw) -> Grid {
    let mut cells: Vec<usize> = (0..81).collect();
    for i in (1..81).rev() {
        cells.swap(i, draw.below(i + 1));
    }
    let mut puzzle = Grid::EMPTY;
    for &i in &cells[..clues] {
        puzzle.set(i, solution.get(i));
    }
    puzzle
}

/// `puzzle` with one blank cell given a digit that no given in its row, column or region
/// rules out but that differs from `solution`: usually no solution is left, sometimes
/// others. `None` when no such cell is found.
fn misleading_clue(
    puzzle: &Grid,
    solution: &Grid,
    layout: &Layout,
    draw: &mut Draw,
) -> Option<Grid> {
    for _ in 0..200 {
        let i = draw.below(81);
        let d = draw.below(9) as u8 + 1;
        if puzzle.get(i) != 0 || d == solution.get(i) {
            continue;
        }
        let mut wrong = *puzzle;
        wrong.set(i, d);
        if layout.check_givens(&wrong).is_ok() {
            return Some(wrong);
        }
    }
    None
}

/// Up to `LIMIT` solutions of `puzzle` by `algorithm`, in its search order; `None` when the
/// budget ran out first.
fn solutions(puzzle: &Grid, layout: &Layout, algorithm: Algorithm) -> Option<Vec<Grid>> {
    let options = SolveOptions {
        algorithm,
        max_solutions: 1,
        max_recursions: BUDGET,
        seed: 0,
    };
    let mut found = Vec::new();
    let (_, gave_up) = for_each_solution(puzzle, layout, &options, |g| {
        found.push(*g);
        if found.len() == LIMIT {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    (!gave_up).then_some(found)
}

/// `fast` and `candidates` find as many solutions (up to the limit), the same ones when there
/// are fewer, and every one passes the checker. Returns how many `fast` found.
fn agree(puzzle: &Grid, layout: &Layout, what: &str) -> usize {
    let mut fast = solutions(puzzle, layout, Algorithm::Fast).expect("fast has no budget");
    let mut slow = solutions(puzzle, layout, Algorithm::Candidates)
        .unwrap_or_else(|| panic!("candidates ran out of budget on {what}: {puzzle}"));
    assert_eq!(fast.len(), slow.len(), "{what}: {puzzle} {layout:?}");
    for s in &fast {
        verify(puzzle, s, layout).unwrap_or_else(|p| panic!("{what}: {puzzle}: {s}: {p}"));
    }
    if fast.len() < LIMIT {
        fast.sort_by_key(Grid::to_line);
        slow.sort_by_key(Grid::to_line);
        assert_eq!(fast, slow, "{what}: {puzzle} {layout:?}");
    }
    // The outcome API says the same as the enumeration.
    let outcome = solve(puzzle, layout, &SolveOptions::default()).unwrap();
    let expected = match fast.len() {
        0 => Status::Unsolvable,
        1 => Status::Solved,
        _ => Status::Multiple,
    };
    assert_eq!(outcome.status, expected, "{what}: {puzzle}");
    fast.len()
}

#[test]
fn fast_agrees_with_candidates_on_random_jigsaw_puzzles() {
    // How many puzzles had no solution, one, two, three or more: the test must see them all.
    let mut seen = [0usize; LIMIT + 1];
    for seed in 0..60u64 {
        // A layout from the boxes by 10 to 80 boundary swaps, and a grid for it.
        let (layout, solution) = random_jigsaw(seed, 10 + (seed as usize * 7) % 70);
        assert!(!layout.is_standard());
        let mut draw = Draw(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        // From many solutions (few clues) to one; then a misleading clue.
        for clues in [25, 28, 31, 35] {
            let puzzle = keep_clues(&solution, clues, &mut draw);
            let what = format!("seed {seed}, {clues} clues");
            let n = agree(&puzzle, &layout, &what);
            seen[n] += 1;
            if n < LIMIT {
                let found = solutions(&puzzle, &layout, Algorithm::Fast).unwrap();
                assert!(found.contains(&solution), "{what}");
            }
            if let Some(wrong) = misleading_clue(&puzzle, &solution, &layout, &mut draw) {
                seen[agree(&wrong, &layout, &format!("{what}, misleading clue"))] += 1;
            }
        }
    }
    assert!(seen.iter().all(|&n| n >= 10), "{seen:?}");
}

/// Layouts the generator never makes: regions that are the rows, the columns, or broken
/// diagonals (every region scattered over the grid).
#[test]
fn fast_agrees_with_candidates_on_odd_layouts() {
    let label = |f: fn(usize, usize) -> usize| -> Layout {
        let text: Vec<u8> = (0..81).map(|i| b'a' + f(i / 9, i % 9) as u8).collect();
        Layout::parse(&text).unwrap()
    };
    let layouts = [
        label(|r, _| r),
        label(|_, c| c),
        label(|r, c| (r + c) % 9),
        label(|r, c| (r + 4 * c) % 9),
    ];
    for (k, layout) in layouts.iter().enumerate() {
        assert!(!layout.is_standard());
        // A complete grid valid for rows, columns and these regions: d = (2r + c) mod 9 works
        // for all four.
        let cells: [u8; 81] = std::array::from_fn(|i| ((2 * (i / 9) + i % 9) % 9) as u8 + 1);
        let solution = Grid::from_cells(cells);
        verify(&Grid::EMPTY, &solution, layout).unwrap();
        let mut draw = Draw(k as u64 + 11);
        for clues in [20, 30, 40, 50] {
            for round in 0..3 {
                let puzzle = keep_clues(&solution, clues, &mut draw);
                agree(
                    &puzzle,
                    layout,
                    &format!("layout {k}, {clues} clues, round {round}"),
                );
            }
        }
    }
}

/// What the trace of one search adds up to.
#[derive(Default, Debug, PartialEq)]
struct Tally {
    naked: u64,
    hidden: u64,
    guesses: u64,
    backtracks: u64,
    boards: u64,
    solutions: u64,
}

#[test]
fn the_trace_of_fast_on_jigsaw_matches_its_counters() {
    let mut puzzles = Vec::new();
    for (puzzle, layout, solution) in sample() {
        // The sample puzzle (minimal: it needs guesses) and an easier one, with every third
        // blank filled in from the solution.
        let mut easier = puzzle;
        for i in (0..81).filter(|&i| puzzle.get(i) == 0).step_by(3) {
            easier.set(i, solution.get(i));
        }
        puzzles.push((puzzle, layout.clone()));
        puzzles.push((easier, layout));
    }
    let mut by_propagation = 0;
    for (puzzle, layout) in &puzzles {
        let mut tally = Tally::default();
        let mut observer = |event: &Event<'_>| match *event {
            Event::Placed { cell, rule, .. } => match rule {
                Rule::NakedSingle => tally.naked += 1,
                Rule::HiddenSingle(unit) => {
                    tally.hidden += 1;
                    // The named unit holds the cell.
                    let (row, col) = (cell / 9 + 1, cell % 9 + 1);
                    let holds = match unit {
                        UnitName::Row(r) => usize::from(r) == row,
                        UnitName::Column(c) => usize::from(c) == col,
                        UnitName::Region(label) => layout.label(layout.region_of(cell)) == label,
                        UnitName::Box(_) => false,
                    };
                    assert!(holds, "{unit} does not hold r{row}c{col}");
                }
            },
            Event::Guess { .. } => tally.guesses += 1,
            Event::Backtrack { .. } => tally.backtracks += 1,
            Event::Board(_) => tally.boards += 1,
            Event::Solution(_) => tally.solutions += 1,
            Event::Contradiction => {}
        };
        let outcome =
            solve_traced(puzzle, layout, &SolveOptions::default(), &mut observer).unwrap();
        let SearchStats {
            recursions,
            guesses,
            backtracks,
            naked_singles,
            hidden_singles,
            givens,
            ..
        } = outcome.stats;
        assert_eq!(
            tally,
            Tally {
                naked: naked_singles,
                hidden: hidden_singles,
                guesses,
                backtracks,
                // One board per entry of the search procedure.
                boards: recursions,
                solutions: outcome.solutions,
            },
            "{puzzle}"
        );
        // Every guess enters the procedure once; the root is the one entry without a guess.
        assert_eq!(recursions, guesses + 1);
        if recursions == 1 {
            // Propagation alone: every blank was placed once, by a single.
            assert_eq!(givens + naked_singles + hidden_singles, 81, "{puzzle}");
            by_propagation += 1;
        }
    }
    assert!(by_propagation > 0);
}

#[test]
fn fast_on_jigsaw_stops_at_its_budget() {
    let (puzzle, layout, _) = sample()
        .into_iter()
        .find(|(puzzle, layout, _)| {
            let out = solve(puzzle, layout, &SolveOptions::default()).unwrap();
            out.stats.recursions > 10
        })
        .expect("a sample puzzle that needs guesses");
    let options = SolveOptions {
        max_recursions: 5,
        ..SolveOptions::default()
    };
    let out = solve(&puzzle, &layout, &options).unwrap();
    assert_eq!(out.status, Status::GaveUp);
    assert_eq!(out.stats.recursions, 5);
}
