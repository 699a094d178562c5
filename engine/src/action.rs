//! From an action on a stat card to a duel: the engine works out what the
//! caller used to supply (skill, resist stat, cover, concealment, friendly
//! or enemy) from the acting model's card, the target and the table, and
//! refuses an action the rules do not allow before anything happens.
//!
//! What it checks (4th edition "Resolving Actions" and "Attack Actions",
//! with the 3rd edition differences): both models in play and on the table;
//! the action on the actor's card; an attack never targets its own model,
//! and in 4th edition never a friendly one; range measured as the edition
//! measures (a 4th edition target out of range is declared and fails); a melee action cannot reach a target higher than the
//! attacker's effective size (4th edition); line of sight; an engaged model
//! cannot declare a missile action; cover and concealment for attacks; in
//! 3rd edition a missile attack at an engaged model takes a negative
//! modifier (Friendly Fire).

use super::duel::{ActionKind, DuelSpec};
use super::error::RuleError;
use super::model::{ActionCard, Model, ModelId, TargetRestriction};
use super::state::GameState;
use super::table::{Board, Target, measure, sight};
use super::{Edition, Seat};

/// What an action asks for: who acts, which action on its card, and at
/// whom (none for an action with no target).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionRequest<'a> {
    pub actor: ModelId,
    pub action: &'a str,
    pub target: Option<ModelId>,
    /// The crew controlling the actor, when not its own (control). An
    /// enemy-controlled model may attack models friendly to it.
    pub controller: Option<Seat>,
}

impl<'a> ActionRequest<'a> {
    /// A model's own action, decided by its own crew.
    pub fn own(actor: ModelId, action: &'a str, target: Option<ModelId>) -> Self {
        ActionRequest {
            actor,
            action,
            target,
            controller: None,
        }
    }
}

/// 4th edition attack actions target enemy models only; a model its enemy
/// controls may attack its own crew.
pub(crate) fn attack_on_friend_refused(
    edition: Edition,
    action: &ActionCard,
    same_crew: bool,
    enemy_controlled: bool,
) -> bool {
    // An attack that says it targets friendly models (or allies) may.
    let states_otherwise = action
        .targets
        .iter()
        .any(|r| matches!(r, TargetRestriction::Friendly | TargetRestriction::Ally));
    action.resist.is_some()
        && edition.rules().actions.attacks_on_friends_refused
        && same_crew
        && !enemy_controlled
        && !states_otherwise
}

/// What declaring `request` comes to, once the rules allow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Declaration {
    /// The duel the action calls for.
    Duel(DuelSpec),
    /// 4th edition: the target is out of range. The action may still be
    /// declared, and fails at once (M4E Resolving Actions, step B-2, line
    /// 982): it counts against the action limit and its costs are paid.
    OutOfRange(String),
}

/// The duel `request` calls for, or why the rules refuse it (an action
/// out of range among them: it could never succeed).
pub fn duel_for(state: &GameState, request: &ActionRequest) -> Result<DuelSpec, RuleError> {
    match declaration(state, request)? {
        Declaration::Duel(duel) => Ok(duel),
        Declaration::OutOfRange(reason) => Err(RuleError::not_allowed(reason)),
    }
}

/// What declaring `request` comes to, or why the rules refuse it.
pub fn declaration(state: &GameState, request: &ActionRequest) -> Result<Declaration, RuleError> {
    let refuse = |reason: String| Err(RuleError::not_allowed(reason));
    let actor = state
        .model(request.actor)
        .filter(|m| m.in_play())
        .ok_or_else(|| RuleError::invalid(format!("model {} is not in play", request.actor.0)))?;
    let action: &ActionCard = actor
        .card
        .actions
        .iter()
        .find(|a| *a.name == *request.action)
        .ok_or_else(|| {
            RuleError::not_allowed(format!(
                "{} has no action called {:?}",
                actor.name(),
                request.action
            ))
        })?;
    let attack = action.resist.is_some();
    let edition = state.edition;
    // Chains of control end at a crew: the action is enemy-controlled when
    // that crew is not the actor's own.
    let enemy_controlled = request.controller.is_some_and(|crew| crew != actor.owner);

    if !action.summons.is_empty() {
        return summoning_duel(state, request, action, actor.owner).map(Declaration::Duel);
    }
    let Some(target_id) = request.target else {
        if attack {
            return refuse(format!("{} needs a target", action.name));
        }
        let mut duel = spec(action, request.actor, None, actor.owner, actor.owner);
        duel.controller = request.controller;
        return Ok(Declaration::Duel(duel));
    };
    let target = state
        .model(target_id)
        .filter(|m| m.in_play())
        .ok_or_else(|| RuleError::not_allowed(format!("model {} is not in play", target_id.0)))?;
    if let Some(reason) = target_refused(state, actor, target, action, enemy_controlled) {
        return refuse(reason);
    }

    // Range and reach first, from the two bases alone: most refused
    // targets are out of range, and building the table is the dear part.
    let (Some(actor_body), Some(target_body)) = (actor.body(), target.body()) else {
        return refuse("both models must be on the table".into());
    };
    if target_id != request.actor {
        if !measure::within_card_range(edition, &actor_body, &target_body, action.range) {
            let reason = format!(
                "{} is out of range: {} reaches {}\"",
                target.name(),
                action.name,
                action.range
            );
            // 3rd edition: the target must be within range to be declared
            // (M3E Actions, line 2012).
            if edition.rules().actions.target_in_range_to_declare {
                return refuse(reason);
            }
            // An engaged model still may not declare a missile action.
            let table = state.table();
            let board = Board::new(&table, edition);
            missile_while_engaged(&board, actor, action)?;
            return Ok(Declaration::OutOfRange(reason));
        }
        if action.kind == ActionKind::Melee
            && edition.rules().actions.melee_limited_by_height
            && !measure::melee_reaches(&actor_body, &target_body)
        {
            return refuse(format!(
                "{} stands too high above {} for a melee action",
                target.name(),
                actor.name()
            ));
        }
    }

    // Everything else is measured on the table.
    let table = state.table();
    let board = Board::new(&table, edition);
    let table_error = |e: super::table::TableError| RuleError::invalid(e.to_string());
    let (from, to) = (
        Target::Object(request.actor.object()),
        Target::Object(target_id.object()),
    );
    if target_id != request.actor
        && !action.ignores_line_of_sight
        && !sight::line_of_sight(&board, from, to).map_err(table_error)?
    {
        return refuse(format!(
            "{} has no line of sight to {}",
            actor.name(),
            target.name()
        ));
    }
    missile_while_engaged(&board, actor, action)?;

    let mut duel = spec(
        action,
        request.actor,
        Some(target_id),
        actor.owner,
        target.owner,
    );
    duel.controller = request.controller;
    // A trigger whose own restrictions the target breaks cannot be declared.
    duel.triggers.retain(|t| {
        t.targets
            .iter()
            .all(|r| meets_restriction(state, actor, target, r))
    });
    // An enemy-controlled action is not a friendly one: no relenting to it.
    duel.friendly &= !enemy_controlled;
    if attack {
        // Sight was settled above.
        sight::hindrances(&board, request.actor.object(), target_id.object())
            .map_err(table_error)?
            .apply_to(&mut duel);
        // 3rd edition Friendly Fire: shooting at an engaged model.
        if edition.rules().actions.friendly_fire
            && action.kind == ActionKind::Missile
            && !measure::engaged_with(&board, target_id.object())
                .map_err(table_error)?
                .is_empty()
        {
            duel.modifiers = duel.modifiers.saturating_sub(1);
        }
    }
    duel.validate().map_err(RuleError::invalid)?;
    Ok(Declaration::Duel(duel))
}

/// Why `target` cannot be the target of `action` at all, before range and
/// sight: itself (unless the action allows it), a friend of an attack (as
/// the edition reads it), or a restriction of the action it breaks.
fn target_refused(
    state: &GameState,
    actor: &Model,
    target: &Model,
    action: &ActionCard,
    enemy_controlled: bool,
) -> Option<String> {
    if !action.may_target_itself() && target.id == actor.id {
        return Some(format!("{} cannot attack itself", actor.name()));
    }
    if attack_on_friend_refused(
        state.edition,
        action,
        target.owner == actor.owner,
        enemy_controlled,
    ) {
        return Some(format!(
            "{} is friendly: attack actions target enemy models",
            target.name()
        ));
    }
    let broken = action
        .targets
        .iter()
        .find(|r| !meets_restriction(state, actor, target, r))?;
    Some(format!(
        "{} cannot be the target of {}: {}",
        target.name(),
        action.name,
        restriction_words(broken, target)
    ))
}

/// An engaged model cannot declare a missile action.
fn missile_while_engaged(
    board: &Board,
    actor: &Model,
    action: &ActionCard,
) -> Result<(), RuleError> {
    if action.kind != ActionKind::Missile {
        return Ok(());
    }
    let engaged = measure::engaged_with(board, actor.id.object())
        .map_err(|e| RuleError::invalid(e.to_string()))?;
    if engaged.is_empty() {
        return Ok(());
    }
    Err(RuleError::not_allowed(format!(
        "{} is engaged and cannot declare a missile action",
        actor.name()
    )))
}

/// A summoning action's simple duel: its TN is the lowest summon target
/// number among the models the crew may add now. A controlled model may
/// not summon, and an action that could add no model is refused.
fn summoning_duel(
    state: &GameState,
    request: &ActionRequest,
    action: &ActionCard,
    crew: Seat,
) -> Result<DuelSpec, RuleError> {
    if request.controller.is_some_and(|c| c != crew) {
        return Err(RuleError::not_allowed(format!(
            "a controlled model may not summon ({})",
            action.name
        )));
    }
    if request.target.is_some() {
        return Err(RuleError::not_allowed(format!(
            "{} summons: it has no target",
            action.name
        )));
    }
    let lowest = crate::procedure::summon_options(state, crew, action, None)
        .iter()
        .filter_map(|card| card.summon_tn)
        .min()
        .ok_or_else(|| {
            RuleError::not_allowed(format!(
                "{} could summon nothing: the crew already holds as many of each model as it may",
                action.name
            ))
        })?;
    let mut duel = spec(action, request.actor, None, crew, crew);
    duel.tn = Some(i16::from(lowest));
    duel.validate().map_err(RuleError::invalid)?;
    Ok(duel)
}

/// The duel an action's line describes, before the table adds to it.
fn spec(
    action: &ActionCard,
    actor: ModelId,
    target: Option<ModelId>,
    actor_owner: Seat,
    target_owner: Seat,
) -> DuelSpec {
    let opposed = action.resist.is_some() && target.is_some_and(|t| t != actor);
    let friendly = actor_owner == target_owner;
    DuelSpec {
        action: action.name.to_string(),
        initiator: actor,
        skill: action.skill,
        skill_suits: action.skill_suits,
        modifiers: 0,
        resister: target.filter(|_| opposed),
        resist_stat: action.resist.filter(|_| opposed),
        target: target.filter(|_| !opposed),
        tn: action.tn,
        tn_suits: action.tn_suits,
        kind: action.kind,
        targets_enemy: target.is_some() && !friendly,
        damage: action.damage,
        irreducible: action.irreducible,
        ignores: action.ignores.clone(),
        raise_value: 5,
        triggers: action.triggers.clone(),
        resist_triggers: Vec::new(),
        friendly: target.is_some() && friendly && target != Some(actor),
        own_tactical: action.resist.is_none(),
        cannot_cheat: false,
        cover: false,
        controller: None,
    }
}

/// Whether `target` meets one targeting restriction of an action or
/// trigger of `actor` (friend and enemy seen from the acting model).
pub(crate) fn meets_restriction(
    state: &GameState,
    actor: &Model,
    target: &Model,
    restriction: &TargetRestriction,
) -> bool {
    let friendly = target.owner == actor.owner;
    match restriction {
        TargetRestriction::Enemy => !friendly,
        TargetRestriction::Friendly => friendly,
        TargetRestriction::Ally => {
            friendly
                && (target.id == actor.id
                    || target
                        .card
                        .keywords
                        .iter()
                        .any(|k| actor.card.keywords.contains(k)))
        }
        TargetRestriction::Other => target.id != actor.id,
        TargetRestriction::NonLeader => !target.card.master && !state.leads_crew(target.id),
        TargetRestriction::Unique => target.card.unique,
        TargetRestriction::NonUnique => !target.card.unique,
        TargetRestriction::Only(what) => {
            target.name() == what.as_str()
                || *target.card.name == **what
                || target.card.keywords.iter().any(|k| k == what)
        }
    }
}

/// Why a target breaks `restriction`, in the words a player reads.
fn restriction_words(restriction: &TargetRestriction, target: &Model) -> String {
    match restriction {
        TargetRestriction::Enemy => "it must target an enemy model".into(),
        TargetRestriction::Friendly => "it must target a friendly model".into(),
        TargetRestriction::Ally => format!(
            "it must target an ally, and {} is not an ally (friendly, sharing a keyword)",
            target.name()
        ),
        TargetRestriction::Other => "it must target another model than the one acting".into(),
        TargetRestriction::NonLeader => "it is non-leader: no crew's leader and no master".into(),
        TargetRestriction::Unique => "it must target a unique model".into(),
        TargetRestriction::NonUnique => "it must target a model that is not unique".into(),
        TargetRestriction::Only(what) => format!("{what} only"),
    }
}
