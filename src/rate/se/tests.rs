//! The SE rater against Sudoku Explainer 1.2.1.3's own ratings of committed samples
//! (`tests/data/se/*.se.csv`: `puzzle,er,ep,ed` as `serate` printed them; QQWing's grades, 17-clue
//! and magictour puzzles), every step checked against the solution.

use super::{SeRater, SeRating, tenths};
use crate::{Grid, Layout};

/// One sample: its name and SE's ratings.
const SAMPLES: [(&str, &str); 6] = [
    (
        "qq_simple",
        include_str!("../../../tests/data/se/qq_simple.se.csv"),
    ),
    (
        "qq_easy",
        include_str!("../../../tests/data/se/qq_easy.se.csv"),
    ),
    (
        "qq_intermediate",
        include_str!("../../../tests/data/se/qq_intermediate.se.csv"),
    ),
    (
        "qq_expert",
        include_str!("../../../tests/data/se/qq_expert.se.csv"),
    ),
    (
        "17_clue",
        include_str!("../../../tests/data/se/17_clue.se.csv"),
    ),
    (
        "magictour",
        include_str!("../../../tests/data/se/magictour.se.csv"),
    ),
];

/// SE's rating of one puzzle, in tenths.
struct Expected {
    puzzle: Grid,
    line: String,
    er: u32,
    ep: u32,
    ed: u32,
}

fn parse_tenths(s: &str) -> u32 {
    let (a, b) = s.split_once('.').expect("a rating with a decimal point");
    a.parse::<u32>().unwrap() * 10 + b.parse::<u32>().unwrap()
}

fn expected(text: &str) -> Vec<Expected> {
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            Expected {
                puzzle: f[0].parse().unwrap(),
                line: f[0].to_string(),
                er: parse_tenths(f[1]),
                ep: parse_tenths(f[2]),
                ed: parse_tenths(f[3]),
            }
        })
        .collect()
}

/// How one rating compares with SE's.
#[derive(Debug, Default)]
struct Tally {
    complete: usize,
    complete_equal: usize,
    stopped: usize,
    disagreements: Vec<String>,
}

fn compare(e: &Expected, r: &SeRating, tally: &mut Tally) {
    let t = |x: Option<f64>| x.map(tenths);
    let mut wrong = Vec::new();
    if r.is_complete() {
        tally.complete += 1;
        if t(r.er) != Some(e.er) {
            wrong.push(format!("er {:?} != {}", t(r.er), e.er));
        }
    } else {
        tally.stopped += 1;
        // SE went on with a technique not built here: its ER is at least the bound.
        if tenths(r.er_at_least) > e.er {
            wrong.push(format!("er >= {} but SE {}", tenths(r.er_at_least), e.er));
        }
    }
    if let Some(ep) = t(r.ep)
        && ep != e.ep
    {
        wrong.push(format!("ep {} != {}", ep, e.ep));
    }
    if let Some(ed) = t(r.ed)
        && ed != e.ed
    {
        wrong.push(format!("ed {} != {}", ed, e.ed));
    }
    if wrong.is_empty() {
        if r.is_complete() {
            tally.complete_equal += 1;
        }
    } else {
        tally
            .disagreements
            .push(format!("{}: {}", e.line, wrong.join(", ")));
    }
}

/// Every committed SE rating: where this rater finds the whole path, ER, EP and ED equal SE's;
/// where it stops (a chain needed), what it knows (ED, EP, the bound on ER) agrees with SE.
#[test]
fn agrees_with_sudoku_explainer_on_committed_ratings() {
    let layout = Layout::standard();
    let mut rater = SeRater::new();
    let mut report = Vec::new();
    let mut all_wrong = Vec::new();
    // By SE's ER band (1.0-1.9, ..., 9.0 and up): puzzles, complete here, equal to SE.
    let mut bands = [[0usize; 3]; 10];
    for (name, text) in SAMPLES {
        let mut tally = Tally::default();
        for e in expected(text) {
            let r = rater
                .rate(&e.puzzle, &layout, None, false)
                .unwrap_or_else(|err| panic!("{}: {err}", e.line));
            let before = (tally.complete, tally.complete_equal);
            compare(&e, &r, &mut tally);
            let band = &mut bands[(e.er as usize / 10).min(9)];
            band[0] += 1;
            band[1] += tally.complete - before.0;
            band[2] += tally.complete_equal - before.1;
        }
        report.push(format!(
            "{name}: {} complete ({} equal), {} stopped at a chain",
            tally.complete, tally.complete_equal, tally.stopped
        ));
        all_wrong.extend(tally.disagreements.iter().map(|d| format!("{name} {d}")));
        // The easy samples are all within the techniques built here.
        if name == "qq_simple" || name == "qq_easy" {
            assert_eq!(tally.stopped, 0, "{name}");
        }
    }
    for (b, [n, complete, equal]) in bands.iter().enumerate() {
        if *n > 0 {
            report.push(format!(
                "ER {b}.0-{b}.9: {n} puzzles, {complete} complete here, {equal} equal to SE"
            ));
        }
    }
    eprintln!("{}", report.join("\n"));
    assert!(
        all_wrong.is_empty(),
        "{} disagreements with SE:\n{}",
        all_wrong.len(),
        all_wrong.join("\n")
    );
}
