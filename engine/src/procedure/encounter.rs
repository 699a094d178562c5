//! The encounter's game flow (4th edition): deployment, choosing schemes,
//! and each turn's start, activation and end phases. The engine moves from
//! step to step itself (`advance_encounter`) and waits only for players.

use super::*;
use crate::command::Interaction;
use crate::encounter::objectives::{AfterScoring, MarkerInteract, RevealTiming, StrategyScoring};
use crate::encounter::rules::{
    ActionLimits, InitiativeRule, PassingRule, SchemeMarkerRule, SchemeRule,
};
use crate::encounter::{
    ClaimedObjective, Declaration, Encounter, EncounterRules, HeldScheme, MAX_FRIENDLY_MARKERS,
    Step, scoring,
};
use crate::event::ActionSlot;
use crate::model::Placement;
use crate::table::movement::{self, MoveKind, Waypoint};
use crate::table::{Board, Body, MarkerKind, ObjectId, Point, Target, inches, milli};

/// The 3rd edition general action that gives Focused, once per activation.
pub(crate) const CONCENTRATE: &str = "Concentrate";

/// How far Interact and Slam reach: 1" in 4th edition; base contact in
/// 3rd edition (`TOUCH` is the table's tolerance for touching).
fn general_action_range(edition: crate::Edition) -> f64 {
    match edition {
        crate::Edition::Fourth => 1.0,
        crate::Edition::Third => crate::table::TOUCH,
    }
}

/// Whether a marker is within reach of a general action (Interact, Slam)
/// taken by the model whose base is `model`.
fn within_general_action_range(edition: crate::Edition, model: &Body, marker: &Body) -> bool {
    crate::table::measure::horizontal_gap(model, marker) <= general_action_range(edition) + 1e-9
}

/// Whether any part of a terrain piece is within a general action's reach
/// of a model (1" in 4th edition; touching in 3rd).
fn terrain_within_reach(
    board: &crate::table::Board,
    model: &crate::table::Body,
    terrain: crate::table::ObjectId,
) -> bool {
    board.obstacles().filter(|o| o.id == terrain).any(|o| {
        crate::table::measure::distance_to_obstacle(model, o)
            <= general_action_range(board.edition) + 1e-9
    })
}

/// How far from a model's centre a new scheme marker's centre goes for
/// the options and the bots: `reach_4e` inches in 4th edition (any point
/// whose marker is within 1"); in base contact in 3rd edition.
pub(crate) fn scheme_marker_offset(state: &GameState, model_radius: f64, reach_4e: f64) -> f64 {
    match state.edition {
        crate::Edition::Fourth => model_radius + reach_4e,
        crate::Edition::Third => {
            let marker = state
                .marker_types
                .of_kind(MarkerKind::Scheme)
                .map_or(crate::table::BaseMm::SMALL, crate::marker::MarkerDef::base);
            model_radius + marker.radius()
        }
    }
}

/// How far apart the spacing rule keeps a crew's markers of `kind`
/// (3rd edition scheme markers, Plant Explosives' strategy markers), if
/// a rule does.
fn marker_spacing(state: &GameState, kind: MarkerKind) -> Option<u8> {
    match kind {
        MarkerKind::Scheme => match EncounterRules::of(state.edition).scheme_markers {
            SchemeMarkerRule::Spaced { spacing } => Some(spacing),
            SchemeMarkerRule::AtMostFive => None,
        },
        MarkerKind::Strategy => state
            .encounter
            .as_deref()
            .and_then(|e| e.setup.strategy.explosives)
            .map(|rule| rule.spacing),
        MarkerKind::Remains | MarkerKind::Other => None,
    }
}

/// The spacing the rule demands, if `seat`'s marker of `kind` at `at`
/// would stand closer than that to another of its markers of that kind.
/// Cheap beside `decide`: the bots skip such spots with it.
pub(crate) fn marker_spot_crowded(
    state: &GameState,
    seat: Seat,
    kind: MarkerKind,
    at: crate::table::Point,
) -> Option<u8> {
    let spacing = marker_spacing(state, kind)?;
    let radius = state.marker_types.of_kind(kind)?.base().radius();
    let center = at.v2();
    state
        .markers
        .iter()
        .any(|k| {
            k.kind == kind
                && k.owner == Some(seat)
                && k.at.v2().dist(center) - k.base.radius() - radius < f64::from(spacing) - 1e-9
        })
        .then_some(spacing)
}

/// Whether `seat` may not pass because passing takes a pass token (3rd
/// edition) and it has none left.
pub(crate) fn out_of_pass_tokens(state: &GameState, encounter: &Encounter, seat: Seat) -> bool {
    EncounterRules::of(state.edition).passing == PassingRule::PassTokens
        && encounter.pass_tokens[seat.index()] == 0
}

/// The words for that reach.
fn general_action_reach(edition: crate::Edition) -> &'static str {
    match edition {
        crate::Edition::Fourth => "within 1\"",
        crate::Edition::Third => "in base contact",
    }
}

/// The Interact, Prepare, Slam and Concentrate commands worth asking `decide` about for
/// `model`: a Prepare for each token it may give, an Interact with each
/// scheme or strategy marker within reach, a Slam for each other marker
/// within reach (making a scheme marker takes a point: not listed).
pub(crate) fn general_commands(state: &GameState, model: ModelId) -> Vec<PlayerCommand> {
    let Some(me) = state.model(model).and_then(crate::model::Model::body) else {
        return Vec::new();
    };
    let general = EncounterRules::of(state.edition).general_actions;
    let mut commands: Vec<PlayerCommand> = state
        .tokens
        .preparable()
        .filter(|_| general.contains(&"Prepare"))
        .map(|token| PlayerCommand::Prepare { token })
        .collect();
    if general.contains(&CONCENTRATE) {
        commands.push(PlayerCommand::Concentrate);
    }
    // Offered unchecked: whether the model is engaged is dear to work out
    // at every step, and `decide` refuses it for a model that is not
    // (`pending` lists only what `decide` accepts).
    if general.contains(&super::DISENGAGE) {
        commands.push(PlayerCommand::Disengage);
    }
    if general.contains(&super::ASSIST) {
        commands.extend(super::assist_commands(state, model));
    }
    for marker in state.markers.iter() {
        if !within_general_action_range(state.edition, &me, &marker.body()) {
            continue;
        }
        commands.push(match marker.kind {
            MarkerKind::Scheme => PlayerCommand::Interact {
                with: Interaction::RemoveSchemeMarker { marker: marker.id },
            },
            MarkerKind::Strategy => {
                let idols = state
                    .encounter
                    .as_deref()
                    .and_then(|e| e.setup.strategy.idols);
                match (idols, state.model(model)) {
                    (Some(rule), Some(m)) => {
                        commands.extend(super::idols::idol_moves(state, m, marker, rule));
                        continue;
                    }
                    _ => PlayerCommand::Interact {
                        with: Interaction::StrategyMarker { marker: marker.id },
                    },
                }
            }
            MarkerKind::Remains | MarkerKind::Other if general.contains(&"Slam") => {
                PlayerCommand::Slam { marker: marker.id }
            }
            MarkerKind::Remains | MarkerKind::Other => continue,
        });
    }
    // Slam also removes a destructible terrain piece within 1".
    if general.contains(&"Slam") {
        let table = state.table();
        let board = crate::table::Board::new(&table, state.edition);
        commands.extend(
            state
                .terrain
                .iter()
                .filter(|t| t.traits.has(crate::table::Trait::Destructible))
                .filter(|t| terrain_within_reach(&board, &me, t.id))
                .map(|t| PlayerCommand::SlamTerrain { terrain: t.id }),
        );
    }
    // Deliver a Message: enemy models a scheme of the pool may choose,
    // within 1".
    if let Some(encounter) = state.encounter.as_deref() {
        for target in state
            .models
            .iter()
            .filter(|t| t.owner != me_owner(state, model))
        {
            let near = target
                .body()
                .is_some_and(|b| me.center.dist(b.center) - me.radius - b.radius <= 1.0 + 1e-9);
            if near && encounter.may_deliver_message_to(me_owner(state, model), target) {
                commands.push(PlayerCommand::Interact {
                    with: Interaction::DeliverMessage { model: target.id },
                });
            }
        }
    }
    commands
}

/// How far a marker of `radius` centred at `center` is from the nearest
/// model's base on `board` (negative: overlapping it; infinite with no
/// model on the table).
pub(super) fn gap_to_models(board: &Board, center: crate::table::geometry::V2, radius: f64) -> f64 {
    board
        .bodies()
        .map(|b| center.dist(b.center) - b.radius - radius)
        .fold(f64::INFINITY, f64::min)
}

/// Whether a marker of `radius` centred at `center` would overlap a
/// model's base (more than touching it).
fn overlaps_a_model(board: &Board, center: crate::table::geometry::V2, radius: f64) -> bool {
    gap_to_models(board, center, radius) < -crate::table::TOUCH
}

/// The crew a model belongs to (its owner; seat A if it is gone).
fn me_owner(state: &GameState, model: ModelId) -> Seat {
    state.model(model).map_or(Seat::A, |m| m.owner)
}

/// The refusal of any action past the model's action limit.
const LIMIT_REACHED: &str = "the model has reached its action limit";

/// Why a card action's limits refuse it (worded by
/// [`Sim::card_action_slot`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SlotRefused {
    NotInEncounter,
    NoSuchAction,
    OnceUsed(crate::model::OncePer),
    NotSignature,
    SignatureUsed,
    BonusUsed,
    LimitReached,
}

/// Initiative flips in one start phase before a tie is left standing.
const MAX_INITIATIVE_FLIPS: usize = 20;

impl Sim<'_> {
    /// This edition's encounter rules.
    pub(crate) fn encounter_rules(&self) -> &'static EncounterRules {
        EncounterRules::of(self.state.edition)
    }

    /// The VP `seat` may still gain from the strategy (`scheme`: from
    /// schemes), under this edition's cap.
    fn vp_left(&self, seat: Seat, scheme: bool) -> Result<u8, RuleError> {
        let (rules, encounter) = (self.encounter_rules(), self.encounter()?);
        Ok(if scheme {
            rules
                .max_scheme_vp
                .saturating_sub(encounter.scheme_vp[seat.index()])
        } else {
            rules
                .max_strategy_vp
                .saturating_sub(encounter.strategy_vp[seat.index()])
        })
    }

    pub(super) fn encounter(&self) -> Result<&Encounter, RuleError> {
        self.state
            .encounter
            .as_deref()
            .ok_or(RuleError::NothingPending)
    }

    pub(super) fn step_to(&mut self, step: Step) -> Result<(), RuleError> {
        self.emit(Event::EncounterStepBegan { step })
    }

    /// The models `seat` deploys in this step, not yet on the table.
    pub(crate) fn to_deploy(state: &GameState, seat: Seat, group: Option<u8>) -> Vec<ModelId> {
        let Some(encounter) = state.encounter.as_deref() else {
            return Vec::new();
        };
        let members: Option<&Vec<ModelId>> = group.and_then(|g| {
            encounter
                .choices
                .groups
                .as_ref()
                .map(|groups| &groups[usize::from(g)])
        });
        state
            .models
            .iter()
            .filter(|m| m.owner == seat && m.in_play() && m.placement.is_none())
            .filter(|m| members.is_none_or(|list| list.contains(&m.id)))
            .map(|m| m.id)
            .collect()
    }

    /// `seat`'s models that may still activate this turn.
    pub(crate) fn unactivated(state: &GameState, seat: Seat) -> usize {
        let Some(encounter) = state.encounter.as_deref() else {
            return 0;
        };
        state
            .models
            .iter()
            .filter(|m| m.owner == seat && m.on_table())
            .filter(|m| !encounter.activated.contains(&m.id))
            .count()
    }

    /// The acting model's action limit now.
    pub(crate) fn action_limit(state: &GameState, model: ModelId) -> u8 {
        let (Some(m), Some(encounter)) = (state.model(model), state.encounter.as_deref()) else {
            return 0;
        };
        let owner = m.owner.index();
        let base: i8 = match EncounterRules::of(state.edition).action_limits {
            ActionLimits::BySizeAndStation => {
                let leader = encounter.assumed_leadership[owner] == Some(model);
                if m.card.peon {
                    1
                } else if (m.card.master && encounter.setup.size >= 50) || leader {
                    3
                } else {
                    2
                }
            }
            ActionLimits::LeadersAndMasters => {
                if m.card.master || encounter.leaders[owner] == Some(model) {
                    3
                } else {
                    2
                }
            }
        };
        let changed = base + state.tokens.action_limit_change(&m.tokens);
        // Fast raises it to three at most, Slow lowers it to one at least.
        changed.clamp(1, 3) as u8
    }

    /// The automatic steps of the encounter when no procedure is in
    /// progress. False while it waits for a player.
    pub(super) fn advance_encounter(&mut self) -> Result<bool, RuleError> {
        let encounter = self.encounter()?;
        let step = encounter.step;
        let attacker = encounter.setup.attacker;
        match step {
            Step::ChooseZone
            | Step::SplitCrew
            | Step::ChooseGroup
            | Step::GiveInitiative { .. }
            | Step::AssumeLeadership { .. }
            | Step::RevealScheme { .. }
            | Step::RevealAfterActivation { .. }
            | Step::AbandonScheme { .. }
            | Step::RemoveStrategyMarker { .. }
            | Step::ClaimStrategy { .. }
            | Step::AnswerClaim { .. }
            | Step::InitiativeCheat { .. }
            | Step::DropIdol { .. }
            | Step::Over => Ok(false),
            Step::SoulstoneDraw { seat } => {
                if !encounter.done[seat.index()] {
                    return Ok(false);
                }
                self.soulstone_draw_from(seat, false)?;
                Ok(true)
            }
            Step::Declare { what } => {
                let [Some(a), Some(b)] = &encounter.choices.declared else {
                    return Ok(false);
                };
                let choices = [a, b].map(|d| d.value.clone().unwrap_or_default());
                self.emit(Event::DeclarationsRevealed { what, choices })?;
                self.step_to(match what {
                    Declaration::Faction => Step::Declare {
                        what: Declaration::Leader,
                    },
                    Declaration::Leader => Step::Declare {
                        what: Declaration::Crew,
                    },
                    Declaration::Crew => match self.encounter_rules().schemes {
                        SchemeRule::OneHeld => Step::SplitCrew,
                        // 3rd edition step H: schemes, knowing both crews.
                        SchemeRule::TwoFromThePool => Step::ChooseSchemes,
                    },
                })?;
                Ok(true)
            }
            Step::Deploy { seat } => {
                if !deployable(&self.state, seat).is_empty() {
                    return Ok(false);
                }
                // The splitter's first group, the other crew whole, then the
                // splitter's second group.
                let splitter = self.encounter_rules().splitting_seat(attacker);
                let other = splitter.other();
                if seat == splitter && !Self::to_deploy(&self.state, other, None).is_empty() {
                    self.step_to(Step::Deploy { seat: other })?;
                } else if seat == other {
                    self.step_to(Step::Deploy { seat: splitter })?;
                } else if self.encounter_rules().schemes == SchemeRule::OneHeld {
                    self.step_to(Step::ChooseSchemes)?;
                } else if self.encounter()?.setup.strategy.explosives.is_some() {
                    // Plant Explosives: the attacker places first.
                    self.step_to(Step::PlaceExplosives { seat: attacker })?;
                } else {
                    self.step_to(Step::StartOfGame)?;
                }
                Ok(true)
            }
            // A crew that cannot place another token passes the turn to the
            // other, and the game starts once neither can.
            Step::PlaceExplosives { seat } => {
                if !explosives_placeable(&self.state, seat).is_empty() {
                    return Ok(false);
                }
                if explosives_placeable(&self.state, seat.other()).is_empty() {
                    self.step_to(Step::StartOfGame)?;
                } else {
                    self.step_to(Step::PlaceExplosives { seat: seat.other() })?;
                }
                Ok(true)
            }
            Step::ChooseSchemes => {
                if encounter.done != [true, true] {
                    return Ok(false);
                }
                match self.encounter_rules().schemes {
                    // Its fact asks both players to cut the fresh decks.
                    SchemeRule::OneHeld => self.step_to(Step::StartOfGame)?,
                    // 3rd edition: deployment follows, the attacker's zone first.
                    SchemeRule::TwoFromThePool => self.step_to(Step::ChooseZone)?,
                }
                Ok(true)
            }
            Step::StartOfGame => {
                // Effects at the start of the game, in the attacker's order.
                if !self.start_effects(AbilityWindow::StartOfGame, attacker)? {
                    self.start_turn(1, Some(attacker), None)?;
                }
                Ok(true)
            }
            // The effects have resolved (the stack is empty again).
            Step::StartEffects { game: true } => {
                self.start_turn(1, Some(attacker), None)?;
                Ok(true)
            }
            Step::StartEffects { game: false } => {
                self.begin_activations()?;
                Ok(true)
            }
            Step::StartDiscard => {
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
            Step::Activations => self.advance_activations(),
            Step::EndEffects => {
                self.score_strategy()?;
                Ok(true)
            }
            Step::SelectSchemes => {
                let needs = self.must_select();
                let done = self.encounter()?.done;
                if Seat::BOTH
                    .iter()
                    .any(|s| needs[s.index()] && !done[s.index()])
                {
                    return Ok(false);
                }
                self.end_turn()?;
                Ok(true)
            }
        }
    }

    /// Step D of the activation phase and the phase's end.
    fn advance_activations(&mut self) -> Result<bool, RuleError> {
        let encounter = self.encounter()?;
        // A chain activation on offer waits for its crew's answer.
        if encounter.chain_offer.is_some() {
            return Ok(false);
        }
        let active = encounter.active;
        let transfer = encounter.transfer_due;
        let mine = Self::unactivated(&self.state, active);
        // The usual case after an activation's step: the active crew goes on.
        if !transfer && mine > 0 {
            return Ok(false);
        }
        let theirs = Self::unactivated(&self.state, active.other());
        if mine == 0 && theirs == 0 {
            self.step_to(Step::EndEffects)?;
            let first = self.encounter()?.initiative;
            self.end_phase(first)?;
            return Ok(true);
        }
        let next = if transfer && theirs == 0 {
            active
        } else {
            active.other()
        };
        self.emit(Event::ActivePlayer { seat: next })?;
        Ok(true)
    }

    fn start_turn(
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
    pub(super) fn leadership_step(&mut self, after: Option<Seat>) -> Result<(), RuleError> {
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
    fn begin_activations(&mut self) -> Result<(), RuleError> {
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
    fn initiative_order_from(&self, seat: Seat, including: bool) -> Result<Vec<Seat>, RuleError> {
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
    fn soulstone_draw_from(&mut self, seat: Seat, including: bool) -> Result<(), RuleError> {
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
    fn initiative_cheat(
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
    fn start_effects(&mut self, window: AbilityWindow, first: Seat) -> Result<bool, RuleError> {
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

    /// End phase step B: the strategy scores, then what follows it.
    fn score_strategy(&mut self) -> Result<(), RuleError> {
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
    fn claim_strategy(&mut self, seat: Seat, vp: u8) -> Result<(), RuleError> {
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
    fn answer_claim(&mut self, confirmed: bool) -> Result<(), RuleError> {
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

    /// End phase steps C and D, initiative first in each: the next crew
    /// after `after` that holds a scheme decides; then step E. In 3rd
    /// edition, the crews' scheme claims instead.
    fn next_scheme_step(&mut self, after: Option<Step>) -> Result<(), RuleError> {
        let first = self.encounter()?.initiative;
        if self.encounter_rules().schemes == SchemeRule::TwoFromThePool {
            return match after {
                // The crew kept what is left: the next crew's turn.
                Some(Step::RevealScheme { seat }) => self.scheme_claims_from(seat, false),
                _ => self.scheme_claims_from(first, true),
            };
        }
        let order = [
            Step::RevealScheme { seat: first },
            Step::RevealScheme {
                seat: first.other(),
            },
            Step::AbandonScheme { seat: first },
            Step::AbandonScheme {
                seat: first.other(),
            },
        ];
        let start = after
            .and_then(|step| order.iter().position(|s| *s == step))
            .map_or(0, |i| i + 1);
        let last_turn = self.last_turn();
        for step in &order[start..] {
            let (Step::RevealScheme { seat } | Step::AbandonScheme { seat }) = *step else {
                continue;
            };
            // Abandoning makes room for a new scheme; on the last turn
            // there is none to make room for.
            if last_turn && matches!(step, Step::AbandonScheme { .. }) {
                continue;
            }
            if !self.encounter()?.choices.schemes[seat.index()].is_empty() {
                return self.step_to(*step);
            }
        }
        self.step_to(Step::SelectSchemes)
    }

    /// 3rd edition scoring of schemes, initiative first: `seat` (or the crew
    /// after it) is asked while it has a scheme it may still score this
    /// turn; then the turn ends.
    fn scheme_claims_from(&mut self, seat: Seat, including: bool) -> Result<(), RuleError> {
        // Asked while it has a scheme not used up, as public facts tell,
        // whether or not it can score now: being asked gives nothing away.
        for seat in &self.initiative_order_from(seat, including)? {
            if may_be_asked_to_score(&self.state, *seat) {
                return self.step_to(Step::RevealScheme { seat: *seat });
            }
        }
        self.step_to(Step::SelectSchemes)
    }

    /// A 3rd edition crew, asked in the end phase, claims 1 VP for one of
    /// its schemes (revealing it if it is still secret), or is done.
    fn third_edition_scheme_claim(
        &mut self,
        seat: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        match command {
            PlayerCommand::KeepScheme => {
                self.emit(Event::SchemeKept { seat })?;
                self.scheme_claims_from(seat, false)
            }
            PlayerCommand::ClaimScheme {
                vp,
                scheme: Some(name),
                markers,
            } => {
                if *vp != 1 {
                    return refuse("a scheme scores 1 VP at a time");
                }
                if let Some(why) = scheme_claim_refusal_public(&self.state, seat, name) {
                    return refuse(why);
                }
                let Some(held) = own_scheme(&self.encounter()?.choices, seat, name) else {
                    return refuse(format!("{name} is not one of your schemes"));
                };
                match scheme_scoring_now(&self.state, seat, &held, markers) {
                    Err(why) => refuse(why),
                    Ok(ScoredBy::Claim) => {
                        self.emit(Event::VpClaimed {
                            seat,
                            objective: ClaimedObjective::Scheme { scheme: held },
                            vp: 1,
                        })?;
                        self.step_to(Step::AnswerClaim { seat: seat.other() })
                    }
                    Ok(ScoredBy::Engine { spent }) => {
                        for id in spent {
                            self.emit(Event::MarkerRemoved { id })?;
                        }
                        let amount = self.vp_left(seat, true)?.min(1);
                        if self.encounter()?.choices.has_revealed(seat, &held.name) {
                            self.emit(Event::SchemeScored {
                                seat,
                                scheme: held.name,
                                amount,
                            })?;
                        } else {
                            self.emit(Event::SchemeRevealed {
                                seat,
                                scheme: held,
                                amount,
                            })?;
                        }
                        self.scheme_claims_from(seat, true)
                    }
                }
            }
            _ => refuse("claim 1 VP for one of your schemes, or keep them for now"),
        }
    }

    /// Activation phase step C-4 after `after` (or from the start): the
    /// next crew, initiative first, that might hold a scheme revealed at
    /// the end of an activation (as public facts tell) decides whether to
    /// reveal it; then the activation phase goes on.
    pub(super) fn reveal_after_activation(&mut self, after: Option<Seat>) -> Result<(), RuleError> {
        let Some(encounter) = self.state.encounter.as_deref() else {
            return Ok(());
        };
        let first = encounter.initiative;
        let order = [first, first.other()];
        let start = after
            .and_then(|seat| order.iter().position(|s| *s == seat))
            .map_or(0, |i| i + 1);
        let asked = order[start..]
            .iter()
            .copied()
            .find(|seat| encounter.may_reveal_after_activation(*seat));
        match (asked, after) {
            (Some(seat), _) => self.step_to(Step::RevealAfterActivation { seat }),
            (None, Some(_)) => self.step_to(Step::Activations),
            (None, None) => Ok(()),
        }
    }

    /// Which crews select a new scheme now: those that revealed or
    /// abandoned one whose Next Available Schemes the content defines.
    pub(crate) fn must_select(&self) -> [bool; 2] {
        let Some(encounter) = self.state.encounter.as_deref() else {
            return [false; 2];
        };
        // After the last turn's reveals the game ends (step F): a new
        // scheme could score nothing, so none is selected.
        if self.last_turn() {
            return [false; 2];
        }
        Seat::BOTH.map(|seat| !selectable(encounter, seat).is_empty())
    }

    /// Whether this is the encounter's last turn.
    fn last_turn(&self) -> bool {
        self.state
            .encounter
            .as_deref()
            .is_some_and(|e| e.turn >= self.encounter_rules().turns)
    }

    /// End phase steps F to H.
    fn end_turn(&mut self) -> Result<(), RuleError> {
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

    /// A command of the encounter's, from `seat`.
    pub(super) fn encounter_command(
        &mut self,
        seat: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        if !matches!(self.state.frame(), None | Some(Frame::Activation { .. }))
            || self.damage_order().is_some()
        {
            return refuse("finish what is in progress first");
        }
        // A shared handle: the command changes the state it reads from.
        let encounter = Arc::clone(
            self.state
                .encounter
                .as_ref()
                .ok_or(RuleError::NothingPending)?,
        );
        let setup = Arc::clone(&encounter.setup);
        let attacker = setup.attacker;
        let in_activation = matches!(self.state.frame(), Some(Frame::Activation { .. }));
        let step = encounter.step;
        match (step, command) {
            (Step::ChooseZone, PlayerCommand::ChooseZone { zone }) => {
                Self::require_seat(seat, attacker)?;
                self.emit(Event::ZoneChosen { seat, zone: *zone })?;
                self.make_strategy_markers()?;
                let hiring = Seat::BOTH.iter().all(|s| !setup.offers(*s).is_empty());
                // 3rd edition: crews and schemes were chosen before.
                let fourth = self.encounter_rules().schemes == SchemeRule::OneHeld;
                self.step_to(if hiring && fourth {
                    Step::Declare {
                        what: Declaration::Faction,
                    }
                } else {
                    Step::SplitCrew
                })
            }
            (
                Step::Declare { what },
                PlayerCommand::Declare {
                    what: asked,
                    choice,
                },
            ) => {
                if what != *asked {
                    return refuse(format!("choose your {} now", what.label()));
                }
                if encounter.choices.declared[seat.index()].is_some() {
                    return refuse(format!("you have already chosen your {}", what.label()));
                }
                let options = encounter.declarable(seat, what);
                let Some(choice) = options
                    .into_iter()
                    .find(|o| o.eq_ignore_ascii_case(choice.trim()))
                else {
                    return refuse(format!(
                        "{choice:?} is not a {} you may choose",
                        what.label()
                    ));
                };
                self.emit(Event::Declared {
                    seat,
                    what,
                    choice: crate::hidden::Hidden::new(seat, choice),
                })
            }
            (Step::SplitCrew, PlayerCommand::SplitCrew { first }) => {
                Self::require_seat(seat, self.encounter_rules().splitting_seat(attacker))?;
                let mine: Vec<ModelId> = self
                    .state
                    .models
                    .iter()
                    .filter(|m| m.owner == seat && m.in_play())
                    .map(|m| m.id)
                    .collect();
                let mut first = first.clone();
                first.sort();
                first.dedup();
                if let Some(stranger) = first.iter().find(|id| !mine.contains(id)) {
                    return refuse(format!("model {} is not in your crew", stranger.0));
                }
                let second = mine
                    .iter()
                    .copied()
                    .filter(|id| !first.contains(id))
                    .collect();
                self.emit(Event::CrewSplit {
                    seat,
                    groups: [first, second],
                })?;
                self.step_to(Step::ChooseGroup)
            }
            (Step::ChooseGroup, PlayerCommand::ChooseGroup { group }) => {
                let splitter = self.encounter_rules().splitting_seat(attacker);
                Self::require_seat(seat, splitter.other())?;
                if *group > 1 {
                    return refuse("choose group 0 or 1");
                }
                self.emit(Event::GroupChosen { group: *group })?;
                self.step_to(Step::Deploy { seat: splitter })
            }
            (Step::Deploy { seat: deploying }, PlayerCommand::Deploy { model, at }) => {
                Self::require_seat(seat, deploying)?;
                self.deploy(seat, *model, *at)
            }
            (Step::PlaceExplosives { seat: placing }, PlayerCommand::PlaceExplosives { model }) => {
                Self::require_seat(seat, placing)?;
                if self.state.model(*model).is_none_or(|m| m.owner != seat) {
                    return refuse(format!("model {} is not one of your models", model.0));
                }
                if !explosives_placeable(&self.state, seat).contains(model) {
                    return refuse(format!(
                        "{} cannot take another explosives token (a minion carries one, \
                         any other model two)",
                        self.model_name(*model)
                    ));
                }
                self.emit(Event::ExplosivesPlaced {
                    seat,
                    model: *model,
                })?;
                if !explosives_placeable(&self.state, seat.other()).is_empty() {
                    self.step_to(Step::PlaceExplosives { seat: seat.other() })?;
                }
                Ok(())
            }
            (
                Step::ChooseSchemes,
                PlayerCommand::SelectScheme {
                    scheme,
                    target,
                    second_target,
                },
            ) => {
                if encounter.done[seat.index()] {
                    return refuse(match self.encounter_rules().schemes {
                        SchemeRule::OneHeld => "you have already chosen your scheme",
                        SchemeRule::TwoFromThePool => "you have already chosen your two schemes",
                    });
                }
                if encounter.choices.schemes[seat.index()]
                    .iter()
                    .filter_map(|h| h.value.as_ref())
                    .any(|h| h.name.eq_ignore_ascii_case(scheme))
                {
                    return refuse(format!("you have already chosen {scheme}: choose another"));
                }
                if !setup
                    .scheme_pool
                    .iter()
                    .any(|s| s.eq_ignore_ascii_case(scheme))
                {
                    return refuse(format!("{scheme} is not in this encounter's scheme pool"));
                }
                self.select_scheme(seat, scheme, *target, *second_target)
            }
            (
                Step::SelectSchemes,
                PlayerCommand::SelectScheme {
                    scheme,
                    target,
                    second_target,
                },
            ) => {
                if !self.must_select()[seat.index()] || encounter.done[seat.index()] {
                    return refuse("you do not select a scheme now");
                }
                if encounter.choices.has_revealed(seat, scheme) {
                    return refuse(format!("you have already revealed {scheme}"));
                }
                if !selectable(&encounter, seat)
                    .iter()
                    .any(|s| s.eq_ignore_ascii_case(scheme))
                {
                    return refuse(format!(
                        "{scheme} is not among the Next Available Schemes you may select"
                    ));
                }
                self.select_scheme(seat, scheme, *target, *second_target)
            }
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
            (Step::Activations, PlayerCommand::Pass)
                if !in_activation && self.encounter_rules().passing == PassingRule::PassTokens =>
            {
                self.require_active(seat, &encounter)?;
                if out_of_pass_tokens(&self.state, &encounter, seat) {
                    return refuse("you pass only by discarding a pass token, and you have none");
                }
                self.emit(Event::Passed {
                    seat,
                    with_token: true,
                })
            }
            (Step::Activations, PlayerCommand::Pass) if !in_activation => {
                self.require_active(seat, &encounter)?;
                if encounter.last_passed {
                    return refuse("the previous activation was passed: activate a model");
                }
                if Self::unactivated(&self.state, seat)
                    > Self::unactivated(&self.state, seat.other())
                {
                    return refuse(
                        "you may pass only with as many models left to activate as your opponent, or fewer",
                    );
                }
                self.emit(Event::Passed {
                    seat,
                    with_token: false,
                })
            }
            (Step::Activations, PlayerCommand::ChainActivate { model }) if !in_activation => {
                let offer = self.chain_offer_for(seat, &encounter)?;
                if !offer.models.contains(model) {
                    return refuse(format!(
                        "the chain activation is offered to model(s) {}, not {}",
                        offer
                            .models
                            .iter()
                            .map(|m| m.0.to_string())
                            .collect::<Vec<_>>()
                            .join(", "),
                        model.0
                    ));
                }
                self.emit(Event::ChainActivationTaken { model: *model })?;
                self.start_activation(*model)
            }
            (Step::Activations, PlayerCommand::DeclineChainActivation) if !in_activation => {
                self.chain_offer_for(seat, &encounter)?;
                self.emit(Event::ChainActivationDeclined { seat })
            }
            (Step::Activations, PlayerCommand::Activate { model }) if !in_activation => {
                self.require_active(seat, &encounter)?;
                let m = self
                    .state
                    .model(*model)
                    .ok_or_else(|| RuleError::invalid(format!("there is no model {}", model.0)))?;
                if m.owner != seat {
                    return refuse(format!("{} is not yours", m.name()));
                }
                if !m.on_table() {
                    return refuse(format!("{} is not on the table", m.name()));
                }
                if encounter.activated.contains(model) {
                    return refuse(format!("{} has already activated this turn", m.name()));
                }
                self.start_activation(*model)
            }
            (Step::Activations, _) if in_activation => self.activation_command(seat, command),
            (Step::RevealScheme { seat: deciding }, _)
                if self.encounter_rules().schemes == SchemeRule::TwoFromThePool =>
            {
                Self::require_seat(seat, deciding)?;
                self.third_edition_scheme_claim(seat, command)
            }
            (
                Step::RevealScheme { seat: deciding }
                | Step::RevealAfterActivation { seat: deciding }
                | Step::AbandonScheme { seat: deciding },
                _,
            ) => {
                Self::require_seat(seat, deciding)?;
                self.scheme_decision(seat, step, command)
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
            (Step::Over, _) => Err(RuleError::GameOver),
            _ => refuse(format!(
                "that is not a decision of this step ({})",
                step_name(step)
            )),
        }
    }

    /// The chain activation offered to `seat`, or why there is none.
    fn chain_offer_for(
        &self,
        seat: Seat,
        encounter: &Encounter,
    ) -> Result<crate::encounter::ChainOffer, RuleError> {
        match &encounter.chain_offer {
            Some(offer) => {
                Self::require_seat(seat, offer.seat)?;
                Ok(offer.clone())
            }
            None => refuse("no chain activation is offered"),
        }
    }

    fn require_active(&self, seat: Seat, encounter: &Encounter) -> Result<(), RuleError> {
        if encounter.transfer_due {
            return Err(RuleError::NothingPending);
        }
        Self::require_seat(seat, encounter.active)
    }

    /// A strategy whose kills turn markers (Turf War): `killer`'s crew,
    /// having killed `victim`, may turn one of the victim crew's strategy
    /// markers in a table quarter the victim stood in (the centre's is in
    /// every quarter) neutral. It chooses which, or none: the rules say it
    /// "can" (and, for a model standing in several quarters, which quarter
    /// it was killed in).
    pub(super) fn neutralise_marker_after_kill(
        &mut self,
        victim: &crate::model::Model,
        killer: Seat,
    ) -> Result<(), RuleError> {
        let Some(encounter) = self.state.encounter.as_deref() else {
            return Ok(());
        };
        if !encounter.setup.strategy.kill_neutralises_marker || !victim.card.counts_for_objectives()
        {
            return Ok(());
        }
        let Some(body) = victim.body() else {
            return Ok(());
        };
        let quarters: Vec<usize> = (0..4)
            .filter(|q| {
                crate::table::measure::Layout::quarter(*q).signed_distance(body.center)
                    < body.radius
            })
            .collect();
        let options: Vec<ObjectId> = self
            .state
            .markers
            .iter()
            .filter(|k| k.kind == MarkerKind::Strategy && k.owner == Some(killer.other()))
            .filter(|k| {
                quarters.iter().any(|q| {
                    crate::table::measure::Layout::quarter(*q).signed_distance(k.at.v2())
                        <= crate::table::geometry::TOUCH
                })
            })
            .map(|k| k.id)
            .collect();
        if options.is_empty() {
            return Ok(());
        }
        self.push_check()?;
        self.emit(Event::MarkerChoiceOffered {
            seat: killer,
            options,
            then: crate::ability::MarkerChoice::Neutralise,
        })
    }

    /// Plant Explosives: a killed model's explosives tokens are lost, and
    /// a model of the opposing crew within reach of it "may" gain them:
    /// that crew picks which, or none.
    pub(super) fn pass_explosives_after_kill(
        &mut self,
        victim: &crate::model::Model,
    ) -> Result<(), RuleError> {
        let Some(encounter) = self.state.encounter.as_deref() else {
            return Ok(());
        };
        let (Some(rule), count) = (
            encounter.setup.strategy.explosives,
            encounter.explosives_on(victim.id),
        ) else {
            return Ok(());
        };
        let Some(body) = victim.body().filter(|_| count > 0) else {
            return Ok(());
        };
        let heirs: Vec<ModelId> = self
            .state
            .models
            .iter()
            .filter(|m| m.owner != victim.owner && m.in_play() && m.card.counts_for_objectives())
            .filter(|m| {
                m.body().is_some_and(|other| {
                    crate::table::measure::horizontal_gap(&body, &other)
                        <= f64::from(rule.passed_within) + 1e-9
                })
            })
            .map(|m| m.id)
            .collect();
        self.emit(Event::ExplosivesLost {
            model: victim.id,
            count,
        })?;
        if heirs.is_empty() {
            return Ok(());
        }
        self.push_check()?;
        self.emit(Event::ModelChoiceOffered {
            seat: victim.owner.other(),
            options: heirs,
            then: crate::ability::ModelChoice::GainExplosives {
                from: victim.id,
                count,
            },
        })
    }

    fn make_strategy_markers(&mut self) -> Result<(), RuleError> {
        let Some(def) = self.state.marker_types.of_kind(MarkerKind::Strategy) else {
            return refuse("the content defines no strategy marker");
        };
        let name = def.name.clone();
        for at in crate::encounter::scoring::strategy_marker_points(&self.encounter()?.setup) {
            self.drop_marker(name.clone(), None, at)?;
        }
        Ok(())
    }

    fn deploy(&mut self, seat: Seat, model: ModelId, at: Point) -> Result<(), RuleError> {
        if !deployable(&self.state, seat).contains(&model) {
            return refuse(format!(
                "model {} is not one you deploy now (or it is already on the table)",
                model.0
            ));
        }
        let encounter = self.encounter()?;
        let side = encounter.layout_side(seat);
        let layout = encounter.setup.layout();
        let card = self
            .state
            .model(model)
            .map(|m| Arc::clone(&m.card))
            .ok_or(RuleError::NothingPending)?;
        let body = Body {
            id: Some(model.object()),
            center: at.v2(),
            radius: card.base.radius(),
            z: 0.0,
            size: f64::from(card.sz),
            seat: Some(seat),
            peon: card.peon,
        };
        if !layout.in_deployment_zone(side, &body) {
            return refuse("the model must be completely within your deployment zone");
        }
        // Put it there on a copy of the table to check it fits.
        let mut table = (*self.state.table()).clone();
        table.pieces.push(crate::table::Piece::of_card(
            model,
            &card,
            seat,
            Placement { at, z: 0 },
        ));
        let board = Board::new(&table, self.state.edition);
        let placed = movement::place(&board, model.object(), at, None, false)
            .map_err(|e| RuleError::not_allowed(e.to_string()))?;
        self.emit(Event::ModelDeployed {
            model,
            at: Placement {
                at,
                z: placed.end.z,
            },
        })
    }

    fn select_scheme(
        &mut self,
        seat: Seat,
        scheme: &str,
        target: Option<ModelId>,
        second_target: Option<ModelId>,
    ) -> Result<(), RuleError> {
        let encounter = self.encounter()?;
        let Some(def) = encounter.setup.schemes.scheme(scheme) else {
            return refuse(format!("there is no scheme {scheme}"));
        };
        if encounter.choices.has_revealed(seat, &def.name) {
            return refuse(format!("you have already revealed {}", def.name));
        }
        let name = def.name.clone();
        let model = |id: Option<ModelId>| id.and_then(|id| self.state.model(id));
        let (target, second_target) = match def.choice {
            None if target.is_some() || second_target.is_some() => {
                return refuse(format!("{name} asks for no chosen model"));
            }
            None => (None, None),
            Some(choice) => {
                let first_ok = model(target).is_some_and(|m| encounter.may_choose(seat, choice, m));
                let second_ok = match (choice.chooses_two(), model(target), model(second_target)) {
                    (false, _, _) => second_target.is_none(),
                    (true, Some(first), Some(second)) => {
                        encounter.may_choose_second(seat, choice, first, second)
                    }
                    (true, _, _) => false,
                };
                if !first_ok || !second_ok {
                    return refuse(format!("{name}: choose {}", choice.label()));
                }
                (target, second_target)
            }
        };
        self.emit(Event::SchemeSelected {
            seat,
            scheme: Hidden::new(
                seat,
                HeldScheme {
                    name,
                    target,
                    second_target,
                },
            ),
        })
    }

    fn scheme_decision(
        &mut self,
        seat: Seat,
        step: Step,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let timing = match step {
            Step::RevealAfterActivation { .. } => RevealTiming::EndOfActivation,
            _ => RevealTiming::EndOfTurn,
        };
        let revealing = matches!(
            step,
            Step::RevealScheme { .. } | Step::RevealAfterActivation { .. }
        );
        let encounter = self.encounter()?;
        let Some(held) = encounter.choices.held(seat).and_then(|h| h.value.clone()) else {
            return refuse("you hold no scheme");
        };
        let held_timing = encounter
            .setup
            .schemes
            .scheme(&held.name)
            .map_or(RevealTiming::EndOfTurn, |def| def.timing);
        if revealing
            && !held_timing.allows(timing)
            && matches!(
                command,
                PlayerCommand::RevealScheme | PlayerCommand::ClaimScheme { .. }
            )
        {
            return refuse(format!(
                "{} is revealed {}, not {}",
                held.name,
                held_timing.label(),
                timing.label()
            ));
        }
        let claimed = encounter.holds_claimed_scheme(seat);
        match command {
            PlayerCommand::RevealScheme if revealing && claimed => {
                return refuse(format!(
                    "the engine cannot check {}: claim its VP instead",
                    held.name
                ));
            }
            PlayerCommand::ClaimScheme { .. } if revealing && !claimed => {
                return refuse(format!(
                    "the engine checks {}: reveal it instead of claiming",
                    held.name
                ));
            }
            PlayerCommand::ClaimScheme { markers, .. } if revealing && !markers.is_empty() => {
                return refuse(
                    "a claimed scheme removes no markers: the players remove what it spends",
                );
            }
            PlayerCommand::ClaimScheme { vp, scheme, .. } if revealing => {
                if scheme
                    .as_deref()
                    .is_some_and(|name| !name.eq_ignore_ascii_case(&held.name))
                {
                    return refuse(format!("you hold {}, not another scheme", held.name));
                }
                let Some(most) = scoring::reveal_value(&self.state, encounter, seat, &held) else {
                    return refuse(format!("{} cannot be revealed now", held.name));
                };
                if !(1..=most).contains(vp) {
                    return refuse(format!("claim 1 to {most} VP for {}", held.name));
                }
                self.emit(Event::VpClaimed {
                    seat,
                    objective: ClaimedObjective::Scheme { scheme: held },
                    vp: *vp,
                })?;
                // The opponent answers; the reveal round goes on after.
                return self.step_to(Step::AnswerClaim { seat: seat.other() });
            }
            PlayerCommand::RevealScheme if revealing => {
                let Some(value) = scoring::reveal_value(&self.state, encounter, seat, &held) else {
                    return refuse(format!("{} cannot be revealed now", held.name));
                };
                let amount = value.min(self.vp_left(seat, true)?);
                self.emit(Event::SchemeRevealed {
                    seat,
                    scheme: held,
                    amount,
                })?;
            }
            PlayerCommand::AbandonScheme if !revealing => {
                self.emit(Event::SchemeAbandoned { seat, scheme: held })?
            }
            PlayerCommand::KeepScheme => self.emit(Event::SchemeKept { seat })?,
            _ if revealing => return refuse("reveal your scheme, or keep it for now"),
            _ => return refuse("abandon your scheme, or keep it"),
        }
        match step {
            Step::RevealAfterActivation { .. } => self.reveal_after_activation(Some(seat)),
            _ => self.next_scheme_step(Some(step)),
        }
    }

    /// What the acting model does inside its activation.
    fn activation_command(&mut self, seat: Seat, command: &PlayerCommand) -> Result<(), RuleError> {
        let Some(Frame::Activation { model, .. }) = self.state.frame() else {
            return Err(RuleError::NothingPending);
        };
        let actor = *model;
        Self::require_seat(seat, self.model_owner(actor)?)?;
        match command {
            PlayerCommand::FinishActivation => self.end_activation(),
            PlayerCommand::TakeAction {
                action,
                target,
                signature,
            } => {
                let slot = Self::card_action_slot(&self.state, actor, action, *signature)?;
                let request = crate::action::ActionRequest::own(actor, action, *target);
                self.take_action(&request, slot)
            }
            PlayerCommand::Walk { path, land_at } => {
                let slot = Self::normal_slot(&self.state, actor)?;
                self.move_model(actor, path, *land_at, MoveKind::Walk, slot, None)
            }
            PlayerCommand::Charge { to, land_at } => {
                if self.encounter()?.activation.charged {
                    return refuse("Charge is once per activation");
                }
                let slot = Self::normal_slot(&self.state, actor)?;
                self.move_model(actor, &[*to], *land_at, MoveKind::Charge, slot, None)
            }
            PlayerCommand::Interact { .. }
            | PlayerCommand::Prepare { .. }
            | PlayerCommand::Slam { .. }
            | PlayerCommand::SlamTerrain { .. }
            | PlayerCommand::Concentrate
            | PlayerCommand::Disengage
            | PlayerCommand::Assist { .. } => {
                let slot = Self::normal_slot(&self.state, actor)?;
                self.general_action(seat, actor, command, slot, None)
            }
            _ => refuse("the acting model takes an action or ends its activation"),
        }
    }

    /// Interact, Prepare, Slam or Concentrate by `actor`, decided by `seat`: in its own
    /// activation, or under `controller`'s control as an additional action.
    pub(super) fn general_action(
        &mut self,
        seat: Seat,
        actor: ModelId,
        command: &PlayerCommand,
        slot: ActionSlot,
        controller: Option<Seat>,
    ) -> Result<(), RuleError> {
        if let Some(name) = command.general_action()
            && !self.encounter_rules().general_actions.contains(&name)
        {
            return refuse(format!(
                "{} has no general action {name}",
                self.state.edition.name()
            ));
        }
        match command {
            PlayerCommand::Interact { with } => self.interact(seat, actor, with, slot, controller),
            PlayerCommand::Prepare { token } => {
                if !self.book().preparable().any(|t| t == *token) {
                    return refuse(format!("Prepare cannot give {token}"));
                }
                self.declare_general(actor, "Prepare", slot, controller)?;
                // A token is friendly to the crew that controlled its
                // application: the controller's.
                self.gain_token(actor, *token, 1, Some(seat))?;
                self.general_ended(actor, Vec::new())
            }
            PlayerCommand::Slam { marker } => {
                let table = self.state.table();
                let found =
                    self.marker_within(&Board::new(&table, self.state.edition), actor, *marker)?;
                if matches!(found, MarkerKind::Scheme | MarkerKind::Strategy) {
                    return refuse("Slam removes markers other than scheme and strategy markers");
                }
                // Acting in hazardous terrain counts even if the action
                // removes that terrain.
                let standing_in = crate::table::measure::hazards_while_acting(
                    &Board::new(&table, self.state.edition),
                    actor.object(),
                )
                .unwrap_or_default();
                self.declare_general(actor, "Slam", slot, controller)?;
                self.emit(Event::MarkerRemoved { id: *marker })?;
                self.general_ended(actor, standing_in)
            }
            PlayerCommand::SlamTerrain { terrain } => {
                let table = self.state.table();
                let board = Board::new(&table, self.state.edition);
                let Some(piece) = self.state.terrain.iter().find(|t| t.id == *terrain) else {
                    return refuse("there is no such terrain piece");
                };
                if !piece.traits.has(crate::table::Trait::Destructible) {
                    return refuse(format!(
                        "{} is not destructible: Slam removes only destructible terrain",
                        piece.name
                    ));
                }
                let me = board
                    .body(Target::Object(actor.object()))
                    .map_err(|e| RuleError::not_allowed(e.to_string()))?;
                if !terrain_within_reach(&board, &me, *terrain) {
                    return refuse(format!("{} is not within 1\"", piece.name));
                }
                let standing_in =
                    crate::table::measure::hazards_while_acting(&board, actor.object())
                        .unwrap_or_default();
                self.declare_general(actor, "Slam", slot, controller)?;
                self.emit(Event::TerrainRemoved { id: *terrain })?;
                self.general_ended(actor, standing_in)
            }
            PlayerCommand::Concentrate => {
                if self.encounter()?.once_used_by(actor, CONCENTRATE).is_some() {
                    return refuse("Concentrate is once per activation");
                }
                let Some(token) = self.book().concentrate_gives() else {
                    return refuse("the content defines no token that Concentrate gives");
                };
                self.declare_general(actor, CONCENTRATE, slot, controller)?;
                self.gain_token(actor, token, 1, Some(seat))?;
                self.general_ended(actor, Vec::new())
            }
            PlayerCommand::Disengage => self.disengage(actor, slot, controller),
            PlayerCommand::Assist { target, token } => {
                self.assist(seat, actor, *target, *token, slot, controller)
            }
            _ => refuse("that is not a general action"),
        }
    }

    /// What a card action would use of the limit, or why it may not be taken.
    pub(crate) fn card_action_slot(
        state: &GameState,
        actor: ModelId,
        action: &str,
        signature: bool,
    ) -> Result<ActionSlot, RuleError> {
        Self::card_action_limits(state, actor, action, signature).map_err(|refusal| {
            let name = state.model(actor).map_or("the model", |m| m.name());
            match refusal {
                SlotRefused::NotInEncounter => RuleError::NothingPending,
                SlotRefused::NoSuchAction => {
                    RuleError::not_allowed(format!("{name} has no action {action}"))
                }
                SlotRefused::OnceUsed(per) => {
                    let per = match per {
                        crate::model::OncePer::Activation => "activation",
                        crate::model::OncePer::Turn => "turn",
                        crate::model::OncePer::Game => "game",
                    };
                    RuleError::not_allowed(format!(
                        "{action} is once per {per}, and it has been taken"
                    ))
                }
                SlotRefused::NotSignature => {
                    RuleError::not_allowed(format!("{action} is not a signature action of {name}"))
                }
                SlotRefused::SignatureUsed => {
                    RuleError::not_allowed("the signature action of this activation is used")
                }
                SlotRefused::BonusUsed => {
                    RuleError::not_allowed("a model takes one bonus action per activation")
                }
                SlotRefused::LimitReached => RuleError::not_allowed(LIMIT_REACHED),
            }
        })
    }

    /// The limits' side of [`Sim::card_action_slot`], without words: the
    /// options ask it of every action at every step.
    pub(crate) fn card_action_limits(
        state: &GameState,
        actor: ModelId,
        action: &str,
        signature: bool,
    ) -> Result<ActionSlot, SlotRefused> {
        let (Some(encounter), Some(m)) = (state.encounter.as_deref(), state.model(actor)) else {
            return Err(SlotRefused::NotInEncounter);
        };
        let Some(card) = m.card.actions.iter().find(|a| *a.name == *action) else {
            return Err(SlotRefused::NoSuchAction);
        };
        Self::card_action_limits_of(state, encounter, m, card, signature, || {
            Self::normal_limits(state, actor)
        })
    }

    /// [`Self::card_action_limits`] for a card action already found, with
    /// the limit of the model's normal actions asked of `normal` (the
    /// option list works it out once for all the model's actions).
    pub(crate) fn card_action_limits_of(
        state: &GameState,
        encounter: &crate::encounter::Encounter,
        m: &crate::model::Model,
        card: &crate::model::ActionCard,
        signature: bool,
        normal: impl FnOnce() -> Result<ActionSlot, SlotRefused>,
    ) -> Result<ActionSlot, SlotRefused> {
        if let Some(per) = encounter.once_used_by(m.id, &card.name) {
            return Err(SlotRefused::OnceUsed(per));
        }
        let used = encounter.activation;
        if signature {
            if !card.signature || m.card.peon {
                return Err(SlotRefused::NotSignature);
            }
            if used.signature {
                return Err(SlotRefused::SignatureUsed);
            }
            return Ok(ActionSlot::Signature);
        }
        if used.free_melee && card.kind == crate::duel::ActionKind::Melee {
            return Ok(ActionSlot::Free);
        }
        if card.bonus {
            // 3rd edition Stunned: a bonus action takes one of the limit.
            if state.tokens.bonus_actions_count(&m.tokens) {
                return normal();
            }
            if used.bonus {
                return Err(SlotRefused::BonusUsed);
            }
            return Ok(ActionSlot::Bonus);
        }
        normal()
    }

    /// One of the model's actions (general actions always take one: they
    /// are never signature actions).
    pub(crate) fn normal_slot(state: &GameState, actor: ModelId) -> Result<ActionSlot, RuleError> {
        Self::normal_limits(state, actor).map_err(|refusal| match refusal {
            SlotRefused::NotInEncounter => RuleError::NothingPending,
            _ => RuleError::not_allowed(LIMIT_REACHED),
        })
    }

    /// [`Sim::normal_slot`] without words.
    pub(crate) fn normal_limits(
        state: &GameState,
        actor: ModelId,
    ) -> Result<ActionSlot, SlotRefused> {
        let used = state
            .encounter
            .as_deref()
            .ok_or(SlotRefused::NotInEncounter)?
            .activation;
        if used.actions >= Self::action_limit(state, actor) {
            return Err(SlotRefused::LimitReached);
        }
        Ok(ActionSlot::Normal)
    }

    pub(super) fn declare_general(
        &mut self,
        actor: ModelId,
        name: &str,
        slot: ActionSlot,
        controller: Option<Seat>,
    ) -> Result<(), RuleError> {
        self.push_check()?;
        self.emit(Event::ActionDeclared {
            model: actor,
            action: name.into(),
            target: None,
            slot,
            controller,
        })
    }

    /// Ends a general action; then the hazardous terrain the actor moved
    /// through (`moved_through`) or is in takes effect.
    pub(super) fn general_ended(
        &mut self,
        actor: ModelId,
        moved_through: Vec<String>,
    ) -> Result<(), RuleError> {
        self.emit(Event::ActionEnded {
            model: actor,
            success: true,
        })?;
        self.suffer_hazards(actor, moved_through)
    }

    /// A move of `model` along `path` as the table and the game allow it.
    /// A path that ends unsupported falls: to `land_at` when the fall has
    /// several equally near landing places (the mover picks), and never,
    /// for a model its own crew controls (`friendly`), to its death.
    pub(super) fn checked_move(
        &self,
        model: ModelId,
        path: &[Waypoint],
        land_at: Option<Point>,
        kind: MoveKind,
        inches: f64,
        friendly: bool,
    ) -> Result<CheckedMove, RuleError> {
        if path.is_empty() || path.len() > 16 {
            return refuse("a path has 1 to 16 waypoints");
        }
        let m = self.state.model(model).ok_or(RuleError::NothingPending)?;
        let from = m
            .placement
            .ok_or_else(|| RuleError::not_allowed("the model is not on the table"))?;
        let table = self.state.table();
        let board = Board::new(&table, self.state.edition);
        let outcome = movement::validate_move(&board, model.object(), path, kind, inches)
            .map_err(|e| RuleError::not_allowed(e.to_string()))?;
        let path_end = Placement {
            at: Point {
                x: outcome.end.x,
                y: outcome.end.y,
            },
            z: outcome.end.z,
        };
        let (to, fall) = match &outcome.fall {
            None => (path_end, None),
            Some(fall) => {
                let landing = Self::landing_place(fall, land_at)?;
                if friendly && u16::from(fall.damage) >= m.health {
                    return refuse(format!(
                        "{} may not choose to fall: the falling damage would kill it",
                        m.name()
                    ));
                }
                let to = Placement {
                    at: landing,
                    z: crate::table::milli(fall.to),
                };
                (to, Some((path_end, fall.damage)))
            }
        };
        if fall.is_none() && land_at.is_some() {
            return refuse("the move ends supported: it does not fall, so it has no landing place");
        }
        // 4th edition: models move through strategy markers but never end
        // on one (a model that stays where it is moves onto nothing). 3rd
        // edition models may stop on markers; the impassable ones stop
        // them on the table.
        let end = to.at.v2();
        let radius = m.card.base.radius();
        let on_marker = to != from
            && self.state.edition == crate::Edition::Fourth
            && self.state.markers.iter().any(|k| {
                k.kind == MarkerKind::Strategy
                    && k.at.v2().dist(end) < radius + k.base.radius() - crate::table::TOUCH
            });
        if on_marker {
            return refuse("a move may not end overlapping a strategy marker");
        }
        let mut hazards = outcome.hazards.clone();
        hazards.extend(
            crate::table::measure::hazards_while_acting(&board, model.object()).unwrap_or_default(),
        );
        Ok(CheckedMove {
            from,
            to,
            fall,
            left_engagement: !outcome.left_engagement.is_empty(),
            hazards,
        })
    }

    /// Where a fall lands: its one landing place, or the one of several
    /// equally near ones the mover chose.
    fn landing_place(fall: &movement::Fall, land_at: Option<Point>) -> Result<Point, RuleError> {
        match (fall.choices.as_slice(), land_at) {
            ([only], None) => Ok(*only),
            (_, Some(chosen)) => fall.landing_at(chosen).ok_or_else(|| {
                RuleError::not_allowed(format!(
                    "the fall may land only at one of: {}",
                    fall.choices_in_inches()
                ))
            }),
            (choices, None) => refuse(format!(
                "the fall has {} equally near landing places; choose one with land_at: {}",
                choices.len(),
                fall.choices_in_inches()
            )),
        }
    }

    /// The facts of a checked move: it moved, it fell (the fall's damage,
    /// irreducible, is dealt by the model that fell, which caused it).
    fn moved(
        &mut self,
        model: ModelId,
        moved: &CheckedMove,
        charge: bool,
    ) -> Result<(), RuleError> {
        let path_end = moved.fall.map_or(moved.to, |(end, _)| end);
        self.emit(Event::ModelMoved {
            model,
            from: moved.from,
            to: path_end,
            charge,
            left_engagement: moved.left_engagement,
        })?;
        let Some((from, damage)) = moved.fall else {
            return Ok(());
        };
        self.emit(Event::ModelFell {
            model,
            from,
            to: moved.to,
        })?;
        if damage > 0 {
            let owner = self.model_owner(model)?;
            self.queue(DamageInstance {
                credit: Some(model),
                attacker: Some(owner),
                ..DamageInstance::fixed(model, "falling".into(), damage, true, self.batch())
            })?;
        }
        Ok(())
    }

    /// The path for a `move` frame (a reduction's move): the model goes,
    /// then suffers the hazards it moved through.
    pub(super) fn effect_move_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::Move {
            seat,
            model,
            inches,
            push,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        let PlayerCommand::Move { path, land_at } = command else {
            return refuse(format!(
                "send the path {} moves along (where it stands, to stay)",
                self.model_name(model)
            ));
        };
        // Staying where it stands is always allowed: it is not a move.
        let here = self.state.model(model).and_then(|m| m.placement);
        if let (Some(here), [only]) = (here, path.as_slice())
            && (only.x, only.y, only.z) == (here.at.x, here.at.y, here.z)
        {
            return self.emit(Event::ModelMoved {
                model,
                from: here,
                to: here,
                charge: false,
                left_engagement: false,
            });
        }
        // The move is the model's own (a reduction's, or its Disengage's
        // push): its crew chooses it.
        let kind = if push {
            MoveKind::Push
        } else {
            MoveKind::Effect
        };
        let moved = self.checked_move(model, path, *land_at, kind, f64::from(inches), true)?;
        self.moved(model, &moved, false)?;
        self.suffer_hazards(model, moved.hazards)
    }

    /// Walk or Charge along `path`. `controller`: a model moved under
    /// control, whose Charge queues its melee action instead of giving the
    /// acting model a free one.
    pub(super) fn move_model(
        &mut self,
        actor: ModelId,
        path: &[Waypoint],
        land_at: Option<Point>,
        kind: MoveKind,
        slot: ActionSlot,
        controller: Option<Seat>,
    ) -> Result<(), RuleError> {
        let m = self.state.model(actor).ok_or(RuleError::NothingPending)?;
        let speed = f64::from(self.state.tokens.speed_of(m));
        let friendly = controller.is_none_or(|c| c == m.owner);
        let moved = self.checked_move(actor, path, land_at, kind, speed, friendly)?;
        let name = if kind == MoveKind::Charge {
            "Charge"
        } else {
            "Walk"
        };
        self.declare_general(actor, name, slot, controller)?;
        self.moved(actor, &moved, kind == MoveKind::Charge)?;
        if kind == MoveKind::Charge && slot == ActionSlot::Additional {
            self.emit(Event::ActionQueued {
                queued: crate::state::QueuedAction {
                    model: actor,
                    action: None,
                    target: None,
                    different_from: None,
                    controller,
                    from_charge: true,
                    of_kind: None,
                },
            })?;
        }
        self.general_ended(actor, moved.hazards)
    }

    /// A marker within reach of the actor (in 4th edition one no enemy
    /// model touches): its kind.
    pub(super) fn marker_within(
        &self,
        board: &Board,
        actor: ModelId,
        marker: ObjectId,
    ) -> Result<MarkerKind, RuleError> {
        let found = self
            .state
            .markers
            .iter()
            .find(|m| m.id == marker)
            .ok_or_else(|| RuleError::not_allowed("there is no such marker"))?;
        let me = board
            .body(Target::Object(actor.object()))
            .map_err(|e| RuleError::not_allowed(e.to_string()))?;
        let it = board
            .body(Target::Object(marker))
            .map_err(|e| RuleError::not_allowed(e.to_string()))?;
        if !within_general_action_range(self.state.edition, &me, &it) {
            return refuse(format!(
                "the marker is not {}",
                general_action_reach(self.state.edition)
            ));
        }
        // 4th edition only: a 3rd edition Interact does not care who
        // touches the marker (M3E Interact, line 1962).
        if self.state.edition == crate::Edition::Third {
            return Ok(found.kind);
        }
        let owner = self.model_owner(actor)?;
        // The board's bodies are the models on the table.
        let touched = board.bodies().any(|b| {
            b.seat.is_some_and(|s| s != owner) && crate::table::measure::base_contact(&b, &it)
        });
        if touched {
            return refuse("an enemy model is in base contact with that marker");
        }
        Ok(found.kind)
    }

    /// Why `actor` may not Interact now, if it may not: a peon, a token
    /// that forbids it, engaged, or in its own activation after a Walk out
    /// of engagement.
    pub(super) fn interact_refusal(&self, actor: ModelId) -> Option<String> {
        self.interact_refusal_ignoring(actor, None)
    }

    /// The same, `ignoring` one enemy's engagement (the model a Deliver a
    /// Message Interact targets).
    fn interact_refusal_ignoring(
        &self,
        actor: ModelId,
        ignoring: Option<ModelId>,
    ) -> Option<String> {
        let m = self.state.model(actor)?;
        let barred = self.state.acting_model() == Some(actor)
            && self
                .state
                .encounter
                .as_deref()
                .is_some_and(|e| e.activation.interact_barred(self.state.edition));
        if m.card.peon {
            Some("peons cannot Interact".into())
        } else if self.book().forbids_interact(&m.tokens) {
            Some(format!(
                "{} may not Interact (a token forbids it)",
                m.name()
            ))
        } else if barred {
            Some(
                match self.state.edition {
                    crate::Edition::Fourth => {
                        "a model that walked out of engagement may not Interact this activation"
                    }
                    crate::Edition::Third => {
                        "a model that took the Disengage action may not Interact this activation"
                    }
                }
                .into(),
            )
        } else if self.engaged_ignoring(actor, ignoring) {
            Some("an engaged model cannot Interact".into())
        } else {
            None
        }
    }

    /// `seat`: the crew controlling the action, whose markers it makes
    /// and claims.
    fn interact(
        &mut self,
        seat: Seat,
        actor: ModelId,
        with: &Interaction,
        slot: ActionSlot,
        controller: Option<Seat>,
    ) -> Result<(), RuleError> {
        // Strategies and schemes ignore an Insignificant model: it takes no
        // Interact of theirs (making or removing scheme markers is the
        // general action's own).
        let objective = matches!(
            with,
            Interaction::StrategyMarker { .. }
                | Interaction::PlantExplosives { .. }
                | Interaction::MoveIdol { .. }
                | Interaction::DeliverMessage { .. }
        );
        if objective
            && let Some(m) = self.state.model(actor)
            && !m.card.counts_for_objectives()
        {
            return refuse(format!(
                "{} is Insignificant: strategies and schemes ignore it",
                m.name()
            ));
        }
        // Deliver a Message: the target is checked first; it does not count
        // as engaging the interacting model.
        let ignoring = match with {
            Interaction::DeliverMessage { model } => {
                let owner = self.state.model(actor).map_or(seat, |m| m.owner);
                let encounter = self.encounter()?;
                let may = self
                    .state
                    .model(*model)
                    .is_some_and(|target| encounter.may_deliver_message_to(owner, target));
                if !may {
                    return refuse("no scheme of the pool lets your crew interact with that model");
                }
                Some(*model)
            }
            _ => None,
        };
        if let Some(reason) = self.interact_refusal_ignoring(actor, ignoring) {
            return Err(RuleError::not_allowed(reason));
        }
        let table = self.state.table();
        let board = Board::new(&table, self.state.edition);
        match with {
            Interaction::MakeSchemeMarker { at, replacing } => {
                let Some(def) = self.state.marker_types.of_kind(MarkerKind::Scheme) else {
                    return refuse("the content defines no scheme marker");
                };
                let radius = def.base().radius();
                let name = def.name.clone();
                self.check_marker_spot(&board, actor, *at, radius)?;
                let center = at.v2();
                let marker_rule = self.encounter_rules().scheme_markers;
                // 3rd edition drops it: it may lie under a model.
                if marker_rule == SchemeMarkerRule::AtMostFive
                    && overlaps_a_model(&board, center, radius)
                {
                    return refuse("a made marker may not overlap a model");
                }
                self.check_marker_spacing(seat, MarkerKind::Scheme, *at)?;
                let mine: Vec<ObjectId> =
                    self.state.scheme_markers_of(seat).map(|k| k.id).collect();
                let remove = match replacing {
                    Some(id) if mine.contains(id) => Some(*id),
                    Some(_) => return refuse("you may only remove one of your own scheme markers"),
                    None if mine.len() >= MAX_FRIENDLY_MARKERS
                        && marker_rule == SchemeMarkerRule::AtMostFive =>
                    {
                        return refuse("you have five scheme markers: name one to remove first");
                    }
                    None => None,
                };
                if remove.is_some()
                    && (mine.len() < MAX_FRIENDLY_MARKERS
                        || marker_rule != SchemeMarkerRule::AtMostFive)
                {
                    return refuse("a scheme marker is removed first only when you have five");
                }
                self.declare_general(actor, "Interact", slot, controller)?;
                if let Some(id) = remove {
                    self.emit(Event::MarkerRemoved { id })?;
                }
                self.drop_marker(name, Some(seat), *at)?;
            }
            Interaction::PlantExplosives { at } => {
                if self.encounter()?.setup.strategy.explosives.is_none() {
                    return refuse("this strategy has no explosives");
                }
                if self.encounter()?.explosives_on(actor) == 0 {
                    return refuse(format!(
                        "{} carries no explosives token",
                        self.model_name(actor)
                    ));
                }
                let Some(def) = self.state.marker_types.of_kind(MarkerKind::Strategy) else {
                    return refuse("the content defines no strategy marker");
                };
                let radius = def.base().radius();
                let name = def.name.clone();
                // A dropped marker may lie under a model's base (3rd
                // edition, Drop and Create).
                self.check_marker_spot(&board, actor, *at, radius)?;
                self.check_marker_spacing(seat, MarkerKind::Strategy, *at)?;
                self.declare_general(actor, "Interact", slot, controller)?;
                self.emit(Event::ExplosivesLost {
                    model: actor,
                    count: 1,
                })?;
                self.drop_marker(name, Some(seat), *at)?;
            }
            Interaction::RemoveSchemeMarker { marker } => {
                if self.marker_within(&board, actor, *marker)? != MarkerKind::Scheme {
                    return refuse("that is not a scheme marker");
                }
                // 3rd edition: every scheme marker in base contact goes.
                let removed: Vec<ObjectId> = match self.encounter_rules().scheme_markers {
                    SchemeMarkerRule::AtMostFive => vec![*marker],
                    SchemeMarkerRule::Spaced { .. } => {
                        let me = board
                            .body(Target::Object(actor.object()))
                            .map_err(|e| RuleError::not_allowed(e.to_string()))?;
                        self.state
                            .markers
                            .iter()
                            .filter(|k| {
                                k.kind == MarkerKind::Scheme
                                    && within_general_action_range(
                                        self.state.edition,
                                        &me,
                                        &k.body(),
                                    )
                            })
                            .map(|k| k.id)
                            .collect()
                    }
                };
                self.declare_general(actor, "Interact", slot, controller)?;
                for id in removed {
                    self.emit(Event::MarkerRemoved { id })?;
                }
            }
            Interaction::MoveIdol { marker, damage, to } => {
                return self.move_idol(&board, actor, (*marker, *damage, *to), slot, controller);
            }
            Interaction::StrategyMarker { marker } => {
                let interact = self.encounter()?.setup.strategy.interact;
                if interact == MarkerInteract::None {
                    return refuse("this strategy's markers cannot be interacted with");
                }
                if interact == MarkerInteract::MoveForDamage {
                    return refuse(
                        "a model moves this strategy's markers by suffering damage (move_idol)",
                    );
                }
                if self.marker_within(&board, actor, *marker)? != MarkerKind::Strategy {
                    return refuse("that is not a strategy marker");
                }
                if interact == MarkerInteract::PickUpForExplosives {
                    self.declare_general(actor, "Interact", slot, controller)?;
                    self.emit(Event::MarkerRemoved { id: *marker })?;
                    self.emit(Event::ExplosivesGained {
                        model: actor,
                        count: 1,
                        from: None,
                    })?;
                    return self.general_ended(actor, Vec::new());
                }
                let owner = self
                    .state
                    .markers
                    .iter()
                    .find(|k| k.id == *marker)
                    .and_then(|k| k.owner);
                let becomes = match (interact, owner) {
                    (_, None) => Some(seat),
                    (MarkerInteract::StepTowardFriendly, Some(friend)) if friend == seat => {
                        return refuse("that strategy marker is already friendly");
                    }
                    (_, Some(_)) => None,
                };
                self.declare_general(actor, "Interact", slot, controller)?;
                self.emit(Event::MarkerClaimed {
                    marker: *marker,
                    owner: becomes,
                })?;
            }
            Interaction::DeliverMessage { model } => {
                let (Some(me), Some(target)) = (
                    board.body(Target::Object(actor.object())).ok(),
                    self.state.model(*model),
                ) else {
                    return refuse("there is no such model");
                };
                let near = target
                    .body()
                    .is_some_and(|b| me.center.dist(b.center) - me.radius - b.radius <= 1.0 + 1e-9);
                if !near {
                    return refuse("the model must be within 1\"");
                }
                self.declare_general(actor, "Interact", slot, controller)?;
                self.emit(Event::MessageDelivered {
                    model: actor,
                    target: *model,
                })?;
            }
        }
        self.general_ended(actor, Vec::new())
    }

    /// A marker of type `name` (`owner`'s, if any), dropped on the ground
    /// at `at`.
    pub(super) fn drop_marker(
        &mut self,
        name: String,
        owner: Option<Seat>,
        at: Point,
    ) -> Result<(), RuleError> {
        self.emit(Event::MarkerMade {
            marker: name,
            owner,
            at: Placement { at, z: milli(0.0) },
        })
    }

    /// A marker `actor` drops centred at `at`: on the table, within the
    /// general actions' reach, clear of impassable terrain.
    fn check_marker_spot(
        &self,
        board: &Board,
        actor: ModelId,
        at: Point,
        radius: f64,
    ) -> Result<(), RuleError> {
        let me = board
            .body(Target::Object(actor.object()))
            .map_err(|e| RuleError::not_allowed(e.to_string()))?;
        let center = at.v2();
        let size = inches(crate::table::TABLE_SIZE);
        if center.x < radius
            || center.y < radius
            || center.x > size - radius
            || center.y > size - radius
        {
            return refuse("the marker must be on the table");
        }
        if center.dist(me.center) - me.radius - radius
            > general_action_range(self.state.edition) + 1e-9
        {
            return refuse(format!(
                "the marker must be made {}",
                general_action_reach(self.state.edition)
            ));
        }
        let impassable = board.obstacles().any(|o| {
            o.has(crate::table::Trait::Impassable)
                && o.bounds.0.dist(center) <= o.bounds.1 + radius
                && o.shape.gap_to_disc(center, radius) < -crate::table::TOUCH
        });
        if impassable {
            return refuse("a made marker may not overlap impassable terrain");
        }
        Ok(())
    }

    /// A marker of `kind` `seat` drops at `at` keeps the spacing rule's
    /// distance from its other ones of that kind.
    fn check_marker_spacing(
        &self,
        seat: Seat,
        kind: MarkerKind,
        at: Point,
    ) -> Result<(), RuleError> {
        if let Some(spacing) = marker_spot_crowded(&self.state, seat, kind, at) {
            let what = if kind == MarkerKind::Scheme {
                "scheme"
            } else {
                "strategy"
            };
            return refuse(format!(
                "a {what} marker may not be dropped within {spacing}\" of another of yours"
            ));
        }
        Ok(())
    }

    /// Whether the model is engaged by an enemy other than `ignoring`.
    pub(super) fn engaged_ignoring(&self, model: ModelId, ignoring: Option<ModelId>) -> bool {
        self.state.is_engaged(model, ignoring)
    }

    /// Inside an activation with nothing resolving: ends it once the model
    /// can do nothing more (killed, or every action used).
    pub(super) fn advance_in_activation(&mut self) -> Result<bool, RuleError> {
        let Some(Frame::Activation { model, .. }) = self.state.frame() else {
            return Ok(false);
        };
        let model = *model;
        if self.state.encounter.is_none() {
            return Ok(false);
        }
        let Some(m) = self.state.model(model) else {
            return Ok(false);
        };
        let used = self.encounter()?.activation;
        let spent = used.actions >= Self::action_limit(&self.state, model);
        let signature_left =
            !used.signature && !m.card.peon && m.card.actions.iter().any(|a| a.signature);
        let bonus_left = !used.bonus && m.card.actions.iter().any(|a| a.bonus);
        if !m.in_play() || (spent && !signature_left && !bonus_left && !used.free_melee) {
            self.end_activation()?;
            return Ok(true);
        }
        Ok(false)
    }
}

/// The models `seat` may put an explosives token on now (Plant
/// Explosives): its models on the table below their limit, while it has
/// tokens left to place.
pub(crate) fn explosives_placeable(state: &GameState, seat: Seat) -> Vec<ModelId> {
    let Some(encounter) = state.encounter.as_deref() else {
        return Vec::new();
    };
    let Some(rule) = encounter.setup.strategy.explosives else {
        return Vec::new();
    };
    if encounter.explosives_placed[seat.index()] >= rule.per_crew {
        return Vec::new();
    }
    state
        .models
        .iter()
        .filter(|m| m.owner == seat && m.on_table() && m.card.counts_for_objectives())
        .filter(|m| {
            let max = if m.card.minion {
                rule.minion_max
            } else {
                rule.other_max
            };
            encounter.explosives_on(m.id) < max
        })
        .map(|m| m.id)
        .collect()
}

/// The models `seat` may deploy now (none outside its deployment step).
pub(crate) fn deployable(state: &GameState, seat: Seat) -> Vec<ModelId> {
    let Some(encounter) = state.encounter.as_deref() else {
        return Vec::new();
    };
    if encounter.step != (Step::Deploy { seat }) {
        return Vec::new();
    }
    let splitter = EncounterRules::of(state.edition).splitting_seat(encounter.setup.attacker);
    let group = (seat == splitter).then(|| {
        let first = encounter.choices.first_group.unwrap_or(0);
        if Sim::to_deploy(state, seat.other(), None).is_empty() {
            1 - first
        } else {
            first
        }
    });
    Sim::to_deploy(state, seat, group)
}

/// `seat`'s scheme called `name` (any case): one it holds in secret, with
/// its choice, or one it revealed.
fn own_scheme(choices: &crate::encounter::Choices, seat: Seat, name: &str) -> Option<HeldScheme> {
    let i = seat.index();
    choices.schemes[i]
        .iter()
        .filter_map(|h| h.value.as_ref())
        .find(|h| h.name.eq_ignore_ascii_case(name))
        .cloned()
        .or_else(|| {
            choices.revealed[i]
                .iter()
                .find(|r| r.eq_ignore_ascii_case(name))
                .map(|r| {
                    let chosen = choices
                        .revealed_choices
                        .iter()
                        .find(|(s, held)| *s == seat && held.name.eq_ignore_ascii_case(r))
                        .map(|(_, held)| held);
                    HeldScheme {
                        name: r.clone(),
                        target: chosen.and_then(|held| held.target),
                        second_target: chosen.and_then(|held| held.second_target),
                    }
                })
        })
}

/// 3rd edition: the schemes `seat` may score 1 VP for now, in the end
/// phase of a scoring turn: those whose requirement the engine finds met,
/// and those it cannot check (claimed). Why each other may not:
/// [`scheme_claim_refusal`].
pub(crate) fn claimable_schemes(state: &GameState, seat: Seat) -> Vec<String> {
    own_scheme_names(state, seat)
        .into_iter()
        .filter(|name| scheme_claim_refusal(state, seat, name).is_none())
        .collect()
}

/// 3rd edition: the sets of scheme markers `seat` could remove to score
/// its scheme `name` now, when more than one set would do (with one, the
/// engine's own pick leaves nothing to choose). Each set is as large as
/// the engine's pick and meets the requirement on its own.
pub(crate) fn scheme_marker_sets(state: &GameState, seat: Seat, name: &str) -> Vec<Vec<ObjectId>> {
    let Some(held) = state
        .encounter
        .as_deref()
        .and_then(|e| own_scheme(&e.choices, seat, name))
    else {
        return Vec::new();
    };
    let Ok(ScoredBy::Engine { spent }) = scheme_scoring_now(state, seat, &held, &[]) else {
        return Vec::new();
    };
    if spent.is_empty() {
        return Vec::new();
    }
    let mine: Vec<ObjectId> = state.scheme_markers_of(seat).map(|k| k.id).collect();
    let mut sets = Vec::new();
    let mut picked = Vec::with_capacity(spent.len());
    subsets(&mine, spent.len(), 0, &mut picked, &mut |set| {
        if matches!(
            scheme_scoring_now(state, seat, &held, set),
            Ok(ScoredBy::Engine { .. })
        ) {
            sets.push(set.to_vec());
        }
    });
    if sets.len() < 2 {
        sets.clear();
    }
    sets
}

/// Calls `each` with every `size`-element subset of `from[start..]` added
/// to `picked`, in order.
fn subsets(
    from: &[ObjectId],
    size: usize,
    start: usize,
    picked: &mut Vec<ObjectId>,
    each: &mut impl FnMut(&[ObjectId]),
) {
    if picked.len() == size {
        each(picked);
        return;
    }
    for i in start..from.len() {
        picked.push(from[i]);
        subsets(from, size, i + 1, picked, each);
        picked.pop();
    }
}

/// Whether `seat` holds a scheme that has not used up its VP for this
/// turn or game: read from public claims (a crew holds two), never from
/// whether its requirement is met.
fn may_be_asked_to_score(state: &GameState, seat: Seat) -> bool {
    own_scheme_names(state, seat)
        .iter()
        .any(|name| scheme_claim_refusal_public(state, seat, name).is_none())
}

fn own_scheme_names(state: &GameState, seat: Seat) -> Vec<String> {
    let Some(encounter) = state.encounter.as_deref() else {
        return Vec::new();
    };
    let choices = &encounter.choices;
    choices.schemes[seat.index()]
        .iter()
        .filter_map(|h| h.value.as_ref())
        .map(|h| h.name.clone())
        .chain(choices.revealed[seat.index()].iter().cloned())
        .collect()
}

/// Whether the engine itself would score `seat`'s scheme `name` now (its
/// requirement checked and met), rather than take a claim for it.
pub(crate) fn scheme_checked_and_met(state: &GameState, seat: Seat, name: &str) -> bool {
    scheme_claim_refusal_public(state, seat, name).is_none()
        && state
            .encounter
            .as_deref()
            .and_then(|e| own_scheme(&e.choices, seat, name))
            .is_some_and(|held| {
                matches!(
                    scheme_scoring_now(state, seat, &held, &[]),
                    Ok(ScoredBy::Engine { .. })
                )
            })
}

/// How a 3rd edition scheme scores now.
enum ScoredBy {
    /// The engine found its requirement met: these scheme markers go.
    Engine { spent: Vec<crate::table::ObjectId> },
    /// The engine cannot check the requirement: the opponent answers.
    Claim,
}

/// Which of `held`'s requirements scores now, or why none does: before
/// the last turn its Reveal (once), on the last turn its End, or its
/// Reveal if it is still secret. A scheme the content does not describe
/// is claimed.
fn scheme_scoring_now(
    state: &GameState,
    seat: Seat,
    held: &HeldScheme,
    named: &[ObjectId],
) -> Result<ScoredBy, String> {
    let Some(encounter) = state.encounter.as_deref() else {
        return Err("there is no encounter".into());
    };
    let Some(def) = encounter.setup.schemes.scheme(&held.name) else {
        return if named.is_empty() {
            Ok(ScoredBy::Claim)
        } else {
            Err(format!(
                "{}: the engine removes no markers for a scheme it cannot check",
                held.name
            ))
        };
    };
    if !named.is_empty() && !def.spends_markers {
        return Err(format!("{} removes no scheme markers", def.name));
    }
    // The markers named must be the crew's own scheme markers, each once.
    let distinct = named
        .iter()
        .enumerate()
        .all(|(i, id)| !named[..i].contains(id));
    let all_friendly = named
        .iter()
        .all(|id| state.scheme_markers_of(seat).any(|k| k.id == *id));
    if !distinct || !all_friendly {
        return Err("name each of your own scheme markers at most once".into());
    }
    let among = (!named.is_empty()).then_some(named);
    let last = encounter.turn >= EncounterRules::of(state.edition).turns;
    // A disputed claim revealed the scheme for nothing: its Reveal VP is
    // still to score.
    let revealed = encounter
        .choices
        .scores_of(seat, &def.name)
        .any(|score| score.vp > 0);
    let mut requirements: Vec<&[crate::encounter::objectives::SchemeCondition]> = Vec::new();
    if last {
        requirements.extend([def.end.as_slice(), def.end_otherwise.as_slice()]);
    }
    if !revealed {
        requirements.push(&def.reveal);
    }
    let mut claimed = false;
    for conditions in requirements.into_iter().filter(|c| !c.is_empty()) {
        if conditions.contains(&crate::encounter::objectives::SchemeCondition::Claimed) {
            claimed = true;
            continue;
        }
        let met = scoring::requirement_met(state, encounter, seat, held, conditions, among);
        if let Some(markers) = met {
            // Markers named beyond those the requirement counts would go
            // for nothing: the requirement must take them all.
            if markers.len() < named.len() {
                continue;
            }
            let spent = if def.spends_markers {
                markers
            } else {
                Vec::new()
            };
            return Ok(ScoredBy::Engine { spent });
        }
    }
    if claimed && named.is_empty() {
        return Ok(ScoredBy::Claim);
    }
    let name = &def.name;
    if !named.is_empty() {
        return Err(format!(
            "{name}: the scheme markers named do not meet its requirement on their own"
        ));
    }
    Err(match (last, revealed) {
        (false, _) => format!("{name}: its Reveal requirement is not met now"),
        (true, true) => format!("{name}: its End requirement is not met"),
        (true, false) => format!("{name}: neither its Reveal nor its End requirement is met"),
    })
}

/// Why `seat` may not score its scheme `name` now, if it may not: the
/// limits below ([`scheme_claim_refusal_public`]), or a requirement the
/// engine finds unmet.
pub(crate) fn scheme_claim_refusal(state: &GameState, seat: Seat, name: &str) -> Option<String> {
    if let Some(why) = scheme_claim_refusal_public(state, seat, name) {
        return Some(why);
    }
    let held = own_scheme(&state.encounter.as_deref()?.choices, seat, name)?;
    scheme_scoring_now(state, seat, &held, &[]).err()
}

/// Why `seat` may not claim 1 VP for its scheme `name` now, as public
/// facts tell. A scheme scores at most once a turn and 2 VP a game: its
/// reveal VP on any turn from the second, its end-of-game VP on the last.
/// A disputed claim gains nothing and does not use up the scheme: it may
/// be claimed again on a later turn.
fn scheme_claim_refusal_public(state: &GameState, seat: Seat, name: &str) -> Option<String> {
    let encounter = state.encounter.as_deref()?;
    let rules = EncounterRules::of(state.edition);
    if rules.schemes != SchemeRule::TwoFromThePool {
        return Some("schemes are not claimed one by one in this edition".into());
    }
    if encounter.turn < rules.first_scoring_turn {
        return Some(format!("nothing scores on turn {}", encounter.turn));
    }
    let choices = &encounter.choices;
    if own_scheme(choices, seat, name).is_none() {
        return Some(format!("{name} is not one of your schemes"));
    }
    let (mut vp, mut this_turn) = (0u8, false);
    for score in choices.scores_of(seat, name) {
        vp = vp.saturating_add(score.vp);
        this_turn |= score.turn == encounter.turn;
    }
    if this_turn {
        return Some(format!("{name} has been claimed this turn: once a turn"));
    }
    if vp >= 2 {
        return Some(format!("{name} has scored its 2 VP"));
    }
    if vp >= 1 && encounter.turn < rules.turns {
        return Some(format!(
            "{name} has scored when revealed: its second VP is scored at the end of the game (turn {})",
            rules.turns
        ));
    }
    None
}

/// The schemes `seat` may select now: the Next Available Schemes of the
/// one it revealed or abandoned that the content defines and it has not
/// revealed.
pub(crate) fn selectable(encounter: &Encounter, seat: Seat) -> Vec<String> {
    let Some(from) = encounter.choices.select_from[seat.index()]
        .as_deref()
        .and_then(|name| encounter.setup.schemes.scheme(name))
    else {
        return Vec::new();
    };
    from.next
        .iter()
        .filter_map(|name| encounter.setup.schemes.scheme(name))
        .filter(|def| !encounter.choices.has_revealed(seat, &def.name))
        .map(|def| def.name.clone())
        .collect()
}

fn step_name(step: Step) -> &'static str {
    match step {
        Step::ChooseZone => "the attacker chooses a deployment zone",
        Step::Declare { .. } => "choosing crews",
        Step::StartOfGame => "the start of the game",
        Step::StartEffects { game: true } => "effects at the start of the game",
        Step::StartEffects { game: false } => "effects of the start phase",
        Step::SplitCrew => "a player divides their crew",
        Step::ChooseGroup => "the opponent picks the group that deploys first",
        Step::Deploy { .. } => "deployment",
        Step::ChooseSchemes => "choosing schemes",
        Step::PlaceExplosives { .. } => "placing explosives tokens",
        Step::GiveInitiative { .. } => "giving initiative",
        Step::AssumeLeadership { .. } => "assuming leadership",
        Step::StartDiscard => "discarding before drawing",
        Step::SoulstoneDraw { .. } => "drawing with a soulstone",
        Step::InitiativeCheat { .. } => "cheating the initiative flip",
        Step::DropIdol { .. } => "dropping this turn's idol",
        Step::Activations => "the activation phase",
        Step::EndEffects => "end phase effects",
        Step::RevealScheme { .. } => "revealing schemes",
        Step::RevealAfterActivation { .. } => "revealing schemes after an activation",
        Step::AbandonScheme { .. } => "abandoning schemes",
        Step::RemoveStrategyMarker { .. } => "removing a strategy marker",
        Step::ClaimStrategy { .. } => "claiming the strategy's VP",
        Step::AnswerClaim { .. } => "answering a claim",
        Step::SelectSchemes => "selecting new schemes",
        Step::Over => "the game is over",
    }
}

/// Whether a command is one of the encounter's.
pub(super) fn is_encounter_command(command: &PlayerCommand) -> bool {
    matches!(
        command,
        PlayerCommand::ChooseZone { .. }
            | PlayerCommand::Declare { .. }
            | PlayerCommand::SplitCrew { .. }
            | PlayerCommand::ChooseGroup { .. }
            | PlayerCommand::Deploy { .. }
            | PlayerCommand::PlaceExplosives { .. }
            | PlayerCommand::SelectScheme { .. }
            | PlayerCommand::GiveInitiative { .. }
            | PlayerCommand::DiscardBeforeDrawing { .. }
            | PlayerCommand::DrawWithSoulstone
            | PlayerCommand::DeclineSoulstoneDraw
            | PlayerCommand::AssumeLeadership { .. }
            | PlayerCommand::DeclineLeadership
            | PlayerCommand::Pass
            | PlayerCommand::ChainActivate { .. }
            | PlayerCommand::DeclineChainActivation
            | PlayerCommand::Activate { .. }
            | PlayerCommand::TakeAction { .. }
            | PlayerCommand::Walk { .. }
            | PlayerCommand::Charge { .. }
            | PlayerCommand::Interact { .. }
            | PlayerCommand::Prepare { .. }
            | PlayerCommand::Slam { .. }
            | PlayerCommand::SlamTerrain { .. }
            | PlayerCommand::Concentrate
            | PlayerCommand::Disengage
            | PlayerCommand::Assist { .. }
            | PlayerCommand::FinishActivation
            | PlayerCommand::RevealScheme
            | PlayerCommand::AbandonScheme
            | PlayerCommand::KeepScheme
            | PlayerCommand::ClaimScheme { .. }
            | PlayerCommand::ClaimStrategy { .. }
            | PlayerCommand::ConfirmClaim
            | PlayerCommand::DisputeClaim
            | PlayerCommand::RemoveStrategyMarker { .. }
            | PlayerCommand::DropIdol { .. }
    )
}

/// A move the table and the game allow: where the model stood and will
/// stand, whether it leaves engagement, and the hazardous terrain it moves
/// through (what it started in counts too).
pub(super) struct CheckedMove {
    from: Placement,
    /// Where it ends: the path's end, or where it landed from a fall.
    to: Placement,
    /// The path's end, where it fell from, and the falling damage.
    fall: Option<(Placement, u8)>,
    left_engagement: bool,
    hazards: Vec<String>,
}
