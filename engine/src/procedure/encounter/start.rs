//! The start phase: initiative (given, or flipped with cheats), drawing
//! with a soulstone, leadership, discards and draws, and the effects at the
//! start of the game and of each turn.

use super::*;

/// Initiative flips in one start phase before a tie is left standing.
const MAX_INITIATIVE_FLIPS: usize = 20;

impl Sim<'_> {
    /// Both crews discard, then draw to their hand size in initiative
    /// order; the start phase goes on. False while a player decides.
    pub(super) fn advance_start_discard(&mut self) -> Result<bool, RuleError> {
        let encounter = self.encounter()?;
        let done = encounter.done;
        for seat in Seat::BOTH {
            // Nothing to discard is no decision.
            if !done[seat.index()] && self.state.player(seat).hand.is_empty() {
                self.emit(Event::DiscardedBeforeDrawing {
                    seat,
                    cards: Vec::new(),
                })?;
            }
        }
        if self.encounter()?.done != [true, true] {
            return Ok(false);
        }
        let first = self.encounter()?.initiative;
        for seat in [first, first.other()] {
            let max = usize::from(self.state.edition.max_hand());
            while self.state.player(seat).hand.len() < max {
                let before = self.state.player(seat).hand.len();
                self.draw(seat)?;
                if self.state.player(seat).hand.len() == before {
                    break;
                }
            }
        }
        match self.encounter_rules().initiative {
            InitiativeRule::GivenByLastActivator => self.leadership_step(None)?,
            InitiativeRule::Flip => self.soulstone_draw_from(first, true)?,
        }
        Ok(true)
    }

    pub(super) fn start_turn(
        &mut self,
        turn: u8,
        initiative: Option<Seat>,
        by: Option<Seat>,
    ) -> Result<(), RuleError> {
        self.emit(Event::TurnStarted { turn })?;
        match initiative {
            Some(seat) => {
                self.emit(Event::InitiativeSet { seat, by })?;
                self.step_to(Step::StartDiscard)
            }
            // 3rd edition: initiative is flipped for after the draw.
            None if self.encounter_rules().initiative == InitiativeRule::Flip => {
                self.step_to(Step::StartDiscard)
            }
            None => {
                // The player who did not activate the last model chooses.
                let last = self.encounter()?.last_activated_by;
                let chooser = last.map_or(self.encounter()?.setup.attacker, Seat::other);
                self.step_to(Step::GiveInitiative { chooser })
            }
        }
    }

    /// Start phase step D-2, initiative first: a crew with no master in
    /// play that has not yet done so may have a henchman assume leadership
    /// (it needs a soulstone to drain); then the activation phase.
    pub(in crate::procedure) fn leadership_step(
        &mut self,
        after: Option<Seat>,
    ) -> Result<(), RuleError> {
        let first = self.encounter()?.initiative;
        let order = [first, first.other()];
        let start = after
            .and_then(|seat| order.iter().position(|s| *s == seat))
            .map_or(0, |i| i + 1);
        for seat in &order[start..] {
            if self.encounter_rules().assume_leadership
                && !self.may_assume_leadership(*seat)?.is_empty()
            {
                return self.step_to(Step::AssumeLeadership { seat: *seat });
            }
        }
        // D-3: effects of the start phase, initiative first.
        if self.start_effects(AbilityWindow::StartPhase, first)? {
            return Ok(());
        }
        self.begin_activations()
    }

    /// The start phase's last step, then the activation phase. 3rd edition
    /// step E: the crew with fewer models in play gains the difference in
    /// pass tokens.
    pub(super) fn begin_activations(&mut self) -> Result<(), RuleError> {
        if self.encounter_rules().passing == PassingRule::PassTokens {
            let counts = Seat::BOTH.map(|seat| {
                self.state
                    .models
                    .iter()
                    .filter(|m| m.owner == seat && m.on_table())
                    .count()
            });
            for seat in Seat::BOTH {
                let (mine, theirs) = (counts[seat.index()], counts[seat.other().index()]);
                let count = u8::try_from(theirs.saturating_sub(mine)).unwrap_or(u8::MAX);
                if count > 0 {
                    self.emit(Event::PassTokensGained { seat, count })?;
                }
            }
        }
        self.step_to(Step::Activations)
    }

    /// The crews still to be asked, initiative first, from `seat` (itself
    /// too when `including`).
    pub(super) fn initiative_order_from(
        &self,
        seat: Seat,
        including: bool,
    ) -> Result<Vec<Seat>, RuleError> {
        let first = self.encounter()?.initiative;
        let order = [first, first.other()];
        let start = order
            .iter()
            .position(|s| *s == seat)
            .map_or(0, |i| if including { i } else { i + 1 });
        Ok(order[start..].to_vec())
    }

    /// 3rd edition start phase step B-2, initiative first: the next crew
    /// from `seat` (or after it) with a soulstone to spend may draw two
    /// cards with it; then the initiative flip.
    pub(super) fn soulstone_draw_from(
        &mut self,
        seat: Seat,
        including: bool,
    ) -> Result<(), RuleError> {
        for seat in &self.initiative_order_from(seat, including)? {
            if self.state.player(*seat).soulstones > 0 {
                return self.step_to(Step::SoulstoneDraw { seat: *seat });
            }
        }
        self.flip_initiative()
    }

    /// 3rd edition start phase step C: both players flip a card into the
    /// conflict; each may cheat it, the lower flip first (on a tie, the
    /// player with initiative); then the totals, pass tokens added, decide
    /// who chooses initiative, and a tie flips again.
    fn flip_initiative(&mut self) -> Result<(), RuleError> {
        // Ties are rare; a deck of identical values is not, so stop there:
        // the player who holds initiative keeps it.
        if usize::from(self.encounter()?.initiative_flips) >= MAX_INITIATIVE_FLIPS {
            let seat = self.encounter()?.initiative;
            self.emit(Event::InitiativeSet { seat, by: None })?;
            return self.initiative_settled();
        }
        for seat in Seat::BOTH {
            let revealed = self.reveal(seat, None, 1)?;
            let Some(card) = revealed.first().copied() else {
                return refuse("a deck has no card to flip for initiative");
            };
            self.choose(seat, None, card)?;
        }
        let [a, b] = self.initiative_cards()?;
        let lower = match a.value().cmp(&b.value()) {
            std::cmp::Ordering::Less => Seat::A,
            std::cmp::Ordering::Greater => Seat::B,
            std::cmp::Ordering::Equal => self.encounter()?.initiative,
        };
        self.initiative_cheat_from(lower, true)
    }

    /// The cards both players have in the conflict for initiative.
    fn initiative_cards(&self) -> Result<[Card; 2], RuleError> {
        let card = |seat: Seat| self.state.player(seat).conflict.as_slice().first().copied();
        match (card(Seat::A), card(Seat::B)) {
            (Some(a), Some(b)) => Ok([a, b]),
            _ => refuse("an initiative flip is missing its card"),
        }
    }

    /// Asks `seat` whether it cheats its initiative flip if it may (a card
    /// in hand, and not the Black Joker flipped); `first` says whether the
    /// other player is still to be asked. Then the flip is settled.
    fn initiative_cheat_from(&mut self, seat: Seat, first: bool) -> Result<(), RuleError> {
        let may = |sim: &Self, seat: Seat| {
            !sim.state.player(seat).hand.is_empty()
                && sim
                    .state
                    .player(seat)
                    .conflict
                    .as_slice()
                    .first()
                    .is_some_and(|c| !c.is_black_joker())
        };
        if may(self, seat) {
            return self.step_to(Step::InitiativeCheat { seat, first });
        }
        if first && may(self, seat.other()) {
            return self.step_to(Step::InitiativeCheat {
                seat: seat.other(),
                first: false,
            });
        }
        self.settle_initiative_flip()
    }

    /// The flip's cards, as cheated, go to the discard piles; the higher
    /// total (pass tokens added) chooses who has initiative, and a tie
    /// flips again.
    fn settle_initiative_flip(&mut self) -> Result<(), RuleError> {
        let [a, b] = self.initiative_cards()?;
        self.emit(Event::ConflictCleared {
            cards: vec![(Seat::A, a), (Seat::B, b)],
        })?;
        let tokens = self.encounter()?.pass_tokens;
        let totals = [
            a.value().saturating_add(tokens[0]),
            b.value().saturating_add(tokens[1]),
        ];
        self.emit(Event::InitiativeFlipped {
            cards: [a, b],
            totals,
        })?;
        match totals[0].cmp(&totals[1]) {
            std::cmp::Ordering::Greater => self.step_to(Step::GiveInitiative { chooser: Seat::A }),
            std::cmp::Ordering::Less => self.step_to(Step::GiveInitiative { chooser: Seat::B }),
            std::cmp::Ordering::Equal => self.flip_initiative(),
        }
    }

    /// `seat` cheats its initiative flip with `card` from its hand, or
    /// (none) declines; then the other player, or the flip is settled.
    pub(super) fn initiative_cheat(
        &mut self,
        seat: Seat,
        first: bool,
        card: Option<Card>,
    ) -> Result<(), RuleError> {
        match card {
            Some(card_in) => {
                if !self.state.player(seat).hand.contains(card_in) {
                    return Err(RuleError::CardNotInHand {
                        seat,
                        card: card_in.to_string(),
                    });
                }
                let Some(card_out) = self.state.player(seat).conflict.as_slice().first().copied()
                else {
                    return refuse("there is no card to replace");
                };
                self.emit(Event::Cheated {
                    seat,
                    role: None,
                    card_in,
                    card_out,
                })?;
            }
            None => self.emit(Event::CheatDeclined { role: None })?,
        }
        if first {
            return self.initiative_cheat_from(seat.other(), false);
        }
        self.settle_initiative_flip()
    }

    /// Fires every model's abilities of `window` (`first`'s crew first, as
    /// the rules order simultaneous effects) in a step of their own;
    /// false, with no fact, when none fires.
    pub(super) fn start_effects(
        &mut self,
        window: AbilityWindow,
        first: Seat,
    ) -> Result<bool, RuleError> {
        let mut order: Vec<(bool, ModelId)> = self
            .state
            .models
            .iter()
            .filter(|m| m.on_table())
            .map(|m| (m.owner != first, m.id))
            .collect();
        order.sort();
        let fired: Vec<_> = order
            .into_iter()
            .flat_map(|(_, model)| self.fired(model, window, Situation::default(), None))
            .collect();
        if fired.is_empty() {
            return Ok(false);
        }
        self.step_to(Step::StartEffects {
            game: window == AbilityWindow::StartOfGame,
        })?;
        self.resolve_batch(fired, first, None)?;
        Ok(true)
    }

    /// The henchmen of `seat` that may assume leadership now.
    pub(crate) fn may_assume_leadership(&self, seat: Seat) -> Result<Vec<ModelId>, RuleError> {
        let encounter = self.encounter()?;
        let on_table = |m: &&Arc<crate::model::Model>| m.owner == seat && m.on_table();
        let masters = self
            .state
            .models
            .iter()
            .filter(on_table)
            .any(|m| m.card.master);
        if masters
            || encounter.assumed_leadership[seat.index()].is_some()
            || self.state.player(seat).soulstones == 0
        {
            return Ok(Vec::new());
        }
        Ok(self
            .state
            .models
            .iter()
            .filter(on_table)
            .filter(|m| m.card.henchman)
            .map(|m| m.id)
            .collect())
    }

    /// A command of the start phase: initiative, leadership, the idol, the
    /// discards and draws.
    pub(super) fn start_phase_command(
        &mut self,
        seat: Seat,
        encounter: &Encounter,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let step = encounter.step;
        match (step, command) {
            (Step::GiveInitiative { chooser }, PlayerCommand::GiveInitiative { to }) => {
                Self::require_seat(seat, chooser)?;
                self.emit(Event::InitiativeSet {
                    seat: *to,
                    by: Some(seat),
                })?;
                match self.encounter_rules().initiative {
                    InitiativeRule::GivenByLastActivator => self.step_to(Step::StartDiscard),
                    // The flip came after the draw: the start phase goes on.
                    InitiativeRule::Flip => self.initiative_settled(),
                }
            }
            (
                Step::AssumeLeadership { seat: deciding },
                PlayerCommand::AssumeLeadership { model },
            ) => {
                Self::require_seat(seat, deciding)?;
                if !self.may_assume_leadership(seat)?.contains(model) {
                    return refuse(
                        "only a henchman of a crew with no master in play may assume leadership, once a game, draining a soulstone",
                    );
                }
                self.emit(Event::SoulstoneSpent {
                    seat,
                    purpose: "assume leadership".into(),
                    role: None,
                })?;
                self.emit(Event::LeadershipAssumed {
                    seat,
                    model: Some(*model),
                })?;
                self.leadership_step(Some(seat))
            }
            (Step::AssumeLeadership { seat: deciding }, PlayerCommand::DeclineLeadership) => {
                Self::require_seat(seat, deciding)?;
                self.emit(Event::LeadershipAssumed { seat, model: None })?;
                self.leadership_step(Some(seat))
            }
            (
                Step::InitiativeCheat {
                    seat: cheating,
                    first,
                },
                command,
            ) if matches!(
                command,
                PlayerCommand::Cheat { .. } | PlayerCommand::DeclineCheat
            ) =>
            {
                Self::require_seat(seat, cheating)?;
                let card = match command {
                    PlayerCommand::Cheat { card } => Some(*card),
                    _ => None,
                };
                self.initiative_cheat(seat, first, card)
            }
            (Step::SoulstoneDraw { seat: drawing }, command)
                if matches!(
                    command,
                    PlayerCommand::DrawWithSoulstone | PlayerCommand::DeclineSoulstoneDraw
                ) =>
            {
                Self::require_seat(seat, drawing)?;
                if encounter.done[seat.index()] {
                    return refuse("you have decided already");
                }
                let drew = *command == PlayerCommand::DrawWithSoulstone;
                if drew {
                    if self.state.player(seat).soulstones == 0 {
                        return refuse("you have no soulstone to spend");
                    }
                    self.emit(Event::SoulstoneSpent {
                        seat,
                        purpose: "to draw two cards".into(),
                        role: None,
                    })?;
                    // Then down to the hand size, as any draw over it.
                    for _ in 0..2 {
                        self.draw(seat)?;
                    }
                }
                self.emit(Event::SoulstoneDrawDecided { seat, drew })
            }
            (Step::StartDiscard, PlayerCommand::DiscardBeforeDrawing { cards }) => {
                if encounter.done[seat.index()] {
                    return refuse("you have already discarded this start phase");
                }
                let mut unique = cards.clone();
                unique.sort();
                unique.dedup();
                if unique.len() != cards.len() {
                    return refuse("a card is named twice");
                }
                if let Some(card) = cards
                    .iter()
                    .find(|c| !self.state.player(seat).hand.contains(**c))
                {
                    return refuse(format!("{card} is not in your hand"));
                }
                self.emit(Event::DiscardedBeforeDrawing {
                    seat,
                    cards: cards.clone(),
                })
            }
            (
                Step::DropIdol {
                    seat: dropping,
                    suit,
                },
                PlayerCommand::DropIdol { at },
            ) => {
                Self::require_seat(seat, dropping)?;
                self.choose_idol_spot(seat, suit, *at)
            }
            _ => wrong_step(step),
        }
    }
}
