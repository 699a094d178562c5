//! The procedures and `decide`. Each procedure (a frame on the state's
//! stack) has its own module with its start, its automatic steps and the
//! player commands it accepts; this module dispatches a command to the
//! innermost frame and runs automatic steps until the game waits again.
//!
//! `decide`: checks a command against the rules and works out every event
//! it causes, running the automatic steps that follow until the game waits
//! for a decision again. It applies each event with `apply` as it goes (on a
//! copy for `decide`, in place for `execute`), so the events alone reproduce
//! the state.

use std::sync::Arc;

mod ability;
pub(crate) use ability::batch_options;
mod action;
pub(crate) use action::{drawable_from_discard, pounce_spots};
mod activation;
mod assist;
pub(crate) use assist::{assist_commands, assist_refusal};
mod contributions;
mod damage;
pub(crate) use damage::{best_blast_spot, blast_spots};
mod disengage;
pub(crate) use disengage::strikes;
mod duel;
mod encounter;
pub(crate) use encounter::{
    claimable_schemes, deployable, encounter_candidates, encounter_choices, explosives_beside,
    explosives_choice, explosives_placeable, general_commands, marker_spot_crowded,
    out_of_pass_tokens, scheme_checked_and_met, scheme_marker_beside, scheme_marker_choice,
    scheme_marker_offset, scheme_marker_sets, selectable,
};

/// The acting model's action limit in an encounter (0 outside one).
pub(crate) fn action_limit(state: &GameState, model: ModelId) -> u8 {
    Sim::action_limit(state, model)
}

/// Whether the acting model may take its card action `action` (as its
/// signature action or not) as far as its limits go: the first check the
/// activation makes of it.
pub(crate) fn card_action_allowed(
    state: &GameState,
    encounter: &crate::encounter::Encounter,
    model: &crate::model::Model,
    action: &crate::model::ActionCard,
    signature: bool,
    normal: Result<crate::event::ActionSlot, encounter::SlotRefused>,
) -> bool {
    Sim::card_action_limits_of(state, encounter, model, action, signature, || normal).is_ok()
}

/// Whether the acting model has a normal action left (general actions
/// always take one), and the slot it takes.
pub(crate) fn normal_limits(
    state: &GameState,
    model: ModelId,
) -> Result<crate::event::ActionSlot, encounter::SlotRefused> {
    Sim::normal_limits(state, model)
}

mod flip;
mod hand_limit;
mod idols;
pub(crate) use idols::idol_spots;
mod summon;

// Each procedure applies its own facts; `state::apply` routes them.
pub(crate) use ability::apply_ability_facts;
pub(crate) use action::{apply_action_facts, apply_choice_facts};
pub(crate) use activation::apply_activation_facts;
pub(crate) use assist::apply_assist_facts;
pub(crate) use damage::apply_damage_facts;
pub(crate) use disengage::apply_disengage_facts;
pub(crate) use duel::apply_duel_facts;
pub(crate) use encounter::apply_encounter_facts;
pub(crate) use flip::apply_flip_facts;
pub(crate) use hand_limit::apply_hand_limit_facts;
pub(crate) use summon::apply_summon_facts;
pub(crate) use summon::{Beside, new_model_spots, summon_options};

use crate::Seat;
use crate::ability::{AbilityEffect, AbilityWindow, AfterAbilities};
use crate::command::{Boost, FlowCommand, PlayerCommand, Submission};
use crate::damage::{
    DamageAmount, DamageInstance, DamageProgress, DamageStage, accuracy, band, blast_damage,
    flip_band, flip_damage,
};
use crate::duel::{DamageProfile, Duel, DuelStep, Outcome, Role, Side, TriggerEffect, TriggerSpec};
use crate::error::RuleError;
use crate::event::{DamageReport, Event};
use crate::fate::Card;
use crate::flip::{RevealedCards, allowed_choices, reveal_count};
use crate::hidden::Hidden;
use crate::limits::{
    MAX_DRAW, MAX_EVENTS_PER_COMMAND, MAX_FRAMES, MAX_QUEUED_DAMAGE, MAX_REVEALED, MAX_TOKEN_VALUE,
};
use crate::model::ModelId;
use crate::rules::{DuelBoost, GeneralAction, Rules, TokenGain};
use crate::state::{DiscardReason, Frame, GameState, apply};
use crate::token::{Effect, Situation, Token, TokenBook, Tokens, Window};

/// See the module documentation.
pub fn decide(state: &GameState, submission: &Submission) -> Result<Vec<Event>, RuleError> {
    check_version(state, submission)?;
    work_out(state, submission).map(|(_, events)| events)
}

/// [`decide`], keeping the state the facts lead to.
pub(crate) fn decide_state(
    state: &GameState,
    submission: &Submission,
) -> Result<(Box<GameState>, Vec<Event>), RuleError> {
    check_version(state, submission)?;
    let (after, facts) = work_out(state, submission)?;
    Ok((after.into_owned(), facts))
}

/// See [`crate::execute`].
pub fn execute(state: &mut GameState, submission: &Submission) -> Result<Vec<Event>, RuleError> {
    check_version(state, submission)?;
    let (after, events) = work_out(state, submission)?;
    // A command with no fact leaves the state as it was: nothing to copy.
    if let Some(after) = after.copy {
        *state = *after;
    }
    Ok(events)
}

/// The state a command works on: the caller's until the first fact, then
/// a copy of its own. The copy is boxed: it changes hands several times
/// (a bot's probe keeps it until the command is sent) before it becomes
/// the game's state, and moving a pointer is cheaper than moving a state.
struct Working<'a> {
    original: &'a GameState,
    copy: Option<Box<GameState>>,
}

impl Working<'_> {
    fn to_mut(&mut self) -> &mut GameState {
        let original = self.original;
        self.copy.get_or_insert_with(|| Box::new(original.clone()))
    }

    fn into_owned(self) -> Box<GameState> {
        let original = self.original;
        self.copy.unwrap_or_else(|| Box::new(original.clone()))
    }
}

impl std::ops::Deref for Working<'_> {
    type Target = GameState;

    fn deref(&self) -> &GameState {
        self.copy.as_deref().unwrap_or(self.original)
    }
}

fn check_version(state: &GameState, submission: &Submission) -> Result<(), RuleError> {
    if submission.version() != state.version {
        return Err(RuleError::StaleVersion {
            made_for: submission.version(),
            current: state.version,
        });
    }
    Ok(())
}

/// Runs the command and the automatic steps after it: the state they lead
/// to, and their events. The state is copied at the first event, so a
/// command refused before it changes anything (most of those a bot tries)
/// costs no copy, and the caller's state is never left part way.
fn work_out<'a>(
    state: &'a GameState,
    submission: &Submission,
) -> Result<(Working<'a>, Vec<Event>), RuleError> {
    let mut sim = Sim {
        state: Working {
            original: state,
            copy: None,
        },
        // A duel step causes a handful of events, a trigger or a kill a
        // dozen or so: one allocation, seldom a regrowth.
        events: Vec::with_capacity(16),
    };
    match submission {
        Submission::Player { seat, command, .. } => sim.player_command(*seat, command)?,
        Submission::Flow { command, .. } => sim.flow_command(command)?,
    }
    sim.advance()?;
    Ok((sim.state, sim.events))
}

/// What modifying a duel reads of the model, without copying its name.
struct ModelFacts {
    id: ModelId,
    tokens: Tokens,
    soulstone_user: bool,
}

/// The innermost frame a command arrives in, without the parts it does not need.
enum FrameNow {
    None,
    Contributions,
    Duel(DuelStep),
    Damage(DamageStage),
    Discard(Seat, u8, DiscardReason),
    Flip(crate::flip::FlipStage),
    Abilities,
    Either,
    ChooseModel,
    ChooseMarker,
    Place,
    Replace,
    Summon,
    Blasts,
    Move,
    Disengage,
    KillUnlessPaid,
    DrawFromDiscard,
}

struct Sim<'a> {
    state: Working<'a>,
    events: Vec<Event>,
}

fn refuse<T>(reason: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::not_allowed(reason))
}

impl Sim<'_> {
    fn emit(&mut self, event: Event) -> Result<(), RuleError> {
        if self.events.len() >= MAX_EVENTS_PER_COMMAND {
            return Err(RuleError::Limit {
                reason: "one command caused too many events".into(),
            });
        }
        apply(self.state.to_mut(), &event);
        self.events.push(event);
        Ok(())
    }

    /// The rules of the game's edition.
    fn rules(&self) -> &'static Rules {
        self.state.edition.rules()
    }

    /// The game's tokens.
    fn book(&self) -> &TokenBook {
        &self.state.tokens
    }

    /// A token's name as the rules write it.
    fn token_name(&self, token: Token) -> String {
        self.book().name(token)
    }

    /// Opens a timing window for `model`'s tokens: the effects that change
    /// the game (fate modifiers on `role`, tokens removed) happen now; the
    /// others (what is forbidden, damage added or reduced) are returned for
    /// the procedure to use.
    fn open_window(
        &mut self,
        model: ModelId,
        role: Option<Role>,
        window: Window,
        situation: Situation,
    ) -> Result<Vec<(Token, Effect)>, RuleError> {
        let Some(m) = self.state.model(model) else {
            return Ok(Vec::new());
        };
        let effects = self.book().effects_at(&m.tokens, window, situation);
        let mut rest = Vec::new();
        for (token, effect) in effects {
            match (effect, role) {
                (Effect::Remove { by }, _) => self.remove_token(model, token, by)?,
                (Effect::FateModifier { by }, Some(role)) => self.emit(Event::ModifierAdded {
                    role,
                    amount: by,
                    source: self.token_name(token).into(),
                })?,
                (effect, _) => rest.push((token, effect)),
            }
        }
        Ok(rest)
    }

    /// Removes `by` of a token the model holds (`by` 0: all of it).
    fn remove_token(&mut self, model: ModelId, token: Token, by: u8) -> Result<(), RuleError> {
        let held = self.state.model(model).map_or(0, |m| m.tokens.value(token));
        let by = if by == 0 { held } else { by.min(held) };
        if by == 0 {
            return Ok(());
        }
        self.emit(Event::TokenRemoved { model, token, by })
    }

    /// The token of `model` that has `wanted` at `window`, without acting.
    fn token_with_effect(
        &self,
        model: ModelId,
        window: Window,
        situation: Situation,
        wanted: Effect,
    ) -> Option<Token> {
        let tokens = &self.state.model(model)?.tokens;
        self.book()
            .effects_at(tokens, window, situation)
            .into_iter()
            .find(|(_, effect)| *effect == wanted)
            .map(|(token, _)| token)
    }

    fn duel(&self) -> Result<&Duel, RuleError> {
        self.state.duel().ok_or(RuleError::NothingPending)
    }

    fn side(&self, role: Role) -> Result<&Side, RuleError> {
        self.duel()?.side(role).ok_or(RuleError::NothingPending)
    }

    fn require_seat(by: Seat, seat: Seat) -> Result<(), RuleError> {
        if by == seat {
            Ok(())
        } else {
            Err(RuleError::NotYourTurn {
                waiting_for: seat.label().into(),
            })
        }
    }

    fn model_owner(&self, id: ModelId) -> Result<Seat, RuleError> {
        self.state
            .model(id)
            .map(|m| m.owner)
            .ok_or_else(|| RuleError::invalid(format!("there is no model {}", id.0)))
    }

    fn model_name(&self, id: ModelId) -> &str {
        self.state.model(id).map_or("the model", |m| m.name())
    }

    fn player_command(&mut self, seat: Seat, command: &PlayerCommand) -> Result<(), RuleError> {
        if self.state.ended {
            return Err(RuleError::GameOver);
        }
        // Only what the command needs is read out of the innermost frame:
        // the command then changes the state it was read from.
        let frame = match self.state.frame() {
            None => FrameNow::None,
            Some(Frame::Contributions) => FrameNow::Contributions,
            Some(Frame::Duel { duel }) => FrameNow::Duel(duel.step),
            Some(Frame::Damage { progress }) => FrameNow::Damage(progress.stage()),
            // Between the activation's actions, only the order of damage
            // dealt can be waiting.
            Some(Frame::Activation { .. }) => FrameNow::None,
            Some(Frame::Discard {
                seat,
                count,
                reason,
            }) => FrameNow::Discard(*seat, *count, *reason),
            // Inside an action, between its procedures: only the order of
            // the damage it dealt can be waiting.
            Some(Frame::Action { .. }) => FrameNow::None,
            Some(Frame::Flip { flip }) => FrameNow::Flip(flip.stage()),
            Some(Frame::Abilities { .. }) => FrameNow::Abilities,
            Some(Frame::Either { .. }) => FrameNow::Either,
            Some(Frame::ChooseModel { .. }) => FrameNow::ChooseModel,
            Some(Frame::ChooseMarker { .. }) => FrameNow::ChooseMarker,
            Some(Frame::Place { .. }) => FrameNow::Place,
            Some(Frame::Replace { .. }) => FrameNow::Replace,
            Some(Frame::Summon { .. }) => FrameNow::Summon,
            Some(Frame::Blasts { .. }) => FrameNow::Blasts,
            Some(Frame::Move { .. }) => FrameNow::Move,
            Some(Frame::Disengage { .. }) => FrameNow::Disengage,
            Some(Frame::KillUnlessPaid { .. }) => FrameNow::KillUnlessPaid,
            Some(Frame::DrawFromDiscard { .. }) => FrameNow::DrawFromDiscard,
        };
        // Between actions, a queued additional action waiting for its
        // controller comes before anything else.
        if matches!(frame, FrameNow::None)
            && !self.state.action_queue.is_empty()
            && self.state.damage_queue.is_empty()
        {
            return self.queue_command(seat, command);
        }
        // 3rd edition: cheating the initiative flip is the encounter's.
        let initiative_cheat = matches!(
            command,
            PlayerCommand::Cheat { .. } | PlayerCommand::DeclineCheat
        ) && self
            .state
            .encounter
            .as_deref()
            .is_some_and(|e| matches!(e.step, crate::encounter::Step::InitiativeCheat { .. }));
        if self.state.encounter.is_some()
            && (encounter::is_encounter_command(command) || initiative_cheat)
            && matches!(frame, FrameNow::None)
        {
            return self.encounter_command(seat, command);
        }
        match frame {
            FrameNow::Contributions => match command {
                PlayerCommand::Contribute { entropy } => {
                    if self.state.fairness.contributions[seat.index()].is_some() {
                        return refuse("you have already contributed your entropy");
                    }
                    self.emit(Event::Contributed {
                        seat,
                        entropy: *entropy,
                    })
                }
                _ => refuse("both players must first contribute entropy for the shuffles"),
            },
            FrameNow::Duel(step) => self.duel_command(seat, step, command),
            FrameNow::Damage(stage) => self.damage_command(seat, stage, command),
            FrameNow::Discard(chooser, count, reason) => {
                self.discard_command(seat, chooser, count, reason, command)
            }
            FrameNow::Flip(stage) => self.flip_command(seat, stage, command),
            FrameNow::Abilities => self.ability_command(seat, command),
            FrameNow::Either => self.either_command(seat, command),
            FrameNow::ChooseModel => self.choose_model_command(seat, command),
            FrameNow::ChooseMarker => self.choose_marker_command(seat, command),
            FrameNow::Place => self.place_command(seat, command),
            FrameNow::Replace => self.replace_command(seat, command),
            FrameNow::Summon => self.summon_command(seat, command),
            FrameNow::Blasts => self.blast_command(seat, command),
            FrameNow::Move => self.effect_move_command(seat, command),
            FrameNow::Disengage => self.strike_command(seat, command),
            FrameNow::KillUnlessPaid => self.kill_payment_command(seat, command),
            FrameNow::DrawFromDiscard => self.draw_from_discard_command(seat, command),
            FrameNow::None => match self.damage_order() {
                Some(owner) => self.damage_order_command(seat, owner, command),
                None => Err(RuleError::NothingPending),
            },
        }
    }

    fn flow_command(&mut self, command: &FlowCommand) -> Result<(), RuleError> {
        // The game flow's next step waits until every procedure has ended,
        // except an activation, whose actions are the flow's.
        let idle = !self.state.ended
            && self.state.action_queue.is_empty()
            && matches!(self.state.frame(), None | Some(Frame::Activation { .. }));
        match command {
            FlowCommand::EndGame => {
                if self.state.ended {
                    return Err(RuleError::GameOver);
                }
                self.emit(Event::SeedRevealed {
                    seed: self.state.fairness.seed,
                })?;
                self.emit(Event::GameEnded)
            }
            _ if !idle => refuse("finish what is in progress first"),
            // An encounter runs its own game flow.
            _ if self.state.encounter.is_some() => {
                refuse("this game is an encounter: its flow moves by itself")
            }
            FlowCommand::StartDuel { spec } => self.start_duel(spec),
            FlowCommand::TakeAction {
                model,
                action,
                target,
            } => {
                let request = crate::action::ActionRequest::own(*model, action, *target);
                self.take_action(&request, crate::event::ActionSlot::Normal)
            }
            FlowCommand::DealDamage {
                target,
                amount,
                irreducible,
                source,
                credit,
            } => {
                self.model_owner(*target)?;
                if let Some(credit) = credit {
                    self.model_owner(*credit)?;
                }
                let source = if source.is_empty() {
                    "damage".into()
                } else {
                    source.clone()
                };
                let instance = DamageInstance {
                    credit: *credit,
                    ..DamageInstance::fixed(*target, source, *amount, *irreducible, self.batch())
                };
                self.queue(instance)
            }
            FlowCommand::Draw { seat, count } => {
                if *count > MAX_DRAW {
                    return Err(RuleError::Limit {
                        reason: format!("draw at most {MAX_DRAW} cards at once"),
                    });
                }
                for _ in 0..*count {
                    self.draw(*seat)?;
                }
                Ok(())
            }
            FlowCommand::GainToken {
                model,
                token,
                value,
                from,
            } => {
                self.model_owner(*model)?;
                if *value == 0 || *value > MAX_TOKEN_VALUE {
                    return refuse(format!("a token's value is 1–{MAX_TOKEN_VALUE}"));
                }
                self.gain_token(*model, *token, *value, *from)
            }
            FlowCommand::ShuffleDiscards => self.shuffle_both_decks(),
            FlowCommand::StartActivation { model } => self.start_activation(*model),
            FlowCommand::EndActivation => self.end_activation(),
            FlowCommand::EndPhase { first } => self.end_phase(*first),
        }
    }

    fn batch(&self) -> u32 {
        u32::try_from(self.state.version).unwrap_or(u32::MAX)
    }

    fn queue(&mut self, instance: DamageInstance) -> Result<(), RuleError> {
        if self.state.damage_queue.len() >= MAX_QUEUED_DAMAGE {
            return Err(RuleError::Limit {
                reason: "too much damage is waiting to be resolved".into(),
            });
        }
        self.emit(Event::DamageQueued {
            instance: Box::new(instance),
        })
    }

    /// Gains a token, following the edition's one-per-name and cancelling rules.
    /// `model` gains `token`, applied by the crew `from` (none: no crew,
    /// as terrain). The crew is kept only for tokens whose rules ask.
    fn gain_token(
        &mut self,
        model: ModelId,
        token: Token,
        value: u8,
        from: Option<Seat>,
    ) -> Result<(), RuleError> {
        let Some(m) = self.state.model(model) else {
            return Ok(());
        };
        if !self.book().contains(token) {
            return refuse(format!(
                "{token} is not a token of {}",
                self.state.edition.name()
            ));
        }
        // Tokens of the same name (Aura (Concealment), Aura (Hazardous)):
        // the one held goes first.
        let same_name = m
            .tokens
            .iter()
            .find(|(held, _)| self.state.tokens.same_name(*held, token));
        if let Some((held, by)) = same_name {
            self.emit(Event::TokenRemoved {
                model,
                token: held,
                by,
            })?;
            return self.gain_token(model, token, value, from);
        }
        let tracked = self.book().tracks_applier(token);
        let from = from.filter(|_| tracked);
        if tracked && m.tokens.has(token) && m.token_applier(token) != from {
            // The same token from another crew: the one held goes first,
            // and the new one is gained from its crew.
            let by = m.tokens.value(token);
            self.emit(Event::TokenRemoved { model, token, by })?;
            return self.gain_token(model, token, value, from);
        }
        match self.rules().duel.gain(self.book(), &m.tokens, token, value) {
            TokenGain::Nothing => Ok(()),
            TokenGain::Gain { value } => self.emit(Event::TokenGained {
                model,
                token,
                value,
                from,
            }),
            TokenGain::Cancel { token, by } => self.emit(Event::TokenRemoved { model, token, by }),
        }
    }

    /// Each player shuffles their discard pile into their deck.
    fn shuffle_both_decks(&mut self) -> Result<(), RuleError> {
        for seat in Seat::BOTH {
            let cards = self.state.player(seat).deck.len() + self.state.player(seat).discard.len();
            let number = self.state.fairness.shuffles[seat.index()] + 1;
            self.emit(Event::DeckShuffled {
                seat,
                number,
                cards: cards as u8,
                with_deck: true,
            })?;
        }
        Ok(())
    }

    /// Makes sure a deck has a card, reshuffling the discard pile if empty.
    fn ensure_deck(&mut self, seat: Seat) -> Result<bool, RuleError> {
        if !self.state.player(seat).deck.is_empty() {
            return Ok(true);
        }
        let discard = self.state.player(seat).discard.len();
        if discard == 0 {
            return Ok(false);
        }
        let number = self.state.fairness.shuffles[seat.index()] + 1;
        self.emit(Event::DeckShuffled {
            seat,
            number,
            cards: discard as u8,
            with_deck: false,
        })?;
        Ok(true)
    }

    fn draw(&mut self, seat: Seat) -> Result<(), RuleError> {
        if !self.ensure_deck(seat)? {
            return Ok(());
        }
        let card = match self.state.player(seat).deck.top() {
            Some(card) => Hidden::new(seat, card),
            None => Hidden::unknown(seat),
        };
        self.emit(Event::Drew { seat, card })
    }

    /// Reveals `count` cards from the top of a deck (reshuffling as needed).
    fn reveal(
        &mut self,
        seat: Seat,
        role: Option<Role>,
        count: usize,
    ) -> Result<RevealedCards, RuleError> {
        let count = count.min(MAX_REVEALED);
        let mut cards = RevealedCards::new();
        // One event per run of cards from the same deck; the deck is
        // reshuffled from the discard pile if it runs out part way.
        while cards.len() < count && self.ensure_deck(seat)? {
            let batch: RevealedCards = self
                .state
                .player(seat)
                .deck
                .top_down()
                .take(count - cards.len())
                .collect();
            for card in &batch {
                cards.push(*card);
            }
            self.emit(Event::Revealed {
                seat,
                role,
                cards: batch,
            })?;
        }
        Ok(cards)
    }

    /// Puts a revealed card in the conflict and discards the rest.
    fn choose(&mut self, seat: Seat, role: Option<Role>, card: Card) -> Result<(), RuleError> {
        let revealed: &[Card] = match role {
            Some(role) => &self.side(role)?.revealed,
            None => self.state.player(seat).revealed.as_slice(),
        };
        let rest: RevealedCards = revealed.iter().copied().filter(|c| *c != card).collect();
        self.emit(Event::CardChosen { seat, role, card })?;
        if !rest.is_empty() {
            self.emit(Event::RevealedDiscarded { seat, cards: rest })?;
        }
        Ok(())
    }

    /// Runs automatic steps until the game waits for a decision (or for
    /// its flow's next command). The innermost frame moves on first.
    fn advance(&mut self) -> Result<(), RuleError> {
        for _ in 0..MAX_EVENTS_PER_COMMAND {
            if self.state.ended {
                return Ok(());
            }
            let progressed = match self.state.frame() {
                Some(Frame::Contributions) => self.advance_contributions()?,
                Some(Frame::Duel { .. }) => self.advance_duel()?,
                Some(Frame::Damage { .. }) => self.advance_damage()?,
                Some(Frame::Discard { .. }) => self.advance_discard()?,
                Some(Frame::Action { .. }) => self.advance_action()?,
                Some(Frame::Activation { .. }) => {
                    if !self.state.damage_queue.is_empty() {
                        self.start_next_damage()?
                    } else if !self.state.action_queue.is_empty() {
                        self.declare_queued_action()?
                    } else {
                        self.advance_in_activation()?
                    }
                }
                Some(Frame::Flip { .. }) => self.advance_flip()?,
                Some(Frame::Disengage { .. }) => self.advance_disengage()?,
                Some(Frame::Abilities { .. }) => self.advance_abilities()?,
                // Waits for its controller's choice.
                Some(
                    Frame::Either { .. }
                    | Frame::ChooseModel { .. }
                    | Frame::ChooseMarker { .. }
                    | Frame::Place { .. }
                    | Frame::Replace { .. }
                    | Frame::Summon { .. }
                    | Frame::Blasts { .. }
                    | Frame::Move { .. }
                    | Frame::KillUnlessPaid { .. }
                    | Frame::DrawFromDiscard { .. },
                ) => false,
                None => {
                    if !self.state.damage_queue.is_empty() {
                        self.start_next_damage()?
                    } else if let Some(seat) = self.over_hand_limit() {
                        let excess = self.state.player(seat).hand.len()
                            - usize::from(self.state.edition.max_hand());
                        self.push_check()?;
                        self.emit(Event::HandOverLimit {
                            seat,
                            excess: excess as u8,
                        })?;
                        true
                    } else if !self.state.action_queue.is_empty() {
                        self.declare_queued_action()?
                    } else if self.state.encounter.is_some() {
                        self.advance_encounter()?
                    } else {
                        false
                    }
                }
            };
            if !progressed {
                return Ok(());
            }
        }
        Err(RuleError::Limit {
            reason: "the game did not settle".into(),
        })
    }

    /// A procedure may start only while the stack has room.
    fn push_check(&self) -> Result<(), RuleError> {
        if self.state.frames.len() >= MAX_FRAMES {
            return Err(RuleError::Limit {
                reason: format!("at most {MAX_FRAMES} procedures can be in progress at once"),
            });
        }
        Ok(())
    }
}
