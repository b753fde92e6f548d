//! What counts as prose in a chapter, and what in prose is a figure.
//!
//! The figure preprocessor and `cargo xtask verify` read markdown the same way, through this
//! module: prose is the text mdBook renders as text, that is everything but code blocks, inline
//! code, raw HTML and link targets. In prose:
//!
//! - `[4,865,609]{ch05.startpos.d5.nodes}` quotes a figure: the literal as the reader sees it, then
//!   its key. A key is at least two dot-separated parts of letters, digits, `_` and `-`.
//! - `[65,536]{plain}` marks a number (or any short text) as not measured: it renders as
//!   the bare text and is exempt from the measured-number rule.
//! - A number that *looks* measured must be one of the two: see [`bare_numbers`].
//!
//! Markdown is parsed with pulldown-cmark and the options mdBook 0.5 uses, so that what we call
//! a code block is what mdBook renders as one.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use regex::Regex;
use std::ops::Range;
use std::sync::LazyLock;

/// The key that marks a literal as plain text, not a figure.
pub const PLAIN: &str = "plain";

/// One `[literal]{key}` in prose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quote {
    /// Byte range of the whole `[literal]{key}` in the markdown.
    pub range: Range<usize>,
    /// 1-based line of the opening bracket.
    pub line: usize,
    /// What the reader sees: `4,865,609`.
    pub literal: String,
    /// `ch05.startpos.d5.nodes`, or [`PLAIN`].
    pub key: String,
}

impl Quote {
    /// True for `[...]{plain}`: text marked as not measured.
    pub fn is_plain(&self) -> bool {
        self.key == PLAIN
    }
}

/// A number in prose that looks measured and carries no key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BareNumber {
    /// 1-based line.
    pub line: usize,
    /// The number as written: `1,234,567`.
    pub text: String,
    /// Why it looks measured: "has thousands separators", "is a percentage", ...
    pub why: &'static str,
}

/// The markdown options of mdBook 0.5 (`mdbook_markdown::new_cmark_parser`), smart punctuation
/// aside: it changes no byte range.
pub fn mdbook_options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_DEFINITION_LIST
        | Options::ENABLE_GFM
}

/// Byte ranges of the prose of `markdown`, adjacent pieces merged, in order.
pub fn prose_ranges(markdown: &str) -> Vec<Range<usize>> {
    let mut ranges: Vec<Range<usize>> = Vec::new();
    let mut code_depth = 0usize;
    for (event, range) in Parser::new_ext(markdown, mdbook_options()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(_) | Tag::MetadataBlock(_)) => code_depth += 1,
            Event::End(TagEnd::CodeBlock | TagEnd::MetadataBlock(_)) => code_depth -= 1,
            Event::Text(_) if code_depth == 0 => match ranges.last_mut() {
                Some(last) if last.end == range.start => last.end = range.end,
                _ => ranges.push(range),
            },
            _ => {}
        }
    }
    ranges
}

/// Maps byte offsets to 1-based line numbers.
#[derive(Debug)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    /// The line index of `text`.
    pub fn new(text: &str) -> Lines {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { starts }
    }

    /// The 1-based line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset)
    }
}

static QUOTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\[([^\[\]\n]+)\]\{([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+|plain)\}")
        .expect("a valid regex")
});

/// Every figure quote and plain mark in the prose of `markdown`.
pub fn figure_quotes(markdown: &str) -> Vec<Quote> {
    let prose = prose_ranges(markdown);
    let lines = Lines::new(markdown);
    let in_prose = |offset: usize| {
        let i = prose.partition_point(|range| range.end <= offset);
        prose.get(i).is_some_and(|range| range.start <= offset)
    };
    QUOTE
        .captures_iter(markdown)
        .filter_map(|caps| {
            let whole = caps.get(0)?;
            in_prose(whole.start()).then(|| Quote {
                range: whole.range(),
                line: lines.line_of(whole.start()),
                literal: caps[1].to_string(),
                key: caps[2].to_string(),
            })
        })
        .collect()
}

/// Numbers in prose that look measured but are neither quoted with a key nor marked plain.
///
/// A number looks measured when it
/// - has thousands separators (`4,865,609`, `4 865 609` with thin or no-break spaces), or
/// - has five or more digits before its decimal point (`123456`), or
/// - is a percentage (`41.3%`, `41.3 %`, `41.3 percent`), or
/// - is followed by `nps` or `Elo` (`900k nps`, `+35 Elo`, `1.2 Mnps`), or by `million` or
///   `billion`, or
/// - stands next to `±` or `+/-` (`35 ± 12`).
///
/// Everything else passes by rule: years (`2016`), small constants (`64`, `128`, `0x88`),
/// versions (`0.5.4`), ordinals (`64th`), chapter numbers (`10.1`).
pub fn bare_numbers(markdown: &str) -> Vec<BareNumber> {
    let mut blanked = markdown.as_bytes().to_vec();
    for quote in figure_quotes(markdown) {
        blanked[quote.range].fill(b' ');
    }
    let blanked =
        String::from_utf8(blanked).expect("only whole quotes, ASCII-bounded, were blanked");
    let lines = Lines::new(markdown);
    let mut found = Vec::new();
    for range in prose_ranges(markdown) {
        let text = &blanked[range.clone()];
        for token in number_tokens(text) {
            if let Some(why) = looks_measured(text, &token) {
                found.push(BareNumber {
                    line: lines.line_of(range.start + token.start),
                    text: text[token].to_string(),
                    why,
                });
            }
        }
    }
    found
}

/// Spaces that may separate a number from its unit or a digit group from the next.
fn is_number_space(c: char) -> bool {
    matches!(c, ' ' | '\u{00A0}' | '\u{2009}' | '\u{202F}')
}

/// Characters that may join digit groups inside one number: `4,865,609`, `3.14`, `0.5.4`,
/// `4 865 609` (thin or no-break spaces only: a plain space ends a number).
fn is_group_joiner(c: char) -> bool {
    matches!(c, ',' | '.' | '\u{00A0}' | '\u{2009}' | '\u{202F}')
}

/// Byte ranges of the numbers in `text`: runs of digits joined by [`is_group_joiner`], not glued
/// to a word before (`u64`, `x86`, `0x1F`).
fn number_tokens(text: &str) -> Vec<Range<usize>> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (start, c) = chars[i];
        let glued = i > 0 && {
            let prev = chars[i - 1].1;
            prev.is_alphanumeric() || prev == '_' || prev == '.' || prev == '#'
        };
        if !c.is_ascii_digit() || glued {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len() && chars[j].1.is_ascii_digit() {
            j += 1;
        }
        while j + 1 < chars.len() && is_group_joiner(chars[j].1) && chars[j + 1].1.is_ascii_digit()
        {
            j += 1;
            while j < chars.len() && chars[j].1.is_ascii_digit() {
                j += 1;
            }
        }
        let end = chars.get(j).map_or(text.len(), |&(offset, _)| offset);
        tokens.push(start..end);
        i = j;
    }
    tokens
}

static GROUPED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\d{1,3}(?:[,\u{00A0}\u{2009}\u{202F}]\d{3})+(?:\.\d+)?$").expect("a valid regex")
});

/// Why the number at `token` in `text` looks measured, or `None` if it passes by rule.
fn looks_measured(text: &str, token: &Range<usize>) -> Option<&'static str> {
    let number = &text[token.clone()];
    let after = &text[token.end..];
    let before = &text[..token.start];

    // What follows directly: a unit glued to the number (`900k`, `3Mnps`) or a word ending it.
    let glued_word: String = after
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    let (multiplier, rest) = match glued_word.as_str() {
        "" => (false, after),
        "k" | "K" | "M" | "G" => (true, &after[glued_word.len()..]),
        _ if is_rate_or_elo(&glued_word) => return Some(rate_or_elo_reason(&glued_word)),
        _ => return None, // `64th`, `3D`, `2nd`: not a number in the sense of this rule
    };

    if GROUPED.is_match(number) {
        return Some("has thousands separators, as a node count does");
    }
    let digits_before_point = number
        .split('.')
        .next()
        .unwrap_or(number)
        .chars()
        .filter(char::is_ascii_digit)
        .count();
    if number.matches('.').count() <= 1 && digits_before_point >= 5 {
        return Some("has five or more digits, as a node count does");
    }

    let rest = rest.trim_start_matches(is_number_space);
    if rest.starts_with('%') || starts_with_word(rest, "percent") {
        return Some("is a percentage");
    }
    if rest.starts_with('±') || rest.starts_with("+/-") {
        return Some("has a ± error bar");
    }
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphabetic() || *c == '/')
        .collect();
    let after_word = rest[word.len()..].trim_start_matches(is_number_space);
    let next_word: String = after_word
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    match word.as_str() {
        w if is_rate_or_elo(w) => return Some(rate_or_elo_reason(w)),
        "million" | "billion" => return Some("is a count in millions or billions"),
        "k" | "K" | "M" | "G" | "thousand" if is_rate_or_elo(&next_word) => {
            return Some(rate_or_elo_reason(&next_word));
        }
        _ if multiplier && is_rate_or_elo(&word) => return Some(rate_or_elo_reason(&word)),
        _ => {}
    }

    let before = before.trim_end_matches(is_number_space);
    let before = before.strip_suffix(['+', '-', '−']).unwrap_or(before);
    let before = before.trim_end_matches(is_number_space);
    if before.ends_with('±') || before.ends_with("+/-") {
        return Some("has a ± error bar");
    }
    None
}

/// `nps`, `knps`, `Mnps`, `Elo`, in any case.
fn is_rate_or_elo(word: &str) -> bool {
    matches!(
        word.to_ascii_lowercase().as_str(),
        "nps" | "knps" | "mnps" | "elo"
    )
}

fn rate_or_elo_reason(word: &str) -> &'static str {
    if word.eq_ignore_ascii_case("elo") {
        "is an Elo difference"
    } else {
        "is a speed in nodes per second"
    }
}

/// True when `text` starts with `word` followed by a non-letter.
fn starts_with_word(text: &str, word: &str) -> bool {
    text.strip_prefix(word)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphabetic()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bare(markdown: &str) -> Vec<String> {
        bare_numbers(markdown).into_iter().map(|n| n.text).collect()
    }

    #[test]
    fn quotes_are_found_in_prose_only() {
        let md = "Perft finds [4,865,609]{ch05.startpos.d5.nodes} nodes.\n\n\
                  `[1]{ch05.a.b}` and\n\n```\n[2]{ch05.c.d}\n```\n\n[3]{plain} and [x]{nokey}\n";
        let quotes = figure_quotes(md);
        let keys: Vec<&str> = quotes.iter().map(|q| q.key.as_str()).collect();
        assert_eq!(keys, ["ch05.startpos.d5.nodes", "plain"]);
        assert_eq!(quotes[0].literal, "4,865,609");
        assert_eq!(quotes[0].line, 1);
        assert_eq!(quotes[1].line, 9);
    }

    #[test]
    fn measured_looking_numbers_are_caught() {
        assert_eq!(bare("It searched 4,865,609 nodes."), ["4,865,609"]);
        assert_eq!(
            bare("It searched 4\u{2009}865\u{2009}609 nodes."),
            ["4\u{2009}865\u{2009}609"]
        );
        assert_eq!(bare("It searched 123456 nodes."), ["123456"]);
        assert_eq!(
            bare("A hit rate of 41.3 % here, 12% there."),
            ["41.3", "12"]
        );
        assert_eq!(
            bare("It runs at 900k nps, or 1.2 Mnps, 2 M nps."),
            ["900", "1.2", "2"]
        );
        assert_eq!(bare("Worth +35 Elo, 12 ± 4."), ["35", "12", "4"]);
        assert_eq!(bare("About 3 million positions."), ["3"]);
    }

    #[test]
    fn numbers_that_pass_by_rule_are_left_alone() {
        let md = "In 2016 Lemire showed it; 64 squares, 128 bytes, mdBook 0.5.4, chapter 10.1, \
                  the 64th square, u64, x86_64, 0x88, a 3D board, 16 MB.";
        assert!(bare(md).is_empty(), "{:?}", bare(md));
    }

    #[test]
    fn quoted_marked_and_code_numbers_are_left_alone() {
        let md = "Nodes: [4,865,609]{ch05.startpos.d5.nodes}, [65,536]{plain} entries, \
                  `123456`, [a link](https://example.invalid/123456).\n\n```text\n4,865,609\n```\n\n\
                  <div title=\"99999\"></div>\n";
        assert!(bare(md).is_empty(), "{:?}", bare(md));
    }

    #[test]
    fn bare_numbers_know_their_line() {
        let found = bare_numbers("one\n\ntwo 12345\n");
        assert_eq!(found[0].line, 3);
        assert_eq!(
            found[0].why,
            "has five or more digits, as a node count does"
        );
    }
}
