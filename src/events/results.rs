//! Results: a player reports, the opponent confirms or disputes, the
//! organisers resolve disputes and may enter or correct any result. Every
//! change is kept (who, when, old → new), and a stale form changes nothing.

use super::{GameStatus, RegistrationStatus, RoundStatus};
use crate::db::WriteTransaction;
use serde::{Deserialize, Serialize};
use soulstone_engine::system::Tally;

pub use super::result_history::{
    DisputeSides, HistoryLine, dispute_sides, history_in_words, result_summary,
};
use super::rounds::EventData;
use super::{Access, Ctx, EventError, EventStatus, EventView, Role, notify, require_not_finished};
use crate::db::events::{self as db_events, GameRow, NewGame, ResultFields};
use crate::db::{DbConnection, audit};
use crate::systems::GameSystem;

/// The most VP a crew can score from the strategy and from schemes, per edition.
pub fn vp_limits(system: GameSystem) -> (i32, i32) {
    match system {
        // 4th edition: at most 5 from the strategy and 5 from schemes.
        GameSystem::Malifaux4 => (5, 5),
        // 3rd edition: 4 from the strategy, 2 from each of two schemes.
        GameSystem::Malifaux3 => (4, 4),
        // 1st edition: 4 from the strategy; up to three schemes of at most
        // 2 VP each, plus 1 each for announcing.
        GameSystem::Malifaux1 => (4, 9),
        GameSystem::MageKnight => (0, 0),
    }
}

/// Mage Knight games have 1 + number of players objectives.
pub const MAGE_KNIGHT_OBJECTIVES: i32 = 3;

/// The result form, as typed (JSON numbers are accepted too).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ResultInput {
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub a_strategy_vp: Option<String>,
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub a_scheme_vp: Option<String>,
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub b_strategy_vp: Option<String>,
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub b_scheme_vp: Option<String>,
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub a_objectives: Option<String>,
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub b_objectives: Option<String>,
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub a_eliminated: Option<String>,
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub b_eliminated: Option<String>,
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub a_army: Option<String>,
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub b_army: Option<String>,
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub a_leader: Option<String>,
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub a_crew: Option<String>,
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub b_leader: Option<String>,
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub b_crew: Option<String>,
    /// The game version the form was made from.
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub version: Option<String>,
    #[serde(deserialize_with = "crate::events::input::lenient_opt")]
    pub note: Option<String>,
}

/// Leader and crew of each side (Malifaux), as declared with the result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declarations {
    pub a: Option<(String, String)>,
    pub b: Option<(String, String)>,
}

fn number(
    problems: &mut Vec<(&'static str, String)>,
    field: &'static str,
    label: &str,
    raw: &Option<String>,
    min: i32,
    max: i32,
) -> Option<i32> {
    let raw = raw.as_deref().unwrap_or("").trim();
    match raw.parse::<i32>() {
        Ok(v) if (min..=max).contains(&v) => Some(v),
        Ok(_) => {
            problems.push((field, format!("{label} must be between {min} and {max}.")));
            None
        }
        Err(_) if raw.is_empty() => {
            problems.push((field, format!("{label} is required.")));
            None
        }
        Err(_) => {
            problems.push((field, format!("{label} must be a whole number.")));
            None
        }
    }
}

fn declaration(
    leader: &Option<String>,
    crew: &Option<String>,
) -> Result<Option<(String, String)>, String> {
    let leader = leader.as_deref().unwrap_or("").trim();
    let crew = crew.as_deref().unwrap_or("").trim();
    if leader.is_empty() && crew.is_empty() {
        return Ok(None);
    }
    if leader.chars().count() > 80 || crew.chars().count() > 2_000 {
        return Err("The leader is at most 80 characters, the crew at most 2000.".into());
    }
    Ok(Some((leader.to_owned(), crew.replace('\r', ""))))
}

impl ResultInput {
    /// Validates against the event's game system and limits.
    pub fn validate(&self, view: &EventView) -> Result<(ResultFields, Declarations), EventError> {
        let mut p = Vec::new();
        let fields = if view.system == GameSystem::MageKnight {
            let build = view.event.encounter_size;
            let fields = ResultFields {
                a_objectives: number(
                    &mut p,
                    "a_objectives",
                    "Objectives of the first player",
                    &self.a_objectives,
                    0,
                    MAGE_KNIGHT_OBJECTIVES,
                ),
                b_objectives: number(
                    &mut p,
                    "b_objectives",
                    "Objectives of the second player",
                    &self.b_objectives,
                    0,
                    MAGE_KNIGHT_OBJECTIVES,
                ),
                a_eliminated: number(
                    &mut p,
                    "a_eliminated",
                    "Points eliminated by the first player",
                    &self.a_eliminated,
                    0,
                    build,
                ),
                b_eliminated: number(
                    &mut p,
                    "b_eliminated",
                    "Points eliminated by the second player",
                    &self.b_eliminated,
                    0,
                    build,
                ),
                a_army: number(
                    &mut p,
                    "a_army",
                    "The first player's army size",
                    &self.a_army,
                    1,
                    build,
                ),
                b_army: number(
                    &mut p,
                    "b_army",
                    "The second player's army size",
                    &self.b_army,
                    1,
                    build,
                ),
                ..ResultFields::default()
            };
            if let (Some(a), Some(b)) = (fields.a_objectives, fields.b_objectives)
                && a + b > MAGE_KNIGHT_OBJECTIVES
            {
                p.push((
                    "a_objectives",
                    format!(
                        "There are only {MAGE_KNIGHT_OBJECTIVES} objectives in a two-player game."
                    ),
                ));
            }
            if let (Some(a_el), Some(b_army)) = (fields.a_eliminated, fields.b_army)
                && a_el > b_army
            {
                p.push((
                    "a_eliminated",
                    "A player cannot eliminate more points than the opposing army had.".into(),
                ));
            }
            if let (Some(b_el), Some(a_army)) = (fields.b_eliminated, fields.a_army)
                && b_el > a_army
            {
                p.push((
                    "b_eliminated",
                    "A player cannot eliminate more points than the opposing army had.".into(),
                ));
            }
            fields
        } else {
            let (strategy, schemes) = vp_limits(view.system);
            ResultFields {
                a_strategy_vp: number(
                    &mut p,
                    "a_strategy_vp",
                    "Strategy VP of the first player",
                    &self.a_strategy_vp,
                    0,
                    strategy,
                ),
                a_scheme_vp: number(
                    &mut p,
                    "a_scheme_vp",
                    "Scheme VP of the first player",
                    &self.a_scheme_vp,
                    0,
                    schemes,
                ),
                b_strategy_vp: number(
                    &mut p,
                    "b_strategy_vp",
                    "Strategy VP of the second player",
                    &self.b_strategy_vp,
                    0,
                    strategy,
                ),
                b_scheme_vp: number(
                    &mut p,
                    "b_scheme_vp",
                    "Scheme VP of the second player",
                    &self.b_scheme_vp,
                    0,
                    schemes,
                ),
                ..ResultFields::default()
            }
        };
        let mut declarations = Declarations::default();
        if view.system != GameSystem::MageKnight {
            match declaration(&self.a_leader, &self.a_crew) {
                Ok(d) => declarations.a = d,
                Err(m) => p.push(("a_leader", m)),
            }
            match declaration(&self.b_leader, &self.b_crew) {
                Ok(d) => declarations.b = d,
                Err(m) => p.push(("b_leader", m)),
            }
        }
        if p.is_empty() {
            Ok((fields, declarations))
        } else {
            Err(EventError::Invalid(p))
        }
    }

    pub fn expected_version(&self) -> Result<i32, EventError> {
        self.version
            .as_deref()
            .unwrap_or("")
            .trim()
            .parse()
            .map_err(|_| {
                EventError::invalid(
                    "version",
                    "The form is missing its version; reload the page.",
                )
            })
    }
}

/// A game of this event that has an opponent.
fn game_in(conn: &mut DbConnection, view: &EventView, game_id: i64) -> Result<GameRow, EventError> {
    let game = db_events::find_game(conn, game_id)?
        .filter(|g| g.event_id == view.id())
        .ok_or(EventError::NotFound)?;
    if game.status == GameStatus::Bye || game.player_b.is_none() {
        return Err(EventError::Conflict(
            "A bye has no result to report.".into(),
        ));
    }
    Ok(game)
}

fn round_is_published(
    conn: &mut DbConnection,
    view: &EventView,
    game: &GameRow,
) -> Result<bool, EventError> {
    let Some(round_id) = game.round_id else {
        return Ok(true);
    };
    Ok(db_events::list_rounds(conn, view.id())?
        .iter()
        .any(|r| r.id == round_id && r.status != RoundStatus::Draft))
}

/// Which side of the game the actor answers for, if any: the side they
/// play, or in a team event the side of a member of the team they captain.
pub fn side_of(access: &Access, game: &GameRow) -> Option<char> {
    let own = access.registration.as_ref().map(|r| r.id);
    let answers_for = |id: i64| own == Some(id) || access.team_members.contains(&id);
    if answers_for(game.player_a) {
        Some('a')
    } else if game.player_b.is_some_and(answers_for) {
        Some('b')
    } else {
        None
    }
}

fn stale() -> EventError {
    EventError::Conflict(
        "This result was changed by someone else while you had the page open. Nothing was saved; the page now shows the current result.".into(),
    )
}

fn result_json(fields: &ResultFields) -> String {
    serde_json::to_string(fields).unwrap_or_default()
}

/// Who confirms a result a player reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmer {
    /// The opponent, who has an account and was mailed.
    Opponent,
    /// The opponent is a walk-in without an account: the organisers.
    Organisers,
}

/// Who is asked to confirm `game`'s reported result, given who reported it.
pub fn who_confirms(
    conn: &mut DbConnection,
    access: &Access,
    game: &GameRow,
) -> Result<Confirmer, EventError> {
    let opponent = match side_of(access, game) {
        Some('a') => game.player_b,
        Some(_) => Some(game.player_a),
        None => None,
    };
    // A team member's result is confirmed by their captain if they have
    // no account of their own.
    let has_account = match opponent {
        Some(id) => db_events::find_registration(conn, id)?
            .is_some_and(|r| r.account_id.is_some() || r.team_id.is_some()),
        None => false,
    };
    Ok(if has_account {
        Confirmer::Opponent
    } else {
        Confirmer::Organisers
    })
}

/// Reports (player) or enters (staff) a result.
pub fn report(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    game_id: i64,
    input: &ResultInput,
    ctx: &Ctx<'_>,
) -> Result<GameRow, EventError> {
    require_not_finished(view, access)?;
    let (fields, declarations) = input.validate(view)?;
    let expected = input.expected_version()?;
    conn.write_transaction(|conn| {
        let game = game_in(conn, view, game_id)?;
        if !round_is_published(conn, view, &game)? {
            return Err(EventError::Conflict(
                "This round is not published yet.".into(),
            ));
        }
        let side = side_of(access, &game);
        let staff = access.is_staff();
        if side.is_none() && !staff {
            return Err(EventError::Forbidden(
                "Only the two players and the organisers can report this result.".into(),
            ));
        }
        if !staff && crate::db::hosted::is_digital(conn, game.id)? {
            return Err(EventError::Conflict(
                "This game is played in the browser: its result reports itself when the game ends. Ask an organiser if something went wrong.".into(),
            ));
        }
        if game.version != expected {
            return Err(stale());
        }
        let actor = access.account_id();
        let before = (game.status != GameStatus::Pending).then(|| result_json(&ResultFields::of(&game)));
        let (status, action) = if staff && side.is_none() {
            (
                GameStatus::Resolved,
                if game.status == GameStatus::Pending {
                    "entered"
                } else {
                    "corrected"
                },
            )
        } else if staff
            && matches!(
                game.status,
                GameStatus::Confirmed | GameStatus::Resolved | GameStatus::Disputed
            )
        {
            (GameStatus::Resolved, "corrected")
        } else {
            match game.status {
                GameStatus::Pending => (GameStatus::Reported, "reported"),
                GameStatus::Reported if game.reported_by == actor => (GameStatus::Reported, "amended"),
                // Both players reported: the same result confirms it, another disputes it.
                GameStatus::Reported if ResultFields::of(&game) == fields => (GameStatus::Confirmed, "confirmed"),
                GameStatus::Reported => (GameStatus::Disputed, "disputed"),
                _ => {
                    return Err(EventError::Conflict(
                        "This result is settled. Ask an organiser if it needs correcting.".into(),
                    ));
                }
            }
        };
        let reported_by = (status == GameStatus::Reported).then_some(Some(actor).flatten());
        let confirmed_by = (status == GameStatus::Confirmed).then_some(actor);
        let note = (status == GameStatus::Disputed)
            .then_some(Some("The two players reported different results."));
        if !db_events::write_result(
            conn,
            game.id,
            expected,
            Some(&fields),
            status,
            reported_by,
            confirmed_by,
            note,
            ctx.now,
        )? {
            return Err(stale());
        }
        for (registration, declared) in [
            (Some(game.player_a), &declarations.a),
            (game.player_b, &declarations.b),
        ] {
            if let (Some(registration), Some((leader, crew))) = (registration, declared) {
                db_events::set_declaration(conn, game.id, registration, leader, crew)?;
            }
        }
        let after = result_json(&fields);
        db_events::record_result_change(
            conn,
            game.id,
            view.id(),
            actor,
            action,
            before.as_deref(),
            Some(&after),
            None,
            ctx.now,
        )?;
        if view.status == EventStatus::Finished && access.role == Role::Admin {
            audit::record(
                conn,
                actor,
                Some(view.id()),
                "result.corrected",
                &format!("game {}", game.id),
                ctx.now,
            )?;
        }
        if status == GameStatus::Disputed {
            tell_organisers_of_dispute(conn, view, game.id, ctx)?;
        }
        if game.status == GameStatus::Disputed && status == GameStatus::Resolved {
            let data = EventData::load(conn, view.id())?;
            let players: Vec<&crate::db::events::Registration> = std::iter::once(game.player_a)
                .chain(game.player_b)
                .filter_map(|id| data.registration(id))
                .collect();
            let summary = result_summary(
                data.name_of(game.player_a),
                game.player_b.map_or("bye", |b| data.name_of(b)),
                &game,
                &fields,
            );
            notify::dispute_resolved(conn, view, &game, &players, &summary, ctx)?;
        }
        if status == GameStatus::Reported {
            let opponent = if side == Some('a') {
                game.player_b
            } else {
                Some(game.player_a)
            };
            let opponent = match opponent {
                Some(id) => db_events::find_registration(conn, id)?,
                None => None,
            };
            if let Some(opponent) = opponent {
                let reporter = access
                    .registration
                    .as_ref()
                    .map(|r| r.display_name.clone())
                    .unwrap_or_else(|| "An organiser".into());
                let (a, b) = if side == Some('a') {
                    (reporter.clone(), opponent.display_name.clone())
                } else {
                    (opponent.display_name.clone(), reporter.clone())
                };
                let summary = result_summary(&a, &b, &game, &fields);
                notify::result_to_confirm(conn, view, &game, &reporter, &opponent, &summary, ctx)?;
            }
        }
        db_events::find_game(conn, game.id)?.ok_or(EventError::NotFound)
    })
}

/// The opponent (or staff) confirms a reported result.
pub fn confirm(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    game_id: i64,
    expected: i32,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    require_not_finished(view, access)?;
    conn.write_transaction(|conn| {
        let game = game_in(conn, view, game_id)?;
        let side = side_of(access, &game);
        let actor = access.account_id();
        if side.is_none() && !access.is_staff() {
            return Err(EventError::Forbidden(
                "Only the players of this game and the organisers can confirm its result.".into(),
            ));
        }
        if game.status != GameStatus::Reported {
            return Err(EventError::Conflict(
                "There is no reported result waiting for confirmation.".into(),
            ));
        }
        if side.is_some() && game.reported_by == actor && !access.is_staff() {
            return Err(EventError::Forbidden(
                "Only the opponent of the player who reported can confirm.".into(),
            ));
        }
        if !db_events::write_result(
            conn,
            game.id,
            expected,
            None,
            GameStatus::Confirmed,
            None,
            Some(actor),
            None,
            ctx.now,
        )? {
            return Err(stale());
        }
        db_events::record_result_change(
            conn,
            game.id,
            view.id(),
            actor,
            "confirmed",
            None,
            None,
            None,
            ctx.now,
        )?;
        Ok(())
    })
}

/// The opponent disputes a reported result; an organiser resolves it.
pub fn dispute(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    game_id: i64,
    expected: i32,
    note: &str,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    require_not_finished(view, access)?;
    let note = note.trim();
    if note.chars().count() > 1_000 {
        return Err(EventError::invalid(
            "note",
            "The note is at most 1000 characters.",
        ));
    }
    if let Some(problem) = crate::auth::input::text_block_problem(note, "The note") {
        return Err(EventError::invalid("note", problem));
    }
    conn.write_transaction(|conn| {
        let game = game_in(conn, view, game_id)?;
        let side = side_of(access, &game);
        let actor = access.account_id();
        if side.is_none() {
            return Err(EventError::Forbidden(
                "Only the players of this game can dispute its result.".into(),
            ));
        }
        if game.status != GameStatus::Reported {
            return Err(EventError::Conflict(
                "Only a reported result can be disputed.".into(),
            ));
        }
        if game.reported_by == actor {
            return Err(EventError::Forbidden(
                "Only the opponent of the player who reported can dispute.".into(),
            ));
        }
        let note = if note.is_empty() {
            "Disputed by the opponent."
        } else {
            note
        };
        if !db_events::write_result(
            conn,
            game.id,
            expected,
            None,
            GameStatus::Disputed,
            None,
            None,
            Some(Some(note)),
            ctx.now,
        )? {
            return Err(stale());
        }
        db_events::record_result_change(
            conn,
            game.id,
            view.id(),
            actor,
            "disputed",
            None,
            None,
            Some(note),
            ctx.now,
        )?;
        tell_organisers_of_dispute(conn, view, game.id, ctx)
    })
}

/// Mails the organisers and judges that a game's result is disputed, with
/// what each side said.
fn tell_organisers_of_dispute(
    conn: &mut DbConnection,
    view: &EventView,
    game_id: i64,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    let game = db_events::find_game(conn, game_id)?.ok_or(EventError::NotFound)?;
    let data = EventData::load(conn, view.id())?;
    let changes = db_events::changes_of_game(conn, game_id)?;
    let Some(sides) = dispute_sides(&data, &game, &changes)? else {
        return Ok(());
    };
    let round = data
        .round_number_of(&game)
        .map(|r| format!("round {r}, "))
        .unwrap_or_default();
    let table = game
        .table_number
        .map(|t| format!("table {t}: "))
        .unwrap_or_default();
    let title = format!(
        "{round}{table}{} v {}",
        data.name_of(game.player_a),
        game.player_b.map_or("bye", |b| data.name_of(b))
    );
    notify::dispute_opened(conn, view, &game, &title, &sides.claims, ctx)
}

/// An open league's cap on games against one opponent. Call it under the
/// event's lock, so that it holds when both players record at once.
pub(crate) fn check_games_against(
    view: &EventView,
    data: &EventData,
    me: i64,
    opponent: &crate::db::events::Registration,
) -> Result<(), EventError> {
    let Some(cap) = view.settings.league.max_games_vs_same else {
        return Ok(());
    };
    let played = data
        .games
        .iter()
        .filter(|g| {
            let pair = (g.player_a, g.player_b.unwrap_or(-1));
            pair == (me, opponent.id) || pair == (opponent.id, me)
        })
        .count();
    if played >= cap as usize {
        return Err(EventError::Conflict(format!(
            "You have already recorded {played} game(s) against {}; this league allows {cap}.",
            opponent.display_name
        )));
    }
    Ok(())
}

/// League open play: a registered player records a game against another.
/// `submission_key` comes from the form: a second submission with the same
/// key (a double click, a retry) answers with the game the first recorded.
pub fn record_open_game(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    opponent_id: i64,
    input: &ResultInput,
    submission_key: Option<&str>,
    ctx: &Ctx<'_>,
) -> Result<GameRow, EventError> {
    if !view.is_open_league() {
        return Err(EventError::Conflict(
            "Only open-play leagues record games outside rounds.".into(),
        ));
    }
    if view.status != EventStatus::Running {
        return Err(EventError::Conflict(
            "Games can be recorded while the league is running.".into(),
        ));
    }
    let me = access
        .registration
        .clone()
        .filter(|r| r.status == RegistrationStatus::Registered && !r.dropped)
        .ok_or_else(|| {
            EventError::Forbidden("Only registered players can record league games.".into())
        })?;
    if opponent_id == me.id {
        return Err(EventError::invalid(
            "opponent",
            "Choose an opponent other than yourself.",
        ));
    }
    let (fields, declarations) = input.validate(view)?;
    // Counted under the event's lock: the cap on games against one opponent
    // holds when both players record at once.
    let account = access.account_id().ok_or_else(|| {
        EventError::Forbidden("Only registered players can record league games.".into())
    })?;
    db_events::event_write_transaction(conn, view.id(), |conn| {
        let game =
            super::once_per_submission(conn, account, submission_key, "game", ctx.now, |conn| {
                let opponent = db_events::find_registration(conn, opponent_id)?
                    .filter(|r| {
                        r.event_id == view.id()
                            && r.status == RegistrationStatus::Registered
                            && !r.dropped
                    })
                    .ok_or_else(|| {
                        EventError::invalid(
                            "opponent",
                            "Choose a registered player of this league.",
                        )
                    })?;
                let data = EventData::load(conn, view.id())?;
                check_games_against(view, &data, me.id, &opponent)?;
                let game = db_events::insert_game(
                    conn,
                    &NewGame {
                        event_id: view.id(),
                        round_id: None,
                        table_number: None,
                        player_a: me.id,
                        player_b: Some(opponent.id),
                        status: GameStatus::Pending,
                        played_at: Some(ctx.now),
                        created_at: ctx.now,
                        updated_at: ctx.now,
                        team_match_id: None,
                    },
                )?;
                let actor = access.account_id();
                if !db_events::write_result(
                    conn,
                    game.id,
                    game.version,
                    Some(&fields),
                    GameStatus::Reported,
                    Some(actor),
                    None,
                    None,
                    ctx.now,
                )? {
                    return Err(stale());
                }
                for (registration, declared) in
                    [(me.id, &declarations.a), (opponent.id, &declarations.b)]
                {
                    if let Some((leader, crew)) = declared {
                        db_events::set_declaration(conn, game.id, registration, leader, crew)?;
                    }
                }
                db_events::record_result_change(
                    conn,
                    game.id,
                    view.id(),
                    actor,
                    "reported",
                    None,
                    Some(&result_json(&fields)),
                    None,
                    ctx.now,
                )?;
                let summary =
                    result_summary(&me.display_name, &opponent.display_name, &game, &fields);
                notify::result_to_confirm(
                    conn,
                    view,
                    &game,
                    &me.display_name,
                    &opponent,
                    &summary,
                    ctx,
                )?;
                Ok(game.id)
            })?;
        db_events::find_game(conn, game)?.ok_or(EventError::NotFound)
    })
}

/// How a game played in the browser ended, for its event result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineEnd<'a> {
    /// The rules ended it (after turn 4): the result stands, confirmed.
    Rules,
    /// A player's clock ran out: what the event's setting says happens.
    Time { note: &'a str },
    /// A player resigned: the organisers decide.
    Resignation { note: &'a str },
    /// A player claimed their opponent had gone: the organisers confirm.
    Absence { note: &'a str },
    /// The rules ended it, but a claim for an objective the engine cannot
    /// score was disputed: the organisers decide.
    DisputedClaims { note: &'a str },
}

/// Records the final VP of a game played in the browser as its pairing's
/// result, marked as reported by the engine. A game the rules ended is
/// confirmed at once; one stopped by a resignation or a claimed absence
/// goes to the organisers as disputed, with the score so far and why, and
/// so does one whose players disputed a claim; one whose clock ran out
/// does either, as the event's setting says.
pub fn record_engine_result(
    conn: &mut DbConnection,
    game_id: i64,
    tally: Tally,
    end: EngineEnd<'_>,
    now: chrono::NaiveDateTime,
) -> Result<(), EventError> {
    let game = db_events::find_game(conn, game_id)?.ok_or(EventError::NotFound)?;
    if !matches!(
        game.status,
        GameStatus::Pending | GameStatus::Reported | GameStatus::Disputed
    ) {
        return Ok(());
    }
    let fields = match tally {
        Tally::VictoryPoints { strategy, schemes } => ResultFields {
            a_strategy_vp: Some(strategy[0]),
            a_scheme_vp: Some(schemes[0]),
            b_strategy_vp: Some(strategy[1]),
            b_scheme_vp: Some(schemes[1]),
            ..ResultFields::default()
        },
        Tally::Objectives {
            objectives,
            eliminated,
            army,
        } => ResultFields {
            a_objectives: Some(objectives[0]),
            b_objectives: Some(objectives[1]),
            a_eliminated: Some(eliminated[0]),
            b_eliminated: Some(eliminated[1]),
            a_army: Some(army[0]),
            b_army: Some(army[1]),
            ..ResultFields::default()
        },
    };
    let clock_out = match db_events::find_event(conn, game.event_id)? {
        Some(event) => EventView::from_row(event)?.settings.digital.clock_out,
        None => super::ClockOut::default(),
    };
    let before =
        (game.status != GameStatus::Pending).then(|| result_json(&ResultFields::of(&game)));
    let (status, action, note, dispute) = match end {
        EngineEnd::Rules => (
            GameStatus::Confirmed,
            "reported by the engine",
            "Played in the browser; the rules engine adjudicated the game.",
            None,
        ),
        EngineEnd::Time { note } if clock_out == super::ClockOut::ScoreSoFar => (
            GameStatus::Confirmed,
            "a clock ran out: the score so far stands",
            note,
            None,
        ),
        EngineEnd::Time { note } => (
            GameStatus::Disputed,
            "stopped in the browser",
            note,
            Some(note),
        ),
        EngineEnd::Resignation { note } => (
            GameStatus::Disputed,
            "stopped in the browser",
            note,
            Some(note),
        ),
        EngineEnd::Absence { note } => (
            GameStatus::Disputed,
            "an absence claimed in the browser",
            note,
            Some(note),
        ),
        EngineEnd::DisputedClaims { note } => (
            GameStatus::Disputed,
            "claims disputed in the browser",
            note,
            Some(note),
        ),
    };
    if !db_events::write_result(
        conn,
        game.id,
        game.version,
        Some(&fields),
        status,
        Some(None),
        Some(None),
        Some(dispute),
        now,
    )? {
        return Err(stale());
    }
    db_events::record_result_change(
        conn,
        game.id,
        game.event_id,
        None,
        action,
        before.as_deref(),
        Some(&result_json(&fields)),
        Some(note),
        now,
    )?;
    Ok(())
}
