//! JSON lines: one JSON object per row, keys in column order.
//!
//! Counts are numbers, missing values `null`, bytes from the input strings (invalid UTF-8
//! replaced by U+FFFD).

use super::Cell;

/// The key of each column as it opens a member, `"name":`, encoded once for every row.
pub(crate) fn keys(columns: &[String]) -> Vec<Vec<u8>> {
    columns
        .iter()
        .map(|name| {
            let mut key = Vec::new();
            write_string(name, &mut key);
            key.push(b':');
            key
        })
        .collect()
}

/// Appends one row as a JSON object and a newline; `keys` from [`keys`].
pub(crate) fn write_row<'a>(
    keys: &[Vec<u8>],
    cells: impl IntoIterator<Item = Cell<'a>>,
    out: &mut Vec<u8>,
) {
    out.push(b'{');
    for (i, (key, cell)) in keys.iter().zip(cells).enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(key);
        match cell {
            Cell::Text(s) => write_string(s, out),
            Cell::Plain(b) => {
                debug_assert!(
                    b.iter()
                        .all(|&c| c.is_ascii_alphanumeric() || c == b'.' || c == b'_')
                );
                out.push(b'"');
                out.extend_from_slice(b);
                out.push(b'"');
            }
            Cell::Bytes(b) => write_string(&String::from_utf8_lossy(b), out),
            Cell::Int(n) => out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes()),
            Cell::Null => out.extend_from_slice(b"null"),
        }
    }
    out.extend_from_slice(b"}\n");
}

fn write_string(s: &str, out: &mut Vec<u8>) {
    // Writing into a Vec cannot fail, and a str always serialises.
    serde_json::to_writer(&mut *out, s).expect("a string serialises into a Vec");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_parse_back_as_json_with_keys_in_order() {
        let columns: Vec<String> = ["line", "note", "n", "gone"].map(String::from).to_vec();
        let mut out = Vec::new();
        write_row(
            &keys(&columns),
            [
                Cell::Int(3),
                Cell::Bytes(b"a\"b\n\xff"),
                Cell::Plain(b"x.1"),
                Cell::Null,
            ],
            &mut out,
        );
        let text = String::from_utf8(out).unwrap();
        assert!(text.ends_with("}\n"));
        assert!(text.starts_with("{\"line\":3,\"note\":"));
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["note"], "a\"b\n\u{fffd}");
        assert_eq!(value["n"], "x.1");
        assert!(value["gone"].is_null());
    }
}
