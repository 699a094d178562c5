//! Abilities firing: at a window, every ability of the model that acts
//! there and whose condition holds fires in the order the card lists them.
//! Each fires as a fact (`AbilityUsed`) followed by its effects' facts.

use super::*;
use crate::ability::Selector;
use crate::damage::DamageAmount;

/// An effect the procedure that opened the window applies itself (damage
/// added or reduced), with the ability's name.
pub(super) type Returned = (Arc<str>, AbilityEffect);

impl Sim<'_> {
    /// Opens `window` for `model`'s abilities. `other` is the other model
    /// of the moment (`Selector::OtherModel`). Effects that change the game
    /// happen now; damage added or reduced is returned to the caller.
    pub(super) fn fire_abilities(
        &mut self,
        model: ModelId,
        window: AbilityWindow,
        situation: Situation,
        other: Option<ModelId>,
    ) -> Result<Vec<Returned>, RuleError> {
        let Some(m) = self.state.model(model) else {
            return Ok(Vec::new());
        };
        // Most cards have no ability at most windows: nothing is copied for them.
        if !m
            .card
            .abilities
            .iter()
            .any(|a| a.window == window && a.when.holds(situation))
        {
            return Ok(Vec::new());
        }
        let card = Arc::clone(&m.card);
        let owner = m.owner;
        let mut returned = Vec::new();
        for ability in card
            .abilities
            .iter()
            .filter(|a| a.window == window && a.when.holds(situation))
        {
            let name: Arc<str> = Arc::from(ability.name.as_str());
            self.emit(Event::AbilityUsed {
                model,
                name: Arc::clone(&name),
            })?;
            for effect in &ability.effects {
                let selected = |to: Selector| match to {
                    Selector::ThisModel => Some(model),
                    Selector::OtherModel => other,
                };
                match *effect {
                    AbilityEffect::AddDamage { .. } | AbilityEffect::ReduceDamage { .. } => {
                        returned.push((Arc::clone(&name), *effect));
                    }
                    AbilityEffect::FateModifier { by, to } => {
                        if let Some(role) = selected(to).and_then(|id| self.role_in_duel(id)) {
                            self.emit(Event::ModifierAdded {
                                role,
                                amount: by,
                                source: name.to_string().into(),
                            })?;
                        }
                    }
                    AbilityEffect::GainToken { token, to } => {
                        if let Some(id) = selected(to).filter(|id| self.in_play(*id)) {
                            self.gain_token(id, token, 1)?;
                        }
                    }
                    AbilityEffect::RemoveToken { token, to } => {
                        if let Some(id) = selected(to).filter(|id| self.in_play(*id)) {
                            self.remove_token(id, token, 0)?;
                        }
                    }
                    AbilityEffect::Heal { amount, to } => {
                        if let Some(id) = selected(to) {
                            self.heal(id, amount)?;
                        }
                    }
                    AbilityEffect::DealDamage {
                        amount,
                        to,
                        irreducible,
                    } => {
                        if let Some(id) = selected(to).filter(|id| self.in_play(*id)) {
                            self.queue(DamageInstance {
                                target: id,
                                source: name.to_string(),
                                credit: Some(model),
                                attacker: Some(owner),
                                amount: DamageAmount::Fixed { amount },
                                modifiers: 0,
                                raises: 0,
                                additions: Vec::new(),
                                tie: false,
                                cover: false,
                                irreducible,
                                infuse_on_kill: None,
                                batch: self.batch(),
                                from_ability: true,
                            })?;
                        }
                    }
                    AbilityEffect::DrawCards { count } => {
                        for _ in 0..count.min(MAX_DRAW) {
                            self.draw(owner)?;
                        }
                    }
                    AbilityEffect::InfuseSoulstone => {
                        self.emit(Event::SoulstoneInfused { seat: owner })?;
                    }
                }
            }
        }
        Ok(returned)
    }

    fn in_play(&self, id: ModelId) -> bool {
        self.state.model(id).is_some_and(|m| m.in_play())
    }

    /// The side `id` flips for in the current duel, if any.
    fn role_in_duel(&self, id: ModelId) -> Option<Role> {
        let duel = self.state.duel()?;
        [Role::Initiator, Role::Resister]
            .into_iter()
            .find(|role| duel.side(*role).is_some_and(|side| side.model == id))
    }

    /// Heals a model in play with health left (a killed model is not healed
    /// back here), up to its maximum.
    fn heal(&mut self, id: ModelId, amount: u8) -> Result<(), RuleError> {
        let Some(m) = self.state.model(id).filter(|m| m.in_play()) else {
            return Ok(());
        };
        let to = m
            .health
            .saturating_add(u16::from(amount))
            .min(m.card.max_health);
        if to == m.health || m.health == 0 {
            return Ok(());
        }
        self.emit(Event::HealthChanged {
            model: id,
            from: m.health,
            to,
        })
    }
}
