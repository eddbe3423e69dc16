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
        let mut text = String::new();
        flate2::read::MultiGzDecoder::new(std::fs::File::open(&path).unwrap())
            .read_to_string(&mut text)
            .unwrap();
        let lines = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
        puzzles.extend(lines.step_by(step).map(|l| l.parse::<Grid>().unwrap()));
    }
    puzzles
}
