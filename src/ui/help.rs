//! The help popup (`?`): the screen's keys as the keymap binds them (remaps
//! included), then the commands.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::app::AppState;
use crate::untrusted::escaped;

use crate::paint::theme::Theme;

/// Draw the help popup over the top of `area`.
pub(super) fn draw_help(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let screen = &state.view().screen;
    let mut lines: Vec<Line> = super::replay::help(state);
    lines.extend(
        state
            .keymap
            .help(screen)
            .into_iter()
            .map(|(keys, what)| Line::raw(format!("{keys:>18}  {what}"))),
    );
    lines.push(Line::raw(""));
    lines.push(Line::raw(
        "  commands: :topics :partitions TOPIC :groups [TOPIC] :group NAME",
    ));
    lines.push(Line::raw(
        "            :brokers :leaders :cluster :ctx NAME :q",
    ));
    lines.push(Line::raw(
        "            :acls [TOPIC] :users :quotas :schemas",
    ));
    lines.push(Line::raw(
        "            :config topic NAME | broker ID | defaults",
    ));
    lines.push(Line::raw(
        "            :messages TOPIC [PARTITION]  on Messages: :seek FROM",
    ));
    lines.push(Line::raw(
        "            :format auto|text|json|hex|avro|protobuf|jsonschema",
    ));
    lines.push(Line::raw(
        "            on Messages: / text ~re key:… header:N=… !",
    ));
    let height = u16::try_from(lines.len() + 2)
        .unwrap_or(u16::MAX)
        .min(area.height);
    let width = 76.min(area.width);
    let popup = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y,
        width,
        height,
    };
    frame.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(
            escaped(format!(" help: {} ", screen.title())),
            theme.title,
        ));
    frame.render_widget(
        Paragraph::new(lines).block(block).style(Style::new()),
        popup,
    );
}
