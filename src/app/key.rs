//! A key press as the model sees it: no terminal crate involved.
//!
//! Written the way the config file writes keys (`[ctrl+][alt+]KEY`, see
//! `config::keys`): a shifted letter is its upper-case character.

use std::fmt;

/// The key itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    /// A printable character (space included).
    Char(char),
    Enter,
    Esc,
    Tab,
    BackTab,
    Backspace,
    Delete,
    Insert,
    Home,
    End,
    PageUp,
    PageDown,
    Up,
    Down,
    Left,
    Right,
    /// F1..F12.
    F(u8),
}

/// A key with its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    /// Which key.
    pub code: Code,
    /// Control held.
    pub ctrl: bool,
    /// Alt held.
    pub alt: bool,
}

impl Key {
    /// A key without modifiers.
    pub const fn plain(code: Code) -> Self {
        Key {
            code,
            ctrl: false,
            alt: false,
        }
    }

    /// A character key without modifiers.
    pub const fn char(c: char) -> Self {
        Key::plain(Code::Char(c))
    }

    /// A character key with control.
    pub const fn ctrl(c: char) -> Self {
        Key {
            code: Code::Char(c),
            ctrl: true,
            alt: false,
        }
    }

    /// Parse a key normalised by `config::keys::normalise` (`ctrl+q`, `G`, `pagedown`).
    pub fn parse(text: &str) -> Option<Key> {
        let parts: Vec<&str> = if text == "+" {
            vec!["+"]
        } else {
            text.split('+').collect()
        };
        let (base, modifiers) = parts.split_last()?;
        let mut key = Key::plain(parse_code(base)?);
        for modifier in modifiers {
            match *modifier {
                "ctrl" => key.ctrl = true,
                "alt" => key.alt = true,
                "shift" => key.code = shifted(key.code),
                _ => return None,
            }
        }
        Some(key)
    }
}

fn shifted(code: Code) -> Code {
    match code {
        Code::Char(c) => Code::Char(c.to_ascii_uppercase()),
        Code::Tab => Code::BackTab,
        other => other,
    }
}

fn parse_code(base: &str) -> Option<Code> {
    let mut chars = base.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return Some(Code::Char(c));
    }
    let code = match base {
        "enter" => Code::Enter,
        "esc" => Code::Esc,
        "tab" => Code::Tab,
        "backtab" => Code::BackTab,
        "backspace" => Code::Backspace,
        "delete" => Code::Delete,
        "insert" => Code::Insert,
        "home" => Code::Home,
        "end" => Code::End,
        "pageup" => Code::PageUp,
        "pagedown" => Code::PageDown,
        "up" => Code::Up,
        "down" => Code::Down,
        "left" => Code::Left,
        "right" => Code::Right,
        "space" => Code::Char(' '),
        other => Code::F(other.strip_prefix('f')?.parse().ok()?),
    };
    Some(code)
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("ctrl+")?;
        }
        if self.alt {
            f.write_str("alt+")?;
        }
        match self.code {
            Code::Char(' ') => f.write_str("space"),
            Code::Char(c) => write!(f, "{c}"),
            Code::F(n) => write!(f, "f{n}"),
            Code::Enter => f.write_str("enter"),
            Code::Esc => f.write_str("esc"),
            Code::Tab => f.write_str("tab"),
            Code::BackTab => f.write_str("shift+tab"),
            Code::Backspace => f.write_str("backspace"),
            Code::Delete => f.write_str("delete"),
            Code::Insert => f.write_str("insert"),
            Code::Home => f.write_str("home"),
            Code::End => f.write_str("end"),
            Code::PageUp => f.write_str("pgup"),
            Code::PageDown => f.write_str("pgdn"),
            Code::Up => f.write_str("↑"),
            Code::Down => f.write_str("↓"),
            Code::Left => f.write_str("←"),
            Code::Right => f.write_str("→"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_the_config_layer_normalises() {
        let cases = [
            ("q", Some(Key::char('q'))),
            ("G", Some(Key::char('G'))),
            ("ctrl+q", Some(Key::ctrl('q'))),
            ("shift+g", Some(Key::char('G'))),
            ("pagedown", Some(Key::plain(Code::PageDown))),
            ("space", Some(Key::char(' '))),
            ("f5", Some(Key::plain(Code::F(5)))),
            ("+", Some(Key::char('+'))),
            ("hyper+q", None),
            ("nonsense", None),
        ];
        for (text, want) in cases {
            assert_eq!(Key::parse(text), want, "{text}");
        }
    }

    #[test]
    fn displays_for_help() {
        assert_eq!(Key::ctrl('c').to_string(), "ctrl+c");
        assert_eq!(Key::plain(Code::PageUp).to_string(), "pgup");
    }
}
