//! An Avro value as plain JSON, the way a person reads it: unions unwrapped
//! (the branch's value, not `{"type": value}`), enums as their symbol, bytes
//! and fixed as base64, and logical types as what they mean: dates
//! `2024-01-31`, times `13:45:00.250`, timestamps RFC 3339 in UTC
//! (`…Z`; local timestamps without the `Z`), decimals as exact strings with
//! the schema's scale (`"12.50"`), UUIDs as text, durations as an object.

use std::collections::HashMap;

use apache_avro::Schema;
use apache_avro::schema::Name;
use apache_avro::types::Value as Avro;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Map, Value, json};

/// `value` as JSON; `schema` is the writer schema it was read with, `names`
/// resolves its named references.
pub fn to_json<S: std::hash::BuildHasher>(
    value: Avro,
    schema: &Schema,
    names: &HashMap<Name, Schema, S>,
) -> Value {
    let schema = match schema {
        Schema::Ref { name } => names.get(name).unwrap_or(schema),
        other => other,
    };
    match value {
        Avro::Null => Value::Null,
        Avro::Boolean(b) => Value::Bool(b),
        Avro::Int(n) => json!(n),
        Avro::Long(n) => json!(n),
        Avro::Float(f) => float(f64::from(f)),
        Avro::Double(f) => float(f),
        Avro::Bytes(b) | Avro::Fixed(_, b) => Value::String(BASE64.encode(b)),
        Avro::String(s) | Avro::Enum(_, s) => Value::String(s),
        Avro::Uuid(u) => Value::String(u.to_string()),
        Avro::Union(index, inner) => {
            let branch = match schema {
                Schema::Union(union) => union.variants().get(index as usize),
                _ => None,
            };
            to_json(*inner, branch.unwrap_or(&Schema::Null), names)
        }
        Avro::Array(items) => {
            let item = match schema {
                Schema::Array(array) => &*array.items,
                _ => &Schema::Null,
            };
            Value::Array(items.into_iter().map(|v| to_json(v, item, names)).collect())
        }
        Avro::Map(entries) => {
            let item = match schema {
                Schema::Map(map) => &*map.types,
                _ => &Schema::Null,
            };
            let mut sorted: Vec<(String, Avro)> = entries.into_iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(
                sorted
                    .into_iter()
                    .map(|(k, v)| (k, to_json(v, item, names)))
                    .collect(),
            )
        }
        Avro::Record(fields) => {
            let schemas = match schema {
                Schema::Record(record) => Some(&record.fields),
                _ => None,
            };
            let mut object = Map::new();
            for (i, (name, v)) in fields.into_iter().enumerate() {
                let field = schemas
                    .and_then(|f| f.get(i))
                    .map_or(&Schema::Null, |f| &f.schema);
                object.insert(name, to_json(v, field, names));
            }
            Value::Object(object)
        }
        Avro::Date(days) => Value::String(date(i64::from(days))),
        Avro::Decimal(decimal) => {
            let scale = match schema {
                Schema::Decimal(d) => d.scale,
                _ => 0,
            };
            let unscaled = num_bigint::BigInt::from(decimal);
            Value::String(with_scale(&unscaled.to_string(), scale))
        }
        Avro::BigDecimal(d) => Value::String(d.to_string()),
        Avro::TimeMillis(ms) => Value::String(time_of_day(i64::from(ms) * 1_000_000)),
        Avro::TimeMicros(us) => Value::String(time_of_day(us.saturating_mul(1_000))),
        Avro::TimestampMillis(ms) => timestamp(i128::from(ms) * 1_000_000, true),
        Avro::TimestampMicros(us) => timestamp(i128::from(us) * 1_000, true),
        Avro::TimestampNanos(ns) => timestamp(i128::from(ns), true),
        Avro::LocalTimestampMillis(ms) => timestamp(i128::from(ms) * 1_000_000, false),
        Avro::LocalTimestampMicros(us) => timestamp(i128::from(us) * 1_000, false),
        Avro::LocalTimestampNanos(ns) => timestamp(i128::from(ns), false),
        Avro::Duration(d) => json!({
            "months": u32::from(d.months()),
            "days": u32::from(d.days()),
            "millis": u32::from(d.millis()),
        }),
    }
}

/// A finite number as a JSON number; NaN and infinities as strings.
fn float(f: f64) -> Value {
    serde_json::Number::from_f64(f).map_or_else(|| Value::String(f.to_string()), Value::Number)
}

/// `digits` (an integer, maybe negative) with `scale` digits after the point.
fn with_scale(digits: &str, scale: usize) -> String {
    if scale == 0 {
        return digits.to_owned();
    }
    let (sign, digits) = digits.strip_prefix('-').map_or(("", digits), |d| ("-", d));
    let padded = format!("{digits:0>width$}", width = scale + 1);
    let (whole, fraction) = padded.split_at(padded.len() - scale);
    format!("{sign}{whole}.{fraction}")
}

/// Days since 1970-01-01 as `YYYY-MM-DD`.
fn date(days: i64) -> String {
    time::Date::from_julian_day(
        2_440_588_i32.saturating_add(i32::try_from(days).unwrap_or(i32::MAX)),
    )
    .map_or_else(|_| format!("{days} days"), |d| d.to_string())
}

/// Nanoseconds after midnight as `HH:MM:SS.fff`.
fn time_of_day(nanos: i64) -> String {
    let secs = nanos.div_euclid(1_000_000_000);
    let frac = nanos.rem_euclid(1_000_000_000);
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let fraction = if frac % 1_000_000 == 0 {
        format!("{:03}", frac / 1_000_000)
    } else if frac % 1_000 == 0 {
        format!("{:06}", frac / 1_000)
    } else {
        format!("{frac:09}")
    };
    format!("{h:02}:{m:02}:{s:02}.{fraction}")
}

/// Nanoseconds since the epoch as RFC 3339 (`Z` when `utc`).
fn timestamp(nanos: i128, utc: bool) -> Value {
    let Ok(at) = time::OffsetDateTime::from_unix_timestamp_nanos(nanos) else {
        return Value::String(format!("{nanos} ns since the epoch"));
    };
    let format = time::format_description::well_known::Rfc3339;
    let text = at.format(&format).unwrap_or_else(|_| format!("{nanos} ns"));
    if utc {
        Value::String(text)
    } else {
        Value::String(text.trim_end_matches('Z').to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_keep_their_scale_exactly() {
        assert_eq!(with_scale("1250", 2), "12.50");
        assert_eq!(with_scale("-5", 3), "-0.005");
        assert_eq!(with_scale("7", 0), "7");
    }

    #[test]
    fn dates_times_and_timestamps_read_as_what_they_mean() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(19_723), "2024-01-01");
        assert_eq!(time_of_day(49_500_250_000_000), "13:45:00.250");
        assert_eq!(
            timestamp(1_704_067_200_123_000_000, true),
            Value::String("2024-01-01T00:00:00.123Z".to_owned())
        );
        assert_eq!(
            timestamp(1_704_067_200_000_000_000, false),
            Value::String("2024-01-01T00:00:00".to_owned())
        );
        assert!(
            timestamp(i128::MAX, true)
                .as_str()
                .is_some_and(|s| s.contains("ns"))
        );
        assert_eq!(float(f64::NAN), Value::String("NaN".to_owned()));
    }
}
