//! Control characters (NUL above all) are refused at the edge, one rule
//! for both backends: PostgreSQL cannot store a NUL and answered 500,
//! while SQLite stored it. No name, key or identifier here holds one. The
//! address (path and query) and a JSON body are checked here; forms are
//! checked where their CSRF token is (`session::CsrfForm`).

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::CONTENT_TYPE;
use actix_web::middleware::Next;
use actix_web::{HttpMessage, ResponseError, web};
use futures_util::StreamExt;

use crate::web::error::{ApiError, AppError};

/// Whether a percent-encoded address (path or query) holds a control
/// character once decoded: `%00`-`%1F`, `%7F`, or a C1 control (`%C2%80`-
/// `%C2%9F`). Raw control bytes never reach here (the HTTP parser refuses
/// them).
pub fn address_holds_control(encoded: &str) -> bool {
    let bytes = encoded.as_bytes();
    let hex = |at: usize| -> Option<u8> {
        let pair = encoded.get(at..at + 2)?;
        u8::from_str_radix(pair, 16).ok()
    };
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(byte) = hex(i + 1)
        {
            if byte < 0x20 || byte == 0x7F {
                return true;
            }
            if byte == 0xC2
                && bytes.get(i + 3) == Some(&b'%')
                && hex(i + 4).is_some_and(|next| (0x80..=0x9F).contains(&next))
            {
                return true;
            }
            i += 3;
        } else {
            i += 1;
        }
    }
    false
}

/// Where in a JSON value a string (or a key) holds a control character
/// other than a line break or a tab, which a note may hold: the field's
/// path ("name", "lists[0].name"), or "the body" for a bare string.
pub fn json_control_at(value: &serde_json::Value) -> Option<String> {
    fn bad(text: &str) -> bool {
        text.chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    }
    fn walk(value: &serde_json::Value, at: &str) -> Option<String> {
        match value {
            serde_json::Value::String(text) => bad(text).then(|| at.to_string()),
            serde_json::Value::Array(items) => items
                .iter()
                .enumerate()
                .find_map(|(i, item)| walk(item, &format!("{at}[{i}]"))),
            serde_json::Value::Object(fields) => fields.iter().find_map(|(key, value)| {
                let here = if at.is_empty() {
                    key.clone()
                } else {
                    format!("{at}.{key}")
                };
                if bad(key) {
                    return Some(if at.is_empty() {
                        "a key".to_string()
                    } else {
                        format!("a key in {at}")
                    });
                }
                walk(value, &here)
            }),
            _ => None,
        }
    }
    walk(value, "").map(|at| {
        if at.is_empty() {
            "the body".to_string()
        } else {
            at
        }
    })
}

fn refuse(req: ServiceRequest, api: bool, error: AppError) -> ServiceResponse<BoxBody> {
    let response = if api {
        ApiError(error).error_response()
    } else {
        error.error_response()
    };
    req.into_response(response)
}

/// Refuses a request whose address or JSON body holds a control character
/// with 400 and a message that names it, before any handler runs.
pub async fn refuse_control_characters(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let api = req.path().starts_with("/api/");
    let address = req.uri().path_and_query().map_or("", |pq| pq.as_str());
    if address_holds_control(address) {
        return Ok(refuse(
            req,
            api,
            AppError::bad_request(
                "The address holds a control character (such as NUL), which no name, key or identifier here can hold.",
            ),
        ));
    }
    let json = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("application/json"));
    if json {
        let mut payload = req.take_payload();
        let mut body = web::BytesMut::new();
        while let Some(chunk) = payload.next().await {
            let chunk = chunk?;
            if body.len() + chunk.len() > super::JSON_BODY_LIMIT {
                return Ok(refuse(
                    req,
                    api,
                    AppError::bad_request("The JSON body is too large."),
                ));
            }
            body.extend_from_slice(&chunk);
        }
        let body = body.freeze();
        // A body that is not JSON is left to the handler's own message.
        if let Some(at) = serde_json::from_slice::<serde_json::Value>(&body)
            .ok()
            .and_then(|value| json_control_at(&value))
        {
            return Ok(refuse(
                req,
                api,
                AppError::bad_request(format!(
                    "The field {at:?} holds a control character (such as NUL), which cannot be kept. Remove it and send it again."
                )),
            ));
        }
        req.set_payload(body.into());
    }
    next.call(req)
        .await
        .map(ServiceResponse::map_into_boxed_body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_in_an_address_are_found_however_encoded() {
        for address in [
            "/pools/%00",
            "/pools/x%00/edit",
            "/setup?pool=%00",
            "/a?b=%1f",
            "/a?b=%7F",
            "/a?b=%c2%85",
        ] {
            assert!(address_holds_control(address), "{address}");
        }
        for address in [
            "/pools/gaining-grounds",
            "/a?b=%20%2F",
            "/a?b=%C3%A9",
            "/a?b=100%",
            "/a?b=%zz",
        ] {
            assert!(!address_holds_control(address), "{address}");
        }
    }

    #[test]
    fn control_characters_in_json_strings_are_found_but_line_breaks_pass() {
        let refused = serde_json::json!({"a": [{"key": "x\u{0}y"}]});
        assert_eq!(json_control_at(&refused).as_deref(), Some("a[0].key"));
        assert_eq!(
            json_control_at(&serde_json::json!({"\u{1}": 1})).as_deref(),
            Some("a key")
        );
        assert_eq!(
            json_control_at(&serde_json::json!("\u{0}")).as_deref(),
            Some("the body")
        );
        let fine = serde_json::json!({"notes": "one\ntwo\tthree", "n": 3});
        assert_eq!(json_control_at(&fine), None);
    }
}
