//! Bombardment attacks (rulebook 444–458). A ranged combat action places
//! the warrior's bombardment tokens in its front arc, within twice its
//! range (a blocked line of fire does not stop it); at the start of its
//! player's next turn one roll is compared with every token's landing
//! value (-2 where the line of fire is blocked by then). A token that is
//! missed drifts: a die gives the direction, the failed result the
//! distance. Every warrior whose base lies in a token's area is then a
//! target of one more roll, and takes the ranged damage on a hit.
//!
//! The rulebook's tokens are only pictured, so what a token shows
//! (landing value, area, drift table, its own attack and damage) is
//! content, and the six drift directions are ours: see `docs/engine.md`.

use serde::{Deserialize, Serialize};

use super::battlefield::{self, BASE_RADIUS, SIZE};
use super::combat::{self, AttackPlan, may_shoot};
use super::facts::{ActionKind, Critical, Fact, Harm, RollFor};
use super::game::{Battle, Warrior, WarriorId};
use super::movement::ready_for_action;
use super::orders::Work;
use super::warrior::Ability;
use crate::table::Point;
use crate::table::geometry::V2;
use crate::{RuleError, Seat};

/// What a warrior's bombardment tokens show (a card's `[bombardment]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BombardmentToken {
    /// How many tokens one attack places (1 to 3).
    #[serde(default = "one")]
    pub tokens: u8,
    /// The attack result that lands a token where it was placed.
    pub landing: u8,
    /// The radius of a token's area of effect, in inches.
    pub radius: u8,
    /// The attack and damage values a token uses once its warrior can no
    /// longer resolve the attack (eliminated, demoralized or captive).
    pub attack: u8,
    pub damage: u8,
    /// How far a missed token drifts: the first band whose `up_to` the
    /// failed result does not pass.
    pub drift: Vec<DriftBand>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DriftBand {
    pub up_to: u8,
    pub inches: u8,
}

fn one() -> u8 {
    1
}

impl BombardmentToken {
    /// Problems with the token, each with its field (under `bombardment`).
    pub fn problems(&self) -> Vec<(String, String)> {
        let mut found = Vec::new();
        let mut problem = |field: &str, message: &str| {
            found.push((format!("bombardment.{field}"), message.to_owned()));
        };
        if !(1..=3).contains(&self.tokens) {
            problem("tokens", "a bombardment attack places 1 to 3 tokens");
        }
        if !(1..=3).contains(&self.radius) {
            problem("radius", "an area of effect has a radius of 1 to 3 inches");
        }
        if !(3..=24).contains(&self.landing) {
            problem("landing", "a landing value is 3 to 24");
        }
        if self.attack > 15 || self.damage == 0 || self.damage > 6 {
            problem(
                "attack",
                "a token's attack is at most 15, its damage 1 to 6",
            );
        }
        if !self.drift.windows(2).all(|w| w[0].up_to < w[1].up_to) {
            problem("drift", "drift bands go up by their `up_to` results");
        }
        if self.drift.last().is_none_or(|b| b.up_to + 1 < self.landing) {
            problem(
                "drift",
                "the drift bands cover every result below the landing value",
            );
        }
        if self.drift.iter().any(|b| b.inches == 0 || b.inches > 12) {
            problem("drift", "a token drifts 1 to 12 inches");
        }
        found
    }

    /// How far a token drifts after a failed `result`.
    pub fn drift_for(&self, result: u8) -> u8 {
        self.drift
            .iter()
            .find(|b| result <= b.up_to)
            .or(self.drift.last())
            .map_or(0, |b| b.inches)
    }
}

/// A bombardment action: where each token goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bombard {
    pub attacker: WarriorId,
    pub spots: Vec<Point>,
}

/// A token on the battlefield: its arrow points along the line of fire
/// it was placed on (whole degrees, as facings are).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedToken {
    pub at: Point,
    pub heading: u16,
}

/// A bombardment attack waiting for its player's next turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bombardment {
    pub attacker: WarriorId,
    pub seat: Seat,
    pub tokens: Vec<PlacedToken>,
}

/// Where a missed token went: the die, the distance and the new spot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Drift {
    pub die: u8,
    pub inches: u8,
    pub to: Point,
}

/// The direction of a drift die's face: 1 straight on along the arrow,
/// then every 60° counterclockwise.
pub fn drift_heading(heading: u16, die: u8) -> u16 {
    (heading + 60 * u16::from(die.saturating_sub(1))) % 360
}

/// The warrior `seat` may give a bombardment action to now, with its
/// tokens, or why not.
pub fn may_bombard(
    battle: &Battle,
    seat: Seat,
    id: WarriorId,
) -> Result<(&Warrior, &BombardmentToken), RuleError> {
    let attacker = ready_for_action(battle, seat, id)?;
    let name = &attacker.card.name;
    let Some(token) = attacker.card.bombardment.as_ref() else {
        return Err(RuleError::not_allowed(format!(
            "{name} has no bombardment tokens"
        )));
    };
    may_shoot(battle, attacker)?;
    if !attacker.has(Ability::Bombardment) {
        return Err(RuleError::not_allowed(format!(
            "{name}'s dial does not show Bombardment now"
        )));
    }
    Ok((attacker, token))
}

/// Checks a bombardment action: the tokens as they would be placed.
pub fn check(battle: &Battle, seat: Seat, order: &Bombard) -> Result<Vec<PlacedToken>, RuleError> {
    let (attacker, token) = may_bombard(battle, seat, order.attacker)?;
    let name = &attacker.card.name;
    if order.spots.is_empty() || order.spots.len() > usize::from(token.tokens) {
        return Err(RuleError::not_allowed(format!(
            "{name} places 1 to {} bombardment tokens",
            token.tokens
        )));
    }
    let at = attacker.center();
    let reach = 2.0 * f64::from(attacker.card.range);
    order
        .spots
        .iter()
        .map(|spot| {
            let p = spot.v2();
            if !(0.0..=SIZE).contains(&p.x) || !(0.0..=SIZE).contains(&p.y) {
                return Err(RuleError::invalid(
                    "a bombardment token goes on the battlefield",
                ));
            }
            let distance = at.dist(p);
            if distance > reach + battlefield::CONTACT {
                return Err(RuleError::not_allowed(format!(
                    "that spot is {distance:.1}\" away, beyond twice {name}'s range ({reach}\")"
                )));
            }
            if distance > 0.0 && !battlefield::in_front_arc(at, attacker.facing, p) {
                return Err(RuleError::not_allowed(format!(
                    "that spot is not in {name}'s front arc"
                )));
            }
            Ok(PlacedToken {
                at: *spot,
                heading: battlefield::facing_toward(at, p),
            })
        })
        .collect()
}

/// Places the tokens: the action is over until the next turn resolves it.
pub(super) fn place(work: &mut Work, attacker: WarriorId, tokens: Vec<PlacedToken>) {
    let seat = work.battle.warrior(attacker).map_or(Seat::A, |w| w.seat);
    work.push(Fact::ActionGiven {
        warrior: attacker,
        kind: ActionKind::RangedCombat,
    });
    work.push(Fact::Bombarded {
        attacker,
        seat,
        tokens,
    });
    work.finish_action(attacker);
}

/// The attack and damage values a bombardment resolves with: the
/// warrior's own while it still can, else its token's.
pub fn values(attacker: &Warrior) -> Option<(u8, u8, bool)> {
    let token = attacker.card.bombardment.as_ref()?;
    let own = attacker.on_battlefield() && attacker.has(Ability::Bombardment);
    Some(if own {
        (
            combat::attack_value(attacker, 0, None),
            attacker.card.ranged_damage,
            true,
        )
    } else {
        (token.attack, token.damage, false)
    })
}

/// Whether a base centred at `center` lies (partly) in a token's area.
pub fn in_area(token_at: V2, radius: u8, center: V2) -> bool {
    token_at.dist(center) <= f64::from(radius) + BASE_RADIUS
}

/// Resolves every bombardment `seat` made last turn (the start of its
/// command phase).
pub(super) fn resolve_due(work: &mut Work, seat: Seat) {
    let due: Vec<Bombardment> = work
        .battle
        .bombardments
        .iter()
        .filter(|b| b.seat == seat)
        .cloned()
        .collect();
    for bombardment in due {
        resolve(work, &bombardment);
    }
}

fn resolve(work: &mut Work, bombardment: &Bombardment) {
    let id = bombardment.attacker;
    let Some(attacker) = work.battle.warrior(id).cloned() else {
        return;
    };
    let (Some(token), Some((attack, damage, own))) =
        (attacker.card.bombardment.clone(), values(&attacker))
    else {
        return;
    };
    let dice = work.roll(RollFor::Bombardment { attacker: id }, 2);
    let roll: u8 = dice.iter().sum();
    let mut areas = Vec::new();
    for (i, placed) in bombardment.tokens.iter().enumerate() {
        // A line of fire blocked now costs 2 against this token; a warrior
        // gone from the battlefield draws none.
        let blocked = own
            && super::fire::line_to(&work.battle, &attacker, placed.at.v2(), None, "the token")
                .is_err();
        let result = (roll + attack).saturating_sub(if blocked { 2 } else { 0 });
        let drift = if result >= token.landing {
            None
        } else {
            let die = work
                .roll(RollFor::Drift { attacker: id }, 1)
                .first()
                .copied()
                .unwrap_or(1);
            let inches = token.drift_for(result);
            let direction = battlefield::facing_vector(drift_heading(placed.heading, die));
            let to = Point::from_v2(placed.at.v2().plus(direction.scale(f64::from(inches))));
            Some(Drift { die, inches, to })
        };
        work.push(Fact::BombardmentLanded {
            attacker: id,
            token: u8::try_from(i).unwrap_or(u8::MAX),
            result,
            landing: token.landing,
            blocked,
            drift,
        });
        areas.push(drift.map_or(placed.at, |d| d.to));
    }
    // Every warrior in any token's area is a target once; soaring
    // warriors are above it and captives take no damage.
    let against: Vec<(WarriorId, u8, u8)> = work
        .battle
        .standing()
        .filter(|w| !w.soaring && !w.is_captive())
        .filter(|w| {
            areas
                .iter()
                .any(|a| in_area(a.v2(), token.radius, w.center()))
        })
        .map(|w| (w.id, attack, combat::defense_of(&work.battle, w, 0)))
        .collect();
    if !against.is_empty() {
        let plan = AttackPlan {
            attacker: id,
            kind: ActionKind::RangedCombat,
            against,
            damage,
            heals: false,
            gang_up: Vec::new(),
            surge: None,
            attack_modifiers: 0,
            damage_modifiers: 0,
            capture: None,
            shared: Vec::new(),
        };
        let (critical, hits) = combat::attack_roll(work, &plan);
        let extra = u8::from(critical == Some(Critical::Hit));
        for target in hits {
            work.deal(target, damage + extra, Harm::Attack { by: id });
        }
    }
    work.push(Fact::BombardmentResolved { attacker: id });
}
