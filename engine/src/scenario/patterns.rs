//! What every edition's scenario files expect, matched against what a run
//! made: records (events, or the 1st edition's facts) in order, records
//! that must not come, and the final state, each as a pattern
//! (docs/scenarios.md).

use serde_json::Value;

/// What a scenario expects of the records a run made and its final state:
/// every edition's files say it the same way.
pub(crate) struct Patterns<'a> {
    /// The field naming a record's kind ("type" for events, "fact").
    pub kind: &'a str,
    /// What a record is called in a failure ("event", "fact").
    pub noun: &'a str,
    /// Records that must come, in this order (others may come between).
    pub in_order: &'a [Value],
    /// Records that must not come.
    pub never: &'a [Value],
    pub state: Option<&'a Value>,
}

/// The failures of `records` and `state` to meet `patterns`.
pub(crate) fn unmet_patterns(
    patterns: Patterns<'_>,
    records: &[Value],
    state: &Value,
) -> Vec<String> {
    let Patterns {
        kind,
        noun,
        in_order,
        never,
        state: state_pattern,
    } = patterns;
    let mut failures = Vec::new();
    let mut position = 0;
    for (number, pattern) in in_order.iter().enumerate() {
        match records[position..]
            .iter()
            .position(|record| matches(pattern, record, "").is_ok())
        {
            Some(offset) => position += offset + 1,
            None => {
                let closest = records[position..]
                    .iter()
                    .filter(|r| r.get(kind) == pattern.get(kind))
                    .filter_map(|r| matches(pattern, r, noun).err())
                    .next()
                    .unwrap_or_else(|| format!("no {noun} of that kind follows"));
                failures.push(format!(
                    "expected {noun} #{} {pattern} was not found in order: {closest}",
                    number + 1
                ));
                break;
            }
        }
    }
    for pattern in never {
        if let Some(record) = records.iter().find(|r| matches(pattern, r, "").is_ok()) {
            failures.push(format!("{record} happened, which {pattern} says must not"));
        }
    }
    if let Some(pattern) = state_pattern
        && let Err(message) = matches(pattern, state, "state")
    {
        failures.push(message);
    }
    failures
}

/// Whether `actual` has everything `pattern` names (see [`Expect`]): an
/// empty table as a field's value asks for an empty one.
pub fn matches(pattern: &Value, actual: &Value, path: &str) -> Result<(), String> {
    match (pattern, actual) {
        (Value::Object(fields), Value::Object(actual_fields)) => {
            for (key, expected) in fields {
                let here = format!("{path}.{key}");
                let Some(value) = actual_fields.get(key) else {
                    if expected.is_null() {
                        continue;
                    }
                    return Err(format!("{here} is missing (expected {expected})"));
                };
                // A field given as an empty table asks for an empty one
                // (`tokens = {}`: no tokens); in a list, `{}` skips an item.
                if expected.as_object().is_some_and(|o| o.is_empty())
                    && value.as_object().is_some_and(|o| !o.is_empty())
                {
                    return Err(format!("{here} is {value}, expected it empty"));
                }
                matches(expected, value, &here)?;
            }
            Ok(())
        }
        (Value::Array(items), Value::Array(actual_items)) => {
            if items.len() != actual_items.len() {
                return Err(format!(
                    "{path} has {} entries, expected {}: {actual}",
                    actual_items.len(),
                    items.len()
                ));
            }
            for (index, (expected, value)) in items.iter().zip(actual_items).enumerate() {
                matches(expected, value, &format!("{path}[{index}]"))?;
            }
            Ok(())
        }
        (Value::Number(a), Value::Number(b))
            if a.as_i64().is_some() && a.as_i64() == b.as_i64() =>
        {
            Ok(())
        }
        (expected, value) if expected == value => Ok(()),
        (expected, value) => Err(format!("{path} is {value}, expected {expected}")),
    }
}
