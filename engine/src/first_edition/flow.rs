//! The flow of a 1st edition encounter (quick reference, "Turn Sequence"
//! and "Encounters"), stage by stage, as boardgame.io declares phases:
//!
//! | stage | waits for | then |
//! | --- | --- | --- |
//! | contributing | both players' entropy | decks shuffled; strategies and deployment flipped |
//! | choosing strategy / deployment | the joker's chooser | the next choice |
//! | choosing schemes | both, in secret | the deployment flip-off |
//! | choosing deploy order | the higher flip | deploying |
//! | deploying | the deploying seat, a model at a time | schemes announced, decks shuffled, turn 1 |
//! | discarding | each seat in activation order (not on turn 1) | draw to the hand's size |
//! | reflipping | the lower initiative flip, with a soulstone | activations |
//! | activating / acting / dueling / damage | the seat in play | alternating activations |
//! | closing | nobody | discards shuffled back; after the 6th turn a flip of 10+ goes on |
//!
//! Every change is a fact ([`Run::emit`] applies it at once), and a
//! command runs on a copy, so a refused one leaves the game untouched.

use serde::{Deserialize, Serialize};

use super::actions::{self, Action};
use super::conditions::Lasting;
use super::facts::{Fact, apply};
use super::field;
use super::objectives::{self, Deployment, SchemePick, Strategy};
use super::skirmish::{Activation, Initiative, Model, ModelId, Skirmish, Stage};
use super::{damage, resolve};
use crate::fairness::{self, Bytes32};
use crate::fate::Card;
use crate::table::Point;
use crate::{RuleError, Seat};

/// The turns before the game-length flips begin.
pub const TURNS: u8 = 6;
/// A game-length flip this high (or the Red Joker) plays another turn.
pub const ANOTHER_TURN: u8 = 10;
/// Every model's general action points (our reading: the reference
/// names general AP without a number; 3rd edition gives two).
pub const GENERAL_AP: u8 = 2;

/// A player's command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "order", rename_all = "snake_case")]
pub enum Order {
    Contribute {
        entropy: Bytes32,
    },
    ChooseStrategy {
        strategy: Strategy,
    },
    ChooseDeployment {
        deployment: Deployment,
    },
    ChooseSchemes {
        schemes: Vec<SchemePick>,
    },
    DeployFirst {
        first: bool,
    },
    Deploy {
        model: ModelId,
        at: Point,
    },
    Discard {
        cards: Vec<Card>,
    },
    Reflip {
        reflip: bool,
    },
    Activate {
        model: ModelId,
    },
    Act {
        action: Action,
    },
    EndActivation,
    /// Cheat fate with a card from the hand, spend a soulstone for a
    /// second card, both, or neither.
    ChangeTotal {
        cheat: Option<Card>,
        soulstone: bool,
    },
    Trigger {
        trigger: Option<String>,
    },
    Prevent {
        soulstone: bool,
    },
}

/// A command as the game executed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Submission {
    Player {
        seat: Seat,
        version: u64,
        order: Order,
    },
    /// The game flow ends the game now (a clock, a resignation).
    EndNow { version: u64 },
}

/// Checks `submission` against the rules and, if they allow it, applies
/// it and every automatic step after it. A refused one changes nothing.
pub fn execute(game: &mut Skirmish, submission: &Submission) -> Result<Vec<Fact>, RuleError> {
    let version = match submission {
        Submission::Player { version, .. } | Submission::EndNow { version } => *version,
    };
    if version != game.version {
        return Err(RuleError::StaleVersion {
            made_for: version,
            current: game.version,
        });
    }
    if game.is_over() {
        return Err(RuleError::GameOver);
    }
    let mut work = game.clone();
    let mut run = Run {
        game: &mut work,
        facts: Vec::new(),
    };
    match submission {
        Submission::Player { seat, order, .. } => {
            if !waits_for(run.game, *seat) {
                return Err(RuleError::not_allowed("the game is not waiting for you"));
            }
            run.order(*seat, order)?;
        }
        Submission::EndNow { .. } => run.end_game(),
    }
    let facts = run.facts;
    *game = work;
    Ok(facts)
}

/// Whether the game waits for `seat`.
pub fn waits_for(game: &Skirmish, seat: Seat) -> bool {
    match &game.stage {
        Stage::Contributing => game.contributions[seat.index()].is_none(),
        Stage::ChoosingSchemes => !game.player(seat).schemes_chosen,
        Stage::ChoosingStrategy { seat: s }
        | Stage::ChoosingDeployment { seat: s }
        | Stage::ChoosingDeployOrder { seat: s }
        | Stage::Deploying { seat: s }
        | Stage::Discarding { seat: s }
        | Stage::Reflipping { seat: s, .. }
        | Stage::Activating { seat: s } => *s == seat,
        Stage::Acting { activation } => {
            game.model(activation.model).is_some_and(|m| m.seat == seat)
        }
        Stage::Dueling { duel, .. } => duel.waits_for() == seat,
        Stage::CheatingDamage { flip, .. } => damage::damage_chooser(game, flip) == seat,
        Stage::Preventing { flip, .. } => game.model(flip.target).is_some_and(|m| m.seat == seat),
        Stage::Over => false,
    }
}

/// A model held by a condition that halts it (no actions, no melee range).
pub fn halted(game: &Skirmish, model: &Model) -> bool {
    model
        .conditions
        .iter()
        .any(|(name, _)| game.conditions.rule(name).is_some_and(|r| r.halts))
}

/// The crew may spend soulstones now: it has one, and a model that may.
pub fn may_spend_stone(game: &Skirmish, seat: Seat) -> bool {
    game.player(seat).soulstones > 0 && game.on_table(seat).any(|m| m.card.uses_soulstones())
}

/// A game being changed by one command: each fact applied as it is made.
pub struct Run<'a> {
    pub game: &'a mut Skirmish,
    pub facts: Vec<Fact>,
}

fn refuse<T>(message: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::not_allowed(message.into()))
}

impl Run<'_> {
    pub fn emit(&mut self, fact: Fact) {
        apply(self.game, &fact);
        self.facts.push(fact);
    }

    pub fn now(&mut self, stage: Stage) {
        self.emit(Fact::Now {
            stage: Box::new(stage),
        });
    }

    /// Shuffles the seat's discards back into its deck.
    pub fn shuffle(&mut self, seat: Seat) {
        let player = self.game.player(seat);
        let cards: Vec<Card> = player
            .deck
            .iter()
            .chain(&player.discards)
            .copied()
            .collect();
        let number = player.shuffles + 1;
        let contributions = self.game.contributions.map(Option::unwrap_or_default);
        let mut deck =
            fairness::shuffle_cards(&self.game.seed, seat, number, &contributions, &cards);
        // The deck's top is its last card.
        deck.reverse();
        self.emit(Fact::Shuffled { seat, number, deck });
    }

    /// The top `count` cards of the seat's deck, shuffling the discards in
    /// first when it runs short.
    fn top(&mut self, seat: Seat, count: usize) -> Vec<Card> {
        if self.game.player(seat).deck.len() < count {
            self.shuffle(seat);
        }
        self.game
            .player(seat)
            .deck
            .iter()
            .rev()
            .take(count)
            .copied()
            .collect()
    }

    /// Turns over `count` cards, face up.
    pub fn flip(&mut self, seat: Seat, count: usize) -> Vec<Card> {
        let cards = self.top(seat, count);
        self.emit(Fact::Flipped {
            seat,
            cards: cards.clone(),
        });
        cards
    }

    pub fn flip_one(&mut self, seat: Seat) -> Card {
        self.flip(seat, 1)
            .first()
            .copied()
            .unwrap_or(Card::BLACK_JOKER)
    }

    pub fn draw(&mut self, seat: Seat, count: usize) {
        let cards = self.top(seat, count);
        self.emit(Fact::Drew { seat, cards });
    }

    fn draw_up(&mut self, seat: Seat) {
        let wanted = usize::from(self.game.encounter.max_hand());
        let held = self.game.player(seat).hand.len();
        if held < wanted {
            let cards = self.top(seat, wanted - held);
            self.emit(Fact::Drew { seat, cards });
        }
    }

    fn order(&mut self, seat: Seat, order: &Order) -> Result<(), RuleError> {
        let stage = self.game.stage.clone();
        match (order, stage) {
            (Order::Contribute { entropy }, Stage::Contributing) => {
                self.emit(Fact::Contributed {
                    seat,
                    entropy: *entropy,
                });
                if self.game.contributions.iter().all(Option::is_some) {
                    self.begin();
                }
            }
            (Order::ChooseStrategy { strategy }, Stage::ChoosingStrategy { .. }) => {
                self.emit(Fact::StrategySet {
                    seat,
                    strategy: Some(*strategy),
                    flip: None,
                });
                self.setup_next();
            }
            (Order::ChooseDeployment { deployment }, Stage::ChoosingDeployment { .. }) => {
                self.emit(Fact::DeploymentSet {
                    deployment: Some(*deployment),
                    flip: None,
                });
                self.setup_next();
            }
            (Order::ChooseSchemes { schemes }, Stage::ChoosingSchemes) => {
                if let Some(problem) = objectives::schemes_problem(self.game, seat, schemes) {
                    return refuse(problem);
                }
                self.emit(Fact::SchemesChosen {
                    seat,
                    schemes: schemes.clone(),
                });
                self.setup_next();
            }
            (Order::DeployFirst { first }, Stage::ChoosingDeployOrder { .. }) => {
                let first = if *first { seat } else { seat.other() };
                self.emit(Fact::FirstDeployer { seat: first });
                self.setup_next();
            }
            (Order::Deploy { model, at }, Stage::Deploying { .. }) => {
                self.deploy(seat, *model, *at)?;
                self.setup_next();
            }
            (Order::Discard { cards }, Stage::Discarding { .. }) => {
                let mut hand = self.game.player(seat).hand.clone();
                for card in cards {
                    let Some(i) = hand.iter().position(|c| c == card) else {
                        return refuse(format!("{card} is not in your hand"));
                    };
                    hand.remove(i);
                }
                if !cards.is_empty() {
                    self.emit(Fact::Discarded {
                        seat,
                        cards: cards.clone(),
                    });
                }
                self.draw_up(seat);
                if seat == self.game.first {
                    self.now(Stage::Discarding { seat: seat.other() });
                } else {
                    self.initiative();
                }
            }
            (Order::Reflip { reflip }, Stage::Reflipping { initiative, .. }) => {
                self.reflip(seat, *reflip, initiative)?;
            }
            (Order::Activate { model }, Stage::Activating { .. }) => self.activate(seat, *model)?,
            (Order::Act { action }, Stage::Acting { activation }) => {
                actions::take(self, activation, action)?;
            }
            (Order::EndActivation, Stage::Acting { activation }) => {
                self.end_activation(activation.model);
            }
            (Order::ChangeTotal { cheat, soulstone }, Stage::Dueling { activation, duel }) => {
                resolve::change_total(self, seat, activation, *duel, *cheat, *soulstone)?;
            }
            (Order::Trigger { trigger }, Stage::Dueling { activation, duel }) => {
                resolve::declare_trigger(self, seat, activation, *duel, trigger.as_deref())?;
            }
            (
                Order::ChangeTotal {
                    cheat,
                    soulstone: false,
                },
                Stage::CheatingDamage {
                    activation,
                    flip,
                    then,
                },
            ) => damage::cheat_damage(self, activation, *flip, *then, *cheat)?,
            (
                Order::Prevent { soulstone },
                Stage::Preventing {
                    activation,
                    flip,
                    then,
                },
            ) => damage::prevent(self, activation, *flip, *then, *soulstone)?,
            (order, stage) => {
                return refuse(format!(
                    "{} is not a choice now ({})",
                    order_name(order),
                    super::words::asking(&stage)
                ));
            }
        }
        Ok(())
    }

    /// Both players have cut: shuffle, flip strategies and deployment.
    fn begin(&mut self) {
        for seat in Seat::BOTH {
            self.shuffle(seat);
        }
        for seat in Seat::BOTH {
            let card = self.flip_one(seat);
            self.emit(Fact::StrategySet {
                seat,
                strategy: Strategy::from_flip(card),
                flip: Some(card),
            });
        }
        let card = self.flip_one(Seat::A);
        self.emit(Fact::DeploymentSet {
            deployment: Deployment::from_flip(card),
            flip: Some(card),
        });
        self.setup_next();
    }

    /// The next setup step the game needs, or the first turn.
    fn setup_next(&mut self) {
        if let Some(seat) = Seat::BOTH
            .into_iter()
            .find(|s| self.game.player(*s).strategy.is_none())
        {
            return self.now(Stage::ChoosingStrategy { seat });
        }
        if self.game.deployment.is_none() {
            // The Black Joker lets the flipper (player A) choose, the Red
            // Joker the other player.
            let seat = if self.game.deployment_flip == Some(Card::RED_JOKER) {
                Seat::B
            } else {
                Seat::A
            };
            return self.now(Stage::ChoosingDeployment { seat });
        }
        if Seat::BOTH
            .iter()
            .any(|s| !self.game.player(*s).schemes_chosen)
        {
            if self.game.stage != Stage::ChoosingSchemes {
                self.now(Stage::ChoosingSchemes);
            }
            return;
        }
        let Some(first) = self.game.first_deployer else {
            let winner = loop {
                let a = self.flip_one(Seat::A).value();
                let b = self.flip_one(Seat::B).value();
                if a != b {
                    break if a > b { Seat::A } else { Seat::B };
                }
            };
            return self.now(Stage::ChoosingDeployOrder { seat: winner });
        };
        for seat in [first, first.other()] {
            if self.game.crew(seat).any(|m| m.at.is_none() && !m.killed) {
                if self.game.stage != (Stage::Deploying { seat }) {
                    self.now(Stage::Deploying { seat });
                }
                return;
            }
        }
        if Seat::BOTH
            .iter()
            .any(|s| self.game.player(*s).strategy == Some(Strategy::TreasureHunt))
        {
            self.emit(Fact::TreasurePlaced {
                at: Some(field::point(field::center())),
            });
        }
        // Deployed: decks shuffled anew before the first turn.
        for seat in Seat::BOTH {
            self.shuffle(seat);
        }
        self.begin_turn(1);
    }

    fn deploy(&mut self, seat: Seat, id: ModelId, at: Point) -> Result<(), RuleError> {
        let Some(model) = self.game.model(id).filter(|m| m.seat == seat) else {
            return refuse("that is not a model of your crew");
        };
        if model.at.is_some() {
            return refuse(format!("{} is already deployed", model.card.name));
        }
        if let Some(problem) = actions::deploy_problem(self.game, model, at) {
            return refuse(problem);
        }
        self.emit(Fact::Placed { model: id, at });
        Ok(())
    }

    fn begin_turn(&mut self, turn: u8) {
        self.emit(Fact::TurnBegan { turn });
        if turn == 1 {
            // The first turn starts at drawing: there is nothing to discard.
            for seat in Seat::BOTH {
                self.draw_up(seat);
            }
            self.initiative();
        } else {
            let first = self.game.first;
            self.now(Stage::Discarding { seat: first });
        }
    }

    fn initiative(&mut self) {
        let flips = loop {
            let a = self.flip_one(Seat::A);
            let b = self.flip_one(Seat::B);
            if a.value() != b.value() {
                break [Some(a), Some(b)];
            }
        };
        self.offer_reflip(Initiative {
            flips,
            reflipped: [false, false],
        });
    }

    fn offer_reflip(&mut self, initiative: Initiative) {
        let value = |s: Seat| initiative.flips[s.index()].map_or(0, Card::value);
        let lower = if value(Seat::A) < value(Seat::B) {
            Seat::A
        } else {
            Seat::B
        };
        if !initiative.reflipped[lower.index()] && may_spend_stone(self.game, lower) {
            self.now(Stage::Reflipping {
                seat: lower,
                initiative,
            });
        } else {
            self.initiative_won(lower.other());
        }
    }

    fn reflip(
        &mut self,
        seat: Seat,
        reflip: bool,
        mut initiative: Initiative,
    ) -> Result<(), RuleError> {
        if !reflip {
            self.initiative_won(seat.other());
            return Ok(());
        }
        self.emit(Fact::SoulstoneSpent { seat });
        let card = self.flip_one(seat);
        initiative.flips[seat.index()] = Some(card);
        initiative.reflipped[seat.index()] = true;
        let other = initiative.flips[seat.other().index()].map_or(0, Card::value);
        if card.value() == other {
            // A tie starts the step again.
            self.initiative();
        } else {
            self.offer_reflip(initiative);
        }
        Ok(())
    }

    fn initiative_won(&mut self, seat: Seat) {
        self.emit(Fact::InitiativeWon { seat });
        self.next_activation(seat);
    }

    /// The next activation, `preferred`'s if it has a model ready; the
    /// closing phase once no one has.
    pub fn next_activation(&mut self, preferred: Seat) {
        for seat in [preferred, preferred.other()] {
            if self.game.on_table(seat).any(|m| !m.activated) {
                return self.now(Stage::Activating { seat });
            }
        }
        self.closing();
    }

    fn activate(&mut self, seat: Seat, id: ModelId) -> Result<(), RuleError> {
        let Some(model) = self.game.model(id).filter(|m| m.seat == seat) else {
            return refuse("that is not a model of your crew");
        };
        if !model.on_table() {
            return refuse(format!("{} is not on the table", model.card.name));
        }
        if model.activated {
            return refuse(format!("{} has activated this turn", model.card.name));
        }
        let model = model.clone();
        self.emit(Fact::Activated { model: id });
        // The errata's order: a halted model's activation is skipped (and
        // its halt ends); then the start effects; then action points.
        if halted(self.game, &model) {
            self.end_conditions(&model);
            self.next_activation(seat.other());
            return Ok(());
        }
        if model.falling_back {
            self.emit(Fact::Rallied { model: id });
            self.end_activation(id);
            return Ok(());
        }
        for (name, value) in &model.conditions {
            let Some(rule) = self.game.conditions.rule(name).cloned() else {
                continue;
            };
            if rule.wounds_per_counter {
                damage::wound(self, id, *value, None);
            }
            if rule.lasting == Lasting::Counters {
                self.emit(Fact::ConditionSet {
                    model: id,
                    condition: name.clone(),
                    value: value.saturating_sub(1),
                });
            }
        }
        if let Some(heal) = model.card.abilities.iter().find_map(|a| match a {
            super::card::Ability::Regeneration { value } => Some(*value),
            _ => None,
        }) && self.game.model(id).is_some_and(Model::on_table)
        {
            self.emit(Fact::Healed {
                model: id,
                wounds: heal,
            });
        }
        if !self.game.model(id).is_some_and(Model::on_table) {
            self.next_activation(seat.other());
            return Ok(());
        }
        let activation = action_points(self.game, &model);
        if let Some(terror) = resolve::terror_facing(self.game, &model) {
            return resolve::morale(self, Some(activation), id, terror, None);
        }
        self.now(Stage::Acting { activation });
        Ok(())
    }

    /// The model's conditions that last to the end of an activation end.
    fn end_conditions(&mut self, model: &Model) {
        for (name, _) in &model.conditions {
            if self
                .game
                .conditions
                .rule(name)
                .is_some_and(|r| r.lasting == Lasting::ThisOrNextActivation)
            {
                self.emit(Fact::ConditionSet {
                    model: model.id,
                    condition: name.clone(),
                    value: 0,
                });
            }
        }
    }

    pub fn end_activation(&mut self, id: ModelId) {
        let Some(model) = self.game.model(id).cloned() else {
            return;
        };
        self.end_conditions(&model);
        self.next_activation(model.seat.other());
    }

    /// After an action or a duel: the activation goes on while it has
    /// action points and its model stands.
    pub fn resume(&mut self, activation: Option<Activation>) {
        let Some(activation) = activation else {
            let first = self.game.first;
            return self.next_activation(first);
        };
        let standing = self
            .game
            .model(activation.model)
            .is_some_and(|m| m.on_table() && !m.falling_back);
        if !standing {
            let seat = self
                .game
                .model(activation.model)
                .map_or(self.game.first, |m| m.seat);
            return self.next_activation(seat.other());
        }
        if actions::any_left(&activation) {
            self.now(Stage::Acting { activation });
        } else {
            self.end_activation(activation.model);
        }
    }

    fn closing(&mut self) {
        self.emit(Fact::TurnClosed);
        for seat in Seat::BOTH {
            self.shuffle(seat);
        }
        let turn = self.game.turn;
        let everyone_left = Seat::BOTH
            .iter()
            .all(|s| self.game.on_table(*s).next().is_some());
        if !everyone_left {
            return self.end_game();
        }
        if turn >= TURNS {
            let first = self.game.first;
            let card = self.flip_one(first);
            if card.value() < ANOTHER_TURN {
                self.emit(Fact::FinalTurn { turn });
                return self.end_game();
            }
        }
        self.begin_turn(turn + 1);
    }

    pub fn end_game(&mut self) {
        let result = objectives::final_points(self.game);
        self.emit(Fact::Ended { result });
        let seed = self.game.seed;
        self.emit(Fact::SeedRevealed { seed });
    }
}

fn order_name(order: &Order) -> &'static str {
    match order {
        Order::Contribute { .. } => "Contributing entropy",
        Order::ChooseStrategy { .. } => "Choosing a strategy",
        Order::ChooseDeployment { .. } => "Choosing the deployment",
        Order::ChooseSchemes { .. } => "Choosing schemes",
        Order::DeployFirst { .. } => "Choosing who deploys first",
        Order::Deploy { .. } => "Deploying",
        Order::Discard { .. } => "Discarding",
        Order::Reflip { .. } => "Flipping initiative again",
        Order::Activate { .. } => "Activating a model",
        Order::Act { .. } => "Taking an action",
        Order::EndActivation => "Ending the activation",
        Order::ChangeTotal { .. } => "Changing a total",
        Order::Trigger { .. } => "Declaring a trigger",
        Order::Prevent { .. } => "Preventing damage",
    }
}

/// The action points `model` starts an activation with: the general ones
/// its conditions change, and the experts' extra ones.
pub(crate) fn action_points(game: &Skirmish, model: &Model) -> Activation {
    use super::card::Ability;
    let change: i16 = model
        .conditions
        .iter()
        .filter_map(|(name, _)| game.conditions.rule(name))
        .map(|r| i16::from(r.general_ap))
        .sum();
    let general = (i16::from(GENERAL_AP) + change).clamp(0, 4);
    Activation {
        model: model.id,
        general_ap: u8::try_from(general).unwrap_or(0),
        extra_melee: u8::from(model.card.has(&Ability::MeleeExpert)),
        extra_ranged: u8::from(model.card.has(&Ability::RangedExpert)),
        extra_cast: u8::from(model.card.has(&Ability::CastingExpert)),
        actions: 0,
        zero_cast: false,
    }
}
