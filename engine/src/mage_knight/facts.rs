//! The facts of a Mage Knight game, and the only way its state changes:
//! [`apply`]. Every roll is a fact with its dice, so a log can be checked
//! against the revealed seed.

use serde::{Deserialize, Serialize};

use super::battlefield::Feature;
use super::bombardment::{Bombardment, Drift, PlacedToken};
use super::game::{Battle, Objective, Outcome, Stage, WarriorId};
use super::placing;
use crate::Seat;
use crate::fairness::Bytes32;
use crate::table::Point;

/// Why dice were rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "for", rename_all = "snake_case")]
pub enum RollFor {
    /// Each player's 2d6 for the first player and their objective's
    /// distance.
    FirstPlayer,
    BreakAway {
        warrior: WarriorId,
    },
    Attack {
        attacker: WarriorId,
    },
    /// The one roll against every bombardment token of an attack.
    Bombardment {
        attacker: WarriorId,
    },
    /// The direction a missed bombardment token drifts.
    Drift {
        attacker: WarriorId,
    },
}

/// Why a warrior took damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Harm {
    /// An attack's damage (its attacker's player is credited with an
    /// elimination).
    Attack { by: WarriorId },
    /// Pushing, double-time or a critical miss: never reduced.
    Pushing,
    /// A horseshoe warrior breaking away.
    ShakeOff { by: WarriorId },
}

/// What an action was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    Move,
    CloseCombat,
    RangedCombat,
    /// Picking up an item.
    Special,
}

/// One placed warrior of a deployment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    pub warrior: WarriorId,
    pub at: Point,
    pub facing: u16,
    /// A wing warrior may be deployed at soaring level.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub soaring: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "fact", rename_all = "snake_case")]
pub enum Fact {
    Contributed {
        seat: Seat,
        entropy: Bytes32,
    },
    Rolled {
        roll: RollFor,
        dice: Vec<u8>,
    },
    FirstPlayer {
        seat: Seat,
        /// Each player's objective distance (their final roll).
        distances: [u8; 2],
    },
    ObjectivePlaced {
        seat: Seat,
        at: Point,
    },
    /// A feature taken from the pile (by its number there) and placed.
    TerrainPlaced {
        seat: Seat,
        from_pile: u8,
        feature: Feature,
    },
    /// No feature left in the pile fits anywhere: the placing ends.
    TerrainPassed {
        seat: Seat,
    },
    /// A wielder dropped its item number `item`, its token put at `at`
    /// (at the start of its turn, or as it was eliminated).
    ItemDropped {
        warrior: WarriorId,
        item: u8,
        name: String,
        at: Point,
    },
    /// A warrior picked up dropped item number `item`.
    ItemPickedUp {
        warrior: WarriorId,
        item: u8,
        name: String,
    },
    /// A player chose its domain (secret until both are revealed).
    DomainChosen {
        seat: Seat,
        domain: u8,
    },
    /// Both domains revealed: those in play after cancelling.
    DomainsRevealed {
        chosen: [String; 2],
        in_play: Vec<super::domains::DomainCard>,
    },
    /// The player places no second constructed feature this turn.
    SecondPieceDeclined {
        seat: Seat,
    },
    Deployed {
        seat: Seat,
        placements: Vec<Placement>,
    },
    TurnBegan {
        seat: Seat,
        actions: u8,
    },
    /// An action given to a warrior (and, in close combat, the friends
    /// ganging up with it).
    ActionGiven {
        warrior: WarriorId,
        kind: ActionKind,
    },
    /// A formation's other members, given the action its first member
    /// was given (no action of the turn is spent on them).
    ActionShared {
        warriors: Vec<WarriorId>,
        kind: ActionKind,
    },
    Moved {
        warrior: WarriorId,
        path: Vec<Point>,
        facing: u16,
    },
    /// A wing warrior takes off to soaring level, or lands.
    LevelChanged {
        warrior: WarriorId,
        soaring: bool,
    },
    /// A change of facing only (a failed break away, a free spin).
    Turned {
        warrior: WarriorId,
        facing: u16,
    },
    /// An attack roll against its targets: the dice's total, and for each
    /// target the attack value against it and its defense value, each with
    /// its modifiers.
    Attacked {
        attacker: WarriorId,
        roll: u8,
        against: Vec<(WarriorId, u8, u8)>,
        hits: Vec<WarriorId>,
        critical: Option<Critical>,
    },
    Damaged {
        warrior: WarriorId,
        amount: u8,
        harm: Harm,
    },
    Healed {
        warrior: WarriorId,
        amount: u8,
    },
    Eliminated {
        warrior: WarriorId,
        /// The player credited with its points, if an opponent's attack.
        credited: Option<Seat>,
    },
    TokenGiven {
        warrior: WarriorId,
    },
    /// A capture succeeded: the captive's action tokens are removed.
    Captured {
        captor: WarriorId,
        captive: WarriorId,
    },
    /// A captive ceases to be one (its captor was eliminated or taken).
    Freed {
        captive: WarriorId,
    },
    /// Bombardment tokens placed, to be resolved at the start of the
    /// player's next turn.
    Bombarded {
        attacker: WarriorId,
        seat: Seat,
        tokens: Vec<PlacedToken>,
    },
    /// The roll against one bombardment token: where it landed.
    BombardmentLanded {
        attacker: WarriorId,
        token: u8,
        result: u8,
        landing: u8,
        /// The line of fire to it was blocked (-2 to the result).
        blocked: bool,
        drift: Option<Drift>,
    },
    /// A bombardment's tokens leave the battlefield.
    BombardmentResolved {
        attacker: WarriorId,
    },
    /// Ranged damage waiting for its attacker's player to divide it.
    SplitAsked {
        seat: Seat,
        split: Box<super::game::PendingSplit>,
    },
    /// The player divided a ranged attack's damage (before any crit).
    DamageDivided {
        seat: Seat,
        shares: Vec<(WarriorId, u8)>,
    },
    ActionPhaseEnded {
        seat: Seat,
    },
    PlayerEliminated {
        seat: Seat,
    },
    ObjectiveChanged {
        objective: u8,
        controller: Option<Seat>,
    },
    TokensCleared {
        warriors: Vec<WarriorId>,
    },
    /// A close or ranged attack on constructed feature `feature`.
    TerrainAttacked {
        attacker: WarriorId,
        feature: u8,
        name: String,
        roll: u8,
        attack: u8,
        defense: u8,
        hit: bool,
        critical: Option<Critical>,
    },
    TerrainDamaged {
        feature: u8,
        name: String,
        amount: u8,
    },
    /// A constructed feature took its structural points this turn and
    /// leaves the battlefield.
    TerrainEliminated {
        feature: u8,
        name: String,
    },
    GameEnded {
        outcome: Outcome,
    },
    SeedRevealed {
        seed: Bytes32,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Critical {
    Hit,
    Miss,
}

/// Applies one fact. Replaying a game's facts from its start reproduces
/// it exactly.
pub fn apply(battle: &mut Battle, fact: &Fact) {
    battle.version += 1;
    match fact {
        Fact::Contributed { seat, entropy } => {
            battle.dice.contributions[seat.index()] = Some(*entropy);
        }
        Fact::Rolled { .. } => battle.dice.rolls += 1,
        Fact::FirstPlayer { seat, distances } => {
            battle.first = Some(*seat);
            battle.objective_distance = *distances;
            // The first token goes in the center of the battlefield.
            let center = crate::table::milli(super::battlefield::SIZE / 2.0);
            battle.objectives.push(Objective {
                at: Point {
                    x: center,
                    y: center,
                },
                controller: None,
            });
            battle.stage = Stage::PlacingObjective { seat: *seat };
        }
        Fact::ObjectivePlaced { seat, at } => {
            battle.objectives.push(Objective {
                at: *at,
                controller: None,
            });
            battle.stage = if battle.objectives.len() < 3 {
                Stage::PlacingObjective { seat: seat.other() }
            } else {
                placing::next(battle, None)
            };
        }
        Fact::TerrainPlaced {
            seat,
            from_pile,
            feature,
        } => {
            if usize::from(*from_pile) < battle.pile.len() {
                battle.pile.remove(usize::from(*from_pile));
            }
            std::sync::Arc::make_mut(&mut battle.terrain).push(feature.clone());
            if battle.second_constructed {
                // The second of a constructed pair counts with the first.
                battle.second_constructed = false;
            } else {
                battle.placed_terrain += 1;
                battle.second_constructed = feature.construction.is_some()
                    && battle.pile.iter().any(|f| f.construction.is_some());
            }
            battle.stage = placing::next(battle, Some(*seat));
        }
        Fact::ItemDropped {
            warrior, item, at, ..
        } => {
            super::items::apply_drop(battle, *warrior, *item, *at);
        }
        Fact::ItemPickedUp { warrior, item, .. } => {
            super::items::apply_pick_up(battle, *warrior, *item);
        }
        Fact::DomainChosen { seat, domain } => {
            battle.domain_choice[seat.index()] = Some(*domain);
        }
        Fact::DomainsRevealed { in_play, .. } => {
            super::domains::take_effect(battle, in_play);
            battle.domains = in_play.clone();
            battle.domain_decks = [Vec::new(), Vec::new()];
            battle.stage = Stage::Deploying {
                seat: battle.first.unwrap_or(Seat::A),
            };
        }
        Fact::SecondPieceDeclined { seat } => {
            battle.second_constructed = false;
            battle.stage = placing::next(battle, Some(*seat));
        }
        Fact::TerrainPassed { .. } => {
            battle.pile.clear();
            battle.stage = placing::next(battle, None);
        }
        Fact::Deployed { seat, placements } => {
            for placement in placements {
                if let Some(w) = battle.warrior_mut(placement.warrior) {
                    w.at = Some(placement.at);
                    w.facing = placement.facing;
                    w.soaring = placement.soaring;
                }
            }
            if battle.first == Some(*seat) {
                battle.stage = Stage::Deploying { seat: seat.other() };
            }
        }
        Fact::TurnBegan { seat, actions } => {
            battle.turn += 1;
            // Structural damage counts within one player's turn.
            battle.structure_damage.clear();
            battle.actions_left = *actions;
            battle.stage = Stage::Acting { seat: *seat };
            for w in battle.warriors.iter_mut().filter(|w| w.seat == *seat) {
                w.acted = false;
            }
        }
        Fact::ActionGiven { warrior, .. } => {
            battle.actions_left = battle.actions_left.saturating_sub(1);
            if let Some(w) = battle.warrior_mut(*warrior) {
                w.acted = true;
            }
        }
        Fact::ActionShared { warriors, .. } => {
            for id in warriors {
                if let Some(w) = battle.warrior_mut(*id) {
                    w.acted = true;
                }
            }
        }
        Fact::Moved {
            warrior,
            path,
            facing,
        } => {
            if let Some(w) = battle.warrior_mut(*warrior) {
                w.at = path.last().copied().or(w.at);
                w.facing = *facing;
            }
        }
        Fact::Turned { warrior, facing } => {
            if let Some(w) = battle.warrior_mut(*warrior) {
                w.facing = *facing;
            }
        }
        Fact::LevelChanged { warrior, soaring } => {
            if let Some(w) = battle.warrior_mut(*warrior) {
                w.soaring = *soaring;
            }
        }
        Fact::Attacked { .. } => {}
        Fact::Damaged {
            warrior, amount, ..
        } => {
            if let Some(w) = battle.warrior_mut(*warrior) {
                w.damage = w.damage.saturating_add(*amount).min(w.card.clicks());
            }
        }
        Fact::Healed { warrior, amount } => {
            if let Some(w) = battle.warrior_mut(*warrior) {
                w.damage = w.damage.saturating_sub(*amount);
            }
        }
        Fact::Eliminated { warrior, credited } => {
            let mut points = 0;
            let mut captor = None;
            if let Some(w) = battle.warrior_mut(*warrior) {
                w.eliminated = true;
                w.at = None;
                w.tokens = 0;
                points = w.card.points;
                captor = w.captor.take();
            }
            // An eliminated captive leaves its captor free of it.
            if let Some(c) = captor.and_then(|id| battle.warrior_mut(id)) {
                c.captive = None;
            }
            if let Some(seat) = credited {
                battle.eliminated_points[seat.index()] += points;
            }
        }
        Fact::TokenGiven { warrior } => {
            if let Some(w) = battle.warrior_mut(*warrior) {
                w.tokens = (w.tokens + 1).min(2);
            }
        }
        Fact::Captured { captor, captive } => {
            if let Some(w) = battle.warrior_mut(*captive) {
                w.captor = Some(*captor);
                w.tokens = 0;
            }
            if let Some(w) = battle.warrior_mut(*captor) {
                w.captive = Some(*captive);
            }
        }
        Fact::Freed { captive } => {
            let captor = battle.warrior_mut(*captive).and_then(|w| w.captor.take());
            if let Some(c) = captor.and_then(|id| battle.warrior_mut(id)) {
                c.captive = None;
            }
        }
        Fact::Bombarded {
            attacker,
            seat,
            tokens,
        } => battle.bombardments.push(Bombardment {
            attacker: *attacker,
            seat: *seat,
            tokens: tokens.clone(),
        }),
        Fact::BombardmentLanded {
            attacker,
            token,
            drift,
            ..
        } => {
            let placed = battle
                .bombardments
                .iter_mut()
                .find(|b| b.attacker == *attacker)
                .and_then(|b| b.tokens.get_mut(usize::from(*token)));
            if let (Some(placed), Some(drift)) = (placed, drift) {
                placed.at = drift.to;
            }
        }
        Fact::BombardmentResolved { attacker } => {
            battle.bombardments.retain(|b| b.attacker != *attacker);
        }
        Fact::SplitAsked { seat, split } => {
            battle.stage = Stage::SplittingDamage {
                seat: *seat,
                split: split.clone(),
            };
        }
        Fact::DamageDivided { seat, .. } => battle.stage = Stage::Acting { seat: *seat },
        Fact::ActionPhaseEnded { seat } => {
            battle.actions_left = 0;
            battle.stage = Stage::Acting { seat: *seat };
        }
        Fact::PlayerEliminated { seat } => {
            battle.out[seat.index()] = true;
            for w in battle.warriors.iter_mut().filter(|w| w.seat == *seat) {
                w.at = None;
                w.tokens = 0;
            }
            for objective in &mut battle.objectives {
                if objective.controller == Some(*seat) {
                    objective.controller = None;
                }
            }
        }
        Fact::ObjectiveChanged {
            objective,
            controller,
        } => {
            if let Some(o) = battle.objectives.get_mut(usize::from(*objective)) {
                o.controller = *controller;
            }
        }
        Fact::TokensCleared { warriors } => {
            for id in warriors {
                if let Some(w) = battle.warrior_mut(*id) {
                    w.tokens = 0;
                }
            }
        }
        Fact::TerrainAttacked { .. } => {}
        Fact::TerrainDamaged {
            feature, amount, ..
        } => {
            let taken = battle.structure_damage.entry(*feature).or_insert(0);
            *taken = taken.saturating_add(*amount);
        }
        Fact::TerrainEliminated { feature, .. } => {
            let terrain = std::sync::Arc::make_mut(&mut battle.terrain);
            if usize::from(*feature) < terrain.len() {
                terrain.remove(usize::from(*feature));
            }
            // The features after it move up one place.
            battle.structure_damage = std::mem::take(&mut battle.structure_damage)
                .into_iter()
                .filter(|(i, _)| i != feature)
                .map(|(i, d)| (if i > *feature { i - 1 } else { i }, d))
                .collect();
        }
        Fact::GameEnded { outcome } => {
            battle.outcome = Some(outcome.clone());
            battle.stage = Stage::Over;
        }
        Fact::SeedRevealed { .. } => battle.dice.revealed = true,
    }
}

impl Outcome {
    pub fn words(&self) -> String {
        let [a, b] = self.objectives;
        match self.winner {
            Some(seat) => format!(
                "{} won, {a}–{b} in objectives: {}",
                seat.label(),
                self.reason.words()
            ),
            None => format!("A draw, {a}–{b} in objectives: {}", self.reason.words()),
        }
    }
}
