//! The end phase: the strategy's score or its claim, and the turn's end
//! (the next turn, or the game's end after the last).

use super::*;

impl Sim<'_> {
    /// End phase step B: the strategy scores, then what follows it.
    pub(super) fn score_strategy(&mut self) -> Result<(), RuleError> {
        let encounter = self.encounter()?;
        let strategy = encounter.setup.strategy.clone();
        let turn = encounter.turn;
        let first = encounter.initiative;
        // 3rd edition: no VP at all on turn 1.
        if turn < self.encounter_rules().first_scoring_turn {
            return self.next_scheme_step(None);
        }
        if strategy.scoring == StrategyScoring::Claimed {
            return self.step_to(Step::ClaimStrategy { seat: first });
        }
        let mut scorers = scoring::strategy_scorers(&self.state, encounter);
        scorers.sort_by_key(|s| *s != first);
        let doubled = strategy.double_on_turn == Some(turn);
        for seat in scorers {
            let vp = strategy.vp * if doubled { 2 } else { 1 };
            let amount = vp.min(self.vp_left(seat, false)?);
            if amount > 0 {
                self.emit(Event::StrategyScored { seat, amount })?;
            }
        }
        self.after_strategy()
    }

    /// What follows the strategy's scoring: a marker removed if the
    /// strategy says so, then the schemes.
    fn after_strategy(&mut self) -> Result<(), RuleError> {
        let encounter = self.encounter()?;
        let strategy = &encounter.setup.strategy;
        let first = encounter.initiative;
        let any_marker = self
            .state
            .markers
            .iter()
            .any(|m| m.kind == MarkerKind::Strategy);
        if strategy.after_scoring == Some(AfterScoring::FewestVpRemovesMarker) && any_marker {
            let vp = |s: Seat| self.state.player(s).victory_points;
            // On a tie the rules are silent: the player with initiative removes one.
            let seat = if vp(first.other()) < vp(first) {
                first.other()
            } else {
                first
            };
            return self.step_to(Step::RemoveStrategyMarker { seat });
        }
        self.next_scheme_step(None)
    }

    /// Step B's claims, initiative first: the next crew claims, or the
    /// step is over.
    fn after_strategy_claim(&mut self, claimant: Seat) -> Result<(), RuleError> {
        if claimant == self.encounter()?.initiative {
            return self.step_to(Step::ClaimStrategy {
                seat: claimant.other(),
            });
        }
        self.after_strategy()
    }

    /// `seat` claims `vp` for its strategy this turn: at most what the cap
    /// leaves.
    pub(super) fn claim_strategy(&mut self, seat: Seat, vp: u8) -> Result<(), RuleError> {
        let encounter = self.encounter()?;
        let most = self.encounter_rules().max_strategy_vp;
        let left = self.vp_left(seat, false)?;
        if vp > left {
            return refuse(format!(
                "a crew gains at most {most} VP from the strategy: claim {left} or less"
            ));
        }
        let name = encounter.setup.strategy.name.clone();
        self.emit(Event::VpClaimed {
            seat,
            objective: ClaimedObjective::Strategy { name },
            vp,
        })?;
        if vp == 0 {
            return self.after_strategy_claim(seat);
        }
        self.step_to(Step::AnswerClaim { seat: seat.other() })
    }

    /// The opponent answers the claim waiting for them; the claimed VP
    /// follow as the usual facts (a disputed scheme is revealed for none).
    pub(super) fn answer_claim(&mut self, confirmed: bool) -> Result<(), RuleError> {
        let Some(claim) = self.encounter()?.choices.claim.clone() else {
            return refuse("there is no claim to answer");
        };
        let claimant = claim.seat;
        self.emit(if confirmed {
            Event::ClaimConfirmed { seat: claimant }
        } else {
            Event::ClaimDisputed { seat: claimant }
        })?;
        let encounter = self.encounter()?;
        let vp = if confirmed { claim.vp } else { 0 };
        match claim.objective {
            ClaimedObjective::Strategy { .. } => {
                let amount = vp.min(self.vp_left(claimant, false)?);
                if amount > 0 {
                    self.emit(Event::StrategyScored {
                        seat: claimant,
                        amount,
                    })?;
                }
                self.after_strategy_claim(claimant)
            }
            ClaimedObjective::Scheme { scheme } => {
                let amount = vp.min(self.vp_left(claimant, true)?);
                if self.encounter_rules().schemes == SchemeRule::OneHeld {
                    self.emit(Event::SchemeRevealed {
                        seat: claimant,
                        scheme,
                        amount,
                    })?;
                    return self.next_scheme_step(Some(Step::RevealScheme { seat: claimant }));
                }
                // 3rd edition: a scheme revealed before scores again at the
                // end of the game; the crew may go on claiming.
                if encounter.choices.has_revealed(claimant, &scheme.name) {
                    self.emit(Event::SchemeScored {
                        seat: claimant,
                        scheme: scheme.name,
                        amount,
                    })?;
                } else {
                    self.emit(Event::SchemeRevealed {
                        seat: claimant,
                        scheme,
                        amount,
                    })?;
                }
                self.scheme_claims_from(claimant, true)
            }
        }
    }

    /// Whether this is the encounter's last turn.
    pub(super) fn last_turn(&self) -> bool {
        self.state
            .encounter
            .as_deref()
            .is_some_and(|e| e.turn >= self.encounter_rules().turns)
    }

    /// End phase steps F to H.
    pub(super) fn end_turn(&mut self) -> Result<(), RuleError> {
        let turn = self.encounter()?.turn;
        if turn >= self.encounter_rules().turns {
            self.step_to(Step::Over)?;
            self.emit(Event::SeedRevealed {
                seed: self.state.fairness.seed,
            })?;
            return self.emit(Event::GameEnded);
        }
        self.shuffle_both_decks()?;
        self.start_turn(turn + 1, None, None)
    }

    /// A command of the end phase: strategy markers and the strategy's claim.
    pub(super) fn end_phase_command(
        &mut self,
        seat: Seat,
        encounter: &Encounter,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let step = encounter.step;
        match (step, command) {
            (
                Step::RemoveStrategyMarker { seat: removing },
                PlayerCommand::RemoveStrategyMarker { marker },
            ) => {
                Self::require_seat(seat, removing)?;
                if !self
                    .state
                    .markers
                    .iter()
                    .any(|m| m.id == *marker && m.kind == MarkerKind::Strategy)
                {
                    return refuse("that is not a strategy marker");
                }
                self.emit(Event::MarkerRemoved { id: *marker })?;
                self.next_scheme_step(None)
            }
            (Step::ClaimStrategy { seat: claiming }, PlayerCommand::ClaimStrategy { vp }) => {
                Self::require_seat(seat, claiming)?;
                self.claim_strategy(seat, *vp)
            }
            (
                Step::AnswerClaim { seat: answering },
                PlayerCommand::ConfirmClaim | PlayerCommand::DisputeClaim,
            ) => {
                Self::require_seat(seat, answering)?;
                self.answer_claim(matches!(command, PlayerCommand::ConfirmClaim))
            }
            _ => wrong_step(step),
        }
    }
}
