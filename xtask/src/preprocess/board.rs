//! Board diagrams: a position drawn as inline SVG, from a FEN the engine itself parses.
//!
//! A page writes, on a line of its own,
//!
//! ```text
//! {{#board rnbqkbnr/pppppppp/8/8/4R3/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1 arrows=e4e7,e4a4 highlight=e2,e7 caption="..."}}
//! ```
//!
//! and the figure preprocessor turns it into a `<figure class="board">` holding an `<svg>`: 64
//! squares with white at the bottom, files a-h under the board and ranks 1-8 beside it, each piece
//! a Unicode chess glyph, highlighted squares tinted, arrows from square centre to square centre,
//! the caption under the board. The SVG carries the FEN as its accessible name (`aria-label` and
//! `<title>`), so a screen reader and a person hovering the board both get the position.
//!
//! Why the engine parses the FEN: a diagram shows a position the engine would accept, and a typo
//! in a diagram is caught like a typo in the code. `cargo xtask verify` reports the engine's own
//! [`FenError`] (or a bad arrow or highlight square) at the directive's line.
//!
//! Why glyphs: the book ships no image files and copies no piece set. The filled glyphs ♚♛♜♝♞♟
//! (U+265A-U+265F) are in DejaVu Sans (most Linux systems), Segoe UI Symbol (Windows) and Apple
//! Symbols (macOS); the same glyph filled white with a dark outline is the white piece, so all
//! twelve pieces need only six glyphs. Each glyph is followed by U+FE0E, which asks for the text
//! form where a system would otherwise draw the pawn as an emoji. `cargo xtask browser` checks
//! in Chromium that the six glyphs draw as six different, non-empty shapes.

use cb2026::fen::FenError;
use cb2026::position::{Piece, PieceKind, Position};
use cb2026::square::{Color, Square};
use std::fmt::Write as _;

/// The directive's name: `{{#board ...}}`.
pub const KIND: &str = "board";

/// A board directive, parsed and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The FEN as written (whitespace collapsed).
    pub fen: String,
    /// Every piece of the position with its square, a1 first.
    pub pieces: Vec<(Square, Piece)>,
    /// `arrows=e2e4,g1f3`: from, to.
    pub arrows: Vec<(Square, Square)>,
    /// `highlight=e4,d5`.
    pub highlight: Vec<Square>,
    /// `caption="..."`, shown under the board.
    pub caption: Option<String>,
}

impl Board {
    /// Parses the directive's argument: the FEN's fields, then `name=value` options.
    pub fn parse(argument: &str) -> Result<Board, String> {
        let (fen, options) = split_fen(argument);
        if fen.is_empty() {
            return Err("a board needs a FEN before its options".to_string());
        }
        let position = Position::from_fen(&fen).map_err(|error| fen_message(&fen, &error))?;
        let mut board = Board {
            pieces: pieces_of(&position),
            fen,
            arrows: Vec::new(),
            highlight: Vec::new(),
            caption: None,
        };
        let mut seen = Vec::new();
        for (name, value) in options_of(options)? {
            if seen.contains(&name) {
                return Err(format!("option {name}= is given twice"));
            }
            match name {
                "arrows" => board.arrows = list(value, arrow)?,
                "highlight" => board.highlight = list(value, |s| square(s, "highlight"))?,
                "caption" => board.caption = Some(value.to_string()),
                other => {
                    return Err(format!(
                        "unknown option {other}= (a board knows arrows=, highlight=, caption=)"
                    ));
                }
            }
            seen.push(name);
        }
        Ok(board)
    }
}

/// The FEN (its fields up to the first `name=value`, whitespace collapsed) and the rest.
pub(crate) fn split_fen(argument: &str) -> (String, &str) {
    let mut fields = Vec::new();
    let mut rest = argument.trim_start();
    while let Some(field) = rest.split_whitespace().next() {
        if field.contains('=') {
            break;
        }
        fields.push(field);
        rest = rest[field.len()..].trim_start();
    }
    (fields.join(" "), rest)
}

/// The engine's reason for refusing `fen`, for the page's author.
fn fen_message(fen: &str, error: &FenError) -> String {
    format!("the engine refuses the FEN \"{fen}\": {error}")
}

/// Every piece of `position` with its square, a1, b1, ..., h8.
fn pieces_of(position: &Position) -> Vec<(Square, Piece)> {
    Square::ALL
        .into_iter()
        .filter_map(|square| position.piece_on(square).map(|piece| (square, piece)))
        .collect()
}

/// `name=value` pairs of `text`; a value is either `"quoted"` (no `"` inside) or runs to the
/// next whitespace.
pub(crate) fn options_of(text: &str) -> Result<Vec<(&str, &str)>, String> {
    let mut options = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let Some((name, after)) = rest.split_once('=') else {
            return Err(format!("expected name=value, found {rest:?}"));
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_lowercase()) {
            return Err(format!("expected name=value, found {rest:?}"));
        }
        let (value, remainder) = if let Some(quoted) = after.strip_prefix('"') {
            quoted
                .split_once('"')
                .ok_or_else(|| format!("{name}=\"... has no closing quote"))?
        } else {
            after.split_once(char::is_whitespace).unwrap_or((after, ""))
        };
        options.push((name, value));
        rest = remainder.trim_start();
    }
    Ok(options)
}

/// A comma-separated list, each item read by `item`.
fn list<T>(value: &str, item: impl Fn(&str) -> Result<T, String>) -> Result<Vec<T>, String> {
    value.split(',').map(|s| item(s.trim())).collect()
}

/// A square name, or why `text` is none (`what` says where it was found).
fn square(text: &str, what: &str) -> Result<Square, String> {
    Square::parse(text).ok_or_else(|| format!("{what} {text:?} is not a square (a1 to h8)"))
}

/// An arrow `e2e4`: two square names, different.
fn arrow(text: &str) -> Result<(Square, Square), String> {
    let Some((from, to)) = text.is_char_boundary(2).then(|| text.split_at(2)) else {
        return Err(format!("arrow {text:?} is not two squares like e2e4"));
    };
    let (from, to) = (square(from, "arrow start")?, square(to, "arrow end")?);
    if from == to {
        return Err(format!("arrow {text:?} starts and ends on one square"));
    }
    Ok((from, to))
}

/// Side of a square in the SVG's user units.
const SQUARE: f64 = 40.0;
/// Room left of the board for the rank numbers and under it for the file letters.
const LABEL_ROOM: f64 = 18.0;
/// Room above and right of the board, so the outline is not clipped.
const EDGE: f64 = 2.0;
/// Light and dark squares: the brown pair of wooden boards, readable in every mdBook theme.
const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
/// A highlighted square is tinted with this, at [`HIGHLIGHT_OPACITY`].
const HIGHLIGHT: &str = "#f5e663";
const HIGHLIGHT_OPACITY: f64 = 0.65;
/// Arrows: a translucent green that shows on both square colours and on pieces.
const ARROW: &str = "#1f7a34";
const ARROW_OPACITY: f64 = 0.75;
/// Fonts known to hold the chess glyphs, then the generic family (Chromium falls back to any
/// system font that has them).
pub const PIECE_FONTS: &str = "'DejaVu Sans', 'Noto Sans Symbols 2', 'Segoe UI Symbol', 'Apple Symbols', FreeSerif, sans-serif";

/// The filled chess glyph of a kind; colour comes from the fill.
pub fn glyph(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => '\u{265A}',
        PieceKind::Queen => '\u{265B}',
        PieceKind::Rook => '\u{265C}',
        PieceKind::Bishop => '\u{265D}',
        PieceKind::Knight => '\u{265E}',
        PieceKind::Pawn => '\u{265F}',
    }
}

/// The top-left corner of `square` with white at the bottom.
fn corner(square: Square) -> (f64, f64) {
    let x = LABEL_ROOM + f64::from(square.file()) * SQUARE;
    let y = EDGE + f64::from(7 - square.rank()) * SQUARE;
    (x, y)
}

/// The centre of `square`.
fn centre(square: Square) -> (f64, f64) {
    let (x, y) = corner(square);
    (x + SQUARE / 2.0, y + SQUARE / 2.0)
}

/// The whole figure: `<figure class="board">`, the SVG, the caption. One line per element and no
/// blank line, so that markdown takes it as one HTML block.
pub fn render(board: &Board) -> String {
    let size = LABEL_ROOM + 8.0 * SQUARE + EDGE;
    let label = format!("Chess board, FEN {}", board.fen);
    let mut svg = String::new();
    let _ = writeln!(svg, "<figure class=\"board\">");
    let _ = writeln!(
        svg,
        "<svg class=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {size} {size}\" \
         role=\"img\" aria-label=\"{}\" data-fen=\"{}\">",
        escape(&label),
        escape(&board.fen)
    );
    let _ = writeln!(svg, "<title>{}</title>", escape(&label));
    svg.push_str(&squares(&board.highlight));
    svg.push_str(&labels());
    svg.push_str(&pieces(&board.pieces));
    svg.push_str(&arrows(&board.arrows));
    let _ = writeln!(svg, "</svg>");
    if let Some(caption) = &board.caption {
        let _ = writeln!(svg, "<figcaption>{}</figcaption>", escape(caption));
    }
    svg.push_str("</figure>\n");
    svg
}

/// The 64 squares (`rect.square`), then a tint over each highlighted one.
fn squares(highlight: &[Square]) -> String {
    let mut out = String::from("<g class=\"squares\">");
    for square in Square::ALL {
        let (x, y) = corner(square);
        let light = (square.file() + square.rank()) % 2 == 1;
        let fill = if light { LIGHT } else { DARK };
        let _ = write!(
            out,
            "<rect class=\"square\" x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{fill}\"></rect>"
        );
    }
    for &square in highlight {
        let (x, y) = corner(square);
        let _ = write!(
            out,
            "<rect class=\"highlight\" x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" \
             fill=\"{HIGHLIGHT}\" fill-opacity=\"{HIGHLIGHT_OPACITY}\"></rect>"
        );
    }
    out.push_str("</g>\n");
    out
}

/// File letters under the board, rank numbers left of it, in the text colour of the theme.
fn labels() -> String {
    let mut out = String::from(
        "<g class=\"labels\" fill=\"currentColor\" font-family=\"sans-serif\" font-size=\"11\" \
         text-anchor=\"middle\">",
    );
    let bottom = EDGE + 8.0 * SQUARE;
    for file in 0..8u8 {
        let (x, _) = centre(Square::from_file_rank(file, 0));
        let letter = char::from(b'a' + file);
        let _ = write!(
            out,
            "<text x=\"{x}\" y=\"{}\">{letter}</text>",
            bottom + 13.0
        );
    }
    for rank in 0..8u8 {
        let (_, y) = centre(Square::from_file_rank(0, rank));
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            LABEL_ROOM / 2.0,
            y + 4.0,
            rank + 1
        );
    }
    out.push_str("</g>\n");
    out
}

/// One `text.piece` per piece: the filled glyph, white ones filled white with a dark outline.
fn pieces(pieces: &[(Square, Piece)]) -> String {
    let mut out = format!(
        "<g class=\"pieces\" font-family=\"{PIECE_FONTS}\" font-size=\"{}\" text-anchor=\"middle\">",
        SQUARE * 0.8
    );
    for &(square, piece) in pieces {
        let (x, y) = centre(square);
        let paint = match piece.color {
            Color::White => {
                "fill=\"#ffffff\" stroke=\"#1a1a1a\" stroke-width=\"1.4\" paint-order=\"stroke\""
            }
            Color::Black => "fill=\"#1a1a1a\"",
        };
        let _ = write!(
            out,
            "<text class=\"piece\" data-piece=\"{}\" x=\"{x}\" y=\"{}\" {paint}>{}\u{FE0E}</text>",
            piece.to_char(),
            y + SQUARE * 0.28,
            glyph(piece.kind)
        );
    }
    out.push_str("</g>\n");
    out
}

/// Arrows over the pieces: a shaft from near the centre of one square (leaving the piece that
/// moves visible) and a head ending short of the other's centre, drawn as one polygon each (no `<marker>`, whose id would have to be unique
/// across the boards of a page).
fn arrows(arrows: &[(Square, Square)]) -> String {
    let mut out = format!("<g class=\"arrows\" fill=\"{ARROW}\" fill-opacity=\"{ARROW_OPACITY}\">");
    for &(from, to) in arrows {
        let points: Vec<String> = arrow_outline(centre(from), centre(to))
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = write!(
            out,
            "<polygon class=\"arrow\" data-arrow=\"{from}{to}\" points=\"{}\"></polygon>",
            points.join(" ")
        );
    }
    out.push_str("</g>\n");
    out
}

/// The seven corners of an arrow from `from` to `to`: shaft, then head.
fn arrow_outline(from: (f64, f64), to: (f64, f64)) -> [(f64, f64); 7] {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = dx.hypot(dy);
    let (ux, uy) = (dx / length, dy / length); // along the arrow
    let (nx, ny) = (-uy, ux); // across it
    let shaft = SQUARE * 0.09; // half the shaft's width
    let head = SQUARE * 0.24; // half the head's width
    let tip_back = SQUARE * 0.12; // the tip stops short of the centre
    let head_length = SQUARE * 0.42;
    let tail_gap = SQUARE * 0.3; // the shaft starts off the piece it leaves from
    let from = (from.0 + ux * tail_gap, from.1 + uy * tail_gap);
    let tip = (to.0 - ux * tip_back, to.1 - uy * tip_back);
    let base = (tip.0 - ux * head_length, tip.1 - uy * head_length);
    let at = |p: (f64, f64), w: f64| (p.0 + nx * w, p.1 + ny * w);
    [
        at(from, shaft),
        at(base, shaft),
        at(base, head),
        tip,
        at(base, -head),
        at(base, -shaft),
        at(from, -shaft),
    ]
}

/// Text safe inside an HTML element or a double-quoted attribute.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn a_directive_parses_into_fen_and_options() {
        let board = Board::parse(&format!(
            "{START} arrows=e2e4,g1f3 highlight=e4,d5 caption=\"Two moves, one reply\""
        ))
        .unwrap();
        assert_eq!(board.fen, START);
        assert_eq!(board.pieces.len(), 32);
        let names: Vec<String> = board
            .arrows
            .iter()
            .map(|(a, b)| format!("{a}{b}"))
            .collect();
        assert_eq!(names, ["e2e4", "g1f3"]);
        assert_eq!(board.highlight.len(), 2);
        assert_eq!(board.caption.as_deref(), Some("Two moves, one reply"));
    }

    #[test]
    fn the_engines_fen_error_and_bad_squares_are_reported() {
        let error =
            Board::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1").unwrap_err();
        assert!(error.contains("rank 1 has too few squares"), "{error}");
        assert!(
            Board::parse(&format!("{START} arrows=e2e9"))
                .unwrap_err()
                .contains("arrow end \"e9\" is not a square")
        );
        assert!(
            Board::parse(&format!("{START} highlight=e4,z1"))
                .unwrap_err()
                .contains("highlight \"z1\" is not a square")
        );
        assert!(
            Board::parse(&format!("{START} arrow=e2e4"))
                .unwrap_err()
                .contains("unknown option arrow=")
        );
        assert!(
            Board::parse(&format!("{START} caption=\"open"))
                .unwrap_err()
                .contains("no closing quote")
        );
        assert!(
            Board::parse(&format!("{START} arrows=e2e2"))
                .unwrap_err()
                .contains("one square")
        );
        assert!(
            Board::parse("arrows=e2e4")
                .unwrap_err()
                .contains("needs a FEN")
        );
    }

    #[test]
    fn the_svg_has_64_squares_a_piece_per_piece_and_the_fen_as_its_name() {
        let board = Board::parse(&format!(
            "{START} arrows=e2e4 highlight=e4 caption=\"a < b\""
        ))
        .unwrap();
        let html = render(&board);
        assert_eq!(html.matches("<rect class=\"square\"").count(), 64);
        assert_eq!(html.matches("<text class=\"piece\"").count(), 32);
        assert_eq!(html.matches("<rect class=\"highlight\"").count(), 1);
        assert_eq!(html.matches("<polygon class=\"arrow\"").count(), 1);
        assert!(html.contains(&format!("aria-label=\"Chess board, FEN {START}\"")));
        assert!(html.contains("<figcaption>a &lt; b</figcaption>"));
        assert!(
            !html.contains("\n\n"),
            "a blank line would end the HTML block"
        );
    }

    #[test]
    fn white_is_at_the_bottom() {
        // a1 is the bottom-left square, h8 the top-right one.
        let a1 = corner(Square::parse("a1").unwrap());
        let h8 = corner(Square::parse("h8").unwrap());
        assert!(a1.0 < h8.0 && a1.1 > h8.1);
        assert_eq!(a1, (LABEL_ROOM, EDGE + 7.0 * SQUARE));
    }

    #[test]
    fn an_arrow_ends_short_of_its_target_centre() {
        let outline = arrow_outline((0.0, 0.0), (100.0, 0.0));
        let tip = outline[3];
        assert!((tip.0 - (100.0 - SQUARE * 0.12)).abs() < 1e-9 && tip.1 == 0.0);
    }
}
