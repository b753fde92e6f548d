//! Chapter 7, alpha-beta and iterative deepening: how many nodes alpha-beta visits against
//! minimax, and what each iteration of iterative deepening costs, for the bare search of this
//! chapter (stage 7) and for the search as the search chapters leave it (stage 14).

use crate::ch01::position;
use crate::six::{self, DEPTH, ratio};
use crate::{Chapter, Figure, Figures};
use cb2026::bench::six_positions;
use cb2026::perft::perft;
use cb2026::switches::Stage;

/// Chapter 7 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch07",
    title: "Alpha-beta and iterative deepening",
    bin: "ch07-alpha-beta",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// The depth of the minimax comparison: minimax's count is a sum of perft counts, cheap here.
const MINIMAX_DEPTH: u32 = 4;

/// The deepest iteration of the bare search: its tree grows about tenfold per ply.
const BARE_DEPTH: u32 = 5;

/// Every node minimax visits to `depth`: the root, then every position of every ply
/// (perft counts each ply's positions).
pub fn minimax_nodes(fen: &str, depth: u32) -> u64 {
    let mut pos = position(fen);
    (0..=depth).map(|d| perft(&mut pos, d)).sum()
}

/// Chapter 7's figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch07");
    let bare = six::six(Stage::Chapter(7).switches(), BARE_DEPTH);
    let full = six::six(Stage::Chapter(14).switches(), DEPTH);

    // Alpha-beta against minimax, iteration MINIMAX_DEPTH of the bare search.
    let (mut bare_sum, mut minimax_sum) = (0, 0);
    for (p, run) in six_positions().iter().zip(bare.iter()) {
        let alpha_beta = run.iteration_nodes(MINIMAX_DEPTH);
        let minimax = minimax_nodes(p.fen, MINIMAX_DEPTH);
        bare_sum += alpha_beta;
        minimax_sum += minimax;
        f.add(
            &format!("ch07.bare.{}.d{MINIMAX_DEPTH}.nodes", p.id),
            alpha_beta,
        )
        .add(
            &format!("ch07.minimax.{}.d{MINIMAX_DEPTH}.nodes", p.id),
            minimax,
        )
        .add(
            &format!("ch07.{}.moves", p.id),
            position(p.fen).legal_moves().len(),
        );
    }
    f.add(&format!("ch07.bare.six.d{MINIMAX_DEPTH}.nodes"), bare_sum)
        .add(
            &format!("ch07.minimax.six.d{MINIMAX_DEPTH}.nodes"),
            minimax_sum,
        )
        .add(
            &format!("ch07.bare.six.d{MINIMAX_DEPTH}.minimax_pct"),
            Figure::percent(bare_sum, minimax_sum, 2),
        );

    // Iterative deepening: the nodes of each iteration, the six positions together.
    add_iterations(&mut f, "bare", &bare, BARE_DEPTH);
    add_iterations(&mut f, "full", &full, DEPTH);
    f
}

/// `ch07.<name>.six.iterN.nodes` for each iteration, the effective branching factor of each
/// (its nodes over the previous iteration's), and the share of all nodes spent before the last
/// iteration.
fn add_iterations(f: &mut Figures, name: &str, runs: &[six::Run], depth: u32) {
    let per_iteration: Vec<u64> = (1..=depth)
        .map(|d| runs.iter().map(|run| run.iteration_nodes(d)).sum())
        .collect();
    for (d, nodes) in (1..=depth).zip(&per_iteration) {
        f.add(&format!("ch07.{name}.six.iter{d}.nodes"), *nodes);
    }
    for (d, pair) in (2..=depth).zip(per_iteration.windows(2)) {
        f.add(&format!("ch07.{name}.six.ebf{d}"), ratio(pair[1], pair[0]));
    }
    let all: u64 = per_iteration.iter().sum();
    let last = per_iteration[per_iteration.len() - 1];
    f.add(&format!("ch07.{name}.six.d{depth}.nodes"), all).add(
        &format!("ch07.{name}.six.d{depth}.earlier_pct"),
        Figure::percent(all - last, all, 1),
    );
}

fn print_tables() {
    let bare = six::six(Stage::Chapter(7).switches(), BARE_DEPTH);
    println!("Minimax against bare alpha-beta (every switch off), depth {MINIMAX_DEPTH}, nodes:\n");
    println!(
        "{:<13} {:>6} {:>12} {:>10}",
        "position", "moves", "minimax", "alpha-beta"
    );
    for (p, run) in six_positions().iter().zip(bare.iter()) {
        println!(
            "{:<13} {:>6} {:>12} {:>10}",
            p.id,
            position(p.fen).legal_moves().len(),
            minimax_nodes(p.fen, MINIMAX_DEPTH),
            run.iteration_nodes(MINIMAX_DEPTH)
        );
    }
    let full = six::six(Stage::Chapter(14).switches(), DEPTH);
    for (name, runs, depth) in [("bare", &bare, BARE_DEPTH), ("full", &full, DEPTH)] {
        println!("\nIterative deepening, {name} search, the six positions together:\n");
        println!("{:>5} {:>10} {:>6}", "iter", "nodes", "ratio");
        let mut previous = 0;
        for d in 1..=depth {
            let nodes: u64 = runs.iter().map(|run| run.iteration_nodes(d)).sum();
            let shown = if previous > 0 {
                ratio(nodes, previous).to_string()
            } else {
                String::new()
            };
            println!("{d:>5} {nodes:>10} {shown:>6}");
            previous = nodes;
        }
    }
    println!();
    print!("{}", figures().to_yaml());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimax_counts_every_node_of_every_ply() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(minimax_nodes(start, 2), 1 + 20 + 400);
    }
}
