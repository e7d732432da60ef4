//! Terminal events to model actions, read on a thread of their own so that
//! nothing ever waits on input (and idle means blocked in `read`).

use ratatui::crossterm::event::{
    self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use tokio::sync::mpsc::Sender;

use crate::app::{Action, Code, Key};

use super::msg::Msg;

/// Read terminal events forever, sending actions; ends when the receiver is gone.
pub fn spawn(tx: Sender<Msg>) {
    std::thread::spawn(move || {
        while let Ok(event) = event::read() {
            if let Some(action) = convert(&event)
                && tx.blocking_send(Msg::Action(action)).is_err()
            {
                break;
            }
        }
    });
}

/// One terminal event as an action, if it means anything.
pub fn convert(event: &Event) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => key_of(key).map(Action::Key),
        Event::Mouse(mouse) => match mouse.kind {
            MouseEventKind::ScrollUp => Some(Action::ScrollUp),
            MouseEventKind::ScrollDown => Some(Action::ScrollDown),
            MouseEventKind::Down(MouseButton::Left) => Some(Action::Click { row: mouse.row }),
            _ => None,
        },
        Event::Resize(width, height) => Some(Action::Resize {
            width: *width,
            height: *height,
        }),
        _ => None,
    }
}

fn key_of(key: &KeyEvent) -> Option<Key> {
    let code = match key.code {
        KeyCode::Char(c) => Code::Char(c),
        KeyCode::Enter => Code::Enter,
        KeyCode::Esc => Code::Esc,
        KeyCode::Tab => Code::Tab,
        KeyCode::BackTab => Code::BackTab,
        KeyCode::Backspace => Code::Backspace,
        KeyCode::Delete => Code::Delete,
        KeyCode::Insert => Code::Insert,
        KeyCode::Home => Code::Home,
        KeyCode::End => Code::End,
        KeyCode::PageUp => Code::PageUp,
        KeyCode::PageDown => Code::PageDown,
        KeyCode::Up => Code::Up,
        KeyCode::Down => Code::Down,
        KeyCode::Left => Code::Left,
        KeyCode::Right => Code::Right,
        KeyCode::F(n) => Code::F(n),
        _ => return None,
    };
    Some(Key {
        code,
        ctrl: key.modifiers.contains(KeyModifiers::CONTROL),
        alt: key.modifiers.contains(KeyModifiers::ALT),
    })
}
