//! Authentication building blocks, free of HTTP and SQL: password hashing,
//! signed session tokens, CSRF tokens, single-use mail tokens, venue
//! sign-up codes, and the validated inputs of the account forms.

pub mod csrf;
pub mod input;
pub mod password;
pub mod token;
pub mod venue;

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

/// An account whose email address is not confirmed yet may sign in, look
/// around, edit its profile, play practice games against the bots and ask
/// for the confirmation mail again. What others would see or rely on
/// (events, pools, registrations, staff places) waits for a confirmed
/// address, so nobody can act under an address they do not hold.
pub fn require_confirmed_address(confirmed: bool) -> Result<(), AddressNotConfirmed> {
    if confirmed {
        Ok(())
    } else {
        Err(AddressNotConfirmed)
    }
}

/// The refusal [`require_confirmed_address`] gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "Please confirm your email address first: open the link we mailed you (your account page sends it again)."
)]
pub struct AddressNotConfirmed;
