//! Actions (quick reference, "Actions", "Combat" and "Magic"): what each
//! costs, when it is allowed, and how it begins. A duel an action starts
//! is resolved in [`super::resolve`].
//!
//! Action points, where the reference gives none (our readings, listed in
//! docs/first-edition.md): Walk, Strike, Heal, Interact, Pass and
//! Defensive Stance cost 1; Charge, Focus and Channel 2; a spell its own
//! number.

use serde::{Deserialize, Serialize};

use super::card::{Ability, Station, WeaponKind};
use super::duel::{Duel, DuelStep, Purpose, Versus};
use super::field::{self, CONTACT};
use super::flow::{Run, halted};
use super::resolve;
use super::skirmish::{Activation, Model, ModelId, Skirmish};
use crate::RuleError;
use crate::fate::Card;
use crate::table::Point;
use crate::table::geometry::V2;

/// Bash: the melee weapon every model has (Rg 1, Cb 3, 0/1/2).
pub const BASH_CB: u8 = 3;
pub const BASH_DAMAGE: super::card::Damage = super::card::Damage {
    weak: 0,
    moderate: 1,
    severe: 2,
};
/// Defensive Stance's cost to Wk and Cg.
pub const STANCE_SLOWS: u8 = 2;
/// The Treasure Hunt marker's radius (30 mm).
pub const MARKER_RADIUS: f64 = 30.0 / 25.4 / 2.0;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    Walk {
        to: Point,
    },
    /// A straight move of up to Cg toward the target, then a melee strike.
    Charge {
        target: ModelId,
        #[serde(default)]
        weapon: Option<u8>,
    },
    /// A basic weapon by its place on the card; none: Bash.
    Strike {
        target: ModelId,
        #[serde(default)]
        weapon: Option<u8>,
        #[serde(default)]
        focus: bool,
    },
    Cast {
        spell: u8,
        target: ModelId,
        #[serde(default)]
        channel: bool,
    },
    DefensiveStance,
    Heal,
    /// Picks up the Treasure Hunt marker, or passes it to a friend in
    /// base contact.
    Interact {
        #[serde(default)]
        pass_to: Option<ModelId>,
    },
    Pass,
}

/// Which action points an action spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pays {
    General(u8),
    ExtraMelee,
    ExtraRanged,
    ExtraCast,
    ZeroCast,
}

pub fn any_left(activation: &Activation) -> bool {
    activation.general_ap > 0
        || activation.extra_melee > 0
        || activation.extra_ranged > 0
        || activation.extra_cast > 0
}

/// Wk or Cg, less the stance's cost.
pub fn speed(model: &Model, charge: bool) -> f64 {
    let stat = if charge { model.card.cg } else { model.card.wk };
    let slowed = if model.defensive { STANCE_SLOWS } else { 0 };
    f64::from(stat.saturating_sub(slowed))
}

/// A weapon's kind, reach, Cb and damage (none: Bash).
pub fn weapon_of(
    model: &Model,
    weapon: Option<u8>,
) -> Option<(WeaponKind, f64, u8, super::card::Damage)> {
    match weapon {
        None => Some((WeaponKind::Melee, 1.0, BASH_CB, BASH_DAMAGE)),
        Some(i) => model
            .card
            .weapons
            .get(usize::from(i))
            .map(|w| (w.kind, f64::from(w.rg), w.cb, w.damage)),
    }
}

/// Why `model` may not deploy at `at`.
pub fn deploy_problem(game: &Skirmish, model: &Model, at: Point) -> Option<String> {
    let deployment = game.deployment?;
    let p = at.v2();
    if !deployment.holds(
        field::side_of(game, model.seat),
        p,
        field::radius(&model.card),
    ) {
        return Some(format!(
            "{} must deploy wholly within its {} deployment zone",
            model.card.name,
            deployment.name()
        ));
    }
    field::placement_problem(game, model, p)
}

/// The enemies `model` would leave the melee of by moving to `to`.
fn left_behind(game: &Skirmish, model: &Model, to: V2) -> Vec<ModelId> {
    let mut moved = model.clone();
    moved.at = Some(field::point(to));
    field::engaging(game, model)
        .filter(|enemy| !field::engaged(game, &moved, enemy))
        .filter(|enemy| !halted(game, enemy))
        .map(|enemy| enemy.id)
        .collect()
}

/// How [`check`] words a refusal: in full for a player's order, not at all
/// when a bot only asks whether an action is allowed (thousands of times a
/// game, where wording every refusal was half the bots' time).
trait Words {
    fn say(words: impl FnOnce() -> String) -> Self;
}

impl Words for String {
    fn say(words: impl FnOnce() -> String) -> Self {
        words()
    }
}

impl Words for () {
    fn say(_: impl FnOnce() -> String) -> Self {}
}

/// Why the active model may not take `action` now, or what it spends.
fn check<E: Words>(game: &Skirmish, activation: &Activation, action: &Action) -> Result<Pays, E> {
    let model = game
        .model(activation.model)
        .ok_or_else(|| E::say(|| "no such model".into()))?;
    let general = |cost: u8| {
        if activation.general_ap >= cost {
            Ok(Pays::General(cost))
        } else {
            Err(E::say(|| {
                format!(
                    "{} has {} action point(s) left, and this takes {cost}",
                    model.card.name, activation.general_ap
                )
            }))
        }
    };
    // Asked only by the actions it bars: it measures every enemy.
    let engaged = || field::engaging(game, model).next().is_some();
    let target_of = |id: ModelId| -> Result<&Model, E> {
        let target = game
            .model(id)
            .filter(|t| t.on_table())
            .ok_or_else(|| E::say(|| "the target is not on the table".into()))?;
        if target.id == model.id {
            return Err(E::say(|| "a model does not attack itself".into()));
        }
        Ok(target)
    };
    if model.carries_treasure && matches!(action, Action::Charge { .. }) {
        return Err(E::say(|| {
            "a model carrying the treasure may only walk".into()
        }));
    }
    match action {
        Action::Walk { to } => {
            let from = field::at(model).ok_or_else(|| E::say(|| "not on the table".into()))?;
            let to = to.v2();
            let distance = from.dist(to);
            let most = speed(model, false);
            if distance > most + 1e-6 {
                return Err(E::say(|| {
                    format!(
                        "{} walks at most {most}\" and this is {distance:.1}\"",
                        model.card.name
                    )
                }));
            }
            if let Some(problem) = field::misplaced(game, model, to) {
                return Err(E::say(|| problem.to_string()));
            }
            if let Some(block) = field::blocking(game, model, from, to) {
                let name = game.model(block).map_or("", |m| m.card.name.as_str());
                return Err(E::say(|| format!("{name} is in the way")));
            }
            general(1)
        }
        Action::Charge { target, weapon } => {
            let target = target_of(*target)?;
            let (kind, ..) =
                weapon_of(model, *weapon).ok_or_else(|| E::say(|| "no such weapon".into()))?;
            if kind != WeaponKind::Melee {
                return Err(E::say(|| "a charge ends with a melee strike".into()));
            }
            if engaged() {
                return Err(E::say(|| {
                    format!("{} is already in melee", model.card.name)
                }));
            }
            if target.seat == model.seat {
                return Err(E::say(|| "a charge targets an enemy".into()));
            }
            general(2)
        }
        Action::Strike {
            target,
            weapon,
            focus,
        } => {
            let target = target_of(*target)?;
            let (kind, reach, ..) =
                weapon_of(model, *weapon).ok_or_else(|| E::say(|| "no such weapon".into()))?;
            let gap = field::gap(model, target).unwrap_or(f64::MAX);
            if gap > reach + CONTACT {
                return Err(E::say(|| {
                    format!(
                        "{} is {gap:.1}\" away, beyond the weapon's {reach}\"",
                        target.card.name
                    )
                }));
            }
            if kind == WeaponKind::Ranged && engaged() {
                return Err(E::say(|| {
                    "a model in melee may not make ranged strikes".into()
                }));
            }
            if target.seat == model.seat {
                return Err(E::say(|| "a strike targets an enemy".into()));
            }
            if *focus {
                return general(2);
            }
            match kind {
                WeaponKind::Melee if activation.extra_melee > 0 => Ok(Pays::ExtraMelee),
                WeaponKind::Ranged if activation.extra_ranged > 0 => Ok(Pays::ExtraRanged),
                _ => general(1),
            }
        }
        Action::Cast {
            spell,
            target,
            channel,
        } => {
            let card = model
                .card
                .spells
                .get(usize::from(*spell))
                .ok_or_else(|| E::say(|| "no such spell".into()))?;
            let target = game
                .model(*target)
                .filter(|t| t.on_table())
                .ok_or_else(|| E::say(|| "the target is not on the table".into()))?;
            if card.rg == 0 && target.id != model.id {
                return Err(E::say(|| format!("{} targets its caster only", card.name)));
            }
            let gap = field::gap(model, target).unwrap_or(f64::MAX);
            if target.id != model.id && gap > f64::from(card.rg) + CONTACT {
                return Err(E::say(|| {
                    format!(
                        "{} is {gap:.1}\" away, beyond {}'s {}\"",
                        target.card.name, card.name, card.rg
                    )
                }));
            }
            if *channel {
                if card.ap != 1 {
                    return Err(E::say(|| "only a (1) spell may be channelled".into()));
                }
                return general(2);
            }
            match card.ap {
                0 if activation.zero_cast => {
                    Err(E::say(|| "a (0) spell was cast this activation".into()))
                }
                0 => Ok(Pays::ZeroCast),
                1 if activation.extra_cast > 0 => Ok(Pays::ExtraCast),
                cost => general(cost),
            }
        }
        Action::DefensiveStance => {
            if activation.actions > 0 {
                return Err(E::say(|| {
                    "defensive stance must be the activation's first action".into()
                }));
            }
            general(1)
        }
        Action::Heal => {
            if !model.card.uses_soulstones() {
                return Err(E::say(|| {
                    format!("{} does not use soulstones", model.card.name)
                }));
            }
            if game.player(model.seat).soulstones == 0 {
                return Err(E::say(|| "the crew has no soulstones left".into()));
            }
            if model.wounds_left >= model.card.wd {
                return Err(E::say(|| format!("{} is not wounded", model.card.name)));
            }
            general(1)
        }
        Action::Interact { pass_to } => {
            match pass_to {
                None => {
                    let marker = game
                        .treasure
                        .ok_or_else(|| E::say(|| "there is no loose marker to pick up".into()))?;
                    let at =
                        field::at(model).ok_or_else(|| E::say(|| "not on the table".into()))?;
                    if at.dist(marker.v2()) > field::radius(&model.card) + MARKER_RADIUS + CONTACT {
                        return Err(E::say(|| "the marker is not in base contact".into()));
                    }
                    if game.player(model.seat).strategy
                        != Some(super::objectives::Strategy::TreasureHunt)
                        && game.player(model.seat.other()).strategy
                            != Some(super::objectives::Strategy::TreasureHunt)
                    {
                        return Err(E::say(|| "no one hunts treasure".into()));
                    }
                }
                Some(friend) => {
                    if !model.carries_treasure {
                        return Err(E::say(|| format!("{} carries no marker", model.card.name)));
                    }
                    let friend = game
                        .model(*friend)
                        .filter(|f| f.on_table() && f.seat == model.seat && f.id != model.id)
                        .ok_or_else(|| E::say(|| "the marker passes to a friendly model".into()))?;
                    if field::gap(model, friend).unwrap_or(f64::MAX) > CONTACT {
                        return Err(E::say(|| {
                            format!("{} is not in base contact", friend.card.name)
                        }));
                    }
                }
            }
            general(1)
        }
        Action::Pass => general(1),
    }
}

/// The active model may take `action` now.
pub fn allowed(game: &Skirmish, activation: &Activation, action: &Action) -> bool {
    check::<()>(game, activation, action).is_ok()
}

/// Spends the action's points and starts it.
pub fn take(run: &mut Run, mut activation: Activation, action: &Action) -> Result<(), RuleError> {
    let pays = check::<String>(run.game, &activation, action).map_err(RuleError::not_allowed)?;
    match pays {
        Pays::General(cost) => activation.general_ap -= cost,
        Pays::ExtraMelee => activation.extra_melee -= 1,
        Pays::ExtraRanged => activation.extra_ranged -= 1,
        Pays::ExtraCast => activation.extra_cast -= 1,
        Pays::ZeroCast => activation.zero_cast = true,
    }
    activation.actions += 1;
    if let Some(guarded) = harmless_guard(run.game, activation.model, action) {
        return resolve::harmless(run, activation, guarded, action.clone());
    }
    perform(run, activation, action.clone());
    Ok(())
}

/// The Harmless model an attack targets, if the attacker must first pass
/// a Willpower duel to attack it.
fn harmless_guard(game: &Skirmish, actor: ModelId, action: &Action) -> Option<ModelId> {
    let target = match action {
        Action::Charge { target, .. } | Action::Strike { target, .. } => *target,
        Action::Cast { target, .. } => *target,
        _ => return None,
    };
    let attacker = game.model(actor)?;
    let target = game.model(target)?;
    let guarded = target.seat != attacker.seat
        && target.card.has(&Ability::Harmless)
        && !attacker.card.has(&Ability::Ruthless)
        && !attacker
            .card
            .abilities
            .iter()
            .any(|a| matches!(a, Ability::Terrifying { .. }));
    guarded.then_some(target.id)
}

/// Carries out an action whose points are spent.
pub fn perform(run: &mut Run, activation: Activation, action: Action) {
    let id = activation.model;
    let Some(model) = run.game.model(id).cloned() else {
        return run.resume(Some(activation));
    };
    match action {
        Action::Walk { to } => {
            let leaving = left_behind(run.game, &model, to.v2());
            match leaving.first() {
                Some(striker) => resolve::disengaging_strike(run, activation, *striker, to),
                None => {
                    run.emit(super::facts::Fact::Placed { model: id, at: to });
                    run.resume(Some(activation));
                }
            }
        }
        Action::Charge { target, weapon } => {
            let Some(victim) = run.game.model(target).cloned() else {
                return run.resume(Some(activation));
            };
            if model.card.is_living()
                && victim.abilities_terrify()
                && !model.steeled_against.contains(&target)
            {
                let then = Box::new(Action::Charge { target, weapon });
                let _ = resolve::morale(run, Some(activation), id, target, Some(then));
                return;
            }
            let (Some(from), Some(toward)) = (field::at(&model), field::at(&victim)) else {
                return run.resume(Some(activation));
            };
            let end = field::straight_move(
                run.game,
                &model,
                from,
                toward,
                speed(&model, true),
                Some(&victim),
            );
            run.emit(super::facts::Fact::Placed {
                model: id,
                at: field::point(end),
            });
            let reach = weapon_of(&model, weapon).map_or(1.0, |w| w.1);
            let moved = run.game.model(id).cloned();
            let in_reach = moved
                .as_ref()
                .and_then(|m| field::gap(m, &victim))
                .is_some_and(|g| g <= reach + CONTACT);
            if in_reach {
                strike(run, activation, target, weapon, true, false);
            } else {
                run.resume(Some(activation));
            }
        }
        Action::Strike {
            target,
            weapon,
            focus,
        } => strike(run, activation, target, weapon, false, focus),
        Action::Cast {
            spell,
            target,
            channel,
        } => resolve::cast(run, activation, spell, target, channel),
        Action::DefensiveStance => {
            run.emit(super::facts::Fact::DefensiveStance { model: id });
            run.resume(Some(activation));
        }
        Action::Heal => {
            run.emit(super::facts::Fact::SoulstoneSpent { seat: model.seat });
            let card = run.flip_one(model.seat);
            let wounds = match card.value() {
                0 => 0,
                1..=5 => 1,
                6..=10 => 2,
                11..=13 => 3,
                _ => model.card.wd,
            };
            if wounds > 0 {
                run.emit(super::facts::Fact::Healed { model: id, wounds });
            }
            run.resume(Some(activation));
        }
        Action::Interact { pass_to } => {
            run.emit(super::facts::Fact::TreasureTaken {
                model: pass_to.unwrap_or(id),
            });
            run.resume(Some(activation));
        }
        Action::Pass => run.resume(Some(activation)),
    }
}

impl Model {
    pub fn abilities_terrify(&self) -> bool {
        self.card
            .abilities
            .iter()
            .any(|a| matches!(a, Ability::Terrifying { .. }))
    }
}

/// A Strike's duel: Cb with the weapon against the target's Df.
pub fn strike(
    run: &mut Run,
    activation: Activation,
    target: ModelId,
    weapon: Option<u8>,
    charge: bool,
    focus: bool,
) {
    let game = &*run.game;
    let (Some(attacker), Some(defender)) = (game.model(activation.model), game.model(target))
    else {
        return run.resume(Some(activation));
    };
    let Some((kind, _, cb, _)) = weapon_of(attacker, weapon) else {
        return run.resume(Some(activation));
    };
    let card_weapon = weapon.and_then(|i| attacker.card.weapons.get(usize::from(i)));
    let ranged = kind == WeaponKind::Ranged;
    // Firing into melee: +1 Df for each other model in melee with the target.
    let crowd = if ranged {
        field::engaging(game, defender)
            .filter(|m| m.id != attacker.id)
            .count()
    } else {
        0
    };
    let twist = i8::from(focus) + i8::from(card_weapon.is_some_and(|w| w.paired));
    let actor = resolve::duelist(
        game,
        attacker,
        i16::from(cb),
        twist,
        card_weapon.and_then(|w| w.cb_suit),
        card_weapon.map(|w| w.triggers.clone()).unwrap_or_default(),
    );
    let defence = resolve::duelist(
        game,
        defender,
        i16::from(defender.card.df) + i16::try_from(crowd).unwrap_or(0),
        i8::from(defender.defensive),
        None,
        resolve::defence_triggers(defender),
    );
    let duel = Duel {
        purpose: Purpose::Strike {
            weapon,
            ranged,
            charge,
            focus,
        },
        actor,
        versus: Versus::Model {
            defender: Box::new(defence),
        },
        step: DuelStep::Changing {
            seat: attacker.seat,
        },
        order: Vec::new(),
    };
    resolve::start(run, Some(activation), duel);
}

/// Counts as a master or henchman for schemes that name one.
pub fn leads(model: &Model) -> bool {
    matches!(model.card.station, Station::Master | Station::Henchman)
}

/// The card's band of a damage or healing flip: 0 weak, 1 moderate, 2
/// severe; none for the Black Joker.
pub fn band(card: Card) -> Option<u8> {
    match card.value() {
        0 => None,
        1..=5 => Some(0),
        6..=10 => Some(1),
        _ => Some(2),
    }
}
