//! JSON columns of an event's rows (a round's setup and its history, a
//! game's sides, a result change's fields, a round's pairing record):
//! written with [`to_json`], read with [`from_stored_json`], which refuses
//! a value that does not read instead of dropping it.

use super::EventError;

/// A value as its JSON column stores it.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> Result<String, EventError> {
    serde_json::to_string(value).map_err(|e| EventError::Corrupt(e.to_string()))
}

/// Reads a JSON column of a stored row. A value that does not parse is an
/// error naming the column and the row, never dropped: a page would show
/// less than was stored, and the next write would replace it.
pub(crate) fn from_stored_json<T: serde::de::DeserializeOwned>(
    column: &str,
    row_id: i64,
    json: &str,
) -> Result<T, EventError> {
    serde_json::from_str(json).map_err(|error| {
        EventError::Corrupt(format!("{column} of row {row_id} cannot be read: {error}"))
    })
}
