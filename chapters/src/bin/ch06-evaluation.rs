//! The program of chapter 06: prints the chapter's tables and figures (`--figures` prints only
//! the pinned figures as YAML, `--measured` the heavy ones where the chapter has any).

fn main() -> std::process::ExitCode {
    chapters::run("ch06")
}
