//! Jigsaw (free-form) layouts: puzzles made in the test and the shipped sample are solved the
//! same way by every algorithm, and the checker and traces speak of regions.

use sudoku_bulk::generate::{random_jigsaw, remove_clues};
use sudoku_bulk::render::Trace;
use sudoku_bulk::solver::{Algorithm, SolveOptions, Status, solve, solve_traced};
use sudoku_bulk::verify::verify;
use sudoku_bulk::{Grid, Layout};

use crate::algorithms::{all_solutions, load};

const STANDARD: &str =
    "111222333111222333111222333444555666444555666444555666777888999777888999777888999";

const COMPLETE: [Algorithm; 4] = [
    Algorithm::Fast,
    Algorithm::Naive,
    Algorithm::Candidates,
    Algorithm::Random,
];

fn options(algorithm: Algorithm, max_solutions: u64, max_recursions: u64) -> SolveOptions {
    SolveOptions {
        algorithm,
        max_solutions,
        max_recursions,
        seed: 7,
    }
}

/// The shipped sample: (puzzle, layout, solution) per row.
pub fn sample() -> Vec<(Grid, Layout, Grid)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/jigsaw_sample.csv");
    let mut reader = csv::Reader::from_path(path).unwrap();
    assert_eq!(
        reader.headers().unwrap(),
        vec!["puzzle", "regions", "solution"]
    );
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (
                r[0].parse().unwrap(),
                Layout::parse(r[1].as_bytes()).unwrap(),
                r[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn puzzles_on_random_layouts_are_solved_alike_by_every_algorithm() {
    for seed in 0..10 {
        // A random layout (boundary swaps from the boxes, regions kept connected) and a random
        // complete grid for it by `random`.
        let (layout, solution) = random_jigsaw(seed, 40);
        assert!(!layout.is_standard());
        assert!(layout.disconnected_regions().is_empty());
        verify(&Grid::EMPTY, &solution, &layout).unwrap();
        // Clues removed while the solution stays unique, down to 30 so that plain
        // backtracking finishes quickly.
        let puzzle = remove_clues(&solution, &layout, seed, 30);
        assert_eq!(puzzle.filled(), 30, "seed {seed}");
        let mut recursions = Vec::new();
        for algorithm in COMPLETE {
            let out = solve(&puzzle, &layout, &options(algorithm, 2, 5_000_000)).unwrap();
            assert_eq!(out.status, Status::Solved, "{algorithm}, seed {seed}");
            assert_eq!(out.solutions, 1);
            assert_eq!(out.solution, Some(solution), "{algorithm}, seed {seed}");
            recursions.push(out.stats.recursions);
        }
        // naive, candidates and random walk one tree (see the algorithms tests).
        assert!(recursions[1] == recursions[2] && recursions[2] == recursions[3]);
        let logic = solve(&puzzle, &layout, &options(Algorithm::Logic, 2, 1)).unwrap();
        assert!(matches!(logic.status, Status::Solved | Status::Stuck));
        let partial = logic.solution.unwrap();
        assert!((0..81).all(|i| partial.get(i) == 0 || partial.get(i) == solution.get(i)));

        // Six more clues removed: several solutions, the same set for every algorithm.
        let mut open = puzzle;
        let mut k = seed as usize;
        for _ in 0..6 {
            while open.get(k) == 0 {
                k = (k + 13) % 81;
            }
            open.set(k, 0);
        }
        let expected = all_solutions(&open, &layout, Algorithm::Fast, 500, u64::MAX).unwrap();
        assert!(expected.contains(&solution.to_line()));
        for algorithm in COMPLETE {
            let found = all_solutions(&open, &layout, algorithm, 500, 5_000_000);
            assert_eq!(found.as_ref(), Some(&expected), "{algorithm}, seed {seed}");
        }
    }
}

#[test]
fn the_shipped_sample_has_unique_solutions_that_fast_finds() {
    let rows = sample();
    assert_eq!(rows.len(), 40);
    for (puzzle, layout, solution) in &rows {
        assert!(!layout.is_standard());
        let out = solve(puzzle, layout, &options(Algorithm::Fast, 2, u64::MAX)).unwrap();
        assert_eq!(out.status, Status::Solved, "{puzzle}");
        assert_eq!(out.solution.as_ref(), Some(solution));
        verify(puzzle, solution, layout).unwrap();
        // The puzzles are minimal: without any one clue the solution is no longer unique.
        let i = (0..81).find(|&i| puzzle.get(i) != 0).unwrap();
        let mut fewer = *puzzle;
        fewer.set(i, 0);
        let out = solve(&fewer, layout, &options(Algorithm::Fast, 2, u64::MAX)).unwrap();
        assert_eq!(out.status, Status::Multiple);
    }
}

#[test]
fn the_shipped_sample_is_what_the_generator_makes() {
    // The parameters of `examples/make_jigsaw.rs`; the first rows are enough to show that the
    // file is reproducible (each row depends only on its own seed).
    const BASE_SEED: u64 = 20_261_122;
    for (k, (puzzle, layout, solution)) in sample().into_iter().take(3).enumerate() {
        let seed = BASE_SEED + k as u64;
        let (l, s) = random_jigsaw(seed, 40);
        assert_eq!(l, layout);
        assert_eq!(s, solution);
        assert_eq!(remove_clues(&s, &l, seed, 0), puzzle);
    }
}

#[test]
fn the_standard_layout_written_out_gives_the_same_outcomes() {
    let explicit = Layout::parse(STANDARD.as_bytes()).unwrap();
    let puzzles = load("puzzles7_serg_benchmark.txt.gz", 5);
    for p in &puzzles {
        for algorithm in Algorithm::ALL {
            let o = options(*algorithm, 2, 200_000);
            assert_eq!(
                solve(p, &Layout::standard(), &o),
                solve(p, &explicit, &o),
                "{algorithm}"
            );
        }
    }
}

#[test]
fn the_checker_catches_a_box_valid_grid_that_breaks_a_region() {
    let (_, layout, jigsaw_solution) = sample().remove(0);
    let boxes = load("puzzles2_17_clue.txt.gz", 1)[0];
    let standard_solution = solve(&boxes, &Layout::standard(), &SolveOptions::default())
        .unwrap()
        .solution
        .unwrap();
    verify(&Grid::EMPTY, &standard_solution, &Layout::standard()).unwrap();
    let problem = verify(&Grid::EMPTY, &standard_solution, &layout).unwrap_err();
    assert!(problem.to_string().starts_with("region "), "{problem}");
    // And the other way round: the jigsaw solution breaks a box.
    let problem = verify(&Grid::EMPTY, &jigsaw_solution, &Layout::standard()).unwrap_err();
    assert!(problem.to_string().starts_with("box "), "{problem}");
}

#[test]
fn traces_on_a_jigsaw_layout_name_regions_by_label() {
    let (puzzle, layout, _) = sample().remove(0);
    let mut trace = Trace::new(&layout, 100_000);
    solve_traced(
        &puzzle,
        &layout,
        &options(Algorithm::Fast, 2, u64::MAX),
        &mut trace,
    )
    .unwrap();
    let lines = trace.lines();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("(hidden single in region ")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("box")));
}
