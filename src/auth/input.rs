//! Account form inputs that validate themselves at the edge, so handlers
//! never pass raw strings inward.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// An email address, trimmed and lower-cased (addresses compare case-insensitively).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct EmailAddress(String);

/// The domain of deleted accounts' placeholder addresses (reserved: no
/// address there can be registered).
pub const DELETED_DOMAIN: &str = "deleted.invalid";

impl EmailAddress {
    pub const MAX_LEN: usize = 254;

    pub fn parse(raw: &str) -> Result<Self, InputError> {
        let email = raw.trim().to_lowercase();
        // The rule names follow: an address that looks like another (a
        // zero-width space after it) would be a second account for one
        // person, or a lookalike of someone's.
        if let Some(problem) = line_problem(&email, "Email addresses") {
            return Err(InputError(problem));
        }
        let invalid =
            || InputError("Please enter a valid email address, like name@example.org.".into());
        if email.is_empty() || email.len() > Self::MAX_LEN || email.chars().any(char::is_whitespace)
        {
            return Err(invalid());
        }
        let (local, domain) = email.split_once('@').ok_or_else(invalid)?;
        let domain_ok = domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && !domain.contains("..")
            && !domain.contains('@');
        if local.is_empty() || !domain_ok || email.contains(['<', '>', ',', ';', '"']) {
            return Err(invalid());
        }
        // Deleted accounts keep a placeholder at this domain; no one may
        // register one, or they could block a deletion.
        if domain == DELETED_DOMAIN {
            return Err(invalid());
        }
        Ok(Self(email))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EmailAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A person's name as shown in pairings and standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisplayName(String);

impl DisplayName {
    pub const MAX_CHARS: usize = 60;

    pub fn parse(raw: &str) -> Result<Self, InputError> {
        let name = collapse_spaces(raw);
        if name.is_empty() {
            return Err(InputError("Please enter a name.".into()));
        }
        if name.chars().count() > Self::MAX_CHARS {
            return Err(InputError(format!(
                "Names are at most {} characters.",
                Self::MAX_CHARS
            )));
        }
        if let Some(problem) = line_problem(&name, "Names") {
            return Err(InputError(problem));
        }
        Ok(Self(name))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// A new password that meets the length rules (length beats composition rules).
#[derive(Clone, PartialEq, Eq)]
pub struct NewPassword(String);

impl fmt::Debug for NewPassword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("NewPassword(***)")
    }
}

impl NewPassword {
    pub const MIN_CHARS: usize = 10;
    pub const MAX_CHARS: usize = 256;

    pub fn parse(raw: &str) -> Result<Self, InputError> {
        let count = raw.chars().count();
        if count < Self::MIN_CHARS {
            return Err(InputError(format!(
                "Passwords need at least {} characters.",
                Self::MIN_CHARS
            )));
        }
        if count > Self::MAX_CHARS {
            return Err(InputError(format!(
                "Passwords are at most {} characters.",
                Self::MAX_CHARS
            )));
        }
        if raw.trim().is_empty() {
            return Err(InputError("A password cannot be only spaces.".into()));
        }
        Ok(Self(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An optional short text field (club, region, game names): trimmed, empty means none.
pub fn optional_text(
    raw: &str,
    what: &str,
    max_chars: usize,
) -> Result<Option<String>, InputError> {
    let text = collapse_spaces(raw);
    if text.is_empty() {
        return Ok(None);
    }
    if text.chars().count() > max_chars {
        return Err(InputError(format!(
            "{what} is at most {max_chars} characters."
        )));
    }
    if let Some(problem) = line_problem(&text, what) {
        return Err(InputError(problem));
    }
    Ok(Some(text))
}

/// Like [`optional_text`] for text whose lines matter (a crew or army
/// list): line breaks are kept, each line's spaces are collapsed, blank
/// lines at either end are dropped.
pub fn optional_multiline_text(
    raw: &str,
    what: &str,
    max_chars: usize,
) -> Result<Option<String>, InputError> {
    let lines: Vec<String> = raw
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .split('\n')
        .map(collapse_spaces)
        .collect();
    let first = lines.iter().position(|l| !l.is_empty());
    let last = lines.iter().rposition(|l| !l.is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        return Ok(None);
    };
    let text = lines[first..=last].join("\n");
    if text.chars().count() > max_chars {
        return Err(InputError(format!(
            "{what} is at most {max_chars} characters."
        )));
    }
    if let Some(problem) = text_block_problem(&text, what) {
        return Err(InputError(problem));
    }
    Ok(Some(text))
}

/// Characters that change how text around them is shown without showing
/// themselves: bidirectional overrides and isolates (a name that reads
/// backwards) and zero-width characters (a name that looks empty or like
/// someone else's).
pub fn is_hidden_formatting(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}' | '\u{FEFF}' | '\u{00AD}')
}

/// Why a block of text (a description, a list) cannot be kept, if it
/// cannot: line breaks and tabs are fine, other control characters and
/// hidden formatting are refused.
pub fn text_block_problem(text: &str, what: &str) -> Option<String> {
    text.chars()
        .any(|c| (c.is_control() && !matches!(c, '\n' | '\r' | '\t')) || is_hidden_formatting(c))
        .then(|| format!("{what} cannot contain control or invisible characters."))
}

/// Why a line of text (a name, a venue) cannot be kept, if it cannot:
/// control characters (NUL, line breaks) and hidden formatting are refused.
pub fn line_problem(text: &str, what: &str) -> Option<String> {
    if text.chars().any(char::is_control) {
        return Some(format!(
            "{what} cannot contain control characters or line breaks."
        ));
    }
    if text.chars().any(is_hidden_formatting) {
        return Some(format!(
            "{what} cannot contain invisible or text-direction characters."
        ));
    }
    None
}

fn collapse_spaces(raw: &str) -> String {
    raw.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_normalised_and_checked() {
        assert_eq!(
            EmailAddress::parse("  Ada@Example.ORG ").unwrap().as_str(),
            "ada@example.org"
        );
        for bad in [
            "",
            "ada",
            "ada@",
            "@x.org",
            "ada@x",
            "a b@x.org",
            "a@x..org",
            "a@@x.org",
            "<a@x.org>",
        ] {
            assert!(EmailAddress::parse(bad).is_err(), "{bad}");
        }
        // Invisible and control characters are refused with the reason,
        // as in names, wherever they sit.
        for hidden in [
            "ada@example.org\u{200B}",
            "\u{FEFF}ada@example.org",
            "a\u{202E}da@example.org",
            "ada@exa\u{00AD}mple.org",
            "ada@example.org\u{0}",
        ] {
            let refused = EmailAddress::parse(hidden).unwrap_err();
            assert!(
                refused.0.contains("Email addresses cannot contain"),
                "{hidden:?}: {refused}"
            );
        }
    }

    #[test]
    fn names_and_passwords() {
        assert_eq!(
            DisplayName::parse("  Ada   Lovelace ").unwrap().as_str(),
            "Ada Lovelace"
        );
        assert!(DisplayName::parse("   ").is_err());
        assert!(DisplayName::parse(&"x".repeat(61)).is_err());
        assert!(NewPassword::parse("short").is_err());
        assert!(NewPassword::parse("          ").is_err());
        assert!(NewPassword::parse("long enough pass").is_ok());
        assert_eq!(optional_text("  ", "Club", 10).unwrap(), None);
        assert!(optional_text("a very long club name", "Club", 10).is_err());
    }
}
