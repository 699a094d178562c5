//! The venue pass. Everyone at a venue shares one network address, so the
//! per-address limits of sign-up and sign-in would let one person there (or
//! a few wrong passwords each) hold everyone else out. An organiser shows
//! the event's link of the day (`/venue/<code>`, on the projector); a
//! browser that opens it keeps the code in a cookie, and while the event
//! takes registrations or runs, its sign-ups and sign-ins spend the event's
//! larger budgets instead of the address's. The code is the same for the
//! whole room, so the budgets are the room's: an attacker holding it spends
//! the venue's share, never the rest of the world's, and the per-account
//! and per-browser limits hold as before.

use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use actix_web::{HttpRequest, HttpResponse, get, web};
use askama::Template;

use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::layout::{PageContext, render_page};

use super::now;

/// The cookie a browser keeps from the venue link: the event's code.
pub const VENUE_COOKIE: &str = "soulstone_venue";

/// The code works on its day and the next; the cookie lives as long.
const VENUE_COOKIE_DAYS: i64 = 2;

/// The event whose venue code this browser holds, if the code is valid
/// today (whether the event is still open is checked where it is spent).
pub fn venue_of(req: &HttpRequest, state: &AppState) -> Option<i64> {
    let cookie = req.cookie(VENUE_COOKIE)?;
    state.venue_codes.event_of(cookie.value(), now().date())
}

/// The event a venue code opens, with its name, if it is valid today and
/// the event takes sign-ups.
pub async fn open_venue(state: &AppState, code: &str) -> Result<Option<(i64, String)>, AppError> {
    let Some(event_id) = state.venue_codes.event_of(code, now().date()) else {
        return Ok(None);
    };
    let name = state
        .with_db(move |conn| {
            Ok(crate::events::registration::venue_event_name(
                conn, event_id,
            )?)
        })
        .await?;
    Ok(name.map(|name| (event_id, name)))
}

/// The cookie that hands the venue's budgets to this browser.
pub fn venue_cookie(state: &AppState, code: &str) -> Cookie<'static> {
    Cookie::build(VENUE_COOKIE, code.trim().to_owned())
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(state.settings.is_production())
        .max_age(CookieDuration::days(VENUE_COOKIE_DAYS))
        .finish()
}

#[derive(Template)]
#[template(path = "accounts/venue.html")]
struct VenuePage {
    ctx: PageContext,
    event_id: i64,
    event_name: String,
}

/// The venue link: keeps the code and offers sign-up, sign-in and the
/// event's page.
#[get("/venue/{code}")]
pub(super) async fn venue_page(
    ctx: PageContext,
    state: web::Data<AppState>,
    code: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let code = code.into_inner();
    let Some((event_id, event_name)) = open_venue(&state, &code).await? else {
        return Err(AppError::bad_request(
            "This venue link is not valid today: ask the organiser for today's.",
        ));
    };
    let mut response = render_page(
        &ctx,
        &VenuePage {
            ctx: ctx.clone(),
            event_id,
            event_name,
        },
    )?;
    response
        .add_cookie(&venue_cookie(&state, &code))
        .map_err(AppError::internal)?;
    Ok(response)
}
