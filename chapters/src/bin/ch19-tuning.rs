//! The program of chapter 19: prints the tuner's run (the losses per epoch), the weights that
//! moved most, the six searched with the tuned weights and the hand-set ones, and the chapter's
//! figures (`--figures` prints only the pinned figures as YAML). `--plot` redraws
//! `book/src/ch19-loss.svg` from `data/tuning/loss-per-epoch.csv`, which `cargo xtask tune`
//! writes.

fn main() -> std::process::ExitCode {
    if std::env::args().nth(1).as_deref() == Some("--plot") {
        chapters::ch19::write_plot();
        return std::process::ExitCode::SUCCESS;
    }
    chapters::run("ch19")
}
