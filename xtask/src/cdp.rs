//! A small client of Chromium's DevTools protocol, over a pipe: enough to open a page, read what
//! its scripts log, and evaluate JavaScript in it while it runs.
//!
//! `--dump-dom` prints a page once, after a virtual time budget; a page that streams a search
//! from a server is not done by then (virtual time runs ahead of the real network). The DevTools
//! protocol lets the test wait for the page in real time. Chromium's `--remote-debugging-pipe`
//! reads commands on file descriptor 3 and writes answers and events on 4, as JSON messages
//! each ended by a NUL byte. Std can give a child only its standard streams, and the workspace
//! forbids the `unsafe` that moving descriptors would take, so `sh` moves them: our pipe to
//! Chromium's standard input becomes its descriptor 3, the one from its standard output 4. The
//! shell's command is fixed text; the browser and its flags are its arguments, not its script.

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long one command may take to be answered.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

/// A running Chromium and one page (a target attached in flat mode).
#[derive(Debug)]
pub struct Browser {
    child: Child,
    input: ChildStdin,
    messages: Receiver<Value>,
    next_id: u64,
    session: String,
    /// Console messages and uncaught exceptions of the page, as text, in order.
    pub console: Vec<String>,
    profile: std::path::PathBuf,
}

impl Browser {
    /// Starts `chromium` headless with `flags` and opens a blank page.
    pub fn start(chromium: &Path, flags: &[&str]) -> Result<Browser, String> {
        let profile = std::env::temp_dir().join(format!("cb2026-cdp-{}", std::process::id()));
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" \"$@\" 3<&0 4>&1 0</dev/null 1>&2")
            .arg(chromium)
            .args(flags)
            .arg("--remote-debugging-pipe")
            .arg(format!("--user-data-dir={}", profile.display()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start chromium: {e}"))?;
        let input = child.stdin.take().ok_or("no pipe to chromium")?;
        let output = child.stdout.take().ok_or("no pipe from chromium")?;
        let (sender, messages) = channel();
        std::thread::spawn(move || read_messages(output, &sender));
        let mut browser = Browser {
            child,
            input,
            messages,
            next_id: 0,
            session: String::new(),
            console: Vec::new(),
            profile,
        };
        let target = browser.call("Target.createTarget", json!({"url": "about:blank"}))?;
        let target_id = target["targetId"].clone();
        let attached = browser.call(
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        )?;
        browser.session = attached["sessionId"]
            .as_str()
            .ok_or("chromium attached no session")?
            .to_string();
        browser.call("Runtime.enable", json!({}))?;
        browser.call("Page.enable", json!({}))?;
        Ok(browser)
    }

    /// Sends one command (to the page, once attached) and returns its result.
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            message["sessionId"] = Value::String(self.session.clone());
        }
        let mut bytes = message.to_string().into_bytes();
        bytes.push(0);
        self.input
            .write_all(&bytes)
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("chromium closed its pipe: {e}"))?;
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = match self.messages.recv_timeout(left) {
                Ok(message) => message,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("chromium did not answer {method}"));
                }
                Err(RecvTimeoutError::Disconnected) => return Err("chromium exited".to_string()),
            };
            if message["id"].as_u64() == Some(id) {
                if let Some(error) = message.get("error") {
                    return Err(format!("{method}: {error}"));
                }
                return Ok(message["result"].clone());
            }
            self.note_event(&message);
        }
    }

    /// Keeps what a page event says that a test must see: console messages and exceptions.
    fn note_event(&mut self, message: &Value) {
        let params = &message["params"];
        match message["method"].as_str() {
            Some("Runtime.consoleAPICalled") => {
                let args: Vec<String> = params["args"]
                    .as_array()
                    .map(|args| {
                        args.iter()
                            .map(|a| a["value"].as_str().map_or(a.to_string(), str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                self.console.push(format!(
                    "console.{}: {}",
                    params["type"].as_str().unwrap_or("?"),
                    args.join(" ")
                ));
            }
            Some("Runtime.exceptionThrown") => {
                let details = &params["exceptionDetails"];
                let text = details["exception"]["description"]
                    .as_str()
                    .or(details["text"].as_str())
                    .unwrap_or("an exception");
                self.console.push(format!("uncaught: {text}"));
            }
            _ => {}
        }
    }

    /// Opens `url` in the page.
    pub fn navigate(&mut self, url: &str) -> Result<(), String> {
        let result = self.call("Page.navigate", json!({"url": url}))?;
        match result["errorText"].as_str() {
            Some(error) if !error.is_empty() => Err(format!("{url}: {error}")),
            _ => Ok(()),
        }
    }

    /// The value of a JavaScript expression in the page (JSON-serialisable).
    pub fn evaluate(&mut self, expression: &str) -> Result<Value, String> {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        )?;
        if let Some(exception) = result.get("exceptionDetails") {
            return Err(format!("{expression}: {exception}"));
        }
        Ok(result["result"]["value"].clone())
    }

    /// Evaluates `expression` every 100 ms until `done` accepts its value, or `limit` passes.
    pub fn wait_for(
        &mut self,
        expression: &str,
        limit: Duration,
        done: impl Fn(&Value) -> bool,
    ) -> Result<Value, String> {
        let deadline = Instant::now() + limit;
        loop {
            let value = self.evaluate(expression)?;
            if done(&value) {
                return Ok(value);
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "waited {} s; the page still says {value}",
                    limit.as_secs()
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Browser {
    /// Closes the browser, and kills it if it does not go.
    fn drop(&mut self) {
        let _ = self.call("Browser.close", json!({}));
        let until = Instant::now() + Duration::from_secs(3);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Reads NUL-ended JSON messages from Chromium until its pipe closes.
fn read_messages(mut output: impl Read, sender: &std::sync::mpsc::Sender<Value>) {
    let mut pending = Vec::new();
    let mut chunk = [0u8; 65536];
    while let Ok(read) = output.read(&mut chunk) {
        if read == 0 {
            return;
        }
        pending.extend_from_slice(&chunk[..read]);
        while let Some(end) = pending.iter().position(|&b| b == 0) {
            let message: Vec<u8> = pending.drain(..=end).collect();
            if let Ok(value) = serde_json::from_slice(&message[..end])
                && sender.send(value).is_err()
            {
                return;
            }
        }
    }
}
