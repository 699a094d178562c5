//! 1st edition games as players start them: a crew each (a ready one
//! from the shipped book, or one of their own, hired by the quick
//! reference's rules), played through the same store and moves as the
//! other systems: practice against a bot, an event's pairing, or a game by
//! invitation.

use chrono::NaiveDateTime;
use soulstone_engine::bot::BotKind;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::first_edition::{
    Book, ConditionBook, Crew, CrewList, Encounter, FirstEdition, Setup,
};

use super::HostedError;
use super::store::{Creation, create, create_practice};
use crate::content::ContentStamp;
use crate::db::DbConnection;

/// A 1st edition practice game: the player in seat A with a ready crew,
/// the bot in seat B with another.
#[derive(Debug, Clone)]
pub struct CrewPractice {
    pub account_id: i64,
    /// A ready crew's name (`content/m1e/crews`).
    pub crew: String,
    pub bot: BotKind,
    pub bot_crew: String,
    /// The server seed (random for a real game).
    pub seed: Bytes32,
    pub time_control_ms: Option<i64>,
    /// The hashes of the server's content.
    pub content: ContentStamp,
}

/// A ready crew by its name.
pub fn ready_crew<'b>(book: &'b Book, name: &str) -> Result<&'b CrewList, HostedError> {
    book.crews()
        .iter()
        .find(|l| l.name == name)
        .ok_or_else(|| HostedError::Invalid(format!("There is no ready crew called {name}.")))
}

/// The crew `list` hires, at `encounter` when one is set (an event's size
/// and soulstones, which the list is hired at whatever its own say), or
/// why it cannot be hired, with the list's name.
pub fn hire_for(
    book: &Book,
    list: &CrewList,
    encounter: Option<(Encounter, u8)>,
) -> Result<Crew, String> {
    let mut list = list.clone();
    if let Some((size, soulstones)) = encounter {
        if list.encounter != size {
            return Err(format!(
                "{} is for a {}, and this game is a {size_name} of {soulstones} soulstones: bring a crew for a {size_name}.",
                list.name,
                list.encounter.name(),
                size_name = size.name(),
            ));
        }
        list.soulstones = soulstones;
    }
    book.hire(&list)
        .map_err(|problems| format!("{}: {}", list.name, problems.join("; ")))
}

/// The encounter two hired crews make.
fn encounter_for(
    book: &Book,
    conditions: &ConditionBook,
    hired: [Crew; 2],
    seed: Bytes32,
) -> Result<Setup, HostedError> {
    if hired[0].encounter != hired[1].encounter {
        return Err(HostedError::Invalid(format!(
            "{} is for a {} and {} for a {}.",
            hired[0].name,
            hired[0].encounter.name(),
            hired[1].name,
            hired[1].encounter.name()
        )));
    }
    Ok(Setup {
        encounter: hired[0].encounter,
        crews: hired,
        summonable: book.models().cloned().collect(),
        conditions: conditions.clone(),
        seed,
    })
}

/// Starts a 1st edition practice game; the bot plays until the game waits
/// for the player.
pub fn start_crew_practice(
    conn: &mut DbConnection,
    book: &Book,
    conditions: &ConditionBook,
    request: &CrewPractice,
    now: NaiveDateTime,
) -> Result<i64, HostedError> {
    let hire =
        |name: &str| hire_for(book, ready_crew(book, name)?, None).map_err(HostedError::Invalid);
    let hired = [hire(&request.crew)?, hire(&request.bot_crew)?];
    let setup = encounter_for(book, conditions, hired, request.seed)?;
    create_practice::<FirstEdition>(
        conn,
        request.account_id,
        request.bot,
        request.time_control_ms,
        &request.content,
        setup,
        now,
    )
}

/// A 1st edition game between two accounts: an event pairing's (its
/// player A in seat A, at the event's encounter) or one by invitation (the
/// inviter in seat A, at the inviter's encounter).
#[derive(Debug, Clone, Copy)]
pub struct CrewGame<'a> {
    /// The event pairing it decides (none: a casual game).
    pub pairing_game_id: Option<i64>,
    pub accounts: [i64; 2],
    pub crews: [&'a CrewList; 2],
    /// The event's size and soulstones (none: the first crew's).
    pub encounter: Option<(Encounter, u8)>,
    pub seed: Bytes32,
    pub time_control_ms: Option<i64>,
    /// The hashes of the server's content.
    pub content: &'a ContentStamp,
}

/// Starts a 1st edition game between two accounts; an event pairing's
/// reports its end to the event like every system's.
pub fn start_crew_game(
    conn: &mut DbConnection,
    book: &Book,
    conditions: &ConditionBook,
    game: &CrewGame<'_>,
    now: NaiveDateTime,
) -> Result<i64, HostedError> {
    // Without an event's, the inviter's crew sets the encounter: the one
    // accepting is hired at it.
    let encounter = game
        .encounter
        .unwrap_or((game.crews[0].encounter, game.crews[0].soulstones));
    let hire =
        |list: &CrewList| hire_for(book, list, Some(encounter)).map_err(HostedError::Invalid);
    let hired = [hire(game.crews[0])?, hire(game.crews[1])?];
    let setup = encounter_for(book, conditions, hired, game.seed)?;
    create::<FirstEdition>(
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
