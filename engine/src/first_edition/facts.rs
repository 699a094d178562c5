//! The facts of a 1st edition game: the only way its state changes, so a
//! game rebuilds exactly from its setup and its facts.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::card::ModelCard;
use super::objectives::{Deployment, SchemePick, Strategy};
use super::skirmish::{Model, ModelId, Skirmish, Stage};
use crate::Seat;
use crate::fairness::Bytes32;
use crate::fate::Card;
use crate::table::Point;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "fact", rename_all = "snake_case")]
pub enum Fact {
    Contributed {
        seat: Seat,
        entropy: Bytes32,
    },
    /// The seat's deck, shuffled anew from its deck and discards (the top
    /// last). Only its owner, and only its count, sees it before the end.
    Shuffled {
        seat: Seat,
        number: u32,
        deck: Vec<Card>,
    },
    /// Cards from the top of the deck into the hand (secret to the others).
    Drew {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// Cards from the hand to the discards.
    Discarded {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// Cards turned from the top of the deck, face up, to the discards.
    Flipped {
        seat: Seat,
        cards: Vec<Card>,
    },
    /// A card from the hand replaced a flip's (to the discards).
    Cheated {
        seat: Seat,
        card: Card,
    },
    SoulstoneSpent {
        seat: Seat,
    },
    StrategySet {
        seat: Seat,
        strategy: Option<Strategy>,
        flip: Option<Card>,
    },
    DeploymentSet {
        deployment: Option<Deployment>,
        flip: Option<Card>,
    },
    SchemesChosen {
        seat: Seat,
        schemes: Vec<SchemePick>,
    },
    FirstDeployer {
        seat: Seat,
    },
    Placed {
        model: ModelId,
        at: Point,
    },
    TreasurePlaced {
        at: Option<Point>,
    },
    TreasureTaken {
        model: ModelId,
    },
    TreasureDropped {
        model: ModelId,
    },
    TurnBegan {
        turn: u8,
    },
    InitiativeWon {
        seat: Seat,
    },
    Activated {
        model: ModelId,
    },
    Wounded {
        model: ModelId,
        wounds: u8,
    },
    Healed {
        model: ModelId,
        wounds: u8,
    },
    Killed {
        model: ModelId,
    },
    ConditionSet {
        model: ModelId,
        condition: String,
        value: u8,
    },
    DefensiveStance {
        model: ModelId,
    },
    FellBack {
        model: ModelId,
    },
    Rallied {
        model: ModelId,
    },
    Steeled {
        model: ModelId,
        against: ModelId,
    },
    Summoned {
        model: ModelId,
        seat: Seat,
        card: Box<ModelCard>,
    },
    SchemePointsScored {
        seat: Seat,
        points: u8,
    },
    /// The closing phase: stances end, activations reset.
    TurnClosed,
    /// The stage the game waits at now.
    Now {
        stage: Box<Stage>,
    },
    FinalTurn {
        turn: u8,
    },
    Ended {
        result: [(u8, u8); 2],
    },
    SeedRevealed {
        seed: Bytes32,
    },
}

fn take_from_hand(hand: &mut Vec<Card>, card: Card) {
    if let Some(i) = hand.iter().position(|c| *c == card) {
        hand.remove(i);
    }
}

pub fn apply(game: &mut Skirmish, fact: &Fact) {
    game.version += 1;
    match fact {
        Fact::Contributed { seat, entropy } => game.contributions[seat.index()] = Some(*entropy),
        Fact::Shuffled { seat, number, deck } => {
            let player = &mut game.players[seat.index()];
            player.deck = deck.clone();
            player.deck_size = deck.len();
            player.discards.clear();
            player.shuffles = *number;
        }
        Fact::Drew { seat, cards } => {
            let player = &mut game.players[seat.index()];
            for card in cards {
                player.deck.pop();
                player.deck_size = player.deck_size.saturating_sub(1);
                player.hand.push(*card);
            }
            player.hand_size = player.hand.len();
        }
        Fact::Discarded { seat, cards } => {
            let player = &mut game.players[seat.index()];
            for card in cards {
                take_from_hand(&mut player.hand, *card);
                player.discards.push(*card);
            }
            player.hand_size = player.hand.len();
        }
        Fact::Flipped { seat, cards } => {
            let player = &mut game.players[seat.index()];
            for card in cards {
                player.deck.pop();
                player.deck_size = player.deck_size.saturating_sub(1);
                player.discards.push(*card);
            }
        }
        Fact::Cheated { seat, card } => {
            let player = &mut game.players[seat.index()];
            take_from_hand(&mut player.hand, *card);
            player.hand_size = player.hand.len();
            player.discards.push(*card);
        }
        Fact::SoulstoneSpent { seat } => {
            let stones = &mut game.players[seat.index()].soulstones;
            *stones = stones.saturating_sub(1);
        }
        Fact::StrategySet { seat, strategy, .. } => game.players[seat.index()].strategy = *strategy,
        Fact::DeploymentSet { deployment, flip } => {
            game.deployment = *deployment;
            if flip.is_some() {
                game.deployment_flip = *flip;
            }
        }
        Fact::SchemesChosen { seat, schemes } => {
            let player = &mut game.players[seat.index()];
            player.schemes = schemes.clone();
            player.schemes_chosen = true;
        }
        Fact::FirstDeployer { seat } => game.first_deployer = Some(*seat),
        Fact::Placed { model, at } => {
            if let Some(m) = model_mut(game, *model) {
                m.at = Some(*at);
            }
        }
        Fact::TreasurePlaced { at } => game.treasure = *at,
        Fact::TreasureTaken { model } => {
            game.treasure = None;
            for m in &mut game.models {
                m.carries_treasure = m.id == *model;
            }
        }
        Fact::TreasureDropped { model } => {
            if let Some(m) = model_mut(game, *model) {
                m.carries_treasure = false;
                game.treasure = m.at;
            }
        }
        Fact::TurnBegan { turn } => game.turn = *turn,
        Fact::InitiativeWon { seat } => game.first = *seat,
        Fact::Activated { model } => {
            if let Some(m) = model_mut(game, *model) {
                m.activated = true;
            }
        }
        Fact::Wounded { model, wounds } => {
            if let Some(m) = model_mut(game, *model) {
                m.wounds_left = m.wounds_left.saturating_sub(*wounds);
            }
        }
        Fact::Healed { model, wounds } => {
            if let Some(m) = model_mut(game, *model) {
                m.wounds_left = (m.wounds_left + wounds).min(m.card.wd);
            }
        }
        Fact::Killed { model } => {
            if let Some(m) = model_mut(game, *model) {
                m.killed = true;
                m.wounds_left = 0;
                m.carries_treasure = false;
            }
        }
        Fact::ConditionSet {
            model,
            condition,
            value,
        } => {
            if let Some(m) = model_mut(game, *model) {
                m.conditions.retain(|(n, _)| n != condition);
                if *value > 0 {
                    m.conditions.push((condition.clone(), *value));
                }
            }
        }
        Fact::DefensiveStance { model } => {
            if let Some(m) = model_mut(game, *model) {
                m.defensive = true;
            }
        }
        Fact::FellBack { model } => {
            if let Some(m) = model_mut(game, *model) {
                m.falling_back = true;
            }
        }
        Fact::Rallied { model } => {
            if let Some(m) = model_mut(game, *model) {
                m.falling_back = false;
            }
        }
        Fact::Steeled { model, against } => {
            if let Some(m) = model_mut(game, *model) {
                m.steeled_against.push(*against);
            }
        }
        Fact::Summoned { model, seat, card } => {
            debug_assert_eq!(usize::from(model.0), game.models.len());
            game.models.push(Model {
                id: *model,
                seat: *seat,
                wounds_left: card.wd,
                card: Arc::new((**card).clone()),
                at: None,
                killed: false,
                activated: false,
                conditions: Vec::new(),
                defensive: false,
                falling_back: false,
                steeled_against: Vec::new(),
                carries_treasure: false,
            });
        }
        Fact::SchemePointsScored { seat, points } => {
            game.players[seat.index()].scheme_points_scored += points;
        }
        Fact::TurnClosed => {
            for m in &mut game.models {
                m.activated = false;
                m.defensive = false;
            }
        }
        Fact::Now { stage } => game.stage = (**stage).clone(),
        Fact::FinalTurn { turn } => game.final_turn = Some(*turn),
        Fact::Ended { result } => {
            game.result = Some(*result);
            game.stage = Stage::Over;
        }
        Fact::SeedRevealed { seed } => {
            game.seed = *seed;
            game.revealed = true;
        }
    }
}

fn model_mut(game: &mut Skirmish, id: ModelId) -> Option<&mut Model> {
    game.models.get_mut(usize::from(id.0))
}
