//! The mails Soulstone sends, as plain text from templates in `templates/mail/`.

use askama::Template;

use super::OutgoingMail;

#[derive(Template)]
#[template(path = "mail/verify_email.txt")]
struct VerifyEmail<'a> {
    name: &'a str,
    link: &'a str,
    hours: i64,
}

pub fn verify_email(
    to: &str,
    name: &str,
    link: &str,
    hours: i64,
) -> Result<OutgoingMail, askama::Error> {
    Ok(OutgoingMail {
        to: to.to_owned(),
        subject: "Confirm your email address for Soulstone".into(),
        body: VerifyEmail { name, link, hours }.render()?,
    })
}

#[derive(Template)]
#[template(path = "mail/signup_existing.txt")]
struct SignupExisting<'a> {
    signin_link: &'a str,
    reset_link: &'a str,
}

/// Sent instead of a second account, so the sign-up page never reveals
/// whether an address is registered.
pub fn signup_existing(
    to: &str,
    signin_link: &str,
    reset_link: &str,
) -> Result<OutgoingMail, askama::Error> {
    Ok(OutgoingMail {
        to: to.to_owned(),
        subject: "You already have a Soulstone account".into(),
        body: SignupExisting {
            signin_link,
            reset_link,
        }
        .render()?,
    })
}

#[derive(Template)]
#[template(path = "mail/password_reset.txt")]
struct PasswordReset<'a> {
    name: &'a str,
    link: &'a str,
    minutes: i64,
}

pub fn password_reset(
    to: &str,
    name: &str,
    link: &str,
    minutes: i64,
) -> Result<OutgoingMail, askama::Error> {
    Ok(OutgoingMail {
        to: to.to_owned(),
        subject: "Reset your Soulstone password".into(),
        body: PasswordReset {
            name,
            link,
            minutes,
        }
        .render()?,
    })
}

#[derive(Template)]
#[template(path = "mail/password_changed.txt")]
struct PasswordChanged<'a> {
    name: &'a str,
    reset_link: &'a str,
}

pub fn password_changed(
    to: &str,
    name: &str,
    reset_link: &str,
) -> Result<OutgoingMail, askama::Error> {
    Ok(OutgoingMail {
        to: to.to_owned(),
        subject: "Your Soulstone password was changed".into(),
        body: PasswordChanged { name, reset_link }.render()?,
    })
}
