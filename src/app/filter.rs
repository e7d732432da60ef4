//! The `/` filter: fuzzy by default, `~regex`, and `!` in front of either
//! for the inverse (rows that do not match).

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use regex::Regex;

#[derive(Debug, Clone)]
enum Form {
    Fuzzy(Pattern),
    Regex(Regex),
}

/// A parsed filter.
#[derive(Debug, Clone)]
pub struct Filter {
    text: String,
    form: Form,
    inverse: bool,
}

/// Reusable matching scratch space (the fuzzy matcher allocates).
pub struct Scratch {
    matcher: Matcher,
    buf: Vec<char>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            matcher: Matcher::new(Config::DEFAULT),
            buf: Vec::new(),
        }
    }
}

impl Filter {
    /// Parse what the user typed; `Ok(None)` for an empty filter.
    pub fn parse(text: &str) -> Result<Option<Filter>, String> {
        let (inverse, rest) = match text.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let form = if let Some(pattern) = rest.strip_prefix('~') {
            if pattern.is_empty() {
                return Ok(None);
            }
            Form::Regex(Regex::new(pattern).map_err(|e| format!("regex '{pattern}': {e}"))?)
        } else if rest.trim().is_empty() {
            return Ok(None);
        } else {
            Form::Fuzzy(Pattern::parse(
                rest,
                CaseMatching::Smart,
                Normalization::Smart,
            ))
        };
        Ok(Some(Filter {
            text: text.to_owned(),
            form,
            inverse,
        }))
    }

    /// What the user typed.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether `haystack` passes the filter.
    pub fn matches(&self, haystack: &str, scratch: &mut Scratch) -> bool {
        let hit = match &self.form {
            Form::Regex(regex) => regex.is_match(haystack),
            Form::Fuzzy(pattern) => pattern
                .score(
                    Utf32Str::new(haystack, &mut scratch.buf),
                    &mut scratch.matcher,
                )
                .is_some(),
        };
        hit != self.inverse
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keep(filter: &str, names: &[&str]) -> Vec<String> {
        let filter = Filter::parse(filter).expect("parses").expect("not empty");
        let mut scratch = Scratch::default();
        names
            .iter()
            .filter(|n| filter.matches(n, &mut scratch))
            .map(|n| (*n).to_owned())
            .collect()
    }

    #[test]
    fn forms() {
        let names = ["orders", "orders-dlq", "payments", "__consumer_offsets"];
        let table: [(&str, &[&str]); 6] = [
            ("ordr", &["orders", "orders-dlq"]),
            ("pay", &["payments"]),
            ("~^orders$", &["orders"]),
            ("!~^orders", &["payments", "__consumer_offsets"]),
            ("!ord", &["payments", "__consumer_offsets"]),
            ("~dlq|pay", &["orders-dlq", "payments"]),
        ];
        for (filter, want) in table {
            assert_eq!(keep(filter, &names), want, "{filter}");
        }
    }

    #[test]
    fn empty_and_bad() {
        assert!(Filter::parse("").expect("ok").is_none());
        assert!(Filter::parse("!").expect("ok").is_none());
        assert!(Filter::parse("~").expect("ok").is_none());
        let error = Filter::parse("~(").expect_err("bad regex");
        assert!(error.starts_with("regex '('"), "{error}");
    }
}
