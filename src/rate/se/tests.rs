//! The SE rater against Sudoku Explainer 1.2.1.3's own ratings of committed samples
//! (`tests/data/se/*.se.csv`: `puzzle,er,ep,ed` as `serate` printed them; QQWing's grades, 17-clue
//! and magictour puzzles), every step checked against the solution.

use super::{SeRater, SeRating, SeTechnique, tenths};
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

/// One ER band's counts: puzzles, fully rated here, and equal to SE on ER, EP, ED and all
/// three (a value not known here counts as not equal).
#[derive(Debug, Default, Clone, Copy)]
struct Band {
    puzzles: usize,
    complete: usize,
    er: usize,
    ep: usize,
    ed: usize,
    all: usize,
}

impl Band {
    fn add(&mut self, e: &Expected, r: &SeRating) {
        let er = r.er.map(tenths) == Some(e.er);
        let ep = r.ep.map(tenths) == Some(e.ep);
        let ed = r.ed.map(tenths) == Some(e.ed);
        self.puzzles += 1;
        self.complete += usize::from(r.is_complete());
        self.er += usize::from(er);
        self.ep += usize::from(ep);
        self.ed += usize::from(ed);
        self.all += usize::from(er && ep && ed);
    }

    fn merge(&mut self, o: &Band) {
        self.puzzles += o.puzzles;
        self.complete += o.complete;
        self.er += o.er;
        self.ep += o.ep;
        self.ed += o.ed;
        self.all += o.all;
    }
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
/// where it stops (a technique not built yet: nested dynamic forcing chains), what it knows
/// (ED, EP, the bound on ER) agrees with SE. Also the goal, by SE's ER: ER, EP and ED
/// all equal to SE's on at least 99% of the puzzles below 7.0 and 90% of those from 7.0 up.
/// Prints a table by ER band and how many puzzles' paths use each technique.
/// Every puzzle is rated (about 40 s in the test profile on one core).
#[test]
fn agrees_with_sudoku_explainer_on_committed_ratings() {
    let layout = Layout::standard();
    let mut rater = SeRater::new();
    let mut report = Vec::new();
    let mut all_wrong = Vec::new();
    // By SE's ER band (1.0-1.9, ..., 9.0-9.9, 10.0 and up).
    let mut bands = [Band::default(); 11];
    let mut used_by = [0usize; SeTechnique::COUNT];
    for (name, text) in SAMPLES {
        let mut tally = Tally::default();
        for e in expected(text) {
            let r = rater
                .rate(&e.puzzle, &layout, None, true)
                .unwrap_or_else(|err| panic!("{}: {err}", e.line));
            compare(&e, &r, &mut tally);
            bands[(e.er as usize / 10).min(10)].add(&e, &r);
            let mut used = [false; SeTechnique::COUNT];
            for step in &r.path {
                used[step.technique.index()] = true;
            }
            for (n, u) in used_by.iter_mut().zip(used) {
                *n += usize::from(u);
            }
        }
        report.push(format!(
            "{name}: {} complete ({} equal), {} stopped at a technique not built",
            tally.complete, tally.complete_equal, tally.stopped
        ));
        all_wrong.extend(tally.disagreements.iter().map(|d| format!("{name} {d}")));
        // The easy samples are all within the techniques built here.
        if name == "qq_simple" || name == "qq_easy" {
            assert_eq!(tally.stopped, 0, "{name}");
        }
    }
    report
        .push("SE's ER band: puzzles, complete here, equal to SE on ER, EP, ED, all three".into());
    let (mut below7, mut from7) = (Band::default(), Band::default());
    for (b, band) in bands.iter().enumerate() {
        if band.puzzles > 0 {
            let label = if b == 10 {
                "10.0+".to_string()
            } else {
                format!("{b}.0-{b}.9")
            };
            report.push(format!(
                "ER {label}: {}, {}, {}, {}, {}, {}",
                band.puzzles, band.complete, band.er, band.ep, band.ed, band.all
            ));
        }
        if b < 7 { &mut below7 } else { &mut from7 }.merge(band);
    }
    let used: Vec<String> = SeTechnique::ALL
        .iter()
        .filter(|t| used_by[t.index()] > 0)
        .map(|t| format!("{t} {}", used_by[t.index()]))
        .collect();
    report.push(format!("puzzles using each technique: {}", used.join(", ")));
    for (label, g) in [("ER < 7", &below7), ("ER >= 7", &from7)] {
        report.push(format!(
            "{label}: {} puzzles, {} equal on ER, EP and ED ({:.1}%)",
            g.puzzles,
            g.all,
            100.0 * g.all as f64 / g.puzzles as f64
        ));
    }
    eprintln!("{}", report.join("\n"));
    assert!(
        all_wrong.is_empty(),
        "{} disagreements with SE:\n{}",
        all_wrong.len(),
        all_wrong.join("\n")
    );
    assert!(
        below7.all * 100 >= below7.puzzles * 99,
        "ER < 7: {below7:?}"
    );
    assert!(from7.all * 100 >= from7.puzzles * 90, "ER >= 7: {from7:?}");
}

/// The same puzzle gets the same rating and path, from the same rater or a new one (the
/// chaining producers keep no state between puzzles and iterate no hash maps).
#[test]
fn rating_is_deterministic() {
    let layout = Layout::standard();
    let mut rater = SeRater::new();
    let magictour = expected(SAMPLES[5].1);
    // Those SE rates highest, so the dynamic chains run.
    let mut hardest: Vec<&Expected> = magictour.iter().collect();
    hardest.sort_by_key(|e| std::cmp::Reverse(e.er));
    for e in hardest.iter().take(3) {
        let first = rater.rate(&e.puzzle, &layout, None, true).unwrap();
        let again = rater.rate(&e.puzzle, &layout, None, true).unwrap();
        let fresh = SeRater::new().rate(&e.puzzle, &layout, None, true).unwrap();
        assert_eq!(first, again, "{}", e.line);
        assert_eq!(first, fresh, "{}", e.line);
        assert!(first.is_complete() && !first.path.is_empty(), "{}", e.line);
    }
}
