//! exploration: w2x STAGE DEPTH "FEN" [name=on|off ...] [param=value]
use cb2026::position::Position;
use cb2026::search::pruning::Params;
use cb2026::search::{Limits, Searcher};
use cb2026::switches::Stage;
use std::sync::atomic::AtomicBool;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let stage = Stage::parse(&args[1]).unwrap();
    let depth: u32 = args[2].parse().unwrap();
    let fen = &args[3];
    let mut switches = stage.switches();
    let mut params = Params::DEFAULT;
    for a in &args[4..] {
        let (k, v) = a.split_once('=').unwrap();
        match k {
            "R" => params.null_move_base_r = v.parse().unwrap(),
            "div" => params.null_move_depth_divisor = v.parse().unwrap(),
            "min" => params.null_move_min_depth = v.parse().unwrap(),
            _ => switches.set(k, v == "on").unwrap(),
        }
    }
    let pos = Position::from_fen(fen).unwrap();
    let mut s = Searcher::new(16);
    s.set_switches(switches);
    s.set_params(params);
    s.clear();
    let stop = AtomicBool::new(false);
    let out = s.search(&pos, &Limits::depth(depth), &stop, &mut |info| {
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        println!(
            "d{:<2} {:>10} {:>8}  {}",
            info.depth,
            info.nodes,
            info.score.to_string(),
            pv.join(" ")
        );
    });
    println!(
        "stats: nodes {} qnodes {} null_tries {} null_cutoffs {}",
        out.stats.nodes, out.stats.qnodes, out.stats.null_tries, out.stats.null_cutoffs
    );
}
