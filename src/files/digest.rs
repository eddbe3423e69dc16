//! The one digest of the crate: XXH3 with 128 bits, over streams of any length, for telling
//! inputs, outputs and canonical forms apart.
//!
//! XXH3-128 is not cryptographic: it detects accidental changes (an edited digit, a file cut,
//! swapped rows) with a chance of about 2^-128 of missing one, not changes crafted by someone
//! who wants to collide. Digests are written as 32 lowercase hexadecimal digits.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex, PoisonError};

use twox_hash::XxHash3_128;

/// A finished digest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest(pub u128);

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

impl std::str::FromStr for Digest {
    type Err = std::num::ParseIntError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        u128::from_str_radix(s, 16).map(Digest)
    }
}

impl serde::Serialize for Digest {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Digest {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse()
            .map_err(|_| serde::de::Error::custom(format!("'{text}' is not a digest")))
    }
}

/// A digest being computed, fed bytes in order.
#[derive(Clone)]
pub struct Hasher {
    state: XxHash3_128,
    bytes: u64,
}

impl Default for Hasher {
    fn default() -> Self {
        Hasher {
            state: XxHash3_128::new(),
            bytes: 0,
        }
    }
}

impl fmt::Debug for Hasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hasher")
            .field("bytes", &self.bytes)
            .finish()
    }
}

impl Hasher {
    /// Adds `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        self.state.write(bytes);
        self.bytes += bytes.len() as u64;
    }

    /// How many bytes were added.
    pub fn len(&self) -> u64 {
        self.bytes
    }

    /// Whether no byte was added.
    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }

    /// The digest of the bytes added so far (more may be added after).
    pub fn digest(&self) -> Digest {
        Digest(self.state.finish_128())
    }
}

/// The digest of `bytes`.
pub fn of(bytes: &[u8]) -> Digest {
    Digest(XxHash3_128::oneshot(bytes))
}

/// The digest of the first `len` bytes of `input` (fewer when it ends before), and how many
/// bytes that was.
pub fn of_prefix(input: &mut impl BufRead, len: u64) -> io::Result<(Digest, u64)> {
    let hasher = hasher_of_prefix(input, len)?;
    Ok((hasher.digest(), hasher.len()))
}

/// A hasher fed the first `len` bytes of `input` (fewer when it ends before), to go on with:
/// what a resumed run appends to is hashed on from there.
pub fn hasher_of_prefix(input: &mut impl BufRead, len: u64) -> io::Result<Hasher> {
    let mut hasher = Hasher::default();
    io::copy(
        &mut io::Read::take(input, len),
        &mut HashingWriter(&mut hasher),
    )?;
    Ok(hasher)
}

/// The digest of the first `bytes` bytes of an input's stream (decompressed, for gzip): what a
/// checkpoint records of the bytes a run had read, and a shard's summary of each whole input.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prefix {
    /// The input's name as given.
    pub name: String,
    /// How many bytes of its stream the digest covers.
    pub bytes: u64,
    /// Their digest.
    pub digest: Digest,
}

/// What a [`HashingReader`] has hashed, shared with whoever wants to know.
#[derive(Debug, Default)]
pub struct Tracker {
    hasher: Hasher,
    /// A prefix length and the digest it must have.
    expected: Option<(u64, Digest)>,
    /// Whether the expected prefix matched, once it has been read.
    verdict: Option<bool>,
}

impl Tracker {
    /// The bytes consumed so far.
    pub fn hasher(&self) -> &Hasher {
        &self.hasher
    }

    /// Asks that the first `bytes` bytes consumed have `digest`; see [`Tracker::verdict`].
    pub fn expect(&mut self, bytes: u64, digest: Digest) {
        self.expected = Some((bytes, digest));
        self.verdict = None;
        if bytes == self.hasher.len() {
            self.verdict = Some(self.hasher.digest() == digest);
        }
    }

    /// Whether the expected prefix matched: `None` while fewer bytes have been consumed (or
    /// nothing is expected).
    pub fn verdict(&self) -> Option<bool> {
        self.verdict
    }

    /// Whether a prefix is expected and not consumed yet.
    pub fn pending(&self) -> bool {
        self.expected.is_some() && self.verdict.is_none()
    }

    fn update(&mut self, mut bytes: &[u8]) {
        if let (Some((target, digest)), None) = (self.expected, self.verdict) {
            let before = self.hasher.len();
            if target <= before + bytes.len() as u64 {
                let (head, rest) = bytes.split_at((target - before) as usize);
                self.hasher.update(head);
                self.verdict = Some(self.hasher.digest() == digest);
                bytes = rest;
            }
        }
        self.hasher.update(bytes);
    }
}

/// A reader that adds every byte its consumer *consumes* (not merely looks at) to a shared
/// [`Tracker`]: after reading up to a position, the tracker holds the digest of exactly the
/// bytes before it.
pub struct HashingReader<R> {
    inner: R,
    tracker: Arc<Mutex<Tracker>>,
}

impl<R: BufRead> HashingReader<R> {
    /// Hashes what is consumed of `inner` into `tracker`.
    pub fn new(inner: R, tracker: Arc<Mutex<Tracker>>) -> Self {
        HashingReader { inner, tracker }
    }

    fn track(&self, bytes: &[u8]) {
        self.tracker
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .update(bytes);
    }
}

impl<R: BufRead> io::Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.track(&buf[..n]);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for HashingReader<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        if let Ok(bytes) = self.inner.fill_buf() {
            let amount = amount.min(bytes.len());
            self.tracker
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .update(&bytes[..amount]);
        }
        self.inner.consume(amount);
    }
}

/// A writer that adds every byte written to a hasher and passes it on.
pub struct HashingWriter<'a>(pub &'a mut Hasher);

impl Write for HashingWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streamed_and_one_shot_digests_agree_and_print_back() {
        let text = b"a line\nanother line\n";
        let mut hasher = Hasher::default();
        hasher.update(&text[..3]);
        hasher.update(&text[3..]);
        assert_eq!(hasher.digest(), of(text));
        assert_eq!(hasher.len(), text.len() as u64);
        let shown = of(text).to_string();
        assert_eq!(shown.len(), 32);
        assert_eq!(shown.parse::<Digest>().unwrap(), of(text));
        assert_ne!(of(b"1"), of(b"2"));
    }

    #[test]
    fn a_hashing_reader_hashes_what_is_consumed_and_checks_a_prefix() {
        let text = b"abcdef\nghi\n";
        let tracker = Arc::new(Mutex::new(Tracker::default()));
        tracker.lock().unwrap().expect(4, of(b"abcd"));
        let mut reader =
            HashingReader::new(io::BufReader::with_capacity(4, &text[..]), tracker.clone());
        assert!(tracker.lock().unwrap().pending());
        let mut line = Vec::new();
        reader.read_until(b'\n', &mut line).unwrap();
        let seen = tracker.lock().unwrap();
        assert_eq!(seen.hasher().digest(), of(b"abcdef\n"));
        assert_eq!(seen.verdict(), Some(true));
        let mut other = Tracker::default();
        other.expect(4, of(b"abcX"));
        other.update(b"abcdef");
        assert_eq!(other.verdict(), Some(false));
        let (prefix, n) = of_prefix(&mut &text[..], 7).unwrap();
        assert_eq!((prefix, n), (of(b"abcdef\n"), 7));
    }
}
