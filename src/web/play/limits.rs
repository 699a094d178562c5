//! Limits on what one account (or, signed out, one address) may ask of
//! hosted play, so no client can starve the others: commands per second,
//! and streams open at once. Kept per instance, in memory.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// Live streams one account keeps open at once: a few tabs.
pub const MAX_STREAMS: usize = 8;

/// Live streams signed-out viewers at one address keep open at once. A
/// venue is one address: its projector and the phones of everyone
/// watching share it, so one account's few tabs would turn the ninth
/// spectator away. An idle stream costs the server about 35 KiB.
pub const MAX_STREAMS_PER_ADDRESS: usize = 64;

/// Who is asking: an account, or an address when signed out.
pub fn key_of(account: Option<i64>, address: &str) -> String {
    match account {
        Some(id) => format!("account:{id}"),
        None => format!("{ADDRESS_PREFIX}{address}"),
    }
}

const ADDRESS_PREFIX: &str = "address:";

/// The streams `key` may keep open at once.
fn most_streams(key: &str) -> usize {
    if key.starts_with(ADDRESS_PREFIX) {
        MAX_STREAMS_PER_ADDRESS
    } else {
        MAX_STREAMS
    }
}

pub struct PlayLimits {
    commands: DefaultKeyedRateLimiter<String>,
    streams: Mutex<HashMap<String, usize>>,
}

impl PlayLimits {
    /// `per_second` commands a second per account (settings:
    /// `SOULSTONE_PLAY_COMMANDS_PER_SECOND`), twice as many at once.
    pub fn new(per_second: u32) -> Self {
        let rate = NonZeroU32::new(per_second).unwrap_or(NonZeroU32::MIN);
        let burst = rate.saturating_mul(NonZeroU32::MIN.saturating_add(1));
        Self {
            commands: RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst)),
            streams: Mutex::default(),
        }
    }

    /// False when `key` has sent too many commands just now.
    pub fn allow_command(&self, key: &str) -> bool {
        // Forget idle keys now and then, so the map stays small.
        if self.commands.len() > 10_000 {
            self.commands.retain_recent();
        }
        self.commands.check_key(&key.to_owned()).is_ok()
    }

    /// A place for one more stream of `key`'s, released when dropped; none
    /// while `key` has its most open ([`MAX_STREAMS`] for an account,
    /// [`MAX_STREAMS_PER_ADDRESS`] for signed-out viewers).
    pub fn open_stream(self: &Arc<Self>, key: String) -> Option<StreamSlot> {
        let mut open = self.streams.lock().ok()?;
        let most = most_streams(&key);
        let count = open.entry(key.clone()).or_default();
        if *count >= most {
            return None;
        }
        *count += 1;
        Some(StreamSlot {
            limits: Arc::clone(self),
            key,
        })
    }
}

/// One open stream, counted until it closes.
pub struct StreamSlot {
    limits: Arc<PlayLimits>,
    key: String,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        if let Ok(mut open) = self.limits.streams.lock()
            && let Some(count) = open.get_mut(&self.key)
        {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_sending_too_fast_is_held_back_and_others_are_not() {
        let limits = Arc::new(PlayLimits::new(5));
        let allowed = (0..30)
            .filter(|_| limits.allow_command("account:1"))
            .count();
        // The burst (twice the rate), give or take what refilled meanwhile.
        assert!((10..=12).contains(&allowed), "{allowed}");
        assert!(
            limits.allow_command("account:2"),
            "another account is not held back"
        );
    }

    #[test]
    fn streams_are_counted_until_they_close() {
        let limits = Arc::new(PlayLimits::new(5));
        let open: Vec<StreamSlot> = (0..MAX_STREAMS)
            .map(|_| limits.open_stream("account:1".into()).expect("a place"))
            .collect();
        assert!(limits.open_stream("account:1".into()).is_none());
        assert!(limits.open_stream("address:127.0.0.1".into()).is_some());
        drop(open);
        assert!(limits.open_stream("account:1".into()).is_some());
    }

    #[test]
    fn a_venue_address_keeps_a_room_of_spectators_and_no_more() {
        let limits = Arc::new(PlayLimits::new(5));
        let venue = key_of(None, "203.0.113.7");
        let room: Vec<StreamSlot> = (0..MAX_STREAMS_PER_ADDRESS)
            .map(|_| limits.open_stream(venue.clone()).expect("a place"))
            .collect();
        assert!(room.len() > MAX_STREAMS);
        assert!(limits.open_stream(venue).is_none());
    }
}
