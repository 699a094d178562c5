//! A 1st edition model's card in the stat-card component the other
//! editions use: its stats, weapons and spells with their triggers, and its
//! abilities in words (the engine's, `first_edition::words::ability`).

use soulstone_engine::fate::Suit;
use soulstone_engine::first_edition::card::{
    Damage, ModelCard, Resist, Spell, Trigger, TriggerStat, Weapon, WeaponKind,
};
use soulstone_engine::first_edition::words;

use super::cards::{ActionLine, StatCardView, TriggerLine, suit_word};

fn with_suit(value: String, suit: Option<Suit>) -> String {
    match suit {
        Some(suit) => format!("{value} ({})", suit_word(suit)),
        None => value,
    }
}

fn damage_words(damage: Damage) -> String {
    format!("{}/{}/{}", damage.weak, damage.moderate, damage.severe)
}

fn trigger_line(trigger: &Trigger) -> TriggerLine {
    let stat = match trigger.stat {
        TriggerStat::Cb => "Cb",
        TriggerStat::Ca => "Ca",
        TriggerStat::Df => "Df",
        TriggerStat::Wp => "Wp",
    };
    // "Ca, Tomes ×3": a suit the trigger names twice is two of it.
    let mut suits: Vec<(Suit, usize)> = Vec::new();
    for suit in &trigger.suits {
        match suits.iter_mut().find(|(s, _)| s == suit) {
            Some((_, count)) => *count += 1,
            None => suits.push((*suit, 1)),
        }
    }
    let suits: Vec<String> = suits
        .into_iter()
        .map(|(suit, count)| match count {
            1 => suit_word(suit).to_string(),
            n => format!("{} ×{n}", suit_word(suit)),
        })
        .collect();
    TriggerLine {
        name: trigger.name.clone(),
        cost: format!("{stat}, {}", suits.join(" and ")),
        text: trigger.text.clone(),
    }
}

fn weapon_line(weapon: &Weapon) -> ActionLine {
    let reach = match weapon.kind {
        WeaponKind::Melee => format!("Melee {}\"", weapon.rg),
        WeaponKind::Ranged => format!("Ranged {}\"", weapon.rg),
    };
    ActionLine {
        name: weapon.name.clone(),
        reach,
        stat: with_suit(format!("Cb {}", weapon.cb), weapon.cb_suit),
        against: "resisted by Df".into(),
        damage: damage_words(weapon.damage),
        notes: if weapon.paired {
            "paired".into()
        } else {
            String::new()
        },
        text: String::new(),
        triggers: weapon.triggers.iter().map(trigger_line).collect(),
    }
}

fn spell_line(spell: &Spell) -> ActionLine {
    let reach = if spell.rg == 0 {
        "Spell (itself)".to_string()
    } else {
        format!("Spell {}\"", spell.rg)
    };
    let cc = with_suit(format!("CC {}", spell.cc), spell.cc_suit);
    let against = match spell.resist {
        Some(Resist::Df) => format!("{cc}, resisted by Df"),
        Some(Resist::Wp) => format!("{cc}, resisted by Wp"),
        None => cc,
    };
    let damage = spell
        .effects
        .iter()
        .find_map(|effect| match effect {
            soulstone_engine::first_edition::card::SpellEffect::Damage { damage } => {
                Some(damage_words(*damage))
            }
            _ => None,
        })
        .unwrap_or_else(|| "–".into());
    ActionLine {
        name: spell.name.clone(),
        reach,
        stat: "Ca".into(),
        against,
        damage,
        notes: format!("{} AP", spell.ap),
        text: spell.text.clone(),
        triggers: spell.triggers.iter().map(trigger_line).collect(),
    }
}

/// A 1st edition card as printed, outside any game.
pub fn of_card(card: &ModelCard) -> StatCardView {
    let mut kind = vec![format!("{:?}", card.station)];
    kind.extend(card.characteristics.iter().map(|c| format!("{c:?}")));
    if let Some(rare) = card.rare {
        kind.push(format!("Rare {rare}"));
    }
    if let Some(master) = &card.totem_of {
        kind.push(format!("totem of {master}"));
    }
    let mut stats = vec![
        ("Wd", card.wd.to_string()),
        ("Wk", card.wk.to_string()),
        ("Cg", card.cg.to_string()),
        ("Ht", card.ht.to_string()),
        ("Wp", card.wp.to_string()),
        ("Df", card.df.to_string()),
    ];
    if card.ca > 0 {
        stats.push(("Ca", card.ca.to_string()));
    }
    stats.push(("Base", format!("{} mm", card.base)));
    if let Some(cost) = card.cost {
        stats.push(("Cost", cost.to_string()));
    }
    if let Some(cache) = card.cache {
        stats.push(("Cache", cache.to_string()));
    }
    StatCardView {
        id: None,
        name: card.name.clone(),
        short: String::new(),
        side: card.faction.clone(),
        side_class: "",
        kind: kind.join(" · "),
        stats,
        actions: card
            .weapons
            .iter()
            .map(weapon_line)
            .chain(card.spells.iter().map(spell_line))
            .collect(),
        abilities: card
            .abilities
            .iter()
            .map(|a| {
                let (name, text) = words::ability(a);
                (name, text.to_string())
            })
            .collect(),
        upgrades: Vec::new(),
        tokens: String::new(),
        status: String::new(),
    }
}
