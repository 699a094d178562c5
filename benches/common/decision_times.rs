//! The time a bot level took per decision, as the strength benches print it.

use std::time::Duration;

/// The `p`th percentile of `times` (sorted in place); zero for none.
pub fn percentile(times: &mut [Duration], p: usize) -> Duration {
    if times.is_empty() {
        return Duration::ZERO;
    }
    times.sort_unstable();
    times[(times.len() * p / 100).min(times.len() - 1)]
}

/// One line: how many decisions `level` made, the median, the 95th
/// percentile and the longest.
pub fn print_times(level: &str, times: &mut [Duration]) {
    let count = times.len();
    println!(
        "{level} decisions: {count}, median {:.2?}, 95th percentile {:.2?}, max {:.2?}",
        percentile(times, 50),
        percentile(times, 95),
        percentile(times, 100),
    );
}
