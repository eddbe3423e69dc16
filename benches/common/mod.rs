//! What the benchmarks share: the shipped puzzle lists, and criterion's results read back.

use std::io::Read;
use std::path::Path;

/// The puzzle lines of a shipped set, `data/FILE` (gzip): blank and `#` lines left out.
#[allow(dead_code, reason = "not every bench reads the shipped sets")]
pub fn shipped_lines(file: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(file);
    let opened = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(opened)
        .read_to_string(&mut text)
        .expect("gzip text");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Puzzles per second of the benchmark `id` (`group/function[/value]`) of this run: its
/// throughput in elements over criterion's mean time, read back from `target/criterion`.
/// `None` when it did not run.
#[allow(dead_code, reason = "not every bench prints rates")]
pub fn rate(id: &str) -> Option<f64> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/criterion")
        .join(id)
        .join("new");
    let read = |name: &str| -> Option<serde_json::Value> {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).ok()?).ok()
    };
    let mean_ns = read("estimates.json")?["mean"]["point_estimate"].as_f64()?;
    let elements = read("benchmark.json")?["throughput"]["Elements"].as_f64()?;
    Some(elements / mean_ns * 1e9)
}
