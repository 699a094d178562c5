//! Crew lists and the hiring rules of both editions ("Hiring" in the 4th
//! edition's Encounter chapter, "Hire Crew" in the 3rd's): a leader and a
//! budget become a legal crew, or a list of the rules the list breaks, each
//! naming the model.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Catalog;
use super::card::{Characteristic, StatCard, Station};
use crate::Edition;

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
    /// Upgrades bought at hiring (3rd edition), each on one model.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub upgrades: Vec<ListUpgrade>,
}

/// An upgrade a list buys for one of its models.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListUpgrade {
    /// The model that attaches it: 0 is the leader, `n` the list's `n`th
    /// model (`models[n - 1]`).
    pub on: usize,
    pub upgrade: String,
}

/// An upgrade as hired: the model (full name) and what it cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HiredUpgrade {
    pub on: usize,
    pub model: String,
    pub upgrade: String,
    pub cost: u8,
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
    /// The upgrades bought, each on its model.
    pub upgrades: Vec<HiredUpgrade>,
}

/// A list as written: what its crew costs and the rules it breaks (none
/// for a crew that hires).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Appraisal {
    pub crew: HiredCrew,
    pub errors: Vec<HiringError>,
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
        let upgrades_on = |on: usize| {
            self.upgrades
                .iter()
                .filter(move |u| u.on == on)
                .map(|u| format!("+ {}\n", u.upgrade))
                .collect::<String>()
        };
        let mut text = format!(
            "Edition: {}\nFaction: {}\nLeader: {}\n{}Size: {}\n",
            self.edition.code(),
            self.faction,
            self.leader,
            upgrades_on(0),
            self.size
        );
        for (index, model) in self.models.iter().enumerate() {
            text.push_str(&format!("- {model}\n"));
            text.push_str(&upgrades_on(index + 1));
        }
        text
    }

    /// Reads the plain-text form. Lines are `Key: value` (Edition, Faction,
    /// Leader, Size), `- Model` (optionally `- Model x2`) and `+ Upgrade`,
    /// an upgrade bought for the leader or model on the line above; blank
    /// lines and lines starting with `#` are ignored. Errors name the line.
    pub fn parse(text: &str) -> Result<Self, String> {
        let (mut edition, mut faction, mut leader, mut size) = (None, None, None, None);
        let mut models = Vec::new();
        let mut upgrades = Vec::new();
        // The model an upgrade line attaches to, and how many the line named.
        let mut last_model: Option<(usize, usize)> = None;
        for (number, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let at = |message: String| format!("line {}: {message}", number + 1);
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(upgrade) = line.strip_prefix("+ ") {
                let upgrade = upgrade.trim();
                match last_model {
                    _ if upgrade.is_empty() => {
                        return Err(at("an upgrade line needs a name".into()));
                    }
                    None => {
                        return Err(at(
                            "an upgrade goes on the line after the leader or model that attaches it"
                                .into(),
                        ));
                    }
                    Some((_, count)) if count > 1 => {
                        return Err(at(
                            "an upgrade goes on one model: write that model on a line of its own"
                                .into(),
                        ));
                    }
                    Some((on, _)) => upgrades.push(ListUpgrade {
                        on,
                        upgrade: upgrade.to_string(),
                    }),
                }
                if upgrades.len() > MAX_LIST_MODELS {
                    return Err(at(format!(
                        "a list buys at most {MAX_LIST_MODELS} upgrades"
                    )));
                }
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
                last_model = Some((models.len(), count));
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
                    edition = Some(
                        Edition::from_code(&value)
                            .ok_or_else(|| at(format!("unknown edition {value:?} (m4e or m3e)")))?,
                    )
                }
                "faction" => faction = Some(value),
                "leader" => {
                    leader = Some(value);
                    last_model = Some((0, 1));
                }
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
            upgrades,
        })
    }

    /// Checks the list against its edition's hiring rules.
    pub fn hire(&self, catalog: &Catalog) -> Result<HiredCrew, Vec<HiringError>> {
        let appraisal = self.appraise(catalog);
        if appraisal.errors.is_empty() {
            Ok(appraisal.crew)
        } else {
            Err(appraisal.errors)
        }
    }

    /// What the list costs as written and every hiring rule it breaks: the
    /// crew builder shows both while a list is being written, and
    /// [`CrewList::hire`] takes the crew only when nothing is broken.
    pub fn appraise(&self, catalog: &Catalog) -> Appraisal {
        let hiring = &self.edition.rules().content.hiring;
        let mut errors = Vec::new();
        let mut fail = |model: &str, rule: String| {
            errors.push(HiringError {
                model: model.to_string(),
                rule,
            })
        };
        let find = |name: &str| catalog.card(self.edition, name);
        let Some(leader) = find(&self.leader) else {
            return Appraisal {
                crew: HiredCrew {
                    spent: 0,
                    pool: 0,
                    costs: Vec::new(),
                    crew_card: None,
                    upgrades: Vec::new(),
                },
                errors: vec![HiringError {
                    model: self.leader.clone(),
                    rule: "no such card in this edition's content".into(),
                }],
            };
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
                if let Some(allowed) = hiring.max_out_of_keyword
                    && out_of_keyword > allowed
                {
                    fail(
                        &full,
                        format!("out-of-keyword model {out_of_keyword} of {allowed} allowed"),
                    );
                }
                if hiring.loyalty && card.has(Characteristic::Loyal) {
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
        if hiring.totems_required {
            self.require_totems(catalog, leader, &hired, &mut fail);
        }
        let upgrades = self.hire_upgrades(catalog, &mut fail);
        let spent: u32 = costs
            .iter()
            .map(|(_, c)| u32::from(*c))
            .chain(upgrades.iter().map(|u| u32::from(u.cost)))
            .sum();
        if spent > u32::from(self.size) {
            fail(
                &self.leader,
                format!(
                    "the crew costs {spent}, more than the {} allowed",
                    self.size
                ),
            );
        }
        let spent = u8::try_from(spent).unwrap_or(u8::MAX);
        let crew = HiredCrew {
            spent,
            pool: self
                .size
                .saturating_sub(spent)
                .min(hiring.max_leftover_pool),
            costs,
            crew_card: leader.crew_card.clone(),
            upgrades,
        };
        Appraisal { crew, errors }
    }

    /// Where the edition requires it, the leader's totems are all hired, as
    /// many as their limit (where not, they are only allowed).
    fn require_totems(
        &self,
        catalog: &Catalog,
        leader: &StatCard,
        hired: &BTreeMap<String, usize>,
        fail: &mut impl FnMut(&str, String),
    ) {
        for totem in catalog.totems_of(self.edition, &leader.name) {
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
    }

    /// The upgrades the list buys, checked against the rules of hiring
    /// them (M3E lines 1283 to 1295 and 2851): 3rd edition only, of the
    /// declared faction, not Special, within their restrictions, one per
    /// model and no more copies than Plentiful allows. What breaks a rule
    /// goes to `fail`, naming the model.
    fn hire_upgrades(
        &self,
        catalog: &Catalog,
        fail: &mut impl FnMut(&str, String),
    ) -> Vec<HiredUpgrade> {
        let mut hired: Vec<HiredUpgrade> = Vec::new();
        for bought in &self.upgrades {
            let name = bought.upgrade.as_str();
            let holder = match bought.on {
                0 => Some(&self.leader),
                n => self.models.get(n - 1),
            };
            let Some(holder) = holder else {
                fail(name, "bought for no model of the list".into());
                continue;
            };
            if !self.edition.rules().content.hiring.upgrades_hired {
                fail(
                    holder,
                    format!(
                        "{name}: 4th edition crews hire no upgrades, they are attached during the game"
                    ),
                );
                continue;
            }
            let Some(upgrade) = catalog.upgrade(self.edition, name) else {
                fail(
                    holder,
                    format!("{name}: no such upgrade in this edition's content"),
                );
                continue;
            };
            let cost = match upgrade.cost {
                Some(cost) if !upgrade.special => cost,
                _ => {
                    fail(
                        holder,
                        format!("{name} is Special: attached during the game, never hired"),
                    );
                    continue;
                }
            };
            if !upgrade.factions.contains(&self.faction) {
                fail(
                    holder,
                    format!("{name} is not an upgrade of {}", self.faction),
                );
            }
            if let Some(card) = catalog.card(self.edition, holder) {
                let unmet = upgrade.restricted.iter().find(|needed| {
                    card.name != **needed
                        && card.full_name() != **needed
                        && !card.keywords.contains(needed)
                });
                if let Some(needed) = unmet {
                    fail(holder, format!("{name} is restricted to {needed}"));
                }
            }
            if let Some(first) = hired.iter().find(|h| h.on == bought.on) {
                fail(
                    holder,
                    format!(
                        "a model attaches one upgrade during hiring ({} and {name})",
                        first.upgrade
                    ),
                );
            }
            let copies = 1 + hired.iter().filter(|h| h.upgrade == name).count();
            let allowed = usize::from(upgrade.plentiful.unwrap_or(1));
            if copies == allowed + 1 {
                fail(
                    holder,
                    format!("{copies} copies of {name}, the crew may have {allowed}"),
                );
            }
            hired.push(HiredUpgrade {
                on: bought.on,
                model: catalog
                    .card(self.edition, holder)
                    .map_or_else(|| holder.clone(), StatCard::full_name),
                upgrade: upgrade.name.clone(),
                cost,
            });
        }
        hired
    }
}
