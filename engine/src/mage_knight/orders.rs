//! What players send, and the game's flow between their decisions: the
//! setup with dice, deployment, and each turn's phases (the command phase
//! resolves last turn's bombardments, the action phase is the player's,
//! the end phase checks objectives, clears action tokens and may end the
//! game).
//!
//! [`execute`] works on a copy: each fact is applied as it is made, so a
//! later step sees the earlier ones, and a refused order leaves the game
//! as it was.

use serde::{Deserialize, Serialize};

use super::battlefield;
use super::bombardment::{self, Bombard};
use super::combat::{self, CloseAttack, RangedAttack};
use super::constructed::{self, TerrainAttack};
use super::domains::{self, ChooseDomain};
use super::facts::{Fact, Harm, Placement, RollFor, apply};
use super::formation::{self, FormationMove, RangedFormation};
use super::game::{Battle, EndReason, Outcome, Stage, WarriorId};
use super::items::{self, DropItem, PickUpItem};
use super::movement::{self, MoveOrder};
use super::placing::{self, PlaceTerrain};
use crate::fairness::Bytes32;
use crate::table::geometry::V2;
use crate::table::{Milli, Point, inches, milli};
use crate::{RuleError, Seat};

/// A player's decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Order {
    /// The player's entropy for the dice.
    Contribute {
        entropy: Bytes32,
    },
    /// Places the player's objective token on its line, `x` across.
    PlaceObjective {
        x: Milli,
    },
    /// Takes a feature from the pile and places it.
    PlaceTerrain(PlaceTerrain),
    /// Places no more terrain: nothing left in the pile fits. After a
    /// constructed feature, places no second one this turn.
    PassTerrain,
    /// Chooses the player's domain, secretly.
    ChooseDomain(ChooseDomain),
    /// Places every warrior of the player's army.
    Deploy {
        placements: Vec<Placement>,
    },
    Move(MoveOrder),
    CloseCombat(CloseAttack),
    RangedCombat(RangedAttack),
    /// A move action shared by a movement formation's members.
    MoveFormation(FormationMove),
    /// A ranged combat action shared by a ranged combat formation.
    RangedFormation(RangedFormation),
    /// A ranged combat action placing bombardment tokens.
    Bombard(Bombard),
    /// A close or ranged combat action against constructed terrain.
    AttackTerrain(TerrainAttack),
    /// Drops an item, at the start of the turn (no action).
    DropItem(DropItem),
    /// A special action picking up a dropped item.
    PickUpItem(PickUpItem),
    /// Divides a ranged attack's damage among the targets it hit, in the
    /// order they were hit.
    SplitDamage {
        shares: Vec<u8>,
    },
    /// Ends the player's action phase (unused actions are lost).
    EndActions,
}

impl Order {
    /// The warrior whose action this is (a formation's: its leader's).
    pub fn actor(&self) -> Option<WarriorId> {
        match self {
            Order::Move(step) => Some(step.warrior),
            Order::CloseCombat(close) => Some(close.attacker),
            Order::RangedCombat(shot) => Some(shot.attacker),
            Order::MoveFormation(group) => group.members.first().map(|m| m.warrior),
            Order::RangedFormation(group) => Some(group.attack.attacker),
            Order::Bombard(shell) => Some(shell.attacker),
            Order::AttackTerrain(attack) => Some(attack.attacker),
            Order::DropItem(drop) => Some(drop.warrior),
            Order::PickUpItem(pick) => Some(pick.warrior),
            _ => None,
        }
    }
}

/// An order as the game executed it: a player's, or the host's ending.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Submission {
    Player {
        seat: Seat,
        version: u64,
        order: Order,
    },
    /// The host ends the game now (a clock, a resignation, an agreement).
    EndNow { version: u64 },
}

/// A copy of the game being changed, and the facts made so far.
pub(super) struct Work {
    pub battle: Battle,
    pub facts: Vec<Fact>,
}

impl Work {
    pub fn push(&mut self, fact: Fact) {
        apply(&mut self.battle, &fact);
        self.facts.push(fact);
    }

    /// Rolls `count` dice for `roll`, recorded as a fact.
    pub fn roll(&mut self, roll: RollFor, count: u8) -> Vec<u8> {
        let dice = self.battle.dice.next(count);
        self.push(Fact::Rolled {
            roll,
            dice: dice.clone(),
        });
        dice
    }

    /// Deals `amount` damage, eliminating the warrior past its last click.
    pub fn deal(&mut self, warrior: WarriorId, amount: u8, harm: Harm) {
        let Some(w) = self.battle.warrior(warrior) else {
            return;
        };
        // A captive never takes damage.
        if !w.on_battlefield() || w.is_captive() {
            return;
        }
        let armour = u8::from(
            matches!(harm, Harm::Attack { .. }) && w.has(super::warrior::Ability::Armoured),
        );
        let amount = amount.saturating_sub(armour);
        if amount == 0 {
            return;
        }
        let seat = w.seat;
        let clicks = w.card.clicks();
        self.push(Fact::Damaged {
            warrior,
            amount,
            harm,
        });
        let damage = self.battle.warrior(warrior).map_or(0, |w| w.damage);
        if damage >= clicks {
            let credited = match harm {
                Harm::Attack { by } | Harm::ShakeOff { by } => self
                    .battle
                    .warrior(by)
                    .map(|b| b.seat)
                    .filter(|s| *s != seat),
                Harm::Pushing => None,
            };
            self.eliminate(warrior, credited);
        }
    }

    /// Eliminates a warrior: a captive it held is freed, and the items
    /// it wielded are dropped where it stood.
    pub fn eliminate(&mut self, warrior: WarriorId, credited: Option<Seat>) {
        if let Some(captive) = self.battle.warrior(warrior).and_then(|w| w.captive) {
            self.push(Fact::Freed { captive });
        }
        super::items::drop_all(self, warrior);
        self.push(Fact::Eliminated { warrior, credited });
    }

    /// The end of an action: the warrior's action token, and pushing
    /// damage if that was its second.
    pub fn finish_action(&mut self, warrior: WarriorId) {
        if !self
            .battle
            .warrior(warrior)
            .is_some_and(|w| w.on_battlefield())
        {
            return;
        }
        self.push(Fact::TokenGiven { warrior });
        if self.battle.warrior(warrior).is_some_and(|w| w.tokens >= 2) {
            self.deal(warrior, 1, Harm::Pushing);
        }
    }
}

/// Checks `submission` and, if the rules allow it, applies it and every
/// automatic step after it.
pub fn execute(battle: &mut Battle, submission: &Submission) -> Result<Vec<Fact>, RuleError> {
    let version = match submission {
        Submission::Player { version, .. } | Submission::EndNow { version } => *version,
    };
    if version != battle.version {
        return Err(RuleError::StaleVersion {
            made_for: version,
            current: battle.version,
        });
    }
    if battle.stage == Stage::Over {
        return Err(RuleError::GameOver);
    }
    let mut work = Work {
        battle: battle.clone(),
        facts: Vec::new(),
    };
    match submission {
        Submission::EndNow { .. } => end_game(&mut work, EndReason::EndedEarly),
        Submission::Player { seat, order, .. } => {
            if !work.battle.waits_for(*seat) {
                return Err(RuleError::NotYourTurn {
                    waiting_for: Seat::BOTH
                        .into_iter()
                        .find(|s| work.battle.waits_for(*s))
                        .map_or("no one", |s| s.label())
                        .to_owned(),
                });
            }
            obey(&mut work, *seat, order)?;
            advance(&mut work);
        }
    }
    *battle = work.battle;
    Ok(work.facts)
}

fn obey(work: &mut Work, seat: Seat, order: &Order) -> Result<(), RuleError> {
    let stage = work.battle.stage.clone();
    match (order, &stage) {
        (Order::Contribute { entropy }, Stage::Contributing) => {
            work.push(Fact::Contributed {
                seat,
                entropy: *entropy,
            });
        }
        (Order::PlaceObjective { x }, Stage::PlacingObjective { .. }) => {
            let at = objective_spot(&work.battle, seat, *x)?;
            work.push(Fact::ObjectivePlaced { seat, at });
        }
        (Order::PlaceTerrain(order), Stage::PlacingTerrain { .. }) => {
            let feature = placing::check(&work.battle, order)?;
            work.push(Fact::TerrainPlaced {
                seat,
                from_pile: order.feature,
                feature,
            });
        }
        (Order::PassTerrain, Stage::PlacingTerrain { .. }) if work.battle.second_constructed => {
            work.push(Fact::SecondPieceDeclined { seat });
        }
        (Order::PassTerrain, Stage::PlacingTerrain { .. }) => {
            if placing::any_fits(&work.battle) {
                return Err(RuleError::not_allowed(
                    "a feature in the pile still fits on the battlefield: place one",
                ));
            }
            work.push(Fact::TerrainPassed { seat });
        }
        (Order::ChooseDomain(choice), Stage::ChoosingDomains) => {
            domains::check(&work.battle, seat, choice)?;
            work.push(Fact::DomainChosen {
                seat,
                domain: choice.domain,
            });
        }
        (Order::Deploy { placements }, Stage::Deploying { .. }) => {
            check_deployment(&work.battle, seat, placements)?;
            work.push(Fact::Deployed {
                seat,
                placements: placements.clone(),
            });
        }
        (Order::Move(order), Stage::Acting { .. }) => {
            let plan = movement::check(&work.battle, seat, order)?;
            movement::resolve(work, &plan);
        }
        (Order::CloseCombat(order), Stage::Acting { .. }) => {
            let plan = combat::check_close(&work.battle, seat, order)?;
            combat::resolve_close(work, &plan);
        }
        (Order::RangedCombat(order), Stage::Acting { .. }) => {
            let plan = combat::check_ranged(&work.battle, seat, order)?;
            combat::resolve_ranged(work, &plan);
        }
        (Order::MoveFormation(order), Stage::Acting { .. }) => {
            let plans = formation::check_move(&work.battle, seat, order)?;
            formation::resolve_move(work, &plans);
        }
        (Order::RangedFormation(order), Stage::Acting { .. }) => {
            let plan = formation::check_ranged(&work.battle, seat, order)?;
            combat::resolve_ranged(work, &plan);
        }
        (Order::Bombard(order), Stage::Acting { .. }) => {
            let tokens = bombardment::check(&work.battle, seat, order)?;
            bombardment::place(work, order.attacker, tokens);
        }
        (Order::DropItem(order), Stage::Acting { .. }) => {
            let (name, at) = items::check_drop(&work.battle, seat, order)?;
            work.push(Fact::ItemDropped {
                warrior: order.warrior,
                item: order.item,
                name,
                at,
            });
        }
        (Order::PickUpItem(order), Stage::Acting { .. }) => {
            items::check_pick_up(&work.battle, seat, order)?;
            items::pick_up(work, order);
        }
        (Order::AttackTerrain(order), Stage::Acting { .. }) => {
            let plan = constructed::check(&work.battle, seat, order)?;
            constructed::resolve(work, &plan);
        }
        (Order::SplitDamage { shares }, Stage::SplittingDamage { split, .. }) => {
            combat::split_damage(work, split, shares)?;
        }
        (Order::EndActions, Stage::Acting { .. }) => {
            work.push(Fact::ActionPhaseEnded { seat });
        }
        _ => {
            return Err(RuleError::not_allowed(format!(
                "the game is not asking for that now: {}",
                asking(&stage)
            )));
        }
    }
    Ok(())
}

/// What the game asks for at `stage`, in words.
pub fn asking(stage: &Stage) -> String {
    match stage {
        Stage::Contributing => "each player's entropy for the dice".into(),
        Stage::PlacingObjective { seat } => format!("{}'s objective token", seat.label()),
        Stage::PlacingTerrain { seat } => {
            format!("{}'s terrain feature from the pile", seat.label())
        }
        Stage::ChoosingDomains => "each player's domain, chosen secretly".into(),
        Stage::Deploying { seat } => format!("{}'s deployment", seat.label()),
        Stage::Acting { seat } => format!("{}'s actions", seat.label()),
        Stage::SplittingDamage { seat, .. } => {
            format!("{} to divide a ranged attack's damage", seat.label())
        }
        Stage::Over => "nothing: the game is over".into(),
    }
}

/// Where `seat`'s objective token goes at `x` across its line.
pub fn objective_spot(battle: &Battle, seat: Seat, x: Milli) -> Result<Point, RuleError> {
    let distance = battle.objective_distance[seat.index()];
    let y = battlefield::objective_line(seat, distance);
    let half = battlefield::OBJECTIVE / 2.0;
    let across = inches(x);
    if !(half..=battlefield::SIZE - half).contains(&across) {
        return Err(RuleError::not_allowed(format!(
            "the objective token must lie on the battlefield: {across:.1}\" across is off it"
        )));
    }
    let at = Point { x, y: milli(y) };
    if battle
        .objectives
        .iter()
        .any(|o| o.at.v2().dist(at.v2()) < battlefield::OBJECTIVE)
    {
        return Err(RuleError::not_allowed(
            "objective tokens may not overlap one another",
        ));
    }
    Ok(at)
}

fn check_deployment(
    battle: &Battle,
    seat: Seat,
    placements: &[Placement],
) -> Result<(), RuleError> {
    let army: Vec<WarriorId> = battle.army(seat).map(|w| w.id).collect();
    let mut placed: Vec<(WarriorId, V2)> = Vec::new();
    for p in placements {
        if !army.contains(&p.warrior) {
            return Err(RuleError::not_allowed(format!(
                "warrior {} is not in your army",
                p.warrior.0
            )));
        }
        if placed.iter().any(|(id, _)| *id == p.warrior) {
            return Err(RuleError::not_allowed(format!(
                "warrior {} is placed twice",
                p.warrior.0
            )));
        }
        let at = p.at.v2();
        let name = battle
            .warrior(p.warrior)
            .map_or("", |w| w.card.name.as_str());
        if p.facing >= 360 {
            return Err(RuleError::not_allowed(format!(
                "{name}'s facing is a whole number of degrees below 360"
            )));
        }
        if !battlefield::in_deployment_area(seat, at) {
            return Err(RuleError::not_allowed(format!(
                "{name}'s center must be in your deployment area (3\" deep from your edge, 8\" from the others)"
            )));
        }
        if !battlefield::on_battlefield(at) {
            return Err(RuleError::not_allowed(format!(
                "{name}'s base must lie on the battlefield"
            )));
        }
        if placed
            .iter()
            .any(|(_, other)| battlefield::overlapping(at, *other))
        {
            return Err(RuleError::not_allowed(format!(
                "{name}'s base overlaps another warrior's"
            )));
        }
        let speed = battle
            .warrior(p.warrior)
            .map_or(super::warrior::SpeedType::Boot, |w| w.card.speed_type);
        if p.soaring && speed != super::warrior::SpeedType::Wing {
            return Err(RuleError::not_allowed(format!(
                "only a wing warrior is deployed at soaring level; {name} cannot be"
            )));
        }
        // A soaring warrior does not interact with terrain.
        if !p.soaring
            && battle.terrain.iter().any(|f| {
                f.kind.blocks_movement(speed) && battlefield::base_overlaps(&f.shape(), at)
            })
        {
            return Err(RuleError::not_allowed(format!(
                "{name} cannot stand in blocking terrain"
            )));
        }
        placed.push((p.warrior, at));
    }
    if placed.len() != army.len() {
        return Err(RuleError::not_allowed(format!(
            "deploy every warrior of your army ({} of {} placed)",
            placed.len(),
            army.len()
        )));
    }
    Ok(())
}

/// The steps no one decides: the first player's roll, the start of turns,
/// and the end of each action phase once its actions are spent.
fn advance(work: &mut Work) {
    loop {
        let battle = &work.battle;
        match battle.stage.clone() {
            Stage::Contributing if battle.dice.contributions.iter().all(Option::is_some) => {
                roll_for_first_player(work);
            }
            Stage::ChoosingDomains if battle.domain_choice.iter().all(Option::is_some) => {
                if !reveal_domains(work) {
                    return;
                }
            }
            Stage::Deploying { seat }
                if battle.first != Some(seat) && battle.army(seat).all(|w| w.at.is_some()) =>
            {
                let first = battle.first.unwrap_or(Seat::A);
                begin_turn(work, first);
            }
            Stage::Acting { seat } if battle.actions_left == 0 => {
                if !work
                    .facts
                    .iter()
                    .any(|f| matches!(f, Fact::ActionPhaseEnded { .. }))
                {
                    work.push(Fact::ActionPhaseEnded { seat });
                }
                end_turn(work, seat);
                return;
            }
            _ => return,
        }
    }
}

/// Each player rolls 2d6, ties rolled again: the higher is the first
/// player, and each player's final total is their objective's distance.
fn roll_for_first_player(work: &mut Work) {
    // A tie every time for 100 rolls is beyond chance; Seat A goes first.
    for _ in 0..100 {
        let a = work.roll(RollFor::FirstPlayer, 2);
        let b = work.roll(RollFor::FirstPlayer, 2);
        let (a, b) = (a.iter().sum::<u8>(), b.iter().sum::<u8>());
        if a != b {
            let seat = if a > b { Seat::A } else { Seat::B };
            work.push(Fact::FirstPlayer {
                seat,
                distances: [a, b],
            });
            return;
        }
    }
    work.push(Fact::FirstPlayer {
        seat: Seat::A,
        distances: [7, 7],
    });
}

/// The start of `seat`'s turn: its command phase resolves the
/// bombardments it made last turn, which may end the game.
/// Both chosen domains revealed, and those not cancelled put in play
/// (false if a choice names no card, which `domains::check` prevents).
fn reveal_domains(work: &mut Work) -> bool {
    let battle = &work.battle;
    let chosen = Seat::BOTH.map(|seat| {
        battle.domain_choice[seat.index()]
            .and_then(|i| battle.domain_decks[seat.index()].get(usize::from(i)))
    });
    let [Some(a), Some(b)] = chosen else {
        return false;
    };
    let fact = Fact::DomainsRevealed {
        chosen: [a.name.clone(), b.name.clone()],
        in_play: domains::in_play([a, b]),
    };
    work.push(fact);
    true
}

fn begin_turn(work: &mut Work, seat: Seat) {
    let actions = work.battle.action_total();
    work.push(Fact::TurnBegan { seat, actions });
    if work.battle.bombardments.iter().any(|b| b.seat == seat) {
        bombardment::resolve_due(work, seat);
        if standing(&work.battle) < 2 {
            remove_players_without_able(work);
            end_game(work, EndReason::LastArmyStanding);
        }
    }
}

fn standing(battle: &Battle) -> usize {
    Seat::BOTH
        .into_iter()
        .filter(|s| battle.has_able(*s))
        .count()
}

/// The end of `seat`'s action phase and its end phase.
fn end_turn(work: &mut Work, seat: Seat) {
    remove_players_without_able(work);
    check_objectives(work);
    let idle: Vec<WarriorId> = work
        .battle
        .army(seat)
        .filter(|w| w.tokens > 0 && !w.acted)
        .map(|w| w.id)
        .collect();
    if !idle.is_empty() {
        work.push(Fact::TokensCleared { warriors: idle });
    }
    if standing(&work.battle) < 2 {
        end_game(work, EndReason::LastArmyStanding);
    } else if work.battle.turn >= u16::from(work.battle.rounds) * 2 {
        end_game(work, EndReason::RoundsPlayed);
    } else {
        begin_turn(work, seat.other());
    }
}

/// A player left without able warriors leaves the game.
fn remove_players_without_able(work: &mut Work) {
    for player in Seat::BOTH {
        if !work.battle.out[player.index()] && !work.battle.has_able(player) {
            // Its warriors leave the game: the captives they held are
            // freed, and its own captives leave their captors.
            let links: Vec<WarriorId> = work
                .battle
                .warriors
                .iter()
                .filter(|w| w.on_battlefield())
                .filter_map(|w| match (w.seat == player, w.captor, w.captive) {
                    (true, Some(_), _) => Some(w.id),
                    (true, None, Some(held)) => Some(held),
                    _ => None,
                })
                .collect();
            for captive in links {
                work.push(Fact::Freed { captive });
            }
            work.push(Fact::PlayerEliminated { seat: player });
        }
    }
}

/// The end phase's check of every objective.
fn check_objectives(work: &mut Work) {
    let able: Vec<Seat> = Seat::BOTH
        .into_iter()
        .filter(|s| work.battle.has_able(*s))
        .collect();
    let changes: Vec<(u8, Option<Seat>)> = work
        .battle
        .objectives
        .iter()
        .enumerate()
        .filter_map(|(i, objective)| {
            let controller = if let [only] = able.as_slice() {
                Some(*only)
            } else {
                let token = objective.at.v2();
                let touching: Vec<Seat> = Seat::BOTH
                    .into_iter()
                    .filter(|s| {
                        work.battle.army(*s).any(|w| {
                            w.able()
                                && !w.soaring
                                && battlefield::touches_objective(w.center(), token)
                        })
                    })
                    .collect();
                match touching.as_slice() {
                    [] => objective.controller,
                    [one] => Some(*one),
                    _ => None,
                }
            };
            (controller != objective.controller)
                .then(|| (u8::try_from(i).unwrap_or(u8::MAX), controller))
        })
        .collect();
    for (objective, controller) in changes {
        work.push(Fact::ObjectiveChanged {
            objective,
            controller,
        });
    }
}

/// Ends the game: the most objectives win; then the most points
/// eliminated; then the army built with fewer points; else a draw.
pub(super) fn end_game(work: &mut Work, reason: EndReason) {
    let battle = &work.battle;
    let objectives = Seat::BOTH.map(|s| battle.objectives_of(s));
    let by = |values: [u16; 2]| match values[0].cmp(&values[1]) {
        std::cmp::Ordering::Greater => Some(Seat::A),
        std::cmp::Ordering::Less => Some(Seat::B),
        std::cmp::Ordering::Equal => None,
    };
    let winner = by(objectives.map(u16::from))
        .or_else(|| by(battle.eliminated_points))
        .or_else(|| by(battle.army_points).map(Seat::other));
    let seed = battle.dice.seed;
    work.push(Fact::GameEnded {
        outcome: Outcome {
            winner,
            reason,
            objectives,
        },
    });
    work.push(Fact::SeedRevealed { seed });
}
