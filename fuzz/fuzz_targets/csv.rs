//! Bytes read as the csv format, then every record through parse, the givens check, the solver
//! and the verifier: any broken promise (see `sudoku_bulk::pipeline::fuzz`) is a crash.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_bulk::format::InputFormat;
use sudoku_bulk::pipeline::fuzz::check_bytes;

fuzz_target!(|data: &[u8]| {
    if let Err(broken) = check_bytes(InputFormat::Csv, data) {
        panic!("{broken}");
    }
});
