//! Constructed terrain (rulebook 613–651): features built from cards that
//! give a defense value, a structural point value and, for some, a
//! fortification value. Each player brings up to two beside the rest of
//! their pile, and places two of them in place of one other feature; they
//! may stand within 3" of each other. A warrior attacks one with a close
//! or a ranged combat action, and one that takes its structural points in
//! damage within one player's turn is eliminated: it leaves the
//! battlefield. A warrior in base contact with one, shot at across it,
//! adds its fortification to its defense.
//!
//! Our pieces have no center dot, so no warrior occupies one (the
//! rulebook leaves that to each card), and they are at least 2" across,
//! so none stands between two bases in contact.

use serde::{Deserialize, Serialize};

use super::battlefield::{self, BASE_RADIUS, CONTACT, Feature};
use super::combat::{after_attack, attack_value};
use super::facts::{ActionKind, Critical, Fact, RollFor};
use super::fire::line_to;
use super::game::{Battle, Warrior, WarriorId};
use super::movement::ready_for_action;
use super::orders::Work;
use super::warrior::{Ability, AttackType};
use crate::table::geometry::{Shape, V2, polygon_edges};
use crate::{RuleError, Seat};

/// The most constructed features a player brings, beside the others.
pub const MAX_BROUGHT: usize = 2;

/// What a constructed terrain card gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Construction {
    /// What an attack result must meet or exceed to hit it.
    pub defense: u8,
    /// The damage that eliminates it, dealt within one player's turn.
    pub structure: u8,
    /// What a warrior in base contact with it adds to its defense against
    /// a ranged attack whose line of fire crosses it.
    #[serde(default)]
    pub fortification: u8,
}

impl Construction {
    /// What is wrong with the card, if anything, and in which field.
    pub fn problem(&self) -> Option<(&'static str, &'static str)> {
        if !(10..=20).contains(&self.defense) {
            return Some((
                "construction.defense",
                "a constructed feature's defense is 10 to 20",
            ));
        }
        if !(1..=10).contains(&self.structure) {
            return Some((
                "construction.structure",
                "a constructed feature's structure is 1 to 10 points",
            ));
        }
        if self.fortification > 3 {
            return Some((
                "construction.fortification",
                "a constructed feature's fortification is 0 to 3",
            ));
        }
        None
    }
}

/// A close or ranged combat action against feature number `feature` of
/// the battlefield's terrain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainAttack {
    pub attacker: WarriorId,
    pub feature: u8,
    pub ranged: bool,
}

/// A checked attack on constructed terrain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TerrainAttackPlan {
    pub order: TerrainAttack,
    pub attack: u8,
    pub defense: u8,
    pub damage: u8,
}

/// How far outside a feature's edge a line of fire is aimed, so that it
/// ends at the edge without entering the feature.
const AIM_OUTSIDE: f64 = 0.05;

/// Points around a feature's edge, `outside` inches out from it.
fn edge_points(shape: &Shape, outside: f64) -> Vec<V2> {
    match shape {
        Shape::Circle { center, radius } => (0..48)
            .map(|i| {
                let angle = f64::from(i) * std::f64::consts::TAU / 48.0;
                center.plus(V2::new(angle.cos(), angle.sin()).scale(radius + outside))
            })
            .collect(),
        Shape::Polygon { points } => {
            // Out from the middle: our constructed pieces are round, and
            // a polygon's is convex enough for that.
            let middle = shape.bounding_circle().0;
            polygon_edges(points)
                .flat_map(|(a, b)| {
                    let steps = (a.dist(b) / 0.25).ceil().max(1.0) as u32;
                    (0..steps).map(move |k| a.lerp(b, f64::from(k) / f64::from(steps)))
                })
                .map(|p| p.plus(p.minus(middle).unit().scale(outside)))
                .collect()
        }
    }
}

/// The point of a feature's edge nearest `p`.
fn nearest_edge_point(shape: &Shape, p: V2) -> V2 {
    match shape {
        Shape::Circle { center, radius } => center.plus(p.minus(*center).unit().scale(*radius)),
        Shape::Polygon { points } => polygon_edges(points)
            .map(|(a, b)| {
                let along = b.minus(a);
                let t =
                    (p.minus(a).dot(along) / along.dot(along).max(f64::EPSILON)).clamp(0.0, 1.0);
                a.plus(along.scale(t))
            })
            .min_by(|x, y| x.dist(p).total_cmp(&y.dist(p)))
            .unwrap_or(p),
    }
}

fn constructed_feature(battle: &Battle, index: u8) -> Result<&Feature, RuleError> {
    let feature = battle.terrain.get(usize::from(index)).ok_or_else(|| {
        RuleError::invalid(format!(
            "the battlefield has {} terrain features: there is no feature {}",
            battle.terrain.len(),
            index + 1
        ))
    })?;
    if feature.construction.is_none() {
        return Err(RuleError::not_allowed(format!(
            "{} is not constructed terrain: only constructed terrain can be attacked",
            feature.name
        )));
    }
    Ok(feature)
}

/// Checks an attack on constructed terrain.
pub fn check(
    battle: &Battle,
    seat: Seat,
    order: &TerrainAttack,
) -> Result<TerrainAttackPlan, RuleError> {
    let attacker = ready_for_action(battle, seat, order.attacker)?;
    let name = &attacker.card.name;
    let feature = constructed_feature(battle, order.feature)?;
    let defense = feature.construction.map_or(0, |c| c.defense);
    if attacker.has(Ability::Demoralized) {
        return Err(RuleError::not_allowed(format!(
            "{name} is demoralized and may only be given move actions"
        )));
    }
    if attacker.captive.is_some() {
        return Err(RuleError::not_allowed(format!(
            "{name} holds a captive: it may only move, or attack its captive to eliminate it"
        )));
    }
    let shape = feature.shape();
    let (attack, damage) = if order.ranged {
        super::combat::may_shoot(battle, attacker)?;
        aim_at(battle, attacker, feature, &shape)?;
        (
            attack_value(
                attacker,
                0,
                attacker.card.attack_type.filter(|t| t.is_ranged()),
            ),
            attacker.card.ranged_damage,
        )
    } else {
        if attacker.soaring {
            return Err(RuleError::not_allowed(format!(
                "{name} is at soaring level: terrain is attacked in close combat from the ground"
            )));
        }
        if !front_in_contact(attacker, &shape) {
            return Err(RuleError::not_allowed(format!(
                "{name}'s front arc is not in base contact with {}",
                feature.name
            )));
        }
        (
            attack_value(attacker, 0, Some(AttackType::Sword)),
            attacker.click().damage,
        )
    };
    Ok(TerrainAttackPlan {
        order: *order,
        attack,
        defense,
        damage,
    })
}

/// Whether the warrior's front arc touches the feature's edge.
fn front_in_contact(warrior: &Warrior, shape: &Shape) -> bool {
    let at = warrior.center();
    let nearest = nearest_edge_point(shape, at);
    nearest.dist(at) <= BASE_RADIUS + CONTACT
        && battlefield::in_front_arc(at, warrior.facing, nearest)
}

/// A point on the feature's edge the attacker can shoot at: within range,
/// in its front arc, with a clear line of fire; or why there is none.
fn aim_at(
    battle: &Battle,
    attacker: &Warrior,
    feature: &Feature,
    shape: &Shape,
) -> Result<V2, RuleError> {
    let at = attacker.center();
    let range = f64::from(attacker.card.range) + CONTACT;
    let mut points = edge_points(shape, AIM_OUTSIDE);
    let nearest = nearest_edge_point(shape, at);
    points.push(nearest.plus(nearest.minus(at).unit().scale(-AIM_OUTSIDE)));
    points.sort_by(|a, b| a.dist(at).total_cmp(&b.dist(at)));
    let Some(nearest) = points.first().copied() else {
        return Err(RuleError::invalid("a feature has an edge"));
    };
    if nearest.dist(at) > range {
        return Err(RuleError::not_allowed(format!(
            "{} is {:.1}\" away, beyond {}'s range of {}\"",
            feature.name,
            nearest.dist(at),
            attacker.card.name,
            attacker.card.range
        )));
    }
    let mut why = None;
    for p in points.into_iter().take_while(|p| p.dist(at) <= range) {
        if !battlefield::in_front_arc(at, attacker.facing, p) {
            continue;
        }
        match line_to(battle, attacker, p, None, &feature.name) {
            Ok(_) => return Ok(p),
            Err(e) => why = why.or(Some(e)),
        }
    }
    Err(why.unwrap_or_else(|| {
        RuleError::not_allowed(format!(
            "no line of fire to {} passes through {}'s front arc",
            feature.name, attacker.card.name
        ))
    }))
}

/// Resolves an attack on constructed terrain: the action, the roll, the
/// damage, and the feature's elimination once it has taken its
/// structural points this turn.
pub(super) fn resolve(work: &mut Work, plan: &TerrainAttackPlan) {
    let id = plan.order.attacker;
    let index = plan.order.feature;
    work.push(Fact::ActionGiven {
        warrior: id,
        kind: if plan.order.ranged {
            ActionKind::RangedCombat
        } else {
            ActionKind::CloseCombat
        },
    });
    let dice = work.roll(RollFor::Attack { attacker: id }, 2);
    let roll: u8 = dice.iter().sum();
    let critical = match roll {
        12 => Some(Critical::Hit),
        2 => Some(Critical::Miss),
        _ => None,
    };
    let hit = match critical {
        Some(Critical::Hit) => true,
        Some(Critical::Miss) => false,
        None => roll + plan.attack >= plan.defense,
    };
    let name = work
        .battle
        .terrain
        .get(usize::from(index))
        .map(|f| f.name.clone())
        .unwrap_or_default();
    work.push(Fact::TerrainAttacked {
        attacker: id,
        feature: index,
        name: name.clone(),
        roll,
        attack: plan.attack,
        defense: plan.defense,
        hit,
        critical,
    });
    let amount = plan.damage + u8::from(critical == Some(Critical::Hit));
    if hit && amount > 0 {
        work.push(Fact::TerrainDamaged {
            feature: index,
            name: name.clone(),
            amount,
        });
        let taken = work.battle.structure_damage(index);
        let structure = work
            .battle
            .terrain
            .get(usize::from(index))
            .and_then(|f| f.construction)
            .map_or(u8::MAX, |c| c.structure);
        if taken >= structure {
            work.push(Fact::TerrainEliminated {
                feature: index,
                name,
            });
        }
    }
    after_attack(work, id, critical);
}

/// What `target` adds to its defense against a ranged attack from
/// `from`: the greatest fortification of the constructed features its
/// base touches and the line of fire crosses.
pub fn fortification(battle: &Battle, from: V2, target: &Warrior) -> u8 {
    if target.soaring {
        return 0;
    }
    let at = target.center();
    battle
        .terrain
        .iter()
        .filter_map(|f| Some((f, f.construction?)))
        .filter(|(_, c)| c.fortification > 0)
        .filter(|(f, _)| {
            let shape = f.shape();
            shape.gap_to_disc(at, BASE_RADIUS) <= CONTACT && shape.crossed_by(from, at)
        })
        .map(|(_, c)| c.fortification)
        .max()
        .unwrap_or(0)
}
