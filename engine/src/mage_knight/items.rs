//! Items (rulebook 669–692): weapons, armour and devices a warrior with
//! item slots wields. An item's points count toward the build total; it
//! is placed in its wielder's slot at deployment (the army says which
//! warrior); its wielder may drop it at the start of its player's turn,
//! before any action, and a warrior in base contact with a dropped item
//! picks it up with a special action. An eliminated wielder drops all it
//! holds where it stood. A relic (its number begins with "R") is one per
//! warrior and one per army; two items with the same requirement are
//! never wielded by one warrior.
//!
//! The seed prints no item card, so an item's effects are our building
//! blocks: bonuses to the wielder's values on every click, and abilities
//! added to every click.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::battlefield::{self, BASE_RADIUS, CONTACT};
use super::facts::{ActionKind, Fact};
use super::game::{Battle, Warrior, WarriorId};
use super::movement::ready_for_action;
use super::orders::Work;
use super::warrior::{Ability, AttackType, SpeedType, WarriorCard};
use crate::table::Point;
use crate::table::geometry::V2;
use crate::{RuleError, Seat};

/// An item token's radius, in inches (ours: the seed gives no size).
pub const TOKEN_RADIUS: f64 = 0.375;

/// What a warrior must have to wield an item (every field given).
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct Requirement {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack_type: Option<AttackType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_type: Option<SpeedType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faction: Option<String>,
    /// The least attack value on its starting click.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_attack: Option<u8>,
}

impl Requirement {
    /// Why `card` may not wield it, if it may not.
    pub fn unmet_by(&self, card: &WarriorCard) -> Option<String> {
        if let Some(kind) = self.attack_type
            && card.attack_type != Some(kind)
        {
            return Some(format!("a {} attack", kind.word()));
        }
        if let Some(kind) = self.speed_type
            && card.speed_type != kind
        {
            return Some(format!("the {} speed type", kind.word()));
        }
        if let Some(faction) = &self.faction
            && &card.faction != faction
        {
            return Some(format!("the {faction} faction"));
        }
        if let Some(least) = self.min_attack
            && card.dial.first().map_or(0, |c| c.attack) < least
        {
            return Some(format!("an attack value of {least} or more"));
        }
        None
    }
}

/// An item card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ItemCard {
    pub name: String,
    /// Its collector's number; a relic's begins with "R".
    pub number: String,
    pub points: u16,
    #[serde(default)]
    pub requires: Requirement,
    /// Added to the wielder's values on every click (a speed or range of
    /// 0 stays 0).
    #[serde(default)]
    pub speed: u8,
    #[serde(default)]
    pub attack: u8,
    #[serde(default)]
    pub defense: u8,
    #[serde(default)]
    pub damage: u8,
    #[serde(default)]
    pub range: u8,
    /// Shown on every click while it is wielded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<Ability>,
}

impl ItemCard {
    pub fn is_relic(&self) -> bool {
        self.number.starts_with('R')
    }

    /// What is wrong with the card, if anything, and in which field.
    pub fn problem(&self) -> Option<(&'static str, String)> {
        if self.points == 0 || self.points > 100 {
            return Some((
                "points",
                format!("{}: an item costs 1 to 100 points", self.name),
            ));
        }
        if [
            self.speed,
            self.attack,
            self.defense,
            self.damage,
            self.range,
        ]
        .iter()
        .any(|b| *b > 3)
        {
            return Some((
                "attack",
                format!("{}: an item adds at most 3 to a value", self.name),
            ));
        }
        if self.abilities.contains(&Ability::Demoralized)
            || self.abilities.contains(&Ability::Bombardment)
        {
            return Some((
                "abilities",
                format!(
                    "{}: an item gives armoured, fury, surefooted or mender",
                    self.name
                ),
            ));
        }
        None
    }

    /// The card with this item's bonuses and abilities on it.
    fn onto(&self, card: &mut WarriorCard) {
        if card.range > 0 {
            card.range = card.range.saturating_add(self.range);
        }
        for click in &mut card.dial {
            if click.speed > 0 {
                click.speed = click.speed.saturating_add(self.speed);
            }
            click.attack = click.attack.saturating_add(self.attack);
            click.defense = click.defense.saturating_add(self.defense);
            click.damage = click.damage.saturating_add(self.damage);
            for ability in &self.abilities {
                if !click.abilities.contains(ability) {
                    click.abilities.push(*ability);
                }
            }
        }
    }
}

/// The card a warrior fights with: its own with its items on it.
pub fn wielding(bare: &WarriorCard, items: &[ItemCard]) -> WarriorCard {
    let mut card = bare.clone();
    for item in items {
        item.onto(&mut card);
    }
    card
}

/// Why `card`, already wielding `held`, may not also wield `item`.
pub fn may_wield(card: &WarriorCard, held: &[ItemCard], item: &ItemCard) -> Result<(), String> {
    let name = &card.name;
    if usize::from(card.item_slots) <= held.len() {
        return Err(format!(
            "{name} has no free item slot ({} in all)",
            card.item_slots
        ));
    }
    if let Some(needs) = item.requires.unmet_by(card) {
        return Err(format!("{} needs a wielder with {needs}", item.name));
    }
    if item.is_relic() && held.iter().any(ItemCard::is_relic) {
        return Err(format!("{name} already wields a relic"));
    }
    if held.iter().any(|h| h.requires == item.requires) {
        return Err(format!(
            "{name} already wields an item with the same requirement as {}",
            item.name
        ));
    }
    Ok(())
}

/// An item in an army: its card and the warrior (by its place in the
/// army's warriors) that wields it from the start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wielded {
    pub item: ItemCard,
    pub wielder: u16,
}

/// Why an army's items cannot be fielded as given, if they cannot.
pub fn army_problem(warriors: &[WarriorCard], items: &[Wielded]) -> Option<String> {
    let mut held: Vec<Vec<ItemCard>> = vec![Vec::new(); warriors.len()];
    let mut relics = std::collections::BTreeSet::new();
    for wielded in items {
        if let Some(problem) = wielded.item.problem() {
            return Some(problem.1);
        }
        let Some(card) = warriors.get(usize::from(wielded.wielder)) else {
            return Some(format!(
                "{} is given to warrior {}, who is not in the army",
                wielded.item.name,
                wielded.wielder + 1
            ));
        };
        let slot = &mut held[usize::from(wielded.wielder)];
        if let Err(problem) = may_wield(card, slot, &wielded.item) {
            return Some(problem);
        }
        if wielded.item.is_relic() && !relics.insert(wielded.item.name.clone()) {
            return Some(format!(
                "the relic {} is in the army more than once",
                wielded.item.name
            ));
        }
        slot.push(wielded.item.clone());
    }
    None
}

/// An item dropped on the battlefield.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LooseItem {
    pub item: ItemCard,
    pub at: Point,
}

/// Drops item number `item` of `warrior`'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DropItem {
    pub warrior: WarriorId,
    pub item: u8,
}

/// A special action: `warrior` picks up dropped item number `item`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PickUpItem {
    pub warrior: WarriorId,
    pub item: u8,
}

/// Where a dropped item's token goes: in base contact with the warrior,
/// behind it (the `nth` of several spread around its rear).
pub fn token_spot(warrior: &Warrior, nth: usize) -> Point {
    let facing = f64::from(warrior.facing) + 180.0 + 50.0 * (nth as f64) * alternate(nth);
    let direction = V2::new(facing.to_radians().cos(), facing.to_radians().sin());
    let at = warrior
        .center()
        .plus(direction.scale(BASE_RADIUS + TOKEN_RADIUS));
    Point::from_v2(V2::new(
        at.x.clamp(TOKEN_RADIUS, battlefield::SIZE - TOKEN_RADIUS),
        at.y.clamp(TOKEN_RADIUS, battlefield::SIZE - TOKEN_RADIUS),
    ))
}

fn alternate(nth: usize) -> f64 {
    if nth.is_multiple_of(2) { 1.0 } else { -1.0 }
}

/// Checks a drop: at the start of the player's turn, before any action.
pub fn check_drop(
    battle: &Battle,
    seat: Seat,
    order: &DropItem,
) -> Result<(String, Point), RuleError> {
    let warrior = battle
        .warrior(order.warrior)
        .filter(|w| w.seat == seat && w.on_battlefield())
        .ok_or_else(|| {
            RuleError::not_allowed(format!(
                "warrior {} is not yours on the battlefield",
                order.warrior.0
            ))
        })?;
    if battle.army(seat).any(|w| w.acted) {
        return Err(RuleError::not_allowed(
            "items are dropped at the start of your turn, before any action",
        ));
    }
    let Some(item) = warrior.items.get(usize::from(order.item)) else {
        return Err(RuleError::invalid(format!(
            "{} wields {} items: there is no item {}",
            warrior.card.name,
            warrior.items.len(),
            order.item + 1
        )));
    };
    Ok((
        item.name.clone(),
        token_spot(warrior, battle.loose_items.len()),
    ))
}

/// Checks a pick-up.
pub fn check_pick_up(battle: &Battle, seat: Seat, order: &PickUpItem) -> Result<(), RuleError> {
    let warrior = ready_for_action(battle, seat, order.warrior)?;
    let name = &warrior.card.name;
    if warrior.has(Ability::Demoralized) {
        return Err(RuleError::not_allowed(format!(
            "{name} is demoralized and may only be given move actions"
        )));
    }
    let Some(loose) = battle.loose_items.get(usize::from(order.item)) else {
        return Err(RuleError::invalid(format!(
            "{} items lie on the battlefield: there is no item {}",
            battle.loose_items.len(),
            order.item + 1
        )));
    };
    if warrior.center().dist(loose.at.v2()) > BASE_RADIUS + TOKEN_RADIUS + CONTACT {
        return Err(RuleError::not_allowed(format!(
            "{name} is not in base contact with {}",
            loose.item.name
        )));
    }
    let bare = warrior.bare.as_deref().unwrap_or(&warrior.card);
    may_wield(bare, &warrior.items, &loose.item).map_err(RuleError::not_allowed)?;
    if loose.item.is_relic()
        && battle
            .army(seat)
            .any(|w| w.items.iter().any(|i| i.name == loose.item.name))
    {
        return Err(RuleError::not_allowed(format!(
            "the relic {} is already in your army",
            loose.item.name
        )));
    }
    Ok(())
}

/// The pick-up's special action.
pub(super) fn pick_up(work: &mut Work, order: &PickUpItem) {
    work.push(Fact::ActionGiven {
        warrior: order.warrior,
        kind: ActionKind::Special,
    });
    let name = work
        .battle
        .loose_items
        .get(usize::from(order.item))
        .map(|l| l.item.name.clone())
        .unwrap_or_default();
    work.push(Fact::ItemPickedUp {
        warrior: order.warrior,
        item: order.item,
        name,
    });
    work.finish_action(order.warrior);
}

/// Everything `warrior` wields, dropped where it stands (before it is
/// removed as eliminated).
pub(super) fn drop_all(work: &mut Work, warrior: WarriorId) {
    while let Some(w) = work.battle.warrior(warrior).filter(|w| !w.items.is_empty()) {
        let at = token_spot(w, work.battle.loose_items.len());
        let name = w.items[0].name.clone();
        work.push(Fact::ItemDropped {
            warrior,
            item: 0,
            name,
            at,
        });
    }
}

/// Applies a drop: the item leaves the warrior's slot for the battlefield.
pub(super) fn apply_drop(battle: &mut Battle, warrior: WarriorId, item: u8, at: Point) {
    let Some(w) = battle.warrior_mut(warrior) else {
        return;
    };
    if usize::from(item) >= w.items.len() {
        return;
    }
    let dropped = w.items.remove(usize::from(item));
    rearm(w);
    battle.loose_items.push(LooseItem { item: dropped, at });
}

/// Applies a pick-up: the item leaves the battlefield for the slot.
pub(super) fn apply_pick_up(battle: &mut Battle, warrior: WarriorId, item: u8) {
    if usize::from(item) >= battle.loose_items.len() {
        return;
    }
    let loose = battle.loose_items.remove(usize::from(item));
    if let Some(w) = battle.warrior_mut(warrior) {
        w.items.push(loose.item);
        rearm(w);
    }
}

/// The warrior's card again from its own and its items.
pub(super) fn rearm(warrior: &mut Warrior) {
    let bare = warrior
        .bare
        .get_or_insert_with(|| warrior.card.clone())
        .clone();
    warrior.card = Arc::new(wielding(&bare, &warrior.items));
}
