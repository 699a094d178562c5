//! What a player brings to a game, by the system that plays it: Malifaux
//! crew lists (one is hired once both players' are in), a 1st edition
//! crew or a Mage Knight army. Stored as JSON (an array of lists, or a
//! crew's or an army's table, so rows
//! written before armies existed read as they were), and checked against
//! the content and the limits of the game it is for.

use serde::{Deserialize, Serialize};
use soulstone_engine::Edition;
use soulstone_engine::content::Catalog;
use soulstone_engine::first_edition::{
    Book, ConditionBook, CrewList as FirstEditionCrew, Encounter,
};
use soulstone_engine::mage_knight::content::{ArmyList, Roster};

use super::{BroughtList, check_army, check_brought};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Brought {
    /// Malifaux: crew lists.
    Crews(Vec<BroughtList>),
    /// Malifaux 1st edition: one crew (its table refuses fields it does
    /// not know, so an army's is never read as a crew).
    FirstEdition(FirstEditionCrew),
    /// Mage Knight: one army.
    Army(ArmyList),
}

/// The content what players bring is checked against: the Malifaux
/// catalog, the 1st edition's models and conditions, and the Mage Knight
/// roster.
#[derive(Clone, Copy)]
pub struct Content<'a> {
    pub catalog: &'a Catalog,
    pub first_edition: &'a Book,
    pub first_edition_conditions: &'a ConditionBook,
    pub roster: &'a Roster,
    /// The hashes of this content, which the games made from it record.
    pub stamp: &'a crate::content::ContentStamp,
}

impl<'a> Content<'a> {
    /// The shipped content beside `catalog` (the server's, which may be an
    /// operator's directory or have an event's pack on top), named by
    /// `stamp`.
    pub fn shipped(
        catalog: &'a Catalog,
        stamp: &'a crate::content::ContentStamp,
    ) -> Result<Self, String> {
        let (first_edition, first_edition_conditions) = crate::content::first_edition_content()?;
        Ok(Self {
            catalog,
            stamp,
            first_edition,
            first_edition_conditions,
            roster: crate::content::mage_knight_roster()?,
        })
    }
}

/// The game what a player brings is for, with its limits (none: any size
/// or edition).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limits {
    Malifaux {
        size: Option<u8>,
        edition: Option<Edition>,
    },
    /// A 1st edition encounter: none, the crew's own; else its size and
    /// soulstones (an event's), at which the crew is hired.
    FirstEdition {
        encounter: Option<(Encounter, u8)>,
    },
    MageKnight {
        build_total: Option<u16>,
    },
}

/// Which game system a player's lists or army are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BroughtFor {
    Malifaux,
    FirstEdition,
    MageKnight,
}

impl BroughtFor {
    /// The game, as a refusal names it: "a Mage Knight game".
    pub fn game(self) -> &'static str {
        match self {
            Self::Malifaux => "a Malifaux game",
            Self::FirstEdition => "a Malifaux 1st edition game",
            Self::MageKnight => "a Mage Knight game",
        }
    }

    /// What a player brings to it: "an army".
    pub fn what_to_bring(self) -> &'static str {
        match self {
            Self::Malifaux => "crews",
            Self::FirstEdition => "a 1st edition crew",
            Self::MageKnight => "an army",
        }
    }
}

impl Limits {
    pub fn system(self) -> BroughtFor {
        match self {
            Self::Malifaux { .. } => BroughtFor::Malifaux,
            Self::FirstEdition { .. } => BroughtFor::FirstEdition,
            Self::MageKnight { .. } => BroughtFor::MageKnight,
        }
    }
}

impl Brought {
    pub fn to_json(&self) -> serde_json::Result<String> {
        serde_json::to_string(self)
    }

    pub fn from_json(json: &str) -> serde_json::Result<Self> {
        serde_json::from_str(json)
    }

    pub fn system(&self) -> BroughtFor {
        match self {
            Self::Crews(_) => BroughtFor::Malifaux,
            Self::FirstEdition(_) => BroughtFor::FirstEdition,
            Self::Army(_) => BroughtFor::MageKnight,
        }
    }

    /// The names of the lists or army, as their owner's page shows them.
    pub fn names(&self) -> Vec<String> {
        match self {
            Self::Crews(lists) => lists.iter().map(|l| l.name.clone()).collect(),
            Self::FirstEdition(crew) => vec![crew.name.clone()],
            Self::Army(army) => vec![army.name.clone()],
        }
    }

    /// Why this cannot be brought to a game with these limits, if it
    /// cannot: the wrong game, a hiring rule, the build total.
    pub fn check(&self, content: &Content<'_>, limits: Limits) -> Result<(), String> {
        match (self, limits) {
            (Self::Crews(lists), Limits::Malifaux { size, edition }) => {
                check_brought(content.catalog, lists, size, edition)
            }
            (Self::FirstEdition(crew), Limits::FirstEdition { encounter }) => {
                super::first_edition::hire_for(content.first_edition, crew, encounter).map(|_| ())
            }
            (Self::Army(army), Limits::MageKnight { build_total }) => {
                check_army(content.roster, army, build_total)
            }
            (_, limits) => Err(format!(
                "This is {}: bring {}.",
                limits.system().game(),
                limits.system().what_to_bring()
            )),
        }
    }
}
