//! Colours from a theme file in `assets/` (dark is the default); `NO_COLOR`
//! drops every colour and keeps bold/reverse so problems still stand out.

use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

const DARK: &str = include_str!("../../assets/dark.toml");
const LIGHT: &str = include_str!("../../assets/light.toml");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    header: String,
    title: String,
    border: String,
    selected_bg: String,
    selected_fg: String,
    problem: String,
    warning: String,
    moved: String,
    dim: String,
    prompt: String,
}

/// The styles the view uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    pub header: Style,
    pub title: Style,
    pub border: Style,
    pub selected: Style,
    pub problem: Style,
    pub warning: Style,
    pub moved: Style,
    pub dim: Style,
    pub prompt: Style,
}

impl Theme {
    /// The theme called `name` (`default`/`dark`, `light`), without colour
    /// when `no_color`. An unknown name gives the dark theme and a notice.
    pub fn load(name: &str, no_color: bool) -> (Theme, Option<String>) {
        if no_color {
            return (Theme::mono(), None);
        }
        let (text, notice) = match name {
            "light" => (LIGHT, None),
            "default" | "dark" => (DARK, None),
            other => (DARK, Some(format!("unknown theme '{other}', using dark"))),
        };
        match Theme::parse(text) {
            Ok(theme) => (theme, notice),
            Err(error) => (Theme::mono(), Some(error)),
        }
    }

    /// Parse a theme file.
    pub fn parse(text: &str) -> Result<Theme, String> {
        let file: ThemeFile = toml::from_str(text).map_err(|e| format!("theme: {e}"))?;
        let c = |s: &str| Color::from_str(s).map_err(|_| format!("theme: unknown colour '{s}'"));
        Ok(Theme {
            header: Style::new()
                .fg(c(&file.header)?)
                .add_modifier(Modifier::BOLD),
            title: Style::new()
                .fg(c(&file.title)?)
                .add_modifier(Modifier::BOLD),
            border: Style::new().fg(c(&file.border)?),
            selected: Style::new()
                .bg(c(&file.selected_bg)?)
                .fg(c(&file.selected_fg)?)
                .add_modifier(Modifier::BOLD),
            problem: Style::new()
                .fg(c(&file.problem)?)
                .add_modifier(Modifier::BOLD),
            warning: Style::new().fg(c(&file.warning)?),
            moved: Style::new()
                .fg(c(&file.moved)?)
                .add_modifier(Modifier::BOLD),
            dim: Style::new().fg(c(&file.dim)?),
            prompt: Style::new().fg(c(&file.prompt)?),
        })
    }

    /// No colours at all.
    pub fn mono() -> Theme {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        Theme {
            header: bold,
            title: bold,
            border: Style::new(),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            problem: bold,
            warning: Style::new().add_modifier(Modifier::UNDERLINED),
            moved: bold,
            dim: Style::new(),
            prompt: Style::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_shipped_themes_parse() {
        assert!(Theme::parse(DARK).is_ok());
        assert!(Theme::parse(LIGHT).is_ok());
        assert_eq!(
            Theme::load("nope", false).1.as_deref(),
            Some("unknown theme 'nope', using dark")
        );
        assert_eq!(Theme::load("light", true).0, Theme::mono());
    }
}
