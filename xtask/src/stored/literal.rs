//! Figures as pages write them (`4,865,609`, `−12`, `41.30`) against figures as stored
//! (`4865609`, `-12`, `41.3`): [`same_value`] is how verify compares them, [`restyle`] how
//! `cargo xtask figures --rewrite` writes a stored value in a page's style.

/// What may separate thousands in a page: a comma, a thin, narrow no-break or no-break space.
pub const SEPARATORS: [char; 4] = [',', '\u{2009}', '\u{202F}', '\u{00A0}'];

/// True when the `literal` a page quotes is the `stored` value: numbers compare as exact
/// decimals after dropping thousands separators (`,`, thin and no-break spaces), a leading `+`
/// and trailing zeros of a fraction, with `−` read as `-`; anything else compares as text.
pub fn same_value(literal: &str, stored: &str) -> bool {
    match (exact_decimal(literal), exact_decimal(stored)) {
        (Some(a), Some(b)) => a == b,
        _ => literal.trim() == stored.trim(),
    }
}

/// A number in canonical form (`-41.3` for `−41.30`), or `None` if `text` is not a number.
pub fn exact_decimal(text: &str) -> Option<String> {
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|c| !SEPARATORS.contains(c))
        .map(|c| if c == '−' { '-' } else { c })
        .collect();
    let (negative, digits) = match cleaned.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, cleaned.strip_prefix('+').unwrap_or(&cleaned)),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    let whole = whole.trim_start_matches('0');
    let fraction = fraction.trim_end_matches('0');
    let magnitude = match (whole.is_empty(), fraction.is_empty()) {
        (true, true) => return Some("0".to_string()),
        (_, true) => whole.to_string(),
        (true, false) => format!("0.{fraction}"),
        (false, false) => format!("{whole}.{fraction}"),
    };
    Some(if negative {
        format!("-{magnitude}")
    } else {
        magnitude
    })
}

/// A literal whose digit groups are not groups of three (`48,65,609`), if it is one.
pub fn misgrouped(literal: &str) -> bool {
    let whole = literal.split('.').next().unwrap_or(literal);
    let groups: Vec<&str> = whole.split(SEPARATORS).collect();
    // A comma in words ("king safety: attackers, rooks", a figure's name) groups no digits.
    let digits = |group: &&str| !group.is_empty() && group.chars().all(|c| c.is_ascii_digit());
    groups.len() > 1
        && groups[1..].iter().all(digits)
        && groups[1..].iter().any(|group| group.len() != 3)
}

/// How a page wrote a number: its thousands separator and its signs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Style {
    /// The separator between groups of three digits, or `None` for none.
    separator: Option<char>,
    /// The minus sign: `−` (the book's) unless the page used `-`.
    minus: char,
    /// Whether a positive number carries `+` (a signed difference: `+6.9`).
    plus: bool,
}

impl Style {
    /// The style of `literal`. A literal too short to show a separator gets the book's: `,`
    /// (a literal of four digits or more without one keeps having none).
    fn of(literal: &str) -> Style {
        let literal = literal.trim();
        let unsigned = literal.trim_start_matches(['+', '-', '−']);
        let whole = unsigned.split('.').next().unwrap_or(unsigned);
        let separator = match whole.chars().find(|c| SEPARATORS.contains(c)) {
            Some(found) => Some(found),
            None if whole.chars().filter(char::is_ascii_digit).count() >= 4 => None,
            None => Some(','),
        };
        Style {
            separator,
            minus: if literal.starts_with('-') { '-' } else { '−' },
            plus: literal.starts_with('+'),
        }
    }
}

/// The `stored` value written in the style of `old`, the literal a page had for it: thousands
/// separated as `old` separated them (`,`, thin or no-break space; `,` when `old` is too short
/// to tell), a negative number with `old`'s minus sign (`−` unless `old` used `-`), a positive one
/// with `+` if `old` had one, and the digits and decimal places of `stored`. A stored value that
/// is not a number is returned as it is.
pub fn restyle(old: &str, stored: &str) -> String {
    let stored = stored.trim();
    let Some(canonical) = exact_decimal(stored) else {
        return stored.to_string();
    };
    let style = Style::of(old);
    let unsigned = stored.trim_start_matches(['+', '-', '−']);
    let (whole, fraction) = match unsigned.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (unsigned, None),
    };
    let digits: String = whole.chars().filter(char::is_ascii_digit).collect();
    let mut written = String::new();
    if canonical.starts_with('-') {
        written.push(style.minus);
    } else if style.plus && canonical != "0" {
        written.push('+');
    }
    written.push_str(&grouped(&digits, style.separator));
    if let Some(fraction) = fraction {
        written.push('.');
        written.push_str(fraction);
    }
    written
}

/// `digits` in groups of three from the right, joined by `separator` (none: as they are).
fn grouped(digits: &str, separator: Option<char>) -> String {
    let Some(separator) = separator else {
        return digits.to_string();
    };
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(separator);
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_compare_as_exact_numbers() {
        assert!(same_value("4,865,609", "4865609"));
        assert!(same_value("4\u{2009}865\u{2009}609", "4865609"));
        assert!(same_value("41.30", "41.3"));
        assert!(same_value("−12", "-12"));
        assert!(same_value("+35", "35"));
        assert!(!same_value("4,865,610", "4865609"));
        assert!(!same_value("41", "41.3"));
        assert!(same_value("e4", "e4"));
        assert!(!same_value("e5", "e4"));
        assert!(misgrouped("48,65,609"));
        assert!(!misgrouped("4,865,609.25"));
        assert!(!misgrouped("king safety: attackers, rooks"));
        assert!(misgrouped("1,23"));
    }

    #[test]
    fn a_stored_value_is_written_in_the_old_literals_style() {
        // separators: kept, the book's `,` when the old literal was too short, none when it had none
        assert_eq!(restyle("4,865,609", "4865610"), "4,865,610");
        assert_eq!(
            restyle("4\u{2009}865\u{2009}609", "12345678"),
            "12\u{2009}345\u{2009}678"
        );
        assert_eq!(restyle("980", "1020"), "1,020");
        assert_eq!(restyle("12345", "1234567"), "1234567");
        assert_eq!(restyle("1,234", "999"), "999");
        // signs: the old minus kept, `+` kept on a positive difference
        assert_eq!(restyle("−101", "-1102"), "−1,102");
        assert_eq!(restyle("-5", "-7"), "-7");
        assert_eq!(restyle("12", "-3.5"), "−3.5");
        assert_eq!(restyle("+6.9", "10.4"), "+10.4");
        assert_eq!(restyle("+6.9", "-0.4"), "−0.4");
        assert_eq!(restyle("+6.9", "0"), "0");
        // decimal places: the stored value's
        assert_eq!(restyle("41.30", "41.2"), "41.2");
        assert_eq!(restyle("41", "41.25"), "41.25");
        assert_eq!(restyle("1,041.3", "2041.30"), "2,041.30");
        // text: as stored
        assert_eq!(restyle("e2 e7", "e3 e7"), "e3 e7");
        // and the result always reads back as the stored value
        for (old, stored) in [
            ("−101", "-1102"),
            ("+6.9", "10.4"),
            ("4,865,609", "4865610"),
        ] {
            assert!(same_value(&restyle(old, stored), stored));
        }
    }
}
