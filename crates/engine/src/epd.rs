//! EPD, the Extended Position Description: how test suites, the perft suite and the book's
//! position files write a position and what is known about it.
//!
//! An EPD line (Steven Edwards's format, section 16.2 of the PGN standard) is a FEN's first four
//! fields (board, side to move, castling, en passant) followed by *operations*, each an opcode,
//! its operands and a `;`: `bm Qg6;` (the best move, in SAN), `am Kd1;` (a move to avoid),
//! `id "WAC.001";`, `c0 "a comment";`. A quoted operand may hold spaces.
//!
//! Files in the wild bend the format, and this reader takes what this repository's files do: the
//! two clock fields may follow the four (`data/positions/six.epd`), and the community perft
//! suite (`data/perft-standard.epd`) writes its counts as operations `;D1 20 ;D2 400 ...` after
//! a full FEN. [`perft_suite`] reads that file's counts.
//!
//! Errors carry the line's number, so a broken file says where.

use std::fmt;

/// One position of an EPD file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdLine {
    /// The 1-based line in the file, for messages.
    pub line: usize,
    /// A full FEN: the four fields, then the clocks as given, or `0 1`.
    pub fen: String,
    /// The operations, in the order written.
    pub operations: Vec<Operation>,
}

/// One operation: `bm Qg6 Qh5` is the opcode `bm` with the operands `Qg6` and `Qh5`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub opcode: String,
    /// Words, or the text of a quoted string without its quotes.
    pub operands: Vec<String>,
}

impl EpdLine {
    /// The operands of the first operation with `opcode`; none if the line has no such
    /// operation.
    pub fn operands(&self, opcode: &str) -> &[String] {
        self.operations
            .iter()
            .find(|operation| operation.opcode == opcode)
            .map_or(&[], |operation| &operation.operands)
    }

    /// The `id` operation's name, if the line has one.
    pub fn id(&self) -> Option<&str> {
        self.operands("id").first().map(String::as_str)
    }

    /// The `bm` moves, in SAN as written (see [`crate::san::to_move`]).
    pub fn best_moves(&self) -> &[String] {
        self.operands("bm")
    }

    /// The `am` moves, in SAN as written.
    pub fn avoid_moves(&self) -> &[String] {
        self.operands("am")
    }
}

/// A line that cannot be read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdError {
    /// The 1-based line.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for EpdError {}

/// Reads every position of an EPD file. Blank lines and lines starting with `#` are skipped
/// (they are not EPD, but they let a file explain itself).
pub fn parse(text: &str) -> Result<Vec<EpdLine>, EpdError> {
    text.lines()
        .enumerate()
        .map(|(index, content)| (index + 1, content.trim()))
        .filter(|(_, content)| !content.is_empty() && !content.starts_with('#'))
        .map(|(line, content)| parse_line(line, content))
        .collect()
}

/// Reads one line, numbered `line` for its errors.
pub fn parse_line(line: usize, text: &str) -> Result<EpdLine, EpdError> {
    let error = |message: &str| EpdError {
        line,
        message: message.to_string(),
    };
    let mut rest = text.trim();
    if rest.starts_with(';') {
        return Err(error("no FEN before the first ';'"));
    }
    let mut fields = Vec::with_capacity(6);
    for _ in 0..4 {
        let (field, after) = next_word(rest).ok_or_else(|| error("fewer than four FEN fields"))?;
        fields.push(field);
        rest = after;
    }
    let (clocks, rest) = clocks(rest);
    fields.extend(clocks.unwrap_or(["0", "1"]));
    let operations = split_operations(rest)
        .map_err(error)?
        .into_iter()
        .map(|text| parse_operation(text).map_err(error))
        .collect::<Result<_, _>>()?;
    Ok(EpdLine {
        line,
        fen: fields.join(" "),
        operations,
    })
}

/// The first word of `text` and what follows it; a word ends at white space or a `;`.
fn next_word(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start();
    let end = text
        .find(|c: char| c.is_whitespace() || c == ';')
        .unwrap_or(text.len());
    (end > 0).then(|| (&text[..end], &text[end..]))
}

/// The halfmove clock and fullmove number, when the next two words are numbers (a full FEN
/// written where EPD has only four fields), and what follows them.
fn clocks(text: &str) -> (Option<[&str; 2]>, &str) {
    let number = |word: &str| word.parse::<u32>().is_ok();
    let two = next_word(text).and_then(|(half, after)| {
        let (full, rest) = next_word(after)?;
        (number(half) && number(full)).then_some(([half, full], rest))
    });
    match two {
        Some((clocks, rest)) => (Some(clocks), rest),
        None => (None, text),
    }
}

/// The operations' texts: `text` cut at every `;` outside quotes, each trimmed, empty ones
/// dropped (the perft suite's `;` comes before each operation, EPD's after).
fn split_operations(text: &str) -> Result<Vec<&str>, &'static str> {
    let mut operations = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                operations.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if quoted {
        return Err("a quoted operand is not closed");
    }
    operations.push(&text[start..]);
    Ok(operations
        .into_iter()
        .map(str::trim)
        .filter(|operation| !operation.is_empty())
        .collect())
}

/// `bm Qg6 Qh5` or `c0 "two words"`: the opcode, then words or quoted strings.
fn parse_operation(text: &str) -> Result<Operation, &'static str> {
    let (opcode, mut rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let mut operands = Vec::new();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        let (operand, after) = match rest.strip_prefix('"') {
            Some(inside) => inside
                .split_once('"')
                .ok_or("a quoted operand is not closed")?,
            None => rest.split_once(char::is_whitespace).unwrap_or((rest, "")),
        };
        operands.push(operand.to_string());
        rest = after;
    }
    Ok(Operation {
        opcode: opcode.to_string(),
        operands,
    })
}

// -------------------------------------------------------------------------------------------
// The perft suite

/// One line of the perft suite: a position and its published counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftEntry {
    /// The 1-based line in the suite file, for messages.
    pub line: usize,
    pub fen: String,
    /// `(depth, nodes)`, in the order the line gives them.
    pub counts: Vec<(u32, u64)>,
}

/// Reads the perft suite: `FEN ;D1 20 ;D2 400 ...` per line, each operation a depth and the
/// number of leaves at that depth. A line without counts, or with an operation that is not
/// one, is an error.
pub fn perft_suite(text: &str) -> Result<Vec<PerftEntry>, EpdError> {
    parse(text)?.into_iter().map(perft_entry).collect()
}

/// The counts of one line of the perft suite.
fn perft_entry(epd: EpdLine) -> Result<PerftEntry, EpdError> {
    let error = |message: String| EpdError {
        line: epd.line,
        message,
    };
    let counts = epd
        .operations
        .iter()
        .map(|operation| perft_count(operation).map_err(error))
        .collect::<Result<Vec<_>, _>>()?;
    if counts.is_empty() {
        return Err(error("no counts (expected ';D1 N ...')".to_string()));
    }
    Ok(PerftEntry {
        line: epd.line,
        fen: epd.fen,
        counts,
    })
}

/// `D5 4865609` -> `(5, 4865609)`.
fn perft_count(operation: &Operation) -> Result<(u32, u64), String> {
    let bad = || {
        format!(
            "expected 'D<depth> <nodes>', found {:?}",
            format!("{} {}", operation.opcode, operation.operands.join(" "))
        )
    };
    let depth = operation
        .opcode
        .strip_prefix('D')
        .and_then(|depth| depth.parse().ok())
        .ok_or_else(bad)?;
    match &operation.operands[..] {
        [nodes] => Ok((depth, nodes.parse().map_err(|_| bad())?)),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_operations_are_read() {
        let text = "4k3/8/8/8/8/8/8/R3K3 w Q - bm Ra8+ O-O-O; am Kd1; id \"T.1\";\n";
        let lines = parse(text).expect("valid");
        assert_eq!(lines[0].id(), Some("T.1"));
        assert_eq!(lines[0].fen, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        assert_eq!(lines[0].best_moves(), ["Ra8+", "O-O-O"]);
        assert_eq!(lines[0].avoid_moves(), ["Kd1"]);
        assert!(lines[0].operands("c0").is_empty());
    }

    #[test]
    fn quoted_operands_keep_their_spaces_and_semicolons() {
        let line = parse_line(
            3,
            "8/8/8/8/8/8/8/K1k5 w - - 0 4; id \"a; b\"; c0 \"two words\";",
        )
        .expect("valid");
        assert_eq!(line.fen, "8/8/8/8/8/8/8/K1k5 w - - 0 4", "clocks kept");
        assert_eq!(line.id(), Some("a; b"));
        assert_eq!(line.operands("c0"), ["two words"]);
        assert!(
            parse_line(1, "8/8/8/8/8/8/8/K1k5 w - - c0 \"open;")
                .unwrap_err()
                .message
                .contains("not closed")
        );
    }

    #[test]
    fn a_line_without_four_fields_is_an_error_with_its_number() {
        let error = parse("# a comment\n\n8/8 w -\n").unwrap_err();
        assert_eq!(error.line, 3);
        assert_eq!(error.to_string(), "line 3: fewer than four FEN fields");
        assert!(
            parse("4k3/8/8/8/8/8/8/4K3 w - -\n").is_ok(),
            "no operations"
        );
    }

    const SUITE_TEXT: &str = "\
# two positions
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902

4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66
";

    #[test]
    fn the_perft_suite_format_is_read() {
        let entries = perft_suite(SUITE_TEXT).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].line, 2);
        assert_eq!(
            entries[0].fen,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(entries[0].counts, [(1, 20), (2, 400), (3, 8902)]);
        assert_eq!(entries[1].line, 4);
        assert_eq!(entries[1].counts, [(1, 15), (2, 66)]);
    }

    #[test]
    fn bad_perft_lines_are_reported_with_their_number() {
        let message = |text: &str| perft_suite(text).unwrap_err().to_string();
        assert!(message("8/8 w - - ;D1 x\n").starts_with("line 1:"));
        assert!(message("\n;D1 20\n").starts_with("line 2: no FEN"));
        assert!(message("8/8 w - -\n").contains("no counts"));
        assert!(message("8/8 w - - ;X1 20\n").contains("D<depth>"));
        assert!(message("8/8 w - - ;D1 20 21\n").contains("D<depth>"));
    }

    #[test]
    fn the_repositorys_perft_suite_reads_whole() {
        let entries = perft_suite(include_str!("../../../data/perft-standard.epd"))
            .expect("the suite is valid");
        assert!(entries.len() > 100);
        assert_eq!(entries[0].counts[0], (1, 20));
        assert!(entries.iter().all(|entry| !entry.counts.is_empty()));
    }
}
