//! Setting an encounter up before its first step: the scenario from the
//! flips (or as given), the scheme pool, the crews each player may bring,
//! and the `NewGame` that starts it.

use super::*;
use crate::rules::EncounterRules;

/// Why an encounter cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// The deployment each suit of the defender's flip gives (the project's
/// default season; a TO's pool may map them otherwise).
pub fn deployment_for(suit: crate::fate::Suit) -> Deployment {
    use crate::fate::Suit;
    match suit {
        Suit::Rams => Deployment::Standard,
        Suit::Masks => Deployment::Wedge,
        Suit::Tomes => Deployment::Flank,
        Suit::Crows => Deployment::Corner,
    }
}

/// Encounter Setup's step C, "Determine Scenario", and step D: both
/// players flip (jokers and ties flip again); the higher is the attacker,
/// whose suit picks the strategy while the defender's picks the
/// deployment; then the schemes of the pool are drawn (three in 4th
/// edition; five by card value in 3rd). The flips come from the game's own
/// seeded stream, so the log's seed reproduces them.
fn flip_scenario(
    objectives: &ObjectiveBook,
    seed: &crate::fairness::Bytes32,
    rules: &EncounterRules,
) -> Result<DecidedScenario, SetupError> {
    use crate::fate::Card;
    let mut stream = setup_stream(seed, b"soulstone/encounter-setup/v1\0\0\0\0");
    let cards: Vec<Card> = Card::all().collect();
    let mut flip = || loop {
        let card = cards[stream.below(cards.len() as u32) as usize];
        if let Some(suit) = card.suit().filter(|_| !card.is_joker()) {
            return (card.value(), suit);
        }
    };
    let (attacker, attack_suit, defend_suit) = loop {
        let (a, b) = (flip(), flip());
        if a.0 != b.0 {
            break if a.0 > b.0 {
                (Seat::A, a.1, b.1)
            } else {
                (Seat::B, b.1, a.1)
            };
        }
    };
    Ok(DecidedScenario {
        attacker,
        strategy: strategy_for_suit(objectives, attack_suit)?,
        deployment: deployment_for(defend_suit),
        scheme_pool: draw_schemes(objectives, &mut stream, rules.scheme_pool)?,
        schemes: objectives.schemes.clone(),
    })
}

/// What flipped cards decide at setup, as a scenario file gives them: the
/// attacker (the higher of the two players' cards), the strategy (the
/// attacker's suit), the deployment (the defender's suit) and, where the
/// schemes are numbered by card value (3rd edition), the scheme pool of
/// `scheme_cards`. A joker or a tie decides nothing: the players would
/// flip again, so a file gives the cards that decided.
pub fn scenario_from_flips(
    objectives: &ObjectiveBook,
    a: crate::fate::Card,
    b: crate::fate::Card,
    scheme_cards: &[crate::fate::Card],
) -> Result<(Seat, StrategyDef, Deployment, Vec<String>), SetupError> {
    let suited = |card: crate::fate::Card| {
        card.suit()
            .filter(|_| !card.is_joker())
            .ok_or_else(|| SetupError(format!("{card} is a joker: the players flip again")))
    };
    let (a_suit, b_suit) = (suited(a)?, suited(b)?);
    let (attacker, attack_suit, defend_suit) = match a.value().cmp(&b.value()) {
        std::cmp::Ordering::Greater => (Seat::A, a_suit, b_suit),
        std::cmp::Ordering::Less => (Seat::B, b_suit, a_suit),
        std::cmp::Ordering::Equal => {
            return Err(SetupError(format!(
                "{a} and {b} tie: the players flip again"
            )));
        }
    };
    let mut pool: Vec<String> = Vec::with_capacity(scheme_cards.len());
    for card in scheme_cards {
        let scheme = objectives
            .schemes
            .iter()
            .find(|s| s.card == Some(card.value()) && !card.is_joker())
            .ok_or_else(|| SetupError(format!("no scheme is numbered {card}")))?;
        if pool.contains(&scheme.name) {
            return Err(SetupError(format!(
                "{card} gives {} again: the card is flipped again",
                scheme.name
            )));
        }
        pool.push(scheme.name.clone());
    }
    Ok((
        attacker,
        strategy_for_suit(objectives, attack_suit)?,
        deployment_for(defend_suit),
        pool,
    ))
}

fn strategy_for_suit(
    objectives: &ObjectiveBook,
    suit: crate::fate::Suit,
) -> Result<StrategyDef, SetupError> {
    objectives
        .strategy_for_suit(suit)
        .cloned()
        .ok_or_else(|| SetupError(format!("no strategy is picked by {suit:?}")))
}

/// `count` of the content's schemes, drawn from `stream`. Where the
/// schemes are numbered by card value (3rd edition), cards are flipped and
/// each value picks its scheme, a value already drawn or a joker flipping
/// again; otherwise the schemes are shuffled and the first taken.
fn draw_schemes(
    objectives: &ObjectiveBook,
    stream: &mut soulstone_random::RandomStream,
    count: usize,
) -> Result<Vec<String>, SetupError> {
    let mut names: Vec<String> = objectives.schemes.iter().map(|s| s.name.clone()).collect();
    if names.len() < count {
        return Err(SetupError(format!("the scheme pool needs {count} schemes")));
    }
    let numbered = objectives
        .schemes
        .iter()
        .filter(|s| s.card.is_some())
        .count();
    if numbered >= count {
        use crate::fate::Card;
        let cards: Vec<Card> = Card::all().collect();
        let mut pool: Vec<String> = Vec::with_capacity(count);
        // Values no scheme has are flipped again too; a bounded number of
        // flips, as the values present are at least `count`.
        for _ in 0..10_000 {
            if pool.len() == count {
                break;
            }
            let card = cards[stream.below(cards.len() as u32) as usize];
            if card.is_joker() {
                continue;
            }
            if let Some(scheme) = objectives
                .schemes
                .iter()
                .find(|s| s.card == Some(card.value()))
                .filter(|s| !pool.contains(&s.name))
            {
                pool.push(scheme.name.clone());
            }
        }
        if pool.len() == count {
            return Ok(pool);
        }
    }
    stream.shuffle(&mut names);
    names.truncate(count);
    Ok(names)
}

/// A scenario decided before the game (an event round's flips), played
/// instead of one flipped from the game's seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GivenScenario {
    pub attacker: Seat,
    /// The suit the attacker flipped: it picks the content's strategy when
    /// `strategy` names none the content has.
    pub strategy_suit: crate::fate::Suit,
    /// The strategy as the round names it (an organiser's pool may name
    /// one the content does not have).
    pub strategy: Option<String>,
    pub deployment: Deployment,
    /// The round's scheme pool; when empty, three of the content's are
    /// drawn instead. A scheme the content does not have is played by
    /// claims (its player claims the VP, the opponent confirms).
    pub schemes: Vec<String>,
    /// Every scheme of the season with its Next Available Schemes, so that
    /// a scheme selected later has its list too (the content's own schemes
    /// keep theirs).
    pub season_schemes: Vec<objectives::SeasonScheme>,
}

impl GivenScenario {
    /// What the game plays: the round's choices, scored by the content
    /// where it has them and by the players' claims where it does not.
    fn resolve(
        &self,
        objectives: &ObjectiveBook,
        seed: &crate::fairness::Bytes32,
        rules: &EncounterRules,
    ) -> Result<DecidedScenario, SetupError> {
        let strategy = match self.strategy.as_deref().map(str::trim) {
            Some(name) if !name.is_empty() => objectives
                .strategy(name)
                .cloned()
                .unwrap_or_else(|| StrategyDef::claimed(name, Some(self.strategy_suit))),
            _ => strategy_for_suit(objectives, self.strategy_suit)?,
        };
        let named: Vec<String> = self
            .schemes
            .iter()
            .map(|name| name.trim())
            .filter(|name| !name.is_empty())
            .map(|name| {
                objectives
                    .scheme(name)
                    .map_or_else(|| name.to_string(), |s| s.name.clone())
            })
            .collect();
        let scheme_pool = if named.is_empty() {
            let mut stream = setup_stream(seed, b"soulstone/encounter-schemes/v1\0\0");
            draw_schemes(objectives, &mut stream, rules.scheme_pool)?
        } else {
            named
        };
        let schemes = objectives.with_season(&scheme_pool, &self.season_schemes);
        Ok(DecidedScenario {
            attacker: self.attacker,
            strategy,
            deployment: self.deployment,
            scheme_pool,
            schemes,
        })
    }
}

/// What step C and D settle: who attacks, the strategy, the deployment,
/// the pool, and every scheme a crew may select.
struct DecidedScenario {
    attacker: Seat,
    strategy: StrategyDef,
    deployment: Deployment,
    scheme_pool: Vec<String>,
    schemes: Vec<objectives::SchemeDef>,
}

/// A stream of the setup's own, apart from the deck shuffles: the seed
/// mixed with a 32-byte label.
fn setup_stream(
    seed: &crate::fairness::Bytes32,
    label: &[u8; 32],
) -> soulstone_random::RandomStream {
    let mut key = [0u8; 32];
    for (i, byte) in seed.0.iter().enumerate() {
        key[i] = byte ^ label[i];
    }
    soulstone_random::RandomStream::from_key(key)
}

/// A crew list a player brings to an encounter, under the name they give it.
#[derive(Debug, Clone, Copy)]
pub struct Brought<'a> {
    pub name: &'a str,
    pub list: &'a crate::content::crew::CrewList,
}

/// Checks each list a player brought against the hiring rules and makes it
/// an offer. All lists, both players', must be for one encounter size.
fn make_offers(
    catalog: &crate::content::Catalog,
    edition: crate::Edition,
    brought: [&[Brought<'_>]; 2],
) -> Result<(u8, Offers), SetupError> {
    let mut size: Option<u8> = None;
    let mut offers = no_offers();
    for seat in Seat::BOTH {
        let lists = brought[seat.index()];
        if lists.is_empty() {
            return Err(SetupError(format!("{} brought no crew", seat.label())));
        }
        let mut made: Vec<CrewOffer> = Vec::with_capacity(lists.len());
        for Brought { name, list } in lists {
            let name = name.trim();
            let problem = |text: String| SetupError(format!("{}, {name}: {text}", seat.label()));
            if name.is_empty() || made.iter().any(|o| o.name == name) {
                return Err(problem("each crew needs a name of its own".into()));
            }
            if list.edition != edition {
                return Err(problem(format!(
                    "a {} crew in a {} encounter",
                    list.edition.name(),
                    edition.name()
                )));
            }
            match size {
                Some(agreed) if agreed != list.size => {
                    return Err(problem(format!(
                        "hired for {} soulstones, but another crew for {agreed}",
                        list.size
                    )));
                }
                _ => size = Some(list.size),
            }
            let hired = list.hire(catalog).map_err(|errors| {
                let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
                problem(text.join("; "))
            })?;
            let crew_card = hired
                .crew_card
                .as_deref()
                .and_then(|card| catalog.crew_card(edition, card));
            let mut models = Vec::with_capacity(list.models.len() + 1);
            let mut cards = Vec::with_capacity(list.models.len() + 1);
            let mut leader = None;
            for card_name in std::iter::once(&list.leader).chain(&list.models) {
                let card = catalog
                    .card(edition, card_name)
                    .ok_or_else(|| problem(format!("no card {card_name}")))?;
                leader.get_or_insert_with(|| card.name.clone());
                models.push(card.model_card_in_crew(crew_card));
                cards.push(card);
            }
            // What a bought upgrade gives is on its model's card from the
            // start, as an upgrade attached during the game adds it.
            for bought in &hired.upgrades {
                let upgrade = catalog.upgrade(edition, &bought.upgrade);
                if let (Some(upgrade), Some(model)) = (upgrade, models.get_mut(bought.on)) {
                    Arc::make_mut(model).gain_upgrade(upgrade.face());
                }
            }
            let summonable = catalog.summonable(edition, cards, crew_card);
            if models.len() > crate::limits::MAX_MODELS / 2 {
                return Err(problem(format!(
                    "{} models, more than a crew may bring ({})",
                    models.len(),
                    crate::limits::MAX_MODELS / 2
                )));
            }
            made.push(CrewOffer {
                name: name.to_string(),
                faction: list.faction.clone(),
                leader: leader.unwrap_or_default(),
                soulstones: u16::from(hired.pool),
                models,
                summonable,
                upgrades: hired
                    .upgrades
                    .iter()
                    .map(|u| (u.on, u.upgrade.clone()))
                    .collect(),
            });
        }
        offers[seat.index()] = Hidden::new(seat, made);
    }
    Ok((size.unwrap_or(50), offers))
}

/// The upgrade cards a game needs: those the brought crews buy (they count
/// against what is attached during the game: Plentiful, one copy a model)
/// and those their models' actions, or the models they summon, attach.
/// Not the edition's others, which would only make every stored state
/// larger.
fn upgrades_in_play(
    catalog: &crate::content::Catalog,
    edition: crate::Edition,
    offers: &Offers,
) -> Vec<crate::model::UpgradeCard> {
    let mut names: Vec<&str> = Vec::new();
    for offer in offers.iter().filter_map(|o| o.value.as_ref()).flatten() {
        names.extend(offer.upgrades.iter().map(|(_, name)| name.as_str()));
        let attached = offer
            .models
            .iter()
            .chain(&offer.summonable)
            .flat_map(|card| &card.actions)
            .flat_map(|action| &action.after_succeeding)
            .filter_map(|effect| match effect {
                crate::model::ActionEffect::AttachUpgrade { upgrade, .. } => Some(upgrade.as_str()),
                _ => None,
            });
        names.extend(attached);
    }
    catalog
        .upgrades(edition)
        .filter(|upgrade| names.contains(&upgrade.name.as_str()))
        .map(crate::content::upgrade::UpgradeDef::upgrade_card)
        .collect()
}

/// A new encounter between two players, each bringing one or more crew
/// lists (player A's first) of which they hire one during setup, with the
/// scenario flipped from `seed`, on the table layout named `table` (none:
/// one of the content's layouts picked from `seed`, or an open table if
/// the content has none).
pub fn new_encounter(
    catalog: &crate::content::Catalog,
    brought: [&[Brought<'_>]; 2],
    seed: crate::fairness::Bytes32,
    table: Option<&str>,
) -> Result<crate::state::NewGame, SetupError> {
    new_encounter_in(catalog, brought, seed, table, None)
}

/// A new encounter as [`new_encounter`], playing `scenario` when one was
/// decided before the game (else flipping one from `seed`).
pub fn new_encounter_in(
    catalog: &crate::content::Catalog,
    brought: [&[Brought<'_>]; 2],
    seed: crate::fairness::Bytes32,
    table: Option<&str>,
    scenario: Option<&GivenScenario>,
) -> Result<crate::state::NewGame, SetupError> {
    // The edition of the crews player A brought first (make_offers checks
    // that every crew is of it).
    let edition = brought[0]
        .first()
        .map_or(crate::Edition::Fourth, |b| b.list.edition);
    let rules = &edition.rules().encounter;
    let objectives = catalog
        .objectives(edition)
        .ok_or_else(|| SetupError(format!("the content has no {} strategies", edition.name())))?;
    let DecidedScenario {
        attacker,
        strategy,
        deployment,
        scheme_pool,
        schemes,
    } = match scenario {
        Some(given) => given.resolve(objectives, &seed, rules)?,
        None => flip_scenario(objectives, &seed, rules)?,
    };
    let (size, offers) = make_offers(catalog, edition, brought)?;
    let layouts = catalog.tables(edition);
    let layout = match table {
        Some(name) => Some(
            layouts
                .iter()
                .find(|t| t.name.eq_ignore_ascii_case(name))
                .ok_or_else(|| SetupError(format!("there is no table layout {name:?}")))?,
        ),
        None if layouts.is_empty() => None,
        None => {
            let mut stream = setup_stream(&seed, b"soulstone/encounter-table/v1\0\0\0\0");
            layouts.get(stream.below(u32::try_from(layouts.len()).unwrap_or(u32::MAX)) as usize)
        }
    };
    let terrain = match layout {
        Some(layout) => layout.build().map_err(SetupError)?,
        None => Vec::new(),
    };
    Ok(crate::state::NewGame {
        edition,
        seed,
        // The hired crew's leftover soulstones come with it (step H).
        soulstones: [0, 0],
        models: Vec::new(),
        tokens: catalog
            .tokens(edition)
            .cloned()
            .ok_or_else(|| SetupError("no tokens".into()))?,
        marker_types: catalog
            .markers(edition)
            .cloned()
            .ok_or_else(|| SetupError("no markers".into()))?,
        // What the hired crew may summon comes with it.
        summonable: Default::default(),
        upgrade_cards: upgrades_in_play(catalog, edition, &offers),
        terrain,
        encounter: Some(EncounterSetup {
            size,
            attacker,
            deployment,
            strategy,
            scheme_pool,
            schemes: ObjectiveBook {
                strategies: Vec::new(),
                schemes,
            },
            offers,
        }),
    })
}
