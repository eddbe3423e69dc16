//! One step of a human solution: the technique, the cells and digits of its pattern, and what
//! it places or removes, written in a player's words.

use std::fmt;

use super::technique::Technique;
use crate::grid::cell_name;

/// A candidate: a digit `1..=9` in a cell `0..81`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Candidate {
    /// The cell, in reading order.
    pub cell: u8,
    /// The digit, `1..=9`.
    pub digit: u8,
}

impl Candidate {
    /// Digit `digit` (`1..=9`) in cell `cell`.
    #[inline]
    pub fn new(cell: usize, digit: u8) -> Candidate {
        debug_assert!(cell < 81 && (1..=9).contains(&digit));
        Candidate {
            cell: cell as u8,
            digit,
        }
    }
}

impl fmt::Display for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} in {}", self.digit, cell_name(self.cell as usize))
    }
}

/// One deduction: a technique applied to a pattern, with its placements and eliminations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// The cells of the pattern, in the order the technique names them (the chain's order for
    /// chains). Empty for singles, whose placement says it all.
    pub cells: Vec<u8>,
    /// The digits of the pattern, bit `d - 1` for digit `d`.
    pub digits: u16,
    /// Digits placed.
    pub placements: Vec<Candidate>,
    /// Candidates removed.
    pub eliminations: Vec<Candidate>,
}

impl Step {
    /// A step with no pattern, placements or eliminations yet.
    pub fn new(technique: Technique) -> Step {
        Step {
            technique,
            cells: Vec::new(),
            digits: 0,
            placements: Vec::new(),
            eliminations: Vec::new(),
        }
    }

    /// A step placing `digit` in `cell` and nothing else.
    pub fn placing(technique: Technique, cell: usize, digit: u8) -> Step {
        let mut step = Step::new(technique);
        step.placements.push(Candidate::new(cell, digit));
        step
    }

    /// A step of `technique` on the pattern `cells` (in that order) and `digits` (bit `d - 1`
    /// for digit `d`), with no placements or eliminations yet.
    pub(crate) fn pattern(
        technique: Technique,
        cells: impl IntoIterator<Item = usize>,
        digits: u16,
    ) -> Step {
        let mut step = Step::new(technique);
        step.cells = cells.into_iter().map(|c| c as u8).collect();
        step.digits = digits;
        step
    }

    /// Adds the elimination of digit index `d` (`0..9`, digit `d + 1`) from each of `cells`.
    pub(crate) fn remove(&mut self, d: usize, cells: impl IntoIterator<Item = usize>) {
        self.eliminations
            .extend(cells.into_iter().map(|c| Candidate::new(c, d as u8 + 1)));
    }

    /// The digits of the pattern, smallest first.
    pub fn pattern_digits(&self) -> impl Iterator<Item = u8> + '_ {
        (1..=9u8).filter(|d| self.digits & (1 << (d - 1)) != 0)
    }
}

/// Writes `removes 4 from r3c2, r3c9; 7 from r3c4`: eliminations grouped by digit, digits in
/// increasing order, cells in reading order.
fn write_eliminations(f: &mut fmt::Formatter<'_>, eliminations: &[Candidate]) -> fmt::Result {
    let mut sorted = eliminations.to_vec();
    sorted.sort_by_key(|c| (c.digit, c.cell));
    sorted.dedup();
    f.write_str("removes ")?;
    let mut previous: Option<u8> = None;
    for c in &sorted {
        match previous {
            Some(d) if d == c.digit => write!(f, ", {}", cell_name(c.cell as usize))?,
            Some(_) => write!(f, "; {} from {}", c.digit, cell_name(c.cell as usize))?,
            None => write!(f, "{} from {}", c.digit, cell_name(c.cell as usize))?,
        }
        previous = Some(c.digit);
    }
    Ok(())
}

impl fmt::Display for Step {
    /// `Naked Pair r3c1/r3c5 {4,7}: removes 4 from r3c2, r3c9`;
    /// `Hidden Single: places 7 in r1c5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.technique.name())?;
        for (k, &c) in self.cells.iter().enumerate() {
            f.write_str(if k == 0 { " " } else { "/" })?;
            f.write_str(&cell_name(c as usize))?;
        }
        if self.digits != 0 {
            f.write_str(" {")?;
            for (k, d) in self.pattern_digits().enumerate() {
                if k > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{d}")?;
            }
            f.write_str("}")?;
        }
        f.write_str(":")?;
        for (k, p) in self.placements.iter().enumerate() {
            if k == 0 {
                f.write_str(" places ")?;
            } else {
                f.write_str(", ")?;
            }
            write!(f, "{} in {}", p.digit, cell_name(p.cell as usize))?;
        }
        if !self.eliminations.is_empty() {
            f.write_str(if self.placements.is_empty() {
                " "
            } else {
                "; "
            })?;
            write_eliminations(f, &self.eliminations)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_in_a_players_words() {
        let mut step = Step::new(Technique::NakedPair);
        step.cells = vec![18, 22];
        step.digits = (1 << 3) | (1 << 6);
        step.eliminations = vec![
            Candidate::new(26, 4),
            Candidate::new(19, 4),
            Candidate::new(21, 7),
        ];
        assert_eq!(
            step.to_string(),
            "Naked Pair r3c1/r3c5 {4,7}: removes 4 from r3c2, r3c9; 7 from r3c4"
        );
        let single = Step::placing(Technique::HiddenSingle, 4, 7);
        assert_eq!(single.to_string(), "Hidden Single: places 7 in r1c5");
    }
}
