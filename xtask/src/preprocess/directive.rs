//! `{{#kind argument}}` directives in a page, found as mdBook's links preprocessor finds them.
//!
//! mdBook expands `include`, `rustdoc_include`, `playground` and `title`; our preprocessor
//! expands `board` ([`super::board`]). Verify checks each kind, and fails on any other, since
//! mdBook would leave it in the page.

use super::prose::Lines;
use regex::Regex;
use std::ops::Range;
use std::sync::LazyLock;

/// One `{{#kind argument}}` in a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    /// Byte range of the whole directive in the page.
    pub range: Range<usize>,
    /// 1-based line of its `{{`.
    pub line: usize,
    pub kind: String,
    pub argument: String,
    /// The whole directive as written.
    pub text: String,
}

static DIRECTIVE_START: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\{\{\s*#").expect("a valid regex"));
static DIRECTIVE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\{\{\s*#([a-zA-Z0-9_]+)\s+([^}]+)\}\}").expect("a valid regex"));

/// Every `{{#...}}` of a page, and the malformed ones as `(line, message)`. Directives are
/// found in the raw text, code blocks included, as mdBook's links preprocessor finds them.
pub fn directives(text: &str) -> (Vec<Directive>, Vec<(usize, String)>) {
    let lines = Lines::new(text);
    let mut found = Vec::new();
    let mut problems = Vec::new();
    for start in DIRECTIVE_START.find_iter(text) {
        let line = lines.line_of(start.start());
        if text[..start.start()].ends_with('\\') {
            problems.push((
                line,
                "an escaped directive puts `{{#` in the page, which verify forbids: rephrase"
                    .to_string(),
            ));
            continue;
        }
        match DIRECTIVE.captures(&text[start.start()..]) {
            Some(caps) => found.push(Directive {
                range: start.start()..start.start() + caps[0].len(),
                line,
                kind: caps[1].to_string(),
                argument: caps[2].trim().to_string(),
                text: caps[0].to_string(),
            }),
            None => problems.push((
                line,
                "a `{{#` that is no complete directive `{{#kind argument}}`".to_string(),
            )),
        }
    }
    (found, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_are_found_with_their_lines() {
        let (found, problems) = directives("a\n{{#include x.rs:y}}\n\\{{#include z}}\n{{#broken\n");
        assert_eq!(found.len(), 1);
        assert_eq!(
            (
                found[0].line,
                found[0].kind.as_str(),
                found[0].argument.as_str()
            ),
            (2, "include", "x.rs:y")
        );
        assert_eq!(problems.iter().map(|p| p.0).collect::<Vec<_>>(), [3, 4]);
    }
}
