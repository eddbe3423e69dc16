//! What the rows of a shard depend on, recorded in the summary it writes (the `run` field of
//! [`crate::stats::document`]) so that `merge` can tell the shards of one run from strangers: the
//! inputs' fingerprints, the options that change the output's bytes, the tool's version, and
//! which shard it is.
//!
//! A fingerprint is the input's name as given, its size as stored, and the SHA-256 of a sample
//! of its bytes ([`InputPrint::sample_sha256`]): reading a fixed 1 MiB at most keeps it cheap for
//! any file, while a different dataset, or a file cut or appended to, changes it.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::error::RunError;
use crate::input::Input;
use crate::output::Target;
use crate::pipeline::{Job, Settings};
use crate::stats::document::{InputPrint, RunInfo, ShardInfo};

/// The size of one sampled block.
const BLOCK: u64 = 64 * 1024;

/// How many blocks a sample holds; files up to `BLOCKS * BLOCK` bytes are hashed whole.
const BLOCKS: u64 = 16;

/// The `run` field of the summary of a finished run over `inputs` whose rows went to `output`:
/// only a shard's summary has one, so that the summary `merge` writes, without it, is the one
/// a single run writes.
pub fn run_info(
    inputs: &[Input],
    settings: &Settings,
    output: &Target,
) -> Result<Option<RunInfo>, RunError> {
    let Some(shard) = settings.shard else {
        return Ok(None);
    };
    let inputs = inputs
        .iter()
        .map(|input| {
            input_print(input).map_err(|source| RunError::Open {
                name: input.name.clone(),
                source,
            })
        })
        .collect::<Result<_, _>>()?;
    // A shard always writes a file: the command line requires `-o`.
    let output_bytes = match output {
        Target::Path(path) => std::fs::metadata(path)
            .map_err(|source| RunError::Write {
                name: path.to_string_lossy().into_owned(),
                source,
            })?
            .len(),
        Target::Stdout => 0,
    };
    Ok(Some(RunInfo {
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        inputs,
        options: options(settings),
        shard: Some(ShardInfo {
            index: shard.index,
            count: shard.count,
            output_bytes,
        }),
    }))
}

/// The fingerprint of one input; standard input has no size and no sample.
pub fn input_print(input: &Input) -> io::Result<InputPrint> {
    let Some(path) = input.path() else {
        return Ok(InputPrint {
            name: input.name.clone(),
            bytes: None,
            sample_sha256: None,
        });
    };
    let mut file = File::open(path)?;
    let bytes = file.metadata()?.len();
    let mut hash = Sha256::new();
    if bytes <= BLOCKS * BLOCK {
        let mut whole = Vec::with_capacity(bytes as usize);
        file.read_to_end(&mut whole)?;
        hash.update(&whole);
    } else {
        let mut block = vec![0; BLOCK as usize];
        for i in 0..BLOCKS {
            let at = (u128::from(i) * u128::from(bytes - BLOCK) / u128::from(BLOCKS - 1)) as u64;
            file.seek(SeekFrom::Start(at))?;
            file.read_exact(&mut block)?;
            hash.update(&block);
        }
    }
    let digest = hash.finalize();
    Ok(InputPrint {
        name: input.name.clone(),
        bytes: Some(bytes),
        sample_sha256: Some(digest.iter().map(|b| format!("{b:02x}")).collect()),
    })
}

/// The options of `settings` that change the bytes of the output, by name. Threads, chunk size
/// and the like change nothing and are left out.
pub fn options(settings: &Settings) -> BTreeMap<String, Value> {
    let columns = &settings.columns;
    let mut options: BTreeMap<String, Value> = [
        (
            "input_format",
            json!(settings.input_format.map_or("(detected)", |f| f.name())),
        ),
        ("puzzle_column", json!(columns.puzzle)),
        ("keep_columns", json!(columns.keep)),
        ("regions_column", json!(columns.regions)),
        ("output_format", json!(settings.output_format.name())),
        (
            "layout",
            json!(if settings.layout.is_standard() {
                "standard".to_string()
            } else {
                settings.layout.to_line()
            }),
        ),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_string(), value))
    .collect();
    let job: Vec<(&str, Value)> = match settings.job {
        Job::Solve(solve) => vec![
            ("command", json!("solve")),
            ("algorithm", json!(solve.algorithm.name())),
            ("max_solutions", json!(solve.max_solutions)),
            ("max_recursions", json!(solve.max_recursions)),
            ("seed", json!(solve.seed)),
        ],
        Job::Verify(verify) => vec![
            ("command", json!("verify")),
            ("solution_column", json!(columns.solution)),
            ("unique", json!(verify.unique)),
            ("max_recursions", json!(verify.max_recursions)),
        ],
    };
    options.extend(job.into_iter().map(|(n, v)| (n.to_string(), v)));
    options
}

#[cfg(test)]
mod tests {
    use super::*;

    fn print_of(bytes: &[u8]) -> InputPrint {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in");
        std::fs::write(&path, bytes).unwrap();
        input_print(&Input::file(path)).unwrap()
    }

    #[test]
    fn small_files_are_hashed_whole() {
        let print = print_of(b"abc");
        assert_eq!(print.bytes, Some(3));
        // SHA-256("abc"), the standard test vector.
        assert_eq!(
            print.sample_sha256.as_deref(),
            Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        );
    }

    #[test]
    fn large_files_are_sampled_first_and_last_block_included() {
        let size = (BLOCKS * BLOCK + 12345) as usize;
        let bytes: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
        let print = print_of(&bytes);
        let mut changed = bytes.clone();
        *changed.last_mut().unwrap() ^= 1;
        assert_ne!(print_of(&changed).sample_sha256, print.sample_sha256);
        let mut changed = bytes.clone();
        changed[0] ^= 1;
        assert_ne!(print_of(&changed).sample_sha256, print.sample_sha256);
        // A byte between the blocks is not sampled: the size and the sample are what is
        // compared.
        let mut changed = bytes;
        changed[(BLOCK + 10) as usize] ^= 1;
        assert_eq!(print_of(&changed).sample_sha256, print.sample_sha256);
    }

    #[test]
    fn standard_input_has_no_fingerprint() {
        let print = input_print(&Input::stdin()).unwrap();
        assert_eq!((print.bytes, print.sample_sha256), (None, None));
    }
}
