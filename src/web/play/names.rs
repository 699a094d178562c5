//! What the game page calls each model: its name, numbered when two share
//! one ("Wick Boy 1", "Wick Boy 2"), a short label for the board ("A3":
//! its crew's letter and its place in the crew), and whose it is from the
//! viewer's side of the table ("yours", "enemy"), so no two buttons read
//! alike.

use std::collections::HashMap;

use soulstone_engine::model::ModelId;
use soulstone_engine::{GameState, Seat, Viewer};

pub struct Names {
    by_id: HashMap<ModelId, Named>,
    viewer: Viewer,
}

struct Named {
    name: String,
    short: String,
    owner: Seat,
}

impl Names {
    /// Every model of the game, as `viewer` reads them.
    pub fn of(state: &GameState, viewer: Viewer) -> Self {
        let mut shared: HashMap<&str, usize> = HashMap::new();
        for model in state.models.iter() {
            *shared.entry(&model.card.name).or_default() += 1;
        }
        let mut seen: HashMap<&str, usize> = HashMap::new();
        let mut in_crew = [0usize; 2];
        let mut by_id = HashMap::with_capacity(state.models.len());
        for model in state.models.iter() {
            let card_name: &str = &model.card.name;
            let name = if shared.get(card_name).copied().unwrap_or(0) > 1 {
                let n = seen.entry(card_name).or_default();
                *n += 1;
                format!("{card_name} {n}")
            } else {
                card_name.to_string()
            };
            let place = &mut in_crew[model.owner.index()];
            *place += 1;
            let letter = match model.owner {
                Seat::A => 'A',
                Seat::B => 'B',
            };
            by_id.insert(
                model.id,
                Named {
                    name,
                    short: format!("{letter}{place}"),
                    owner: model.owner,
                },
            );
        }
        Self { by_id, viewer }
    }

    /// "Wick Boy 2", or "model 7" for an id the game does not hold.
    pub fn name(&self, id: ModelId) -> String {
        self.by_id
            .get(&id)
            .map_or_else(|| format!("model {}", id.0), |n| n.name.clone())
    }

    /// "A3": the crew's letter and the model's place in its crew.
    pub fn short(&self, id: ModelId) -> String {
        self.by_id
            .get(&id)
            .map_or_else(|| id.0.to_string(), |n| n.short.clone())
    }

    /// Whose the model is, from the viewer's seat: "yours" and "enemy"
    /// for a player, the seat for a spectator.
    pub fn side(&self, id: ModelId) -> &'static str {
        match (self.by_id.get(&id).map(|n| n.owner), self.viewer) {
            (Some(owner), Viewer::Player(seat)) if owner == seat => "yours",
            (Some(_), Viewer::Player(_)) => "enemy",
            (Some(Seat::A), Viewer::Spectator) => "Player A's",
            (Some(Seat::B), Viewer::Spectator) => "Player B's",
            (None, _) => "",
        }
    }

    /// "Grub (enemy)": the name with its side, for a button.
    pub fn labelled(&self, id: ModelId) -> String {
        match self.side(id) {
            "" => self.name(id),
            side => format!("{} ({side})", self.name(id)),
        }
    }

    pub fn owner(&self, id: ModelId) -> Option<Seat> {
        self.by_id.get(&id).map(|n| n.owner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state of three models: two of player A's and one of B's, all of
    /// one name.
    pub(crate) fn three_of_a_name() -> GameState {
        let text = r#"
name = "three of a name"
edition = "m4e"
[[models]]
id = 1
name = "Wick Boy"
owner = "a"
df = 4
wp = 4
health = 5
max_health = 5
[[models]]
id = 2
name = "Wick Boy"
owner = "a"
df = 4
wp = 4
health = 5
max_health = 5
[[models]]
id = 3
name = "Wick Boy"
owner = "b"
df = 4
wp = 4
health = 5
max_health = 5
"#;
        let catalog = crate::content::load_shipped_for_cli().unwrap();
        soulstone_engine::scenario::Scenario::from_toml(text)
            .unwrap()
            .initial_state(&catalog)
            .unwrap()
    }

    #[test]
    fn shared_names_are_numbered_and_sides_told_apart() {
        let state = three_of_a_name();
        let names = Names::of(&state, Viewer::Player(Seat::A));
        let ids: Vec<ModelId> = state.models.iter().map(|m| m.id).collect();
        assert_eq!(names.name(ids[0]), "Wick Boy 1");
        assert_eq!(names.name(ids[1]), "Wick Boy 2");
        assert_eq!(names.name(ids[2]), "Wick Boy 3");
        assert_eq!(names.labelled(ids[0]), "Wick Boy 1 (yours)");
        assert_eq!(names.labelled(ids[2]), "Wick Boy 3 (enemy)");
        assert_eq!(names.short(ids[1]), "A2");
        assert_eq!(names.short(ids[2]), "B1");
        let spectator = Names::of(&state, Viewer::Spectator);
        assert_eq!(spectator.labelled(ids[2]), "Wick Boy 3 (Player B's)");
    }
}
