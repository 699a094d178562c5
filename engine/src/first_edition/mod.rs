//! Malifaux 1st edition, in rooms of its own, from the quick reference and
//! the errata: its content ([`card`], [`crew`], [`content`],
//! [`conditions`]), the encounter ([`skirmish`] the state, [`facts`],
//! [`flow`] the stages, [`actions`], [`duel`] and [`resolve`],
//! [`objectives`], [`field`] the table), its [`bots`] and [`words`]. The
//! host plays it through [`crate::system::TableGame`] ([`FirstEdition`]).

pub mod actions;
pub mod bots;
pub mod card;
pub mod conditions;
pub mod content;
pub mod crew;
mod damage;
pub mod duel;
pub mod facts;
pub mod field;
pub mod flow;
pub mod objectives;
mod resolve;
pub mod scenario;
pub mod search;
mod shifts;
pub mod skirmish;
mod table_game;
pub mod words;

use std::sync::Arc;

use serde::Serialize;

pub use card::ModelCard;
pub use conditions::ConditionBook;
pub use content::Book;
pub use crew::{Crew, CrewList, Encounter};
pub use facts::Fact;
pub use flow::{Order, Submission, execute};
pub use skirmish::{Model, ModelId, Setup, Skirmish, Stage};
pub use table_game::{FinishedLog, FirstEdition, verify};

use crate::fairness::{self, Bytes32};
use crate::fate::Card;
use crate::{RuleError, Seat};

/// The most models a crew may bring (a Brawl's at 70 soulstones is far
/// fewer).
pub const MAX_MODELS: usize = 30;

/// The game at its start, or why the setup cannot start one.
pub fn start(setup: Setup) -> Result<Skirmish, RuleError> {
    for crew in &setup.crews {
        if crew.encounter != setup.encounter {
            return Err(RuleError::invalid(format!(
                "{} is hired for a {}, and this is a {}",
                crew.name,
                crew.encounter.name(),
                setup.encounter.name()
            )));
        }
        if crew.models.is_empty() || crew.models.len() > MAX_MODELS {
            return Err(RuleError::invalid(format!(
                "a crew fields 1 to {MAX_MODELS} models"
            )));
        }
    }
    let named = setup
        .crews
        .iter()
        .flat_map(|c| &c.models)
        .chain(&setup.summonable)
        .flat_map(condition_names);
    let missing = setup.conditions.missing(named);
    if !missing.is_empty() {
        return Err(RuleError::invalid(format!(
            "the condition book lacks {}",
            missing.join(", ")
        )));
    }
    let mut models = Vec::new();
    for (seat, crew) in Seat::BOTH.into_iter().zip(&setup.crews) {
        for card in &crew.models {
            models.push(Model {
                id: ModelId(u16::try_from(models.len()).unwrap_or(u16::MAX)),
                seat,
                card: Arc::new(card.clone()),
                at: None,
                wounds_left: card.wd,
                killed: false,
                activated: false,
                conditions: Vec::new(),
                defensive: false,
                falling_back: false,
                steeled_against: Vec::new(),
                carries_treasure: false,
            });
        }
    }
    let players = setup.crews.each_ref().map(|crew| skirmish::Player {
        crew_name: crew.name.clone(),
        faction: crew.faction.clone(),
        deck: Card::all().collect(),
        deck_size: 54,
        hand: Vec::new(),
        hand_size: 0,
        discards: Vec::new(),
        soulstones: crew.pool,
        shuffles: 0,
        strategy: None,
        schemes: Vec::new(),
        schemes_chosen: false,
        scheme_points_scored: 0,
    });
    Ok(Skirmish {
        version: 0,
        encounter: setup.encounter,
        conditions: Arc::new(setup.conditions),
        summonable: Arc::new(setup.summonable),
        commitment: fairness::commitment(&setup.seed),
        seed: setup.seed,
        contributions: [None, None],
        revealed: false,
        players,
        models,
        deployment: None,
        deployment_flip: None,
        first_deployer: None,
        turn: 0,
        first: Seat::A,
        stage: Stage::Contributing,
        treasure: None,
        final_turn: None,
        result: None,
    })
}

/// Every condition a card's spells and triggers name.
fn condition_names(card: &ModelCard) -> Vec<&str> {
    let from_triggers = card
        .weapons
        .iter()
        .flat_map(|w| &w.triggers)
        .chain(card.spells.iter().flat_map(|s| &s.triggers))
        .filter_map(|t| match &t.does {
            card::TriggerEffect::Condition { condition, .. } => Some(condition.as_str()),
            _ => None,
        });
    let from_spells = card
        .spells
        .iter()
        .flat_map(|s| &s.effects)
        .filter_map(|e| match e {
            card::SpellEffect::Condition { condition, .. } => Some(condition.as_str()),
            _ => None,
        });
    from_triggers.chain(from_spells).collect()
}

/// What one viewer may see.
#[derive(Debug, Clone, Serialize)]
pub struct SkirmishView {
    pub seat: Option<Seat>,
    pub game: Skirmish,
    /// What the game asks for now, in words.
    pub asking: String,
    pub your_decision: bool,
}

pub fn view(game: &Skirmish, seat: Option<Seat>) -> SkirmishView {
    SkirmishView {
        seat,
        game: hidden_from(game, seat),
        asking: words::asking(&game.stage),
        your_decision: seat.is_some_and(|s| game.waits_for(s)),
    }
}

/// The game as `seat` (none: a spectator) may see it: no deck's order,
/// no one else's hand, and no one else's schemes but those announced
/// once deployment is done (all of them at the end). The seed stays
/// hidden until it is revealed.
pub fn hidden_from(game: &Skirmish, seat: Option<Seat>) -> Skirmish {
    let mut seen = game.clone();
    if !game.revealed {
        seen.seed = Bytes32::default();
    }
    let over = game.is_over();
    for owner in Seat::BOTH {
        let player = &mut seen.players[owner.index()];
        if !over {
            player.deck.clear();
        }
        if Some(owner) != seat && !over {
            player.hand.clear();
            if game.turn == 0 {
                player.schemes.clear();
            } else {
                player.schemes.retain(|p| p.announce);
            }
        }
    }
    seen
}
