//! Milestone M15, Evaluation IV: prints the chapter's pinned figures (the new terms' weights,
//! the held-out losses, the switch off and on).

fn main() -> std::process::ExitCode {
    chapters::run("m15")
}
