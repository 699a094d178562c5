//! Sealing a finished game's log: the server signs the log's chain
//! (`GameLog::chain`, a hash over its setup, every fact and every command)
//! with an ed25519 key derived from the server secret, so a log cut short
//! or edited after it was downloaded no longer matches its seal, and
//! anyone holding the server's public key can check a log from it.
//! Instances that share the secret share the key; changing the secret
//! changes the key (docs/play.md, "Verifying a game").

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use sha2::{Digest, Sha256};
use soulstone_engine::log::{GameLog, Seal};

/// The server's log-signing key.
#[derive(Clone)]
pub struct LogSigner {
    key: SigningKey,
}

impl std::fmt::Debug for LogSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LogSigner({})", self.public_key_hex())
    }
}

impl LogSigner {
    /// The key for `secret`, derived under a label of its own so it is
    /// never the key anything else is signed with.
    pub fn from_secret(secret: &[u8]) -> Self {
        let seed: [u8; 32] = Sha256::new()
            .chain_update(b"soulstone log seal v1\0")
            .chain_update(secret)
            .finalize()
            .into();
        Self {
            key: SigningKey::from_bytes(&seed),
        }
    }

    /// The public key, 32 bytes in hex: what a log's seal must name.
    pub fn public_key_hex(&self) -> String {
        hex::encode(self.key.verifying_key().to_bytes())
    }

    /// Seals `log` as it stands (replacing any seal it had).
    pub fn seal(&self, log: &mut GameLog) {
        log.seal = None;
        let chain = log.chain();
        let signature = self.key.sign(&chain);
        log.seal = Some(Seal {
            key: self.public_key_hex(),
            chain: hex::encode(chain),
            signature: hex::encode(signature.to_bytes()),
        });
    }
}

/// What a log's seal shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SealCheck {
    /// The seal holds, signed by this key (hex).
    Signed { key: String },
    /// The log carries no seal: nothing shows whether it was cut short.
    Unsealed,
}

/// Checks `log`'s seal: its chain must be the log's own and its signature
/// the key's; with `trusted`, the key must be that one (hex). Why not, in
/// words, if it does not hold.
pub fn check_seal(log: &GameLog, trusted: Option<&str>) -> Result<SealCheck, String> {
    let Some(seal) = &log.seal else {
        return match trusted {
            Some(_) => Err("the log carries no seal, so nothing shows it is whole".into()),
            None => Ok(SealCheck::Unsealed),
        };
    };
    if let Some(trusted) = trusted
        && !seal.key.eq_ignore_ascii_case(trusted.trim())
    {
        return Err(format!(
            "the log is sealed with the key {}, not with {}",
            seal.key,
            trusted.trim()
        ));
    }
    let chain = log.chain();
    if !seal.chain.eq_ignore_ascii_case(&hex::encode(chain)) {
        return Err(
            "the log's facts, commands or setup are not the ones it was sealed with: it was edited or cut short after sealing"
                .into(),
        );
    }
    let key_bytes: [u8; 32] = hex::decode(&seal.key)
        .ok()
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or("the seal's key is not 32 bytes of hex")?;
    let key = VerifyingKey::from_bytes(&key_bytes)
        .map_err(|_| "the seal's key is not an ed25519 public key".to_string())?;
    let signature_bytes: [u8; 64] = hex::decode(&seal.signature)
        .ok()
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or("the seal's signature is not 64 bytes of hex")?;
    key.verify(&chain, &Signature::from_bytes(&signature_bytes))
        .map_err(|_| "the seal's signature does not match its key".to_string())?;
    Ok(SealCheck::Signed {
        key: seal.key.clone(),
    })
}

/// What playing `log`'s commands through the rules again showed, in
/// words, or where they part from its facts.
pub fn commands_replayed(log: &GameLog) -> Result<String, String> {
    use soulstone_engine::log::CommandReplay;
    match log.replay_commands().map_err(|e| e.to_string())? {
        CommandReplay::Same { commands, state } => Ok(format!(
            "its {commands} commands, played through the rules again, make every fact it holds ({})",
            score_words(&state)
        )),
        CommandReplay::NoCommands => Ok(
            "it keeps no commands (stored before they were kept): its facts alone were replayed"
                .into(),
        ),
        CommandReplay::OtherRules { rules_version } => Ok(format!(
            "its commands are not played again: rules version {rules_version} adjudicated it, and this server runs {}",
            soulstone_engine::log::RULES_VERSION
        )),
    }
}

fn score_words(state: &soulstone_engine::GameState) -> String {
    let vp = |seat: soulstone_engine::Seat| state.player(seat).victory_points;
    format!(
        "Player A {} VP, Player B {} VP",
        vp(soulstone_engine::Seat::A),
        vp(soulstone_engine::Seat::B)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_secret_one_key_and_another_secret_another() {
        let a = LogSigner::from_secret(b"a server secret of thirty-two bytes");
        let again = LogSigner::from_secret(b"a server secret of thirty-two bytes");
        let b = LogSigner::from_secret(b"another server secret, also long!!");
        assert_eq!(a.public_key_hex(), again.public_key_hex());
        assert_ne!(a.public_key_hex(), b.public_key_hex());
        assert_eq!(a.public_key_hex().len(), 64);
    }
}
