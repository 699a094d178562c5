//! Bots: players the engine provides, pure and seeded. They see only what
//! their seat's [`view`](crate::view) would show (the state's public parts
//! and their own hand); they choose among [`pending`](crate::pending)'s
//! options and fill in a point or a path by asking `decide`.
//!
//! - `Random` picks uniformly among the legal options.
//! - `Greedy` (the "easy" level) scores each option by its immediate
//!   outcome as far as the public table shows it (VP, damage it can deal,
//!   ground gained toward enemies and markers) and takes the best; it never
//!   looks at a deck.
//! - `Normal` and `Hard` search ([`search`]): from what their seat knows
//!   ([`info::InfoSet`]) they deal worlds consistent with it, try their
//!   best-looking options in each, play the rest of the turn out quickly,
//!   and keep the option that did best. They differ in budget only.

mod aims;
mod eval;
pub mod info;
pub mod search;

use serde::{Deserialize, Serialize};
use soulstone_random::RandomStream;

use crate::command::{Interaction, PlayerCommand, Submission};
use crate::fairness::Bytes32;
use crate::model::ModelId;
use crate::pending::{Choice, unchecked_options};
use crate::state::GameState;
use crate::table::geometry::V2;
use crate::table::measure::Deployment;
use crate::table::movement::Waypoint;
use crate::table::{Body, MarkerKind, Point, TABLE_SIZE, inches, milli};
use crate::{Seat, pending};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotKind {
    Random,
    /// The easy level.
    Greedy,
    Normal,
    Hard,
}

impl BotKind {
    /// The name a player reads: a level, or what the bot does.
    pub fn level_name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "easy",
            BotKind::Normal => "normal",
            BotKind::Hard => "hard",
        }
    }

    /// Whether this bot searches (`Normal`, `Hard`): a decision takes
    /// milliseconds to a second, where the others take microseconds.
    pub fn searches(self) -> bool {
        self.budget().is_some()
    }

    /// Whether this bot, for `seat`, would think long at `state`: it
    /// searches, and the search weighs this decision
    /// ([`search::would_search`]); otherwise it answers in microseconds.
    pub fn thinks_long(self, state: &GameState, seat: Seat) -> bool {
        self.searches() && search::would_search(state, seat)
    }

    /// The search this bot runs, if it searches.
    fn budget(self) -> Option<search::Budget> {
        match self {
            BotKind::Random | BotKind::Greedy => None,
            BotKind::Normal => Some(search::Budget::NORMAL),
            BotKind::Hard => Some(search::Budget::HARD),
        }
    }
}

impl std::str::FromStr for BotKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "random" => Ok(BotKind::Random),
            "greedy" | "easy" => Ok(BotKind::Greedy),
            "normal" => Ok(BotKind::Normal),
            "hard" => Ok(BotKind::Hard),
            other => Err(format!(
                "unknown bot {other:?}: easy, normal, hard, random or greedy (= easy)"
            )),
        }
    }
}

/// A bot for one seat.
pub struct Bot {
    pub kind: BotKind,
    pub seat: Seat,
    rng: RandomStream,
    /// How many points or paths it tries before giving up on an option.
    tries: usize,
    /// The search it runs (`Normal` and `Hard` have one).
    budget: Option<search::Budget>,
    /// Where its models head first.
    aim: aims::Aim,
    /// The state and facts its last legal probe worked out: the command
    /// it chose, already played on a copy, so a driver need not work it
    /// out again ([`Bot::take_worked_out`]).
    worked_out: Option<WorkedOut>,
}

struct WorkedOut {
    version: u64,
    command: PlayerCommand,
    state: Box<GameState>,
    facts: Vec<crate::Event>,
}

/// How many points or paths a bot tries before giving up on an option.
const TRIES: usize = 24;

/// As many for the quick bots that play a search's rollouts: a miss there
/// costs one rollout a little strength, and every try is a whole `decide`.
const QUICK_TRIES: usize = 4;

impl Bot {
    pub fn new(kind: BotKind, seat: Seat, seed: u64) -> Self {
        let label = match seat {
            Seat::A => "soulstone/bot/a",
            Seat::B => "soulstone/bot/b",
        };
        Self {
            kind,
            seat,
            rng: RandomStream::from_seed_and_label(seed, label),
            tries: TRIES,
            budget: kind.budget(),
            aim: aims::Aim::Fight,
            worked_out: None,
        }
    }

    /// This bot searching with `budget` instead of its level's (to weigh
    /// budgets against each other; a searching bot's kind stays its level).
    pub fn with_budget(mut self, budget: search::Budget) -> Self {
        self.budget = Some(budget);
        self
    }

    /// A greedy bot that plays a search's rollouts, drawing from `rng`.
    fn quick(seat: Seat, rng: RandomStream) -> Self {
        Self {
            kind: BotKind::Greedy,
            seat,
            rng,
            tries: QUICK_TRIES,
            budget: None,
            aim: aims::Aim::Fight,
            worked_out: None,
        }
    }

    /// The state and facts `command` leads to from `state`, if the bot
    /// already worked them out while choosing it (the same as
    /// [`crate::execute`] would give).
    pub fn take_worked_out(
        &mut self,
        state: &GameState,
        command: &PlayerCommand,
    ) -> Option<(Box<GameState>, Vec<crate::Event>)> {
        let done = self.worked_out.take()?;
        (done.version == state.version && done.command == *command)
            .then_some((done.state, done.facts))
    }

    fn unit(&mut self) -> f64 {
        f64::from(self.rng.next_u32()) / f64::from(u32::MAX)
    }

    /// A random direction. No trigonometry: sin and cos may round
    /// differently on another machine, and a seeded bot must not.
    fn direction(&mut self) -> V2 {
        loop {
            let v = V2::new(self.unit() * 2.0 - 1.0, self.unit() * 2.0 - 1.0);
            let len = v.len();
            if len > 0.05 && len <= 1.0 {
                return v.scale(1.0 / len);
            }
        }
    }

    /// A marker of `kind` dropped by `model`'s Interact at a random point
    /// beside it (`interaction` at that point), or, where the spacing rules
    /// leave few spots, at one of the points the option was offered for
    /// (`offered`). A point the spacing rule refuses is skipped without
    /// asking `decide`: near its own markers a model has few spots, and
    /// each refused try would cost a whole `decide`.
    fn marker_beside(
        &mut self,
        state: &GameState,
        model: ModelId,
        kind: MarkerKind,
        interaction: impl Fn(Point) -> Interaction,
        offered: fn(&GameState, Seat, &crate::model::Model) -> Option<PlayerCommand>,
    ) -> Option<PlayerCommand> {
        let from = body_of(state, model)?;
        (0..self.tries)
            .find_map(|_| {
                let reach = crate::procedure::scheme_marker_offset(
                    state,
                    from.radius,
                    0.59 + self.unit() * 0.9,
                );
                let at = Point::from_v2(from.center.plus(self.direction().scale(reach)));
                if crate::procedure::marker_spot_crowded(state, self.seat, kind, at).is_some() {
                    return None;
                }
                let command = PlayerCommand::Interact {
                    with: interaction(at),
                };
                self.try_command(state, command)
            })
            .or_else(|| offered(state, self.seat, state.model(model)?))
    }

    /// The bot's command now, if the game waits for its seat.
    pub fn decide(&mut self, state: &GameState) -> Option<PlayerCommand> {
        self.worked_out = None;
        if self.kind == BotKind::Random {
            // Draw options without replacement until one is legal: uniform
            // among the legal ones, without checking (or shuffling) them
            // all; the first draw is usually legal.
            let mut options = unchecked_options(state, self.seat);
            while !options.is_empty() {
                let drawn = self
                    .rng
                    .below(u32::try_from(options.len()).unwrap_or(u32::MAX));
                let chosen = match options.swap_remove(drawn as usize) {
                    Choice::Command { command } => self.try_command(state, command),
                    choice => self.fill(state, choice),
                };
                if chosen.is_some() {
                    return chosen;
                }
            }
            return None;
        }
        if let Some(budget) = self.budget.clone() {
            let seed = u64::from(self.rng.next_u32()) << 32 | u64::from(self.rng.next_u32());
            if let Some(command) = search::search(state, self.seat, &budget, seed) {
                // Chosen from what the seat knows: played on the true
                // state only to keep its outcome for the driver.
                if let Some(command) = self.try_command(state, command) {
                    return Some(command);
                }
            }
        }
        self.greedy_choice(state)
    }

    /// The greedy bot's command: the best-scored option it can fill.
    fn greedy_choice(&mut self, state: &GameState) -> Option<PlayerCommand> {
        let open = pending(state);
        let decision = open.for_seat(self.seat)?;
        let mut choices = decision.choices.clone();
        if self.kind != BotKind::Random {
            let mut scored: Vec<(i64, usize)> = choices
                .iter()
                .enumerate()
                .map(|(i, c)| (greedy_score(state, self.seat, c), i))
                .collect();
            // Best first; ties keep the options' own order.
            scored.sort_by_key(|(score, i)| (-score, *i));
            let order: Vec<Choice> = scored
                .into_iter()
                .map(|(_, i)| choices[i].clone())
                .collect();
            choices = order;
        } else {
            self.rng.shuffle(&mut choices);
        }
        // An option whose parameters cannot be filled is skipped; every
        // decision holds at least one plain command or a subset choice.
        choices
            .into_iter()
            .find_map(|choice| self.fill(state, choice))
    }

    /// A rollout's command: options unchecked (as the random bot draws
    /// them), tried best-scored first, ties and one time in six in random
    /// order, the first that `decide` accepts. Far cheaper than
    /// [`Bot::greedy_choice`], which checks every option first.
    fn quick_choice(&mut self, state: &GameState) -> Option<PlayerCommand> {
        let options = unchecked_options(state, self.seat);
        let explore = self.rng.below(6) == 0;
        let mut ranked: Vec<(i64, u32, Choice)> = options
            .into_iter()
            .map(|choice| {
                let score = if explore {
                    0
                } else {
                    greedy_score(state, self.seat, &choice)
                };
                (score, self.rng.next_u32(), choice)
            })
            .collect();
        ranked.sort_by_key(|(score, tie, _)| (-score, *tie));
        ranked.into_iter().find_map(|(_, _, choice)| match choice {
            Choice::Command { command } => self.try_command(state, command),
            choice => self.fill(state, choice),
        })
    }

    fn fill(&mut self, state: &GameState, choice: Choice) -> Option<PlayerCommand> {
        let greedy = self.kind != BotKind::Random;
        match choice {
            Choice::Command { command } => Some(command),
            Choice::DiscardCards { count, mut from } => {
                if greedy {
                    from.sort_by_key(|c| c.value());
                } else {
                    self.rng.shuffle(&mut from);
                }
                from.truncate(usize::from(count));
                Some(PlayerCommand::DiscardDown { cards: from })
            }
            Choice::Entropy => Some(PlayerCommand::Contribute {
                entropy: Bytes32(self.rng.next_bytes32()),
            }),
            Choice::SplitCrew { models } => {
                let first = models
                    .into_iter()
                    .filter(|_| self.rng.below(2) == 0)
                    .collect();
                Some(PlayerCommand::SplitCrew { first })
            }
            Choice::DrawFromDiscard { up_to, mut from } => {
                // The greedy bot takes the highest cards; the random one
                // any number it may.
                let count = if greedy {
                    usize::from(up_to)
                } else {
                    self.rng.below(u32::from(up_to) + 1) as usize
                };
                if greedy {
                    from.sort_by_key(|c| std::cmp::Reverse(c.value()));
                }
                from.truncate(count);
                Some(PlayerCommand::DrawFromDiscard { cards: from })
            }
            Choice::DiscardAny { from } => {
                // Low cards make poor cheats: the greedy bot lets them go.
                let cards = if greedy {
                    from.into_iter().filter(|c| c.value() <= 4).collect()
                } else {
                    from.into_iter()
                        .filter(|_| self.rng.below(4) == 0)
                        .collect()
                };
                Some(PlayerCommand::DiscardBeforeDrawing { cards })
            }
            Choice::Deploy {
                models,
                deployment,
                side,
            } => self.deploy(state, &models, deployment, side),
            Choice::Walk { model, inches } => {
                self.move_model(state, MoveKind::Walk, model, inches, greedy)
            }
            Choice::Charge { model, inches } => {
                self.move_model(state, MoveKind::Charge, model, inches, greedy)
            }
            Choice::Move { model, inches } => {
                self.move_model(state, MoveKind::Effect, model, inches, greedy)
            }
            Choice::MakeSchemeMarker { model } => {
                let replacing = crate::encounter::scheme_marker_to_replace(state, self.seat);
                self.marker_beside(
                    state,
                    model,
                    MarkerKind::Scheme,
                    |at| Interaction::MakeSchemeMarker { at, replacing },
                    crate::procedure::scheme_marker_beside,
                )
            }
            Choice::PlantExplosives { model } => self.marker_beside(
                state,
                model,
                MarkerKind::Strategy,
                |at| Interaction::PlantExplosives { at },
                crate::procedure::explosives_beside,
            ),
            Choice::Place {
                model,
                touching: Some(onto),
                ..
            } => {
                let spots = crate::procedure::pounce_spots(state, model, onto);
                let at = *spots.get(self.rng.below(u32::try_from(spots.len()).ok()?) as usize)?;
                let command = PlayerCommand::Place { at };
                self.try_command(state, command)
            }
            Choice::Place { model, inches, .. } => self.place_near(state, model, inches),
            Choice::DropBlast { .. } => {
                // The greedy bot drops where the markers touch the most
                // enemy models and the fewest of its own.
                let at = if greedy {
                    crate::procedure::best_blast_spot(state, self.seat)?
                } else {
                    let spots = crate::procedure::blast_spots(state);
                    *spots.get(self.rng.below(u32::try_from(spots.len()).ok()?) as usize)?
                };
                let command = PlayerCommand::DropBlast { at };
                self.try_command(state, command)
            }
            Choice::Replace { model, with } => {
                let card = state.summonable_card(self.seat, &with)?;
                let spots = crate::procedure::new_model_spots(
                    state,
                    model,
                    &card,
                    crate::procedure::Beside::Touching,
                );
                let at = *spots.get(self.rng.below(u32::try_from(spots.len()).ok()?) as usize)?;
                let command = PlayerCommand::Place { at };
                self.try_command(state, command)
            }
            Choice::Summon { summoner, models } => self.summon(state, summoner, &models, greedy),
        }
    }

    /// Summons one of `models` beside `summoner`: the dearest for the
    /// greedy bot, any for the random one, at a random spot in sight.
    fn summon(
        &mut self,
        state: &GameState,
        summoner: ModelId,
        models: &[String],
        greedy: bool,
    ) -> Option<PlayerCommand> {
        // The greedy bot summons the dearest model it may.
        let card = |name: &String| state.summonable_card(self.seat, name);
        let name = if greedy {
            models
                .iter()
                .max_by_key(|name| card(name).map(|c| c.cost))?
        } else {
            models.get(self.rng.below(u32::try_from(models.len()).ok()?) as usize)?
        };
        let spots = crate::procedure::new_model_spots(
            state,
            summoner,
            &*card(name)?,
            crate::procedure::Beside::InSight,
        );
        let at = match spots.len() {
            0 => None,
            n => spots
                .get(self.rng.below(u32::try_from(n).ok()?) as usize)
                .copied(),
        };
        let command = PlayerCommand::Summon {
            model: name.clone(),
            at,
        };
        self.try_command(state, command)
    }

    /// Places `model` up to `inches` away, at a random spot; where it
    /// stands is the last resort, as it is always a place.
    fn place_near(
        &mut self,
        state: &GameState,
        model: ModelId,
        inches: u8,
    ) -> Option<PlayerCommand> {
        let from = body_of(state, model)?;
        let reach = from.radius + f64::from(inches);
        // Where it stands is always a place: the last resort.
        let spots: Vec<V2> = (0..self.tries)
            .map(|_| {
                from.center
                    .plus(self.direction().scale(reach * self.unit()))
            })
            .chain(std::iter::once(from.center))
            .collect();
        spots.into_iter().find_map(|at| {
            let command = PlayerCommand::Place {
                at: Point::from_v2(at),
            };
            self.try_command(state, command)
        })
    }

    /// Deploys the first of `models` at a random spot of its zone (a
    /// box by the deployment's shape, mirrored for the second seat).
    fn deploy(
        &mut self,
        state: &GameState,
        models: &[ModelId],
        deployment: Deployment,
        side: Seat,
    ) -> Option<PlayerCommand> {
        let model = *models.first()?;
        let size = inches(TABLE_SIZE);
        // The box around the lower zone; the upper one mirrors it.
        let (width, depth) = match deployment {
            Deployment::Standard => (size, 8.0),
            Deployment::Wedge => (size, 12.0),
            Deployment::Corner => (12.0, 12.0),
            Deployment::Flank => (size / 2.0, size / 2.0),
        };
        // Centres a base's radius inside the box: the base must be
        // wholly in the zone and on the table.
        let radius = state.model(model)?.card.base.radius();
        let (width, depth) = (
            (width - 2.0 * radius).max(0.0),
            (depth - 2.0 * radius).max(0.0),
        );
        (0..self.tries * 4).find_map(|_| {
            let (x, y) = (radius + self.unit() * width, radius + self.unit() * depth);
            let (x, y) = match side {
                Seat::A => (x, y),
                Seat::B => (size - x, size - y),
            };
            let at = Point::from_v2(V2::new(x, y));
            let command = PlayerCommand::Deploy { model, at };
            self.try_command(state, command)
        })
    }

    /// A Walk, Charge or an effect's move of `model` up to `inches`: toward
    /// the greedy bot's goal (stopping short of it) or a random way, shorter
    /// at each try; kept on the table.
    fn move_model(
        &mut self,
        state: &GameState,
        kind: MoveKind,
        model: ModelId,
        inches: u8,
        greedy: bool,
    ) -> Option<PlayerCommand> {
        let (charge, effect) = (kind == MoveKind::Charge, kind == MoveKind::Effect);
        // The command that moves the model straight to `to`.
        let move_to = |to: Waypoint| {
            if charge {
                PlayerCommand::Charge { to, land_at: None }
            } else if effect {
                PlayerCommand::Move {
                    path: vec![to],
                    land_at: None,
                }
            } else {
                PlayerCommand::Walk {
                    path: vec![to],
                    land_at: None,
                }
            }
        };
        let from = body_of(state, model)?;
        let goal = if greedy {
            aims::goal_for(state, self.seat, model, self.aim)
        } else {
            None
        };
        let tries = self.tries;
        (0..tries)
            .find_map(|attempt| {
                let reach = f64::from(inches) * (1.0 - attempt as f64 / tries as f64);
                let direction = match goal {
                    Some((goal, _)) if attempt < tries / 2 => goal.minus(from.center).unit(),
                    _ => self.direction(),
                };
                let distance = match goal {
                    // Stop short of the goal rather than on it: 1"
                    // from its centre, or touching a marker in 3rd
                    // edition, whose general actions need base contact.
                    Some((goal, short)) => {
                        reach.min((goal.dist(from.center) - from.radius - short).max(0.0))
                    }
                    None => reach * self.unit(),
                };
                // Kept on the table: a move that leaves it is refused.
                let end = from.center.plus(direction.scale(distance));
                let size = crate::table::inches(TABLE_SIZE);
                let end = V2::new(
                    end.x.clamp(from.radius, size - from.radius),
                    end.y.clamp(from.radius, size - from.radius),
                );
                let to = Waypoint {
                    x: milli(end.x),
                    y: milli(end.y),
                    z: 0,
                };
                let command = move_to(to);
                self.try_command(state, command)
            })
            .or_else(|| {
                // An effect's move may stay where it stands, and so
                // must a generated Walk or Charge that no path
                // found (an engaged 3rd edition model's Walk under
                // control): its controller has nothing else to send.
                let generated = state.queued_general().is_some_and(|q| q.model == model);
                if !(effect || generated) {
                    return None;
                }
                let here = state.model(model)?.placement?;
                let stay = move_to(Waypoint {
                    x: here.at.x,
                    y: here.at.y,
                    z: here.z,
                });
                self.try_command(state, stay)
            })
    }

    /// `command`, if it is legal now; the last legal one's outcome is kept.
    fn try_command(&mut self, state: &GameState, command: PlayerCommand) -> Option<PlayerCommand> {
        let submission = Submission::player(self.seat, state.version, command);
        let (after, facts) = crate::procedure::decide_state(state, &submission).ok()?;
        let Submission::Player { command, .. } = submission else {
            return None;
        };
        self.worked_out = Some(WorkedOut {
            version: state.version,
            command: command.clone(),
            state: after,
            facts,
        });
        Some(command)
    }
}

/// Which command a move choice is answered with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MoveKind {
    Walk,
    Charge,
    /// A move an effect allows, which may end where the model stands.
    Effect,
}

fn body_of(state: &GameState, model: ModelId) -> Option<Body> {
    state.model(model)?.body()
}

/// Whether `model` is engaged where engagement holds a Walk in (3rd edition).
fn engaged_in_third(state: &GameState, model: ModelId) -> bool {
    state.edition.rules().table.engaged_walk == crate::rules::EngagedWalk::StaysEngaged
        && state.is_engaged(model, None)
}

/// How much a greedy bot likes an option (higher is better), from what
/// its seat can see.
fn greedy_score(state: &GameState, seat: Seat, choice: &Choice) -> i64 {
    let Choice::Command { command } = choice else {
        return match choice {
            // A 3rd edition Walk cannot leave an engaging enemy's range:
            // Disengage (25) is the better way out.
            Choice::Walk { model, .. } if engaged_in_third(state, *model) => 20,
            Choice::Walk { .. } => 30,
            Choice::Charge { .. } => 40,
            Choice::MakeSchemeMarker { .. } | Choice::PlantExplosives { .. } => 35,
            _ => 10,
        };
    };
    match command {
        PlayerCommand::TakeAction { target, .. } => match target.and_then(|t| state.model(t)) {
            Some(t) if t.owner != seat => 60 + i64::from(t.card.max_health) - i64::from(t.health),
            Some(_) => 5,
            None => 20,
        },
        // Claiming or neutralising a strategy marker, or removing a scheme
        // marker: good unless the marker is already the bot's own.
        PlayerCommand::Interact {
            with: Interaction::StrategyMarker { marker },
        } => unless_own(state, seat, *marker, 70),
        PlayerCommand::Interact {
            with: Interaction::RemoveSchemeMarker { marker },
        } => unless_own(state, seat, *marker, 45),
        PlayerCommand::Interact {
            with: Interaction::MoveIdol { marker, damage, to },
        } => idol_move_score(state, seat, *marker, *damage, *to),
        PlayerCommand::RevealScheme => 100,
        PlayerCommand::AssumeLeadership { .. } => 20,
        PlayerCommand::KeepScheme => 50,
        PlayerCommand::AbandonScheme => 0,
        // A scheme the engine checks and finds met: score it.
        PlayerCommand::ClaimScheme {
            scheme: Some(name), ..
        } if crate::procedure::scheme_checked_and_met(state, seat, name) => 100,
        // A bot cannot read what the engine cannot score: it claims nothing
        // and takes its opponent's word.
        PlayerCommand::ClaimStrategy { vp } => -i64::from(*vp),
        PlayerCommand::ClaimScheme { .. } => -1,
        PlayerCommand::ConfirmClaim => 10,
        PlayerCommand::DisputeClaim => -10,
        PlayerCommand::Pass => -10,
        // Another activation before the opponent's: usually worth taking.
        PlayerCommand::ChainActivate { .. } => 15,
        PlayerCommand::FinishActivation => -20,
        PlayerCommand::DeclineTrigger | PlayerCommand::DeclineCheat => 1,
        PlayerCommand::DeclareTrigger { .. } => 5,
        PlayerCommand::Relent => -5,
        PlayerCommand::Slam { .. } | PlayerCommand::SlamTerrain { .. } => -30,
        // A free attack that can only slow the enemy down.
        PlayerCommand::Strike { .. } => 30,
        // Below any attack it could make instead.
        PlayerCommand::Disengage => 25,
        PlayerCommand::Assist { .. } => 15,
        PlayerCommand::ChooseCard { card } => i64::from(card.value()),
        // A marker turned or explosives gained is never a loss it can see.
        PlayerCommand::DeclineChoice => -10,
        _ => 0,
    }
}

/// How much a greedy bot likes moving an idol: onto the enemy half (or
/// off its own) for little damage, never for its model's life.
fn idol_move_score(
    state: &GameState,
    seat: Seat,
    marker: crate::table::ObjectId,
    damage: u8,
    to: crate::table::Point,
) -> i64 {
    use crate::encounter::objectives::HalfCount;
    use crate::encounter::scoring::on_enemy_half;
    let (Some(encounter), Some(idol)) = (
        state.encounter.as_deref(),
        state.markers.iter().find(|k| k.id == marker),
    ) else {
        return 0;
    };
    let deadly = state
        .acting_model()
        .and_then(|id| state.model(id))
        .is_some_and(|m| m.health <= u16::from(damage));
    if deadly {
        return -50;
    }
    let radius = idol.base.radius();
    let theirs = |s: Seat, at: crate::table::geometry::V2| {
        on_enemy_half(encounter, s, at, radius, HalfCount::Completely)
    };
    let (from, to) = (idol.at.v2(), to.v2());
    let gain = if theirs(seat, to) && !theirs(seat, from) {
        40
    } else if theirs(seat.other(), from) && !theirs(seat.other(), to) {
        25
    } else {
        -10
    };
    gain - 5 * i64::from(damage)
}

/// Why a bot game stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("the bot for {seat:?} sent {command:?}, which was refused: {reason}")]
    Refused {
        seat: Seat,
        command: Box<PlayerCommand>,
        reason: String,
    },
    #[error("no bot can move, but the game has not ended")]
    Stuck,
    #[error("the game did not end within {0} commands")]
    TooLong(usize),
}

/// Plays the game to its end with one bot per seat, calling `after` with
/// the state, the command and the facts of every command. The state is boxed so that
/// the state a bot worked out takes its place without being copied.
pub fn play_to_end(
    state: &mut Box<GameState>,
    bots: &mut [Bot; 2],
    max_commands: usize,
    mut after: impl FnMut(&GameState, &Submission, &[crate::Event]),
) -> Result<(), PlayError> {
    // The seat that moved last usually moves again (an activation's
    // actions, a duel's steps): it is asked first.
    let mut first = 0;
    for _ in 0..max_commands {
        if state.ended {
            return Ok(());
        }
        let Some((index, command)) = [first, 1 - first]
            .into_iter()
            .find_map(|i| Some((i, bots[i].decide(state)?)))
        else {
            return Err(PlayError::Stuck);
        };
        first = index;
        let seat = bots[index].seat;
        let submission = Submission::player(seat, state.version, command.clone());
        let facts = match bots[index].take_worked_out(state, &command) {
            Some((worked_out, facts)) => {
                *state = worked_out;
                facts
            }
            None => crate::execute(state, &submission).map_err(|e| PlayError::Refused {
                seat,
                command: Box::new(command),
                reason: e.to_string(),
            })?,
        };
        after(state, &submission, &facts);
    }
    if state.ended {
        Ok(())
    } else {
        Err(PlayError::TooLong(max_commands))
    }
}

/// `score` for acting on a marker, or a penalty if the marker is `seat`'s own.
fn unless_own(state: &GameState, seat: Seat, marker: crate::table::ObjectId, score: i64) -> i64 {
    let owner = state
        .markers
        .iter()
        .find(|m| m.id == marker)
        .and_then(|m| m.owner);
    if owner == Some(seat) { -50 } else { score }
}
