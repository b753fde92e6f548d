//! `cargo xtask serve`: the book on <http://127.0.0.1:3000>, rebuilt when a source changes and
//! reloaded in the browser, with the engine behind its **Run it here** panels.
//!
//! A small HTTP server on std alone (one thread per connection, on 127.0.0.1 only: the engine
//! it runs is the reader's, not the network's). It serves the built book's files, and passes
//! requests under `/__engine/` to [`crate::live`], which runs searches for the panels with the
//! release engine it builds once at start (in the background: the book is readable meanwhile).
//! A watcher polls the book, the snapshots and the Rust sources twice a second and rebuilds the
//! book on a change; every HTML page gets a script that polls `/__build` and reloads when the
//! build number moves.

use crate::book;
use crate::live::{EngineState, Live};
use crate::verify::walk;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What the watcher looks at: anything a page can include or quote.
const WATCHED: &[&str] = &["book", "snapshots", "crates", "chapters", "xtask/src"];

/// Injected before `</body>` of every page: reload when the build number changes.
const RELOAD_SCRIPT: &str = "<script>(function(){let seen=null;setInterval(function(){\
fetch('/__build').then(function(r){return r.text();}).then(function(id){\
if(seen!==null&&id!==seen){location.reload();}seen=id;}).catch(function(){});},1000);})();</script>";

/// What every connection needs: the book's folder, the build number, the live engine.
#[derive(Debug)]
pub struct Server {
    pub build_dir: PathBuf,
    pub generation: AtomicU64,
    pub live: Live,
}

impl Server {
    pub fn new(build_dir: PathBuf, engine: EngineState) -> Server {
        Server {
            build_dir,
            generation: AtomicU64::new(0),
            live: Live::new(engine),
        }
    }
}

pub fn run(root: &Path, port: u16) -> Result<(), String> {
    let server = Arc::new(Server::new(root.join("book/build"), EngineState::Building));
    rebuild(root);

    let watcher_root = root.to_path_buf();
    let watcher = Arc::clone(&server);
    std::thread::spawn(move || {
        let mut last = fingerprint(&watcher_root);
        loop {
            std::thread::sleep(Duration::from_millis(500));
            let now = fingerprint(&watcher_root);
            if now != last {
                last = now;
                rebuild(&watcher_root);
                watcher.generation.fetch_add(1, Ordering::SeqCst);
            }
        }
    });

    let builder_root = root.to_path_buf();
    let builder = Arc::clone(&server);
    std::thread::spawn(move || builder.live.set_engine(build_engine(&builder_root)));

    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| format!("cannot listen on port {port}: {e}"))?;
    println!(
        "serving {} on http://127.0.0.1:{port}/ (Ctrl-C stops)",
        server.build_dir.display()
    );
    serve_forever(&listener, &server);
    Ok(())
}

/// Builds the release engine for the panels, saying so on the terminal (cargo's own progress
/// follows on standard error).
pub fn build_engine(root: &Path) -> EngineState {
    println!("building the engine for the Run it here panels: cargo build --release -p cb2026");
    let started = Instant::now();
    match crate::release::build_cb2026(root) {
        Ok(path) => {
            println!(
                "the engine is ready ({:.0} s): {}",
                started.elapsed().as_secs_f64(),
                path.display()
            );
            EngineState::Ready(path)
        }
        Err(error) => {
            eprintln!("error: no engine for the Run it here panels: {error}");
            EngineState::Failed(error)
        }
    }
}

/// Answers every connection of `listener`, each on a thread of its own.
pub fn serve_forever(listener: &TcpListener, server: &Arc<Server>) {
    for stream in listener.incoming().flatten() {
        let server = Arc::clone(server);
        std::thread::spawn(move || {
            let _ = respond(stream, &server);
        });
    }
}

fn rebuild(root: &Path) {
    match book::build(root) {
        Ok(built) => {
            for message in &built.log {
                eprintln!("mdBook: {message}");
            }
            println!(
                "built the book ({} warning(s) from mdBook)",
                built.log.len()
            );
        }
        Err(error) => eprintln!("error: the book does not build: {error}"),
    }
}

/// A hash of the paths, sizes and modification times of every watched file.
fn fingerprint(root: &Path) -> u64 {
    let mut hasher = DefaultHasher::new();
    for dir in WATCHED {
        for file in walk(&root.join(dir), &|_| true) {
            file.hash(&mut hasher);
            if let Ok(meta) = file.metadata() {
                meta.len().hash(&mut hasher);
                meta.modified().ok().hash(&mut hasher);
            }
        }
    }
    hasher.finish()
}

/// The file a request path names inside `dir`, refusing to climb out of it.
pub fn file_for(dir: &Path, request_path: &str) -> Option<PathBuf> {
    let path = request_path.split(['?', '#']).next().unwrap_or_default();
    let decoded = percent_decode(path)?;
    let mut file = dir.to_path_buf();
    for component in Path::new(decoded.trim_start_matches('/')).components() {
        match component {
            Component::Normal(part) => file.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if decoded.ends_with('/') || file.is_dir() {
        file.push("index.html");
    }
    Some(file)
}

/// `%XX` escapes decoded; `None` if one is broken or the result is not UTF-8.
pub fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn content_type(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
    {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}

fn respond(stream: TcpStream, server: &Server) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or("/"),
    );
    let mut stream = stream;
    if target.starts_with("/__engine/") {
        return server.live.respond(method, target, &mut stream);
    }
    if method != "GET" && method != "HEAD" {
        return send(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET only\n".to_vec(),
        );
    }
    if target == "/__build" {
        let generation = server.generation.load(Ordering::SeqCst);
        return send(
            &mut stream,
            "200 OK",
            "text/plain",
            generation.to_string().into_bytes(),
        );
    }
    let dir = &server.build_dir;
    let (status, file) = match file_for(dir, target) {
        Some(file) if file.is_file() => ("200 OK", file),
        _ => ("404 Not Found", dir.join("404.html")),
    };
    let Ok(mut body) = std::fs::read(&file) else {
        return send(
            &mut stream,
            "404 Not Found",
            "text/plain",
            b"not found (is the book built?)\n".to_vec(),
        );
    };
    if file.extension().is_some_and(|e| e == "html") {
        body = inject_reload(&String::from_utf8_lossy(&body)).into_bytes();
    }
    send(&mut stream, status, content_type(&file), body)
}

/// `html` with the reload script before its `</body>`.
pub fn inject_reload(html: &str) -> String {
    match html.rfind("</body>") {
        Some(at) => format!("{}{RELOAD_SCRIPT}{}", &html[..at], &html[at..]),
        None => format!("{html}{RELOAD_SCRIPT}"),
    }
}

/// A whole answer: status, type, length, body; the connection then closes.
pub fn send(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: Vec<u8>,
) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(&body)?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_paths_stay_inside_the_book() {
        let dir = Path::new("/srv/book");
        assert_eq!(
            file_for(dir, "/ch01.html?x=1"),
            Some(PathBuf::from("/srv/book/ch01.html"))
        );
        assert_eq!(
            file_for(dir, "/a%20b.html"),
            Some(PathBuf::from("/srv/book/a b.html"))
        );
        assert_eq!(
            file_for(dir, "/"),
            Some(PathBuf::from("/srv/book/index.html"))
        );
        assert_eq!(file_for(dir, "/../etc/passwd"), None);
        assert_eq!(file_for(dir, "/%2e%2e/etc/passwd"), None);
    }

    #[test]
    fn the_reload_script_goes_before_the_end_of_the_body() {
        let page = inject_reload("<html><body><p>x</p></body></html>");
        assert!(page.ends_with("</script></body></html>"), "{page}");
    }
}
