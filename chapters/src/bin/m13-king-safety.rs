//! Milestone M13, a king safety the tuner learns: prints the chapter's pinned figures (the
//! learnt weights, the held-out losses, the worked position, the switch off and on).

fn main() -> std::process::ExitCode {
    chapters::run("m13")
}
