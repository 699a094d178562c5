//! Entries: self-registration with a cap and waitlist, walk-ins, check-in,
//! drops, late entries, and declarations (faction, army list).

use super::RegistrationStatus;
use crate::db::WriteTransaction;
use soulstone_engine::Edition;
use soulstone_engine::content::Catalog;
use soulstone_engine::content::crew::CrewList;

use super::notify;
use super::{Access, Ctx, EventError, EventStatus, EventView, Role, require_not_finished};
use crate::auth::input::{DisplayName, EmailAddress, optional_multiline_text, optional_text};
use crate::db::events::{self as db_events, NewRegistration, RegistrationChanges};

pub use crate::db::events::Registration;
use crate::db::{DbConnection, accounts, audit};
use crate::systems::GameSystem;

/// Why registration is closed right now, if it is.
pub fn registration_closed_reason(view: &EventView, now: chrono::NaiveDateTime) -> Option<String> {
    // An open league takes new players while it runs: they record games
    // from the day they join, and there is no round to miss.
    let open_league_running = view.is_open_league() && view.status == EventStatus::Running;
    if view.status != EventStatus::Registration && !open_league_running {
        return Some(match view.status {
            EventStatus::Draft => "Registration has not opened yet.".into(),
            EventStatus::Running => {
                "The event has started; ask the organiser about a late entry.".into()
            }
            _ => "The event is over.".into(),
        });
    }
    if let Some(opens) = view.event.registration_opens_at
        && now < opens
    {
        return Some(format!("Registration opens {}.", view.local_time(opens)));
    }
    if let Some(closes) = view.event.registration_closes_at
        && now >= closes
    {
        return Some(format!("Registration closed {}.", view.local_time(closes)));
    }
    None
}

/// Whether `registered` players fill the event's cap (no cap: never).
pub fn is_full(view: &EventView, registered: usize) -> bool {
    view.event
        .player_cap
        .is_some_and(|cap| registered >= usize::try_from(cap).unwrap_or(0))
}

/// Whether an event's venue code opens sign-up now: while the event takes
/// registrations or runs (late entries, the players of its rounds).
pub fn takes_venue_signups(conn: &mut DbConnection, event_id: i64) -> Result<bool, EventError> {
    Ok(venue_event_name(conn, event_id)?.is_some())
}

/// The name of the event, if it takes venue sign-ups (and sign-ins) now.
pub fn venue_event_name(
    conn: &mut DbConnection,
    event_id: i64,
) -> Result<Option<String>, EventError> {
    Ok(db_events::find_event(conn, event_id)?
        .filter(|event| {
            matches!(
                event.status,
                EventStatus::Registration | EventStatus::Running
            )
        })
        .map(|event| event.name))
}

/// The number of the round being played (0 before the first pairing).
fn current_round(conn: &mut DbConnection, event_id: i64) -> Result<i32, EventError> {
    Ok(db_events::list_rounds(conn, event_id)?
        .last()
        .map(|r| r.number)
        .unwrap_or(0))
}

/// A player signs up: registered while there is room, waitlisted after.
pub fn register_self(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    ctx: &Ctx<'_>,
) -> Result<Registration, EventError> {
    let actor = access
        .actor
        .ok_or_else(|| EventError::Forbidden("Sign in to register.".into()))?;
    actor.require_confirmed()?;
    if view.settings.teams.is_some() {
        return Err(EventError::Conflict(
            "This is a team event: a captain registers the whole team on the teams page.".into(),
        ));
    }
    if let Some(reason) = registration_closed_reason(view, ctx.now) {
        return Err(EventError::Conflict(reason));
    }
    // Counted under the event's lock: the cap holds when sign-ups race.
    db_events::event_write_transaction(conn, view.id(), |conn| {
        let account = accounts::find_by_id(conn, actor.account_id)?.ok_or(EventError::NotFound)?;
        let registered = db_events::count_registered(conn, view.id())?;
        let full = view
            .event
            .player_cap
            .is_some_and(|cap| registered >= i64::from(cap));
        let status = if full {
            RegistrationStatus::Waitlisted
        } else {
            RegistrationStatus::Registered
        };
        if let Some(existing) = db_events::registration_of(conn, view.id(), actor.account_id)? {
            if existing.status != RegistrationStatus::Withdrawn {
                return Err(EventError::Conflict(
                    "You are already registered for this event.".into(),
                ));
            }
            // Coming back after withdrawing: back of the queue.
            db_events::update_registration(
                conn,
                existing.id,
                &RegistrationChanges {
                    status: Some(status),
                    dropped: Some(false),
                    ..RegistrationChanges::default()
                },
            )?;
            return db_events::find_registration(conn, existing.id)?.ok_or(EventError::NotFound);
        }
        let registration = db_events::insert_registration(
            conn,
            &NewRegistration {
                event_id: view.id(),
                account_id: Some(account.id),
                display_name: &account.display_name,
                club: account.club.as_deref(),
                status,
                checked_in: false,
                joined_round: 1,
                initial_points: 0,
                registered_at: ctx.now,
                team_id: None,
                team_board: None,
            },
        )?
        .ok_or_else(|| EventError::Conflict("You are already registered for this event.".into()))?;
        Ok(registration)
    })
}

/// A player withdraws before the event starts (afterwards they drop).
pub fn withdraw_self(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    let registration = access
        .registration
        .clone()
        .filter(|r| r.status != RegistrationStatus::Withdrawn)
        .ok_or_else(|| EventError::Conflict("You are not registered for this event.".into()))?;
    if registration.team_id.is_some() {
        return super::teams::withdraw_team(conn, view, access, ctx);
    }
    match view.status {
        EventStatus::Draft | EventStatus::Registration => conn.write_transaction(|conn| {
            db_events::update_registration(
                conn,
                registration.id,
                &RegistrationChanges {
                    status: Some(RegistrationStatus::Withdrawn),
                    checked_in: Some(false),
                    ..RegistrationChanges::default()
                },
            )?;
            promote_waitlist(conn, view, ctx)?;
            Ok(())
        }),
        EventStatus::Running => set_dropped(conn, view, access, registration.id, true, ctx),
        EventStatus::Finished => Err(EventError::Conflict("The event is over.".into())),
    }
}

/// Every entry of the event (withdrawn and waitlisted ones too), for its
/// staff: the desk at the door.
pub fn entries(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
) -> Result<Vec<Registration>, EventError> {
    access.require_staff()?;
    Ok(db_events::list_registrations(conn, view.id())?)
}

/// Moves waitlisted players up while there is room; mails each of them.
pub fn promote_waitlist(
    conn: &mut DbConnection,
    view: &EventView,
    ctx: &Ctx<'_>,
) -> Result<Vec<Registration>, EventError> {
    if !matches!(view.status, EventStatus::Draft | EventStatus::Registration) {
        return Ok(Vec::new());
    }
    db_events::lock_event(conn, view.id())?;
    let all = db_events::list_registrations(conn, view.id())?;
    let registered = all
        .iter()
        .filter(|r| r.status == RegistrationStatus::Registered)
        .count() as i64;
    let room = match view.event.player_cap {
        Some(cap) => usize::try_from((i64::from(cap) - registered).max(0)).unwrap_or(0),
        None => usize::MAX,
    };
    let mut promoted = Vec::new();
    for waiting in all
        .iter()
        .filter(|r| r.status == RegistrationStatus::Waitlisted)
        .take(room)
    {
        db_events::update_registration(
            conn,
            waiting.id,
            &RegistrationChanges {
                status: Some(RegistrationStatus::Registered),
                ..RegistrationChanges::default()
            },
        )?;
        notify::waitlist_promoted(conn, view, waiting, ctx)?;
        promoted.push(waiting.clone());
    }
    Ok(promoted)
}

/// What the organiser types to add a player without an account.
pub struct WalkIn<'a> {
    pub name: &'a str,
    pub club: &'a str,
    /// Starting tournament points (a late entry, a league's carried score).
    pub initial_points: i32,
    /// Made when the form was shown: a second submission of the same form
    /// (a double tap on a slow connection) adds nobody twice.
    pub submission_key: Option<&'a str>,
}

/// The organiser adds a player without an account (name only), before the
/// event or as a late entry with the given starting points.
///
/// A name already entered is refused (a double entry is the usual mistake;
/// two people of one name are told apart by an initial), and so is an
/// entry beyond the player cap: account holders wait on the waitlist for
/// those places, so the organiser raises the cap or promotes them first.
pub fn add_walk_in(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    walk_in: &WalkIn<'_>,
    ctx: &Ctx<'_>,
) -> Result<Registration, EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    super::teams::require_individual_event(view, "Adding a single walk-in")?;
    let name =
        DisplayName::parse(walk_in.name).map_err(|e| EventError::invalid("name", e.to_string()))?;
    let club = optional_text(walk_in.club, "Club", 80)
        .map_err(|e| EventError::invalid("club", e.to_string()))?;
    let initial_points = walk_in.initial_points;
    if !STARTING_POINTS.contains(&initial_points) {
        return Err(EventError::invalid(
            "initial_points",
            "Starting points must be between 0 and 100.",
        ));
    }
    let account_id = access
        .account_id()
        .ok_or_else(|| EventError::Forbidden("Please sign in to continue.".into()))?;
    let id = super::once_per_submission(
        conn,
        account_id,
        walk_in.submission_key,
        "registration",
        ctx.now,
        |conn| {
            // Under the event's lock: two taps at once add one player.
            db_events::lock_event(conn, view.id())?;
            let entries = db_events::list_registrations(conn, view.id())?;
            if let Some(same) = entries.iter().find(|r| {
                r.status != RegistrationStatus::Withdrawn
                    && r.display_name.to_lowercase() == name.as_str().to_lowercase()
            }) {
                return Err(EventError::invalid(
                    "name",
                    format!(
                        "{} is already entered ({}). If this is someone else, add an initial to tell them apart.",
                        same.display_name, same.status
                    ),
                ));
            }
            let registered = entries
                .iter()
                .filter(|r| r.status == RegistrationStatus::Registered)
                .count();
            if let Some(cap) = view.event.player_cap
                && registered >= usize::try_from(cap).unwrap_or(0)
            {
                let waiting = entries
                    .iter()
                    .filter(|r| r.status == RegistrationStatus::Waitlisted)
                    .count();
                let waitlist = if waiting > 0 {
                    format!(
                        " {waiting} on the waitlist are ahead of a walk-in: promote them first, or"
                    )
                } else {
                    " To add more,".into()
                };
                return Err(EventError::Conflict(format!(
                    "The event is full ({registered} of {cap} places).{waitlist} raise the player cap in the event's settings."
                )));
            }
            let round = current_round(conn, view.id())?;
            // Late entries join the next round to be paired.
            let joined_round = if view.status == EventStatus::Running {
                round + 1
            } else {
                1
            };
            let registration = db_events::insert_registration(
                conn,
                &NewRegistration {
                    event_id: view.id(),
                    account_id: None,
                    display_name: name.as_str(),
                    club: club.as_deref(),
                    status: RegistrationStatus::Registered,
                    checked_in: view.status == EventStatus::Running,
                    joined_round,
                    initial_points,
                    registered_at: ctx.now,
                    team_id: None,
                    team_board: None,
                },
            )?
            .ok_or_else(|| EventError::Conflict("That player is already registered.".into()))?;
            audit::record(
                conn,
                access.account_id(),
                Some(view.id()),
                "player.added",
                &format!("{} (round {joined_round})", name.as_str()),
                ctx.now,
            )?;
            Ok(registration.id)
        },
    )?;
    db_events::find_registration(conn, id)?.ok_or(EventError::NotFound)
}

/// The organiser takes back an entry made by mistake. Only an entry with
/// no games can go (one who played is dropped instead, so results stay);
/// a freed place goes to the waitlist.
pub fn remove_entry(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    registration_id: i64,
    ctx: &Ctx<'_>,
) -> Result<String, EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    db_events::event_write_transaction(conn, view.id(), |conn| {
        let registration = registration_in(conn, view, registration_id)?;
        if db_events::count_games_of(conn, registration.id)? > 0 {
            return Err(EventError::Conflict(format!(
                "{} has games in this event, so the entry stays: drop them instead.",
                registration.display_name
            )));
        }
        db_events::delete_registration(conn, registration.id)?;
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "player.removed",
            &registration.display_name,
            ctx.now,
        )?;
        if registration.status == RegistrationStatus::Registered {
            promote_waitlist(conn, view, ctx)?;
        }
        Ok(registration.display_name)
    })
}

/// The organiser gives a waitlisted player a place while there is room
/// under the cap (to go beyond it, the organiser raises the cap first, a
/// decision the event's settings record); the player is mailed.
pub fn promote_from_waitlist(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    registration_id: i64,
    ctx: &Ctx<'_>,
) -> Result<String, EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    db_events::event_write_transaction(conn, view.id(), |conn| {
        let registration = registration_in(conn, view, registration_id)?;
        if registration.status != RegistrationStatus::Waitlisted {
            return Err(EventError::Conflict(format!(
                "{} is not on the waitlist.",
                registration.display_name
            )));
        }
        // Counted under the event's lock, so two taps cannot both take the
        // last place.
        let registered = db_events::list_registrations(conn, view.id())?
            .iter()
            .filter(|r| r.status == RegistrationStatus::Registered)
            .count();
        if let Some(cap) = view.event.player_cap.filter(|_| is_full(view, registered)) {
            return Err(EventError::Conflict(format!(
                "The event is full ({registered} of {cap} places): to give {} a place, raise the cap in the event's settings first.",
                registration.display_name
            )));
        }
        let round = current_round(conn, view.id())?;
        db_events::update_registration(
            conn,
            registration.id,
            &RegistrationChanges {
                status: Some(RegistrationStatus::Registered),
                // Promoted during the event: a late entry for the next round.
                joined_round: (view.status == EventStatus::Running).then_some(round + 1),
                ..RegistrationChanges::default()
            },
        )?;
        notify::waitlist_promoted(conn, view, &registration, ctx)?;
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "player.promoted",
            &registration.display_name,
            ctx.now,
        )?;
        Ok(registration.display_name)
    })
}

fn registration_in(
    conn: &mut DbConnection,
    view: &EventView,
    registration_id: i64,
) -> Result<Registration, EventError> {
    db_events::find_registration(conn, registration_id)?
        .filter(|r| r.event_id == view.id())
        .ok_or(EventError::NotFound)
}

/// Links a walk-in entry to an account, so its holder can report results.
pub fn link_walk_in(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    registration_id: i64,
    raw_email: &str,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    let email =
        EmailAddress::parse(raw_email).map_err(|e| EventError::invalid("email", e.to_string()))?;
    conn.write_transaction(|conn| {
        let registration = registration_in(conn, view, registration_id)?;
        if registration.account_id.is_some() {
            return Err(EventError::Conflict(
                "This entry already belongs to an account.".into(),
            ));
        }
        let account = accounts::find_by_email(conn, email.as_str())?
            .ok_or_else(|| EventError::invalid("email", "No account uses that address."))?;
        if db_events::registration_of(conn, view.id(), account.id)?.is_some() {
            return Err(EventError::Conflict(format!(
                "{} already has an entry in this event.",
                account.display_name
            )));
        }
        db_events::update_registration(
            conn,
            registration.id,
            &RegistrationChanges {
                account_id: Some(Some(account.id)),
                ..RegistrationChanges::default()
            },
        )?;
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "player.linked",
            &format!("{} → {}", registration.display_name, account.email),
            ctx.now,
        )?;
        Ok(())
    })
}

pub fn set_checked_in(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    registration_id: i64,
    checked_in: bool,
) -> Result<(), EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    let registration = registration_in(conn, view, registration_id)?;
    if registration.status != RegistrationStatus::Registered {
        return Err(EventError::Conflict(format!(
            "{} is {} and cannot be checked in.",
            registration.display_name, registration.status
        )));
    }
    db_events::update_registration(
        conn,
        registration.id,
        &RegistrationChanges {
            checked_in: Some(checked_in),
            ..RegistrationChanges::default()
        },
    )?;
    Ok(())
}

/// Checks in every entry named, in one go (the organiser ticks who is
/// there). Entries not registered (waitlisted, withdrawn) or of another
/// event are refused, and then nobody is checked in. Returns how many were
/// checked in now.
pub fn check_in_many(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    registration_ids: &[i64],
) -> Result<usize, EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    if registration_ids.is_empty() {
        return Err(EventError::invalid(
            "present",
            "Tick the players who are here, then check them in.",
        ));
    }
    conn.write_transaction(|conn| {
        let mut checked = 0;
        for &id in registration_ids {
            let registration = registration_in(conn, view, id).map_err(|err| match err {
                EventError::NotFound => EventError::Conflict(
                    "One of the ticked entries is no longer in this event (removed meanwhile?); nobody was checked in. Look again and tick anew.".into(),
                ),
                other => other,
            })?;
            if registration.status != RegistrationStatus::Registered {
                return Err(EventError::Conflict(format!(
                    "{} is {} and cannot be checked in; nobody was checked in.",
                    registration.display_name, registration.status
                )));
            }
            if !registration.checked_in {
                db_events::update_registration(
                    conn,
                    registration.id,
                    &RegistrationChanges {
                        checked_in: Some(true),
                        ..RegistrationChanges::default()
                    },
                )?;
                checked += 1;
            }
        }
        Ok(checked)
    })
}

/// Drops (or un-drops) a player: staff for anyone, players for themselves.
pub fn set_dropped(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    registration_id: i64,
    dropped: bool,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    require_not_finished(view, access)?;
    let own = access
        .registration
        .as_ref()
        .is_some_and(|r| r.id == registration_id);
    if !(access.is_staff() || own) {
        return Err(EventError::Forbidden("Only organisers can do that.".into()));
    }
    // Under the event's lock: pairing the next round and taking a drop
    // back cannot pass each other.
    db_events::event_write_transaction(conn, view.id(), |conn| {
        let registration = registration_in(conn, view, registration_id)?;
        let round = current_round(conn, view.id())?;
        if !dropped && !access.is_staff() && !registration.dropped {
            // Not dropped: nothing to take back.
            return Ok(());
        }
        if !dropped && !access.is_staff() && !may_take_back_drop(&registration, round) {
            return Err(EventError::Conflict(
                "A round has been paired since you dropped; ask an organiser to bring you back."
                    .into(),
            ));
        }
        // In a team event the team drops (and comes back) as a whole: a
        // match needs every board. So only its captain or the organisers
        // may do it.
        if registration.team_id.is_some() && !access.is_staff() && access.team_members.is_empty() {
            return Err(EventError::Forbidden(
                "Your team drops as a whole: ask your captain or the organisers.".into(),
            ));
        }
        let affected: Vec<Registration> = match registration.team_id {
            Some(team) => db_events::list_registrations(conn, view.id())?
                .into_iter()
                .filter(|r| r.team_id == Some(team))
                .collect(),
            None => vec![registration.clone()],
        };
        for entry in &affected {
            db_events::update_registration(
                conn,
                entry.id,
                &RegistrationChanges {
                    dropped: Some(dropped),
                    dropped_after_round: Some(dropped.then_some(round)),
                    ..RegistrationChanges::default()
                },
            )?;
        }
        let action = if dropped {
            "player.dropped"
        } else {
            "player.undropped"
        };
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            action,
            &registration.display_name,
            ctx.now,
        )?;
        Ok(())
    })
}

/// Whether a player who dropped may come back by themselves: until the
/// next round is paired (after that only an organiser brings them back).
pub fn may_take_back_drop(registration: &Registration, current_round: i32) -> bool {
    registration.dropped && registration.dropped_after_round == Some(current_round)
}

/// What an organiser may change about an entry.
#[derive(Debug, Clone, Default)]
pub struct EntryUpdate {
    pub display_name: String,
    pub club: String,
    pub initial_points: String,
    pub fixed_table: String,
}

pub fn update_entry(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    registration_id: i64,
    update: &EntryUpdate,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    access.require_staff()?;
    require_not_finished(view, access)?;
    let mut problems = Vec::new();
    let name = DisplayName::parse(&update.display_name)
        .map_err(|e| problems.push(("display_name", e.to_string())))
        .ok();
    let club = optional_text(&update.club, "Club", 80)
        .map_err(|e| problems.push(("club", e.to_string())))
        .ok();
    let initial_points = match update.initial_points.trim() {
        "" => Some(0),
        raw => match raw.parse::<i32>() {
            Ok(v) if STARTING_POINTS.contains(&v) => Some(v),
            _ => {
                problems.push((
                    "initial_points",
                    "Starting points must be a whole number between 0 and 100.".into(),
                ));
                None
            }
        },
    };
    let fixed_table = match update.fixed_table.trim() {
        "" => Some(None),
        raw => {
            let last = view
                .settings
                .tables
                .map_or(5_000, |t| i32::try_from(t).unwrap_or(5_000));
            match raw.parse::<i32>() {
                Ok(v) if (1..=last).contains(&v) => Some(Some(v)),
                _ => {
                    let among = match view.settings.tables {
                        Some(tables) => format!(" from 1 to {tables}, the tables at the venue"),
                        None => " from 1".into(),
                    };
                    problems.push((
                        "fixed_table",
                        format!("A fixed table is a table number{among}."),
                    ));
                    None
                }
            }
        }
    };
    let (Some(name), Some(club), Some(initial_points), Some(fixed_table)) =
        (name, club, initial_points, fixed_table)
    else {
        return Err(EventError::Invalid(problems));
    };
    db_events::event_write_transaction(conn, view.id(), |conn| {
        let registration = registration_in(conn, view, registration_id)?;
        // A fixed table belongs to one player still playing (the pairing
        // refuses two; saying so here names the table while it is edited).
        if let Some(table) = fixed_table {
            let holder = db_events::list_registrations(conn, view.id())?
                .into_iter()
                .find(|r| r.id != registration.id && !r.dropped && r.fixed_table == Some(table));
            if let Some(holder) = holder {
                return Err(EventError::invalid(
                    "fixed_table",
                    format!(
                        "Table {table} is already fixed for {}: a fixed table belongs to one player.",
                        holder.display_name
                    ),
                ));
            }
        }
        db_events::update_registration(
            conn,
            registration.id,
            &RegistrationChanges {
                display_name: Some(name.into_string()),
                club: Some(club),
                initial_points: Some(initial_points),
                fixed_table: Some(fixed_table),
                ..RegistrationChanges::default()
            },
        )?;
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "player.edited",
            &registration.display_name,
            ctx.now,
        )?;
        Ok(())
    })
}

/// Tournament points a player may start with (a late entry, a league's
/// carried-over score). Never negative: the standings and the pairing's
/// bounds count points up from zero.
pub const STARTING_POINTS: std::ops::RangeInclusive<i32> = 0..=100;

/// A faction (Malifaux) or army list (Mage Knight) for the event.
#[derive(Debug, Clone, Default)]
pub struct DeclarationInput {
    pub faction: String,
    pub army_list: String,
    pub army_points: String,
}

pub const MALIFAUX_FACTIONS: &[&str] = &[
    "Guild",
    "Arcanists",
    "Resurrectionists",
    "Neverborn",
    "Outcasts",
    "Bayou",
    "Ten Thunders",
    "Explorer's Society",
];

pub fn declare(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    registration_id: i64,
    input: &DeclarationInput,
) -> Result<(), EventError> {
    require_not_finished(view, access)?;
    let own = access
        .registration
        .as_ref()
        .is_some_and(|r| r.id == registration_id);
    if !(own || access.is_staff()) {
        return Err(EventError::Forbidden(
            "You can only declare for your own entry.".into(),
        ));
    }
    if own && !access.is_staff() && view.event.lists_published {
        return Err(EventError::Conflict(
            "Lists are published; ask the organiser to change yours.".into(),
        ));
    }
    let registration = registration_in(conn, view, registration_id)?;
    let changes = if view.system == GameSystem::MageKnight {
        let list = optional_multiline_text(&input.army_list, "The army list", 5_000)
            .map_err(|e| EventError::invalid("army_list", e.to_string()))?;
        let points: i32 = input.army_points.trim().parse().map_err(|_| {
            EventError::invalid("army_points", "Enter the army's build total in points.")
        })?;
        if points < 1 || points > view.event.encounter_size {
            return Err(EventError::invalid(
                "army_points",
                format!(
                    "The army must cost between 1 and {} points (the event's build total).",
                    view.event.encounter_size
                ),
            ));
        }
        RegistrationChanges {
            army_list: Some(list),
            army_points: Some(Some(points)),
            ..RegistrationChanges::default()
        }
    } else {
        let faction = input.faction.trim();
        if !MALIFAUX_FACTIONS.contains(&faction) {
            return Err(EventError::invalid(
                "faction",
                "Choose one of the factions.",
            ));
        }
        // An event of an edition the engine reads also takes the crew
        // list, checked for its form here; its hiring is shown to the
        // organiser (`list_problems`).
        let army_list = match view.system.engine_edition() {
            Some(edition) => Some(crew_list_text(&input.army_list, faction, edition)?),
            None => None,
        };
        RegistrationChanges {
            faction: Some(Some(faction.to_owned())),
            army_list,
            ..RegistrationChanges::default()
        }
    };
    db_events::update_registration(conn, registration.id, &changes)?;
    Ok(())
}

/// The crew list as it will be stored (none when left empty), or why it
/// cannot be read: a list must parse, be of the event's edition, and be of
/// the declared faction.
fn crew_list_text(
    text: &str,
    faction: &str,
    edition: Edition,
) -> Result<Option<String>, EventError> {
    let text = optional_multiline_text(text, "The crew list", 5_000)
        .map_err(|e| EventError::invalid("army_list", e.to_string()))?;
    let Some(text) = text else {
        return Ok(None);
    };
    let list = CrewList::parse(&text)
        .map_err(|e| EventError::invalid("army_list", format!("The crew list: {e}.")))?;
    if list.edition != edition {
        return Err(EventError::invalid(
            "army_list",
            format!(
                "The crew list is not a {} list (Edition: {}).",
                edition.name(),
                edition.code()
            ),
        ));
    }
    if list.faction != faction {
        return Err(EventError::invalid(
            "army_list",
            format!(
                "The crew list is for {}, but the declared faction is {faction}.",
                list.faction
            ),
        ));
    }
    Ok(Some(text))
}

/// What a stored crew list breaks of the hiring rules, checked against the
/// game content this server has (a club's own cards included); empty when it
/// hires legally. Lists naming cards the server does not know say so here
/// rather than being refused: the organiser decides.
pub fn list_problems(catalog: &Catalog, list_text: &str) -> Vec<String> {
    match CrewList::parse(list_text) {
        Err(e) => vec![e],
        Ok(list) => match list.hire(catalog) {
            Ok(_) => Vec::new(),
            Err(errors) => errors.iter().map(ToString::to_string).collect(),
        },
    }
}

pub fn set_lists_published(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    published: bool,
    now: chrono::NaiveDateTime,
) -> Result<(), EventError> {
    access.require_staff()?;
    db_events::set_lists_published(conn, view.id(), published, now)?;
    Ok(())
}

/// Whether this viewer may see other players' factions and lists.
/// What a player declared for the event: faction, and the leader named in
/// their crew list (a "Leader:" line), for pairings, standings and exports
/// once lists are published.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Declared {
    pub faction: Option<String>,
    pub leader: Option<String>,
}

impl Declared {
    pub fn of(registration: &Registration) -> Self {
        let leader = registration.army_list.as_deref().and_then(|list| {
            list.lines().find_map(|line| {
                let (key, value) = line.split_once(':')?;
                (key.trim().eq_ignore_ascii_case("leader") && !value.trim().is_empty())
                    .then(|| value.trim().to_owned())
            })
        });
        Self {
            faction: registration.faction.clone(),
            leader,
        }
    }

    /// "Guild · Lady Justice", or None when nothing was declared.
    pub fn label(&self) -> Option<String> {
        let parts: Vec<&str> = [self.faction.as_deref(), self.leader.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        (!parts.is_empty()).then(|| parts.join(" · "))
    }
}

pub fn can_see_lists(view: &EventView, access: &Access) -> bool {
    view.event.lists_published || access.is_staff() || access.role == Role::Admin
}
