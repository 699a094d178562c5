//! Games by invitation: a player brings their crews (or a 1st edition
//! crew, or a Mage Knight army) and a clock and gets a link; whoever opens it signed in, brings
//! the same kind and accepts takes the other seat, and the game starts. One taker wins; the inviter may cancel
//! until then; a link lasts a week. A game may count in an open league both
//! play in (`event_games` holds the league's rules): its result then
//! reports itself there.

use chrono::{Duration, NaiveDateTime};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::first_edition::{CrewList, Encounter};

use super::brought::{Brought, BroughtFor, Content, Limits};
use super::event_games::{self as digital, InvitableLeague};
use super::{
    ArmyGame, CasualStart, CrewGame, HostedError, PairingStart, start_army_game, start_casual,
    start_crew_game, start_for_pairing,
};
use crate::db::hosted::{self as db_hosted, InvitationRow, NewInvitation};
use crate::db::{DbConnection, WriteTransaction, accounts};
use crate::events::EventError;
use crate::hosted::limits;

/// How long an invitation link stays open.
pub const INVITATION_DAYS: i64 = 7;

/// An invitation as the pages show it (never the inviter's lists).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    pub id: i64,
    pub token: String,
    pub inviter_id: i64,
    pub inviter_name: String,
    pub time_control_ms: Option<i64>,
    pub expires_at: NaiveDateTime,
    pub state: InvitationState,
    /// The league the game counts in (none: a casual game).
    pub league: Option<League>,
    /// The game it is to, by what the inviter brought (a Malifaux
    /// encounter or a Mage Knight battle): the one accepting brings the
    /// same kind.
    pub game: BroughtFor,
    /// A 1st edition game's encounter and soulstones, which the one
    /// accepting hires their crew at (the inviter's crew is secret; the
    /// size of the game is not).
    pub first_edition_encounter: Option<(Encounter, u8)>,
}

/// The league an invitation's game counts in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct League {
    pub event_id: i64,
    pub name: String,
}

/// A league's rule refusing the game, as the invitation pages say it.
fn league_refusal(error: EventError) -> HostedError {
    match error {
        EventError::Db(db) => HostedError::Db(db),
        EventError::NotFound => HostedError::Invalid("That league no longer exists.".into()),
        other => HostedError::Invalid(other.for_people()),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvitationState {
    Open,
    /// Taken: the game it started.
    Accepted {
        game: Option<i64>,
    },
    Cancelled,
    Expired,
}

fn shown(
    conn: &mut DbConnection,
    row: InvitationRow,
    now: NaiveDateTime,
) -> Result<Invitation, HostedError> {
    let inviter_name = accounts::find_by_id(conn, row.inviter_id)?
        .map_or_else(|| "A deleted account".to_owned(), |a| a.display_name);
    let state = if row.accepted_by.is_some() {
        InvitationState::Accepted {
            game: row.hosted_game_id,
        }
    } else if row.cancelled_at.is_some() {
        InvitationState::Cancelled
    } else if row.expires_at <= now {
        InvitationState::Expired
    } else {
        InvitationState::Open
    };
    let league = match row.event_id {
        Some(event_id) => Some(League {
            event_id,
            name: crate::db::events::find_event(conn, event_id)?
                .map_or_else(|| "a league".to_owned(), |e| e.name),
        }),
        None => None,
    };
    let brought = stored_brought(&row)?;
    let first_edition_encounter = match &brought {
        Brought::FirstEdition(crew) => Some((crew.encounter, crew.soulstones)),
        _ => None,
    };
    let game = brought.system();
    Ok(Invitation {
        id: row.id,
        token: row.token,
        inviter_id: row.inviter_id,
        inviter_name,
        time_control_ms: row.time_control_ms,
        expires_at: row.expires_at,
        state,
        league,
        game,
        first_edition_encounter,
    })
}

/// What the inviter brought, as stored with the invitation.
fn stored_brought(row: &InvitationRow) -> Result<Brought, HostedError> {
    Brought::from_json(&row.inviter_lists).map_err(|e| HostedError::Corrupt {
        id: row.id,
        reason: format!("invitation lists: {e}"),
    })
}

/// A player invites someone: what they bring (crews, or a Mage Knight
/// army) is checked now (for the league's encounter size, in a league),
/// kept secret, and the link's token is returned.
pub fn invite(
    conn: &mut DbConnection,
    content: &Content<'_>,
    inviter: i64,
    brought: &Brought,
    time_control_ms: Option<i64>,
    league: Option<i64>,
    now: NaiveDateTime,
) -> Result<Invitation, HostedError> {
    let league: Option<InvitableLeague> = league
        .map(|event_id| digital::check_league_invitation(conn, event_id, inviter))
        .transpose()
        .map_err(league_refusal)?;
    brought
        .check(content, limits_for(brought, league.as_ref()))
        .map_err(HostedError::Invalid)?;
    // A 1st edition crew is kept at the league's encounter, which the
    // invitation then shows and the game is played at.
    let at_league;
    let brought = match (brought, league.as_ref().map(|l| l.limits)) {
        (
            Brought::FirstEdition(crew),
            Some(Limits::FirstEdition {
                encounter: Some((size, soulstones)),
            }),
        ) => {
            at_league = Brought::FirstEdition(CrewList {
                encounter: size,
                soulstones,
                ..crew.clone()
            });
            &at_league
        }
        _ => brought,
    };
    let json = brought.to_json().map_err(|e| HostedError::Corrupt {
        id: 0,
        reason: format!("invitation lists: {e}"),
    })?;
    let token = crate::auth::random_token();
    conn.write_transaction(|conn| {
        limits::admit(conn, inviter, limits::Creating::Invitation, now)?;
        db_hosted::insert_invitation(
            conn,
            &NewInvitation {
                token: &token,
                inviter_id: inviter,
                inviter_lists: &json,
                time_control_ms,
                event_id: league.map(|l| l.event_id),
                now,
                expires_at: now + Duration::days(INVITATION_DAYS),
            },
        )?;
        let row = db_hosted::find_invitation(conn, &token)?.ok_or(HostedError::NotFound)?;
        shown(conn, row, now)
    })
}

/// The invitation a link opens.
pub fn find(
    conn: &mut DbConnection,
    token: &str,
    now: NaiveDateTime,
) -> Result<Invitation, HostedError> {
    let row = db_hosted::find_invitation(conn, token)?.ok_or(HostedError::NotFound)?;
    shown(conn, row, now)
}

/// The open invitations a player has sent.
pub fn open_of(
    conn: &mut DbConnection,
    inviter: i64,
    now: NaiveDateTime,
) -> Result<Vec<Invitation>, HostedError> {
    db_hosted::open_invitations_of(conn, inviter, now)?
        .into_iter()
        .map(|row| shown(conn, row, now))
        .collect()
}

/// Someone accepts with the lists they bring: the game starts, the inviter
/// in seat A. The inviter cannot take their own seat twice; a link already
/// taken, cancelled or expired is refused by what happened to it; a league
/// game needs both to play in the league, under its cap (else nothing
/// changes, and the link stays open).
pub fn accept(
    conn: &mut DbConnection,
    content: &Content<'_>,
    token: &str,
    account: i64,
    brought: &Brought,
    seed: Bytes32,
    now: NaiveDateTime,
) -> Result<i64, HostedError> {
    brought
        .check(content, limits_for(brought, None))
        .map_err(HostedError::Invalid)?;
    conn.write_transaction(|conn| {
        let row = db_hosted::find_invitation(conn, token)?.ok_or(HostedError::NotFound)?;
        if row.inviter_id == account {
            return Err(HostedError::Invalid(
                "This is your own invitation: send the link to your opponent.".into(),
            ));
        }
        let theirs = stored_brought(&row)?;
        if theirs.system() != brought.system() {
            return Err(HostedError::Invalid(format!(
                "This invitation is to {}: bring {}.",
                theirs.system().game(),
                theirs.system().what_to_bring()
            )));
        }
        if !db_hosted::take_invitation(conn, row.id, account, now)? {
            let why = match shown(conn, row, now)?.state {
                InvitationState::Accepted { .. } => "Someone has accepted this invitation already.",
                InvitationState::Cancelled => "The player who sent this invitation cancelled it.",
                InvitationState::Expired | InvitationState::Open => "This invitation has expired.",
            };
            return Err(HostedError::Invalid(why.into()));
        }
        let accounts = [row.inviter_id, account];
        // A league game: both still play in it, under its cap, and what the
        // one accepting brings suits it.
        let league = match row.event_id {
            Some(event_id) => {
                let league = digital::check_league_invitation(conn, event_id, row.inviter_id)
                    .map_err(league_refusal)?;
                brought
                    .check(content, league.limits)
                    .map_err(HostedError::Invalid)?;
                let pairing =
                    digital::start_league_game(conn, event_id, row.inviter_id, account, now)
                        .map_err(league_refusal)?;
                Some((league, pairing))
            }
            None => None,
        };
        let pairing_game_id = league.as_ref().map(|(_, pairing)| *pairing);
        let game = match (&theirs, brought, pairing_game_id) {
            (Brought::Crews(theirs), Brought::Crews(lists), Some(pairing)) => start_for_pairing(
                conn,
                content.catalog,
                &PairingStart {
                    pairing_game_id: pairing,
                    accounts,
                    lists: [theirs, lists],
                    seed,
                    time_control_ms: row.time_control_ms,
                    scenario: None,
                    content: content.stamp,
                },
                now,
            )?,
            (Brought::Crews(theirs), Brought::Crews(lists), None) => start_casual(
                conn,
                content.catalog,
                &CasualStart {
                    accounts,
                    lists: [theirs, lists],
                    seed,
                    time_control_ms: row.time_control_ms,
                    content: content.stamp,
                },
                now,
            )?,
            (Brought::FirstEdition(theirs), Brought::FirstEdition(crew), _) => start_crew_game(
                conn,
                content.first_edition,
                content.first_edition_conditions,
                &CrewGame {
                    pairing_game_id,
                    accounts,
                    crews: [theirs, crew],
                    encounter: match league.as_ref().map(|(l, _)| l.limits) {
                        Some(Limits::FirstEdition { encounter }) => encounter,
                        _ => None,
                    },
                    seed,
                    time_control_ms: row.time_control_ms,
                    content: content.stamp,
                },
                now,
            )?,
            (Brought::Army(theirs), Brought::Army(army), None) => start_army_game(
                conn,
                content.roster,
                &ArmyGame {
                    pairing_game_id: None,
                    accounts,
                    armies: [theirs, army],
                    build_total: None,
                    seed,
                    time_control_ms: row.time_control_ms,
                    content: content.stamp,
                },
                now,
            )?,
            _ => {
                return Err(HostedError::Corrupt {
                    id: row.id,
                    reason: "a Mage Knight invitation counting in a league".into(),
                });
            }
        };
        db_hosted::set_invitation_game(conn, row.id, game)?;
        Ok(game)
    })
}

/// The limits what a player brings is checked against: the league's,
/// else only the system of what they bring (any size).
fn limits_for(brought: &Brought, league: Option<&InvitableLeague>) -> Limits {
    match (league, brought) {
        (Some(league), _) => league.limits,
        (None, Brought::Crews(_)) => Limits::Malifaux {
            size: None,
            edition: None,
        },
        (None, Brought::FirstEdition(_)) => Limits::FirstEdition { encounter: None },
        (None, Brought::Army(_)) => Limits::MageKnight { build_total: None },
    }
}

/// The inviter takes an open invitation back.
pub fn cancel(
    conn: &mut DbConnection,
    token: &str,
    inviter: i64,
    now: NaiveDateTime,
) -> Result<(), HostedError> {
    let row = db_hosted::find_invitation(conn, token)?.ok_or(HostedError::NotFound)?;
    if row.inviter_id != inviter {
        return Err(HostedError::NotAPlayer);
    }
    if db_hosted::cancel_invitation(conn, row.id, inviter, now)? {
        Ok(())
    } else {
        Err(HostedError::Invalid(
            "This invitation is no longer open: it was accepted or cancelled.".into(),
        ))
    }
}
