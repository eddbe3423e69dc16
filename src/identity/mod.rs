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
//!   checks as it joins them ([`shard_run`]).

pub mod options;

use std::fs::File;
use std::io::{self, BufReader};
use std::path::Path;

use crate::files::digest::{self, Prefix};
use crate::pipeline::Settings;
use crate::stats::document::{RunInfo, ShardInfo};

/// The tool's version, as recorded with a run.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The `run` field of the summary of a finished shard: the inputs it read (`inputs`, each
/// whole, as the shard's plan measured them), its options, and the size and digest of its
/// output file at `output`. `None` when the run is not a shard: the summary `merge` writes,
/// without it, is then the one a single run writes.
pub fn shard_run(
    settings: &Settings,
    inputs: &[Prefix],
    output: &Path,
) -> io::Result<Option<RunInfo>> {
    let Some(shard) = settings.shard else {
        return Ok(None);
    };
    let (output_digest, output_bytes) =
        digest::of_prefix(&mut BufReader::new(File::open(output)?), u64::MAX)?;
    Ok(Some(RunInfo {
        tool_version: VERSION.to_string(),
        inputs: inputs.to_vec(),
        options: options::of(settings),
        shard: Some(ShardInfo {
            index: shard.index,
            count: shard.count,
            output_bytes,
            output_digest,
        }),
    }))
}
