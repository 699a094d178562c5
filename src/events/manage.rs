//! Creating and editing events, their lifecycle, and their staff.

use super::{RegistrationStatus, RoundStatus};
use crate::db::WriteTransaction;

use super::input::EventSpec;
use super::registration::promote_waitlist;
use super::{Access, Actor, Ctx, EventError, EventStatus, EventView, Role, require_not_finished};
use crate::auth::input::EmailAddress;
use crate::auth::{hash_token, random_token};
use crate::db::events as db_events;
use crate::db::throttle::{self, Budget};
use crate::db::{DbConnection, accounts, audit, pools};
use crate::systems::GameSystem;
use chrono::Duration;

/// Finds the pool a form names and checks it fits the game system.
fn resolve_pool(
    conn: &mut DbConnection,
    slug: Option<&str>,
    system: &str,
) -> Result<Option<i64>, EventError> {
    let Some(slug) = slug else { return Ok(None) };
    let row = pools::find_by_slug(conn, slug)?
        .ok_or_else(|| EventError::invalid("pool", format!("There is no pool {slug:?}.")))?;
    if row.edition != system {
        let system_name = system
            .parse::<GameSystem>()
            .map(|s| s.name())
            .unwrap_or(system);
        return Err(EventError::invalid(
            "pool",
            format!(
                "The pool {} is for another edition than {system_name}.",
                row.name
            ),
        ));
    }
    Ok(Some(row.id))
}

/// Creates a draft event; the creator becomes its owner.
pub fn create_event(
    conn: &mut DbConnection,
    actor: Actor,
    spec: EventSpec,
    ctx: &Ctx<'_>,
) -> Result<EventView, EventError> {
    actor.require_confirmed()?;
    let key = spec.submission_key.clone();
    let (account, now) = (actor.account_id, ctx.now);
    let id = super::once_per_submission(conn, account, key.as_deref(), "event", now, |conn| {
        let mut fields = spec.fields;
        fields.pool_id = resolve_pool(conn, spec.pool_slug.as_deref(), &fields.game_system)?;
        let event =
            db_events::insert_event(conn, &fields, EventStatus::Draft, actor.account_id, ctx.now)?;
        db_events::add_staff(conn, event.id, actor.account_id, "owner")?;
        Ok(event.id)
    })?;
    EventView::from_row(db_events::find_event(conn, id)?.ok_or(EventError::NotFound)?)
}

/// Who may change an event's settings (scoring included): its organisers
/// and site admins. Judges handle results and disputes, not the event.
pub fn may_edit(access: &Access) -> Result<(), EventError> {
    access.require_owner()
}

/// Saves an edited event. Finished events only change by an admin, logged.
pub fn update_event(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    spec: EventSpec,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    may_edit(access)?;
    require_not_finished(view, access)?;
    conn.write_transaction(|conn| {
        let mut fields = spec.fields;
        fields.pool_id = resolve_pool(conn, spec.pool_slug.as_deref(), &fields.game_system)?;
        let has_rounds = !db_events::list_rounds(conn, view.id())?.is_empty();
        if has_rounds && fields.game_system != view.event.game_system {
            return Err(EventError::invalid(
                "game_system",
                "The game system cannot change once rounds have been paired.",
            ));
        }
        if spec.settings.teams != view.settings.teams
            && db_events::list_registrations(conn, view.id())?
                .iter()
                .any(|r| r.status != RegistrationStatus::Withdrawn)
        {
            return Err(EventError::invalid(
                "team_size",
                "Whether this is a team event, its team size and how members are paired cannot change once anyone has registered.",
            ));
        }
        db_events::update_event(conn, view.id(), &fields, ctx.now)?;
        if view.status == EventStatus::Finished {
            audit::record(
                conn,
                access.account_id(),
                Some(view.id()),
                "event.corrected",
                "event settings edited after the event finished",
                ctx.now,
            )?;
        }
        let updated = db_events::find_event(conn, view.id())?.ok_or(EventError::NotFound)?;
        promote_waitlist(conn, &EventView::from_row(updated)?, ctx)?;
        Ok(())
    })
}

/// Moves an event through its lifecycle: draft → registration → running →
/// finished (and back one step where that makes sense).
pub fn change_status(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    target: EventStatus,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    // The event's life (opening, starting, finishing) is the organisers'.
    access.require_owner()?;
    use EventStatus::{Draft, Finished, Registration, Running};
    let allowed = match (view.status, target) {
        (Draft, Registration)
        | (Registration, Draft)
        | (Registration, Running)
        | (Draft, Running) => true,
        (Running, Finished) => true,
        // Reopening a finished event is a correction: admins only, logged.
        (Finished, Running) => access.role == Role::Admin,
        _ => false,
    };
    if !allowed {
        return Err(EventError::Conflict(format!(
            "An event that is {} cannot become {}.",
            view.status.label().to_lowercase(),
            target.label().to_lowercase()
        )));
    }
    if target == Finished {
        let rounds = db_events::list_rounds(conn, view.id())?;
        if rounds.iter().any(|r| r.status == RoundStatus::Draft) {
            return Err(EventError::Conflict(
                "A round is still a draft. Publish or delete it before finishing the event.".into(),
            ));
        }
    }
    conn.write_transaction(|conn| {
        db_events::set_event_status(conn, view.id(), target, ctx.now)?;
        if view.status == Finished {
            audit::record(
                conn,
                access.account_id(),
                Some(view.id()),
                "event.reopened",
                "a finished event was reopened for corrections",
                ctx.now,
            )?;
        }
        Ok(())
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StaffRole {
    Owner,
    Judge,
}

impl StaffRole {
    pub fn code(self) -> &'static str {
        match self {
            Self::Owner => "owner",
            Self::Judge => "judge",
        }
    }

    pub fn parse(code: &str) -> Option<Self> {
        match code.trim() {
            "owner" | "co-organiser" | "co-organizer" => Some(Self::Owner),
            "judge" => Some(Self::Judge),
            _ => None,
        }
    }
}

/// Staff invitation links stay valid this long.
const STAFF_INVITATION_DAYS: i64 = 14;
/// Staff invitations one address may be sent in an hour.
const MAX_INVITATIONS_PER_ADDRESS: i64 = 5;

impl StaffRole {
    /// How the role reads in a sentence.
    pub fn label(self) -> &'static str {
        match self {
            Self::Owner => "co-organiser",
            Self::Judge => "judge",
        }
    }
}

/// Invites a judge or co-organiser by email. The mail goes out whether or
/// not the address has an account, and the answer is the same, so the form
/// never tells who is registered; the person joins the staff only when they
/// accept ([`accept_staff_invitation`]).
pub fn invite_staff(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    raw_email: &str,
    role: StaffRole,
    ctx: &Ctx<'_>,
) -> Result<String, EventError> {
    access.require_owner()?;
    let email =
        EmailAddress::parse(raw_email).map_err(|e| EventError::invalid("email", e.to_string()))?;
    let inviter_id = access
        .account_id()
        .ok_or_else(|| EventError::Forbidden("Please sign in to continue.".into()))?;
    let inviter = accounts::find_by_id(conn, inviter_id)?.ok_or(EventError::NotFound)?;
    if inviter.email == email.as_str() {
        return Err(EventError::invalid(
            "email",
            "That is your own address: you are on the staff already.",
        ));
    }
    // Invitations are mail to an address of the organiser's choosing: a
    // few an hour to any one address, whoever sends them.
    let target = [Budget::new(
        format!("staff-invitation:{}", email.as_str()),
        MAX_INVITATIONS_PER_ADDRESS,
        Duration::hours(1),
    )];
    if throttle::spend(conn, &target, ctx.now)?.is_none() {
        return Err(EventError::Conflict(
            "That address has been sent several invitations in the last hour. Please try again later."
                .into(),
        ));
    }
    let token = random_token();
    let link = format!("{}/staff/accept?token={token}", ctx.base_url);
    conn.write_transaction(|conn| {
        db_events::create_staff_invitation(
            conn,
            &db_events::NewStaffInvitation {
                event_id: view.id(),
                email: email.as_str(),
                role: role.code(),
                token_hash: &hash_token(&token),
                invited_by: inviter_id,
                now: ctx.now,
                expires_at: ctx.now + Duration::days(STAFF_INVITATION_DAYS),
            },
        )?;
        super::notify::staff_invitation(
            conn,
            view,
            &super::notify::StaffInvite {
                to: email.as_str(),
                inviter: &inviter.display_name,
                role: role.label(),
                link: &link,
                days: STAFF_INVITATION_DAYS,
            },
            ctx,
        )?;
        audit::record(
            conn,
            Some(inviter_id),
            Some(view.id()),
            "staff.invited",
            &format!("{} as {}", email.as_str(), role.code()),
            ctx.now,
        )?;
        Ok(email.as_str().to_owned())
    })
}

/// What a staff invitation link leads to.
pub struct StaffInvitationOffer {
    pub event_id: i64,
    pub event_name: String,
    pub role: StaffRole,
    pub email: String,
}

/// The invitation a link's token opens, if it is still open.
pub fn staff_invitation_offer(
    conn: &mut DbConnection,
    token: &str,
    now: chrono::NaiveDateTime,
) -> Result<StaffInvitationOffer, EventError> {
    let invitation = db_events::find_staff_invitation(conn, &hash_token(token))?
        .ok_or_else(|| EventError::invalid("token", "This invitation link is not valid."))?;
    if invitation.accepted_at.is_some() {
        return Err(EventError::invalid(
            "token",
            "This invitation has been accepted already.",
        ));
    }
    if invitation.expires_at <= now {
        return Err(EventError::invalid(
            "token",
            "This invitation has expired, or a newer one was sent. Ask the organiser to invite you again.",
        ));
    }
    let event = db_events::find_event(conn, invitation.event_id)?.ok_or(EventError::NotFound)?;
    Ok(StaffInvitationOffer {
        event_id: event.id,
        event_name: event.name,
        role: StaffRole::parse(&invitation.role)
            .ok_or_else(|| EventError::Corrupt(format!("staff role {}", invitation.role)))?,
        email: invitation.email,
    })
}

/// Accepts a staff invitation as `account`, whose address must be the one
/// invited and confirmed. Returns the event's id.
pub fn accept_staff_invitation(
    conn: &mut DbConnection,
    account: &accounts::Account,
    token: &str,
    ctx: &Ctx<'_>,
) -> Result<i64, EventError> {
    let offer = staff_invitation_offer(conn, token, ctx.now)?;
    if account.email != offer.email {
        return Err(EventError::Forbidden(format!(
            "This invitation is for {}. Sign in with that address to accept it.",
            offer.email
        )));
    }
    super::Actor::of(account).require_confirmed()?;
    let invitation =
        db_events::find_staff_invitation(conn, &hash_token(token))?.ok_or(EventError::NotFound)?;
    // Checked under the event's lock: an event always keeps an owner, even
    // when its owners change roles at the same moment.
    db_events::event_write_transaction(conn, offer.event_id, |conn| {
        if !db_events::accept_staff_invitation(conn, invitation.id, ctx.now)? {
            return Err(EventError::Conflict(
                "This invitation has been accepted already.".into(),
            ));
        }
        if offer.role != StaffRole::Owner {
            refuse_losing_the_last_owner(conn, offer.event_id, account.id)?;
        }
        db_events::add_staff(conn, offer.event_id, account.id, offer.role.code())?;
        audit::record(
            conn,
            Some(account.id),
            Some(offer.event_id),
            "staff.added",
            &format!("{} as {}", account.email, offer.role.code()),
            ctx.now,
        )?;
        Ok(offer.event_id)
    })
}

/// Refuses a change that would take `account_id`, the event's only owner,
/// away from owning it.
fn refuse_losing_the_last_owner(
    conn: &mut DbConnection,
    event_id: i64,
    account_id: i64,
) -> Result<(), EventError> {
    let staff = db_events::list_staff(conn, event_id)?;
    let owners = staff.iter().filter(|(s, _, _)| s.role == "owner").count();
    let is_owner = staff
        .iter()
        .any(|(s, _, _)| s.account_id == account_id && s.role == "owner");
    if is_owner && owners == 1 {
        return Err(EventError::Conflict(
            "An event needs at least one organiser. Add another before removing this one.".into(),
        ));
    }
    Ok(())
}

pub fn remove_staff(
    conn: &mut DbConnection,
    view: &EventView,
    access: &Access,
    account_id: i64,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    access.require_owner()?;
    db_events::event_write_transaction(conn, view.id(), |conn| {
        let staff = db_events::list_staff(conn, view.id())?;
        let target = staff
            .iter()
            .find(|(s, _, _)| s.account_id == account_id)
            .ok_or(EventError::NotFound)?;
        // The remover must still be an owner now, under the lock (another
        // owner may have just removed them).
        let remover = access.account_id();
        if !staff
            .iter()
            .any(|(s, _, _)| Some(s.account_id) == remover && s.role == "owner")
            && access.role != Role::Admin
        {
            return Err(EventError::Forbidden(
                "You are no longer an organiser of this event.".into(),
            ));
        }
        refuse_losing_the_last_owner(conn, view.id(), account_id)?;
        db_events::remove_staff(conn, view.id(), account_id)?;
        audit::record(
            conn,
            access.account_id(),
            Some(view.id()),
            "staff.removed",
            &target.2,
            ctx.now,
        )?;
        Ok(())
    })
}
