//! `merge`: the outputs of the shards of a run joined into the output of a single run.

use super::config::MergeRun;
use super::{CommandError, Exit, say};

/// Merges the shards and says what was done.
pub fn run(run: &MergeRun) -> Result<Exit, CommandError> {
    let merged = crate::merge::merge(&run.request)?;
    if !run.quiet {
        say(&merged.to_string());
    }
    Ok(Exit::Success)
}
