//! What a check found: an error or a warning at a file and line. Verify, the stored figures and
//! the commands report in this one form.

use std::fmt;
use std::path::{Path, PathBuf};

/// How bad a finding is: errors fail `cargo xtask verify`, warnings are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// One thing verify found, at a file (relative to the root) and a 1-based line (0: the file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub severity: Severity,
    pub file: PathBuf,
    pub line: usize,
    pub message: String,
}

impl Finding {
    pub fn error(file: &Path, line: usize, message: impl Into<String>) -> Finding {
        Finding {
            severity: Severity::Error,
            file: file.to_path_buf(),
            line,
            message: message.into(),
        }
    }

    pub fn warning(file: &Path, line: usize, message: impl Into<String>) -> Finding {
        Finding {
            severity: Severity::Warning,
            file: file.to_path_buf(),
            line,
            message: message.into(),
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// `book/src/ch01.md:12: error: ...`, the form editors and terminals link to.
impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        if self.line > 0 {
            write!(
                f,
                "{}:{}: {kind}: {}",
                self.file.display(),
                self.line,
                self.message
            )
        } else {
            write!(f, "{}: {kind}: {}", self.file.display(), self.message)
        }
    }
}
