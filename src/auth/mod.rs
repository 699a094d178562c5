//! Authentication building blocks, free of HTTP and SQL: password hashing,
//! signed session tokens, CSRF tokens, single-use mail tokens, and the
//! validated inputs of the account forms.

pub mod csrf;
pub mod input;
pub mod password;
pub mod token;

use rand::RngCore;
use sha2::{Digest, Sha256};

/// A random, URL-safe token (hex of 32 random bytes).
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// What the database keeps of a mailed token: its SHA-256, never the token.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}
