//! Writes one of three reproducible benchmark sets, one puzzle a line (81 cells, `.` blank), for
//! speed comparisons on kinds of puzzles the shipped sets lack (`../shared/peers/compare.sh`).
//! The kinds are described in `benches/common/generated.rs`, which `cargo bench --bench solver`
//! uses too: `easy` (30 to 37 givens, unique), `random` (24 to 28 givens that do not conflict,
//! mostly no solution), `minimal` (unique, no clue removable).
//!
//! ```text
//! cargo run --release --example bench_sets -- easy 10000 1 > easy.txt
//! cargo run --release --example bench_sets -- random 10000 2 > random.txt
//! cargo run --release --example bench_sets -- minimal 10000 3 > minimal.txt
//! ```
//!
//! Arguments: the kind, the number of puzzles, the seed.

use std::io::{BufWriter, Write};

#[path = "../benches/common/generated.rs"]
mod generated;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: bench_sets easy|random|minimal COUNT SEED";
    let parsed = match args.as_slice() {
        [kind, count, seed] => match kind.as_str() {
            "easy" => Some(generated::Kind::Easy),
            "random" => Some(generated::Kind::Random),
            "minimal" => Some(generated::Kind::Minimal),
            _ => None,
        }
        .zip(count.parse::<u64>().ok())
        .zip(seed.parse::<u64>().ok()),
        _ => None,
    };
    let Some(((kind, count), seed)) = parsed else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    for grid in generated::puzzles(kind, count, seed) {
        writeln!(out, "{}", grid.to_line())?;
    }
    out.flush()
}
