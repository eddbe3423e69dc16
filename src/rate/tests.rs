//! Tests of the whole rater: every technique on a puzzle that needs it, agreement with HoDoKu
//! on puzzles it rated, jigsaw layouts, and the safety net over every shipped set.

use std::io::Read;

use super::*;
use crate::Layout;

/// For each technique, a puzzle whose rating uses it (found by rating the shipped sets and
/// QQWing puzzles; the first puzzle that used it).
const TECHNIQUE_PUZZLES: &[(&str, &str)] = &[
    (
        "full-house",
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ),
    (
        "naked-single",
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ),
    (
        "hidden-single",
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ),
    (
        "locked-pair",
        ".................1.....2.3...2...4....3.5......41....6.5.6......7.....2..8.91....",
    ),
    (
        "locked-triple",
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ),
    (
        "locked-candidates-pointing",
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ),
    (
        "locked-candidates-claiming",
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ),
    (
        "naked-pair",
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
    ),
    (
        "naked-triple",
        ".................1.....234.....5......3...6....7.1...8.5...3....9...6...18......5",
    ),
    (
        "hidden-pair",
        ".................1..2..3..4.......2.....5....16..7........1.5....3..4....89..2.3.",
    ),
    (
        "hidden-triple",
        ".................1..2..3.4......5.....3.2.....1....6.7...6...5...8...3...6.17....",
    ),
    (
        "naked-quad",
        ".................1..2.34..........2..5.....346..1........62.7.....8...5..74......",
    ),
    (
        "hidden-quad",
        "9..3....41...2...5..2...3.12..6.9..36.9.5.............48.9...7........4....81....",
    ),
    (
        "x-wing",
        ".................1..2..3.4......23...5.......41......6...56......4.1......7...82.",
    ),
    (
        "swordfish",
        ".................1..2.34.5.............1.6..7..3....8.....8..3..9..2....61......9",
    ),
    (
        "jellyfish",
        ".................1..2.34.........35....6..2...7.18.......5....2.3....4..68.......",
    ),
    (
        "remote-pair",
        ".................1.....234.....5......3...6....7.1...8.5...3....9...6...18......5",
    ),
    (
        "bug-plus-1",
        ".................1..2.34.........35....6..2...7.18.......5....2.3....4..68.......",
    ),
    (
        "skyscraper",
        ".................1..2..3..4.......5......4.....3..678.....9.2...1.5.....64.1.....",
    ),
    (
        "2-string-kite",
        ".................1..2..3.4.............15...6..3.7..2......473..5.......16...8...",
    ),
    (
        "turbot-fish",
        ".................1..2..3.4.......2...1....5...6..74.......1..6...5....3...856....",
    ),
    (
        "empty-rectangle",
        ".................1..2..3.4........2......43...5..1...6...47...8.2..8....3.9......",
    ),
    (
        "w-wing",
        ".................1..2..3..4.......5.....3..6247..1.........7.8...6...9...1.8.....",
    ),
    (
        "xy-wing",
        ".................1..2..3..4.......5.....3..6247..1.........7.8...6...9...1.8.....",
    ),
    (
        "xyz-wing",
        ".................1..2..3.4........2......43...5..1...6...47...8.2..8....3.9......",
    ),
    (
        "unique-rectangle-1",
        ".................1.....2.34.....56....7....8..8..1.7.....8.....3..6.....9.5.....3",
    ),
    (
        "unique-rectangle-2",
        "......41.9..3.....3...5.....48..7..........52.1.......6..2....5.7....8......9....",
    ),
    (
        "unique-rectangle-3",
        ".................1..2.34.................526..7.8........98...7..6....3.2.51.....",
    ),
    (
        "unique-rectangle-4",
        ".................1..2..3.4........2...4....3..5..6.........2....1..5.7.6.6.8....5",
    ),
    (
        "hidden-rectangle",
        ".................1..2..3.4........2..5..6.3..16..7.........8.....4..2....7..1...6",
    ),
    (
        "finned-x-wing",
        "................12....34.........3....1....5..675........27...834......69........",
    ),
    (
        "sashimi-x-wing",
        "3.7..4.2....1..8..9............3..9..5.8......4.6...........5.12...7..........6..",
    ),
    (
        "finned-swordfish",
        ".................1..2..3..4.......5......4....3...678.....9.2..1..5.....46.1.....",
    ),
    (
        "sashimi-swordfish",
        ".................1..2..3..4.......5......4.....3..678.....9.2...1.5.....64.1.....",
    ),
    (
        "finned-jellyfish",
        ".................1..2..3.4.......2...1....5...6..74.......1..6...5....3...856....",
    ),
    (
        "sashimi-jellyfish",
        "9.16....2.8.....4...3.2.5........2....51....6...87...........3..189.......6..59..",
    ),
    (
        "sue-de-coq",
        ".................1..2..3.4......5....3....6..7...1...8.....625..8..9....1......3.",
    ),
    (
        "simple-colors",
        ".................1..2.34.5......6..7..3.......51.........81..3..7.3.....6.....2..",
    ),
    (
        "multi-colors",
        ".................1..2..3.4........2..5..6.3..16..7.........8.....4..2....7..1...6",
    ),
    (
        "x-chain",
        ".................1..2..3.4........2..5..6.3..16..7.........8.....4..2....7..1...6",
    ),
    (
        "xy-chain",
        ".................1..2..3.4........2......43...5..1...6...47...8.2..8....3.9......",
    ),
    (
        "nice-loop",
        ".................1.....2.34.....56....7....8..8..1.7.....8.....3..6.....9.5.....3",
    ),
    (
        "als-xz",
        ".................1..2..3.4......5.2..6...7...81...........1.3.6....8......96..2..",
    ),
    (
        "als-xy-wing",
        ".................1..2.34.................526..7.8........98...7..6....3.2.51.....",
    ),
    (
        "forcing-chain",
        ".................1..2..3.4......5.2..6...7...81...........1.3.6....8......96..2..",
    ),
    (
        "forcing-net",
        ".................1..2..3.4......5.2..6...7...81...........1.3.6....8......96..2..",
    ),
    (
        "brute-force",
        "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
    ),
];

/// Puzzles rated by hodoku-py 0.2.1 (`scripts/compare_hodoku.py`): level, score, hardest.
const HODOKU: &[(&str, Level, u32, &str)] = &[
    (
        ".......2.97...2.83....13..6..1.25....96..8..7........5.62.395.......63..........9",
        Level::Easy,
        374,
        "hidden-single",
    ),
    (
        ".....7.3...6..4..5..8.3.1...97..5.468.5.....1....9.8.........9....7..4.8..49....3",
        Level::Easy,
        344,
        "hidden-single",
    ),
    (
        "3.........97....5.2.45...91.2.....6..39..6.75..59...341..6.........2451...2.7....",
        Level::Medium,
        292,
        "locked-pair",
    ),
    (
        ".74..8...53.7.41..1...2....2.3.7...1....1...58..5....6....6....4.5....2....4....7",
        Level::Medium,
        404,
        "locked-candidates-claiming",
    ),
    (
        "..2......5....9..1.1..........268.7.7...1...52.6..5...65...24.89...8.1....8..49..",
        Level::Hard,
        870,
        "unique-rectangle-1",
    ),
    (
        "..4673..9.........3.2.84....9.7.1.4..........6.......2.....7.132.......61..3987..",
        Level::Hard,
        894,
        "remote-pair",
    ),
    (
        "...4...1...8..2...64..9.2.74.19..3.6..3......96.7...48...8..........6....2....67.",
        Level::Unfair,
        1694,
        "nice-loop",
    ),
    (
        "....7....6..5.2.715.2..3.....4....6.251.......9.1.7...1....49.29.7.3.....4...67..",
        Level::Unfair,
        1026,
        "xy-chain",
    ),
];

fn solution_of(grid: &Grid, layout: &Layout) -> Grid {
    let houses = Houses::new(layout);
    let board = Board::new(grid, &houses, &mut board::NoEvents);
    brute::solve(&board, &houses).expect("a solution")
}

fn checked(grid: &Grid, layout: &Layout, unique: bool) -> RateOptions {
    RateOptions {
        unique,
        solution: Some(solution_of(grid, layout)),
        record_steps: true,
    }
}

#[test]
fn every_technique_applies_on_its_puzzle() {
    let layout = Layout::standard();
    let mut rater = Rater::new(&layout);
    let mut seen = [false; Technique::COUNT];
    for &(key, puzzle) in TECHNIQUE_PUZZLES {
        let t = Technique::from_key(key).unwrap();
        let grid: Grid = puzzle.parse().unwrap();
        let rating = rater.rate(&grid, &checked(&grid, &layout, true)).unwrap();
        assert!(rating.counts[t.index()] > 0, "{key} not used on {puzzle}");
        assert!(rating.solution.is_complete());
        seen[t.index()] = true;
    }
    for &t in LADDER {
        assert!(seen[t.index()], "no puzzle for {}", t.key());
    }
}

#[test]
fn agrees_with_hodoku_on_measured_puzzles() {
    let layout = Layout::standard();
    let mut rater = Rater::new(&layout);
    for &(puzzle, level, score, hardest) in HODOKU {
        let grid: Grid = puzzle.parse().unwrap();
        let r = rater.rate(&grid, &checked(&grid, &layout, true)).unwrap();
        assert_eq!(
            (r.level, r.score, r.hardest.unwrap().key()),
            (level, score, hardest),
            "{puzzle}"
        );
    }
}

#[test]
fn steps_add_up_and_render() {
    let layout = Layout::standard();
    let grid: Grid = HODOKU[2].0.parse().unwrap();
    let r = rate(&grid, &layout, &checked(&grid, &layout, true)).unwrap();
    assert_eq!(r.steps.len() as u32, r.step_count());
    assert_eq!(
        r.steps.iter().map(|s| s.technique.score()).sum::<u32>(),
        r.score
    );
    let text: Vec<String> = r.steps.iter().map(|s| s.to_string()).collect();
    assert!(
        text.iter().any(|t| t.starts_with("Locked Pair r")),
        "{text:?}"
    );
    // The same puzzle rated again gives the same rating.
    assert_eq!(
        rate(&grid, &layout, &checked(&grid, &layout, true)).unwrap(),
        r
    );
}

#[test]
fn uniqueness_techniques_need_the_callers_word() {
    let layout = Layout::standard();
    let (_, puzzle) = TECHNIQUE_PUZZLES
        .iter()
        .find(|(k, _)| *k == "unique-rectangle-1")
        .unwrap();
    let grid: Grid = puzzle.parse().unwrap();
    let with = rate(&grid, &layout, &checked(&grid, &layout, true)).unwrap();
    let without = rate(&grid, &layout, &checked(&grid, &layout, false)).unwrap();
    let uniqueness = |r: &Rating| -> u32 {
        LADDER
            .iter()
            .filter(|t| t.needs_uniqueness())
            .map(|t| r.counts[t.index()])
            .sum()
    };
    assert!(uniqueness(&with) > 0);
    assert_eq!(uniqueness(&without), 0);
    assert_eq!(with.solution, without.solution);
}

#[test]
fn the_safety_net_catches_a_wrong_step() {
    // Tell the rater a wrong solution: the first step touching the changed cells is "wrong".
    let layout = Layout::standard();
    let grid: Grid = HODOKU[0].0.parse().unwrap();
    let mut wrong = solution_of(&grid, &layout);
    let a = (0..81).find(|&i| grid.get(i) == 0).unwrap();
    let b = (0..81)
        .rev()
        .find(|&i| grid.get(i) == 0 && wrong.get(i) != wrong.get(a))
        .unwrap();
    let (va, vb) = (wrong.get(a), wrong.get(b));
    wrong.set(a, vb);
    wrong.set(b, va);
    let options = RateOptions {
        unique: true,
        solution: Some(wrong),
        record_steps: false,
    };
    match rate(&grid, &layout, &options) {
        Err(RateError::WrongStep { candidate, .. }) => {
            assert!(candidate.cell as usize == a || candidate.cell as usize == b);
        }
        other => panic!("not caught: {other:?}"),
    }
}

#[test]
fn invalid_and_unsolvable_puzzles_are_errors() {
    let layout = Layout::standard();
    let mut text = String::from("11");
    text.push_str(&".".repeat(79));
    let grid: Grid = text.parse().unwrap();
    assert!(matches!(
        rate(&grid, &layout, &RateOptions::default()),
        Err(RateError::Conflict(_))
    ));
    // Row 1 holds 1..8 and r2c9 holds 9: r1c9 has no candidate.
    let mut text = format!("12345678.{}", ".".repeat(72));
    text.replace_range(17..18, "9");
    let grid: Grid = text.parse().unwrap();
    assert_eq!(
        rate(&grid, &layout, &RateOptions::default()),
        Err(RateError::NoSolution)
    );
}

#[test]
fn a_solved_grid_needs_no_step() {
    let layout = Layout::standard();
    let grid: Grid = crate::test_data::SOLUTION.parse().unwrap();
    let r = rate(&grid, &layout, &RateOptions::default()).unwrap();
    assert_eq!(
        (r.level, r.score, r.hardest, r.step_count()),
        (Level::Easy, 0, None, 0)
    );
}

/// Every puzzle of `name` (`data/NAME`), or every `step`-th.
fn shipped(name: &str, step: usize) -> Vec<Grid> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .step_by(step)
        .map(|l| l[..81].parse().unwrap())
        .collect()
}

/// Skipping the searches found fruitless changes no step: every step of hard puzzles (and of
/// jigsaws) the same with one rater kept from puzzle to puzzle as with a rater that searches
/// everything every time.
#[test]
fn skipping_fruitless_searches_changes_no_step() {
    let mut puzzles = shipped("puzzles3_magictour_top1465.txt.gz", 7);
    puzzles.extend(shipped("puzzles2_17_clue.txt.gz", 997));
    let layout = Layout::standard();
    let mut kept = Rater::new(&layout);
    let mut full = Rater::new(&layout);
    full.skips = false;
    for grid in &puzzles {
        for unique in [true, false] {
            let options = checked(grid, &layout, unique);
            let skipped = kept.rate(grid, &options).unwrap();
            assert_eq!(skipped, full.rate(grid, &options).unwrap(), "{grid}");
        }
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/jigsaw_sample.csv");
    for line in std::fs::read_to_string(path).unwrap().lines().skip(1) {
        let mut fields = line.split(',');
        let grid: Grid = fields.next().unwrap().parse().unwrap();
        let layout = Layout::parse(fields.next().unwrap().as_bytes()).unwrap();
        let mut full = Rater::new(&layout);
        full.skips = false;
        let options = checked(&grid, &layout, true);
        let skipped = Rater::new(&layout).rate(&grid, &options).unwrap();
        assert_eq!(skipped, full.rate(&grid, &options).unwrap(), "{grid}");
    }
}

/// The safety net over a set: every step of every puzzle checked against its solution.
fn safety_net(puzzles: &[Grid], unique: bool) {
    let layout = Layout::standard();
    let mut rater = Rater::new(&layout);
    assert!(!puzzles.is_empty());
    for grid in puzzles {
        let options = RateOptions {
            unique,
            solution: Some(solution_of(grid, &layout)),
            record_steps: false,
        };
        let r = rater
            .rate(grid, &options)
            .unwrap_or_else(|e| panic!("{grid}: {e}"));
        assert_eq!(Some(r.solution), options.solution, "{grid}");
    }
}

#[test]
fn safety_net_magictour_all() {
    safety_net(&shipped("puzzles3_magictour_top1465.txt.gz", 1), true);
}

#[test]
fn safety_net_forum_hardest_1106_all() {
    safety_net(&shipped("puzzles6_forum_hardest_1106.txt.gz", 1), true);
}

#[test]
fn safety_net_17_clue_sample() {
    safety_net(&shipped("puzzles2_17_clue.txt.gz", 50), true);
}

#[test]
fn safety_net_forum_hardest_1905_sample() {
    safety_net(
        &shipped("puzzles5_forum_hardest_1905_11+.txt.gz", 200),
        true,
    );
}

/// serg's benchmark holds puzzles with many solutions: rated without uniqueness techniques,
/// each step checked against one of the solutions (sound steps never remove a digit that
/// any solution needs).
#[test]
fn safety_net_serg_sample_with_many_solutions() {
    safety_net(&shipped("puzzles7_serg_benchmark.txt.gz", 50), false);
}

#[test]
fn jigsaw_puzzles_are_rated_without_box_techniques() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/jigsaw_sample.csv");
    let text = std::fs::read_to_string(path).unwrap();
    let mut rated = 0;
    let mut beyond_singles = 0;
    for line in text.lines().skip(1) {
        let mut fields = line.split(',');
        let (puzzle, regions, solution) = (
            fields.next().unwrap(),
            fields.next().unwrap(),
            fields.next().unwrap(),
        );
        let layout = Layout::parse(regions.as_bytes()).unwrap();
        let grid: Grid = puzzle.parse().unwrap();
        let options = RateOptions {
            unique: true,
            solution: Some(solution.parse().unwrap()),
            record_steps: false,
        };
        let r = rate(&grid, &layout, &options).unwrap_or_else(|e| panic!("{puzzle}: {e}"));
        assert_eq!(r.solution.to_line(), solution);
        assert_eq!(r.counts[Technique::EmptyRectangle.index()], 0);
        rated += 1;
        beyond_singles += (r.hardest.unwrap().level() > Level::Easy) as u32;
    }
    assert_eq!(rated, 40);
    assert!(
        beyond_singles > 0,
        "the sample should need more than singles somewhere"
    );
}

#[test]
fn a_rating_within_a_ceiling_is_the_full_rating_or_none_when_above_it() {
    let layout = Layout::standard();
    let mut rater = Rater::new(&layout);
    let options = RateOptions {
        unique: true,
        ..RateOptions::default()
    };
    let mut levels_seen = [false; 5];
    // The technique puzzles, and one generated puzzle of each level.
    let mut puzzles: Vec<String> = TECHNIQUE_PUZZLES
        .iter()
        .map(|(_, p)| p.to_string())
        .collect();
    for level in Level::ALL {
        let generator = crate::generate::Generator::new(crate::generate::GenerateOptions {
            difficulty: crate::generate::Difficulty {
                levels: Some(crate::generate::LevelRange {
                    min: level,
                    max: level,
                }),
                ..Default::default()
            },
            ..Default::default()
        })
        .unwrap();
        puzzles.push(generator.puzzle(0).unwrap().puzzle.to_line());
    }
    for puzzle in &puzzles {
        let grid: Grid = puzzle.parse().unwrap();
        let full = rater.rate(&grid, &options).unwrap();
        levels_seen[full.level as usize] = true;
        for level in Level::ALL {
            for score in [u32::MAX, full.score, full.score.saturating_sub(1)] {
                let within = rater
                    .rate_within(&grid, &options, Ceiling { level, score })
                    .unwrap();
                let fits = full.level <= level && full.score <= score;
                assert_eq!(
                    within.as_ref(),
                    fits.then_some(&full),
                    "{puzzle} {level} {score}"
                );
            }
        }
    }
    assert!(levels_seen.iter().all(|&seen| seen), "every level tried");
}
