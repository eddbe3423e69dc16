//! Every shipped puzzle is solved and every answer passes the independent checker.

use sudoku_bulk::solver::{SolveOptions, Status, solve};
use sudoku_bulk::verify::verify;
use sudoku_bulk::{Grid, Layout};

fn load(name: &str) -> Vec<Grid> {
    crate::workdir::grids(name, usize::MAX)
}

fn check_unique(name: &str) {
    let layout = Layout::standard();
    let puzzles = load(name);
    assert!(!puzzles.is_empty());
    for p in &puzzles {
        let out = solve(p, &layout, &SolveOptions::default()).unwrap();
        assert_eq!(out.status, Status::Solved, "{p}");
        verify(p, &out.solution.unwrap(), &layout).unwrap();
    }
}

#[test]
fn seventeen_clue_all_solved_and_verified() {
    check_unique("puzzles2_17_clue.txt.gz");
}

#[test]
fn magictour_all_solved_and_verified() {
    check_unique("puzzles3_magictour_top1465.txt.gz");
}

#[test]
fn forum_hardest_11_all_solved_and_verified() {
    check_unique("puzzles5_forum_hardest_1905_11+.txt.gz");
}

#[test]
fn forum_hardest_1106_all_solved_and_verified() {
    check_unique("puzzles6_forum_hardest_1106.txt.gz");
}

#[test]
fn serg_all_have_several_solutions_each_verified() {
    let layout = Layout::standard();
    for p in &load("puzzles7_serg_benchmark.txt.gz") {
        let out = solve(p, &layout, &SolveOptions::default()).unwrap();
        assert_eq!(out.status, Status::Multiple, "{p}");
        assert_eq!(out.solutions, 2);
        verify(p, &out.solution.unwrap(), &layout).unwrap();
    }
}
