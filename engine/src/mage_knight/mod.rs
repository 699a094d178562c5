//! The Mage Knight miniatures game: warriors on combat dials, dice from a
//! committed seed, facing and arcs, actions with their tokens and pushing,
//! close and ranged combat, objectives. The engine's second game system:
//! it shares the table's geometry and the fairness scheme with Malifaux,
//! and nothing else, and the host plays it through
//! [`crate::system::TableGame`] ([`MageKnight`]).
//!
//! Rooms: [`warrior`] (the cards and dials), [`battlefield`] (geometry and
//! terrain), [`dice`], [`game`] (the state), [`facts`], [`orders`] (the
//! flow and execution), [`movement`], [`combat`] (with capturing),
//! [`bombardment`], [`formation`], [`placing`] (terrain placed by the
//! players), [`constructed`] (terrain that can be attacked), [`bots`],
//! [`content`], [`words`].

pub mod battlefield;
pub mod bombardment;
pub mod bots;
mod capture;
pub mod combat;
pub mod constructed;
pub mod content;
pub mod dice;
pub mod domains;
pub mod facts;
pub mod fire;
pub mod formation;
pub mod game;
pub mod items;
pub mod movement;
pub mod orders;
pub mod placing;
mod table_game;
pub mod warrior;
pub mod words;

use std::sync::Arc;

use serde::Serialize;

pub use facts::Fact;
pub use game::{Army, Battle, Setup, Stage, WarriorId};
pub use orders::{Order, Submission, execute};
pub use table_game::{FinishedLog, MageKnight, verify};

use crate::{RuleError, Seat};

/// The most warriors an army may field (the deployment area holds them).
pub const MAX_WARRIORS: usize = 24;

/// The game at its start, or why the setup cannot start one.
pub fn start(setup: Setup) -> Result<Battle, RuleError> {
    if setup.build_total == 0 || !setup.build_total.is_multiple_of(100) || setup.build_total > 1_000
    {
        return Err(RuleError::invalid(
            "the build total is a multiple of 100 points, at most 1,000",
        ));
    }
    if setup.rounds == 0 || setup.rounds > 30 {
        return Err(RuleError::invalid("a game lasts 1 to 30 rounds"));
    }
    for army in &setup.armies {
        if let Some(problem) = army.problem(setup.build_total) {
            return Err(RuleError::invalid(problem));
        }
        if army.warriors.len() > MAX_WARRIORS {
            return Err(RuleError::invalid(format!(
                "an army fields at most {MAX_WARRIORS} warriors"
            )));
        }
    }
    if setup.terrain.len() > 16 {
        return Err(RuleError::invalid("at most 16 terrain features"));
    }
    if let Some(problem) = setup.terrain.iter().find_map(battlefield::Feature::problem) {
        return Err(RuleError::invalid(problem));
    }
    let mut warriors = Vec::new();
    for (seat, army) in Seat::BOTH.into_iter().zip(&setup.armies) {
        for card in &army.warriors {
            let id = WarriorId(u16::try_from(warriors.len()).unwrap_or(u16::MAX));
            warriors.push(game::Warrior {
                id,
                seat,
                card: Arc::new(card.clone()),
                at: None,
                facing: match seat {
                    Seat::A => 90,
                    Seat::B => 270,
                },
                damage: 0,
                tokens: 0,
                acted: false,
                eliminated: false,
                captor: None,
                captive: None,
                soaring: false,
                items: Vec::new(),
                bare: None,
            });
        }
    }
    // Each item in its wielder's slot from deployment.
    let mut first = 0;
    for army in &setup.armies {
        for wielded in &army.items {
            if let Some(w) = warriors.get_mut(first + usize::from(wielded.wielder)) {
                w.items.push(wielded.item.clone());
                items::rearm(w);
            }
        }
        first += army.warriors.len();
    }
    Ok(Battle {
        version: 0,
        dice: dice::Dice::new(setup.seed),
        build_total: setup.build_total,
        rounds: setup.rounds,
        army_names: setup.armies.clone().map(|a| a.name),
        army_points: setup.armies.each_ref().map(Army::points),
        warriors,
        terrain: Arc::new(setup.terrain),
        objectives: Vec::new(),
        objective_distance: [0, 0],
        first: None,
        stage: Stage::Contributing,
        turn: 0,
        actions_left: 0,
        eliminated_points: [0, 0],
        out: [false, false],
        pile: setup
            .armies
            .iter()
            .flat_map(|a| a.terrain.iter().cloned())
            .collect(),
        placed_terrain: 0,
        second_constructed: false,
        loose_items: Vec::new(),
        domain_decks: setup.armies.each_ref().map(|a| a.domains.clone()),
        domain_choice: [None, None],
        domains: Vec::new(),
        structure_damage: Default::default(),
        bombardments: Vec::new(),
        outcome: None,
    })
}

/// What one viewer may see: everything but the dice's seed, until the
/// game ends and reveals it.
#[derive(Debug, Clone, Serialize)]
pub struct BattleView {
    pub seat: Option<Seat>,
    pub battle: Battle,
    /// What the game asks for now, in words.
    pub asking: String,
    pub your_decision: bool,
}

pub fn view(battle: &Battle, seat: Option<Seat>) -> BattleView {
    BattleView {
        seat,
        battle: hidden_from(battle, seat),
        asking: orders::asking(&battle.stage),
        your_decision: seat.is_some_and(|s| battle.waits_for(s)),
    }
}

/// The game without what no player may know yet.
pub fn hidden_from_players(battle: &Battle) -> Battle {
    hidden_from(battle, None)
}

/// The game as `seat` may see it: also without the other player's domain
/// cards and choice until they are revealed.
pub fn hidden_from(battle: &Battle, seat: Option<Seat>) -> Battle {
    let mut seen = battle.clone();
    if !battle.dice.revealed {
        seen.dice.seed = crate::fairness::Bytes32::default();
    }
    for other in Seat::BOTH.into_iter().filter(|s| Some(*s) != seat) {
        seen.domain_decks[other.index()].clear();
        seen.domain_choice[other.index()] = None;
    }
    seen
}
