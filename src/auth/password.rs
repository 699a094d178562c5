//! Password hashing with Argon2id.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// OWASP's recommended Argon2id settings: 19 MiB, 2 passes, 1 lane. About
/// 30 ms per hash on this project's machines in a release build.
const MEMORY_KIB: u32 = 19 * 1024;
const ITERATIONS: u32 = 2;
const PARALLELISM: u32 = 1;

#[derive(Debug, thiserror::Error)]
#[error("password hashing failed: {0}")]
pub struct HashError(String);

fn hasher() -> Result<Argon2<'static>, HashError> {
    let params = Params::new(MEMORY_KIB, ITERATIONS, PARALLELISM, None)
        .map_err(|err| HashError(err.to_string()))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// Hashes a password with a fresh random salt (PHC string format).
pub fn hash_password(password: &str) -> Result<String, HashError> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    hasher()?
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|err| HashError(err.to_string()))
}

/// Checks a password against a stored hash; an unreadable hash never matches.
pub fn verify_password(password: &str, stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else {
        return false;
    };
    let Ok(argon) = hasher() else {
        return false;
    };
    argon.verify_password(password.as_bytes(), &parsed).is_ok()
}

/// A hash to verify against when the account does not exist, so a sign-in
/// for an unknown address takes as long as one for a known address.
pub fn decoy_hash() -> &'static str {
    "$argon2id$v=19$m=19456,t=2,p=1$c291bHN0b25lZGVjb3lzYWx0$3SdhWp4Pi0yZ0GwjRFN0kTsbqQnEcHVhRq5VPiyfD5c"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_salts_differ() {
        let a = hash_password("correct horse battery").unwrap();
        let b = hash_password("correct horse battery").unwrap();
        assert_ne!(a, b);
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert!(verify_password("correct horse battery", &a));
        assert!(!verify_password("wrong", &a));
        assert!(!verify_password("x", "not a hash"));
        assert!(!verify_password("x", decoy_hash()));
        assert!(PasswordHash::new(decoy_hash()).is_ok());
    }
}
