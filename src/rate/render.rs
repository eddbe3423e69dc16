//! The grid of candidates as text, for `show --explain`: each cell shows its digit when
//! filled, else its candidates; columns padded to their widest cell; on the standard layout,
//! `|` and `-` lines between boxes.
//!
//! ```text
//! 5    3    12   | 26   7    248  | 1489 149  248
//! ...
//! ---------------+----------------+---------------
//! ```

use super::board::Board;
use super::houses::Houses;

/// The board's candidates grid, one line per row, each line ending in `\n`.
pub fn candidates_grid(board: &Board, houses: &Houses) -> String {
    let text: Vec<String> = (0..81)
        .map(|i| {
            if board.value(i) != 0 {
                board.value(i).to_string()
            } else {
                (1..=9u8)
                    .filter(|&d| board.has(i, d as usize - 1))
                    .map(|d| char::from(b'0' + d))
                    .collect()
            }
        })
        .collect();
    let width: Vec<usize> = (0..9)
        .map(|c| (0..9).map(|r| text[r * 9 + c].len()).max().unwrap_or(1))
        .collect();
    let lines: Vec<String> = (0..9)
        .map(|r| {
            let mut line = String::new();
            for c in 0..9 {
                if c > 0 {
                    line.push(' ');
                    if houses.standard() && (c == 3 || c == 6) {
                        line.push_str("| ");
                    }
                }
                let t = &text[r * 9 + c];
                line.push_str(t);
                line.push_str(&" ".repeat(width[c] - t.len()));
            }
            line
        })
        .collect();
    // The line between bands: `+` under each `|`, `-` elsewhere.
    let rule: String = lines[0]
        .chars()
        .map(|ch| if ch == '|' { '+' } else { '-' })
        .collect();
    let mut out = String::new();
    for (r, line) in lines.iter().enumerate() {
        if houses.standard() && (r == 3 || r == 6) {
            out.push_str(&rule);
            out.push('\n');
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate::test_support::TestBoard;

    #[test]
    fn shows_digits_and_candidates_with_box_lines() {
        let b = TestBoard::from_puzzle(crate::test_data::PUZZLE);
        let grid = candidates_grid(&b.board, &b.houses);
        let lines: Vec<&str> = grid.lines().collect();
        assert_eq!(lines.len(), 11);
        assert!(lines[0].starts_with("5 "), "{grid}");
        assert!(
            lines[3].contains('+') && lines[3].starts_with('-'),
            "{grid}"
        );
        // r1c3: the digits 1, 2 and 4 are left.
        assert!(lines[0].split_whitespace().nth(2) == Some("124"), "{grid}");
    }
}
