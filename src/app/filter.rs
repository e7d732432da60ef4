//! The `/` filter: fuzzy by default, `~regex`, and `!` in front of either
//! for the inverse (rows that do not match).

use nucleo_matcher::pattern::{Atom, AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use regex::Regex;

#[derive(Debug, Clone)]
enum Form {
    /// nucleo's pattern, and for each of its atoms the case and
    /// normalization flags it matches with (see [`greedy_flags`]).
    Fuzzy(Pattern, Vec<(bool, bool)>),
    Regex(Regex),
}

/// The `ignore_case` and `normalize` a nucleo atom matches with. They are
/// private to the atom, but its `score` sets them on the matcher first
/// (as its documentation says), so one call on an empty haystack reads
/// them out.
fn greedy_flags(atom: &Atom) -> (bool, bool) {
    let mut matcher = Matcher::new(Config::DEFAULT);
    let _ = atom.score(Utf32Str::Ascii(b""), &mut matcher);
    (matcher.config.ignore_case, matcher.config.normalize)
}

/// Whether `haystack` matches every atom of `pattern`: what
/// `Pattern::score(..).is_some()` says, without the score. A fuzzy atom is
/// matched greedily (O(n)): a match exists exactly when the optimal one
/// does, and the optimal scoring was two thirds of a keystroke's time on a
/// 100k-event timeline. Other atoms (substring, prefix, negated …) score as
/// nucleo does.
fn matches_all(
    pattern: &Pattern,
    flags: &[(bool, bool)],
    haystack: Utf32Str<'_>,
    matcher: &mut Matcher,
) -> bool {
    pattern
        .atoms
        .iter()
        .zip(flags)
        .all(|(atom, &(ignore_case, normalize))| {
            if atom.kind == AtomKind::Fuzzy && !atom.negative {
                matcher.config.ignore_case = ignore_case;
                matcher.config.normalize = normalize;
                matcher
                    .fuzzy_match_greedy(haystack, atom.needle_text())
                    .is_some()
            } else {
                atom.score(haystack, matcher).is_some()
            }
        })
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
            let pattern = Pattern::parse(rest, CaseMatching::Smart, Normalization::Smart);
            let flags = pattern.atoms.iter().map(greedy_flags).collect();
            Form::Fuzzy(pattern, flags)
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
            Form::Fuzzy(pattern, flags) => matches_all(
                pattern,
                flags,
                Utf32Str::new(haystack, &mut scratch.buf),
                &mut scratch.matcher,
            ),
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

    proptest::proptest! {
        /// The greedy yes/no says what nucleo's optimal score says, over
        /// cased, spaced, punctuated and non-ASCII text and nucleo's own
        /// atom syntax (`'`, `^`, `$`, `!`).
        #[test]
        fn the_greedy_answer_is_the_scored_one(
            needle in "[aAbBsS '^!$ä_-]{1,6}",
            haystack in "[aAbBsSrR äÄ_:-]{0,40}",
        ) {
            if let Some(filter) = Filter::parse(&needle).expect("fuzzy parses") {
                let Form::Fuzzy(pattern, _) = &filter.form else {
                    panic!("a fuzzy filter");
                };
                let mut scratch = Scratch::default();
                let mut buf = Vec::new();
                let scored = pattern
                    .score(Utf32Str::new(&haystack, &mut buf), &mut scratch.matcher)
                    .is_some();
                let inverse = filter.inverse;
                proptest::prop_assert_eq!(filter.matches(&haystack, &mut scratch), scored != inverse);
            }
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
