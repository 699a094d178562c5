//! An event's games hosted here: the organisers mark a round's pairings as
//! digital; each player brings their crew lists or army, secret until both
//! are in (`super::bringing`); then the pairing's hosted game starts, and
//! its final score becomes the result by itself
//! (`events::results::record_engine_result`). League
//! games started by invitation follow the league's rules. Hosting uses the
//! events, never the other way round.

use crate::events::{GameStatus, RegistrationStatus, RoundStatus};

use crate::db::events::{self as db_events, GameRow, Registration};
use crate::db::hosted as db_hosted;
use crate::db::{DbConnection, WriteTransaction};
use crate::events::{Access, Ctx, EventError, EventStatus, EventView};
use crate::hosted;
use crate::systems::GameSystem;

pub use super::bringing::{Bringing, bring};
pub use super::brought::{Brought, Content, Limits};
use soulstone_engine::first_edition::Encounter;

/// Where a digital pairing stands, as one of its players (or staff) sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DigitalState {
    /// Played at a table, reported as usual.
    NotDigital,
    /// Waiting for crews: whether each side has brought theirs, and the
    /// names of the lists the viewer brought (only their own).
    Waiting {
        brought: [bool; 2],
        mine: Vec<String>,
    },
    /// The hosted game is under way (or over).
    Started { hosted_game_id: i64 },
}

/// Marks the round's pairings (byes and settled results aside, and games
/// whose players have no account to play with) as played in the browser.
/// Returns how many were marked and how many could not be.
pub fn play_round_digitally(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    number: i32,
    ctx: &Ctx<'_>,
) -> Result<(usize, usize), EventError> {
    require_digital_play(access)?;
    conn.write_transaction(|conn| {
        let round = db_events::list_rounds(conn, view.id())?
            .into_iter()
            .find(|r| r.number == number)
            .ok_or(EventError::NotFound)?;
        require_published(&round)?;
        let (mut marked, mut skipped) = (0, 0);
        for game in db_events::games_of_round(conn, round.id)? {
            match can_go_digital(conn, &game)? {
                Movable::Yes => {
                    if db_hosted::mark_digital(conn, game.id, access.account_id(), ctx.now)? {
                        marked += 1;
                    }
                }
                Movable::NoAccount => skipped += 1,
                Movable::Bye | Movable::Settled => {}
            }
        }
        Ok((marked, skipped))
    })
}

/// Marks one table of a published round as played in the browser.
pub fn play_game_digitally(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    game_id: i64,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    require_digital_play(access)?;
    conn.write_transaction(|conn| {
        let game = game_in(conn, view, game_id)?;
        let round = db_events::list_rounds(conn, view.id())?
            .into_iter()
            .find(|r| Some(r.id) == game.round_id)
            .ok_or_else(|| {
                EventError::Conflict("Only a round's games can be played in the browser.".into())
            })?;
        require_published(&round)?;
        match can_go_digital(conn, &game)? {
            Movable::Yes => {
                db_hosted::mark_digital(conn, game.id, access.account_id(), ctx.now)?;
                Ok(())
            }
            Movable::NoAccount => Err(EventError::Conflict(
                "A player of this game has no account to play with: it stays at a table.".into(),
            )),
            Movable::Bye => Err(EventError::Conflict("A bye has no game to play.".into())),
            Movable::Settled => Err(EventError::Conflict(
                "This game's result is in already.".into(),
            )),
        }
    })
}

fn require_digital_play(access: &Access) -> Result<(), EventError> {
    if !access.is_staff() {
        return Err(EventError::Forbidden(
            "Only the organisers can have games played in the browser.".into(),
        ));
    }
    Ok(())
}

fn require_published(round: &crate::db::events::Round) -> Result<(), EventError> {
    if round.status == RoundStatus::Draft {
        Err(EventError::Conflict(
            "Publish the round first: its pairings may still change.".into(),
        ))
    } else {
        Ok(())
    }
}

/// Whether a pairing can be played in the browser.
enum Movable {
    Yes,
    Bye,
    /// Its result is in (or being settled).
    Settled,
    /// A player has no account to play with.
    NoAccount,
}

/// What the organisers can still move to the browser in a round: the
/// games that could go, and those that stay at a table because a player
/// has no account. Games already in the browser (`digital`) are neither.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RoundMovability {
    pub movable: usize,
    pub on_paper: usize,
}

pub fn round_movability(
    conn: &mut DbConnection,
    games: &[GameRow],
    digital: &[i64],
) -> Result<RoundMovability, EventError> {
    let mut counts = RoundMovability::default();
    for game in games.iter().filter(|g| !digital.contains(&g.id)) {
        match can_go_digital(conn, game)? {
            Movable::Yes => counts.movable += 1,
            Movable::NoAccount => counts.on_paper += 1,
            Movable::Bye | Movable::Settled => {}
        }
    }
    Ok(counts)
}

fn can_go_digital(conn: &mut DbConnection, game: &GameRow) -> Result<Movable, EventError> {
    let Some(player_b) = game.player_b else {
        return Ok(Movable::Bye);
    };
    if game.status != GameStatus::Pending {
        return Ok(Movable::Settled);
    }
    for id in [game.player_a, player_b] {
        if db_events::find_registration(conn, id)?
            .and_then(|r| r.account_id)
            .is_none()
        {
            return Ok(Movable::NoAccount);
        }
    }
    Ok(Movable::Yes)
}

pub(super) fn game_in(
    conn: &mut DbConnection,
    view: &EventView,
    game_id: i64,
) -> Result<GameRow, EventError> {
    db_events::find_game(conn, game_id)?
        .filter(|g| g.event_id == view.id())
        .ok_or(EventError::NotFound)
}

pub(super) fn seat_of(access: &Access, game: &GameRow) -> Option<&'static str> {
    let registration = access.registration.as_ref()?.id;
    if registration == game.player_a {
        Some("a")
    } else if Some(registration) == game.player_b {
        Some("b")
    } else {
        None
    }
}

pub(super) fn state_of(
    conn: &mut DbConnection,
    game: &GameRow,
    seat: Option<&str>,
) -> Result<DigitalState, EventError> {
    if !db_hosted::is_digital(conn, game.id)? {
        return Ok(DigitalState::NotDigital);
    }
    if let Some(row) = db_hosted::find_by_pairing(conn, game.id)? {
        return Ok(DigitalState::Started {
            hosted_game_id: row.id,
        });
    }
    let mut brought = [false; 2];
    let mut mine = Vec::new();
    for (side, json) in db_hosted::pairing_crews(conn, game.id)? {
        let index = usize::from(side == "b");
        brought[index] = true;
        if Some(side.as_str()) == seat {
            mine = Brought::from_json(&json)
                .map_err(|e| EventError::Corrupt(format!("brought lists: {e}")))?
                .names();
        }
    }
    Ok(DigitalState::Waiting { brought, mine })
}

/// Where a pairing stands for the viewer.
pub fn digital_state(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    game_id: i64,
) -> Result<DigitalState, EventError> {
    let game = game_in(conn, view, game_id)?;
    state_of(conn, &game, seat_of(access, &game))
}

/// How someone who is not a player watches a game played in the browser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Watching {
    /// As it happens: a game outside any event, or an event without delay.
    Live,
    /// One of the event's organisers or judges: live (the judge's view),
    /// with hands and secret choices hidden like any spectator's.
    Staff,
    /// A spectator of an event that delays them this far behind.
    Delayed(chrono::Duration),
}

/// How `account` (a spectator, or signed out) watches the hosted game that
/// decides event pairing `pairing_game_id` (None: a game outside events).
pub fn watching(
    conn: &mut DbConnection,
    pairing_game_id: Option<i64>,
    account: Option<i64>,
) -> Result<Watching, EventError> {
    let Some(pairing) = pairing_game_id else {
        return Ok(Watching::Live);
    };
    let game = db_events::find_game(conn, pairing)?.ok_or(EventError::NotFound)?;
    if let Some(account) = account
        && db_events::staff_role(conn, game.event_id, account)?.is_some()
    {
        return Ok(Watching::Staff);
    }
    let event = db_events::find_event(conn, game.event_id)?.ok_or(EventError::NotFound)?;
    let minutes = EventView::from_row(event)?
        .settings
        .digital
        .spectator_delay_minutes;
    Ok(if minutes == 0 {
        Watching::Live
    } else {
        Watching::Delayed(chrono::Duration::minutes(i64::from(minutes)))
    })
}

/// A digital pairing's hosted game as the round's pages show it as it
/// goes (VP so far, the turn, whether it finished), and what a kept round
/// page is checked against.
pub use crate::db::hosted::{LiveKey, LiveScore};

/// The live scores of these event pairings' hosted games.
pub fn live_scores(
    conn: &mut DbConnection,
    pairing_game_ids: &[i64],
) -> Result<Vec<LiveScore>, hosted::HostedError> {
    Ok(db_hosted::live_scores(conn, pairing_game_ids)?)
}

/// What a kept page showing these pairings' live scores depends on.
pub fn live_key(
    conn: &mut DbConnection,
    pairing_game_ids: &[i64],
) -> Result<LiveKey, hosted::HostedError> {
    Ok(db_hosted::live_key(conn, pairing_game_ids)?)
}

/// Which of these event pairings the organisers marked to be played in the
/// browser.
pub fn digital_among(
    conn: &mut DbConnection,
    pairing_game_ids: &[i64],
) -> Result<Vec<i64>, hosted::HostedError> {
    Ok(db_hosted::digital_among(conn, pairing_game_ids)?
        .into_iter()
        .map(|(pairing, _)| pairing)
        .collect())
}

/// Game `id` as `account` may see it now: a player and the event's staff
/// see it live; a spectator of an event with a delay sees it that far
/// behind.
pub fn load_for_viewer<G: soulstone_engine::system::TableGame>(
    conn: &mut DbConnection,
    id: i64,
    account: Option<i64>,
    now: chrono::NaiveDateTime,
) -> Result<(hosted::HostedGame<G>, Watching), hosted::HostedError> {
    let game = hosted::load::<G>(conn, id)?;
    if account.and_then(|a| game.seat_of(a)).is_some() {
        return Ok((game, Watching::Live));
    }
    let watching = watching(conn, game.pairing_game_id, account)?;
    match watching {
        Watching::Delayed(delay) => Ok((hosted::load_as_of::<G>(conn, id, now - delay)?, watching)),
        Watching::Live | Watching::Staff => Ok((game, watching)),
    }
}

/// The absence an event allows before a player may claim the game (None
/// for a game outside events).
pub fn absence_allowed(
    conn: &mut DbConnection,
    pairing_game_id: Option<i64>,
) -> Result<Option<chrono::Duration>, EventError> {
    let Some(pairing) = pairing_game_id else {
        return Ok(None);
    };
    let game = db_events::find_game(conn, pairing)?.ok_or(EventError::NotFound)?;
    let event = db_events::find_event(conn, game.event_id)?.ok_or(EventError::NotFound)?;
    Ok(Some(chrono::Duration::minutes(i64::from(
        EventView::from_row(event)?.settings.digital.absence_minutes,
    ))))
}

/// An open league in which a player may invite an opponent to a game
/// played in the browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvitableLeague {
    pub event_id: i64,
    pub name: String,
    /// What the players bring must be for the league's system and size.
    pub limits: Limits,
}

impl InvitableLeague {
    fn of(view: &EventView) -> Self {
        Self {
            event_id: view.id(),
            name: view.event.name.clone(),
            limits: limits_of(view),
        }
    }
}

/// What players bring to an event's games must suit: its system, and its
/// encounter size (Malifaux), encounter and soulstones (1st edition) or
/// build total (Mage Knight).
pub fn limits_of(view: &EventView) -> Limits {
    match view.system {
        GameSystem::MageKnight => Limits::MageKnight {
            build_total: u16::try_from(view.event.encounter_size).ok(),
        },
        GameSystem::Malifaux1 => Limits::FirstEdition {
            encounter: u8::try_from(view.event.encounter_size)
                .ok()
                .map(|soulstones| {
                    let size = match view.first_edition_size() {
                        crate::setup::EncounterSize::Scrap => Encounter::Scrap,
                        crate::setup::EncounterSize::Brawl => Encounter::Brawl,
                    };
                    (size, soulstones)
                }),
        },
        system => Limits::Malifaux {
            size: u8::try_from(view.event.encounter_size).ok(),
            edition: system.engine_edition(),
        },
    }
}

/// Why a league takes no games by invitation, if it takes none.
fn require_league_play(view: &EventView) -> Result<(), EventError> {
    if !view.is_open_league() {
        return Err(EventError::Conflict(
            "Only open-play leagues take games by invitation.".into(),
        ));
    }
    if view.status != EventStatus::Running {
        return Err(EventError::Conflict(format!(
            "{} is not running: its games are played while it runs.",
            view.event.name
        )));
    }
    // A Mage Knight league's games are its rounds' pairings.
    if view.system == GameSystem::MageKnight {
        return Err(EventError::Conflict(
            "Mage Knight leagues play their rounds' pairings in the browser, not games by invitation."
                .into(),
        ));
    }
    Ok(())
}

/// `account`'s registration as a player of the league, if they play in it.
fn league_player(
    conn: &mut DbConnection,
    view: &EventView,
    account: i64,
) -> Result<Option<Registration>, EventError> {
    Ok(db_events::registration_of(conn, view.id(), account)?
        .filter(|r| r.status == RegistrationStatus::Registered && !r.dropped))
}

/// The running open 4th edition leagues in which `account` plays.
pub fn leagues_to_invite_in(
    conn: &mut DbConnection,
    account: i64,
) -> Result<Vec<InvitableLeague>, EventError> {
    let mut leagues = Vec::new();
    for event in db_events::events_entered_by(conn, account)? {
        let view = EventView::from_row(event)?;
        if require_league_play(&view).is_ok() && league_player(conn, &view, account)?.is_some() {
            leagues.push(InvitableLeague::of(&view));
        }
    }
    Ok(leagues)
}

fn league_view(conn: &mut DbConnection, event_id: i64) -> Result<EventView, EventError> {
    let event = db_events::find_event(conn, event_id)?.ok_or(EventError::NotFound)?;
    let view = EventView::from_row(event)?;
    require_league_play(&view)?;
    Ok(view)
}

/// Checks that `inviter` may invite an opponent to a game counting in
/// league `event_id`.
pub fn check_league_invitation(
    conn: &mut DbConnection,
    event_id: i64,
    inviter: i64,
) -> Result<InvitableLeague, EventError> {
    let view = league_view(conn, event_id)?;
    if league_player(conn, &view, inviter)?.is_none() {
        return Err(EventError::Forbidden(format!(
            "Only players of {} can invite to its games.",
            view.event.name
        )));
    }
    Ok(InvitableLeague::of(&view))
}

/// A league invitation accepted: both must still play in the league and be
/// under its cap of games against each other, counted under the event's
/// lock. The game is recorded in the league (its result pending, played in
/// the browser) and its id returned, for the hosted game to decide.
pub fn start_league_game(
    conn: &mut DbConnection,
    event_id: i64,
    inviter: i64,
    accepter: i64,
    now: chrono::NaiveDateTime,
) -> Result<i64, EventError> {
    let view = league_view(conn, event_id)?;
    let league = view.event.name.clone();
    db_events::event_write_transaction(conn, event_id, |conn| {
        let theirs = league_player(conn, &view, inviter)?.ok_or_else(|| {
            EventError::Conflict(format!(
                "The player who invited you no longer plays in {league}."
            ))
        })?;
        let mine = league_player(conn, &view, accepter)?.ok_or_else(|| {
            EventError::Forbidden(format!(
                "This game counts in {league}: register for it first, then open the link again."
            ))
        })?;
        let data = crate::events::rounds::EventData::load(conn, event_id)?;
        crate::events::results::check_games_against(&view, &data, mine.id, &theirs)?;
        let game = db_events::insert_game(
            conn,
            &db_events::NewGame {
                event_id,
                round_id: None,
                table_number: None,
                player_a: theirs.id,
                player_b: Some(mine.id),
                status: GameStatus::Pending,
                played_at: Some(now),
                created_at: now,
                updated_at: now,
                team_match_id: None,
            },
        )?;
        db_hosted::mark_digital(conn, game.id, Some(inviter), now)?;
        crate::db::audit::record(
            conn,
            Some(accepter),
            Some(event_id),
            "league.digital_game",
            &format!(
                "{} v {}, played in the browser by invitation",
                theirs.display_name, mine.display_name
            ),
            now,
        )?;
        Ok(game.id)
    })
}
