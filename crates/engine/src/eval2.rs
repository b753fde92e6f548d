//! Evaluation II (chapter 18): chapter 6's PeSTO tables with the classic terms of a modern
//! hand-written evaluation on top, every one a named pair of weights that a tuner can rewrite.
//!
//! **Linear in its weights.** Every term is a weight pair `(mg, eg)` from one table,
//! [`EvalWeights`], times a count that depends on the position only: "two isolated pawns" is
//! the weight `ISOLATED` counted twice. So the evaluation before blending is
//! `Σ weight_i × (white_count_i − black_count_i)`, and [`features`] gives those counts, which is
//! all a tuner needs for the gradient (chapter 19). Two parts are not linear and are kept apart
//! from the table: the king danger (attack units looked up in a table that grows faster than
//! linearly, [`KING_DANGER`]) and the endgame scale ([`scale`]), which multiplies the blended
//! score. [`Features`] carries both as constants, so `Features::evaluate` reproduces
//! [`evaluate`] exactly with any weights.
//!
//! **Cheap where it is often the same.** Material and piece-square values are kept in the
//! position by make-move ([`Position::psq`], a packed pair, [`Packed`]); pawn-structure terms,
//! which depend on the pawns alone and change only when a pawn moves, are kept in a small table
//! per search thread ([`PawnTable`]), keyed by both colours' pawn sets.
//!
//! Every term is computed for both colours the same way, so a position and its colour-flipped
//! mirror evaluate exactly equal (tested over the perft suite and random games).
//!
//! Sources for the ideas (the code and the numbers are ours): the Chess Programming Wiki's
//! "Evaluation", "Passed Pawn", "Backward Pawn", "Mobility", "King Safety", "Outposts",
//! "Tapered Eval"; Fruit 2.1's `eval.cpp` and `pawn.cpp` (Fabien Letouzey), Ethereal's
//! `evaluate.c` (Andrew Grant), Stockfish's `evaluate.cpp` before NNUE.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::eval::{self, MAX_PHASE, Tapered};
use crate::eval2_eval3::EVAL3_WEIGHTS;
use crate::eval2_eval4::EVAL4_WEIGHTS;
use crate::eval2_eval5::EVAL5_WEIGHTS;
use crate::eval2_kingsafety::KING_SAFETY_WEIGHTS;
use crate::eval2_teacher::TEACHER_WEIGHTS;
use crate::eval2_tuned::TUNED_WEIGHTS;
use crate::position::{PieceKind, Position};
use crate::square::{Color, Square};
use std::fmt;
use std::ops::{Add, AddAssign, Sub, SubAssign};

/// A weight pair in the table.
const fn s(mg: i32, eg: i32) -> Tapered {
    Tapered { mg, eg }
}

// ANCHOR: packed
/// A middlegame and an endgame value packed in one `i32`: `mg × 65536 + eg`. Adding two packed
/// values adds both halves at once (the low half's carry or borrow is undone when it is read),
/// so make-move updates the material and piece-square sum with one addition per piece moved.
/// Each half must stay within an `i16`, which material and tables do by far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Packed(i32);

impl Packed {
    pub const ZERO: Packed = Packed(0);

    /// Packs `mg` and `eg`.
    pub const fn new(mg: i32, eg: i32) -> Packed {
        Packed((mg << 16).wrapping_add(eg))
    }

    /// The middlegame half: the high 16 bits, corrected for a negative low half.
    #[inline]
    pub const fn mg(self) -> i32 {
        (self.0.wrapping_add(0x8000) >> 16) as i16 as i32
    }

    /// The endgame half: the low 16 bits, read as signed.
    #[inline]
    pub const fn eg(self) -> i32 {
        self.0 as i16 as i32
    }
    // ANCHOR_END: packed

    /// Both halves as a [`Tapered`] pair.
    #[inline]
    pub const fn tapered(self) -> Tapered {
        s(self.mg(), self.eg())
    }
}

impl Add for Packed {
    type Output = Packed;
    #[inline]
    fn add(self, other: Packed) -> Packed {
        Packed(self.0.wrapping_add(other.0))
    }
}

impl Sub for Packed {
    type Output = Packed;
    #[inline]
    fn sub(self, other: Packed) -> Packed {
        Packed(self.0.wrapping_sub(other.0))
    }
}

impl AddAssign for Packed {
    #[inline]
    fn add_assign(&mut self, other: Packed) {
        *self = *self + other;
    }
}

impl SubAssign for Packed {
    #[inline]
    fn sub_assign(&mut self, other: Packed) {
        *self = *self - other;
    }
}

// ANCHOR: layout
// Where each term's weights start in the table. A term with several weights (one per rank, one
// per number of squares) takes consecutive slots; `TERMS` names them for the trace and a tuner.
pub const MATERIAL: usize = 0; // 6: pawn ... king (PeSTO)
pub const PSQT: usize = MATERIAL + 6; // 6 × 64, a8 first as published (PeSTO)
pub const PASSED_RANK: usize = PSQT + 6 * 64; // 8: by rank, counted from its own side
pub const PASSED_FREE: usize = PASSED_RANK + 8; // 8: nothing on the way to promotion
pub const PASSED_BLOCKED: usize = PASSED_FREE + 8; // 8: a piece on the square in front
pub const PASSED_SUPPORTED: usize = PASSED_BLOCKED + 8; // defended by a pawn
pub const PASSED_KING_OWN: usize = PASSED_SUPPORTED + 1; // × distance × rank factor
pub const PASSED_KING_ENEMY: usize = PASSED_KING_OWN + 1; // × distance × rank factor
pub const ISOLATED: usize = PASSED_KING_ENEMY + 1;
pub const DOUBLED: usize = ISOLATED + 1;
pub const BACKWARD: usize = DOUBLED + 1;
pub const CONNECTED: usize = BACKWARD + 1; // 8: by rank
pub const MOBILITY_KNIGHT: usize = CONNECTED + 8; // 9: by safe squares reached, 0 to 8
pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9; // 14: 0 to 13
pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14; // 15: 0 to 14
pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15; // 28: 0 to 27
pub const SHIELD: usize = MOBILITY_QUEEN + 28; // 3: pawn one ahead, two ahead, none
pub const STORM: usize = SHIELD + 3; // 4: enemy pawn 1, 2, 3, 4 ranks ahead
pub const THREAT_BY_PAWN: usize = STORM + 4;
pub const THREAT_MINOR_ON_MAJOR: usize = THREAT_BY_PAWN + 1;
pub const THREAT_ROOK_ON_QUEEN: usize = THREAT_MINOR_ON_MAJOR + 1;
pub const HANGING: usize = THREAT_ROOK_ON_QUEEN + 1;
pub const ROOK_OPEN: usize = HANGING + 1;
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
pub const ROOK_SEVENTH: usize = ROOK_SEMI_OPEN + 1;
pub const OUTPOST: usize = ROOK_SEVENTH + 1; // 2: knight, bishop
pub const BISHOP_PAIR: usize = OUTPOST + 2;
pub const TEMPO: usize = BISHOP_PAIR + 1;
// M14's terms (switch `eval3`): what Ethereal's evaluation counts and ours did not.
pub const EVAL3_TERMS: usize = TEMPO + 1; // chapter 18's weights are the ones before
pub const CANDIDATE: usize = EVAL3_TERMS; // 8: candidate passed pawns, by rank
pub const PASSED_SAFE_PUSH: usize = CANDIDATE + 8; // 8: the square in front is not attacked
pub const THREAT_PAWN_PUSH: usize = PASSED_SAFE_PUSH + 8; // pieces a safe pawn push would attack
pub const THREAT_WEAK_PAWN: usize = THREAT_PAWN_PUSH + 1; // pawns attacked and not defended
pub const THREAT_MINOR_ON_MINOR: usize = THREAT_WEAK_PAWN + 1;
pub const BISHOP_RAMMED: usize = THREAT_MINOR_ON_MINOR + 1; // own blocked pawns on its colour
pub const BISHOP_LONG_DIAGONAL: usize = BISHOP_RAMMED + 1; // sees both centre squares
pub const BEHIND_PAWN: usize = BISHOP_LONG_DIAGONAL + 1; // 2: knight, bishop
pub const KING_PAWN_FILES: usize = BEHIND_PAWN + 2; // 8: files from the king to the nearest pawn
pub const KING_DEFENDERS: usize = KING_PAWN_FILES + 8; // 12: own minors and pawns near the king
// M15's terms (switch `eval4`): Ethereal's finer tables, and what it counts that we still did not.
pub const EVAL4_TERMS: usize = KING_DEFENDERS + 12; // M14's weights are the ones before
pub const ISOLATED_FILE: usize = EVAL4_TERMS; // 8: isolated pawns by file
pub const DOUBLED_FILE: usize = ISOLATED_FILE + 8; // 8: doubled pawns by file
pub const BACKWARD_RANK: usize = DOUBLED_FILE + 8; // 16: by rank, then by rank on an open file
pub const CONNECTED_SQUARE: usize = BACKWARD_RANK + 16; // 32: by square, files e-h mirrored
pub const SHELTER: usize = CONNECTED_SQUARE + 32; // 128: king's file or not × file × distance
pub const STORM_FILE: usize = SHELTER + 128; // 64: blocked or not × file (mirrored) × distance
pub const PASSED_OWN_DISTANCE: usize = STORM_FILE + 64; // 8: × own king's distance, by rank
pub const PASSED_ENEMY_DISTANCE: usize = PASSED_OWN_DISTANCE + 8; // 8: × enemy king's, by rank
pub const THREAT_MINOR_BY_MAJOR: usize = PASSED_ENEMY_DISTANCE + 8; // poorly defended minors
pub const THREAT_BY_KING: usize = THREAT_MINOR_BY_MAJOR + 1; // 2: poorly defended minor, rook
pub const THREAT_ON_QUEEN: usize = THREAT_BY_KING + 2; // the queen attacked by anything
pub const THREAT_OVERLOADED: usize = THREAT_ON_QUEEN + 1; // attacked once, defended once
pub const SPACE_RESTRICTED: usize = THREAT_OVERLOADED + 1; // 2: pieces, empty squares
pub const SPACE_CENTRE: usize = SPACE_RESTRICTED + 2; // big centre squares held uncontested
pub const QUEEN_PINNED: usize = SPACE_CENTRE + 1; // a slider could attack the queen by discovery
pub const CLOSED_KNIGHT: usize = QUEEN_PINNED + 1; // 9: knights, by how closed the position is
pub const CLOSED_ROOK: usize = CLOSED_KNIGHT + 9; // 9: rooks, by how closed the position is
// M13: the inputs of the learnt king safety, counted for the attacking side. They are not
// added to the score as they are: their sum goes through [`king_safety_penalty`].
pub const KING_SAFETY: usize = CLOSED_ROOK + 9; // where the king safety's inputs start
pub const KS_ATTACKERS: usize = KING_SAFETY; // 4: knights, bishops, rooks, queens reaching the zone
pub const KS_ZONE_HITS: usize = KS_ATTACKERS + 4; // 4: zone squares they reach, by kind
pub const KS_WEAK: usize = KS_ZONE_HITS + 4; // zone squares only the king or queen defends
pub const KS_SAFE_CHECKS: usize = KS_WEAK + 1; // 4: safe checking squares, by kind
pub const KS_NO_QUEEN: usize = KS_SAFE_CHECKS + 4; // the attacker has no queen
pub const KS_BASE: usize = KS_NO_QUEEN + 1; // one per attack: an offset
// M20: the complexity of the position, counted once for the board (not per side): how decisive
// the endgame value is. Not linear either: see `with_complexity`.
pub const EVAL5_TERMS: usize = KS_BASE + 1; // M15's weights are the ones before
pub const COMPLEXITY: usize = EVAL5_TERMS;
pub const COMPLEXITY_PAWNS: usize = COMPLEXITY; // pawns on the board, both sides
pub const COMPLEXITY_PASSED: usize = COMPLEXITY_PAWNS + 1; // passed pawns, both sides
pub const COMPLEXITY_FLANKS: usize = COMPLEXITY_PASSED + 1; // pawns on both wings
pub const COMPLEXITY_PAWNS_ONLY: usize = COMPLEXITY_FLANKS + 1; // no piece but kings and pawns
pub const COMPLEXITY_OUTFLANKING: usize = COMPLEXITY_PAWNS_ONLY + 1; // kings' files apart − ranks
pub const COMPLEXITY_BASE: usize = COMPLEXITY_OUTFLANKING + 1; // one per position: an offset
/// The number of weight pairs.
pub const NUM_WEIGHTS: usize = COMPLEXITY_BASE + 1;
// ANCHOR_END: layout

/// A term of the trace: a name and its slots in the table, `start..start + len`.
#[derive(Clone, Copy, Debug)]
pub struct Term {
    pub name: &'static str,
    pub start: usize,
    pub len: usize,
}

const fn term(name: &'static str, start: usize, len: usize) -> Term {
    Term { name, start, len }
}

/// Every term in trace order; together they cover the table exactly once (a test checks it).
pub const TERMS: [Term; 67] = [
    term("material", MATERIAL, 6),
    term("piece-square", PSQT, 6 * 64),
    term("passed: rank", PASSED_RANK, 8),
    term("passed: free path", PASSED_FREE, 8),
    term("passed: blocked", PASSED_BLOCKED, 8),
    term("passed: supported", PASSED_SUPPORTED, 1),
    term("passed: own king", PASSED_KING_OWN, 1),
    term("passed: enemy king", PASSED_KING_ENEMY, 1),
    term("isolated pawns", ISOLATED, 1),
    term("doubled pawns", DOUBLED, 1),
    term("backward pawns", BACKWARD, 1),
    term("connected pawns", CONNECTED, 8),
    term("mobility: knights", MOBILITY_KNIGHT, 9),
    term("mobility: bishops", MOBILITY_BISHOP, 14),
    term("mobility: rooks", MOBILITY_ROOK, 15),
    term("mobility: queens", MOBILITY_QUEEN, 28),
    term("king: pawn shield", SHIELD, 3),
    term("king: pawn storm", STORM, 4),
    term("threat: pawn", THREAT_BY_PAWN, 1),
    term("threat: minor on major", THREAT_MINOR_ON_MAJOR, 1),
    term("threat: rook on queen", THREAT_ROOK_ON_QUEEN, 1),
    term("threat: hanging", HANGING, 1),
    term("rook: open file", ROOK_OPEN, 1),
    term("rook: semi-open file", ROOK_SEMI_OPEN, 1),
    term("rook: seventh rank", ROOK_SEVENTH, 1),
    term("outposts", OUTPOST, 2),
    term("bishop pair", BISHOP_PAIR, 1),
    term("tempo", TEMPO, 1),
    term("candidate passers", CANDIDATE, 8),
    term("passed: safe push", PASSED_SAFE_PUSH, 8),
    term("threat: pawn push", THREAT_PAWN_PUSH, 1),
    term("threat: weak pawn", THREAT_WEAK_PAWN, 1),
    term("threat: minor on minor", THREAT_MINOR_ON_MINOR, 1),
    term("bishop: rammed pawns", BISHOP_RAMMED, 1),
    term("bishop: long diagonal", BISHOP_LONG_DIAGONAL, 1),
    term("minor behind a pawn", BEHIND_PAWN, 2),
    term("king: pawn files away", KING_PAWN_FILES, 8),
    term("king: defenders", KING_DEFENDERS, 12),
    term("isolated pawns: file", ISOLATED_FILE, 8),
    term("doubled pawns: file", DOUBLED_FILE, 8),
    term("backward pawns: rank", BACKWARD_RANK, 16),
    term("connected pawns: square", CONNECTED_SQUARE, 32),
    term("king: shelter", SHELTER, 128),
    term("king: storm", STORM_FILE, 64),
    term("passed: own king by rank", PASSED_OWN_DISTANCE, 8),
    term("passed: enemy king by rank", PASSED_ENEMY_DISTANCE, 8),
    term("threat: minor by major", THREAT_MINOR_BY_MAJOR, 1),
    term("threat: by king", THREAT_BY_KING, 2),
    term("threat: on queen", THREAT_ON_QUEEN, 1),
    term("threat: overloaded", THREAT_OVERLOADED, 1),
    term("space: restricted", SPACE_RESTRICTED, 2),
    term("space: centre", SPACE_CENTRE, 1),
    term("queen: relative pin", QUEEN_PINNED, 1),
    term("closed: knights", CLOSED_KNIGHT, 9),
    term("closed: rooks", CLOSED_ROOK, 9),
    term("king safety: attackers", KS_ATTACKERS, 4),
    term("king safety: zone attacks", KS_ZONE_HITS, 4),
    term("king safety: weak squares", KS_WEAK, 1),
    term("king safety: safe checks", KS_SAFE_CHECKS, 4),
    term("king safety: no queen", KS_NO_QUEEN, 1),
    term("king safety: base", KS_BASE, 1),
    term("complexity: pawns", COMPLEXITY_PAWNS, 1),
    term("complexity: passed pawns", COMPLEXITY_PASSED, 1),
    term("complexity: both flanks", COMPLEXITY_FLANKS, 1),
    term("complexity: pawns only", COMPLEXITY_PAWNS_ONLY, 1),
    term("complexity: outflanking", COMPLEXITY_OUTFLANKING, 1),
    term("complexity: base", COMPLEXITY_BASE, 1),
];

/// The term that weight `index` belongs to.
pub fn term_of(index: usize) -> usize {
    TERMS
        .iter()
        .rposition(|t| t.start <= index)
        .expect("every index is in a term")
}

// ANCHOR: weights
/// Every linear weight of Evaluation II: one `(mg, eg)` pair per slot of the layout above
/// (`PASSED_RANK + 5` is a passed pawn on its sixth rank). A tuner replaces the whole table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    pub pairs: [Tapered; NUM_WEIGHTS],
}
// ANCHOR_END: weights

// ANCHOR: weight_set
/// Which weights Evaluation II plays with: the hand-set ones below (chapter 18), the ones
/// tuned by Texel's method (chapter 19's switch `tuned`, [`TUNED_WEIGHTS`]) or the ones tuned
/// on labels a stronger engine helped write (M10's switch `teacher`, [`TEACHER_WEIGHTS`]), or
/// M10's tuned again with M13's king safety (switch `kingsafety`, [`KING_SAFETY_WEIGHTS`]), or
/// M13's tuned again, every weight, with M14's terms (switch `eval3`, [`EVAL3_WEIGHTS`]), or
/// M14's tuned again, every weight, with M15's terms (switch `eval4`, [`EVAL4_WEIGHTS`]), or
/// M15's tuned again, every weight, with M20's complexity (switch `complexity`,
/// [`EVAL5_WEIGHTS`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WeightSet {
    #[default]
    HandSet,
    Tuned,
    Teacher,
    KingSafety,
    Eval3,
    Eval4,
    Eval5,
}

impl WeightSet {
    pub const ALL: [WeightSet; 7] = [
        WeightSet::HandSet,
        WeightSet::Tuned,
        WeightSet::Teacher,
        WeightSet::KingSafety,
        WeightSet::Eval3,
        WeightSet::Eval4,
        WeightSet::Eval5,
    ];

    /// The set's place in tables kept for every set ([`PSQ`], [`Position::psq`]).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The weights themselves.
    pub fn weights(self) -> &'static EvalWeights {
        match self {
            WeightSet::HandSet => &WEIGHTS,
            WeightSet::Tuned => &TUNED_WEIGHTS,
            WeightSet::Teacher => &TEACHER_WEIGHTS,
            WeightSet::KingSafety => &KING_SAFETY_WEIGHTS,
            WeightSet::Eval3 => &EVAL3_WEIGHTS,
            WeightSet::Eval4 => &EVAL4_WEIGHTS,
            WeightSet::Eval5 => &EVAL5_WEIGHTS,
        }
    }
}
// ANCHOR_END: weight_set

/// The hand-set weights: PeSTO's material and tables, and hand-set values for the
/// rest, chosen to be of the size the sources above give such terms, not tuned (chapter 19
/// tunes them).
pub const WEIGHTS: EvalWeights = EvalWeights {
    pairs: default_pairs(),
};

/// Writes `values` into `pairs` from `start` on.
const fn put(pairs: &mut [Tapered; NUM_WEIGHTS], start: usize, values: &[Tapered]) {
    let mut i = 0;
    while i < values.len() {
        pairs[start + i] = values[i];
        i += 1;
    }
}

/// A mobility table that starts linear, `per_square × (n − typical)`, for a tuner to bend.
const fn put_mobility(
    pairs: &mut [Tapered; NUM_WEIGHTS],
    start: usize,
    len: usize,
    per_square: Tapered,
    typical: i32,
) {
    let mut n = 0;
    while n < len {
        let d = n as i32 - typical;
        pairs[start + n] = s(per_square.mg * d, per_square.eg * d);
        n += 1;
    }
}

const fn default_pairs() -> [Tapered; NUM_WEIGHTS] {
    let mut w = [s(0, 0); NUM_WEIGHTS];
    let pesto = &eval::WEIGHTS;
    let mut k = 0;
    while k < 6 {
        w[MATERIAL + k] = pesto.material[k];
        let mut i = 0;
        while i < 64 {
            w[PSQT + k * 64 + i] = s(pesto.psqt_mg[k][i], pesto.psqt_eg[k][i]);
            i += 1;
        }
        k += 1;
    }
    let zero = s(0, 0);
    put(
        &mut w,
        PASSED_RANK,
        &[
            zero,
            s(0, 5),
            s(2, 8),
            s(5, 15),
            s(12, 30),
            s(25, 55),
            s(40, 80),
            zero,
        ],
    );
    put(
        &mut w,
        PASSED_FREE,
        &[
            zero,
            s(0, 2),
            s(0, 3),
            s(2, 6),
            s(4, 12),
            s(8, 20),
            s(12, 35),
            zero,
        ],
    );
    put(
        &mut w,
        PASSED_BLOCKED,
        &[
            zero,
            zero,
            s(-2, -3),
            s(-3, -6),
            s(-5, -10),
            s(-8, -18),
            s(-10, -25),
            zero,
        ],
    );
    w[PASSED_SUPPORTED] = s(5, 15);
    w[PASSED_KING_OWN] = s(0, -3);
    w[PASSED_KING_ENEMY] = s(0, 6);
    w[ISOLATED] = s(-10, -10);
    w[DOUBLED] = s(-10, -20);
    w[BACKWARD] = s(-8, -10);
    put(
        &mut w,
        CONNECTED,
        &[
            zero,
            s(2, 2),
            s(4, 4),
            s(6, 6),
            s(10, 12),
            s(20, 30),
            s(35, 50),
            zero,
        ],
    );
    put_mobility(&mut w, MOBILITY_KNIGHT, 9, s(4, 4), 4);
    put_mobility(&mut w, MOBILITY_BISHOP, 14, s(5, 5), 6);
    put_mobility(&mut w, MOBILITY_ROOK, 15, s(2, 4), 6);
    put_mobility(&mut w, MOBILITY_QUEEN, 28, s(1, 2), 12);
    put(&mut w, SHIELD, &[s(10, 0), s(5, 0), s(-10, 0)]);
    put(&mut w, STORM, &[s(-5, 0), s(-15, 0), s(-8, 0), s(-4, 0)]);
    w[THREAT_BY_PAWN] = s(40, 30);
    w[THREAT_MINOR_ON_MAJOR] = s(30, 20);
    w[THREAT_ROOK_ON_QUEEN] = s(25, 15);
    w[HANGING] = s(20, 15);
    w[ROOK_OPEN] = s(25, 10);
    w[ROOK_SEMI_OPEN] = s(10, 5);
    w[ROOK_SEVENTH] = s(15, 25);
    put(&mut w, OUTPOST, &[s(20, 10), s(12, 5)]);
    w[BISHOP_PAIR] = s(30, 50);
    w[TEMPO] = s(12, 6);
    // M13's starting point: about M6's king danger on the quadratic's scale (units × 13, as
    // `(13 u)² / 720 ≈ u² / 4`), and a little in the endgame, so that the endgame sum starts
    // above zero, where the tuner sees its slope; the tuner takes it from there.
    put(
        &mut w,
        KS_ZONE_HITS,
        &[s(26, 8), s(26, 8), s(39, 8), s(65, 8)],
    );
    put(
        &mut w,
        KS_SAFE_CHECKS,
        &[s(60, 8), s(45, 8), s(60, 8), s(75, 8)],
    );
    w
}

// ANCHOR: king_danger
/// The non-linear part of king safety, kept out of [`EvalWeights`]: each knight, bishop, rook
/// or queen that reaches the enemy king's zone (its square and the squares around it) adds
/// `attack_units` per zone square it reaches; with two attackers or more the king's side loses
/// `table[units]` centipawns in the middlegame. The table grows with the square of the units
/// (then levels off), because one attacker is parried and three rarely are (CPW "King Safety").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KingDanger {
    /// Attack units per zone square, by piece kind (pawn ... king).
    pub attack_units: [i32; 6],
    /// Centipawns by attack units.
    pub table: [i32; 64],
    /// Attack units for a safe check, by the kind of piece that could give it (M6; all zero
    /// before M6: see [`safe_check_units`]).
    pub check_units: [i32; 6],
    /// M13: count the inputs of the learnt king safety (weights `KS_*`) instead; the units
    /// and the table above are then all zero.
    pub learnt: bool,
}

/// The king danger of chapter 18: attacks on the king's zone alone.
pub const KING_DANGER: KingDanger = KingDanger {
    attack_units: [0, 2, 2, 3, 5, 0],
    table: danger_table(),
    check_units: [0; 6],
    learnt: false,
};

/// `units² / 4`, at most 500: chapter 6's curve, as a table a tuner can reshape.
const fn danger_table() -> [i32; 64] {
    let mut table = [0; 64];
    let mut units = 0;
    while units < 64 {
        let value = (units * units / 4) as i32;
        table[units] = if value > 500 { 500 } else { value };
        units += 1;
    }
    table
}
// ANCHOR_END: king_danger

// ANCHOR: king_danger_checks
/// M6's king danger (switch `safechecks`): chapter 18's, and each kind of piece that has a
/// safe check adds units. A queen's check counts most: it is the check most often
/// followed by mate. The units are the ones whose evaluation best predicted the results of
/// the book's stored match games (Texel's loss, chapter 19; M6 shows the comparison).
pub const KING_DANGER_CHECKS: KingDanger = KingDanger {
    check_units: [0, 8, 6, 8, 10, 0],
    ..KING_DANGER
};
// ANCHOR_END: king_danger_checks

// ANCHOR: king_safety_learnt
/// M13's king safety (switch `kingsafety`): no hand-set units and no table. What an attack
/// musters is counted as inputs, each with a weight of the table a tuner learns (`KS_*`), and
/// their sum goes through [`king_safety_penalty`].
pub const KING_SAFETY_LEARNT: KingDanger = KingDanger {
    attack_units: [0; 6],
    table: [0; 64],
    check_units: [0; 6],
    learnt: true,
};

/// What the summed inputs of an attack on a king cost its side: the square of the middlegame
/// sum over 720, and a tenth as much, linearly, in the endgame (the endgame sum over 20).
/// Nothing for a sum at or below zero. Squared, because attackers work together: two pieces
/// near a king are far more than twice as dangerous as one, which a sum of linear terms cannot
/// say (Ethereal's king safety has this shape; CPW "King Safety").
pub fn king_safety_penalty(sum: Tapered) -> Tapered {
    let mg = sum.mg.max(0);
    s(mg * mg / 720, sum.eg.max(0) / 20)
}
// ANCHOR_END: king_safety_learnt

// ANCHOR: psq_table
/// Material plus piece-square value of each piece on each square, packed, negative for Black:
/// what make-move adds and subtracts ([`Position::psq`]). Built at compile time from the
/// table's first 390 weights, so it always agrees with [`WEIGHTS`].
pub static PSQ: [PsqTable; WeightSet::ALL.len()] = [
    psq_table(&WEIGHTS),
    psq_table(&TUNED_WEIGHTS),
    psq_table(&TEACHER_WEIGHTS),
    psq_table(&KING_SAFETY_WEIGHTS),
    psq_table(&EVAL3_WEIGHTS),
    psq_table(&EVAL4_WEIGHTS),
    psq_table(&EVAL5_WEIGHTS),
];

/// One weight set's values by colour, piece kind and square.
pub type PsqTable = [[[Packed; 64]; 6]; 2];

const fn psq_table(w: &EvalWeights) -> PsqTable {
    let mut table = [[[Packed::ZERO; 64]; 6]; 2];
    let mut k = 0;
    while k < 6 {
        let mut square = 0;
        while square < 64 {
            // White reads the a8-first table upside down, Black as it stands.
            let white = w.pairs[PSQT + k * 64 + (square ^ 56)];
            let black = w.pairs[PSQT + k * 64 + square];
            let m = w.pairs[MATERIAL + k];
            table[0][k][square] = Packed::new(m.mg + white.mg, m.eg + white.eg);
            table[1][k][square] = Packed::new(-m.mg - black.mg, -m.eg - black.eg);
            square += 1;
        }
        k += 1;
    }
    table
}
// ANCHOR_END: psq_table

// ---------------------------------------------------------------------------------------------
// Masks

const FILE_A: u64 = 0x0101_0101_0101_0101;

const fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

/// The files beside `file`.
const fn adjacent_files(file: usize) -> u64 {
    let mut mask = 0;
    if file > 0 {
        mask |= file_mask(file - 1);
    }
    if file < 7 {
        mask |= file_mask(file + 1);
    }
    mask
}

/// The ranks strictly in front of `rank` for `color`.
const fn ranks_ahead(color: usize, rank: usize) -> u64 {
    if color == 0 {
        if rank < 7 {
            !0u64 << ((rank + 1) * 8)
        } else {
            0
        }
    } else if rank > 0 {
        !0u64 >> ((8 - rank) * 8)
    } else {
        0
    }
}

/// Per colour and square: the squares ahead on the file (`FRONT`), ahead on the file and the
/// two beside it (`PASSED_SPAN`: no enemy pawn there means passed), and level or behind on the
/// files beside it (`SUPPORT_SPAN`: a pawn there could still come to defend this one).
struct Spans {
    front: [[u64; 64]; 2],
    passed: [[u64; 64]; 2],
    support: [[u64; 64]; 2],
}

const SPANS: Spans = {
    let mut spans = Spans {
        front: [[0; 64]; 2],
        passed: [[0; 64]; 2],
        support: [[0; 64]; 2],
    };
    let mut color = 0;
    while color < 2 {
        let mut square = 0;
        while square < 64 {
            let (file, rank) = (square % 8, square / 8);
            let ahead = ranks_ahead(color, rank);
            spans.front[color][square] = file_mask(file) & ahead;
            spans.passed[color][square] = (file_mask(file) | adjacent_files(file)) & ahead;
            spans.support[color][square] = adjacent_files(file) & !ahead;
            square += 1;
        }
        color += 1;
    }
    spans
};

/// The rank of `square` counted from `color`'s side (0 = its first rank).
#[inline]
fn relative_rank(color: Color, square: Square) -> usize {
    match color {
        Color::White => square.rank() as usize,
        Color::Black => 7 - square.rank() as usize,
    }
}

/// The squares the pawns `pawns` of `color` attack.
#[inline]
fn pawn_attacks(color: Color, pawns: u64) -> u64 {
    let forward = Bitboard(pawns).forward(color);
    (forward.east() | forward.west()).0
}

/// Every square a pawn of `pawns` could ever attack by advancing: its attacks now and from
/// every square ahead of it (a piece outside this set can never be driven off by a pawn).
#[inline]
fn pawn_attack_span(color: Color, pawns: u64) -> u64 {
    let mut fill = pawns;
    match color {
        Color::White => {
            fill |= fill << 8;
            fill |= fill << 16;
            fill |= fill << 32;
        }
        Color::Black => {
            fill |= fill >> 8;
            fill |= fill >> 16;
            fill |= fill >> 32;
        }
    }
    pawn_attacks(color, fill)
}

/// Chebyshev distance: the king moves between two squares.
#[inline]
fn distance(a: Square, b: Square) -> i32 {
    let files = (a.file() as i32 - b.file() as i32).abs();
    let ranks = (a.rank() as i32 - b.rank() as i32).abs();
    files.max(ranks)
}

// ---------------------------------------------------------------------------------------------
// Sinks: where the terms go

// ANCHOR: sink
/// Where a term reports "weight `index` counts `count` times for `color`". The terms are
/// written once, against this trait: the search's [`Scorer`] multiplies by the weights as it
/// goes, [`features`] records the counts for a tuner, and the trace groups them by term.
pub trait Sink {
    fn add(&mut self, color: Color, index: usize, count: i32);
}

/// Sums weights × counts per colour.
/// The king safety's inputs (M13) are summed apart, per attacking colour, and count only
/// through [`king_safety_penalty`]; the complexity's (M20) are summed apart too, once for the
/// board, and count only through [`with_complexity`].
struct Scorer<'w> {
    weights: &'w [Tapered; NUM_WEIGHTS],
    score: [Tapered; 2],
    king_safety: [Tapered; 2],
    complexity: Tapered,
}

impl Sink for Scorer<'_> {
    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let sum = if index >= COMPLEXITY {
            &mut self.complexity
        } else if index >= KING_SAFETY {
            &mut self.king_safety[color.index()]
        } else {
            &mut self.score[color.index()]
        };
        *sum += self.weights[index] * count;
    }
}
// ANCHOR_END: sink

impl<'w> Scorer<'w> {
    fn new(weights: &'w EvalWeights) -> Scorer<'w> {
        Scorer {
            weights: &weights.pairs,
            score: [Tapered::default(); 2],
            king_safety: [Tapered::default(); 2],
            complexity: Tapered::default(),
        }
    }

    /// The linear terms, and what each side's attack on the other's king costs that king.
    fn white_minus_black(&self) -> Tapered {
        let [white_attack, black_attack] = self.king_safety.map(king_safety_penalty);
        self.score[0] - self.score[1] + white_attack - black_attack
    }

    /// `white`, with the complexity summed so far applied to its endgame value (M20).
    fn complicated(&self, white: Tapered) -> Tapered {
        with_complexity(white, self.complexity.eg)
    }
}

// ---------------------------------------------------------------------------------------------
// The terms

/// Material and piece-square values, piece by piece (what [`Position::psq`] keeps
/// incrementally).
fn material_and_tables<S: Sink>(pos: &Position, sink: &mut S) {
    for color in Color::BOTH {
        for (k, kind) in PieceKind::ALL.into_iter().enumerate() {
            for square in pos.pieces(color, kind) {
                let published = match color {
                    Color::White => square.flip_rank().index(),
                    Color::Black => square.index(),
                };
                sink.add(color, MATERIAL + k, 1);
                sink.add(color, PSQT + k * 64 + published, 1);
            }
        }
    }
}

// ANCHOR: pawn_terms
/// The terms that depend on the pawns alone (so the pawn table can keep them): passed pawns
/// by rank and supported, isolated, doubled, backward and connected pawns, and M15's finer
/// tables of the last four (isolated and doubled by file, backward by rank and whether its file
/// is open, connected by square; Ethereal's `PawnIsolated`, `PawnStacked`, `PawnBackwards` and
/// `PawnConnected32`). Returns the passed pawns of both colours, which the terms that also
/// depend on pieces and kings need.
fn pawn_terms<S: Sink>(pawns: [u64; 2], sink: &mut S) -> u64 {
    let mut passed = 0;
    for color in Color::BOTH {
        let (c, them) = (color.index(), color.flip().index());
        let (own, enemy) = (pawns[c], pawns[them]);
        let defended = pawn_attacks(color, own);
        let enemy_attacks = pawn_attacks(color.flip(), enemy);
        for square in Bitboard(own) {
            let i = square.index();
            let rank = relative_rank(color, square);
            let beside = adjacent_files(square.file() as usize);
            let supported = defended & (1 << i) != 0;
            let phalanx = own & beside & (0xFF << (8 * square.rank())) != 0;
            let front = SPANS.front[c][i];
            // Passed: no enemy pawn ahead on its file or beside it, and not behind its own.
            if SPANS.passed[c][i] & enemy == 0 && front & own == 0 {
                passed |= 1 << i;
                sink.add(color, PASSED_RANK + rank, 1);
                if supported {
                    sink.add(color, PASSED_SUPPORTED, 1);
                }
            } else if is_candidate(c, i, own, enemy) {
                sink.add(color, CANDIDATE + rank, 1);
            }
            // Doubled: another pawn of its side ahead of it on the file (each extra one counts).
            let file = square.file() as usize;
            if front & own != 0 {
                sink.add(color, DOUBLED, 1);
                sink.add(color, DOUBLED_FILE + file, 1);
            }
            if own & beside == 0 {
                sink.add(color, ISOLATED, 1);
                sink.add(color, ISOLATED_FILE + file, 1);
            } else if supported || phalanx {
                sink.add(color, CONNECTED + rank, 1);
                sink.add(color, CONNECTED_SQUARE + 4 * rank + file.min(7 - file), 1);
            } else {
                // Backward: no pawn beside it level or behind that could come to defend it,
                // and its way forward is guarded by an enemy pawn.
                let stop = Bitboard::from_square(square).forward(color).0;
                if own & SPANS.support[c][i] == 0 && stop & enemy_attacks != 0 {
                    sink.add(color, BACKWARD, 1);
                    // M15: on an open file (no enemy pawn ahead) a rook can attack it.
                    let open = if front & enemy == 0 { 8 } else { 0 };
                    sink.add(color, BACKWARD_RANK + open + rank, 1);
                }
            }
        }
    }
    passed
}
// ANCHOR_END: pawn_terms

// ANCHOR: candidate
/// A candidate passed pawn (M14): not passed yet, but nothing stands on its file ahead of it,
/// and its side has as many pawns beside it, level or behind, that can come up to support it
/// as the enemy has pawns on the files beside it ahead, the sentries that guard its way. Push
/// it with its supporters and it becomes passed (CPW "Candidate Passed Pawn"; Ethereal counts
/// them as `PawnCandidatePasser`).
fn is_candidate(c: usize, i: usize, own: u64, enemy: u64) -> bool {
    let front = SPANS.front[c][i];
    if front & (own | enemy) != 0 {
        return false;
    }
    let sentries = (SPANS.passed[c][i] & enemy).count_ones();
    let supporters = (SPANS.support[c][i] & own).count_ones();
    supporters >= sentries
}
// ANCHOR_END: candidate

/// The squares of `square`'s king zone: the king's square and its neighbours.
#[inline]
fn king_zone(square: Square) -> u64 {
    attacks::king_attacks(square).0 | 1 << square.index()
}

// ANCHOR: piece_terms
/// The terms that depend on the pieces: mobility, king safety, threats, rooks, outposts,
/// bishop pair, tempo, and the passed pawns' path and kings. `passed` holds the passed pawns
/// of both colours (from [`pawn_terms`]). Returns the non-linear king danger of each side.
fn piece_terms<S: Sink>(
    pos: &Position,
    passed: u64,
    closed: usize,
    danger: &KingDanger,
    sink: &mut S,
) -> [Tapered; 2] {
    let occupied = pos.occupied().0;
    let pawns = [
        pos.pieces(Color::White, PieceKind::Pawn).0,
        pos.pieces(Color::Black, PieceKind::Pawn).0,
    ];
    let pawn_attacked = [
        pawn_attacks(Color::White, pawns[0]),
        pawn_attacks(Color::Black, pawns[1]),
    ];
    let kings = [pos.king_square(Color::White), pos.king_square(Color::Black)];
    let mut attacked = [0u64; 2];
    let mut attacked_twice = [0u64; 2];
    let mut by_minors = [0u64; 2];
    let mut by_rooks = [0u64; 2];
    // Per side: the units and attackers it musters against the enemy king, and what each of
    // its piece kinds reaches (for the safe checks).
    let mut units = [0i32; 2];
    let mut attackers = [0i32; 2];
    let mut attack = [KingAttack::default(); 2];
    let mut reach_by_kind = [[0u64; 6]; 2];
    let mut king_danger = [Tapered::default(); 2];

    // Mobility and attacks on the enemy king's zone, gathering every piece's attacks.
    for color in Color::BOTH {
        let (c, them) = (color.index(), color.flip().index());
        let safe = !pos.colour(color).0 & !pawn_attacked[them];
        let zone = king_zone(kings[them]);
        let king_reach = attacks::king_attacks(kings[c]).0;
        attacked[c] = pawn_attacked[c] | king_reach;
        let forward = Bitboard(pawns[c]).forward(color);
        attacked_twice[c] = (forward.east().0 & forward.west().0) | (pawn_attacked[c] & king_reach);
        for (kind, table) in [
            (PieceKind::Knight, MOBILITY_KNIGHT),
            (PieceKind::Bishop, MOBILITY_BISHOP),
            (PieceKind::Rook, MOBILITY_ROOK),
            (PieceKind::Queen, MOBILITY_QUEEN),
        ] {
            for square in pos.pieces(color, kind) {
                let reach = match kind {
                    PieceKind::Knight => attacks::knight_attacks(square),
                    PieceKind::Bishop => attacks::bishop_attacks(square, Bitboard(occupied)),
                    PieceKind::Rook => attacks::rook_attacks(square, Bitboard(occupied)),
                    _ => attacks::queen_attacks(square, Bitboard(occupied)),
                }
                .0;
                attacked_twice[c] |= attacked[c] & reach;
                attacked[c] |= reach;
                reach_by_kind[c][kind.index()] |= reach;
                match kind {
                    PieceKind::Knight | PieceKind::Bishop => by_minors[c] |= reach,
                    PieceKind::Rook => by_rooks[c] |= reach,
                    _ => {}
                }
                sink.add(color, table + (reach & safe).count_ones() as usize, 1);
                let hits = (reach & zone).count_ones() as i32;
                if hits > 0 {
                    attackers[c] += 1;
                    units[c] += hits * danger.attack_units[kind.index()];
                    attack[c].attackers[kind.index()] += 1;
                    attack[c].zone_hits[kind.index()] += hits;
                }
            }
        }
    }

    // The king danger, once both sides' attacks are known (a safe check needs the defender's).
    for color in Color::BOTH {
        let (c, them) = (color.index(), color.flip().index());
        if danger.learnt {
            let has_queen = pos.pieces(color, PieceKind::Queen).any();
            if attackers[c] >= 2 || (attackers[c] == 1 && has_queen) {
                let own = pos.colour(color).0;
                attack[c].safe_checks = safe_checks(
                    kings[them],
                    occupied,
                    !own & !attacked[them],
                    &reach_by_kind[c],
                );
                let defended = pawn_attacked[them]
                    | reach_by_kind[them][PieceKind::Knight.index()]
                    | reach_by_kind[them][PieceKind::Bishop.index()]
                    | reach_by_kind[them][PieceKind::Rook.index()];
                attack[c].weak = king_zone(kings[them]) & attacked[c] & !defended;
                attack[c].has_queen = has_queen;
                king_safety_inputs(color, &attack[c], sink);
            }
            continue;
        }
        if danger.check_units != [0; 6] {
            let own = pos.colour(color).0;
            let safe = !own & !attacked[them];
            units[c] += safe_check_units(danger, kings[them], occupied, safe, &reach_by_kind[c]);
        }
        if attackers[c] >= 2 {
            let units = units[c].clamp(0, danger.table.len() as i32 - 1) as usize;
            king_danger[them] = s(-danger.table[units], 0);
        }
    }

    let maps = AttackMaps {
        pawn_attacks: pawn_attacked,
        attacked,
        attacked_twice,
        by_minors,
        by_majors: [0, 1].map(|c| by_rooks[c] | reach_by_kind[c][PieceKind::Queen.index()]),
    };
    for color in Color::BOTH {
        let (c, them) = (color.index(), color.flip().index());
        let theirs = |kind| pos.pieces(color.flip(), kind).0;
        let majors = theirs(PieceKind::Rook) | theirs(PieceKind::Queen);
        let pieces = majors | theirs(PieceKind::Knight) | theirs(PieceKind::Bishop);

        // Threats: a piece attacked by a pawn, a major by a minor, a queen by a rook, and
        // a piece attacked and not defended at all.
        let count = |set: u64| set.count_ones() as i32;
        sink.add(color, THREAT_BY_PAWN, count(pawn_attacked[c] & pieces));
        sink.add(color, THREAT_MINOR_ON_MAJOR, count(by_minors[c] & majors));
        let queens = theirs(PieceKind::Queen);
        sink.add(color, THREAT_ROOK_ON_QUEEN, count(by_rooks[c] & queens));
        sink.add(
            color,
            HANGING,
            count(attacked[c] & !attacked[them] & pieces),
        );

        // Rooks on open and semi-open files, and on the seventh rank when there is something
        // to win there: enemy pawns on it, or the enemy king shut in on the eighth.
        for square in pos.pieces(color, PieceKind::Rook) {
            let file = file_mask(square.file() as usize);
            if file & pawns[c] == 0 {
                let open = if file & pawns[them] == 0 {
                    ROOK_OPEN
                } else {
                    ROOK_SEMI_OPEN
                };
                sink.add(color, open, 1);
            }
            if relative_rank(color, square) == 6 {
                let seventh = 0xFFu64 << (8 * square.rank());
                if relative_rank(color, kings[them]) == 7 || pawns[them] & seventh != 0 {
                    sink.add(color, ROOK_SEVENTH, 1);
                }
            }
        }

        // Outposts: a knight or bishop on the fourth to sixth rank, defended by a pawn, on a
        // square no enemy pawn can ever attack.
        let span = pawn_attack_span(color.flip(), pawns[them]);
        for (n, kind) in [PieceKind::Knight, PieceKind::Bishop]
            .into_iter()
            .enumerate()
        {
            for square in pos.pieces(color, kind) {
                let bit = 1u64 << square.index();
                let rank = relative_rank(color, square);
                if (3..=5).contains(&rank) && bit & pawn_attacked[c] != 0 && bit & span == 0 {
                    sink.add(color, OUTPOST + n, 1);
                }
            }
        }

        if pos.pieces(color, PieceKind::Bishop).more_than_one() {
            sink.add(color, BISHOP_PAIR, 1);
        }
        if pos.side_to_move() == color {
            sink.add(color, TEMPO, 1);
        }

        let enemy_attacks = attacked[them];
        passed_pawn_path(
            color,
            passed & pawns[c],
            occupied,
            kings,
            enemy_attacks,
            sink,
        );
        more_threats(pos, color, &maps, sink);
        minor_piece_terms(pos, color, pawns, sink);
        king_neighbourhood(pos, color, kings[c], pawns, sink);
        threats_on_weak_pieces(pos, color, kings[c], &maps, sink);
        space(pos, color, &maps, sink);
        queen_relative_pin(pos, color, sink);
        let count = |kind| pos.pieces(color, kind).count() as i32;
        sink.add(color, CLOSED_KNIGHT + closed, count(PieceKind::Knight));
        sink.add(color, CLOSED_ROOK + closed, count(PieceKind::Rook));
    }
    king_danger
}

/// What both sides attack, as [`piece_terms`] gathers it, for M14's and M15's terms.
struct AttackMaps {
    /// Squares each side's pawns attack.
    pawn_attacks: [u64; 2],
    /// Squares each side attacks with anything.
    attacked: [u64; 2],
    /// Squares each side attacks with two pieces or more (two pawns, a pawn and a piece, ...).
    attacked_twice: [u64; 2],
    /// Squares each side's knights and bishops attack.
    by_minors: [u64; 2],
    /// Squares each side's rooks and queens attack.
    by_majors: [u64; 2],
}

// ANCHOR: more_threats
/// M14's threats by `color` (Ethereal's `evaluateThreats`, CPW "Threats"): enemy pieces a pawn
/// would attack after a safe push (a square no enemy pawn attacks, and that we defend or they
/// do not attack), enemy pawns attacked and not defended (they fall next move), and enemy
/// knights and bishops attacked by ours (a minor attacked by a minor is not yet lost, but it
/// must move or be defended, and a tempo is a tempo).
fn more_threats<S: Sink>(pos: &Position, color: Color, maps: &AttackMaps, sink: &mut S) {
    let (c, them) = (color.index(), color.flip().index());
    let theirs = |kind| pos.pieces(color.flip(), kind).0;
    let minors = theirs(PieceKind::Knight) | theirs(PieceKind::Bishop);
    let pieces = minors | theirs(PieceKind::Rook) | theirs(PieceKind::Queen);
    let count = |set: u64| set.count_ones() as i32;

    let empty = !pos.occupied().0;
    let pushes = pos.pieces(color, PieceKind::Pawn).forward(color).0 & empty;
    let safe = !maps.pawn_attacks[them] & (maps.attacked[c] | !maps.attacked[them]);
    let push_threats = pawn_attacks(color, pushes & safe) & pieces;
    sink.add(color, THREAT_PAWN_PUSH, count(push_threats));

    let weak_pawns = theirs(PieceKind::Pawn) & maps.attacked[c] & !maps.attacked[them];
    sink.add(color, THREAT_WEAK_PAWN, count(weak_pawns));
    sink.add(
        color,
        THREAT_MINOR_ON_MINOR,
        count(maps.by_minors[c] & minors),
    );
}
// ANCHOR_END: more_threats

/// The light squares (b1, d1, ..., a2, ...): a bishop stays on its colour for the whole game.
const LIGHT_SQUARES: u64 = 0x55AA_55AA_55AA_55AA;
/// The two long diagonals, a1-h8 and h1-a8.
const LONG_DIAGONALS: u64 = 0x8040_2010_0804_0201 | 0x0102_0408_1020_4080;
/// d4, e4, d5 and e5.
const CENTRE: u64 = 0x0000_0018_1800_0000;

// ANCHOR: minor_piece_terms
/// M14's knight and bishop terms (Ethereal's `evaluateKnights` and `evaluateBishops`):
/// - a bishop counts its own pawns on its colour that an enemy pawn blocks (rammed): they
///   will not move off its diagonals, and they shut it in for good;
/// - a bishop on a long diagonal that sees both centre squares through the pawns (pieces
///   move, pawns stay): it will rake the board from the corner;
/// - a knight or bishop right behind a pawn (either side's) is shielded from the front by it,
///   and on the pawn's other side it often helps it forward.
fn minor_piece_terms<S: Sink>(pos: &Position, color: Color, pawns: [u64; 2], sink: &mut S) {
    let (c, them) = (color.index(), color.flip().index());
    let all_pawns = pawns[0] | pawns[1];
    let rammed = pawns[c] & Bitboard(pawns[them]).forward(color.flip()).0;
    for square in pos.pieces(color, PieceKind::Bishop) {
        let bit = 1u64 << square.index();
        let colour = if bit & LIGHT_SQUARES != 0 {
            LIGHT_SQUARES
        } else {
            !LIGHT_SQUARES
        };
        sink.add(color, BISHOP_RAMMED, (rammed & colour).count_ones() as i32);
        let through_pawns = attacks::bishop_attacks(square, Bitboard(all_pawns)).0;
        if bit & LONG_DIAGONALS & !CENTRE != 0 && (through_pawns & CENTRE).count_ones() >= 2 {
            sink.add(color, BISHOP_LONG_DIAGONAL, 1);
        }
    }
    for (n, kind) in [PieceKind::Knight, PieceKind::Bishop]
        .into_iter()
        .enumerate()
    {
        let shielded = pos.pieces(color, kind).forward(color).0 & all_pawns;
        sink.add(color, BEHIND_PAWN + n, shielded.count_ones() as i32);
    }
}
// ANCHOR_END: minor_piece_terms

// ANCHOR: king_neighbourhood
/// M14's king terms (Ethereal's `evaluateKings`): how many files the king stands from the
/// nearest pawn of either side (in an endgame the king must reach the pawns, to push its own
/// and stop the enemy's), and how many of its own pawns, knights and bishops stand in its zone
/// (the defenders an attack has to get past), by count.
fn king_neighbourhood<S: Sink>(
    pos: &Position,
    color: Color,
    king: Square,
    pawns: [u64; 2],
    sink: &mut S,
) {
    let all_pawns = pawns[0] | pawns[1];
    if all_pawns != 0 {
        let file = king.file() as usize;
        let away = (0..8)
            .find(|&d| {
                let near = file_mask(file.saturating_sub(d)) | file_mask((file + d).min(7));
                all_pawns & near != 0
            })
            .expect("a pawn stands on some file");
        sink.add(color, KING_PAWN_FILES + away, 1);
    }
    let minors = pos.pieces(color, PieceKind::Knight).0 | pos.pieces(color, PieceKind::Bishop).0;
    let defenders = (pawns[color.index()] | minors) & king_zone(king);
    let count = (defenders.count_ones() as usize).min(11);
    sink.add(color, KING_DEFENDERS + count, 1);
}
// ANCHOR_END: king_neighbourhood

// ANCHOR: shelter_and_storm_by_file
/// M15's king shelter and pawn storm, file by file (Ethereal's `KingShelter` and `KingStorm`;
/// CPW "King Safety"). On the king's file and each file beside it: how many ranks ahead of the
/// king its own nearest pawn stands (7: none left), weighted by the file and by whether it is
/// the king's own; and how far the nearest enemy pawn stands, weighted by the file (mirrored,
/// as a storm on the h-file is one on the a-file) and by whether it is blocked, standing right
/// in front of our pawn: a blocked storm pawn cannot come on to open the file. Chapter 18's
/// [`shield_and_storm`] said the same with seven weights; these 192 let the tuner see that a
/// missing g-pawn in front of a king on g1 is worse than a missing a-pawn in front of one on b1.
fn shelter_and_storm_by_file<S: Sink>(color: Color, king: Square, pawns: [u64; 2], sink: &mut S) {
    let (c, them) = (color.index(), color.flip().index());
    let (king_file, king_rank) = (king.file() as usize, king.rank() as usize);
    let level_or_ahead = ranks_ahead(c, king_rank) | 0xFF << (8 * king_rank);
    let ranks_to_nearest = |set: u64| -> usize {
        if set == 0 {
            return 7;
        }
        let square = match color {
            Color::White => set.trailing_zeros(),
            Color::Black => 63 - set.leading_zeros(),
        };
        (square as usize / 8).abs_diff(king_rank)
    };
    for file in king_file.saturating_sub(1)..=(king_file + 1).min(7) {
        let mask = file_mask(file) & level_or_ahead;
        let ours = ranks_to_nearest(pawns[c] & mask);
        let theirs = ranks_to_nearest(pawns[them] & mask);
        let kings_file = usize::from(file == king_file);
        sink.add(color, SHELTER + 64 * kings_file + 8 * file + ours, 1);
        let blocked = usize::from(ours != 7 && ours + 1 == theirs);
        let mirrored = file.min(7 - file);
        sink.add(color, STORM_FILE + 32 * blocked + 8 * mirrored + theirs, 1);
    }
}
// ANCHOR_END: shelter_and_storm_by_file

// ANCHOR: threats_on_weak_pieces
/// M15's threats by `color` on the enemy's poorly defended pieces (Ethereal's
/// `evaluateThreats`). A square is poorly defended when we attack it and they do not, or we
/// attack it twice and they once at most, with no pawn. There a knight or bishop attacked by
/// a rook or queen is lost, and so is a knight, bishop or rook our king attacks. Also counted:
/// their queen attacked by anything (it must move, whatever attacks it), and their pieces that
/// one of ours attacks and one of theirs defends, each the only one: overloaded, that defender
/// can hold this square or another, not both.
fn threats_on_weak_pieces<S: Sink>(
    pos: &Position,
    color: Color,
    king: Square,
    maps: &AttackMaps,
    sink: &mut S,
) {
    let (c, them) = (color.index(), color.flip().index());
    let theirs = |kind| pos.pieces(color.flip(), kind).0;
    let minors = theirs(PieceKind::Knight) | theirs(PieceKind::Bishop);
    let rooks = theirs(PieceKind::Rook);
    let queens = theirs(PieceKind::Queen);
    let count = |set: u64| set.count_ones() as i32;

    let poorly_defended = (maps.attacked[c] & !maps.attacked[them])
        | (maps.attacked_twice[c] & !maps.attacked_twice[them] & !maps.pawn_attacks[them]);
    let weak_minors = minors & poorly_defended;
    sink.add(
        color,
        THREAT_MINOR_BY_MAJOR,
        count(weak_minors & maps.by_majors[c]),
    );
    let king_reach = attacks::king_attacks(king).0;
    sink.add(color, THREAT_BY_KING, count(weak_minors & king_reach));
    sink.add(
        color,
        THREAT_BY_KING + 1,
        count(rooks & poorly_defended & king_reach),
    );
    sink.add(color, THREAT_ON_QUEEN, count(queens & maps.attacked[c]));
    let once = |side: usize| maps.attacked[side] & !maps.attacked_twice[side];
    let overloaded = (minors | rooks | queens) & once(c) & once(them);
    sink.add(color, THREAT_OVERLOADED, count(overloaded));
}
// ANCHOR_END: threats_on_weak_pieces

/// c3 to f6: the sixteen squares of the big centre.
const BIG_CENTRE: u64 = 0x0000_3C3C_3C3C_0000;

// ANCHOR: space
/// M15's space for `color` (Ethereal's `evaluateSpace`; CPW "Space"). Squares we attack once,
/// with no pawn, that the enemy attacks twice or more are theirs to take: our pieces standing
/// on them are hemmed in, and empty ones are no room of ours. And while enough pieces are on the
/// board for the centre to matter (knights and bishops one each, rooks and queens two, more
/// than 12 in all), the big centre's squares we hold, by standing on them or attacking them,
/// that the enemy does not attack.
fn space<S: Sink>(pos: &Position, color: Color, maps: &AttackMaps, sink: &mut S) {
    let (c, them) = (color.index(), color.flip().index());
    let occupied = pos.occupied().0;
    let contested = maps.attacked_twice[them]
        & maps.attacked[c]
        & !maps.attacked_twice[c]
        & !maps.pawn_attacks[c];
    sink.add(
        color,
        SPACE_RESTRICTED,
        (contested & occupied).count_ones() as i32,
    );
    sink.add(
        color,
        SPACE_RESTRICTED + 1,
        (contested & !occupied).count_ones() as i32,
    );
    let count = |kind| pos.pieces_of_kind(kind).count() as i32;
    let pieces = count(PieceKind::Knight)
        + count(PieceKind::Bishop)
        + 2 * (count(PieceKind::Rook) + count(PieceKind::Queen));
    if pieces > 12 {
        let held = (maps.attacked[c] | pos.colour(color).0) & !maps.attacked[them];
        sink.add(color, SPACE_CENTRE, (held & BIG_CENTRE).count_ones() as i32);
    }
}
// ANCHOR_END: space

// ANCHOR: queen_relative_pin
/// M15: `color`'s queens that an enemy rook or bishop would attack if one piece between them
/// moved (Ethereal's `QueenRelativePin`; CPW "Pin"). Not a pin in the rules' sense: the piece in
/// between may move, but then the queen hangs to a lesser piece, so it is in effect tied down.
fn queen_relative_pin<S: Sink>(pos: &Position, color: Color, sink: &mut S) {
    let occupied = pos.occupied();
    let rooks = pos.pieces(color.flip(), PieceKind::Rook).0;
    let bishops = pos.pieces(color.flip(), PieceKind::Bishop).0;
    for square in pos.pieces(color, PieceKind::Queen) {
        let straight = attacks::rook_attacks(square, occupied).0;
        let diagonal = attacks::bishop_attacks(square, occupied).0;
        // Take away the first piece on each line and look again: what appears is behind it.
        let behind_straight = attacks::rook_attacks(square, Bitboard(occupied.0 & !straight)).0;
        let behind_diagonal = attacks::bishop_attacks(square, Bitboard(occupied.0 & !diagonal)).0;
        let discovered =
            (rooks & !straight & behind_straight) | (bishops & !diagonal & behind_diagonal);
        if discovered != 0 {
            sink.add(color, QUEEN_PINNED, 1);
        }
    }
}
// ANCHOR_END: queen_relative_pin

// ANCHOR: king_shelter_terms
/// The terms of each king's pawns: chapter 18's shield and storm and M15's shelter and storm by
/// file. They depend on the pawns and the two kings' squares alone, and a king moves in few of
/// the moves searched, so the search keeps them in the pawn table's entry
/// ([`PawnEntry::shelter_for`]) and counts them again only when a king has moved (Ethereal keeps
/// a pawn-and-king table for the same reason).
fn king_shelter_terms<S: Sink>(kings: [Square; 2], pawns: [u64; 2], sink: &mut S) {
    for color in Color::BOTH {
        shield_and_storm(color, kings[color.index()], pawns, sink);
        shelter_and_storm_by_file(color, kings[color.index()], pawns, sink);
    }
}
// ANCHOR_END: king_shelter_terms

// ANCHOR: closedness
/// How closed the pawns make the position, 0 (open) to 8 (closed), as Ethereal measures it:
/// the pawns on the board, three times the pawns blocked head to head, less four times the
/// files with no pawn at all, divided by 3 and clamped. Knights, which jump, gain in closed
/// positions; rooks, which need open files, lose: M15 weights each by this measure.
fn closedness(pawns: [u64; 2]) -> usize {
    let all = pawns[0] | pawns[1];
    let rams = pawns[0] & Bitboard(pawns[1]).forward(Color::Black).0;
    let open_files = (0..8).filter(|&file| all & file_mask(file) == 0).count() as i32;
    let raw = all.count_ones() as i32 + 3 * rams.count_ones() as i32 - 4 * open_files;
    (raw / 3).clamp(0, 8) as usize
}
// ANCHOR_END: closedness
// ANCHOR_END: piece_terms

// ANCHOR: safe_check_units
/// The attack units of the safe checks against the king on `king` (M6). A square from which a
/// piece could give check next move is a safe check for a piece of that kind if one reaches it
/// now (`reach`, by kind) and it is `safe`: empty or the defender's, and attacked by none of the
/// defender's pieces, pawns or king. Each kind with at least one safe check adds its
/// `check_units`, once however many such squares it has: a check the defender cannot simply
/// take is what turns pressure on the king's zone into mate or material, and a second square
/// for the same piece threatens little more than the first (Stockfish's king danger before
/// NNUE counts them the same way; Ethereal's counts every square; CPW "King Safety").
fn safe_check_units(
    danger: &KingDanger,
    king: Square,
    occupied: u64,
    safe: u64,
    reach: &[u64; 6],
) -> i32 {
    let squares = safe_checks(king, occupied, safe, reach);
    PieceKind::ALL
        .into_iter()
        .filter(|kind| squares[kind.index()] != 0)
        .map(|kind| danger.check_units[kind.index()])
        .sum()
}

/// The safe checking squares against the king on `king`, by the kind of piece that reaches
/// each (see [`safe_check_units`]).
fn safe_checks(king: Square, occupied: u64, safe: u64, reach: &[u64; 6]) -> [u64; 6] {
    let diagonal = attacks::bishop_attacks(king, Bitboard(occupied)).0;
    let straight = attacks::rook_attacks(king, Bitboard(occupied)).0;
    let mut squares = [0u64; 6];
    for (kind, from) in [
        (PieceKind::Knight, attacks::knight_attacks(king).0),
        (PieceKind::Bishop, diagonal),
        (PieceKind::Rook, straight),
        (PieceKind::Queen, diagonal | straight),
    ] {
        squares[kind.index()] = from & reach[kind.index()] & safe;
    }
    squares
}
// ANCHOR_END: safe_check_units

// ANCHOR: king_safety_inputs
/// What one side's pieces muster against the enemy king, as M13's king safety counts it.
#[derive(Clone, Copy, Debug, Default)]
struct KingAttack {
    /// Pieces of each kind that reach the king's zone (its square and the squares around it).
    attackers: [i32; 6],
    /// Zone squares they reach, summed over the pieces of each kind.
    zone_hits: [i32; 6],
    /// Zone squares the attacker reaches and the defender guards with no pawn, knight, bishop
    /// or rook: at best the king or the queen holds them, and neither can hold them for long.
    weak: u64,
    /// Squares from which each kind can give a check the defender cannot simply take.
    safe_checks: [u64; 6],
    has_queen: bool,
}

/// The inputs of M13's king safety, counted for `color`, the attacking side. Only an attack of
/// two pieces or more, or one with the attacker's queen still on the board, is counted at all
/// (a lone minor piece near a king is no attack).
fn king_safety_inputs<S: Sink>(color: Color, attack: &KingAttack, sink: &mut S) {
    let kinds = [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ];
    for (n, kind) in kinds.into_iter().enumerate() {
        let k = kind.index();
        sink.add(color, KS_ATTACKERS + n, attack.attackers[k]);
        sink.add(color, KS_ZONE_HITS + n, attack.zone_hits[k]);
        let checks = attack.safe_checks[k].count_ones() as i32;
        sink.add(color, KS_SAFE_CHECKS + n, checks);
    }
    sink.add(color, KS_WEAK, attack.weak.count_ones() as i32);
    sink.add(color, KS_NO_QUEEN, i32::from(!attack.has_queen));
    sink.add(color, KS_BASE, 1);
}
// ANCHOR_END: king_safety_inputs

// ANCHOR: shield_and_storm
/// The pawns in front of `color`'s king on its file and the two beside it (the b- to g-file
/// centred, so a king in the corner still looks at three files): its own nearest pawn one
/// rank ahead, two ranks ahead or missing (shield), and the nearest enemy pawn one to four
/// ranks ahead (storm: it is coming to open a file).
fn shield_and_storm<S: Sink>(color: Color, king: Square, pawns: [u64; 2], sink: &mut S) {
    let (c, them) = (color.index(), color.flip().index());
    let centre = king.file().clamp(1, 6) as usize;
    let ahead = ranks_ahead(c, king.rank() as usize);
    let king_rank = king.rank() as i32;
    let nearest = |set: u64| -> Option<i32> {
        if set == 0 {
            return None;
        }
        let square = match color {
            Color::White => set.trailing_zeros(),
            Color::Black => 63 - set.leading_zeros(),
        };
        Some((square as i32 / 8 - king_rank).abs())
    };
    for file in centre - 1..=centre + 1 {
        let mask = file_mask(file) & ahead;
        match nearest(pawns[c] & mask) {
            Some(1) => sink.add(color, SHIELD, 1),
            Some(2) => sink.add(color, SHIELD + 1, 1),
            _ => sink.add(color, SHIELD + 2, 1),
        }
        if let Some(d @ 1..=4) = nearest(pawns[them] & mask) {
            sink.add(color, STORM + d as usize - 1, 1);
        }
    }
}
// ANCHOR_END: shield_and_storm

// ANCHOR: passed_path
/// What a passed pawn's future depends on beyond the pawns: whether its way to the eighth rank
/// is free of pieces, whether a piece stands right in front of it, and how far each king is
/// from the square in front of it (counted more the further the pawn has come: rank factor 0
/// up to its third rank, then 1, 2, 3, 4).
fn passed_pawn_path<S: Sink>(
    color: Color,
    passed: u64,
    occupied: u64,
    kings: [Square; 2],
    enemy_attacks: u64,
    sink: &mut S,
) {
    let c = color.index();
    for square in Bitboard(passed) {
        let rank = relative_rank(color, square);
        let path = SPANS.front[c][square.index()];
        let stop = Bitboard::from_square(square).forward(color);
        if path & occupied == 0 {
            sink.add(color, PASSED_FREE + rank, 1);
        } else if stop.0 & occupied != 0 {
            sink.add(color, PASSED_BLOCKED + rank, 1);
        }
        // M14: its next step is to an empty square the enemy does not attack.
        if stop.0 & (occupied | enemy_attacks) == 0 && stop.any() {
            sink.add(color, PASSED_SAFE_PUSH + rank, 1);
        }
        let factor = rank.saturating_sub(2) as i32;
        if let (Some(stop), true) = (stop.first(), factor > 0) {
            sink.add(color, PASSED_KING_OWN, distance(kings[c], stop) * factor);
            let enemy = distance(kings[color.flip().index()], stop);
            sink.add(color, PASSED_KING_ENEMY, enemy * factor);
        }
        // M15: the same distances with a weight of their own for every rank (Ethereal's
        // `PassedFriendlyDistance` and `PassedEnemyDistance`), in place of one slope.
        if let Some(stop) = stop.first() {
            sink.add(color, PASSED_OWN_DISTANCE + rank, distance(kings[c], stop));
            let enemy = distance(kings[color.flip().index()], stop);
            sink.add(color, PASSED_ENEMY_DISTANCE + rank, enemy);
        }
    }
}
// ANCHOR_END: passed_path

// ---------------------------------------------------------------------------------------------
// Phase and scale

/// The game phase as chapter 6 counts it: knight and bishop 1, rook 2, queen 4, at most 24.
pub fn phase(pos: &Position) -> i32 {
    let count = |kind| pos.pieces_of_kind(kind).count() as i32;
    let phase = count(PieceKind::Knight)
        + count(PieceKind::Bishop)
        + 2 * count(PieceKind::Rook)
        + 4 * count(PieceKind::Queen);
    phase.min(MAX_PHASE)
}

/// The scale that means "as evaluated".
pub const NORMAL_SCALE: i32 = 64;

// ANCHOR: scale
/// How much of the evaluation to keep, out of [`NORMAL_SCALE`], when `strong` is the side the
/// evaluation favours (CPW "Draw Evaluation"; Stockfish's and Ethereal's scale factors). Not
/// linear, and not in the weight table: it multiplies the whole blended score.
///
/// - No pawns and at most a minor piece (KNK, KBK, and KN or KB against pawns): it cannot
///   mate, so 0. Two knights and nothing else against a bare king (KNNK): 0 too.
/// - No pawns and at most a minor piece more than the other side, counting minors 3, rooks 5
///   and queens 9 (KRKB, KRKN, KRBKR): 16, such endings are mostly drawn. A queen against a
///   rook (9 against 5) is a win and keeps its score.
/// - Opposite-coloured bishops and nothing else but pawns: 32, since neither bishop can
///   contest the squares the other controls, a pawn or two up is often not enough.
pub fn scale(pos: &Position, strong: Color) -> i32 {
    let weak = strong.flip();
    let minors =
        |c| pos.pieces(c, PieceKind::Knight).count() + pos.pieces(c, PieceKind::Bishop).count();
    let value = |c| {
        3 * minors(c) as i32
            + 5 * pos.pieces(c, PieceKind::Rook).count() as i32
            + 9 * pos.pieces(c, PieceKind::Queen).count() as i32
    };
    let (strong_value, weak_value) = (value(strong), value(weak));
    if pos.pieces(strong, PieceKind::Pawn).is_empty() {
        if strong_value <= 3 {
            return 0;
        }
        let only_knights = pos.pieces(strong, PieceKind::Knight).count() == 2 && strong_value == 6;
        let weak_bare = pos.colour(weak).count() == 1;
        if only_knights && weak_bare {
            return 0;
        }
        if strong_value - weak_value <= 3 {
            return 16;
        }
    }
    let bishops = pos.pieces_of_kind(PieceKind::Bishop);
    let others = pos.pieces_of_kind(PieceKind::Knight)
        | pos.pieces_of_kind(PieceKind::Rook)
        | pos.pieces_of_kind(PieceKind::Queen);
    const DARK: u64 = 0xAA55_AA55_AA55_AA55;
    if others.is_empty()
        && pos.pieces(strong, PieceKind::Bishop).count() == 1
        && pos.pieces(weak, PieceKind::Bishop).count() == 1
        && (bishops.0 & DARK).count_ones() == 1
    {
        return 32;
    }
    NORMAL_SCALE
}
// ANCHOR_END: scale

// ANCHOR: finish
/// The blended score of `white` (White's view) at `phase`, scaled for the side it favours
/// (`scales[0]` if White, `scales[1]` if Black), for the side to move. Truncating divisions
/// keep `finish(−x) = −finish(x)` for the mirrored position.
pub(crate) fn finish(white: Tapered, phase: i32, scales: [i32; 2], side_to_move: Color) -> i32 {
    let blended = white.blend(phase);
    let scale = if blended >= 0 { scales[0] } else { scales[1] };
    let scaled = blended * scale / NORMAL_SCALE;
    match side_to_move {
        Color::White => scaled,
        Color::Black => -scaled,
    }
}
// ANCHOR_END: finish

// ANCHOR: complexity
/// M20's inputs to the position's complexity, counted once for the board (under White; the
/// term has no side): the pawns and passed pawns of both sides, whether pawns stand on both
/// wings, whether nothing but kings and pawns is left, and how far the kings stand apart by
/// file less by rank (a king beside its opponent can go round it; one in front of it
/// cannot). Their weighted sum says how likely the endgame value is to turn into a result
/// ([`with_complexity`]). The inputs are Stockfish's "initiative" (Stockfish 9, 2018) and
/// Ethereal's "complexity", and chess's old rules of thumb: the more pawns, the more winning
/// chances; pawns on one wing only are hard to win with.
fn complexity_terms<S: Sink>(pos: &Position, passed: u64, sink: &mut S) {
    const QUEEN_SIDE: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let pawns = pos.pieces_of_kind(PieceKind::Pawn);
    let kings = pos.pieces_of_kind(PieceKind::King);
    let pieces = pos.occupied().0 & !pawns.0 & !kings.0;
    let both_wings = pawns.0 & QUEEN_SIDE != 0 && pawns.0 & !QUEEN_SIDE != 0;
    let [white_king, black_king] = king_squares(pos);
    let files_apart = (i32::from(white_king.file()) - i32::from(black_king.file())).abs();
    let ranks_apart = (i32::from(white_king.rank()) - i32::from(black_king.rank())).abs();
    let white = Color::White;
    sink.add(white, COMPLEXITY_PAWNS, pawns.count() as i32);
    sink.add(white, COMPLEXITY_PASSED, passed.count_ones() as i32);
    sink.add(white, COMPLEXITY_FLANKS, i32::from(both_wings));
    sink.add(white, COMPLEXITY_PAWNS_ONLY, i32::from(pieces == 0));
    sink.add(white, COMPLEXITY_OUTFLANKING, files_apart - ranks_apart);
    sink.add(white, COMPLEXITY_BASE, 1);
}

/// `white` with its endgame value moved by `complexity` away from zero (positive: more
/// decisive) or towards it (negative), but never past it: a complexity cannot turn a better
/// endgame into a worse one, only say how much of the advantage is likely to count. The
/// middlegame value is left as it is. This is Ethereal's form of the term (its `evaluate.c`,
/// Andrew Grant), the endgame half of Stockfish 9's `initiative`.
pub fn with_complexity(white: Tapered, complexity: i32) -> Tapered {
    let eg = white.eg;
    s(white.mg, eg + eg.signum() * complexity.max(-eg.abs()))
}
// ANCHOR_END: complexity

fn scales(pos: &Position) -> [i32; 2] {
    [scale(pos, Color::White), scale(pos, Color::Black)]
}

// ---------------------------------------------------------------------------------------------
// The pawn table

/// One entry: the pawns it was computed for (both colours, compared in full, so a hit is
/// never another pawn structure's), their score (White's minus Black's), passed pawns and
/// closedness, and the shelter terms of the kings last seen behind them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PawnEntry {
    pawns: [u64; 2],
    /// The weights the score was computed with.
    set: WeightSet,
    score: Tapered,
    passed: u64,
    /// [`closedness`] of these pawns, 0 to 8.
    closed: u8,
    /// The squares of the kings `shelter` was computed for, White's and Black's; `[0, 0]` (both
    /// kings on a1, which no position has) until it is computed.
    shelter_kings: [u8; 2],
    /// [`king_shelter_terms`] for those kings, White's minus Black's.
    shelter: Tapered,
}

impl PawnEntry {
    // ANCHOR: shelter_for
    /// The shelter terms of the kings on `kings` behind these pawns: the stored ones if the
    /// kings stand where they stood when they were counted, else counted again and stored.
    fn shelter_for(&mut self, kings: [Square; 2]) -> Tapered {
        let squares = kings.map(|king| king.index() as u8);
        if self.shelter_kings != squares {
            let mut scorer = Scorer::new(self.set.weights());
            king_shelter_terms(kings, self.pawns, &mut scorer);
            self.shelter = scorer.score[0] - scorer.score[1];
            self.shelter_kings = squares;
        }
        self.shelter
    }
    // ANCHOR_END: shelter_for
}

// ANCHOR: pawn_table
/// The pawn-structure terms of recently seen pawn structures (CPW "Pawn Hash Table"). The
/// pawns move in few of the moves searched, so most lookups find the structure already
/// scored; one table per search thread, so no locking. An all-zero entry is the entry of
/// "no pawns at all", which is correct as it stands, so an empty table needs no flags.
#[derive(Clone, Default)]
pub struct PawnTable {
    /// Allocated at the first lookup: an engine playing with chapter 6's evaluation never
    /// pays for it.
    entries: Vec<PawnEntry>,
    probes: u64,
    hits: u64,
}

impl PawnTable {
    /// Entries: 2^14 of 48 bytes, three quarters of a megabyte per thread.
    pub const ENTRIES: usize = 1 << 14;

    /// An empty table (nothing allocated yet).
    pub fn new() -> PawnTable {
        PawnTable::default()
    }

    /// Forgets every entry and the counters.
    pub fn clear(&mut self) {
        *self = PawnTable::default();
    }

    /// Lookups made and lookups that found their structure.
    pub fn counters(&self) -> (u64, u64) {
        (self.probes, self.hits)
    }

    /// The entry of these pawns, computed and stored on a miss, its shelter terms those of the
    /// kings on `kings`.
    #[inline]
    fn probe(&mut self, pawns: [u64; 2], kings: [Square; 2], set: WeightSet) -> PawnEntry {
        if self.entries.is_empty() {
            self.entries = vec![PawnEntry::default(); PawnTable::ENTRIES];
        }
        let mixed = pawns[0].wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ pawns[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let index = (mixed >> (64 - 14)) as usize;
        self.probes += 1;
        let entry = &mut self.entries[index];
        if entry.pawns == pawns && entry.set == set {
            self.hits += 1;
        } else {
            *entry = compute_pawn_entry(pawns, set);
        }
        entry.shelter_for(kings);
        *entry
    }
}
// ANCHOR_END: pawn_table

impl fmt::Debug for PawnTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PawnTable")
            .field("entries", &self.entries.len())
            .field("probes", &self.probes)
            .field("hits", &self.hits)
            .finish()
    }
}

fn compute_pawn_entry(pawns: [u64; 2], set: WeightSet) -> PawnEntry {
    let mut scorer = Scorer::new(set.weights());
    let passed = pawn_terms(pawns, &mut scorer);
    PawnEntry {
        pawns,
        set,
        score: scorer.white_minus_black(),
        passed,
        closed: closedness(pawns) as u8,
        ..PawnEntry::default()
    }
}

fn king_squares(pos: &Position) -> [Square; 2] {
    [pos.king_square(Color::White), pos.king_square(Color::Black)]
}

fn pawn_sets(pos: &Position) -> [u64; 2] {
    [
        pos.pieces(Color::White, PieceKind::Pawn).0,
        pos.pieces(Color::Black, PieceKind::Pawn).0,
    ]
}

// ---------------------------------------------------------------------------------------------
// The evaluation

// ANCHOR: evaluate
/// Evaluation II of `pos` in centipawns for the side to move: material and tables from the
/// position's running sum, pawn structure and the kings' shelter from `pawns`, the rest
/// computed here, all with the weights of `set` and the king danger `danger` ([`KING_DANGER`],
/// or M6's [`KING_DANGER_CHECKS`]).
pub fn evaluate(pos: &Position, pawns: &mut PawnTable, set: WeightSet, danger: &KingDanger) -> i32 {
    let entry = pawns.probe(pawn_sets(pos), king_squares(pos), set);
    let mut scorer = Scorer::new(set.weights());
    let danger = piece_terms(
        pos,
        entry.passed,
        entry.closed as usize,
        danger,
        &mut scorer,
    );
    complexity_terms(pos, entry.passed, &mut scorer);
    let white = pos.psq(set).tapered()
        + entry.score
        + entry.shelter
        + scorer.white_minus_black()
        + (danger[0] - danger[1]);
    finish(
        scorer.complicated(white),
        phase(pos),
        scales(pos),
        pos.side_to_move(),
    )
}
// ANCHOR_END: evaluate

/// The same evaluation computed from scratch with other weights: no running sum, no pawn
/// table. With [`WEIGHTS`] it equals [`evaluate`] (a property test checks it).
pub fn evaluate_with(pos: &Position, weights: &EvalWeights, danger: &KingDanger) -> i32 {
    let mut scorer = Scorer::new(weights);
    material_and_tables(pos, &mut scorer);
    let pawns = pawn_sets(pos);
    let passed = pawn_terms(pawns, &mut scorer);
    king_shelter_terms(king_squares(pos), pawns, &mut scorer);
    let king = piece_terms(pos, passed, closedness(pawns), danger, &mut scorer);
    complexity_terms(pos, passed, &mut scorer);
    let white = scorer.white_minus_black() + (king[0] - king[1]);
    finish(
        scorer.complicated(white),
        phase(pos),
        scales(pos),
        pos.side_to_move(),
    )
}

// ANCHOR: features
/// What a tuner needs of a position: for every weight, how many times it counts for White and
/// for Black, and the parts that are not linear in the weights, as constants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// `counts[i] = [white, black]`: weight `i`'s count for each colour.
    pub counts: Vec<[i32; 2]>,
    /// The king danger of each side (non-linear, from [`KING_DANGER`]).
    pub king_danger: [Tapered; 2],
    /// The game phase, 0 (endgame) to [`MAX_PHASE`].
    pub phase: i32,
    /// The scale if the evaluation favours White, and if it favours Black ([`scale`]).
    pub scales: [i32; 2],
    pub side_to_move: Color,
}

/// Records the counts.
struct Counter(Vec<[i32; 2]>);

impl Sink for Counter {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        self.0[index][color.index()] += count;
    }
}

/// The feature vector of `pos`, with chapter 18's king danger.
pub fn features(pos: &Position) -> Features {
    features_with(pos, &KING_DANGER)
}

/// The feature vector of `pos`, its constant king danger computed with `danger`.
pub fn features_with(pos: &Position, danger: &KingDanger) -> Features {
    let mut counter = Counter(vec![[0; 2]; NUM_WEIGHTS]);
    material_and_tables(pos, &mut counter);
    let pawns = pawn_sets(pos);
    let passed = pawn_terms(pawns, &mut counter);
    king_shelter_terms(king_squares(pos), pawns, &mut counter);
    let king_danger = piece_terms(pos, passed, closedness(pawns), danger, &mut counter);
    complexity_terms(pos, passed, &mut counter);
    Features {
        counts: counter.0,
        king_danger,
        phase: phase(pos),
        scales: scales(pos),
        side_to_move: pos.side_to_move(),
    }
}

impl Features {
    /// The unblended score, White's view: `Σ weight × (white − black)` plus the king danger.
    /// Its derivative by weight `i` is `counts[i][0] − counts[i][1]` (times the blend's
    /// `phase / 24` for `mg`, `(24 − phase) / 24` for `eg`, and the scale).
    ///
    /// M13's king safety inputs (from `KING_SAFETY` on) are not linear: each side's sum goes
    /// through [`king_safety_penalty`] ([`Features::king_safety`]). Nor is M20's complexity
    /// (from `COMPLEXITY` on), applied last ([`with_complexity`]).
    pub fn white(&self, weights: &EvalWeights) -> Tapered {
        with_complexity(
            self.white_before_complexity(weights),
            self.complexity(weights),
        )
    }

    /// [`Features::white`] before M20's complexity.
    pub fn white_before_complexity(&self, weights: &EvalWeights) -> Tapered {
        let linear = self.counts[..KING_SAFETY]
            .iter()
            .zip(&weights.pairs)
            .fold(Tapered::default(), |sum, (&[w, b], &pair)| {
                sum + pair * (w - b)
            });
        let [white_attack, black_attack] = self.king_safety(weights).map(king_safety_penalty);
        linear + (self.king_danger[0] - self.king_danger[1]) + white_attack - black_attack
    }

    /// The summed inputs of White's attack on Black's king and of Black's on White's (M13).
    pub fn king_safety(&self, weights: &EvalWeights) -> [Tapered; 2] {
        let mut sums = [Tapered::default(); 2];
        for (&[w, b], &pair) in self.counts[KING_SAFETY..COMPLEXITY]
            .iter()
            .zip(&weights.pairs[KING_SAFETY..COMPLEXITY])
        {
            sums[0] += pair * w;
            sums[1] += pair * b;
        }
        sums
    }

    /// The position's complexity with `weights` (M20): its inputs, counted once for the
    /// board, times their endgame weights.
    pub fn complexity(&self, weights: &EvalWeights) -> i32 {
        self.counts[COMPLEXITY..]
            .iter()
            .zip(&weights.pairs[COMPLEXITY..])
            .map(|(&[count, _], pair)| pair.eg * count)
            .sum()
    }

    /// The evaluation these features give with `weights`, for the side to move: equal to
    /// [`evaluate_with`] for the position they came from.
    pub fn evaluate(&self, weights: &EvalWeights) -> i32 {
        finish(
            self.white(weights),
            self.phase,
            self.scales,
            self.side_to_move,
        )
    }
}
// ANCHOR_END: features

// ---------------------------------------------------------------------------------------------
// The trace

/// Evaluation II term by term, for the console's `eval` (switch `eval2` on) and the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Per term of [`TERMS`], White's and Black's unblended value.
    pub terms: Vec<[Tapered; 2]>,
    /// The non-linear king danger per side.
    pub king_danger: [Tapered; 2],
    /// What M20's complexity adds to the total, White's view (non-linear; zero with weights
    /// that give it none).
    pub complexity: Tapered,
    pub phase: i32,
    /// The scale applied, out of [`NORMAL_SCALE`].
    pub scale: i32,
    /// The total before scaling and after, White's view.
    pub unscaled: i32,
    pub total: i32,
}

/// The trace of `pos` with the weights of `set` and chapter 18's king danger.
pub fn trace(pos: &Position, set: WeightSet) -> Trace {
    trace_with(pos, set, &KING_DANGER)
}

/// The trace of `pos` with the weights of `set` and the king danger `danger`.
pub fn trace_with(pos: &Position, set: WeightSet, danger: &KingDanger) -> Trace {
    let weights = set.weights();
    let features = features_with(pos, danger);
    let mut terms = vec![[Tapered::default(); 2]; TERMS.len()];
    for (i, &[white, black]) in features.counts.iter().enumerate() {
        let t = term_of(i);
        terms[t][0] += weights.pairs[i] * white;
        terms[t][1] += weights.pairs[i] * black;
    }
    let white = features.white(weights);
    let complexity = white - features.white_before_complexity(weights);
    // M13's king safety shows as king danger: what each side's king pays for the attack on it.
    let [white_attack, black_attack] = features.king_safety(weights).map(king_safety_penalty);
    let king_danger = [
        features.king_danger[0] - black_attack,
        features.king_danger[1] - white_attack,
    ];
    let unscaled = white.blend(features.phase);
    let scale = if unscaled >= 0 {
        features.scales[0]
    } else {
        features.scales[1]
    };
    Trace {
        terms,
        king_danger,
        complexity,
        phase: features.phase,
        scale,
        unscaled,
        total: unscaled * scale / NORMAL_SCALE,
    }
}

impl Trace {
    /// Each row's name, White's and Black's pair, and its blended difference (White's view).
    pub fn rows(&self) -> Vec<(&'static str, [Tapered; 2], i32)> {
        // M13's king safety inputs are not scores: they show in the king danger row.
        let mut rows: Vec<_> = TERMS
            .iter()
            .zip(&self.terms)
            .filter(|(term, _)| term.start < KING_SAFETY)
            .map(|(term, &[w, b])| (term.name, [w, b], (w - b).blend(self.phase)))
            .collect();
        let [w, b] = self.king_danger;
        rows.push(("king danger (*)", [w, b], (w - b).blend(self.phase)));
        if self.complexity != Tapered::default() {
            let row = [self.complexity, Tapered::default()];
            rows.push(("complexity (*)", row, self.complexity.blend(self.phase)));
        }
        rows
    }
}

impl fmt::Display for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<23} {:>11} {:>11} {:>6}",
            "term", "white mg eg", "black mg eg", "total"
        )?;
        for (name, [w, b], total) in self.rows() {
            writeln!(
                f,
                "{name:<23} {:>5} {:>5} {:>5} {:>5} {total:>6}",
                w.mg, w.eg, b.mg, b.eg
            )?;
        }
        writeln!(
            f,
            "phase {} of {MAX_PHASE}; blended {}; scale {} of {NORMAL_SCALE} (*)",
            self.phase, self.unscaled, self.scale
        )?;
        writeln!(f, "(*) not linear: not in the weight table")?;
        write!(f, "total (White's view) {}", self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("a valid FEN")
    }

    #[test]
    fn the_terms_cover_the_table_once_in_order() {
        let mut next = 0;
        for t in TERMS {
            assert_eq!(t.start, next, "{}", t.name);
            next += t.len;
        }
        assert_eq!(next, NUM_WEIGHTS);
        assert_eq!(term_of(PSQT + 100), 1);
        assert_eq!(TERMS[term_of(TEMPO)].name, "tempo");
        assert_eq!(term_of(COMPLEXITY_BASE), TERMS.len() - 1);
    }

    #[test]
    fn complexity_moves_the_endgame_value_but_never_past_zero() {
        let white_better = s(40, 100);
        assert_eq!(with_complexity(white_better, 0), white_better);
        assert_eq!(with_complexity(white_better, 30), s(40, 130));
        assert_eq!(with_complexity(white_better, -30), s(40, 70));
        assert_eq!(with_complexity(white_better, -500), s(40, 0));
        // For Black's advantage the same complexity moves the value the other way.
        assert_eq!(with_complexity(s(-40, -100), 30), s(-40, -130));
        assert_eq!(with_complexity(s(-40, -100), -500), s(-40, 0));
        // A level endgame stays level, whatever the complexity.
        assert_eq!(with_complexity(s(25, 0), 80), s(25, 0));
    }

    #[test]
    fn complexity_inputs_are_counted_once_for_the_board() {
        // Pawns on both wings, one passed (a5), knights on the board, kings a file apart and
        // four ranks apart.
        let p = pos("8/5pk1/8/P7/8/5K2/5PN1/6n1 w - - 0 1");
        let mut counter = Counter(vec![[0; 2]; NUM_WEIGHTS]);
        let a5 = Square::from_file_rank(0, 4);
        complexity_terms(&p, 1 << a5.index(), &mut counter);
        let counts: Vec<[i32; 2]> = counter.0[COMPLEXITY..].to_vec();
        assert_eq!(
            counts,
            vec![[3, 0], [1, 0], [1, 0], [0, 0], [1 - 4, 0], [1, 0]],
            "pawns, passed, both wings, pawns only, outflanking, base"
        );
        // Kings and pawns alone, on the queen's side only; kings side by side.
        let p = pos("8/8/8/1p6/1P6/8/1k1K4/8 w - - 0 1");
        let mut counter = Counter(vec![[0; 2]; NUM_WEIGHTS]);
        complexity_terms(&p, 0, &mut counter);
        let counts: Vec<i32> = counter.0[COMPLEXITY..].iter().map(|c| c[0]).collect();
        assert_eq!(counts, vec![2, 0, 0, 1, 2, 1]);
    }

    #[test]
    fn packed_pairs_add_both_halves() {
        for (a, b) in [(5, -7), (-300, 200), (0, -1), (-1, 0), (1025, 936)] {
            let p = Packed::new(a, b);
            assert_eq!((p.mg(), p.eg()), (a, b));
            let q = p + Packed::new(-40, 90) - Packed::new(3, 3);
            assert_eq!((q.mg(), q.eg()), (a - 43, b + 87));
        }
    }

    #[test]
    fn the_running_sum_starts_right() {
        let start = Position::startpos();
        for set in WeightSet::ALL {
            assert_eq!(start.psq(set), Packed::ZERO);
            let p = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
            assert_eq!(p.psq(set), p.psq_from_scratch(set));
            assert!(p.psq(set).mg() > 1000);
        }
    }

    #[test]
    fn pawn_terms_recognise_the_classic_shapes() {
        // White: a2 and a3 doubled and isolated (a3 passed), c4 and d4 side by side. Black:
        // d5 defended by e6, e6 backward (no pawn beside it can come to defend it, and d4
        // guards e5), h7 passed and isolated.
        let p = pos("4k3/7p/4p3/3p4/2PP4/P7/P7/4K3 w - - 0 1");
        let mut counter = Counter(vec![[0; 2]; NUM_WEIGHTS]);
        let passed = pawn_terms(pawn_sets(&p), &mut counter);
        let c = &counter.0;
        assert_eq!(c[DOUBLED], [1, 0]);
        assert_eq!(c[ISOLATED], [2, 1]);
        assert_eq!(c[CONNECTED + 3], [2, 1], "c4, d4; d5");
        assert_eq!(c[PASSED_RANK + 2], [1, 0], "a3");
        assert_eq!(c[PASSED_RANK + 1], [0, 1], "h7, on Black's second rank");
        assert_eq!(passed.count_ones(), 2);
        assert_eq!(c[BACKWARD], [0, 1], "e6");
    }

    #[test]
    fn known_draws_score_zero() {
        for fen in [
            "8/8/4k3/8/8/3KN3/8/8 w - - 0 1",
            "8/8/4k3/8/8/3KB3/8/8 b - - 0 1",
            "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1",
            "8/8/4kn2/8/8/3K4/8/8 w - - 0 1",
            "8/8/4kn2/8/8/3K4/8/8 b - - 0 1",
        ] {
            let p = pos(fen);
            for set in WeightSet::ALL {
                assert_eq!(
                    evaluate(&p, &mut PawnTable::new(), set, &KING_DANGER),
                    0,
                    "{fen}"
                );
            }
        }
        // Without pawns, a rook against a minor is scaled down; a queen against a rook is not.
        let rook_bishop = pos("8/8/4kb2/8/8/3K3R/8/8 w - - 0 1");
        assert_eq!(scale(&rook_bishop, Color::White), 16);
        let queen_rook = pos("8/8/4kr2/8/8/3K4/8/Q7 w - - 0 1");
        assert_eq!(scale(&queen_rook, Color::White), NORMAL_SCALE);
        let bishops = pos("8/5k2/4b1p1/8/8/3KB1P1/6P1/8 w - - 0 1");
        assert_eq!(scale(&bishops, Color::White), 32);
    }

    #[test]
    fn the_table_evaluation_equals_the_one_from_scratch() {
        let mut table = PawnTable::new();
        for fen in [
            crate::position::STARTPOS_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let p = pos(fen);
            for set in WeightSet::ALL {
                let scratch = evaluate_with(&p, set.weights(), &KING_DANGER);
                assert_eq!(
                    evaluate(&p, &mut table, set, &KING_DANGER),
                    scratch,
                    "{fen} miss"
                );
                assert_eq!(
                    evaluate(&p, &mut table, set, &KING_DANGER),
                    scratch,
                    "{fen} hit"
                );
                let from_features = features(&p).evaluate(set.weights());
                assert_eq!(from_features, scratch, "{fen} features");
                // M13's king safety: its inputs summed apart and squared, the same three ways.
                let learnt = &KING_SAFETY_LEARNT;
                let scratch = evaluate_with(&p, set.weights(), learnt);
                assert_eq!(evaluate(&p, &mut table, set, learnt), scratch, "{fen} M13");
                let from_features = features_with(&p, learnt).evaluate(set.weights());
                assert_eq!(from_features, scratch, "{fen} M13 features");
            }
        }
        // A structure scored with one weight set is not a hit for another: three positions,
        // every set, three lookups each (the king danger is not the pawns'): a miss, two hits.
        let lookups = 3 * WeightSet::ALL.len() as u64;
        assert_eq!(table.counters(), (3 * lookups, 2 * lookups));
    }

    /// Black's king danger in `fen` with chapter 18's king danger and with M6's.
    fn black_danger(fen: &str) -> [i32; 2] {
        let pos = Position::from_fen(fen).unwrap();
        [&KING_DANGER, &KING_DANGER_CHECKS]
            .map(|danger| -trace_with(&pos, WeightSet::Tuned, danger).king_danger[1].mg)
    }

    #[test]
    fn a_safe_check_adds_to_the_danger_and_a_covered_one_does_not() {
        // White's queen on d5 (on f7 through the diagonal) and knight on h5 (on g7) are two
        // attackers of the king's zone; Qd8+ is a check nothing of Black's can answer by taking.
        let [zone_only, with_checks] = black_danger("6k1/5ppp/8/3Q3N/8/8/8/6K1 w - - 0 1");
        assert!(zone_only > 0, "two attackers make danger: {zone_only}");
        assert!(with_checks > zone_only, "{with_checks} <= {zone_only}");
        // A knight on c6 covers d8, and every other check takes a pawn the king defends (or,
        // for the knight, lands on f6, which the g7 pawn guards): none is safe.
        let covered = black_danger("6k1/5ppp/2n5/3Q3N/8/8/8/6K1 w - - 0 1");
        assert_eq!(
            covered[0], covered[1],
            "a covered check counted: {covered:?}"
        );
    }

    #[test]
    fn trace_rows_add_up_to_the_total() {
        let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        let t = trace(&p, WeightSet::Tuned);
        let sum = t
            .rows()
            .iter()
            .fold(Tapered::default(), |sum, (_, [w, b], _)| sum + *w - *b);
        assert_eq!(sum.blend(t.phase), t.unscaled);
        let rounded: i32 = t.rows().iter().map(|row| row.2).sum();
        assert!((rounded - t.unscaled).abs() <= t.rows().len() as i32);
        assert_eq!(
            t.total,
            evaluate(&p, &mut PawnTable::new(), WeightSet::Tuned, &KING_DANGER)
        );
        let text = t.to_string();
        assert!(text.ends_with(&format!("total (White's view) {}", t.total)));
        assert!(text.contains("passed: free path") && text.contains("king danger"));
    }
}
