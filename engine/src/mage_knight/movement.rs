//! Move actions: the movement path and what it may cross, speed and its
//! halving in hindering terrain, double-time, breaking away (and the
//! horseshoe's shake off), the new facing and the free spins it allows.

use serde::{Deserialize, Serialize};

use super::battlefield::{self, MAX_WAYPOINTS};
use super::facts::{ActionKind, Fact, Harm, RollFor};
use super::game::{Battle, Warrior, WarriorId};
use super::orders::Work;
use super::warrior::{Ability, SpeedType};
use crate::table::Point;
use crate::table::geometry::{Shape, TOUCH, V2};
use crate::{RuleError, Seat};

/// A move action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveOrder {
    pub warrior: WarriorId,
    /// Where the center dot goes, point by point (none: it only turns).
    #[serde(default)]
    pub path: Vec<Point>,
    /// The facing at the end of the move.
    pub facing: u16,
    /// Double its unmodified speed (boot and horseshoe, away from
    /// opposing warriors; a boot warrior is pushed for it).
    #[serde(default)]
    pub double_time: bool,
    /// Where a captor's captive ends, in base contact with it (none: it
    /// keeps its place beside the captor, moved as far and the same way).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captive_to: Option<Point>,
    /// A wing warrior takes off to soaring level or lands, at half its
    /// unmodified speed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub change_level: bool,
}

/// A move the rules allow, with what its resolution needs.
#[derive(Debug, Clone)]
pub struct MovePlan {
    pub warrior: WarriorId,
    pub path: Vec<Point>,
    pub facing: u16,
    pub double_time: bool,
    /// The break away roll fails at or below this (0: no roll needed).
    pub breaks_away_above: u8,
    /// A captor's captive and where it ends.
    pub carried: Option<(WarriorId, Point)>,
    /// It takes off or lands.
    pub change_level: bool,
}

/// The warrior `seat` may give an action to now, or why not.
pub(super) fn ready_for_action(
    battle: &Battle,
    seat: Seat,
    id: WarriorId,
) -> Result<&Warrior, RuleError> {
    let warrior = battle
        .warrior(id)
        .filter(|w| w.seat == seat)
        .ok_or_else(|| RuleError::not_allowed(format!("warrior {} is not yours", id.0)))?;
    let name = &warrior.card.name;
    if !warrior.on_battlefield() {
        return Err(RuleError::not_allowed(format!(
            "{name} is not on the battlefield"
        )));
    }
    if warrior.is_captive() {
        return Err(RuleError::not_allowed(format!(
            "{name} is a captive and cannot be given actions"
        )));
    }
    if battle.actions_left == 0 {
        return Err(RuleError::not_allowed("you have no actions left this turn"));
    }
    if warrior.acted {
        return Err(RuleError::not_allowed(format!(
            "{name} was already given an action this turn"
        )));
    }
    if warrior.tokens >= 2 {
        return Err(RuleError::not_allowed(format!(
            "{name} has two action tokens and cannot be given an action until they are removed"
        )));
    }
    Ok(warrior)
}

/// Its speed value: a captor's is the lower of its own and its captive's.
pub(super) fn speed_value(battle: &Battle, warrior: &Warrior) -> u8 {
    let own = warrior.click().speed;
    warrior
        .captive
        .and_then(|id| battle.warrior(id))
        .map_or(own, |captive| own.min(captive.click().speed))
}

/// The speed a move may use: the unmodified speed, doubled for
/// double-time, halved (rounded up) when it starts in hindering terrain.
pub(super) fn allowance(battle: &Battle, warrior: &Warrior, double_time: bool) -> u8 {
    allowance_from(battle, warrior, speed_value(battle, warrior), double_time)
}

/// [`allowance`] from a given speed value (a movement formation's lowest).
pub(super) fn allowance_from(
    battle: &Battle,
    warrior: &Warrior,
    speed: u8,
    double_time: bool,
) -> u8 {
    let mut speed = speed;
    if double_time {
        speed = speed.saturating_mul(2);
    }
    if starts_hindered(battle, warrior) {
        speed = speed.div_ceil(2);
    }
    speed
}

fn ignores_terrain(warrior: &Warrior) -> bool {
    warrior.speed_type() == SpeedType::Wing
}

fn starts_hindered(battle: &Battle, warrior: &Warrior) -> bool {
    if ignores_terrain(warrior) || warrior.has(Ability::Surefooted) {
        return false;
    }
    let at = warrior.center();
    battle.terrain.iter().any(|f| {
        f.kind.hinders_movement(warrior.speed_type()) && battlefield::base_overlaps(&f.shape(), at)
    })
}

/// Checks a movement path from the warrior's place through `points`
/// within `speed` inches: what it crosses, where it must stop, where it
/// ends (over any terrain, if it ends at soaring level).
pub(super) fn check_path(
    battle: &Battle,
    warrior: &Warrior,
    points: &[Point],
    speed: u8,
    ends_soaring: bool,
) -> Result<(), RuleError> {
    let name = &warrior.card.name;
    if points.len() > MAX_WAYPOINTS {
        return Err(RuleError::not_allowed(format!(
            "a movement path bends at most {MAX_WAYPOINTS} times"
        )));
    }
    let start = warrior.center();
    let mut line: Vec<V2> = vec![start];
    line.extend(points.iter().map(|p| p.v2()));
    let length = battlefield::path_length(&line);
    if length > f64::from(speed) + 0.001 {
        return Err(RuleError::not_allowed(format!(
            "{name} may move {speed}\" and this path is {length:.2}\""
        )));
    }
    let flies = ignores_terrain(warrior);
    let speed_type = warrior.speed_type();
    // A captor drags its captive along: the captive is not in its way;
    // nor is a soaring warrior's base, except where the move ends.
    let others: Vec<V2> = battle
        .standing()
        .filter(|w| w.id != warrior.id && Some(w.id) != warrior.captive)
        .map(Warrior::center)
        .collect();
    let in_the_way =
        |w: &&Warrior| w.id != warrior.id && Some(w.id) != warrior.captive && !w.soaring;
    let grounded: Vec<V2> = battle
        .standing()
        .filter(in_the_way)
        .map(Warrior::center)
        .collect();
    // Bases in contact, found once for every segment of the path.
    let touching: Vec<(V2, V2)> = if flies {
        Vec::new()
    } else {
        grounded
            .iter()
            .enumerate()
            .flat_map(|(i, p)| {
                grounded[i + 1..]
                    .iter()
                    .filter(|q| battlefield::in_contact(*p, **q))
                    .map(|q| (*p, *q))
            })
            .collect()
    };
    // Each blocking feature's shape, built once for every segment.
    let blocking: Vec<(&str, Shape)> = if flies {
        Vec::new()
    } else {
        battle
            .terrain
            .iter()
            .filter(|f| f.kind.blocks_movement(speed_type))
            .map(|f| (f.name.as_str(), f.shape()))
            .collect()
    };
    for pair in line.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if flies {
            continue;
        }
        if let Some(other) = battle
            .standing()
            .filter(in_the_way)
            .find(|w| battlefield::path_crosses_base(a, b, w.center()))
        {
            return Err(RuleError::not_allowed(format!(
                "the path crosses {}'s base",
                other.card.name
            )));
        }
        if touching
            .iter()
            .any(|(p, q)| battlefield::passes_between(a, b, *p, *q))
        {
            return Err(RuleError::not_allowed(
                "the path passes between two warriors in base contact",
            ));
        }
        if let Some((feature, _)) = blocking.iter().find(|(_, shape)| {
            !shape
                .swept_overlap(a, b, battlefield::BASE_RADIUS)
                .is_empty()
        }) {
            return Err(RuleError::not_allowed(format!(
                "the path crosses {feature}, which blocks movement"
            )));
        }
    }
    let end = line.last().copied().unwrap_or(start);
    if !battlefield::on_battlefield(end) {
        return Err(RuleError::not_allowed(format!(
            "{name}'s base must end on the battlefield"
        )));
    }
    if others.iter().any(|o| battlefield::overlapping(end, *o)) {
        return Err(RuleError::not_allowed(format!(
            "{name}'s base would overlap another warrior's"
        )));
    }
    if let Some(feature) = battle.terrain.iter().find(|f| {
        !ends_soaring
            && f.kind.blocks_movement(speed_type)
            && battlefield::base_overlaps(&f.shape(), end)
    }) {
        return Err(RuleError::not_allowed(format!(
            "{name} cannot end its move in {}",
            feature.name
        )));
    }
    if !flies && !warrior.has(Ability::Surefooted) {
        check_hindering_stop(battle, warrior, &line)?;
    }
    if !flies {
        check_elevated(battle, warrior, &line)?;
    }
    Ok(())
}

/// How far past the edge of an elevated feature a path may end and still
/// have stopped "as soon as" the warrior occupied it (ours: players aim
/// by hand).
pub const ELEVATED_STOP_SLACK: f64 = 0.25;

/// A warrior must end its move as soon as it occupies an elevated
/// feature it was not on; it moves onto or off abrupt elevated terrain
/// only at an access point.
fn check_elevated(battle: &Battle, warrior: &Warrior, line: &[V2]) -> Result<(), RuleError> {
    let raised: Vec<_> = battle
        .terrain
        .iter()
        .filter(|f| f.is_elevated())
        .map(|f| (f, f.shape()))
        .collect();
    if raised.is_empty() {
        return Ok(());
    }
    let name = &warrior.card.name;
    let total = battlefield::path_length(line);
    let mut walked = 0.0;
    let at_access = |feature: &battlefield::Feature, point: V2| match &feature.elevation {
        battlefield::Elevation::Abrupt { access } => access
            .iter()
            .any(|p| p.v2().dist(point) <= battlefield::ACCESS_REACH),
        _ => true,
    };
    for pair in line.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let length = a.dist(b);
        for (feature, shape) in &raised {
            for (from, to) in shape.swept_overlap(a, b, TOUCH) {
                // Where the center crosses the feature's edge on this
                // segment (not where the segment merely starts or ends).
                if from > 1e-9 {
                    let edge = a.lerp(b, from);
                    if !at_access(feature, edge) {
                        return Err(RuleError::not_allowed(format!(
                            "{name} may move onto {} (abrupt elevated terrain) only at an access point",
                            feature.name
                        )));
                    }
                    let left = total - (walked + length * from);
                    if left > ELEVATED_STOP_SLACK {
                        return Err(RuleError::not_allowed(format!(
                            "{name} must stop as soon as it occupies {} (elevated terrain): at its edge, near ({:.1}, {:.1})",
                            feature.name, edge.x, edge.y
                        )));
                    }
                }
                if to < 1.0 - 1e-9 && !at_access(feature, a.lerp(b, to)) {
                    return Err(RuleError::not_allowed(format!(
                        "{name} may move off {} (abrupt elevated terrain) only at an access point",
                        feature.name
                    )));
                }
            }
        }
        walked += length;
    }
    Ok(())
}

/// A warrior that starts partly in the clear must stop once its base is
/// wholly in hindering terrain.
fn check_hindering_stop(battle: &Battle, warrior: &Warrior, line: &[V2]) -> Result<(), RuleError> {
    let hindering: Vec<_> = battle
        .terrain
        .iter()
        .filter(|f| f.kind.hinders_movement(warrior.speed_type()))
        .map(|f| (f.name.as_str(), f.shape()))
        .collect();
    if hindering.is_empty() {
        return Ok(());
    }
    let start = warrior.center();
    if hindering
        .iter()
        .any(|(_, shape)| battlefield::base_inside(shape, start))
    {
        return Ok(());
    }
    const STEP: f64 = 0.05;
    let total = battlefield::path_length(line);
    let mut walked = 0.0;
    for pair in line.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let length = a.dist(b);
        let steps = (length / STEP).ceil().max(1.0) as usize;
        // A base wholly inside a feature has its center inside it: only
        // the stretches of the segment whose center is inside need the
        // closer look (the same samples, far fewer distances measured).
        let inside: Vec<Vec<(f64, f64)>> = hindering
            .iter()
            .map(|(_, shape)| shape.swept_overlap(a, b, TOUCH))
            .collect();
        for i in 1..=steps {
            let t = i as f64 / steps as f64;
            let left = total - (walked + length * t);
            if left <= 0.1 {
                return Ok(());
            }
            if let Some((name, _)) = hindering.iter().zip(&inside).find_map(|(feature, spans)| {
                (spans.iter().any(|(from, to)| (*from..=*to).contains(&t))
                    && battlefield::base_inside(&feature.1, a.lerp(b, t)))
                .then_some(feature)
            }) {
                return Err(RuleError::not_allowed(format!(
                    "{} must stop once its base is wholly in {name} (hindering terrain)",
                    warrior.card.name
                )));
            }
        }
        walked += length;
    }
    Ok(())
}

/// Checks a move action.
pub fn check(battle: &Battle, seat: Seat, order: &MoveOrder) -> Result<MovePlan, RuleError> {
    let warrior = ready_for_action(battle, seat, order.warrior)?;
    check_move(battle, warrior, order, speed_value(battle, warrior))
}

/// Checks one warrior's move at `speed` (its own speed value, or a
/// movement formation's lowest).
pub(super) fn check_move(
    battle: &Battle,
    warrior: &Warrior,
    order: &MoveOrder,
    speed: u8,
) -> Result<MovePlan, RuleError> {
    let name = &warrior.card.name;
    let engaged = battle.opposing_in_contact(warrior).next().is_some();
    if order.double_time {
        if !matches!(warrior.speed_type(), SpeedType::Boot | SpeedType::Horseshoe) {
            return Err(RuleError::not_allowed(format!(
                "only boot and horseshoe warriors use double-time; {name} cannot"
            )));
        }
        if engaged {
            return Err(RuleError::not_allowed(format!(
                "{name} is in base contact with an opposing warrior and cannot use double-time"
            )));
        }
    }
    let speed = if order.change_level {
        check_level_change(warrior, order)?;
        speed.div_ceil(2)
    } else {
        speed
    };
    let speed = allowance_from(battle, warrior, speed, order.double_time);
    let ends_soaring = warrior.soaring != order.change_level;
    check_path(battle, warrior, &order.path, speed, ends_soaring)?;
    let end = order.path.last().map_or(warrior.center(), |p| p.v2());
    if let Some(objective) = battle
        .objectives
        .iter()
        .find(|o| ends_soaring && battlefield::touches_objective(end, o.at.v2()))
    {
        let at = objective.at.v2();
        return Err(RuleError::not_allowed(format!(
            "{name} at soaring level cannot end in base contact with the objective at ({:.1}, {:.1})",
            at.x, at.y
        )));
    }
    let carried = carried(battle, warrior, order)?;
    let breaks_away_above = if engaged {
        match warrior.speed_type() {
            SpeedType::Horseshoe | SpeedType::Wing => 1,
            SpeedType::Boot | SpeedType::Wave => 3,
        }
    } else {
        0
    };
    Ok(MovePlan {
        warrior: order.warrior,
        path: order.path.clone(),
        facing: order.facing % 360,
        double_time: order.double_time,
        breaks_away_above,
        carried,
        change_level: order.change_level,
    })
}

/// Only a wing warrior changes level, with a move action of its own.
fn check_level_change(warrior: &Warrior, order: &MoveOrder) -> Result<(), RuleError> {
    let name = &warrior.card.name;
    if warrior.speed_type() != SpeedType::Wing {
        return Err(RuleError::not_allowed(format!(
            "only a wing warrior soars; {name} cannot take off or land"
        )));
    }
    if order.double_time {
        return Err(RuleError::not_allowed(
            "a warrior takes off or lands without double-time",
        ));
    }
    Ok(())
}

/// Where a captor's captive ends: in base contact with it before and
/// after the move, on the battlefield, on no other base and in no
/// terrain that blocks a boot warrior (a captive's speed type is
/// ignored). Its way there is the captor's.
fn carried(
    battle: &Battle,
    warrior: &Warrior,
    order: &MoveOrder,
) -> Result<Option<(WarriorId, Point)>, RuleError> {
    let name = &warrior.card.name;
    let Some(captive) = warrior.captive.and_then(|id| battle.warrior(id)) else {
        return match order.captive_to {
            Some(_) => Err(RuleError::not_allowed(format!(
                "{name} holds no captive to move"
            ))),
            None => Ok(None),
        };
    };
    let captive_name = &captive.card.name;
    let Some(end) = order.path.last().map(|p| p.v2()) else {
        return match order.captive_to {
            Some(_) => Err(RuleError::not_allowed(format!(
                "{captive_name} moves only when its captor {name} does"
            ))),
            None => Ok(None),
        };
    };
    if !battlefield::in_contact(warrior.center(), captive.center()) {
        return Err(RuleError::not_allowed(format!(
            "{name} must be in base contact with its captive {captive_name} to move with it"
        )));
    }
    let to = order
        .captive_to
        .unwrap_or_else(|| Point::from_v2(captive.center().plus(end.minus(warrior.center()))));
    let at = to.v2();
    if !battlefield::in_contact(end, at) || battlefield::overlapping(end, at) {
        return Err(RuleError::not_allowed(format!(
            "{captive_name} must end in base contact with its captor {name}"
        )));
    }
    if !battlefield::on_battlefield(at) {
        return Err(RuleError::not_allowed(format!(
            "{captive_name}'s base must end on the battlefield"
        )));
    }
    if battle
        .standing()
        .filter(|w| w.id != warrior.id && w.id != captive.id)
        .any(|w| battlefield::overlapping(at, w.center()))
    {
        return Err(RuleError::not_allowed(format!(
            "{captive_name}'s base would overlap another warrior's"
        )));
    }
    if let Some(feature) = battle.terrain.iter().find(|f| {
        f.kind.blocks_movement(SpeedType::Boot) && battlefield::base_overlaps(&f.shape(), at)
    }) {
        return Err(RuleError::not_allowed(format!(
            "{captive_name} cannot end in {}",
            feature.name
        )));
    }
    Ok(Some((captive.id, to)))
}

pub(super) fn resolve(work: &mut Work, plan: &MovePlan) {
    work.push(Fact::ActionGiven {
        warrior: plan.warrior,
        kind: ActionKind::Move,
    });
    if break_away(work, plan) {
        travel(work, plan);
    }
    work.finish_action(plan.warrior);
}

/// The break away roll, if the warrior needs one: whether it may move.
/// A warrior that fails still turns (a horseshoe warrior does not); a
/// horseshoe warrior that breaks away deals 1 damage to each opposing
/// warrior in contact with its rear arc.
pub(super) fn break_away(work: &mut Work, plan: &MovePlan) -> bool {
    let id = plan.warrior;
    if plan.breaks_away_above == 0 {
        return true;
    }
    let Some(warrior) = work.battle.warrior(id).cloned() else {
        return false;
    };
    let die = work
        .roll(RollFor::BreakAway { warrior: id }, 1)
        .first()
        .copied()
        .unwrap_or(1);
    let speed_type = warrior.speed_type();
    if die <= plan.breaks_away_above {
        if speed_type != SpeedType::Horseshoe && plan.facing != warrior.facing {
            work.push(Fact::Turned {
                warrior: id,
                facing: plan.facing,
            });
        }
        return false;
    }
    if speed_type == SpeedType::Horseshoe {
        let behind: Vec<WarriorId> = work
            .battle
            .opposing_in_contact(&warrior)
            .filter(|o| !battlefield::in_front_arc(warrior.center(), warrior.facing, o.center()))
            .map(|o| o.id)
            .collect();
        for other in behind {
            work.deal(other, 1, Harm::ShakeOff { by: id });
        }
    }
    true
}

/// The move itself once the warrior may make it: along its path with its
/// captive, then double-time's push for a boot warrior.
pub(super) fn travel(work: &mut Work, plan: &MovePlan) {
    let id = plan.warrior;
    if plan.change_level {
        let soaring = work.battle.warrior(id).is_some_and(|w| !w.soaring);
        work.push(Fact::LevelChanged {
            warrior: id,
            soaring,
        });
    }
    move_along(work, id, &plan.path, plan.facing, plan.carried);
    let boot = work
        .battle
        .warrior(id)
        .is_some_and(|w| w.speed_type() == SpeedType::Boot);
    if plan.double_time && boot {
        work.deal(id, 1, Harm::Pushing);
    }
}

/// Moves the warrior (or turns it, for an empty path), then gives the
/// free spins: each opposing warrior it ends in base contact with, whose
/// front arc touches no opposing warrior, turns to face it.
pub(super) fn move_along(
    work: &mut Work,
    id: WarriorId,
    path: &[Point],
    facing: u16,
    carried: Option<(WarriorId, Point)>,
) {
    if path.is_empty() {
        if work.battle.warrior(id).is_some_and(|w| w.facing != facing) {
            work.push(Fact::Turned {
                warrior: id,
                facing,
            });
        }
        return;
    }
    work.push(Fact::Moved {
        warrior: id,
        path: path.to_vec(),
        facing,
    });
    if let Some((captive, to)) = carried {
        let facing = work.battle.warrior(captive).map_or(0, |w| w.facing);
        work.push(Fact::Moved {
            warrior: captive,
            path: vec![to],
            facing,
        });
    }
    let Some(mover) = work.battle.warrior(id).cloned() else {
        return;
    };
    let spins: Vec<(WarriorId, u16)> = work
        .battle
        .opposing_in_contact(&mover)
        .filter(|o| {
            !work
                .battle
                .opposing_in_contact(o)
                .any(|e| battlefield::in_front_arc(o.center(), o.facing, e.center()))
        })
        .map(|o| (o.id, battlefield::facing_toward(o.center(), mover.center())))
        .collect();
    for (warrior, facing) in spins {
        work.push(Fact::Turned { warrior, facing });
    }
}
