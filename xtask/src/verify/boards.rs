//! Board diagrams: every `{{#board ...}}` parses (its FEN by the engine, its arrows and
//! highlighted squares as square names) and stands on a line of its own, so that its SVG
//! becomes one HTML block (the syntax is in [`crate::preprocess::board`]).

use super::{Finding, Page};
use crate::preprocess::board::{self, Board};
use crate::preprocess::directive::{Directive, directives};

pub fn check(pages: &[Page], findings: &mut Vec<Finding>) {
    for page in pages {
        let (found, _malformed) = directives(&page.text); // malformed ones: includes.rs
        for directive in found.iter().filter(|d| d.kind == board::KIND) {
            let at = |message: String| Finding::error(&page.file, directive.line, message);
            if let Err(problem) = Board::parse(&directive.argument) {
                findings.push(at(format!("board diagram: {problem}")));
            }
            if !alone_on_its_line(&page.text, directive) {
                findings.push(at(
                    "board diagram: put {{#board ...}} on a line of its own".to_string()
                ));
            }
        }
    }
}

/// True when nothing but spaces shares the directive's lines.
pub(crate) fn alone_on_its_line(text: &str, directive: &Directive) -> bool {
    let line_start = text[..directive.range.start]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line_end = text[directive.range.end..]
        .find('\n')
        .map_or(text.len(), |i| directive.range.end + i);
    text[line_start..directive.range.start].trim().is_empty()
        && text[directive.range.end..line_end].trim().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn errors(text: &str) -> Vec<(usize, String)> {
        let pages = [Page {
            file: PathBuf::from("book/src/p.md"),
            text: text.to_string(),
        }];
        let mut findings = Vec::new();
        check(&pages, &mut findings);
        findings.into_iter().map(|f| (f.line, f.message)).collect()
    }

    #[test]
    fn a_good_board_alone_on_its_line_passes() {
        let md = "Text.\n\n{{#board 4k3/8/8/8/8/8/8/4K3 w - - 0 1 highlight=e1}}\n\nMore.\n";
        assert!(errors(md).is_empty(), "{:?}", errors(md));
    }

    #[test]
    fn a_bad_fen_or_a_board_inside_a_sentence_is_reported_at_its_line() {
        let md = "One.\n\n{{#board 4k3/8/8/8/8/8/8/4K4 w - - 0 1}}\n\nSee {{#board 4k3/8/8/8/8/8/8/4K3 w - - 0 1}} here.\n";
        let found = errors(md);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].0, 3);
        assert!(
            found[0].1.contains("rank 1 has too many squares"),
            "{found:?}"
        );
        assert_eq!(found[1].0, 5);
        assert!(found[1].1.contains("a line of its own"), "{found:?}");
    }
}
