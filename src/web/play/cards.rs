//! A model's stat card as the game page shows it on a click or a tap:
//! its stats, its actions with range, stat, target number, resist and
//! damage, their triggers, its abilities, and in a game its tokens and
//! health. Built from the engine's card (what the rules play) with the
//! content's words where the content has the card.

use soulstone_engine::content::Catalog;
use soulstone_engine::content::card::StatCard;
use soulstone_engine::duel::{ActionKind, DamageProfile, Stat, Suits};
use soulstone_engine::fate::Suit;
use soulstone_engine::model::{Model, ModelCard};
use soulstone_engine::rules::SpeedStat;
use soulstone_engine::{Edition, GameState};

use super::names::Names;

pub struct StatCardView {
    /// The model's id in a game (its card's anchor, `card-<id>`); none for
    /// a card shown outside a game.
    pub id: Option<u16>,
    pub name: String,
    pub short: String,
    /// "yours", "enemy", "Player B's".
    pub side: String,
    /// `side-a` or `side-b`.
    pub side_class: &'static str,
    /// Station, characteristics and keywords, in a line.
    pub kind: String,
    pub stats: Vec<(&'static str, String)>,
    pub actions: Vec<ActionLine>,
    pub abilities: Vec<(String, String)>,
    /// Upgrades attached (bought at hiring or during the game): name, words.
    pub upgrades: Vec<(String, String)>,
    pub tokens: String,
    pub status: String,
}

pub struct ActionLine {
    pub name: String,
    /// "Melee 1\"", "Missile 12\"", "Tactical (self)".
    pub reach: String,
    /// "6 (Masks)".
    pub stat: String,
    /// "Df", "Wp", or "TN 10 (Tomes)".
    pub against: String,
    pub damage: String,
    /// Signature, bonus, once per turn, soulstones, cost.
    pub notes: String,
    pub text: String,
    pub triggers: Vec<TriggerLine>,
}

pub struct TriggerLine {
    pub name: String,
    pub cost: String,
    pub text: String,
}

pub fn suit_word(suit: Suit) -> &'static str {
    match suit {
        Suit::Rams => "Rams",
        Suit::Masks => "Masks",
        Suit::Tomes => "Tomes",
        Suit::Crows => "Crows",
    }
}

/// "Masks and Tomes", or "" for none.
pub fn suits_words(suits: Suits) -> String {
    let words: Vec<&str> = suits.iter().map(suit_word).collect();
    words.join(" and ")
}

fn with_suits(value: String, suits: Suits) -> String {
    if suits.is_empty() {
        value
    } else {
        format!("{value} ({})", suits_words(suits))
    }
}

fn kind_word(kind: ActionKind) -> &'static str {
    match kind {
        ActionKind::Melee => "Melee",
        ActionKind::Missile => "Missile",
        ActionKind::Magic => "Magic",
        ActionKind::Tactical => "Tactical",
    }
}

/// An action's damage as the card prints it ("3", "2/3/4").
pub fn damage_words(damage: DamageProfile) -> String {
    match damage {
        DamageProfile::None => "–".into(),
        DamageProfile::Fixed { amount } => amount.to_string(),
        DamageProfile::Flip {
            weak,
            moderate,
            severe,
            ..
        } => format!("{weak}/{moderate}/{severe}"),
    }
}

/// A model's card, with its state in `state`.
pub fn of_model(
    state: &GameState,
    model: &Model,
    names: &Names,
    catalog: &Catalog,
) -> StatCardView {
    let card = &model.card;
    let content = catalog.card(state.edition, &card.name);
    let mut stats = stats_of(card, state.edition);
    stats.insert(
        0,
        ("Health", format!("{} of {}", model.health, card.max_health)),
    );
    let tokens: Vec<String> = model
        .tokens
        .iter()
        .map(|(token, count)| {
            let name = state.tokens.name(token);
            if count > 1 {
                format!("{name} {count}")
            } else {
                name.to_string()
            }
        })
        .chain(
            state
                .encounter
                .as_deref()
                .map(|e| e.explosives_on(model.id))
                .filter(|n| *n > 0)
                .map(|n| format!("explosives {n}")),
        )
        .collect();
    let status = match (model.in_play(), model.placement) {
        (false, _) => "out of play".to_string(),
        (true, None) => "not deployed".to_string(),
        (true, Some(p)) => {
            let at = p.at.v2();
            format!("at ({:.1}\", {:.1}\")", at.x, at.y)
        }
    };
    StatCardView {
        id: Some(model.id.0),
        name: names.name(model.id),
        short: names.short(model.id),
        side: names.side(model.id).to_string(),
        side_class: match model.owner {
            soulstone_engine::Seat::A => "side-a",
            soulstone_engine::Seat::B => "side-b",
        },
        kind: kind_line(card, content),
        stats,
        actions: actions_of(card, content),
        abilities: abilities_of(card, content),
        upgrades: model
            .upgrades
            .iter()
            .map(|name| {
                let words = catalog
                    .upgrade(state.edition, name)
                    .map(|u| u.text.clone())
                    .unwrap_or_default();
                (name.clone(), words)
            })
            .collect(),
        tokens: tokens.join(", "),
        status,
    }
}

/// A card as printed, outside any game, as the card pages show it.
pub fn of_card(content: &StatCard) -> StatCardView {
    let card = content.model_card();
    let mut stats = stats_of(&card, content.edition);
    stats.insert(0, ("Health", content.health.to_string()));
    StatCardView {
        id: None,
        name: content.full_name(),
        short: String::new(),
        side: content.factions.join(", "),
        side_class: "",
        kind: kind_line(&card, Some(content)),
        stats,
        actions: actions_of(&card, Some(content)),
        abilities: abilities_of(&card, Some(content)),
        upgrades: Vec::new(),
        tokens: String::new(),
        status: String::new(),
    }
}

fn stats_of(card: &ModelCard, edition: Edition) -> Vec<(&'static str, String)> {
    let speed = match edition.rules().content.speed {
        SpeedStat::Mv => "Mv",
        SpeedStat::Sp => "Sp",
    };
    let mut stats = vec![
        ("Df", card.df.to_string()),
        ("Wp", card.wp.to_string()),
        ("Sz", card.sz.to_string()),
        (speed, card.speed.to_string()),
        ("Base", format!("{} mm", card.base.0)),
    ];
    if card.cost > 0 {
        stats.push(("Cost", card.cost.to_string()));
    }
    stats
}

fn kind_line(card: &ModelCard, content: Option<&StatCard>) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(content) = content {
        let station = format!("{:?}", content.station);
        parts.push(match content.limit {
            Some(limit) if limit > 1 => format!("{station} ({limit})"),
            _ => station,
        });
        parts.extend(content.characteristics.iter().map(|c| format!("{c:?}")));
    } else {
        if card.master {
            parts.push("Master".into());
        }
        if card.henchman {
            parts.push("Henchman".into());
        }
        if card.totem {
            parts.push("Totem".into());
        }
        if card.peon {
            parts.push("Peon".into());
        }
    }
    if card.soulstone_user {
        parts.push("uses soulstones".into());
    }
    if !card.keywords.is_empty() {
        parts.push(card.keywords.join(", "));
    }
    parts.join(" · ")
}

fn actions_of(card: &ModelCard, content: Option<&StatCard>) -> Vec<ActionLine> {
    card.actions
        .iter()
        .map(|action| {
            let written = content.and_then(|c| c.actions.iter().find(|a| *a.name == *action.name));
            let reach = if action.range == 0 {
                format!("{} (itself)", kind_word(action.kind))
            } else {
                format!("{} {}\"", kind_word(action.kind), action.range)
            };
            let tn = action
                .tn
                .map(|tn| with_suits(format!("TN {tn}"), action.tn_suits));
            let against = match (action.resist, tn) {
                (Some(Stat::Df), None) => "resisted by Df".to_string(),
                (Some(Stat::Wp), None) => "resisted by Wp".to_string(),
                (Some(stat), Some(tn)) => {
                    format!(
                        "{tn}, resisted by {}",
                        if stat == Stat::Df { "Df" } else { "Wp" }
                    )
                }
                (None, Some(tn)) => tn,
                (None, None) => String::new(),
            };
            let mut notes: Vec<String> = Vec::new();
            if action.signature {
                notes.push("signature".into());
            }
            if action.bonus {
                notes.push("bonus".into());
            }
            if let Some(once) = action.once_per {
                notes.push(format!("once per {once:?}").to_lowercase());
            }
            if action.soulstones > 0 {
                notes.push(format!("{} soulstone(s)", action.soulstones));
            }
            if action.irreducible {
                notes.push("irreducible".into());
            }
            if let Some(cost) = written
                .map(|w| w.cost_text.as_str())
                .filter(|t| !t.is_empty())
            {
                notes.push(cost.to_string());
            }
            let triggers = action
                .triggers
                .iter()
                .map(|trigger| {
                    let words =
                        written.and_then(|w| w.triggers.iter().find(|t| t.name == trigger.name));
                    let mut cost = suits_words(trigger.suits);
                    if trigger.soulstones > 0 {
                        if !cost.is_empty() {
                            cost.push_str(", ");
                        }
                        cost.push_str(&format!("{} soulstone(s)", trigger.soulstones));
                    }
                    TriggerLine {
                        name: trigger.name.clone(),
                        cost,
                        text: words.map(|t| t.text.clone()).unwrap_or_default(),
                    }
                })
                .collect();
            ActionLine {
                name: action.name.to_string(),
                reach,
                stat: with_suits(action.skill.to_string(), action.skill_suits),
                against,
                damage: damage_words(action.damage),
                notes: notes.join(", "),
                text: written.map(|w| w.text.clone()).unwrap_or_default(),
                triggers,
            }
        })
        .collect()
}

fn abilities_of(card: &ModelCard, content: Option<&StatCard>) -> Vec<(String, String)> {
    match content {
        // The content's abilities include those only described in words.
        Some(content) => content
            .abilities
            .iter()
            .map(|a| (a.name.clone(), a.text.clone()))
            .collect(),
        None => card
            .abilities
            .iter()
            .map(|a| (a.name.clone(), String::new()))
            .chain(
                card.reductions
                    .iter()
                    .map(|r| (r.name.clone(), format!("reduces damage by {}", r.amount))),
            )
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use soulstone_engine::Viewer;
    use soulstone_engine::scenario::Scenario;

    use super::*;

    /// A model's card lists the upgrades it holds, with the content's words,
    /// and the actions they give beside its own.
    #[test]
    fn a_card_shows_its_upgrades_with_their_words() {
        let catalog = crate::content::load_shipped_for_cli().expect("the shipped content");
        let text = include_str!("../../../tests/scenarios/m3e/upgrades-hired.toml");
        let scenario = Scenario::from_toml(text).expect("the scenario parses");
        let state = scenario.initial_state(&catalog).expect("it sets up");
        let names = Names::of(&state, Viewer::Player(soulstone_engine::Seat::B));
        let hetty = state
            .model(soulstone_engine::model::ModelId(1))
            .expect("Hetty");
        let card = of_model(&state, hetty, &names, &catalog);
        let lantern = catalog
            .upgrade(Edition::Third, "Ferry Lantern")
            .expect("shipped");
        assert_eq!(
            card.upgrades,
            vec![("Ferry Lantern".to_string(), lantern.text.clone())]
        );
        assert!(card.actions.iter().any(|a| a.name == "Lantern Swing"));
        let dummy = state
            .model(soulstone_engine::model::ModelId(31))
            .expect("the dummy");
        assert!(
            of_model(&state, dummy, &names, &catalog)
                .upgrades
                .is_empty()
        );
    }
}
