//! The game page's picture of the table: the engine draws it; this picks
//! what a player needs to see on it. Everything here is public information
//! (where models stand, their health and tokens, the deployment zones, who
//! is acting), so every viewer gets the same picture.

use std::collections::BTreeMap;

use soulstone_engine::table::Board;
use soulstone_engine::table::svg::{self, Picture, Ring};
use soulstone_engine::{GameState, Seat};

/// The table as SVG, with zones, each model's health and tokens, and the
/// acting model outlined with rings for its walk and its actions' ranges.
pub fn render(state: &GameState) -> String {
    let table = state.table();
    svg::render(&Board::new(&table, state.edition), &picture(state))
}

fn picture(state: &GameState) -> Picture {
    let mut picture = Picture::default();
    if let Some(encounter) = state.encounter.as_deref() {
        let layout = encounter.setup.layout();
        for seat in Seat::BOTH {
            // Zones exist once the attacker has chosen theirs.
            if encounter.zone_of(seat).is_some() {
                picture
                    .zones
                    .push((seat, layout.zone_outline(encounter.layout_side(seat))));
            }
        }
    }
    for model in state.models.iter().filter(|m| m.in_play()) {
        let mut note = format!("{}/{}", model.health, model.card.max_health);
        for (token, count) in model.tokens.iter() {
            note.push(' ');
            note.push_str(&token.to_string());
            if count > 1 {
                note.push_str(&format!(" {count}"));
            }
        }
        picture.notes.insert(model.id.object(), note);
    }
    let acting = state.acting_model().and_then(|id| state.model(id));
    if let Some((model, placement)) = acting.and_then(|m| Some((m, m.placement?))) {
        picture.highlight = Some(model.id.object());
        let center = placement.at.v2();
        let base = model.card.base.radius();
        let speed = state.tokens.speed_of(model);
        picture.rings.push(Ring {
            center,
            radius: base + f64::from(speed),
            label: format!("{}: walk {speed}\"", model.card.name),
        });
        // One ring per reach, naming the actions with it.
        let mut by_range: BTreeMap<u8, Vec<&str>> = BTreeMap::new();
        for action in model.card.actions.iter().filter(|a| a.range > 0) {
            by_range.entry(action.range).or_default().push(&action.name);
        }
        for (range, names) in by_range {
            picture.rings.push(Ring {
                center,
                radius: base + f64::from(range),
                label: format!("{}\": {}", range, names.join(", ")),
            });
        }
    }
    picture
}
