//! The stored match records as the chapter programs read them: the record itself
//! (`snapshots/games/<name>.json`, checked by the arena) and the games of its PGN, with the
//! comment the arena writes after every move (`{+0.12/9 0.157s}`: score/depth, then the time).

use arena::MatchRecord;

/// The stored record `name`, checked by the arena (its counts add up).
pub fn load(name: &str) -> MatchRecord {
    let path = crate::repository_root().join(format!("snapshots/games/{name}.json"));
    MatchRecord::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// The PGN text of the stored record `name`.
pub fn pgn(name: &str) -> String {
    let path = crate::repository_root().join(format!("snapshots/games/{name}.pgn"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the match record {} cannot be read: {e}", path.display()))
}

/// One game of a record's PGN: who played it, who moved first and from which full move, and
/// its movetext, whose comments alternate between the engines from the side to move first.
#[derive(Debug)]
pub struct Game<'a> {
    pub white: String,
    pub black: String,
    pub white_first: bool,
    pub first_move: u32,
    pub movetext: &'a str,
}

impl Game<'_> {
    /// Whether `engine` played this game.
    pub fn played_by(&self, engine: &str) -> bool {
        self.white == engine || self.black == engine
    }

    /// Whether the `i`-th comment of the movetext (from 0) is `engine`'s: White's if White
    /// moved first and `i` is even.
    pub fn is_move_of(&self, i: usize, engine: &str) -> bool {
        let white_moves = i.is_multiple_of(2) == self.white_first;
        white_moves == (self.white == engine)
    }
}

/// The games of the PGN text `pgn`, in order. A game without a `FEN` tag starts from move 1
/// with White to move.
pub fn games(pgn: &str) -> impl Iterator<Item = Game<'_>> {
    pgn.split("[Event ").skip(1).map(|game| {
        let tag = |name: &str| {
            game.lines()
                .find_map(|line| line.strip_prefix(&format!("[{name} \"")))
                .and_then(|rest| rest.strip_suffix("\"]"))
                .unwrap_or("")
                .to_string()
        };
        let fen = tag("FEN");
        let mut fields = fen.split_whitespace().skip(1);
        let white_first = fields.next() != Some("b");
        let first_move = fields.nth(3).and_then(|n| n.parse().ok()).unwrap_or(1);
        Game {
            white: tag("White"),
            black: tag("Black"),
            white_first,
            first_move,
            movetext: game.split("\n\n").nth(1).unwrap_or(""),
        }
    })
}
