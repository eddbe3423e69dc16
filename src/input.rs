//! Opening the inputs of a run: files or standard input, plain or gzip, as one buffered stream.
//!
//! Gzip is recognised by its magic bytes whatever the name, and every member of a concatenated
//! stream is read. The raw bytes read (before decompression) are counted for the progress bar.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// How much of a stream is looked at to guess its format, at most.
const HEAD: usize = 64 * 1024;

/// Buffer size of the reading side.
const BUFFER: usize = 256 * 1024;

/// Where an input comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Source {
    /// Standard input.
    Stdin,
    /// A file.
    File(PathBuf),
}

/// One input of a run, with the name used in messages and in the `file` column.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Input {
    /// Where the bytes come from.
    pub source: Source,
    /// The name shown to users: the path as given, or `<stdin>`.
    pub name: String,
}

impl Input {
    /// The input named by a command-line argument: `-` is standard input.
    pub fn from_arg(arg: &OsStr) -> Input {
        if arg == "-" {
            Input::stdin()
        } else {
            Input::file(PathBuf::from(arg))
        }
    }

    /// Standard input.
    pub fn stdin() -> Input {
        Input {
            source: Source::Stdin,
            name: "<stdin>".to_string(),
        }
    }

    /// A file.
    pub fn file(path: PathBuf) -> Input {
        Input {
            name: path.to_string_lossy().into_owned(),
            source: Source::File(path),
        }
    }

    /// The file's path, if the input is a file.
    pub fn path(&self) -> Option<&Path> {
        match &self.source {
            Source::File(path) => Some(path),
            Source::Stdin => None,
        }
    }

    /// The size in bytes as stored (compressed for gzip), when it can be known in advance.
    pub fn size(&self) -> Option<u64> {
        let path = self.path()?;
        let meta = std::fs::metadata(path).ok()?;
        meta.is_file().then_some(meta.len())
    }

    /// The length of the stream [`Input::open`] gives: the size of a plain file, or the
    /// decompressed size of a gzip file (found by decompressing it whole). Standard input is
    /// read to its end.
    pub fn stream_len(&self) -> io::Result<u64> {
        let opened = self.open(Arc::new(AtomicU64::new(0)))?;
        if let Some(size) = self.size().filter(|_| !opened.gzip) {
            return Ok(size);
        }
        io::copy(&mut { opened.reader }, &mut io::sink())
    }

    /// Opens the input: a buffered stream of its (decompressed) bytes and the first bytes of
    /// that stream, for guessing the format. `counter` grows by the raw bytes read.
    pub fn open(&self, counter: Arc<AtomicU64>) -> io::Result<Opened> {
        let raw: Box<dyn Read + Send> = match &self.source {
            Source::Stdin => Box::new(io::stdin()),
            Source::File(path) => Box::new(File::open(path)?),
        };
        let mut raw = Counting {
            inner: raw,
            counter,
        };
        let magic = read_up_to(&mut raw, 6, |_| false)?;
        if let Some(kind) = unsupported_compression(&magic) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "it is {kind}, which is not read (only gzip is): decompress it first, or \
                     pipe it in, e.g. `{unpack} FILE | sudoku-bulk solve -`",
                    unpack = match kind {
                        "xz-compressed" => "xz -dc",
                        "bzip2-compressed" => "bzip2 -dc",
                        "zstd-compressed" => "zstd -dc",
                        _ => "unzip -p",
                    }
                ),
            ));
        }
        let gzip = magic.starts_with(&[0x1f, 0x8b]);
        let raw = Cursor::new(magic).chain(raw);
        let mut stream: Box<dyn Read + Send> = if gzip {
            Box::new(flate2::read::MultiGzDecoder::new(raw))
        } else {
            Box::new(raw)
        };
        let head = read_up_to(&mut stream, HEAD, has_first_line)?;
        let reader = BufReader::with_capacity(BUFFER, Cursor::new(head.clone()).chain(stream));
        Ok(Opened {
            reader: Box::new(reader),
            head,
            gzip,
        })
    }
}

/// The kind of a compressed or archive stream other than gzip, from its first bytes.
fn unsupported_compression(magic: &[u8]) -> Option<&'static str> {
    match magic {
        [0xFD, b'7', b'z', b'X', b'Z', 0x00, ..] => Some("xz-compressed"),
        [b'B', b'Z', b'h', b'1'..=b'9', ..] => Some("bzip2-compressed"),
        [0x28, 0xB5, 0x2F, 0xFD, ..] => Some("zstd-compressed"),
        [b'P', b'K', 0x03, 0x04, ..] => Some("a zip archive"),
        _ => None,
    }
}

/// An input ready to read.
pub struct Opened {
    /// The decompressed bytes, from the start.
    pub reader: Box<dyn BufRead + Send>,
    /// A copy of the first bytes of the stream: up to the end of its first line that is not
    /// blank or a comment, or 64 KiB, or all of it.
    pub head: Vec<u8>,
    /// Whether the input is gzip (and `reader` decompresses it).
    pub gzip: bool,
}

/// Reads until `limit` bytes, the end of the input, or `done` says the bytes so far suffice.
fn read_up_to(
    input: &mut impl Read,
    limit: usize,
    done: impl Fn(&[u8]) -> bool,
) -> io::Result<Vec<u8>> {
    let mut buf = vec![0; limit];
    let mut len = 0;
    while len < limit && !done(&buf[..len]) {
        match input.read(&mut buf[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(len);
    Ok(buf)
}

/// Whether `bytes` hold a complete line that is neither blank nor a `#` comment.
fn has_first_line(bytes: &[u8]) -> bool {
    let mut lines = bytes.split(|&b| b == b'\n');
    // The last piece is not terminated by a newline yet.
    lines.next_back();
    lines.any(|l| {
        let l = l.trim_ascii();
        !l.is_empty() && l[0] != b'#'
    })
}

/// A reader that counts the bytes passing through it.
struct Counting<R> {
    inner: R,
    counter: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    }

    fn open_bytes(bytes: &[u8]) -> (Vec<u8>, Vec<u8>, u64) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("input");
        std::fs::write(&path, bytes).unwrap();
        let counter = Arc::new(AtomicU64::new(0));
        let mut opened = Input::file(path).open(counter.clone()).unwrap();
        let mut all = Vec::new();
        opened.reader.read_to_end(&mut all).unwrap();
        (opened.head, all, counter.load(Ordering::Relaxed))
    }

    #[test]
    fn plain_input_reads_whole_and_counts_bytes() {
        let text = b"# c\n\nabc\ndef\n";
        let (head, all, raw) = open_bytes(text);
        assert_eq!(head, b"# c\n\nabc\ndef\n");
        assert_eq!(all, text);
        assert_eq!(raw, text.len() as u64);
    }

    #[test]
    fn other_compressions_are_refused_with_what_to_do() {
        for (bytes, tool) in [
            (&b"\xFD7zXZ\x00\x00\x04"[..], "xz -dc"),
            (b"BZh91AY&SY", "bzip2 -dc"),
            (b"\x28\xB5\x2F\xFD\x04", "zstd -dc"),
            (b"PK\x03\x04\x14\x00", "unzip -p"),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("in");
            std::fs::write(&path, bytes).unwrap();
            let err = Input::file(path).open(Default::default()).err().unwrap();
            assert_eq!(err.kind(), io::ErrorKind::InvalidData);
            assert!(err.to_string().contains(tool), "{err}");
        }
        // A line file that happens to start like none of them still opens.
        let (head, _, _) = open_bytes(b"BZh\n");
        assert_eq!(head, b"BZh\n");
    }

    #[test]
    fn concatenated_gzip_members_are_all_read() {
        let mut bytes = gzip(b"first\n");
        bytes.extend(gzip(b"second\n"));
        let (_, all, raw) = open_bytes(&bytes);
        assert_eq!(all, b"first\nsecond\n");
        assert_eq!(raw, bytes.len() as u64);
    }

    #[test]
    fn stream_length_is_the_decompressed_length() {
        let dir = tempfile::tempdir().unwrap();
        let mut bytes = gzip(b"first\n");
        bytes.extend(gzip(b"second\n"));
        let gz = dir.path().join("in.gz");
        std::fs::write(&gz, &bytes).unwrap();
        assert_eq!(Input::file(gz).stream_len().unwrap(), 13);
        let plain = dir.path().join("in.txt");
        std::fs::write(&plain, b"abc\n\x1f").unwrap();
        assert_eq!(Input::file(plain).stream_len().unwrap(), 5);
    }

    #[test]
    fn tiny_inputs_survive_the_magic_check() {
        assert_eq!(open_bytes(b"").1, b"");
        assert_eq!(open_bytes(b"\x1f").1, b"\x1f");
    }

    #[test]
    fn the_head_stops_after_the_first_real_line() {
        assert!(!has_first_line(b"# x\n\nabc"));
        assert!(has_first_line(b"# x\n\nabc\n"));
    }
}
