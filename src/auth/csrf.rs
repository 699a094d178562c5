//! CSRF protection by signed double submit: the browser holds a random value
//! in an HttpOnly cookie, and every form carries an HMAC of that value. A
//! foreign site can make the browser send the cookie but can neither read it
//! nor compute the matching form field.

use hmac::digest::KeyInit;
use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

#[derive(Clone)]
pub struct CsrfKey(Vec<u8>);

impl std::fmt::Debug for CsrfKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CsrfKey(***)")
    }
}

impl CsrfKey {
    pub fn new(secret: &[u8]) -> Self {
        let mut key = b"soulstone-csrf\0".to_vec();
        key.extend_from_slice(secret);
        Self(key)
    }

    fn mac(&self) -> HmacSha256 {
        // HMAC accepts keys of any length, so the fallback is never taken.
        <HmacSha256 as Mac>::new_from_slice(&self.0)
            .unwrap_or_else(|_| <HmacSha256 as KeyInit>::new(&Default::default()))
    }

    /// The form token for a cookie value.
    pub fn form_token(&self, cookie_value: &str) -> String {
        let mut mac = self.mac();
        mac.update(cookie_value.as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }

    /// Constant-time check of a submitted form token.
    pub fn verify(&self, cookie_value: &str, form_token: &str) -> bool {
        let Ok(submitted) = hex::decode(form_token.trim()) else {
            return false;
        };
        let mut mac = self.mac();
        mac.update(cookie_value.as_bytes());
        !cookie_value.is_empty() && mac.verify_slice(&submitted).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_match_only_their_cookie() {
        let key = CsrfKey::new(b"secret");
        let token = key.form_token("cookie-1");
        assert!(key.verify("cookie-1", &token));
        assert!(!key.verify("cookie-2", &token));
        assert!(!key.verify("", &key.form_token("")));
        assert!(!key.verify("cookie-1", "zz"));
        assert!(!CsrfKey::new(b"other").verify("cookie-1", &token));
    }
}
