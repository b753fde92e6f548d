//! Milestone M4, time II: prints the mean time per move of the milestone's match, engine by
//! engine and phase by phase, then the pinned figures (`--figures` prints only those, as YAML).
//! `--plot` redraws `book/src/m4-time-per-move.svg` from the stored games.

fn main() -> std::process::ExitCode {
    if std::env::args().nth(1).as_deref() == Some("--plot") {
        chapters::m4::write_plot();
        return std::process::ExitCode::SUCCESS;
    }
    chapters::run("m4")
}
