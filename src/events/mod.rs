//! Running events and leagues: the rules of who may do what and when, on top
//! of the database and the pure pairing and standings code. Web pages and
//! the JSON API both call these functions, so the rules live in one place.

pub mod cache;
pub mod demo;
pub mod input;
pub mod manage;
pub mod notify;
pub mod pairing_record;
pub mod playoffs;
pub mod reads;
pub mod registration;
pub mod result_history;
pub mod results;
pub mod round_clock;
pub mod round_setups;
pub mod rounds;
pub mod scenarios;
pub mod standings;
pub mod stored_json;
pub mod teams;

use chrono::NaiveDateTime;
use serde::{Deserialize, Serialize};

use crate::db::events::{self as db_events, Event};
use crate::db::{DbConnection, DbError};
use crate::systems::GameSystem;
use crate::tournament::{Scoring, Tiebreaker};

/// Runs `create` once per account and form submission key: a repeat of a
/// submission (a double click, a retry after a lost answer) gets the id of
/// what the first made, recorded as `kind:id`, and makes nothing. Without a
/// key, `create` just runs.
pub fn once_per_submission(
    conn: &mut DbConnection,
    account_id: i64,
    key: Option<&str>,
    kind: &str,
    now: NaiveDateTime,
    create: impl FnOnce(&mut DbConnection) -> Result<i64, EventError>,
) -> Result<i64, EventError> {
    use crate::db::WriteTransaction;
    let Some(key) = key else {
        return conn.write_transaction(create);
    };
    let earlier = |conn: &mut DbConnection| -> Result<Option<i64>, EventError> {
        let Some(outcome) = db_events::find_submission(conn, account_id, key)? else {
            return Ok(None);
        };
        outcome
            .strip_prefix(kind)
            .and_then(|rest| rest.strip_prefix(':'))
            .and_then(|id| id.parse().ok())
            .map(Some)
            .ok_or_else(|| {
                EventError::Conflict("This form was already used for something else.".into())
            })
    };
    let made = conn.write_transaction(|conn| {
        if let Some(id) = earlier(conn)? {
            return Ok(id);
        }
        let id = create(conn)?;
        db_events::record_submission(conn, account_id, key, &format!("{kind}:{id}"), now)?;
        Ok(id)
    });
    match made {
        // The same key at the same moment on PostgreSQL: the other one won,
        // and this one's work was rolled back with its transaction.
        Err(EventError::Db(err)) if err.is_unique_violation() => {
            earlier(conn)?.ok_or(EventError::Db(err))
        }
        other => other,
    }
}

/// Who is acting: a signed-in account (whether it is a site admin, and
/// whether its email address is confirmed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Actor {
    pub account_id: i64,
    pub is_admin: bool,
    pub confirmed: bool,
}

impl Actor {
    pub fn of(account: &crate::db::accounts::Account) -> Self {
        Self {
            account_id: account.id,
            is_admin: account.is_admin,
            confirmed: account.is_verified(),
        }
    }

    /// See [`crate::auth::require_confirmed_address`].
    pub fn require_confirmed(&self) -> Result<(), EventError> {
        crate::auth::require_confirmed_address(self.confirmed)
            .map_err(|refusal| EventError::Forbidden(refusal.to_string()))
    }
}

/// The stored rows the event pages show, as the events service reads them.
pub use crate::db::events::{
    Declaration, Event as EventRow, GameRow, PlayoffRow, Registration, ResultChange, ResultFields,
    Round,
};
pub use crate::db::status::{EventStatus, GameStatus, RegistrationStatus, RoundStatus};

impl EventStatus {
    pub fn label(self) -> &'static str {
        match self {
            Self::Draft => "Draft",
            Self::Registration => "Registration open",
            Self::Running => "Running",
            Self::Finished => "Finished",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventFormat {
    Swiss,
    League,
}

impl EventFormat {
    pub fn code(self) -> &'static str {
        match self {
            Self::Swiss => "swiss",
            Self::League => "league",
        }
    }

    pub fn parse(code: &str) -> Option<Self> {
        match code {
            "swiss" => Some(Self::Swiss),
            "league" => Some(Self::League),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeagueMode {
    /// Weekly (or otherwise scheduled) rounds, paired like a Swiss event.
    #[default]
    Rounds,
    /// Any two registered players record a game while the league runs.
    Open,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueSettings {
    #[serde(default)]
    pub mode: LeagueMode,
    /// At most this many recorded games between the same two players.
    #[serde(default)]
    pub max_games_vs_same: Option<u32>,
    /// Only a player's first this-many games count in the standings.
    #[serde(default)]
    pub max_counted_games: Option<u32>,
}

/// What ends an event game whose player's clock ran out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockOut {
    /// The game stops and its result waits for the organisers (disputed).
    #[default]
    Organisers,
    /// The game ends with the score so far, which stands as the result.
    ScoreSoFar,
}

/// How the event's games played in the browser run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DigitalSettings {
    /// Each player's chess clock; None: half the round's time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes_per_player: Option<u32>,
    #[serde(default)]
    pub clock_out: ClockOut,
    /// A player whose opponent has not moved for this long, while the game
    /// waits only for the opponent, may claim the game for the organisers
    /// to confirm.
    #[serde(default = "DigitalSettings::default_absence")]
    pub absence_minutes: u32,
    /// Spectators see the event's games this far behind (0: live); players
    /// and the event's staff never wait.
    #[serde(default)]
    pub spectator_delay_minutes: u32,
}

impl DigitalSettings {
    fn default_absence() -> u32 {
        10
    }
}

impl Default for DigitalSettings {
    fn default() -> Self {
        Self {
            minutes_per_player: None,
            clock_out: ClockOut::default(),
            absence_minutes: Self::default_absence(),
            spectator_delay_minutes: 0,
        }
    }
}

/// Scoring, tiebreakers and pairing options, stored as JSON on the event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventSettings {
    pub scoring: Scoring,
    pub tiebreakers: Vec<Tiebreaker>,
    #[serde(default)]
    pub avoid_same_club: bool,
    #[serde(default)]
    pub league: LeagueSettings,
    /// Tables at the venue, if the organisers said: pairing warns when a
    /// round needs more, and fixed tables must be among them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tables: Option<u32>,
    /// Games played in the browser: clocks, claims and spectators.
    #[serde(default)]
    pub digital: DigitalSettings,
    /// 1st edition: Scrap or Brawl where the soulstones allow both (30 to
    /// 45); None takes Brawl above 45.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_edition_size: Option<crate::setup::EncounterSize>,
    /// The event's IANA time zone ("Europe/London"); times are entered and
    /// shown in it. None means UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    /// The organisers count the event in the rankings across events once
    /// it is finished (`docs/rankings.md`).
    #[serde(default)]
    pub ranked: bool,
    /// A team event: teams of this size, paired by Swiss on team results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teams: Option<teams::TeamSettings>,
}

impl EventSettings {
    /// The event's time zone (UTC when none is set or it is unknown).
    pub fn zone(&self) -> chrono_tz::Tz {
        self.time_zone
            .as_deref()
            .and_then(|name| name.parse().ok())
            .unwrap_or(chrono_tz::UTC)
    }

    pub fn defaults_for(system: GameSystem) -> Self {
        let tiebreakers = if system == GameSystem::MageKnight {
            vec![
                Tiebreaker::PointsEliminated,
                Tiebreaker::Sos,
                Tiebreaker::VpDiff,
            ]
        } else {
            vec![Tiebreaker::VpDiff, Tiebreaker::VpScored, Tiebreaker::Sos]
        };
        Self {
            scoring: Scoring::default(),
            tiebreakers,
            avoid_same_club: false,
            league: LeagueSettings::default(),
            tables: None,
            time_zone: None,
            ranked: false,
            teams: None,
            first_edition_size: None,
            digital: DigitalSettings::default(),
        }
    }
}

/// An event with its decoded settings.
#[derive(Debug, Clone)]
pub struct EventView {
    pub event: Event,
    pub status: EventStatus,
    pub format: EventFormat,
    pub system: GameSystem,
    pub settings: EventSettings,
}

/// How dates and times read on every page: one format for each.
pub const DATE_FORMAT: &str = "%a %-d %b %Y";
pub const TIME_FORMAT: &str = "%H:%M";

impl EventView {
    /// A moment (stored in UTC) as the venue's clock shows it, with the
    /// zone's abbreviation: "Sat 5 Dec 2026, 09:30 GMT".
    pub fn local_time(&self, at: NaiveDateTime) -> String {
        use chrono::TimeZone;
        let local = self.settings.zone().from_utc_datetime(&at);
        format!(
            "{}, {} {}",
            local.format(DATE_FORMAT),
            local.format(TIME_FORMAT),
            local.format("%Z")
        )
    }

    /// Just the time of day, at the venue: "09:30".
    pub fn local_clock(&self, at: NaiveDateTime) -> String {
        use chrono::TimeZone;
        self.settings
            .zone()
            .from_utc_datetime(&at)
            .format(TIME_FORMAT)
            .to_string()
    }

    /// The event's dates: "Sat 5 Dec 2026", or "Sat 5 Dec 2026 – Sun 6 Dec 2026".
    pub fn dates(&self) -> String {
        event_dates(self.event.starts_on, self.event.ends_on)
    }

    pub fn time_zone_name(&self) -> String {
        self.settings.zone().name().to_owned()
    }

    pub fn from_row(event: Event) -> Result<Self, EventError> {
        let status = event.status;
        let format = EventFormat::parse(&event.format)
            .ok_or_else(|| EventError::Corrupt(format!("format {:?}", event.format)))?;
        let system: GameSystem = event
            .game_system
            .parse()
            .map_err(|_| EventError::Corrupt(format!("game system {:?}", event.game_system)))?;
        let settings: EventSettings = serde_json::from_str(&event.settings)
            .map_err(|err| EventError::Corrupt(format!("settings: {err}")))?;
        Ok(Self {
            event,
            status,
            format,
            system,
            settings,
        })
    }

    pub fn id(&self) -> i64 {
        self.event.id
    }

    pub fn is_open_league(&self) -> bool {
        self.format == EventFormat::League && self.settings.league.mode == LeagueMode::Open
    }

    pub fn is_mage_knight(&self) -> bool {
        self.system == GameSystem::MageKnight
    }

    /// A 1st edition event's encounter size: the organiser's choice, else
    /// by its soulstones (a Brawl above a Scrap's most, 45).
    pub fn first_edition_size(&self) -> crate::setup::EncounterSize {
        self.settings
            .first_edition_size
            .unwrap_or(if self.event.encounter_size > 45 {
                crate::setup::EncounterSize::Brawl
            } else {
                crate::setup::EncounterSize::Scrap
            })
    }
}

/// What the actor is to this event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Visitor,
    Player,
    Judge,
    Owner,
    Admin,
}

#[derive(Debug, Clone)]
pub struct Access {
    pub role: Role,
    pub actor: Option<Actor>,
    /// The actor's own registration, if any.
    pub registration: Option<Registration>,
    /// In a team event, the registrations of the team the actor captains:
    /// a captain reports and confirms their members' results.
    pub team_members: Vec<i64>,
}

impl Access {
    pub fn is_staff(&self) -> bool {
        self.role >= Role::Judge
    }

    pub fn is_owner(&self) -> bool {
        self.role >= Role::Owner
    }

    pub fn is_admin(&self) -> bool {
        self.role == Role::Admin
    }

    pub fn account_id(&self) -> Option<i64> {
        self.actor.map(|a| a.account_id)
    }

    pub fn require_staff(&self) -> Result<(), EventError> {
        if self.is_staff() {
            Ok(())
        } else {
            Err(EventError::Forbidden(
                "Only the organisers and judges of this event can do that.".into(),
            ))
        }
    }

    pub fn require_owner(&self) -> Result<(), EventError> {
        if self.is_owner() {
            Ok(())
        } else {
            Err(EventError::Forbidden(
                "Only the event's organiser can do that.".into(),
            ))
        }
    }
}

/// Loads an event and the actor's relation to it; drafts are visible to staff only.
pub fn load(
    conn: &mut DbConnection,
    event_id: i64,
    actor: Option<Actor>,
) -> Result<(EventView, Access), EventError> {
    let event = db_events::find_event(conn, event_id)?.ok_or(EventError::NotFound)?;
    let view = EventView::from_row(event)?;
    let access = access_for(conn, &view, actor)?;
    if view.status == EventStatus::Draft && !access.is_staff() {
        return Err(EventError::NotFound);
    }
    Ok((view, access))
}

pub fn access_for(
    conn: &mut DbConnection,
    view: &EventView,
    actor: Option<Actor>,
) -> Result<Access, EventError> {
    let Some(actor) = actor else {
        return Ok(Access {
            role: Role::Visitor,
            actor: None,
            registration: None,
            team_members: Vec::new(),
        });
    };
    let registration = db_events::registration_of(conn, view.id(), actor.account_id)?;
    let role = if actor.is_admin {
        Role::Admin
    } else {
        match db_events::staff_role(conn, view.id(), actor.account_id)?.as_deref() {
            Some("owner") => Role::Owner,
            Some(_) => Role::Judge,
            None if registration
                .as_ref()
                .is_some_and(|r| r.status != RegistrationStatus::Withdrawn) =>
            {
                Role::Player
            }
            None => Role::Visitor,
        }
    };
    let team_members = match registration.as_ref().and_then(|r| r.team_id) {
        Some(team) => crate::db::teams::members_if_captain(conn, team, actor.account_id)?,
        None => Vec::new(),
    };
    Ok(Access {
        role,
        actor: Some(actor),
        registration,
        team_members,
    })
}

/// Refuses changes to a finished event, except by a site admin (whose
/// corrections are written to the audit log by the caller).
/// Whether the actor may still change entries, rounds and results: until
/// the event is finished, and afterwards only a site admin (corrections).
pub fn may_still_change(view: &EventView, access: &Access) -> bool {
    view.status != EventStatus::Finished || access.role == Role::Admin
}

pub fn require_not_finished(view: &EventView, access: &Access) -> Result<(), EventError> {
    if !may_still_change(view, access) {
        return Err(EventError::Conflict(
            "This event is finished and can no longer be changed. A site admin can make corrections.".into(),
        ));
    }
    Ok(())
}

#[derive(Debug, thiserror::Error)]
pub enum EventError {
    #[error("not found")]
    NotFound,
    #[error("{0}")]
    Forbidden(String),
    /// Input that failed validation, field by field.
    #[error("{}", .0.iter().map(|(f, m)| format!("{f}: {m}")).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<(&'static str, String)>),
    /// The request clashes with the event's current state.
    #[error("{0}")]
    Conflict(String),
    #[error("stored event data is unreadable: {0}")]
    Corrupt(String),
    #[error(transparent)]
    Db(#[from] DbError),
    #[error("mail could not be composed: {0}")]
    Mail(#[from] askama::Error),
    #[error(transparent)]
    Pairing(#[from] crate::tournament::pairing::PairingError),
    #[error(transparent)]
    Setup(#[from] crate::setup::SetupError),
}

impl EventError {
    pub fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        Self::Invalid(vec![(field, message.into())])
    }

    /// The message for a page: the sentences, without the field names the
    /// API's message carries ("Please enter a name.", not "name: Please…").
    pub fn for_people(&self) -> String {
        match self {
            Self::Invalid(fields) => fields
                .iter()
                .map(|(_, message)| message.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            other => other.to_string(),
        }
    }
}

impl From<diesel::result::Error> for EventError {
    fn from(err: diesel::result::Error) -> Self {
        Self::Db(err.into())
    }
}

/// An event's dates in the one date format.
pub fn event_dates(starts: chrono::NaiveDate, ends: chrono::NaiveDate) -> String {
    if starts == ends {
        starts.format(DATE_FORMAT).to_string()
    } else {
        format!(
            "{} – {}",
            starts.format(DATE_FORMAT),
            ends.format(DATE_FORMAT)
        )
    }
}

/// When an action happens and where the site lives (for links in mail).
#[derive(Debug, Clone, Copy)]
pub struct Ctx<'a> {
    pub now: NaiveDateTime,
    pub base_url: &'a str,
}
