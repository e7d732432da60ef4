//! Terminal events to model actions, read on a thread of their own so that
//! nothing ever waits on input.
//!
//! The thread can be paused while a `password_command` has the terminal
//! (`super::login`): a read from a background process group would stop
//! kscope (SIGTTIN), and a key read here would be one the prompt never
//! gets. It therefore waits for input in polls of [`POLL`] and reads only
//! after checking it is not paused; [`Pause::hold`] returns once the thread
//! is parked between polls, so no read is under way when the terminal is
//! lent.

use std::time::Duration;

use ratatui::crossterm::event::{
    self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use tokio::sync::mpsc::Sender;

use crate::app::{Action, Code, Key};

use super::msg::Msg;
use super::pause::Pause;

/// How long one wait for input lasts: the most a pause waits for the
/// thread to park (idle costs four wake-ups a second).
const POLL: Duration = Duration::from_millis(250);

/// Read terminal events until the receiver is gone, sending actions;
/// `pause` stops the reading for a while.
pub fn spawn(tx: Sender<Msg>, pause: Pause) {
    std::thread::spawn(move || {
        read(&tx, &pause);
        pause.gone();
    });
}

fn read(tx: &Sender<Msg>, pause: &Pause) {
    while pause.may_read() {
        match event::poll(POLL) {
            Ok(false) => continue,
            Ok(true) if pause.is_held() => continue,
            Ok(true) => {}
            Err(_) => return,
        }
        let Ok(event) = event::read() else {
            return;
        };
        if let Some(action) = convert(&event)
            && tx.blocking_send(Msg::Action(action)).is_err()
        {
            return;
        }
    }
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    /// A reader stand-in: loops on the gate like `read`, counting reads.
    fn reader(pause: &Pause, reads: &Arc<std::sync::atomic::AtomicUsize>) {
        while pause.may_read() {
            std::thread::sleep(Duration::from_millis(1));
            if pause.is_held() {
                continue;
            }
            reads.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    #[test]
    fn a_hold_returns_with_the_reader_parked_and_no_read_until_released() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let pause = Pause::default();
        let reads = Arc::new(AtomicUsize::new(0));
        let (gate, counted) = (pause.clone(), Arc::clone(&reads));
        std::thread::spawn(move || reader(&gate, &counted));
        for _ in 0..20 {
            let held = pause.hold();
            let before = reads.load(Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(5));
            assert_eq!(reads.load(Ordering::SeqCst), before, "a read while held");
            drop(held);
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let before = reads.load(Ordering::SeqCst);
        while reads.load(Ordering::SeqCst) == before {
            assert!(
                std::time::Instant::now() < deadline,
                "no read after release"
            );
            std::thread::yield_now();
        }
    }

    #[test]
    fn a_hold_without_a_reader_does_not_wait() {
        let pause = Pause::default();
        pause.gone();
        drop(pause.hold());
    }
}
