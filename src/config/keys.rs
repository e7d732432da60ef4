//! Key remaps from `[keys]`: which actions can be remapped and how a key is written.
//!
//! A key is `[ctrl+][alt+][shift+]KEY` where KEY is one character (`q`, `/`, `G`)
//! or a name (`enter`, `esc`, `tab`, `backtab`, `backspace`, `delete`, `insert`,
//! `home`, `end`, `pageup`, `pagedown`, `up`, `down`, `left`, `right`, `space`,
//! `f1`..`f12`). The config layer checks the spelling and hands the normalised
//! text to the UI, which owns the default bindings.

/// The actions a user may rebind, as written in `[keys]`.
pub const ACTIONS: &[&str] = &[
    "quit",
    "help",
    "command",
    "filter",
    "back",
    "select",
    "up",
    "down",
    "page_up",
    "page_down",
    "top",
    "bottom",
    "refresh",
    "pause",
    "messages",
    "committed_messages",
    "copy",
    "isolation",
    "consumers",
    "members",
    "inactive",
    "configs",
    "acls",
    "topic_lag",
    "producers",
    "clients",
];

const NAMED: &[&str] = &[
    "enter",
    "esc",
    "tab",
    "backtab",
    "backspace",
    "delete",
    "insert",
    "home",
    "end",
    "pageup",
    "pagedown",
    "up",
    "down",
    "left",
    "right",
    "space",
];

const MODIFIERS: &[&str] = &["ctrl", "alt", "shift"];

/// Whether `action` may be rebound.
pub fn is_action(action: &str) -> bool {
    ACTIONS.contains(&action)
}

/// `key` normalised (modifiers lower-case, in the order ctrl, alt, shift), or why not.
pub fn normalise(key: &str) -> Result<String, String> {
    let expected =
        "expected [ctrl+][alt+][shift+]KEY, KEY one character or a name like enter, esc, f5";
    let parts: Vec<&str> = if key == "+" {
        vec!["+"]
    } else {
        key.split('+').collect()
    };
    let Some((base, modifiers)) = parts.split_last() else {
        return Err(expected.to_owned());
    };
    let mut held = Vec::new();
    for modifier in modifiers {
        let lower = modifier.to_ascii_lowercase();
        if !MODIFIERS.contains(&lower.as_str()) || held.contains(&lower) {
            return Err(format!(
                "unknown or repeated modifier '{modifier}' ({expected})"
            ));
        }
        held.push(lower);
    }
    held.sort_by_key(|m| MODIFIERS.iter().position(|known| known == m));
    let base = normalise_base(base).ok_or_else(|| format!("unknown key '{base}' ({expected})"))?;
    held.push(base);
    Ok(held.join("+"))
}

fn normalise_base(base: &str) -> Option<String> {
    if base.chars().count() == 1 {
        return Some(base.to_owned());
    }
    let lower = base.to_ascii_lowercase();
    let function = lower
        .strip_prefix('f')
        .and_then(|n| n.parse::<u8>().ok())
        .is_some_and(|n| (1..=12).contains(&n));
    (NAMED.contains(&lower.as_str()) || function).then_some(lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_normalised() {
        assert_eq!(normalise("q").as_deref(), Ok("q"));
        assert_eq!(normalise("G").as_deref(), Ok("G"));
        assert_eq!(normalise("Shift+Ctrl+Q").as_deref(), Ok("ctrl+shift+Q"));
        assert_eq!(normalise("ESC").as_deref(), Ok("esc"));
        assert_eq!(normalise("f12").as_deref(), Ok("f12"));
        assert_eq!(normalise("+").as_deref(), Ok("+"));
    }

    #[test]
    fn bad_keys_say_what_is_expected() {
        for bad in ["", "ctrl+", "hyper+q", "ctrl+ctrl+q", "f13", "escape"] {
            let error = normalise(bad).expect_err(bad);
            assert!(error.contains("expected"), "{bad}: {error}");
        }
    }

    #[test]
    fn only_known_actions_are_rebindable() {
        assert!(is_action("quit"));
        assert!(!is_action("explode"));
    }
}
