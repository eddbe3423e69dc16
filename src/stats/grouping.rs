//! How `stats` groups the rows it reads: not at all, by the input each row comes from
//! (`--by input`), or by a column (`--by COLUMN`), one group per value or per range of its
//! values (`--bins`, [`super::bins`]).
//!
//! # Automatic bins
//! Without `--bins`, a column whose non-empty values are all numbers and take more than
//! [`AUTO_BINS_ABOVE`] distinct values is put in [`AUTO_BINS`] quantile bins, and
//! [`Summarised::note`] says so; a column with fewer values, or with any value that is not a
//! number, keeps one group per value. `--bins none` always keeps one group per value.
//!
//! # Exactness and memory
//! Bins are exact: a row's bin depends only on its value and the edges, and quantile edges
//! are computed from the count of every distinct number of the column. To find them, the
//! inputs are read once with one group per value (bins are then gathered from those groups,
//! exactly); when the column has more than [`HELD_GROUPS`] distinct numbers, those groups are
//! given up as they are read (only each number's count is kept, a few dozen bytes per distinct
//! number) and the inputs are read a second time, each row going straight to its bin. Standard
//! input cannot be read twice: that case is an error that says to give the edges.
//!
//! # What the rows were made from
//! A summary document says what its rows were made from (its `run` field). Result rows do not;
//! but the summary a run wrote beside them, `RESULTS.summary.json` (as `solve -o RESULTS
//! --summary RESULTS.summary.json` and every shard write it), is taken as theirs when it
//! describes exactly the rows read (the same counts, distributions and hardest records): its
//! `run` is then told with the input ([`InputRead::run`]), and nothing of it is counted.

use std::path::{Path, PathBuf};

use super::bins::{Bins, Chosen, Number, Numbers};
use super::document::{RunInfo, Saved};
use super::read::{self, Content, ReadError};
use super::{ResultRow, Summary};
use crate::files::Opened;

/// Distinct numbers above which a grouping column is put in bins without `--bins`.
pub const AUTO_BINS_ABOVE: usize = 30;

/// The number of quantile bins chosen automatically.
pub const AUTO_BINS: usize = 10;

/// Groups of single values held while reading a column that may need bins; beyond, the inputs
/// are read twice.
pub const HELD_GROUPS: usize = 1000;

/// The name of the grouping by input (`--by input`).
pub const INPUT: &str = "input";

/// How to group the rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grouping {
    /// By the input each row was read from: its path as given (`--by input`).
    Input,
    /// By the value of a column.
    Column {
        /// The column.
        name: String,
        /// Whether and how its numbers go in bins.
        bins: BinChoice,
    },
}

/// Whether and how the numbers of a grouping column go in bins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BinChoice {
    /// [`AUTO_BINS`] quantile bins when the column is numeric with more than
    /// [`AUTO_BINS_ABOVE`] distinct values; else one group per value.
    Automatic,
    /// One group per value (`--bins none`).
    None,
    /// Bins at these edges (`--bins 0,1.5,3`).
    Edges(Bins),
    /// `N` quantile bins (`--bins N`).
    Quantiles(usize),
}

/// One input as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputRead {
    /// The path as given (`-`: standard input).
    pub path: PathBuf,
    /// What it holds.
    pub content: Content,
    /// What its rows were made from: the `run` field of a summary document, or of the summary
    /// beside result rows that describes them exactly.
    pub run: Option<RunInfo>,
    /// For result rows, the summary beside them that `run` comes from.
    pub run_from: Option<PathBuf>,
}

/// Where a run writes the summary of its results: `RESULTS.summary.json`; `None` for standard
/// input. `stats` reads it for the report's header, so it is one of its inputs.
pub fn summary_beside(results: &Path) -> Option<PathBuf> {
    if results == Path::new("-") {
        return None;
    }
    let mut name = results.as_os_str().to_os_string();
    name.push(".summary.json");
    Some(PathBuf::from(name))
}

/// The summary a run wrote beside its results, `RESULTS.summary.json`, if there is one that
/// reads.
fn beside(results: &Path) -> Option<(PathBuf, Saved)> {
    let path = summary_beside(results)?;
    let file = crate::files::side::open(&path, crate::files::side::MAX_SUMMARY).ok()?;
    let saved = super::document::read_saved(file).ok()?;
    saved.run.is_some().then_some((path, saved))
}

/// The summary of the inputs, and what was read to make it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summarised {
    /// The summary.
    pub summary: Summary,
    /// The inputs, in order.
    pub inputs: Vec<InputRead>,
    /// What `stats` chose on its own and should say (automatic bins).
    pub note: Option<String>,
}

/// Summarises every input in order, grouped as asked; `-` is standard input. More than
/// `max_groups` groups are refused as soon as a row (or a summary document) makes one too many,
/// before memory grows further (bins are never that many: they are counted too). With
/// `canonical`, the distinct canonical forms of the puzzles are counted too (a summary document
/// must have counted them).
pub fn summarise<P: AsRef<Path>>(
    paths: &[P],
    grouping: Option<&Grouping>,
    max_groups: usize,
    canonical: Option<u64>,
) -> Result<Summarised, ReadError> {
    let read_all = |paths: &[P], filing| read_all(paths, filing, max_groups, canonical);
    let once = |filing| read_all(paths, filing).map(|reading| reading.done);
    let (name, choice) = match grouping {
        None => return once(Filing::Whole),
        Some(Grouping::Input) => return once(Filing::Input),
        Some(Grouping::Column { name, bins }) => (name, bins),
    };
    let (automatic, asked) = match choice {
        BinChoice::None => return once(Filing::Values(name.clone(), None)),
        BinChoice::Edges(bins) => return once(Filing::Bins(name.clone(), bins.clone())),
        BinChoice::Automatic => (true, AUTO_BINS),
        BinChoice::Quantiles(n) => (false, *n),
    };
    let first = read_all(paths, Filing::Values(name.clone(), Some(Survey::default())))?;
    let Reading { done, survey } = first;
    let survey = survey.expect("a survey was asked for");
    let mut note = None;
    let bins = match (&survey.not_a_number, automatic) {
        (Some(bad), false) => return Err(bad.error(name)),
        (Some(_), true) => None,
        (None, true) if survey.numbers.distinct() <= AUTO_BINS_ABOVE => None,
        (None, _) => {
            let chosen = if automatic {
                Chosen::Automatic
            } else {
                Chosen::Quantiles
            };
            let bins = Bins::quantiles(&survey.numbers, asked, chosen);
            if let (true, Some(bins)) = (automatic, &bins) {
                note = Some(format!(
                    "'{name}' has {} distinct numbers, more than {AUTO_BINS_ABOVE}: its groups \
                     are {} (--bins N or --bins A,B,... to choose; --bins none for one group \
                     per value)",
                    survey.numbers.distinct(),
                    bins.describe()
                ));
            }
            bins
        }
    };
    let mut summarised = if survey.held {
        let summary = match bins {
            Some(bins) => done
                .summary
                .binned(bins)
                .expect("every group of a column of numbers is a number"),
            None => done.summary,
        };
        Summarised { summary, ..done }
    } else {
        if paths.iter().any(|p| p.as_ref() == Path::new("-")) {
            return Err(ReadError::ReadTwice {
                column: name.clone(),
                held: HELD_GROUPS,
            });
        }
        let filing = match bins {
            Some(bins) => Filing::Bins(name.clone(), bins),
            None => Filing::Values(name.clone(), None),
        };
        read_all(paths, filing)?.done
    };
    // Numbers are held as single values while bins may still be chosen, so the groups they
    // end in are counted here.
    let groups = summarised.summary.groups().len();
    if groups > max_groups {
        return Err(ReadError::TooManyBins {
            column: name.clone(),
            groups,
            max: max_groups,
        });
    }
    summarised.note = note;
    Ok(summarised)
}

/// Summarises one opened input (for tests and callers that hold the reader).
pub(super) fn summarise_opened(
    opened: Opened,
    path: &Path,
    grouping: Option<&Grouping>,
) -> Result<Summary, ReadError> {
    let filing = match grouping {
        None => Filing::Whole,
        Some(Grouping::Input) => Filing::Input,
        Some(Grouping::Column { name, .. }) => Filing::Values(name.clone(), None),
    };
    let mut pass = Pass::new(filing, usize::MAX, None);
    pass.input(opened, path)?;
    Ok(pass.done.summary)
}

/// How one reading of the inputs files its rows.
#[derive(Debug, Clone)]
enum Filing {
    /// No groups.
    Whole,
    /// By input.
    Input,
    /// By the column's value; with a survey of its numbers, to choose bins after.
    Values(String, Option<Survey>),
    /// By the bin of the column's value.
    Bins(String, Bins),
}

/// What a reading learns of the numbers of the grouping column.
#[derive(Debug, Clone)]
struct Survey {
    /// How many rows had each number.
    numbers: Numbers,
    /// The first value that is not a number (nor empty), if any.
    not_a_number: Option<NotANumber>,
    /// Whether the groups of single values are still held (not given up past
    /// [`HELD_GROUPS`]).
    held: bool,
}

impl Default for Survey {
    fn default() -> Self {
        Survey {
            numbers: Numbers::default(),
            not_a_number: None,
            held: true,
        }
    }
}

/// Where a value that is not a number was found.
#[derive(Debug, Clone)]
struct NotANumber {
    path: PathBuf,
    line: Option<u64>,
    value: String,
}

impl NotANumber {
    fn error(&self, column: &str) -> ReadError {
        ReadError::NotANumber {
            path: self.path.clone(),
            line: self.line,
            column: column.to_string(),
            value: read::quote(&self.value),
        }
    }
}

impl Survey {
    /// Notes `times` rows with the value `key`, read at `path` (and `line`).
    fn note(&mut self, key: &str, times: u64, path: &Path, line: Option<u64>) {
        if key.trim().is_empty() {
            return;
        }
        match Number::parse(key.as_bytes()) {
            Some(value) => self.numbers.add(value, times),
            None if self.not_a_number.is_none() => {
                self.not_a_number = Some(NotANumber {
                    path: path.to_path_buf(),
                    line,
                    value: key.to_string(),
                });
            }
            None => {}
        }
    }

    /// Whether the groups of single values should be given up: too many, all numbers.
    fn give_up(&self, groups: usize) -> bool {
        self.held && self.not_a_number.is_none() && groups > HELD_GROUPS
    }
}

/// The result of one reading.
struct Reading {
    done: Summarised,
    survey: Option<Survey>,
}

fn read_all<P: AsRef<Path>>(
    paths: &[P],
    filing: Filing,
    max_groups: usize,
    canonical: Option<u64>,
) -> Result<Reading, ReadError> {
    let mut pass = Pass::new(filing, max_groups, canonical);
    for path in paths {
        let path = path.as_ref();
        pass.input(read::open(path)?, path)?;
    }
    let survey = match pass.filing {
        Filing::Values(_, survey) => survey,
        _ => None,
    };
    Ok(Reading {
        done: pass.done,
        survey,
    })
}

/// Refuses a count of distinct canonical forms past `max` (`stats --canonical --max-classes`).
fn too_many_forms(
    summary: &Summary,
    max: Option<u64>,
    path: &Path,
    line: Option<u64>,
) -> Result<(), ReadError> {
    match (summary.canonical(), max) {
        (Some(forms), Some(max)) if forms.distinct() > max => Err(ReadError::TooManyForms {
            path: path.to_path_buf(),
            line,
            max,
        }),
        _ => Ok(()),
    }
}

/// One reading of the inputs.
struct Pass {
    filing: Filing,
    done: Summarised,
    /// The most groups allowed.
    max_groups: usize,
    /// Whether canonical forms are counted, and the most distinct forms allowed.
    canonical: Option<u64>,
}

impl Pass {
    fn new(filing: Filing, max_groups: usize, canonical: Option<u64>) -> Self {
        let summary = match &filing {
            Filing::Whole => Summary::new(),
            Filing::Input => Summary::grouped_by(INPUT),
            Filing::Values(name, _) => Summary::grouped_by(name.clone()),
            Filing::Bins(name, bins) => Summary::binned_by(name.clone(), bins.clone()),
        };
        let summary = if canonical.is_some() {
            summary.counting_forms()
        } else {
            summary
        };
        Pass {
            filing,
            done: Summarised {
                summary,
                inputs: Vec::new(),
                note: None,
            },
            max_groups,
            canonical,
        }
    }

    /// Reads one input into the summary.
    fn input(&mut self, opened: Opened, path: &Path) -> Result<(), ReadError> {
        let input_key = path.display().to_string();
        let beside = beside(path);
        // The rows alone, to compare with the summary beside them.
        let mut own = beside.as_ref().map(|_| Summary::new());
        let Pass {
            filing,
            done,
            max_groups,
            canonical,
        } = self;
        let max_forms = *canonical;
        let canonical = max_forms.is_some();
        let max_groups = *max_groups;
        let summary = &mut done.summary;
        let column = match filing {
            Filing::Values(name, _) | Filing::Bins(name, _) => Some(name.clone()),
            Filing::Whole | Filing::Input => None,
        };
        let grouped_by = column.clone().unwrap_or_else(|| INPUT.to_string());
        let mut each =
            |row: &ResultRow<'_>, line: u64, form: Option<u128>| -> Result<(), ReadError> {
                summary.takes(row).map_err(|source| ReadError::Grouping {
                    path: path.to_path_buf(),
                    source,
                })?;
                if let Some(own) = &mut own {
                    own.add_result(row);
                }
                if let Some(digest) = form {
                    summary.add_form(digest);
                    too_many_forms(summary, max_forms, path, Some(line))?;
                }
                match filing {
                    Filing::Whole => summary.add_result(row),
                    Filing::Input => summary.add_result(&row.with_group(&input_key)),
                    Filing::Values(_, None) => summary.add_result(row),
                    Filing::Values(_, Some(survey)) => {
                        survey.note(row.group().unwrap_or(""), 1, path, Some(line));
                        if survey.held {
                            summary.add_result(row);
                            if survey.give_up(summary.groups().len()) {
                                survey.held = false;
                                *summary = Summary::default();
                            }
                        }
                    }
                    Filing::Bins(name, _) => {
                        let key = row.group().unwrap_or("");
                        if !key.trim().is_empty() && Number::parse(key.as_bytes()).is_none() {
                            return Err(NotANumber {
                                path: path.to_path_buf(),
                                line: Some(line),
                                value: key.to_string(),
                            }
                            .error(name));
                        }
                        summary.add_result(row);
                    }
                }
                too_many_groups(summary, filing, max_groups, path, Some(line), &grouped_by)
            };
        let (content, saved) =
            read::read_opened(opened, path, column.as_deref(), canonical, &mut each)?;
        let (run, run_from) = match (saved, beside, own) {
            (Some(saved), _, _) => {
                let run = saved.run.clone();
                self.document(saved, path)?;
                (run, None)
            }
            (None, Some((from, saved)), Some(own))
                if saved.summary.clone().ungrouped().without_forms() == own =>
            {
                (saved.run, Some(from))
            }
            _ => (None, None),
        };
        self.done.inputs.push(InputRead {
            path: path.to_path_buf(),
            content,
            run,
            run_from,
        });
        Ok(())
    }

    /// Adds a summary document, grouped as this reading groups.
    fn document(&mut self, saved: Saved, path: &Path) -> Result<(), ReadError> {
        let found = match (
            self.canonical.is_some(),
            saved.summary.canonical().is_some(),
        ) {
            (false, _) => saved.summary.without_forms(),
            (true, true) => saved.summary,
            (true, false) if saved.summary.records() == 0 => saved.summary.counting_forms(),
            (true, false) => {
                return Err(ReadError::NoForms {
                    path: path.to_path_buf(),
                });
            }
        };
        let regroup = |found: &Summary, wanted: &Summary| ReadError::Regroup {
            path: path.to_path_buf(),
            found: found.grouping(),
            wanted: wanted.grouping(),
        };
        let summary = &mut self.done.summary;
        let part = match &mut self.filing {
            Filing::Whole => found.ungrouped(),
            Filing::Input => found.filed_under(INPUT, &path.display().to_string()),
            _ if found.records() == 0 => return Ok(()),
            Filing::Values(name, survey) => {
                if found.by() != Some(name.as_str()) || found.bins().is_some() {
                    return Err(regroup(&found, summary));
                }
                if let Some(survey) = survey {
                    for (key, group) in found.groups() {
                        survey.note(key, group.records(), path, None);
                    }
                    if !survey.held {
                        return Ok(());
                    }
                }
                found
            }
            Filing::Bins(name, bins) => match found.bins() {
                _ if found.by() != Some(name.as_str()) => return Err(regroup(&found, summary)),
                Some(theirs) if theirs == bins => found,
                Some(_) => return Err(regroup(&found, summary)),
                None => found.binned(bins.clone()).map_err(|key| {
                    NotANumber {
                        path: path.to_path_buf(),
                        line: None,
                        value: key,
                    }
                    .error(name)
                })?,
            },
        };
        summary.merge(&part).map_err(|source| ReadError::Grouping {
            path: path.to_path_buf(),
            source,
        })?;
        too_many_forms(summary, self.canonical, path, None)?;
        let grouped_by = summary.by().unwrap_or(INPUT).to_string();
        too_many_groups(
            summary,
            &self.filing,
            self.max_groups,
            path,
            None,
            &grouped_by,
        )?;
        if let Filing::Values(_, Some(survey)) = &mut self.filing
            && survey.give_up(summary.groups().len())
        {
            survey.held = false;
            *summary = Summary::default();
        }
        Ok(())
    }
}

/// Refuses a summary with more than `max_groups` groups, unless they are groups of single
/// numbers held while bins may still be chosen (at most [`HELD_GROUPS`] of them).
fn too_many_groups(
    summary: &Summary,
    filing: &Filing,
    max_groups: usize,
    path: &Path,
    line: Option<u64>,
    column: &str,
) -> Result<(), ReadError> {
    let binnable =
        matches!(filing, Filing::Values(_, Some(survey)) if survey.not_a_number.is_none());
    if summary.groups().len() <= max_groups || binnable {
        return Ok(());
    }
    Err(ReadError::TooManyGroups {
        path: path.to_path_buf(),
        line,
        column: column.to_string(),
        max: max_groups,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::SolveStatus;

    /// A results file of `n` rows whose column `d` takes `distinct` values (numbers, with a
    /// few empty ones), and the counters vary with the row.
    fn results(dir: &tempfile::TempDir, n: u64, distinct: u64) -> PathBuf {
        let mut text = String::from(
            "line,puzzle,status,recursions,max_depth,guesses,backtracks,naked_singles,hidden_singles,givens,d\n",
        );
        for i in 0..n {
            let d = if i % 97 == 0 {
                String::new()
            } else {
                format!("{}", (i * 7919 % distinct) as f64 / 8.0 - 20.0)
            };
            let puzzle = format!("{i:.>81}");
            let r = 1 + i % 300;
            text.push_str(&format!(
                "{},{puzzle},solved,{r},{},{},{},40,50,{},{d}\n",
                i + 2,
                (1 + i % 9).min(r),
                r - 1,
                r - 1,
                17 + i % 6
            ));
        }
        let path = dir.path().join(format!("r{distinct}.csv"));
        std::fs::write(&path, text).unwrap();
        path
    }

    fn column(bins: BinChoice) -> Grouping {
        Grouping::Column {
            name: "d".into(),
            bins,
        }
    }

    #[test]
    fn bins_over_many_distinct_numbers_read_twice_equal_bins_of_the_exact_groups() {
        let dir = tempfile::tempdir().unwrap();
        // 1500 distinct numbers: more than are held, so the inputs are read twice.
        let path = results(&dir, 6000, 1500);
        let twice = summarise(
            &[&path],
            Some(&column(BinChoice::Quantiles(7))),
            usize::MAX,
            None,
        )
        .unwrap();
        let bins = twice.summary.bins().expect("bins").clone();
        assert_eq!(bins.count(), 7);
        let exact = summarise(&[&path], Some(&column(BinChoice::None)), usize::MAX, None).unwrap();
        assert_eq!(exact.summary.groups().len(), 1501);
        let once = exact.summary.binned(bins).unwrap();
        assert_eq!(twice.summary, once);
        twice.summary.check().unwrap();
        // The same through automatic bins, with their note.
        let automatic = summarise(
            &[&path],
            Some(&column(BinChoice::Automatic)),
            usize::MAX,
            None,
        )
        .unwrap();
        assert_eq!(automatic.summary.bins().map(Bins::count), Some(AUTO_BINS));
        assert!(
            automatic
                .note
                .as_deref()
                .is_some_and(|n| n.starts_with("'d' has 1500 distinct numbers, more than 30")),
            "{:?}",
            automatic.note
        );
    }

    #[test]
    fn few_distinct_numbers_keep_their_groups_and_bins_come_from_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = results(&dir, 500, 12);
        let automatic = summarise(
            &[&path],
            Some(&column(BinChoice::Automatic)),
            usize::MAX,
            None,
        )
        .unwrap();
        assert_eq!(automatic.note, None);
        assert_eq!(automatic.summary.bins(), None);
        assert_eq!(automatic.summary.groups().len(), 13);
        let binned = summarise(
            &[&path],
            Some(&column(BinChoice::Quantiles(3))),
            usize::MAX,
            None,
        )
        .unwrap();
        let groups = binned.summary.groups();
        let total: u64 = groups.values().map(Summary::records).sum();
        assert_eq!(total, 500);
        assert_eq!(groups[""].records(), 6);
        assert_eq!(
            binned.summary.status().get(SolveStatus::Solved),
            500,
            "every row is counted once"
        );
        // The groups the numbers end in are held to --max-groups too.
        let limited = |bins, max| summarise(&[&path], Some(&column(bins)), max, None);
        assert!(limited(BinChoice::Automatic, 13).is_ok());
        assert!(limited(BinChoice::Quantiles(3), groups.len()).is_ok());
        for (bins, max, made) in [
            (BinChoice::Automatic, 12, 13),
            (BinChoice::Quantiles(3), groups.len() - 1, groups.len()),
        ] {
            let error = limited(bins, max).unwrap_err().to_string();
            assert!(
                error.starts_with(&format!(
                    "'d' makes {made} groups, more than --max-groups {max}"
                )),
                "{error}"
            );
        }
    }
}
