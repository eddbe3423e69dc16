//! Opening the inputs of a run: files or standard input, plain or gzip, as one buffered stream,
//! with the first line that says what the input is.
//!
//! This is the one place where inputs are sniffed, for every command:
//! - gzip is recognised by its magic bytes whatever the name; every member of a concatenated
//!   stream is read, and zero bytes after the last member (padding that `gzip -t` accepts) end
//!   it; other bytes after a member are an error;
//! - other compressions (xz, bzip2, zstd, zip) and UTF-16 text are refused with how to read
//!   them;
//! - a Parquet file is recognised by its magic bytes (`PAR1`) too, and handed over unread
//!   ([`Opened::parquet`]): it is read from its path, since its index is at its end. Standard
//!   input (or a FIFO) holding Parquet is refused, and so is a gzip-compressed Parquet file;
//! - line ends of a carriage return alone (classic Mac OS) are refused, with how to convert
//!   them, when the lines read to find the first record show one (a line with a carriage
//!   return before its end): read as lines, such a file would be one line;
//! - the first line that is neither blank nor a `#` comment is handed over as [`Opened::head`],
//!   however far down it is, for the format to be guessed from it. Memory stays bounded: a
//!   regular file whose first such line lies beyond [`HEAD`] bytes is opened a second time
//!   from its start instead of being held; standard input (or a FIFO), which cannot be read
//!   twice, keeps at most [`MAX_PREFIX`] bytes of blank and comment lines before it, and is
//!   refused past that.
//!
//! The raw bytes taken from an input (before decompression) are counted for the progress bar.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::digest::{self, Prefix};

/// How much of a stream is kept in memory, at most, to hand the reader the bytes read while
/// looking for the first line: beyond this a regular file is opened again from its start.
pub const HEAD: usize = 64 * 1024;

/// The most bytes of blank and comment lines kept from a stream that cannot be read twice
/// (standard input, a FIFO) while looking for its first line.
pub const MAX_PREFIX: usize = 64 << 20;

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

    /// Whether the input can be read again from its start (a regular file).
    fn rereadable(&self) -> bool {
        self.size().is_some()
    }

    /// The whole stream [`Input::open`] gives (decompressed, for gzip), read once: its length
    /// and its digest. Standard input is read to its end.
    pub fn whole(&self) -> io::Result<Prefix> {
        let (mut stream, _) = self.stream(Arc::new(AtomicU64::new(0)))?;
        let (digest, bytes) = digest::of_prefix(&mut stream, u64::MAX)?;
        Ok(Prefix {
            name: self.name.clone(),
            bytes,
            digest,
        })
    }

    /// The decompressed bytes of the input from its start, and whether it is gzip. `counter`
    /// grows by the raw bytes taken from it.
    fn stream(&self, counter: Arc<AtomicU64>) -> io::Result<(Box<dyn BufRead + Send>, bool)> {
        let raw: Box<dyn Read + Send> = match &self.source {
            Source::Stdin => Box::new(io::stdin()),
            Source::File(path) => Box::new(File::open(path)?),
        };
        decode(raw, counter)
    }

    /// Opens the input: a buffered stream of its (decompressed) bytes from the start, and its
    /// first line that is neither blank nor a comment (see the module page). `counter` grows by
    /// the raw bytes taken from it. A Parquet file is opened without looking for a line.
    pub fn open(&self, counter: Arc<AtomicU64>) -> io::Result<Opened> {
        let counted_before = counter.load(Ordering::Relaxed);
        let (stream, gzip) = self.stream(counter.clone())?;
        let (parquet, stream) = is_parquet(stream)?;
        if parquet {
            if gzip {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "it is a gzip-compressed Parquet file, which is not read (Parquet compresses \
                     its own pages): decompress it first",
                ));
            }
            if !self.rereadable() {
                return Err(parquet_stream());
            }
            return Ok(Opened {
                reader: stream,
                head: Vec::new(),
                gzip,
                parquet: true,
            });
        }
        if !self.rereadable() {
            return find_head(stream, gzip, MAX_PREFIX, None);
        }
        let reopen = || {
            // The bytes of the first look count once, when read again.
            counter.store(counted_before, Ordering::Relaxed);
            self.stream(counter.clone()).map(|(stream, _)| stream)
        };
        find_head(stream, gzip, HEAD, Some(&reopen))
    }
}

/// Finds the first line of `stream` that is neither blank nor a comment (see the module page),
/// holding at most `limit` bytes of what comes before it: past that, `reopen` gives the stream
/// again from its start, or (without it) the input is refused.
fn find_head(
    stream: Box<dyn BufRead + Send>,
    gzip: bool,
    limit: usize,
    reopen: Option<&dyn Fn() -> io::Result<Box<dyn BufRead + Send>>>,
) -> io::Result<Opened> {
    let (first, mut stream) = head_of(stream, 2)?;
    refuse_utf16(&first)?;
    let mut prefix = Vec::new();
    let head = loop {
        let mut line = Vec::new();
        let n = (&mut stream)
            .take(HEAD as u64)
            .read_until(b'\n', &mut line)?;
        refuse_bare_carriage_return(&line)?;
        if n == 0 || is_significant(&line, prefix.is_empty()) {
            prefix.extend_from_slice(&line);
            break line;
        }
        // A blank or comment line: kept for the reader, the rest of a long one too.
        let cut = !line.ends_with(b"\n");
        prefix.extend_from_slice(&line);
        if cut {
            let room = (limit + 1).saturating_sub(prefix.len()) as u64;
            (&mut stream).take(room).read_until(b'\n', &mut prefix)?;
        }
        if prefix.len() > limit {
            let Some(reopen) = reopen else {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "more than {} MiB of blank and comment lines before the first record: \
                         standard input cannot be read twice to find it; give --input-format, \
                         or a file",
                        limit >> 20
                    ),
                ));
            };
            // Too much to hold: find the line without keeping what comes before it, then read
            // the input again from its start.
            if !prefix.ends_with(b"\n") {
                stream.skip_until(b'\n')?;
            }
            let head = first_significant(&mut stream)?;
            drop(stream);
            return Ok(Opened {
                reader: reopen()?,
                head,
                gzip,
                parquet: false,
            });
        }
    };
    let reader = Box::new(Cursor::new(prefix).chain(stream));
    Ok(Opened {
        reader,
        head: strip_bom(&head).to_vec(),
        gzip,
        parquet: false,
    })
}

/// `raw` decompressed when it is gzip (and refused when it is another compression), and
/// whether it is gzip. `counter` grows by the raw bytes taken from it.
fn decode(
    raw: Box<dyn Read + Send>,
    counter: Arc<AtomicU64>,
) -> io::Result<(Box<dyn BufRead + Send>, bool)> {
    // The buffer reads the file itself (not through the counter), so that it is filled without
    // first being zeroed.
    let raw = Counting {
        inner: BufReader::with_capacity(BUFFER, raw),
        counter,
    };
    let (magic, raw) = head_of(Box::new(raw), 6)?;
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
    Ok(if magic.starts_with(GZIP_MAGIC) {
        (
            Box::new(BufReader::with_capacity(BUFFER, GzipMembers::new(raw))),
            true,
        )
    } else {
        (Box::new(raw), false)
    })
}

/// Opens bytes from any reader as [`Input::open`] opens an input that cannot be read twice
/// (Parquet is refused).
pub fn open_reader(raw: impl Read + Send + 'static) -> io::Result<Opened> {
    let (stream, gzip) = decode(Box::new(raw), Arc::new(AtomicU64::new(0)))?;
    let (parquet, stream) = is_parquet(stream)?;
    if parquet {
        return Err(parquet_stream());
    }
    find_head(stream, gzip, MAX_PREFIX, None)
}

/// Whether the (decompressed) stream starts with the magic bytes of a Parquet file, and the
/// stream from its start.
fn is_parquet(stream: Box<dyn BufRead + Send>) -> io::Result<(bool, Box<dyn BufRead + Send>)> {
    let (magic, stream) = head_of(stream, PARQUET_MAGIC.len())?;
    Ok((magic == PARQUET_MAGIC, stream))
}

/// The refusal of a Parquet file that comes as a stream.
fn parquet_stream() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        "it is a Parquet file, which is read only from a file (its index is at its end), not \
         from standard input or a pipe: give its path",
    )
}

/// The first bytes of every Parquet file (its last bytes too).
pub const PARQUET_MAGIC: &[u8] = b"PAR1";

/// The first two bytes of every gzip member.
const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b];

/// The buffer of `input`, filled if it is empty (empty at the end of the input); a read
/// interrupted by a signal is tried again.
pub fn filled(input: &mut impl BufRead) -> io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            Ok(_) => break,
        }
    }
    input.fill_buf()
}

/// The first `n` bytes of `input` (fewer only at its end), and the input from its start again.
/// What one read gives is not always enough to tell a format by: a pipe may bring its first
/// bytes one at a time.
fn head_of(
    mut input: Box<dyn BufRead + Send>,
    n: usize,
) -> io::Result<(Vec<u8>, Box<dyn BufRead + Send>)> {
    let available = filled(&mut input)?;
    if available.len() >= n || available.is_empty() {
        let head = available[..available.len().min(n)].to_vec();
        return Ok((head, input));
    }
    let mut head = Vec::with_capacity(n);
    while head.len() < n {
        let available = filled(&mut input)?;
        if available.is_empty() {
            break;
        }
        let take = available.len().min(n - head.len());
        head.extend_from_slice(&available[..take]);
        input.consume(take);
    }
    Ok((head.clone(), Box::new(Cursor::new(head).chain(input))))
}

/// The first `n` bytes of `input` (fewer at its end), left unread.
fn peek(input: &mut impl BufRead, n: usize) -> io::Result<Vec<u8>> {
    let bytes = filled(input)?;
    Ok(bytes[..bytes.len().min(n)].to_vec())
}

/// The input without a UTF-8 byte order mark at its start.
fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// Whether a line is neither blank nor a `#` comment (`first`: it starts the input, and may
/// open with a byte order mark).
fn is_significant(line: &[u8], first: bool) -> bool {
    let line = if first { strip_bom(line) } else { line };
    let line = line.trim_ascii();
    !line.is_empty() && line[0] != b'#'
}

/// The first `HEAD` bytes of the next line of `input` that is neither blank nor a comment,
/// holding at most one line of `HEAD` bytes at a time; empty at the end of the input.
fn first_significant(input: &mut impl BufRead) -> io::Result<Vec<u8>> {
    loop {
        let mut line = Vec::new();
        let n = input.take(HEAD as u64).read_until(b'\n', &mut line)?;
        refuse_bare_carriage_return(&line)?;
        if n == 0 || is_significant(&line, false) {
            return Ok(line);
        }
        if !line.ends_with(b"\n") {
            // The rest of a long blank or comment line.
            input.skip_until(b'\n')?;
        }
    }
}

/// The refusal of a stream that opens with a UTF-16 byte order mark (UTF-32 too: its little-endian
/// mark starts the same way): every other byte would be a NUL, every record invalid.
fn refuse_utf16(first: &[u8]) -> io::Result<()> {
    if !matches!(first, [0xFF, 0xFE] | [0xFE, 0xFF]) {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        "it is UTF-16 text (it opens with a UTF-16 byte order mark), which is not read: convert \
         it to UTF-8 first, e.g. `iconv -f UTF-16 -t UTF-8 FILE > NEW` (Windows PowerShell 5 \
         writes UTF-16 with `>`; `Out-File -Encoding utf8` does not)",
    ))
}

/// The refusal of a line (read up to its newline, or cut) that holds a carriage return before
/// its end: the line ends of the input are carriage returns alone, which are not read. A line
/// that also holds a NUL byte is binary data (an executable, an image), and is said to be so.
fn refuse_bare_carriage_return(line: &[u8]) -> io::Result<()> {
    // Carriage returns at the end (`\r\n`, or `\r\r\n` from a conversion done twice) are not.
    let end = line.iter().rposition(|&b| !matches!(b, b'\r' | b'\n'));
    let text = &line[..end.map_or(0, |e| e + 1)];
    if memchr::memchr(b'\r', text).is_none() {
        return Ok(());
    }
    if memchr::memchr(0, text).is_some() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "it is not text (it holds NUL bytes): the inputs read are puzzle lines, drawn grids, \
             CSV, JSON lines or Parquet, plain or gzip-compressed",
        ));
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        "its lines end in a carriage return alone (classic Mac OS line ends), which are not \
         read: convert them to newlines first, e.g. `tr '\\r' '\\n' < FILE > NEW`",
    ))
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
    /// The first line of the stream that is neither blank nor a `#` comment (its first
    /// [`HEAD`] bytes, with its line break; without a byte order mark), or empty when there is
    /// none: what the format is guessed from.
    pub head: Vec<u8>,
    /// Whether the input is gzip (and `reader` decompresses it).
    pub gzip: bool,
    /// Whether the input is a Parquet file (always a regular file): `reader` gives its raw
    /// bytes, `head` is empty, and its records are read from its path.
    pub parquet: bool,
}

/// The members of a gzip stream, one after the other; zero bytes after a member end the
/// stream (padding that `gzip -t` accepts), any other bytes that do not start a member are an
/// error.
struct GzipMembers<R: BufRead> {
    member: Option<flate2::bufread::GzDecoder<R>>,
}

impl<R: BufRead> GzipMembers<R> {
    fn new(input: R) -> Self {
        GzipMembers {
            member: Some(flate2::bufread::GzDecoder::new(input)),
        }
    }
}

impl<R: BufRead> Read for GzipMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(member) = self.member.as_mut() else {
                return Ok(0);
            };
            let n = member.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // The member ended: another one, padding, or the end.
            let mut rest = self.member.take().expect("a member").into_inner();
            let next = peek(&mut rest, 2)?;
            if next.is_empty() {
                return Ok(0);
            }
            if next.starts_with(GZIP_MAGIC) || next == GZIP_MAGIC[..next.len()] {
                self.member = Some(flate2::bufread::GzDecoder::new(rest));
                continue;
            }
            skip_zeros(&mut rest)?;
            return Ok(0);
        }
    }
}

/// Reads `input` to its end, which must hold only zero bytes.
fn skip_zeros(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let bytes = filled(input)?;
        if bytes.is_empty() {
            return Ok(());
        }
        if bytes.iter().any(|&b| b != 0) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "bytes after the end of the gzip stream that are neither a gzip member nor \
                 zero padding",
            ));
        }
        let n = bytes.len();
        input.consume(n);
    }
}

/// A buffered reader that counts the bytes taken from it.
struct Counting<R> {
    inner: R,
    counter: Arc<AtomicU64>,
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.counter.fetch_add(n as u64, Ordering::Relaxed);
        self.inner.consume(n);
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
        let text = b"\xEF\xBB\xBF# c\n\nabc\ndef\n";
        let (head, all, raw) = open_bytes(text);
        assert_eq!(head, b"abc\n");
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
        assert_eq!(open_bytes(b"\xEF\xBB\xBFid,puzzle").0, b"id,puzzle");
    }

    #[test]
    fn line_ends_of_a_carriage_return_alone_are_refused_with_what_to_do() {
        let refused = |bytes: &[u8]| {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("in");
            std::fs::write(&path, bytes).unwrap();
            Input::file(path).open(Default::default()).err()
        };
        // In the first record's line, or in a comment before it (the whole file one comment).
        for bytes in [
            &b"abc\rdef\rghi\r"[..],
            b"# a comment\rabc\rdef",
            b"\n\n# c\n1\r2",
        ] {
            let err = refused(bytes).expect("refused");
            assert_eq!(err.kind(), io::ErrorKind::InvalidData);
            assert!(err.to_string().contains("tr '\\r' '\\n'"), "{err}");
        }
        // Binary data is said to be so, not taken for classic Mac OS line ends.
        let err = refused(b"\x7fELF\x02\x01\x01\0\0\r\0\0\x03\0>\0\n").expect("refused");
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("it is not text"), "{err}");
        // `\r\n`, `\r\r\n` and a last line ending in `\r` are line ends as ever.
        for bytes in [&b"abc\r\ndef\r\n"[..], b"abc\r\r\ndef", b"abc\r"] {
            assert!(refused(bytes).is_none());
        }
    }

    #[test]
    fn utf16_is_refused_with_what_to_do() {
        let text: Vec<u8> = "puzzle\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        for bytes in [
            [&[0xFF, 0xFE][..], &text].concat(),
            gzip(&[&[0xFE, 0xFF][..], b"\0p"].concat()),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("in");
            std::fs::write(&path, &bytes).unwrap();
            let err = Input::file(path).open(Default::default()).err().unwrap();
            assert_eq!(err.kind(), io::ErrorKind::InvalidData);
            assert!(
                err.to_string().contains("iconv -f UTF-16 -t UTF-8"),
                "{err}"
            );
        }
        // Bytes that only look like half a mark are text as ever.
        assert_eq!(open_bytes(b"\xFFabc\n").0, b"\xFFabc\n");
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
    fn the_whole_stream_is_the_decompressed_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let mut bytes = gzip(b"first\n");
        bytes.extend(gzip(b"second\n"));
        let gz = dir.path().join("in.gz");
        std::fs::write(&gz, &bytes).unwrap();
        let whole = Input::file(gz).whole().unwrap();
        assert_eq!(whole.bytes, 13);
        assert_eq!(whole.digest, digest::of(b"first\nsecond\n"));
        let plain = dir.path().join("in.txt");
        std::fs::write(&plain, b"abc\n\x1f").unwrap();
        assert_eq!(Input::file(plain).whole().unwrap().bytes, 5);
    }

    #[test]
    fn tiny_inputs_survive_the_magic_check() {
        assert_eq!(open_bytes(b"").1, b"");
        assert_eq!(open_bytes(b"\x1f").1, b"\x1f");
    }

    #[test]
    fn the_first_line_is_found_however_far_down_and_the_bytes_stay_whole() {
        // Blank lines, then long comments (one longer than the head), then the first line.
        let mut text = "\n".repeat(70_000).into_bytes();
        text.extend(format!("# {}\n", "x".repeat(100_000)).bytes());
        text.extend(b"#\n  \t\r\nfirst,line\nsecond\n");
        let (head, all, raw) = open_bytes(&text);
        assert_eq!(head, b"first,line\n");
        assert_eq!(all, text);
        assert_eq!(raw, text.len() as u64, "the bytes read twice count once");
        let (head, all, _) = open_bytes(&gzip(&text));
        assert_eq!((head, all), (b"first,line\n".to_vec(), text.clone()));
        // Nothing but blank lines: no first line.
        let (head, all, _) = open_bytes(&text[..70_000]);
        assert_eq!((head.len(), all.len()), (0, 70_000));
    }

    #[test]
    fn zero_padding_after_the_last_gzip_member_ends_the_stream() {
        let mut bytes = gzip(b"first\n");
        bytes.extend([0; 1000]);
        assert_eq!(open_bytes(&bytes).1, b"first\n");
        let mut bytes = gzip(b"first\n");
        bytes.extend(b"\0\0junk");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.gz");
        std::fs::write(&path, &bytes).unwrap();
        let mut opened = Input::file(path).open(Default::default()).unwrap();
        let err = opened.reader.read_to_end(&mut Vec::new()).unwrap_err();
        assert!(err.to_string().contains("neither a gzip member"), "{err}");
    }
}
