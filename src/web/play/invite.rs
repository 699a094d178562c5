//! Games by invitation, casual or counting in a league: the inviter brings
//! crews (or a Mage Knight army) and a clock and gets a link to send;
//! whoever opens it signed in brings theirs and accepts, and the game
//! starts (`hosted::invitations` holds the rules).

use actix_web::{HttpResponse, get, post, web};
use askama::Template;

use super::{CrewOption, Written, brought_of, crew_options, now, time_control_ms};
use crate::hosted::HostedError;
use crate::hosted::brought::{BroughtFor, Content};
use crate::hosted::event_games::{self as digital, InvitableLeague};
use crate::hosted::invitations::{self, Invitation, InvitationState};
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, CurrentUser, NoFields};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(new_page)
        .service(create)
        .service(invitation_page)
        .service(accept)
        .service(cancel);
}

fn invitation_path(token: &str) -> String {
    format!("/play/invite/{token}")
}

#[derive(Template)]
#[template(path = "play/invite_new.html")]
struct NewPage {
    ctx: PageContext,
    crews: Vec<CrewOption>,
    own_list: String,
    /// The ready Mage Knight armies, and an army the player wrote.
    armies: Vec<String>,
    own_army: String,
    /// The ready 1st edition crews, and a crew the player wrote.
    m1e_crews: Vec<String>,
    own_m1e_crew: String,
    m1e_event_note: String,
    /// Open leagues the player plays in: the game may count in one.
    leagues: Vec<InvitableLeague>,
    /// The league chosen (on a page shown again with an error).
    league: Option<i64>,
    error: Option<String>,
}

impl NewPage {
    fn is_chosen(&self, event_id: &i64) -> bool {
        self.league == Some(*event_id)
    }

    /// The leagues a game of `system` may count in.
    fn leagues_of(&self, system: BroughtFor) -> Vec<&InvitableLeague> {
        self.leagues
            .iter()
            .filter(|l| l.limits.system() == system)
            .collect()
    }

    fn malifaux_leagues(&self) -> Vec<&InvitableLeague> {
        self.leagues_of(BroughtFor::Malifaux)
    }

    fn first_edition_leagues(&self) -> Vec<&InvitableLeague> {
        self.leagues_of(BroughtFor::FirstEdition)
    }
}

async fn new_page_with(
    ctx: &PageContext,
    state: &web::Data<AppState>,
    user: &CurrentUser,
    error: Option<String>,
    written: Written,
    league: Option<i64>,
) -> Result<HttpResponse, AppError> {
    let account = user.id();
    let leagues = state
        .with_db(move |conn| Ok(digital::leagues_to_invite_in(conn, account)?))
        .await?;
    let saved = super::saved_lists(state, Some(account)).await?;
    let mut crews = crew_options(None, &saved);
    if error.is_none() && !written.own_list.is_empty() {
        // A list handed over is the one brought, not the first ready crew too.
        for crew in &mut crews {
            crew.ticked = false;
        }
    }
    let page = NewPage {
        ctx: ctx.clone(),
        crews,
        own_list: written.own_list,
        armies: super::mage_knight::army_names(),
        own_army: written.own_army,
        m1e_crews: super::first_edition::crew_names(),
        own_m1e_crew: written.own_first_edition_crew,
        m1e_event_note: String::new(),
        leagues,
        league,
        error,
    };
    if page.error.is_some() {
        crate::web::forms::render_invalid(ctx, &page)
    } else {
        render_page(ctx, &page)
    }
}

#[derive(Debug, serde::Deserialize)]
struct NewQuery {
    /// A league to preselect (the league's page links here with it).
    league: Option<i64>,
    /// A crew list handed over by the builder or the saved lists (JSON).
    list: Option<String>,
}

#[get("/play/invite")]
async fn new_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    query: web::Query<NewQuery>,
) -> Result<HttpResponse, AppError> {
    let query = query.into_inner();
    let written = Written {
        own_list: query
            .list
            .as_deref()
            .and_then(crate::web::crew_builder::list_from_json)
            .map(|list| list.to_text())
            .unwrap_or_default(),
        ..Written::default()
    };
    new_page_with(&ctx, &state, &user, None, written, query.league).await
}

/// The league field: empty for a casual game; anything else not a league's
/// number is refused rather than read as casual.
fn league_from_form(fields: &[(String, String)]) -> Result<Option<i64>, String> {
    match fields
        .iter()
        .find(|(k, _)| k == "league")
        .map(|(_, v)| v.trim())
    {
        None | Some("") => Ok(None),
        Some(id) => id
            .parse()
            .map(Some)
            .map_err(|_| "Choose a league from the list, or a casual game.".to_owned()),
    }
}

#[post("/play/invite")]
async fn create(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let fields = form.0;
    let chosen = league_from_form(&fields);
    let league = chosen.clone().ok().flatten();
    let saved = super::saved_lists(&state, Some(user.id())).await?;
    let (brought, own) = match brought_of(&fields, &saved) {
        Ok(read) => read,
        Err((error, own)) => {
            return new_page_with(&ctx, &state, &user, Some(error), own, league).await;
        }
    };
    let league = match chosen {
        Ok(league) => league,
        Err(error) => return new_page_with(&ctx, &state, &user, Some(error), own, None).await,
    };
    let clock = match time_control_ms(&fields) {
        Ok(clock) => clock,
        Err(error) => return new_page_with(&ctx, &state, &user, Some(error), own, league).await,
    };
    let content = std::sync::Arc::clone(&state.content);
    let inviter = user.id();
    let actor = crate::events::Actor::of(&user.account);
    let made = state
        .with_db(move |conn| {
            // A league game is played with the league's cards.
            let (catalog, stamp) = crate::packs::league_cards(conn, &content, league, actor)?;
            Ok(invitations::invite(
                conn,
                &Content::shipped(&catalog, &stamp).map_err(AppError::internal)?,
                inviter,
                &brought,
                clock,
                league,
                now(),
            ))
        })
        .await?;
    match made {
        Ok(invitation) => Ok(redirect_with_flash(
            &state,
            &invitation_path(&invitation.token),
            FlashLevel::Success,
            "Your invitation is ready: send its link to your opponent.",
        )),
        Err(HostedError::Invalid(problem)) => {
            new_page_with(&ctx, &state, &user, Some(problem), own, league).await
        }
        Err(other) => Err(other.into()),
    }
}

#[derive(Template)]
#[template(path = "play/invitation.html")]
struct InvitationPage {
    ctx: PageContext,
    invitation: Invitation,
    /// The whole link, to copy.
    link: String,
    mine: bool,
    crews: Vec<CrewOption>,
    own_list: String,
    armies: Vec<String>,
    own_army: String,
    m1e_crews: Vec<String>,
    own_m1e_crew: String,
    /// The encounter the one accepting hires their crew at.
    m1e_event_note: String,
    error: Option<String>,
}

impl InvitationPage {
    fn is_open(&self) -> bool {
        self.invitation.state == InvitationState::Open
    }

    fn game(&self) -> Option<i64> {
        match self.invitation.state {
            InvitationState::Accepted { game } => game,
            _ => None,
        }
    }

    fn clock(&self) -> String {
        match self.invitation.time_control_ms {
            Some(ms) => format!("{} minutes each, on a chess clock", ms / 60_000),
            None => "untimed".into(),
        }
    }

    fn mage_knight(&self) -> bool {
        self.invitation.game == BroughtFor::MageKnight
    }

    fn first_edition(&self) -> bool {
        self.invitation.game == BroughtFor::FirstEdition
    }

    fn state_words(&self) -> &'static str {
        match self.invitation.state {
            InvitationState::Open => "open",
            InvitationState::Accepted { .. } => "accepted",
            InvitationState::Cancelled => "cancelled",
            InvitationState::Expired => "expired",
        }
    }
}

async fn invitation_page_with(
    ctx: &PageContext,
    state: &web::Data<AppState>,
    user: &CurrentUser,
    token: String,
    error: Option<String>,
    written: Written,
) -> Result<HttpResponse, AppError> {
    let saved = super::saved_lists(state, Some(user.id())).await?;
    let invitation = state
        .with_db(move |conn| Ok(invitations::find(conn, &token, now())?))
        .await?;
    let page = InvitationPage {
        ctx: ctx.clone(),
        link: format!(
            "{}{}",
            state.settings.base_url,
            invitation_path(&invitation.token)
        ),
        mine: invitation.inviter_id == user.id(),
        m1e_event_note: invitation
            .first_edition_encounter
            .map(|(size, soulstones)| {
                format!(
                    "at this game's encounter, a {} of {soulstones} soulstones, whatever its own file says",
                    size.name()
                )
            })
            .unwrap_or_default(),
        invitation,
        crews: crew_options(None, &saved),
        own_list: written.own_list,
        armies: super::mage_knight::army_names(),
        own_army: written.own_army,
        m1e_crews: super::first_edition::crew_names(),
        own_m1e_crew: written.own_first_edition_crew,
        error,
    };
    if page.error.is_some() {
        crate::web::forms::render_invalid(ctx, &page)
    } else {
        render_page(ctx, &page)
    }
}

#[get("/play/invite/{token}")]
async fn invitation_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    invitation_page_with(
        &ctx,
        &state,
        &user,
        path.into_inner(),
        None,
        Written::default(),
    )
    .await
}

#[post("/play/invite/{token}/accept")]
async fn accept(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    form: CsrfForm<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    use rand::Rng;
    let token = path.into_inner();
    let fields = form.0;
    let saved = super::saved_lists(&state, Some(user.id())).await?;
    let (brought, own) = match brought_of(&fields, &saved) {
        Ok(read) => read,
        Err((error, own)) => {
            return invitation_page_with(&ctx, &state, &user, token, Some(error), own).await;
        }
    };
    let content = std::sync::Arc::clone(&state.content);
    let account = user.id();
    let seed = soulstone_engine::fairness::Bytes32(rand::rng().random());
    let accepted_token = token.clone();
    let actor = crate::events::Actor::of(&user.account);
    let started = state
        .with_db(move |conn| {
            // A league game is played with the league's cards, both crews.
            let league = match invitations::find(conn, &accepted_token, now()) {
                Ok(invitation) => invitation.league.map(|l| l.event_id),
                // `accept` says the link is unknown, as it says for any
                // link it cannot take.
                Err(HostedError::NotFound) => None,
                Err(other) => return Err(other.into()),
            };
            let (catalog, stamp) = crate::packs::league_cards(conn, &content, league, actor)?;
            Ok(invitations::accept(
                conn,
                &Content::shipped(&catalog, &stamp).map_err(AppError::internal)?,
                &accepted_token,
                account,
                &brought,
                seed,
                now(),
            ))
        })
        .await?;
    match started {
        Ok(game) => {
            state.game_updates.announce(game);
            Ok(HttpResponse::SeeOther()
                .insert_header(("Location", format!("/games/{game}")))
                .finish())
        }
        Err(HostedError::Invalid(problem)) => {
            invitation_page_with(&ctx, &state, &user, token, Some(problem), own).await
        }
        Err(other) => Err(other.into()),
    }
}

#[post("/play/invite/{token}/cancel")]
async fn cancel(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<String>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let token = path.into_inner();
    let inviter = user.id();
    let back = invitation_path(&token);
    let cancelled = state
        .with_db(move |conn| Ok(invitations::cancel(conn, &token, inviter, now())))
        .await?;
    match cancelled {
        Ok(()) => Ok(redirect_with_flash(
            &state,
            &back,
            FlashLevel::Info,
            "Invitation cancelled: its link no longer starts a game.",
        )),
        Err(HostedError::Invalid(problem)) => Ok(redirect_with_flash(
            &state,
            &back,
            FlashLevel::Error,
            problem,
        )),
        Err(other) => Err(other.into()),
    }
}
