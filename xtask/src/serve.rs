//! `cargo xtask serve`: the book on <http://127.0.0.1:3000>, rebuilt when a source changes and
//! reloaded in the browser.
//!
//! A small HTTP server on std alone (one thread per connection; it serves files and nothing
//! else, on localhost only). A watcher polls the book, the snapshots and the Rust sources twice a
//! second and rebuilds on a change; every HTML page gets a script that polls `/__build` and
//! reloads when the build number moves.

use crate::book;
use crate::verify::walk;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// What the watcher looks at: anything a page can include or quote.
const WATCHED: &[&str] = &["book", "snapshots", "crates", "chapters", "xtask/src"];

/// Injected before `</body>` of every page: reload when the build number changes.
const RELOAD_SCRIPT: &str = "<script>(function(){let seen=null;setInterval(function(){\
fetch('/__build').then(function(r){return r.text();}).then(function(id){\
if(seen!==null&&id!==seen){location.reload();}seen=id;}).catch(function(){});},1000);})();</script>";

pub fn run(root: &Path, port: u16) -> Result<(), String> {
    let build_dir = root.join("book/build");
    let generation = Arc::new(AtomicU64::new(0));
    rebuild(root);

    let watcher_root = root.to_path_buf();
    let watcher_generation = Arc::clone(&generation);
    std::thread::spawn(move || {
        let mut last = fingerprint(&watcher_root);
        loop {
            std::thread::sleep(Duration::from_millis(500));
            let now = fingerprint(&watcher_root);
            if now != last {
                last = now;
                rebuild(&watcher_root);
                watcher_generation.fetch_add(1, Ordering::SeqCst);
            }
        }
    });

    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| format!("cannot listen on port {port}: {e}"))?;
    println!(
        "serving {} on http://127.0.0.1:{port}/ (Ctrl-C stops)",
        build_dir.display()
    );
    for stream in listener.incoming().flatten() {
        let dir = build_dir.clone();
        let generation = Arc::clone(&generation);
        std::thread::spawn(move || {
            let _ = respond(stream, &dir, generation.load(Ordering::SeqCst));
        });
    }
    Ok(())
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

fn percent_decode(text: &str) -> Option<String> {
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

fn respond(stream: TcpStream, dir: &Path, generation: u64) -> std::io::Result<()> {
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
    if method != "GET" && method != "HEAD" {
        return send(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET only\n".to_vec(),
        );
    }
    if target == "/__build" {
        return send(
            &mut stream,
            "200 OK",
            "text/plain",
            generation.to_string().into_bytes(),
        );
    }
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

fn send(
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
