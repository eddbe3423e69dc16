//! The progress bar on stderr: records handled, their rate, and, when the input's size is known,
//! the share of it read and an ETA. Hidden when stderr is not a terminal or with `--quiet`.
//!
//! The pipeline tells the bar how far it is every fraction of a second, also within a chunk
//! (see [`crate::pipeline::Events::progress`]), so a slow run moves from its first records on.
//! The ETA is the input bytes left at the rate the bytes went since the first report: it is
//! shown only once it means something, after [`ETA_AFTER`] of work with bytes done, and is
//! absent (never `0s`) until then.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before its ETA is shown.
pub const ETA_AFTER: Duration = Duration::from_secs(2);

/// A progress display, possibly hidden.
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    /// Records written by the interrupted run this one resumes: shown in the count, not in the
    /// rate.
    resumed: u64,
    /// The input's size, when known.
    total: Option<u64>,
    /// The first report: when, and how many input bytes were done.
    first: Option<(Instant, u64)>,
}

impl Progress {
    /// A bar over `total_bytes` of input (a spinner when unknown), shown only when `visible`
    /// and stderr is a terminal; `resumed` records were written by an interrupted run before.
    pub fn new(total_bytes: Option<u64>, visible: bool, resumed: u64) -> Progress {
        let started = Instant::now();
        let hidden = Progress {
            bar: ProgressBar::hidden(),
            started,
            resumed,
            total: total_bytes,
            first: None,
        };
        if !visible || !std::io::stderr().is_terminal() {
            return hidden;
        }
        let bar = match total_bytes {
            Some(total) => ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                .with_style(
                    ProgressStyle::with_template(
                        "{spinner} {elapsed_precise} [{wide_bar}] {percent:>3}% {msg}",
                    )
                    .expect("a valid template")
                    .progress_chars("=> "),
                ),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
                ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .expect("a valid template"),
            ),
        };
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar, ..hidden }
    }

    /// Records handled so far by this run, and input bytes done so far.
    pub fn update(&mut self, records: u64, bytes: u64) {
        if self.bar.is_hidden() {
            return;
        }
        let now = Instant::now();
        let first = *self.first.get_or_insert((now, bytes));
        let seconds = (now - self.started).as_secs_f64();
        let rate = if seconds > 0.0 {
            records as f64 / seconds
        } else {
            0.0
        };
        self.bar.set_position(bytes);
        let done = self.resumed + records;
        let mut message = format!("{done} records, {rate:.0}/s");
        if let Some(total) = self.total
            && let Some(left) = eta(first, (now, bytes), total)
        {
            message.push_str(", ETA ");
            message.push_str(&duration_text(left));
        }
        self.bar.set_message(message);
    }

    /// Runs `f` (which prints to stderr) with the bar cleared, and redraws it after.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The time left to do `total` bytes, going on at the rate from `first` to `now` (each a time
/// and the bytes done then); `None` until that rate is known: [`ETA_AFTER`] after the first
/// report, with bytes done since.
pub fn eta(first: (Instant, u64), now: (Instant, u64), total: u64) -> Option<Duration> {
    let elapsed = now.0.checked_duration_since(first.0)?;
    let done = now.1.checked_sub(first.1).filter(|&d| d > 0)?;
    if elapsed < ETA_AFTER {
        return None;
    }
    let left = total.saturating_sub(now.1);
    Some(elapsed.mul_f64(left as f64 / done as f64))
}

/// A duration as the bar shows it: `45s`, `3m 20s`, `2h 05m`.
pub fn duration_text(duration: Duration) -> String {
    let seconds = duration.as_secs();
    match seconds {
        0..60 => format!("{seconds}s"),
        60..3600 => format!("{}m {:02}s", seconds / 60, seconds % 60),
        _ => format!("{}h {:02}m", seconds / 3600, seconds % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_eta_until_the_rate_is_known() {
        let start = Instant::now();
        let at = |s: f64| start + Duration::from_secs_f64(s);
        // Too early, or nothing done since the first report: no ETA, rather than 0s.
        assert_eq!(eta((start, 0), (at(1.0), 500), 1000), None);
        assert_eq!(eta((start, 100), (at(60.0), 100), 1000), None);
        // 400 bytes in 4 s from the first report, 500 left: 5 s.
        assert_eq!(
            eta((start, 100), (at(4.0), 500), 1000),
            Some(Duration::from_secs(5))
        );
        assert_eq!(
            eta((start, 0), (at(10.0), 1000), 1000),
            Some(Duration::ZERO)
        );
    }

    #[test]
    fn durations_read_at_a_glance() {
        assert_eq!(duration_text(Duration::from_secs(45)), "45s");
        assert_eq!(duration_text(Duration::from_secs(200)), "3m 20s");
        assert_eq!(duration_text(Duration::from_secs(7500)), "2h 05m");
    }
}
