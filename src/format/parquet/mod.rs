//! Parquet: result rows out as a typed, compressed, columnar file; records in from any Parquet
//! file whose columns are found by name, as a CSV's are.
//!
//! The output has the columns of the CSV output with their real types: counts (`line`,
//! `solutions`, the search counters) are unsigned 64-bit integers, null where no search ran;
//! everything else is a UTF-8 string (the grids, `status`, `error`, `file`, kept columns and
//! `regions`), dictionary-encoded except the grids, whose values are nearly all distinct. Pages
//! are compressed with the run's [`writer::ParquetCompression`] (Snappy unless asked otherwise).
//! Row groups hold at most
//! [`writer::ROW_GROUP_ROWS`] rows and [`writer::ROW_GROUP_BYTES`] bytes of values, so memory
//! stays bounded whatever the input. The file's key-value metadata records the tool version
//! and the run's options.
//!
//! An input is known as Parquet by its magic bytes (`PAR1`, [`crate::files::input`]), and read
//! from its path ([`reader`]): standard input holding Parquet is refused.

pub mod checked;
pub mod reader;
pub mod writer;

pub use reader::ParquetReader;
pub use writer::{ParquetCompression, ParquetWriter};

/// The magic bytes at the start (and end) of every Parquet file.
pub use crate::files::input::PARQUET_MAGIC as MAGIC;

thread_local! {
    /// Whether this thread is inside [`contained`], whose panics are reported as errors.
    static CONTAINED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, a call into the `parquet` crate, turning a panic in it (which a corrupt file can
/// cause there) into the panic's message, without the panic hook's report on standard error.
/// Panics elsewhere are reported by the hook as before.
pub(crate) fn contained<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    use std::panic;
    static QUIET_HOOK: std::sync::Once = std::sync::Once::new();
    QUIET_HOOK.call_once(|| {
        let hook = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CONTAINED.with(std::cell::Cell::get) {
                hook(info);
            }
        }));
    });
    let outer = CONTAINED.with(|c| c.replace(true));
    let result = panic::catch_unwind(panic::AssertUnwindSafe(f));
    CONTAINED.with(|c| c.set(outer));
    result.map_err(|payload| super::panic_message(payload.as_ref()))
}

/// Whether a file's name says it is Parquet (ends in `.parquet`): such a file that does not
/// start with [`MAGIC`] is refused rather than read as text.
pub fn is_named(path: Option<&std::path::Path>) -> bool {
    path.and_then(|p| p.file_name()).is_some_and(|n| {
        n.to_string_lossy()
            .to_ascii_lowercase()
            .ends_with(".parquet")
    })
}

/// The refusal of a file named `.parquet` that is not Parquet.
pub fn misnamed() -> crate::format::HeaderError {
    crate::format::HeaderError::NotParquet {
        detail: "it does not start with PAR1, as every Parquet file does".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::columns::{ColumnBatch, ColumnKind};
    use crate::format::{Cell, Columns, ReadOptions, RecordReader, Wanted};
    use crate::format::{Rows, SpareRows};
    use std::sync::Arc;

    const KINDS: [ColumnKind; 4] = [
        ColumnKind::Count,
        ColumnKind::Text,
        ColumnKind::Count,
        ColumnKind::Text,
    ];

    fn names() -> Vec<String> {
        ["line", "puzzle", "givens", "note"]
            .map(String::from)
            .to_vec()
    }

    /// A file of `n` rows written in batches of `batch` rows.
    fn written(n: u64, batch: usize) -> Vec<u8> {
        written_recycling(n, batch, None, None).0
    }

    /// A file of `n` rows written in batches of `batch` rows, each batch an emptied one from
    /// `spare` when there is one (and how many were), the row groups encoded on `pool` and,
    /// between batches, on this thread ([`ParquetWriter::help`]).
    fn written_recycling(
        n: u64,
        batch: usize,
        spare: Option<Arc<SpareRows>>,
        pool: Option<&rayon::ThreadPool>,
    ) -> (Vec<u8>, usize) {
        let mut out = Vec::new();
        let mut writer = ParquetWriter::new(
            &mut out,
            &names(),
            &KINDS,
            &[("k".to_string(), "v".to_string())],
            ParquetCompression::default(),
        )
        .unwrap();
        let mut reused = 0;
        let mut next = || match spare.as_ref().and_then(|s| s.take()) {
            Some(Rows::Columns(emptied)) => {
                reused += 1;
                emptied
            }
            Some(Rows::Text(_)) => panic!("text rows given back to a Parquet writer"),
            None => ColumnBatch::new(&KINDS),
        };
        if let Some(spare) = &spare {
            writer = writer.recycling(spare.clone());
        }
        if let Some(pool) = pool {
            writer = writer.sharing(pool);
        }
        let mut rows = next();
        for i in 0..n {
            let note = format!("n{}", i % 3);
            rows.push_row([
                Cell::Int(i + 1),
                Cell::Plain(b"1...."),
                if i.is_multiple_of(4) {
                    Cell::Null
                } else {
                    Cell::Int(i)
                },
                if i.is_multiple_of(5) {
                    Cell::Null
                } else {
                    Cell::Text(&note)
                },
            ]);
            if rows.rows() == batch {
                writer.write(std::mem::replace(&mut rows, next())).unwrap();
                writer.help();
            }
        }
        writer.write(rows).unwrap();
        writer.finish().unwrap();
        (out, reused)
    }

    #[test]
    fn batches_handed_back_emptied_and_filled_again_make_the_same_file() {
        let n = (2 * writer::ROW_GROUP_ROWS + 1500) as u64;
        let spare = Arc::new(SpareRows::new(usize::MAX));
        let (recycled, reused) = written_recycling(n, 1000, Some(spare.clone()), None);
        assert!(reused > 100, "{reused} batches reused");
        assert_eq!(recycled, written(n, 1000));
        let Some(Rows::Columns(emptied)) = spare.take() else {
            panic!("the last row group's batches are given back");
        };
        // Nothing left but the first offset of each of the two text columns.
        assert_eq!((emptied.rows(), emptied.bytes()), (0, 2 * 8));
    }

    #[test]
    fn row_groups_encoded_on_a_pool_make_the_same_file() {
        let n = (3 * writer::ROW_GROUP_ROWS + 700) as u64;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let spare = Arc::new(SpareRows::new(usize::MAX));
        let (shared, reused) = written_recycling(n, 1000, Some(spare), Some(&pool));
        assert!(reused > 100, "{reused} batches reused");
        assert_eq!(shared, written(n, 1000));
        assert_eq!(read_back(&shared, &["note"]).len() as u64, n);
    }

    fn read_back(bytes: &[u8], keep: &[&str]) -> Vec<crate::format::Record> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.parquet");
        std::fs::write(&path, bytes).unwrap();
        let options = ReadOptions {
            wanted: Wanted::Puzzle,
            columns: Columns {
                keep: keep.iter().map(|k| k.to_string()).collect(),
                ..Columns::default()
            },
            ..ReadOptions::default()
        };
        let mut reader = ParquetReader::open(&path, &options).unwrap();
        let mut records = Vec::new();
        while let Some(record) = reader.next_record().unwrap() {
            records.push(record);
        }
        records
    }

    #[test]
    fn rows_read_back_in_order_across_row_groups_with_nulls_empty() {
        let n = (writer::ROW_GROUP_ROWS + 1500) as u64;
        let bytes = written(n, 1000);
        assert!(bytes.starts_with(MAGIC) && bytes.ends_with(MAGIC));
        let records = read_back(&bytes, &["givens", "note", "line"]);
        assert_eq!(records.len() as u64, n);
        for (i, r) in records.iter().enumerate() {
            let i = i as u64;
            assert_eq!(r.line, i + 1);
            assert_eq!(r.puzzle, b"1....");
            let givens = if i.is_multiple_of(4) {
                String::new()
            } else {
                i.to_string()
            };
            let note = if i.is_multiple_of(5) {
                String::new()
            } else {
                format!("n{}", i % 3)
            };
            let line = (i + 1).to_string();
            assert_eq!(
                r.kept,
                [givens.as_bytes(), note.as_bytes(), line.as_bytes()],
                "row {i}"
            );
        }
    }

    /// A grid column's value for row `i`: nulls, empty values and values of any length, some
    /// not ASCII.
    fn grid_value(i: usize) -> Option<String> {
        match i % 13 {
            0 => None,
            1 => Some(String::new()),
            2 => Some(format!("é{}", "9".repeat(i % 300))),
            _ => Some(format!("{i:0>81}")),
        }
    }

    #[test]
    fn grid_columns_read_back_with_nulls_across_pages_and_in_single_runs() {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        use parquet::record::Field;
        // The puzzles mix nulls and values on more pages than one; the solutions are null in
        // the first half of the rows and present in the second: all null in the first row
        // group, all present in the last, mixed in the one that holds the middle.
        let kinds = [ColumnKind::Count, ColumnKind::Text, ColumnKind::Text];
        let names = ["line", "puzzle", "solution"].map(String::from);
        let n = writer::ROW_GROUP_ROWS + 20_000;
        let mut out = Vec::new();
        let mut file =
            ParquetWriter::new(&mut out, &names, &kinds, &[], ParquetCompression::Zstd).unwrap();
        let mut rows = ColumnBatch::new(&kinds);
        for i in 0..n {
            let puzzle = grid_value(i);
            rows.push_row([
                Cell::Int(i as u64),
                puzzle.as_deref().map_or(Cell::Null, Cell::Text),
                if i < n / 2 {
                    Cell::Null
                } else {
                    Cell::Plain(b"123456789")
                },
            ]);
            if rows.rows() == 1000 {
                file.write(std::mem::replace(&mut rows, ColumnBatch::new(&kinds)))
                    .unwrap();
            }
        }
        file.write(rows).unwrap();
        file.finish().unwrap();

        let reader = SerializedFileReader::new(bytes::Bytes::from(out)).unwrap();
        let groups = reader.metadata().row_groups();
        assert!(groups.len() >= 3, "{} row groups", groups.len());
        let puzzle_pages = reader
            .get_row_group(0)
            .unwrap()
            .get_column_page_reader(1)
            .unwrap()
            .count();
        assert!(puzzle_pages > 1, "{puzzle_pages} pages");
        let mut read = 0;
        for (i, row) in reader.get_row_iter(None).unwrap().enumerate() {
            let row = row.unwrap();
            let fields: Vec<&Field> = row.get_column_iter().map(|(_, f)| f).collect();
            assert_eq!(fields[0], &Field::ULong(i as u64), "row {i}");
            let puzzle = grid_value(i).map_or(Field::Null, Field::Str);
            assert_eq!(fields[1], &puzzle, "row {i}");
            let solution = if i < n / 2 {
                Field::Null
            } else {
                Field::Str("123456789".to_string())
            };
            assert_eq!(fields[2], &solution, "row {i}");
            read += 1;
        }
        assert_eq!(read, n);
    }

    #[test]
    fn an_empty_file_has_a_schema_and_no_rows() {
        let bytes = written(0, 10);
        assert!(bytes.starts_with(MAGIC) && bytes.ends_with(MAGIC));
        assert!(read_back(&bytes, &["note"]).is_empty());
    }

    #[test]
    fn a_missing_column_lists_the_columns_and_a_broken_file_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.parquet");
        std::fs::write(&path, written(3, 10)).unwrap();
        let options = ReadOptions {
            wanted: Wanted::PuzzleAndSolution,
            ..ReadOptions::default()
        };
        let err = ParquetReader::open(&path, &options).err().unwrap();
        assert_eq!(
            err.to_string(),
            "no solution column (looked for solution, solutions, answer; the header has line, puzzle, givens, note)"
        );
        let bytes = written(3, 10);
        std::fs::write(&path, &bytes[..bytes.len() - 20]).unwrap();
        let err = ParquetReader::open(&path, &ReadOptions::default())
            .err()
            .unwrap();
        assert!(
            err.to_string().starts_with("not a readable Parquet file"),
            "{err}"
        );
    }
}
