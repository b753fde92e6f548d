//! Milestone M12, small gains added up: prints the chapter's pinned figures (the candidates'
//! games pooled, the sequential test's forecast, bench with the candidates off and on).

fn main() -> std::process::ExitCode {
    chapters::run("m12")
}
