//! Mage Knight games as players start them: an army each (a ready army or
//! one of their own, checked against the shipped warriors), the
//! battlefield's terrain from the seed, played through the same store and
//! moves as Malifaux.

use chrono::NaiveDateTime;
use soulstone_engine::bot::BotKind;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::mage_knight::content::{ArmyList, Roster};
use soulstone_engine::mage_knight::game::STANDARD_ROUNDS;
use soulstone_engine::mage_knight::placing::laid_before;
use soulstone_engine::mage_knight::{Army, MageKnight, Setup};

use super::HostedError;
use super::store::{Creation, create, create_practice};
use crate::content::ContentStamp;
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
    /// The hashes of the server's content.
    pub content: ContentStamp,
}

/// A ready army by its name.
pub fn ready_army<'r>(roster: &'r Roster, name: &str) -> Result<&'r ArmyList, HostedError> {
    roster
        .army_list(name)
        .ok_or_else(|| HostedError::Invalid(format!("There is no ready army called {name}.")))
}

/// The army `list` fields: with the shipped warriors, within its own
/// build total and within `build_total` when one is set (an event's).
fn fielded(roster: &Roster, list: &ArmyList, build_total: Option<u16>) -> Result<Army, String> {
    let army = roster
        .field(list)
        .map_err(|e| format!("{}: {e}", list.name))?;
    match build_total.and_then(|total| army.problem(total)) {
        Some(problem) => Err(format!("{}: {problem}", list.name)),
        None => Ok(army),
    }
}

/// Why `list` cannot be fielded at `build_total`, if it cannot.
pub fn check_army(
    roster: &Roster,
    list: &ArmyList,
    build_total: Option<u16>,
) -> Result<(), String> {
    fielded(roster, list, build_total).map(|_| ())
}

/// The game two armies make, on terrain from `seed`, played to the larger
/// of their build totals (or `build_total`, an event's, when set).
fn battle_for(
    roster: &Roster,
    armies: [&ArmyList; 2],
    build_total: Option<u16>,
    seed: Bytes32,
) -> Result<Setup, HostedError> {
    let field = |list: &ArmyList| fielded(roster, list, build_total).map_err(HostedError::Invalid);
    let fielded = [field(armies[0])?, field(armies[1])?];
    let mut terrain_seed = [0u8; 8];
    terrain_seed.copy_from_slice(&seed.0[..8]);
    Ok(Setup {
        seed,
        build_total: build_total
            .unwrap_or_else(|| armies[0].build_total.max(armies[1].build_total)),
        rounds: STANDARD_ROUNDS,
        terrain: laid_before(&fielded, u64::from_le_bytes(terrain_seed)),
        armies: fielded,
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
    let armies = [
        ready_army(roster, &request.army)?,
        ready_army(roster, &request.bot_army)?,
    ];
    let setup = battle_for(roster, armies, None, request.seed)?;
    create_practice::<MageKnight>(
        conn,
        request.account_id,
        request.bot,
        request.time_control_ms,
        &request.content,
        setup,
        now,
    )
}

/// A Mage Knight game between two accounts: an event pairing's (its
/// player A in seat A, at the event's build total) or a casual one by
/// invitation (the inviter in seat A).
#[derive(Debug, Clone, Copy)]
pub struct ArmyGame<'a> {
    /// The event pairing it decides (none: a casual game).
    pub pairing_game_id: Option<i64>,
    pub accounts: [i64; 2],
    pub armies: [&'a ArmyList; 2],
    /// The event's build total (none: the larger of the armies' own).
    pub build_total: Option<u16>,
    pub seed: Bytes32,
    pub time_control_ms: Option<i64>,
    /// The hashes of the server's content.
    pub content: &'a ContentStamp,
}

/// Starts a game between two accounts; an event pairing's reports its end
/// to the event like a Malifaux game's.
pub fn start_army_game(
    conn: &mut DbConnection,
    roster: &Roster,
    game: &ArmyGame<'_>,
    now: NaiveDateTime,
) -> Result<i64, HostedError> {
    let setup = battle_for(roster, game.armies, game.build_total, game.seed)?;
    create::<MageKnight>(
        conn,
        Creation::between(
            game.accounts,
            game.pairing_game_id,
            game.time_control_ms,
            game.content,
        ),
        setup,
        now,
    )
}
