//! Hiring a 1st edition crew (quick reference, "Encounters"): the
//! encounter's size and soulstones, its masters, the models each may hire
//! and what is left for the pool. A ready list is `content/m1e/crews/*.toml`.

use serde::{Deserialize, Serialize};

use super::card::{Characteristic, ModelCard, Station};

/// The faction whose crews may hire only their own models.
pub const OUTCASTS: &str = "Outcasts";
/// Mercenaries a crew of another faction may hire at most (our reading of
/// the reference's "≤2 Mercenary", docs/first-edition.md).
pub const MAX_MERCENARIES: usize = 2;
/// Soulstones a Brawl crew gets for leading with one master fewer.
pub const TRADED_MASTER_STONES: u8 = 10;

/// The encounter's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Encounter {
    /// 1 to 45 soulstones, one master.
    Scrap,
    /// 30 to 70 soulstones, two masters.
    Brawl,
}

impl Encounter {
    pub fn soulstones(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Encounter::Scrap => 1..=45,
            Encounter::Brawl => 30..=70,
        }
    }

    pub fn masters(self) -> usize {
        match self {
            Encounter::Scrap => 1,
            Encounter::Brawl => 2,
        }
    }

    pub fn max_hand(self) -> u8 {
        match self {
            Encounter::Scrap => 6,
            Encounter::Brawl => 7,
        }
    }

    pub fn max_pool(self) -> u8 {
        match self {
            Encounter::Scrap => 8,
            Encounter::Brawl => 10,
        }
    }

    pub fn max_schemes(self) -> u8 {
        match self {
            Encounter::Scrap => 2,
            Encounter::Brawl => 3,
        }
    }

    /// Copies of a model of rarity `rare` a crew may hire.
    pub fn rare_limit(self, rare: u8) -> usize {
        match self {
            Encounter::Scrap => usize::from(rare),
            Encounter::Brawl => 2 * usize::from(rare),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Encounter::Scrap => "Scrap",
            Encounter::Brawl => "Brawl",
        }
    }
}

/// A crew list: its faction, the encounter it is for, its masters and the
/// models it hires, by name (a name once per copy, or `"Name x3"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CrewList {
    pub name: String,
    pub faction: String,
    pub encounter: Encounter,
    pub soulstones: u8,
    pub masters: Vec<String>,
    #[serde(default)]
    pub hires: Vec<String>,
}

/// A crew hired by the rules: its cards (masters first) and its pool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crew {
    pub name: String,
    pub faction: String,
    pub encounter: Encounter,
    pub models: Vec<ModelCard>,
    /// Soulstones spent on hiring, out-of-faction costs included.
    pub spent: u8,
    /// Soulstones it starts with: what is left and the masters' caches, up
    /// to the encounter's most.
    pub pool: u8,
}

impl CrewList {
    /// Each hire as (name, copies), `"Name x3"` read as three.
    fn hires(&self) -> Result<Vec<(&str, usize)>, (String, String)> {
        self.hires
            .iter()
            .enumerate()
            .map(|(i, line)| match line.rsplit_once(" x") {
                Some((name, count)) if count.chars().all(|c| c.is_ascii_digit()) => count
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=20).contains(n))
                    .map(|n| (name.trim(), n))
                    .ok_or_else(|| (format!("hires[{i}]"), format!("{line}: a count is 1 to 20"))),
                _ => Ok((line.trim(), 1)),
            })
            .collect()
    }

    /// The crew the rules allow this list to hire, with `find` giving a
    /// card by name; or every problem, each with its field.
    pub fn hire<'a>(
        &self,
        find: impl Fn(&str) -> Option<&'a ModelCard>,
    ) -> Result<Crew, Vec<(String, String)>> {
        let mut problems: Vec<(String, String)> = Vec::new();
        let mut problem = |field: &str, message: String| problems.push((field.to_owned(), message));
        let encounter = self.encounter;
        if !encounter.soulstones().contains(&self.soulstones) {
            let range = encounter.soulstones();
            problem(
                "soulstones",
                format!(
                    "a {} is played with {} to {} soulstones",
                    encounter.name(),
                    range.start(),
                    range.end()
                ),
            );
        }
        let masters = self.masters.len();
        let traded = encounter == Encounter::Brawl && masters + 1 == encounter.masters();
        if masters != encounter.masters() && !traded {
            problem(
                "masters",
                format!(
                    "a {} crew is led by {} master(s){}",
                    encounter.name(),
                    encounter.masters(),
                    if encounter == Encounter::Brawl {
                        " (or one, for 10 more soulstones)"
                    } else {
                        ""
                    }
                ),
            );
        }
        let outcast = self.faction == OUTCASTS;
        let mut models: Vec<ModelCard> = Vec::new();
        let mut spent: u16 = 0;
        let mut mercenaries = 0;
        for (i, name) in self.masters.iter().enumerate() {
            let field = format!("masters[{i}]");
            match find(name) {
                None => problem(&field, format!("no model is called {name}")),
                Some(card) if card.station != Station::Master => {
                    problem(&field, format!("{name} is not a master"));
                }
                Some(card)
                    if card.faction != self.faction && !card.is(Characteristic::Mercenary) =>
                {
                    problem(
                        &field,
                        format!(
                            "{name} is of the {}, not the {} or a mercenary",
                            card.faction, self.faction
                        ),
                    );
                }
                Some(card) => models.push(card.clone()),
            }
        }
        let hires = match self.hires() {
            Ok(hires) => hires,
            Err((field, message)) => {
                problem(&field, message);
                Vec::new()
            }
        };
        for (i, (name, copies)) in hires.into_iter().enumerate() {
            let field = format!("hires[{i}]");
            let Some(card) = find(name) else {
                problem(&field, format!("no model is called {name}"));
                continue;
            };
            if card.station == Station::Master {
                problem(&field, format!("{name} is a master: list it under masters"));
                continue;
            }
            let own = card.faction == self.faction;
            let mercenary = !own && card.is(Characteristic::Mercenary);
            if outcast && !own {
                problem(
                    &field,
                    format!(
                        "an Outcasts crew hires only Outcasts, and {name} is of the {}",
                        card.faction
                    ),
                );
                continue;
            }
            if !own && !mercenary {
                problem(
                    &field,
                    format!(
                        "{name} is of the {}: hire from your faction or mercenaries",
                        card.faction
                    ),
                );
                continue;
            }
            if let Some(master) = &card.totem_of
                && !self.masters.contains(master)
            {
                problem(
                    &field,
                    format!("{name} is {master}'s totem, and {master} does not lead this crew"),
                );
            }
            let cost = u16::from(card.cost.unwrap_or(0)) + u16::from(mercenary);
            spent += cost * u16::try_from(copies).unwrap_or(u16::MAX);
            if mercenary {
                mercenaries += copies;
            }
            for _ in 0..copies {
                models.push(card.clone());
            }
        }
        if !outcast && mercenaries > MAX_MERCENARIES {
            problem(
                "hires",
                format!(
                    "a crew hires {MAX_MERCENARIES} mercenaries at most, and this one hires {mercenaries}"
                ),
            );
        }
        // Once per model, in the order first hired.
        let mut seen: Vec<&str> = Vec::new();
        for card in &models {
            if seen.contains(&card.name.as_str()) {
                continue;
            }
            seen.push(&card.name);
            let copies = models.iter().filter(|m| m.name == card.name).count();
            let unique = card.is(Characteristic::Unique) || card.station == Station::Master;
            let (limit, why) = match card.rare {
                _ if unique => (1, "unique".to_owned()),
                Some(rare) => (
                    encounter.rare_limit(rare),
                    format!("rare {rare} (in a {})", encounter.name()),
                ),
                None => continue,
            };
            if copies > limit {
                problem(
                    "hires",
                    format!("{} is {why}: {limit} at most, not {copies}", card.name),
                );
            }
        }
        let budget = u16::from(self.soulstones)
            + if traded {
                u16::from(TRADED_MASTER_STONES)
            } else {
                0
            };
        if spent > budget {
            problem(
                "hires",
                format!("the hires cost {spent} soulstones, and the crew has {budget}"),
            );
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let cache: u16 = models.iter().filter_map(|m| m.cache).map(u16::from).sum();
        let left = budget.saturating_sub(spent);
        let pool = (left + cache).min(u16::from(encounter.max_pool()));
        Ok(Crew {
            name: self.name.clone(),
            faction: self.faction.clone(),
            encounter,
            models,
            spent: u8::try_from(spent).unwrap_or(u8::MAX),
            pool: u8::try_from(pool).unwrap_or(u8::MAX),
        })
    }
}
