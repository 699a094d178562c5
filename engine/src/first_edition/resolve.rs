//! Duels carried through (the change of totals and the triggers, each
//! side's choice in its turn) and what their results do: strikes (their
//! damage in [`super::damage`]), spells and resists, morale and falling
//! back, Harmless, pushes and summoning.

use super::actions::{self, Action};
use super::card::{Ability, SpellEffect, Trigger, TriggerEffect, TriggerStat};
use super::damage::start_damage;
use super::duel::{Duel, DuelStep, Duelist, Purpose, Versus, cards_for, counted};
use super::facts::Fact;
use super::field;
use super::flow::{Run, halted};
use super::shifts::{fall_back, push, summon};
use super::skirmish::{
    Activation, Continuation, DamageFlip, DamageKind, Model, ModelId, Skirmish, Stage,
};
use crate::fate::Card;
use crate::table::Point;
use crate::{RuleError, Seat};

/// The Wp a Harmless model asks of its attacker (more than 12).
pub const HARMLESS_TN: i16 = 13;

fn refuse<T>(message: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::not_allowed(message.into()))
}

/// One side of a duel, before its flip.
pub fn duelist(
    game: &Skirmish,
    model: &Model,
    stat: i16,
    twist: i8,
    fixed_suit: Option<crate::fate::Suit>,
    triggers: Vec<Trigger>,
) -> Duelist {
    Duelist {
        model: model.id,
        seat: model.seat,
        stat,
        twist,
        flipped: Vec::new(),
        card: Card::BLACK_JOKER,
        cheated: false,
        stone: None,
        fixed_suit,
        may_use_stone: model.card.uses_soulstones(),
        changed: false,
        triggers: if halted(game, model) {
            Vec::new()
        } else {
            triggers
        },
        trigger: None,
        asked: false,
    }
}

/// The defensive triggers on a model's weapons.
pub fn defence_triggers(model: &Model) -> Vec<Trigger> {
    model
        .card
        .weapons
        .iter()
        .flat_map(|w| &w.triggers)
        .filter(|t| t.stat == TriggerStat::Df)
        .cloned()
        .collect()
}

/// Flips for both sides and asks for the first choice.
pub fn start(run: &mut Run, activation: Option<Activation>, mut duel: Duel) {
    let flip = |run: &mut Run, side: &mut Duelist| {
        side.flipped = run.flip(side.seat, cards_for(side.twist));
        side.card = counted(&side.flipped, side.twist).unwrap_or(Card::BLACK_JOKER);
    };
    flip(run, &mut duel.actor);
    if let Versus::Model { defender } = &mut duel.versus {
        flip(run, defender);
    }
    duel.order = duel.losing_first();
    advance(run, activation, duel);
}

fn may_change(game: &Skirmish, side: &Duelist) -> bool {
    !side.changed
        && (side.may_cheat(&game.player(side.seat).hand)
            || (side.may_use_stone && game.player(side.seat).soulstones > 0))
}

fn advance(run: &mut Run, activation: Option<Activation>, mut duel: Duel) {
    for seat in duel.order.clone() {
        let waits = duel.side(seat).is_some_and(|s| may_change(run.game, s));
        if waits {
            duel.step = DuelStep::Changing { seat };
            return run.now(Stage::Dueling {
                activation,
                duel: Box::new(duel),
            });
        }
        if let Some(side) = duel.side_mut(seat) {
            side.changed = true;
        }
    }
    for seat in duel.losing_first() {
        let waits = duel
            .side(seat)
            .is_some_and(|s| !s.asked && !s.payable().is_empty());
        if waits {
            duel.step = DuelStep::Triggering { seat };
            return run.now(Stage::Dueling {
                activation,
                duel: Box::new(duel),
            });
        }
        if let Some(side) = duel.side_mut(seat) {
            side.asked = true;
        }
    }
    finish(run, activation, duel);
}

pub fn change_total(
    run: &mut Run,
    seat: Seat,
    activation: Option<Activation>,
    mut duel: Duel,
    cheat: Option<Card>,
    soulstone: bool,
) -> Result<(), RuleError> {
    if duel.step != (DuelStep::Changing { seat }) {
        return refuse("the duel waits for a trigger, not a change");
    }
    let hand = run.game.player(seat).hand.clone();
    let stones = run.game.player(seat).soulstones;
    let Some(side) = duel.side_mut(seat) else {
        return refuse("you have no side in this duel");
    };
    if let Some(card) = cheat {
        if !side.may_cheat(&hand) {
            return refuse("this flip cannot be cheated (a negative twist or the Black Joker)");
        }
        if !hand.contains(&card) {
            return refuse(format!("{card} is not in your hand"));
        }
    }
    if soulstone && !(side.may_use_stone && stones > 0) {
        return refuse("this model cannot spend a soulstone now");
    }
    if let Some(card) = cheat {
        side.card = card;
        side.cheated = true;
    }
    side.changed = true;
    if let Some(card) = cheat {
        run.emit(Fact::Cheated { seat, card });
    }
    if soulstone {
        run.emit(Fact::SoulstoneSpent { seat });
        let card = run.flip_one(seat);
        if let Some(side) = duel.side_mut(seat) {
            side.stone = Some(card);
        }
    }
    advance(run, activation, duel);
    Ok(())
}

pub fn declare_trigger(
    run: &mut Run,
    seat: Seat,
    activation: Option<Activation>,
    mut duel: Duel,
    trigger: Option<&str>,
) -> Result<(), RuleError> {
    if duel.step != (DuelStep::Triggering { seat }) {
        return refuse("the duel waits for a change of totals, not a trigger");
    }
    let Some(side) = duel.side_mut(seat) else {
        return refuse("you have no side in this duel");
    };
    if let Some(name) = trigger {
        if !side.payable().iter().any(|t| t.name == name) {
            return refuse(format!("{name} is not a trigger this total pays for"));
        }
        side.trigger = Some(name.to_owned());
    }
    side.asked = true;
    advance(run, activation, duel);
    Ok(())
}

/// The damage flip's twist from how far the attack beat the defence: a
/// tie two negative twists, 1–5 one, 6–10 none, 11 and up one positive.
pub fn margin_twist(margin: i16) -> i8 {
    match margin {
        i16::MIN..=0 => -2,
        1..=5 => -1,
        6..=10 => 0,
        _ => 1,
    }
}

fn hard_to_wound(model: &Model) -> i8 {
    model
        .card
        .abilities
        .iter()
        .find_map(|a| match a {
            Ability::HardToWound { value } => i8::try_from(*value).ok(),
            _ => None,
        })
        .unwrap_or(0)
}

fn finish(run: &mut Run, activation: Option<Activation>, duel: Duel) {
    let wins = duel.actor_wins();
    let margin = duel.margin();
    let actor = duel.actor.model;
    match duel.purpose.clone() {
        Purpose::Strike {
            weapon,
            ranged,
            charge,
            focus,
        } => {
            let Versus::Model { defender } = &duel.versus else {
                return run.resume(activation);
            };
            if !wins {
                if let Some(t) = defender.declared() {
                    trigger_effect(run, defender.model, actor, &t.does);
                }
                return run.resume(activation);
            }
            let declared = duel.actor.declared().map(|t| t.does.clone());
            if let Some(does) = &declared {
                trigger_effect(run, actor, defender.model, does);
            }
            let (Some(attacker), Some(target)) = (
                run.game.model(actor).cloned(),
                run.game.model(defender.model).cloned(),
            ) else {
                return run.resume(activation);
            };
            let damage =
                actions::weapon_of(&attacker, weapon).map_or(actions::BASH_DAMAGE, |w| w.3);
            let twist = margin_twist(margin)
                + i8::from(focus)
                + i8::from(charge)
                + i8::from(matches!(declared, Some(TriggerEffect::TwistDamage)))
                - hard_to_wound(&target);
            let added = match declared {
                Some(TriggerEffect::AddDamage { amount }) => amount,
                _ => 0,
            };
            let flip = DamageFlip {
                source: Some(actor),
                target: target.id,
                damage,
                kind: if ranged {
                    DamageKind::Ranged
                } else {
                    DamageKind::Melee
                },
                twist: twist.clamp(-3, 3),
                added,
                flipped: Vec::new(),
                card: Card::BLACK_JOKER,
                cheated: false,
                amount: None,
                melee: !ranged,
            };
            start_damage(run, activation, flip, Continuation::Resume);
        }
        Purpose::Disengaging { to } => {
            let Versus::Model { defender } = &duel.versus else {
                return run.resume(activation);
            };
            if !wins {
                run.emit(Fact::Placed {
                    model: defender.model,
                    at: to,
                });
            }
            run.resume(activation);
        }
        Purpose::Cast {
            spell,
            target,
            channel,
        } => {
            if !wins {
                return run.resume(activation);
            }
            if let Some(t) = duel.actor.declared() {
                trigger_effect(run, actor, target, &t.does);
            }
            let (Some(caster), Some(victim)) = (
                run.game.model(actor).cloned(),
                run.game.model(target).cloned(),
            ) else {
                return run.resume(activation);
            };
            let resist = caster
                .card
                .spells
                .get(usize::from(spell))
                .and_then(|s| s.resist);
            match resist {
                Some(stat) if victim.seat != caster.seat && victim.on_table() => {
                    let (value, influence) = match stat {
                        super::card::Resist::Df => (victim.card.df, false),
                        super::card::Resist::Wp => (victim.card.wp, true),
                    };
                    if influence && victim.card.has(&Ability::ImmuneToInfluence) {
                        return run.resume(activation);
                    }
                    let resister =
                        duelist(run.game, &victim, i16::from(value), 0, None, Vec::new());
                    let cast_total = duel.actor.total();
                    let resist_duel = Duel {
                        purpose: Purpose::Resist {
                            caster: actor,
                            spell,
                            channel,
                            cast_total,
                        },
                        actor: resister,
                        versus: Versus::Number {
                            tn: cast_total,
                            suit: None,
                            must_exceed: true,
                        },
                        step: DuelStep::Changing { seat: victim.seat },
                        order: Vec::new(),
                    };
                    start(run, activation, resist_duel);
                }
                _ => spell_effects(run, activation, actor, spell, target, 0, margin, channel),
            }
        }
        Purpose::Resist {
            caster,
            spell,
            channel,
            cast_total,
        } => {
            if wins {
                return run.resume(activation);
            }
            let margin = cast_total - duel.actor.total();
            spell_effects(run, activation, caster, spell, actor, 0, margin, channel);
        }
        Purpose::Morale { terror, then } => {
            if wins {
                run.emit(Fact::Steeled {
                    model: actor,
                    against: terror,
                });
                match (then, activation) {
                    (Some(action), Some(activation)) => {
                        actions::perform(run, activation, *action);
                    }
                    (_, activation) => run.resume(activation),
                }
            } else {
                fall_back(run, actor, terror);
                run.resume(activation);
            }
        }
        Purpose::Harmless { then, .. } => match (wins, activation) {
            (true, Some(activation)) => actions::perform(run, activation, *then),
            (_, activation) => run.resume(activation),
        },
    }
}

/// A trigger's effect besides damage, from `owner` onto `other`.
fn trigger_effect(run: &mut Run, owner: ModelId, other: ModelId, does: &TriggerEffect) {
    match does {
        TriggerEffect::AddDamage { .. } | TriggerEffect::TwistDamage => {}
        TriggerEffect::PushTarget { inches } => {
            push(run, other, owner, i8::try_from(*inches).unwrap_or(i8::MAX));
        }
        TriggerEffect::Surge => {
            let Some(seat) = run.game.model(owner).map(|m| m.seat) else {
                return;
            };
            // Our reading: the lowest card of the hand goes for a new one.
            if let Some(low) = run
                .game
                .player(seat)
                .hand
                .iter()
                .min_by_key(|c| c.value())
                .copied()
            {
                run.emit(Fact::Discarded {
                    seat,
                    cards: vec![low],
                });
                run.draw(seat, 1);
            }
        }
        TriggerEffect::Condition { condition, value } => {
            gain_condition(run, other, condition, *value);
        }
        TriggerEffect::Heal { wounds } => heal(run, owner, *wounds),
    }
}

fn heal(run: &mut Run, id: ModelId, wounds: u8) {
    if run.game.model(id).is_some_and(Model::on_table) && wounds > 0 {
        run.emit(Fact::Healed { model: id, wounds });
    }
}

/// Gives a condition (the book says what it does): one it cancels is
/// removed instead; the same one does not stack, the higher value stays.
pub fn gain_condition(run: &mut Run, id: ModelId, name: &str, value: u8) {
    let Some(model) = run.game.model(id).filter(|m| m.on_table()).cloned() else {
        return;
    };
    let Some(rule) = run.game.conditions.rule(name).cloned() else {
        return;
    };
    if let Some(other) = &rule.cancels
        && model.condition(other) > 0
    {
        run.emit(Fact::ConditionSet {
            model: id,
            condition: other.clone(),
            value: 0,
        });
        return;
    }
    let value = value.max(1).max(model.condition(name));
    run.emit(Fact::ConditionSet {
        model: id,
        condition: name.to_owned(),
        value,
    });
}

#[allow(clippy::too_many_arguments)]
pub(super) fn spell_effects(
    run: &mut Run,
    activation: Option<Activation>,
    caster: ModelId,
    spell: u8,
    target: ModelId,
    from: u8,
    margin: i16,
    channel: bool,
) {
    let Some(card) = run
        .game
        .model(caster)
        .and_then(|m| m.card.spells.get(usize::from(spell)))
        .cloned()
    else {
        return run.resume(activation);
    };
    let mut activation = activation;
    for (i, effect) in card.effects.iter().enumerate().skip(usize::from(from)) {
        match effect {
            SpellEffect::Damage { damage } => {
                if !run.game.model(target).is_some_and(Model::on_table) {
                    continue;
                }
                let flip = DamageFlip {
                    source: Some(caster),
                    target,
                    damage: *damage,
                    kind: DamageKind::Spell,
                    twist: (margin_twist(margin) + i8::from(channel)).clamp(-3, 3),
                    added: 0,
                    flipped: Vec::new(),
                    card: Card::BLACK_JOKER,
                    cheated: false,
                    amount: None,
                    melee: false,
                };
                let then = Continuation::SpellEffects {
                    caster,
                    spell,
                    target,
                    from: u8::try_from(i + 1).unwrap_or(u8::MAX),
                    margin,
                    channel,
                };
                return start_damage(run, activation, flip, then);
            }
            SpellEffect::Heal { wounds } => heal(run, target, *wounds),
            SpellEffect::Push { inches } => push(run, target, caster, *inches),
            SpellEffect::Condition { condition, value } => {
                let before = run.game.model(target).map(|m| m.conditions.clone());
                gain_condition(run, target, condition, *value);
                if let Some(active) = activation.as_mut().filter(|a| a.model == target) {
                    adjust_points(run.game, active, before.unwrap_or_default());
                }
            }
            SpellEffect::Summon { model } => summon(run, caster, model),
        }
    }
    run.resume(activation);
}

/// The acting model's general action points follow a change of its
/// conditions at once ("its current activation").
fn adjust_points(game: &Skirmish, activation: &mut Activation, before: Vec<(String, u8)>) {
    let points = |conditions: &[(String, u8)]| -> i16 {
        conditions
            .iter()
            .filter_map(|(n, _)| game.conditions.rule(n))
            .map(|r| i16::from(r.general_ap))
            .sum()
    };
    let after = game
        .model(activation.model)
        .map(|m| m.conditions.clone())
        .unwrap_or_default();
    let change = points(&after) - points(&before);
    let general = (i16::from(activation.general_ap) + change).clamp(0, 4);
    activation.general_ap = u8::try_from(general).unwrap_or(0);
}

/// A disengaging strike: the model left behind strikes at the walker.
pub fn disengaging_strike(run: &mut Run, activation: Activation, striker: ModelId, to: Point) {
    let game = &*run.game;
    let (Some(enemy), Some(walker)) = (game.model(striker), game.model(activation.model)) else {
        return run.resume(Some(activation));
    };
    let cb = enemy
        .card
        .weapons
        .iter()
        .filter(|w| w.kind == super::card::WeaponKind::Melee)
        .map(|w| w.cb)
        .max()
        .unwrap_or(actions::BASH_CB);
    let actor = duelist(game, enemy, i16::from(cb), 0, None, Vec::new());
    let defence = duelist(
        game,
        walker,
        i16::from(walker.card.df),
        i8::from(walker.defensive),
        None,
        Vec::new(),
    );
    let duel = Duel {
        purpose: Purpose::Disengaging { to },
        actor,
        versus: Versus::Model {
            defender: Box::new(defence),
        },
        step: DuelStep::Changing { seat: enemy.seat },
        order: Vec::new(),
    };
    start(run, Some(activation), duel);
}

/// Ca against the spell's casting cost.
pub fn cast(run: &mut Run, activation: Activation, spell: u8, target: ModelId, channel: bool) {
    let game = &*run.game;
    let Some(caster) = game.model(activation.model) else {
        return run.resume(Some(activation));
    };
    let Some(card) = caster.card.spells.get(usize::from(spell)) else {
        return run.resume(Some(activation));
    };
    let triggers = card
        .triggers
        .iter()
        .filter(|t| t.stat == TriggerStat::Ca)
        .cloned()
        .collect();
    let actor = duelist(
        game,
        caster,
        i16::from(caster.card.ca),
        i8::from(channel),
        None,
        triggers,
    );
    let duel = Duel {
        purpose: Purpose::Cast {
            spell,
            target,
            channel,
        },
        actor,
        versus: Versus::Number {
            tn: i16::from(card.cc),
            suit: card.cc_suit,
            must_exceed: false,
        },
        step: DuelStep::Changing { seat: caster.seat },
        order: Vec::new(),
    };
    start(run, Some(activation), duel);
}

/// The Terrifying enemy in melee with a living model that it has not yet
/// stood up to.
pub fn terror_facing(game: &Skirmish, model: &Model) -> Option<ModelId> {
    if !model.card.is_living() {
        return None;
    }
    field::engaging(game, model)
        .find(|e| e.abilities_terrify() && !model.steeled_against.contains(&e.id))
        .map(|e| e.id)
}

fn terror_of(game: &Skirmish, terror: ModelId) -> i16 {
    game.model(terror)
        .and_then(|m| {
            m.card.abilities.iter().find_map(|a| match a {
                Ability::Terrifying { value } => Some(i16::from(*value)),
                _ => None,
            })
        })
        .unwrap_or(0)
}

/// A morale duel: Wp against the Terrifying model's number.
pub fn morale(
    run: &mut Run,
    activation: Option<Activation>,
    model: ModelId,
    terror: ModelId,
    then: Option<Box<Action>>,
) -> Result<(), RuleError> {
    let game = &*run.game;
    let Some(m) = game.model(model) else {
        return refuse("no such model");
    };
    let actor = duelist(game, m, i16::from(m.card.wp), 0, None, Vec::new());
    let duel = Duel {
        purpose: Purpose::Morale { terror, then },
        actor,
        versus: Versus::Number {
            tn: terror_of(game, terror),
            suit: None,
            must_exceed: false,
        },
        step: DuelStep::Changing { seat: m.seat },
        order: Vec::new(),
    };
    start(run, activation, duel);
    Ok(())
}

/// The Willpower duel an attacker of a Harmless model must win first.
pub fn harmless(
    run: &mut Run,
    activation: Activation,
    target: ModelId,
    then: Action,
) -> Result<(), RuleError> {
    let game = &*run.game;
    let Some(m) = game.model(activation.model) else {
        return refuse("no such model");
    };
    let actor = duelist(game, m, i16::from(m.card.wp), 0, None, Vec::new());
    let duel = Duel {
        purpose: Purpose::Harmless {
            target,
            then: Box::new(then),
        },
        actor,
        versus: Versus::Number {
            tn: HARMLESS_TN,
            suit: None,
            must_exceed: false,
        },
        step: DuelStep::Changing { seat: m.seat },
        order: Vec::new(),
    };
    start(run, Some(activation), duel);
    Ok(())
}
