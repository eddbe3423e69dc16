//! Physical lines of an input with bounded memory: the common ground of every reader.
//!
//! Each line is returned without its terminator (`\n` or `\r\n`); a UTF-8 byte order mark at the
//! very start of the input is dropped; a last line without a final newline is still a line. A
//! line longer than the cap is not held in memory: its first bytes are kept, the rest is read and
//! thrown away up to the next newline, and the line is marked as too long.
//!
//! A reader may let the lines hold back the input's consumption ([`Lines::deferred`]): a line
//! that lies whole in the input's buffer is then returned from there, not copied, and the bytes
//! of such lines are handed to the input (its hash and byte count) in one go, when the buffer is
//! used up or when [`Lines::settle`] is called.

use std::io::{self, BufRead};

use super::Position;
use crate::files::input::filled;

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One physical line.
#[derive(Debug)]
pub(crate) struct Line<'a> {
    /// 1-based line number.
    pub number: u64,
    /// Byte offset of the line's first byte in the input.
    pub offset: u64,
    /// The line without its terminator; only a prefix when [`Line::too_long`].
    pub text: &'a [u8],
    /// Whether the line was longer than the cap.
    pub too_long: bool,
    /// Whether its terminator was `\r\n` (a line break inside a quoted CSV field keeps it).
    pub crlf: bool,
}

/// Splits a buffered input into capped lines, counting line numbers and byte offsets.
pub(crate) struct Lines<R> {
    input: R,
    buf: Vec<u8>,
    cap: usize,
    next: Position,
    /// Whether consumption may be held back.
    defer: bool,
    /// Bytes at the start of the input's buffer returned as lines but not yet consumed.
    held: usize,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `input`, whose first byte is at `start` (offset and line number), each at most
    /// `cap` bytes long.
    pub fn new(input: R, start: Position, cap: usize) -> Self {
        Lines {
            input,
            buf: Vec::new(),
            cap,
            next: start,
            defer: false,
            held: 0,
        }
    }

    /// These lines, holding back the consumption of the lines read from the input's buffer
    /// until the buffer is used up or [`Lines::settle`] is called.
    pub fn deferred(mut self) -> Self {
        self.defer = true;
        self
    }

    /// Consumes the bytes of every line returned so far.
    pub fn settle(&mut self) {
        if self.held > 0 {
            self.input.consume(self.held);
            self.held = 0;
        }
    }

    /// Where the next line starts.
    pub fn position(&self) -> Position {
        self.next
    }

    /// Passes over the lines that start before `offset`, counting them but copying nothing:
    /// afterwards the next line starts at or after `offset`, or the input is at its end.
    ///
    /// A line starts at `p` when `p` is 0 or byte `p - 1` is a newline, so the first line start
    /// at or after `offset` follows the first newline at or after byte `offset - 1`.
    pub fn skip_to(&mut self, offset: u64) -> io::Result<()> {
        if self.next.offset >= offset {
            return Ok(());
        }
        self.settle();
        loop {
            let available = filled(&mut self.input)?;
            if available.is_empty() {
                return Ok(());
            }
            // The buffer starts at `at`; the newline looked for is at or after `offset - 1`.
            let at = self.next.offset;
            let search = usize::try_from((offset - 1).saturating_sub(at)).unwrap_or(usize::MAX);
            let end = available
                .get(search..)
                .and_then(|rest| memchr::memchr(b'\n', rest))
                .map(|n| search + n + 1);
            let take = end.unwrap_or(available.len());
            let lines = memchr::memchr_iter(b'\n', &available[..take]).count();
            self.input.consume(take);
            // Between refills `next` is mid-line; it is a line start again on return.
            self.next.offset += take as u64;
            self.next.line += lines as u64;
            if end.is_some() {
                return Ok(());
            }
        }
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        if self.defer {
            if let Some(end) = self.whole_line_held()? {
                return self.held_line(end).map(Some);
            }
            // No whole line left in the buffer: the careful way reads on from the input.
            self.settle();
        }
        self.buf.clear();
        let start = self.next;
        // Keep one byte more than the cap so that a line of exactly `cap` bytes plus `\r` fits.
        let keep = self.cap + 1;
        let mut overflow = false;
        let mut read_any = false;
        loop {
            let available = filled(&mut self.input)?;
            if available.is_empty() {
                if !read_any {
                    return Ok(None);
                }
                break;
            }
            read_any = true;
            let (take, ends) = match memchr::memchr(b'\n', available) {
                Some(i) => (i, true),
                None => (available.len(), false),
            };
            let room = keep - self.buf.len();
            if take <= room {
                self.buf.extend_from_slice(&available[..take]);
            } else {
                self.buf.extend_from_slice(&available[..room]);
                overflow = true;
            }
            let consumed = take + usize::from(ends);
            self.input.consume(consumed);
            self.next.offset += consumed as u64;
            if ends {
                break;
            }
        }
        self.next.line += 1;
        let crlf = !overflow && self.buf.last() == Some(&b'\r');
        if crlf {
            self.buf.pop();
        }
        let too_long = overflow || self.buf.len() > self.cap;
        self.buf.truncate(self.cap);
        Ok(Some(Line {
            number: start.line,
            offset: start.offset,
            text: without_bom(&self.buf, start.offset),
            too_long,
            crlf,
        }))
    }
}

/// `text` without the byte order mark that may open the input (on the line at offset 0).
fn without_bom(text: &[u8], offset: u64) -> &[u8] {
    match text.strip_prefix(BOM) {
        Some(rest) if offset == 0 => rest,
        _ => text,
    }
}

impl<R: BufRead> Lines<R> {
    /// Where the next line ends in the input's buffer (its newline), when it lies there whole
    /// and within the cap.
    fn whole_line_held(&mut self) -> io::Result<Option<usize>> {
        let available = filled(&mut self.input)?;
        let rest = available.get(self.held..).unwrap_or_default();
        Ok(memchr::memchr(b'\n', rest)
            .filter(|&n| n <= self.cap)
            .map(|n| self.held + n))
    }

    /// The line from the held bytes up to the newline at `end` of the input's buffer, held
    /// back in its turn.
    fn held_line(&mut self, end: usize) -> io::Result<Line<'_>> {
        let (from, start) = (self.held, self.next);
        self.held = end + 1;
        self.next.offset += (end + 1 - from) as u64;
        self.next.line += 1;
        // The buffer is the one just looked at: nothing was consumed since.
        let mut text = &self.input.fill_buf()?[from..end];
        let crlf = text.last() == Some(&b'\r');
        if crlf {
            text = &text[..text.len() - 1];
        }
        Ok(Line {
            number: start.line,
            offset: start.offset,
            text: without_bom(text, start.offset),
            too_long: false,
            crlf,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (number, offset, text, too_long) of every line of `input`, read through buffers of
    /// `buffer` bytes, consumption held back or not.
    fn read_all(
        input: &[u8],
        cap: usize,
        buffer: usize,
        defer: bool,
    ) -> Vec<(u64, u64, String, bool)> {
        let reader = io::BufReader::with_capacity(buffer, input);
        let mut lines = Lines::new(reader, Position::START, cap);
        if defer {
            lines = lines.deferred();
        }
        let mut out = Vec::new();
        while let Some(l) = lines.next_line().unwrap() {
            out.push((
                l.number,
                l.offset,
                String::from_utf8_lossy(l.text).into_owned(),
                l.too_long,
            ));
        }
        assert_eq!(lines.position().offset, input.len() as u64);
        out
    }

    /// The lines of `input`, the same whether consumption is held back or not, whatever the
    /// size of the input's buffer.
    fn all(input: &[u8], cap: usize) -> Vec<(u64, u64, String, bool)> {
        // A tiny buffer makes lines straddle refills.
        let lines = read_all(input, cap, 3, false);
        for buffer in [3, 4, 7, 64] {
            assert_eq!(read_all(input, cap, buffer, true), lines, "buffer {buffer}");
        }
        lines
    }

    /// Consumes what it reads into `consumed`, as the input's hash does.
    struct Counting<'a> {
        inner: io::BufReader<&'a [u8]>,
        consumed: Vec<u8>,
    }

    impl io::Read for Counting<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.inner.read(buf)
        }
    }

    impl BufRead for Counting<'_> {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            self.inner.fill_buf()
        }

        fn consume(&mut self, amount: usize) {
            let bytes = &self.inner.fill_buf().unwrap()[..amount];
            self.consumed.extend_from_slice(bytes);
            self.inner.consume(amount);
        }
    }

    #[test]
    fn held_back_lines_are_all_consumed_once_settled() {
        let input = b"ab\r\ncd\n\n12345678901\nef\ngh";
        let reader = Counting {
            inner: io::BufReader::with_capacity(8, &input[..]),
            consumed: Vec::new(),
        };
        let mut lines = Lines::new(reader, Position::START, 8).deferred();
        let mut ends = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            let text = line.text.to_vec();
            lines.settle();
            // Everything up to the next line's start, and no more.
            let next = lines.position().offset as usize;
            assert_eq!(lines.input.consumed, &input[..next], "after {text:?}");
            ends.push(next);
        }
        assert_eq!(ends, [4, 7, 8, 20, 23, 25]);
    }

    #[test]
    fn crlf_lf_and_missing_final_newline() {
        assert_eq!(
            all(b"ab\r\ncd\n\nef", 10),
            vec![
                (1, 0, "ab".into(), false),
                (2, 4, "cd".into(), false),
                (3, 7, "".into(), false),
                (4, 8, "ef".into(), false),
            ]
        );
    }

    #[test]
    fn bom_dropped_only_at_the_start() {
        assert_eq!(
            all(b"\xEF\xBB\xBFab\n\xEF\xBB\xBFcd\n", 10),
            vec![
                (1, 0, "ab".into(), false),
                (2, 6, "\u{feff}cd".into(), false),
            ]
        );
    }

    #[test]
    fn long_lines_are_capped_and_skipped() {
        let got = all(b"12345678\r\n123456789\r\nxy", 8);
        assert_eq!(
            got,
            vec![
                (1, 0, "12345678".into(), false),
                (2, 10, "12345678".into(), true),
                (3, 21, "xy".into(), false),
            ]
        );
    }

    #[test]
    fn starts_at_a_given_position() {
        let reader = io::BufReader::new(&b"cd\nef"[..]);
        let start = Position {
            offset: 100,
            line: 7,
        };
        let mut lines = Lines::new(reader, start, 10);
        let l = lines.next_line().unwrap().unwrap();
        assert_eq!((l.number, l.offset, l.text), (7, 100, &b"cd"[..]));
        let l = lines.next_line().unwrap().unwrap();
        assert_eq!((l.number, l.offset), (8, 103));
        assert!(lines.next_line().unwrap().is_none());
        assert_eq!(
            lines.position(),
            Position {
                offset: 105,
                line: 9
            }
        );
    }

    #[test]
    fn skipping_to_any_offset_leaves_the_lines_starting_there_or_later() {
        let input = b"\xEF\xBB\xBFab\r\n\n# c\r\n\r\nlonger line\nx\n\nlast";
        let every = all(input, 100);
        for offset in 0..=input.len() as u64 + 1 {
            let reader = io::BufReader::with_capacity(3, &input[..]);
            let mut lines = Lines::new(reader, Position::START, 100);
            lines.skip_to(offset).unwrap();
            let mut rest = Vec::new();
            while let Some(l) = lines.next_line().unwrap() {
                rest.push((
                    l.number,
                    l.offset,
                    String::from_utf8_lossy(l.text).into_owned(),
                    l.too_long,
                ));
            }
            let expected: Vec<_> = every.iter().filter(|l| l.1 >= offset).cloned().collect();
            assert_eq!(rest, expected, "skipping to {offset}");
        }
    }

    #[test]
    fn skipping_passes_over_lines_longer_than_the_cap() {
        let input = format!("{}\nab\n", "x".repeat(50));
        let mut lines = Lines::new(input.as_bytes(), Position::START, 8);
        lines.skip_to(10).unwrap();
        assert_eq!(
            lines.position(),
            Position {
                offset: 51,
                line: 2
            }
        );
        assert_eq!(lines.next_line().unwrap().unwrap().text, b"ab");
    }

    #[test]
    fn empty_input_has_no_lines() {
        assert!(all(b"", 10).is_empty());
    }
}
