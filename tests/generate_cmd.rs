//! `sudoku-bulk generate`: the same bytes for any thread count, puzzles that `verify --unique`
//! accepts, the options met, and options that cannot be met refused.

use sudoku_bulk::Grid;
use sudoku_bulk::generate::Symmetry;

use crate::workdir::{Workdir, csv_rows};

#[test]
fn same_seed_same_bytes_for_any_thread_count() {
    let dir = Workdir::new();
    let one = dir
        .same_output_on_one_and_two_threads(&["generate", "--count", "300", "--seed", "7", "-q"]);
    assert_eq!(csv_rows(&one).len(), 300);
    let other = dir.run(&["generate", "--count", "300", "--seed", "8", "-q"]);
    assert_ne!(other.stdout, one);
    // A puzzle depends on its index alone: the first ten of 300 are the batch of ten.
    let ten = dir.run(&["generate", "--count", "10", "--seed", "7", "-q"]);
    assert!(one.starts_with(&ten.stdout));
}

#[test]
fn generated_puzzles_pass_verify_unique() {
    let dir = Workdir::new();
    let run = dir.run(&[
        "generate",
        "--count",
        "50",
        "--output-format",
        "line",
        "-o",
        "p.txt",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("50 puzzles in"), "{}", run.stderr);
    let verified = dir.run(&["verify", "p.txt", "--unique", "-q"]);
    assert_eq!(verified.code, Some(0), "{}", verified.stdout);
    // Jigsaw puzzles carry their regions; verify reads them from the column.
    let run = dir.run(&[
        "generate",
        "--count",
        "3",
        "--regions",
        "random",
        "-o",
        "j.csv",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows = csv_rows(&dir.read("j.csv"));
    assert!(rows.iter().all(|r| r["regions"].len() == 81));
    let verified = dir.run(&["verify", "j.csv", "--unique", "-q"]);
    assert_eq!(verified.code, Some(0), "{}", verified.stdout);
}

#[test]
fn givens_and_symmetry_are_met() {
    let dir = Workdir::new();
    let run = dir.run(&[
        "generate",
        "--count",
        "20",
        "--givens",
        "28-32",
        "--symmetry",
        "diagonal",
        "-q",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    for row in csv_rows(&run.stdout) {
        let puzzle: Grid = row["puzzle"].parse().unwrap();
        let givens: usize = row["givens"].parse().unwrap();
        assert_eq!(puzzle.filled(), givens);
        assert!((28..=32).contains(&givens), "{givens}");
        assert!(Symmetry::Diagonal.holds_for(&puzzle), "{puzzle}");
    }
}

#[test]
fn options_that_cannot_be_met_are_errors_not_endless_loops() {
    let dir = Workdir::new();
    let run = dir.run(&["generate", "--count", "1", "--givens", "12-16"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("fewer than 17 givens"),
        "{}",
        run.stderr
    );
    let run = dir.run(&[
        "generate",
        "--count",
        "1",
        "--givens",
        "18-19",
        "--symmetry",
        "rot90",
    ]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("rot90 needs 4k or 4k+1"),
        "{}",
        run.stderr
    );
    let run = dir.run(&[
        "generate",
        "--count",
        "2",
        "--givens",
        "17",
        "--symmetry",
        "rot90",
        "--max-attempts",
        "10",
        "-o",
        "x.csv",
    ]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("no puzzle met the options in 10 attempts"),
        "{}",
        run.stderr
    );
    assert!(!dir.path("x.csv").exists(), "nothing written");
}

#[test]
fn an_out_named_parquet_gets_parquet_with_the_rows_of_csv() {
    let dir = Workdir::new();
    let args = ["generate", "--count", "20", "--seed", "3", "-q"];
    let csv = dir.run(&args);
    assert_eq!(csv.code, Some(0), "{}", csv.stderr);
    let run = dir.run(&[&args[..], &["-o", "g.parquet"]].concat());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(&std::fs::read(dir.path("g.parquet")).unwrap()[..4], b"PAR1");
    // The same puzzles, read back by solve from either file.
    dir.write("g.csv", &csv.stdout);
    let solved = |input: &str| {
        let run = dir.run(&["solve", input, "-q"]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        csv_rows(&run.stdout)
            .into_iter()
            .map(|row| (row["puzzle"].clone(), row["status"].clone()))
            .collect::<Vec<_>>()
    };
    let from_parquet = solved("g.parquet");
    assert_eq!(from_parquet.len(), 20);
    assert!(from_parquet.iter().all(|(_, status)| status == "solved"));
    assert_eq!(from_parquet, solved("g.csv"));
}

/// Rows of a CSV output, by column name.
type Rows = Vec<std::collections::BTreeMap<String, String>>;

/// `generate ARGS -o gen.csv`, then `rate gen.csv`: the generated rows and the rate rows.
fn generated_and_rated(dir: &Workdir, args: &[&str]) -> (Rows, Rows) {
    let mut all = vec!["generate", "-q", "-o", "gen.csv"];
    all.extend(args);
    let run = dir.run(&all);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rated = dir.run(&["rate", "gen.csv", "-q"]);
    assert_eq!(rated.code, Some(0), "{}", rated.stderr);
    (csv_rows(&dir.read("gen.csv")), csv_rows(&rated.stdout))
}

#[test]
fn puzzles_made_to_a_level_are_rated_so_again_and_unique() {
    let dir = Workdir::new();
    for (level, seed) in [
        ("easy", "1"),
        ("medium", "2"),
        ("hard", "3"),
        ("unfair-extreme", "4"),
    ] {
        let (made, rated) =
            generated_and_rated(&dir, &["--count", "12", "--seed", seed, "--level", level]);
        assert_eq!(made.len(), 12);
        for (m, r) in made.iter().zip(&rated) {
            assert_eq!(m["puzzle"], r["puzzle"]);
            assert!(level.contains(r["level"].as_str()), "{level}: {r:?}");
            assert_eq!(
                (&m["level"], &m["score"], &m["hardest"]),
                (&r["level"], &r["score"], &r["hardest"]),
                "the row carries the rating that rate gives"
            );
        }
        let verified = dir.run(&["verify", "gen.csv", "--unique", "-q"]);
        assert_eq!(verified.code, Some(0), "{}", verified.stdout);
    }
    // Score and technique targets, with givens and symmetry.
    let (made, rated) = generated_and_rated(
        &dir,
        &[
            "--count",
            "6",
            "--score",
            "1000-1500",
            "--needs",
            "x-wing",
            "--symmetry",
            "rot180",
        ],
    );
    for (m, r) in made.iter().zip(&rated) {
        let score: u32 = r["score"].parse().unwrap();
        assert!((1000..=1500).contains(&score), "{r:?}");
        assert!(r["techniques"].contains("x-wing:"), "{r:?}");
        assert_eq!(m["score"], r["score"]);
        let grid: Grid = m["puzzle"].parse().unwrap();
        assert!(Symmetry::Rot180.holds_for(&grid));
    }
}

#[test]
fn puzzles_made_to_a_level_are_the_same_bytes_for_any_thread_count() {
    let dir = Workdir::new();
    // Each level's way of making puzzles: singles kept (easy), the rated pass (medium), the
    // unique pass then rated (hard).
    for level in ["easy", "medium", "hard"] {
        let args = [
            "generate", "--count", "40", "--seed", "9", "--level", level, "-q",
        ];
        let one = dir.same_output_on_one_and_two_threads(&args);
        assert_eq!(
            crate::workdir::csv_header(&one),
            [
                "index", "puzzle", "solution", "givens", "level", "score", "hardest"
            ]
        );
    }
}

/// Families of puzzles (`--neighbours`): the same bytes for any thread count, a count that
/// cuts a family and chunks of any size included; each family shares its grid; rated as
/// written, and unique, when rated and verified again.
#[test]
fn neighbours_come_in_families_the_same_for_any_thread_count() {
    let dir = Workdir::new();
    let args = [
        "generate",
        "--count",
        "263",
        "--seed",
        "5",
        "--level",
        "hard",
        "--neighbours",
        "6",
        "-q",
    ];
    let one = dir.same_output_on_one_and_two_threads(&args);
    let rows = csv_rows(&one);
    assert_eq!(rows.len(), 263);
    let families = rows
        .chunks(7)
        .filter(|f| f.iter().all(|r| r["solution"] == f[0]["solution"]));
    assert!(
        families.count() >= 30,
        "most families keep one grid throughout"
    );
    dir.write("gen.csv", &one);
    let rated = dir.run(&["rate", "gen.csv", "-q"]);
    assert_eq!(rated.code, Some(0), "{}", rated.stderr);
    for (m, r) in rows.iter().zip(csv_rows(&rated.stdout)) {
        assert_eq!(
            (&m["puzzle"], &m["level"], &m["score"], &m["hardest"]),
            (&r["puzzle"], &r["level"], &r["score"], &r["hardest"])
        );
        assert_eq!(r["level"], "hard");
    }
    let verified = dir.run(&["verify", "gen.csv", "--unique", "-q"]);
    assert_eq!(verified.code, Some(0), "{}", verified.stdout);
}

/// `--se`: rows carry ER, EP and ED as `rate --scale se` gives them, within the range asked
/// for, the same bytes for any thread count; ranges no version can meet are refused.
#[test]
fn puzzles_made_to_an_se_rating_carry_what_rate_scale_se_gives() {
    let dir = Workdir::new();
    let args = [
        "generate",
        "--count",
        "12",
        "--seed",
        "4",
        "--se",
        "6.6-7.3",
        "--neighbours",
        "2",
        "-q",
    ];
    let made = dir.same_output_on_one_and_two_threads(&args);
    assert_eq!(
        crate::workdir::csv_header(&made),
        [
            "index", "puzzle", "solution", "givens", "level", "score", "hardest", "er", "ep", "ed"
        ]
    );
    dir.write("gen.csv", &made);
    let rated = dir.run(&["rate", "--scale", "se", "gen.csv", "-q"]);
    assert_eq!(rated.code, Some(0), "{}", rated.stderr);
    for (m, r) in csv_rows(&made).iter().zip(csv_rows(&rated.stdout)) {
        assert_eq!(
            (&m["er"], &m["ep"], &m["ed"]),
            (&r["er"], &r["ep"], &r["ed"])
        );
        let er: f64 = m["er"].parse().unwrap();
        assert!((6.6..=7.3).contains(&er), "{m:?}");
    }
    for (args, says) in [
        (&["--se", "9.5-11"][..], "nested forcing chains"),
        (&["--se", "7.25"], "one decimal at most"),
        (&["--se", "7", "--regions", "random"], "3x3 boxes only"),
    ] {
        let run = dir.run(&[&["generate", "--count", "1"][..], args].concat());
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn difficulty_targets_that_cannot_be_met_are_refused_with_what_to_do() {
    let dir = Workdir::new();
    let run = dir.run(&["generate", "--count", "1", "--needs", "x-wings"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("unknown technique 'x-wings'")
            && run.stderr.contains("x-wing, swordfish"),
        "{}",
        run.stderr
    );
    let run = dir.run(&[
        "generate",
        "--count",
        "1",
        "--level",
        "medium",
        "--needs",
        "forcing-chain",
    ]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("forcing-chain is a technique of level extreme"),
        "{}",
        run.stderr
    );
    // No technique named, a score below what the blank cells cost, a walk past its bound.
    for (args, says) in [
        (&["--needs", ""][..], "no technique named"),
        (&["--score", "1-3"], "scores 4 at least"),
        (
            &["--givens", "25-30", "--score", "100-200"],
            "scores 204 at least",
        ),
        (&["--walk", "1001"], "at most 1000 steps"),
        (&["--neighbours", "101"], "--neighbours 101: at most 100"),
    ] {
        let run = dir.run(&[&["generate", "--count", "1"][..], args].concat());
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
    let run = dir.run(&["generate", "--count", "1", "--level", "diabolical"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("easy, medium, hard, unfair, extreme"),
        "{}",
        run.stderr
    );
    // Possible but rare: ends after the attempts, naming the target.
    let run = dir.run(&[
        "generate",
        "--count",
        "1",
        "--needs",
        "jellyfish",
        "--max-attempts",
        "3",
    ]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("no puzzle met the options in 3 attempts")
            && run.stderr.contains("needs jellyfish"),
        "{}",
        run.stderr
    );
}
