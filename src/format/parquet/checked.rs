//! A Parquet file as the `parquet` crate reads it, every size it declares checked before memory
//! is taken for it: a range of bytes must lie within the file, and a page header's sizes within
//! the file and [`MAX_PAGE`]. The crate takes a page's declared sizes as they are (it reserves
//! the compressed size to read the page into and the uncompressed size to decompress it into),
//! so a file of a few hundred bytes whose page header claims 2 GiB took 2 GiB of memory, or
//! aborted under a memory limit.
//!
//! The crate reads a page header through [`ChunkReader::get_read`] at the header's offset, then
//! the page through [`ChunkReader::get_bytes`]. Here `get_read` first reads the header itself
//! (at most [`MAX_HEADER`] bytes), walks its Thrift fields with every length checked against
//! the bytes read ([`page_sizes`]), and refuses the page unless both of its sizes are within
//! bounds; `get_bytes` refuses a range past the end of the file or longer than [`MAX_PAGE`].
//! The footer is read and checked by the reader ([`super::reader`]) before the crate parses it.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};

use bytes::Bytes;
use parquet::errors::{ParquetError, Result};
use parquet::file::reader::{ChunkReader, Length};

/// The largest page read, compressed or not: the memory a page of a column can take. Writers
/// make pages of about 1 MiB (pyarrow, polars, DuckDB, this tool); a writer that puts a column
/// chunk in one page (fastparquet) stays under this up to a few million puzzles a row group.
pub const MAX_PAGE: u64 = 256 << 20;

/// The longest page header read: a header is a few dozen bytes, up to a few kilobytes with the
/// statistics of long values.
pub const MAX_HEADER: usize = 64 << 10;

/// A Parquet file whose declared sizes are checked before they are read.
pub struct CheckedFile {
    file: File,
    /// The file's length when it was opened.
    len: u64,
}

impl CheckedFile {
    /// The file `file`, `len` bytes long.
    pub fn new(file: File, len: u64) -> CheckedFile {
        CheckedFile { file, len }
    }

    /// The file, its position at `start`.
    fn at(&self, start: u64) -> io::Result<File> {
        let mut file = self.file.try_clone()?;
        file.seek(SeekFrom::Start(start))?;
        Ok(file)
    }

    /// Refuses the page header at `start` unless its sizes are within the file and
    /// [`MAX_PAGE`].
    fn check_page_header(&self, start: u64) -> Result<()> {
        let room = self.len.saturating_sub(start);
        let mut header = Vec::with_capacity(MAX_HEADER.min(room as usize));
        self.at(start)?
            .take(MAX_HEADER as u64)
            .read_to_end(&mut header)?;
        let (header_len, compressed, uncompressed) = page_sizes(&header).ok_or_else(|| {
            ParquetError::General(if header.len() == MAX_HEADER {
                format!(
                    "the page header at byte {start} is not a page header of at most {} KiB",
                    MAX_HEADER >> 10
                )
            } else {
                format!("the page header at byte {start} is cut short or broken")
            })
        })?;
        let left = room - header_len as u64;
        if compressed > left {
            return Err(ParquetError::EOF(format!(
                "the page at byte {start} says it holds {compressed} bytes, but the file has \
                 {left} left: the file is cut short or corrupt"
            )));
        }
        let largest = compressed.max(uncompressed);
        if largest > MAX_PAGE {
            return Err(ParquetError::General(format!(
                "the page at byte {start} says it is {largest} bytes, more than the {} MiB a page \
                 is read to: write the file with smaller pages (pyarrow: data_page_size)",
                MAX_PAGE >> 20
            )));
        }
        Ok(())
    }
}

impl Length for CheckedFile {
    fn len(&self) -> u64 {
        self.len
    }
}

impl ChunkReader for CheckedFile {
    type T = BufReader<File>;

    fn get_read(&self, start: u64) -> Result<Self::T> {
        // The crate reads the footer's length and magic this way (checked by the reader before
        // the crate is called); everything else it reads this way is a page header.
        if start.saturating_add(8) < self.len {
            self.check_page_header(start)?;
        }
        Ok(BufReader::new(self.at(start)?))
    }

    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes> {
        let end = start.saturating_add(length as u64);
        if end > self.len {
            return Err(ParquetError::EOF(format!(
                "bytes {start} to {end} asked for, but the file ends at {}: it is cut short or \
                 corrupt",
                self.len
            )));
        }
        if length as u64 > MAX_PAGE.max(super::reader::MAX_FOOTER) {
            return Err(ParquetError::General(format!(
                "{length} bytes asked for at byte {start}, more than the {} MiB a page is read to",
                MAX_PAGE >> 20
            )));
        }
        let mut buffer = Vec::with_capacity(length);
        self.at(start)?
            .take(length as u64)
            .read_to_end(&mut buffer)?;
        if buffer.len() != length {
            return Err(ParquetError::EOF(format!(
                "{length} bytes asked for at byte {start}, {} read: the file changed",
                buffer.len()
            )));
        }
        Ok(buffer.into())
    }
}

/// The length of the Thrift (compact protocol) page header at the start of `bytes`, and the
/// page's compressed and uncompressed sizes (fields 3 and 2 of `PageHeader`); `None` when
/// `bytes` does not start with a whole header whose every length fits in `bytes`, or when the
/// sizes are missing or negative.
pub fn page_sizes(bytes: &[u8]) -> Option<(usize, u64, u64)> {
    let mut input = Thrift { bytes, at: 0 };
    let (mut compressed, mut uncompressed) = (None, None);
    let mut last_id = 0i16;
    loop {
        let head = input.byte()?;
        if head == 0 {
            break;
        }
        let kind = head & 0x0f;
        let delta = head >> 4;
        let id = if delta == 0 {
            i16::try_from(input.zigzag()?).ok()?
        } else {
            last_id.checked_add(i16::from(delta))?
        };
        last_id = id;
        match (id, kind) {
            (2, 5) => uncompressed = Some(u64::try_from(input.zigzag()?).ok()?),
            (3, 5) => compressed = Some(u64::try_from(input.zigzag()?).ok()?),
            _ => input.skip(kind, 0)?,
        }
    }
    Some((input.at, compressed?, uncompressed?))
}

/// A cursor over Thrift compact-protocol bytes that never reads or reserves past them.
struct Thrift<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Thrift<'_> {
    /// Nesting deeper than this is refused (a page header nests three levels).
    const MAX_DEPTH: u32 = 16;

    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f).checked_shl(shift)?;
            if b & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }

    fn zigzag(&mut self) -> Option<i64> {
        let v = self.varint()?;
        Some((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    /// Skips `n` bytes, which must be there.
    fn advance(&mut self, n: u64) -> Option<()> {
        let n = usize::try_from(n).ok()?;
        (self.bytes.len() - self.at >= n).then(|| self.at += n)
    }

    /// Skips a value of compact type `kind`.
    fn skip(&mut self, kind: u8, depth: u32) -> Option<()> {
        if depth > Self::MAX_DEPTH {
            return None;
        }
        match kind {
            // true, false (a field's value is in its type)
            1 | 2 => Some(()),
            // byte
            3 => self.advance(1),
            // i16, i32, i64
            4..=6 => self.varint().map(drop),
            // double
            7 => self.advance(8),
            // binary
            8 => {
                let n = self.varint()?;
                self.advance(n)
            }
            // list, set
            9 | 10 => {
                let head = self.byte()?;
                let size = match head >> 4 {
                    15 => self.varint()?,
                    short => u64::from(short),
                };
                // Every element takes a byte at least: a size past the bytes left is a lie.
                if size > (self.bytes.len() - self.at) as u64 {
                    return None;
                }
                (0..size).try_for_each(|_| self.skip_element(head & 0x0f, depth + 1))
            }
            // map
            11 => {
                let size = self.varint()?;
                if size == 0 {
                    return Some(());
                }
                let kinds = self.byte()?;
                if size > (self.bytes.len() - self.at) as u64 {
                    return None;
                }
                (0..size).try_for_each(|_| {
                    self.skip_element(kinds >> 4, depth + 1)?;
                    self.skip_element(kinds & 0x0f, depth + 1)
                })
            }
            // struct
            12 => loop {
                let head = self.byte()?;
                if head == 0 {
                    return Some(());
                }
                if head >> 4 == 0 {
                    self.zigzag()?;
                }
                self.skip(head & 0x0f, depth + 1)?;
            },
            _ => None,
        }
    }

    /// Skips an element of a list, set or map, where a bool takes a byte.
    fn skip_element(&mut self, kind: u8, depth: u32) -> Option<()> {
        match kind {
            1 | 2 => self.advance(1),
            _ => self.skip(kind, depth),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page header as writers write it: type, uncompressed and compressed sizes, then a data
    /// page header (a struct of num_values and encodings) and the end of the struct.
    fn header(uncompressed: i32, compressed: i32) -> Vec<u8> {
        let zigzag = |v: i32| {
            let mut v = ((v << 1) ^ (v >> 31)) as u32;
            let mut out = Vec::new();
            loop {
                let b = (v & 0x7f) as u8;
                v >>= 7;
                if v == 0 {
                    out.push(b);
                    return out;
                }
                out.push(b | 0x80);
            }
        };
        let mut out = vec![0x15];
        out.extend(zigzag(0));
        out.push(0x15);
        out.extend(zigzag(uncompressed));
        out.push(0x15);
        out.extend(zigzag(compressed));
        // field 5: a struct with field 1, i32 3, then its end
        out.extend([0x2c, 0x15, 0x06, 0x00]);
        out.push(0x00);
        out
    }

    #[test]
    fn a_page_headers_sizes_are_read_and_a_lying_length_is_refused() {
        let h = header(1000, 300);
        assert_eq!(page_sizes(&h), Some((h.len(), 300, 1000)));
        // Cut anywhere, a header is refused.
        for cut in 0..h.len() {
            assert_eq!(page_sizes(&h[..cut]), None, "cut at {cut}");
        }
        // A negative size is refused.
        assert_eq!(page_sizes(&header(-5, 3)), None);
        // A binary field (statistics) that claims 2 GiB in a few bytes is refused.
        let mut lying = header(10, 10);
        lying.pop();
        lying.extend([0x18, 0xff, 0xff, 0xff, 0xff, 0x07, b'x', 0x00]);
        assert_eq!(page_sizes(&lying), None);
    }
}
