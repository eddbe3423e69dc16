//! The side files of a run, read whole but never without bound: a `--regions` layout, a
//! checkpoint, the summaries that `merge` and `stats` read. A name that leads somewhere endless
//! (`/dev/zero`, a pipe that does not end) or to a file far too big for what it should be (a
//! puzzle file given for a layout) is refused once the bound is passed, with the bound named,
//! never read on until memory runs out.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

/// The most bytes of a `--regions` layout file: 81 labels, with room for a grid drawn around
/// them and comments.
pub const MAX_LAYOUT: u64 = 64 << 10;

/// The most bytes of a checkpoint: a few hundred bytes an input.
pub const MAX_CHECKPOINT: u64 = 64 << 20;

/// The most bytes of a summary document: one that counts canonical forms holds about 35 bytes
/// a distinct puzzle, so this is about 120 million distinct puzzles. Summaries are parsed as
/// they are read, so one that is not JSON is refused at its first bad byte.
pub const MAX_SUMMARY: u64 = 4 << 30;

/// `inner`, which fails with [`io::ErrorKind::InvalidData`] once more than `limit` bytes are
/// read from it.
pub struct Bounded<R> {
    inner: R,
    left: u64,
    limit: u64,
}

impl<R: Read> Bounded<R> {
    /// `inner`, bounded to `limit` bytes.
    pub fn new(inner: R, limit: u64) -> Bounded<R> {
        Bounded {
            inner,
            left: limit,
            limit,
        }
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            // At the bound: only the end of the input is fine.
            return match self.inner.read(&mut [0u8])? {
                0 => Ok(0),
                _ => Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "it is longer than {}, the most such a file may be",
                        size(self.limit)
                    ),
                )),
            };
        }
        let room = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..room])?;
        self.left -= n as u64;
        Ok(n)
    }
}

/// A bound in words: `64 KiB`, `4 GiB`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// The file at `path`, buffered, bounded to `limit` bytes.
pub fn open(path: &Path, limit: u64) -> io::Result<BufReader<Bounded<File>>> {
    Ok(BufReader::new(Bounded::new(File::open(path)?, limit)))
}

/// The bytes of the file at `path`, refused past `limit`.
pub fn read(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    Bounded::new(File::open(path)?, limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_up_to_its_bound_and_refused_past_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(read(&path, 5).unwrap(), b"12345");
        let err = read(&path, 4).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            err.to_string(),
            "it is longer than 4 bytes, the most such a file may be"
        );
        // An endless input ends at the bound.
        let err = Bounded::new(io::repeat(0), 64 << 10)
            .read_to_end(&mut Vec::new())
            .unwrap_err();
        assert!(err.to_string().contains("longer than 64 KiB"), "{err}");
    }
}
