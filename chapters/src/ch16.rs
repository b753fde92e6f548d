//! Chapter 16, testing with games (SPRT): the arena's statistics on worked examples. The
//! figures of an actual match come from its record (`snapshots/games/<name>.json`) as
//! `games.<name>.*` keys, recomputed by `arena::record_figures`, not from here.

use crate::{Chapter, Figure, Figures};
use arena::stats::{
    Pentanomial, SprtParams, Trinomial, elo_pentanomial, elo_to_score, elo_trinomial, los,
};

/// Chapter 16 in the registry.
pub const CHAPTER: Chapter = Chapter {
    id: "ch16",
    title: "Testing with games (SPRT)",
    bin: "ch16-sprt",
    figures,
    measured: None,
    deep: None,
    print_tables,
};

/// Match lengths for the error-bar table: an even match with half the games drawn.
const GAMES: [u64; 4] = [100, 1_000, 10_000, 40_000];

/// The SPRT of the arena's examples: H0 "no gain" against H1 "5 Elo", 5 % errors each way.
const SPRT: SprtParams = SprtParams {
    elo0: 0.0,
    elo1: 5.0,
    alpha: 0.05,
    beta: 0.05,
};

/// A match between equals of `games` games: a quarter won, half drawn, a quarter lost.
fn even_match(games: u64) -> Trinomial {
    Trinomial {
        wins: games / 4,
        draws: games / 2,
        losses: games / 4,
    }
}

/// Chapter 16's figures.
pub fn figures() -> Figures {
    let mut f = Figures::new("ch16");
    f.add(
        "ch16.score.elo100",
        Figure::fixed(100.0 * elo_to_score(100.0), 1),
    )
    .add(
        "ch16.score.elo400",
        Figure::fixed(100.0 * elo_to_score(400.0), 1),
    )
    .add(
        "ch16.score.elo5",
        Figure::fixed(100.0 * elo_to_score(5.0), 2),
    );

    for games in GAMES {
        let e = elo_trinomial(&even_match(games)).expect("games were played");
        f.add(
            &format!("ch16.even.g{games}.error"),
            Figure::fixed(e.error, 1),
        );
    }

    // One small match, counted as games and as pairs: 20 pairs, 40 games (three of the nine
    // one-point pairs were a win and a loss, six were two draws).
    let pentanomial = Pentanomial([1, 3, 9, 5, 2]);
    let trinomial = Trinomial {
        wins: 12,
        draws: 20,
        losses: 8,
    };
    let by_games = elo_trinomial(&trinomial).expect("games");
    let by_pairs = elo_pentanomial(&pentanomial).expect("pairs");
    f.add("ch16.example.wins", trinomial.wins)
        .add("ch16.example.draws", trinomial.draws)
        .add("ch16.example.losses", trinomial.losses)
        .add("ch16.example.elo", Figure::fixed(by_games.elo, 1))
        .add("ch16.example.error", Figure::fixed(by_games.error, 1))
        .add("ch16.example.pairs", pentanomial.pairs())
        .add("ch16.example.penta_error", Figure::fixed(by_pairs.error, 1))
        .add(
            "ch16.example.los",
            Figure::fixed(100.0 * los(trinomial.wins, trinomial.losses), 1),
        );

    let (lower, upper) = SPRT.bounds();
    f.add("ch16.sprt.elo0", Figure::fixed(SPRT.elo0, 0))
        .add("ch16.sprt.elo1", Figure::fixed(SPRT.elo1, 0))
        .add("ch16.sprt.lower", Figure::fixed(lower, 2))
        .add("ch16.sprt.upper", Figure::fixed(upper, 2));
    for games in GAMES {
        let llr = SPRT.llr_trinomial(&even_match(games));
        f.add(&format!("ch16.even.g{games}.llr"), Figure::fixed(llr, 2));
    }
    // A candidate about 5 Elo better: 10,000 games, half drawn, scoring 50.72 %.
    let better = Trinomial {
        wins: 2_572,
        draws: 5_000,
        losses: 2_428,
    };
    let e = elo_trinomial(&better).expect("games");
    f.add("ch16.better.games", better.games())
        .add(
            "ch16.better.score_pct",
            Figure::percent(2 * better.wins + better.draws, 2 * better.games(), 2),
        )
        .add("ch16.better.elo", Figure::fixed(e.elo, 1))
        .add("ch16.better.error", Figure::fixed(e.error, 1))
        .add(
            "ch16.better.llr",
            Figure::fixed(SPRT.llr_trinomial(&better), 2),
        );
    f
}

fn print_tables() {
    println!("Error bars of an even match with half the games drawn (95 %):\n");
    println!("{:>8} {:>8} {:>8}", "games", "± Elo", "LLR");
    for games in GAMES {
        let e = elo_trinomial(&even_match(games)).expect("games were played");
        println!(
            "{games:>8} {:>8} {:>8}",
            Figure::fixed(e.error, 1).to_string(),
            Figure::fixed(SPRT.llr_trinomial(&even_match(games)), 2).to_string()
        );
    }
    println!();
    print!("{}", figures().to_yaml());
}
