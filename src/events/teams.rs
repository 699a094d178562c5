//! Team events: a captain registers a team and names its members; each
//! round pairs teams by Swiss into team matches, whose member games are
//! paired by rank at once or by the captains' alternating choice once the
//! round is published. The rules are in `tournament::teams`; this is who
//! may do what, and when.

use super::{RegistrationStatus, RoundStatus};
use serde::{Deserialize, Serialize};

use super::registration::registration_closed_reason;
use super::rounds::{EventData, StoredPairing, insert_games_of};
use super::{Access, Ctx, EventError, EventStatus, EventView, require_not_finished};
use crate::auth::input::{DisplayName, optional_text};
use crate::db::events::{self as db_events, NewRegistration, Registration, Round};
use crate::db::teams::{self as db_teams, NewTeam, NewTeamMatch, TeamMatchRow, TeamRow};
use crate::db::{DbConnection, accounts, audit};
use crate::tournament::PlayerId;
use crate::tournament::pairing::TablePair;
use crate::tournament::teams::{
    self, ChoiceError, MatchSide, MemberPairing, NextChoice, Team, TeamMatch, TeamStandingRow,
};

/// A team event's shape, in the event's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamSettings {
    /// Players per team, captain included.
    pub size: u32,
    pub pairing: MemberPairing,
}

/// The pairing record of a team round: the solver's answer for the teams.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamRoundPairing {
    pub teams: StoredPairing,
}

/// A team event's settings; any other event has no teams to find.
pub fn settings_of(view: &EventView) -> Result<TeamSettings, EventError> {
    view.settings.teams.ok_or(EventError::NotFound)
}

/// What a captain (or an organiser at the desk) types to register a team.
pub struct TeamEntry<'a> {
    pub name: &'a str,
    pub club: &'a str,
    /// The members' names in board order: after the captain's, or every
    /// member's for a team entered at the desk.
    pub members: Vec<&'a str>,
}

/// A signed-in player registers a team, as its captain and first board,
/// with the other members named. The whole team enters or nobody does:
/// there is no waitlist for teams, and the player cap counts players.
pub fn register_team(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    entry: &TeamEntry<'_>,
    ctx: &Ctx<'_>,
) -> Result<TeamRow, EventError> {
    let settings = settings_of(view)?;
    let actor = access
        .actor
        .ok_or_else(|| EventError::Forbidden("Sign in to register a team.".into()))?;
    actor.require_confirmed()?;
    if let Some(reason) = registration_closed_reason(view, ctx.now) {
        return Err(EventError::Conflict(reason));
    }
    let (name, club, members) = parse_entry(entry, settings.size - 1)?;
    db_events::event_write_transaction(conn, view.id(), |conn| {
        let account = accounts::find_by_id(conn, actor.account_id)?.ok_or(EventError::NotFound)?;
        let mut names = vec![account.display_name.clone()];
        names.extend(members);
        let team = TeamToStore {
            captain: Some(account.id),
            entered_by: Some(account.id),
            name: &name,
            club: club.as_deref(),
            names: &names,
        };
        insert_team_entry(conn, view, &team, ctx)
    })
}

/// The organisers enter a team at the desk, naming every member in board
/// order (the first board acts as captain, through the organisers): before
/// the event, or as a late entry that joins the next round.
pub fn add_team_at_desk(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    entry: &TeamEntry<'_>,
    ctx: &Ctx<'_>,
) -> Result<TeamRow, EventError> {
    let settings = settings_of(view)?;
    access.require_staff()?;
    require_not_finished(view, access)?;
    let (name, club, members) = parse_entry(entry, settings.size)?;
    db_events::event_write_transaction(conn, view.id(), |conn| {
        let team = TeamToStore {
            captain: None,
            entered_by: access.account_id(),
            name: &name,
            club: club.as_deref(),
            names: &members,
        };
        insert_team_entry(conn, view, &team, ctx)
    })
}

/// The team name, club and members' names typed, checked; `expected` is
/// how many members must be named.
fn parse_entry(
    entry: &TeamEntry<'_>,
    expected: u32,
) -> Result<(String, Option<String>, Vec<String>), EventError> {
    let name = optional_text(entry.name, "Team name", 80)
        .map_err(|e| EventError::invalid("team_name", e.to_string()))?
        .ok_or_else(|| EventError::invalid("team_name", "Give the team a name."))?;
    let club = optional_text(entry.club, "Club", 80)
        .map_err(|e| EventError::invalid("club", e.to_string()))?;
    let mut members = Vec::new();
    for (i, member) in entry.members.iter().enumerate() {
        if member.trim().is_empty() {
            continue;
        }
        let parsed = DisplayName::parse(member)
            .map_err(|e| EventError::invalid("members", format!("Player {}: {e}", i + 1)))?;
        members.push(parsed.as_str().to_owned());
    }
    if members.len() != expected as usize {
        return Err(EventError::invalid(
            "members",
            format!("Name {expected} players for the team."),
        ));
    }
    Ok((name, club, members))
}

/// A checked team entry, ready to store.
struct TeamToStore<'a> {
    /// The captain's account (None for a team entered at the desk).
    captain: Option<i64>,
    /// Who entered it, for the audit log.
    entered_by: Option<i64>,
    name: &'a str,
    club: Option<&'a str>,
    /// Every member's name in board order, the captain's first.
    names: &'a [String],
}

/// Stores a team and its members (board order) under the event's lock,
/// once the names and the player cap allow it.
fn insert_team_entry(
    conn: &mut DbConnection,
    view: &EventView,
    team: &TeamToStore<'_>,
    ctx: &Ctx<'_>,
) -> Result<TeamRow, EventError> {
    let TeamToStore {
        captain,
        entered_by,
        name,
        club,
        names,
    } = *team;
    let entries = db_events::list_registrations(conn, view.id())?;
    let active: Vec<&Registration> = entries
        .iter()
        .filter(|r| r.status != RegistrationStatus::Withdrawn)
        .collect();
    if captain.is_some() && active.iter().any(|r| r.account_id == captain) {
        return Err(EventError::Conflict(
            "You are already registered for this event.".into(),
        ));
    }
    let lower = |s: &str| s.to_lowercase();
    for (i, n) in names.iter().enumerate() {
        if names[..i].iter().any(|m| lower(m) == lower(n)) {
            return Err(EventError::invalid(
                "members",
                format!("{n} is named twice: add an initial to tell two players apart."),
            ));
        }
        if let Some(same) = active.iter().find(|r| lower(&r.display_name) == lower(n)) {
            return Err(EventError::invalid(
                "members",
                format!(
                    "{} is already entered in this event. If this is someone else, add an initial to tell them apart.",
                    same.display_name
                ),
            ));
        }
    }
    if let Some(same) = db_teams::teams_of_event(conn, view.id())?
        .into_iter()
        .find(|t| lower(&t.name) == lower(name))
    {
        return Err(EventError::invalid(
            "team_name",
            format!("A team called {} is already entered.", same.name),
        ));
    }
    let registered = active
        .iter()
        .filter(|r| r.status == RegistrationStatus::Registered)
        .count();
    if let Some(cap) = view.event.player_cap
        && registered + names.len() > usize::try_from(cap).unwrap_or(0)
    {
        return Err(EventError::Conflict(format!(
            "There is no room for another team: {registered} of {cap} places are taken."
        )));
    }
    let team = db_teams::insert_team(
        conn,
        &NewTeam {
            event_id: view.id(),
            name,
            club,
            captain_account_id: captain,
            created_at: ctx.now,
        },
    )?
    .ok_or_else(|| {
        EventError::invalid(
            "team_name",
            format!("A team called {name} is already entered."),
        )
    })?;
    // A late entry joins the next round, present (the organisers entered it).
    let running = view.status == EventStatus::Running;
    let joined_round = if running {
        db_events::list_rounds(conn, view.id())?
            .last()
            .map_or(0, |r| r.number)
            + 1
    } else {
        1
    };
    for (board, member) in (1..).zip(names) {
        db_events::insert_registration(
            conn,
            &NewRegistration {
                event_id: view.id(),
                account_id: if board == 1 { captain } else { None },
                display_name: member,
                club,
                status: RegistrationStatus::Registered,
                checked_in: running,
                joined_round,
                initial_points: 0,
                registered_at: ctx.now,
                team_id: Some(team.id),
                team_board: Some(board),
            },
        )?
        .ok_or_else(|| EventError::Conflict("You are already registered for this event.".into()))?;
    }
    audit::record(
        conn,
        entered_by,
        Some(view.id()),
        "team.registered",
        &format!("{name}: {}", names.join(", ")),
        ctx.now,
    )?;
    Ok(team)
}

/// The captain withdraws their team before the event starts: the team and
/// every entry of it go (nobody has played), so it may register again.
pub fn withdraw_team(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    if !matches!(view.status, EventStatus::Draft | EventStatus::Registration) {
        return Err(EventError::Conflict(
            "The event has started: ask the organisers if your team cannot play on.".into(),
        ));
    }
    let account = access
        .account_id()
        .ok_or_else(|| EventError::Forbidden("Sign in first.".into()))?;
    db_events::event_write_transaction(conn, view.id(), |conn| {
        let team = db_teams::teams_of_event(conn, view.id())?
            .into_iter()
            .find(|t| t.captain_account_id == Some(account))
            .ok_or_else(|| EventError::Conflict("You do not captain a team here.".into()))?;
        db_teams::delete_team(conn, team.id)?;
        audit::record(
            conn,
            Some(account),
            Some(view.id()),
            "team.withdrawn",
            &team.name,
            ctx.now,
        )?;
        Ok(())
    })
}

/// A team with its registered members in board order.
#[derive(Debug, Clone, Serialize)]
pub struct TeamWithMembers {
    pub team: TeamRow,
    pub members: Vec<Registration>,
}

impl TeamWithMembers {
    pub fn member_ids(&self) -> Vec<PlayerId> {
        self.members.iter().map(|m| m.id).collect()
    }

    pub fn is_captain(&self, member: &Registration) -> bool {
        member.account_id.is_some() && member.account_id == self.team.captain_account_id
    }

    /// Every member dropped: the team plays no more.
    pub fn dropped(&self) -> bool {
        !self.members.is_empty() && self.members.iter().all(|m| m.dropped)
    }
}

/// The event's teams with their members, in registration order.
pub fn teams_of(data: &EventData) -> Vec<TeamWithMembers> {
    data.teams
        .iter()
        .map(|team| {
            let mut members: Vec<Registration> = data
                .registrations
                .iter()
                .filter(|r| {
                    r.team_id == Some(team.id) && r.status == RegistrationStatus::Registered
                })
                .cloned()
                .collect();
            members.sort_by_key(|m| m.team_board);
            TeamWithMembers {
                team: team.clone(),
                members,
            }
        })
        .collect()
}

/// The team matches as the pure rules see them.
fn tournament_matches(data: &EventData) -> Vec<TeamMatch> {
    data.team_matches
        .iter()
        .map(|row| team_match_of(data, row))
        .collect()
}

/// One team match as the pure rules see it: its member games (team A's
/// member is always player A) with their accepted results.
fn team_match_of(data: &EventData, row: &TeamMatchRow) -> TeamMatch {
    let round = data
        .rounds
        .iter()
        .find(|r| r.id == row.round_id)
        .and_then(|r| u32::try_from(r.number).ok())
        .unwrap_or(0);
    TeamMatch {
        round,
        a: row.team_a,
        b: row.team_b,
        games: data
            .games
            .iter()
            .filter(|g| g.team_match_id == Some(row.id) && g.player_b.is_some())
            .map(super::rounds::accepted_score)
            .collect(),
    }
}

fn tournament_teams(teams: &[TeamWithMembers]) -> Vec<Team> {
    teams
        .iter()
        .map(|t| Team {
            id: t.team.id,
            name: t.team.name.clone(),
            club: t.team.club.clone(),
            dropped: t.dropped(),
        })
        .collect()
}

/// Team standings: match points, then games won, then VP difference.
pub fn standings(view: &EventView, data: &EventData) -> Vec<TeamStandingRow> {
    let Some(settings) = view.settings.teams else {
        return Vec::new();
    };
    teams::team_standings(
        &tournament_teams(&teams_of(data)),
        &tournament_matches(data),
        &view.settings.scoring,
        settings.size,
    )
}

/// The team standings as CSV: one row per team, best first, with its
/// members in board order.
pub fn standings_csv(view: &EventView, data: &EventData) -> String {
    use std::fmt::Write;
    let members: std::collections::BTreeMap<i64, String> = teams_of(data)
        .into_iter()
        .map(|t| {
            let names: Vec<&str> = t.members.iter().map(|m| m.display_name.as_str()).collect();
            (t.team.id, names.join("; "))
        })
        .collect();
    let mut out = String::from(
        "rank,team_id,team,points,match_wins,match_draws,match_losses,byes,games_won,vp_diff,dropped,members\n",
    );
    for r in standings(view, data) {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{}",
            r.rank,
            r.team,
            super::standings::csv_field(&r.name),
            r.points,
            r.match_wins,
            r.match_draws,
            r.match_losses,
            r.byes,
            r.games_won,
            r.vp_diff,
            r.dropped,
            super::standings::csv_field(members.get(&r.team).map_or("", String::as_str)),
        );
    }
    out
}

/// Pairs the next round of a team event as a draft, inside the caller's
/// transaction (which has claimed the event's version): teams by Swiss,
/// and members by rank where the event pairs them so.
pub(super) fn pair_team_round(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    data: &EventData,
    number: i32,
    ctx: &Ctx<'_>,
) -> Result<Round, EventError> {
    let settings = settings_of(view)?;
    let all = teams_of(data);
    let played = data.players_who_played();
    let mut playing = Vec::new();
    for team in all.iter().filter(|t| !t.dropped()) {
        if team.members.len() != settings.size as usize {
            return Err(EventError::Conflict(format!(
                "{} has {} of its {} players: complete the team, or drop it.",
                team.team.name,
                team.members.len(),
                settings.size
            )));
        }
        let absent: Vec<&str> = team
            .members
            .iter()
            .filter(|m| !m.checked_in && !played.contains(&m.id))
            .map(|m| m.display_name.as_str())
            .collect();
        if !absent.is_empty() {
            return Err(EventError::Conflict(format!(
                "{} is not complete at the venue: check in {} before pairing.",
                team.team.name,
                absent.join(", ")
            )));
        }
        playing.push(team);
    }
    if playing.len() < 2 {
        return Err(EventError::Conflict(
            "At least two complete teams must be playing.".into(),
        ));
    }
    let mut field = tournament_teams(&all);
    for team in &mut field {
        team.dropped = !playing.iter().any(|p| p.team.id == team.id);
    }
    let seed = rand::random::<u64>();
    let pairing = teams::pair_teams(
        &field,
        &tournament_matches(data),
        &view.settings.scoring,
        settings.size,
        view.settings.avoid_same_club,
        seed,
        u32::try_from(number).unwrap_or(0),
    )?;
    let json = super::stored_json::to_json(&TeamRoundPairing {
        teams: StoredPairing::from(&pairing),
    })?;
    let round = db_events::insert_round(conn, view.id(), number, seed as i64, &json, ctx.now)?
        .ok_or_else(|| {
            EventError::Conflict(format!(
                "Round {number} was paired by someone else a moment ago."
            ))
        })?;
    let members_of = |id: i64| {
        all.iter()
            .find(|t| t.team.id == id)
            .map(TeamWithMembers::member_ids)
            .unwrap_or_default()
    };
    for (number_in_round, pair) in (1..).zip(&pairing.pairs) {
        let row = insert_match(
            conn,
            view,
            &round,
            number_in_round,
            pair.a,
            Some(pair.b),
            ctx,
        )?;
        if settings.pairing == MemberPairing::ByRank {
            let pairs = teams::pairs_by_rank(&members_of(pair.a), &members_of(pair.b))
                .map_err(choice_error)?;
            insert_member_games(conn, view, &round, &row, settings, &pairs, ctx)?;
        }
    }
    if let Some(bye) = pairing.bye {
        let next = i32::try_from(pairing.pairs.len()).unwrap_or(i32::MAX) + 1;
        let row = insert_match(conn, view, &round, next, bye, None, ctx)?;
        insert_games_of(
            conn,
            view,
            &round,
            &[],
            &members_of(bye),
            Some(row.id),
            ctx.now,
        )?;
    }
    super::scenarios::use_prepared(conn, view, &round, ctx.now)?;
    audit::record(
        conn,
        access.account_id(),
        Some(view.id()),
        "round.paired",
        &format!("round {number}, teams, seed {seed}"),
        ctx.now,
    )?;
    Ok(round)
}

fn insert_match(
    conn: &mut DbConnection,
    view: &EventView,
    round: &Round,
    match_number: i32,
    team_a: i64,
    team_b: Option<i64>,
    ctx: &Ctx<'_>,
) -> Result<TeamMatchRow, EventError> {
    Ok(db_teams::insert_team_match(
        conn,
        &NewTeamMatch {
            event_id: view.id(),
            round_id: round.id,
            match_number,
            team_a,
            team_b,
            choices: "[]".into(),
            created_at: ctx.now,
            updated_at: ctx.now,
        },
    )?)
}

/// A match's member games: match m's boards take tables after those of
/// the matches before it.
fn insert_member_games(
    conn: &mut DbConnection,
    view: &EventView,
    round: &Round,
    row: &TeamMatchRow,
    settings: TeamSettings,
    pairs: &[(PlayerId, PlayerId)],
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    let first = u32::try_from(row.match_number - 1).unwrap_or(0) * settings.size;
    let tables: Vec<TablePair> = (1..)
        .zip(pairs)
        .map(|(board, &(a, b))| TablePair {
            table: first + board,
            a,
            b,
        })
        .collect();
    insert_games_of(conn, view, round, &tables, &[], Some(row.id), ctx.now)?;
    super::round_setups::give_sides_to_new_games(conn, view, round)
}

fn choice_error(err: ChoiceError) -> EventError {
    match err {
        ChoiceError::UnequalTeams { .. } => EventError::Corrupt(err.to_string()),
        ChoiceError::NotAnOption(_) => EventError::invalid(
            "pick",
            "That player is not among those to choose from: the page shows who is.",
        ),
        ChoiceError::Finished => {
            EventError::Conflict("Every player of this match is already paired.".into())
        }
    }
}

/// A team match with what its captains see.
#[derive(Debug, Clone, Serialize)]
pub struct MatchState {
    pub row: TeamMatchRow,
    pub round: Round,
    pub team_a: TeamWithMembers,
    pub team_b: Option<TeamWithMembers>,
    /// What comes next (None for a bye, or a match paired by rank).
    pub next: Option<NextChoice>,
    /// The choices made so far: defender, attacker, defender, ...
    pub made: Vec<PlayerId>,
}

impl MatchState {
    /// How many choices are made: a choice is accepted only for the step
    /// the chooser saw.
    pub fn step(&self) -> usize {
        self.made.len()
    }

    /// Games won by each team and drawn, once every game is in.
    pub fn tally(&self, data: &EventData, boards: u32) -> Option<teams::MatchTally> {
        team_match_of(data, &self.row).tally(boards)
    }

    /// The team whose captain acts next, if one does.
    pub fn acting(&self) -> Option<&TeamWithMembers> {
        let side = match self.next.as_ref()? {
            NextChoice::Defender { side, .. } | NextChoice::Attacker { side, .. } => *side,
            NextChoice::Done { .. } => return None,
        };
        match side {
            MatchSide::A => Some(&self.team_a),
            MatchSide::B => self.team_b.as_ref(),
        }
    }

    /// Whether `access` may make the next choice: the acting team's
    /// captain, or the organisers.
    pub fn may_choose(&self, access: &Access) -> bool {
        self.round.status != RoundStatus::Draft
            && self.acting().is_some_and(|team| {
                access.is_staff()
                    || (access.account_id().is_some()
                        && access.account_id() == team.team.captain_account_id)
            })
    }
}

/// A team match of the event and where its captains' choice stands.
pub fn match_state(
    view: &EventView,
    data: &EventData,
    match_id: i64,
) -> Result<MatchState, EventError> {
    let settings = settings_of(view)?;
    let row = data
        .team_matches
        .iter()
        .find(|m| m.id == match_id)
        .cloned()
        .ok_or(EventError::NotFound)?;
    let round = data
        .rounds
        .iter()
        .find(|r| r.id == row.round_id)
        .cloned()
        .ok_or(EventError::NotFound)?;
    let all = teams_of(data);
    let find = |id: i64| all.iter().find(|t| t.team.id == id).cloned();
    let team_a = find(row.team_a).ok_or_else(|| EventError::Corrupt("team match team".into()))?;
    let team_b = row.team_b.and_then(find);
    let made = choices_of(&row)?;
    let next = match (&team_b, settings.pairing) {
        (Some(b), MemberPairing::CaptainsChoice) => Some(
            teams::next_choice(&team_a.member_ids(), &b.member_ids(), &made)
                .map_err(choice_error)?,
        ),
        _ => None,
    };
    Ok(MatchState {
        row,
        round,
        team_a,
        team_b,
        next,
        made,
    })
}

fn choices_of(row: &TeamMatchRow) -> Result<Vec<PlayerId>, EventError> {
    serde_json::from_str(&row.choices)
        .map_err(|e| EventError::Corrupt(format!("team match choices: {e}")))
}

/// A captain (or an organiser) makes the match's next choice: a defender
/// put forward, or the attacker who plays them. `step` is the number of
/// choices the chooser saw made; when the last pair falls into place, the
/// member games are created.
pub fn choose(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    match_id: i64,
    step: usize,
    pick: PlayerId,
    ctx: &Ctx<'_>,
) -> Result<MatchState, EventError> {
    require_not_finished(view, access)?;
    let settings = settings_of(view)?;
    db_events::event_write_transaction(conn, view.id(), |conn| {
        let data = EventData::load(conn, view.id())?;
        let state = match_state(view, &data, match_id)?;
        let Some(team_b) = state.team_b.as_ref() else {
            return Err(EventError::Conflict(
                "A team with a bye has nobody to choose.".into(),
            ));
        };
        if state.next.is_none() {
            return Err(EventError::Conflict(
                "This event pairs players by rank: there is nothing to choose.".into(),
            ));
        }
        if state.round.status == RoundStatus::Draft {
            return Err(EventError::Conflict(format!(
                "Round {} is not published yet: captains choose once it is.",
                state.round.number
            )));
        }
        if !state.may_choose(access) {
            return Err(match state.acting() {
                Some(team) => EventError::Forbidden(format!(
                    "It is the captain of {} who chooses now.",
                    team.team.name
                )),
                None => {
                    EventError::Conflict("Every player of this match is already paired.".into())
                }
            });
        }
        if step != state.step() {
            return Err(EventError::Conflict(
                "The other captain chose while you had the page open. Nothing was changed; the page now shows the current state.".into(),
            ));
        }
        let (a, b) = (state.team_a.member_ids(), team_b.member_ids());
        let after = teams::choose(&a, &b, &state.made, pick).map_err(choice_error)?;
        let after_json = super::stored_json::to_json(&after)?;
        if !db_teams::set_choices(conn, match_id, &state.row.choices, &after_json, ctx.now)? {
            return Err(EventError::Conflict(
                "The other captain chose a moment ago. Nothing was changed; the page now shows the current state.".into(),
            ));
        }
        if let NextChoice::Done { pairs } =
            teams::next_choice(&a, &b, &after).map_err(choice_error)?
        {
            insert_member_games(conn, view, &state.round, &state.row, settings, &pairs, ctx)?;
        }
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "team.chose",
            &format!(
                "match {match_id}: step {} picks {}",
                step + 1,
                data.name_of(pick)
            ),
            ctx.now,
        )?;
        let data = EventData::load(conn, view.id())?;
        match_state(view, &data, match_id)
    })
}

/// The matches of a round, in order.
pub fn matches_of_round(view: &EventView, data: &EventData, round: &Round) -> Vec<MatchState> {
    data.team_matches
        .iter()
        .filter(|m| m.round_id == round.id)
        .filter_map(|m| match_state(view, data, m.id).ok())
        .collect()
}

/// Refuses what a team round does not allow: playoffs, swaps and imports
/// work on players, not teams.
pub(super) fn require_individual_event(view: &EventView, what: &str) -> Result<(), EventError> {
    if view.settings.teams.is_some() {
        Err(EventError::Conflict(format!(
            "{what} is not available in a team event."
        )))
    } else {
        Ok(())
    }
}
