//! Who is asking: the client's address, for throttles and per-client limits.
//!
//! Behind reverse proxies the peer is the nearest proxy, and the client's
//! address is in `X-Forwarded-For`. Each proxy appends the address it was
//! reached from, so only the entries the operator's own proxies added can be
//! trusted: the client is the entry `hops` places from the right. Anything
//! to the left of it was written by the client and is ignored.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::ConnectionType;
use actix_web::http::header::HeaderMap;
use actix_web::middleware::Next;
use actix_web::{HttpRequest, ResponseError, web};

use crate::web::AppState;
use crate::web::error::{ApiError, AppError};

/// The client's address: the peer, or the `X-Forwarded-For` entry the
/// operator's proxies vouch for when `SOULSTONE_PROXY_HOPS` says there are
/// any; an IPv6 address as its network (see [`network_of`]).
pub fn client_address(req: &HttpRequest, state: &AppState) -> String {
    let peer = req.peer_addr().map(|addr| addr.ip());
    match address_behind_proxies(req.headers(), peer, state.settings.proxy_hops) {
        Some(ip) => network_of(ip).to_string(),
        None => "unknown".into(),
    }
}

/// The address every per-address limit counts: an IPv4 address itself
/// (also when written as IPv6), and for IPv6 its /64 network, since one
/// subscriber is handed a whole /64 and could otherwise take a fresh
/// address, and a fresh share, for every request.
pub fn network_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let [a, b, c, d, ..] = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(a, b, c, d, 0, 0, 0, 0))
            }
        },
    }
}

/// The client's address given the request's headers, its peer and the number
/// of trusted proxies in front of the server.
///
/// A header with fewer entries than there are proxies did not come through
/// all of them, and an entry that is not an address was not written by a
/// proxy: both fall back to the peer, which is at least not the client's
/// choice.
pub fn address_behind_proxies(
    headers: &HeaderMap,
    peer: Option<IpAddr>,
    hops: usize,
) -> Option<IpAddr> {
    if hops == 0 {
        return peer;
    }
    let entries: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .collect();
    let Some(index) = entries.len().checked_sub(hops) else {
        return peer;
    };
    entries
        .get(index)
        .and_then(|entry| parse_entry(entry))
        .or(peer)
}

/// Whose share of the server a request spends: a signed-in account's own
/// (its session cookie or API token, judged by the signature alone, which
/// is cheap; whether it was revoked is checked later, as on every request),
/// or else its address's. So at a venue, where everyone shares an address,
/// one visitor stalling requests holds up only the other signed-out ones.
pub fn share_of(req: &HttpRequest, state: &AppState) -> String {
    use crate::auth::token::TokenKind;
    use crate::web::session::{SESSION_COOKIE, bearer_token};
    req.cookie(SESSION_COOKIE)
        .map(|cookie| cookie.value().to_owned())
        .or_else(|| bearer_token(req))
        .and_then(|token| state.tokens.verify(&token, chrono::Utc::now()).ok())
        .filter(|claims| matches!(claims.kind, TokenKind::Session | TokenKind::Api))
        .and_then(|claims| claims.account_id())
        .map_or_else(
            || client_address(req, state),
            |account| format!("account:{account}"),
        )
}

/// How many places each key holds, and all keys together; a key holding
/// none is forgotten, so the map grows only with the clients present.
#[derive(Debug)]
pub(crate) struct Tally<K> {
    per_key: HashMap<K, usize>,
    total: usize,
}

impl<K> Default for Tally<K> {
    fn default() -> Self {
        Self {
            per_key: HashMap::new(),
            total: 0,
        }
    }
}

impl<K: std::hash::Hash + Eq> Tally<K> {
    pub(crate) fn of(&self, key: &K) -> usize {
        self.per_key.get(key).copied().unwrap_or(0)
    }

    pub(crate) fn total(&self) -> usize {
        self.total
    }

    /// No key holds a place (and none is remembered).
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.per_key.is_empty()
    }

    pub(crate) fn add(&mut self, key: K) {
        *self.per_key.entry(key).or_default() += 1;
        self.total += 1;
    }

    pub(crate) fn remove(&mut self, key: &K) {
        if let Some(count) = self.per_key.get_mut(key) {
            *count -= 1;
            self.total -= 1;
            if *count == 0 {
                self.per_key.remove(key);
            }
        }
    }
}

/// Requests each client (an address, or a signed-in account) has in
/// flight. A client that opens many connections and sends their bodies
/// slowly (or never) holds at most `limit` of the server's connections; the
/// rest are answered at once.
pub struct InFlight {
    counts: Mutex<Tally<String>>,
    limit: usize,
}

/// One request's place in [`InFlight`], given back when it is dropped.
pub struct InFlightSlot {
    owner: Arc<InFlight>,
    address: String,
}

impl InFlight {
    pub fn new(limit: usize) -> Self {
        Self {
            counts: Mutex::default(),
            limit,
        }
    }

    /// A place for one more request from `address`, or `None` when it has
    /// `limit` in flight already.
    pub fn enter(self: &Arc<Self>, address: String) -> Option<InFlightSlot> {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if counts.of(&address) >= self.limit {
            return None;
        }
        counts.add(address.clone());
        Some(InFlightSlot {
            owner: Arc::clone(self),
            address,
        })
    }
}

impl Drop for InFlightSlot {
    fn drop(&mut self) {
        self.owner
            .counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.address);
    }
}

/// Holds every request to the client's share of the server (see
/// [`share_of`] for whose share it is) and to a deadline that covers
/// reading its body: a connection that sends headers and then a body byte
/// by byte, or not at all, gets 408 when the deadline passes instead of
/// holding its connection for ever, and a client over its share gets 429
/// at once. A streamed answer (the live game stream) leaves both once its
/// head is sent.
pub async fn guard_requests(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return next
            .call(req)
            .await
            .map(ServiceResponse::map_into_boxed_body);
    };
    let api = req.path().starts_with("/api/");
    let Some(_slot) = state.in_flight.enter(share_of(req.request(), &state)) else {
        let refusal = Refusal {
            api,
            error: AppError::TooManyRequests,
        };
        return Ok(req.into_response(refusal.error_response()));
    };
    // The request itself is inside `next` now (the middleware below needs
    // it unshared), so a timeout answers through an error.
    match actix_web::rt::time::timeout(state.settings.request_timeout, next.call(req)).await {
        Ok(response) => response.map(ServiceResponse::map_into_boxed_body),
        Err(_elapsed) => Err(Refusal {
            api,
            error: AppError::RequestTimeout,
        }
        .into()),
    }
}

/// A request turned away by [`guard_requests`]: answered like any error
/// (JSON under `/api/`), and its connection closed, since its unread body is
/// not worth waiting for and the connection is what the client was taking.
#[derive(Debug, thiserror::Error)]
#[error("{error}")]
struct Refusal {
    api: bool,
    error: AppError,
}

impl ResponseError for Refusal {
    fn status_code(&self) -> actix_web::http::StatusCode {
        self.error.status_code()
    }

    fn error_response(&self) -> actix_web::HttpResponse {
        let mut response = if self.api {
            ApiError(self.error.clone()).error_response()
        } else {
            self.error.error_response()
        };
        response
            .head_mut()
            .set_connection_type(ConnectionType::Close);
        response
    }
}

/// An address as proxies write it: bare, or IPv6 in brackets (with a port
/// after some proxies' brackets, which is dropped).
fn parse_entry(entry: &str) -> Option<IpAddr> {
    if let Ok(ip) = entry.parse() {
        return Some(ip);
    }
    let inner = entry.strip_prefix('[')?;
    let end = inner.find(']')?;
    inner[..end].parse().ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_ipv6_client_counts_as_its_network() {
        let network = |text: &str| super::network_of(text.parse().unwrap()).to_string();
        assert_eq!(network("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::");
        assert_eq!(network("2001:db8:1:2:ffff:1:2:3"), "2001:db8:1:2::");
        assert_ne!(network("2001:db8:1:3::1"), network("2001:db8:1:2::1"));
        assert_eq!(network("::ffff:203.0.113.7"), "203.0.113.7");
        assert_eq!(network("203.0.113.7"), "203.0.113.7");
    }

    use super::*;
    use actix_web::http::header::{HeaderName, HeaderValue};

    #[test]
    fn each_address_holds_at_most_its_share_until_its_requests_end() {
        let in_flight = Arc::new(InFlight::new(2));
        let first = in_flight.enter("10.0.0.1".into()).unwrap();
        let _second = in_flight.enter("10.0.0.1".into()).unwrap();
        assert!(in_flight.enter("10.0.0.1".into()).is_none());
        assert!(in_flight.enter("10.0.0.2".into()).is_some());
        drop(first);
        assert!(in_flight.enter("10.0.0.1".into()).is_some());
    }

    fn headers(values: &[&str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for value in values {
            map.append(
                HeaderName::from_static("x-forwarded-for"),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn without_proxies_the_header_is_ignored() {
        let peer = Some(ip("10.0.0.9"));
        assert_eq!(
            address_behind_proxies(&headers(&["1.2.3.4"]), peer, 0),
            peer
        );
    }

    #[test]
    fn the_entry_the_proxies_added_counts_not_the_clients_own() {
        let peer = Some(ip("10.0.0.1"));
        // The client wrote 6.6.6.6 itself; the one proxy appended 203.0.113.7.
        let forged = headers(&["6.6.6.6, 203.0.113.7"]);
        assert_eq!(
            address_behind_proxies(&forged, peer, 1),
            Some(ip("203.0.113.7"))
        );
        // Two proxies: the outer one appended the client, the inner one the outer.
        let two = headers(&["6.6.6.6", "203.0.113.7, 10.0.0.2"]);
        assert_eq!(
            address_behind_proxies(&two, peer, 2),
            Some(ip("203.0.113.7"))
        );
        assert_eq!(
            address_behind_proxies(&headers(&["[2001:db8::1]:4711"]), peer, 1),
            Some(ip("2001:db8::1"))
        );
    }

    #[test]
    fn a_short_or_garbled_header_falls_back_to_the_peer() {
        let peer = Some(ip("10.0.0.1"));
        assert_eq!(address_behind_proxies(&headers(&[]), peer, 1), peer);
        assert_eq!(
            address_behind_proxies(&headers(&["203.0.113.7"]), peer, 2),
            peer
        );
        assert_eq!(
            address_behind_proxies(&headers(&["not an address"]), peer, 1),
            peer
        );
    }
}
