//! The live half of `cargo xtask browser`: the book served as `cargo xtask serve` serves it, a
//! chapter's **Run it here** panel pressed in headless Chromium, and the server's refusals.
//!
//! The server runs in this process on a free port of 127.0.0.1, with the release engine built
//! once. Chromium, driven through its DevTools protocol ([`crate::cdp`]), opens chapter 11 (and
//! every other page with a panel of the six) with the test-only
//! `?runit=autorun&position=ID&switch=NAME:on|off`, which sets the panel and presses Run on load; the check waits (in real time) until the panel says it is done and
//! reads what it wrote into the DOM. It fails unless:
//!
//! - each search's last count equals the pinned figure for its settings (the page names the
//!   key, this check reads its value from the stored figures), with chapter 11's `nullmove` on
//!   (the book's default) and off, and on every other panel page each of its switches off, and
//!   the count grew over the iterations (one row each, depth 1 to the panel's depth);
//! - the page itself says the counts are the same (`data-match="true"`);
//! - a request the panel would never send is refused with `400` and what was wrong (a FEN the
//!   engine refuses, an unknown switch, a depth past the limit, an unknown parameter), and a
//!   refusal reaches the reader: a page asking for an unknown switch shows the server's message;
//! - a page that goes away mid-search has its search stopped (the server's count of running
//!   searches falls back to 0);
//! - nothing is logged to the page's console.
//!
//! After chapter 11's run with the null move off it saves a picture of the panel
//! (`book/build/screenshots/live-ch11-nullmove-off.png`): what a reader sees after pressing Run.

use crate::cdp::Browser;
use crate::live::EngineState;
use crate::serve::{Server, serve_forever};
use crate::stored::FigureTable;
use base64::Engine as _;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The page the check presses most: chapter 11, whose panel the issue is about.
const PAGE: &str = "ch11-null-move-pruning.html";

/// The searches pressed on [`PAGE`]: cheap ones (the rook endgame is tens of thousands of
/// nodes; the opening with the null move off over a million, a second or two). On every other
/// page with a panel of the six, the rook endgame with the switch off is pressed.
const SEARCHES: [(&str, &str); 3] = [
    ("rook-endgame", "on"),
    ("rook-endgame", "off"),
    ("opening", "off"),
];

/// Where the check leaves a picture of chapter 11's panel after its run with the null move off
/// (under the book's build directory), for whoever reads the check's output.
const PICTURE: &str = "screenshots/live-ch11-nullmove-off.png";

/// How long one page may take.
const PAGE_LIMIT: Duration = Duration::from_secs(90);

/// What the panel reports, as one JSON value: its state, its error, and each result's data.
const PANEL_STATE: &str = "(() => { const p = document.querySelector('.runit'); \
    if (!p) { return null; } \
    return { state: p.dataset.state || '', error: p.dataset.error || '', \
    results: Array.from(p.querySelectorAll('.runit-result')).map(r => Object.assign( \
    { rows: r.querySelectorAll('tbody tr').length }, r.dataset)) }; })()";

/// Runs the live check; returns one line per thing checked, or the problems.
pub fn check(root: &Path, build_dir: &Path) -> Result<Vec<String>, Vec<String>> {
    let engine = crate::release::build_cb2026(root).map_err(|e| vec![e])?;
    let mut problems = Vec::new();
    let table = FigureTable::load(root, &mut Vec::new());
    let listener = TcpListener::bind(("127.0.0.1", 0)).map_err(|e| vec![e.to_string()])?;
    let port = listener
        .local_addr()
        .map_err(|e| vec![e.to_string()])?
        .port();
    let server = Arc::new(Server::new(
        build_dir.to_path_buf(),
        EngineState::Ready(engine),
    ));
    let serving = Arc::clone(&server);
    std::thread::spawn(move || serve_forever(&listener, &serving));
    let base = format!("http://127.0.0.1:{port}");
    let mut done = Vec::new();

    done.extend(refusals(port, &mut problems));
    let chromium = crate::browser::chromium().map_err(|e| vec![e])?;
    let flags: Vec<&str> = crate::browser::CHROMIUM_FLAGS
        .iter()
        .copied()
        .filter(|flag| !flag.starts_with("--virtual-time-budget"))
        .collect();
    let mut browser = Browser::start(&chromium, &flags).map_err(|e| vec![e])?;
    let mut pressed = Vec::new();
    for PanelPage {
        name,
        switches,
        depth,
    } in panel_pages(build_dir)
    {
        let searches: &[(&str, &str)] = if name == PAGE {
            &SEARCHES
        } else {
            &[("rook-endgame", "off")]
        };
        for (switch, &(position, state)) in switches
            .iter()
            .flat_map(|switch| searches.iter().map(move |search| (switch, search)))
        {
            let search = Search {
                page: &name,
                switch,
                position,
                state,
                depth,
            };
            match press_run(&mut browser, &base, &search, &table) {
                Ok(line) if name == PAGE && (position, state) == ("rook-endgame", "off") => {
                    done.push(line);
                    let picture = build_dir.join(PICTURE);
                    match save_panel_picture(&mut browser, &picture) {
                        Ok(()) => done.push(format!("live    a picture: {}", picture.display())),
                        Err(problem) => problems.push(format!("the panel's picture: {problem}")),
                    }
                }
                Ok(line) => done.push(line),
                Err(problem) => {
                    problems.push(format!("{name}: {position}, {switch} {state}: {problem}"))
                }
            }
        }
        pressed.push(name);
    }
    if !pressed.iter().any(|page| page == PAGE) {
        problems.push(format!("{PAGE} has no Run it here panel of the six"));
    }
    match refused_in_the_page(&mut browser, &base) {
        Ok(line) => done.push(line),
        Err(problem) => problems.push(problem),
    }
    match page_goes_away(&mut browser, &base, &server) {
        Ok(line) => done.push(line),
        Err(problem) => problems.push(problem),
    }
    for message in &browser.console {
        problems.push(format!("a page's console: {message}"));
    }
    if problems.is_empty() {
        Ok(done)
    } else {
        Err(problems)
    }
}

/// A built page whose first panel has the six positions.
struct PanelPage {
    /// The page's file name.
    name: String,
    /// The panel's switches.
    switches: Vec<String>,
    /// The depth its figures are pinned at: one table row per iteration.
    depth: usize,
}

/// One search a page is asked for.
struct Search<'a> {
    page: &'a str,
    switch: &'a str,
    position: &'a str,
    state: &'a str,
    depth: usize,
}

/// Every built page whose first panel has the six positions.
fn panel_pages(build_dir: &Path) -> Vec<PanelPage> {
    let mut pages: Vec<PanelPage> = crate::verify::walk(build_dir, &|path| {
        path.extension().is_some_and(|e| e == "html")
    })
    .into_iter()
    .filter_map(|path| {
        let name = path.file_name()?.to_str()?.to_string();
        if name == "print.html" {
            return None;
        }
        let html = std::fs::read_to_string(&path).ok()?;
        let panel = &html[html.find("<div class=\"runit\"")?..];
        let attribute = |name: &str| {
            let start = format!("{name}=\"");
            Some(
                panel
                    .split(start.as_str())
                    .nth(1)?
                    .split('"')
                    .next()?
                    .to_string(),
            )
        };
        let switches = attribute("data-switch")?
            .split(',')
            .map(str::to_string)
            .collect();
        let depth = attribute("data-depth")?.parse().ok()?;
        panel
            .contains("data-id=\"rook-endgame\"")
            .then_some(PanelPage {
                name,
                switches,
                depth,
            })
    })
    .collect();
    pages.sort_by(|a, b| a.name.cmp(&b.name));
    pages
}

/// Opens `page` with Run pressed on load and checks its result against the stored figure the
/// page names, read here from the stored figures.
fn press_run(
    browser: &mut Browser,
    base: &str,
    search: &Search,
    table: &FigureTable,
) -> Result<String, String> {
    let &Search {
        page,
        switch,
        position,
        state,
        depth,
    } = search;
    let url = format!("{base}/{page}?runit=autorun&position={position}&switch={switch}:{state}");
    browser.navigate(&url)?;
    let started = Instant::now();
    let panel = wait_until_settled(browser)?;
    let result = panel["results"]
        .as_array()
        .and_then(|results| results.first())
        .ok_or_else(|| format!("the panel shows no result (state {})", panel["state"]))?;
    let field = |name: &str| result[name].as_str().unwrap_or_default().to_string();
    if panel["state"] != "done" {
        return Err(format!(
            "the panel ended {} ({})",
            panel["state"], panel["error"]
        ));
    }
    let key = field("key");
    let expected = format!(".{position}.{state}.nodes");
    if !key.ends_with(&expected) {
        return Err(format!(
            "the page compares with {key:?}, not a key ending {expected}"
        ));
    }
    let pinned = table
        .get(&key)
        .ok_or_else(|| format!("no stored figure {key}"))?
        .value
        .clone();
    if field("nodes") != pinned {
        return Err(format!(
            "the page counted {} nodes, the stored {key} is {pinned}",
            field("nodes")
        ));
    }
    if field("match") != "true" || field("pinned") != pinned {
        return Err(format!(
            "the page compared with {} and says match={}",
            field("pinned"),
            field("match")
        ));
    }
    let rows = result["rows"].as_u64().unwrap_or(0) as usize;
    if rows != depth {
        return Err(format!(
            "{rows} iterations shown, not {depth}: the count did not grow iteration by iteration"
        ));
    }
    Ok(format!(
        "live    {page}: {position}, {switch} {state}: Run shows {} nodes over {rows} \
         iterations, best {}, = {key} ({:.1} s)",
        thousands(&pinned),
        field("best"),
        started.elapsed().as_secs_f64()
    ))
}

/// Saves a PNG of the page's first panel as it stands (DevTools' `Page.captureScreenshot`,
/// clipped to the panel).
fn save_panel_picture(browser: &mut Browser, path: &Path) -> Result<(), String> {
    let mut clip = browser.evaluate(
        "(() => { const r = document.querySelector('.runit').getBoundingClientRect(); \
         return { x: r.x + window.scrollX, y: r.y + window.scrollY, \
         width: r.width, height: r.height }; })()",
    )?;
    clip["scale"] = serde_json::json!(1);
    let shot = browser.call(
        "Page.captureScreenshot",
        serde_json::json!({"format": "png", "captureBeyondViewport": true, "clip": clip}),
    )?;
    let data = shot["data"].as_str().ok_or("Chromium sent no picture")?;
    let png = base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| format!("Chromium's picture: {e}"))?;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(path, png).map_err(|e| format!("{}: {e}", path.display()))
}

/// Waits until the panel is done, stopped or refused, and returns what it reports.
fn wait_until_settled(browser: &mut Browser) -> Result<Value, String> {
    browser.wait_for(PANEL_STATE, PAGE_LIMIT, |panel| {
        matches!(
            panel["state"].as_str(),
            Some("done" | "refused" | "stopped" | "failed")
        )
    })
}

/// A page whose request the server refuses shows the server's reason.
fn refused_in_the_page(browser: &mut Browser, base: &str) -> Result<String, String> {
    let url = format!("{base}/{PAGE}?runit=autorun&position=rook-endgame&switch=nosuchswitch:off");
    browser.navigate(&url)?;
    let panel = wait_until_settled(browser)?;
    let error = panel["error"].as_str().unwrap_or_default();
    if panel["state"] != "refused" || !error.contains("unknown switch 'nosuchswitch'") {
        return Err(format!(
            "a page asking for an unknown switch ended {} with {error:?}",
            panel["state"]
        ));
    }
    Ok(format!(
        "live    {PAGE}: an unknown switch is refused in the page: {error}"
    ))
}

/// A page left mid-search: its search must stop.
fn page_goes_away(browser: &mut Browser, base: &str, server: &Server) -> Result<String, String> {
    // Stage 20 at depth 30 from the opening: far longer than this check waits.
    let url = format!("{base}/{PAGE}?runit=autorun&position=opening&stage=20&depth=30");
    browser.navigate(&url)?;
    browser.wait_for(PANEL_STATE, PAGE_LIMIT, |panel| {
        panel["results"][0]["position"] == "opening"
    })?;
    let running = wait_for_running(server, 1, Duration::from_secs(10))
        .map_err(|n| format!("{n} searches run after Run was pressed, not 1"))?;
    browser.navigate("about:blank")?;
    let left = Instant::now();
    wait_for_running(server, 0, Duration::from_secs(10))
        .map_err(|n| format!("{n} searches still run 10 s after their page went away"))?;
    Ok(format!(
        "live    a page left mid-search ({running} running): the server stopped it in {:.1} s",
        left.elapsed().as_secs_f64()
    ))
}

/// Waits until exactly `count` searches run; the count last seen if that does not happen.
fn wait_for_running(server: &Server, count: usize, limit: Duration) -> Result<usize, usize> {
    let deadline = Instant::now() + limit;
    loop {
        let now = server.live.running();
        if now == count {
            return Ok(now);
        }
        if Instant::now() > deadline {
            return Err(now);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Requests the panel never sends, each with the status and words its answer must have.
const BAD_REQUESTS: [(&str, &str, &str); 6] = [
    (
        "GET",
        "/__engine/search?page=t&fen=8%2F8+w+-+-+0+1&stage=11&depth=8",
        "fen: the engine refuses it",
    ),
    (
        "GET",
        "/__engine/search?page=t&fen=1K1k4%2F1P6%2F8%2F8%2F8%2F8%2Fr7%2F2R5+w+-+-+0+1&stage=11\
         &switch=nosuch:off&depth=8",
        "unknown switch 'nosuch'",
    ),
    (
        "GET",
        "/__engine/search?page=t&fen=1K1k4%2F1P6%2F8%2F8%2F8%2F8%2Fr7%2F2R5+w+-+-+0+1&stage=11\
         &depth=99",
        "depth: '99' is not a number from 1 to 30",
    ),
    (
        "GET",
        "/__engine/search?page=t&fen=1K1k4%2F1P6%2F8%2F8%2F8%2F8%2Fr7%2F2R5+w+-+-+0+1&stage=11\
         &depth=8&path=%2Fetc%2Fpasswd",
        "unknown parameter 'path'",
    ),
    (
        "GET",
        "/__engine/search?page=t&fen=1K1k4%2F1P6%2F8%2F8%2F8%2F8%2Fr7%2F2R5+w+-+-+0+1&stage=11\
         &movetime=600000",
        "movetime: '600000' is not a number of milliseconds",
    ),
    ("POST", "/__engine/search", "the engine answers GET only"),
];

/// Sends each of [`BAD_REQUESTS`] and checks that it is refused with its reason.
fn refusals(port: u16, problems: &mut Vec<String>) -> Vec<String> {
    let mut done = Vec::new();
    for (method, target, reason) in BAD_REQUESTS {
        match http(port, method, target) {
            Ok((status, body)) if status.starts_with('4') && body.contains(reason) => {
                done.push(format!(
                    "live    refused: {method} … → {status} {}",
                    body.trim()
                ));
            }
            Ok((status, body)) => problems.push(format!(
                "{method} {target}: answered {status} {body:?}, not a refusal saying {reason:?}"
            )),
            Err(error) => problems.push(format!("{method} {target}: {error}")),
        }
    }
    done
}

/// One HTTP request to the server: `(status code and reason, body)`.
fn http(port: u16, method: &str, target: &str) -> Result<(String, String), String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    write!(
        stream,
        "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| e.to_string())?;
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .map_err(|e| e.to_string())?;
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head
        .lines()
        .next()
        .and_then(|line| line.split_once(' '))
        .map_or("", |(_, status)| status);
    Ok((status.to_string(), body.to_string()))
}

/// `1603390` as `1,603,390`.
fn thousands(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_printed_as_the_book_prints_them() {
        assert_eq!(thousands("1603390"), "1,603,390");
        assert_eq!(thousands("30047"), "30,047");
        assert_eq!(thousands("171"), "171");
    }
}
