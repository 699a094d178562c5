//! What a player brings to a game, by the system that plays it: Malifaux
//! crew lists (one is hired once both players' are in) or a Mage Knight
//! army. Stored as JSON (an array of lists or an army's table, so rows
//! written before armies existed read as they were), and checked against
//! the content and the limits of the game it is for.

use serde::{Deserialize, Serialize};
use soulstone_engine::Edition;
use soulstone_engine::content::Catalog;
use soulstone_engine::mage_knight::content::{ArmyList, Roster};

use super::{BroughtList, check_army, check_brought};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Brought {
    /// Malifaux: crew lists.
    Crews(Vec<BroughtList>),
    /// Mage Knight: one army.
    Army(ArmyList),
}

/// The content what players bring is checked against: the Malifaux
/// catalog and the Mage Knight roster.
#[derive(Clone, Copy)]
pub struct Content<'a> {
    pub catalog: &'a Catalog,
    pub roster: &'a Roster,
}

/// The game what a player brings is for, with its limits (none: any size
/// or edition).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limits {
    Malifaux {
        size: Option<u8>,
        edition: Option<Edition>,
    },
    MageKnight {
        build_total: Option<u16>,
    },
}

/// Which game system a player's lists or army are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BroughtFor {
    Malifaux,
    MageKnight,
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
            Self::Army(_) => BroughtFor::MageKnight,
        }
    }

    /// The names of the lists or army, as their owner's page shows them.
    pub fn names(&self) -> Vec<String> {
        match self {
            Self::Crews(lists) => lists.iter().map(|l| l.name.clone()).collect(),
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
            (Self::Army(army), Limits::MageKnight { build_total }) => {
                check_army(content.roster, army, build_total)
            }
            (Self::Crews(_), Limits::MageKnight { .. }) => {
                Err("This is a Mage Knight game: bring an army.".into())
            }
            (Self::Army(_), Limits::Malifaux { .. }) => {
                Err("This is a Malifaux game: bring crews.".into())
            }
        }
    }
}
