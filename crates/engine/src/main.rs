//! The `cb2026` binary: UCI on stdin, or a one-shot command such as `cb2026 perft 5`.

fn main() {
    println!("cb2026");
}
