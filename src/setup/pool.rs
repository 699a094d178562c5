//! Strategy and scheme pools (a Gaining Grounds season, or an edition's core
//! set) as data. A [`Pool`] can only be built by validation, so every pool the
//! rest of the service sees is complete and consistent.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::systems::GameSystem;
use soulstone_engine::fate::Suit;

/// How the two deployment zones are laid out on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeploymentKind {
    /// Within 8" of opposite table edges (3rd and 4th edition).
    Standard,
    /// Within 12" of opposite table corners.
    Corner,
    /// Within 9" of the table edges inside opposite table quarters.
    Flank,
    /// A wedge from 12" in at the centre of an edge back to that edge's corners.
    Wedge,
    /// 1st edition: the table split along a diagonal.
    Diagonal,
    /// 1st edition: 6" deep along opposite edges.
    StandardFirstEdition,
    /// 1st edition: 8"×8" squares in opposite corners.
    Corners,
}

impl DeploymentKind {
    pub const SUITED: [DeploymentKind; 4] = [
        DeploymentKind::Standard,
        DeploymentKind::Corner,
        DeploymentKind::Flank,
        DeploymentKind::Wedge,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::Standard => "Standard Deployment",
            Self::Corner => "Corner Deployment",
            Self::Flank => "Flank Deployment",
            Self::Wedge => "Wedge Deployment",
            Self::Diagonal => "Diagonal Deployment",
            Self::StandardFirstEdition => "Standard Deployment",
            Self::Corners => "Corner Deployment",
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Self::Standard => "standard",
            Self::Corner => "corner",
            Self::Flank => "flank",
            Self::Wedge => "wedge",
            Self::Diagonal => "diagonal",
            Self::StandardFirstEdition => "standard_first_edition",
            Self::Corners => "corners",
        }
    }

    pub fn parse_suited(code: &str) -> Option<Self> {
        Self::SUITED
            .into_iter()
            .find(|kind| kind.code() == code.trim())
    }

    /// A one-line description in our own words, shown under the map.
    pub fn summary(self) -> &'static str {
        match self {
            Self::Standard => {
                "Each crew deploys within 8\" of its own table edge; the edges are opposite."
            }
            Self::Corner => {
                "Each crew deploys within 12\" of its own table corner; the corners are opposite."
            }
            Self::Flank => {
                "Each crew deploys in a table quarter, within 9\" of the table edges; the quarters are opposite."
            }
            Self::Wedge => {
                "Each crew deploys in a wedge from 12\" in at the middle of its edge back to that edge's corners."
            }
            Self::Diagonal => {
                "The table is split along a diagonal with 20\" of no-man's land; each deployment area is 8\" deep beyond it."
            }
            Self::StandardFirstEdition => {
                "Each crew deploys within 6\" of its own table edge; the edges are opposite."
            }
            Self::Corners => "Each crew deploys in an 8\"×8\" square in opposite table corners.",
        }
    }
}

/// A stored pool definition's revision (see [`Pool::revision`]).
pub fn revision_of(definition: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(definition.as_bytes()))[..12].to_owned()
}

/// The default deployment for each suit (editable per pool): the 3rd
/// edition rulebook's, as its garbled suit glyphs read (the reasoning is in
/// `content/pools/m3e-core.toml`; Wedge takes Rams only because the others
/// leave it).
pub fn default_deployments() -> BTreeMap<Suit, DeploymentKind> {
    BTreeMap::from([
        (Suit::Rams, DeploymentKind::Wedge),
        (Suit::Masks, DeploymentKind::Standard),
        (Suit::Tomes, DeploymentKind::Flank),
        (Suit::Crows, DeploymentKind::Corner),
    ])
}

/// A point on the 36"×36" table in inches, from the attacker's left rear corner.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MarkerPoint(pub f64, pub f64);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategyDef {
    pub suit: Suit,
    pub name: String,
    /// Fixed marker positions the strategy names, if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<MarkerPoint>,
    /// A short note in our own words (never card text).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemeDef {
    /// 3rd edition: the card value 1–13 that selects this scheme.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<u8>,
    pub name: String,
    /// 4th edition: the schemes a crew may pick after revealing or abandoning this one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub next: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// 1st edition: a range of card values and the strategy it gives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValueRangeDef {
    pub from: u8,
    pub to: u8,
    pub name: String,
}

/// A pool as written in a TOML file or a form, before validation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolDef {
    pub id: String,
    pub name: String,
    pub edition: GameSystem,
    /// Where the names come from (a season document, a rulebook page...).
    pub source: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strategies: Vec<StrategyDef>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub deployments: BTreeMap<Suit, DeploymentKind>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schemes: Vec<SchemeDef>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strategy_table: Vec<ValueRangeDef>,
    /// What in this pool is not checked against its source (suits read from
    /// garbled glyphs, an order assumed): shown beside every setup flipped
    /// with it, so nobody takes a guess for a rule.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub caveats: Vec<String>,
}

/// Everything wrong with a pool definition, each problem named.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .problems.join("; "))]
pub struct PoolError {
    pub problems: Vec<String>,
}

impl PoolError {
    fn one(problem: impl Into<String>) -> Self {
        Self {
            problems: vec![problem.into()],
        }
    }
}

/// The number of schemes a 4th edition scheme pool turns face up.
pub const M4E_SCHEME_POOL_SIZE: usize = 3;
/// The number of schemes a 3rd edition scheme pool holds.
pub const M3E_SCHEME_POOL_SIZE: usize = 5;

const MAX_NAME_LEN: usize = 80;
const MAX_SCHEMES: usize = 64;
const MAX_NOTE_LEN: usize = 2_000;

/// A validated pool.
#[derive(Debug, Clone, PartialEq)]
pub struct Pool {
    def: PoolDef,
}

impl Pool {
    pub fn parse_toml(source: &str) -> Result<Self, PoolError> {
        let def: PoolDef = toml::from_str(source).map_err(|err| {
            // Where in the file: the line the parser stopped at.
            let line = err
                .span()
                .map(|span| source[..span.start.min(source.len())].matches('\n').count() + 1);
            PoolError::one(match line {
                Some(line) => format!(
                    "the pool file could not be read: line {line}: {}",
                    err.message()
                ),
                None => format!("the pool file could not be read: {}", err.message()),
            })
        })?;
        Self::from_def(def)
    }

    pub fn parse_json(source: &str) -> Result<Self, PoolError> {
        let def: PoolDef = serde_json::from_str(source)
            .map_err(|err| PoolError::one(format!("the pool could not be read: {err}")))?;
        Self::from_def(def)
    }

    /// Validates a definition; on failure names every problem found.
    pub fn from_def(mut def: PoolDef) -> Result<Self, PoolError> {
        normalise(&mut def);
        let mut problems = Vec::new();
        check_common(&def, &mut problems);
        match def.edition {
            GameSystem::Malifaux4 => check_suited(&def, &mut problems, SchemeRules::NextAvailable),
            GameSystem::Malifaux3 => check_suited(&def, &mut problems, SchemeRules::ByValue),
            GameSystem::Malifaux1 => check_first_edition(&def, &mut problems),
            GameSystem::MageKnight => {
                problems.push("Mage Knight does not use strategy and scheme pools".into())
            }
        }
        if problems.is_empty() {
            if def.edition != GameSystem::Malifaux1 && def.deployments.is_empty() {
                def.deployments = default_deployments();
            }
            Ok(Self { def })
        } else {
            Err(PoolError { problems })
        }
    }

    pub fn def(&self) -> &PoolDef {
        &self.def
    }

    pub fn into_def(self) -> PoolDef {
        self.def
    }

    pub fn id(&self) -> &str {
        &self.def.id
    }

    pub fn name(&self) -> &str {
        &self.def.name
    }

    pub fn edition(&self) -> GameSystem {
        self.def.edition
    }

    pub fn strategy(&self, suit: Suit) -> Option<&StrategyDef> {
        self.def.strategies.iter().find(|s| s.suit == suit)
    }

    pub fn deployment(&self, suit: Suit) -> Option<DeploymentKind> {
        self.def.deployments.get(&suit).copied()
    }

    pub fn schemes(&self) -> &[SchemeDef] {
        &self.def.schemes
    }

    pub fn scheme_by_value(&self, value: u8) -> Option<&SchemeDef> {
        self.def.schemes.iter().find(|s| s.value == Some(value))
    }

    /// 1st edition: the strategy a flipped value gives.
    pub fn strategy_for_value(&self, value: u8) -> Option<&str> {
        self.def
            .strategy_table
            .iter()
            .find(|range| (range.from..=range.to).contains(&value))
            .map(|range| range.name.as_str())
    }

    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(&self.def).unwrap_or_default()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.def).unwrap_or_default()
    }

    /// The definition's content hash (the first 12 hex digits of the
    /// SHA-256 of its JSON): the same pool is the same revision anywhere.
    pub fn revision(&self) -> String {
        revision_of(&self.to_json())
    }

    /// What in the pool is not checked against its source.
    pub fn caveats(&self) -> Vec<String> {
        self.def.caveats.clone()
    }

    pub fn strategies(&self) -> &[StrategyDef] {
        &self.def.strategies
    }

    pub fn deployments(&self) -> &BTreeMap<Suit, DeploymentKind> {
        &self.def.deployments
    }
}

fn normalise(def: &mut PoolDef) {
    def.id = def.id.trim().to_ascii_lowercase();
    def.name = def.name.trim().to_owned();
    def.source = def.source.trim().to_owned();
    def.description = def.description.trim().to_owned();
    for strategy in &mut def.strategies {
        strategy.name = strategy.name.trim().to_owned();
        strategy.note = strategy.note.trim().to_owned();
    }
    for scheme in &mut def.schemes {
        scheme.name = scheme.name.trim().to_owned();
        scheme.note = scheme.note.trim().to_owned();
        for next in &mut scheme.next {
            *next = next.trim().to_owned();
        }
        scheme.next.retain(|n| !n.is_empty());
    }
    for range in &mut def.strategy_table {
        range.name = range.name.trim().to_owned();
    }
}

/// The shipped pools' namespace: an id that starts with a game system's
/// code and a hyphen (`m4e-gg1`) is kept for pools Soulstone ships, so a
/// later release never finds its id taken by a TO's pool.
pub const SHIPPED_POOL_PREFIXES: [&str; 4] = ["m4e-", "m3e-", "m1e-", "mk-"];

/// Whether `id` is in the shipped pools' namespace.
pub fn is_reserved_pool_id(id: &str) -> bool {
    SHIPPED_POOL_PREFIXES
        .iter()
        .any(|prefix| id.starts_with(prefix))
}

/// Ids to try, in order, for a pool derived from `base` (a copy, or a
/// TO's pool moved out of the shipped namespace): `base`, `base-2`, ...
/// up to 99, each cut to the 40 characters an id may have.
pub fn numbered_pool_ids(base: &str) -> impl Iterator<Item = String> + '_ {
    (1..100).map(move |n| {
        let id = if n == 1 {
            base.to_owned()
        } else {
            format!("{base}-{n}")
        };
        id.chars().take(40).collect()
    })
}

/// A pool id: 3–40 characters of lowercase letters, digits and hyphens.
pub fn is_valid_pool_id(id: &str) -> bool {
    (3..=40).contains(&id.len())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.starts_with('-')
        && !id.ends_with('-')
}

fn check_name(what: &str, name: &str, problems: &mut Vec<String>) {
    if name.is_empty() {
        problems.push(format!("{what} has no name"));
    } else if name.chars().count() > MAX_NAME_LEN {
        problems.push(format!(
            "{what} {name:?} is longer than {MAX_NAME_LEN} characters"
        ));
    }
}

fn check_common(def: &PoolDef, problems: &mut Vec<String>) {
    if !is_valid_pool_id(&def.id) {
        problems.push(format!(
            "pool id {:?} must be 3–40 lowercase letters, digits or hyphens",
            def.id
        ));
    }
    check_name("the pool", &def.name, problems);
    if def.source.is_empty() {
        problems.push("the pool must say where it comes from (source)".into());
    }
    if def.description.len() > MAX_NOTE_LEN {
        problems.push("the description is too long".into());
    }
    for strategy in &def.strategies {
        check_name(
            &format!("the {} strategy", strategy.suit),
            &strategy.name,
            problems,
        );
        if strategy.note.len() > MAX_NOTE_LEN {
            problems.push(format!("the note on {} is too long", strategy.name));
        }
        for (index, MarkerPoint(x, y)) in strategy.markers.iter().enumerate() {
            if !(0.0..=36.0).contains(x) || !(0.0..=36.0).contains(y) {
                problems.push(format!(
                    "marker {} of {} is off the 36\"×36\" table",
                    index + 1,
                    strategy.name
                ));
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum SchemeRules {
    /// 4th edition: schemes are dealt from their own cards; each names its successors.
    NextAvailable,
    /// 3rd edition: thirteen schemes, one per card value.
    ByValue,
}

fn check_suited(def: &PoolDef, problems: &mut Vec<String>, rules: SchemeRules) {
    let mut seen_suits = BTreeSet::new();
    for strategy in &def.strategies {
        if !seen_suits.insert(strategy.suit) {
            problems.push(format!("two strategies are given for {}", strategy.suit));
        }
    }
    for suit in Suit::ALL {
        if !seen_suits.contains(&suit) {
            problems.push(format!("no strategy is given for {suit}"));
        }
    }
    if !def.deployments.is_empty() {
        for suit in Suit::ALL {
            match def.deployments.get(&suit) {
                None => problems.push(format!("no deployment is given for {suit}")),
                Some(kind) if !DeploymentKind::SUITED.contains(kind) => problems.push(format!(
                    "{} is a 1st edition deployment and cannot be used for {suit}",
                    kind.name()
                )),
                Some(_) => {}
            }
        }
    }
    if !def.strategy_table.is_empty() {
        problems.push("a strategy table by value is only used by 1st edition pools".into());
    }
    if def.schemes.len() > MAX_SCHEMES {
        problems.push(format!("a pool holds at most {MAX_SCHEMES} schemes"));
    }
    let mut names = BTreeSet::new();
    for scheme in &def.schemes {
        check_name("a scheme", &scheme.name, problems);
        if !scheme.name.is_empty() && !names.insert(scheme.name.to_lowercase()) {
            problems.push(format!("the scheme {:?} appears twice", scheme.name));
        }
        if scheme.note.len() > MAX_NOTE_LEN {
            problems.push(format!("the note on {} is too long", scheme.name));
        }
    }
    match rules {
        SchemeRules::NextAvailable => {
            if def.schemes.len() < M4E_SCHEME_POOL_SIZE {
                problems.push(format!(
                    "a 4th edition pool needs at least {M4E_SCHEME_POOL_SIZE} schemes (it has {})",
                    def.schemes.len()
                ));
            }
            for scheme in &def.schemes {
                if scheme.value.is_some() {
                    problems.push(format!(
                        "{}: 4th edition schemes are not chosen by card value",
                        scheme.name
                    ));
                }
                let mut seen_next = BTreeSet::new();
                for next in &scheme.next {
                    if !names.contains(&next.to_lowercase()) {
                        problems.push(format!(
                            "{} names an unknown next scheme {next:?}",
                            scheme.name
                        ));
                    }
                    if !seen_next.insert(next.to_lowercase()) {
                        problems.push(format!(
                            "{} lists {next:?} twice as a next scheme",
                            scheme.name
                        ));
                    }
                }
            }
        }
        SchemeRules::ByValue => {
            let mut values = BTreeMap::new();
            for scheme in &def.schemes {
                match scheme.value {
                    None => problems.push(format!("{} has no card value (1–13)", scheme.name)),
                    Some(v) if !(1..=13).contains(&v) => {
                        problems.push(format!("{} has card value {v}, outside 1–13", scheme.name))
                    }
                    Some(v) => {
                        if let Some(other) = values.insert(v, &scheme.name) {
                            problems.push(format!(
                                "card value {v} is given to both {other} and {}",
                                scheme.name
                            ));
                        }
                    }
                }
                if !scheme.next.is_empty() {
                    problems.push(format!(
                        "{}: next available schemes are a 4th edition rule",
                        scheme.name
                    ));
                }
            }
            for v in 1..=13u8 {
                if !values.contains_key(&v) && def.schemes.len() <= 13 {
                    problems.push(format!("no scheme has card value {v}"));
                }
            }
            if def.schemes.len() != 13 {
                problems.push(format!(
                    "a 3rd edition pool has exactly 13 schemes (it has {})",
                    def.schemes.len()
                ));
            }
        }
    }
}

fn check_first_edition(def: &PoolDef, problems: &mut Vec<String>) {
    if !def.strategies.is_empty() || !def.schemes.is_empty() || !def.deployments.is_empty() {
        problems.push(
            "a 1st edition pool only has a strategy table by card value (strategy_table)".into(),
        );
    }
    let mut covered = [0u8; 14];
    for range in &def.strategy_table {
        check_name("a strategy", &range.name, problems);
        if range.from < 1 || range.to > 13 || range.from > range.to {
            problems.push(format!(
                "{}: values {}–{} are not a range within 1–13",
                range.name, range.from, range.to
            ));
            continue;
        }
        for v in range.from..=range.to {
            covered[usize::from(v)] += 1;
        }
    }
    for v in 1..=13u8 {
        match covered[usize::from(v)] {
            0 => problems.push(format!("no strategy is given for card value {v}")),
            1 => {}
            _ => problems.push(format!("card value {v} is given more than one strategy")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m4e_toml() -> String {
        r#"
id = "m4e-test"
name = "Test season"
edition = "m4e"
source = "typed in by a test"

[[strategies]]
suit = "rams"
name = "A"
[[strategies]]
suit = "masks"
name = "B"
[[strategies]]
suit = "tomes"
name = "C"
[[strategies]]
suit = "crows"
name = "D"

[[schemes]]
name = "One"
next = ["Two", "Three"]
[[schemes]]
name = "Two"
next = ["One"]
[[schemes]]
name = "Three"
"#
        .to_owned()
    }

    #[test]
    fn a_complete_4e_pool_validates_with_default_deployments() {
        let pool = Pool::parse_toml(&m4e_toml()).unwrap();
        assert_eq!(pool.deployment(Suit::Masks), Some(DeploymentKind::Standard));
        assert_eq!(pool.strategy(Suit::Tomes).unwrap().name, "C");
        let again = Pool::parse_toml(&pool.to_toml()).unwrap();
        assert_eq!(again, pool);
        let json = Pool::parse_json(&pool.to_json()).unwrap();
        assert_eq!(json, pool);
    }

    #[test]
    fn problems_are_named() {
        let broken = m4e_toml()
            .replace(
                "suit = \"crows\"\nname = \"D\"",
                "suit = \"rams\"\nname = \"D\"",
            )
            .replace("next = [\"One\"]", "next = [\"Nope\"]")
            .replace("name = \"Three\"", "name = \"One\"");
        let err = Pool::parse_toml(&broken).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("no strategy is given for Crows"), "{text}");
        assert!(text.contains("two strategies are given for Rams"), "{text}");
        assert!(text.contains("unknown next scheme \"Nope\""), "{text}");
        assert!(text.contains("\"One\" appears twice"), "{text}");
    }

    #[test]
    fn unknown_fields_and_bad_syntax_are_refused() {
        let err = Pool::parse_toml(&format!("{}\ncolour = 1", m4e_toml())).unwrap_err();
        assert!(err.to_string().contains("colour"), "{err}");
        assert!(Pool::parse_toml("id = ").is_err());
    }

    #[test]
    fn third_edition_needs_thirteen_values() {
        let mut def = Pool::parse_toml(&m4e_toml()).unwrap().into_def();
        def.edition = GameSystem::Malifaux3;
        for scheme in &mut def.schemes {
            scheme.next.clear();
        }
        def.schemes[0].value = Some(1);
        def.schemes[1].value = Some(1);
        let err = Pool::from_def(def).unwrap_err().to_string();
        assert!(
            err.contains("card value 1 is given to both One and Two"),
            "{err}"
        );
        assert!(err.contains("Three has no card value"), "{err}");
        assert!(err.contains("exactly 13 schemes"), "{err}");
    }

    #[test]
    fn a_bad_pool_file_names_its_line() {
        let text = "id = \"x\"\nname = \"X\"\nedition = \"m4e\"\nsource = \"s\"\n[[strategies]]\nsuit = rams\n";
        let err = Pool::parse_toml(text).unwrap_err().to_string();
        assert!(err.contains("line 6"), "{err}");
    }

    #[test]
    fn first_edition_table_must_cover_every_value_once() {
        let def = PoolDef {
            id: "m1e-x".into(),
            name: "x".into(),
            edition: GameSystem::Malifaux1,
            source: "test".into(),
            description: String::new(),
            strategies: vec![],
            deployments: BTreeMap::new(),
            schemes: vec![],
            caveats: vec![],
            strategy_table: vec![
                ValueRangeDef {
                    from: 1,
                    to: 5,
                    name: "A".into(),
                },
                ValueRangeDef {
                    from: 5,
                    to: 12,
                    name: "B".into(),
                },
            ],
        };
        let err = Pool::from_def(def).unwrap_err().to_string();
        assert!(
            err.contains("card value 5 is given more than one strategy"),
            "{err}"
        );
        assert!(
            err.contains("no strategy is given for card value 13"),
            "{err}"
        );
    }

    #[test]
    fn pool_ids_are_slugs() {
        assert!(is_valid_pool_id("m3e-gg1"));
        assert!(!is_valid_pool_id("M3E"));
        assert!(!is_valid_pool_id("a b"));
        assert!(!is_valid_pool_id("-ab"));
        assert!(!is_valid_pool_id("ab"));
    }
}
