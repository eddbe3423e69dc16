//! Bytes in and out: the inputs of a run (files or standard input, plain or gzip, sniffed once
//! here for every command) and its outputs (standard output, or a file replaced only when
//! complete), with the one digest of the crate for telling streams apart, the one way to tell
//! whether two names are one file ([`file_id`]), whether standard output was closed
//! ([`standard`]), and the bounded reading of a run's side files ([`side`]).

pub mod digest;
pub mod file_id;
pub mod input;
pub mod output;
pub mod side;
pub mod standard;

pub use input::{Input, Opened, Source};
pub use output::{Output, OutputError, PartialPaths, Target};
