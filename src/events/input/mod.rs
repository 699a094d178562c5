//! The event form (and its JSON twin), validated field by field into the
//! values the database stores. Nothing half-valid gets through.

use chrono::{NaiveDate, NaiveDateTime};
use serde::{Deserialize, Deserializer, Serialize};

use super::{EventError, EventFormat, EventSettings, LeagueMode, LeagueSettings};
use crate::db::events::{Event, EventFields};
use crate::systems::GameSystem;
use crate::tournament::{Scoring, Tiebreaker};

/// Accepts a JSON string, number, boolean or null as text, so the same
/// struct reads an HTML form and a JSON body.
pub fn lenient<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(match value {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) => s,
        serde_json::Value::Bool(b) => {
            if b {
                "on".into()
            } else {
                String::new()
            }
        }
        serde_json::Value::Array(items) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| v.to_string())
            })
            .collect::<Vec<_>>()
            .join(","),
        other => other.to_string(),
    })
}

/// Like [`lenient`], for optional fields: absent or null stays `None`.
pub fn lenient_opt<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    let text = lenient(deserializer)?;
    Ok(Some(text))
}

/// The raw event form. Every field is text, as typed.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct EventInput {
    #[serde(deserialize_with = "lenient")]
    pub name: String,
    #[serde(deserialize_with = "lenient")]
    pub description: String,
    #[serde(deserialize_with = "lenient")]
    pub venue: String,
    #[serde(deserialize_with = "lenient")]
    pub starts_on: String,
    #[serde(deserialize_with = "lenient")]
    pub ends_on: String,
    #[serde(deserialize_with = "lenient")]
    pub game_system: String,
    #[serde(deserialize_with = "lenient")]
    pub format: String,
    #[serde(deserialize_with = "lenient")]
    pub rounds_planned: String,
    #[serde(deserialize_with = "lenient")]
    pub round_minutes: String,
    #[serde(deserialize_with = "lenient")]
    pub encounter_size: String,
    #[serde(deserialize_with = "lenient")]
    pub player_cap: String,
    #[serde(deserialize_with = "lenient")]
    pub registration_opens_at: String,
    #[serde(deserialize_with = "lenient")]
    pub registration_closes_at: String,
    #[serde(deserialize_with = "lenient")]
    pub visibility: String,
    #[serde(deserialize_with = "lenient")]
    pub pool: String,
    #[serde(deserialize_with = "lenient")]
    pub points_win: String,
    #[serde(deserialize_with = "lenient")]
    pub points_draw: String,
    #[serde(deserialize_with = "lenient")]
    pub points_loss: String,
    #[serde(deserialize_with = "lenient")]
    pub bye_scored: String,
    #[serde(deserialize_with = "lenient")]
    pub bye_conceded: String,
    /// Comma-separated codes (JSON may send a list).
    #[serde(deserialize_with = "lenient")]
    pub tiebreakers: String,
    #[serde(deserialize_with = "lenient")]
    pub tiebreaker_1: String,
    #[serde(deserialize_with = "lenient")]
    pub tiebreaker_2: String,
    #[serde(deserialize_with = "lenient")]
    pub tiebreaker_3: String,
    #[serde(deserialize_with = "lenient")]
    pub tiebreaker_4: String,
    #[serde(deserialize_with = "lenient")]
    pub tiebreaker_5: String,
    #[serde(deserialize_with = "lenient")]
    pub avoid_same_club: String,
    /// Counted in the rankings across events once finished.
    #[serde(deserialize_with = "lenient")]
    pub ranked: String,
    #[serde(deserialize_with = "lenient")]
    pub league_mode: String,
    #[serde(deserialize_with = "lenient")]
    pub league_max_games_vs_same: String,
    #[serde(deserialize_with = "lenient")]
    pub league_max_counted_games: String,
    /// Tables at the venue (empty: as many as a round needs).
    #[serde(deserialize_with = "lenient")]
    pub tables: String,
    /// Games in the browser: each player's clock in minutes (empty: half
    /// the round), "organisers" or "score_so_far" when a clock runs out,
    /// minutes before an absent opponent may be claimed, spectators' delay.
    #[serde(deserialize_with = "lenient")]
    pub digital_minutes: String,
    #[serde(deserialize_with = "lenient")]
    pub clock_out: String,
    #[serde(deserialize_with = "lenient")]
    pub absence_minutes: String,
    #[serde(deserialize_with = "lenient")]
    pub spectator_delay_minutes: String,
    /// 1st edition: "scrap" or "brawl" (empty: by the soulstones).
    #[serde(deserialize_with = "lenient")]
    pub first_edition_size: String,
    /// The event's IANA time zone ("Europe/London"); empty is UTC.
    #[serde(deserialize_with = "lenient")]
    pub time_zone: String,
    /// A team event's team size (empty: players enter one by one), and how
    /// members meet within a team match ("captains_choice" or "by_rank").
    #[serde(deserialize_with = "lenient")]
    pub team_size: String,
    #[serde(deserialize_with = "lenient")]
    pub team_pairing: String,
    /// Made when the form is shown (or chosen by an API client): a second
    /// submission with the same key answers with the event the first made.
    #[serde(deserialize_with = "lenient")]
    pub submission_key: String,
}

pub const MAX_ROUNDS: i32 = 20;
pub const NAME_MAX: usize = 120;
pub const DESCRIPTION_MAX: usize = 10_000;

impl EventInput {
    /// A form filled in with sensible defaults for a new event.
    pub fn new_event_defaults(today: NaiveDate) -> Self {
        let settings = EventSettings::defaults_for(GameSystem::Malifaux4);
        let mut input = Self {
            submission_key: crate::auth::random_token(),
            starts_on: today.to_string(),
            ends_on: today.to_string(),
            game_system: GameSystem::Malifaux4.code().into(),
            format: "swiss".into(),
            rounds_planned: "3".into(),
            round_minutes: "135".into(),
            encounter_size: "50".into(),
            visibility: "public".into(),
            league_mode: "rounds".into(),
            ..Self::default()
        };
        input.set_settings(&settings);
        input
    }

    /// The form for an existing event.
    pub fn from_event(event: &Event, settings: &EventSettings, pool_slug: Option<&str>) -> Self {
        use chrono::TimeZone;
        let zone = settings.zone();
        // Stored in UTC; the form shows the venue's clock.
        let datetime = |v: Option<NaiveDateTime>| {
            v.map(|t| {
                zone.from_utc_datetime(&t)
                    .format("%Y-%m-%dT%H:%M")
                    .to_string()
            })
            .unwrap_or_default()
        };
        let mut input = Self {
            name: event.name.clone(),
            description: event.description.clone(),
            venue: event.venue.clone(),
            starts_on: event.starts_on.to_string(),
            ends_on: event.ends_on.to_string(),
            game_system: event.game_system.clone(),
            format: event.format.clone(),
            rounds_planned: event.rounds_planned.to_string(),
            round_minutes: event.round_minutes.to_string(),
            encounter_size: event.encounter_size.to_string(),
            player_cap: event.player_cap.map(|c| c.to_string()).unwrap_or_default(),
            registration_opens_at: datetime(event.registration_opens_at),
            registration_closes_at: datetime(event.registration_closes_at),
            visibility: event.visibility.clone(),
            pool: pool_slug.unwrap_or_default().to_owned(),
            ..Self::default()
        };
        input.set_settings(settings);
        input
    }

    fn set_settings(&mut self, settings: &EventSettings) {
        self.points_win = settings.scoring.win.to_string();
        self.points_draw = settings.scoring.draw.to_string();
        self.points_loss = settings.scoring.loss.to_string();
        self.bye_scored = settings.scoring.bye_scored.to_string();
        self.bye_conceded = settings.scoring.bye_conceded.to_string();
        let codes: Vec<&str> = settings.tiebreakers.iter().map(|t| t.code()).collect();
        self.tiebreakers = codes.join(",");
        let slots = [
            &mut self.tiebreaker_1,
            &mut self.tiebreaker_2,
            &mut self.tiebreaker_3,
            &mut self.tiebreaker_4,
            &mut self.tiebreaker_5,
        ];
        for (slot, code) in slots
            .into_iter()
            .zip(codes.iter().copied().chain(std::iter::repeat("")))
        {
            *slot = code.to_owned();
        }
        self.avoid_same_club = if settings.avoid_same_club {
            "on".into()
        } else {
            String::new()
        };
        self.ranked = if settings.ranked {
            "on".into()
        } else {
            String::new()
        };
        self.league_mode = match settings.league.mode {
            LeagueMode::Rounds => "rounds".into(),
            LeagueMode::Open => "open".into(),
        };
        self.league_max_games_vs_same = settings
            .league
            .max_games_vs_same
            .map(|v| v.to_string())
            .unwrap_or_default();
        self.league_max_counted_games = settings
            .league
            .max_counted_games
            .map(|v| v.to_string())
            .unwrap_or_default();
        self.tables = settings.tables.map(|t| t.to_string()).unwrap_or_default();
        let digital = &settings.digital;
        self.digital_minutes = digital
            .minutes_per_player
            .map(|m| m.to_string())
            .unwrap_or_default();
        self.clock_out = match digital.clock_out {
            super::ClockOut::Organisers => "organisers".into(),
            super::ClockOut::ScoreSoFar => "score_so_far".into(),
        };
        self.absence_minutes = digital.absence_minutes.to_string();
        self.spectator_delay_minutes = digital.spectator_delay_minutes.to_string();
        self.first_edition_size = match settings.first_edition_size {
            Some(crate::setup::EncounterSize::Scrap) => "scrap".into(),
            Some(crate::setup::EncounterSize::Brawl) => "brawl".into(),
            None => String::new(),
        };
        self.time_zone = settings.time_zone.clone().unwrap_or_default();
        self.team_size = settings
            .teams
            .map(|t| t.size.to_string())
            .unwrap_or_default();
        self.team_pairing = settings
            .teams
            .map(|t| t.pairing.code().to_owned())
            .unwrap_or_default();
    }

    /// The tiebreaker in slot `n` (1-based), for the form's selects.
    pub fn tiebreaker_slot(&self, n: usize) -> &str {
        match n {
            1 => &self.tiebreaker_1,
            2 => &self.tiebreaker_2,
            3 => &self.tiebreaker_3,
            4 => &self.tiebreaker_4,
            5 => &self.tiebreaker_5,
            _ => "",
        }
    }

    pub fn avoids_same_club(&self) -> bool {
        is_checked(&self.avoid_same_club)
    }

    pub fn is_ranked(&self) -> bool {
        is_checked(&self.ranked)
    }

    /// How a team event's members may meet, for the form's select.
    pub fn member_pairings(&self) -> [crate::tournament::teams::MemberPairing; 2] {
        crate::tournament::teams::MemberPairing::ALL
    }
}

fn is_checked(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "on" | "true" | "1" | "yes"
    )
}

/// The validated event: the stored fields, and the pool it names (by slug).
#[derive(Debug, Clone)]
pub struct EventSpec {
    pub fields: EventFields,
    pub pool_slug: Option<String>,
    pub settings: EventSettings,
    pub submission_key: Option<String>,
}

struct Check {
    problems: Vec<(&'static str, String)>,
}

impl Check {
    fn fail(&mut self, field: &'static str, message: impl Into<String>) {
        self.problems.push((field, message.into()));
    }

    fn int(
        &mut self,
        field: &'static str,
        label: &str,
        raw: &str,
        min: i32,
        max: i32,
    ) -> Option<i32> {
        match raw.trim().parse::<i32>() {
            Ok(v) if (min..=max).contains(&v) => Some(v),
            Ok(_) => {
                self.fail(field, format!("{label} must be between {min} and {max}."));
                None
            }
            Err(_) => {
                self.fail(field, format!("{label} must be a whole number."));
                None
            }
        }
    }

    fn optional_int(
        &mut self,
        field: &'static str,
        label: &str,
        raw: &str,
        min: i32,
        max: i32,
    ) -> Option<Option<i32>> {
        if raw.trim().is_empty() {
            return Some(None);
        }
        self.int(field, label, raw, min, max).map(Some)
    }

    fn date(&mut self, field: &'static str, label: &str, raw: &str) -> Option<NaiveDate> {
        match NaiveDate::parse_from_str(raw.trim(), "%Y-%m-%d") {
            Ok(d) => Some(d),
            Err(_) => {
                self.fail(field, format!("{label} must be a date like 2026-11-28."));
                None
            }
        }
    }

    /// A date and time on the venue's clock in `zone`, returned in UTC.
    fn optional_datetime(
        &mut self,
        field: &'static str,
        label: &str,
        raw: &str,
        zone: chrono_tz::Tz,
    ) -> Option<Option<NaiveDateTime>> {
        use chrono::TimeZone;
        let raw = raw.trim();
        if raw.is_empty() {
            return Some(None);
        }
        for format in ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"] {
            if let Ok(t) = NaiveDateTime::parse_from_str(raw, format) {
                // In the hour skipped when clocks go forward there is no
                // such time; in the hour repeated, the first one is meant.
                return match zone.from_local_datetime(&t).earliest() {
                    Some(local) => Some(Some(local.naive_utc())),
                    None => {
                        self.fail(
                            field,
                            format!("{label}: {raw} does not exist in {} (the clocks go forward then). Choose another time.", zone.name()),
                        );
                        None
                    }
                };
            }
        }
        self.fail(
            field,
            format!("{label} must be a date and time like 2026-11-28T09:00."),
        );
        None
    }

    fn text(
        &mut self,
        field: &'static str,
        label: &str,
        raw: &str,
        max: usize,
        required: bool,
    ) -> Option<String> {
        let text = raw.trim().to_owned();
        if required && text.is_empty() {
            self.fail(field, format!("{label} is required."));
            return None;
        }
        if text.chars().count() > max {
            self.fail(field, format!("{label} is at most {max} characters."));
            return None;
        }
        // A description keeps its line breaks; a name or venue is one line.
        let problem = if field == "description" {
            crate::auth::input::text_block_problem(&text, label)
        } else {
            crate::auth::input::line_problem(&text, label)
        };
        if let Some(problem) = problem {
            self.fail(field, problem);
            return None;
        }
        Some(text)
    }
}

impl EventInput {
    /// Validates every field; on failure lists every problem.
    pub fn validate(&self) -> Result<EventSpec, EventError> {
        let mut c = Check {
            problems: Vec::new(),
        };
        let name = c.text("name", "The name", &self.name, NAME_MAX, true);
        let description = c.text(
            "description",
            "The description",
            &self.description,
            DESCRIPTION_MAX,
            false,
        );
        let venue = c.text("venue", "The venue", &self.venue, 200, false);
        let starts_on = c.date("starts_on", "The first day", &self.starts_on);
        let ends_on = c.date("ends_on", "The last day", &self.ends_on);
        if let (Some(s), Some(e)) = (starts_on, ends_on)
            && e < s
        {
            c.fail("ends_on", "The last day cannot be before the first day.");
        }
        let system: Option<GameSystem> = match self.game_system.parse() {
            Ok(s) => Some(s),
            Err(_) => {
                c.fail("game_system", "Choose a game system.");
                None
            }
        };
        let format = EventFormat::parse(self.format.trim());
        if format.is_none() {
            c.fail("format", "Choose Swiss tournament or league.");
        }
        let rounds_planned = c.int(
            "rounds_planned",
            "The number of rounds",
            &self.rounds_planned,
            1,
            MAX_ROUNDS,
        );
        let round_minutes = c.int(
            "round_minutes",
            "The round length",
            &self.round_minutes,
            10,
            600,
        );
        let encounter_size = match system {
            Some(GameSystem::MageKnight) => {
                let size = c.int(
                    "encounter_size",
                    "The build total",
                    &self.encounter_size,
                    100,
                    10_000,
                );
                if size.is_some_and(|s| s % 100 != 0) {
                    c.fail(
                        "encounter_size",
                        "Mage Knight build totals are multiples of 100 points.",
                    );
                }
                size
            }
            _ => c.int(
                "encounter_size",
                "The encounter size",
                &self.encounter_size,
                1,
                200,
            ),
        };
        let player_cap =
            c.optional_int("player_cap", "The player cap", &self.player_cap, 2, 10_000);
        let time_zone = match self.time_zone.trim() {
            "" => Some(None),
            name => match name.parse::<chrono_tz::Tz>() {
                Ok(zone) => Some(Some(zone)),
                Err(_) => {
                    c.fail(
                        "time_zone",
                        format!("{name:?} is not a time zone we know. Use a name like Europe/London or America/Chicago."),
                    );
                    None
                }
            },
        };
        let zone = time_zone.flatten().unwrap_or(chrono_tz::UTC);
        let tables = c.optional_int("tables", "The number of tables", &self.tables, 1, 5_000);
        let team_size = c.optional_int(
            "team_size",
            "The team size",
            &self.team_size,
            crate::tournament::teams::MIN_TEAM_SIZE as i32,
            crate::tournament::teams::MAX_TEAM_SIZE as i32,
        );
        let team_pairing = match self.team_pairing.trim() {
            "" => Some(crate::tournament::teams::MemberPairing::default()),
            code => code.parse().ok().or_else(|| {
                c.fail(
                    "team_pairing",
                    format!("{code:?} is not a choice: captains' choice or by rank."),
                );
                None
            }),
        };
        let digital_minutes = c.optional_int(
            "digital_minutes",
            "Each player's clock",
            &self.digital_minutes,
            5,
            600,
        );
        let clock_out = match self.clock_out.trim() {
            "" | "organisers" => Some(super::ClockOut::Organisers),
            "score_so_far" => Some(super::ClockOut::ScoreSoFar),
            other => {
                c.fail(
                    "clock_out",
                    format!("{other:?} is not a choice: the organisers decide, or the score so far stands."),
                );
                None
            }
        };
        let absence_minutes = c.optional_int(
            "absence_minutes",
            "The wait before claiming an absent opponent",
            &self.absence_minutes,
            2,
            120,
        );
        let spectator_delay = c.optional_int(
            "spectator_delay_minutes",
            "The spectators' delay",
            &self.spectator_delay_minutes,
            0,
            120,
        );
        let first_edition_size = match self.first_edition_size.trim() {
            "" => Some(None),
            "scrap" => Some(Some(crate::setup::EncounterSize::Scrap)),
            "brawl" => Some(Some(crate::setup::EncounterSize::Brawl)),
            other => {
                c.fail(
                    "first_edition_size",
                    format!("{other:?} is not an encounter size: choose Scrap or Brawl."),
                );
                None
            }
        };
        // Scrap (1–45) and Brawl (30–70) overlap: from 30 to 45 soulstones
        // the organisers choose; outside its range a size is refused.
        if let (Some(Some(size)), Some(soulstones), Some(GameSystem::Malifaux1)) =
            (first_edition_size, encounter_size, system)
        {
            let limits = size.limits();
            if !(i32::from(limits.soulstones_min)..=i32::from(limits.soulstones_max))
                .contains(&soulstones)
            {
                c.fail(
                    "first_edition_size",
                    format!(
                        "{} is for {} to {} soulstones, and the event is {soulstones}.",
                        size.name(),
                        limits.soulstones_min,
                        limits.soulstones_max
                    ),
                );
            }
        }
        let opens = c.optional_datetime(
            "registration_opens_at",
            "Registration opening",
            &self.registration_opens_at,
            zone,
        );
        let closes = c.optional_datetime(
            "registration_closes_at",
            "Registration closing",
            &self.registration_closes_at,
            zone,
        );
        if let (Some(Some(o)), Some(Some(cl))) = (opens, closes)
            && cl <= o
        {
            c.fail(
                "registration_closes_at",
                "Registration must close after it opens.",
            );
        }
        // Absent (or blank): public, as a new event's form starts.
        let visibility = match self.visibility.trim() {
            "" => Some("public".to_owned()),
            v @ ("public" | "unlisted") => Some(v.to_owned()),
            _ => {
                c.fail("visibility", "Choose public or unlisted.");
                None
            }
        };
        let pool_slug = Some(self.pool.trim().to_owned()).filter(|s| !s.is_empty());
        if pool_slug.is_some() && system == Some(GameSystem::MageKnight) {
            c.fail(
                "pool",
                "Mage Knight events do not use a strategy and scheme pool.",
            );
        }
        // A scoring figure left out (or blank) takes the default a new
        // event's form shows.
        let scoring = crate::tournament::Scoring::default();
        let or_default = |raw: &str, default: i32| match raw.trim() {
            "" => default.to_string(),
            given => given.to_owned(),
        };
        let win = c.int(
            "points_win",
            "Points for a win",
            &or_default(&self.points_win, scoring.win),
            0,
            100,
        );
        let draw = c.int(
            "points_draw",
            "Points for a draw",
            &or_default(&self.points_draw, scoring.draw),
            0,
            100,
        );
        let loss = c.int(
            "points_loss",
            "Points for a loss",
            &or_default(&self.points_loss, scoring.loss),
            0,
            100,
        );
        if let (Some(w), Some(d), Some(l)) = (win, draw, loss)
            && !(w >= d && d >= l)
        {
            c.fail(
                "points_win",
                "A win must be worth at least a draw, and a draw at least a loss.",
            );
        }
        let bye_scored = c.int(
            "bye_scored",
            "VP for a bye",
            &or_default(&self.bye_scored, scoring.bye_scored),
            0,
            100,
        );
        let bye_conceded = c.int(
            "bye_conceded",
            "VP conceded in a bye",
            &or_default(&self.bye_conceded, scoring.bye_conceded),
            0,
            100,
        );
        let tiebreakers = self.parse_tiebreakers(&mut c);
        let league_mode = match self.league_mode.trim() {
            "" | "rounds" => Some(LeagueMode::Rounds),
            "open" => Some(LeagueMode::Open),
            _ => {
                c.fail("league_mode", "Choose rounds or open play.");
                None
            }
        };
        let max_vs_same = c.optional_int(
            "league_max_games_vs_same",
            "The cap on games against one opponent",
            &self.league_max_games_vs_same,
            1,
            100,
        );
        let max_counted = c.optional_int(
            "league_max_counted_games",
            "The cap on counted games",
            &self.league_max_counted_games,
            1,
            1000,
        );

        if !c.problems.is_empty() {
            return Err(EventError::Invalid(c.problems));
        }
        let (
            Some(name),
            Some(description),
            Some(venue),
            Some(starts_on),
            Some(ends_on),
            Some(system),
            Some(format),
            Some(rounds_planned),
            Some(round_minutes),
            Some(encounter_size),
            Some(player_cap),
            Some(opens),
            Some(closes),
            Some(visibility),
            Some(win),
            Some(draw),
            Some(loss),
            Some(bye_scored),
            Some(bye_conceded),
            Some(tiebreakers),
            Some(league_mode),
            Some(max_vs_same),
            Some(max_counted),
        ) = (
            name,
            description,
            venue,
            starts_on,
            ends_on,
            system,
            format,
            rounds_planned,
            round_minutes,
            encounter_size,
            player_cap,
            opens,
            closes,
            visibility,
            win,
            draw,
            loss,
            bye_scored,
            bye_conceded,
            tiebreakers,
            league_mode,
            max_vs_same,
            max_counted,
        )
        else {
            return Err(EventError::invalid("name", "The form could not be read."));
        };
        let settings = EventSettings {
            scoring: Scoring {
                win,
                draw,
                loss,
                bye_scored,
                bye_conceded,
            },
            tiebreakers,
            avoid_same_club: self.avoids_same_club(),
            ranked: self.is_ranked(),
            league: LeagueSettings {
                mode: league_mode,
                max_games_vs_same: max_vs_same.map(|v| v as u32),
                max_counted_games: max_counted.map(|v| v as u32),
            },
            tables: tables.flatten().and_then(|t| u32::try_from(t).ok()),
            digital: super::DigitalSettings {
                minutes_per_player: digital_minutes
                    .flatten()
                    .and_then(|m| u32::try_from(m).ok()),
                clock_out: clock_out.unwrap_or_default(),
                absence_minutes: absence_minutes
                    .flatten()
                    .and_then(|m| u32::try_from(m).ok())
                    .unwrap_or(10),
                spectator_delay_minutes: spectator_delay
                    .flatten()
                    .and_then(|m| u32::try_from(m).ok())
                    .unwrap_or(0),
            },
            first_edition_size: first_edition_size
                .flatten()
                .filter(|_| system == GameSystem::Malifaux1),
            time_zone: time_zone.flatten().map(|zone| zone.name().to_owned()),
            teams: team_size
                .flatten()
                .zip(team_pairing)
                .map(|(size, pairing)| super::teams::TeamSettings {
                    size: size.unsigned_abs(),
                    pairing,
                }),
        };
        if settings.teams.is_some() && format != EventFormat::Swiss {
            return Err(EventError::invalid(
                "team_size",
                "Team events are Swiss events: choose the Swiss format, or leave the team size empty.",
            ));
        }
        let settings_json = serde_json::to_string(&settings)
            .map_err(|err| EventError::Corrupt(format!("settings could not be stored: {err}")))?;
        Ok(EventSpec {
            fields: EventFields {
                name,
                description,
                venue,
                starts_on,
                ends_on,
                game_system: system.code().to_owned(),
                format: format.code().to_owned(),
                rounds_planned,
                round_minutes,
                encounter_size,
                player_cap,
                registration_opens_at: opens,
                registration_closes_at: closes,
                visibility,
                pool_id: None,
                settings: settings_json,
            },
            pool_slug,
            settings,
            submission_key: Some(self.submission_key.trim())
                .filter(|key| !key.is_empty())
                .map(|key| key.chars().take(128).collect()),
        })
    }

    fn parse_tiebreakers(&self, c: &mut Check) -> Option<Vec<Tiebreaker>> {
        let slots = [
            &self.tiebreaker_1,
            &self.tiebreaker_2,
            &self.tiebreaker_3,
            &self.tiebreaker_4,
            &self.tiebreaker_5,
        ];
        let from_slots = slots.iter().any(|s| !s.trim().is_empty());
        let codes: Vec<String> = if from_slots {
            slots
                .iter()
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect()
        } else {
            self.tiebreakers
                .split(',')
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect()
        };
        let mut result = Vec::new();
        for code in codes {
            match Tiebreaker::parse(&code) {
                Some(t) if result.contains(&t) => {
                    c.fail("tiebreakers", format!("{} is listed twice.", t.label()));
                    return None;
                }
                Some(t) => result.push(t),
                None => {
                    c.fail("tiebreakers", format!("Unknown tiebreaker {code:?}."));
                    return None;
                }
            }
        }
        Some(result)
    }
}

#[cfg(test)]
mod tests;
