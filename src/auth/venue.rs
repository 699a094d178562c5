//! Venue sign-up codes. Everyone at a venue shares one network address,
//! and an address may create only a few accounts an hour; an organiser
//! opens sign-up for the room by showing the event's code of the day (on
//! the projector, or as a link), without opening it to the world. A code
//! names its event and carries an HMAC of the event and the day, so it
//! can be checked without storing anything and stops working the next day.

use chrono::NaiveDate;
use hmac::digest::KeyInit;
use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// Hex digits of the MAC a code carries: 40 bits, far beyond guessing
/// within the sign-up limits.
const MAC_HEX: usize = 10;

#[derive(Clone)]
pub struct VenueCodes(Vec<u8>);

impl std::fmt::Debug for VenueCodes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("VenueCodes(***)")
    }
}

impl VenueCodes {
    pub fn new(secret: &[u8]) -> Self {
        let mut key = b"soulstone-venue-signup\0".to_vec();
        key.extend_from_slice(secret);
        Self(key)
    }

    fn mac(&self, event_id: i64, day: NaiveDate) -> HmacSha256 {
        // HMAC accepts keys of any length, so the fallback is never taken.
        let mut mac = <HmacSha256 as Mac>::new_from_slice(&self.0)
            .unwrap_or_else(|_| <HmacSha256 as KeyInit>::new(&Default::default()));
        mac.update(format!("{event_id}\0{day}").as_bytes());
        mac
    }

    /// The event's code for `day`: `<event id>-<10 hex digits>`.
    pub fn code_for(&self, event_id: i64, day: NaiveDate) -> String {
        let digest = hex::encode(self.mac(event_id, day).finalize().into_bytes());
        format!("{event_id}-{}", &digest[..MAC_HEX])
    }

    /// The event a code opens sign-up for, if it is that event's code of
    /// `today` or of the day before (an evening that runs past midnight).
    pub fn event_of(&self, code: &str, today: NaiveDate) -> Option<i64> {
        let (id, given) = code.trim().split_once('-')?;
        let event_id: i64 = id.parse().ok()?;
        let given = given.to_ascii_lowercase();
        if given.len() != MAC_HEX {
            return None;
        }
        let days = [Some(today), today.pred_opt()];
        days.into_iter().flatten().find_map(|day| {
            let expected = self.code_for(event_id, day);
            // Compared in constant time over the MAC part.
            let matches = expected
                .rsplit('-')
                .next()
                .is_some_and(|mac| constant_time_eq(mac.as_bytes(), given.as_bytes()));
            matches.then_some(event_id)
        })
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 12, d).unwrap()
    }

    #[test]
    fn a_code_opens_its_event_on_its_day_and_the_next_only() {
        let codes = VenueCodes::new(b"a server secret of thirty-two bytes");
        let code = codes.code_for(42, day(5));
        assert!(code.starts_with("42-"), "{code}");
        assert_eq!(codes.event_of(&code, day(5)), Some(42));
        assert_eq!(codes.event_of(&code.to_uppercase(), day(5)), Some(42));
        assert_eq!(codes.event_of(&code, day(6)), Some(42), "past midnight");
        assert_eq!(codes.event_of(&code, day(7)), None, "a day later");
        assert_eq!(codes.event_of(&code, day(4)), None, "before its day");
        // Another event's id with this MAC, or a changed digit: nothing.
        let mac = code.split_once('-').unwrap().1;
        assert_eq!(codes.event_of(&format!("43-{mac}"), day(5)), None);
        let mut changed = code.clone().into_bytes();
        let last = changed.len() - 1;
        changed[last] = if changed[last] == b'0' { b'1' } else { b'0' };
        assert_eq!(
            codes.event_of(&String::from_utf8(changed).unwrap(), day(5)),
            None
        );
        // Another server's secret makes other codes.
        let other = VenueCodes::new(b"another server secret, also long!!");
        assert_eq!(other.event_of(&code, day(5)), None);
        assert_eq!(codes.event_of("garbage", day(5)), None);
        assert_eq!(codes.event_of("", day(5)), None);
    }
}
