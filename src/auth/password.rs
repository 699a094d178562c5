//! Password hashing with Argon2id, on workers of its own.
//!
//! Each hash takes about 19 MiB and a core's time. A flood of sign-ins must
//! not take the server's memory or its database threads with it, so the
//! server's password work runs on [`PasswordWorkers`]: a few threads of
//! their own (one core is left for the pages), each keeping one Argon2
//! memory block for every run, fed by a bounded queue. Callers wait
//! without holding a thread; past the queue's bound they are told the
//! server is busy. Memory for password work is then at most one block per
//! worker, however long the flood.

use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{ARGON2ID_IDENT, Algorithm, Argon2, Block, Params, Version};
use tokio::sync::{mpsc, oneshot};

/// OWASP's recommended Argon2id settings: 19 MiB, 2 passes, 1 lane. About
/// 30 ms per hash on this project's machines in a release build.
const MEMORY_KIB: u32 = 19 * 1024;
const ITERATIONS: u32 = 2;
const PARALLELISM: u32 = 1;
/// A stored hash asking for more memory than this is not checked (ours ask
/// for 19 MiB): a worker's block never grows past it.
const MAX_MEMORY_KIB: u32 = 64 * 1024;
/// Password checks that may wait for each worker; more are refused as
/// busy. At about 30 ms a check, a full queue is a few seconds' work.
pub const MAX_QUEUED_PER_THREAD: usize = 128;

#[derive(Debug, thiserror::Error)]
pub enum HashError {
    #[error("password hashing failed: {0}")]
    Failed(String),
    /// Too many password checks are waiting already.
    #[error("the server is busy checking passwords")]
    Busy,
}

fn our_params() -> Result<Params, HashError> {
    Params::new(MEMORY_KIB, ITERATIONS, PARALLELISM, None)
        .map_err(|err| HashError::Failed(err.to_string()))
}

/// Hashes a password with a fresh random salt (PHC string format), using
/// (and growing if need be) `memory` as Argon2's working memory.
fn hash_with(memory: &mut Vec<Block>, password: &str) -> Result<String, HashError> {
    let failed = |err: &dyn std::fmt::Display| HashError::Failed(err.to_string());
    let params = our_params()?;
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    let mut salt_bytes = [0u8; 64];
    let salt_bytes = salt
        .as_salt()
        .decode_b64(&mut salt_bytes)
        .map_err(|e| failed(&e))?;
    let mut output = [0u8; Params::DEFAULT_OUTPUT_LEN];
    run(
        memory,
        &Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone()),
        &params,
        password,
        salt_bytes,
        &mut output,
    )
    .map_err(|e| failed(&e))?;
    let hash = PasswordHash {
        algorithm: ARGON2ID_IDENT,
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(|e| failed(&e))?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&output).map_err(|e| failed(&e))?),
    };
    Ok(hash.to_string())
}

/// Checks a password against a stored hash with `memory` as Argon2's
/// working memory; an unreadable hash, or one asking for more memory than
/// a worker keeps, never matches.
fn verify_with(memory: &mut Vec<Block>, password: &str, stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(parsed.algorithm) else {
        return false;
    };
    let version = match parsed.version.map(Version::try_from).transpose() {
        Ok(version) => version.unwrap_or_default(),
        Err(_) => return false,
    };
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    if params.m_cost() > MAX_MEMORY_KIB {
        return false;
    }
    let mut salt_bytes = [0u8; 64];
    let Ok(salt_bytes) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    let mut output = vec![0u8; expected.len()];
    let argon = Argon2::new(algorithm, version, params.clone());
    if run(memory, &argon, &params, password, salt_bytes, &mut output).is_err() {
        return false;
    }
    // `Output` compares in constant time.
    Output::new(&output).is_ok_and(|computed| computed == expected)
}

fn run(
    memory: &mut Vec<Block>,
    argon: &Argon2<'_>,
    params: &Params,
    password: &str,
    salt: &[u8],
    output: &mut [u8],
) -> argon2::Result<()> {
    if memory.len() < params.block_count() {
        memory.resize(params.block_count(), Block::default());
    }
    argon.hash_password_into_with_memory(password.as_bytes(), salt, output, &mut memory[..])
}

/// Hashes a password on the calling thread (the command line; the server
/// hashes on [`PasswordWorkers`]).
pub fn hash_password(password: &str) -> Result<String, HashError> {
    hash_with(&mut Vec::new(), password)
}

/// Checks a password on the calling thread (tests; the server checks on
/// [`PasswordWorkers`]).
pub fn verify_password(password: &str, stored: &str) -> bool {
    verify_with(&mut Vec::new(), password, stored)
}

/// How many threads hash passwords: one per core but one, so a flood of
/// sign-ins leaves a core for everything else, and at least one.
pub fn password_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .saturating_sub(1)
        .max(1)
}

enum Job {
    Hash {
        password: String,
        reply: oneshot::Sender<Result<String, HashError>>,
    },
    Verify {
        password: String,
        stored: String,
        reply: oneshot::Sender<bool>,
    },
}

/// The threads that hash and check passwords, and their bounded queue.
pub struct PasswordWorkers {
    jobs: mpsc::Sender<Job>,
}

/// The server's password workers, started on first use.
pub static PASSWORD_WORKERS: LazyLock<PasswordWorkers> = LazyLock::new(|| {
    let threads = password_threads();
    PasswordWorkers::start(threads, threads * MAX_QUEUED_PER_THREAD)
});

impl PasswordWorkers {
    /// Starts `threads` workers with room for `queued` waiting jobs.
    pub fn start(threads: usize, queued: usize) -> Self {
        let (jobs, waiting) = mpsc::channel::<Job>(queued.max(1));
        // One worker waits on the queue at a time; the others wait for the
        // lock, then for the next job.
        let waiting = Arc::new(Mutex::new(waiting));
        for n in 0..threads.max(1) {
            let waiting = Arc::clone(&waiting);
            let spawned = std::thread::Builder::new()
                .name(format!("password-{n}"))
                .spawn(move || {
                    let mut memory = Vec::new();
                    loop {
                        let job = waiting
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .blocking_recv();
                        let Some(job) = job else { return };
                        // A caller that went away is not an error.
                        match job {
                            Job::Hash { password, reply } => {
                                let _ = reply.send(hash_with(&mut memory, &password));
                            }
                            Job::Verify {
                                password,
                                stored,
                                reply,
                            } => {
                                let _ = reply.send(verify_with(&mut memory, &password, &stored));
                            }
                        }
                    }
                });
            if let Err(err) = spawned {
                tracing::error!(%err, "could not start a password worker");
            }
        }
        Self { jobs }
    }

    fn submit(&self, job: Job) -> Result<(), HashError> {
        self.jobs.try_send(job).map_err(|_| HashError::Busy)
    }

    /// Hashes a new password with a fresh salt.
    pub async fn hash(&self, password: String) -> Result<String, HashError> {
        let (reply, answer) = oneshot::channel();
        self.submit(Job::Hash { password, reply })?;
        answer
            .await
            .map_err(|_| HashError::Failed("the password worker stopped".into()))?
    }

    /// Checks a password against a stored hash.
    pub async fn verify(&self, password: String, stored: String) -> Result<bool, HashError> {
        let (reply, answer) = oneshot::channel();
        self.submit(Job::Verify {
            password,
            stored,
            reply,
        })?;
        answer
            .await
            .map_err(|_| HashError::Failed("the password worker stopped".into()))
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
    use argon2::{PasswordHasher, PasswordVerifier};

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

    /// Hashes made with the crate's own hasher (as every stored hash was
    /// before the workers) verify here, and ours verify there.
    #[test]
    fn hashes_agree_with_the_crates_own_hasher() {
        let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, our_params().unwrap());
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        let theirs = argon
            .hash_password(b"hunter two", &salt)
            .unwrap()
            .to_string();
        let mut memory = Vec::new();
        assert!(verify_with(&mut memory, "hunter two", &theirs));
        assert!(!verify_with(&mut memory, "hunter three", &theirs));
        let ours = hash_with(&mut memory, "hunter two").unwrap();
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(argon.verify_password(b"hunter two", &parsed).is_ok());
        assert!(argon.verify_password(b"hunter 2", &parsed).is_err());
        // The block was made once and kept.
        assert_eq!(memory.len(), our_params().unwrap().block_count());
    }

    /// A hash asking for more memory than a worker keeps never matches.
    #[test]
    fn a_hash_asking_for_too_much_memory_is_not_checked() {
        let params = Params::new(MAX_MEMORY_KIB + 1024, 1, 1, None).unwrap();
        let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params);
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        let big = argon.hash_password(b"pw", &salt).unwrap().to_string();
        assert!(!verify_password("pw", &big));
    }

    /// One worker, room for two waiting: a burst gets two answers beyond
    /// the one being worked on, and the rest are refused as busy at once.
    #[test]
    fn the_queue_is_bounded_and_the_overflow_is_busy() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let workers = PasswordWorkers::start(1, 2);
            let stored = hash_password("right").unwrap();
            let checks: Vec<_> = (0..8)
                .map(|_| workers.verify("right".into(), stored.clone()))
                .collect();
            let answers = futures_util::future::join_all(checks).await;
            let busy = answers
                .iter()
                .filter(|a| matches!(a, Err(HashError::Busy)))
                .count();
            let matched = answers.iter().filter(|a| matches!(a, Ok(true))).count();
            assert_eq!(busy + matched, 8, "{answers:?}");
            assert!((2..=3).contains(&matched), "{answers:?}");
            assert!(workers.hash("new".into()).await.is_ok());
        });
    }
}
