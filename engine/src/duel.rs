//! Duels: what an action (or ability) asks of the models, and where a duel
//! in progress stands.

use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Seat;
use super::fate::{Card, Suit};
use super::flip::RevealedCards;
use super::limits::{MAX_DUEL_VALUE, MAX_NAME_LEN, MAX_TRIGGERS};
use super::model::ModelId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Stat {
    Df,
    Wp,
}

/// The action's type, as far as duels and damage care.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    #[default]
    Melee,
    Missile,
    Magic,
    Tactical,
}

/// A set of suits (a duel total's suits, a requirement).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Suits(u8);

impl Suits {
    pub fn none() -> Self {
        Self(0)
    }

    pub fn of(suit: Suit) -> Self {
        Self(1 << suit_bit(suit))
    }

    pub fn with(self, suit: Suit) -> Self {
        Self(self.0 | (1 << suit_bit(suit)))
    }

    pub fn union(self, other: Suits) -> Self {
        Self(self.0 | other.0)
    }

    pub fn without(self, other: Suits) -> Self {
        Self(self.0 & !other.0)
    }

    pub fn contains_all(self, required: Suits) -> bool {
        self.0 & required.0 == required.0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Suit> {
        Suit::ALL
            .into_iter()
            .filter(move |s| self.0 & (1 << suit_bit(*s)) != 0)
    }
}

fn suit_bit(suit: Suit) -> u8 {
    match suit {
        Suit::Rams => 0,
        Suit::Masks => 1,
        Suit::Tomes => 2,
        Suit::Crows => 3,
    }
}

impl Serialize for Suits {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Suits {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let suits = Vec::<Suit>::deserialize(deserializer)?;
        Ok(suits.into_iter().fold(Suits::none(), Suits::with))
    }
}

/// What a trigger does, for the effects the duel and damage rules touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TriggerEffect {
    /// After succeeding, this model attaches the upgrade the action's own
    /// `attach_upgrade` effect names (Special Dispensation: "this model",
    /// not the target).
    AttachActionsUpgradeToThisModel,
    /// When resolving: +N damage to the action's damage (additive).
    AddDamage { amount: u8 },
    /// When resolving: a separate damage instance of N to the target.
    InstanceDamage { amount: u8 },
    /// Immediately: the raise value becomes N.
    SetRaiseValue { value: u8 },
    /// After killing: the acting crew infuses a soulstone.
    InfuseOnKill,
    /// The target gains a token.
    TargetGainsToken { token: super::model::Token },
    /// After succeeding: the acting model takes this action again against
    /// the same target, as an additional action (Onslaught).
    TakeActionAgain,
    /// After succeeding: the acting model takes this action again against
    /// a model its controller chooses, not the one it just targeted.
    TakeActionAgainAtDifferentModel,
    /// After succeeding: the target declares an action the acting crew
    /// chooses, under its control.
    TargetTakesAction,
    /// After succeeding: another model (not the acting one) within
    /// `within` inches of the target, which the acting player picks, heals.
    AnotherModelHeals { amount: u8, within: u8 },
    /// After succeeding: the target is pushed `inches` directly away from
    /// the acting model (Shove Aside).
    PushTargetAway { inches: u8 },
    /// After succeeding: the acting model is placed within `inches` of
    /// where it stands; then, when `then_may_declare` names a kind, it may
    /// declare an action of that kind as an additional action (Ash on the
    /// Wind: a melee action).
    PlaceThisModel {
        inches: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        then_may_declare: Option<ActionKind>,
    },
    /// After succeeding: the acting model is placed in base contact with an
    /// enemy model within `within` inches that its player picks, then takes
    /// this action again against that model (Pouncing Strike). As an
    /// additional action it still places; only the new action is ignored.
    Pounce { within: u8 },
    /// Nothing the engine adjudicates (the effect is resolved outside the duel).
    Other,
}

impl TriggerEffect {
    /// Whether it queues an additional action.
    pub fn generates_action(&self) -> bool {
        matches!(
            self,
            TriggerEffect::TakeActionAgain
                | TriggerEffect::TakeActionAgainAtDifferentModel
                | TriggerEffect::TargetTakesAction
                | TriggerEffect::PlaceThisModel {
                    then_may_declare: Some(_),
                    ..
                }
        )
    }
}

/// When a trigger happens. A trigger whose text gives no timing is an
/// "after succeeding" one, in both editions (M4E line 1024, M3E line 1619).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum TriggerTiming {
    Immediately,
    WhenResolving,
    #[default]
    AfterSucceeding,
    AfterFailing,
    AfterKilling,
    AfterDamaging,
    AfterResolving,
}

impl TriggerTiming {
    /// Whether it resolves with the action's damage (before the damage is
    /// dealt), rather than once the action's damage and effects are done.
    pub fn with_the_damage(self) -> bool {
        matches!(
            self,
            TriggerTiming::Immediately | TriggerTiming::WhenResolving
        )
    }

    fn is_after_succeeding(&self) -> bool {
        *self == TriggerTiming::AfterSucceeding
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TriggerSpec {
    pub name: String,
    /// Suits the final duel total must contain.
    #[serde(default)]
    pub suits: Suits,
    /// Soulstones drained to declare it (a soulstone trigger needs no suit).
    #[serde(default)]
    pub soulstones: u8,
    /// When a target-gains-token effect happens (the other effects say
    /// when by what they do).
    #[serde(default, skip_serializing_if = "TriggerTiming::is_after_succeeding")]
    pub timing: TriggerTiming,
    pub effect: TriggerEffect,
    /// Its own targeting restrictions: it cannot be declared when the
    /// action's target breaks one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<crate::model::TargetRestriction>,
}

/// The damage an action deals on success.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DamageProfile {
    /// No damage ("-"): raises and additive damage add nothing.
    #[default]
    None,
    /// 4th edition: a fixed amount.
    Fixed { amount: u8 },
    /// 3rd edition: weak/moderate/severe by a damage flip, with the blast
    /// markers each band drops (2/3☄/4☄☄ is `blasts = [0, 1, 2]`).
    Flip {
        weak: u8,
        moderate: u8,
        severe: u8,
        #[serde(default, skip_serializing_if = "crate::damage::no_blasts")]
        blasts: [u8; 3],
    },
}

/// Everything a duel needs from the action and the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuelSpec {
    /// The action's name (for the log).
    #[serde(default)]
    pub action: String,
    pub initiator: ModelId,
    /// The initiator's Skl or stat for this duel.
    pub skill: i16,
    /// Suits built into the skill.
    #[serde(default)]
    pub skill_suits: Suits,
    /// Fate modifiers printed on the action or from the situation (+/−).
    #[serde(default)]
    pub modifiers: i8,
    /// The model that resists (an opposed duel) with this stat.
    #[serde(default)]
    pub resister: Option<ModelId>,
    #[serde(default)]
    pub resist_stat: Option<Stat>,
    /// A target model (for damage) when the duel is a simple duel.
    #[serde(default)]
    pub target: Option<ModelId>,
    #[serde(default)]
    pub tn: Option<i16>,
    #[serde(default)]
    pub tn_suits: Suits,
    #[serde(default)]
    pub kind: ActionKind,
    /// Whether the action targets an enemy model (Distracted, Entranced).
    #[serde(default)]
    pub targets_enemy: bool,
    #[serde(default)]
    pub damage: DamageProfile,
    #[serde(default)]
    pub irreducible: bool,
    /// Defensive categories its damage ignores.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignores: Vec<crate::model::Defense>,
    /// 4th edition raise value (5 unless an effect changes it).
    #[serde(default = "default_raise_value")]
    pub raise_value: u8,
    #[serde(default)]
    pub triggers: Vec<TriggerSpec>,
    /// 3rd edition: the resister's resistance triggers.
    #[serde(default)]
    pub resist_triggers: Vec<TriggerSpec>,
    /// The duel was generated by a friendly model: the other side may relent.
    #[serde(default)]
    pub friendly: bool,
    /// A tactical action the initiator declared itself (no relenting to it).
    #[serde(default)]
    pub own_tactical: bool,
    #[serde(default)]
    pub cannot_cheat: bool,
    /// The target has cover against this attack.
    #[serde(default)]
    pub cover: bool,
    /// The crew making the initiator's decisions (flips, cheating, costs)
    /// when it is not the model's own: an action under control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<crate::Seat>,
}

fn default_raise_value() -> u8 {
    5
}

impl DuelSpec {
    pub fn is_opposed(&self) -> bool {
        self.resister.is_some()
    }

    /// The model that takes the damage.
    pub fn damaged_model(&self) -> Option<ModelId> {
        self.resister.or(self.target)
    }

    pub fn validate(&self) -> Result<(), String> {
        let in_range = |v: i16| (-MAX_DUEL_VALUE..=MAX_DUEL_VALUE).contains(&v);
        if !in_range(self.skill) || self.tn.is_some_and(|tn| !in_range(tn)) {
            return Err(format!(
                "skills and TNs must be between -{MAX_DUEL_VALUE} and {MAX_DUEL_VALUE}"
            ));
        }
        if self.resister.is_some() != self.resist_stat.is_some() {
            return Err(
                "an opposed duel needs both a resister and the stat it resists with".into(),
            );
        }
        if self.resister.is_none() && self.tn.is_none() {
            return Err("a duel needs a resister, a TN, or both".into());
        }
        if self.resister == Some(self.initiator) {
            return Err("a model cannot resist its own duel".into());
        }
        if self.triggers.len() + self.resist_triggers.len() > MAX_TRIGGERS {
            return Err(format!("at most {MAX_TRIGGERS} triggers"));
        }
        if self.raise_value == 0 {
            return Err("the raise value must be at least 1".into());
        }
        if self.action.chars().count() > MAX_NAME_LEN
            || self
                .triggers
                .iter()
                .chain(&self.resist_triggers)
                .any(|t| t.name.trim().is_empty() || t.name.chars().count() > MAX_NAME_LEN)
        {
            return Err(format!("names are 1–{MAX_NAME_LEN} characters"));
        }
        if !(-10..=10).contains(&self.modifiers) {
            return Err("fate modifiers must be between -10 and 10".into());
        }
        Ok(())
    }
}

/// The two sides of a duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Initiator,
    Resister,
}

impl Role {
    pub fn index(self) -> usize {
        match self {
            Role::Initiator => 0,
            Role::Resister => 1,
        }
    }
}

/// One side of a duel in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    pub model: ModelId,
    /// The player who decides for this side.
    pub seat: Seat,
    /// The stat or skill the side flips with.
    pub base: i16,
    pub modifiers: i8,
    pub suits: Suits,
    pub relented: bool,
    pub modified: bool,
    pub empowered: bool,
    pub soulstone_spent: bool,
    /// Tokens this side spent on the duel (a 3rd edition Focused also
    /// helps the damage flip that follows).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spent: Vec<super::token::Token>,
    /// Cards this side revealed and has not yet chosen from.
    #[serde(default, skip_serializing_if = "<[Card]>::is_empty")]
    pub revealed: RevealedCards,
    pub card: Option<Card>,
    pub joker_suit: Option<Suit>,
    pub joker_suit_chosen: bool,
    pub flipped_black_joker: bool,
    pub flipped_red_joker: bool,
    pub cheat_decided: bool,
    /// Shared with the event that declared it: a duel is copied at every step.
    pub trigger: Option<Arc<str>>,
    pub trigger_decided: bool,
}

impl Side {
    pub fn new(model: ModelId, seat: Seat, base: i16, suits: Suits, modifiers: i8) -> Self {
        Self {
            model,
            seat,
            base,
            modifiers,
            suits,
            relented: false,
            modified: false,
            empowered: false,
            soulstone_spent: false,
            spent: Vec::new(),
            revealed: RevealedCards::new(),
            card: None,
            joker_suit: None,
            joker_suit_chosen: false,
            flipped_black_joker: false,
            flipped_red_joker: false,
            cheat_decided: false,
            trigger: None,
            trigger_decided: false,
        }
    }

    /// The duel total with the card now in the conflict.
    pub fn total(&self) -> i16 {
        self.base + self.card.map(|c| i16::from(c.value())).unwrap_or(0)
    }

    /// The suits of the duel total.
    pub fn all_suits(&self) -> Suits {
        let card_suit = self.card.and_then(|c| {
            if c.is_red_joker() {
                self.joker_suit
            } else {
                c.suit()
            }
        });
        match card_suit {
            Some(suit) => self.suits.with(suit),
            None => self.suits,
        }
    }
}

/// Where a duel stands; each step waits for a decision or moves on by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum DuelStep {
    /// Whether the other side relents (friendly duels only).
    Relent { role: Role },
    /// Step A: modifying the duel, one side after the other.
    Modify { role: Role },
    /// A spent token let the side look at its top card (secret: it is the deck's
    /// top card) and keeps or discards it.
    LookingAtTop { role: Role },
    /// Step B: every side that did not relent flips (moves on by itself).
    Flip,
    /// Step B: a side with a choice picks its card.
    Choose { role: Role },
    /// Step C: cheating, in order.
    Cheat { order: [Role; 2], next: u8 },
    /// A Red Joker in the conflict takes a suit (or none).
    JokerSuit { role: Role },
    /// Step E: triggers, in order.
    Triggers { order: [Role; 2], next: u8 },
    /// Steps F and G: the outcome (moves on by itself).
    Outcome,
}

impl DuelStep {
    /// The role whose player decides this step (none while the cards are
    /// flipped or the duel resolves): the one place that reads it from a step.
    pub fn deciding_role(self) -> Option<Role> {
        match self {
            DuelStep::Relent { role }
            | DuelStep::Modify { role }
            | DuelStep::LookingAtTop { role }
            | DuelStep::Choose { role }
            | DuelStep::JokerSuit { role } => Some(role),
            DuelStep::Cheat { order, next } | DuelStep::Triggers { order, next } => {
                order.get(usize::from(next)).copied()
            }
            DuelStep::Flip | DuelStep::Outcome => None,
        }
    }
}

/// A duel in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duel {
    /// Shared, not copied: a duel in progress is cloned at every step.
    pub spec: Arc<DuelSpec>,
    pub step: DuelStep,
    pub sides: Sides,
    pub raise_value: u8,
}

impl Duel {
    pub fn side(&self, role: Role) -> Option<&Side> {
        self.sides.get(role)
    }

    pub fn side_mut(&mut self, role: Role) -> Option<&mut Side> {
        self.sides.get_mut(role)
    }

    /// The side whose player decides the step now (none while the cards
    /// are flipped or the duel resolves).
    pub fn deciding_side(&self) -> Option<&Side> {
        self.side(self.step.deciding_role()?)
    }

    pub fn roles(&self) -> impl Iterator<Item = Role> + use<> {
        [Role::Initiator, Role::Resister]
            .into_iter()
            .take(self.sides.count())
    }

    // Where the duel goes after a fact: `apply` calls these, so the log
    // holds only what happened and never the duel's cursor.

    /// The first step: a friendly duel asks whether to relent, otherwise
    /// the initiator modifies.
    pub fn first_step(spec: &DuelSpec, friendly_simple_duels_relent: bool) -> DuelStep {
        // Who may relent: the resister of a friendly opposed duel; in 4th
        // edition also a model in a friendly simple duel it did not declare.
        if spec.friendly && spec.is_opposed() {
            DuelStep::Relent {
                role: Role::Resister,
            }
        } else if spec.friendly && friendly_simple_duels_relent && !spec.own_tactical {
            DuelStep::Relent {
                role: Role::Initiator,
            }
        } else {
            DuelStep::Modify {
                role: Role::Initiator,
            }
        }
    }

    /// Step A for the first side still modifying, else the flips.
    pub fn modify_or_flip(&self) -> DuelStep {
        self.roles()
            .find(|role| self.side(*role).is_some_and(|s| !s.modified))
            .map_or(DuelStep::Flip, |role| DuelStep::Modify { role })
    }

    /// The first side (initiator first) that still chooses its card.
    pub fn choosing(&self) -> Option<Role> {
        self.roles().find(|role| {
            self.side(*role)
                .is_some_and(|s| !s.relented && s.card.is_none())
        })
    }

    /// Cheating in order from slot `next`, skipping sides the duel lacks;
    /// after the last slot, the Red Joker's suit.
    pub fn cheat_from(&self, order: [Role; 2], next: u8) -> DuelStep {
        let present = |slot: u8| {
            order
                .get(usize::from(slot))
                .is_some_and(|role| self.side(*role).is_some())
        };
        let mut slot = next;
        while usize::from(slot) < order.len() && !present(slot) {
            slot += 1;
        }
        if usize::from(slot) < order.len() {
            DuelStep::Cheat { order, next: slot }
        } else {
            self.joker_suit_step()
        }
    }

    /// The lower current total cheats first; on a tie, the resister. A
    /// relenting side never counts as ahead.
    pub fn cheat_order(&self) -> [Role; 2] {
        let current = |side: &Side| {
            if side.relented {
                i16::MIN
            } else {
                side.total()
            }
        };
        match (self.side(Role::Initiator), self.side(Role::Resister)) {
            (Some(i), Some(r)) if current(i) >= current(r) => [Role::Resister, Role::Initiator],
            _ => [Role::Initiator, Role::Resister],
        }
    }

    /// The side whose Red Joker still needs a suit (the initiator when none
    /// does: the step then moves on by itself).
    pub fn joker_suit_step(&self) -> DuelStep {
        let role = self
            .roles()
            .find(|role| {
                self.side(*role).is_some_and(|s| {
                    s.card.is_some_and(|c| c.is_red_joker()) && !s.joker_suit_chosen
                })
            })
            .unwrap_or(Role::Initiator);
        DuelStep::JokerSuit { role }
    }

    /// Triggers in order from slot `next`: in 4th edition only the
    /// initiator declares (`slots` 1), in 3rd edition both; then the outcome.
    pub fn triggers_from(&self, next: u8, slots: u8) -> DuelStep {
        let order = [Role::Initiator, Role::Resister];
        let mut slot = next;
        while slot < slots
            && order
                .get(usize::from(slot))
                .is_some_and(|role| self.side(*role).is_none())
        {
            slot += 1;
        }
        if slot < slots && usize::from(slot) < order.len() {
            DuelStep::Triggers { order, next: slot }
        } else {
            DuelStep::Outcome
        }
    }
}

/// The initiator's side, and the resister's in an opposed duel. Stored
/// inline (a duel is copied at every step); its JSON form is a list of one
/// or two sides, initiator first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sides {
    initiator: Side,
    resister: Option<Side>,
}

impl Sides {
    pub fn new(initiator: Side, resister: Option<Side>) -> Self {
        Self {
            initiator,
            resister,
        }
    }

    pub fn get(&self, role: Role) -> Option<&Side> {
        match role {
            Role::Initiator => Some(&self.initiator),
            Role::Resister => self.resister.as_ref(),
        }
    }

    pub fn get_mut(&mut self, role: Role) -> Option<&mut Side> {
        match role {
            Role::Initiator => Some(&mut self.initiator),
            Role::Resister => self.resister.as_mut(),
        }
    }

    /// One for a simple duel, two for an opposed one.
    pub fn count(&self) -> usize {
        1 + usize::from(self.resister.is_some())
    }

    pub fn iter(&self) -> impl Iterator<Item = &Side> {
        std::iter::once(&self.initiator).chain(self.resister.as_ref())
    }
}

impl Serialize for Sides {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Sides {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut sides = Vec::<Side>::deserialize(deserializer)?.into_iter();
        match (sides.next(), sides.next(), sides.next()) {
            (Some(initiator), resister, None) => Ok(Self::new(initiator, resister)),
            _ => Err(serde::de::Error::custom("a duel has one or two sides")),
        }
    }
}

/// The outcome of a finished duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub success: bool,
    pub initiator_total: i16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resister_total: Option<i16>,
    /// An opposed tie (the initiator wins, damage is 1 less in 4th edition).
    pub tie: bool,
    /// 4th edition raises of the successful initiator.
    pub raises: u8,
    /// 3rd edition: initiator total minus resister total.
    pub margin: i16,
}

impl Outcome {
    /// An action's outcome when no duel was made: it succeeded at once (no
    /// resist, no TN) or failed at once (its target out of range).
    pub fn without_duel(success: bool) -> Self {
        Self {
            success,
            initiator_total: 0,
            resister_total: None,
            tie: false,
            raises: 0,
            margin: 0,
        }
    }
}

/// Final totals: a relenting resister's total equals the initiator's.
pub fn totals(duel: &Duel) -> (i16, Option<i16>) {
    let initiator = duel
        .side(Role::Initiator)
        .map(|s| if s.relented { 0 } else { s.total() })
        .unwrap_or(0);
    let resister = duel
        .side(Role::Resister)
        .map(|s| if s.relented { initiator } else { s.total() });
    (initiator, resister)
}

/// Steps F and G's outcome of `duel` with the cards now in the conflict:
/// the duel's resolution, and what the game page projects for a cheat.
pub fn outcome(duel: &Duel, rules: &crate::rules::DuelRules) -> Outcome {
    let spec = &duel.spec;
    let (initiator_total, resister_total) = totals(duel);
    let Some(initiator) = duel.side(Role::Initiator) else {
        return Outcome {
            success: false,
            initiator_total,
            resister_total,
            tie: false,
            raises: 0,
            margin: 0,
        };
    };
    let meets_tn = spec.tn.is_none_or(|tn| initiator_total >= tn)
        && initiator.all_suits().contains_all(spec.tn_suits);
    let beats_resister = resister_total.is_none_or(|r| initiator_total >= r);
    let success = meets_tn && beats_resister && !initiator.relented;
    let tie = success && resister_total == Some(initiator_total);
    let raises = if success {
        let baseline = match (resister_total, spec.tn) {
            (Some(r), Some(tn)) => r.max(tn),
            (Some(r), None) => r,
            (None, Some(tn)) => tn,
            (None, None) => initiator_total,
        };
        rules.raises(
            initiator_total - baseline,
            duel.raise_value,
            initiator.flipped_red_joker,
        )
    } else {
        0
    };
    Outcome {
        success,
        initiator_total,
        resister_total,
        tie,
        raises,
        margin: resister_total.map(|r| initiator_total - r).unwrap_or(0),
    }
}

/// The outcome if `role` put `card` into the conflict in place of its
/// card and nothing else changed (what cheating it would give).
pub fn outcome_if_cheated(
    duel: &Duel,
    role: Role,
    card: Card,
    rules: &crate::rules::DuelRules,
) -> Outcome {
    let mut then = duel.clone();
    if let Some(side) = then.side_mut(role) {
        side.card = Some(card);
    }
    outcome(&then, rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(model: u16) -> Side {
        Side::new(ModelId(model), Seat::A, 5, Suits::default(), 0)
    }

    #[test]
    fn sides_are_a_list_of_one_or_two_in_json() {
        let simple = Sides::new(side(1), None);
        let opposed = Sides::new(side(1), Some(side(2)));
        for sides in [simple, opposed] {
            let json = serde_json::to_value(&sides).unwrap();
            assert_eq!(json.as_array().map(Vec::len), Some(sides.count()));
            assert_eq!(serde_json::from_value::<Sides>(json).unwrap(), sides);
        }
        let three = serde_json::to_value(vec![side(1), side(2), side(3)]).unwrap();
        let refused = serde_json::from_value::<Sides>(three).unwrap_err();
        assert!(
            refused.to_string().contains("one or two sides"),
            "{refused}"
        );
        assert!(serde_json::from_value::<Sides>(serde_json::json!([])).is_err());
    }
}
