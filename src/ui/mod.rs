//! Pure drawing: `view(frame, state, snapshot, theme)`. Reads, never
//! mutates; formats only the visible rows.

mod event_strip;
mod header;
mod help;
mod replay;
mod screens;
mod status;
mod table_title;

pub use status::{ClockFace, clock_face};

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, Wrap};

use crate::app::{AppState, Link, Mode};
use crate::columns;
use crate::meta::MetadataSnapshot;
use crate::paint::grid;
use crate::paint::theme::Theme;
use crate::untrusted::escaped;

/// Draw the whole screen.
pub fn view(frame: &mut Frame, state: &AppState, snap: &MetadataSnapshot, theme: &Theme) {
    let [header, body, status, prompt] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    header::draw_header(frame, header, state, snap, theme);
    match &state.link {
        _ if replay::draw_instead(frame, body, state, theme) => {}
        Link::Connecting {
            attempt,
            error,
            retrying,
        } if !state.has_cluster() => {
            draw_connecting(
                frame,
                body,
                state,
                (*attempt, *retrying),
                error.as_deref(),
                theme,
            );
        }
        _ if state.cluster.strip.height() > 0 => {
            let [table, strip] = Layout::vertical([
                Constraint::Fill(1),
                Constraint::Length(state.cluster.strip.height()),
            ])
            .areas(body);
            draw_body(frame, table, state, theme);
            event_strip::draw(frame, strip, state, theme);
        }
        _ => draw_body(frame, body, state, theme),
    }
    status::draw_status(frame, status, state, snap, theme);
    draw_prompt(frame, prompt, state, theme);
    if state.show_help {
        help::draw_help(frame, body, state, theme);
    }
}

/// The screen on show in `body`: its panel, if it has one, and its table.
fn draw_body(frame: &mut Frame, body: Rect, state: &AppState, theme: &Theme) {
    let screen = &state.view().screen;
    if screen.is_text() {
        let view = (state.view().offset, screen.title());
        state
            .screens
            .draw_text(frame, body, screen, (view.0, &view.1), theme);
    } else {
        let [panel, table] = split(body, screen.panel_rows());
        let look = (state.clock(), theme);
        state.screens.draw_panel(frame, panel, screen, look);
        draw_table(frame, table, state, theme);
    }
}

/// `body` as a panel of `rows` rows over the rest.
fn split(body: Rect, rows: u16) -> [Rect; 2] {
    Layout::vertical([Constraint::Length(rows), Constraint::Fill(1)]).areas(body)
}

fn draw_connecting(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    (attempt, retrying): (u32, bool),
    error: Option<&str>,
    theme: &Theme,
) {
    let mut lines = vec![
        Line::styled(
            escaped(format!("connecting to context '{}'", state.context)),
            theme.title,
        ),
        Line::raw(""),
        Line::raw(escaped(format!(
            "tried: {}",
            state
                .bootstrap
                .iter()
                .map(|address| crate::anonymize::address(address))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    ];
    if let Some(error) = error {
        lines.push(Line::styled(
            escaped(format!("failed (attempt {attempt}): {error}")),
            theme.problem,
        ));
        lines.push(Line::raw(""));
        lines.push(Line::raw(if retrying {
            "retrying in the background; q quits"
        } else {
            "not retrying: this needs a change to the context (credentials, certificates); \
             r tries again, :ctx NAME switches context, q quits"
        }));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border);
    let text = Paragraph::new(lines)
        .block(block)
        .wrap(Wrap { trim: false });
    frame.render_widget(text, area);
}

fn draw_table(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let view = state.view();
    let page = state.page();
    let mut grid = screens::visible(state, theme, page);
    grid.anonymize();
    let sort = view.sort;
    let headers: Vec<String> = grid
        .headers
        .iter()
        .enumerate()
        .map(|(i, name)| {
            if i == sort.column && view.screen.sortable() {
                format!("{name}{}", if sort.descending { "↓" } else { "↑" })
            } else {
                (*name).to_owned()
            }
        })
        .collect();
    let content = columns::fitted_content_widths(
        &grid.widths,
        &headers,
        grid.rows.iter().map(|(cells, _)| cells.as_slice()),
    );
    let header_widths: Vec<usize> = headers.iter().map(|h| crate::untrusted::width(h)).collect();
    let widths = columns::layout(
        &grid.widths,
        &content,
        &header_widths,
        usize::from(area.width),
        1,
    );
    let hidden = columns::hidden(&grid.widths, &content, &widths);
    // Columns without width (dropped for want of room, or a fill column
    // left nothing) are not drawn at all: no spacing either.
    let fitted = |row: &[String]| -> Vec<String> {
        row.iter()
            .zip(&widths)
            .zip(&grid.aligns)
            .filter(|((_, width), _)| **width > 0)
            .map(|((text, &width), &align)| columns::cell(text, width, align))
            .collect()
    };
    let header = Row::new(fitted(&headers)).style(theme.header);
    let selected = view.selected.checked_sub(view.offset);
    let rows = grid.rows.iter().enumerate().map(|(i, (cells, style))| {
        let style = if Some(i) == selected {
            theme.selected
        } else {
            *style
        };
        Row::new(fitted(cells)).style(style)
    });
    let title = table_title::title(state, hidden);
    let block = Block::default()
        .borders(Borders::TOP | Borders::BOTTOM)
        .border_style(theme.border)
        .title(Span::styled(escaped(title), theme.title));
    let constraints = widths
        .iter()
        .filter(|&&w| w > 0)
        .map(|&w| Constraint::Length(u16::try_from(w).unwrap_or(u16::MAX)));
    let table = Table::new(rows, constraints)
        .header(header)
        .block(block)
        .column_spacing(1);
    frame.render_widget(table, area);
    draw_spans(frame, area, &grid, &widths, |i| {
        if Some(i) == selected {
            theme.selected
        } else {
            grid.rows
                .get(i)
                .map_or_else(Style::new, |(_, style)| *style)
        }
    });
}

/// Draw each spanned row's last cell across its columns, from the first
/// one of the span to the right edge, over what the table drew there. The
/// table sits under a top border and its header line, one line a row, its
/// drawn columns (width > 0) one space apart.
fn draw_spans(
    frame: &mut Frame,
    area: Rect,
    grid: &grid::Grid,
    widths: &[usize],
    style: impl Fn(usize) -> Style,
) {
    let body = area.height.saturating_sub(3);
    for &(i, from) in &grid.spans {
        let (Some((cells, _)), Ok(line)) = (grid.rows.get(i), u16::try_from(i)) else {
            continue;
        };
        if line >= body {
            continue;
        }
        let start: usize = widths
            .iter()
            .take(from)
            .filter(|&&w| w > 0)
            .map(|w| w + 1)
            .sum();
        let Ok(start) = u16::try_from(start) else {
            continue;
        };
        let span = area.width.saturating_sub(start);
        if span == 0 {
            continue;
        }
        let text = columns::cell(
            cells.last().map_or("", String::as_str),
            usize::from(span),
            columns::Align::Left,
        );
        let at = Rect::new(area.x + start, area.y + 2 + line, span, 1);
        frame.render_widget(Paragraph::new(Line::styled(text, style(i))), at);
    }
}

fn draw_prompt(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let line = match &state.mode {
        Mode::Filter(text) => Line::styled(escaped(format!("/{text}▏")), theme.prompt),
        Mode::Command(text) => Line::styled(escaped(format!(":{text}▏")), theme.prompt),
        Mode::Normal => Line::styled(
            "<?> help  </> filter  <:> command  <enter> open  <esc> back  <q> quit",
            theme.dim,
        ),
    };
    frame.render_widget(Paragraph::new(line), area);
}
