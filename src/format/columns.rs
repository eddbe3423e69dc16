//! Result rows as columns: what a batch of the pool builds when the output is columnar
//! (Parquet), so that the rows are still made in parallel and the writer thread only appends
//! them, in input order, to the row group it is filling.
//!
//! Each column is held in the Arrow layout, so that it converts to Arrow arrays (for the Python
//! package) by moving buffers: a text column is its values' bytes back to back with `len + 1`
//! offsets (64-bit, as Arrow's `LargeUtf8`), a count column a vector of `u64` (`UInt64`); both
//! have one validity flag per row (`false`: null; Arrow packs the flags into a bitmap). Text is
//! always valid UTF-8: bytes taken from the input are converted as JSON lines does (invalid
//! sequences become U+FFFD).

use super::Cell;

/// The type of an output column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColumnKind {
    /// UTF-8 text (grids, statuses, messages, kept values).
    Text,
    /// A count: an unsigned 64-bit integer (`line`, `solutions`, the search counters).
    Count,
    /// A number of tenths (Sudoku Explainer's ratings): held as a count, written as a decimal
    /// with one digit after the point (`7.2`), a double in Parquet.
    Tenths,
}

/// One column of a batch of rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Column {
    /// UTF-8 text.
    Text(TextColumn),
    /// Unsigned counts.
    Count(CountColumn),
}

/// A column of UTF-8 text in the Arrow layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextColumn {
    /// The values' bytes, back to back.
    pub data: Vec<u8>,
    /// Where each value starts in `data`, and where the last ends: one more than the rows.
    pub offsets: Vec<usize>,
    /// Whether each row has a value (`false`: null, with an empty slice in `data`).
    pub valid: Vec<bool>,
}

/// A column of counts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CountColumn {
    /// One value per row (0 where the row is null).
    pub values: Vec<u64>,
    /// Whether each row has a value.
    pub valid: Vec<bool>,
}

impl Default for TextColumn {
    fn default() -> Self {
        TextColumn {
            data: Vec::new(),
            offsets: vec![0],
            valid: Vec::new(),
        }
    }
}

impl TextColumn {
    /// The value of row `i`, or `None` when it is null.
    pub fn get(&self, i: usize) -> Option<&str> {
        self.valid[i].then(|| {
            let bytes = &self.data[self.offsets[i]..self.offsets[i + 1]];
            // Only UTF-8 is ever pushed.
            std::str::from_utf8(bytes).expect("text columns hold UTF-8")
        })
    }

    #[inline(always)]
    fn push_bytes(&mut self, bytes: &[u8], utf8: bool) {
        if utf8 {
            self.data.extend_from_slice(bytes);
        } else {
            self.data
                .extend_from_slice(String::from_utf8_lossy(bytes).as_bytes());
        }
        self.offsets.push(self.data.len());
        self.valid.push(true);
    }

    #[inline(always)]
    fn push_null(&mut self) {
        self.offsets.push(self.data.len());
        self.valid.push(false);
    }

    fn append(&mut self, other: &TextColumn) {
        let base = self.data.len();
        self.data.extend_from_slice(&other.data);
        self.offsets
            .extend(other.offsets[1..].iter().map(|end| base + end));
        self.valid.extend_from_slice(&other.valid);
    }
}

impl Column {
    /// An empty column of `kind`.
    pub fn new(kind: ColumnKind) -> Column {
        match kind {
            ColumnKind::Text => Column::Text(TextColumn::default()),
            ColumnKind::Count | ColumnKind::Tenths => Column::Count(CountColumn::default()),
        }
    }

    /// The rows held.
    pub fn len(&self) -> usize {
        match self {
            Column::Text(c) => c.valid.len(),
            Column::Count(c) => c.valid.len(),
        }
    }

    /// Whether no row is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held by the values (for bounding a row group's memory).
    pub fn bytes(&self) -> usize {
        match self {
            Column::Text(c) => c.data.len() + c.offsets.len() * 8 + c.valid.len(),
            Column::Count(c) => c.values.len() * 9,
        }
    }

    /// Appends one value. A count in a text column, or text in a count column, is a bug in the
    /// job's column types.
    #[inline(always)]
    fn push(&mut self, cell: Cell<'_>) {
        match (self, cell) {
            (Column::Text(c), Cell::Text(s)) => c.push_bytes(s.as_bytes(), true),
            (Column::Text(c), Cell::Plain(b)) => {
                // ASCII by the contract of `Plain` (checked in debug builds, as by the text
                // formats).
                debug_assert!(b.is_ascii());
                c.push_bytes(b, true)
            }
            (Column::Text(c), Cell::Bytes(b)) => {
                let utf8 = std::str::from_utf8(b).is_ok();
                c.push_bytes(b, utf8)
            }
            (Column::Text(_), Cell::Int(n) | Cell::Tenths(n)) => {
                panic!("number {n} in a text column")
            }
            (Column::Text(c), Cell::Null) => c.push_null(),
            (Column::Count(c), Cell::Int(n) | Cell::Tenths(n)) => {
                c.values.push(n);
                c.valid.push(true);
            }
            (Column::Count(c), Cell::Null) => {
                c.values.push(0);
                c.valid.push(false);
            }
            (Column::Count(_), cell) => panic!("text {cell:?} in a count column"),
        }
    }

    fn append(&mut self, other: &Column) {
        match (self, other) {
            (Column::Text(a), Column::Text(b)) => a.append(b),
            (Column::Count(a), Column::Count(b)) => {
                a.values.extend_from_slice(&b.values);
                a.valid.extend_from_slice(&b.valid);
            }
            _ => panic!("columns of another kind appended"),
        }
    }

    /// Empties the column, keeping its memory.
    pub(crate) fn clear(&mut self) {
        match self {
            Column::Text(c) => {
                c.data.clear();
                c.offsets.truncate(1);
                c.valid.clear();
            }
            Column::Count(c) => {
                c.values.clear();
                c.valid.clear();
            }
        }
    }
}

/// Rows held as columns, one [`Column`] per output column.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ColumnBatch {
    /// The columns, in output order.
    pub columns: Vec<Column>,
}

impl ColumnBatch {
    /// An empty batch of columns of these kinds.
    pub fn new(kinds: &[ColumnKind]) -> Self {
        ColumnBatch {
            columns: kinds.iter().map(|&k| Column::new(k)).collect(),
        }
    }

    /// An empty batch whose columns are of the kinds of this one's.
    pub fn empty_like(&self) -> Self {
        ColumnBatch {
            columns: self
                .columns
                .iter()
                .map(|column| match column {
                    Column::Text(_) => Column::Text(TextColumn::default()),
                    Column::Count(_) => Column::Count(CountColumn::default()),
                })
                .collect(),
        }
    }

    /// An empty batch of columns of these kinds with room for `rows` rows of `text` bytes in
    /// each text column.
    pub fn with_capacity(kinds: &[ColumnKind], rows: usize, text: usize) -> Self {
        let mut batch = ColumnBatch::new(kinds);
        for column in &mut batch.columns {
            match column {
                Column::Text(c) => {
                    c.data.reserve(text);
                    c.offsets.reserve(rows);
                    c.valid.reserve(rows);
                }
                Column::Count(c) => {
                    c.values.reserve(rows);
                    c.valid.reserve(rows);
                }
            }
        }
        batch
    }

    /// The rows held.
    pub fn rows(&self) -> usize {
        self.columns.first().map_or(0, Column::len)
    }

    /// Bytes held by the values.
    pub fn bytes(&self) -> usize {
        self.columns.iter().map(Column::bytes).sum()
    }

    /// Bytes the values have room for.
    pub fn capacity(&self) -> usize {
        let room = |column: &Column| match column {
            Column::Text(c) => c.data.capacity() + c.offsets.capacity() * size_of::<usize>(),
            Column::Count(c) => c.values.capacity() * size_of::<u64>(),
        };
        self.columns.iter().map(room).sum()
    }

    /// Appends one row: one cell per column, in order. Kept out of line: the text formats'
    /// per-row path, which shares a caller with it, stays as small as it was.
    #[inline(never)]
    pub fn push_row<'a>(&mut self, cells: impl IntoIterator<Item = Cell<'a>>) {
        let mut pushed = 0;
        for (column, cell) in self.columns.iter_mut().zip(cells) {
            column.push(cell);
            pushed += 1;
        }
        debug_assert_eq!(pushed, self.columns.len(), "one cell per column");
    }

    /// The rows of `parts`, in order, as one batch of columns of these kinds: every column
    /// allocated once, at its size.
    pub fn gathered(kinds: &[ColumnKind], parts: &[ColumnBatch]) -> ColumnBatch {
        let mut all = ColumnBatch::new(kinds);
        for (index, column) in all.columns.iter_mut().enumerate() {
            let rows = parts.iter().map(|p| p.columns[index].len()).sum();
            match column {
                Column::Text(c) => {
                    c.data.reserve(
                        parts
                            .iter()
                            .map(|p| match &p.columns[index] {
                                Column::Text(t) => t.data.len(),
                                Column::Count(_) => 0,
                            })
                            .sum(),
                    );
                    c.offsets.reserve(rows);
                    c.valid.reserve(rows);
                }
                Column::Count(c) => {
                    c.values.reserve(rows);
                    c.valid.reserve(rows);
                }
            }
        }
        for part in parts {
            all.append(part);
        }
        all
    }

    /// Appends rows `rows` of `other`, whose columns are of the same kinds.
    pub fn append_rows(&mut self, other: &ColumnBatch, rows: std::ops::Range<usize>) {
        for (column, more) in self.columns.iter_mut().zip(&other.columns) {
            match (column, more) {
                (Column::Text(a), Column::Text(b)) => {
                    let (start, end) = (b.offsets[rows.start], b.offsets[rows.end]);
                    let base = a.data.len();
                    a.data.extend_from_slice(&b.data[start..end]);
                    a.offsets.extend(
                        b.offsets[rows.start + 1..=rows.end]
                            .iter()
                            .map(|o| base + o - start),
                    );
                    a.valid.extend_from_slice(&b.valid[rows.clone()]);
                }
                (Column::Count(a), Column::Count(b)) => {
                    a.values.extend_from_slice(&b.values[rows.clone()]);
                    a.valid.extend_from_slice(&b.valid[rows.clone()]);
                }
                _ => panic!("columns of another kind appended"),
            }
        }
    }

    /// Appends the rows of `other`, whose columns are of the same kinds.
    pub fn append(&mut self, other: &ColumnBatch) {
        for (column, more) in self.columns.iter_mut().zip(&other.columns) {
            column.append(more);
        }
    }

    /// Empties every column, keeping its memory.
    pub fn clear(&mut self) {
        self.columns.iter_mut().for_each(Column::clear);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_append_in_order_with_nulls_and_lossy_bytes() {
        let kinds = [ColumnKind::Count, ColumnKind::Text];
        let mut a = ColumnBatch::new(&kinds);
        a.push_row([Cell::Int(2), Cell::Plain(b"solved")]);
        a.push_row([Cell::Null, Cell::Null]);
        let mut b = ColumnBatch::new(&kinds);
        b.push_row([Cell::Int(7), Cell::Bytes(b"caf\xc3\xa9 \xff")]);
        a.append(&b);
        assert_eq!(a.rows(), 3);
        let Column::Count(counts) = &a.columns[0] else {
            panic!()
        };
        assert_eq!(counts.values, [2, 0, 7]);
        assert_eq!(counts.valid, [true, false, true]);
        let Column::Text(text) = &a.columns[1] else {
            panic!()
        };
        assert_eq!(
            (0..3).map(|i| text.get(i)).collect::<Vec<_>>(),
            [Some("solved"), None, Some("caf\u{e9} \u{fffd}")]
        );
        a.clear();
        assert_eq!(a.rows(), 0);
        a.push_row([Cell::Int(1), Cell::Text("x")]);
        assert_eq!(a.columns[1], {
            let mut c = ColumnBatch::new(&kinds);
            c.push_row([Cell::Int(1), Cell::Text("x")]);
            c.columns[1].clone()
        });
    }

    #[test]
    #[should_panic(expected = "in a count column")]
    fn text_in_a_count_column_is_a_bug() {
        ColumnBatch::new(&[ColumnKind::Count]).push_row([Cell::Text("1")]);
    }
}
