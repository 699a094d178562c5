//! Marker types as content: each edition's `content/<edition>/markers.toml`
//! says how big each marker is, how tall, and which terrain traits it has
//! (a marker with traits is also terrain). The rules name only the kinds
//! they give a rule to (remains, scheme and strategy markers); every other
//! marker type is for abilities, by name. A game carries its book from
//! setup on, like its tokens.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Edition;
use crate::table::{BaseMm, MarkerKind, Milli, Trait, Traits};

/// Marker types one edition's book may define.
pub const MAX_MARKER_TYPES: usize = 64;

/// One marker type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerDef {
    /// As the rules write it ("Remains"); abilities name it so.
    pub name: String,
    /// The rules' own kinds (remains, scheme, strategy), each defined once;
    /// `other` for a marker abilities make.
    #[serde(default)]
    pub kind: MarkerKind,
    /// Base diameter in millimetres.
    #[serde(default = "default_base")]
    pub base: u16,
    /// Height in inches.
    #[serde(default)]
    pub height: u8,
    /// Terrain traits: a marker with any is also terrain.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<Trait>,
    /// What its hazardous trait does (Hazardous (Burning)): a model that
    /// suffers it gains this token instead of 1 damage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hazard: Option<crate::token::Token>,
    /// The marker in our own words.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
}

fn default_base() -> u16 {
    30
}

impl MarkerDef {
    pub fn base(&self) -> BaseMm {
        BaseMm(self.base)
    }

    /// Height in thousandths of an inch, as the table measures.
    pub fn height(&self) -> Milli {
        Milli::from(self.height) * 1000
    }

    pub fn traits(&self) -> Traits {
        Traits::from(self.traits.clone())
    }
}

/// One edition's marker types, checked: names unique, the rules' kinds
/// each defined once, sizes sensible.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "MarkerList", into = "MarkerList")]
pub struct MarkerBook {
    pub edition: Edition,
    markers: Vec<MarkerDef>,
}

/// A marker book as a game's log writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MarkerList {
    edition: Edition,
    marker: Vec<MarkerDef>,
}

impl TryFrom<MarkerList> for MarkerBook {
    type Error = String;

    fn try_from(list: MarkerList) -> Result<Self, Self::Error> {
        MarkerBook::new(list.edition, list.marker)
            .map_err(|(field, message)| format!("{field}: {message}"))
    }
}

impl From<MarkerBook> for MarkerList {
    fn from(book: MarkerBook) -> Self {
        MarkerList {
            edition: book.edition,
            marker: book.markers,
        }
    }
}

impl MarkerBook {
    /// A checked book; a problem is (field, message).
    pub fn new(edition: Edition, markers: Vec<MarkerDef>) -> Result<MarkerBook, (String, String)> {
        if markers.len() > MAX_MARKER_TYPES {
            return Err((
                "marker".into(),
                format!("at most {MAX_MARKER_TYPES} marker types"),
            ));
        }
        for (i, def) in markers.iter().enumerate() {
            let field = |name: &str| format!("marker[{i}].{name}");
            if def.name.trim().is_empty() || def.name.chars().count() > 40 {
                return Err((
                    field("name"),
                    "a marker needs a name of 1–40 characters".into(),
                ));
            }
            if markers[..i].iter().any(|other| other.name == def.name) {
                return Err((field("name"), format!("{} is defined twice", def.name)));
            }
            // 3rd edition's remains come in two (Corpse and Scrap Markers),
            // which the rules drop by name.
            let several_allowed = def.kind == MarkerKind::Other
                || (def.kind == MarkerKind::Remains
                    && edition.rules().content.remains_by_characteristic);
            if !several_allowed && markers[..i].iter().any(|o| o.kind == def.kind) {
                return Err((
                    field("kind"),
                    format!("a second marker of kind {:?}", def.kind),
                ));
            }
            if !(10..=200).contains(&def.base) {
                return Err((field("base"), "a base is 10 to 200 mm".into()));
            }
            if def.height > 10 {
                return Err((field("height"), "at most 10 inches tall".into()));
            }
            if def.hazard.is_some() && !def.traits.contains(&Trait::Hazardous) {
                return Err((
                    field("hazard"),
                    "only a hazardous marker names a hazard's effect".into(),
                ));
            }
        }
        Ok(MarkerBook { edition, markers })
    }

    /// The marker type the rules give `kind` to.
    pub fn of_kind(&self, kind: MarkerKind) -> Option<&MarkerDef> {
        self.markers.iter().find(|m| m.kind == kind)
    }

    /// A marker type by its name.
    pub fn named(&self, name: &str) -> Option<&MarkerDef> {
        self.markers.iter().find(|m| m.name == name)
    }

    pub fn markers(&self) -> impl Iterator<Item = &MarkerDef> {
        self.markers.iter()
    }
}
