//! The built book: no `{{#` directive may survive into the HTML (mdBook leaves a directive it
//! cannot expand in the page, and exits 0).

use super::{Finding, walk};
use std::path::Path;

/// What a leftover directive looks like in the HTML: `{{#` or `{{ #`.
pub fn has_leftover_directive(line: &str) -> bool {
    line.match_indices("{{")
        .any(|(i, _)| line[i + 2..].trim_start().starts_with('#'))
}

pub fn check(root: &Path, build_dir: &Path, findings: &mut Vec<Finding>) {
    for file in walk(build_dir, &|path| {
        path.extension().is_some_and(|e| e == "html")
    }) {
        let relative = file.strip_prefix(root).unwrap_or(&file).to_path_buf();
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for (index, line) in text.lines().enumerate() {
            if has_leftover_directive(line) {
                findings.push(Finding::error(
                    &relative,
                    index + 1,
                    "a `{{#` directive was left in the built page",
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leftovers_are_seen_with_or_without_a_space() {
        assert!(has_leftover_directive("<p>{{#include x.rs}}</p>"));
        assert!(has_leftover_directive("<p>{{ #include x.rs}}</p>"));
        assert!(!has_leftover_directive("<p>{{ not a directive }}</p>"));
    }
}
