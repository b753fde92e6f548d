fn main() {
    for p in std::env::args().skip(1) {
        for (k, v) in arena::record_figures(std::path::Path::new(&p)).unwrap() {
            println!("{k}: {v}");
        }
    }
}
