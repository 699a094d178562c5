//! Mail about events: queued in the same transaction as the change it tells
//! about, never sent twice for the same thing (dedupe keys).

use askama::Template;

use super::{Ctx, EventError, EventView};
use crate::db::events::{GameRow, Registration};
use crate::db::{DbConnection, accounts};
use crate::mail::{OutgoingMail, queue, queue_coalesced};

fn address_of(
    conn: &mut DbConnection,
    registration: &Registration,
) -> Result<Option<(String, String)>, EventError> {
    let Some(account_id) = registration.account_id else {
        return Ok(None);
    };
    Ok(accounts::find_by_id(conn, account_id)?.map(|a| (a.email, a.display_name)))
}

#[derive(Template)]
#[template(path = "mail/waitlist_promoted.txt")]
struct WaitlistPromoted<'a> {
    name: &'a str,
    event: &'a str,
    link: &'a str,
}

pub fn waitlist_promoted(
    conn: &mut DbConnection,
    view: &EventView,
    registration: &Registration,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    let Some((to, name)) = address_of(conn, registration)? else {
        return Ok(());
    };
    let link = format!("{}/events/{}", ctx.base_url, view.id());
    let body = WaitlistPromoted {
        name: &name,
        event: &view.event.name,
        link: &link,
    }
    .render()?;
    let mail = OutgoingMail {
        to,
        subject: format!("You have a place at {}", view.event.name),
        body,
    };
    queue(
        conn,
        &mail,
        Some(&format!("waitlist-promoted:{}", registration.id)),
        ctx.now,
    )?;
    Ok(())
}

#[derive(Template)]
#[template(path = "mail/pairing_published.txt")]
struct PairingPublished<'a> {
    name: &'a str,
    event: &'a str,
    round: i32,
    opponent: &'a str,
    table: String,
    setup: &'a str,
    link: &'a str,
}

/// Tells one player their opponent and table (or their bye) for a round.
#[allow(clippy::too_many_arguments)]
pub fn pairing_published(
    conn: &mut DbConnection,
    view: &EventView,
    round_number: i32,
    round_id: i64,
    player: &Registration,
    opponent: Option<&Registration>,
    table: Option<i32>,
    setup_summary: &str,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    let Some((to, name)) = address_of(conn, player)? else {
        return Ok(());
    };
    let link = format!(
        "{}/events/{}/rounds/{round_number}",
        ctx.base_url,
        view.id()
    );
    let body = PairingPublished {
        name: &name,
        event: &view.event.name,
        round: round_number,
        opponent: opponent
            .map(|o| o.display_name.as_str())
            .unwrap_or("nobody: you have the bye"),
        table: table
            .map(|t| t.to_string())
            .unwrap_or_else(|| "none".into()),
        setup: setup_summary,
        link: &link,
    }
    .render()?;
    let mail = OutgoingMail {
        to,
        subject: format!("{}: round {round_number} pairing", view.event.name),
        body,
    };
    queue(
        conn,
        &mail,
        Some(&format!("round-published:{round_id}:{}", player.id)),
        ctx.now,
    )?;
    Ok(())
}

#[derive(Template)]
#[template(path = "mail/result_to_confirm.txt")]
struct ResultToConfirm<'a> {
    name: &'a str,
    reporter: &'a str,
    event: &'a str,
    summary: &'a str,
    link: &'a str,
}

/// Asks the opponent to confirm (or dispute) a reported result.
pub fn result_to_confirm(
    conn: &mut DbConnection,
    view: &EventView,
    game: &GameRow,
    reporter: &str,
    opponent: &Registration,
    summary: &str,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    let Some((to, name)) = address_of(conn, opponent)? else {
        return Ok(());
    };
    let link = format!("{}/events/{}/games/{}", ctx.base_url, view.id(), game.id);
    let body = ResultToConfirm {
        name: &name,
        reporter,
        event: &view.event.name,
        summary,
        link: &link,
    }
    .render()?;
    let mail = OutgoingMail {
        to,
        subject: format!("{}: please confirm your result", view.event.name),
        body,
    };
    // A reporter amending the result again and again (or both players
    // taking turns) sends the opponent one mail per quarter of an hour at
    // most, holding the newest result.
    queue_coalesced(
        conn,
        &mail,
        &format!("result-to-confirm:{}:{}", game.id, opponent.id),
        RESULT_MAIL_WINDOW,
        ctx.now,
    )?;
    Ok(())
}

/// At most one "please confirm" mail per game and player in this time.
const RESULT_MAIL_WINDOW: chrono::Duration = chrono::Duration::minutes(15);

#[derive(Template)]
#[template(path = "mail/staff_invitation.txt")]
struct StaffInvitationMail<'a> {
    inviter: &'a str,
    event: &'a str,
    role: &'a str,
    link: &'a str,
    days: i64,
}

/// An invitation to an event's staff, as the mail tells it.
pub struct StaffInvite<'a> {
    pub to: &'a str,
    pub inviter: &'a str,
    pub role: &'a str,
    pub link: &'a str,
    pub days: i64,
}

/// Invites an address to the event's staff, whether or not it has an
/// account yet (the mail says how to get one).
pub fn staff_invitation(
    conn: &mut DbConnection,
    view: &EventView,
    invite: &StaffInvite<'_>,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    let body = StaffInvitationMail {
        inviter: invite.inviter,
        event: &view.event.name,
        role: invite.role,
        link: invite.link,
        days: invite.days,
    }
    .render()?;
    let mail = OutgoingMail {
        to: invite.to.to_owned(),
        subject: format!("You are invited to help run {}", view.event.name),
        body,
    };
    queue(conn, &mail, None, ctx.now)?;
    Ok(())
}

#[derive(Template)]
#[template(path = "mail/dispute_opened.txt")]
struct DisputeOpened<'a> {
    name: &'a str,
    event: &'a str,
    game: &'a str,
    claims: &'a [(String, String)],
    link: &'a str,
}

/// Tells the event's organisers and judges that a result waits for them,
/// with both sides' claims. One mail per game and person per quarter hour.
pub fn dispute_opened(
    conn: &mut DbConnection,
    view: &EventView,
    game: &GameRow,
    title: &str,
    claims: &[(String, String)],
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    let link = format!("{}/events/{}/games/{}", ctx.base_url, view.id(), game.id);
    for (member, name, email) in crate::db::events::list_staff(conn, view.id())? {
        let body = DisputeOpened {
            name: &name,
            event: &view.event.name,
            game: title,
            claims,
            link: &link,
        }
        .render()?;
        let mail = OutgoingMail {
            to: email,
            subject: format!("{}: a result is disputed", view.event.name),
            body,
        };
        queue_coalesced(
            conn,
            &mail,
            &format!("dispute-opened:{}:{}", game.id, member.account_id),
            RESULT_MAIL_WINDOW,
            ctx.now,
        )?;
    }
    Ok(())
}

#[derive(Template)]
#[template(path = "mail/dispute_resolved.txt")]
struct DisputeResolved<'a> {
    name: &'a str,
    event: &'a str,
    summary: &'a str,
    link: &'a str,
}

/// Tells both players how the organisers resolved their disputed result.
pub fn dispute_resolved(
    conn: &mut DbConnection,
    view: &EventView,
    game: &GameRow,
    players: &[&Registration],
    summary: &str,
    ctx: &Ctx<'_>,
) -> Result<(), EventError> {
    let link = format!("{}/events/{}/games/{}", ctx.base_url, view.id(), game.id);
    for player in players {
        let Some((to, name)) = address_of(conn, player)? else {
            continue;
        };
        let body = DisputeResolved {
            name: &name,
            event: &view.event.name,
            summary,
            link: &link,
        }
        .render()?;
        let mail = OutgoingMail {
            to,
            subject: format!("{}: your disputed result is resolved", view.event.name),
            body,
        };
        queue_coalesced(
            conn,
            &mail,
            &format!("dispute-resolved:{}:{}", game.id, player.id),
            RESULT_MAIL_WINDOW,
            ctx.now,
        )?;
    }
    Ok(())
}
