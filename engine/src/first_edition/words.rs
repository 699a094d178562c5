//! The 1st edition game in words: what it asks for now, and each fact as
//! a line of the game's log, with the numbers a player needs.

use super::duel::{DuelStep, Purpose};
use super::facts::Fact;
use super::skirmish::{Skirmish, Stage};
use crate::Seat;

fn player(seat: Seat) -> &'static str {
    match seat {
        Seat::A => "Player A",
        Seat::B => "Player B",
    }
}

/// What the game waits for, in words.
pub fn asking(stage: &Stage) -> String {
    match stage {
        Stage::Contributing => "both players cut the decks (add entropy)".into(),
        Stage::ChoosingStrategy { seat } => {
            format!("{} flipped a joker and chooses a strategy", player(*seat))
        }
        Stage::ChoosingDeployment { seat } => {
            format!("{} chooses the deployment", player(*seat))
        }
        Stage::ChoosingSchemes => "both players choose schemes in secret".into(),
        Stage::ChoosingDeployOrder { seat } => {
            format!(
                "{} won the flip and chooses who deploys first",
                player(*seat)
            )
        }
        Stage::Deploying { seat } => format!("{} deploys a model", player(*seat)),
        Stage::Discarding { seat } => {
            format!("{} may discard control cards before drawing", player(*seat))
        }
        Stage::Reflipping { seat, .. } => format!(
            "{} lost the initiative flip and may spend a soulstone to flip again",
            player(*seat)
        ),
        Stage::Activating { seat } => format!("{} activates a model", player(*seat)),
        Stage::Acting { activation } => format!(
            "the active model has {} action point(s)",
            activation.general_ap
        ),
        Stage::Dueling { duel, .. } => {
            let what = match duel.purpose {
                Purpose::Strike { .. } => "strike",
                Purpose::Disengaging { .. } => "disengaging strike",
                Purpose::Cast { .. } => "casting duel",
                Purpose::Resist { .. } => "resist duel",
                Purpose::Morale { .. } => "morale duel",
                Purpose::Harmless { .. } => "Willpower duel against a Harmless model",
            };
            match duel.step {
                DuelStep::Changing { seat } => format!(
                    "{}: cheat fate, spend a soulstone, or pass ({what})",
                    player(seat)
                ),
                DuelStep::Triggering { seat } => {
                    format!("{}: declare a trigger or none ({what})", player(seat))
                }
            }
        }
        Stage::CheatingDamage { .. } => "the attacker may cheat the damage flip".into(),
        Stage::Preventing { flip, .. } => format!(
            "the damaged model's player may spend a soulstone to prevent {} damage",
            flip.amount.unwrap_or(0)
        ),
        Stage::Over => "the game is over".into(),
    }
}

/// One fact as a log line; `None` for bookkeeping a reader does not need,
/// and for what `viewer` may not see (the cards drawn, a deck's order).
pub fn fact(game: &Skirmish, fact: &Fact, viewer: Option<Seat>) -> Option<String> {
    let name = |id: &super::skirmish::ModelId| {
        game.model(*id)
            .map_or_else(|| "a model".to_owned(), |m| m.card.name.clone())
    };
    let cards = |cards: &[crate::fate::Card]| {
        cards
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    Some(match fact {
        Fact::Contributed { seat, .. } => format!("{} cut the deck", player(*seat)),
        Fact::Shuffled { seat, .. } => format!("{}'s fate deck is shuffled", player(*seat)),
        Fact::Drew { seat, cards: drawn } if viewer == Some(*seat) => {
            format!("{} drew {}", player(*seat), cards(drawn))
        }
        Fact::Drew { seat, cards: drawn } => {
            format!("{} drew {} card(s)", player(*seat), drawn.len())
        }
        Fact::Discarded { seat, cards: gone } => {
            format!("{} discarded {}", player(*seat), cards(gone))
        }
        Fact::Flipped { seat, cards: shown } => {
            format!("{} flipped {}", player(*seat), cards(shown))
        }
        Fact::Cheated { seat, card } => format!("{} cheated fate with {card}", player(*seat)),
        Fact::SoulstoneSpent { seat } => format!("{} spent a soulstone", player(*seat)),
        Fact::StrategySet {
            seat,
            strategy: Some(s),
            ..
        } => format!("{}'s strategy: {}", player(*seat), s.name()),
        Fact::DeploymentSet {
            deployment: Some(d),
            ..
        } => format!("Deployment: {}", d.name()),
        Fact::SchemesChosen { seat, .. } => format!("{} chose their schemes", player(*seat)),
        Fact::FirstDeployer { seat } => format!("{} deploys first", player(*seat)),
        Fact::Placed { model, at } => format!(
            "{} at ({:.1}, {:.1})",
            name(model),
            super::field::inches_of(at.x),
            super::field::inches_of(at.y)
        ),
        Fact::TreasurePlaced { at: Some(_) } => {
            "The treasure marker is placed at the centre".into()
        }
        Fact::TreasureTaken { model } => format!("{} takes the treasure", name(model)),
        Fact::TreasureDropped { model } => format!("{} drops the treasure", name(model)),
        Fact::TurnBegan { turn } => format!("Turn {turn}"),
        Fact::InitiativeWon { seat } => format!("{} activates first", player(*seat)),
        Fact::Activated { model } => format!("{} activates", name(model)),
        Fact::Wounded { model, wounds } => format!("{} suffers {wounds} wound(s)", name(model)),
        Fact::Healed { model, wounds } => format!("{} heals {wounds}", name(model)),
        Fact::Killed { model } => format!("{} is killed", name(model)),
        Fact::ConditionSet {
            model,
            condition,
            value: 0,
        } => format!("{} is no longer {condition}", name(model)),
        Fact::ConditionSet {
            model,
            condition,
            value,
        } => format!("{} gains {condition} {value}", name(model)),
        Fact::DefensiveStance { model } => format!("{} takes a defensive stance", name(model)),
        Fact::FellBack { model } => format!("{} falls back", name(model)),
        Fact::Rallied { model } => format!("{} rallies", name(model)),
        Fact::Steeled { model, against } => {
            format!("{} stands firm against {}", name(model), name(against))
        }
        Fact::Summoned { card, .. } => format!("{} is summoned", card.name),
        Fact::SchemePointsScored { seat, points } => {
            format!("{} scores {points} scheme VP", player(*seat))
        }
        Fact::TurnClosed => "The closing phase".into(),
        Fact::FinalTurn { turn } => format!("The game ends after turn {turn}"),
        Fact::Ended { result } => format!(
            "Game over: Player A {} VP, Player B {} VP",
            result[0].0 + result[0].1,
            result[1].0 + result[1].1
        ),
        Fact::SeedRevealed { .. } => "The server's seed is revealed".into(),
        _ => return None,
    })
}
