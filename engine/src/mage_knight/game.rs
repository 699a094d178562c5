//! A Mage Knight game as it stands: the setup it started from, the
//! warriors on their dials, the objectives, whose turn it is and what the
//! game waits for.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::battlefield::{self, Feature};
use super::dice::Dice;
use super::warrior::{Ability, AttackType, Click, SpeedType, WarriorCard};
use crate::Seat;
use crate::fairness::Bytes32;
use crate::table::Point;
use crate::table::geometry::V2;

/// Everything a game starts from.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Setup {
    /// The server's secret seed for the dice (committed to in the state).
    pub seed: Bytes32,
    /// The agreed build total: a multiple of 100, one action a turn per 100.
    pub build_total: u16,
    /// How many rounds (a turn each) the game lasts at most: the time
    /// limit of a game on a clock-less table.
    pub rounds: u8,
    pub armies: [Army; 2],
    /// The terrain features on the battlefield.
    #[serde(default)]
    pub terrain: Vec<Feature>,
}

/// The rounds a game lasts unless its setup says otherwise (ours: the
/// rules' standard game is 50 minutes; see `docs/engine.md`).
pub const STANDARD_ROUNDS: u8 = 12;
/// The standard game's build total.
pub const STANDARD_BUILD_TOTAL: u16 = 300;

/// A player's army: its name and its warriors' cards (a card once per
/// warrior fielded).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Army {
    pub name: String,
    pub warriors: Vec<WarriorCard>,
    /// The terrain features it brings to the pile (up to four), placed by
    /// the players after the objectives.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<Feature>,
    /// Its items, each with the warrior (by place in `warriors`) that
    /// wields it from deployment.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<super::items::Wielded>,
    /// The domain cards it brings, one of which its player chooses when
    /// both armies bring some.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub domains: Vec<super::domains::DomainCard>,
}

impl Army {
    /// Its warriors' points and its items'.
    pub fn points(&self) -> u16 {
        self.warriors.iter().map(|w| w.points).sum::<u16>()
            + self.items.iter().map(|i| i.item.points).sum::<u16>()
    }

    /// Why this army cannot be fielded at `build_total`, if it cannot.
    pub fn problem(&self, build_total: u16) -> Option<String> {
        if self.warriors.is_empty() {
            return Some(format!("the army {} has no warriors", self.name));
        }
        if self.points() > build_total {
            return Some(format!(
                "the army {} costs {} points, over the build total of {build_total}",
                self.name,
                self.points()
            ));
        }
        let constructed = self
            .terrain
            .iter()
            .filter(|f| f.construction.is_some())
            .count();
        if self.terrain.len() - constructed > super::placing::MAX_BROUGHT {
            return Some(format!(
                "the army {} brings {} terrain features: at most {}, beside constructed terrain",
                self.name,
                self.terrain.len() - constructed,
                super::placing::MAX_BROUGHT
            ));
        }
        if constructed > super::constructed::MAX_BROUGHT {
            return Some(format!(
                "the army {} brings {constructed} constructed terrain features: at most {}",
                self.name,
                super::constructed::MAX_BROUGHT
            ));
        }
        if let Some(problem) = self.terrain.iter().find_map(Feature::problem) {
            return Some(problem);
        }
        if let Some(problem) = super::items::army_problem(&self.warriors, &self.items) {
            return Some(format!("the army {}: {problem}", self.name));
        }
        if self.domains.len() > super::domains::MAX_BROUGHT {
            return Some(format!(
                "the army {} brings {} domain cards: at most {}",
                self.name,
                self.domains.len(),
                super::domains::MAX_BROUGHT
            ));
        }
        if let Some((_, problem)) = self.domains.iter().find_map(|d| d.problem()) {
            return Some(problem);
        }
        let mut seen = std::collections::BTreeSet::new();
        for warrior in self.warriors.iter().filter(|w| w.unique) {
            if !seen.insert(&warrior.name) {
                return Some(format!(
                    "the army {} holds the unique warrior {} twice",
                    self.name, warrior.name
                ));
            }
        }
        self.warriors.iter().find_map(|w| {
            w.problems()
                .first()
                .map(|(field, message)| format!("{}: {field}: {message}", w.name))
        })
    }
}

/// A warrior's number in the game (its place in the warriors list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct WarriorId(pub u16);

/// A warrior in the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warrior {
    pub id: WarriorId,
    pub seat: Seat,
    pub card: Arc<WarriorCard>,
    /// Its center dot; none before deployment and once removed.
    pub at: Option<Point>,
    /// Degrees counterclockwise from +x.
    pub facing: u16,
    /// Damage on its dial: the click showing.
    pub damage: u8,
    pub tokens: u8,
    /// Given an action this turn (its tokens stay at the end phase).
    pub acted: bool,
    pub eliminated: bool,
    /// The warrior holding it captive, if it is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captor: Option<WarriorId>,
    /// The warrior it holds captive, if it is a captor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captive: Option<WarriorId>,
    /// At soaring level, above elevated terrain (a wing warrior on its
    /// flight stand).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub soaring: bool,
    /// The items it wields; `card` has them on it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<super::items::ItemCard>,
    /// Its card without items, once it has wielded one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bare: Option<Arc<WarriorCard>>,
}

impl Warrior {
    /// The click in its stat slot (the last one if, impossibly, past it).
    pub fn click(&self) -> &Click {
        self.card
            .click(self.damage)
            .or_else(|| self.card.dial.last())
            .unwrap_or(&NO_CLICK)
    }

    /// A captive's special abilities are ignored.
    pub fn has(&self, ability: Ability) -> bool {
        !self.is_captive() && self.click().abilities.contains(&ability)
    }

    pub fn is_captive(&self) -> bool {
        self.captor.is_some()
    }

    /// Its speed type: a captor's is boot, whatever its card says.
    pub fn speed_type(&self) -> SpeedType {
        if self.captive.is_some() {
            SpeedType::Boot
        } else {
            self.card.speed_type
        }
    }

    pub fn on_battlefield(&self) -> bool {
        self.at.is_some() && !self.eliminated
    }

    /// On the battlefield, not a captive and not demoralized.
    pub fn able(&self) -> bool {
        self.on_battlefield() && !self.is_captive() && !self.has(Ability::Demoralized)
    }

    pub fn center(&self) -> V2 {
        self.at.map(Point::v2).unwrap_or_default()
    }

    pub fn has_attack_type(&self, kind: AttackType) -> bool {
        self.card.attack_type == Some(kind)
    }
}

static NO_CLICK: Click = Click {
    speed: 0,
    attack: 0,
    defense: 0,
    damage: 0,
    abilities: Vec::new(),
    repair: false,
};

/// An objective token and who controls it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Objective {
    pub at: Point,
    pub controller: Option<Seat>,
}

/// What the game is doing: its setup steps, then turns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum Stage {
    /// Both players add their entropy to the dice.
    Contributing,
    /// `seat` places its objective token on its line.
    PlacingObjective {
        seat: Seat,
    },
    /// `seat` takes a feature from the pile and places it.
    PlacingTerrain {
        seat: Seat,
    },
    /// Both players choose a domain card, secretly.
    ChoosingDomains,
    /// `seat` deploys its army.
    Deploying {
        seat: Seat,
    },
    /// `seat` gives its actions (the action phase).
    Acting {
        seat: Seat,
    },
    /// A ranged attack hit several targets: `seat` divides its damage.
    SplittingDamage {
        seat: Seat,
        split: Box<PendingSplit>,
    },
    Over,
}

/// A ranged attack's damage waiting to be divided among its hits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingSplit {
    pub attacker: WarriorId,
    /// The targets it hit, in the order declared.
    pub hits: Vec<WarriorId>,
    /// The ranged damage to divide.
    pub damage: u8,
    /// A critical hit adds 1 to each target it hit.
    pub critical: bool,
}

/// Why the game ended and who won.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// None: a tie the rules could not break.
    pub winner: Option<Seat>,
    pub reason: EndReason,
    pub objectives: [u8; 2],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Only one player had able warriors left.
    LastArmyStanding,
    RoundsPlayed,
    /// The host ended it (a clock, a resignation, an agreement).
    EndedEarly,
}

impl EndReason {
    pub fn words(self) -> &'static str {
        match self {
            EndReason::LastArmyStanding => "only one player had able warriors left",
            EndReason::RoundsPlayed => "the last round was played",
            EndReason::EndedEarly => "it was ended early",
        }
    }
}

/// The game as it stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    /// Moves on with every fact; commands carry the version they saw.
    pub version: u64,
    pub dice: Dice,
    pub build_total: u16,
    pub rounds: u8,
    pub army_names: [String; 2],
    pub army_points: [u16; 2],
    pub warriors: Vec<Warrior>,
    pub terrain: Arc<Vec<Feature>>,
    /// The center token first, then each player's once placed.
    pub objectives: Vec<Objective>,
    /// Each player's objective distance from their roll.
    pub objective_distance: [u8; 2],
    pub first: Option<Seat>,
    pub stage: Stage,
    /// Player turns begun (a round is a turn each).
    pub turn: u16,
    pub actions_left: u8,
    /// Points of opposing warriors each player eliminated.
    pub eliminated_points: [u16; 2],
    /// Players removed from the game for having no able warriors.
    pub out: [bool; 2],
    /// The features the players brought and have not placed yet.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pile: Vec<Feature>,
    /// How many features the players placed from the pile.
    #[serde(default)]
    pub placed_terrain: u8,
    /// The player placing terrain placed one constructed feature this
    /// turn and may place a second.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub second_constructed: bool,
    /// Damage dealt to constructed features (by their place in `terrain`)
    /// this player turn; a feature eliminated leaves, the rest stay.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub structure_damage: std::collections::BTreeMap<u8, u8>,
    /// Items dropped on the battlefield.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loose_items: Vec<super::items::LooseItem>,
    /// Each player's domain cards, until the domains are revealed.
    #[serde(default, skip_serializing_if = "no_decks")]
    pub domain_decks: [Vec<super::domains::DomainCard>; 2],
    /// Each player's secret choice among its domain cards.
    #[serde(default, skip_serializing_if = "no_choices")]
    pub domain_choice: [Option<u8>; 2],
    /// The domains in play, once revealed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub domains: Vec<super::domains::DomainCard>,
    /// Bombardment attacks waiting for their player's next turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bombardments: Vec<super::bombardment::Bombardment>,
    pub outcome: Option<Outcome>,
}

fn no_decks(decks: &[Vec<super::domains::DomainCard>; 2]) -> bool {
    decks.iter().all(Vec::is_empty)
}

fn no_choices(choices: &[Option<u8>; 2]) -> bool {
    choices.iter().all(Option::is_none)
}

impl Battle {
    /// Damage constructed feature `index` took this player turn.
    pub fn structure_damage(&self, index: u8) -> u8 {
        self.structure_damage.get(&index).copied().unwrap_or(0)
    }

    pub fn warrior(&self, id: WarriorId) -> Option<&Warrior> {
        self.warriors.get(usize::from(id.0))
    }

    pub(super) fn warrior_mut(&mut self, id: WarriorId) -> Option<&mut Warrior> {
        self.warriors.get_mut(usize::from(id.0))
    }

    pub fn army(&self, seat: Seat) -> impl Iterator<Item = &Warrior> {
        self.warriors.iter().filter(move |w| w.seat == seat)
    }

    pub fn standing(&self) -> impl Iterator<Item = &Warrior> {
        self.warriors.iter().filter(|w| w.on_battlefield())
    }

    pub fn has_able(&self, seat: Seat) -> bool {
        self.army(seat).any(Warrior::able)
    }

    /// One action a turn per full 100 points of the build total.
    pub fn action_total(&self) -> u8 {
        u8::try_from(self.build_total / 100)
            .unwrap_or(u8::MAX)
            .max(1)
    }

    /// The round the game is in (1-based; 0 before the first turn).
    pub fn round(&self) -> u16 {
        self.turn.div_ceil(2)
    }

    pub fn objectives_of(&self, seat: Seat) -> u8 {
        let held = self
            .objectives
            .iter()
            .filter(|o| o.controller == Some(seat))
            .count();
        u8::try_from(held).unwrap_or(u8::MAX)
    }

    /// Opposing warriors on the battlefield in base contact with `warrior`
    /// (a captive is no one's opponent, and has none).
    pub fn opposing_in_contact(&self, warrior: &Warrior) -> impl Iterator<Item = &Warrior> {
        let at = warrior.center();
        let seat = warrior.seat;
        let captive = warrior.is_captive();
        let soaring = warrior.soaring;
        // Base contact is between warriors at one level only.
        self.standing().filter(move |w| {
            !captive
                && w.seat != seat
                && !w.is_captive()
                && w.soaring == soaring
                && battlefield::in_contact(w.center(), at)
        })
    }

    /// Whether the game waits for `seat`'s decision (both players add
    /// their entropy at once; everything else is one player's).
    pub fn waits_for(&self, seat: Seat) -> bool {
        match &self.stage {
            Stage::Contributing => self.dice.contributions[seat.index()].is_none(),
            Stage::ChoosingDomains => self.domain_choice[seat.index()].is_none(),
            Stage::PlacingObjective { seat: s }
            | Stage::PlacingTerrain { seat: s }
            | Stage::Deploying { seat: s }
            | Stage::Acting { seat: s }
            | Stage::SplittingDamage { seat: s, .. } => *s == seat,
            Stage::Over => false,
        }
    }

    /// The features a center dot at `at` occupies.
    pub fn terrain_at(&self, at: V2) -> impl Iterator<Item = &Feature> {
        self.terrain.iter().filter(move |f| f.occupied_from(at))
    }

    /// The elevated feature (its place in the terrain list) a center dot
    /// at `at` stands on, if any.
    pub fn elevation_at(&self, at: V2) -> Option<usize> {
        self.terrain
            .iter()
            .position(|f| f.is_elevated() && f.occupied_from(at))
    }
}
