//! The interface the UCI layer relies on: limits, the stop flag, reports and determinism.

use cb2026::position::Position;
use cb2026::search::{Limits, SearchInfo, Searcher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const MIDDLEGAME: &str = "r2qr1k1/pb1nbppp/1pn1p3/2ppP3/3P4/2PB1NN1/PP3PPP/R1BQR1K1 w - - 4 12";

fn middlegame() -> Position {
    Position::from_fen(MIDDLEGAME).expect("valid FEN")
}

fn legal(pos: &Position, m: Option<cb2026::moves::Move>) -> bool {
    m.is_some_and(|m| pos.legal_moves().contains(&m))
}

#[test]
fn node_limited_search_is_deterministic() {
    let pos = middlegame();
    let run = || {
        let mut searcher = Searcher::new(4);
        let stop = Arc::new(AtomicBool::new(false));
        let outcome = searcher.search(&pos, &Limits::nodes(30_000), &stop, &mut |_| {});
        (outcome.stats.nodes, outcome.best_move, outcome.depth)
    };
    let first = run();
    assert_eq!(first.0, 30_000);
    assert_eq!(run(), first);
}

#[test]
fn clear_makes_a_searcher_as_good_as_new() {
    let pos = middlegame();
    let mut used = Searcher::new(4);
    used.search_depth(&Position::startpos(), 7);
    used.clear();
    let after_clear = used.search_depth(&pos, 7);
    let fresh = Searcher::new(4).search_depth(&pos, 7);
    assert_eq!(after_clear.stats, fresh.stats);
    assert_eq!(after_clear.pv, fresh.pv);
}

#[test]
fn each_iteration_reports_a_legal_line() {
    let pos = middlegame();
    let mut searcher = Searcher::new(4);
    let stop = Arc::new(AtomicBool::new(false));
    let mut infos: Vec<SearchInfo> = Vec::new();
    let outcome = searcher.search(&pos, &Limits::depth(6), &stop, &mut |info| {
        infos.push(info.clone())
    });
    assert_eq!(
        infos.iter().map(|i| i.depth).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5, 6]
    );
    for info in &infos {
        let mut line = pos.clone();
        for &m in &info.pv {
            assert!(line.legal_moves().contains(&m), "{m} in {:?}", info.pv);
            line.make_move(m);
        }
        assert!(info.seldepth >= info.depth);
    }
    let last = infos.last().expect("six reports");
    assert_eq!(outcome.best_move, last.pv.first().copied());
    assert_eq!(outcome.ponder, last.pv.get(1).copied());
    assert_eq!(outcome.stats.nodes, last.nodes);
}

#[test]
fn past_deadlines_still_give_a_legal_move() {
    let pos = middlegame();
    let past = Instant::now();
    let limits = Limits {
        soft_deadline: Some(past),
        ..Limits::default()
    };
    let outcome = Searcher::new(4).search(
        &pos,
        &limits,
        &Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    );
    assert_eq!(
        outcome.depth, 1,
        "the soft deadline lets depth 1 finish, no more"
    );
    assert!(legal(&pos, outcome.best_move));

    let limits = Limits {
        hard_deadline: Some(past),
        ..Limits::default()
    };
    let outcome = Searcher::new(4).search(
        &pos,
        &limits,
        &Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    );
    // A hard deadline already past still lets the first iteration finish (it takes a
    // millisecond or less), so the move is a searched one; the deadline is read every
    // 1,024 nodes, and from the second iteration on it ends the search.
    assert!(outcome.depth >= 1, "the first iteration always completes");
    assert!(outcome.stats.nodes < 1024 + 2048, "{}", outcome.stats.nodes);
    assert!(legal(&pos, outcome.best_move));
}

#[test]
fn stop_from_another_thread_ends_an_infinite_search() {
    let pos = middlegame();
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let outcome = std::thread::scope(|scope| {
        let search = scope.spawn(|| Searcher::new(4).search(&pos, &limits, &stop, &mut |_| {}));
        std::thread::sleep(Duration::from_millis(200));
        stop.store(true, Ordering::Relaxed);
        search.join().expect("the search thread")
    });
    assert!(outcome.depth >= 1);
    assert!(legal(&pos, outcome.best_move));
}

#[test]
fn infinite_search_waits_for_stop_after_its_last_iteration() {
    let pos = middlegame();
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        depth: Some(2),
        infinite: true,
        ..Limits::default()
    };
    let started = Instant::now();
    std::thread::scope(|scope| {
        let search = scope.spawn(|| Searcher::new(4).search(&pos, &limits, &stop, &mut |_| {}));
        std::thread::sleep(Duration::from_millis(100));
        assert!(!search.is_finished(), "returned before stop");
        stop.store(true, Ordering::Relaxed);
        search.join().expect("the search thread");
    });
    assert!(started.elapsed() >= Duration::from_millis(100));
}
