//! The event list, the event form, the event page, lifecycle and staff.

use crate::events::RegistrationStatus;
use actix_web::{HttpResponse, get, post, web};
use askama::Template;
use serde::Deserialize;

use super::{actor_of, ctx_of, event_path, form_errors, service_ctx};
use crate::events::input::EventInput;
use crate::events::manage::{self, StaffRole};
use crate::events::registration::{self, can_see_lists, registration_closed_reason};
use crate::events::rounds::EventData;
use crate::events::{self, Access, EventStatus, EventView};
use crate::events::{EventRow as Event, Registration, Round};
use crate::pools::{self, PoolRow};
use crate::systems::GameSystem;
use crate::tournament::Tiebreaker;
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::forms::{FormErrors, render_invalid};
use crate::web::layout::download;
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, CurrentUser, MaybeUser, NoFields};

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(list)
        .service(new_page)
        .service(create)
        .service(show)
        .service(edit_page)
        .service(update)
        .service(change_status)
        .service(confirm_page)
        .service(add_staff)
        .service(staff_accept_page)
        .service(staff_accept)
        .service(remove_staff)
        .service(publish_lists)
        .service(snapshot);
}

/// A line in an event list.
pub struct EventCard {
    pub id: i64,
    pub name: String,
    pub dates: String,
    pub venue: String,
    pub system: String,
    pub status: String,
    /// Results waiting for an organiser (shown to the event's staff).
    pub disputed: i64,
}

impl EventCard {
    fn of(event: &Event) -> Self {
        let dates = crate::events::event_dates(event.starts_on, event.ends_on);
        Self {
            id: event.id,
            name: event.name.clone(),
            dates,
            venue: event.venue.clone(),
            system: event
                .game_system
                .parse::<GameSystem>()
                .map(|s| s.name().to_owned())
                .unwrap_or_default(),
            status: event.status.label().to_owned(),
            disputed: 0,
        }
    }
}

#[derive(Template)]
#[template(path = "events/list.html")]
struct ListPage {
    ctx: PageContext,
    events: Vec<EventCard>,
    organising: Vec<EventCard>,
    playing: Vec<EventCard>,
}

#[get("/events")]
async fn list(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    let account = user.0.as_ref().map(|u| u.account.id);
    let (events, organising, playing, disputed) = state
        .with_db(move |conn| {
            let events = events::reads::public_events(conn, 200)?;
            let (organising, playing) = match account {
                Some(id) => events::reads::events_of(conn, id)?,
                None => (Vec::new(), Vec::new()),
            };
            let ids: Vec<i64> = organising.iter().map(|e| e.id).collect();
            let disputed = events::reads::disputed_counts(conn, &ids)?;
            Ok((events, organising, playing, disputed))
        })
        .await?;
    let cards = |events: Vec<Event>| events.iter().map(EventCard::of).collect::<Vec<_>>();
    let mut organising = cards(organising);
    for card in &mut organising {
        card.disputed = disputed
            .iter()
            .find(|(event, _)| *event == card.id)
            .map_or(0, |(_, count)| *count);
    }
    render_page(
        &ctx,
        &ListPage {
            ctx: ctx.clone(),
            events: cards(events),
            organising,
            playing: cards(playing),
        },
    )
}

/// Choices for the event form.
pub struct FormChoices {
    pub systems: Vec<(&'static str, &'static str)>,
    pub pools: Vec<(String, String)>,
    pub tiebreakers: Vec<(&'static str, &'static str)>,
}

fn form_choices(pools: &[PoolRow]) -> FormChoices {
    FormChoices {
        systems: GameSystem::ALL
            .iter()
            .map(|s| (s.code(), s.name()))
            .collect(),
        pools: pools
            .iter()
            .map(|p| {
                let edition = p
                    .edition
                    .parse::<GameSystem>()
                    .map(|s| s.name())
                    .unwrap_or("?");
                (p.slug.clone(), format!("{} ({edition})", p.name))
            })
            .collect(),
        tiebreakers: Tiebreaker::ALL
            .iter()
            .map(|t| (t.code(), t.label()))
            .collect(),
    }
}

#[derive(Template)]
#[template(path = "events/form.html")]
struct FormPage {
    ctx: PageContext,
    form: EventInput,
    errors: FormErrors,
    /// The event being edited; `None` for a new one.
    editing: Option<i64>,
    choices: FormChoices,
}

#[get("/events/new")]
async fn new_page(
    ctx: PageContext,
    _user: CurrentUser,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    let pools = state.with_db(|conn| Ok(pools::list(conn)?)).await?;
    let today = chrono::Utc::now().date_naive();
    render_page(
        &ctx,
        &FormPage {
            ctx: ctx.clone(),
            form: EventInput::new_event_defaults(today),
            errors: FormErrors::new(),
            editing: None,
            choices: form_choices(&pools),
        },
    )
}

#[post("/events/new")]
async fn create(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<EventInput>,
) -> Result<HttpResponse, AppError> {
    let input = form.0;
    let actor = actor_of(Some(&user)).ok_or(AppError::Unauthorized)?;
    let (now, base_url) = ctx_of(&state);
    let submitted = input.clone();
    let outcome = state
        .with_db(move |conn| {
            let spec = match submitted.validate() {
                Ok(spec) => spec,
                Err(err) => return Ok(Err(err)),
            };
            Ok(manage::create_event(
                conn,
                actor,
                spec,
                &service_ctx(now, &base_url),
            ))
        })
        .await?;
    match outcome {
        Ok(view) => Ok(redirect_with_flash(
            &state,
            &event_path(view.id()),
            FlashLevel::Success,
            "Event created as a draft. Open registration when you are ready.",
        )),
        Err(err) => {
            let Some(errors) = form_errors(&err) else {
                return Err(err.into());
            };
            let pools = state.with_db(|conn| Ok(pools::list(conn)?)).await?;
            let page = FormPage {
                ctx: ctx.clone(),
                form: input,
                errors,
                editing: None,
                choices: form_choices(&pools),
            };
            render_invalid(&ctx, &page)
        }
    }
}

/// What the event page shows about one entry.
pub struct EntryRow {
    pub registration: Registration,
    pub show_declaration: bool,
}

#[derive(Template)]
#[template(path = "events/show.html")]
struct ShowPage {
    ctx: PageContext,
    view: EventView,
    access: Access,
    registered: Vec<EntryRow>,
    waitlist: Vec<Registration>,
    rounds: Vec<Round>,
    /// The bracket names of the playoff rounds, by round id.
    playoff_names: std::collections::BTreeMap<i64, String>,
    /// The playoff cut, once made.
    playoff: Option<crate::events::PlayoffRow>,
    /// A playoff round has been paired (the cut can no longer be undone).
    playoff_paired: bool,
    /// Once the playoff is finished, the places it decided (the cut's).
    podium: Vec<crate::events::playoffs::NamedPlacing>,
    /// For the organisers: the link that opens sign-up to the venue today.
    venue_signup: Option<String>,
    /// The cut offered by default: 8, or fewer in a smaller field.
    default_cut: usize,
    staff: Vec<(i64, String, String, String)>,
    /// Open staff invitations (address, role), for the organisers.
    invited: Vec<(String, String)>,
    /// Players the next round would leave out as not present, for staff.
    absent: Vec<String>,
    /// Disputed results waiting for the staff: game id and which game.
    disputed: Vec<(i64, String)>,
    /// The signed-in player dropped and may still take it back.
    may_undo_drop: bool,
    pool: Option<(String, String)>,
    closed_reason: Option<String>,
    my_registration: Option<Registration>,
    factions: &'static [&'static str],
    /// The player's kept crew lists of the event's edition: id and name.
    saved_crews: Vec<(i64, String)>,
}

impl ShowPage {
    /// "Round 3", or a playoff round's name in the bracket.
    fn round_label(&self, round: &Round) -> String {
        match self.playoff_names.get(&round.id) {
            Some(name) => name.clone(),
            None => format!("Round {}", round.number),
        }
    }

    /// The playoff's rule for a drawn game, as the event states it.
    fn tie_rule_text(&self, cut: &crate::events::PlayoffRow) -> &'static str {
        crate::events::playoffs::rules_of(cut).map_or("", |rules| rules.tie.label())
    }

    fn tie_rules(&self) -> &'static [crate::tournament::bracket::PlayoffTie] {
        &crate::tournament::bracket::PlayoffTie::ALL
    }

    fn is_mine(&self, registration: &Registration) -> bool {
        self.my_registration
            .as_ref()
            .is_some_and(|r| r.id == registration.id)
    }
}

#[get("/events/{id}")]
async fn show(
    ctx: PageContext,
    user: MaybeUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let actor = actor_of(user.0.as_deref());
    let account = user.0.as_ref().map(|u| u.id());
    let id = path.into_inner();
    let (view, access, data, (staff, invited), (pool, saved_crews)) = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            // The player's kept lists of the event's edition, to declare one.
            let saved_crews = match (account, &access.registration, view.system.engine_edition()) {
                (Some(account), Some(_), Some(edition)) => {
                    crate::crews::saved::saved_of(conn, account, Some(edition))?
                        .into_iter()
                        .map(|crew| (crew.id, crew.name))
                        .collect()
                }
                _ => Vec::new(),
            };
            let data = EventData::load(conn, id)?;
            let staff = events::reads::staff_of(conn, id)?;
            // Whom the organisers invited and who has not answered yet.
            let invited = if access.is_owner() {
                events::reads::open_staff_invitations(conn, id, chrono::Utc::now().naive_utc())?
            } else {
                Vec::new()
            };
            let staff = (staff, invited);
            let pool = match view.event.pool_id {
                Some(pool_id) => pools::name_of(conn, pool_id)?,
                None => None,
            };
            Ok((view, access, data, staff, (pool, saved_crews)))
        })
        .await?;
    let now = chrono::Utc::now().naive_utc();
    let lists_visible = can_see_lists(&view, &access);
    let absent = if access.is_staff() {
        crate::events::rounds::absent_for_next_round(&data)
            .into_iter()
            .map(|r| r.display_name.clone())
            .collect()
    } else {
        Vec::new()
    };
    let disputed = if access.is_staff() {
        data.games
            .iter()
            .filter(|g| g.status == crate::events::GameStatus::Disputed)
            .map(|g| {
                let round = data
                    .round_number_of(g)
                    .map(|r| format!("Round {r}"))
                    .unwrap_or_else(|| "Open play".into());
                let table = g
                    .table_number
                    .map(|t| format!(", table {t}"))
                    .unwrap_or_default();
                let b = g.player_b.map_or("bye", |b| data.name_of(b));
                (
                    g.id,
                    format!("{round}{table}: {} v {b}", data.name_of(g.player_a)),
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    let my_registration = access
        .registration
        .clone()
        .filter(|r| r.status != RegistrationStatus::Withdrawn);
    let current_round = data.rounds.last().map_or(0, |r| r.number);
    let may_undo_drop = my_registration
        .as_ref()
        .is_some_and(|r| registration::may_take_back_drop(r, current_round));
    let registered = data
        .registrations
        .iter()
        .filter(|r| r.status == RegistrationStatus::Registered)
        .map(|r| EntryRow {
            registration: r.clone(),
            show_declaration: lists_visible
                || my_registration.as_ref().is_some_and(|m| m.id == r.id),
        })
        .collect();
    let waitlist = data
        .registrations
        .iter()
        .filter(|r| r.status == RegistrationStatus::Waitlisted)
        .cloned()
        .collect();
    let playoff_paired = data.playoff_rounds().next().is_some();
    let podium = match crate::events::playoffs::report(&view, &data)? {
        Some(report) if report.finished => {
            let cut = report.cut;
            report
                .placings
                .into_iter()
                .filter(|p| p.last_place <= cut)
                .collect()
        }
        _ => Vec::new(),
    };
    let still_in = data
        .registrations
        .iter()
        .filter(|r| r.status == RegistrationStatus::Registered && !r.dropped)
        .count();
    let venue_signup = super::venue_signup_link(&state, &view, &access);
    let mut playoff_names = std::collections::BTreeMap::new();
    for round in &data.rounds {
        if let Some(name) = crate::events::playoffs::playoff_name(round)? {
            playoff_names.insert(round.id, name);
        }
    }
    let page = ShowPage {
        ctx: ctx.clone(),
        playoff_names,
        venue_signup,
        playoff: data.playoff,
        playoff_paired,
        podium,
        default_cut: still_in.clamp(2, 8),
        closed_reason: registration_closed_reason(&view, now),
        view,
        access,
        registered,
        waitlist,
        rounds: data.rounds,
        staff,
        invited,
        absent,
        disputed,
        may_undo_drop,
        pool,
        my_registration,
        factions: registration::MALIFAUX_FACTIONS,
        saved_crews,
    };
    render_page(&ctx, &page)
}

#[get("/events/{id}/edit")]
async fn edit_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let actor = actor_of(Some(&user));
    let id = path.into_inner();
    let (view, pools, pool_slug) = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            manage::may_edit(&access)?;
            let all = pools::list(conn)?;
            let slug = all
                .iter()
                .find(|p| Some(p.id) == view.event.pool_id)
                .map(|p| p.slug.clone());
            Ok((view, all, slug))
        })
        .await?;
    render_page(
        &ctx,
        &FormPage {
            ctx: ctx.clone(),
            form: EventInput::from_event(&view.event, &view.settings, pool_slug.as_deref()),
            errors: FormErrors::new(),
            editing: Some(id),
            choices: form_choices(&pools),
        },
    )
}

#[post("/events/{id}/edit")]
async fn update(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<EventInput>,
) -> Result<HttpResponse, AppError> {
    let actor = actor_of(Some(&user));
    let id = path.into_inner();
    let input = form.0;
    let submitted = input.clone();
    let (now, base_url) = ctx_of(&state);
    let outcome = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            manage::may_edit(&access)?;
            let result = submitted.validate().and_then(|spec| {
                manage::update_event(conn, &view, &access, spec, &service_ctx(now, &base_url))
            });
            Ok(result)
        })
        .await?;
    match outcome {
        Ok(()) => Ok(redirect_with_flash(
            &state,
            &event_path(id),
            FlashLevel::Success,
            "The event is saved.",
        )),
        Err(err) => {
            let Some(errors) = form_errors(&err) else {
                return Err(err.into());
            };
            let pools = state.with_db(|conn| Ok(pools::list(conn)?)).await?;
            let page = FormPage {
                ctx: ctx.clone(),
                form: input,
                errors,
                editing: Some(id),
                choices: form_choices(&pools),
            };
            render_invalid(&ctx, &page)
        }
    }
}

#[derive(Debug, Deserialize)]
struct StatusForm {
    status: String,
}

#[post("/events/{id}/status")]
async fn change_status(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<StatusForm>,
) -> Result<HttpResponse, AppError> {
    let actor = actor_of(Some(&user));
    let id = path.into_inner();
    let target = EventStatus::parse(form.status.trim())
        .ok_or_else(|| AppError::bad_request("Unknown event status."))?;
    let (now, base_url) = ctx_of(&state);
    state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            manage::change_status(conn, &view, &access, target, &service_ctx(now, &base_url))?;
            Ok(())
        })
        .await?;
    let message = match target {
        EventStatus::Registration => "Registration is open.",
        EventStatus::Running => "The event is running. Check players in, then pair round 1.",
        EventStatus::Finished => "The event is finished; its results are now read-only.",
        EventStatus::Draft => "The event is a draft again (hidden from players).",
    };
    Ok(redirect_with_flash(
        &state,
        &event_path(id),
        FlashLevel::Success,
        message,
    ))
}

#[derive(Debug, Deserialize)]
struct ConfirmQuery {
    action: String,
}

/// A confirmation step before something that cannot easily be undone.
#[derive(Template)]
#[template(path = "events/confirm.html")]
struct ConfirmPage {
    ctx: PageContext,
    event_name: String,
    question: String,
    explanation: String,
    action_path: String,
    fields: Vec<(&'static str, String)>,
    button: String,
    /// Where Cancel goes: back where the question was asked.
    cancel_path: String,
}

/// What the organiser may do to one entry after a confirmation.
#[derive(Debug, Clone, Copy)]
enum EntryAction {
    Remove,
    Drop,
}

#[get("/events/{id}/confirm")]
async fn confirm_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<ConfirmQuery>,
) -> Result<HttpResponse, AppError> {
    let actor = actor_of(Some(&user));
    let id = path.into_inner();
    // An organiser's question about one entry: remove it, or drop it.
    let entry_action = [
        ("remove-entry-", EntryAction::Remove),
        ("drop-entry-", EntryAction::Drop),
    ]
    .into_iter()
    .find_map(|(prefix, action)| {
        let reg = query.action.strip_prefix(prefix)?.parse::<i64>().ok()?;
        Some((action, reg))
    });
    let entry_id = entry_action.map(|(_, reg)| reg);
    let (view, entry, mine) = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            let mine = access.registration.map(|r| r.id);
            let entry = match entry_id {
                Some(reg) => events::reads::entry_of_event(conn, id, reg)?,
                None => None,
            };
            Ok((view, entry, mine))
        })
        .await?;
    let action = query.action.as_str();
    if let (Some(entry), Some((entry_action, _))) = (entry, entry_action) {
        let (question, explanation, action_path, fields, button) = match entry_action {
            EntryAction::Remove => (
                format!("Remove {} from this event?", entry.display_name),
                "The entry is deleted, as if it had never been made; use this for a mistaken or doubled entry. A player who has played is dropped instead, so their results stay.",
                format!("/events/{id}/players/{}/remove", entry.id),
                vec![],
                "Remove the entry",
            ),
            EntryAction::Drop => (
                format!("Drop {} from this event?", entry.display_name),
                "They will not be paired in later rounds; their results so far stay in the standings. Until the next round is paired, Undo drop on the players page takes it back.",
                format!("/events/{id}/players/{}/drop", entry.id),
                vec![("value", "true".to_owned()), ("back", "players".to_owned())],
                "Drop the player",
            ),
        };
        return render_page(
            &ctx,
            &ConfirmPage {
                ctx: ctx.clone(),
                event_name: view.event.name.clone(),
                question,
                explanation: explanation.into(),
                action_path,
                fields,
                button: button.into(),
                cancel_path: format!("/events/{id}/players#reg-{}", entry.id),
            },
        );
    }
    let (question, explanation, action_path, fields, button) = match action {
        "finish" => (
            "Finish this event?",
            "Results and standings become final and read-only. Only a site admin can make corrections afterwards.",
            format!("/events/{id}/status"),
            vec![("status", "finished".to_owned())],
            "Finish the event",
        ),
        "drop" if view.settings.teams.is_some() => {
            let Some(mine) = mine else {
                return Err(AppError::NotFound);
            };
            (
                "Drop your team from this event?",
                "The whole team drops: it will not be paired in later rounds, and its results so far stay in the standings.",
                format!("/events/{id}/players/{mine}/drop"),
                vec![("value", "true".to_owned())],
                "Drop the team",
            )
        }
        "withdraw" if view.settings.teams.is_some() => (
            "Withdraw your team?",
            "The team and its players' entries are removed. You can register a team again while registration is open.",
            format!("/events/{id}/withdraw"),
            vec![],
            "Withdraw the team",
        ),
        "drop" => {
            let Some(mine) = mine else {
                return Err(AppError::NotFound);
            };
            (
                "Drop from this event?",
                "You will not be paired in later rounds; your results so far stay in the standings. Until the next round is paired you can take it back on the event page.",
                format!("/events/{id}/players/{mine}/drop"),
                vec![("value", "true".to_owned())],
                "Drop from the event",
            )
        }
        "withdraw" => (
            "Withdraw from this event?",
            "Your place goes to the next player on the waitlist. You can register again while registration is open, at the back of the queue.",
            format!("/events/{id}/withdraw"),
            vec![],
            "Withdraw",
        ),
        other => {
            let Some(number) = other
                .strip_prefix("delete-round-")
                .and_then(|n| n.parse::<i32>().ok())
            else {
                return Err(AppError::NotFound);
            };
            (
                "Delete this draft round?",
                "The draft pairings (and any setup generated for them) are removed so the round can be paired again. Nothing has been published yet.",
                format!("/events/{id}/rounds/{number}/delete"),
                vec![("version", view.event.version.to_string())],
                "Delete the draft round",
            )
        }
    };
    render_page(
        &ctx,
        &ConfirmPage {
            ctx: ctx.clone(),
            event_name: view.event.name.clone(),
            question: question.into(),
            explanation: explanation.into(),
            action_path,
            fields,
            button: button.into(),
            cancel_path: event_path(id),
        },
    )
}

#[derive(Debug, Deserialize)]
struct StaffForm {
    email: String,
    role: String,
}

#[post("/events/{id}/staff")]
async fn add_staff(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<StaffForm>,
) -> Result<HttpResponse, AppError> {
    let actor = actor_of(Some(&user));
    let id = path.into_inner();
    let role = StaffRole::parse(&form.role)
        .ok_or_else(|| AppError::bad_request("Choose judge or co-organiser."))?;
    let email = form.email.clone();
    let (now, base_url) = ctx_of(&state);
    let outcome = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            Ok(manage::invite_staff(
                conn,
                &view,
                &access,
                &email,
                role,
                &service_ctx(now, &base_url),
            ))
        })
        .await?;
    state.mail_queued();
    Ok(match outcome {
        // The same answer for every address, registered or not.
        Ok(email) => redirect_with_flash(
            &state,
            &event_path(id),
            FlashLevel::Success,
            format!(
                "An invitation went to {email}. They join the staff as {} when they accept it.",
                role.label()
            ),
        ),
        Err(
            err @ (crate::events::EventError::Invalid(_) | crate::events::EventError::Conflict(_)),
        ) => redirect_with_flash(&state, &event_path(id), FlashLevel::Error, err.for_people()),
        Err(err) => return Err(err.into()),
    })
}

#[derive(Debug, Default, Deserialize)]
struct InvitationToken {
    #[serde(default)]
    token: String,
}

#[derive(Template)]
#[template(path = "events/staff_accept.html")]
struct StaffAcceptPage {
    ctx: PageContext,
    token: String,
    event_id: i64,
    event_name: String,
    role: &'static str,
    email: String,
    signed_in_as: String,
}

/// Where a staff invitation's link leads: what it offers, and a button.
#[get("/staff/accept")]
async fn staff_accept_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    query: web::Query<InvitationToken>,
) -> Result<HttpResponse, AppError> {
    let token = query.into_inner().token;
    let lookup = token.clone();
    let (now, _) = ctx_of(&state);
    let offer = state
        .with_db(move |conn| Ok(manage::staff_invitation_offer(conn, &lookup, now)?))
        .await?;
    render_page(
        &ctx,
        &StaffAcceptPage {
            ctx: ctx.clone(),
            token,
            event_id: offer.event_id,
            event_name: offer.event_name,
            role: offer.role.label(),
            email: offer.email,
            signed_in_as: user.account.email.clone(),
        },
    )
}

#[post("/staff/accept")]
async fn staff_accept(
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<InvitationToken>,
) -> Result<HttpResponse, AppError> {
    let account = user.account.clone();
    let token = form.0.token;
    let (now, base_url) = ctx_of(&state);
    let event = state
        .with_db(move |conn| {
            Ok(manage::accept_staff_invitation(
                conn,
                &account,
                &token,
                &service_ctx(now, &base_url),
            )?)
        })
        .await?;
    Ok(redirect_with_flash(
        &state,
        &event_path(event),
        FlashLevel::Success,
        "You are on this event's staff now.",
    ))
}

#[post("/events/{id}/staff/{account}/remove")]
async fn remove_staff(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    _form: CsrfForm<NoFields>,
) -> Result<HttpResponse, AppError> {
    let actor = actor_of(Some(&user));
    let (id, account) = path.into_inner();
    let (now, base_url) = ctx_of(&state);
    state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            manage::remove_staff(conn, &view, &access, account, &service_ctx(now, &base_url))?;
            Ok(())
        })
        .await?;
    Ok(redirect_with_flash(
        &state,
        &event_path(id),
        FlashLevel::Success,
        "Removed from the staff.",
    ))
}

#[derive(Debug, Deserialize)]
struct PublishListsForm {
    published: String,
}

#[post("/events/{id}/lists")]
async fn publish_lists(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    form: CsrfForm<PublishListsForm>,
) -> Result<HttpResponse, AppError> {
    let actor = actor_of(Some(&user));
    let id = path.into_inner();
    let published = form.published == "true";
    state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            let now = chrono::Utc::now().naive_utc();
            registration::set_lists_published(conn, &view, &access, published, now)?;
            Ok(())
        })
        .await?;
    let message = if published {
        "Lists are visible to everyone."
    } else {
        "Lists are hidden from players again."
    };
    Ok(redirect_with_flash(
        &state,
        &event_path(id),
        FlashLevel::Success,
        message,
    ))
}

/// The event as a pairing snapshot (the `soulstone pair` file format).
#[get("/events/{id}/snapshot.json")]
async fn snapshot(
    user: CurrentUser,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let actor = actor_of(Some(&user));
    let id = path.into_inner();
    let snapshot = state
        .with_db(move |conn| {
            let (view, access) = events::load(conn, id, actor)?;
            access.require_staff()?;
            let data = EventData::load(conn, id)?;
            Ok(crate::events::rounds::snapshot_of(&view, &data))
        })
        .await?;
    let body = serde_json::to_string_pretty(&snapshot).map_err(AppError::internal)?;
    Ok(download(
        "application/json",
        &format!("event-{id}-snapshot.json"),
        body,
    ))
}
