//! Hazardous terrain suffered by a moving or pushed model.

use super::*;

impl Sim<'_> {
    /// After an action (its after-resolving effects done), the actor
    /// suffers the hazardous terrain it moved through (`moved_through`,
    /// one name per piece) or is in now: 1 damage per piece, each piece
    /// once per action, and in 4th edition at most once per activation.
    /// Only inside an activation, which keeps the count; a model far from
    /// hazardous terrain costs one scan.
    pub(in crate::procedure) fn suffer_hazards(
        &mut self,
        model: ModelId,
        moved_through: Vec<String>,
    ) -> Result<(), RuleError> {
        self.suffer_hazards_as(model, moved_through, true)
    }

    /// A model pushed through hazardous terrain (`moved_through`) suffers
    /// it as [`Sim::suffer_hazards`] says, without the terrain it stands
    /// in: it was moved, it did not act there.
    pub(super) fn suffer_pushed_hazards(
        &mut self,
        model: ModelId,
        moved_through: Vec<String>,
    ) -> Result<(), RuleError> {
        self.suffer_hazards_as(model, moved_through, false)
    }

    fn suffer_hazards_as(
        &mut self,
        model: ModelId,
        mut moved_through: Vec<String>,
        acted: bool,
    ) -> Result<(), RuleError> {
        // Building a board is dear: only for a model that acted near a
        // hazard (a hazardous piece's bounds, or any hazardous aura).
        let near_terrain = |m: &crate::model::Model| {
            m.placement.is_some_and(|spot| {
                crate::table::near_hazard(
                    &self.state.terrain,
                    &self.state.markers,
                    spot,
                    m.card.base,
                )
            })
        };
        let near = acted
            && (self.state.model(model).is_some_and(near_terrain)
                || self.state.holds_hazardous_aura());
        if !near && moved_through.is_empty() {
            return Ok(());
        }
        let Some(suffered) = self.state.frames.iter().rev().find_map(|f| match f {
            Frame::Activation { hazards, .. } => Some(hazards),
            _ => None,
        }) else {
            return Ok(());
        };
        let suffered = suffered.clone();
        if self.state.model(model).is_none_or(|m| !m.on_table()) {
            return Ok(());
        }
        if near {
            let table = self.state.table();
            let board = Board::new(&table, self.state.edition);
            if let Ok(now_in) = crate::table::measure::hazards_while_acting(&board, model.object())
            {
                moved_through.extend(now_in);
            }
        }
        moved_through.sort();
        moved_through.dedup();
        let once_per_activation = self
            .state
            .edition
            .rules()
            .actions
            .hazard_once_per_activation;
        for terrain in moved_through {
            if once_per_activation && suffered.iter().any(|(m, t)| *m == model && *t == terrain) {
                continue;
            }
            // A piece or marker that names its effect gives its token; the
            // rest deal 1.
            let effect = self.hazard_effect(&terrain);
            // An Aura (Hazardous): a kill by it is its friendly crew's.
            let aura_crew = self
                .state
                .aura_areas()
                .iter()
                .find(|aura| aura.name == terrain)
                .and_then(|aura| aura.friendly_to);
            let source = format!("hazardous terrain ({terrain})");
            self.emit(Event::HazardSuffered { model, terrain })?;
            match effect {
                Some((token, crew)) => {
                    // Terrain of no crew gives an enemy token, from the
                    // other crew; a crew's markers give that crew's.
                    let from = match crew {
                        Some(crew) => crew,
                        None => self.model_owner(model)?.other(),
                    };
                    self.gain_token(model, token, 1, Some(from))?;
                }
                // Terrain belongs to no crew: no model is credited with a
                // kill; an aura's crew is.
                None => {
                    let mut damage = DamageInstance::fixed(model, source, 1, false, self.batch());
                    damage.credit_crew = aura_crew;
                    self.queue(damage)?
                }
            }
        }
        Ok(())
    }

    /// The token a hazardous piece or marker type called `name` gives, and
    /// the crew it belongs to: markers of one name count as one piece, so
    /// theirs is the crew that made them all (none if crews differ).
    fn hazard_effect(&self, name: &str) -> Option<(Token, Option<Seat>)> {
        if let Some(piece) = self.state.terrain.iter().find(|p| p.name == name) {
            return piece.hazard.map(|token| (token, None));
        }
        let token = self.state.marker_types.named(name)?.hazard?;
        let mut owners = self
            .state
            .markers
            .iter()
            .filter(|m| m.name == name)
            .map(|m| m.owner);
        let first = owners.next().flatten();
        let crew = first.filter(|seat| owners.all(|o| o == Some(*seat)));
        Some((token, crew))
    }
}
