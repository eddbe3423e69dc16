//! The fuzz corpus and every input that once broke a promise, replayed under plain `cargo test`
//! through the function the fuzz targets call (`fuzz/fuzz_targets/`).

use std::path::Path;

use sudoku_bulk::format::InputFormat;
use sudoku_bulk::pipeline::fuzz::check_bytes;

/// Runs every file of `fuzz/corpus/TARGET` and `fuzz/regressions/TARGET`; returns how many.
fn replay(target: &str, format: InputFormat) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut count = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            if let Err(broken) = check_bytes(format, &bytes) {
                panic!("{}: {broken}", path.display());
            }
            count += 1;
        }
    }
    count
}

#[test]
fn line_corpus_replays() {
    assert!(
        replay("line", InputFormat::Line) > 0,
        "the line corpus is empty"
    );
}

#[test]
fn csv_corpus_replays() {
    assert!(
        replay("csv", InputFormat::Csv) > 0,
        "the CSV corpus is empty"
    );
}

#[test]
fn grid_corpus_replays() {
    assert!(
        replay("grid", InputFormat::Grid) > 0,
        "the grid corpus is empty"
    );
}
