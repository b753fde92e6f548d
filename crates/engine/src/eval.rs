//! Static evaluation (chapter 6): how good a position looks without searching, in centipawns
//! from the side to move's point of view.
//!
//! Every term is a pair of weights, one for the middlegame and one for the endgame, blended by
//! the game phase ("Tapered Eval", Chess Programming Wiki): the phase counts the material left
//! (knight and bishop 1, rook 2, queen 4, 24 at the start), so a rook on the seventh or a king in
//! the centre can be worth one thing with queens on the board and another without. Material and
//! piece-square tables are PeSTO's, by Ronald Friederich (published on the Chess Programming
//! Wiki, "PeSTO's Evaluation Function", Texel-tuned for his engine RofChade); on top of them a
//! few cheap classic terms (CPW "Evaluation" and its sub-pages): bishop pair, mobility, passed,
//! doubled and isolated pawns, rooks on open files and a light king-safety count.
//!
//! Every weight lives in [`WEIGHTS`], one table a tuner can rewrite. Each term is computed for
//! both colours the same way, with White's squares read through `flip_rank` for Black, so a
//! position and its colour-flipped mirror evaluate exactly equal (a tested property).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::{PieceKind, Position};
use crate::square::{Color, Square};
use std::fmt;

/// A middlegame and an endgame value, blended by the phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tapered {
    pub mg: i32,
    pub eg: i32,
}

/// Shorthand for a [`Tapered`] pair in the weight table.
const fn s(mg: i32, eg: i32) -> Tapered {
    Tapered { mg, eg }
}

impl std::ops::Add for Tapered {
    type Output = Tapered;
    fn add(self, other: Tapered) -> Tapered {
        s(self.mg + other.mg, self.eg + other.eg)
    }
}

impl std::ops::AddAssign for Tapered {
    fn add_assign(&mut self, other: Tapered) {
        *self = *self + other;
    }
}

impl std::ops::Sub for Tapered {
    type Output = Tapered;
    fn sub(self, other: Tapered) -> Tapered {
        s(self.mg - other.mg, self.eg - other.eg)
    }
}

impl std::ops::Mul<i32> for Tapered {
    type Output = Tapered;
    fn mul(self, factor: i32) -> Tapered {
        s(self.mg * factor, self.eg * factor)
    }
}

// ANCHOR: blend
/// The phase of the starting position; more material (after promotions) is capped to it.
pub const MAX_PHASE: i32 = 24;

impl Tapered {
    /// The blend of the two values at `phase` (`MAX_PHASE` = pure middlegame, 0 = pure
    /// endgame). Division truncates toward zero, so `blend(-x) == -blend(x)`: the mirror
    /// property survives the rounding.
    pub fn blend(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (MAX_PHASE - phase)) / MAX_PHASE
    }
}
// ANCHOR_END: blend

/// Every weight of the evaluation. Piece-indexed arrays run pawn, knight, bishop, rook, queen,
/// king; the piece-square tables are written as published, the eighth rank first (a8 ... h8),
/// as White sees the board.
#[derive(Clone, Debug)]
pub struct Weights {
    /// Material per piece (PeSTO).
    pub material: [Tapered; 6],
    /// Middlegame piece-square tables (PeSTO), a8 first.
    pub psqt_mg: [[i32; 64]; 6],
    /// Endgame piece-square tables (PeSTO), a8 first.
    pub psqt_eg: [[i32; 64]; 6],
    /// Each piece's share of the game phase (CPW Tapered Eval: 0, 1, 1, 2, 4, 0).
    pub phase: [i32; 6],
    /// Both bishops still on the board.
    pub bishop_pair: Tapered,
    /// Per reachable square for knight, bishop, rook, queen, counted from `mobility_base`.
    pub mobility: [Tapered; 4],
    /// A typical square count per piece, so mobility shifts the score around zero rather than
    /// inflating piece values.
    pub mobility_base: [i32; 4],
    /// A passed pawn, by rank counted from its own side (index 1 = still at home).
    pub passed_pawn: [Tapered; 8],
    /// Each pawn beyond the first on a file.
    pub doubled_pawn: Tapered,
    /// A pawn with no friendly pawn on a neighbouring file.
    pub isolated_pawn: Tapered,
    /// A rook on a file with no pawn at all.
    pub rook_open_file: Tapered,
    /// A rook on a file with enemy pawns only.
    pub rook_semi_open_file: Tapered,
    /// Attack units a piece adds per square of the enemy king's zone it attacks.
    pub king_attack_units: [i32; 6],
    /// Middlegame penalty is `units² / divisor` ...
    pub king_danger_divisor: i32,
    /// ... capped at this many centipawns.
    pub king_danger_cap: i32,
}

/// The weights the engine plays with.
pub const WEIGHTS: Weights = Weights {
    material: [
        s(82, 94),
        s(337, 281),
        s(365, 297),
        s(477, 512),
        s(1025, 936),
        s(0, 0),
    ],
    psqt_mg: [
        // pawn
        [
            0, 0, 0, 0, 0, 0, 0, 0, //
            98, 134, 61, 95, 68, 126, 34, -11, //
            -6, 7, 26, 31, 65, 56, 25, -20, //
            -14, 13, 6, 21, 23, 12, 17, -23, //
            -27, -2, -5, 12, 17, 6, 10, -25, //
            -26, -4, -4, -10, 3, 3, 33, -12, //
            -35, -1, -20, -23, -15, 24, 38, -22, //
            0, 0, 0, 0, 0, 0, 0, 0, //
        ],
        // knight
        [
            -167, -89, -34, -49, 61, -97, -15, -107, //
            -73, -41, 72, 36, 23, 62, 7, -17, //
            -47, 60, 37, 65, 84, 129, 73, 44, //
            -9, 17, 19, 53, 37, 69, 18, 22, //
            -13, 4, 16, 13, 28, 19, 21, -8, //
            -23, -9, 12, 10, 19, 17, 25, -16, //
            -29, -53, -12, -3, -1, 18, -14, -19, //
            -105, -21, -58, -33, -17, -28, -19, -23, //
        ],
        // bishop
        [
            -29, 4, -82, -37, -25, -42, 7, -8, //
            -26, 16, -18, -13, 30, 59, 18, -47, //
            -16, 37, 43, 40, 35, 50, 37, -2, //
            -4, 5, 19, 50, 37, 37, 7, -2, //
            -6, 13, 13, 26, 34, 12, 10, 4, //
            0, 15, 15, 15, 14, 27, 18, 10, //
            4, 15, 16, 0, 7, 21, 33, 1, //
            -33, -3, -14, -21, -13, -12, -39, -21, //
        ],
        // rook
        [
            32, 42, 32, 51, 63, 9, 31, 43, //
            27, 32, 58, 62, 80, 67, 26, 44, //
            -5, 19, 26, 36, 17, 45, 61, 16, //
            -24, -11, 7, 26, 24, 35, -8, -20, //
            -36, -26, -12, -1, 9, -7, 6, -23, //
            -45, -25, -16, -17, 3, 0, -5, -33, //
            -44, -16, -20, -9, -1, 11, -6, -71, //
            -19, -13, 1, 17, 16, 7, -37, -26, //
        ],
        // queen
        [
            -28, 0, 29, 12, 59, 44, 43, 45, //
            -24, -39, -5, 1, -16, 57, 28, 54, //
            -13, -17, 7, 8, 29, 56, 47, 57, //
            -27, -27, -16, -16, -1, 17, -2, 1, //
            -9, -26, -9, -10, -2, -4, 3, -3, //
            -14, 2, -11, -2, -5, 2, 14, 5, //
            -35, -8, 11, 2, 8, 15, -3, 1, //
            -1, -18, -9, 10, -15, -25, -31, -50, //
        ],
        // king
        [
            -65, 23, 16, -15, -56, -34, 2, 13, //
            29, -1, -20, -7, -8, -4, -38, -29, //
            -9, 24, 2, -16, -20, 6, 22, -22, //
            -17, -20, -12, -27, -30, -25, -14, -36, //
            -49, -1, -27, -39, -46, -44, -33, -51, //
            -14, -14, -22, -46, -44, -30, -15, -27, //
            1, 7, -8, -64, -43, -16, 9, 8, //
            -15, 36, 12, -54, 8, -28, 24, 14, //
        ],
    ],
    psqt_eg: [
        // pawn
        [
            0, 0, 0, 0, 0, 0, 0, 0, //
            178, 173, 158, 134, 147, 132, 165, 187, //
            94, 100, 85, 67, 56, 53, 82, 84, //
            32, 24, 13, 5, -2, 4, 17, 17, //
            13, 9, -3, -7, -7, -8, 3, -1, //
            4, 7, -6, 1, 0, -5, -1, -8, //
            13, 8, 8, 10, 13, 0, 2, -7, //
            0, 0, 0, 0, 0, 0, 0, 0, //
        ],
        // knight
        [
            -58, -38, -13, -28, -31, -27, -63, -99, //
            -25, -8, -25, -2, -9, -25, -24, -52, //
            -24, -20, 10, 9, -1, -9, -19, -41, //
            -17, 3, 22, 22, 22, 11, 8, -18, //
            -18, -6, 16, 25, 16, 17, 4, -18, //
            -23, -3, -1, 15, 10, -3, -20, -22, //
            -42, -20, -10, -5, -2, -20, -23, -44, //
            -29, -51, -23, -15, -22, -18, -50, -64, //
        ],
        // bishop
        [
            -14, -21, -11, -8, -7, -9, -17, -24, //
            -8, -4, 7, -12, -3, -13, -4, -14, //
            2, -8, 0, -1, -2, 6, 0, 4, //
            -3, 9, 12, 9, 14, 10, 3, 2, //
            -6, 3, 13, 19, 7, 10, -3, -9, //
            -12, -3, 8, 10, 13, 3, -7, -15, //
            -14, -18, -7, -1, 4, -9, -15, -27, //
            -23, -9, -23, -5, -9, -16, -5, -17, //
        ],
        // rook
        [
            13, 10, 18, 15, 12, 12, 8, 5, //
            11, 13, 13, 11, -3, 3, 8, 3, //
            7, 7, 7, 5, 4, -3, -5, -3, //
            4, 3, 13, 1, 2, 1, -1, 2, //
            3, 5, 8, 4, -5, -6, -8, -11, //
            -4, 0, -5, -1, -7, -12, -8, -16, //
            -6, -6, 0, 2, -9, -9, -11, -3, //
            -9, 2, 3, -1, -5, -13, 4, -20, //
        ],
        // queen
        [
            -9, 22, 22, 27, 27, 19, 10, 20, //
            -17, 20, 32, 41, 58, 25, 30, 0, //
            -20, 6, 9, 49, 47, 35, 19, 9, //
            3, 22, 24, 45, 57, 40, 57, 36, //
            -18, 28, 19, 47, 31, 34, 39, 23, //
            -16, -27, 15, 6, 9, 17, 10, 5, //
            -22, -23, -30, -16, -16, -23, -36, -32, //
            -33, -28, -22, -43, -5, -32, -20, -41, //
        ],
        // king
        [
            -74, -35, -18, -18, -11, 15, 4, -17, //
            -12, 17, 14, 17, 17, 38, 23, 11, //
            10, 17, 23, 15, 20, 45, 44, 13, //
            -8, 22, 24, 27, 26, 33, 26, 3, //
            -18, -4, 21, 24, 27, 23, 9, -11, //
            -19, -3, 11, 21, 23, 16, 7, -9, //
            -27, -11, 4, 13, 14, 4, -5, -17, //
            -53, -34, -21, -11, -28, -14, -24, -43, //
        ],
    ],
    phase: [0, 1, 1, 2, 4, 0],
    bishop_pair: s(30, 50),
    mobility: [s(4, 4), s(5, 5), s(2, 4), s(1, 2)],
    mobility_base: [4, 6, 6, 12],
    passed_pawn: [
        s(0, 0),
        s(0, 5),
        s(2, 8),
        s(5, 15),
        s(12, 30),
        s(25, 55),
        s(40, 80),
        s(0, 0),
    ],
    doubled_pawn: s(-10, -20),
    isolated_pawn: s(-10, -10),
    rook_open_file: s(25, 10),
    rook_semi_open_file: s(10, 5),
    king_attack_units: [0, 2, 2, 3, 5, 0],
    king_danger_divisor: 4,
    king_danger_cap: 500,
};

// ANCHOR: evaluate
/// The evaluation of `pos` in centipawns for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// The evaluation with other weights (for a tuner).
pub fn evaluate_with(pos: &Position, weights: &Weights) -> i32 {
    let white = Breakdown::of(pos, weights).white_score();
    match pos.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}
// ANCHOR_END: evaluate

/// PeSTO's material and piece-square tables alone, tapered by phase, for the side to move: the
/// evaluation with chapter 6's other terms switched off (`evalterms`), which the chapter's games
/// measure the terms against.
pub fn evaluate_material_and_tables(pos: &Position) -> i32 {
    let white = Breakdown::material_and_tables(pos, &WEIGHTS).white_score();
    match pos.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// The evaluation term by term, for the console's `eval` command.
pub fn trace(pos: &Position) -> String {
    Breakdown::of(pos, &WEIGHTS).to_string()
}

/// Every term of the evaluation for each colour (index 0 White, 1 Black), before blending.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    pub material: [Tapered; 2],
    pub psqt: [Tapered; 2],
    pub bishop_pair: [Tapered; 2],
    pub mobility: [Tapered; 2],
    pub passed_pawns: [Tapered; 2],
    pub pawn_structure: [Tapered; 2],
    pub rooks: [Tapered; 2],
    pub king_safety: [Tapered; 2],
    /// The game phase, 0 (endgame) to [`MAX_PHASE`].
    pub phase: i32,
}

impl Breakdown {
    // ANCHOR: breakdown_of
    /// Computes every term of `pos`.
    pub fn of(pos: &Position, w: &Weights) -> Breakdown {
        let mut b = Breakdown::material_and_tables(pos, w);
        for color in Color::BOTH {
            let c = color.index();
            if pos.pieces(color, PieceKind::Bishop).more_than_one() {
                b.bishop_pair[c] = w.bishop_pair;
            }
            b.passed_pawns[c] = passed_pawns(pos, color, w);
            b.pawn_structure[c] = pawn_structure(pos, color, w);
            b.rooks[c] = rooks_on_files(pos, color, w);
            let (mobility, king_attack) = mobility_and_king_attack(pos, color, w);
            b.mobility[c] = mobility;
            b.king_safety[color.flip().index()] = king_attack;
        }
        b
    }
    // ANCHOR_END: breakdown_of

    /// PeSTO's part alone: material, piece-square values and the phase; every other term zero.
    fn material_and_tables(pos: &Position, w: &Weights) -> Breakdown {
        let mut b = Breakdown::default();
        let mut phase = 0;
        for color in Color::BOTH {
            let c = color.index();
            for (k, kind) in PieceKind::ALL.into_iter().enumerate() {
                for square in pos.pieces(color, kind) {
                    let i = psqt_index(color, square);
                    b.material[c] += w.material[k];
                    b.psqt[c] += s(w.psqt_mg[k][i], w.psqt_eg[k][i]);
                    phase += w.phase[k];
                }
            }
        }
        b.phase = phase.min(MAX_PHASE);
        b
    }

    /// The terms in display order with their names.
    fn terms(&self) -> [(&'static str, [Tapered; 2]); 8] {
        [
            ("material", self.material),
            ("piece-square", self.psqt),
            ("bishop pair", self.bishop_pair),
            ("mobility", self.mobility),
            ("passed pawns", self.passed_pawns),
            ("pawn structure", self.pawn_structure),
            ("rooks on files", self.rooks),
            ("king safety", self.king_safety),
        ]
    }

    /// White's terms minus Black's, unblended.
    pub fn white_minus_black(&self) -> Tapered {
        self.terms()
            .iter()
            .fold(Tapered::default(), |sum, (_, [white, black])| {
                sum + *white - *black
            })
    }

    /// The blended score from White's point of view.
    pub fn white_score(&self) -> i32 {
        self.white_minus_black().blend(self.phase)
    }
}

impl fmt::Display for Breakdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<15} {:>11} {:>11} {:>11}",
            "term", "white mg eg", "black mg eg", "total"
        )?;
        for (name, [white, black]) in self.terms() {
            let total = (white - black).blend(self.phase);
            writeln!(
                f,
                "{name:<15} {:>5} {:>5} {:>5} {:>5} {total:>11}",
                white.mg, white.eg, black.mg, black.eg
            )?;
        }
        writeln!(f, "phase {} of {MAX_PHASE}", self.phase)?;
        write!(f, "total (White's view) {}", self.white_score())
    }
}

// ANCHOR: psqt_index
/// The index into a published (a8-first) table for a piece of `color` on `square`: White
/// reads the table upside down from our a1-first numbering, Black reads it as it stands, which
/// is White's table mirrored.
#[inline]
fn psqt_index(color: Color, square: Square) -> usize {
    match color {
        Color::White => square.flip_rank().index(),
        Color::Black => square.index(),
    }
}
// ANCHOR_END: psqt_index

/// The rank of `square` counted from `color`'s side (0 = its first rank).
#[inline]
fn relative_rank(color: Color, square: Square) -> usize {
    match color {
        Color::White => square.rank() as usize,
        Color::Black => 7 - square.rank() as usize,
    }
}

/// The squares in front of a pawn of `color` on `square`, on its own and both neighbouring
/// files: no enemy pawn there means the pawn is passed (CPW "Passed Pawn").
const fn passed_mask(color: Color, square: usize) -> u64 {
    let file = square % 8;
    let rank = square / 8;
    let mut files = 0x0101_0101_0101_0101u64 << file;
    if file > 0 {
        files |= 0x0101_0101_0101_0101u64 << (file - 1);
    }
    if file < 7 {
        files |= 0x0101_0101_0101_0101u64 << (file + 1);
    }
    let ahead = match color {
        Color::White if rank < 7 => !0u64 << ((rank + 1) * 8),
        Color::Black if rank > 0 => !0u64 >> ((8 - rank) * 8),
        _ => 0,
    };
    files & ahead
}

const PASSED_MASKS: [[u64; 64]; 2] = {
    let mut masks = [[0; 64]; 2];
    let mut square = 0;
    while square < 64 {
        masks[0][square] = passed_mask(Color::White, square);
        masks[1][square] = passed_mask(Color::Black, square);
        square += 1;
    }
    masks
};

// ANCHOR: passed_pawns
/// The bonus for `color`'s passed pawns.
fn passed_pawns(pos: &Position, color: Color, w: &Weights) -> Tapered {
    let enemy_pawns = pos.pieces(color.flip(), PieceKind::Pawn).0;
    let mut total = Tapered::default();
    for square in pos.pieces(color, PieceKind::Pawn) {
        if PASSED_MASKS[color.index()][square.index()] & enemy_pawns == 0 {
            total += w.passed_pawn[relative_rank(color, square)];
        }
    }
    total
}
// ANCHOR_END: passed_pawns

/// The files holding at least one of `pawns`, as whole files: the set smeared north and south
/// (CPW "Pawn Fills", file fill).
fn file_fill(pawns: Bitboard) -> Bitboard {
    let mut fill = pawns.0;
    fill |= fill << 8;
    fill |= fill << 16;
    fill |= fill << 32;
    fill |= fill >> 8;
    fill |= fill >> 16;
    fill |= fill >> 32;
    Bitboard(fill)
}

/// Doubled and isolated pawns (CPW "Doubled Pawn", "Isolated Pawn"), set-wise: a pawn with
/// another of its side somewhere south of it on its file is one too many on that file; a pawn
/// with no pawn of its side on a neighbouring file is isolated.
fn pawn_structure(pos: &Position, color: Color, w: &Weights) -> Tapered {
    let pawns = pos.pieces(color, PieceKind::Pawn);
    let mut south = pawns.0 >> 8;
    south |= south >> 8;
    south |= south >> 16;
    south |= south >> 32;
    let doubled = (pawns.0 & south).count_ones() as i32;
    let files = file_fill(pawns);
    let isolated = (pawns & !(files.east() | files.west())).count() as i32;
    w.doubled_pawn * doubled + w.isolated_pawn * isolated
}

/// Rooks on open (no pawns) and half-open (only enemy pawns) files (CPW "Rook on Open File").
fn rooks_on_files(pos: &Position, color: Color, w: &Weights) -> Tapered {
    let own_pawns = pos.pieces(color, PieceKind::Pawn);
    let enemy_pawns = pos.pieces(color.flip(), PieceKind::Pawn);
    let mut total = Tapered::default();
    for square in pos.pieces(color, PieceKind::Rook) {
        let file = Bitboard::file(square.file());
        if (own_pawns & file).is_empty() {
            total += if (enemy_pawns & file).is_empty() {
                w.rook_open_file
            } else {
                w.rook_semi_open_file
            };
        }
    }
    total
}

/// The squares `color`'s pawns attack.
fn pawn_attacks(pos: &Position, color: Color) -> Bitboard {
    let pawns = pos.pieces(color, PieceKind::Pawn).forward(color);
    pawns.east() | pawns.west()
}

/// Mobility of `color`'s knights, bishops, rooks and queens (CPW "Mobility": squares attacked
/// that hold no own piece and are not attacked by an enemy pawn), and the danger they pose to
/// the enemy king: attack units per square of its zone (the king's square and its neighbours)
/// they hit, turned into a middlegame penalty that grows with the square of the units once two
/// or more pieces join in (the idea of CPW "King Safety", attack units, in a light form).
fn mobility_and_king_attack(pos: &Position, color: Color, w: &Weights) -> (Tapered, Tapered) {
    let occupied = pos.occupied();
    let area = !pos.colour(color) & !pawn_attacks(pos, color.flip());
    let enemy_king = pos.pieces(color.flip(), PieceKind::King).first();
    let king_zone = enemy_king.map_or(Bitboard::EMPTY, |king| {
        attacks::king_attacks(king) | Bitboard::from_square(king)
    });
    let mut mobility = Tapered::default();
    let mut units = 0;
    let mut attackers = 0;
    for (m, kind) in [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ]
    .into_iter()
    .enumerate()
    {
        for square in pos.pieces(color, kind) {
            let reach = match kind {
                PieceKind::Knight => attacks::knight_attacks(square),
                PieceKind::Bishop => attacks::bishop_attacks(square, occupied),
                PieceKind::Rook => attacks::rook_attacks(square, occupied),
                _ => attacks::queen_attacks(square, occupied),
            };
            let squares = (reach & area).count() as i32;
            mobility += w.mobility[m] * (squares - w.mobility_base[m]);
            let hits = (reach & king_zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                units += hits * w.king_attack_units[m + 1];
            }
        }
    }
    let danger = if attackers >= 2 {
        (units * units / w.king_danger_divisor).min(w.king_danger_cap)
    } else {
        0
    };
    (mobility, s(-danger, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).expect("a valid FEN"))
    }

    #[test]
    fn start_position_is_level() {
        assert_eq!(
            eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            0
        );
    }

    #[test]
    fn the_side_to_move_sees_its_own_advantage() {
        // White is a queen up: good for White to move, bad for Black to move.
        let white = eval_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let black = eval_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert!(white > 800, "{white}");
        assert_eq!(black, -white);
    }

    #[test]
    fn phase_runs_from_middlegame_to_endgame() {
        let start = Position::startpos();
        assert_eq!(Breakdown::of(&start, &WEIGHTS).phase, MAX_PHASE);
        let bare = Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1").expect("valid");
        assert_eq!(Breakdown::of(&bare, &WEIGHTS).phase, 0);
    }

    #[test]
    fn passed_pawns_are_recognised() {
        // White's d5 pawn is passed (no black pawn on c, d or e ahead); Black's a7 is not
        // (White's b-pawn guards its path), Black's h7 is.
        let pos = Position::from_fen("4k3/p6p/8/3P4/8/8/1P6/4K3 w - - 0 1").expect("valid");
        let white = passed_pawns(&pos, Color::White, &WEIGHTS);
        let black = passed_pawns(&pos, Color::Black, &WEIGHTS);
        assert_eq!(white, WEIGHTS.passed_pawn[4]);
        assert_eq!(black, WEIGHTS.passed_pawn[1]);
    }

    #[test]
    fn doubled_and_isolated_pawns_are_penalised() {
        // White: a2, a3 doubled and isolated; Black: c7, d7 connected.
        let pos = Position::from_fen("4k3/2pp4/8/8/8/P7/P7/4K3 w - - 0 1").expect("valid");
        let white = pawn_structure(&pos, Color::White, &WEIGHTS);
        assert_eq!(white, WEIGHTS.doubled_pawn + WEIGHTS.isolated_pawn * 2);
        assert_eq!(
            pawn_structure(&pos, Color::Black, &WEIGHTS),
            Tapered::default()
        );
    }

    #[test]
    fn material_and_tables_leave_out_the_other_terms() {
        // White's rook on the open e-file scores only with the full evaluation.
        let pos = Position::from_fen("3k4/pppp1ppp/8/8/8/8/PPPP1PPP/4RK2 w - - 0 1").unwrap();
        let full = Breakdown::of(&pos, &WEIGHTS);
        assert_ne!(full.rooks, [Tapered::default(); 2]);
        let pesto = full.material[0] + full.psqt[0] - full.material[1] - full.psqt[1];
        assert_eq!(evaluate_material_and_tables(&pos), pesto.blend(full.phase));
        assert_ne!(evaluate_material_and_tables(&pos), evaluate(&pos));
    }

    #[test]
    fn trace_totals_match_the_evaluation() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .expect("valid");
        let text = trace(&pos);
        assert!(text.contains("mobility") && text.contains("king safety"));
        assert!(text.ends_with(&format!("total (White's view) {}", evaluate(&pos))));
    }
}
