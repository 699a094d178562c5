//! The encounter's objectives (quick reference, "Encounters" and
//! "Encounter Reference"): deployment by the flip, each player's strategy
//! by their own flip, the schemes they choose, and the VP at the end.
//! Schemes and strategies that need terrain (Stake a Claim, Sabotage) wait
//! for terrain on the table.

use serde::{Deserialize, Serialize};

use super::card::{Characteristic, Station};
use super::field::{self, SIZE};
use super::skirmish::{Model, ModelId, Skirmish};
use crate::Seat;
use crate::fate::Card;
use crate::table::geometry::V2;

/// How the crews deploy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Deployment {
    /// The table split corner to corner, 20" apart, 8" deep.
    Diagonal,
    /// 6" deep along opposite edges.
    Standard,
    /// 8" squares in opposite corners.
    Corners,
}

impl Deployment {
    pub const ALL: [Deployment; 3] = [Self::Diagonal, Self::Standard, Self::Corners];

    /// The type a flip gives; a joker gives a choice (none).
    pub fn from_flip(card: Card) -> Option<Deployment> {
        match card.value() {
            1..=4 => Some(Self::Diagonal),
            5..=9 => Some(Self::Standard),
            10..=13 => Some(Self::Corners),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Diagonal => "Diagonal",
            Self::Standard => "Standard",
            Self::Corners => "Corners",
        }
    }

    /// Whether a base of radius `r` at `p` is wholly in side `side`'s
    /// zone (0: the south, or south-west; 1: the opposite).
    pub fn holds(self, side: usize, p: V2, r: f64) -> bool {
        // Mirror the northern side onto the southern one.
        let p = if side == 0 {
            p
        } else {
            V2::new(SIZE - p.x, SIZE - p.y)
        };
        match self {
            Self::Standard => p.y <= 6.0 - r && field::on_table(p, r),
            Self::Corners => p.x <= 8.0 - r && p.y <= 8.0 - r && field::on_table(p, r),
            Self::Diagonal => {
                // Distance below the diagonal from the north-west corner to
                // the south-east one.
                let below = (SIZE - p.x - p.y) / std::f64::consts::SQRT_2;
                (10.0 + r..=18.0 - r).contains(&below) && field::on_table(p, r)
            }
        }
    }

    /// A point well inside side `side`'s zone.
    pub fn heart(self, side: usize) -> V2 {
        let south = match self {
            Self::Standard => V2::new(SIZE / 2.0, 3.0),
            Self::Corners => V2::new(4.0, 4.0),
            Self::Diagonal => {
                let d = 14.0 / std::f64::consts::SQRT_2;
                V2::new(SIZE / 2.0 - d, SIZE / 2.0 - d)
            }
        };
        if side == 0 {
            south
        } else {
            V2::new(SIZE - south.x, SIZE - south.y)
        }
    }
}

/// A player's strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    TreasureHunt,
    Assassinate,
    Slaughter,
    ClaimJump,
    Reconnoiter,
}

impl Strategy {
    pub const ALL: [Strategy; 5] = [
        Self::TreasureHunt,
        Self::Assassinate,
        Self::Slaughter,
        Self::ClaimJump,
        Self::Reconnoiter,
    ];

    /// The strategy a player's flip gives; a joker gives a choice (none).
    pub fn from_flip(card: Card) -> Option<Strategy> {
        match card.value() {
            1..=3 => Some(Self::TreasureHunt),
            4..=5 => Some(Self::Assassinate),
            6..=8 => Some(Self::Slaughter),
            9..=10 => Some(Self::ClaimJump),
            11..=13 => Some(Self::Reconnoiter),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::TreasureHunt => "Treasure Hunt",
            Self::Assassinate => "Assassinate",
            Self::Slaughter => "Slaughter",
            Self::ClaimJump => "Claim Jump",
            Self::Reconnoiter => "Reconnoiter",
        }
    }
}

/// A scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Scheme {
    /// One of your masters or henchmen lives (a model each time taken).
    Bodyguard,
    /// More of your models in the opponent's zone than theirs.
    Breakthrough,
    /// Your model count within one of the opponent's.
    EyeForAnEye,
    /// No enemy model in your zone.
    HoldOut,
    /// Guild: more non-totem minions than the opponent.
    Raid,
    /// Resurrectionists: more undead than the opponent has models.
    ArmyOfTheDead,
    /// Neverborn: the chosen enemy master or henchman is killed in melee.
    Kidnap,
    /// Outcasts: the opponent fails their strategy (announced always).
    Thwart,
}

impl Scheme {
    pub const ALL: [Scheme; 8] = [
        Self::Bodyguard,
        Self::Breakthrough,
        Self::EyeForAnEye,
        Self::HoldOut,
        Self::Raid,
        Self::ArmyOfTheDead,
        Self::Kidnap,
        Self::Thwart,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::Bodyguard => "Bodyguard",
            Self::Breakthrough => "Breakthrough",
            Self::EyeForAnEye => "Eye for an Eye",
            Self::HoldOut => "Hold Out",
            Self::Raid => "Raid!",
            Self::ArmyOfTheDead => "Army of the Dead",
            Self::Kidnap => "Kidnap",
            Self::Thwart => "Thwart",
        }
    }

    /// The faction that alone may take it.
    pub fn faction(self) -> Option<&'static str> {
        match self {
            Self::Raid => Some("Guild"),
            Self::ArmyOfTheDead => Some("Resurrectionists"),
            Self::Kidnap => Some("Neverborn"),
            Self::Thwart => Some("Outcasts"),
            _ => None,
        }
    }

    /// It names a model: one of yours, or one of the opponent's.
    pub fn names_model(self) -> Option<Seat> {
        match self {
            Self::Bodyguard => Some(Seat::A),
            Self::Kidnap => Some(Seat::B),
            _ => None,
        }
    }

    /// A scheme worth 1 VP gains 1 more when announced.
    fn base_points(self) -> u8 {
        match self {
            Self::Kidnap | Self::Thwart => 2,
            _ => 1,
        }
    }
}

/// A chosen scheme: the model it names, and whether it is announced after
/// deployment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SchemePick {
    pub scheme: Scheme,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelId>,
    #[serde(default)]
    pub announce: bool,
}

/// Why `seat` may not choose `picks`.
pub fn schemes_problem(game: &Skirmish, seat: Seat, picks: &[SchemePick]) -> Option<String> {
    let most = usize::from(game.encounter.max_schemes());
    if picks.len() > most {
        return Some(format!(
            "a {} allows at most {most} schemes",
            game.encounter.name()
        ));
    }
    let faction = &game.player(seat).faction;
    for (i, pick) in picks.iter().enumerate() {
        let scheme = pick.scheme;
        if let Some(only) = scheme.faction()
            && only != faction
        {
            return Some(format!("{} is for {only} crews only", scheme.name()));
        }
        match scheme.names_model() {
            None if pick.model.is_some() => {
                return Some(format!("{} names no model", scheme.name()));
            }
            None => {
                if picks[..i].iter().any(|p| p.scheme == scheme) {
                    return Some(format!("{} is taken once", scheme.name()));
                }
            }
            Some(whose) => {
                let owner = if whose == Seat::A { seat } else { seat.other() };
                let named = pick.model.and_then(|id| game.model(id));
                let Some(model) = named.filter(|m| m.seat == owner) else {
                    return Some(format!(
                        "{} names one of {} masters or henchmen",
                        scheme.name(),
                        if owner == seat {
                            "your"
                        } else {
                            "the opponent's"
                        }
                    ));
                };
                if !matches!(model.card.station, Station::Master | Station::Henchman) {
                    return Some(format!("{} is no master or henchman", model.card.name));
                }
                if picks[..i]
                    .iter()
                    .any(|p| p.scheme == scheme && p.model == pick.model)
                {
                    return Some(format!("{} names {} once", scheme.name(), model.card.name));
                }
            }
        }
        if scheme == Scheme::Thwart && !pick.announce {
            return Some("Thwart is always announced".into());
        }
    }
    None
}

/// Counts for strategies and schemes: on the table and not insignificant.
pub(crate) fn counts(model: &Model) -> bool {
    model.on_table() && !model.card.is(Characteristic::Insignificant)
}

pub(crate) fn in_zone(game: &Skirmish, zone_of: Seat, model: &Model) -> bool {
    let (Some(deployment), Some(p)) = (game.deployment, field::at(model)) else {
        return false;
    };
    deployment.holds(field::side_of(game, zone_of), p, 0.0)
}

/// The VP `seat`'s strategy gives with the table as it stands (0, 2 or 4).
pub fn strategy_points(game: &Skirmish, seat: Seat) -> u8 {
    let Some(strategy) = game.player(seat).strategy else {
        return 0;
    };
    let theirs = seat.other();
    let masters = |s: Seat| {
        game.on_table(s)
            .filter(|m| m.card.station == Station::Master)
            .count()
    };
    match strategy {
        Strategy::Assassinate => {
            if masters(theirs) == 0 && masters(seat) > 0 {
                4
            } else if masters(theirs) == 0 {
                2
            } else {
                0
            }
        }
        Strategy::Slaughter => {
            let left: Vec<&Model> = game.on_table(theirs).collect();
            if left.is_empty() {
                4
            } else if left.iter().all(|m| {
                m.card.station == Station::Master || m.card.is(Characteristic::Insignificant)
            }) {
                2
            } else {
                0
            }
        }
        Strategy::ClaimJump => {
            let within = |s: Seat| {
                game.on_table(s)
                    .filter(|m| counts(m) && in_claim(m, true))
                    .count()
            };
            let touching_theirs = game
                .on_table(theirs)
                .any(|m| counts(m) && in_claim(m, false));
            if within(seat) > 0 && !touching_theirs {
                4
            } else if within(seat) > within(theirs) {
                2
            } else {
                0
            }
        }
        Strategy::Reconnoiter => {
            let mut quarters = [false; 4];
            for m in game.on_table(seat).filter(|m| counts(m)) {
                if let Some(p) = field::at(m) {
                    quarters[field::quarter(p)] = true;
                }
            }
            match quarters.iter().filter(|q| **q).count() {
                4 => 4,
                3 => 2,
                _ => 0,
            }
        }
        Strategy::TreasureHunt => {
            let carrier = game.on_table(seat).find(|m| m.carries_treasure);
            if carrier.is_some_and(|m| counts(m) && in_zone(game, seat, m)) {
                return 4;
            }
            let marker = game.treasure.map(|p| p.v2()).or_else(|| {
                game.models
                    .iter()
                    .find(|m| m.carries_treasure && m.on_table())
                    .and_then(field::at)
            });
            let zone = game.deployment.map(|d| (d, field::side_of(game, seat)));
            match (marker, zone) {
                (Some(p), Some((d, side))) if d.holds(side, p, 0.0) => 2,
                _ => 0,
            }
        }
    }
}

/// The Claim Jump area: 6" square at the table's centre.
pub const CLAIM_HALF: f64 = 3.0;

pub(crate) fn in_claim(model: &Model, completely: bool) -> bool {
    let Some(p) = field::at(model) else {
        return false;
    };
    let r = field::radius(&model.card);
    let reach = if completely {
        CLAIM_HALF - r
    } else {
        CLAIM_HALF + r
    };
    (p.x - SIZE / 2.0).abs() <= reach && (p.y - SIZE / 2.0).abs() <= reach
}

/// The VP one scheme gives at the end.
pub fn scheme_points(game: &Skirmish, seat: Seat, pick: &SchemePick) -> u8 {
    let theirs = seat.other();
    let count = |s: Seat| game.on_table(s).filter(|m| counts(m)).count();
    let met = match pick.scheme {
        Scheme::Bodyguard => pick
            .model
            .and_then(|id| game.model(id))
            .is_some_and(Model::on_table),
        Scheme::Breakthrough => {
            let inside = |s: Seat| {
                game.on_table(s)
                    .filter(|m| counts(m) && in_zone(game, theirs, m))
                    .count()
            };
            inside(seat) > inside(theirs)
        }
        Scheme::EyeForAnEye => count(seat).abs_diff(count(theirs)) <= 1,
        Scheme::HoldOut => !game
            .on_table(theirs)
            .any(|m| counts(m) && in_zone(game, seat, m)),
        Scheme::Raid => {
            let minions = |s: Seat| {
                game.on_table(s)
                    .filter(|m| counts(m) && m.card.station == Station::Minion)
                    .count()
            };
            minions(seat) > minions(theirs)
        }
        Scheme::ArmyOfTheDead => {
            game.on_table(seat)
                .filter(|m| counts(m) && m.card.is(Characteristic::Undead))
                .count()
                > count(theirs)
        }
        // Scored when it happens (see `kidnapped`).
        Scheme::Kidnap => false,
        Scheme::Thwart => {
            return match strategy_points(game, theirs) {
                0 => 2,
                2 => 1,
                _ => 0,
            };
        }
    };
    if !met {
        return 0;
    }
    pick.scheme.base_points() + u8::from(pick.announce && pick.scheme.base_points() == 1)
}

/// The Kidnap VP `killer`'s player scores when `victim` is killed in melee.
pub fn kidnapped(game: &Skirmish, killer: Seat, victim: ModelId) -> u8 {
    game.player(killer)
        .schemes
        .iter()
        .filter(|p| p.scheme == Scheme::Kidnap && p.model == Some(victim))
        .map(|p| p.scheme.base_points())
        .sum()
}

/// Each seat's (strategy, schemes) VP at the game's end.
pub fn final_points(game: &Skirmish) -> [(u8, u8); 2] {
    Seat::BOTH.map(|seat| {
        let player = game.player(seat);
        let schemes: u8 = player
            .schemes
            .iter()
            .map(|p| scheme_points(game, seat, p))
            .sum();
        (
            strategy_points(game, seat),
            schemes + player.scheme_points_scored,
        )
    })
}
