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
            crate::table::inches(at.x),
            crate::table::inches(at.y)
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

/// A command in words, for its button: what it does, with the numbers a
/// player weighs (distances, Cb against Df, a card's value).
pub fn order(game: &Skirmish, seat: Seat, order: &super::flow::Order) -> String {
    use super::actions::Action;
    use super::flow::Order;
    let name = |id: &super::skirmish::ModelId| {
        game.model(*id).map_or_else(
            || "a model".to_owned(),
            |m| format!("{} #{}", m.card.name, id.0),
        )
    };
    let active = match &game.stage {
        Stage::Acting { activation } => game.model(activation.model),
        _ => None,
    };
    match order {
        Order::Contribute { .. } => "Cut the decks".into(),
        Order::ChooseStrategy { strategy } => format!("Play {}", strategy.name()),
        Order::ChooseDeployment { deployment } => format!("Deploy {}", deployment.name()),
        Order::ChooseSchemes { schemes } if schemes.is_empty() => "No schemes".into(),
        Order::ChooseSchemes { schemes } => schemes
            .iter()
            .map(|p| {
                let named = p
                    .model
                    .map(|m| format!(" ({})", name(&m)))
                    .unwrap_or_default();
                let told = if p.announce { ", announced" } else { "" };
                format!("{}{named}{told}", p.scheme.name())
            })
            .collect::<Vec<_>>()
            .join(" and "),
        Order::DeployFirst { first: true } => "Deploy first".into(),
        Order::DeployFirst { first: false } => "Deploy second".into(),
        Order::Deploy { model, at } => format!(
            "Deploy {} at ({:.1}, {:.1})",
            name(model),
            crate::table::inches(at.x),
            crate::table::inches(at.y)
        ),
        Order::Discard { cards } if cards.is_empty() => "Keep every card and draw".into(),
        Order::Discard { cards } => format!(
            "Discard {} and draw",
            cards
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Order::Reflip { reflip: true } => "Spend a soulstone to flip again".into(),
        Order::Reflip { reflip: false } => "Keep the flip".into(),
        Order::Activate { model } => format!("Activate {}", name(model)),
        Order::EndActivation => "End the activation".into(),
        Order::Act { action } => match action {
            Action::Walk { to } => {
                let far = active
                    .and_then(|m| m.at)
                    .map_or(0.0, |from| super::field::between(from, *to));
                format!(
                    "Walk {far:.1}\" to ({:.1}, {:.1})",
                    crate::table::inches(to.x),
                    crate::table::inches(to.y)
                )
            }
            Action::Charge { target, weapon } => {
                let with = active
                    .and_then(|m| super::actions::weapon_of(m, *weapon).map(|w| w.2))
                    .unwrap_or(0);
                format!("Charge {} (2 AP; Cb {with})", name(target))
            }
            Action::Strike {
                target,
                weapon,
                focus,
            } => {
                let weapon_name = active
                    .and_then(|m| weapon.and_then(|i| m.card.weapons.get(usize::from(i))))
                    .map_or("Bash", |w| w.name.as_str());
                let cb = active
                    .and_then(|m| super::actions::weapon_of(m, *weapon).map(|w| w.2))
                    .unwrap_or(0);
                let df = game.model(*target).map_or(0, |m| m.card.df);
                format!(
                    "{} {} with {weapon_name} (Cb {cb} against Df {df}{})",
                    if *focus { "Focus and strike" } else { "Strike" },
                    name(target),
                    if *focus { "; 2 AP" } else { "" }
                )
            }
            Action::Cast {
                spell,
                target,
                channel,
            } => {
                let card = active.and_then(|m| m.card.spells.get(usize::from(*spell)));
                let (spell_name, cc) = card.map_or(("a spell", 0), |s| (s.name.as_str(), s.cc));
                format!(
                    "{}{spell_name} on {} (TN {cc})",
                    if *channel { "Channel " } else { "Cast " },
                    name(target)
                )
            }
            Action::DefensiveStance => "Take a defensive stance".into(),
            Action::Heal => "Spend a soulstone to heal".into(),
            Action::Interact { pass_to: None } => "Pick up the treasure".into(),
            Action::Interact { pass_to: Some(m) } => format!("Pass the treasure to {}", name(m)),
            Action::Pass => "Pass (spend an action point)".into(),
        },
        Order::ChangeTotal { cheat, soulstone } => {
            let mine = match &game.stage {
                Stage::Dueling { duel, .. } => duel.side(seat).map(|s| s.total()),
                _ => None,
            };
            let total_with = |card: &crate::fate::Card| {
                mine.zip(match &game.stage {
                    Stage::Dueling { duel, .. } => duel.side(seat).map(|s| s.card.value()),
                    _ => None,
                })
                .map(|(total, old)| total - i16::from(old) + i16::from(card.value()))
            };
            match (cheat, soulstone) {
                (None, false) => "Pass".into(),
                (None, true) => "Spend a soulstone for a second card".into(),
                (Some(card), stone) => format!(
                    "Cheat with {card}{}{}",
                    total_with(card)
                        .map(|t| format!(" (total {t})"))
                        .unwrap_or_default(),
                    if *stone { " and spend a soulstone" } else { "" }
                ),
            }
        }
        Order::Trigger { trigger: None } => "Declare no trigger".into(),
        Order::Trigger {
            trigger: Some(name),
        } => format!("Declare {name}"),
        Order::Prevent { soulstone: true } => "Spend a soulstone to prevent".into(),
        Order::Prevent { soulstone: false } => "Take the damage".into(),
    }
}

/// The duel under way in words: each side's card, stat and total.
pub fn duel(game: &Skirmish) -> Option<String> {
    let Stage::Dueling { duel, .. } = &game.stage else {
        return None;
    };
    let side = |d: &super::duel::Duelist| {
        let name = game.model(d.model).map_or("", |m| m.card.name.as_str());
        format!(
            "{name}: {} + {}{} = {}",
            d.card,
            d.stat,
            d.stone.map(|c| format!(" + {c}")).unwrap_or_default(),
            d.total()
        )
    };
    let against = match &duel.versus {
        super::duel::Versus::Model { defender } => side(defender),
        super::duel::Versus::Number { tn, suit, .. } => format!(
            "TN {tn}{}",
            suit.map(|s| format!(" with {}", s.name()))
                .unwrap_or_default()
        ),
    };
    Some(format!(
        "{} against {against}: {} winning",
        side(&duel.actor),
        if duel.actor_wins() {
            "the first side is"
        } else {
            "the first side is not"
        }
    ))
}

/// An ability as a card prints it (with its number) and what it does, in
/// our words; an ability the engine does not play yet says so.
pub fn ability(ability: &super::card::Ability) -> (String, &'static str) {
    use super::card::Ability as A;
    match ability {
        A::Armor { value } => (
            format!("Armor +{value}"),
            "Damage it takes is reduced by this much, to no less than 1.",
        ),
        A::Bulletproof { value } => (
            format!("Bulletproof +{value}"),
            "Damage from ranged attacks is reduced by this much, to no less than 1.",
        ),
        A::MagicResistant { value } => (
            format!("Magic Resistant +{value}"),
            "Damage from spells is reduced by this much, to no less than 1.",
        ),
        A::HardToKill => (
            "Hard to Kill".into(),
            "With 2 or more wounds left, a hit that would kill it leaves it at 1.",
        ),
        A::HardToWound { value } => (
            format!("Hard to Wound {value}"),
            "Damage flips against it take this many negative twists.",
        ),
        A::Terrifying { value } => (
            format!("Terrifying {value}"),
            "A living enemy in melee with it must win a morale duel of this number when it activates (the checks after its actions and before a charge are not played yet).",
        ),
        A::Regeneration { value } => (
            format!("Regeneration {value}"),
            "Heals this many wounds as its activation starts.",
        ),
        A::MeleeExpert => (
            "Melee Expert".into(),
            "An extra action point each activation, for melee strikes only.",
        ),
        A::RangedExpert => (
            "Ranged Expert".into(),
            "An extra action point each activation, for ranged strikes only.",
        ),
        A::CastingExpert => (
            "Casting Expert".into(),
            "An extra action point each activation, for casting spells only.",
        ),
        A::Fly => (
            "Fly".into(),
            "Moves over other models (terrain is not played yet).",
        ),
        A::Float => (
            "Float".into(),
            "Moves over other models (terrain is not played yet).",
        ),
        A::Scout => (
            "Scout".into(),
            "Deploys ahead of its crew (not played yet: it waits for terrain and deployment choices).",
        ),
        A::Arachnid => (
            "Arachnid".into(),
            "Climbs without slowing (not played yet: it waits for terrain).",
        ),
        A::PassThrough => (
            "Pass Through".into(),
            "Moves through other models (terrain is not played yet).",
        ),
        A::Hunter => (
            "Hunter".into(),
            "Ignores the movement penalties of rough ground (not played yet: it waits for terrain).",
        ),
        A::Ruthless => ("Ruthless".into(), "Ignores Harmless when it attacks."),
        A::ImmuneToInfluence => (
            "Immune to Influence".into(),
            "Unaffected by enemy spells resisted with Willpower.",
        ),
        A::Harmless => (
            "Harmless".into(),
            "An enemy must win a Willpower duel of 13 before attacking it, or its action fails.",
        ),
        A::UseSoulstones => ("Use Soulstones".into(), "May spend its crew's soulstones."),
    }
}
