//! Headless commands: the library side of `kscope get …` / `kscope describe …`.
//! Each takes a connected cluster, an output format and a writer, so `main`
//! only parses arguments and picks stdout.

pub mod groups;
