//! The account page: the profile, the password, and deleting the account.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use askama::Template;
use chrono::Utc;
use serde::Deserialize;

use crate::accounts::{self, Account, ProfileChanges};
use crate::auth::input::{DisplayName, NewPassword, optional_text};
use crate::auth::password::PASSWORD_WORKERS;

use crate::web::AppState;
use crate::web::account_sessions::{SignedIn, signed_in_shown};
use crate::web::error::AppError;
use crate::web::forms::{FormErrors, render_invalid, render_with_status};
use crate::web::layout::{FlashLevel, PageContext, redirect_with_flash, render_page};
use crate::web::session::{CsrfForm, CurrentUser, device_of, sign_in_cookie, sign_out_cookie};

use super::*;

#[derive(Debug, Default, Deserialize)]
pub struct ProfileForm {
    #[serde(default)]
    pub display_name: String,
    #[serde(default)]
    pub club: String,
    #[serde(default)]
    pub region: String,
    #[serde(default)]
    pub malifaux_name: String,
    #[serde(default)]
    pub mage_knight_name: String,
    /// A ticked box: keep the profile off the public rankings.
    #[serde(default)]
    pub profile_hidden: Option<String>,
}

impl ProfileForm {
    fn from_account(account: &Account) -> Self {
        Self {
            display_name: account.display_name.clone(),
            club: account.club.clone().unwrap_or_default(),
            region: account.region.clone().unwrap_or_default(),
            malifaux_name: account.malifaux_name.clone().unwrap_or_default(),
            mage_knight_name: account.mage_knight_name.clone().unwrap_or_default(),
            profile_hidden: account.profile_hidden.then(|| "on".to_owned()),
        }
    }
}

#[derive(Template)]
#[template(path = "accounts/account.html")]
struct AccountPage {
    ctx: PageContext,
    account: Account,
    form: ProfileForm,
    errors: FormErrors,
    password_errors: FormErrors,
    signed_in: SignedIn,
}

#[get("/account")]
pub(super) async fn account_page(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
) -> Result<HttpResponse, AppError> {
    let account = user.account.clone();
    let signed_in = signed_in_shown(&state, &user).await?;
    render_page(
        &ctx,
        &AccountPage {
            ctx: ctx.clone(),
            form: ProfileForm::from_account(&account),
            account,
            errors: FormErrors::new(),
            password_errors: FormErrors::new(),
            signed_in,
        },
    )
}

#[post("/account/profile")]
pub(super) async fn update_profile(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<ProfileForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.0;
    let mut errors = FormErrors::new();
    let name = errors.check("display_name", DisplayName::parse(&form.display_name));
    let club = errors.check("club", optional_text(&form.club, "Club", 80));
    let region = errors.check("region", optional_text(&form.region, "Region", 80));
    let malifaux = errors.check(
        "malifaux_name",
        optional_text(&form.malifaux_name, "Malifaux player name", 60),
    );
    let mage_knight = errors.check(
        "mage_knight_name",
        optional_text(&form.mage_knight_name, "Mage Knight player name", 60),
    );
    let (Some(name), Some(club), Some(region), Some(malifaux_name), Some(mage_knight_name)) =
        (name, club, region, malifaux, mage_knight)
    else {
        let page = AccountPage {
            ctx: ctx.clone(),
            account: user.account.clone(),
            form,
            errors,
            password_errors: FormErrors::new(),
            signed_in: signed_in_shown(&state, &user).await?,
        };
        return render_invalid(&ctx, &page);
    };
    let changes = ProfileChanges {
        display_name: name.into_string(),
        club,
        region,
        malifaux_name,
        mage_knight_name,
        profile_hidden: form.profile_hidden.is_some(),
    };
    let id = user.id();
    state
        .with_db(move |conn| Ok(accounts::update_profile(conn, id, &changes)?))
        .await?;
    Ok(redirect_with_flash(
        &state,
        "/account",
        FlashLevel::Success,
        "Your profile is saved.",
    ))
}

#[derive(Debug, Default, Deserialize)]
pub struct PasswordForm {
    #[serde(default)]
    pub current_password: String,
    #[serde(default)]
    pub new_password: String,
}

#[post("/account/password")]
pub(super) async fn change_password(
    req: HttpRequest,
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<PasswordForm>,
) -> Result<HttpResponse, AppError> {
    let mut password_errors = FormErrors::new();
    let new_password =
        password_errors.check("new_password", NewPassword::parse(&form.new_password));
    let check = check_own_password(&state, &user.account, form.current_password.clone()).await?;
    match check {
        PasswordCheck::Correct => {}
        PasswordCheck::Wrong => {
            password_errors.add("current_password", "That is not your current password.")
        }
        PasswordCheck::Throttled => password_errors.add("current_password", PASSWORD_THROTTLED),
    }
    let current_ok = check == PasswordCheck::Correct;
    let Some(new_password) = new_password.filter(|_| current_ok) else {
        let page = AccountPage {
            ctx: ctx.clone(),
            account: user.account.clone(),
            form: ProfileForm::from_account(&user.account),
            errors: FormErrors::new(),
            password_errors,
            signed_in: signed_in_shown(&state, &user).await?,
        };
        let status = if check == PasswordCheck::Throttled {
            StatusCode::TOO_MANY_REQUESTS
        } else {
            StatusCode::UNPROCESSABLE_ENTITY
        };
        return render_with_status(&ctx, &page, status);
    };
    let id = user.id();
    let base_url = state.settings.base_url.clone();
    let hash = PASSWORD_WORKERS
        .hash(new_password.as_str().to_owned())
        .await?;
    let account = state
        .with_db(move |conn| {
            Ok(accounts::change_password(
                conn,
                id,
                &hash,
                &base_url,
                now(),
            )?)
        })
        .await?;
    state.mail_queued();
    // Every other session has ended (the password's generation moved on);
    // this browser gets a fresh token, and the old sessions leave the list.
    let device = device_of(req.headers());
    let signing_in = state.clone();
    let (cookie, _) = state
        .with_db(move |conn| {
            let (cookie, used) = sign_in_cookie(&signing_in, &account, None, &device)?;
            accounts::record_session(conn, &used)?;
            let expires = (Utc::now() + crate::auth::token::SESSION_MAX_AGE).naive_utc();
            accounts::end_other_sessions(conn, account.id, &used.session_id, true, expires)?;
            Ok((cookie, used.session_id))
        })
        .await?;
    let mut response = redirect_with_flash(
        &state,
        "/account",
        FlashLevel::Success,
        "Your password is changed, and you are signed out everywhere else.",
    );
    response.add_cookie(&cookie).map_err(AppError::internal)?;
    Ok(response)
}

#[derive(Template)]
#[template(path = "accounts/delete.html")]
struct DeletePage {
    ctx: PageContext,
    errors: FormErrors,
}

#[get("/account/delete")]
pub(super) async fn delete_page(
    ctx: PageContext,
    _user: CurrentUser,
) -> Result<HttpResponse, AppError> {
    render_page(
        &ctx,
        &DeletePage {
            ctx: ctx.clone(),
            errors: FormErrors::new(),
        },
    )
}

#[derive(Debug, Default, Deserialize)]
pub struct DeleteForm {
    #[serde(default)]
    pub password: String,
}

#[post("/account/delete")]
pub(super) async fn delete_account(
    ctx: PageContext,
    user: CurrentUser,
    state: web::Data<AppState>,
    form: CsrfForm<DeleteForm>,
) -> Result<HttpResponse, AppError> {
    let check = check_own_password(&state, &user.account, form.password.clone()).await?;
    if check != PasswordCheck::Correct {
        let mut errors = FormErrors::new();
        let (message, status) = match check {
            PasswordCheck::Throttled => (PASSWORD_THROTTLED, StatusCode::TOO_MANY_REQUESTS),
            _ => (
                "That is not your password; the account was not deleted.",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
        };
        errors.add("password", message);
        return render_with_status(
            &ctx,
            &DeletePage {
                ctx: ctx.clone(),
                errors,
            },
            status,
        );
    }
    let id = user.id();
    state
        .with_db(move |conn| Ok(accounts::delete(conn, id, now())?))
        .await?;
    let mut response = redirect_with_flash(
        &state,
        "/",
        FlashLevel::Info,
        "Your account is deleted. Results you played remain, without your name.",
    );
    response
        .add_cookie(&sign_out_cookie(&state))
        .map_err(AppError::internal)?;
    Ok(response)
}
