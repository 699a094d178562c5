//! Malifaux games as players start them: the crew lists each brings
//! (checked against the content and, in an event, its size and edition),
//! and the encounter they make, started as a practice game against a bot,
//! a casual game between two accounts, or an event pairing's game.

use chrono::NaiveDateTime;
use soulstone_engine::bot::BotKind;
use soulstone_engine::content::Catalog;
use soulstone_engine::content::crew::CrewList;
use soulstone_engine::encounter::{Brought, GivenScenario, new_encounter_in};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::state::NewGame;
use soulstone_engine::system::Malifaux;

use super::store::{Creation, create, create_practice};
use super::{HostedError, HostedKind, SeatHolder};
use crate::content::ContentStamp;
use crate::db::DbConnection;

/// A crew list a player brings, under a name of their choosing.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct BroughtList {
    pub name: String,
    pub list: CrewList,
}

/// Crew lists one player may bring to a game at most.
pub const MAX_BROUGHT_LISTS: usize = 5;

/// Checks what a player brings: one to five lists, each hiring legally
/// with the content (and, where a size or an edition is given, hired for
/// it: an event's). The message names the list and what is wrong.
pub fn check_brought(
    catalog: &Catalog,
    lists: &[BroughtList],
    size: Option<u8>,
    edition: Option<soulstone_engine::Edition>,
) -> Result<(), String> {
    use soulstone_engine::content::crew::MAX_LIST_MODELS;
    if lists.is_empty() || lists.len() > MAX_BROUGHT_LISTS {
        return Err(format!("Bring 1 to {MAX_BROUGHT_LISTS} crew lists."));
    }
    for brought in lists {
        if brought.list.models.len() > MAX_LIST_MODELS {
            return Err(format!("{}: that list is far too long.", brought.name));
        }
        if let Some(edition) = edition
            && brought.list.edition != edition
        {
            return Err(format!(
                "{} is a {} list; this game plays {}.",
                brought.name,
                brought.list.edition.name(),
                edition.name()
            ));
        }
        if let Err(problems) = brought.list.hire(catalog) {
            let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
            return Err(format!("{}: {}", brought.name, text.join("; ")));
        }
        if let Some(size) = size
            && brought.list.size != size
        {
            return Err(format!(
                "{} is hired for {} soulstones; this game plays {size}.",
                brought.name, brought.list.size
            ));
        }
    }
    Ok(())
}

/// A practice game as a player asks for it: they sit in seat A with the
/// lists they bring; the bot sits in seat B with its own.
#[derive(Debug, Clone)]
pub struct PracticeRequest {
    pub account_id: i64,
    pub lists: Vec<BroughtList>,
    pub bot: BotKind,
    pub bot_lists: Vec<BroughtList>,
    /// The server seed (random for a real game).
    pub seed: Bytes32,
    /// Each player's time for the game (none: untimed).
    pub time_control_ms: Option<i64>,
    /// The hashes of the content `catalog` is.
    pub content: ContentStamp,
}

/// The encounter two players' brought lists make, from `seed`.
fn encounter_for(
    catalog: &Catalog,
    lists: [&[BroughtList]; 2],
    seed: Bytes32,
    scenario: Option<&GivenScenario>,
) -> Result<NewGame, HostedError> {
    let brought = lists.map(|lists| {
        lists
            .iter()
            .map(|b| Brought {
                name: &b.name,
                list: &b.list,
            })
            .collect::<Vec<_>>()
    });
    new_encounter_in(catalog, [&brought[0], &brought[1]], seed, None, scenario)
        .map_err(|e| HostedError::Invalid(e.to_string()))
}

/// Starts a practice game; the bot plays until the game waits for the
/// player.
pub fn start_practice(
    conn: &mut DbConnection,
    catalog: &Catalog,
    request: &PracticeRequest,
    now: NaiveDateTime,
) -> Result<i64, HostedError> {
    let setup = encounter_for(
        catalog,
        [&request.lists, &request.bot_lists],
        request.seed,
        None,
    )?;
    create_practice::<Malifaux>(
        conn,
        request.account_id,
        request.bot,
        request.time_control_ms,
        &request.content,
        setup,
        now,
    )
}

/// Starts the game deciding an event pairing, once both players have
/// brought their crews (`event_games` says when).
pub fn start_for_pairing(
    conn: &mut DbConnection,
    catalog: &Catalog,
    pairing: &PairingStart<'_>,
    now: NaiveDateTime,
) -> Result<i64, HostedError> {
    let PairingStart {
        pairing_game_id,
        accounts,
        lists,
        seed,
        time_control_ms,
        scenario,
        content,
    } = *pairing;
    let setup = encounter_for(catalog, lists, seed, scenario)?;
    let seats = accounts.map(SeatHolder::Account);
    create::<Malifaux>(
        conn,
        Creation {
            kind: HostedKind::Event,
            pairing_game_id: Some(pairing_game_id),
            seats,
            time_control_ms,
            content,
        },
        setup,
        now,
    )
}

/// A game between two accounts, outside any event: the inviter in seat A.
#[derive(Debug, Clone, Copy)]
pub struct CasualStart<'a> {
    pub accounts: [i64; 2],
    pub lists: [&'a [BroughtList]; 2],
    pub seed: Bytes32,
    pub time_control_ms: Option<i64>,
    /// The hashes of the content the catalog is.
    pub content: &'a ContentStamp,
}

/// Starts a game between two accounts, outside any event.
pub fn start_casual(
    conn: &mut DbConnection,
    catalog: &Catalog,
    game: &CasualStart<'_>,
    now: NaiveDateTime,
) -> Result<i64, HostedError> {
    let setup = encounter_for(catalog, game.lists, game.seed, None)?;
    create::<Malifaux>(
        conn,
        Creation::between(game.accounts, None, game.time_control_ms, game.content),
        setup,
        now,
    )
}

/// An event pairing's game, as `event_games` starts it.
#[derive(Debug, Clone, Copy)]
pub struct PairingStart<'a> {
    pub pairing_game_id: i64,
    pub accounts: [i64; 2],
    pub lists: [&'a [BroughtList]; 2],
    pub seed: Bytes32,
    pub time_control_ms: Option<i64>,
    /// The round's scenario for this table (none: the game flips its own).
    pub scenario: Option<&'a GivenScenario>,
    /// The hashes of the content the catalog is.
    pub content: &'a ContentStamp,
}
