//! The engine's instruction-set levels (`SUDOKU_BULK_ISA`): every level this CPU has gives the
//! same bytes (solutions, statuses and every counter) on every shipped set, on puzzles without
//! a solution and on generated puzzles; a level it lacks, or an unknown name, is refused at start.

use crate::workdir::Workdir;
use sudoku_bulk::solver::InstructionSet;

const VARIABLE: &str = "SUDOKU_BULK_ISA";

/// Runs the binary with `args` at `level` (the variable's value).
fn run_at(dir: &Workdir, level: &str, args: &[&str]) -> crate::workdir::Run {
    let output = dir
        .command(args)
        .env(VARIABLE, level)
        .write_stdin(Vec::new())
        .output()
        .unwrap();
    crate::workdir::Run::from(output)
}

/// The shipped sets, by path.
fn shipped_sets() -> Vec<String> {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut sets: Vec<String> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".txt.gz"))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    sets.sort();
    assert_eq!(sets.len(), 5, "{sets:?}");
    sets
}

/// Every command whose output comes from the engine, on the shipped sets and on random givens
/// (most without a solution), run at `level`: its exit code, stdout and stderr without timings.
fn outputs_at(dir: &Workdir, level: &str) -> Vec<(String, Option<i32>, String)> {
    let mut runs: Vec<(String, Vec<String>)> = shipped_sets()
        .into_iter()
        .map(|set| {
            let args = ["solve", &set, "--threads", "2"].map(str::to_string);
            (set.clone(), args.to_vec())
        })
        .collect();
    runs.push((
        "generate minimal".to_string(),
        ["generate", "--count", "300", "--seed", "37"]
            .map(str::to_string)
            .to_vec(),
    ));
    runs.push((
        "random givens".to_string(),
        ["solve", "random.txt", "--threads", "2"]
            .map(str::to_string)
            .to_vec(),
    ));
    runs.into_iter()
        .map(|(name, args)| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let run = run_at(dir, level, &args);
            (name, run.code, run.stdout)
        })
        .collect()
}

/// 3,000 random consistent givens (24-28 of them): most have no solution, some several.
fn random_givens() -> String {
    let layout = sudoku_bulk::Layout::standard();
    let mut rng = sudoku_bulk::rng::SplitMix64::new(37);
    (0..3000)
        .map(|k| {
            let grid = sudoku_bulk::generate::random_givens(&layout, &mut rng, 24 + k % 5);
            format!("{grid}\n")
        })
        .collect()
}

#[test]
fn every_level_this_cpu_has_gives_the_same_bytes_and_counters() {
    let dir = Workdir::new();
    dir.write("random.txt", random_givens());
    let portable = outputs_at(&dir, "portable");
    for (name, code, stdout) in &portable {
        assert!(matches!(code, Some(0)), "{name}: exit {code:?}");
        assert!(stdout.lines().count() > 200, "{name}");
    }
    let levels = InstructionSet::available_levels();
    assert_eq!(levels[0], InstructionSet::Portable);
    for level in &levels[1..] {
        let at_level = outputs_at(&dir, level.name());
        for (p, l) in portable.iter().zip(&at_level) {
            assert_eq!(p.1, l.1, "{}: exit code at {level}", p.0);
            assert!(
                p.2 == l.2,
                "{}: the output at {level} differs from portable",
                p.0
            );
        }
    }
}

#[test]
fn a_level_this_cpu_lacks_is_refused_at_start_and_the_others_run() {
    let dir = Workdir::new();
    dir.write(
        "one.txt",
        format!(
            "{}\n",
            crate::workdir::puzzles("puzzles2_17_clue.txt.gz", 1)[0]
        ),
    );
    for &level in InstructionSet::ALL {
        let run = run_at(&dir, level.name(), &["solve", "one.txt"]);
        if level.available() {
            assert_eq!(run.code, Some(0), "{level}: {}", run.stderr);
            assert!(run.stdout.contains(",solved,"), "{level}");
        } else {
            assert_eq!(run.code, Some(2), "{level}");
            assert!(run.stdout.is_empty());
            let said = format!(
                "sudoku-bulk: error: SUDOKU_BULK_ISA={level}: this CPU cannot run the {level} level"
            );
            assert!(run.stderr.starts_with(&said), "{level}: {}", run.stderr);
            assert!(run.stderr.contains("the levels it can run: portable"));
        }
    }
}

#[test]
fn an_unknown_level_is_refused_by_name_and_an_empty_one_is_the_default() {
    let dir = Workdir::new();
    dir.write(
        "one.txt",
        format!(
            "{}\n",
            crate::workdir::puzzles("puzzles2_17_clue.txt.gz", 1)[0]
        ),
    );
    let run = run_at(&dir, "sse4", &["solve", "one.txt"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stdout.is_empty());
    assert_eq!(
        run.stderr,
        "sudoku-bulk: error: SUDOKU_BULK_ISA=sse4: unknown instruction-set level 'sse4' \
         (expected one of: portable, avx2, avx512)\n"
    );
    let run = run_at(&dir, "", &["solve", "one.txt"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = run_at(&dir, "AVX2", &["solve", "one.txt"]);
    let expected = if InstructionSet::Avx2.available() {
        0
    } else {
        2
    };
    assert_eq!(run.code, Some(expected), "{}", run.stderr);
}
