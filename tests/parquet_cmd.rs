//! Parquet output and input: the same rows as CSV with real types, read back by the tool itself
//! (`verify`, `stats`), Parquet input equal to CSV input, and the failures that must name the
//! file and leave an existing output alone.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::Path;

use parquet::basic::{IntType, LogicalType, Type as PhysicalType};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;
use sudoku_bulk::format::parquet::ParquetReader;
use sudoku_bulk::format::{Columns, ReadOptions, RecordReader, Wanted};

use crate::workdir::{Workdir, csv_rows, peak_rss_kib};

/// The shipped mixed input: every status of `solve` (with `--max-recursions 100`), kept text
/// with commas, quotes, line breaks and non-ASCII letters, jigsaw and standard region layouts.
const MIXED: &str = include_str!("data/mixed.csv");

/// The options of the mixed runs: a budget that makes the hard puzzle `gave_up` only.
const BUDGET: &[&str] = &["--max-recursions", "100", "--keep-columns", "note,id"];

/// The count columns of `solve` besides `line`: `solutions` and the search counters.
fn counters() -> Vec<&'static str> {
    std::iter::once("solutions")
        .chain(sudoku_bulk::stats::Counter::ALL.iter().map(|c| c.name()))
        .collect()
}

/// Every row of a Parquet file, each column as the text the reader gives (null: empty).
fn parquet_rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let names = parquet_schema(path)
        .into_iter()
        .map(|(name, _, _)| name)
        .collect::<Vec<_>>();
    let options = ReadOptions {
        wanted: Wanted::Columns,
        columns: Columns {
            keep: names.clone(),
            ..Columns::default()
        },
        ..ReadOptions::default()
    };
    let mut reader = ParquetReader::open(path, &options).unwrap();
    let mut rows = Vec::new();
    while let Some(record) = reader.next_record().unwrap() {
        rows.push(
            names
                .iter()
                .cloned()
                .zip(
                    record
                        .kept
                        .iter()
                        .map(|v| String::from_utf8(v.clone()).unwrap()),
                )
                .collect(),
        );
    }
    rows
}

/// The columns of a Parquet file: name, physical type, logical type.
fn parquet_schema(path: &Path) -> Vec<(String, PhysicalType, Option<LogicalType>)> {
    let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    let schema = reader.metadata().file_metadata().schema_descr_ptr();
    schema
        .columns()
        .iter()
        .map(|c| {
            (
                c.name().to_string(),
                c.physical_type(),
                c.logical_type_ref().cloned(),
            )
        })
        .collect()
}

/// The nulls of each column of a Parquet file that has statistics, from its row groups'
/// statistics (the grids have none).
fn null_counts(path: &Path) -> BTreeMap<String, u64> {
    let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    let mut nulls = BTreeMap::new();
    for group in reader.metadata().row_groups() {
        for column in group.columns() {
            if let Some(count) = column.statistics().and_then(|s| s.null_count_opt()) {
                *nulls
                    .entry(column.column_descr().name().to_string())
                    .or_default() += count;
            }
        }
    }
    nulls
}

/// The nulls of one column of a Parquet file, counted row by row.
fn nulls_read(path: &Path, name: &str) -> u64 {
    let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    reader
        .get_row_iter(None)
        .unwrap()
        .filter(|row| {
            row.as_ref()
                .unwrap()
                .get_column_iter()
                .any(|(column, field)| column == name && *field == Field::Null)
        })
        .count() as u64
}

/// The key-value metadata of a Parquet file.
fn key_values(path: &Path) -> BTreeMap<String, String> {
    let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    reader
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .into_iter()
        .flatten()
        .map(|kv| (kv.key.clone(), kv.value.clone().unwrap_or_default()))
        .collect()
}

fn ok(dir: &Workdir, args: &[&str]) -> String {
    let run = dir.run(args);
    assert!(matches!(run.code, Some(0 | 1)), "{args:?}: {}", run.stderr);
    run.stdout
}

#[test]
fn the_mixed_file_as_parquet_holds_the_csv_rows_with_their_types() {
    let dir = Workdir::new();
    dir.write("mixed.csv", MIXED);
    for (algorithm, statuses) in [
        (
            "fast",
            &["solved", "multiple", "unsolvable", "invalid", "gave_up"][..],
        ),
        ("logic", &["solved", "stuck", "invalid"][..]),
    ] {
        let args = |out: &str| -> Vec<String> {
            [
                "solve",
                "-q",
                "mixed.csv",
                "--algorithm",
                algorithm,
                "-o",
                out,
            ]
            .iter()
            .chain(BUDGET)
            .map(|a| a.to_string())
            .collect()
        };
        let run = |out: &str| {
            let args = args(out);
            ok(&dir, &args.iter().map(String::as_str).collect::<Vec<_>>())
        };
        // `-o NAME.parquet` chooses Parquet without --output-format.
        run("out.csv");
        run("out.parquet");
        let csv = csv_rows(&dir.read("out.csv"));
        let parquet = parquet_rows(&dir.path("out.parquet"));
        assert_eq!(parquet, csv, "{algorithm}");
        for status in statuses {
            assert!(
                csv.iter().any(|r| r["status"] == *status),
                "{algorithm}: no {status} row"
            );
        }
        assert!(csv.iter().any(|r| r["regions"].contains('a')), "jigsaw");

        // The types: counts unsigned 64-bit integers, the rest UTF-8 text.
        for (name, physical, logical) in parquet_schema(&dir.path("out.parquet")) {
            let count = name == "line" || counters().contains(&name.as_str());
            let expected = if count {
                (
                    PhysicalType::INT64,
                    Some(LogicalType::Integer(IntType {
                        bit_width: 64,
                        is_signed: false,
                    })),
                )
            } else {
                (PhysicalType::BYTE_ARRAY, Some(LogicalType::String))
            };
            assert_eq!((physical, logical), expected, "{name}");
        }
        // Counters are null exactly in the invalid rows, the grids where CSV has nothing.
        let nulls = null_counts(&dir.path("out.parquet"));
        let invalid = csv.iter().filter(|r| r["status"] == "invalid").count() as u64;
        for counter in &counters()[1..] {
            assert_eq!(nulls[*counter], invalid, "{counter}");
        }
        let empty = |c: &str| csv.iter().filter(|r| r[c].is_empty()).count() as u64;
        let out = dir.path("out.parquet");
        assert_eq!(nulls_read(&out, "solution"), empty("solution"));
        assert_eq!(nulls_read(&out, "puzzle"), empty("puzzle"));
        assert_eq!(nulls["line"], 0);

        // The tool reads its Parquet back: the same statistics, the same verdicts.
        let stats = |file: &str| ok(&dir, &["stats", file, "--json", "--by", "note"]);
        assert_eq!(stats("out.parquet"), stats("out.csv"), "{algorithm}");
        let verify = |file: &str| csv_rows(&ok(&dir, &["verify", "-q", file]));
        let (by_csv, by_parquet) = (verify("out.csv"), verify("out.parquet"));
        assert_eq!(by_csv.len(), csv.len());
        for (a, b) in by_csv.iter().zip(&by_parquet) {
            // A CSV's rows start at line 2 (after its header), a Parquet file's at row 1.
            let line: u64 = b["line"].parse().unwrap();
            assert_eq!(a["line"], (line + 1).to_string());
            assert_eq!((&a["status"], &a["error"]), (&b["status"], &b["error"]));
        }
        assert!(by_parquet.iter().any(|r| r["status"] == "ok"));
    }
}

#[test]
fn the_run_options_and_the_version_are_in_the_file_metadata() {
    let dir = Workdir::new();
    dir.write("mixed.csv", MIXED);
    ok(
        &dir,
        &[
            "solve",
            "mixed.csv",
            "--output-format",
            "parquet",
            "--seed",
            "7",
            "-o",
            "out.pq",
        ],
    );
    let metadata = key_values(&dir.path("out.pq"));
    assert_eq!(
        metadata["sudoku-bulk.version"],
        env!("CARGO_PKG_VERSION"),
        "{metadata:?}"
    );
    let options: serde_json::Value =
        serde_json::from_str(&metadata["sudoku-bulk.options"]).unwrap();
    assert_eq!(options["seed"], 7);
    assert_eq!(options["output_format"], "parquet");
    assert_eq!(options["command"], "solve");
}

#[test]
fn parquet_input_gives_the_rows_of_the_same_csv_input() {
    let dir = Workdir::new();
    dir.write("mixed.csv", MIXED);
    // A Parquet copy of the input, made by the tool: the solve output keeps id, puzzle (as the
    // tool read it), regions and note.
    ok(
        &dir,
        &[
            "solve",
            "mixed.csv",
            "--keep-columns",
            "id,note",
            "-o",
            "input.parquet",
        ],
    );
    ok(
        &dir,
        &[
            "solve",
            "mixed.csv",
            "--keep-columns",
            "id,note",
            "-o",
            "input.csv",
        ],
    );
    for job in [&["solve", "--max-recursions", "100"][..], &["verify"][..]] {
        let run = |input: &str| {
            let mut args = job.to_vec();
            args.extend(["-q", input, "--keep-columns", "id,note"]);
            csv_rows(&ok(&dir, &args))
        };
        let (from_csv, from_parquet) = (run("input.csv"), run("input.parquet"));
        assert_eq!(from_csv.len(), 9);
        assert_eq!(from_parquet.len(), from_csv.len());
        for (a, b) in from_csv.iter().zip(&from_parquet) {
            let mut a = a.clone();
            let mut b = b.clone();
            let (line_a, line_b) = (a.remove("line").unwrap(), b.remove("line").unwrap());
            assert_eq!(
                line_a.parse::<u64>().unwrap(),
                line_b.parse::<u64>().unwrap() + 1
            );
            assert_eq!(a, b, "{job:?}");
        }
    }
}

#[test]
fn parquet_input_of_other_types_reads_as_text() {
    use parquet::data_type::{BoolType, ByteArrayType, DoubleType, Int32Type};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;

    let dir = Workdir::new();
    let schema = parse_message_type(
        "message m { required int32 id; required binary quizzes (UTF8); optional double score; \
         optional boolean hard; required int32 small (INTEGER(8,false)); }",
    )
    .unwrap();
    let file = File::create(dir.path("in.parquet")).unwrap();
    let mut writer = SerializedFileWriter::new(
        file,
        Arc::new(schema),
        Arc::new(WriterProperties::builder().build()),
    )
    .unwrap();
    let puzzle = MIXED.lines().nth(1).unwrap().split(',').nth(1).unwrap();
    for group in 0..2 {
        let mut rows = writer.next_row_group().unwrap();
        let mut column = rows.next_column().unwrap().unwrap();
        column
            .typed::<Int32Type>()
            .write_batch(&[group * 2 + 1, -(group * 2 + 2)], None, None)
            .unwrap();
        column.close().unwrap();
        let mut column = rows.next_column().unwrap().unwrap();
        column
            .typed::<ByteArrayType>()
            .write_batch(&[puzzle.into(), "bad".into()], None, None)
            .unwrap();
        column.close().unwrap();
        let mut column = rows.next_column().unwrap().unwrap();
        column
            .typed::<DoubleType>()
            .write_batch(&[0.5], Some(&[1, 0]), None)
            .unwrap();
        column.close().unwrap();
        let mut column = rows.next_column().unwrap().unwrap();
        column
            .typed::<BoolType>()
            .write_batch(&[true, false], Some(&[1, 1]), None)
            .unwrap();
        column.close().unwrap();
        let mut column = rows.next_column().unwrap().unwrap();
        column
            .typed::<Int32Type>()
            .write_batch(&[200, 3], None, None)
            .unwrap();
        column.close().unwrap();
        rows.close().unwrap();
    }
    writer.close().unwrap();
    let rows = csv_rows(&ok(
        &dir,
        &[
            "solve",
            "-q",
            "in.parquet",
            "--keep-columns",
            "id,score,hard,small",
        ],
    ));
    let seen: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| {
            ["line", "status", "id", "score", "hard", "small"]
                .iter()
                .map(|c| r[*c].as_str())
                .collect()
        })
        .collect();
    assert_eq!(
        seen,
        [
            ["1", "solved", "1", "0.5", "true", "200"],
            ["2", "invalid", "-2", "", "false", "3"],
            ["3", "solved", "3", "0.5", "true", "200"],
            ["4", "invalid", "-4", "", "false", "3"],
        ]
    );
}

#[test]
fn a_decimal_column_is_refused_not_kept_as_its_raw_bytes() {
    use parquet::data_type::{ByteArrayType, FixedLenByteArrayType};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;

    let dir = Workdir::new();
    let schema = parse_message_type(
        "message m { required binary quizzes (UTF8); \
         required fixed_len_byte_array(4) price (DECIMAL(9,2)); }",
    )
    .unwrap();
    let file = File::create(dir.path("in.parquet")).unwrap();
    let properties = Arc::new(WriterProperties::builder().build());
    let mut writer = SerializedFileWriter::new(file, Arc::new(schema), properties).unwrap();
    let mut rows = writer.next_row_group().unwrap();
    let puzzle = MIXED.lines().nth(1).unwrap().split(',').nth(1).unwrap();
    let mut column = rows.next_column().unwrap().unwrap();
    column
        .typed::<ByteArrayType>()
        .write_batch(&[puzzle.into()], None, None)
        .unwrap();
    column.close().unwrap();
    // 1.00: the unscaled 100, big-endian.
    let mut column = rows.next_column().unwrap().unwrap();
    column
        .typed::<FixedLenByteArrayType>()
        .write_batch(&[vec![0u8, 0, 0, 100].into()], None, None)
        .unwrap();
    column.close().unwrap();
    rows.close().unwrap();
    writer.close().unwrap();
    let run = dir.run(&["solve", "in.parquet", "--keep-columns", "price"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains(
            "in.parquet: column price is a decimal held as bytes, which is not read as text"
        ),
        "{}",
        run.stderr
    );
    // Not asked for, it is not read.
    ok(&dir, &["solve", "in.parquet"]);
}

/// Writes a Parquet file of one row whose string columns are `columns` (name, value).
fn write_text_columns(path: &Path, columns: &[(&str, &str)]) {
    use parquet::data_type::ByteArrayType;
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;

    let fields: String = columns
        .iter()
        .map(|(name, _)| format!("required binary {name} (UTF8); "))
        .collect();
    let schema = parse_message_type(&format!("message m {{ {fields}}}")).unwrap();
    let file = File::create(path).unwrap();
    let properties = Arc::new(WriterProperties::builder().build());
    let mut writer = SerializedFileWriter::new(file, Arc::new(schema), properties).unwrap();
    let mut rows = writer.next_row_group().unwrap();
    for (_, value) in columns {
        let mut column = rows.next_column().unwrap().unwrap();
        column
            .typed::<ByteArrayType>()
            .write_batch(&[(*value).into()], None, None)
            .unwrap();
        column.close().unwrap();
    }
    rows.close().unwrap();
    writer.close().unwrap();
}

#[test]
fn parquet_columns_are_matched_by_name_as_csv_columns_are() {
    let dir = Workdir::new();
    let puzzle = MIXED.lines().nth(1).unwrap().split(',').nth(1).unwrap();
    let exact = [
        ("ID", "upper"),
        ("id", "lower"),
        ("Puzzle", "bad"),
        ("puzzle", puzzle),
    ];
    write_text_columns(&dir.path("exact.parquet"), &exact);
    let rows = csv_rows(&ok(
        &dir,
        &["solve", "-q", "exact.parquet", "--keep-columns", "id"],
    ));
    assert_eq!(
        (rows[0]["status"].as_str(), rows[0]["id"].as_str()),
        ("solved", "lower")
    );
    write_text_columns(
        &dir.path("cases.parquet"),
        &[("ID", "upper"), ("Id", "title"), ("puzzle", puzzle)],
    );
    let run = dir.run(&["solve", "-q", "cases.parquet", "--keep-columns", "id"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "sudoku-bulk: error: cases.parquet: ambiguous kept column: no column is named id \
             exactly, and several differ from it only in case: ID (column 1) and Id (column 2)"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");
    // A column found without being asked for (`regions`) is ambiguous alike, not ignored.
    write_text_columns(
        &dir.path("regions.parquet"),
        &[("Regions", "a"), ("REGIONS", "b"), ("puzzle", puzzle)],
    );
    let run = dir.run(&["solve", "-q", "regions.parquet"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("sudoku-bulk: error: regions.parquet: ambiguous regions column"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_empty_input_gives_a_valid_empty_parquet_file() {
    let dir = Workdir::new();
    dir.write("empty.txt", "");
    ok(&dir, &["solve", "-q", "empty.txt", "-o", "out.parquet"]);
    let bytes = std::fs::read(dir.path("out.parquet")).unwrap();
    assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
    assert_eq!(parquet_schema(&dir.path("out.parquet")).len(), 13);
    assert!(parquet_rows(&dir.path("out.parquet")).is_empty());
    let stats = ok(&dir, &["stats", "out.parquet", "--json"]);
    assert!(stats.contains("\"records\": 0"), "{stats}");
}

#[test]
fn a_broken_or_misnamed_parquet_input_is_an_error_naming_the_file() {
    let dir = Workdir::new();
    dir.write("mixed.csv", MIXED);
    ok(&dir, &["solve", "mixed.csv", "-o", "good.parquet"]);
    let good = std::fs::read(dir.path("good.parquet")).unwrap();
    dir.write("cut.parquet", &good[..good.len() / 2]);
    dir.write(
        "text.parquet",
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n",
    );
    for (file, says) in [
        ("cut.parquet", "cut.parquet: not a readable Parquet file: "),
        (
            "text.parquet",
            "text.parquet: not a readable Parquet file: it does not start with PAR1",
        ),
    ] {
        for command in ["solve", "verify", "stats"] {
            let run = dir.run(&[command, file]);
            assert_eq!(run.code, Some(2), "{command} {file}: {}", run.stderr);
            assert!(
                run.stderr.contains(says),
                "{command} {file}: {}",
                run.stderr
            );
            assert!(run.stdout.is_empty() || command != "stats");
        }
    }
    // Standard input cannot be sought: Parquet there is refused, saying why.
    let run = dir.run_with_stdin(&["solve", "-"], good.clone());
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("it is a Parquet file, which is read only from a file"),
        "{}",
        run.stderr
    );
    let run = dir.run_with_stdin(&["stats", "-"], good);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("give its path"), "{}", run.stderr);
}

#[test]
fn a_corrupt_parquet_file_is_an_error_naming_it_never_a_crash() {
    // Files with a byte changed (found by flipping bytes of good files) on which the `parquet`
    // crate panics: a page said to be dictionary-encoded without its dictionary, levels cut
    // short, and a results file whose delta-encoded counters run past their page.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/parquet");
    let dir = Workdir::new();
    for (file, commands) in [
        (
            "corrupt-dictionary.parquet",
            &["solve", "rate", "canon"][..],
        ),
        ("corrupt-levels.parquet", &["solve"][..]),
        ("corrupt-results.parquet", &["stats"][..]),
    ] {
        let path = data.join(file);
        for command in commands {
            let run = dir.run(&[command, path.to_str().unwrap()]);
            assert_eq!(run.code, Some(2), "{command} {file}: {}", run.stderr);
            assert!(
                run.stderr.contains(file),
                "{command} {file}: {}",
                run.stderr
            );
            assert!(
                run.stderr.contains("the Parquet library failed"),
                "{}",
                run.stderr
            );
            assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
        }
    }
    // A footer said to be 2 GiB is refused before it is read, not decoded into memory: the
    // file is not that long.
    dir.write("mixed.csv", MIXED);
    ok(&dir, &["solve", "mixed.csv", "-o", "good.parquet"]);
    let mut big = std::fs::read(dir.path("good.parquet")).unwrap();
    let at = big.len() - 8;
    big[at..at + 4].copy_from_slice(&(2u32 << 30).to_le_bytes());
    dir.write("big-footer.parquet", &big);
    let run = dir.run(&["solve", "big-footer.parquet"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains(
            "big-footer.parquet: not a readable Parquet file: its footer (the \
             file's index) says it is 2147483648 bytes, but the file holds"
        ),
        "{}",
        run.stderr
    );
}

/// `file` as if its column chunks were compressed with `codec`: its footer written again, saying
/// so (the pages are left as they are: no reader gets past the footer's word).
fn claiming_codec(file: &[u8], codec: parquet::basic::Compression) -> Vec<u8> {
    use parquet::file::metadata::ParquetMetaDataWriter;
    let metadata = SerializedFileReader::new(bytes::Bytes::copy_from_slice(file))
        .unwrap()
        .metadata()
        .clone();
    let mut builder = metadata.into_builder();
    let groups = builder
        .take_row_groups()
        .into_iter()
        .map(|group| {
            let mut group = group.into_builder();
            let columns = group
                .take_columns()
                .into_iter()
                .map(|c| c.into_builder().set_compression(codec).build().unwrap())
                .collect();
            group.set_column_metadata(columns).build().unwrap()
        })
        .collect();
    let metadata = builder.set_row_groups(groups).build();
    let footer = u32::from_le_bytes(file[file.len() - 8..file.len() - 4].try_into().unwrap());
    let mut out = file[..file.len() - 8 - footer as usize].to_vec();
    ParquetMetaDataWriter::new(&mut out, &metadata)
        .finish()
        .unwrap();
    out
}

#[test]
fn a_parquet_input_in_a_codec_not_built_in_is_refused_naming_the_file_and_what_to_do() {
    use parquet::basic::Compression;
    let dir = Workdir::new();
    dir.write("mixed.csv", MIXED);
    ok(&dir, &["solve", "mixed.csv", "-o", "good.parquet"]);
    let good = std::fs::read(dir.path("good.parquet")).unwrap();
    // LZO, which no current writer offers, is the one codec not built in.
    dir.write("lzo.parquet", claiming_codec(&good, Compression::LZO));
    for command in ["solve", "verify", "stats"] {
        let run = dir.run(&[command, "lzo.parquet"]);
        assert_eq!(run.code, Some(2), "{command}: {}", run.stderr);
        let says = "sudoku-bulk: error: lzo.parquet: column puzzle is compressed with lzo, which \
                    this build does not read (it reads uncompressed, Snappy, gzip, LZ4, zstd and \
                    Brotli Parquet): write the file again with another codec, e.g. \
                    pyarrow.parquet.write_table(table, path, compression='zstd')\n";
        // `stats` reads other columns first: only the column's name differs.
        let says = if command == "stats" {
            says.split_once("column puzzle").unwrap().1
        } else {
            says
        };
        assert!(run.stderr.ends_with(says), "{command}: {}", run.stderr);
    }
}

/// A Parquet file of one required text column `puzzle` holding `puzzles`, in one row group,
/// its pages compressed with `codec`, without a dictionary (so that its one page holds the
/// values).
fn puzzle_file(puzzles: &[&str], codec: parquet::basic::Compression) -> Vec<u8> {
    use parquet::data_type::{ByteArray, ByteArrayType};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;
    let schema = parse_message_type("message m { required binary puzzle (UTF8); }").unwrap();
    let props = WriterProperties::builder()
        .set_compression(codec)
        .set_dictionary_enabled(false)
        .set_statistics_enabled(parquet::file::properties::EnabledStatistics::None)
        .build();
    let mut out = Vec::new();
    let mut writer =
        SerializedFileWriter::new(&mut out, Arc::new(schema), Arc::new(props)).unwrap();
    let mut rows = writer.next_row_group().unwrap();
    let mut column = rows.next_column().unwrap().unwrap();
    let values: Vec<ByteArray> = puzzles.iter().map(|p| p.as_bytes().into()).collect();
    column
        .typed::<ByteArrayType>()
        .write_batch(&values, None, None)
        .unwrap();
    column.close().unwrap();
    rows.close().unwrap();
    writer.close().unwrap();
    out
}

/// The puzzles of the shipped mixed input.
fn mixed_puzzles() -> Vec<&'static str> {
    MIXED
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').nth(1))
        .filter(|p| p.len() >= 80 && p.bytes().all(|b| b == b'.' || b.is_ascii_digit()))
        .collect()
}

#[test]
fn parquet_inputs_in_every_codec_the_tools_write_give_the_rows_of_the_csv_input() {
    use parquet::basic::{BrotliLevel, Compression, GzipLevel, ZstdLevel};
    let dir = Workdir::new();
    let puzzles = mixed_puzzles();
    assert!(puzzles.len() >= 5, "{puzzles:?}");
    dir.write("in.csv", format!("puzzle\n{}\n", puzzles.join("\n")));
    let rows = |input: &str| -> Vec<BTreeMap<String, String>> {
        let mut rows = csv_rows(&ok(
            &dir,
            &["solve", "-q", input, "--max-recursions", "100"],
        ));
        for row in &mut rows {
            row.remove("line");
        }
        rows
    };
    let from_csv = rows("in.csv");
    assert_eq!(from_csv.len(), puzzles.len());
    for (name, codec) in [
        ("none", Compression::UNCOMPRESSED),
        ("snappy", Compression::SNAPPY),
        ("gzip", Compression::GZIP(GzipLevel::default())),
        ("zstd", Compression::ZSTD(ZstdLevel::default())),
        ("lz4", Compression::LZ4),
        ("lz4_raw", Compression::LZ4_RAW),
        ("brotli", Compression::BROTLI(BrotliLevel::default())),
    ] {
        let file = format!("{name}.parquet");
        dir.write(&file, puzzle_file(&puzzles, codec));
        assert_eq!(rows(&file), from_csv, "{name}");
    }
    // Files that pyarrow wrote (tests/data/parquet/README.md says how): zstd and gzip pages,
    // dictionary-encoded as pyarrow does by default.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/parquet");
    for name in ["pyarrow-zstd.parquet", "pyarrow-gzip.parquet"] {
        let path = data.join(name);
        let rows = csv_rows(&ok(&dir, &["solve", "-q", path.to_str().unwrap()]));
        let solved: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (r["puzzle"].as_str(), r["status"].as_str()))
            .collect();
        assert_eq!(
            solved,
            [
                (
                    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
                    "solved"
                ),
                (
                    "55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
                    "invalid"
                ),
            ],
            "{name}"
        );
    }
}

/// `pages` (the bytes of `file` before its footer, or a changed copy) with the footer of `file`
/// written again, each row group's metadata changed by `edit`.
fn with_footer(
    file: &[u8],
    pages: &[u8],
    edit: impl Fn(
        parquet::file::metadata::RowGroupMetaDataBuilder,
    ) -> parquet::file::metadata::RowGroupMetaDataBuilder,
) -> Vec<u8> {
    use parquet::file::metadata::ParquetMetaDataWriter;
    let metadata = SerializedFileReader::new(bytes::Bytes::copy_from_slice(file))
        .unwrap()
        .metadata()
        .clone();
    let mut builder = metadata.into_builder();
    let groups = builder
        .take_row_groups()
        .into_iter()
        .map(|group| edit(group.into_builder()).build().unwrap())
        .collect();
    let metadata = builder.set_row_groups(groups).build();
    let mut out = pages.to_vec();
    ParquetMetaDataWriter::new(&mut out, &metadata)
        .finish()
        .unwrap();
    out
}

/// The bytes of `file` before its footer.
fn before_footer(file: &[u8]) -> &[u8] {
    let footer = u32::from_le_bytes(file[file.len() - 8..file.len() - 4].try_into().unwrap());
    &file[..file.len() - 8 - footer as usize]
}

#[test]
fn a_row_group_that_claims_more_rows_than_its_pages_hold_is_an_error_not_read_short() {
    // Three puzzles written; the row group's metadata says five (issue 33, case 2: it was read
    // as three rows, exit 0, no message).
    let dir = Workdir::new();
    let puzzles = &mixed_puzzles()[..3];
    let good = puzzle_file(puzzles, parquet::basic::Compression::SNAPPY);
    let lying = with_footer(&good, before_footer(&good), |group| group.set_num_rows(5));
    dir.write("lying.parquet", &lying);
    for command in ["solve", "rate", "canon"] {
        let run = dir.run(&[command, "lying.parquet"]);
        assert_eq!(run.code, Some(2), "{command}: {}", run.stderr);
        assert!(
            run.stderr.contains(
                "lying.parquet after row 3: row group 1 says it holds 5 rows, but its pages \
                 hold 3: the file is corrupt"
            ),
            "{command}: {}",
            run.stderr
        );
    }
    // The three rows read are written before the error.
    let run = dir.run(&["solve", "lying.parquet"]);
    assert_eq!(csv_rows(&run.stdout).len(), 3, "{}", run.stderr);
}

#[cfg(target_os = "linux")]
#[test]
fn a_small_parquet_file_whose_page_claims_2_gib_takes_less_memory_than_the_page_cap() {
    use sudoku_bulk::format::parquet::checked::{MAX_PAGE, page_sizes};
    // A Snappy page that says it decompresses to 2 GiB - 1 (issue 33, case 3: the crate took
    // the 2 GiB, 2.1 GB resident, before finding out): the header's second field rewritten,
    // the footer told of the longer header.
    let dir = Workdir::new();
    let good = puzzle_file(&mixed_puzzles()[..2], parquet::basic::Compression::SNAPPY);
    let at = SerializedFileReader::new(bytes::Bytes::copy_from_slice(&good))
        .unwrap()
        .metadata()
        .row_group(0)
        .column(0)
        .data_page_offset() as usize;
    let (header_len, _, _) = page_sizes(&good[at..]).unwrap();
    let header = &good[at..at + header_len];
    // type (0x15, a varint), then uncompressed size (0x15, a varint): replaced.
    let skip_varint =
        |from: usize| from + header[from..].iter().position(|b| b & 0x80 == 0).unwrap() + 1;
    let type_end = skip_varint(1);
    assert_eq!(header[type_end], 0x15);
    let size_end = skip_varint(type_end + 1);
    let mut forged = header[..type_end + 1].to_vec();
    forged.extend([0xfe, 0xff, 0xff, 0xff, 0x0f]); // zigzag(2^31 - 1)
    forged.extend(&header[size_end..]);
    let grown = forged.len() as i64 - header_len as i64;
    let mut pages = good[..at].to_vec();
    pages.extend(&forged);
    pages.extend(&before_footer(&good)[at + header_len..]);
    let forged_file = with_footer(&good, &pages, |mut group| {
        let mut columns = group.take_columns();
        let column = columns.remove(0);
        let size = column.compressed_size() + grown;
        let column = column
            .into_builder()
            .set_total_compressed_size(size)
            .build()
            .unwrap();
        group.set_column_metadata(vec![column])
    });
    assert!(forged_file.len() < 1024, "{} bytes", forged_file.len());
    dir.write("forged.parquet", &forged_file);
    for command in ["solve", "canon"] {
        let input = dir.path("forged.parquet");
        let child = crate::workdir::spawn_timed(&[command, input.to_str().unwrap()]);
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(
                "says it is 2147483647 bytes, more than the 256 MiB a page is read to: write the \
                 file with smaller pages"
            ),
            "{command}: {stderr}"
        );
        assert!(stderr.contains("Exit status: 2"), "{command}: {stderr}");
        let kib = peak_rss_kib(&stderr);
        assert!(kib < MAX_PAGE / 1024, "{command}: peak RSS {kib} KiB");
    }
}

#[test]
fn a_parquet_file_cut_inside_its_footer_is_said_to_be_cut_short() {
    // Issue 33, case 9: the last four bytes of a cut file were read as the footer's length
    // ("its footer says it is 1936876918 bytes, more than the 16 MiB read").
    let dir = Workdir::new();
    dir.write("mixed.csv", MIXED);
    ok(&dir, &["solve", "mixed.csv", "-o", "good.parquet"]);
    let good = std::fs::read(dir.path("good.parquet")).unwrap();
    let footer_start = before_footer(&good).len();
    for cut in [footer_start + 10, good.len() - 6, good.len() - 1] {
        dir.write("cut.parquet", &good[..cut]);
        for command in ["solve", "verify", "stats"] {
            let run = dir.run(&[command, "cut.parquet"]);
            assert_eq!(run.code, Some(2), "{command} {cut}: {}", run.stderr);
            assert!(
                run.stderr.contains(
                    "cut.parquet: not a readable Parquet file: it does not end with PAR1, as \
                     every whole Parquet file does: it is cut short"
                ),
                "{command} {cut}: {}",
                run.stderr
            );
        }
    }
    // A whole file whose footer length is larger than the file: cut short or corrupt.
    let mut lying = good.clone();
    let at = lying.len() - 8;
    lying[at..at + 4].copy_from_slice(&(good.len() as u32).to_le_bytes());
    dir.write("lying.parquet", &lying);
    let run = dir.run(&["solve", "lying.parquet"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains(&format!(
            "its footer (the file's index) says it is {} bytes, but the file holds {}: it is \
             cut short or corrupt",
            good.len(),
            good.len()
        )),
        "{}",
        run.stderr
    );
}

#[test]
fn a_parquet_read_error_counts_the_rows_read_before_it() {
    use parquet::data_type::ByteArrayType;
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;

    // Two row groups of five puzzles; the second one's page broken.
    let dir = Workdir::new();
    let schema = parse_message_type("message m { required binary puzzle (UTF8); }").unwrap();
    let mut writer = SerializedFileWriter::new(
        File::create(dir.path("in.parquet")).unwrap(),
        Arc::new(schema),
        Arc::new(WriterProperties::builder().build()),
    )
    .unwrap();
    let puzzle = MIXED.lines().nth(1).unwrap().split(',').nth(1).unwrap();
    for _ in 0..2 {
        let mut rows = writer.next_row_group().unwrap();
        let mut column = rows.next_column().unwrap().unwrap();
        column
            .typed::<ByteArrayType>()
            .write_batch(&vec![puzzle.into(); 5], None, None)
            .unwrap();
        column.close().unwrap();
        rows.close().unwrap();
    }
    writer.close().unwrap();
    let mut bytes = std::fs::read(dir.path("in.parquet")).unwrap();
    let second = SerializedFileReader::new(bytes::Bytes::copy_from_slice(&bytes))
        .unwrap()
        .metadata()
        .row_group(1)
        .column(0)
        .byte_range()
        .0 as usize;
    bytes[second..second + 8].fill(0xff);
    dir.write("in.parquet", bytes);
    let run = dir.run(&["solve", "in.parquet"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("sudoku-bulk: error: cannot read in.parquet after row 5: "),
        "{}",
        run.stderr
    );
}

#[test]
fn resume_and_shards_are_refused_with_parquet_before_any_work_and_summary_works() {
    let dir = Workdir::new();
    dir.write("mixed.csv", MIXED);
    let run = dir.run(&["solve", "mixed.csv", "-o", "out.parquet", "--resume"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("--resume cannot continue a Parquet output"),
        "{}",
        run.stderr
    );
    let run = dir.run(&["solve", "mixed.csv", "-o", "p.parquet", "--shard", "0/2"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("--shard cannot write Parquet"),
        "{}",
        run.stderr
    );
    assert_eq!(dir.entries(), ["mixed.csv"]);
    // A run to Parquet leaves no checkpoint behind, and its summary is the CSV run's.
    ok(
        &dir,
        &[
            "solve",
            "mixed.csv",
            "-o",
            "out.parquet",
            "--summary",
            "p.json",
        ],
    );
    ok(
        &dir,
        &["solve", "mixed.csv", "-o", "out.csv", "--summary", "c.json"],
    );
    // The same summary but for the output format among the run's options.
    let summary = |name: &str| {
        let mut json: serde_json::Value = serde_json::from_str(&dir.read(name)).unwrap();
        let options = json["run"]["options"].as_object_mut().unwrap();
        let format = options.remove("output_format").unwrap();
        (json, format)
    };
    let ((parquet, p_format), (csv, c_format)) = (summary("p.json"), summary("c.json"));
    assert_eq!(
        (p_format.as_str(), c_format.as_str()),
        (Some("parquet"), Some("csv"))
    );
    assert_eq!(parquet, csv);
    assert_eq!(
        dir.entries(),
        ["c.json", "mixed.csv", "out.csv", "out.parquet", "p.json"]
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_parquet_write_leaves_the_existing_output_untouched() {
    let dir = Workdir::new();
    let puzzles = crate::workdir::puzzles("puzzles2_17_clue.txt.gz", 20_000).join("\n");
    dir.write("many.txt", puzzles);
    dir.write("out.parquet", "the old output");
    // 64 KiB is far less than the rows' Parquet file: the write fails with EFBIG.
    let run = dir.run_with_file_limit(&["solve", "many.txt", "-o", "out.parquet"], 64 << 10);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot write out.parquet"),
        "{}",
        run.stderr
    );
    assert_eq!(dir.read("out.parquet"), "the old output");
    assert_eq!(dir.entries(), ["many.txt", "out.parquet"]);
}

/// A gigabyte through standard input to Parquet rows on `/dev/null`: the peak resident set
/// size stays far below 100 MB (row groups are bounded in rows and bytes).
#[cfg(target_os = "linux")]
#[test]
fn one_gigabyte_to_parquet_stays_far_below_100_mb() {
    use std::io::Write;
    let puzzle = MIXED.lines().nth(1).unwrap().split(',').nth(1).unwrap();
    // Ten thousand rows, then a line far too long: rows fill row groups while the bytes go fast.
    let mut block = format!("{puzzle}\n").repeat(10_000).into_bytes();
    block.extend(vec![b'1'; 10 << 20]);
    block.push(b'\n');
    let mut child = crate::workdir::spawn_timed(&[
        "solve",
        "-q",
        "--threads",
        "2",
        "--output-format",
        "parquet",
        "-o",
        "/dev/null",
        "-",
    ]);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let mut written = 0;
        while written < 1_000_000_000 {
            stdin.write_all(&block).unwrap();
            written += block.len();
        }
        written
    });
    let output = child.wait_with_output().unwrap();
    let written = writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let kib = peak_rss_kib(&stderr);
    eprintln!("peak RSS over {written} bytes of input to Parquet: {kib} KiB");
    assert!(kib < 64 * 1024, "peak RSS {kib} KiB");
}

/// Quiet events for a pipeline run.
struct Quiet;

impl sudoku_bulk::pipeline::Events for Quiet {
    fn progress(&mut self, _: u64, _: u64) {}
    fn flagged(&mut self, _: &str, _: u64, _: sudoku_bulk::row::RowStatus, _: &str) {}
}

#[test]
fn a_resumed_run_checks_a_parquet_input_whole_and_skips_its_rows() {
    use std::sync::atomic::AtomicBool;
    use sudoku_bulk::files::Input;
    use sudoku_bulk::pipeline::{self, Job, RunError, Settings};

    let dir = Workdir::new();
    dir.write("mixed.csv", MIXED);
    ok(&dir, &["solve", "mixed.csv", "-o", "in.parquet"]);
    let input = Input::file(dir.path("in.parquet"));
    let settings = Settings::new(Job::Solve(Default::default()), 2);
    let run = |settings: &Settings| {
        let mut out = Vec::new();
        pipeline::run(
            std::slice::from_ref(&input),
            settings,
            &mut out,
            "out",
            &mut Quiet,
            &AtomicBool::new(false),
        )
        .map(|_| String::from_utf8(out).unwrap())
    };
    let whole = run(&settings).unwrap();
    // What an interrupted run after four rows recorded: the whole file's digest.
    let resumed = Settings {
        skip_records: 4,
        consumed: vec![input.whole().unwrap()],
        ..settings.clone()
    };
    let rest = run(&resumed).unwrap();
    let head: String = whole.split_inclusive('\n').take(5).collect();
    assert_eq!(head + &rest, whole);
    // One byte changed anywhere in the file (here: in the footer) is a changed input.
    let mut bytes = std::fs::read(dir.path("in.parquet")).unwrap();
    let at = bytes.len() - 30;
    bytes[at] ^= 1;
    let changed = Input::file(dir.write("changed.parquet", &bytes));
    let mut recorded = changed.whole().unwrap();
    recorded.digest = resumed.consumed[0].digest;
    let err = pipeline::run(
        &[changed],
        &Settings {
            consumed: vec![recorded],
            ..resumed
        },
        &mut Vec::new(),
        "out",
        &mut Quiet,
        &AtomicBool::new(false),
    )
    .unwrap_err();
    assert!(matches!(err, RunError::InputChanged { .. }), "{err}");
}

#[test]
fn verify_writes_parquet_too() {
    let dir = Workdir::new();
    dir.write("mixed.csv", MIXED);
    ok(
        &dir,
        &[
            "solve",
            "mixed.csv",
            "--keep-columns",
            "id",
            "-o",
            "solved.csv",
        ],
    );
    for out in ["v.csv", "v.parquet"] {
        ok(
            &dir,
            &[
                "verify",
                "-q",
                "solved.csv",
                "--keep-columns",
                "id",
                "-o",
                out,
            ],
        );
    }
    let rows = csv_rows(&dir.read("v.csv"));
    assert!(rows.iter().any(|r| r["status"] == "ok"));
    assert!(rows.iter().any(|r| r["status"] == "invalid"));
    assert_eq!(parquet_rows(&dir.path("v.parquet")), rows);
    let schema = parquet_schema(&dir.path("v.parquet"));
    let names: Vec<&str> = schema.iter().map(|(n, _, _)| n.as_str()).collect();
    // The input is a solve output: its line comes along as original_line (text, as read).
    assert_eq!(
        names,
        ["line", "status", "error", "original_line", "id", "regions"]
    );
    assert_eq!(schema[0].1, PhysicalType::INT64);
    assert_eq!(schema[1].1, PhysicalType::BYTE_ARRAY);
}

#[test]
fn parquet_compression_none_snappy_or_zstd_gives_the_same_rows_in_that_codec() {
    use parquet::basic::Compression;
    let dir = Workdir::new();
    dir.write("mixed.csv", MIXED);
    let mut rows = Vec::new();
    for codec in ["none", "snappy", "zstd", "ZSTD"] {
        let out = format!("{codec}.parquet");
        let mut args = vec!["solve", "-q", "mixed.csv", "-o", &out];
        args.extend(BUDGET);
        args.extend(["--parquet-compression", codec]);
        ok(&dir, &args);
        let path = dir.path(&out);
        let reader = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
        let group = reader.metadata().row_group(0);
        let schema = group.schema_descr();
        for (i, column) in group.columns().iter().enumerate() {
            let name = schema.column(i).name().to_string();
            let expected = match (codec, name.as_str()) {
                ("none", _) | ("snappy", "solution") => Compression::UNCOMPRESSED,
                ("snappy", _) => Compression::SNAPPY,
                _ => Compression::ZSTD(Default::default()),
            };
            assert_eq!(column.compression(), expected, "{codec} {name}");
        }
        // The codec is recorded with the run's options when it is not the default.
        let options = &key_values(&path)["sudoku-bulk.options"];
        assert_eq!(
            options.contains("\"parquet_compression\":\"zstd\""),
            codec.eq_ignore_ascii_case("zstd"),
            "{options}"
        );
        // The tool reads each back: the same rows.
        rows.push(parquet_rows(&path));
        let verified = ok(&dir, &["verify", "-q", &out]);
        assert!(verified.contains(",ok,"), "{verified}");
    }
    assert!(rows.iter().all(|r| r == &rows[0] && r.len() == 9));
    // generate writes it too.
    ok(
        &dir,
        &[
            "generate",
            "--count",
            "5",
            "-q",
            "-o",
            "gen.parquet",
            "--parquet-compression",
            "zstd",
        ],
    );
    let reader = SerializedFileReader::new(File::open(dir.path("gen.parquet")).unwrap()).unwrap();
    let columns = reader.metadata().row_group(0).columns().to_vec();
    assert!(
        columns
            .iter()
            .all(|c| c.compression() == Compression::ZSTD(Default::default()))
    );
    // Other than the default, only for Parquet output.
    for args in [
        &["solve", "mixed.csv", "--parquet-compression", "zstd"][..],
        &["generate", "--count", "1", "--parquet-compression", "none"][..],
    ] {
        let run = dir.run(args);
        assert_eq!(run.code, Some(2), "{args:?}");
        assert!(
            run.stderr
                .contains("--parquet-compression applies to Parquet output only"),
            "{}",
            run.stderr
        );
    }
    let run = dir.run(&["solve", "mixed.csv", "--parquet-compression", "lz4"]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("invalid value 'lz4'"), "{}", run.stderr);
}

/// `canon --dedupe` writes Parquet too: the rows of its CSV output, the same for any thread
/// count (a second copy of the input is all duplicates but its records without a form).
#[test]
fn canon_dedupe_writes_parquet_with_the_rows_of_its_csv_output() {
    let dir = Workdir::new();
    dir.write("a.csv", MIXED);
    dir.write("b.csv", MIXED);
    let dedupe = |out: &str, threads: &str| {
        ok(
            &dir,
            &[
                "canon",
                "-q",
                "a.csv",
                "b.csv",
                "--dedupe",
                "--threads",
                threads,
                "-o",
                out,
            ],
        )
    };
    dedupe("d.csv", "2");
    let rows = csv_rows(&dir.read("d.csv"));
    // The second copy adds only the records without a form (always written).
    assert!(rows.iter().any(|r| r["file"] == "a.csv"), "{rows:?}");
    assert!(
        rows.iter()
            .all(|r| r["file"] == "a.csv" || r["status"] != "ok"),
        "{rows:?}"
    );
    for threads in ["1", "2"] {
        dedupe("d.parquet", threads);
        assert_eq!(parquet_rows(&dir.path("d.parquet")), rows, "{threads}");
    }
}
