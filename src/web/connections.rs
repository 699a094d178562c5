//! Connections per client address, counted from accept.
//!
//! The per-client share of requests in flight ([`super::client::InFlight`])
//! only sees requests whose headers are complete. A client that opens
//! connections and sends nothing, or half a header, holds descriptors all
//! the same until the header deadline, and with the common limit of 1,024
//! open files a few hundred of them leave everyone else waiting to be
//! accepted. So every accepted connection is counted against its address:
//!
//! - one address holds at most a quarter of the server's connections;
//! - once three quarters are taken, the last quarter is kept for addresses
//!   that hold at most one (a reserve for newcomers and for `/healthz`,
//!   with room for a page's second connection): an attack spread over a
//!   hundred addresses fills the rest, not that.
//!
//! A connection over either bound is shut down at once, before anything is
//! read from it. An IPv6 client counts as its /64 network, as everywhere. Behind reverse proxies every connection comes from a proxy,
//! so the count is left to them (`SOULSTONE_PROXY_HOPS`).

use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use super::client::Tally;

/// Past the reserve's start, an address holding fewer connections than this
/// still gets one.
const NEWCOMER_HOLDS_FEWER_THAN: usize = 2;
/// The smallest capacity worth dividing into shares.
const SMALLEST: usize = 32;

/// The connections each address holds, and the bounds on them.
pub struct Connections {
    held: Mutex<Tally<IpAddr>>,
    /// Connections the server may hold in all.
    capacity: usize,
}

/// One accepted connection's place, given back when the connection ends
/// (it lives in the connection's data, dropped with the connection).
pub struct ConnectionPlace {
    owner: Arc<Connections>,
    address: IpAddr,
}

impl Connections {
    pub fn new(capacity: usize) -> Self {
        Self {
            held: Mutex::default(),
            capacity: capacity.max(SMALLEST),
        }
    }

    fn per_address_bound(&self) -> usize {
        self.capacity / 4
    }

    fn reserve_starts_at(&self) -> usize {
        self.capacity - self.capacity / 4
    }

    /// A place for a new connection from `address`, or `None` when the
    /// address holds its share already, or when the reserve is reached and
    /// the address is no newcomer.
    pub fn admit(self: &Arc<Self>, address: IpAddr) -> Option<ConnectionPlace> {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let (mine, total) = (held.of(&address), held.total());
        let refused = mine >= self.per_address_bound()
            || (total >= self.reserve_starts_at() && mine >= NEWCOMER_HOLDS_FEWER_THAN)
            || total >= self.capacity;
        if refused {
            return None;
        }
        held.add(address);
        Some(ConnectionPlace {
            owner: Arc::clone(self),
            address,
        })
    }
}

impl Drop for ConnectionPlace {
    fn drop(&mut self) {
        self.owner
            .held
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.address);
    }
}

/// The `on_connect` hook: counts the connection against its peer's
/// address, or shuts it down when the address is over its bound.
pub fn on_connect(
    connections: &Arc<Connections>,
    connection: &dyn std::any::Any,
    data: &mut actix_web::dev::Extensions,
) {
    use actix_web::rt::net::TcpStream;
    let stream = connection.downcast_ref::<TcpStream>().or_else(|| {
        connection
            .downcast_ref::<actix_tls::accept::openssl::TlsStream<TcpStream>>()
            .map(|tls| tls.get_ref())
    });
    let Some(stream) = stream else { return };
    let Ok(peer) = stream.peer_addr() else { return };
    match connections.admit(super::client::network_of(peer.ip())) {
        Some(place) => {
            data.insert(place);
        }
        None => {
            // Closed before a byte is read: the dispatcher then sees the end
            // of the stream and gives the descriptor back.
            let _ = socket2::SockRef::from(stream).shutdown(std::net::Shutdown::Both);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    #[test]
    fn one_address_holds_a_quarter_and_newcomers_keep_the_last_quarter() {
        let connections = Arc::new(Connections::new(400));
        // One address: a quarter, then no more.
        let first: Vec<_> = (0..100)
            .map(|_| connections.admit(ip(1)).unwrap())
            .collect();
        assert!(connections.admit(ip(1)).is_none());
        // Two more fill the rest up to the reserve (300 in all).
        let second: Vec<_> = (0..100)
            .map(|_| connections.admit(ip(2)).unwrap())
            .collect();
        let third: Vec<_> = (0..100)
            .map(|_| connections.admit(ip(3)).unwrap())
            .collect();
        // Past it, a newcomer gets two places and then no more...
        let fourth = [
            connections.admit(ip(4)).unwrap(),
            connections.admit(ip(4)).unwrap(),
        ];
        assert!(connections.admit(ip(4)).is_none());
        assert!(connections.admit(ip(3)).is_none());
        // ...and each newcomer still gets its own.
        let newcomers: Vec<_> = (10..20)
            .map(|last| connections.admit(ip(last)).unwrap())
            .collect();
        // Places are given back when connections end.
        drop(first);
        assert!(connections.admit(ip(1)).is_some());
        drop((second, third, fourth, newcomers));
        let held = connections.held.lock().unwrap();
        assert_eq!(held.total(), 0);
        assert!(held.is_empty());
    }

    #[test]
    fn the_whole_capacity_is_never_exceeded() {
        let connections = Arc::new(Connections::new(64));
        let places: Vec<_> = (0..=255u8)
            .filter_map(|last| connections.admit(ip(last)))
            .collect();
        assert_eq!(places.len(), 64);
    }
}
