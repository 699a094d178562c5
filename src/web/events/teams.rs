//! Team events: the teams page (entries, team standings, registering a
//! team) and the team match page where captains choose who plays whom.

use std::sync::Arc;

use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use serde::Deserialize;

use super::rounds::act;
use super::{actor_of, ctx_of, form_errors, service_ctx};
use crate::events::registration::registration_closed_reason;
use crate::events::rounds::EventData;
use crate::events::teams::{self, MatchState, TeamEntry, TeamWithMembers};
use crate::events::{self, Access, EventError, EventView};
use crate::tournament::teams::{MAX_TEAM_SIZE, NextChoice, TeamStandingRow};
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::forms::{FormErrors, render_invalid};
use crate::web::layout::{FlashLevel, PageContext, download, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, CurrentUser, MaybeUser};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(teams_page)
        .service(teams_csv)
        .service(register_team)
        .service(add_team_at_desk)
        .service(match_page)
        .service(choose);
}

pub fn teams_path(id: i64) -> String {
    format!("/events/{id}/teams")
}

fn match_path(id: i64, match_id: i64) -> String {
    format!("/events/{id}/matches/{match_id}")
}

/// What a captain typed to register a team (kept when it is refused).
#[derive(Debug, Default, Clone, Deserialize)]
pub struct TeamForm {
    #[serde(default)]
    team_name: String,
    #[serde(default)]
    club: String,
    /// The first board: only typed at the desk (a captain is board 1).
    #[serde(default)]
    member_1: String,
    #[serde(default)]
    member_2: String,
    #[serde(default)]
    member_3: String,
    #[serde(default)]
    member_4: String,
    #[serde(default)]
    member_5: String,
    #[serde(default)]
    member_6: String,
    #[serde(default)]
    member_7: String,
    #[serde(default)]
    member_8: String,
}

impl TeamForm {
    /// The member field for board `n` (2 to the team size).
    fn member(&self, n: &u32) -> &str {
        match n {
            1 => &self.member_1,
            2 => &self.member_2,
            3 => &self.member_3,
            4 => &self.member_4,
            5 => &self.member_5,
            6 => &self.member_6,
            7 => &self.member_7,
            8 => &self.member_8,
            _ => "",
        }
    }

    /// The entry with boards `first` to the team size.
    fn entry(&self, first: u32, size: u32) -> TeamEntry<'_> {
        TeamEntry {
            name: &self.team_name,
            club: &self.club,
            members: (first..=size.min(MAX_TEAM_SIZE))
                .map(|n| self.member(&n))
                .collect(),
        }
    }
}

#[derive(Template)]
#[template(path = "events/teams.html")]
struct TeamsPage {
    ctx: PageContext,
    view: EventView,
    access: Access,
    teams: Vec<TeamWithMembers>,
    standings: Vec<TeamStandingRow>,
    /// Why registration is closed, if it is.
    closed_reason: Option<String>,
    /// The signed-in player captains this team.
    my_team: Option<i64>,
    form: TeamForm,
    errors: FormErrors,
}

impl TeamsPage {
    fn size(&self) -> u32 {
        self.view.settings.teams.map_or(0, |t| t.size)
    }

    /// The boards a captain names (the others than their own).
    fn boards(&self) -> Vec<u32> {
        (2..=self.size()).collect()
    }

    /// Every board, for a team entered at the desk.
    fn all_boards(&self) -> Vec<u32> {
        (1..=self.size()).collect()
    }

    fn pairing_label(&self) -> &'static str {
        self.view.settings.teams.map_or("", |t| t.pairing.label())
    }

    fn team_name(&self, id: &i64) -> &str {
        self.teams
            .iter()
            .find(|t| t.team.id == *id)
            .map_or("?", |t| t.team.name.as_str())
    }
}

async fn load_page(
    state: &web::Data<AppState>,
    ctx: &PageContext,
    user: &MaybeUser,
    id: i64,
    form: TeamForm,
    errors: FormErrors,
) -> Result<TeamsPage, AppError> {
    let actor = actor_of(user.0.as_deref());
    let cache = Arc::clone(&state.event_data);
    let (now, _) = ctx_of(state);
    let ctx = ctx.clone();
    state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            teams::settings_of(&view)?;
            let data: Arc<EventData> = cache.load(conn, &view)?;
            let teams = teams::teams_of(&data);
            let my_team = access.account_id().and_then(|me| {
                teams
                    .iter()
                    .find(|t| t.team.captain_account_id == Some(me))
                    .map(|t| t.team.id)
            });
            Ok(TeamsPage {
                ctx,
                standings: teams::standings(&view, &data),
                closed_reason: registration_closed_reason(&view, now),
                teams,
                my_team,
                view,
                access,
                form,
                errors,
            })
        })
        .await
}

#[get("/events/{id}/teams")]
async fn teams_page(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let page = load_page(
        &state,
        &ctx,
        &user,
        path.into_inner(),
        TeamForm::default(),
        FormErrors::new(),
    )
    .await?;
    render_page(&ctx, &page)
}

#[get("/events/{id}/teams.csv")]
async fn teams_csv(
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let actor = actor_of(user.0.as_deref());
    let cache = Arc::clone(&state.event_data);
    let csv = state
        .with_db(move |conn| {
            let (view, _) = events::load(conn, id, actor)?;
            teams::settings_of(&view)?;
            let data: Arc<EventData> = cache.load(conn, &view)?;
            Ok(teams::standings_csv(&view, &data))
        })
        .await?;
    Ok(download(
        "text/csv; charset=utf-8",
        &format!("event-{id}-team-standings.csv"),
        csv,
    ))
}

#[post("/events/{id}/teams")]
async fn register_team(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<TeamForm>,
) -> Result<HttpResponse, AppError> {
    enter_team(ctx, user, state, path.into_inner(), form.0, false).await
}

#[post("/events/{id}/teams/desk")]
async fn add_team_at_desk(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<TeamForm>,
) -> Result<HttpResponse, AppError> {
    enter_team(ctx, user, state, path.into_inner(), form.0, true).await
}

/// Enters a team, by its captain or at the desk; a refusal shows the page
/// again with what was typed.
async fn enter_team(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    id: i64,
    form: TeamForm,
    at_desk: bool,
) -> Result<HttpResponse, AppError> {
    let actor = actor_of(Some(&user));
    let (now, base_url) = ctx_of(&state);
    let submitted = form.clone();
    let outcome = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            let size = view.settings.teams.map_or(0, |t| t.size);
            let ctx = service_ctx(now, &base_url);
            Ok(if at_desk {
                teams::add_team_at_desk(conn, &view, &access, &submitted.entry(1, size), &ctx)
            } else {
                teams::register_team(conn, &view, &access, &submitted.entry(2, size), &ctx)
            })
        })
        .await?;
    match outcome {
        Ok(team) => Ok(redirect_with_flash(
            &state,
            &teams_path(id),
            FlashLevel::Success,
            format!("{} is registered.", team.name),
        )),
        Err(err @ (EventError::Invalid(_) | EventError::Conflict(_))) => {
            let errors = form_errors(&err).unwrap_or_else(|| {
                let mut errors = FormErrors::new();
                errors.set_general(err.for_people());
                errors
            });
            let user = MaybeUser(Some(user.0));
            let page = load_page(&state, &ctx, &user, id, form, errors).await?;
            render_invalid(&ctx, &page)
        }
        Err(err) => Err(err.into()),
    }
}

#[derive(Template)]
#[template(path = "events/team_match.html")]
struct MatchPage {
    ctx: PageContext,
    view: EventView,
    state: MatchState,
    /// The signed-in user may make the next choice.
    may_choose: bool,
    /// Names of the match's member games once paired: (table, A, B, game).
    games: Vec<(Option<i32>, String, String, i64, crate::events::GameStatus)>,
    /// Games won by each side and drawn, once every result is in.
    tally: Option<crate::tournament::teams::MatchTally>,
}

impl MatchPage {
    fn name(&self, id: &i64) -> &str {
        self.state
            .team_a
            .members
            .iter()
            .chain(self.state.team_b.iter().flat_map(|t| t.members.iter()))
            .find(|m| m.id == *id)
            .map_or("?", |m| m.display_name.as_str())
    }

    fn team_b_name(&self) -> &str {
        self.state
            .team_b
            .as_ref()
            .map_or("a bye", |t| t.team.name.as_str())
    }

    /// The choice waited for, in words.
    fn waiting_for(&self) -> String {
        let team = self.state.acting().map_or("", |t| t.team.name.as_str());
        match &self.state.next {
            Some(NextChoice::Defender { .. }) => {
                format!("{team}'s captain puts a defender forward.")
            }
            Some(NextChoice::Attacker { against, .. }) => {
                format!("{team}'s captain picks who plays {}.", self.name(against))
            }
            _ => String::new(),
        }
    }

    fn options(&self) -> Vec<i64> {
        match &self.state.next {
            Some(NextChoice::Defender { options, .. } | NextChoice::Attacker { options, .. }) => {
                options.clone()
            }
            _ => Vec::new(),
        }
    }

    /// The pairs made so far by the captains, in order.
    fn chosen_pairs(&self) -> Vec<(i64, i64)> {
        self.state
            .made
            .chunks_exact(2)
            .map(|c| (c[0], c[1]))
            .collect()
    }
}

#[get("/events/{id}/matches/{match_id}")]
async fn match_page(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
) -> Result<HttpResponse, AppError> {
    let (id, match_id) = path.into_inner();
    let actor = actor_of(user.0.as_deref());
    let cache = Arc::clone(&state.event_data);
    let page_ctx = ctx.clone();
    let page = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            let data: Arc<EventData> = cache.load(conn, &view)?;
            let match_state = teams::match_state(&view, &data, match_id)?;
            let games = data
                .games
                .iter()
                .filter(|g| g.team_match_id == Some(match_id))
                .map(|g| {
                    (
                        g.table_number,
                        data.name_of(g.player_a).to_owned(),
                        g.player_b
                            .map_or("bye".to_owned(), |b| data.name_of(b).to_owned()),
                        g.id,
                        g.status,
                    )
                })
                .collect();
            let boards = view.settings.teams.map_or(0, |t| t.size);
            Ok(MatchPage {
                tally: match_state.tally(&data, boards),
                ctx: page_ctx,
                may_choose: match_state.may_choose(&access),
                state: match_state,
                view,
                games,
            })
        })
        .await?;
    render_page(&ctx, &page)
}

#[derive(Debug, Deserialize)]
struct ChoiceForm {
    #[serde(default)]
    step: String,
    #[serde(default)]
    pick: String,
}

#[post("/events/{id}/matches/{match_id}/choose")]
async fn choose(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    form: CsrfForm<ChoiceForm>,
) -> Result<HttpResponse, AppError> {
    let (id, match_id) = path.into_inner();
    let step: usize = form
        .step
        .trim()
        .parse()
        .map_err(|_| AppError::bad_request("The form is missing its step; reload the page."))?;
    let pick: i64 = form
        .pick
        .trim()
        .parse()
        .map_err(|_| AppError::bad_request("Choose a player from the list."))?;
    act(
        &state,
        &user,
        id,
        match_path(id, match_id),
        "Your choice is recorded.".into(),
        move |conn, view, access, ctx| {
            teams::choose(conn, view, access, match_id, step, pick, ctx)?;
            Ok(None)
        },
    )
    .await
}
