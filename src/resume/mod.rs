//! Resuming an interrupted run: the checkpoint kept beside a partial output, what it records,
//! and the checks that make a resumed output byte-identical to an uninterrupted one.
//!
//! A run writing to a regular file `OUT` keeps its rows in `OUT.partial` until it completes (see
//! [`crate::files::output`]). When every input is a regular file, the run also keeps a
//! checkpoint, `OUT.checkpoint` ([`checkpoint`]): the options that shape the output bytes
//! ([`crate::identity::options`]), the tool's version, each input's name and size, the digest
//! of every input byte read for the rows kept, and how many records and bytes of `OUT.partial`
//! are safely written, with their statuses. It is written after a chunk of rows when
//! `--checkpoint-every` seconds have passed since the last one, and once more when the run is
//! interrupted, always in this order: the rows are flushed and `OUT.partial` is synced; then the
//! checkpoint goes to `OUT.checkpoint.tmp`, which is synced and renamed over `OUT.checkpoint`.
//! So the checkpoint never claims more than the partial file durably holds, whenever the
//! process or the machine stops.
//!
//! `--resume` ([`prepare`]) reads the checkpoint and refuses (naming every difference) when the
//! options, the version, the inputs' names or sizes differ; otherwise it cuts `OUT.partial` to
//! the bytes recorded, and the run skips as many records, checking as it reads them again that
//! the input bytes the interrupted run read are unchanged (byte for byte, by their digest)
//! before it appends the rows of the rest. Every row is a pure function of its record and the
//! options, whatever the thread count or the timing, so the completed output is the bytes an
//! uninterrupted run writes.

mod checkpoint;
mod prepare;

pub use checkpoint::{Checkpoint, Checkpointer, FORMAT, InputSize};
pub use prepare::{Checkpoints, Prepared, ResumeError, prepare};
