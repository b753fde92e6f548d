//! Chapter 17: a search on several threads (Lazy SMP) finds what one thread finds, stops when
//! told, and leaves one thread's search exactly as it was.

use cb2026::bench::six_positions;
use cb2026::position::Position;
use cb2026::search::{Limits, Score, Searcher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn uci(pos: &Position, text: &str) -> cb2026::moves::Move {
    pos.parse_uci_move(text).expect("a legal move")
}

#[test]
fn four_threads_find_the_mates_one_thread_finds() {
    let mut searcher = Searcher::new(8);
    searcher.set_threads(4).expect("4 is in range");
    // Nf6+ gxf6 Bxf7#: mate in 2.
    let pos = position("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1");
    let outcome = searcher.search_depth(&pos, 6);
    assert_eq!(outcome.best_move, Some(uci(&pos, "d5f6")));
    assert_eq!(outcome.score, Score::Mate(2));
    // Bc5+ Kxc5 Qb6+ Kd5 Qd6#: mate in 3, for Black. One thread finds it at depth 8 (see
    // tests/tactics.rs); with helpers the table the main thread reads differs from run to run,
    // and at depth 8 to 10 it sometimes prunes the line (measured: about half the runs at 8, one in
    // thirty at 10, none of thirty at 12), so the threads get four plies more.
    let pos = position("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1");
    let outcome = searcher.search_depth(&pos, 12);
    assert_eq!(outcome.best_move, Some(uci(&pos, "f8c5")));
    assert_eq!(outcome.score, Score::Mate(3));
}

#[test]
fn helpers_add_their_nodes_and_the_pv_is_legal() {
    let mut searcher = Searcher::new(8);
    searcher.set_threads(3).expect("3 is in range");
    for p in six_positions() {
        searcher.clear();
        let pos = position(p.fen);
        let mut reported = 0;
        let outcome = searcher.search(
            &pos,
            &Limits::depth(7),
            &Arc::new(AtomicBool::new(false)),
            &mut |info| {
                assert!(info.nodes >= reported, "{}: nodes fell", p.id);
                reported = info.nodes;
            },
        );
        assert!(outcome.depth >= 7, "{}: depth {}", p.id, outcome.depth);
        // The helpers searched too: all threads' nodes are more than the main thread's.
        assert!(outcome.nodes > outcome.stats.nodes, "{}", p.id);
        let mut line = pos.clone();
        for m in &outcome.pv {
            assert!(line.legal_moves().contains(m), "{}: {m} illegal", p.id);
            line.make_move(*m);
        }
        assert_eq!(outcome.pv.first().copied(), outcome.best_move);
    }
}

#[test]
fn one_thread_is_exactly_the_search_it_was() {
    let pos = position(six_positions()[0].fen);
    let fresh = Searcher::new(4).search_depth(&pos, 8);
    let mut searcher = Searcher::new(4);
    searcher.set_threads(4).expect("in range");
    searcher.search_depth(&pos, 6);
    searcher.set_threads(1).expect("in range");
    searcher.clear();
    let again = searcher.search_depth(&pos, 8);
    assert_eq!(
        (again.stats.nodes, again.nodes, again.best_move, again.score),
        (fresh.stats.nodes, fresh.nodes, fresh.best_move, fresh.score)
    );
    assert_eq!(
        again.nodes, again.stats.nodes,
        "one thread: no helper nodes"
    );
}

#[test]
fn threads_and_hash_change_between_searches() {
    let pos = Position::startpos();
    let mut searcher = Searcher::new(2);
    for (threads, mb) in [(4, 2), (1, 8), (8, 1), (2, 4), (256, 1), (1, 1)] {
        searcher.set_threads(threads).expect("in range");
        searcher.set_hash(mb).expect("a small table");
        assert_eq!(searcher.threads(), threads);
        let outcome = searcher.search_depth(&pos, 5);
        let best = outcome.best_move.expect("a move");
        assert!(pos.legal_moves().contains(&best), "{threads} threads");
    }
    assert!(searcher.set_threads(0).is_err());
    assert!(searcher.set_threads(257).is_err());
    assert_eq!(searcher.threads(), 1, "a refused value changes nothing");
}

/// `stop` reaches every thread: an infinite search on eight threads returns once it is set.
/// (How fast is measured, not asserted: `cargo xtask perf threads`.)
#[test]
fn stop_ends_an_infinite_search_on_eight_threads() {
    let pos = position(six_positions()[1].fen);
    let mut searcher = Searcher::new(8);
    searcher.set_threads(8).expect("in range");
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let (outcome, after_stop) = thread::scope(|scope| {
        let search = scope.spawn(|| searcher.search(&pos, &limits, &stop, &mut |_| {}));
        thread::sleep(Duration::from_millis(200));
        let stopped = Instant::now();
        stop.store(true, Ordering::Relaxed);
        let outcome = search.join().expect("the search does not panic");
        (outcome, stopped.elapsed())
    });
    assert!(outcome.depth >= 1);
    assert!(
        pos.legal_moves()
            .contains(&outcome.best_move.expect("a move"))
    );
    assert!(after_stop < Duration::from_secs(5), "{after_stop:?}");
}

/// The lock-free slots under a real search: eight threads in a 1 MB table, the table counting
/// the torn slots its probes meet. The counts themselves depend on timing, so they are printed
/// (chapter 17 measures them, `cargo xtask measure ch17`); what is asserted is what must hold
/// however the threads interleave: counting changes nothing the search finds, every probe is
/// counted, and a torn slot a plain table would have served is one the table rejected.
#[test]
fn eight_threads_in_a_small_table_count_torn_slots_and_play_a_legal_move() {
    let pos = position(six_positions()[2].fen);
    let mut searcher = Searcher::new(1);
    searcher.set_threads(8).expect("in range");
    searcher.set_torn_read_counting(true);
    let outcome = searcher.search_depth(&pos, 9);
    let counters = searcher.tt().counters();
    println!("{counters:?}");
    assert!(
        pos.legal_moves()
            .contains(&outcome.best_move.expect("a move"))
    );
    assert!(
        counters.probes >= outcome.stats.tt_probes,
        "every thread's probes are counted, the main thread's among them: {counters:?}"
    );
    assert!(counters.hits <= counters.probes);
    assert!(counters.torn_would_serve <= counters.torn, "{counters:?}");

    // One thread cannot tear a slot: a torn count there would be a false alarm.
    searcher.set_threads(1).expect("in range");
    searcher.clear();
    searcher.search_depth(&pos, 9);
    let alone = searcher.tt().counters();
    assert!(alone.probes > 0);
    assert_eq!((alone.torn, alone.torn_would_serve), (0, 0), "{alone:?}");
}

/// The helpers are kept across searches (chapter 17's pool): as many helper threads run
/// between two searches as during one, and a smaller `Threads` ends and joins the ones it no
/// longer needs.
#[test]
fn helper_threads_are_kept_between_searches_and_none_is_left_behind() {
    let pos = Position::startpos();
    let mut searcher = Searcher::new(2);
    assert_eq!(searcher.helper_threads_running(), 0);
    for threads in [8, 3, 1, 5, 2] {
        searcher.set_threads(threads).expect("in range");
        assert_eq!(searcher.helper_threads_running(), threads - 1, "{threads}");
        for _ in 0..2 {
            searcher.search_depth(&pos, 4);
            assert_eq!(
                searcher.helper_threads_running(),
                threads - 1,
                "{threads} threads, after a search"
            );
        }
        searcher.set_hash(4).expect("a small table");
    }
}
