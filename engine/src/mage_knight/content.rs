//! Mage Knight content: warrior files (`content/mk/warriors/*.toml`, one
//! `[[warriors]]` table per warrior, its dial click by click) and ready
//! armies (`content/mk/armies/*.toml`, warriors by name). Read from text
//! (the engine opens no files); every problem is kept with its file, line
//! and field, and a set with any problem is refused whole.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::domains::DomainCard;
use super::game::Army;
use super::items::{ItemCard, Wielded, may_wield};
use super::placing::{MAX_BROUGHT, TerrainPiece};
use super::warrior::WarriorCard;
use crate::content::{ContentError, line_of_field, parse_toml};

/// A warrior file.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WarriorFile {
    #[serde(default)]
    pub warriors: Vec<WarriorCard>,
    /// Item cards, for warriors with item slots.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemCard>,
}

/// An item an army list gives a warrior: the item's name, and the name of
/// the warrior wielding it (the first of that name able to).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ItemChoice {
    pub item: String,
    pub wielder: String,
}

/// A ready army: a name, its build total and its warriors by name (a name
/// once per warrior fielded).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmyList {
    pub name: String,
    pub build_total: u16,
    pub warriors: Vec<String>,
    /// The terrain features it brings to the pile (up to four).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<TerrainPiece>,
    /// Its items and their wielders.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemChoice>,
    /// The domain cards it brings (up to four); its player chooses one
    /// when both armies bring some.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub domains: Vec<DomainCard>,
}

/// Every warrior by name, and the ready armies.
#[derive(Debug, Clone, Default)]
pub struct Roster {
    warriors: BTreeMap<String, WarriorCard>,
    items: BTreeMap<String, ItemCard>,
    armies: Vec<ArmyList>,
}

impl Roster {
    pub fn warrior(&self, name: &str) -> Option<&WarriorCard> {
        self.warriors.get(name)
    }

    pub fn warriors(&self) -> impl Iterator<Item = &WarriorCard> {
        self.warriors.values()
    }

    pub fn armies(&self) -> &[ArmyList] {
        &self.armies
    }

    pub fn army_list(&self, name: &str) -> Option<&ArmyList> {
        self.armies
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(name))
    }

    /// The army a list names, with its warriors' cards.
    pub fn field(&self, list: &ArmyList) -> Result<Army, String> {
        let warriors = list
            .warriors
            .iter()
            .map(|name| {
                self.warrior(name)
                    .cloned()
                    .ok_or_else(|| format!("no warrior is called {name}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if let Some((_, problem)) = list.terrain.iter().find_map(TerrainPiece::problem) {
            return Err(problem);
        }
        let items = self.wield(&warriors, &list.items)?;
        let army = Army {
            name: list.name.clone(),
            items,
            warriors,
            terrain: list.terrain.iter().map(TerrainPiece::feature).collect(),
            domains: list.domains.clone(),
        };
        match army.problem(list.build_total) {
            Some(problem) => Err(problem),
            None => Ok(army),
        }
    }

    /// Each listed item given to the first warrior of its wielder's name
    /// that may wield it. (`may_wield` here only picks the warrior; the
    /// army's own check, which any setup meets, judges the whole.)
    fn wield(
        &self,
        warriors: &[WarriorCard],
        choices: &[ItemChoice],
    ) -> Result<Vec<Wielded>, String> {
        let mut held: Vec<Vec<ItemCard>> = vec![Vec::new(); warriors.len()];
        let mut wielded = Vec::new();
        for choice in choices {
            let item = self
                .items
                .get(&choice.item)
                .ok_or_else(|| format!("no item is called {}", choice.item))?;
            let mut why = format!("no warrior in the army is called {}", choice.wielder);
            let found = warriors.iter().enumerate().find(|(i, card)| {
                card.name == choice.wielder
                    && match may_wield(card, &held[*i], item) {
                        Ok(()) => true,
                        Err(problem) => {
                            why = problem;
                            false
                        }
                    }
            });
            let Some((index, _)) = found else {
                return Err(why);
            };
            held[index].push(item.clone());
            wielded.push(Wielded {
                item: item.clone(),
                wielder: u16::try_from(index).unwrap_or(u16::MAX),
            });
        }
        Ok(wielded)
    }

    /// An army file (a ready army's, or one a player wrote), checked
    /// against these warriors: its problem names the file, line and field.
    pub fn read_army(&self, file: &str, text: &str) -> Result<ArmyList, ContentError> {
        let list: ArmyList = parse_toml(file, text)?;
        let constructed = list
            .terrain
            .iter()
            .filter(|t| t.construction.is_some())
            .count();
        // The first problem, with the field it is in.
        let numbered = |table: &str, found: Option<(usize, (&str, String))>| {
            found.map(|(i, (field, message))| (format!("{table}[{i}].{field}"), message))
        };
        let too_many = |field: &str, message: String| Some((field.to_owned(), message));
        let problem = if list.build_total == 0 || !list.build_total.is_multiple_of(100) {
            too_many(
                "build_total",
                "a build total is a multiple of 100 points".to_owned(),
            )
        } else if constructed > super::constructed::MAX_BROUGHT {
            too_many(
                "terrain",
                format!(
                    "an army brings at most {} constructed terrain features",
                    super::constructed::MAX_BROUGHT
                ),
            )
        } else if list.terrain.len() - constructed > MAX_BROUGHT {
            too_many(
                "terrain",
                format!(
                    "an army brings at most {MAX_BROUGHT} terrain features, beside constructed terrain"
                ),
            )
        } else if list.domains.len() > super::domains::MAX_BROUGHT {
            too_many(
                "domains",
                format!(
                    "an army brings at most {} domain cards",
                    super::domains::MAX_BROUGHT
                ),
            )
        } else {
            numbered(
                "domains",
                list.domains
                    .iter()
                    .enumerate()
                    .find_map(|(i, domain)| domain.problem().map(|p| (i, p))),
            )
            .or_else(|| {
                numbered(
                    "terrain",
                    list.terrain
                        .iter()
                        .enumerate()
                        .find_map(|(i, piece)| piece.problem().map(|p| (i, p))),
                )
            })
            .or_else(|| self.field(&list).err().map(|p| ("warriors".to_owned(), p)))
        };
        match problem {
            Some((field, message)) => Err(ContentError {
                file: file.to_owned(),
                line: line_of_field(text, &field),
                field,
                message,
            }),
            None => Ok(list),
        }
    }

    /// Reads warrior files and army files: (path, text) pairs.
    pub fn load<'a>(
        warrior_files: impl IntoIterator<Item = (&'a str, &'a str)>,
        army_files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Roster, Vec<ContentError>> {
        let mut roster = Roster::default();
        let mut errors = Vec::new();
        let mut origin: BTreeMap<String, String> = BTreeMap::new();
        for (file, text) in warrior_files {
            let parsed: WarriorFile = match parse_toml(file, text) {
                Ok(parsed) => parsed,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            for (i, card) in parsed.warriors.into_iter().enumerate() {
                for (field, message) in card.problems() {
                    let field = format!("warriors[{i}].{field}");
                    errors.push(ContentError {
                        file: file.to_owned(),
                        line: line_of(text, &field),
                        field,
                        message,
                    });
                }
                if let Some(first) = origin.get(&card.name) {
                    let field = format!("warriors[{i}].name");
                    errors.push(ContentError {
                        file: file.to_owned(),
                        line: line_of_field(text, &field),
                        field,
                        message: format!("{} is already defined in {first}", card.name),
                    });
                    continue;
                }
                origin.insert(card.name.clone(), file.to_owned());
                roster.warriors.insert(card.name.clone(), card);
            }
            for (i, item) in parsed.items.into_iter().enumerate() {
                let problem = item.problem().or_else(|| {
                    origin.get(&item.name).map(|first| {
                        (
                            "name",
                            format!("{} is already defined in {first}", item.name),
                        )
                    })
                });
                if let Some((field, message)) = problem {
                    let field = format!("items[{i}].{field}");
                    errors.push(ContentError {
                        file: file.to_owned(),
                        line: line_of_field(text, &field),
                        field,
                        message,
                    });
                    continue;
                }
                origin.insert(item.name.clone(), file.to_owned());
                roster.items.insert(item.name.clone(), item);
            }
        }
        for (file, text) in army_files {
            match roster.read_army(file, text) {
                Ok(list) => roster.armies.push(list),
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            Ok(roster)
        } else {
            Err(errors)
        }
    }
}

/// The line of `field`; a click (`warriors[1].dial[2]...`) is found on its
/// own line of the dial's array when the dial is written a click a line.
fn line_of(text: &str, field: &str) -> Option<usize> {
    let line = line_of_field(text, field)?;
    let click = field
        .split_once(".dial[")
        .and_then(|(_, rest)| rest.split(']').next())
        .and_then(|i| i.parse::<usize>().ok());
    let Some(click) = click else {
        return Some(line);
    };
    text.lines()
        .enumerate()
        .skip(line)
        .take_while(|(_, l)| l.trim_start().starts_with('{'))
        .nth(click)
        .map_or(Some(line), |(n, _)| Some(n + 1))
}

/// The JSON schema of a warrior file.
pub fn warrior_file_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(WarriorFile)).unwrap_or_default()
}

/// The JSON schema of an army file.
pub fn army_list_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(ArmyList)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"
[[warriors]]
name = "Test Guard"
faction = "Testers"
points = 20
speed_type = "boot"
attack_type = "sword"
dial = [
  { speed = 8, attack = 9, defense = 15, damage = 2 },
  { speed = 7, attack = 8, defense = 14, damage = 1 },
]

[[warriors]]
name = "Broken"
faction = "Testers"
points = 20
speed_type = "boot"
range = 8
dial = [
  { speed = 8, attack = 9, defense = 15, damage = 2, repair = true },
]
"#;

    #[test]
    fn every_problem_is_named_with_its_file_line_and_field() {
        let errors = Roster::load([("warriors/test.toml", FILE)], []).unwrap_err();
        let fields: Vec<(&str, Option<usize>)> =
            errors.iter().map(|e| (e.field.as_str(), e.line)).collect();
        assert!(
            fields.contains(&("warriors[1].ranged_damage", Some(13))),
            "{fields:?}"
        );
        assert!(
            fields.contains(&("warriors[1].dial[0].repair", Some(20))),
            "{fields:?}"
        );
        assert!(errors.iter().all(|e| e.file == "warriors/test.toml"));
    }

    #[test]
    fn an_army_over_its_build_total_or_naming_no_warrior_is_refused() {
        let good = FILE
            .split("[[warriors]]\nname = \"Broken\"")
            .next()
            .unwrap();
        let over = "name = \"Too Big\"\nbuild_total = 100\nwarriors = [\"Test Guard\", \"Test Guard\", \"Test Guard\", \"Test Guard\", \"Test Guard\", \"Test Guard\"]\n";
        let errors = Roster::load([("w.toml", good)], [("armies/big.toml", over)]).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].field, "warriors");
        assert_eq!(errors[0].line, Some(3));
        assert!(
            errors[0].message.contains("120 points"),
            "{}",
            errors[0].message
        );
        let unknown = "name = \"Ghosts\"\nbuild_total = 100\nwarriors = [\"Nobody\"]\n";
        let errors = Roster::load([("w.toml", good)], [("armies/g.toml", unknown)]).unwrap_err();
        assert!(errors[0].message.contains("Nobody"));
        let fine = "name = \"Fine\"\nbuild_total = 100\nwarriors = [\"Test Guard\"]\n";
        let roster = Roster::load([("w.toml", good)], [("armies/f.toml", fine)]).unwrap();
        assert_eq!(roster.field(&roster.armies()[0]).unwrap().points(), 20);
    }
}
