//! Session and API tokens: HS256 JWTs signed with a key derived from the
//! server secret. Expiry is checked here; revocation needs the database and
//! is checked by the caller.

use chrono::{DateTime, Duration, Utc};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation, decode, encode};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A browser session token lives this long without use...
pub const SESSION_LIFETIME: Duration = Duration::minutes(60);
/// ...is renewed when older than this...
pub const SESSION_RENEW_AFTER: Duration = Duration::minutes(10);
/// ...and a session never outlasts this, renewals included.
pub const SESSION_MAX_AGE: Duration = Duration::days(14);
/// Tokens for scripts and other API clients.
pub const API_TOKEN_LIFETIME: Duration = Duration::hours(12);
/// A browser that signed in to an account is known to it this long: it
/// keeps its own sign-in budget, which strangers' guesses cannot spend.
pub const DEVICE_LIFETIME: Duration = Duration::days(180);

const ISSUER: &str = "soulstone";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenKind {
    Session,
    Api,
    /// Marks a browser that signed in before; it signs nobody in.
    Device,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// The account id.
    pub sub: String,
    /// A unique id, so one token can be revoked.
    pub jti: String,
    pub iat: i64,
    pub exp: i64,
    /// When the session began (renewals keep it).
    pub sat: i64,
    /// The account's session generation at issue; a password change moves
    /// the account on and so ends every older token.
    pub generation: i32,
    pub iss: String,
    pub kind: TokenKind,
    /// The session this token belongs to, kept when a session token is
    /// renewed, so that signing out ends every copy of it (empty in tokens
    /// issued before it existed: the session is then the token itself).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sid: String,
}

impl Claims {
    /// The session id: `sid`, or the token's own id when it has none.
    pub fn session_id(&self) -> &str {
        if self.sid.is_empty() {
            &self.jti
        } else {
            &self.sid
        }
    }

    /// When the session ends at the latest, whatever renewals happen.
    pub fn session_ends_at(&self) -> DateTime<Utc> {
        DateTime::from_timestamp(self.sat, 0).unwrap_or_default() + SESSION_MAX_AGE
    }

    pub fn account_id(&self) -> Option<i64> {
        self.sub.parse().ok()
    }

    pub fn issued_at(&self) -> DateTime<Utc> {
        DateTime::from_timestamp(self.iat, 0).unwrap_or_default()
    }

    pub fn expires_at(&self) -> DateTime<Utc> {
        DateTime::from_timestamp(self.exp, 0).unwrap_or_default()
    }

    /// Whether a session token should be replaced by a fresh one now.
    pub fn wants_renewal(&self, now: DateTime<Utc>) -> bool {
        self.kind == TokenKind::Session
            && now - self.issued_at() >= SESSION_RENEW_AFTER
            && now.timestamp() - self.sat < SESSION_MAX_AGE.num_seconds()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("the token is malformed or its signature is wrong")]
    Invalid,
    #[error("the token has expired")]
    Expired,
    #[error("the token could not be created: {0}")]
    Encode(String),
}

/// Whom a token is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenSubject {
    pub account_id: i64,
    pub generation: i32,
}

/// Signs and checks tokens.
#[derive(Clone)]
pub struct TokenSigner {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

impl std::fmt::Debug for TokenSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenSigner(***)")
    }
}

impl TokenSigner {
    /// The signing key is a labelled hash of the server secret.
    pub fn new(secret: &[u8]) -> Self {
        let mut hasher = Sha256::new();
        hasher.update(b"soulstone-jwt-hs256\0");
        hasher.update(secret);
        let key = hasher.finalize();
        Self {
            encoding: EncodingKey::from_secret(&key),
            decoding: DecodingKey::from_secret(&key),
        }
    }

    /// A new token for an account, starting a new session.
    pub fn issue(
        &self,
        subject: TokenSubject,
        kind: TokenKind,
        now: DateTime<Utc>,
        session_started: Option<DateTime<Utc>>,
    ) -> Result<(String, Claims), TokenError> {
        self.issue_in_session(subject, kind, now, session_started, None)
    }

    /// A new token in `session` (a renewal), or in a new session.
    pub fn issue_in_session(
        &self,
        subject: TokenSubject,
        kind: TokenKind,
        now: DateTime<Utc>,
        session_started: Option<DateTime<Utc>>,
        session: Option<&str>,
    ) -> Result<(String, Claims), TokenError> {
        let lifetime = match kind {
            TokenKind::Session => SESSION_LIFETIME,
            TokenKind::Api => API_TOKEN_LIFETIME,
            TokenKind::Device => DEVICE_LIFETIME,
        };
        let started = session_started.unwrap_or(now);
        let exp = match kind {
            TokenKind::Device => now + lifetime,
            TokenKind::Session | TokenKind::Api => {
                (now + lifetime).min((started + SESSION_MAX_AGE).max(now))
            }
        };
        let jti = super::random_token();
        let claims = Claims {
            sub: subject.account_id.to_string(),
            sid: session.unwrap_or(&jti).to_owned(),
            jti,
            iat: now.timestamp(),
            exp: exp.timestamp(),
            sat: started.timestamp(),
            generation: subject.generation,
            iss: ISSUER.to_owned(),
            kind,
        };
        let token = encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|err| TokenError::Encode(err.to_string()))?;
        Ok((token, claims))
    }

    /// Checks the signature, issuer and expiry (against `now`, no leeway).
    pub fn verify(&self, token: &str, now: DateTime<Utc>) -> Result<Claims, TokenError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.validate_exp = false;
        validation.set_required_spec_claims(&["exp", "iss", "sub"]);
        let claims = decode::<Claims>(token, &self.decoding, &validation)
            .map_err(|_| TokenError::Invalid)?
            .claims;
        if claims.exp <= now.timestamp() {
            return Err(TokenError::Expired);
        }
        Ok(claims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subject(account_id: i64) -> TokenSubject {
        TokenSubject {
            account_id,
            generation: 0,
        }
    }

    fn signer() -> TokenSigner {
        TokenSigner::new(b"0123456789abcdef0123456789abcdef")
    }

    #[test]
    fn issued_tokens_verify_until_they_expire() {
        let now = Utc::now();
        let (token, claims) = signer()
            .issue(subject(42), TokenKind::Session, now, None)
            .unwrap();
        let checked = signer().verify(&token, now).unwrap();
        assert_eq!(checked, claims);
        assert_eq!(checked.account_id(), Some(42));
        let later = now + SESSION_LIFETIME + Duration::seconds(1);
        assert_eq!(signer().verify(&token, later), Err(TokenError::Expired));
    }

    #[test]
    fn tampered_or_foreign_tokens_are_refused() {
        let now = Utc::now();
        let (token, _) = signer()
            .issue(subject(42), TokenKind::Api, now, None)
            .unwrap();
        let other = TokenSigner::new(b"another secret, also 32 bytes long!!");
        assert_eq!(other.verify(&token, now), Err(TokenError::Invalid));
        // Change the payload (account 42 → 43) but keep the signature.
        let mut parts: Vec<String> = token.split('.').map(str::to_owned).collect();
        use base64::Engine;
        let engine = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let payload = String::from_utf8(engine.decode(&parts[1]).unwrap()).unwrap();
        parts[1] = engine.encode(payload.replace("\"42\"", "\"43\""));
        assert_eq!(
            signer().verify(&parts.join("."), now),
            Err(TokenError::Invalid)
        );
        assert_eq!(signer().verify("garbage", now), Err(TokenError::Invalid));
    }

    #[test]
    fn renewal_is_due_after_a_while_but_never_past_the_maximum_age() {
        let start = Utc::now();
        let (_, claims) = signer()
            .issue(subject(1), TokenKind::Session, start, None)
            .unwrap();
        assert!(!claims.wants_renewal(start));
        assert!(claims.wants_renewal(start + SESSION_RENEW_AFTER));
        let late = start + SESSION_MAX_AGE - Duration::minutes(5);
        let (_, renewed) = signer()
            .issue(subject(1), TokenKind::Session, late, Some(start))
            .unwrap();
        assert!(renewed.exp <= (start + SESSION_MAX_AGE).timestamp());
        assert_eq!(renewed.sat, start.timestamp());
        assert!(!renewed.wants_renewal(start + SESSION_MAX_AGE));
    }
}
