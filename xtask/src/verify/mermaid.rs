//! Mermaid blocks: the first statement names a diagram type mermaid knows. (Syntax errors inside a
//! diagram show up in the browser check, which sees mermaid's own error diagram.)

use super::{Finding, Page};
use crate::preprocess::prose::Lines;
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

/// The diagram types of mermaid 11.6 (the version mdbook-mermaid 0.17 ships in
/// `book/mermaid.min.js`), as the first word of a diagram.
pub const DIAGRAM_TYPES: &[&str] = &[
    "graph",
    "flowchart",
    "flowchart-elk",
    "sequenceDiagram",
    "classDiagram",
    "classDiagram-v2",
    "stateDiagram",
    "stateDiagram-v2",
    "erDiagram",
    "journey",
    "gantt",
    "pie",
    "quadrantChart",
    "requirementDiagram",
    "gitGraph",
    "C4Context",
    "C4Container",
    "C4Component",
    "C4Dynamic",
    "C4Deployment",
    "mindmap",
    "timeline",
    "sankey-beta",
    "xychart-beta",
    "block-beta",
    "packet-beta",
    "kanban",
    "architecture-beta",
    "radar-beta",
];

/// The first word of a diagram and its offset in `code`, skipping blank lines, `%%` comments
/// and directives, and a `---` front matter block.
fn diagram_type(code: &str) -> Option<(usize, &str)> {
    let mut offset = 0;
    let mut in_front_matter = false;
    let mut first_content = true;
    for line in code.split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        let trimmed = line.trim();
        if trimmed == "---" && (first_content || in_front_matter) {
            in_front_matter = !in_front_matter;
            first_content = false;
            continue;
        }
        if in_front_matter || trimmed.is_empty() || trimmed.starts_with("%%") {
            continue;
        }
        let word = trimmed
            .split(|c: char| c.is_whitespace() || c == ';' || c == ':')
            .next()?;
        return Some((here + (line.len() - line.trim_start().len()), word));
    }
    None
}

pub fn check(pages: &[Page], findings: &mut Vec<Finding>) {
    for page in pages {
        let lines = Lines::new(&page.text);
        // (line of the fence, line of the first code line, the code) of the open mermaid block
        let mut block: Option<(usize, Option<usize>, String)> = None;
        for (event, range) in Parser::new(&page.text).into_offset_iter() {
            match event {
                Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                    if info.split_whitespace().next() == Some("mermaid") =>
                {
                    block = Some((lines.line_of(range.start), None, String::new()));
                }
                Event::Text(code) => {
                    if let Some((_, first_line, text)) = block.as_mut() {
                        first_line.get_or_insert(lines.line_of(range.start));
                        text.push_str(&code);
                    }
                }
                Event::End(TagEnd::CodeBlock) => {
                    let Some((fence_line, first_line, code)) = block.take() else {
                        continue;
                    };
                    match diagram_type(&code) {
                        None => findings.push(Finding::error(
                            &page.file,
                            fence_line,
                            "an empty mermaid block",
                        )),
                        Some((_, word)) if DIAGRAM_TYPES.contains(&word) => {}
                        Some((at, word)) => findings.push(Finding::error(
                            &page.file,
                            first_line.unwrap_or(fence_line) + code[..at].matches('\n').count(),
                            format!(
                                "unknown mermaid diagram type {word:?} (known: {})",
                                DIAGRAM_TYPES.join(", ")
                            ),
                        )),
                    }
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_type_is_the_first_word_after_comments_and_front_matter() {
        assert_eq!(diagram_type("graph TD\n  a --> b\n"), Some((0, "graph")));
        assert_eq!(
            diagram_type("%% a comment\n\n  sequenceDiagram\n"),
            Some((16, "sequenceDiagram"))
        );
        assert_eq!(
            diagram_type("---\ntitle: x\n---\npie title y\n"),
            Some((17, "pie"))
        );
        assert_eq!(diagram_type("\n\n"), None);
    }
}
