//! What a scenario file sets up: an encounter where it stands, markers, and
//! models with their cards (from the content or written in the file).

use super::*;

/// An encounter as a scenario starts it: the setup, and where it stands.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterSpec {
    #[serde(default = "default_encounter_size")]
    pub size: u8,
    /// The cards flipped at setup, which decide the attacker, strategy,
    /// deployment (and a 3rd edition scheme pool) where the file leaves
    /// them out, and must agree with them where it names them.
    #[serde(default)]
    pub flips: Option<SetupFlips>,
    /// Required unless `flips` decide it.
    #[serde(default)]
    pub attacker: Option<Seat>,
    #[serde(default)]
    pub deployment: Option<crate::table::measure::Deployment>,
    /// A strategy of the content's, by name; with `claimed_strategy`, one
    /// the content lacks, scored by its players' claims.
    #[serde(default)]
    pub strategy: Option<String>,
    #[serde(default)]
    pub claimed_strategy: bool,
    /// Schemes of the pool the content lacks are claimed, as in an event.
    #[serde(default)]
    pub scheme_pool: Vec<String>,
    /// A TO's season: its schemes and their Next Available Schemes.
    #[serde(default)]
    pub season: Vec<crate::encounter::objectives::SeasonScheme>,
    pub leaders: [ModelId; 2],
    /// The step it starts at (default: the attacker chooses a zone).
    #[serde(default)]
    pub step: Option<crate::encounter::Step>,
    #[serde(default)]
    pub turn: u8,
    /// The attacker's zone, once chosen (the strategy's markers are then
    /// on the table).
    #[serde(default)]
    pub attacker_zone: Option<crate::encounter::Zone>,
    /// Who has initiative (default: the attacker) and is active.
    #[serde(default)]
    pub initiative: Option<Seat>,
    /// The schemes the crews hold.
    #[serde(default)]
    pub schemes: SchemesSpec,
    /// 3rd edition, a game under way: the schemes each crew has revealed
    /// (with the model each chose, which an End requirement still reads).
    #[serde(default)]
    pub revealed: SchemesSpec,
    /// 3rd edition, a game under way: the claims that scored so far, as
    /// `{ seat, scheme, turn, vp }` (a scheme scores once a turn, twice a
    /// game); `scheme_vp` is their sum unless given.
    #[serde(default)]
    pub scheme_scores: Vec<crate::encounter::SchemeScore>,
    /// Models that have activated this turn.
    #[serde(default)]
    pub activated: Vec<ModelId>,
    #[serde(default)]
    pub strategy_vp: [u8; 2],
    #[serde(default)]
    pub scheme_vp: [u8; 2],
    /// Plant Explosives: the tokens models carry, as `[model, count]`.
    #[serde(default)]
    pub explosives: Vec<(ModelId, u8)>,
    /// Plant Explosives: the tokens each crew has placed after deployment.
    #[serde(default)]
    pub explosives_placed: [u8; 2],
}

/// The setup's flips as cards: each player's flip for the attacker (the
/// higher attacks, its suit picks the strategy, the lower's the
/// deployment) and, 3rd edition, the cards whose values pick the schemes.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupFlips {
    pub a: Card,
    pub b: Card,
    #[serde(default)]
    pub schemes: Vec<Card>,
}

/// What the encounter is set up with: the file's values, or the flips',
/// which must agree where both are given.
struct Decided {
    attacker: Seat,
    deployment: crate::table::measure::Deployment,
    strategy: String,
    scheme_pool: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemesSpec {
    #[serde(default)]
    pub a: HeldSpec,
    #[serde(default)]
    pub b: HeldSpec,
}

/// The schemes a crew holds: one (4th edition), or a list (3rd edition's
/// two).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(untagged)]
pub enum HeldSpec {
    #[default]
    None,
    One(crate::encounter::HeldScheme),
    Several(Vec<crate::encounter::HeldScheme>),
}

impl HeldSpec {
    fn schemes(&self) -> &[crate::encounter::HeldScheme] {
        match self {
            HeldSpec::None => &[],
            HeldSpec::One(held) => std::slice::from_ref(held),
            HeldSpec::Several(held) => held,
        }
    }
}

fn default_encounter_size() -> u8 {
    50
}

impl EncounterSpec {
    /// The attacker, deployment, strategy and scheme pool, from the file
    /// and the flips.
    fn decided(
        &self,
        objectives: &crate::encounter::objectives::ObjectiveBook,
    ) -> Result<Decided, ScenarioError> {
        let flipped = match &self.flips {
            Some(flips) => Some(
                crate::encounter::scenario_from_flips(objectives, flips.a, flips.b, &flips.schemes)
                    .map_err(|e| ScenarioError::Setup(format!("the flips: {}", e.0)))?,
            ),
            None => None,
        };
        fn agree<T: PartialEq + std::fmt::Debug + Clone>(
            what: &str,
            written: Option<&T>,
            flipped: Option<&T>,
        ) -> Result<T, ScenarioError> {
            match (written, flipped) {
                (Some(w), Some(f)) if w != f => Err(ScenarioError::Setup(format!(
                    "the flips give the {what} {f:?}, the file says {w:?}"
                ))),
                (Some(value), _) | (None, Some(value)) => Ok(value.clone()),
                (None, None) => Err(ScenarioError::Setup(format!(
                    "the encounter needs its {what} (or the flips that decide it)"
                ))),
            }
        }
        let flipped_strategy = flipped.as_ref().map(|f| f.1.name.clone());
        let flipped_pool = flipped
            .as_ref()
            .map(|f| f.3.clone())
            .filter(|pool| !pool.is_empty());
        let written_pool = Some(&self.scheme_pool).filter(|pool| !pool.is_empty());
        Ok(Decided {
            attacker: agree(
                "attacker",
                self.attacker.as_ref(),
                flipped.as_ref().map(|f| &f.0),
            )?,
            deployment: agree(
                "deployment",
                self.deployment.as_ref(),
                flipped.as_ref().map(|f| &f.2),
            )?,
            strategy: agree(
                "strategy",
                self.strategy.as_ref(),
                flipped_strategy.as_ref(),
            )?,
            scheme_pool: agree("scheme pool", written_pool, flipped_pool.as_ref())?,
        })
    }

    pub(super) fn build(
        &self,
        catalog: &Catalog,
        edition: Edition,
    ) -> Result<crate::encounter::Encounter, ScenarioError> {
        use crate::encounter::{Encounter, EncounterSetup, Step};
        let objectives = catalog.objectives(edition).ok_or_else(|| {
            ScenarioError::Setup(format!("the content has no {} strategies", edition.name()))
        })?;
        let decided = self.decided(objectives)?;
        let strategy = match objectives.strategy(&decided.strategy) {
            Some(_) if self.claimed_strategy => {
                return Err(ScenarioError::Setup(format!(
                    "the content describes {:?}: it is not claimed",
                    decided.strategy
                )));
            }
            Some(def) => def.clone(),
            None if self.claimed_strategy => {
                crate::encounter::objectives::StrategyDef::claimed(&decided.strategy, None)
            }
            None => {
                return Err(ScenarioError::Setup(format!(
                    "no strategy {:?} (a strategy the content lacks needs claimed_strategy = true)",
                    decided.strategy
                )));
            }
        };
        let setup = EncounterSetup {
            size: self.size,
            attacker: decided.attacker,
            deployment: decided.deployment,
            strategy,
            scheme_pool: decided.scheme_pool.clone(),
            schemes: crate::encounter::objectives::ObjectiveBook {
                strategies: Vec::new(),
                schemes: objectives.with_season(&decided.scheme_pool, &self.season),
            },
            offers: [
                crate::hidden::Hidden::unknown(Seat::A),
                crate::hidden::Hidden::unknown(Seat::B),
            ],
        };
        let mut encounter = Encounter::new(setup, edition);
        encounter.leaders = self.leaders.map(Some);
        encounter.step = self.step.unwrap_or(Step::ChooseZone);
        encounter.turn = self.turn;
        encounter.attacker_zone = self.attacker_zone;
        let initiative = self.initiative.unwrap_or(decided.attacker);
        encounter.initiative = initiative;
        encounter.active = initiative;
        encounter.activated = self.activated.clone();
        encounter.strategy_vp = self.strategy_vp;
        encounter.scheme_vp = self.scheme_vp;
        if self.scheme_vp == [0, 0] {
            for score in &self.scheme_scores {
                let vp = &mut encounter.scheme_vp[score.seat.index()];
                *vp = vp.saturating_add(score.vp);
            }
        }
        encounter.explosives = self.explosives.clone();
        encounter.explosives_placed = self.explosives_placed;
        for (seat, held) in [(Seat::A, &self.schemes.a), (Seat::B, &self.schemes.b)] {
            encounter.choices_mut().schemes[seat.index()] = held
                .schemes()
                .iter()
                .map(|scheme| crate::hidden::Hidden::new(seat, scheme.clone()))
                .collect();
        }
        for (seat, revealed) in [(Seat::A, &self.revealed.a), (Seat::B, &self.revealed.b)] {
            for scheme in revealed.schemes() {
                let choices = encounter.choices_mut();
                choices.revealed[seat.index()].push(scheme.name.clone());
                if scheme.target.is_some() {
                    choices.revealed_choices.push((seat, scheme.clone()));
                }
            }
        }
        encounter.choices_mut().scheme_scores = self.scheme_scores.clone();
        Ok(encounter)
    }
}

/// A marker on the table when the scenario starts.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MarkerSpec {
    /// A marker type of the edition's markers file.
    pub name: String,
    #[serde(default)]
    pub owner: Option<Seat>,
    /// Its centre, in inches.
    pub at: [f64; 2],
    #[serde(default)]
    pub z: f64,
}

/// A model as a scenario writes it: its card and its state in one table.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelSpec {
    pub id: ModelId,
    pub owner: Seat,
    /// A stat card from the game content, by its full name ("Name, Title").
    /// Without it the card is written here (name, df, wp, max_health...).
    #[serde(default)]
    pub card: Option<String>,
    /// With `card`: the crew card of the model's crew (by name), whose
    /// abilities for the model's keywords it gains.
    #[serde(default)]
    pub crew_card: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub df: Option<i16>,
    #[serde(default)]
    pub wp: Option<i16>,
    #[serde(default = "default_size")]
    pub sz: u8,
    #[serde(default = "default_base")]
    pub base: u16,
    /// Default: the card's maximum.
    #[serde(default)]
    pub health: Option<u16>,
    #[serde(default)]
    pub max_health: Option<u16>,
    #[serde(default)]
    pub soulstone_user: bool,
    #[serde(default)]
    pub infuses_on_death: bool,
    #[serde(default)]
    pub peon: bool,
    /// A master (it may not be controlled; a third action at 50 soulstones).
    #[serde(default)]
    pub master: bool,
    /// Unique (masters are, always).
    #[serde(default)]
    pub unique: bool,
    #[serde(default)]
    pub henchman: bool,
    /// A minion (default: a peon is one; masters and henchmen are not).
    #[serde(default)]
    pub minion: Option<bool>,
    #[serde(default)]
    pub totem: bool,
    /// 3rd edition: strategies and schemes ignore it.
    #[serde(default)]
    pub insignificant: bool,
    /// Its Sp (Mv in 3rd edition), in inches.
    #[serde(default = "default_speed")]
    pub sp: u8,
    /// Its cost in soulstones (schemes read it: Assassinate's 9 or more).
    #[serde(default)]
    pub cost: u8,
    /// How many a crew may hold (summoning reads it).
    #[serde(default = "default_model_limit")]
    pub model_limit: u8,
    /// The target number a summoning action needs to add it.
    #[serde(default)]
    pub summon_tn: Option<u8>,
    /// 3rd edition: the markers it drops when killed ("Corpse Marker").
    #[serde(default)]
    pub remains_markers: Vec<String>,
    #[serde(default)]
    pub reductions: Vec<Reduction>,
    #[serde(default)]
    pub demise: Option<Demise>,
    #[serde(default)]
    pub rebirth_health: Option<u16>,
    /// The friendly model the rebirth places it beside.
    #[serde(default)]
    pub rebirth_beside: Option<String>,
    #[serde(default)]
    pub keywords: Vec<String>,
    #[serde(default)]
    pub abilities: Vec<crate::ability::Ability>,
    #[serde(default)]
    pub actions: Vec<ActionCard>,
    #[serde(default)]
    pub tokens: Tokens,
    /// Upgrade cards of the content attached from the start, by name, as a
    /// 3rd edition crew's bought at hiring are: what they give is on the
    /// card, and they count for Plentiful and one copy a model.
    #[serde(default)]
    pub upgrades: Vec<String>,
    /// The crew that applied each held token whose rules ask which, as
    /// `[["burning", "b"]]` (a token missing here came from no crew).
    #[serde(default)]
    pub token_from: Vec<(crate::token::Token, Seat)>,
    #[serde(default)]
    pub status: ModelStatus,
    /// Where it stands, in inches from the table's bottom-left corner.
    #[serde(default)]
    pub at: Option<[f64; 2]>,
    /// The elevation its base stands at, in inches.
    #[serde(default)]
    pub z: f64,
}

fn default_size() -> u8 {
    2
}

fn default_base() -> u16 {
    30
}

fn default_speed() -> u8 {
    5
}

fn default_model_limit() -> u8 {
    1
}

impl ModelSpec {
    /// The model's card (from the content, or written in the scenario)
    /// and its state.
    pub fn model(&self, edition: Edition, catalog: &Catalog) -> Result<Model, ScenarioError> {
        let card = match &self.card {
            Some(name) => {
                let crew_card = match &self.crew_card {
                    Some(crew) => Some(catalog.crew_card(edition, crew).ok_or_else(|| {
                        ScenarioError::Setup(format!("no crew card {crew:?} in the content"))
                    })?),
                    None => None,
                };
                catalog
                    .card(edition, name)
                    .ok_or_else(|| {
                        ScenarioError::Setup(format!("no card {name:?} in the content"))
                    })?
                    .model_card_in_crew(crew_card)
            }
            None => {
                let missing = |field: &str| {
                    ScenarioError::Setup(format!(
                        "model {} needs a card, or {field} and the other stats",
                        self.id.0
                    ))
                };
                Arc::new(ModelCard {
                    name: self.name.as_deref().ok_or_else(|| missing("name"))?.into(),
                    df: self.df.ok_or_else(|| missing("df"))?,
                    wp: self.wp.ok_or_else(|| missing("wp"))?,
                    sz: self.sz,
                    base: BaseMm(self.base),
                    max_health: self.max_health.ok_or_else(|| missing("max_health"))?,
                    soulstone_user: self.soulstone_user,
                    infuses_on_death: self.infuses_on_death,
                    peon: self.peon,
                    insignificant: self.insignificant,
                    master: self.master,
                    unique: self.master || self.unique,
                    totem: self.totem,
                    henchman: self.henchman,
                    minion: self.minion.unwrap_or(self.peon),
                    cost: self.cost,
                    speed: self.sp,
                    reductions: self.reductions.clone(),
                    demise: self.demise.clone(),
                    rebirth_health: self.rebirth_health,
                    rebirth_beside: self.rebirth_beside.clone(),
                    keywords: self.keywords.clone(),
                    remains_markers: self.remains_markers.clone(),
                    abilities: self.abilities.clone(),
                    actions: self.actions.clone(),
                    summon_tn: self.summon_tn,
                    model_limit: self.model_limit,
                })
            }
        };
        let mut card = card;
        for name in &self.upgrades {
            let upgrade = catalog.upgrade(edition, name).ok_or_else(|| {
                ScenarioError::Setup(format!("no upgrade {name:?} in the content"))
            })?;
            Arc::make_mut(&mut card).gain_upgrade(upgrade.face());
        }
        Ok(Model {
            health: self.health.unwrap_or(card.max_health),
            upgrades: self.upgrades.clone(),
            tokens: self.tokens.clone(),
            token_from: self.token_from.clone(),
            status: self.status,
            placement: self.at.map(|at| Placement {
                at: point(at),
                z: milli(self.z),
            }),
            ..Model::new(self.id, self.owner, card)
        })
    }
}
