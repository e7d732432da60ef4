//! Logging (filled in below).
