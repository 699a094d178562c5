//! Playing on after a command: the quick bots' decisions and the ones the
//! players' standing answers take for them (`soulstone_engine::forced`),
//! recorded so each player's page can say which were taken; and the
//! standing answers themselves.

use chrono::NaiveDateTime;
use soulstone_engine::Seat;
use soulstone_engine::forced::StandingAnswers;
use soulstone_engine::system::TableGame;

use super::store::{Made, Stored, row_to_game, store};
use super::{HostedError, HostedStatus, MAX_BOT_COMMANDS, SeatHolder, seat_code};
use crate::db::hosted as db_hosted;
use crate::db::{DbConnection, WriteTransaction};

/// A command the game took for a player: their seat, and the versions it
/// took the game from and to.
pub type Forced = (Seat, u64, u64);

/// A bot's seed in game `id` at `version`: seeded by the game and the
/// moment, so a replay of the same position decides the same.
pub(super) fn bot_seed(id: i64, version: u64) -> u64 {
    (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ version
}

/// Lets the bots in `seats` decide while the game waits for them, and
/// takes the decisions the players' standing answers give (`takers`, by
/// seat); the ones taken for players go into `forced`.
pub(super) fn play_on<G: TableGame>(
    id: i64,
    seats: &[SeatHolder; 2],
    takers: [StandingAnswers; 2],
    state: &mut G::State,
    made: &mut Made<G>,
    forced: &mut Vec<Forced>,
) -> Result<(), HostedError> {
    for _ in 0..MAX_BOT_COMMANDS {
        if G::is_over(state) {
            return Ok(());
        }
        let bot = Seat::BOTH.into_iter().find_map(|seat| {
            let SeatHolder::Bot(kind) = seats[seat.index()] else {
                return None;
            };
            // A searching bot thinks on a thread of its own (bot_turns),
            // never in the request that made its turn come.
            if G::bot_thinks_long(state, seat, kind) {
                return None;
            }
            G::bot_command(state, seat, kind, bot_seed(id, G::version(state)))
                .map(|command| (seat, command, false))
        });
        let next = bot.or_else(|| {
            Seat::BOTH.into_iter().find_map(|seat| {
                let SeatHolder::Account(_) = seats[seat.index()] else {
                    return None;
                };
                G::standing_choice(state, seat, takers[seat.index()])
                    .map(|command| (seat, command, true))
            })
        });
        let Some((seat, command, for_a_player)) = next else {
            return Ok(());
        };
        let from = G::version(state);
        let submission = G::player_submission(seat, from, command);
        made.execute(state, submission)
            .map_err(|e| HostedError::Corrupt {
                id,
                reason: format!(
                    "the game's own command for {} was refused: {e}",
                    seat.label()
                ),
            })?;
        if for_a_player {
            forced.push((seat, from, G::version(state)));
        }
    }
    Err(HostedError::Corrupt {
        id,
        reason: "the bots and forced choices did not stop".into(),
    })
}

/// Plays on from `state` (the bots, the players' standing answers) after
/// what was `made`, and stores the game's move from version `from` with
/// the decisions taken for players; nothing is stored if no fact was made.
pub(super) fn play_on_and_store<G: TableGame>(
    conn: &mut DbConnection,
    stored: &Stored,
    from: u64,
    state: &mut G::State,
    made: &mut Made<G>,
    now: NaiveDateTime,
) -> Result<(), HostedError> {
    let mut forced = Vec::new();
    let takers = standing_answers_of(conn, &stored.seats)?;
    play_on::<G>(stored.id, &stored.seats, takers, state, made, &mut forced)?;
    if made.facts.is_empty() {
        return Ok(());
    }
    store::<G>(conn, stored, from, state, made, None, now)?;
    record_forced(conn, stored.id, &forced, now)
}

/// The standing answers of the players in `seats` (a bot's are unused).
pub(super) fn standing_answers_of(
    conn: &mut DbConnection,
    seats: &[SeatHolder; 2],
) -> Result<[StandingAnswers; 2], HostedError> {
    let mut answers = [StandingAnswers::default(); 2];
    for seat in Seat::BOTH {
        if let SeatHolder::Account(account) = seats[seat.index()] {
            answers[seat.index()] = db_hosted::standing_answers(conn, account)?;
        }
    }
    Ok(answers)
}

/// Records the commands the game took for players, so their pages can say
/// which decisions were taken for them.
pub(super) fn record_forced(
    conn: &mut DbConnection,
    id: i64,
    forced: &[Forced],
    now: NaiveDateTime,
) -> Result<(), HostedError> {
    for (seat, from, to) in forced {
        let from = i64::try_from(*from).unwrap_or(i64::MAX);
        db_hosted::insert_command(
            conn,
            id,
            seat_code(*seat),
            &db_hosted::forced_key(from),
            (from, i64::try_from(*to).unwrap_or(i64::MAX)),
            now,
        )?;
    }
    Ok(())
}

/// Sets `account`'s standing answers (what the game decides for them).
pub fn set_standing_answers(
    conn: &mut DbConnection,
    account: i64,
    answers: StandingAnswers,
) -> Result<(), HostedError> {
    Ok(db_hosted::set_standing_answers(conn, account, answers)?)
}

/// Takes, in game `id`, what `account`'s standing answers now give (after
/// the player changed them while the game waited on them). The game's new
/// version if anything was taken; nothing for a game the account does not
/// play, or one that is over.
pub fn apply_standing_answers(
    conn: &mut DbConnection,
    id: i64,
    account_id: i64,
    now: NaiveDateTime,
) -> Result<Option<u64>, HostedError> {
    (super::systems::plays_of(conn, id)?.standing_answers)(conn, id, account_id, now)
}

pub(super) fn apply_standing_answers_in<G: TableGame>(
    conn: &mut DbConnection,
    id: i64,
    account_id: i64,
    now: NaiveDateTime,
) -> Result<Option<u64>, HostedError> {
    conn.write_transaction(|conn| {
        let row = db_hosted::find_game(conn, id)?.ok_or(HostedError::NotFound)?;
        let game = row_to_game::<G>(conn, row)?;
        if game.seat_of(account_id).is_none()
            || game.status != HostedStatus::Playing
            || G::is_over(&game.state)
            || game.clocks.is_some_and(|c| c.out_of_time(now).is_some())
        {
            return Ok(None);
        }
        let stored = Stored::of(&game);
        let mut state = game.state;
        let from = G::version(&state);
        let mut made = Made::<G>::default();
        play_on_and_store::<G>(conn, &stored, from, &mut state, &mut made, now)?;
        Ok((!made.facts.is_empty()).then_some(G::version(&state)))
    })
}

/// `account`'s standing answers.
pub fn standing_answers(
    conn: &mut DbConnection,
    account: i64,
) -> Result<StandingAnswers, HostedError> {
    Ok(db_hosted::standing_answers(conn, account)?)
}

/// The fact numbers of the decisions the game took for `seat` of game
/// `id`: (first fact, last fact) of each.
pub fn forced_for(
    conn: &mut DbConnection,
    id: i64,
    seat: Seat,
) -> Result<Vec<(u64, u64)>, HostedError> {
    Ok(db_hosted::forced_ranges(conn, id, seat_code(seat))?
        .into_iter()
        .map(|(from, to)| {
            (
                u64::try_from(from + 1).unwrap_or_default(),
                u64::try_from(to).unwrap_or_default(),
            )
        })
        .collect())
}
