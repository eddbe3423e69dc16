//! The one identity of a run: what its rows depend on, so that a resumed run (`--resume`) and
//! the shards of a job array (`merge`) can tell a run that may continue or join from one that
//! may not.
//!
//! - [`options`]: the one list of options that shape the output's bytes, and how two lists
//!   differ;
//! - the inputs: a digest of their bytes ([`crate::files::digest::Prefix`]), taken by the one
//!   digest of the crate as the bytes stream by: a checkpoint records the bytes its run had read
//!   (the pipeline checks them again before a resumed run writes anything), a shard's summary
//!   the whole of every input;
//! - the output: a shard's summary records the digest of its output's bytes, which `merge`
//!   checks as it joins them ([`run_info`]).

pub mod options;

use std::fs::File;
use std::io::{self, BufReader};
use std::path::Path;

use crate::files::digest::{self, Prefix};
use crate::pipeline::Settings;
use crate::stats::document::{RunInfo, ShardInfo};

/// The tool's version, as recorded with a run.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The key-value metadata an output file records about its run (Parquet): the tool version
/// (`sudoku-bulk.version`) and the options that shape the rows (`sudoku-bulk.options`, the
/// JSON object of [`options::of`]).
pub fn file_metadata(settings: &Settings) -> Vec<(String, String)> {
    vec![
        ("sudoku-bulk.version".to_string(), VERSION.to_string()),
        (
            "sudoku-bulk.options".to_string(),
            serde_json::to_string(&options::of(settings)).expect("options are JSON"),
        ),
    ]
}

/// The `run` field of the summary of a finished run: the inputs it read (`inputs`, each whole:
/// as a shard's plan measured them, or as a single run read them), its options, the tool's
/// version, and for a shard which one it is with the size and digest of its output file at
/// `output` (a shard always writes to a file). A single run has no `shard` part: the summary
/// `merge` writes is then byte for byte the one a single run writes.
pub fn run_info(
    settings: &Settings,
    inputs: &[Prefix],
    output: Option<&Path>,
) -> io::Result<RunInfo> {
    let shard = match (settings.shard, output) {
        (Some(shard), Some(output)) => {
            let (output_digest, output_bytes) =
                digest::of_prefix(&mut BufReader::new(File::open(output)?), u64::MAX)?;
            Some(ShardInfo {
                index: shard.index,
                count: shard.count,
                output_bytes,
                output_digest,
            })
        }
        _ => None,
    };
    Ok(RunInfo {
        tool_version: VERSION.to_string(),
        inputs: inputs.to_vec(),
        options: options::of(settings),
        shard,
    })
}
