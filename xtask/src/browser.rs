//! `cargo xtask browser`: every page of the built book, opened in headless Chromium.
//!
//! The static checks cannot see what a reader sees: a diagram mermaid fails to draw, a script that
//! throws, a code block too wide for its column, a chess glyph the fonts lack. Each page is loaded
//! by Debian's `chromium` at 1280 × 900 with `--dump-dom` (the DOM after scripts ran,
//! `--virtual-time-budget` letting them finish) and `--enable-logging=stderr --v=0`, which prints
//! every console message as a line `...:INFO:CONSOLE:<line>] "message", source: <url> (<line>)`.
//! Chromium logs console.log, console.warn, console.error and uncaught exceptions alike at
//! INFO, so the level cannot be told apart there; our pages log nothing when healthy, so any
//! console message fails the page. (The DevTools protocol would give levels, and print media,
//! at the price of a WebSocket client.)
//!
//! What needs measuring in the page is done by `browser_check.js`, injected into a copy of the
//! page (next to it, so its relative links hold; removed afterwards): it writes its findings into
//! the DOM, which `--dump-dom` prints. A page fails on:
//!
//! - a raw `{{#` in its DOM;
//! - a `<pre class="mermaid">` that mermaid did not turn into an SVG, or turned into its error
//!   diagram (`aria-roledescription="error"`);
//! - any console message;
//! - a code block wider than its box (the reader would scroll sideways) in the light, coal or
//!   ayu theme, or for `print.html` with the print stylesheets applied;
//! - a board diagram without 64 squares, with another number of pieces than its FEN, or drawn
//!   with a font that lacks the chess glyphs.
//!
//! Then [`crate::browser_live`] serves the book and presses a Run it here panel, as a reader of
//! `cargo xtask serve` would.
//!
//! `cargo xtask screenshot <page> [--theme T] [--at ID]` saves a picture of one page.

use crate::verify::output::has_leftover_directive;
use crate::verify::walk;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The flags of a quiet, self-contained headless run (no network, no profile, no GPU).
pub const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--virtual-time-budget=5000",
];

/// The window every page is checked in: a common laptop width, with mdBook's sidebar open.
pub const WINDOW: (u32, u32) = (1280, 900);

/// The themes a code block must fit in (mdBook's default light one and two dark ones). Themes
/// change colours only, so they agree; checking three keeps it so if a theme ever changes a font.
pub const THEMES_CHECKED: &[&str] = &["light", "coal", "ayu"];

/// The in-page check (see the module's documentation).
const CHECK_SCRIPT: &str = include_str!("browser_check.js");

/// A page that does not finish in this time is a failure, not a hang of CI.
const PAGE_TIMEOUT: Duration = Duration::from_secs(120);

/// The Chromium to run: `$CHROMIUM`, else the first of the usual names on the PATH.
pub fn chromium() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Ok(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err("no chromium on the PATH: apt-get install chromium (or set CHROMIUM)".to_string())
}

/// Runs Chromium once with `args` in a fresh profile; returns `(stdout, stderr)`.
fn run_chromium(args: &[String]) -> Result<(String, String), String> {
    static RUN: AtomicUsize = AtomicUsize::new(0);
    let profile = std::env::temp_dir().join(format!(
        "cb2026-chromium-{}-{}",
        std::process::id(),
        RUN.fetch_add(1, Ordering::SeqCst)
    ));
    let mut child = Command::new(chromium()?)
        .args(CHROMIUM_FLAGS)
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start chromium: {e}"))?;
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if started.elapsed() > PAGE_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let (stdout, stderr) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    let _ = std::fs::remove_dir_all(&profile);
    match status {
        None => Err(format!(
            "chromium did not finish in {} s",
            PAGE_TIMEOUT.as_secs()
        )),
        Some(status) if !status.success() => {
            Err(format!("chromium failed ({status}): {}", stderr.trim()))
        }
        Some(_) => Ok((stdout, stderr)),
    }
}

fn file_url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// What the injected script is asked to do in a page copy.
#[derive(Clone, Debug, Default)]
pub struct PageOptions {
    /// mdBook's theme to open the page in (as if the reader had picked it), or its default.
    pub theme: Option<String>,
    /// Measure code blocks in these themes, and boards.
    pub measure_themes: Vec<String>,
    /// Measure code blocks with the print stylesheets applied too.
    pub print: bool,
    /// Start the page's text at the first element this CSS selector finds (for screenshots).
    pub start_at: Option<String>,
}

impl PageOptions {
    /// The script that goes first in the page's `<head>`: the options, the theme choice (where
    /// mdBook's own start-up script reads it), then the check.
    fn prelude(&self) -> String {
        // A JavaScript string: backslash and quote escaped, `<` too (no `</script>` inside).
        let quoted = |text: &str| {
            let escaped = text
                .replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace('<', "\\u003c");
            format!("\"{escaped}\"")
        };
        let themes: Vec<String> = self.measure_themes.iter().map(|t| quoted(t)).collect();
        let mut script = format!(
            "window.CB2026_CHECK = {{measure: {}, themes: [{}], print: {}, startAt: {}}};\n",
            !self.measure_themes.is_empty() || self.print,
            themes.join(", "),
            self.print,
            self.start_at.as_deref().map_or("null".to_string(), quoted)
        );
        if let Some(theme) = &self.theme {
            script.push_str(&format!(
                "try {{ localStorage.setItem('mdbook-theme', {}); }} catch (e) {{}}\n",
                quoted(theme)
            ));
        }
        format!("<script>\n{script}</script>\n<script>\n{CHECK_SCRIPT}</script>\n")
    }
}

/// A copy of a built page with the check script in its `<head>`, deleted when dropped.
#[derive(Debug)]
struct PageCopy {
    path: PathBuf,
}

impl PageCopy {
    fn new(page: &Path, options: &PageOptions) -> Result<PageCopy, String> {
        static COPY: AtomicUsize = AtomicUsize::new(0);
        let html = std::fs::read_to_string(page)
            .map_err(|e| format!("cannot read {}: {e}", page.display()))?;
        let stem = page.file_stem().and_then(|s| s.to_str()).unwrap_or("page");
        let path = page.with_file_name(format!(
            "{stem}.cb2026-check-{}-{}.html",
            std::process::id(),
            COPY.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::write(&path, inject(&html, &options.prelude()))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(PageCopy { path })
    }
}

impl Drop for PageCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// `html` with `script` right after its `<head>` (or at its start), so it runs before mdBook's.
fn inject(html: &str, script: &str) -> String {
    let at = html.find("<head>").map_or(0, |i| i + "<head>".len());
    format!("{}\n{script}{}", &html[..at], &html[at..])
}

/// `--window-size=1280,900`.
fn window_flag() -> String {
    format!("--window-size={},{}", WINDOW.0, WINDOW.1)
}

/// What is wrong with a page, judged from its DOM after scripts and Chromium's log.
pub fn page_problems(dom: &str, log: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if dom.lines().any(has_leftover_directive) {
        problems.push("a raw `{{#` directive in the page".to_string());
    }
    for (index, block) in dom.split("<pre class=\"mermaid\"").skip(1).enumerate() {
        let block = block.split("</pre>").next().unwrap_or_default();
        let tag = block.split('>').next().unwrap_or_default();
        if block.contains("aria-roledescription=\"error\"") {
            problems.push(format!(
                "mermaid diagram {} is mermaid's error diagram (a syntax error)",
                index + 1
            ));
        } else if !tag.contains("data-processed=\"true\"") || !block.contains("<svg") {
            problems.push(format!(
                "mermaid diagram {} was not rendered to SVG",
                index + 1
            ));
        }
    }
    for line in log.lines().filter(|line| line.contains(":CONSOLE")) {
        let message = line.split_once("] ").map_or(line, |(_, message)| message);
        problems.push(format!("console: {message}"));
    }
    problems.extend(check_script_problems(dom));
    problems
}

/// What `browser_check.js` wrote into the page: one `<p>` per problem inside
/// `<div id="cb2026-check" ... data-done="true">`; a page without it did not finish the check.
pub fn check_script_problems(dom: &str) -> Vec<String> {
    // The last one: the div is appended to the end of the body.
    let Some(start) = dom.rfind("<div id=\"cb2026-check\"") else {
        return vec!["the in-page check did not run (no #cb2026-check in the DOM)".to_string()];
    };
    let block = &dom[start..];
    let block = &block[..block.find("</div>").unwrap_or(block.len())];
    let tag = block.split('>').next().unwrap_or_default();
    if !tag.contains("data-done=\"true\"") {
        return vec!["the in-page check did not finish".to_string()];
    }
    block
        .split("<p>")
        .skip(1)
        .map(|p| unescape_html(p.split("</p>").next().unwrap_or_default()))
        .collect()
}

/// The text of serialized HTML: the entities a DOM serializer writes, decoded.
fn unescape_html(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// What to measure in `page`: the screen themes for every page, the print view for `print.html`
/// (which holds every chapter, so the print view of the book is one page).
fn options_for(page: &Path) -> PageOptions {
    if page.file_name().is_some_and(|name| name == "print.html") {
        PageOptions {
            print: true,
            ..PageOptions::default()
        }
    } else {
        PageOptions {
            measure_themes: THEMES_CHECKED.iter().map(ToString::to_string).collect(),
            ..PageOptions::default()
        }
    }
}

/// Loads one page (a copy with the check script) and returns its problems.
fn check_page(page: &Path) -> Vec<String> {
    let copy = match PageCopy::new(page, &options_for(page)) {
        Ok(copy) => copy,
        Err(error) => return vec![error],
    };
    let args = vec![
        "--enable-logging=stderr".to_string(),
        "--v=0".to_string(),
        window_flag(),
        "--dump-dom".to_string(),
        file_url(&copy.path),
    ];
    match run_chromium(&args) {
        Ok((dom, log)) if dom.trim().is_empty() => {
            vec![format!(
                "chromium printed no DOM: {}",
                log.lines().last().unwrap_or_default()
            )]
        }
        Ok((dom, log)) => page_problems(&dom, &log),
        Err(error) => vec![error],
    }
}

/// Builds the book of `root` and opens each page: `(page, problems)`, sorted by page.
pub fn check_pages(root: &Path) -> Result<Vec<(PathBuf, Vec<String>)>, String> {
    chromium()?;
    let built = crate::book::build(root)?;
    let pages = walk(&built.dir, &|path| {
        path.extension().is_some_and(|e| e == "html")
    });
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 4);
    let next = AtomicUsize::new(0);
    let mut results: Vec<(PathBuf, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    while let Some(page) = pages.get(next.fetch_add(1, Ordering::SeqCst)) {
                        done.push((page.clone(), check_page(page)));
                    }
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    results.sort();
    Ok(results)
}

/// `cargo xtask browser`: fails if any page of the book has a problem, or if the live book
/// (a chapter's Run it here panel, served as `cargo xtask serve` serves it) does not work
/// ([`crate::browser_live`]).
pub fn run(root: &Path) -> Result<(), String> {
    let results = check_pages(root)?;
    let live = crate::browser_live::check(root, &root.join("book/build"));
    let mut failed = 0;
    for (page, problems) in &results {
        let name = page.strip_prefix(root).unwrap_or(page).display();
        if problems.is_empty() {
            println!("ok      {name}");
        } else {
            failed += 1;
            for problem in problems {
                eprintln!("{name}: error: {problem}");
            }
        }
    }
    let live_failed = match &live {
        Ok(lines) => {
            lines.iter().for_each(|line| println!("{line}"));
            false
        }
        Err(problems) => {
            problems
                .iter()
                .for_each(|p| eprintln!("live book: error: {p}"));
            true
        }
    };
    if failed == 0 && !live_failed {
        println!(
            "browser: {} pages load cleanly in {}, and the live book runs the engine",
            results.len(),
            chromium()?.display()
        );
        Ok(())
    } else if failed == 0 {
        Err("browser: the live book has problems".to_string())
    } else {
        Err(format!(
            "browser: {failed} of {} pages have problems",
            results.len()
        ))
    }
}

/// The built page a name means: `ch01-squares-and-bitboards`, with or without `.html`.
fn page_named(build_dir: &Path, name: &str) -> Result<PathBuf, String> {
    let name = name.trim_end_matches(".html");
    let exact = build_dir.join(format!("{name}.html"));
    if exact.is_file() {
        return Ok(exact);
    }
    let matches: Vec<PathBuf> = walk(build_dir, &|path| {
        path.extension().is_some_and(|e| e == "html")
            && path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(name))
    });
    match matches.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(format!("no page {name} in {}", build_dir.display())),
        many => Err(format!("{name} names {} pages; say which", many.len())),
    }
}

/// `cargo xtask screenshot <page> [--theme T,...] [--at SELECTOR]`: builds the book once and
/// saves `book/build/screenshots/<page>[-<theme>][-<selector>].png` for each theme asked for
/// (several at once, since the next build empties `book/build`), the window at 1280 × 900 as
/// the browser check sees it, in mdBook's theme (its default, light, when none is given), the
/// text starting at the first element the CSS selector finds (`#the-tables`, `figure.board`).
pub fn screenshot(
    root: &Path,
    name: &str,
    themes: &[String],
    at: Option<&str>,
) -> Result<Vec<PathBuf>, String> {
    let built = crate::book::build(root)?;
    let page = page_named(&built.dir, name)?;
    let default = [None];
    let themes: Vec<Option<&str>> = if themes.is_empty() {
        default.to_vec()
    } else {
        themes.iter().map(|t| Some(t.as_str())).collect()
    };
    themes
        .into_iter()
        .map(|theme| {
            let options = PageOptions {
                theme: theme.map(str::to_string),
                start_at: at.map(str::to_string),
                ..PageOptions::default()
            };
            let shot = built
                .dir
                .join("screenshots")
                .join(screenshot_name(&page, theme, at));
            take_screenshot(&page, &options, &shot)
        })
        .collect()
}

/// `ch02-attacks-and-magic-bitboards-coal-figureboard.png`.
fn screenshot_name(page: &Path, theme: Option<&str>, at: Option<&str>) -> String {
    let mut file = page
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("page")
        .to_string();
    for part in [theme, at].into_iter().flatten() {
        file.push('-');
        file.extend(
            part.chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '-'),
        );
    }
    file + ".png"
}

/// One picture of `page` (a copy with `options`) into `shot`.
fn take_screenshot(page: &Path, options: &PageOptions, shot: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(shot.parent().expect("a folder")).map_err(|e| e.to_string())?;
    let copy = PageCopy::new(page, options)?;
    let args = vec![
        format!("--screenshot={}", shot.display()),
        window_flag(),
        file_url(&copy.path),
    ];
    run_chromium(&args)?;
    if !shot.is_file() {
        return Err(format!("chromium wrote no {}", shot.display()));
    }
    println!("{}", shot.display());
    Ok(shot.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the in-page check leaves in a page where it found nothing.
    const CHECKED: &str = "<div id=\"cb2026-check\" hidden=\"\" data-done=\"true\"></div>";

    fn with_check(dom: &str) -> String {
        format!("{dom}{CHECKED}")
    }

    #[test]
    fn rendered_broken_and_raw_diagrams_are_told_apart() {
        let good = "<pre class=\"mermaid\" data-processed=\"true\"><svg id=\"m\"></svg></pre>";
        let raw = "<pre class=\"mermaid\">graph TD; a--&gt;b</pre>";
        let error = "<pre class=\"mermaid\" data-processed=\"true\"><svg aria-roledescription=\"error\"></svg></pre>";
        assert!(page_problems(&with_check(good), "").is_empty());
        assert_eq!(
            page_problems(&with_check(raw), ""),
            ["mermaid diagram 1 was not rendered to SVG"]
        );
        assert_eq!(
            page_problems(&with_check(error), ""),
            ["mermaid diagram 1 is mermaid's error diagram (a syntax error)"]
        );
    }

    #[test]
    fn console_lines_and_raw_directives_are_problems() {
        let log = "[1:1:1130/083524.947:INFO:CONSOLE:1] \"Uncaught ReferenceError: x\", source: file:///p.html (1)\n\
                   [1:1:1130/083524.947:WARNING:other.cc(3)] not a console line\n";
        assert_eq!(
            page_problems(&with_check("<p>{{#include x}}</p>"), log),
            [
                "a raw `{{#` directive in the page",
                "console: \"Uncaught ReferenceError: x\", source: file:///p.html (1)"
            ]
        );
    }

    #[test]
    fn the_in_page_check_reports_its_problems_or_its_absence() {
        let found = "<div id=\"cb2026-check\" hidden=\"\" data-done=\"true\" data-width=\"1280\">\
                     <p>overflow: light: code block 2 at #magic (\"fn f() -&gt; u64 {\") is 900 px wide</p>\
                     <p>board: board 1 at #x has 63 squares, not 64</p></div>";
        assert_eq!(
            check_script_problems(found),
            [
                "overflow: light: code block 2 at #magic (\"fn f() -> u64 {\") is 900 px wide",
                "board: board 1 at #x has 63 squares, not 64"
            ]
        );
        assert_eq!(
            check_script_problems("<p>no check</p>"),
            ["the in-page check did not run (no #cb2026-check in the DOM)"]
        );
        assert_eq!(
            check_script_problems("<div id=\"cb2026-check\" hidden=\"\"></div>"),
            ["the in-page check did not finish"]
        );
    }

    #[test]
    fn the_check_goes_first_in_the_head() {
        let page = "<!DOCTYPE html><html><head><title>x</title></head></html>";
        let injected = inject(page, "<script>s</script>");
        assert!(injected.starts_with("<!DOCTYPE html><html><head>\n<script>s</script><title>"));
        let options = PageOptions {
            theme: Some("coal".into()),
            measure_themes: vec!["light".into()],
            ..PageOptions::default()
        };
        let prelude = options.prelude();
        assert!(
            prelude.contains("measure: true, themes: [\"light\"], print: false, startAt: null")
        );
        assert!(prelude.contains("localStorage.setItem('mdbook-theme', \"coal\")"));
    }
}
