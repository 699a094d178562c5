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
    let _turn = ARGON2_WORK.enter();
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
    let _turn = ARGON2_WORK.enter();
    argon.verify_password(password.as_bytes(), &parsed).is_ok()
}

/// Argon2 runs at most once per core at once in the whole process: each
/// run takes about 19 MiB and a core's time, so a flood of password checks
/// queues here instead of exhausting the server's memory or starving the
/// request workers of CPU.
pub fn max_concurrent_hashes() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

static ARGON2_WORK: std::sync::LazyLock<WorkLimit> =
    std::sync::LazyLock::new(|| WorkLimit::new(max_concurrent_hashes()));

/// A counting limit on concurrent work (a blocking semaphore: password
/// hashing runs on blocking threads, never on the async executor).
pub struct WorkLimit {
    running: std::sync::Mutex<usize>,
    freed: std::sync::Condvar,
    limit: usize,
}

/// One turn of limited work; the turn ends when this is dropped.
pub struct Turn<'a>(&'a WorkLimit);

impl WorkLimit {
    pub const fn new(limit: usize) -> Self {
        Self {
            running: std::sync::Mutex::new(0),
            freed: std::sync::Condvar::new(),
            limit,
        }
    }

    /// Waits for a turn.
    pub fn enter(&self) -> Turn<'_> {
        // A poisoned lock only means another hash panicked; the count is
        // still right, so carry on with it.
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        while *running >= self.limit {
            running = self.freed.wait(running).unwrap_or_else(|e| e.into_inner());
        }
        *running += 1;
        Turn(self)
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut running = self.0.running.lock().unwrap_or_else(|e| e.into_inner());
        *running -= 1;
        self.0.freed.notify_one();
    }
}

/// A hash to verify against when the account does not exist, so a sign-in
/// for an unknown address takes as long as one for a known address.
pub fn decoy_hash() -> &'static str {
    "$argon2id$v=19$m=19456,t=2,p=1$c291bHN0b25lZGVjb3lzYWx0$3SdhWp4Pi0yZ0GwjRFN0kTsbqQnEcHVhRq5VPiyfD5c"
}

#[cfg(test)]
mod tests {
    use super::*;

    /// However many threads hash at once, at most the limit run together.
    #[test]
    fn the_work_limit_holds_under_many_threads() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static LIMIT: WorkLimit = WorkLimit::new(2);
        static NOW: AtomicUsize = AtomicUsize::new(0);
        static MOST: AtomicUsize = AtomicUsize::new(0);
        let threads: Vec<_> = (0..16)
            .map(|_| {
                std::thread::spawn(|| {
                    let _turn = LIMIT.enter();
                    let now = NOW.fetch_add(1, Ordering::SeqCst) + 1;
                    MOST.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    NOW.fetch_sub(1, Ordering::SeqCst);
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        assert_eq!(MOST.load(Ordering::SeqCst), 2);
    }

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
