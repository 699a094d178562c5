//! Damage (quick reference, "Damage Flip"; the errata's damage sequence):
//! the flip with its twists and the attacker's cheating, the bands, the
//! Red Joker's extra card, reductions (a spirit's half, then armor), the
//! soulstone prevention flip, wounds with Hard to Kill, and killing.

use super::actions::band;
use super::card::{Ability, Characteristic, Damage};
use super::duel::{cards_for, counted};
use super::facts::Fact;
use super::flow::Run;
use super::resolve::spell_effects;
use super::skirmish::{Activation, Continuation, DamageFlip, DamageKind, ModelId, Skirmish, Stage};
use crate::fate::Card;
use crate::{RuleError, Seat};

fn refuse<T>(message: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::not_allowed(message.into()))
}

/// The seat that flips (and may cheat) a damage flip: the source's.
pub fn damage_chooser(game: &Skirmish, flip: &DamageFlip) -> Seat {
    flip.source
        .and_then(|s| game.model(s))
        .map(|m| m.seat)
        .or_else(|| game.model(flip.target).map(|m| m.seat.other()))
        .unwrap_or(Seat::A)
}

pub fn start_damage(
    run: &mut Run,
    activation: Option<Activation>,
    mut flip: DamageFlip,
    then: Continuation,
) {
    let chooser = damage_chooser(run.game, &flip);
    flip.flipped = run.flip(chooser, cards_for(flip.twist));
    flip.card = counted(&flip.flipped, flip.twist).unwrap_or(Card::BLACK_JOKER);
    // The errata: a Black Joker on the damage flip deals no damage at all.
    if flip.card.is_black_joker() {
        return after_damage(run, activation, then);
    }
    if flip.twist >= 0 && !run.game.player(chooser).hand.is_empty() {
        return run.now(Stage::CheatingDamage {
            activation,
            flip: Box::new(flip),
            then: Box::new(then),
        });
    }
    settle_damage(run, activation, flip, then);
}

pub fn cheat_damage(
    run: &mut Run,
    activation: Option<Activation>,
    mut flip: DamageFlip,
    then: Continuation,
    cheat: Option<Card>,
) -> Result<(), RuleError> {
    if let Some(card) = cheat {
        let seat = damage_chooser(run.game, &flip);
        if !run.game.player(seat).hand.contains(&card) {
            return refuse(format!("{card} is not in your hand"));
        }
        run.emit(Fact::Cheated { seat, card });
        flip.card = card;
        flip.cheated = true;
    }
    settle_damage(run, activation, flip, then);
    Ok(())
}

fn by_band(damage: &Damage, card: Card) -> u8 {
    match band(card) {
        None => 0,
        Some(0) => damage.weak,
        Some(1) => damage.moderate,
        Some(_) => damage.severe,
    }
}

fn settle_damage(
    run: &mut Run,
    activation: Option<Activation>,
    mut flip: DamageFlip,
    then: Continuation,
) {
    let mut amount = by_band(&flip.damage, flip.card);
    if flip.card.is_red_joker() {
        // Severe, and another card's damage on top.
        let chooser = damage_chooser(run.game, &flip);
        let more = run.flip_one(chooser);
        amount = amount.saturating_add(by_band(&flip.damage, more));
    }
    amount = amount.saturating_add(flip.added);
    let Some(target) = run.game.model(flip.target).cloned() else {
        return after_damage(run, activation, then);
    };
    if amount > 0 {
        // The errata: a spirit halves damage that is not magical first,
        // then its armor applies.
        if target.card.is(Characteristic::Spirit) && flip.kind != DamageKind::Spell {
            amount = amount.div_ceil(2);
        }
        let reduction: u8 = target
            .card
            .abilities
            .iter()
            .map(|a| match (a, flip.kind) {
                (Ability::Armor { value }, _)
                | (Ability::Bulletproof { value }, DamageKind::Ranged)
                | (Ability::MagicResistant { value }, DamageKind::Spell) => *value,
                _ => 0,
            })
            .sum();
        amount = amount.saturating_sub(reduction).max(1);
    }
    flip.amount = Some(amount);
    if amount == 0 {
        return after_damage(run, activation, then);
    }
    if target.card.uses_soulstones() && run.game.player(target.seat).soulstones > 0 {
        return run.now(Stage::Preventing {
            activation,
            flip: Box::new(flip),
            then: Box::new(then),
        });
    }
    land(run, activation, &flip, then, amount);
}

pub fn prevent(
    run: &mut Run,
    activation: Option<Activation>,
    flip: DamageFlip,
    then: Continuation,
    soulstone: bool,
) -> Result<(), RuleError> {
    let mut amount = flip.amount.unwrap_or(0);
    if soulstone {
        let Some(seat) = run.game.model(flip.target).map(|m| m.seat) else {
            return refuse("no such model");
        };
        run.emit(Fact::SoulstoneSpent { seat });
        let card = run.flip_one(seat);
        let prevented = match card.value() {
            0 => 0,
            1..=5 => 1,
            6..=10 => 2,
            11..=13 => 3,
            _ => amount,
        };
        amount = amount.saturating_sub(prevented);
    }
    land(run, activation, &flip, then, amount);
    Ok(())
}

fn land(
    run: &mut Run,
    activation: Option<Activation>,
    flip: &DamageFlip,
    then: Continuation,
    amount: u8,
) {
    let by = flip
        .source
        .and_then(|s| run.game.model(s))
        .map(|m| (m.seat, flip.melee));
    wound(run, flip.target, amount, by);
    after_damage(run, activation, then);
}

fn after_damage(run: &mut Run, activation: Option<Activation>, then: Continuation) {
    match then {
        Continuation::Resume => run.resume(activation),
        Continuation::SpellEffects {
            caster,
            spell,
            target,
            from,
            margin,
            channel,
        } => spell_effects(
            run, activation, caster, spell, target, from, margin, channel,
        ),
    }
}

/// Wounds a model suffers; `by` is the attacker's seat and whether it was
/// a melee strike (Kidnap counts those).
pub fn wound(run: &mut Run, id: ModelId, amount: u8, by: Option<(Seat, bool)>) {
    let Some(model) = run.game.model(id).filter(|m| m.on_table()).cloned() else {
        return;
    };
    let mut amount = amount;
    if model.card.has(&Ability::HardToKill) && model.wounds_left >= 2 {
        amount = amount.min(model.wounds_left - 1);
    }
    if amount == 0 {
        return;
    }
    run.emit(Fact::Wounded {
        model: id,
        wounds: amount,
    });
    if run.game.model(id).is_some_and(|m| m.wounds_left == 0) {
        kill(run, id, by);
    }
}

/// Kills a model: it drops the treasure, and its totems die with it.
pub fn kill(run: &mut Run, id: ModelId, by: Option<(Seat, bool)>) {
    let Some(model) = run.game.model(id).cloned() else {
        return;
    };
    if model.carries_treasure {
        run.emit(Fact::TreasureDropped { model: id });
    }
    run.emit(Fact::Killed { model: id });
    if let Some((seat, true)) = by {
        let points = super::objectives::kidnapped(run.game, seat, id);
        if points > 0 {
            run.emit(Fact::SchemePointsScored { seat, points });
        }
    }
    let totems: Vec<ModelId> = run
        .game
        .on_table(model.seat)
        .filter(|m| m.card.totem_of.as_deref() == Some(model.card.name.as_str()))
        .map(|m| m.id)
        .collect();
    for totem in totems {
        kill(run, totem, None);
    }
}
