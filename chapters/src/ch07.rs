//! Chapter 7, alpha-beta and iterative deepening: how many nodes alpha-beta visits against
//! minimax (the same search with the `alphabeta` switch off, and the count of every position
//! within the depth), what each iteration of iterative deepening costs, for the bare search of
//! this chapter (stage 7) and for the search as the search chapters leave it (stage 14), why
//! stage 14's fourth iteration costs less than its third, and how deep the two sides of the
//! match `ch07-alphabeta` searched.

use crate::ch01::position;
use crate::six::{self, DEPTH, OnOff, ratio};
use crate::{Chapter, Figure, Figures};
use cb2026::bench::six_positions;
use cb2026::measure;
use cb2026::perft::perft;
use cb2026::position::Position;
use cb2026::search::Limits;
use cb2026::search::ordering::{Heuristics, MovePicker};
use cb2026::switches::{Stage, Switches};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

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

/// Every position within `depth` plies: the root, then every position of every ply (perft
/// counts each ply's positions). What minimax would visit if it never stopped early.
pub fn minimax_nodes(fen: &str, depth: u32) -> u64 {
    let mut pos = position(fen);
    (0..=depth).map(|d| perft(&mut pos, d)).sum()
}

/// The engine at stage 7 with alpha-beta switched off: minimax.
pub fn minimax_switches() -> Switches {
    six::at_own_stage("alphabeta", false)
}

/// What the search with alpha-beta off visits, walked without the search: every position within
/// `depth` plies, except that a node stops trying moves after one that mates (above the leaves,
/// where the mate is seen). Nothing can beat mate in one, and the search's mate-distance bound
/// says so even with the widest window. Returns the nodes and the number of such stops. Moves
/// are tried in the order of the engine's move picker at stage 7 (captures first), since which
/// moves come after the mating one depends on it.
pub fn minimax_walk(pos: &mut Position, depth: u32, switches: &Switches) -> (u64, u64) {
    // Empty heuristics: at stage 7 the picker orders by captures alone.
    walk(pos, depth, switches, &Heuristics::default())
}

fn walk(
    pos: &mut Position,
    depth: u32,
    switches: &Switches,
    heuristics: &Heuristics,
) -> (u64, u64) {
    if depth == 0 {
        return (1, 0);
    }
    let mut picker = MovePicker::new(pos, None, [None, None], &[None, None], heuristics, switches);
    let (mut nodes, mut stops) = (1, 0);
    while let Some(m) = picker.next_move() {
        pos.make_move(m);
        let mates = depth > 1 && pos.in_check() && pos.legal_moves().is_empty();
        let (n, s) = walk(pos, depth - 1, switches, heuristics);
        pos.unmake_move();
        nodes += n;
        stops += s;
        if mates {
            stops += 1;
            break;
        }
    }
    (nodes, stops)
}

/// The chapter's worked position: after 1.e4 e5 2.Qh5 Nc6 3.Bc4 g6 the pawn attacks White's
/// queen, so every move that leaves the queen where it is, is refuted by one reply, 4...gxh5.
pub const WORKED: &str = "r1bqkbnr/pppp1p1p/2n3p1/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 4";

/// The depths at which the worked position is searched with and without alpha-beta.
const WORKED_DEPTHS: [u32; 3] = [2, 3, 4];

/// One search of one position: what a reader sees in the console after `go`.
#[derive(Clone, Debug)]
pub struct Line {
    /// Nodes over every iteration.
    pub nodes: u64,
    /// The last completed iteration.
    pub depth: u32,
    pub best: String,
    /// As UCI reports it (`cp 25`).
    pub score: String,
    /// The principal variation in UCI notation, moves separated by spaces.
    pub pv: String,
}

/// Searches `fen` within `limits` with `switches` from a cleared searcher (as
/// [`six::search`] does: 16 MB, empty table, cleared histories).
pub fn line(switches: Switches, fen: &str, limits: &Limits) -> Line {
    let mut searcher = six::searcher(switches);
    searcher.clear();
    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let stop = Arc::new(AtomicBool::new(false));
    let outcome = searcher.search(&pos, limits, &stop, &mut |_| {});
    Line {
        nodes: outcome.stats.nodes,
        depth: outcome.depth,
        best: outcome
            .best_move
            .map_or("(none)".to_string(), |m| m.to_string()),
        score: outcome.score.to_string(),
        pv: outcome
            .pv
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// Adds `<prefix>.{nodes,depth,best,score,pv}`.
pub fn add_line(f: &mut Figures, prefix: &str, line: &Line) {
    f.add(&format!("{prefix}.nodes"), line.nodes)
        .add(&format!("{prefix}.depth"), line.depth)
        .add(&format!("{prefix}.best"), line.best.as_str())
        .add(&format!("{prefix}.score"), line.score.as_str())
        .add(&format!("{prefix}.pv"), line.pv.as_str());
}

/// The iterations of stage 14 that the chapter explains: the fourth costs less than the third.
const DIP: (u32, u32) = (3, 4);

/// The match record of the chapter: stage 7 against stage 7 with alpha-beta off.
pub const RECORD: &str = "ch07-alphabeta";

/// The depth each engine finished for each of its moves in the match `record`, read from the
/// comment the arena writes after every move (`{+0.12/9 0.157s}`: score, slash, depth). The
/// comments of a game alternate between the engines, starting with the side to move in the
/// game's `FEN` tag; comments without a depth (the adjudication's) are skipped.
pub fn engine_depths(record: &str, engine: &str) -> Vec<u32> {
    depths_in_pgn(&crate::records::pgn(record), engine)
}

/// The depth of every move commented in `movetext`, in order: the arena writes
/// `{+0.12/9 0.157s}` after each move, the engine's score, a slash, the depth it finished.
/// Comments without a depth (an adjudication's) are skipped.
pub fn comment_depths(movetext: &str) -> impl Iterator<Item = u32> + '_ {
    movetext.split('{').skip(1).filter_map(|rest| {
        let comment = rest.split('}').next()?;
        let (_score, depth) = comment.split_whitespace().next()?.split_once('/')?;
        depth.parse::<u32>().ok()
    })
}

fn depths_in_pgn(pgn: &str, engine: &str) -> Vec<u32> {
    let mut depths = Vec::new();
    for game in crate::records::games(pgn).filter(|g| g.played_by(engine)) {
        for (i, depth) in comment_depths(game.movetext).enumerate() {
            if game.is_move_of(i, engine) {
                depths.push(depth);
            }
        }
    }
    depths
}

/// The median of the depths a side searched ([`cb2026::measure::median`]), 0 for none: a whole
/// number when it is one, else to one decimal.
pub fn median_depth(depths: &[u32]) -> Figure {
    if depths.is_empty() {
        return Figure::Int(0);
    }
    let depths: Vec<f64> = depths.iter().map(|&depth| f64::from(depth)).collect();
    let median = measure::median(&depths);
    if median.fract() == 0.0 {
        Figure::Int(median as i64)
    } else {
        Figure::fixed(median, 1)
    }
}

/// Chapter 7's figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch07");
    let bare = six::six(Stage::Chapter(7).switches(), BARE_DEPTH);
    let full = six::six(Stage::Chapter(14).switches(), DEPTH);
    let minimax = six::six(minimax_switches(), MINIMAX_DEPTH);
    let d = MINIMAX_DEPTH;

    // Alpha-beta against minimax, iteration MINIMAX_DEPTH of each: the same search with the
    // switch on and off, and every position within the depth.
    let (mut bare_sum, mut minimax_sum, mut positions_sum) = (0, 0, 0);
    let (mut walk_sum, mut stops_sum, mut same) = (0, 0, 0);
    for ((p, run), mm) in six_positions().iter().zip(bare.iter()).zip(minimax.iter()) {
        let alpha_beta = run.iteration_nodes(d);
        let searched = mm.iteration_nodes(d);
        let positions = minimax_nodes(p.fen, d);
        let (walked, stops) = minimax_walk(&mut position(p.fen), d, &minimax_switches());
        bare_sum += alpha_beta;
        minimax_sum += searched;
        positions_sum += positions;
        walk_sum += walked;
        stops_sum += stops;
        let (ab, mm) = (&run.iterations[d as usize - 1], mm.last());
        if ab.best_move == mm.best_move && ab.score == mm.score {
            same += 1;
        }
        f.add(&format!("ch07.bare.{}.d{d}.nodes", p.id), alpha_beta)
            .add(&format!("ch07.minimax.{}.d{d}.nodes", p.id), searched)
            .add(&format!("ch07.positions.{}.d{d}", p.id), positions)
            .add(&format!("ch07.minimax.{}.d{d}.mate_stops", p.id), stops)
            .add(
                &format!("ch07.{}.moves", p.id),
                position(p.fen).legal_moves().len(),
            );
    }
    // The same comparison as a page's Run it here panel makes it: each position's whole search
    // to the depth (every iteration), the switch on and off.
    OnOff::measure("alphabeta", MINIMAX_DEPTH).add_nodes(&mut f, "ch07");
    f.add(&format!("ch07.bare.six.d{d}.nodes"), bare_sum)
        .add(&format!("ch07.minimax.six.d{d}.nodes"), minimax_sum)
        .add(&format!("ch07.positions.six.d{d}"), positions_sum)
        .add(&format!("ch07.minimax.six.d{d}.walk_nodes"), walk_sum)
        .add(&format!("ch07.minimax.six.d{d}.mate_stops"), stops_sum)
        .add(
            &format!("ch07.minimax.six.d{d}.fewer"),
            positions_sum - minimax_sum,
        )
        .add(&format!("ch07.six.d{d}.same_move_and_score"), same)
        .add(
            &format!("ch07.bare.six.d{d}.minimax_pct"),
            Figure::percent(bare_sum, minimax_sum, 2),
        );

    // Iterative deepening: the nodes of each iteration, the six positions together.
    add_iterations(&mut f, "bare", &bare, BARE_DEPTH);
    add_iterations(&mut f, "full", &full, DEPTH);
    add_dip(&mut f, &full);

    // The worked position, with and without alpha-beta; then alpha-beta with as many nodes as
    // minimax spent on its deepest search.
    let stage = Stage::Chapter(7).switches();
    for depth in WORKED_DEPTHS {
        let on = line(stage, WORKED, &Limits::depth(depth));
        let off = line(minimax_switches(), WORKED, &Limits::depth(depth));
        add_line(&mut f, &format!("ch07.worked.d{depth}.on"), &on);
        add_line(&mut f, &format!("ch07.worked.d{depth}.off"), &off);
    }
    let deepest = WORKED_DEPTHS[WORKED_DEPTHS.len() - 1];
    let budget = line(minimax_switches(), WORKED, &Limits::depth(deepest)).nodes;
    let within = line(stage, WORKED, &Limits::nodes(budget));
    f.add("ch07.worked.budget.depth", within.depth);

    // How deep each side of the match searched.
    for (side, name) in [
        ("on", "cb2026-alphabeta-on"),
        ("off", "cb2026-alphabeta-off"),
    ] {
        let depths = engine_depths(RECORD, name);
        f.add(&format!("ch07.games.{side}.moves"), depths.len())
            .add(
                &format!("ch07.games.{side}.median_depth"),
                median_depth(&depths),
            );
    }
    f
}

/// Why stage 14's fourth iteration costs less than its third: each position's two iterations
/// with their best moves and scores, and the six together with aspiration windows off and with
/// the table off.
fn add_dip(f: &mut Figures, full: &[six::Run]) {
    let (a, b) = DIP;
    let cheaper = |runs: &[six::Run]| {
        runs.iter()
            .filter(|run| run.iteration_nodes(b) < run.iteration_nodes(a))
            .count()
    };
    for run in full {
        for it in &run.iterations[..b as usize] {
            if it.depth >= a - 1 {
                f.add(
                    &format!("ch07.full.{}.iter{}.best", run.id, it.depth),
                    it.best_move.as_str(),
                )
                .add(
                    &format!("ch07.full.{}.iter{}.score", run.id, it.depth),
                    it.score.as_str(),
                );
            }
        }
        f.add(
            &format!("ch07.full.{}.iter{a}.nodes", run.id),
            run.iteration_nodes(a),
        )
        .add(
            &format!("ch07.full.{}.iter{b}.nodes", run.id),
            run.iteration_nodes(b),
        );
    }
    f.add(&format!("ch07.full.six.iter{b}_cheaper"), cheaper(full));
    let stage = Stage::Chapter(14).switches();
    for (name, switch) in [("noasp", "aspiration"), ("nott", "tt")] {
        let mut switches = stage;
        switches.set(switch, false).expect("a switch");
        let runs = six::six(switches, b);
        for depth in [a, b] {
            let nodes: u64 = runs.iter().map(|run| run.iteration_nodes(depth)).sum();
            f.add(&format!("ch07.full_{name}.six.iter{depth}.nodes"), nodes);
        }
        f.add(
            &format!("ch07.full_{name}.six.iter{b}_cheaper"),
            cheaper(&runs),
        );
    }
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
    let f = figures();
    let get = |key: &str| f.get(key).map_or("-".to_string(), ToString::to_string);
    let d = MINIMAX_DEPTH;
    println!("Minimax (stage 7, alphabeta off) against alpha-beta (stage 7), depth {d}, nodes:\n");
    println!(
        "{:<13} {:>6} {:>12} {:>12} {:>6} {:>10}",
        "position", "moves", "positions", "minimax", "mates", "alpha-beta"
    );
    for p in six_positions() {
        println!(
            "{:<13} {:>6} {:>12} {:>12} {:>6} {:>10}",
            p.id,
            get(&format!("ch07.{}.moves", p.id)),
            get(&format!("ch07.positions.{}.d{d}", p.id)),
            get(&format!("ch07.minimax.{}.d{d}.nodes", p.id)),
            get(&format!("ch07.minimax.{}.d{d}.mate_stops", p.id)),
            get(&format!("ch07.bare.{}.d{d}.nodes", p.id)),
        );
    }
    for (name, depth) in [("bare", BARE_DEPTH), ("full", DEPTH)] {
        println!("\nIterative deepening, {name} search, the six positions together:\n");
        println!("{:>5} {:>10} {:>6}", "iter", "nodes", "ratio");
        for i in 1..=depth {
            println!(
                "{i:>5} {:>10} {:>6}",
                get(&format!("ch07.{name}.six.iter{i}.nodes")),
                get(&format!("ch07.{name}.six.ebf{i}")),
            );
        }
    }
    let (a, b) = DIP;
    println!("\nStage 14, iterations {a} and {b} of each position:\n");
    for p in six_positions() {
        let it = |i: u32, what: &str| get(&format!("ch07.full.{}.iter{i}.{what}", p.id));
        println!(
            "{:<13} {:>7} {:>7}   best {} {} {}   score {} / {}",
            p.id,
            it(a, "nodes"),
            it(b, "nodes"),
            it(a - 1, "best"),
            it(a, "best"),
            it(b, "best"),
            it(a, "score"),
            it(b, "score"),
        );
    }
    println!();
    print!("{}", f.to_yaml());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depths_alternate_from_the_side_to_move() {
        let pgn = "[Event \"x\"]\n[White \"a\"]\n[Black \"b\"]\n[FEN \"8/8/8/8/8/8/8/K1k5 b - - 0 1\"]\n\n\
                   1... Kc2 {+0.10/7 0.1s} 2. Ka2 {-0.20/3 0.1s} Kc3 {+0.30/8 0.1s} {White resigns} 0-1\n";
        assert_eq!(depths_in_pgn(pgn, "b"), vec![7, 8]);
        assert_eq!(depths_in_pgn(pgn, "a"), vec![3]);
    }

    #[test]
    fn minimax_counts_every_node_of_every_ply() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(minimax_nodes(start, 2), 1 + 20 + 400);
    }
}
