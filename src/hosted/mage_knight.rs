//! Mage Knight games as players start them: a ready army each (checked
//! against the shipped warriors), the battlefield's terrain from the seed,
//! played through the same store and moves as Malifaux.

use chrono::NaiveDateTime;
use soulstone_engine::bot::BotKind;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::mage_knight::battlefield::seeded_terrain;
use soulstone_engine::mage_knight::content::Roster;
use soulstone_engine::mage_knight::game::STANDARD_ROUNDS;
use soulstone_engine::mage_knight::{MageKnight, Setup};

use super::HostedError;
use super::store::create_practice;
use crate::db::DbConnection;

/// A Mage Knight practice game: the player in seat A with a ready army,
/// the bot in seat B with another.
#[derive(Debug, Clone)]
pub struct ArmyPractice {
    pub account_id: i64,
    /// A ready army's name (`content/mk/armies`).
    pub army: String,
    pub bot: BotKind,
    pub bot_army: String,
    /// The server seed (random for a real game); the terrain comes from it.
    pub seed: Bytes32,
    pub time_control_ms: Option<i64>,
}

/// The game two ready armies make, on terrain from `seed`.
fn battle_for(roster: &Roster, armies: [&str; 2], seed: Bytes32) -> Result<Setup, HostedError> {
    let field = |name: &str| {
        let list = roster.army_list(name).ok_or_else(|| {
            HostedError::Invalid(format!("There is no ready army called {name}."))
        })?;
        let army = roster
            .field(list)
            .map_err(|e| HostedError::Invalid(format!("{name}: {e}")))?;
        Ok::<_, HostedError>((army, list.build_total))
    };
    let (a, a_total) = field(armies[0])?;
    let (b, b_total) = field(armies[1])?;
    let mut terrain_seed = [0u8; 8];
    terrain_seed.copy_from_slice(&seed.0[..8]);
    Ok(Setup {
        seed,
        build_total: a_total.max(b_total),
        rounds: STANDARD_ROUNDS,
        armies: [a, b],
        terrain: seeded_terrain(u64::from_le_bytes(terrain_seed)),
    })
}

/// Starts a Mage Knight practice game; the bot plays until the game waits
/// for the player.
pub fn start_army_practice(
    conn: &mut DbConnection,
    roster: &Roster,
    request: &ArmyPractice,
    now: NaiveDateTime,
) -> Result<i64, HostedError> {
    let setup = battle_for(roster, [&request.army, &request.bot_army], request.seed)?;
    create_practice::<MageKnight>(
        conn,
        request.account_id,
        request.bot,
        request.time_control_ms,
        setup,
        now,
    )
}
