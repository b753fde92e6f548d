//! `cargo xtask browser`: every page of the built book, opened in headless Chromium.
//!
//! The static checks cannot see what a reader sees: a diagram mermaid fails to draw, a script that
//! throws. Each page is loaded by Debian's `chromium` with `--dump-dom` (the DOM after scripts ran,
//! `--virtual-time-budget` letting them finish) and `--enable-logging=stderr --v=0`, which prints
//! every console message as a line `...:INFO:CONSOLE:<line>] "message", source: <url> (<line>)`.
//! Chromium 156 logs console.log, console.warn, console.error and uncaught exceptions alike at
//! INFO, so the level cannot be told apart there; our pages log nothing when healthy, so any
//! console message fails the page. (The DevTools protocol would give levels, at the price of a
//! WebSocket client.) A page fails on:
//!
//! - a raw `{{#` in its DOM;
//! - a `<pre class="mermaid">` that mermaid did not turn into an SVG, or turned into its error
//!   diagram (`aria-roledescription="error"`);
//! - any console message.
//!
//! `cargo xtask screenshot <page>` saves a picture of one page.

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
    problems
}

/// Loads one page and returns its problems.
fn check_page(page: &Path) -> Vec<String> {
    let args = vec![
        "--enable-logging=stderr".to_string(),
        "--v=0".to_string(),
        "--dump-dom".to_string(),
        file_url(page),
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

/// `cargo xtask browser`: fails if any page of the book has a problem.
pub fn run(root: &Path) -> Result<(), String> {
    let results = check_pages(root)?;
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
    if failed == 0 {
        println!(
            "browser: {} pages load cleanly in {}",
            results.len(),
            chromium()?.display()
        );
        Ok(())
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

/// `cargo xtask screenshot <page>`: builds the book and saves `book/build/screenshots/<page>.png`.
pub fn screenshot(root: &Path, name: &str) -> Result<PathBuf, String> {
    let built = crate::book::build(root)?;
    let page = page_named(&built.dir, name)?;
    let stem = page.file_stem().and_then(|s| s.to_str()).unwrap_or("page");
    let shot = built.dir.join("screenshots").join(format!("{stem}.png"));
    std::fs::create_dir_all(shot.parent().expect("a folder")).map_err(|e| e.to_string())?;
    let args = vec![
        format!("--screenshot={}", shot.display()),
        "--window-size=1200,900".to_string(),
        file_url(&page),
    ];
    run_chromium(&args)?;
    if !shot.is_file() {
        return Err(format!("chromium wrote no {}", shot.display()));
    }
    println!("{}", shot.display());
    Ok(shot)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendered_broken_and_raw_diagrams_are_told_apart() {
        let good = "<pre class=\"mermaid\" data-processed=\"true\"><svg id=\"m\"></svg></pre>";
        let raw = "<pre class=\"mermaid\">graph TD; a--&gt;b</pre>";
        let error = "<pre class=\"mermaid\" data-processed=\"true\"><svg aria-roledescription=\"error\"></svg></pre>";
        assert!(page_problems(good, "").is_empty());
        assert_eq!(
            page_problems(raw, ""),
            ["mermaid diagram 1 was not rendered to SVG"]
        );
        assert_eq!(
            page_problems(error, ""),
            ["mermaid diagram 1 is mermaid's error diagram (a syntax error)"]
        );
    }

    #[test]
    fn console_lines_and_raw_directives_are_problems() {
        let log = "[1:1:1130/083524.947:INFO:CONSOLE:1] \"Uncaught ReferenceError: x\", source: file:///p.html (1)\n\
                   [1:1:1130/083524.947:WARNING:other.cc(3)] not a console line\n";
        assert_eq!(
            page_problems("<p>{{#include x}}</p>", log),
            [
                "a raw `{{#` directive in the page",
                "console: \"Uncaught ReferenceError: x\", source: file:///p.html (1)"
            ]
        );
    }
}
