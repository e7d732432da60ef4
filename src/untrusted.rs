//! Text from the cluster is shown, never obeyed.
//!
//! Group, member, client and host ids, topic names, config values, error
//! messages (and later record keys, values and headers) are chosen by whoever
//! writes to the cluster. Sent to a terminal as they are, an escape sequence
//! in a group id clears the screen of whoever lists groups, a newline breaks a
//! table row in two, a bidi override reorders what follows it. [`escape`]
//! turns every such character into a visible escape (`\x1b`, `\n`,
//! `\u{202e}`); [`fit`] pads or truncates the result by display width, so
//! double-width CJK and emoji keep columns aligned. JSON output is exact and
//! does not come through here.
//!
//! Backslashes are left as they are: a name that literally holds `\n` reads
//! the same as one holding a newline, which is the price of not doubling
//! every backslash in ordinary names.

use std::borrow::Cow;
use std::fmt::Write as _;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Which side of its column a cell sits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Text: padded on the right.
    Left,
    /// Numbers: padded on the left.
    Right,
}

/// Whether `c` must not reach a terminal as it is: C0 and C1 controls (ESC,
/// CSI, newline, tab, DEL…), bidi embeddings, overrides and isolates, line and
/// paragraph separators, zero-width characters and the byte order mark.
pub fn is_hostile(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}'
                | '\u{feff}'
        )
}

/// `text` with every [hostile](is_hostile) character written as a visible
/// escape: `\n`, `\r`, `\t`, `\x1b` for other ASCII controls, `\u{202e}`
/// for the rest. Borrowed when there is nothing to escape (the usual case).
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hostile) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_ascii_control() => {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            c if is_hostile(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// [`escape`] for text already owned (a composed line that holds names or
/// error messages from the cluster): no copy when there is nothing to escape.
pub fn escaped(text: String) -> String {
    match escape(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(shown) => shown,
    }
}

/// How many terminal columns `text` takes once escaped.
pub fn width(text: &str) -> usize {
    escape(text).width()
}

/// `text`, escaped, in exactly `width` terminal columns: padded on the side
/// `align` says, or cut with `…` when longer. A double-width character that
/// would straddle the edge is left out and its place padded.
pub fn fit(text: &str, width: usize, align: Align) -> String {
    let shown = escape(text);
    let have = shown.width();
    if have <= width {
        let pad = " ".repeat(width - have);
        return match align {
            Align::Left => format!("{shown}{pad}"),
            Align::Right => format!("{pad}{shown}"),
        };
    }
    if width == 0 {
        return String::new();
    }
    let mut out = String::with_capacity(width + 4);
    let mut used = 0;
    for c in shown.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > width - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    used += 1;
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(used)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_characters_are_written_as_visible_escapes() {
        let table = [
            ("orders", "orders"),
            ("clear\x1b[2J\x1b[Hgrp", "clear\\x1b[2J\\x1b[Hgrp"),
            ("nl\nline2-grp", "nl\\nline2-grp"),
            ("tab\there\r", "tab\\there\\r"),
            ("nul\0del\x7f", "nul\\x00del\\x7f"),
            ("csi\u{9b}31m", "csi\\u{9b}31m"),
            ("abc\u{202e}fed", "abc\\u{202e}fed"),
            ("iso\u{2066}x\u{2069}", "iso\\u{2066}x\\u{2069}"),
            ("zw\u{200b}sp\u{feff}", "zw\\u{200b}sp\\u{feff}"),
            ("注文-グループ", "注文-グループ"),
            ("back\\slash", "back\\slash"),
        ];
        for (raw, shown) in table {
            assert_eq!(escape(raw), shown, "{raw:?}");
        }
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn nothing_escaped_is_left_for_a_terminal_to_obey() {
        for c in (0..=0x0010_ffff_u32).filter_map(char::from_u32) {
            let text = c.to_string();
            let shown = escape(&text);
            assert!(
                !shown.chars().any(is_hostile),
                "U+{:04X} escaped as {shown:?}",
                u32::from(c)
            );
        }
    }

    #[test]
    fn fit_pads_and_cuts_by_display_width() {
        assert_eq!(fit("ab", 4, Align::Left), "ab  ");
        assert_eq!(fit("42", 4, Align::Right), "  42");
        assert_eq!(fit("abcdef", 4, Align::Left), "abc…");
        assert_eq!(fit("注文", 6, Align::Left), "注文  ");
        assert_eq!(fit("注文注文", 6, Align::Left), "注文… ");
        assert_eq!(fit("a\nb", 4, Align::Left), "a\\nb");
        assert_eq!(fit("x", 0, Align::Left), "");
        for text in ["注文注文", "a\x1b[2Jb", "🦀🦀🦀", "plain text"] {
            for w in 0..12 {
                let out = fit(text, w, Align::Left);
                assert_eq!(out.width(), w, "{text:?} at {w}: {out:?}");
                assert!(!out.chars().any(is_hostile));
            }
        }
        assert_eq!(width("注文"), 4);
        assert_eq!(width("a\x1b"), 5);
    }
}
