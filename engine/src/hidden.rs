//! Secrecy as part of the types. A value only one player may see (a card
//! drawn, the card Insight looks at, later a scheme chosen) is a
//! [`Hidden`] in a fact. [`redact`] removes every hidden value that is not
//! the viewer's from any serialised fact or state, whatever its shape, so
//! no new fact can leak a secret because someone forgot to list it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Seat;
use super::view::Viewer;

/// The key that marks a hidden value in the JSON form: an object with this
/// key is a [`Hidden`]. No other type uses it.
pub const HIDDEN_OWNER_KEY: &str = "hidden_from_all_but";

/// A value only `owner` may see. `value` is `None` once redacted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "T: Deserialize<'de>"))]
pub struct Hidden<T> {
    #[serde(rename = "hidden_from_all_but")]
    pub owner: Seat,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<T>,
}

impl<T> Hidden<T> {
    pub fn new(owner: Seat, value: T) -> Self {
        Self {
            owner,
            value: Some(value),
        }
    }

    /// A hidden value whose content is not known here (already redacted,
    /// or nothing to hide: an empty deck).
    pub fn unknown(owner: Seat) -> Self {
        Self { owner, value: None }
    }
}

/// Removes, in place, every hidden value `viewer` may not see.
pub fn redact(value: &mut Value, viewer: Viewer) {
    match value {
        Value::Object(map) => {
            let owner = map
                .get(HIDDEN_OWNER_KEY)
                .and_then(|owner| Seat::deserialize(owner).ok());
            if let Some(owner) = owner
                && viewer != Viewer::Player(owner)
            {
                map.retain(|key, _| key == HIDDEN_OWNER_KEY);
                return;
            }
            for field in map.values_mut() {
                redact(field, viewer);
            }
        }
        Value::Array(items) => {
            for item in items {
                redact(item, viewer);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_owner_keeps_a_hidden_value_however_deep() {
        let nested = serde_json::json!({
            "type": "anything",
            "list": [{"deeper": Hidden::new(Seat::A, "7C")}],
            "plain": "stays",
        });
        let mut for_b = nested.clone();
        redact(&mut for_b, Viewer::Player(Seat::B));
        assert_eq!(
            for_b,
            serde_json::json!({
                "type": "anything",
                "list": [{"deeper": {"hidden_from_all_but": "a"}}],
                "plain": "stays",
            })
        );
        let mut for_spectator = nested.clone();
        redact(&mut for_spectator, Viewer::Spectator);
        assert_eq!(for_spectator, for_b);
        let mut for_a = nested.clone();
        redact(&mut for_a, Viewer::Player(Seat::A));
        assert_eq!(for_a, nested);
    }
}
