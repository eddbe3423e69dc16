//! Puzzles of the shipped data sets, for the unit tests.

use std::io::Read;

use crate::Grid;

/// Every `step`-th puzzle of every shipped standard set (`data/*.txt.gz`).
pub(crate) fn shipped_puzzles(step: usize) -> Vec<Grid> {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut files: Vec<_> = std::fs::read_dir(data)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.to_string_lossy().ends_with(".txt.gz"))
        .collect();
    files.sort();
    let mut puzzles = Vec::new();
    for path in files {
        puzzles.extend(puzzles_of(&path).into_iter().step_by(step));
    }
    puzzles
}

/// Every puzzle of one shipped set, `data/FILE` (gzip), in file order.
pub(crate) fn shipped_set(file: &str) -> Vec<Grid> {
    puzzles_of(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data")
            .join(file),
    )
}

/// The puzzle lines of a gzip file: blank and `#` lines left out.
fn puzzles_of(path: &std::path::Path) -> Vec<Grid> {
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.parse::<Grid>().unwrap())
        .collect()
}

/// A puzzle with one solution (the example of the Wikipedia article on Sudoku).
pub(crate) const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// The solution of [`PUZZLE`].
pub(crate) const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// The settings of a `solve` run with every default, on `threads` threads.
pub(crate) fn solve_settings(threads: usize) -> crate::pipeline::Settings {
    crate::pipeline::Settings::new(
        crate::pipeline::Job::Solve(crate::solver::SolveOptions::default()),
        threads,
    )
}
