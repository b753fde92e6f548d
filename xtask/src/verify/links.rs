//! Internal links: every link of a page to another page (or itself) reaches an existing page,
//! and every `#anchor` an `id` of that page as mdBook built it.

use super::{BOOK_SRC, Finding, Page};
use crate::preprocess::prose::Lines;
use pulldown_cmark::{Event, Options, Parser, Tag};
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::sync::LazyLock;

static SCHEME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z][A-Za-z0-9+.-]*:").expect("a valid regex"));
static ID: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"\sid="([^"]*)""#).expect("a valid regex"));

/// Every link target of a page with its line: `(line, destination)`.
pub fn link_targets(markdown: &str) -> Vec<(usize, String)> {
    let lines = Lines::new(markdown);
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_DEFINITION_LIST
        | Options::ENABLE_GFM;
    Parser::new_ext(markdown, options)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                Some((lines.line_of(range.start), dest_url.to_string()))
            }
            _ => None,
        })
        .collect()
}

/// `path` with `.` and `..` resolved lexically; `None` if it climbs above its start.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                if !normal.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            other => normal.push(other),
        }
    }
    Some(normal)
}

/// The HTML page mdBook makes of a source file inside `book/src`.
fn html_of(in_src: &Path) -> PathBuf {
    if in_src.file_name().is_some_and(|name| name == "README.md") {
        in_src.with_file_name("index.html")
    } else {
        in_src.with_extension("html")
    }
}

/// Checks the links of every page. Without a build (`build_dir` is `None`) only the existence
/// of the target pages is checked, not their anchors.
pub fn check(root: &Path, pages: &[Page], build_dir: Option<&Path>, findings: &mut Vec<Finding>) {
    let src = root.join(BOOK_SRC);
    let mut ids_cache: BTreeMap<PathBuf, Option<BTreeSet<String>>> = BTreeMap::new();
    let mut ids_of = |html: &Path| -> Option<BTreeSet<String>> {
        ids_cache
            .entry(html.to_path_buf())
            .or_insert_with(|| {
                let text = std::fs::read_to_string(html).ok()?;
                Some(
                    ID.captures_iter(&text)
                        .map(|caps| caps[1].to_string())
                        .collect(),
                )
            })
            .clone()
    };

    for page in pages {
        let in_src = page.in_src();
        let page_dir = in_src.parent().map(Path::to_path_buf).unwrap_or_default();
        for (line, destination) in link_targets(&page.text) {
            let at = |message: String| Finding::error(&page.file, line, message);
            if destination.is_empty() {
                findings.push(at("a link with no target".to_string()));
                continue;
            }
            if SCHEME.is_match(&destination) || destination.starts_with("//") {
                continue; // another site: not ours to check offline
            }
            let (path, fragment) = match destination.split_once('#') {
                Some((path, fragment)) => (path, Some(fragment)),
                None => (destination.as_str(), None),
            };
            let target = if path.is_empty() {
                in_src.clone()
            } else if let Some(absolute) = path.strip_prefix('/') {
                PathBuf::from(absolute)
            } else {
                match normalize(&page_dir.join(path)) {
                    Some(target) => target,
                    None => {
                        findings.push(at(format!("link {destination} leaves the book")));
                        continue;
                    }
                }
            };
            let is_md = target.extension().is_some_and(|e| e == "md");
            let is_html = target.extension().is_some_and(|e| e == "html");
            let html = if is_md {
                html_of(&target)
            } else {
                target.clone()
            };
            let exists = if is_html {
                src.join(target.with_extension("md")).is_file()
                    || build_dir.is_some_and(|b| b.join(&target).is_file())
            } else {
                src.join(&target).is_file()
            };
            if !exists {
                findings.push(at(format!(
                    "link {destination}: no page {}",
                    Path::new(BOOK_SRC).join(&target).display()
                )));
                continue;
            }
            let (Some(fragment), Some(build_dir)) = (fragment, build_dir) else {
                continue;
            };
            if !(is_md || is_html) {
                continue;
            }
            match ids_of(&build_dir.join(&html)) {
                Some(ids) if ids.contains(fragment) => {}
                Some(_) => findings.push(at(format!(
                    "link {destination}: {} has no heading or element with id {fragment:?}",
                    target.display()
                ))),
                None => findings.push(at(format!(
                    "link {destination}: {} is not in the book (is it in SUMMARY.md?)",
                    target.display()
                ))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_targets_come_with_their_lines() {
        let md = "See [ch 2](ch02.md#magic).\n\n![plot](plot.svg) and <https://example.invalid>\n";
        let targets = link_targets(md);
        assert_eq!(targets[0], (1, "ch02.md#magic".to_string()));
        assert_eq!(targets[1], (3, "plot.svg".to_string()));
    }
}
