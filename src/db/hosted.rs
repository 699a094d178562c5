//! Hosted games as stored: a row per game, its append-only log of facts,
//! snapshots of its state, and the commands accepted by idempotency key.
//! The rules of who may do what live in `crate::hosted`.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{
    digital_pairings, hosted_game_commands, hosted_game_facts, hosted_game_snapshots,
    hosted_game_submissions, hosted_games, pairing_crews,
};
use super::status::HostedStatus;
use super::{DbConnection, DbError};
use crate::chess_clock::ChessClocks;
use soulstone_engine::forced::StandingAnswers;

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Identifiable)]
#[diesel(table_name = hosted_games)]
pub struct HostedGameRow {
    pub id: i64,
    pub kind: String,
    pub pairing_game_id: Option<i64>,
    pub seat_a_account_id: Option<i64>,
    pub seat_b_account_id: Option<i64>,
    pub seat_a_bot: Option<String>,
    pub seat_b_bot: Option<String>,
    pub status: HostedStatus,
    pub rules_version: i32,
    pub log_format: i32,
    pub setup: String,
    pub version: i64,
    pub vp_a: Option<i32>,
    pub vp_b: Option<i32>,
    pub ended_by: Option<String>,
    pub time_control_ms: Option<i64>,
    pub clock_a_ms: Option<i64>,
    pub clock_b_ms: Option<i64>,
    pub clock_running: Option<String>,
    pub clock_since: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// The turn the game is in (its VP so far are in `vp_a` and `vp_b`).
    pub turn: Option<i32>,
    /// The game system whose rules play it (`TableGame::CODE`).
    pub table_game: String,
    /// The hash of the server's content it was made from (none: made
    /// before games recorded it).
    pub content_hash: Option<String>,
    /// The hash of the content pack version it was made with, if any.
    pub pack_hash: Option<String>,
}

impl HostedGameRow {
    pub fn clocks(&self) -> Option<ChessClocks> {
        Some(ChessClocks {
            control_ms: self.time_control_ms?,
            left_ms: [self.clock_a_ms?, self.clock_b_ms?],
            running: ChessClocks::running_of(self.clock_running.as_deref()),
            since: self.clock_since?,
        })
    }
}

/// What a command changes besides the log: status, score, how it ended,
/// and the clocks.
#[derive(Debug, Clone, Copy)]
pub struct GameChange<'a> {
    pub status: HostedStatus,
    /// The VP so far (final once the game has ended).
    pub vp: Option<[i32; 2]>,
    pub turn: Option<i32>,
    pub ended_by: Option<&'a str>,
    pub clocks: Option<ChessClocks>,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = hosted_games)]
pub struct NewHostedGame<'a> {
    pub table_game: &'a str,
    pub kind: &'a str,
    pub pairing_game_id: Option<i64>,
    pub seat_a_account_id: Option<i64>,
    pub seat_b_account_id: Option<i64>,
    pub seat_a_bot: Option<&'a str>,
    pub seat_b_bot: Option<&'a str>,
    pub status: HostedStatus,
    pub rules_version: i32,
    pub log_format: i32,
    pub setup: &'a str,
    pub version: i64,
    pub time_control_ms: Option<i64>,
    pub clock_a_ms: Option<i64>,
    pub clock_b_ms: Option<i64>,
    pub clock_since: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub content_hash: Option<&'a str>,
    pub pack_hash: Option<&'a str>,
}

pub fn insert_game(conn: &mut DbConnection, game: &NewHostedGame<'_>) -> Result<i64, DbError> {
    Ok(diesel::insert_into(hosted_games::table)
        .values(game)
        .returning(hosted_games::id)
        .get_result(conn)?)
}

pub fn find_game(conn: &mut DbConnection, id: i64) -> Result<Option<HostedGameRow>, DbError> {
    Ok(hosted_games::table
        .find(id)
        .select(HostedGameRow::as_select())
        .first(conn)
        .optional()?)
}

/// The games an account sits at, newest first.
pub fn games_of(
    conn: &mut DbConnection,
    account_id: i64,
    limit: i64,
) -> Result<Vec<HostedGameRow>, DbError> {
    Ok(hosted_games::table
        .filter(
            hosted_games::seat_a_account_id
                .eq(account_id)
                .or(hosted_games::seat_b_account_id.eq(account_id)),
        )
        .order(hosted_games::id.desc())
        .limit(limit)
        .select(HostedGameRow::as_select())
        .load(conn)?)
}

/// Moves a game from version `from` to `to`, only if no one else has moved
/// it since: false when another writer won.
pub fn advance_version(
    conn: &mut DbConnection,
    id: i64,
    from: i64,
    to: i64,
    change: &GameChange<'_>,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    let clocks = change.clocks;
    let changed = diesel::update(
        hosted_games::table
            .filter(hosted_games::id.eq(id))
            .filter(hosted_games::version.eq(from)),
    )
    .set((
        hosted_games::version.eq(to),
        hosted_games::status.eq(change.status),
        hosted_games::vp_a.eq(change.vp.map(|v| v[0])),
        hosted_games::vp_b.eq(change.vp.map(|v| v[1])),
        hosted_games::turn.eq(change.turn),
        hosted_games::ended_by.eq(change.ended_by),
        hosted_games::clock_a_ms.eq(clocks.map(|c| c.left_ms[0])),
        hosted_games::clock_b_ms.eq(clocks.map(|c| c.left_ms[1])),
        hosted_games::clock_running.eq(clocks.and_then(|c| c.running_code())),
        hosted_games::clock_since.eq(clocks.map(|c| c.since)),
        hosted_games::clock_deadline.eq(clocks.and_then(|c| c.deadline())),
        hosted_games::updated_at.eq(now),
    ))
    .execute(conn)?;
    if changed == 1 {
        notify_changed(conn, id, to)?;
    }
    Ok(changed == 1)
}

/// The PostgreSQL channel on which instances tell each other that a
/// game's log grew; the payload is `<schema>:<game id>:<version>`, so
/// servers (and test schemas) sharing a database tell their games apart,
/// and an instance that announced the version itself wakes no stream again.
pub const GAMES_CHANNEL: &str = "soulstone_games";

/// Tells the other instances on PostgreSQL that game `id` moved on. The
/// notification is delivered when the transaction commits, and not at all
/// if it rolls back, so listeners never read ahead of the log. SQLite has
/// no such channel: its instances poll (`changed_since`).
fn notify_changed(conn: &mut DbConnection, id: i64, version: i64) -> Result<(), DbError> {
    if let DbConnection::Postgres(pg) = conn {
        diesel::sql_query(format!(
            "SELECT pg_notify('{GAMES_CHANNEL}', current_schema() || ':' || $1)"
        ))
        .bind::<diesel::sql_types::Text, _>(format!("{id}:{version}"))
        .execute(pg)?;
    }
    Ok(())
}

/// Games under way whose running clock is due by `now` (or whose deadline
/// is not yet known), with their clocks, for the flag check: the index on
/// the deadline finds them without reading every game with a clock.
pub fn games_with_clocks_due(
    conn: &mut DbConnection,
    now: NaiveDateTime,
) -> Result<Vec<(i64, ChessClocks)>, DbError> {
    running_clocks(conn, Some(now))
}

/// Games under way whose clocks run, with their clocks (the setup and log
/// are not read).
pub fn games_with_running_clocks(
    conn: &mut DbConnection,
) -> Result<Vec<(i64, ChessClocks)>, DbError> {
    running_clocks(conn, None)
}

fn running_clocks(
    conn: &mut DbConnection,
    due_by: Option<NaiveDateTime>,
) -> Result<Vec<(i64, ChessClocks)>, DbError> {
    type Row = (
        i64,
        Option<i64>,
        Option<i64>,
        Option<i64>,
        Option<String>,
        Option<NaiveDateTime>,
    );
    let mut query = hosted_games::table
        .filter(hosted_games::status.eq(HostedStatus::Playing))
        .filter(hosted_games::clock_running.is_not_null())
        .into_boxed();
    if let Some(now) = due_by {
        query = query.filter(
            hosted_games::clock_deadline
                .is_null()
                .or(hosted_games::clock_deadline.le(now)),
        );
    }
    let rows: Vec<Row> = query
        .select((
            hosted_games::id,
            hosted_games::time_control_ms,
            hosted_games::clock_a_ms,
            hosted_games::clock_b_ms,
            hosted_games::clock_running,
            hosted_games::clock_since,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, control, a, b, running, since)| {
            Some((
                id,
                ChessClocks {
                    control_ms: control?,
                    left_ms: [a?, b?],
                    running: ChessClocks::running_of(running.as_deref()),
                    since: since?,
                },
            ))
        })
        .collect())
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = hosted_game_facts)]
pub struct NewFact<'a> {
    pub game_id: i64,
    pub seq: i64,
    pub fact: &'a str,
    pub at: Option<NaiveDateTime>,
}

pub fn insert_facts(conn: &mut DbConnection, facts: &[NewFact<'_>]) -> Result<(), DbError> {
    // One statement a fact: the connection type over both backends has no
    // batch insert.
    for fact in facts {
        diesel::insert_into(hosted_game_facts::table)
            .values(fact)
            .execute(conn)?;
    }
    Ok(())
}

/// Keeps the commands a game executed, each at the index of its first
/// fact (JSON of `soulstone_engine::Submission`).
pub fn insert_submissions(
    conn: &mut DbConnection,
    game_id: i64,
    submissions: &[(i64, String)],
) -> Result<(), DbError> {
    for (at_fact, submission) in submissions {
        diesel::insert_into(hosted_game_submissions::table)
            .values((
                hosted_game_submissions::game_id.eq(game_id),
                hosted_game_submissions::at_fact.eq(at_fact),
                hosted_game_submissions::submission.eq(submission),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// A game's commands in order, each with the index of its first fact.
pub fn submissions_of(
    conn: &mut DbConnection,
    game_id: i64,
) -> Result<Vec<(i64, String)>, DbError> {
    Ok(hosted_game_submissions::table
        .filter(hosted_game_submissions::game_id.eq(game_id))
        .order(hosted_game_submissions::at_fact.asc())
        .select((
            hosted_game_submissions::at_fact,
            hosted_game_submissions::submission,
        ))
        .load(conn)?)
}

/// Facts old enough to send, and when the next one was written.
pub type FactsByTime = (Vec<(i64, String)>, Option<NaiveDateTime>);

/// The facts after `after` written at or before `until`, in order, as
/// stored JSON (facts with no time count as written long ago), and when
/// the next one not yet old enough was written, if any.
pub fn facts_written_by(
    conn: &mut DbConnection,
    game_id: i64,
    after: i64,
    until: NaiveDateTime,
) -> Result<FactsByTime, DbError> {
    let rows: Vec<(i64, String, Option<NaiveDateTime>)> = hosted_game_facts::table
        .filter(hosted_game_facts::game_id.eq(game_id))
        .filter(hosted_game_facts::seq.gt(after))
        .order(hosted_game_facts::seq.asc())
        .select((
            hosted_game_facts::seq,
            hosted_game_facts::fact,
            hosted_game_facts::at,
        ))
        .load(conn)?;
    let mut old_enough = Vec::new();
    for (seq, fact, at) in rows {
        match at {
            Some(at) if at > until => return Ok((old_enough, Some(at))),
            _ => old_enough.push((seq, fact)),
        }
    }
    Ok((old_enough, None))
}

/// The last fact written at or before `until` (0: none).
pub fn last_seq_written_by(
    conn: &mut DbConnection,
    game_id: i64,
    until: NaiveDateTime,
) -> Result<i64, DbError> {
    let last: Option<i64> = hosted_game_facts::table
        .filter(hosted_game_facts::game_id.eq(game_id))
        .filter(
            hosted_game_facts::at
                .is_null()
                .or(hosted_game_facts::at.le(until)),
        )
        .select(diesel::dsl::max(hosted_game_facts::seq))
        .first(conn)?;
    Ok(last.unwrap_or(0))
}

/// The facts after `after`, in order, as stored JSON.
pub fn facts_after(
    conn: &mut DbConnection,
    game_id: i64,
    after: i64,
) -> Result<Vec<(i64, String)>, DbError> {
    Ok(hosted_game_facts::table
        .filter(hosted_game_facts::game_id.eq(game_id))
        .filter(hosted_game_facts::seq.gt(after))
        .order(hosted_game_facts::seq.asc())
        .select((hosted_game_facts::seq, hosted_game_facts::fact))
        .load(conn)?)
}

/// The newest snapshot at or before version `at_most`.
pub fn latest_snapshot(
    conn: &mut DbConnection,
    game_id: i64,
    at_most: i64,
) -> Result<Option<(i64, String)>, DbError> {
    Ok(hosted_game_snapshots::table
        .filter(hosted_game_snapshots::game_id.eq(game_id))
        .filter(hosted_game_snapshots::seq.le(at_most))
        .order(hosted_game_snapshots::seq.desc())
        .select((hosted_game_snapshots::seq, hosted_game_snapshots::state))
        .first(conn)
        .optional()?)
}

pub fn insert_snapshot(
    conn: &mut DbConnection,
    game_id: i64,
    seq: i64,
    state: &str,
) -> Result<(), DbError> {
    diesel::insert_into(hosted_game_snapshots::table)
        .values((
            hosted_game_snapshots::game_id.eq(game_id),
            hosted_game_snapshots::seq.eq(seq),
            hosted_game_snapshots::state.eq(state),
        ))
        .execute(conn)?;
    Ok(())
}

/// What an accepted command did: the version it was made against and the
/// one it led to.
pub fn find_command(
    conn: &mut DbConnection,
    game_id: i64,
    seat: &str,
    key: &str,
) -> Result<Option<(i64, i64)>, DbError> {
    Ok(hosted_game_commands::table
        .filter(hosted_game_commands::game_id.eq(game_id))
        .filter(hosted_game_commands::seat.eq(seat))
        .filter(hosted_game_commands::idempotency_key.eq(key))
        .select((
            hosted_game_commands::from_version,
            hosted_game_commands::to_version,
        ))
        .first(conn)
        .optional()?)
}

pub fn insert_command(
    conn: &mut DbConnection,
    game_id: i64,
    seat: &str,
    key: &str,
    versions: (i64, i64),
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::insert_into(hosted_game_commands::table)
        .values((
            hosted_game_commands::game_id.eq(game_id),
            hosted_game_commands::seat.eq(seat),
            hosted_game_commands::idempotency_key.eq(key),
            hosted_game_commands::from_version.eq(versions.0),
            hosted_game_commands::to_version.eq(versions.1),
            hosted_game_commands::created_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// The games changed since `since` (updated_at), with their versions: how
/// an instance learns of commands another instance accepted.
pub fn changed_since(
    conn: &mut DbConnection,
    since: NaiveDateTime,
) -> Result<Vec<(i64, i64)>, DbError> {
    Ok(hosted_games::table
        .filter(hosted_games::updated_at.gt(since))
        .select((hosted_games::id, hosted_games::version))
        .load(conn)?)
}

/// The hosted game deciding an event pairing, if it has started.
pub fn find_by_pairing(
    conn: &mut DbConnection,
    pairing_game_id: i64,
) -> Result<Option<HostedGameRow>, DbError> {
    Ok(hosted_games::table
        .filter(hosted_games::pairing_game_id.eq(pairing_game_id))
        .select(HostedGameRow::as_select())
        .first(conn)
        .optional()?)
}

/// Marks a pairing as played in the browser; false if it already was.
pub fn mark_digital(
    conn: &mut DbConnection,
    pairing_game_id: i64,
    by: Option<i64>,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    // Checked first, then inserted, in the caller's write transaction. A
    // concurrent mark slipping in between makes a duplicate key: SQLite
    // reads it as marked; PostgreSQL ends the transaction with an error,
    // keeping nothing of it, and the organiser's retry finds it marked.
    if is_digital(conn, pairing_game_id)? {
        return Ok(false);
    }
    let inserted = diesel::insert_into(digital_pairings::table)
        .values((
            digital_pairings::pairing_game_id.eq(pairing_game_id),
            digital_pairings::marked_by.eq(by),
            digital_pairings::marked_at.eq(now),
        ))
        .execute(conn);
    match inserted.map_err(DbError::from) {
        Ok(n) => Ok(n == 1),
        Err(error) if error.is_unique_violation() => Ok(false),
        Err(error) => Err(error),
    }
}

pub fn is_digital(conn: &mut DbConnection, pairing_game_id: i64) -> Result<bool, DbError> {
    let count: i64 = digital_pairings::table
        .filter(digital_pairings::pairing_game_id.eq(pairing_game_id))
        .count()
        .get_result(conn)?;
    Ok(count > 0)
}

/// Of these pairings, those played in the browser, with their hosted game
/// once it has started.
pub fn digital_among(
    conn: &mut DbConnection,
    pairing_game_ids: &[i64],
) -> Result<Vec<(i64, Option<i64>)>, DbError> {
    let marked: Vec<i64> = digital_pairings::table
        .filter(digital_pairings::pairing_game_id.eq_any(pairing_game_ids))
        .select(digital_pairings::pairing_game_id)
        .load(conn)?;
    let started: Vec<(Option<i64>, i64)> = hosted_games::table
        .filter(hosted_games::pairing_game_id.eq_any(pairing_game_ids))
        .select((hosted_games::pairing_game_id, hosted_games::id))
        .load(conn)?;
    Ok(marked
        .into_iter()
        .map(|pairing| {
            let hosted = started
                .iter()
                .find(|(p, _)| *p == Some(pairing))
                .map(|(_, id)| *id);
            (pairing, hosted)
        })
        .collect())
}

/// A game under way or over, as round pages show it live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveScore {
    pub pairing_game_id: i64,
    pub hosted_game_id: i64,
    pub finished: bool,
    pub turn: Option<i32>,
    pub vp: Option<[i32; 2]>,
}

/// The hosted games deciding these pairings, with their score so far.
pub fn live_scores(
    conn: &mut DbConnection,
    pairing_game_ids: &[i64],
) -> Result<Vec<LiveScore>, DbError> {
    type LiveRow = (
        Option<i64>,
        i64,
        HostedStatus,
        Option<i32>,
        Option<i32>,
        Option<i32>,
    );
    let rows: Vec<LiveRow> = hosted_games::table
        .filter(hosted_games::pairing_game_id.eq_any(pairing_game_ids))
        .select((
            hosted_games::pairing_game_id,
            hosted_games::id,
            hosted_games::status,
            hosted_games::turn,
            hosted_games::vp_a,
            hosted_games::vp_b,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(pairing, id, status, turn, a, b)| {
            Some(LiveScore {
                pairing_game_id: pairing?,
                hosted_game_id: id,
                finished: status == HostedStatus::Finished,
                turn,
                vp: a.zip(b).map(|(a, b)| [a, b]),
            })
        })
        .collect())
}

/// What a round page shows of its games in the browser: how many are
/// marked for it, and the score so far of each started. A kept round page
/// is served while this stays the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveKey {
    pub marked: i64,
    pub games: Vec<LiveScore>,
}

pub fn live_key(conn: &mut DbConnection, pairing_game_ids: &[i64]) -> Result<LiveKey, DbError> {
    let marked = digital_pairings::table
        .filter(digital_pairings::pairing_game_id.eq_any(pairing_game_ids))
        .count()
        .get_result(conn)?;
    let mut games = live_scores(conn, pairing_game_ids)?;
    games.sort_by_key(|game| game.hosted_game_id);
    Ok(LiveKey { marked, games })
}

/// Stores (or replaces) the lists `seat` brings to a pairing.
pub fn set_pairing_crews(
    conn: &mut DbConnection,
    pairing_game_id: i64,
    seat: &str,
    lists: &str,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::delete(
        pairing_crews::table
            .filter(pairing_crews::pairing_game_id.eq(pairing_game_id))
            .filter(pairing_crews::seat.eq(seat)),
    )
    .execute(conn)?;
    diesel::insert_into(pairing_crews::table)
        .values((
            pairing_crews::pairing_game_id.eq(pairing_game_id),
            pairing_crews::seat.eq(seat),
            pairing_crews::lists.eq(lists),
            pairing_crews::submitted_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// The lists brought to a pairing so far: (seat, lists as JSON).
pub fn pairing_crews(
    conn: &mut DbConnection,
    pairing_game_id: i64,
) -> Result<Vec<(String, String)>, DbError> {
    Ok(pairing_crews::table
        .filter(pairing_crews::pairing_game_id.eq(pairing_game_id))
        .select((pairing_crews::seat, pairing_crews::lists))
        .load(conn)?)
}

/// An invitation to a casual game, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = super::schema::game_invitations)]
pub struct InvitationRow {
    pub id: i64,
    pub token: String,
    pub inviter_id: i64,
    pub inviter_lists: String,
    pub time_control_ms: Option<i64>,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub accepted_by: Option<i64>,
    pub hosted_game_id: Option<i64>,
    pub cancelled_at: Option<NaiveDateTime>,
    /// The open league the game counts in (none: casual).
    pub event_id: Option<i64>,
}

/// What a new invitation holds.
pub struct NewInvitation<'a> {
    pub token: &'a str,
    pub inviter_id: i64,
    pub inviter_lists: &'a str,
    pub time_control_ms: Option<i64>,
    pub event_id: Option<i64>,
    pub now: NaiveDateTime,
    pub expires_at: NaiveDateTime,
}

pub fn insert_invitation(conn: &mut DbConnection, new: &NewInvitation<'_>) -> Result<i64, DbError> {
    use super::schema::game_invitations as i;
    Ok(diesel::insert_into(i::table)
        .values((
            i::token.eq(new.token),
            i::inviter_id.eq(new.inviter_id),
            i::inviter_lists.eq(new.inviter_lists),
            i::time_control_ms.eq(new.time_control_ms),
            i::event_id.eq(new.event_id),
            i::created_at.eq(new.now),
            i::expires_at.eq(new.expires_at),
        ))
        .returning(i::id)
        .get_result(conn)?)
}

pub fn find_invitation(
    conn: &mut DbConnection,
    token: &str,
) -> Result<Option<InvitationRow>, DbError> {
    use super::schema::game_invitations as i;
    Ok(i::table
        .filter(i::token.eq(token))
        .select(InvitationRow::as_select())
        .first(conn)
        .optional()?)
}

/// Takes an open invitation for `account`: false when it was taken,
/// cancelled or expired meanwhile (one taker wins).
pub fn take_invitation(
    conn: &mut DbConnection,
    id: i64,
    account: i64,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    use super::schema::game_invitations as i;
    let changed = diesel::update(
        i::table
            .filter(i::id.eq(id))
            .filter(i::accepted_by.is_null())
            .filter(i::cancelled_at.is_null())
            .filter(i::expires_at.gt(now)),
    )
    .set(i::accepted_by.eq(account))
    .execute(conn)?;
    Ok(changed == 1)
}

pub fn set_invitation_game(conn: &mut DbConnection, id: i64, game: i64) -> Result<(), DbError> {
    use super::schema::game_invitations as i;
    diesel::update(i::table.find(id))
        .set(i::hosted_game_id.eq(game))
        .execute(conn)?;
    Ok(())
}

/// Cancels an open invitation of `inviter`: false if it was not open.
pub fn cancel_invitation(
    conn: &mut DbConnection,
    id: i64,
    inviter: i64,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    use super::schema::game_invitations as i;
    let changed = diesel::update(
        i::table
            .filter(i::id.eq(id))
            .filter(i::inviter_id.eq(inviter))
            .filter(i::accepted_by.is_null())
            .filter(i::cancelled_at.is_null()),
    )
    .set(i::cancelled_at.eq(now))
    .execute(conn)?;
    Ok(changed == 1)
}

/// Games of `kind` and `status` in which `account` holds seat A (a
/// practice game's player always does).
pub fn count_games_of(
    conn: &mut DbConnection,
    account: i64,
    kind: &str,
    status: HostedStatus,
) -> Result<i64, DbError> {
    Ok(hosted_games::table
        .filter(hosted_games::seat_a_account_id.eq(account))
        .filter(hosted_games::kind.eq(kind))
        .filter(hosted_games::status.eq(status))
        .count()
        .get_result(conn)?)
}

/// An account's invitations still open, newest first.
pub fn open_invitations_of(
    conn: &mut DbConnection,
    inviter: i64,
    now: NaiveDateTime,
) -> Result<Vec<InvitationRow>, DbError> {
    use super::schema::game_invitations as i;
    Ok(i::table
        .filter(i::inviter_id.eq(inviter))
        .filter(i::accepted_by.is_null())
        .filter(i::cancelled_at.is_null())
        .filter(i::expires_at.gt(now))
        .order(i::id.desc())
        .select(InvitationRow::as_select())
        .load(conn)?)
}

/// `account`'s standing answers in browser games (the defaults without a
/// row: `StandingAnswers::default`).
pub fn standing_answers(conn: &mut DbConnection, account: i64) -> Result<StandingAnswers, DbError> {
    use super::schema::play_settings as p;
    Ok(p::table
        .find(account)
        .select((
            p::takes_forced_choices,
            p::skips_idle_cheats,
            p::never_boosts,
        ))
        .first::<(bool, bool, bool)>(conn)
        .optional()?
        .map(
            |(single_options, idle_cheats, never_boost)| StandingAnswers {
                single_options,
                idle_cheats,
                never_boost,
            },
        )
        .unwrap_or_default())
}

/// Sets `account`'s standing answers.
pub fn set_standing_answers(
    conn: &mut DbConnection,
    account: i64,
    answers: StandingAnswers,
) -> Result<(), DbError> {
    use super::schema::play_settings as p;
    let values = (
        p::takes_forced_choices.eq(answers.single_options),
        p::skips_idle_cheats.eq(answers.idle_cheats),
        p::never_boosts.eq(answers.never_boost),
    );
    let update = |conn: &mut DbConnection| {
        diesel::update(p::table.find(account))
            .set(values)
            .execute(conn)
    };
    if update(conn)? > 0 {
        return Ok(());
    }
    let inserted = diesel::insert_into(p::table)
        .values((p::account_id.eq(account), values))
        .execute(conn);
    match inserted {
        Ok(_) => Ok(()),
        // Another request made the row first: set it there.
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => update(conn).map(|_| ()).map_err(Into::into),
        Err(other) => Err(other.into()),
    }
}

/// The key a command the game took for a player is stored under: the
/// version it was taken at, which is unique in the game.
pub fn forced_key(from_version: i64) -> String {
    format!("{FORCED_PREFIX}{from_version}")
}

const FORCED_PREFIX: &str = "forced:";

/// The commands the game took for `seat` of game `id`: the versions each
/// went from and to.
pub fn forced_ranges(
    conn: &mut DbConnection,
    id: i64,
    seat: &str,
) -> Result<Vec<(i64, i64)>, DbError> {
    Ok(hosted_game_commands::table
        .filter(hosted_game_commands::game_id.eq(id))
        .filter(hosted_game_commands::seat.eq(seat))
        .filter(hosted_game_commands::idempotency_key.like(format!("{FORCED_PREFIX}%")))
        .select((
            hosted_game_commands::from_version,
            hosted_game_commands::to_version,
        ))
        .order(hosted_game_commands::from_version)
        .load(conn)?)
}

/// Notes that an instance is serving at `now` (the heartbeat's one row).
pub fn beat(conn: &mut DbConnection, now: NaiveDateTime) -> Result<(), DbError> {
    use super::schema::served_heartbeat as h;
    diesel::update(h::table.filter(h::id.eq(1)))
        .set(h::served_at.eq(now))
        .execute(conn)?;
    Ok(())
}

/// When an instance last served, with the heartbeat's row held until the
/// transaction ends (an update that changes nothing takes its lock on
/// PostgreSQL; SQLite's write transaction holds the whole file).
pub fn last_served_locked(conn: &mut DbConnection) -> Result<Option<NaiveDateTime>, DbError> {
    use super::schema::served_heartbeat as h;
    diesel::update(h::table.filter(h::id.eq(1)))
        .set(h::served_at.eq(h::served_at))
        .execute(conn)?;
    Ok(h::table
        .filter(h::id.eq(1))
        .select(h::served_at)
        .first(conn)
        .optional()?)
}

/// Moves game `id`'s clocks to `clocks` started running at a new moment
/// (time not served is not charged), with the deadline that follows.
pub fn set_clock_since(
    conn: &mut DbConnection,
    id: i64,
    clocks: &ChessClocks,
) -> Result<(), DbError> {
    diesel::update(hosted_games::table.find(id))
        .set((
            hosted_games::clock_since.eq(clocks.since),
            hosted_games::clock_deadline.eq(clocks.deadline()),
        ))
        .execute(conn)?;
    Ok(())
}
