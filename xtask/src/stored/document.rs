//! The format of chapter snapshots and stored measurements: insta's YAML snapshot, a header
//! between `---` lines, then a flat `key: value` map.

use std::collections::BTreeMap;

/// A snapshot-like document: an optional header between `---` lines, then a flat YAML map.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Document {
    pub header: BTreeMap<String, String>,
    /// `(key, value, 1-based line)`, in file order.
    pub body: Vec<(String, String, usize)>,
}

/// Parses insta's snapshot format (and ours for stored measurements): `---`, header lines,
/// `---`, then one `key: value` per line. Values may be plain, 'single' or "double" quoted.
/// Anything nested is refused: a chapter's figures are a flat map. Errors carry a line.
pub fn parse_document(text: &str) -> Result<Document, (usize, String)> {
    let mut document = Document::default();
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line))
        .peekable();
    if lines
        .peek()
        .is_some_and(|(_, line)| line.trim_end() == "---")
    {
        lines.next();
        loop {
            let Some((number, line)) = lines.next() else {
                return Err((
                    number_of_lines(text),
                    "the header has no closing ---".to_string(),
                ));
            };
            if line.trim_end() == "---" {
                break;
            }
            // Nested header fields (insta's `info:`) are not ours to read.
            if !line.starts_with([' ', '\t'])
                && let Some((key, value)) = line.split_once(':')
            {
                let value = scalar(value.trim()).map_err(|message| (number, message))?;
                document.header.insert(key.trim().to_string(), value);
            }
        }
    }
    for (number, line) in lines {
        let content = line.trim_end();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        if content.starts_with([' ', '\t', '-']) {
            return Err((
                number,
                "figures are a flat map: one `key: value` per line".to_string(),
            ));
        }
        let Some((key, value)) = content
            .split_once(": ")
            .or_else(|| content.strip_suffix(':').map(|k| (k, "")))
        else {
            return Err((number, format!("expected `key: value`, found {content:?}")));
        };
        if value.trim().is_empty() {
            return Err((
                number,
                format!("{key} has no value (nested maps are not figures)"),
            ));
        }
        let value = scalar(value.trim()).map_err(|message| (number, message))?;
        document.body.push((key.trim().to_string(), value, number));
    }
    Ok(document)
}

fn number_of_lines(text: &str) -> usize {
    text.lines().count().max(1)
}

/// The value of a YAML scalar as written on one line.
fn scalar(raw: &str) -> Result<String, String> {
    if let Some(inner) = raw.strip_prefix('\'') {
        let inner = inner.strip_suffix('\'').ok_or("unclosed 'string'")?;
        return Ok(inner.replace("''", "'"));
    }
    if let Some(inner) = raw.strip_prefix('"') {
        let inner = inner.strip_suffix('"').ok_or("unclosed \"string\"")?;
        let mut value = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                value.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => value.push('\n'),
                Some('t') => value.push('\t'),
                Some(c @ ('\\' | '"' | '/')) => value.push(c),
                other => return Err(format!("unsupported escape \\{}", other.unwrap_or(' '))),
            }
        }
        return Ok(value);
    }
    Ok(raw.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_insta_snapshot_parses_to_its_figures() {
        let text = "---\nsource: chapters/tests/figures.rs\nexpression: figures\n---\n\
                    ch01.e2.flipped: e7\nch01.e4.index: 28\nch01.quoted: \"a \\\"b\\\"\"\nch01.single: 'it''s'\n";
        let document = parse_document(text).unwrap();
        assert_eq!(document.header["source"], "chapters/tests/figures.rs");
        let body: Vec<(&str, &str, usize)> = document
            .body
            .iter()
            .map(|(k, v, l)| (k.as_str(), v.as_str(), *l))
            .collect();
        assert_eq!(
            body,
            [
                ("ch01.e2.flipped", "e7", 5),
                ("ch01.e4.index", "28", 6),
                ("ch01.quoted", "a \"b\"", 7),
                ("ch01.single", "it's", 8)
            ]
        );
    }

    #[test]
    fn nested_maps_and_open_headers_are_refused() {
        assert_eq!(parse_document("a:\n  b: 1\n").unwrap_err().0, 1);
        assert_eq!(
            parse_document("---\nsource: x\n").unwrap_err().1,
            "the header has no closing ---"
        );
    }
}
