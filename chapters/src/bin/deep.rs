//! Every chapter's deep figures (heavy, but the same on every machine: deep perft counts, the
//! node counts of deep searches) as one YAML map, for `cargo xtask recheck`, which compares them
//! with what `cargo xtask measure` stored. `deep ch05 m5` computes only those chapters'.

fn main() -> std::process::ExitCode {
    let ids: Vec<String> = std::env::args().skip(1).collect();
    chapters::run_deep(&ids)
}
