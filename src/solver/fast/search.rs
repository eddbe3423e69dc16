//! The recursive search procedure of the `fast` engine, stamped out once per instruction set.
//!
//! Each instance is compiled with its instruction set's target features and takes that
//! instruction set's token ([`super::isa`]) as its first argument, so it can only be entered
//! with the proof that the CPU has them. Everything it calls is `#[inline(always)]`, so the
//! whole engine below it is compiled with those features too.

#![forbid(unsafe_code)]

/// Stamps out the search for one instruction set: `run`, the entry (the givens placed, then
/// the root call), and `node`, one entry of the search procedure.
macro_rules! search_instance {
    ($name:ident, $isa:ty $(, $features:literal)?) => {
        pub(super) mod $name {
            use crate::grid::Grid;
            use crate::solver::fast::GivensConflict;
            use crate::solver::fast::board::{Board, Contradiction, GivensBoard, initial_board};
            use crate::solver::{Event, Observer, Search, Stop};

            /// Runs the search on `grid` and counts its givens; `Err` when two givens conflict
            /// (nothing is searched).
            $(#[target_feature(enable = $features)])?
            pub(in crate::solver::fast) fn run<O: Observer>(
                isa: $isa,
                grid: &Grid,
                search: &mut Search<'_, O>,
            ) -> Result<(), GivensConflict> {
                let GivensBoard {
                    mut board,
                    dead_cell_or_column,
                } = initial_board(isa, grid)?;
                search.stats.givens = board.placed_count();
                // A stop is recorded in `search.stop`; nothing else to do with it here.
                let _ = if dead_cell_or_column {
                    dead_root(isa, &board, search)
                } else {
                    node(isa, &mut board, 1, search)
                };
                Ok(())
            }

            /// The root of a board whose givens leave a dead cell or column: entered, and ended
            /// in a contradiction with nothing placed.
            $(#[target_feature(enable = $features)])?
            fn dead_root<O: Observer>(
                isa: $isa,
                board: &Board,
                search: &mut Search<'_, O>,
            ) -> Result<(), Stop> {
                search.enter(1)?;
                if O::ACTIVE {
                    search.observer.event(&Event::Board(&board.placed_grid(isa)));
                    search.observer.event(&Event::Contradiction);
                }
                Ok(())
            }

            /// One entry of the search procedure at `depth`: propagate, then report or branch.
            $(#[target_feature(enable = $features)])?
            fn node<O: Observer>(
                isa: $isa,
                board: &mut Board,
                depth: u64,
                search: &mut Search<'_, O>,
            ) -> Result<(), Stop> {
                search.enter(depth)?;
                let propagated = board.propagate(isa, search);
                if O::ACTIVE {
                    search.observer.event(&Event::Board(&board.placed_grid(isa)));
                }
                let quiet = match propagated {
                    Err(Contradiction) => {
                        if O::ACTIVE {
                            search.observer.event(&Event::Contradiction);
                        }
                        return Ok(());
                    }
                    Ok(None) => return search.solution(|| board.placed_grid(isa)),
                    Ok(Some(quiet)) => quiet,
                };
                let (b, bit) = board.branch_cell(isa, &quiet);
                let cell = b * 27 + bit.trailing_zeros() as usize;
                let all = board.candidates_of(b, bit);
                let mut digits = all;
                while digits != 0 {
                    let d = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    search.guess(cell, d as u8 + 1, depth + 1);
                    if digits == 0 {
                        // The last candidate: no need to keep the parent board.
                        board.place_among(d, b, bit, all & !(1 << d));
                        node(isa, board, depth + 1, search)?;
                    } else {
                        let mut child = board.child(d, b, bit, all & !(1 << d));
                        node(isa, &mut child, depth + 1, search)?;
                    }
                    search.backtrack(cell, d as u8 + 1, depth + 1);
                }
                Ok(())
            }
        }
    };
}

search_instance!(portable, crate::solver::fast::isa::Portable);
// The features `PortableV2::detect` checks (x86-64-v2).
#[cfg(target_arch = "x86_64")]
search_instance!(
    portable_v2,
    crate::solver::fast::isa::PortableV2,
    "sse3,ssse3,sse4.1,sse4.2,popcnt"
);
// The features `Avx2::detect` checks.
#[cfg(target_arch = "x86_64")]
search_instance!(
    avx2,
    crate::solver::fast::isa::Avx2,
    "avx2,bmi1,bmi2,lzcnt,popcnt"
);
// The features `Avx512::detect` checks.
#[cfg(target_arch = "x86_64")]
search_instance!(
    avx512,
    crate::solver::fast::isa::Avx512,
    "avx512f,avx512vl,avx512bw,avx512dq,avx512vpopcntdq,avx2,bmi1,bmi2,lzcnt,popcnt"
);
