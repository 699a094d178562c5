//! What starting a game costs an account: the clocks it may choose, how
//! many practice games and invitations it may keep open, and how many it
//! may create an hour. Each game is a stored log and, when timed, a clock
//! every instance checks; without limits one account made 2,500 timed
//! games in 16 seconds.

use chrono::{Duration, NaiveDateTime};

use super::{HostedError, HostedKind, HostedStatus};
use crate::db::DbConnection;
use crate::db::throttle::{self, Budget};

/// The clocks offered, in minutes a player (the forms and `docs/play.md`
/// name these; no clock is the other choice).
pub const CLOCK_MINUTES: [i64; 3] = [30, 60, 90];

/// Practice games under way at once, per account.
pub const MOST_OPEN_PRACTICE_GAMES: i64 = 5;

/// Invitations open at once, per account.
pub const MOST_OPEN_INVITATIONS: i64 = 10;

/// Practice games and invitations created per account an hour.
pub const MOST_CREATED_AN_HOUR: i64 = 30;

/// The clock for `minutes` a player: none, or one of [`CLOCK_MINUTES`].
pub fn clock_ms(minutes: Option<i64>) -> Result<Option<i64>, HostedError> {
    match minutes {
        None => Ok(None),
        Some(minutes) if CLOCK_MINUTES.contains(&minutes) => Ok(Some(minutes * 60_000)),
        Some(_) => Err(HostedError::Invalid(clock_choices())),
    }
}

/// The refusal of a clock that is not offered, naming the choices.
pub fn clock_choices() -> String {
    let [a, b, c] = CLOCK_MINUTES;
    format!("Choose a clock of {a}, {b} or {c} minutes a player, or none.")
}

/// What an account is about to create.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Creating {
    PracticeGame,
    Invitation,
}

/// Spends one creation from `account`'s hourly budget and checks its open
/// count, or refuses with what to do. Call it inside the write transaction
/// that creates the game or the invitation: the budget's lock on the
/// account (an advisory lock on PostgreSQL; SQLite's write transaction)
/// is held until that transaction ends, so concurrent creations take turns
/// and the open count cannot be passed.
pub fn admit(
    conn: &mut DbConnection,
    account: i64,
    creating: Creating,
    now: NaiveDateTime,
) -> Result<(), HostedError> {
    let budget = Budget::new(
        format!("games-created:{account}"),
        MOST_CREATED_AN_HOUR,
        Duration::hours(1),
    );
    if throttle::spend(conn, &[budget], now)?.is_none() {
        return Err(HostedError::Invalid(format!(
            "You have started {MOST_CREATED_AN_HOUR} games and invitations in the last hour: \
             try again later."
        )));
    }
    match creating {
        Creating::PracticeGame => {
            let open = crate::db::hosted::count_games_of(
                conn,
                account,
                HostedKind::Practice.into(),
                HostedStatus::Playing,
            )?;
            if open >= MOST_OPEN_PRACTICE_GAMES {
                return Err(HostedError::Invalid(format!(
                    "You have {open} practice games under way, the most at once: finish or \
                     resign one of them (Play lists them) before starting another."
                )));
            }
        }
        Creating::Invitation => {
            let open = crate::db::hosted::open_invitations_of(conn, account, now)?.len();
            if i64::try_from(open).unwrap_or(i64::MAX) >= MOST_OPEN_INVITATIONS {
                return Err(HostedError::Invalid(format!(
                    "You have {open} invitations open, the most at once: cancel one (Play lists \
                     them) before making another."
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_offered_clocks_are_taken() {
        assert_eq!(clock_ms(None).unwrap(), None);
        for minutes in CLOCK_MINUTES {
            assert_eq!(clock_ms(Some(minutes)).unwrap(), Some(minutes * 60_000));
        }
        for minutes in [0, 1, 29, 45, 600, -30] {
            let refused = clock_ms(Some(minutes)).unwrap_err();
            assert_eq!(refused.to_string(), clock_choices(), "{minutes}");
        }
    }
}
