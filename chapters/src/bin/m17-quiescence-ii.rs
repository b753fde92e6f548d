//! Milestone M17, quiescence II: prints the six positions' tables with `qsttmove` and
//! `qsfutility` each off and on at stage M17, then the chapter's pinned figures (bench's
//! quiescence counters in four engines, the worked position). `--figures` prints only the
//! pinned figures.

fn main() -> std::process::ExitCode {
    chapters::run("m17")
}
