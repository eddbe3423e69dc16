use std::collections::HashSet;

use proptest::prelude::*;

use super::*;
use crate::grid::CELLS;
use crate::rng::SplitMix64;
use crate::test_data::{PUZZLE, SOLUTION};

fn grid(text: &str) -> Grid {
    text.parse().unwrap()
}

fn canon(g: &Grid) -> Grid {
    canonical_form(g, &Layout::standard()).unwrap()
}

/// Every band-preserving permutation of `0..9` (1296 of them).
fn block_permutations() -> Vec<[u8; 9]> {
    const ORDERS: [[u8; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut all = Vec::with_capacity(1296);
    for blocks in ORDERS {
        for a in ORDERS {
            for b in ORDERS {
                for c in ORDERS {
                    let within = [a, b, c];
                    let mut lines = [0u8; 9];
                    for i in 0..9 {
                        lines[i] = 3 * blocks[i / 3] + within[i / 3][i % 3];
                    }
                    all.push(lines);
                }
            }
        }
    }
    all
}

/// The definition, by brute force: the smallest relabelled string over all 3,359,232
/// geometric transformations, each abandoned at its first cell above the best so far.
fn minlex_by_brute_force(g: &Grid) -> Grid {
    let perms = block_permutations();
    let mut best = [10u8; CELLS];
    for transpose in [false, true] {
        let cell = |r: usize, c: usize| {
            if transpose {
                g.get(c * 9 + r)
            } else {
                g.get(r * 9 + c)
            }
        };
        for rows in &perms {
            let source: [[u8; 9]; 9] =
                std::array::from_fn(|r| std::array::from_fn(|c| cell(rows[r] as usize, c)));
            'cols: for cols in &perms {
                let mut labels = [0u8; 10];
                let mut next = 1;
                let mut smaller = false;
                for i in 0..CELLS {
                    let d = source[i / 9][cols[i % 9] as usize] as usize;
                    if d != 0 && labels[d] == 0 {
                        labels[d] = next;
                        next += 1;
                    }
                    let v = labels[d];
                    if !smaller {
                        if v > best[i] {
                            continue 'cols;
                        }
                        smaller = v < best[i];
                    }
                    if smaller {
                        best[i] = v;
                    }
                }
            }
        }
    }
    Grid::from_cells(best)
}

/// A puzzle with a unique solution made from `SOLUTION` by keeping the cells `keep` selects.
fn thinned(mut keep: impl FnMut(usize) -> bool) -> Grid {
    let s = grid(SOLUTION);
    let mut g = Grid::EMPTY;
    for i in 0..CELLS {
        if keep(i) {
            g.set(i, s.get(i));
        }
    }
    g
}

#[test]
fn agrees_with_brute_force_on_sparse_dense_symmetric_and_complete_grids() {
    let mut rng = SplitMix64::new(5);
    let shipped = crate::test_data::shipped_puzzles(5000);
    let mut cases: Vec<Grid> = vec![
        grid(PUZZLE),
        grid(SOLUTION),
        Grid::EMPTY,
        thinned(|i| i == 40),
        // Symmetric patterns: 180-degree turn and both diagonals.
        thinned(|i| (i * 7) % 5 == 0 || ((80 - i) * 7) % 5 == 0),
        thinned(|i| i / 9 == i % 9 || i / 9 + i % 9 == 8),
        // Dense: a solution with three cells blanked.
        thinned(|i| i != 3 && i != 44 && i != 70),
    ];
    cases.extend(shipped.iter().take(6));
    // Lines of the 17-clue list that are not written in this form (the list mixes
    // conventions): the brute force decides.
    let list = crate::test_data::shipped_set("puzzles2_17_clue.txt.gz");
    cases.extend(list.iter().filter(|g| canon(g) != **g).take(4));
    for density in [10, 30, 60] {
        cases.push(thinned(|_| rng.below(100) < density));
    }
    cases.push(crate::generate::random_standard_grid(&mut rng));
    cases.push(crate::generate::random_standard_grid(&mut rng));
    for g in cases {
        assert_eq!(canon(&g), minlex_by_brute_force(&g), "puzzle {g}");
    }
}

#[test]
fn the_transform_reaches_the_form_and_forms_are_fixed_points() {
    let mut c = Canonicaliser::new();
    for g in crate::test_data::shipped_puzzles(97) {
        let canonical = c.canonical(&g, &Layout::standard()).unwrap();
        assert_eq!(canonical.transform.apply(&g), canonical.form);
        let again = c.canonical(&canonical.form, &Layout::standard()).unwrap();
        assert_eq!(again.form, canonical.form, "idempotent for {g}");
    }
}

#[test]
fn complete_grids_take_the_same_form_by_both_searches() {
    let mut rng = SplitMix64::new(23);
    let mut grids = vec![grid(SOLUTION)];
    grids.extend((0..20).map(|_| crate::generate::random_standard_grid(&mut rng)));
    for g in grids {
        let general = search::finish(&search::Search::default().run(&search::Source::new(&g)));
        let fast = complete::canonical_complete(&g);
        assert_eq!(general.apply(&g), fast.apply(&g), "grid {g}");
    }
}

/// The `sudoku` crate canonicalises complete grids by the same definition (the smallest
/// equivalent grid); written independently, it must agree.
#[test]
fn complete_grids_match_the_sudoku_crate() {
    let mut rng = SplitMix64::new(29);
    for _ in 0..100 {
        let g = crate::generate::random_standard_grid(&mut rng);
        let theirs = sudoku::Sudoku::from_bytes(*g.cells())
            .unwrap()
            .canonicalized()
            .unwrap()
            .0;
        assert_eq!(canon(&g).cells(), &theirs.to_bytes(), "grid {g}");
    }
}

#[test]
fn a_complete_grid_starts_with_one_to_nine() {
    let form = canon(&grid(SOLUTION));
    assert!(form.to_line().starts_with("123456789"), "{form}");
    assert!(form.is_complete());
}

#[test]
fn puzzles_known_to_differ_stay_apart() {
    // The same pattern of givens with two digits exchanged in one cell pair breaks the
    // relabelling: these two are not equivalent, and their forms differ.
    let a = grid(PUZZLE);
    let mut b = a;
    b.set(0, 0);
    assert_ne!(canon(&a), canon(&b));
    // Two 17-clue puzzles of the published list are different classes.
    let list = crate::test_data::shipped_puzzles(1);
    assert_ne!(canon(&list[0]), canon(&list[1]));
}

#[test]
fn jigsaw_layouts_and_conflicts_are_refused() {
    let jigsaw = Layout::parse(
        b"aaabbbbbbaaabbbcccaaddcccccadddeeecfdddeeeeffdgeefffffggghhhhfiggghhhiiigghhiiiii",
    )
    .unwrap();
    assert_eq!(
        canonical_form(&grid(PUZZLE), &jigsaw),
        Err(CanonError::JigsawLayout)
    );
    let mut bad = grid(PUZZLE);
    bad.set(1, 5);
    assert!(matches!(
        canonical_form(&bad, &Layout::standard()),
        Err(CanonError::Conflict(_))
    ));
}

#[test]
fn digest_is_xxh3_128_of_the_printed_form() {
    let canonical = Canonicaliser::new()
        .canonical(&grid(PUZZLE), &Layout::standard())
        .unwrap();
    assert_eq!(
        canonical.form.to_line(),
        "........1.....2.34156...27......8.......51..232974......16..9....34..7..28.91.45."
    );
    // Python's `xxhash.xxh3_128_hexdigest` (the C reference implementation) of that line.
    assert_eq!(
        format!("{:032x}", canonical.digest()),
        "23bde40bc7a831fa7de67c0caffc6262"
    );
}

/// Every 17-clue puzzle of the list, disguised by a random transformation, falls into a
/// class of its own: 49,158 puzzles, 49,158 classes, and the disguise never changes the form.
#[test]
fn the_17_clue_list_disguised_keeps_49158_classes() {
    let list = crate::test_data::shipped_set("puzzles2_17_clue.txt.gz");
    assert_eq!(list.len(), 49_158);
    let mut rng = SplitMix64::new(17);
    let mut c = Canonicaliser::new();
    let mut classes = HashSet::new();
    let mut written_in_form = 0;
    for g in &list {
        let disguised = Transform::random(&mut rng).apply(g);
        let form = c.canonical(&disguised, &Layout::standard()).unwrap().form;
        assert_eq!(form, c.canonical(g, &Layout::standard()).unwrap().form);
        written_in_form += usize::from(form == *g);
        classes.insert(form);
    }
    assert_eq!(classes.len(), 49_158);
    // The module page says how much of the list is already written in this form.
    assert_eq!(written_in_form, 47_653);
}

/// One generator of the group, for the property tests.
#[derive(Debug, Clone)]
enum Generator {
    Transpose,
    SwapRows(usize, usize, usize),
    SwapColumns(usize, usize, usize),
    SwapBands(usize, usize),
    SwapStacks(usize, usize),
    Relabel(Vec<u8>),
}

impl Generator {
    fn transform(&self) -> Transform {
        match self {
            Generator::Transpose => Transform::transposition(),
            Generator::SwapRows(band, a, b) => {
                Transform::swap_lines(false, 3 * band + a, 3 * band + b)
            }
            Generator::SwapColumns(stack, a, b) => {
                Transform::swap_lines(true, 3 * stack + a, 3 * stack + b)
            }
            Generator::SwapBands(a, b) => Transform::swap_blocks(false, *a, *b),
            Generator::SwapStacks(a, b) => Transform::swap_blocks(true, *a, *b),
            Generator::Relabel(perm) => {
                let mut digits = [0u8; 10];
                digits[1..].copy_from_slice(perm);
                Transform::relabelling(digits).unwrap()
            }
        }
    }
}

fn generator() -> impl Strategy<Value = Generator> {
    prop_oneof![
        Just(Generator::Transpose),
        (0..3usize, 0..3usize, 0..3usize).prop_map(|(k, a, b)| Generator::SwapRows(k, a, b)),
        (0..3usize, 0..3usize, 0..3usize).prop_map(|(k, a, b)| Generator::SwapColumns(k, a, b)),
        (0..3usize, 0..3usize).prop_map(|(a, b)| Generator::SwapBands(a, b)),
        (0..3usize, 0..3usize).prop_map(|(a, b)| Generator::SwapStacks(a, b)),
        Just((1..=9u8).collect::<Vec<u8>>())
            .prop_shuffle()
            .prop_map(Generator::Relabel),
    ]
}

/// Puzzles of every density: a shipped puzzle, or the Wikipedia solution thinned at random.
fn puzzle() -> impl Strategy<Value = Grid> {
    let shipped = crate::test_data::shipped_puzzles(211);
    prop_oneof![
        proptest::sample::select(shipped),
        (0u32..=100, any::<u64>()).prop_map(|(density, seed)| {
            let mut rng = SplitMix64::new(seed);
            thinned(|_| rng.below(100) < density as usize)
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any sequence of generators leaves the canonical form unchanged.
    #[test]
    fn invariant_under_every_generator(g in puzzle(), steps in proptest::collection::vec(generator(), 1..12)) {
        let moved = steps.iter().fold(g, |g, step| step.transform().apply(&g));
        prop_assert_eq!(canon(&moved), canon(&g));
    }

    /// Idempotent: the canonical form of a canonical form is itself.
    #[test]
    fn idempotent(g in puzzle()) {
        let form = canon(&g);
        prop_assert_eq!(canon(&form), form);
    }
}
