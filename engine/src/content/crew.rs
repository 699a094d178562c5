//! Crew lists and the hiring rules of both editions ("Hiring" in the 4th
//! edition's Encounter chapter, "Hire Crew" in the 3rd's): a leader and a
//! budget become a legal crew, or a list of the rules the list breaks, each
//! naming the model.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Catalog;
use super::card::{Characteristic, StatCard, Station};
use crate::Edition;

/// Out-of-keyword models a 4th edition crew may hire.
pub const MAX_OUT_OF_KEYWORD: usize = 3;
/// Unspent soulstones a crew keeps for its pool: 5 in 4th edition, 10 in 3rd.
pub const fn max_leftover_pool(edition: Edition) -> u8 {
    match edition {
        Edition::Fourth => 5,
        Edition::Third => 10,
    }
}
/// Models one list may name: far beyond any legal crew.
pub const MAX_LIST_MODELS: usize = 40;

/// A crew list as players share it: faction, leader, encounter size and
/// every model hired besides the leader (totems included).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrewList {
    pub edition: Edition,
    pub faction: String,
    /// The leader's name and title as its card writes them.
    pub leader: String,
    /// The encounter size in soulstones.
    pub size: u8,
    pub models: Vec<String>,
}

/// A crew that hires legally.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HiredCrew {
    pub spent: u8,
    /// Soulstones the crew starts with.
    pub pool: u8,
    /// Each model with what it cost to hire.
    pub costs: Vec<(String, u8)>,
    /// The crew card the leader brings (its title's), if any.
    pub crew_card: Option<String>,
}

/// A rule of hiring a list breaks, naming the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{model}: {rule}")]
pub struct HiringError {
    pub model: String,
    pub rule: String,
}

impl CrewList {
    /// The plain-text form (see `docs/content.md`), which [`CrewList::parse`]
    /// reads back.
    pub fn to_text(&self) -> String {
        let edition = self.edition.code();
        let mut text = format!(
            "Edition: {edition}\nFaction: {}\nLeader: {}\nSize: {}\n",
            self.faction, self.leader, self.size
        );
        for model in &self.models {
            text.push_str(&format!("- {model}\n"));
        }
        text
    }

    /// Reads the plain-text form. Lines are `Key: value` (Edition, Faction,
    /// Leader, Size) and `- Model` (optionally `- Model x2`); blank lines and
    /// lines starting with `#` are ignored. Errors name the line.
    pub fn parse(text: &str) -> Result<Self, String> {
        let (mut edition, mut faction, mut leader, mut size) = (None, None, None, None);
        let mut models = Vec::new();
        for (number, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let at = |message: String| format!("line {}: {message}", number + 1);
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(model) = line.strip_prefix("- ") {
                let (name, count) = match model.rsplit_once(" x") {
                    Some((name, count)) if count.parse::<u8>().is_ok() => {
                        (name.trim(), count.parse::<usize>().unwrap_or(1))
                    }
                    _ => (model.trim(), 1),
                };
                if name.is_empty() {
                    return Err(at("a model line needs a name".into()));
                }
                if models.len() + count > MAX_LIST_MODELS {
                    return Err(at(format!("a list names at most {MAX_LIST_MODELS} models")));
                }
                models.extend(std::iter::repeat_n(name.to_string(), count));
                continue;
            }
            let Some((key, value)) = line.split_once(':') else {
                return Err(at(format!(
                    "expected \"Key: value\" or \"- Model\", found {line:?}"
                )));
            };
            let value = value.trim().to_string();
            match key.trim().to_ascii_lowercase().as_str() {
                "edition" => {
                    edition = Some(match value.as_str() {
                        "m4e" => Edition::Fourth,
                        "m3e" => Edition::Third,
                        other => return Err(at(format!("unknown edition {other:?} (m4e or m3e)"))),
                    })
                }
                "faction" => faction = Some(value),
                "leader" => leader = Some(value),
                "size" => {
                    size = Some(value.parse::<u8>().map_err(|_| {
                        at(format!("the size is a number of soulstones, not {value:?}"))
                    })?)
                }
                other => return Err(at(format!("unknown key {other:?}"))),
            }
        }
        Ok(CrewList {
            edition: edition.unwrap_or(Edition::Fourth),
            faction: faction.ok_or("the list needs a \"Faction:\" line")?,
            leader: leader.ok_or("the list needs a \"Leader:\" line")?,
            size: size.ok_or("the list needs a \"Size:\" line")?,
            models,
        })
    }

    /// Checks the list against the 4th edition hiring rules.
    pub fn hire(&self, catalog: &Catalog) -> Result<HiredCrew, Vec<HiringError>> {
        let fourth = self.edition == Edition::Fourth;
        let mut errors = Vec::new();
        let mut fail = |model: &str, rule: String| {
            errors.push(HiringError {
                model: model.to_string(),
                rule,
            })
        };
        let find = |name: &str| catalog.card(self.edition, name);
        let Some(leader) = find(&self.leader) else {
            return Err(vec![HiringError {
                model: self.leader.clone(),
                rule: "no such card in this edition's content".into(),
            }]);
        };
        if !leader.factions.contains(&self.faction) {
            fail(
                &self.leader,
                format!("the leader is not of {}", self.faction),
            );
        }
        // A 4th edition henchman is a characteristic, a 3rd edition one a station.
        if leader.station != Station::Master
            && !leader.has(Characteristic::Henchman)
            && leader.station != Station::Henchman
        {
            fail(&self.leader, "a leader is a master or a henchman".into());
        }
        let shares_keyword =
            |card: &StatCard| card.keywords.iter().any(|k| leader.keywords.contains(k));

        let mut costs = vec![(leader.full_name(), 0u8)];
        let mut hired: BTreeMap<String, usize> = BTreeMap::new();
        let mut names: BTreeMap<&str, String> = BTreeMap::new();
        names.insert(&leader.name, leader.full_name());
        let mut out_of_keyword = 0;
        for entry in &self.models {
            let Some(card) = find(entry) else {
                fail(entry, "no such card in this edition's content".into());
                continue;
            };
            let full = card.full_name();
            let count = hired.entry(full.clone()).or_default();
            *count += 1;
            if *count > usize::from(card.model_limit()) {
                fail(
                    &full,
                    format!("hired {count} times, its limit is {}", card.model_limit()),
                );
            }
            if let Some(other) = names.insert(&card.name, full.clone())
                && other != full
            {
                fail(
                    &full,
                    format!("a crew hires one version of a name ({other} too)"),
                );
            }
            if card.station == Station::Master {
                fail(&full, "a master in the crew must be its leader".into());
            }
            if !card.factions.contains(&self.faction) {
                fail(&full, format!("not a model of {}", self.faction));
            }
            // Totems come with their master, free.
            if card.has(Characteristic::Totem) {
                if card.totem_of.as_deref() == Some(leader.name.as_str()) {
                    costs.push((full, 0));
                } else {
                    fail(
                        &full,
                        "a totem is hired only with its master as leader".into(),
                    );
                }
                continue;
            }
            let base = card.cost.unwrap_or(0);
            let cost = if shares_keyword(card) {
                base
            } else {
                out_of_keyword += 1;
                // 3rd edition has no cap, only the extra soulstone.
                if fourth && out_of_keyword > MAX_OUT_OF_KEYWORD {
                    fail(
                        &full,
                        format!(
                            "out-of-keyword model {out_of_keyword} of {MAX_OUT_OF_KEYWORD} allowed"
                        ),
                    );
                }
                if fourth && card.has(Characteristic::Loyal) {
                    fail(
                        &full,
                        "loyal: hired only by a leader it shares a keyword with".into(),
                    );
                }
                if card.has(Characteristic::Versatile) {
                    base
                } else {
                    base.saturating_add(1)
                }
            };
            costs.push((full, cost));
        }
        // 4th edition: the leader's totems must all be hired, as many as
        // their limit (3rd edition only allows them).
        for totem in catalog
            .totems_of(self.edition, &leader.name)
            .filter(|_| fourth)
        {
            let full = totem.full_name();
            let count = hired.get(&full).copied().unwrap_or(0);
            if count < usize::from(totem.model_limit()) {
                fail(
                    &full,
                    format!(
                        "the leader's totem must be hired ({} of {})",
                        count,
                        totem.model_limit()
                    ),
                );
            }
        }
        let spent: u32 = costs.iter().map(|(_, c)| u32::from(*c)).sum();
        if spent > u32::from(self.size) {
            fail(
                &self.leader,
                format!(
                    "the crew costs {spent}, more than the {} allowed",
                    self.size
                ),
            );
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let spent = u8::try_from(spent).unwrap_or(u8::MAX);
        Ok(HiredCrew {
            spent,
            pool: (self.size - spent).min(max_leftover_pool(self.edition)),
            costs,
            crew_card: leader.crew_card.clone(),
        })
    }
}
