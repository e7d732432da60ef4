//! Masking: values that must never reach a terminal, a clipboard or a file.
//!
//! A [`Masker`] holds rules (`[[contexts.NAME.mask]]` and `--mask`): a topic
//! regex, paths into the record as jq sees it (`.value.card.number`,
//! `.value.items[].iban`, `.key`, `.headers.authorization`) and regexes over
//! text. [`TopicMask::record`] rewrites a record before anything else sees
//! it; what a rule matches becomes [`MARKER`], whose fixed length says
//! nothing of the secret's.
//!
//! What a rule cannot look inside is masked whole, never shown: a path into
//! a key, value or header that is not JSON (plain text, binary, a schema
//! framing that was not decoded: no registry, or it failed), and, for a
//! text regex, a binary value. With a registry, `consume` and the Messages
//! screen's workers decode a framed key or value first and hand its JSON
//! here. A value a rule could read and found nothing in keeps its exact
//! bytes.

use std::sync::Arc;

use bytes::Bytes;
use regex::Regex;
use serde_json::Value;

use super::record::Record;

/// What a masked value becomes: fixed length, so the secret's length stays
/// unknown.
pub const MARKER: &str = "********";

/// One step of a path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// `.name` or `["name"]`: that field of an object.
    Name(String),
    /// `.*`: every field of an object.
    AnyName,
    /// `[]`: every element of an array.
    Each,
    /// `[N]`: element N of an array.
    Index(usize),
}

/// Which part of the record a path starts in.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Key,
    Value,
    /// The header of that name (every one of them, if repeated).
    Header(String),
}

/// A parsed path: the record's part, then steps into its JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Path {
    part: Part,
    steps: Vec<Step>,
}

/// One rule: which topics, which paths, which text.
#[derive(Debug, Clone)]
pub struct MaskRule {
    topic: Option<Regex>,
    paths: Vec<Path>,
    text: Option<Regex>,
}

impl MaskRule {
    /// A rule from its parts, each checked: `topic` and `text` are regexes,
    /// `paths` as in the module doc. The error names what is wrong.
    pub fn new(topic: Option<&str>, paths: &[String], text: Option<&str>) -> Result<Self, String> {
        let topic = topic
            .map(|t| Regex::new(t).map_err(|e| format!("topic regex: {e}")))
            .transpose()?;
        let text = text
            .map(|t| Regex::new(t).map_err(|e| format!("text regex: {e}")))
            .transpose()?;
        let paths = paths
            .iter()
            .map(|p| parse_path(p).map_err(|e| format!("path '{p}': {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        if paths.is_empty() && text.is_none() {
            return Err("a mask rule needs paths or text".to_owned());
        }
        Ok(MaskRule { topic, paths, text })
    }

    /// A rule from the command line's `--mask RULE`, for every topic: a
    /// path (`.value.card`) or a text regex between slashes (`/\d{16}/`).
    pub fn from_arg(rule: &str) -> Result<Self, String> {
        match rule.strip_prefix('/').and_then(|r| r.strip_suffix('/')) {
            Some(text) => MaskRule::new(None, &[], Some(text)),
            None => MaskRule::new(None, &[rule.to_owned()], None),
        }
    }
}

/// Every mask rule of a session. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Masker {
    rules: Arc<Vec<MaskRule>>,
}

impl Masker {
    /// The rules, in order.
    pub fn new(rules: Vec<MaskRule>) -> Self {
        Masker {
            rules: Arc::new(rules),
        }
    }

    /// Whether no rule is set (nothing is ever masked).
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rules that apply to `topic`, or `None` when none does.
    pub fn for_topic(&self, topic: &str) -> Option<TopicMask<'_>> {
        let rules: Vec<&MaskRule> = self
            .rules
            .iter()
            .filter(|r| r.topic.as_ref().is_none_or(|t| t.is_match(topic)))
            .collect();
        (!rules.is_empty()).then_some(TopicMask { rules })
    }
}

/// The rules of one topic.
#[derive(Debug)]
pub struct TopicMask<'a> {
    rules: Vec<&'a MaskRule>,
}

impl TopicMask<'_> {
    /// Mask `record` in place: key, value and header values. `decoded_key`
    /// and `decoded_value` are what a schema made of them, if anything: then
    /// the rules apply to that JSON and the bytes are left to the caller,
    /// which shows the decoded form.
    pub fn record(
        &self,
        record: &mut Record,
        decoded_key: Option<&mut Value>,
        decoded_value: Option<&mut Value>,
    ) {
        match decoded_key {
            Some(json) => {
                self.json(&Part::Key, json);
            }
            None => mask_slot(&mut record.key, |b| self.bytes(&Part::Key, b)),
        }
        match decoded_value {
            Some(json) => {
                self.json(&Part::Value, json);
            }
            None => mask_slot(&mut record.value, |b| self.bytes(&Part::Value, b)),
        }
        for header in &mut record.headers {
            let part = Part::Header(String::from_utf8_lossy(&header.key).into_owned());
            mask_slot(&mut header.value, |b| self.bytes(&part, b));
        }
    }

    /// The steps of every path into `part`.
    fn paths<'p>(&'p self, part: &'p Part) -> impl Iterator<Item = &'p [Step]> + 'p {
        self.rules
            .iter()
            .flat_map(|r| r.paths.iter())
            .filter(move |p| &p.part == part)
            .map(|p| p.steps.as_slice())
    }

    fn texts(&self) -> impl Iterator<Item = &Regex> {
        self.rules.iter().filter_map(|r| r.text.as_ref())
    }

    /// Mask a JSON form of `part`; whether anything changed.
    fn json(&self, part: &Part, json: &mut Value) -> bool {
        let mut changed = false;
        for steps in self.paths(part) {
            changed |= at_path(json, steps);
        }
        for text in self.texts() {
            changed |= in_strings(json, text);
        }
        changed
    }

    /// The masked form of `part`'s bytes, or `None` to keep them as they are.
    fn bytes(&self, part: &Part, bytes: &[u8]) -> Option<Bytes> {
        let into = self.paths(part).count();
        let texts = self.texts().count();
        if into == 0 && texts == 0 {
            return None;
        }
        let marker = || Some(Bytes::from_static(MARKER.as_bytes()));
        if self.paths(part).any(<[Step]>::is_empty) {
            return marker();
        }
        if let Ok(mut json) = serde_json::from_slice::<Value>(bytes) {
            return if self.json(part, &mut json) {
                serde_json::to_vec(&json).ok().map(Bytes::from)
            } else {
                None
            };
        }
        match std::str::from_utf8(bytes) {
            // A path into text that is not JSON cannot be found: all of it.
            Ok(_) if into > 0 => marker(),
            Ok(text) => {
                let mut out = std::borrow::Cow::Borrowed(text);
                for re in self.texts() {
                    if let std::borrow::Cow::Owned(replaced) = re.replace_all(&out, MARKER) {
                        out = std::borrow::Cow::Owned(replaced);
                    }
                }
                match out {
                    std::borrow::Cow::Owned(text) => Some(Bytes::from(text)),
                    std::borrow::Cow::Borrowed(_) => None,
                }
            }
            // Binary: nothing in it can be looked at, so nothing of it shows.
            Err(_) => marker(),
        }
    }
}

fn mask_slot(slot: &mut Option<Bytes>, mask: impl FnOnce(&[u8]) -> Option<Bytes>) {
    if let Some(masked) = slot.as_deref().and_then(mask) {
        *slot = Some(masked);
    }
}

/// Replace what `steps` reach in `json` with the marker.
fn at_path(json: &mut Value, steps: &[Step]) -> bool {
    let Some((step, rest)) = steps.split_first() else {
        *json = Value::String(MARKER.to_owned());
        return true;
    };
    match (step, json) {
        (Step::Name(name), Value::Object(map)) => {
            map.get_mut(name).is_some_and(|v| at_path(v, rest))
        }
        (Step::AnyName, Value::Object(map)) => map
            .values_mut()
            .fold(false, |changed, v| at_path(v, rest) | changed),
        (Step::Each, Value::Array(items)) => items
            .iter_mut()
            .fold(false, |changed, v| at_path(v, rest) | changed),
        (Step::Index(i), Value::Array(items)) => {
            items.get_mut(*i).is_some_and(|v| at_path(v, rest))
        }
        _ => false,
    }
}

/// Replace every match of `text` inside `json`'s strings with the marker.
fn in_strings(json: &mut Value, text: &Regex) -> bool {
    match json {
        Value::String(s) => match text.replace_all(s, MARKER) {
            std::borrow::Cow::Owned(replaced) => {
                *s = replaced;
                true
            }
            std::borrow::Cow::Borrowed(_) => false,
        },
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |changed, v| in_strings(v, text) | changed),
        Value::Object(map) => map
            .values_mut()
            .fold(false, |changed, v| in_strings(v, text) | changed),
        _ => false,
    }
}

/// Parse `.value.a[].b`, `.key`, `.headers.NAME.x`, `.value["odd key"]`.
fn parse_path(path: &str) -> Result<Path, String> {
    let mut steps = steps(path)?.into_iter();
    let part = match steps.next() {
        Some(Step::Name(n)) if n == "value" => Part::Value,
        Some(Step::Name(n)) if n == "key" => Part::Key,
        Some(Step::Name(n)) if n == "headers" => match steps.next() {
            Some(Step::Name(header)) => Part::Header(header),
            _ => return Err("after .headers comes a header's name".to_owned()),
        },
        _ => return Err("starts with .value, .key or .headers.NAME".to_owned()),
    };
    Ok(Path {
        part,
        steps: steps.collect(),
    })
}

fn steps(path: &str) -> Result<Vec<Step>, String> {
    let mut out = Vec::new();
    let mut rest = path.trim();
    if !rest.starts_with('.') {
        return Err("a path starts with '.'".to_owned());
    }
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("[]") {
            out.push(Step::Each);
            rest = after;
        } else if let Some(after) = rest.strip_prefix("[\"") {
            let end = after.find("\"]").ok_or("unclosed [\"")?;
            out.push(Step::Name(after[..end].to_owned()));
            rest = &after[end + 2..];
        } else if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']').ok_or("unclosed [")?;
            let index = after[..end]
                .parse()
                .map_err(|_| format!("'[{}]' is not an index", &after[..end]))?;
            out.push(Step::Index(index));
            rest = &after[end + 1..];
        } else if let Some(after) = rest.strip_prefix(".*") {
            out.push(Step::AnyName);
            rest = after;
        } else if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            if end == 0 {
                // `.[]` / `.["x"]`: the dot only leads into a bracket.
                if after.starts_with('[') {
                    rest = after;
                    continue;
                }
                return Err("an empty name".to_owned());
            }
            out.push(Step::Name(after[..end].to_owned()));
            rest = &after[end..];
        } else {
            return Err(format!("unexpected '{rest}'"));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::browse::{Codec, Header, TimestampType};

    fn record(key: &str, value: &[u8], headers: &[(&str, &str)]) -> Record {
        Record {
            partition: 0,
            offset: 0,
            leader_epoch: 0,
            timestamp: 0,
            timestamp_type: TimestampType::Create,
            key: Some(Bytes::copy_from_slice(key.as_bytes())),
            value: Some(Bytes::copy_from_slice(value)),
            headers: headers
                .iter()
                .map(|(k, v)| Header {
                    key: Bytes::copy_from_slice(k.as_bytes()),
                    value: Some(Bytes::copy_from_slice(v.as_bytes())),
                })
                .collect(),
            codec: Codec::None,
            size: 0,
        }
    }

    fn masker(rules: &[(Option<&str>, &[&str], Option<&str>)]) -> Masker {
        Masker::new(
            rules
                .iter()
                .map(|(t, p, x)| {
                    let paths: Vec<String> = p.iter().map(|s| (*s).to_owned()).collect();
                    MaskRule::new(*t, &paths, *x).unwrap()
                })
                .collect(),
        )
    }

    fn value(r: &Record) -> String {
        String::from_utf8(r.value.as_deref().unwrap().to_vec()).unwrap()
    }

    #[test]
    fn paths_mask_fields_arrays_and_headers_and_keep_the_rest() {
        let m = masker(&[(
            Some("^pay"),
            &[
                ".value.card.number",
                ".value.items[].iban",
                ".headers.auth",
                ".key",
            ],
            None,
        )]);
        let mut r = record(
            "cust-17",
            br#"{"card":{"number":"4111111111111111","exp":"12/29"},"items":[{"iban":"DE44"},{"iban":"FR76","n":1}]}"#,
            &[("auth", "Bearer abc"), ("trace", "t1")],
        );
        m.for_topic("payments").unwrap().record(&mut r, None, None);
        assert_eq!(
            value(&r),
            r#"{"card":{"number":"********","exp":"12/29"},"items":[{"iban":"********"},{"iban":"********","n":1}]}"#
        );
        assert_eq!(r.key.as_deref(), Some(MARKER.as_bytes()));
        assert_eq!(r.headers[0].value.as_deref(), Some(MARKER.as_bytes()));
        assert_eq!(r.headers[1].value.as_deref(), Some(&b"t1"[..]));
        assert!(m.for_topic("orders").is_none(), "the topic regex selects");
    }

    #[test]
    fn text_regexes_reach_inside_json_strings_and_plain_text() {
        let m = masker(&[(None, &[], Some(r"\d{16}"))]);
        let mut r = record("k", br#"{"note":"card 4111111111111111 used"}"#, &[]);
        m.for_topic("t").unwrap().record(&mut r, None, None);
        assert_eq!(value(&r), r#"{"note":"card ******** used"}"#);
        let mut r = record("k", b"plain 4111111111111111 text", &[]);
        m.for_topic("t").unwrap().record(&mut r, None, None);
        assert_eq!(value(&r), "plain ******** text");
    }

    #[test]
    fn what_a_rule_cannot_look_inside_is_masked_whole() {
        let m = masker(&[(None, &[".value.card"], None)]);
        let mut r = record("k", b"card=4111 not json", &[]);
        m.for_topic("t").unwrap().record(&mut r, None, None);
        assert_eq!(value(&r), MARKER);
        let mut r = record("k", &[0, 0, 0, 0, 7, 0xff, 0xfe], &[]);
        m.for_topic("t").unwrap().record(&mut r, None, None);
        assert_eq!(value(&r), MARKER, "schema-framed bytes, not decoded");
    }

    #[test]
    fn a_value_with_nothing_to_mask_keeps_its_exact_bytes() {
        let m = masker(&[(None, &[".value.card"], Some("secret"))]);
        let original = br#"{ "other" : 1.50 }"#;
        let mut r = record("k", original, &[]);
        m.for_topic("t").unwrap().record(&mut r, None, None);
        assert_eq!(r.value.as_deref(), Some(&original[..]));
    }

    #[test]
    fn decoded_json_is_masked_in_place_of_the_bytes() {
        let m = masker(&[(None, &[".value.ssn"], None)]);
        let mut r = record("k", &[0, 0, 0, 0, 1, 2], &[]);
        let mut decoded = serde_json::json!({"ssn": "123-45-6789", "name": "Ann"});
        m.for_topic("t")
            .unwrap()
            .record(&mut r, None, Some(&mut decoded));
        assert_eq!(decoded, serde_json::json!({"ssn": MARKER, "name": "Ann"}));
    }

    #[test]
    fn bad_rules_say_what_is_wrong() {
        assert!(
            MaskRule::new(None, &[], None)
                .unwrap_err()
                .contains("paths or text")
        );
        let bad = |p: &str| MaskRule::new(None, &[p.to_owned()], None).unwrap_err();
        assert!(bad("value.a").contains("starts with '.'"));
        assert!(bad(".body.a").contains(".value, .key or .headers"));
        assert!(bad(".value[x]").contains("not an index"));
        assert!(
            MaskRule::new(Some("("), &[".key".to_owned()], None)
                .unwrap_err()
                .contains("topic regex")
        );
        assert!(MaskRule::from_arg(r"/\d{4}/").is_ok());
        assert_eq!(
            parse_path(r#".value["a b"].c[2].*"#).unwrap().steps,
            vec![
                Step::Name("a b".into()),
                Step::Name("c".into()),
                Step::Index(2),
                Step::AnyName
            ]
        );
    }
}
