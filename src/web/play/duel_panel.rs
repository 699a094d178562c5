//! The numbers of an open duel, as a player at the table would say them:
//! each side's stat, suits and fate modifiers, the cards flipped, the
//! totals and the target number; and, for the player deciding whether to
//! cheat, what each card in hand would make of it (win or lose, and the
//! damage). Public except the hand, which only its owner's page shows.

use soulstone_engine::damage::accuracy;
use soulstone_engine::duel::{
    ActionKind, DamageProfile, Duel, DuelStep, Outcome, Role, Side, outcome_if_cheated,
};
use soulstone_engine::fate::Card;
use soulstone_engine::state::Frame;
use soulstone_engine::{Edition, GameState, Seat, Viewer};

use super::cards::suits_words;
use super::names::Names;

pub struct DuelPanel {
    pub action: String,
    pub sides: Vec<SideLine>,
    /// "TN 12 (Masks)", if the duel has one.
    pub tn: Option<String>,
    /// Where the duel stands, in words.
    pub step: String,
    /// "Initiator 13 (Masks) against 9": once every card is in.
    pub totals: Option<String>,
    /// What the action deals on a success, before triggers and reductions.
    pub damage: String,
}

pub struct SideLine {
    pub role: &'static str,
    pub model: String,
    pub side_class: &'static str,
    /// "Sk 6 + ", "Df 5 + ".
    pub stat: String,
    pub suits: String,
    pub modifiers: String,
    pub flipped: String,
    pub card: String,
    pub total: String,
}

/// The duel open in `state`, innermost first.
pub fn open_duel(state: &GameState) -> Option<&Duel> {
    state.frames.iter().rev().find_map(|frame| match frame {
        Frame::Duel { duel } => Some(duel),
        _ => None,
    })
}

fn modifier_words(modifiers: i8) -> String {
    match modifiers {
        0 => "none".into(),
        n if n > 0 => format!("+{n} (flip {} and take the highest)", 1 + n),
        n => format!("{n} (flip {} and take the lowest)", 1 + n.unsigned_abs()),
    }
}

fn side_line(duel: &Duel, role: Role, side: &Side, names: &Names, edition: Edition) -> SideLine {
    let stat = match role {
        Role::Initiator if duel.spec.kind == ActionKind::Tactical => "skill",
        Role::Initiator => "skill",
        Role::Resister => match duel.spec.resist_stat {
            Some(soulstone_engine::duel::Stat::Wp) => "Wp",
            _ => "Df",
        },
    };
    let revealed: Vec<String> = side
        .revealed
        .as_slice()
        .iter()
        .map(|c| c.long_name())
        .collect();
    let _ = edition;
    SideLine {
        role: match role {
            Role::Initiator => "acting",
            Role::Resister => "resisting",
        },
        model: names.labelled(side.model),
        side_class: match side.seat {
            Seat::A => "side-a",
            Seat::B => "side-b",
        },
        stat: format!("{stat} {}", side.base),
        suits: suits_words(side.all_suits()),
        modifiers: modifier_words(side.modifiers),
        flipped: revealed.join(", "),
        card: side.card.map(Card::long_name).unwrap_or_default(),
        total: if side.relented {
            "relented".into()
        } else if side.card.is_some() {
            side.total().to_string()
        } else {
            String::new()
        },
    }
}

fn step_words(step: DuelStep) -> &'static str {
    match step {
        DuelStep::Relent { .. } => "relent or resist",
        DuelStep::Modify { .. } => "modifying the duel",
        DuelStep::LookingAtTop { .. } => "looking at the top card",
        DuelStep::Flip => "flipping",
        DuelStep::Choose { .. } => "choosing the flipped card",
        DuelStep::Cheat { .. } => "cheating fate",
        DuelStep::JokerSuit { .. } => "the Red Joker's suit",
        DuelStep::Triggers { .. } => "declaring triggers",
        DuelStep::Outcome => "resolving",
    }
}

/// The damage the action would deal with `outcome`, before triggers,
/// tokens and reductions: "3", "damage flip at −1 (2/3/4)".
pub fn damage_on(duel: &Duel, outcome: &Outcome, edition: Edition) -> String {
    if !outcome.success {
        return "no damage".into();
    }
    let rules = &edition.rules().duel;
    match duel.spec.damage {
        DamageProfile::None => "no damage".into(),
        DamageProfile::Fixed { amount } => {
            let raises = if rules.raises_add_damage(duel.spec.kind) {
                outcome.raises
            } else {
                0
            };
            let tie = u8::from(rules.tie_reduces_damage && outcome.tie);
            let cover = u8::from(rules.cover_reduces_damage && duel.spec.cover);
            let total = amount.saturating_add(raises).saturating_sub(tie + cover);
            let mut why = Vec::new();
            if raises > 0 {
                why.push(format!("{raises} raise(s)"));
            }
            if tie > 0 {
                why.push("a tie".to_string());
            }
            if cover > 0 {
                why.push("cover".to_string());
            }
            if why.is_empty() {
                format!("{total} damage")
            } else {
                format!("{total} damage ({})", why.join(", "))
            }
        }
        DamageProfile::Flip {
            weak,
            moderate,
            severe,
            ..
        } => {
            let mut modifier = 0i8;
            if duel.spec.is_opposed() {
                modifier += accuracy(outcome.margin);
            }
            if duel.spec.cover {
                modifier -= 1;
            }
            let sign = match modifier {
                0 => "a straight flip".to_string(),
                m if m > 0 => format!("+{m}"),
                m => m.to_string(),
            };
            format!("damage flip at {sign} ({weak}/{moderate}/{severe})")
        }
    }
}

/// The panel of the duel open in `state`, if one is.
pub fn panel(state: &GameState, names: &Names) -> Option<DuelPanel> {
    let duel = open_duel(state)?;
    let spec = &duel.spec;
    let sides: Vec<SideLine> = duel
        .roles()
        .filter_map(|role| {
            Some(side_line(
                duel,
                role,
                duel.side(role)?,
                names,
                state.edition,
            ))
        })
        .collect();
    let tn = spec.tn.map(|tn| {
        let suits = suits_words(spec.tn_suits);
        if suits.is_empty() {
            format!("TN {tn}")
        } else {
            format!("TN {tn} ({suits})")
        }
    });
    let all_in = duel.roles().all(|role| {
        duel.side(role)
            .is_some_and(|s| s.relented || s.card.is_some())
    });
    let (initiator, resister) = soulstone_engine::duel::totals(duel);
    let totals = all_in.then(|| match resister {
        Some(r) => format!("{initiator} against {r}"),
        None => format!("{initiator}"),
    });
    let damage = match spec.damage {
        DamageProfile::None => "no damage".into(),
        profile => format!(
            "{} on a success, before triggers and reductions",
            super::cards::damage_words(profile)
        ),
    };
    Some(DuelPanel {
        action: if spec.action.is_empty() {
            "A duel".into()
        } else {
            spec.action.clone()
        },
        sides,
        tn,
        step: step_words(duel.step).into(),
        totals,
        damage,
    })
}

/// What cheating `card` would give the viewer, while they decide whether
/// to cheat: "18 against 9: you win, 4 damage".
pub fn cheat_words(state: &GameState, viewer: Viewer, card: Card) -> Option<String> {
    let Viewer::Player(seat) = viewer else {
        return None;
    };
    let duel = open_duel(state)?;
    let DuelStep::Cheat { .. } = duel.step else {
        return None;
    };
    let role = duel.step.deciding_role()?;
    if duel.side(role)?.seat != seat {
        return None;
    }
    let outcome = outcome_if_cheated(duel, role, card, &state.edition.rules().duel);
    let mine = match role {
        Role::Initiator => outcome.initiator_total,
        Role::Resister => outcome.resister_total.unwrap_or_default(),
    };
    let against = match (role, outcome.resister_total, duel.spec.tn) {
        (Role::Initiator, Some(r), _) => format!("{mine} against {r}"),
        (Role::Initiator, None, Some(tn)) => format!("{mine} against TN {tn}"),
        (Role::Initiator, None, None) => mine.to_string(),
        (Role::Resister, _, _) => format!("{mine} against {}", outcome.initiator_total),
    };
    let won = match role {
        Role::Initiator => outcome.success,
        Role::Resister => !outcome.success,
    };
    let damage = damage_on(duel, &outcome, state.edition);
    Some(match (role, won) {
        (Role::Initiator, true) => format!("{against}: you succeed, {damage}"),
        (Role::Initiator, false) => format!("{against}: you fail"),
        (Role::Resister, true) => format!("{against}: the action fails"),
        (Role::Resister, false) => format!("{against}: it succeeds, {damage}"),
    })
}
