//! The one integration test binary: every module below is a group of tests.

mod corpus;
mod solve_cmd;
mod streams;
mod verify_cmd;
mod workdir;
