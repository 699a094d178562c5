//! Abilities from building blocks: a stat card's ability is a timing
//! [`AbilityWindow`], a [`Condition`] and a list of [`AbilityEffect`]s, each
//! aimed by a [`Selector`]. The same blocks serve every card, so a new model
//! is data, never code. The procedures open a window; `procedure::ability`
//! finds the abilities that fire and resolves their effects.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::token::{Condition, Token};

/// The moments an ability can act at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AbilityWindow {
    /// Encounter Setup step L, once the decks are cut: effects that happen
    /// at the start of the game (the attacker orders them).
    StartOfGame,
    /// Start phase step D-3, after Assume Leadership (initiative first).
    StartPhase,
    /// The model's activation starts (after its tokens').
    ActivationStarted,
    /// The model's activation ends (after its tokens').
    ActivationEnded,
    /// The end phase of the turn (after the tokens').
    EndPhase,
    /// The model starts a duel with its own action, before either side
    /// modifies it.
    DuelStarted,
    /// An action's duel names the model as its target or resister, before
    /// either side modifies it.
    Targeted,
    /// The model's successful attack is working out its damage.
    AddingDamage,
    /// The model is about to suffer damage (after cover and named reductions).
    ReducingDamage,
    /// The model suffered damage and is still in play.
    Damaged,
    /// The model was killed (before its soulstone and remains).
    Killed,
    /// Always, while the model is in play: its `change_stat` effects hold
    /// for the models they select whenever a stat is read, and abilities
    /// of one name count once on a model however many models have them
    /// (Cumulative Abilities).
    Lasting,
}

/// Which models an effect acts on.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Selector {
    /// The model with the ability.
    #[default]
    ThisModel,
    /// The other model of the moment: the duel's other side or target, the
    /// model that dealt the damage, the killer.
    OtherModel,
    /// Every other model in play within `inches` of this model (0: in base
    /// contact), of a side and with a keyword if given. Measured on the
    /// table; a model off the table has none around it.
    ModelsWithin {
        inches: u8,
        #[serde(default)]
        side: SideFilter,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        keyword: Option<String>,
    },
}

/// Whose models a selector takes, seen from the model with the ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SideFilter {
    #[default]
    Any,
    Friendly,
    Enemy,
}

/// What an ability does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "effect", rename_all = "snake_case", deny_unknown_fields)]
pub enum AbilityEffect {
    /// A fate modifier on the duel side of the selected model (nothing if it
    /// has no side in the duel).
    FateModifier {
        by: i8,
        #[serde(default)]
        to: Selector,
    },
    /// The damage being worked out grows (at `adding_damage`).
    AddDamage { by: u8 },
    /// The damage about to be suffered shrinks, not below 1 unless
    /// `to_zero` (at `reducing_damage`).
    ReduceDamage {
        by: u8,
        #[serde(default)]
        to_zero: bool,
    },
    /// The selected model gains a token.
    GainToken {
        token: Token,
        #[serde(default)]
        to: Selector,
    },
    /// The selected model loses a token (all of its value).
    RemoveToken {
        token: Token,
        #[serde(default)]
        to: Selector,
    },
    /// The selected model heals.
    Heal {
        amount: u8,
        #[serde(default)]
        to: Selector,
    },
    /// The selected model suffers damage (resolved after what is resolving now).
    DealDamage {
        amount: u8,
        #[serde(default)]
        to: Selector,
        #[serde(default)]
        irreducible: bool,
    },
    /// The selected models are pushed directly away from this model.
    Push {
        inches: u8,
        #[serde(default = "other_model")]
        to: Selector,
    },
    /// The duel's raise value becomes this (`duel_started` and `targeted`).
    ChangeRaiseValue { value: u8 },
    /// A marker of this type (by name, from the edition's markers) is made
    /// where the model stood (`killed` only), friendly to its controller.
    MakeMarker { marker: String },
    /// Every marker of this type within `inches` of the model is removed.
    RemoveMarkers { marker: String, inches: u8 },
    /// The controllers of the selected models each discard this many cards
    /// of their choice (all they hold, if fewer).
    DiscardCards {
        count: u8,
        #[serde(default)]
        to: Selector,
    },
    /// "Discard cards or gain a token": each selected model's controller
    /// picks one of the two for it, among those it can resolve (enough
    /// cards in hand; a token it can gain). With only one, that one
    /// happens; with neither, nothing ("This or That" Choices).
    DiscardOrGainToken {
        count: u8,
        token: Token,
        #[serde(default)]
        to: Selector,
    },
    /// The model's controller draws cards.
    DrawCards { count: u8 },
    /// The model's controller infuses a soulstone.
    InfuseSoulstone,
    /// The model's controller drains a soulstone, if they have one.
    DrainSoulstone,
    /// The model's controller scores victory points.
    GainVictoryPoints { amount: u8 },
    /// The selected models' stat changes by `by` while this holds
    /// (`lasting` only; never below 0).
    ChangeStat {
        stat: crate::duel::Stat,
        by: i8,
        #[serde(default)]
        to: Selector,
    },
    /// A chain activation (at `activation_ended`): one of the selected
    /// friendly models that has not activated this turn may activate next,
    /// unless its crew has already activated two models in a row.
    OfferChainActivation {
        #[serde(default)]
        to: Selector,
    },
}

fn other_model() -> Selector {
    Selector::OtherModel
}

impl AbilityEffect {
    /// The windows the effect makes sense at (a card elsewhere is refused).
    pub fn fits(&self, window: AbilityWindow) -> bool {
        if (window == AbilityWindow::Lasting) != matches!(self, AbilityEffect::ChangeStat { .. }) {
            return false;
        }
        match self {
            AbilityEffect::FateModifier { .. } | AbilityEffect::ChangeRaiseValue { .. } => {
                matches!(window, AbilityWindow::DuelStarted | AbilityWindow::Targeted)
            }
            AbilityEffect::AddDamage { .. } => window == AbilityWindow::AddingDamage,
            AbilityEffect::ReduceDamage { .. } => window == AbilityWindow::ReducingDamage,
            AbilityEffect::MakeMarker { .. } => window == AbilityWindow::Killed,
            AbilityEffect::OfferChainActivation { .. } => window == AbilityWindow::ActivationEnded,
            // A discard waits for the player's choice on top of the stack;
            // while damage is being worked out nothing may wait.
            AbilityEffect::DiscardCards { .. } | AbilityEffect::DiscardOrGainToken { .. } => {
                !matches!(
                    window,
                    AbilityWindow::AddingDamage | AbilityWindow::ReducingDamage
                )
            }
            _ => true,
        }
    }
}

/// An ability of a stat card: at `window`, if `when` holds, `effects` in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    pub name: String,
    pub window: AbilityWindow,
    #[serde(default, skip_serializing_if = "is_always")]
    pub when: Condition,
    pub effects: Vec<AbilityEffect>,
    /// Used at most once per activation, turn or game by this model (it
    /// does not fire again until the limit starts over).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub once_per: Option<crate::model::OncePer>,
    /// Its defensive category, if it has one (a damage-reducing ability).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defense: Option<crate::model::Defense>,
}

fn is_always(condition: &Condition) -> bool {
    *condition == Condition::Always
}

/// An ability that fired and waits to resolve: the model, the ability's
/// place on its card, and the other model of the moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FiredAbility {
    pub model: crate::model::ModelId,
    pub index: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other: Option<crate::model::ModelId>,
}

/// What happens to the model a player picks (a `choose_model` frame).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum ModelChoice {
    Heal {
        amount: u8,
    },
    /// The enemy the acting model pounces on (`TriggerEffect::Pounce`).
    PounceOn,
    /// Plant Explosives: the model of the opposing crew that gains a
    /// killed carrier's `count` explosives tokens.
    GainExplosives {
        from: crate::model::ModelId,
        count: u8,
    },
}

impl ModelChoice {
    /// An action's after-succeeding effect (it waits inside the action,
    /// whose effects then count as resolved), not a kill's aftermath.
    pub fn inside_action(self) -> bool {
        !matches!(self, ModelChoice::GainExplosives { .. })
    }

    /// Whether the player may pick none (`decline_choice`): the rules say
    /// a model "may" gain a killed carrier's explosives.
    pub fn optional(self) -> bool {
        matches!(self, ModelChoice::GainExplosives { .. })
    }
}

/// What happens to the marker a player picks (a `choose_marker` frame).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum MarkerChoice {
    /// Turf War: the enemy strategy marker a kill turns neutral.
    Neutralise,
}

impl MarkerChoice {
    /// Whether the player may pick none (`decline_choice`): a Turf War
    /// kill "can" turn a marker.
    pub fn optional(self) -> bool {
        matches!(self, MarkerChoice::Neutralise)
    }
}

/// One side of a "this or that" choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "option", rename_all = "snake_case")]
pub enum EitherOption {
    Discard { count: u8 },
    GainToken { token: Token },
}

/// What the procedure that fired a batch does once every ability in it
/// has resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "then", rename_all = "snake_case")]
pub enum AfterAbilities {
    /// The activation of this model ends.
    EndActivation { model: crate::model::ModelId },
    /// Killed timing, steps 3 (Demise) to 6, for this model.
    FinishKilling {
        model: crate::model::ModelId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        credit: Option<crate::model::ModelId>,
        /// The crew credited when no model is (an enemy-controlled model).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        crew: Option<crate::Seat>,
    },
}

/// Abilities that fired at the same moment, resolving as the rules for
/// simultaneous effects say: the `first` player picks one of their models
/// and resolves its abilities in the order they choose, then another of
/// their models, then the other player does the same.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbilityBatch {
    pub pending: Vec<FiredAbility>,
    /// The active player (the acting model's controller).
    pub first: crate::Seat,
    /// The model whose abilities are being resolved, until it has none left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolving: Option<crate::model::ModelId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub then: Option<AfterAbilities>,
}
