//! Text laid out in tokens (`browse::format`: a record's detail, a
//! schema's text) styled with the theme, token by token.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::browse::format::Tok;

use super::theme::Theme;

fn style(tok: Tok, theme: &Theme) -> Style {
    match tok {
        Tok::Plain => Style::new(),
        Tok::Label => theme.header,
        Tok::Dim | Tok::Punct => theme.dim,
        Tok::Key => theme.title,
        Tok::Str => theme.prompt,
        Tok::Num => theme.warning,
        Tok::Lit => theme.moved,
    }
}

/// One line of highlighted text (a record's detail, a schema's text), each
/// token in its theme style.
pub fn highlighted<'a>(line: &'a [(Tok, String)], theme: &Theme) -> Line<'a> {
    Line::from(
        line.iter()
            .map(|(tok, text)| Span::styled(text.as_str(), style(*tok, theme)))
            .collect::<Vec<_>>(),
    )
}
