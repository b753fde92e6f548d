//! Where answers go: one writer shared by the session and the job running on its worker thread.

use std::fmt;
use std::io::{self, Write};
use std::sync::{Arc, Mutex, MutexGuard};

/// Where answers go. The session and its worker share it, and each writes whole lines under
/// its lock, so an `info` line from the search never splits a `readyok`.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl fmt::Debug for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Output")
    }
}

impl Output {
    /// Answers written to `writer` (standard output, or a buffer in tests and the fuzz target).
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(writer))))
    }

    /// The writer, for lines that must follow each other with nothing between them (an error
    /// and the `bestmove` that answers the same `go`). A thread that panicked while holding it
    /// cannot have left half a line in a `Write`, so a poisoned lock is used anyway.
    pub(super) fn lock(&self) -> MutexGuard<'_, Box<dyn Write + Send>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Writes one line and flushes it: a GUI waits for whole lines.
    pub(super) fn line(&self, text: &str) -> io::Result<()> {
        self.bytes(format!("{text}\n").as_bytes())
    }

    /// Writes `bytes` (whole lines) and flushes them.
    fn bytes(&self, bytes: &[u8]) -> io::Result<()> {
        let mut writer = self.lock();
        writer.write_all(bytes)?;
        writer.flush()
    }

    /// A [`Write`] for code that prints with `writeln!` (bench, perft) while the session goes
    /// on reading: see [`LineWriter`].
    pub(super) fn line_writer(&self) -> LineWriter {
        LineWriter {
            out: self.clone(),
            pending: Vec::new(),
        }
    }
}

/// Hands [`Output`] one whole line at a time, taking the lock for each line only. Holding the
/// lock for a whole `bench` would keep `readyok` waiting for minutes; taking it per `write`
/// call could put a `readyok` in the middle of a line that `writeln!` writes in pieces.
#[derive(Debug)]
pub(super) struct LineWriter {
    out: Output,
    /// The start of a line whose end has not been written yet.
    pending: Vec<u8>,
}

impl Write for LineWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        if let Some(last) = self.pending.iter().rposition(|&b| b == b'\n') {
            let lines: Vec<u8> = self.pending.drain(..=last).collect();
            self.out.bytes(&lines)?;
        }
        Ok(bytes.len())
    }

    /// Writes a line still unfinished too: whoever flushes wants it seen.
    fn flush(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            self.out.bytes(&std::mem::take(&mut self.pending))?;
        }
        Ok(())
    }
}

/// A shared in-memory writer, for the unit tests to read the answers back.
#[cfg(test)]
#[derive(Clone, Debug, Default)]
pub(super) struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

#[cfg(test)]
impl SharedBuffer {
    /// Everything written so far, as text.
    pub(super) fn text(&self) -> String {
        let bytes = self.0.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Forgets what was written.
    pub(super) fn clear(&self) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}

#[cfg(test)]
impl Write for SharedBuffer {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut buffer = self.0.lock().unwrap_or_else(|p| p.into_inner());
        buffer.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_writer_passes_on_whole_lines_only() {
        let buffer = SharedBuffer::default();
        let out = Output::new(buffer.clone());
        let mut writer = out.line_writer();
        write!(writer, "position 1: ").expect("memory");
        assert_eq!(buffer.text(), "", "half a line stays with the writer");
        out.line("readyok").expect("memory");
        writeln!(writer, "20 nodes").expect("memory");
        write!(writer, "\nlast").expect("memory");
        assert_eq!(buffer.text(), "readyok\nposition 1: 20 nodes\n\n");
        writer.flush().expect("memory");
        assert_eq!(buffer.text(), "readyok\nposition 1: 20 nodes\n\nlast");
    }
}
