//! The program of chapter 17: prints the torn slots threaded searches meet and the chapter's
//! figures (`--figures` prints only the pinned figures as YAML, `--measured` the heavy ones).

fn main() -> std::process::ExitCode {
    chapters::run("ch17")
}
