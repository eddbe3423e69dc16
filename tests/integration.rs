//! The one integration test binary: every module below is a group of tests.

mod algorithms;
mod corpus;
mod jigsaw;
mod jigsaw_fast;
mod stats;
