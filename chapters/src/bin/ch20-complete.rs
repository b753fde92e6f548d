//! Chapter 20, the complete engine: prints the gauntlet, the rating fitted to it and the
//! ablation table (the six positions at depth 8 at stage 20 with each chapter's switch off),
//! then the figures (`--figures` prints only the pinned figures, `--measured` the ablation, as
//! YAML). `--plot` redraws `book/src/ch20-gauntlet.svg` from the stored records.

fn main() -> std::process::ExitCode {
    if std::env::args().nth(1).as_deref() == Some("--plot") {
        chapters::ch20::write_plot();
        return std::process::ExitCode::SUCCESS;
    }
    chapters::run("ch20")
}
