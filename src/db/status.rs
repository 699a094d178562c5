//! The statuses rows carry, each an enum stored as its snake_case code.
//!
//! A row is read into its enum or not at all: a code the program does not
//! know is a deserialisation error naming the status and the value, never a
//! silent default. Both backends refuse such a code on write as well (a
//! CHECK constraint on PostgreSQL, triggers on SQLite; the migration
//! `status_checks`), and a test holds the lists there equal to these enums.

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;

/// Declares a status enum with its code, its parsing and its diesel mapping.
macro_rules! stored_status {
    (
        $(#[$meta:meta])*
        $name:ident in $table:literal {
            $( $(#[$variant_meta:meta])* $variant:ident ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord,
            serde::Serialize, serde::Deserialize,
            strum::EnumString, strum::IntoStaticStr, strum::Display, strum::VariantArray,
            diesel::AsExpression, diesel::FromSqlRow,
        )]
        #[serde(rename_all = "snake_case")]
        #[strum(serialize_all = "snake_case")]
        #[diesel(sql_type = Text)]
        pub enum $name {
            $( $(#[$variant_meta])* $variant ),+
        }

        impl $name {
            /// The table whose `status` column holds this enum.
            pub const TABLE: &'static str = $table;

            /// The code stored in the database and used in URLs and forms.
            pub fn code(self) -> &'static str {
                self.into()
            }

            /// The status of a stored or submitted code, if it is one.
            pub fn parse(code: &str) -> Option<Self> {
                code.parse().ok()
            }
        }

        impl<DB> ToSql<Text, DB> for $name
        where
            DB: Backend,
            str: ToSql<Text, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                self.code().to_sql(out)
            }
        }

        impl<DB> FromSql<Text, DB> for $name
        where
            DB: Backend,
            String: FromSql<Text, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                let code = String::from_sql(bytes)?;
                Self::parse(&code).ok_or_else(|| {
                    format!("{}.status holds {code:?}, which is not a {}", $table, stringify!($name))
                        .into()
                })
            }
        }
    };
}

stored_status! {
    /// Where an event is in its life.
    EventStatus in "events" {
        Draft,
        Registration,
        Running,
        Finished,
    }
}

stored_status! {
    /// A player's entry in an event.
    RegistrationStatus in "registrations" {
        Registered,
        /// Past the player cap; moved up when a place frees.
        Waitlisted,
        Withdrawn,
    }
}

stored_status! {
    /// A round's pairing: seen by staff only until published.
    RoundStatus in "rounds" {
        Draft,
        Published,
    }
}

stored_status! {
    /// A game's result, from pairing to a result that counts.
    GameStatus in "games" {
        Pending,
        /// One player reported; waiting for the other to confirm.
        Reported,
        Confirmed,
        Disputed,
        /// A judge settled a dispute or entered the result.
        Resolved,
        Bye,
    }
}

impl GameStatus {
    /// Whether the result counts (in standings and for pairing on).
    pub fn is_accepted(self) -> bool {
        matches!(self, Self::Confirmed | Self::Resolved | Self::Bye)
    }
}

stored_status! {
    /// A hosted (digital) game.
    HostedStatus in "hosted_games" {
        Playing,
        Finished,
    }
}

stored_status! {
    /// A mail in the outbox.
    MailStatus in "mail_outbox" {
        Pending,
        Sent,
        /// Given up after the last attempt.
        Failed,
    }
}

/// Every stored status: its table and its codes, for the test that holds
/// the database's checks equal to the enums.
pub fn all() -> Vec<(&'static str, Vec<&'static str>)> {
    fn codes<T: strum::VariantArray + Copy + Into<&'static str>>() -> Vec<&'static str> {
        T::VARIANTS.iter().map(|&status| status.into()).collect()
    }
    vec![
        (EventStatus::TABLE, codes::<EventStatus>()),
        (RegistrationStatus::TABLE, codes::<RegistrationStatus>()),
        (RoundStatus::TABLE, codes::<RoundStatus>()),
        (GameStatus::TABLE, codes::<GameStatus>()),
        (HostedStatus::TABLE, codes::<HostedStatus>()),
        (MailStatus::TABLE, codes::<MailStatus>()),
    ]
}
