//! What the programs that measure the engine share: the median of repeated runs, and the
//! medians criterion saves.
//!
//! The engine itself never calls this. It lives in the engine crate because that is the one
//! crate every measuring program already depends on: the engine's own criterion benches
//! (`crates/engine/benches/`, which can use no other crate of the workspace), the chapter
//! programs (`chapters/`) and `cargo xtask`. Anywhere higher up, one of them would keep a copy.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The median of `values`: the middle one, or the mean of the middle two for an even count.
/// A timing on a shared machine is sometimes stretched by other work, never shortened, so
/// the median of a few runs says more than their mean. Panics on no values.
pub fn median(values: &[f64]) -> f64 {
    middle(values, f64::total_cmp, |a, b| (a + b) / 2.0)
}

/// The median of durations, as [`median`] takes it, to the nanosecond.
pub fn median_duration(times: &[Duration]) -> Duration {
    middle(times, Duration::cmp, |a, b| (a + b) / 2)
}

/// The middle of `values` sorted by `order`; of an even count, `mean` of the middle two.
fn middle<T: Copy>(
    values: &[T],
    order: impl FnMut(&T, &T) -> Ordering,
    mean: impl Fn(T, T) -> T,
) -> T {
    assert!(!values.is_empty(), "the median of nothing");
    let mut sorted = values.to_vec();
    sorted.sort_by(order);
    let half = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[half]
    } else {
        mean(sorted[half - 1], sorted[half])
    }
}

/// Where criterion saved the estimates of one benchmark's latest run: under its home folder
/// (`target/criterion` unless `CRITERION_HOME` says otherwise), `group/function/parameter/
/// new/estimates.json`.
pub fn criterion_estimates(home: &Path, group: &str, function: &str, parameter: &str) -> PathBuf {
    home.join(group)
        .join(function)
        .join(parameter)
        .join("new/estimates.json")
}

/// The median's point estimate in criterion's `estimates.json`, in nanoseconds. The file is
/// read as text: the one number needed does not justify a JSON parser in the engine crate.
pub fn criterion_median_ns(json: &str) -> Option<f64> {
    let median = &json[json.find("\"median\"")?..];
    let label = "\"point_estimate\":";
    let value = &median[median.find(label)? + label.len()..];
    let end = value.find([',', '}'])?;
    value[..end].trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_takes_the_middle_or_the_mean_of_the_middle_two() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[7.0]), 7.0);
        let ms = Duration::from_millis;
        assert_eq!(median_duration(&[ms(9), ms(1), ms(5)]), ms(5));
        assert_eq!(
            median_duration(&[ms(4), ms(1), ms(2), ms(1000)]),
            ms(3),
            "one stretched run does not move it"
        );
    }

    #[test]
    #[should_panic(expected = "the median of nothing")]
    fn there_is_no_median_of_nothing() {
        median(&[]);
    }

    #[test]
    fn reads_criterions_median() {
        let json = r#"{"mean":{"confidence_interval":{"lower_bound":1.0},"point_estimate":5.5,"standard_error":0.1},"median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":3.0,"upper_bound":4.0},"point_estimate":3.25,"standard_error":0.2}}"#;
        assert_eq!(criterion_median_ns(json), Some(3.25));
        assert_eq!(criterion_median_ns("{}"), None);
        assert_eq!(
            criterion_estimates(Path::new("c"), "tt_1mb", "store", "on"),
            Path::new("c/tt_1mb/store/on/new/estimates.json")
        );
    }
}
