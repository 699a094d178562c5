//! The crew builder: a list is written one step at a time (a faction, a
//! leader, a size, models added and removed) and each step is checked by
//! the engine's hiring rules, so the builder and the engine never
//! disagree about a crew. The builder holds no state of its own: the list
//! is carried from one step to the next by whoever asks.

use soulstone_engine::Edition;
use soulstone_engine::content::Catalog;
use soulstone_engine::content::card::{Characteristic, StatCard, Station};
use soulstone_engine::content::crew::{
    Appraisal, CrewList, HiringError, ListUpgrade, MAX_LIST_MODELS,
};
use soulstone_engine::content::upgrade::UpgradeDef;

/// The encounter size a new list is written for.
pub const DEFAULT_SIZE: u8 = 50;

/// The sizes the builder accepts: the smallest encounter either edition
/// plays to well past the largest.
pub const SIZES: std::ops::RangeInclusive<u8> = 10..=100;

/// One step of writing a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Hire one more of this card (its full name).
    Add(String),
    /// Take out the list's `n`th model (1-based, as `ListUpgrade::on`
    /// counts), with the upgrades bought for it.
    Remove(usize),
    /// Buy an upgrade (3rd edition) for the leader (0) or the `n`th model.
    Buy { on: usize, upgrade: String },
    /// Give back the list's `n`th upgrade bought (0-based).
    GiveBack(usize),
}

/// The factions `edition`'s cards name, in alphabetical order.
pub fn factions(catalog: &Catalog, edition: Edition) -> Vec<String> {
    let mut factions: Vec<String> = catalog
        .cards()
        .filter(|card| card.edition == edition)
        .flat_map(|card| card.factions.iter().cloned())
        .collect();
    factions.sort();
    factions.dedup();
    factions
}

/// Masters first, then henchmen, enforcers, minions and peons.
fn station_rank(card: &StatCard) -> u8 {
    match card.station {
        Station::Master => 0,
        _ if card.has(Characteristic::Henchman) => 1,
        Station::Henchman => 1,
        Station::Enforcer => 2,
        Station::Minion => 3,
        Station::Peon => 4,
    }
}

/// `faction`'s cards in `edition`, masters first, by name within a station.
pub fn cards_of<'a>(catalog: &'a Catalog, edition: Edition, faction: &str) -> Vec<&'a StatCard> {
    let mut cards: Vec<&StatCard> = catalog
        .cards()
        .filter(|card| card.edition == edition && card.factions.iter().any(|f| f == faction))
        .collect();
    cards.sort_by_key(|card| (station_rank(card), card.full_name()));
    cards
}

/// Who may lead a crew of `faction`: its masters and henchmen.
pub fn leaders<'a>(catalog: &'a Catalog, edition: Edition, faction: &str) -> Vec<&'a StatCard> {
    cards_of(catalog, edition, faction)
        .into_iter()
        .filter(|card| station_rank(card) <= 1)
        .collect()
}

/// A list begun in `edition`: its first faction, that faction's first
/// leader, the default size and no models yet. None when the content
/// has no card of the edition.
pub fn new_list(catalog: &Catalog, edition: Edition) -> Option<CrewList> {
    let faction = factions(catalog, edition).into_iter().next()?;
    let leader = leaders(catalog, edition, &faction).first()?.full_name();
    Some(CrewList {
        edition,
        faction,
        leader,
        size: DEFAULT_SIZE,
        models: Vec::new(),
        upgrades: Vec::new(),
    })
}

/// Sets the list's faction and leader. A faction the content does not
/// name, or a leader who cannot lead the faction, is refused. When the
/// faction changes, a leader left over from the old faction gives way to
/// the new faction's first (the form still held the old one). The models
/// stay, so a model the new faction cannot hire is named by the rules,
/// not dropped.
pub fn choose_leader(
    catalog: &Catalog,
    list: &mut CrewList,
    faction: &str,
    leader: Option<&str>,
) -> Result<(), String> {
    if !factions(catalog, list.edition).iter().any(|f| f == faction) {
        return Err(format!(
            "{} has no cards of the faction \"{faction}\".",
            list.edition.name()
        ));
    }
    let leaders = leaders(catalog, list.edition, faction);
    let named = leader.and_then(|name| leaders.iter().find(|l| l.full_name() == name));
    let chosen = match (named, leader) {
        (Some(card), _) => card,
        (None, Some(name)) if faction == list.faction => {
            return Err(format!("{name} cannot lead a crew of {faction}."));
        }
        (None, _) => leaders
            .first()
            .ok_or_else(|| format!("{faction} has no master or henchman to lead it."))?,
    };
    list.faction = faction.to_string();
    list.leader = chosen.full_name();
    Ok(())
}

/// Sets the encounter size.
pub fn choose_size(list: &mut CrewList, size: u8) -> Result<(), String> {
    if !SIZES.contains(&size) {
        return Err(format!(
            "An encounter is {} to {} soulstones.",
            SIZES.start(),
            SIZES.end()
        ));
    }
    list.size = size;
    Ok(())
}

/// Takes one step. A card the edition does not have, a list already as
/// long as any list may be, or a model that is not in the list is
/// refused, and the list is left as it was. Breaking a hiring rule is not
/// refused here: the appraisal names it, as a player writing a list on
/// paper would see it.
pub fn take(catalog: &Catalog, list: &mut CrewList, step: &Step) -> Result<(), String> {
    match step {
        Step::Add(name) => {
            let card = catalog
                .card(list.edition, name)
                .ok_or_else(|| format!("{} has no card named {name}.", list.edition.name()))?;
            if list.models.len() >= MAX_LIST_MODELS {
                return Err(format!("A list names {MAX_LIST_MODELS} models at most."));
            }
            list.models.push(card.full_name());
        }
        Step::Remove(n) => {
            if *n == 0 || *n > list.models.len() {
                return Err("That model is not in the list.".to_string());
            }
            list.models.remove(n - 1);
            list.upgrades.retain(|u| u.on != *n);
            for upgrade in &mut list.upgrades {
                if upgrade.on > *n {
                    upgrade.on -= 1;
                }
            }
        }
        Step::Buy { on, upgrade } => {
            let bought = catalog.upgrade(list.edition, upgrade).ok_or_else(|| {
                format!("{} has no upgrade named {upgrade}.", list.edition.name())
            })?;
            if *on > list.models.len() {
                return Err("That model is not in the list.".to_string());
            }
            if list.upgrades.len() >= MAX_LIST_MODELS {
                return Err(format!("A list buys {MAX_LIST_MODELS} upgrades at most."));
            }
            list.upgrades.push(ListUpgrade {
                on: *on,
                upgrade: bought.name.clone(),
            });
        }
        Step::GiveBack(index) => {
            if *index >= list.upgrades.len() {
                return Err("That upgrade is not in the list.".to_string());
            }
            list.upgrades.remove(*index);
        }
    }
    Ok(())
}

/// The upgrades a crew of the list's faction may buy while hiring, by
/// name: none in the 4th edition, whose upgrades come during the game.
pub fn upgrades_for_sale<'a>(catalog: &'a Catalog, list: &CrewList) -> Vec<&'a UpgradeDef> {
    if !list.edition.rules().content.hiring.upgrades_hired {
        return Vec::new();
    }
    let mut upgrades: Vec<&UpgradeDef> = catalog
        .upgrades(list.edition)
        .filter(|u| u.hireable() && u.factions.contains(&list.faction))
        .collect();
    upgrades.sort_by(|a, b| a.name.cmp(&b.name));
    upgrades
}

/// What one submission of the builder's form asks for.
#[derive(Debug, Clone, Default)]
pub struct Request<'a> {
    /// The list as the last step left it.
    pub carried: Option<CrewList>,
    /// A list pasted to start from instead.
    pub import: Option<&'a str>,
    pub faction: Option<&'a str>,
    pub leader: Option<&'a str>,
    pub size: Option<&'a str>,
    pub step: Option<Step>,
}

/// The list after a submission, and what of the submission was refused
/// (each refused part changed nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub list: CrewList,
    pub refused: Vec<String>,
    /// Pasted text that could not be read, to show again to be mended.
    pub unread: Option<String>,
}

/// Takes one submission of the builder in `edition`: a pasted list
/// replaces the carried one (and brings its own edition); otherwise the
/// carried list, or a new one when there is none of this edition, gets
/// the faction, leader, size and step asked for, in that order. None when
/// the content has no cards of the edition.
pub fn write(catalog: &Catalog, edition: Edition, request: &Request<'_>) -> Option<Written> {
    let mut refused = Vec::new();
    let mut unread = None;
    if let Some(text) = request.import.filter(|text| !text.trim().is_empty()) {
        match CrewList::parse(text) {
            Ok(list) => {
                return Some(Written {
                    list,
                    refused,
                    unread,
                });
            }
            Err(error) => {
                refused.push(format!("The pasted list was not read: {error}."));
                unread = Some(text.to_string());
            }
        }
    }
    // A list of another edition means the edition was just changed: the
    // form's faction and leader were the old edition's, so they give way.
    let switched = request
        .carried
        .as_ref()
        .is_some_and(|list| list.edition != edition);
    let carried = request
        .carried
        .clone()
        .filter(|list| list.edition == edition);
    let mut list = match carried {
        Some(list) => list,
        None => new_list(catalog, edition)?,
    };
    if let Some(faction) = request
        .faction
        .map(str::trim)
        .filter(|f| !f.is_empty() && !switched)
    {
        let leader = request.leader.map(str::trim).filter(|l| !l.is_empty());
        if let Err(problem) = choose_leader(catalog, &mut list, faction, leader) {
            refused.push(problem);
        }
    }
    if let Some(size) = request.size.map(str::trim).filter(|s| !s.is_empty()) {
        let chosen = size
            .parse::<u8>()
            .map_err(|_| format!("The size \"{size}\" is not a number of soulstones."))
            .and_then(|size| choose_size(&mut list, size));
        if let Err(problem) = chosen {
            refused.push(problem);
        }
    }
    if let Some(step) = &request.step
        && let Err(problem) = take(catalog, &mut list, step)
    {
        refused.push(problem);
    }
    Some(Written {
        list,
        refused,
        unread,
    })
}

/// A card the list could hire next: what it would cost this list, or the
/// rules hiring it would break.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer<'a> {
    pub card: &'a StatCard,
    /// Soulstones it would cost (out of keyword included); none when the
    /// content has no cost for it.
    pub cost: Option<u8>,
    /// What adding it would break that the list does not already break.
    pub breaks: Vec<HiringError>,
}

/// Every card of the list's faction but the masters, each appraised as
/// the list plus that card, by the engine's hiring rules.
pub fn offers<'a>(catalog: &'a Catalog, list: &CrewList) -> Vec<Offer<'a>> {
    let before = list.appraise(catalog).errors;
    cards_of(catalog, list.edition, &list.faction)
        .into_iter()
        .filter(|card| card.station != Station::Master && card.full_name() != list.leader)
        .map(|card| {
            let mut with = list.clone();
            with.models.push(card.full_name());
            let Appraisal { crew, mut errors } = with.appraise(catalog);
            // What the list already broke is not this card's doing.
            for old in &before {
                if let Some(at) = errors.iter().position(|e| e == old) {
                    errors.remove(at);
                }
            }
            let cost = crew
                .costs
                .last()
                .filter(|(name, _)| *name == card.full_name())
                .map(|(_, cost)| *cost);
            Offer {
                card,
                cost,
                breaks: errors,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Catalog {
        crate::content::load_shipped_for_cli().expect("the shipped content")
    }

    fn lamplighters(catalog: &Catalog) -> CrewList {
        let text = crate::content::shipped_crews()
            .iter()
            .find(|(path, _)| path.ends_with("lamplighters-50.txt"))
            .map(|(_, text)| *text)
            .expect("the shipped Lamplighters");
        let list = CrewList::parse(text).expect("it parses");
        assert!(list.hire(catalog).is_ok());
        list
    }

    /// An offer's cost is what the engine charges once it is hired, and a
    /// card the engine would refuse says why.
    #[test]
    fn offers_cost_what_hiring_charges() {
        let catalog = catalog();
        let mut list = lamplighters(&catalog);
        list.models.truncate(3);
        let offers = offers(&catalog, &list);
        assert!(!offers.is_empty());
        for offer in &offers {
            let mut with = list.clone();
            take(&catalog, &mut with, &Step::Add(offer.card.full_name())).expect("added");
            match with.hire(&catalog) {
                Ok(crew) => {
                    assert!(offer.breaks.is_empty(), "{:?}", offer.breaks);
                    assert_eq!(crew.costs.last().map(|c| c.1), offer.cost);
                }
                Err(errors) => {
                    assert!(!offer.breaks.is_empty(), "{}", offer.card.full_name());
                    assert!(offer.breaks.iter().all(|b| errors.contains(b)));
                }
            }
        }
    }

    /// Removing a model takes its upgrades with it and keeps the others on
    /// their models.
    #[test]
    fn removing_a_model_keeps_the_other_upgrades_on_theirs() {
        let catalog = catalog();
        let mut list = lamplighters(&catalog);
        list.upgrades = vec![
            ListUpgrade {
                on: 1,
                upgrade: "one".into(),
            },
            ListUpgrade {
                on: 3,
                upgrade: "three".into(),
            },
        ];
        let third = list.models[2].clone();
        take(&catalog, &mut list, &Step::Remove(1)).expect("removed");
        assert_eq!(list.models[1], third);
        assert_eq!(
            list.upgrades,
            vec![ListUpgrade {
                on: 2,
                upgrade: "three".into()
            }]
        );
        let before = list.clone();
        assert!(take(&catalog, &mut list, &Step::Remove(99)).is_err());
        assert!(take(&catalog, &mut list, &Step::Add("Nobody at all".into())).is_err());
        assert_eq!(list, before, "a refused step changes nothing");
    }

    /// A leader must lead the faction; another faction's leader is refused.
    #[test]
    fn a_leader_leads_their_own_faction() {
        let catalog = catalog();
        let mut list = new_list(&catalog, Edition::Fourth).expect("4th edition cards");
        let factions = factions(&catalog, Edition::Fourth);
        assert!(factions.len() >= 2);
        let other = &factions[1];
        let theirs = leaders(&catalog, Edition::Fourth, other)[0].full_name();
        let before = list.clone();
        assert!(choose_leader(&catalog, &mut list, &factions[0], Some(&theirs)).is_err());
        assert_eq!(list, before);
        choose_leader(&catalog, &mut list, other, None).expect("a faction change");
        assert_eq!(list.leader, theirs);
        assert!(choose_leader(&catalog, &mut list, "Nobody's", None).is_err());
        assert!(choose_size(&mut list, 3).is_err());
    }

    /// Changing the edition starts a list of the new edition, whatever the
    /// form still held of the old one.
    #[test]
    fn changing_the_edition_starts_anew() {
        let catalog = catalog();
        let fourth = lamplighters(&catalog);
        let request = Request {
            carried: Some(fourth.clone()),
            faction: Some("A faction only the old edition has"),
            leader: Some(&fourth.leader),
            ..Request::default()
        };
        let written = write(&catalog, Edition::Third, &request).expect("3rd edition cards");
        assert!(written.refused.is_empty(), "{:?}", written.refused);
        assert_eq!(written.list.edition, Edition::Third);
        assert!(written.list.models.is_empty());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, ..Default::default() })]

        /// On random lists of either edition, what the builder offers as
        /// hireable the engine hires, and what it marks as breaking a rule
        /// the engine refuses; and a step the builder refuses changes
        /// nothing.
        #[test]
        fn the_builder_agrees_with_the_engine(
            third in proptest::bool::ANY,
            faction_pick in 0usize..8,
            leader_pick in 0usize..8,
            picks in proptest::collection::vec(0usize..64, 0..12),
            size in 20u8..=60,
        ) {
            let catalog = catalog();
            let edition = if third { Edition::Third } else { Edition::Fourth };
            let mut list = new_list(&catalog, edition).expect("cards of the edition");
            let all = factions(&catalog, edition);
            let faction = &all[faction_pick % all.len()];
            let leaders = leaders(&catalog, edition, faction);
            let leader = leaders[leader_pick % leaders.len()].full_name();
            choose_leader(&catalog, &mut list, faction, Some(&leader)).expect("its own leader");
            choose_size(&mut list, size).expect("a size in range");
            let cards = cards_of(&catalog, edition, faction);
            for pick in picks {
                let name = cards[pick % cards.len()].full_name();
                let before = list.clone();
                if take(&catalog, &mut list, &Step::Add(name)).is_err() {
                    proptest::prop_assert_eq!(&list, &before);
                }
            }
            let legal = list.hire(&catalog).is_ok();
            proptest::prop_assert_eq!(legal, list.appraise(&catalog).errors.is_empty());
            if legal {
                for offer in offers(&catalog, &list) {
                    let mut with = list.clone();
                    with.models.push(offer.card.full_name());
                    proptest::prop_assert_eq!(
                        offer.breaks.is_empty(),
                        with.hire(&catalog).is_ok(),
                        "{}", offer.card.full_name()
                    );
                }
            }
        }
    }
}
