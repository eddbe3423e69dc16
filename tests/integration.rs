//! The one integration test binary: every module below is a group of tests.

mod algorithms;
mod corpus;
mod differential;
mod fuzz_corpus;
mod jigsaw;
mod reliability;
mod solve_cmd;
mod stats;
mod streams;
mod verify_cmd;
mod workdir;
