//! 1st edition games as players start them: a ready crew each (from the
//! shipped book, hired by the quick reference's rules), played through the
//! same store and moves as the other systems. Its pages are the next step
//! (docs/first-edition.md).

use chrono::NaiveDateTime;
use soulstone_engine::bot::BotKind;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::first_edition::{Book, ConditionBook, FirstEdition, Setup};

use super::HostedError;
use super::store::create_practice;
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
}

/// The encounter two ready crews make.
fn encounter_for(
    book: &Book,
    conditions: &ConditionBook,
    crews: [&str; 2],
    seed: Bytes32,
) -> Result<Setup, HostedError> {
    let hire = |name: &str| {
        let list = book
            .crews()
            .iter()
            .find(|l| l.name == name)
            .ok_or_else(|| {
                HostedError::Invalid(format!("There is no ready crew called {name}."))
            })?;
        book.hire(list)
            .map_err(|problems| HostedError::Invalid(format!("{name}: {}", problems.join("; "))))
    };
    let hired = [hire(crews[0])?, hire(crews[1])?];
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
    let setup = encounter_for(
        book,
        conditions,
        [&request.crew, &request.bot_crew],
        request.seed,
    )?;
    create_practice::<FirstEdition>(
        conn,
        request.account_id,
        request.bot,
        request.time_control_ms,
        setup,
        now,
    )
}
