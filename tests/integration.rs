//! The one integration test binary: every module below is a group of tests.

mod algorithms;
mod canon_cmd;
mod corpus;
mod differential;
mod doc_examples;
mod fuzz_corpus;
mod generate_cmd;
mod hostile_input;
mod isa;
mod jigsaw;
mod jigsaw_fast;
mod layering;
mod limits;
mod messages;
mod output_paths;
mod parquet_cmd;
mod rate_cmd;
mod reliability;
mod shard_cmd;
mod show_cmd;
mod solve_cmd;
mod stats;
mod stats_cmd;
mod streams;
mod verify_cmd;
mod workdir;
