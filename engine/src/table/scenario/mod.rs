//! Table scenario files: a table set out in inches (models, markers,
//! terrain) and a list of checks of what the rules decide on it (measuring,
//! movement, sight, cover). The format is in `docs/scenarios.md`; this
//! module parses text and runs it (no files here).

use serde::{Deserialize, Serialize};

use super::geometry::{TOUCH, V2};
use super::movement::{self, MoveError, MoveKind, Waypoint};
use super::sight::{self, Cover};
use super::svg::{self, Overlay};
use super::{
    BaseMm, Board, Edition, Footprint, Marker, MarkerKind, ObjectId, Piece, Point, Table,
    TableError, Target, Terrain, TerrainPart, Trait, Traits, measure, milli,
};
use crate::Seat;

mod checks;
use checks::check_label;

/// Scenario files are small; anything bigger is a mistake.
pub const MAX_TABLE_SCENARIO_BYTES: usize = 256 * 1024;
pub const MAX_OBJECTS: usize = 200;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableScenario {
    pub name: String,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub description: String,
    pub edition: Edition,
    #[serde(default)]
    pub models: Vec<ModelSpec>,
    #[serde(default)]
    pub markers: Vec<MarkerSpec>,
    #[serde(default)]
    pub terrain: Vec<TerrainSpec>,
    #[serde(default)]
    pub checks: Vec<Check>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelSpec {
    pub name: String,
    pub seat: Seat,
    #[serde(default = "thirty")]
    pub base: u16,
    pub sz: u8,
    pub at: [f64; 2],
    #[serde(default)]
    pub z: f64,
    #[serde(default)]
    pub peon: bool,
    #[serde(default)]
    pub ignores_terrain: bool,
    /// 3rd edition: its engagement range in inches (its longest melee
    /// action's range); 1 unless given.
    #[serde(default = "one_inch")]
    pub engagement: u8,
    /// False for a model without a melee action: it has no engagement range.
    #[serde(default = "yes")]
    pub melee: bool,
}

fn one_inch() -> u8 {
    1
}

fn yes() -> bool {
    true
}

fn thirty() -> u16 {
    30
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkerSpec {
    pub name: String,
    #[serde(default = "thirty")]
    pub base: u16,
    #[serde(default)]
    pub height: f64,
    pub at: [f64; 2],
    #[serde(default)]
    pub z: f64,
    #[serde(default)]
    pub traits: Vec<Trait>,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainSpec {
    pub name: String,
    /// Corners, in order.
    #[serde(default)]
    pub polygon: Option<Vec<[f64; 2]>>,
    /// `[x0, y0, x1, y1]`: an axis-aligned rectangle.
    #[serde(default)]
    pub rect: Option<[f64; 4]>,
    #[serde(default)]
    pub circle: Option<CircleSpec>,
    #[serde(default)]
    pub elevation: f64,
    pub height: f64,
    #[serde(default)]
    pub traits: Vec<Trait>,
    /// With the hazardous trait: the token a model suffering it gains
    /// ("burning" for Hazardous (Burning)); none deals 1 damage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hazard: Option<String>,
    /// More of the same piece with their own footprints and heights (a
    /// ruin's floor and the wall rising above it): one piece for the rules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<TerrainPartSpec>,
}

/// A further part of a terrain piece: exactly one of polygon, rect or
/// circle, and its height (from the piece's elevation).
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainPartSpec {
    #[serde(default)]
    pub polygon: Option<Vec<[f64; 2]>>,
    #[serde(default)]
    pub rect: Option<[f64; 4]>,
    #[serde(default)]
    pub circle: Option<CircleSpec>,
    pub height: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CircleSpec {
    pub center: [f64; 2],
    pub radius: f64,
}

/// The expected kind of cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CoverExpectation {
    None,
    Terrain,
    Elevation,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case", tag = "check")]
pub enum Check {
    Distance {
        a: String,
        b: String,
        inches: f64,
    },
    Within {
        a: String,
        b: String,
        inches: f64,
        expect: bool,
    },
    CompletelyWithin {
        a: String,
        b: String,
        inches: f64,
        expect: bool,
    },
    BaseContact {
        a: String,
        b: String,
        expect: bool,
    },
    Los {
        from: String,
        #[serde(default)]
        to: Option<String>,
        #[serde(default)]
        to_point: Option<[f64; 2]>,
        expect: bool,
    },
    Cover {
        attacker: String,
        target: String,
        expect: CoverExpectation,
    },
    Concealment {
        attacker: String,
        target: String,
        expect: bool,
    },
    Supported {
        model: String,
        expect: bool,
    },
    EffectiveSize {
        model: String,
        expect: f64,
    },
    MeleeReaches {
        attacker: String,
        target: String,
        expect: bool,
    },
    Engaged {
        model: String,
        expect: Vec<String>,
    },
    Pulse {
        source: String,
        inches: f64,
        expect: Vec<String>,
    },
    AreaBetween {
        corners: Vec<String>,
        expect: Vec<String>,
    },
    Move {
        model: String,
        #[serde(default)]
        kind: MoveKindSpec,
        sp: f64,
        path: Vec<Vec<f64>>,
        /// "ok", or the error's code (see `docs/scenarios.md`).
        expect: String,
        #[serde(default)]
        cost: Option<f64>,
        #[serde(default)]
        hazards: Option<Vec<String>>,
        #[serde(default)]
        fall_damage: Option<u8>,
        /// Harmless falls part way, after which the path went on.
        #[serde(default)]
        falls_on_the_way: Option<usize>,
        #[serde(default)]
        left_engagement: Option<Vec<String>>,
    },
    Fall {
        model: String,
        damage: u8,
        to: f64,
        #[serde(default)]
        displaced: Option<f64>,
        #[serde(default)]
        min_choices: Option<usize>,
    },
    Jump {
        model: String,
        to: [f64; 2],
        remaining: f64,
        expect: String,
        #[serde(default)]
        z: Option<f64>,
    },
    Scale {
        model: String,
        terrain: String,
        /// Scale down the terrain it stands on, instead of up.
        #[serde(default)]
        down: bool,
        expect: String,
        #[serde(default)]
        z: Option<f64>,
        /// Where the base's centre ends, in inches.
        #[serde(default)]
        end: Option<[f64; 2]>,
    },
    Place {
        model: String,
        to: [f64; 2],
        #[serde(default)]
        range: Option<f64>,
        #[serde(default)]
        completely: bool,
        expect: String,
        #[serde(default)]
        hazards: Option<Vec<String>>,
    },
    /// A push toward or away that goes around obstacles; the centres end
    /// at most (toward) or at least (away) `distance_after` apart.
    PushAround {
        model: String,
        toward: [f64; 2],
        inches: f64,
        #[serde(default)]
        away: bool,
        distance_after: f64,
        /// The path must stay clear of this terrain's footprint band in x
        /// (so it really went around), if given: the final x at least this.
        #[serde(default)]
        end_x_at_least: Option<f64>,
    },
    Push {
        model: String,
        toward: [f64; 2],
        inches: f64,
        #[serde(default)]
        away: bool,
        end: [f64; 2],
    },
    /// `seat`'s friendly table edges in a deployment.
    FriendlyEdges {
        deployment: measure::Deployment,
        seat: crate::Seat,
        expect: Vec<measure::TableEdge>,
    },
    /// Whether a model's centre is in the table half holding `seat`'s
    /// deployment zone (its friendly half, the other player's enemy half).
    InHalf {
        model: String,
        deployment: measure::Deployment,
        seat: crate::Seat,
        expect: bool,
    },
}

#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKindSpec {
    #[default]
    Walk,
    Charge,
    Toward([f64; 2]),
    Away([f64; 2]),
}

#[derive(Debug, thiserror::Error)]
pub enum TableScenarioError {
    #[error("the scenario is larger than {MAX_TABLE_SCENARIO_BYTES} bytes")]
    TooLarge,
    #[error("the scenario cannot be read: {0}")]
    Parse(String),
    #[error("the scenario is not valid: {0}")]
    Invalid(String),
    #[error(transparent)]
    Table(#[from] TableError),
}

/// The outcome of running a scenario's checks.
#[derive(Debug, Clone, Default, Serialize)]
pub struct TableRun {
    pub passed: usize,
    pub failures: Vec<String>,
}

impl TerrainSpec {
    /// The terrain piece this spec describes, with the id it gets.
    pub fn build(&self, id: ObjectId) -> Result<Terrain, TableScenarioError> {
        let footprint = footprint_of(&self.name, &self.polygon, self.rect, &self.circle)?;
        let parts = self
            .parts
            .iter()
            .map(|part| {
                Ok(TerrainPart {
                    footprint: footprint_of(&self.name, &part.polygon, part.rect, &part.circle)?,
                    height: milli(part.height),
                })
            })
            .collect::<Result<Vec<_>, TableScenarioError>>()?;
        let hazard = match &self.hazard {
            None => None,
            Some(_) if !self.traits.contains(&Trait::Hazardous) => {
                return Err(TableScenarioError::Invalid(format!(
                    "terrain {:?} names a hazard effect but is not hazardous: add \"hazardous\" to its traits",
                    self.name
                )));
            }
            Some(name) => Some(crate::token::Token::from_name(name).map_err(|e| {
                TableScenarioError::Invalid(format!("terrain {:?}: {e}", self.name))
            })?),
        };
        Ok(Terrain {
            id,
            name: self.name.clone(),
            footprint,
            elevation: milli(self.elevation),
            height: milli(self.height),
            traits: Traits::from(self.traits.clone()),
            hazard,
            parts,
        })
    }
}

/// The footprint a spec (a piece or a part of one) gives.
fn footprint_of(
    name: &str,
    polygon: &Option<Vec<[f64; 2]>>,
    rect: Option<[f64; 4]>,
    circle: &Option<CircleSpec>,
) -> Result<Footprint, TableScenarioError> {
    Ok(match (polygon, rect, circle) {
        (Some(points), None, None) if points.len() >= 3 => Footprint::Polygon {
            points: points.iter().map(|p| point(*p)).collect(),
        },
        (None, Some([x0, y0, x1, y1]), None) => Footprint::Polygon {
            points: vec![
                point([x0, y0]),
                point([x1, y0]),
                point([x1, y1]),
                point([x0, y1]),
            ],
        },
        (None, None, Some(c)) => Footprint::Circle {
            center: point(c.center),
            radius: milli(c.radius),
        },
        _ => {
            return Err(TableScenarioError::Invalid(format!(
                "terrain {name:?} (or one of its parts) needs exactly one of polygon (3+ corners), rect or circle"
            )));
        }
    })
}

/// Inches, as scenario files write them, to a point on the table.
pub fn point(at: [f64; 2]) -> Point {
    Point {
        x: milli(at[0]),
        y: milli(at[1]),
    }
}

/// A move error as the short code scenario files expect.
pub fn move_error_code(error: &MoveError) -> &'static str {
    match error {
        MoveError::Table(_) => "table",
        MoveError::TooFar { .. } => "too_far",
        MoveError::OffTable { .. } => "off_table",
        MoveError::Impassable { .. } => "impassable",
        MoveError::ThroughModel { .. } => "through_model",
        MoveError::EndsOverlapping { .. } => "ends_overlapping",
        MoveError::NothingToClimb { .. } => "nothing_to_climb",
        MoveError::Slanted { .. } => "slanted",
        MoveError::Unsupported { .. } => "unsupported",
        MoveError::ChargeNotStraight => "charge_not_straight",
        MoveError::PushNotStraight => "push_not_straight",
        MoveError::LeavesEngagement { .. } => "leaves_engagement",
        MoveError::ChargeWhileEngaged => "charge_while_engaged",
        MoveError::WrongDirection { .. } => "wrong_direction",
        MoveError::Illegal(_) => "illegal",
    }
}

impl TableScenario {
    pub fn from_toml(text: &str) -> Result<Self, TableScenarioError> {
        if text.len() > MAX_TABLE_SCENARIO_BYTES {
            return Err(TableScenarioError::TooLarge);
        }
        let scenario: TableScenario =
            toml::from_str(text).map_err(|e| TableScenarioError::Parse(e.to_string()))?;
        scenario.table()?;
        Ok(scenario)
    }

    pub fn from_json(text: &str) -> Result<Self, TableScenarioError> {
        if text.len() > MAX_TABLE_SCENARIO_BYTES {
            return Err(TableScenarioError::TooLarge);
        }
        let scenario: TableScenario =
            serde_json::from_str(text).map_err(|e| TableScenarioError::Parse(e.to_string()))?;
        scenario.table()?;
        Ok(scenario)
    }

    /// The ids objects get: models first, then markers, then terrain, from 1.
    fn ids(&self) -> Vec<(String, ObjectId)> {
        self.models
            .iter()
            .map(|m| m.name.clone())
            .chain(self.markers.iter().map(|m| m.name.clone()))
            .chain(self.terrain.iter().map(|t| t.name.clone()))
            .enumerate()
            .map(|(i, name)| (name, ObjectId(i as u32 + 1)))
            .collect()
    }

    /// The object a check names. Markers may share a name (Pyre markers
    /// are one hazard), but a check must name one object.
    fn id(&self, name: &str) -> Result<ObjectId, TableScenarioError> {
        let mut found = self
            .ids()
            .into_iter()
            .filter(|(n, _)| n == name)
            .map(|(_, id)| id);
        match (found.next(), found.next()) {
            (Some(id), None) => Ok(id),
            (None, _) => Err(TableScenarioError::Invalid(format!(
                "no object is named {name:?}"
            ))),
            (Some(_), Some(_)) => Err(TableScenarioError::Invalid(format!(
                "several objects are named {name:?}"
            ))),
        }
    }

    fn name_of(&self, id: ObjectId) -> String {
        self.ids()
            .into_iter()
            .find(|(_, i)| *i == id)
            .map(|(n, _)| n)
            .unwrap_or_else(|| format!("#{}", id.0))
    }

    /// The table the scenario describes.
    pub fn table(&self) -> Result<Table, TableScenarioError> {
        let ids = self.ids();
        if ids.len() > MAX_OBJECTS {
            return Err(TableScenarioError::Invalid(format!(
                "more than {MAX_OBJECTS} objects"
            )));
        }
        let mut next = ids.iter().map(|(_, id)| *id);
        let mut table = Table::default();
        for m in &self.models {
            table.pieces.push(Piece {
                id: next.next().unwrap_or(ObjectId(0)),
                name: m.name.as_str().into(),
                seat: m.seat,
                base: BaseMm(m.base),
                sz: m.sz,
                at: point(m.at),
                z: milli(m.z),
                peon: m.peon,
                ignores_terrain: m.ignores_terrain,
                engagement: m.melee.then_some(m.engagement),
            });
        }
        for m in &self.markers {
            std::sync::Arc::make_mut(&mut table.markers).push(Marker {
                id: next.next().unwrap_or(ObjectId(0)),
                name: m.name.clone(),
                kind: MarkerKind::Other,
                owner: None,
                base: BaseMm(m.base),
                height: milli(m.height),
                at: point(m.at),
                z: milli(m.z),
                traits: Traits::from(m.traits.clone()),
            });
        }
        let terrain = std::sync::Arc::make_mut(&mut table.terrain).pieces_mut();
        for t in &self.terrain {
            terrain.push(t.build(next.next().unwrap_or(ObjectId(0)))?);
        }
        Ok(table)
    }

    /// Runs every check; a failure is a message, not an error.
    pub fn check(&self) -> Result<TableRun, TableScenarioError> {
        let table = self.table()?;
        let board = Board::new(&table, self.edition);
        let mut run = TableRun::default();
        for (index, check) in self.checks.iter().enumerate() {
            match self.run_check(&board, check) {
                Ok(None) => run.passed += 1,
                Ok(Some(failure)) => run.failures.push(format!(
                    "check {} ({}): {failure}",
                    index + 1,
                    check_label(check)
                )),
                Err(e) => {
                    run.failures
                        .push(format!("check {} ({}): {e}", index + 1, check_label(check)))
                }
            }
        }
        Ok(run)
    }

    /// The table as SVG with the sight lines of every `los` check.
    pub fn svg(&self) -> Result<String, TableScenarioError> {
        let table = self.table()?;
        let board = Board::new(&table, self.edition);
        let mut overlays = Vec::new();
        for check in &self.checks {
            if let Check::Los {
                from, to, to_point, ..
            } = check
            {
                let target = self.target(to.as_deref(), *to_point)?;
                let report = sight::sight(&board, Target::Object(self.id(from)?), target)?;
                let viewer = board.body(Target::Object(self.id(from)?))?;
                let goal = board.body(target)?;
                overlays.push(match report.line {
                    Some((x0, y0, x1, y1)) => Overlay {
                        from: V2::new(x0, y0),
                        to: V2::new(x1, y1),
                        clear: true,
                    },
                    None => Overlay {
                        from: viewer.center,
                        to: goal.center,
                        clear: false,
                    },
                });
            }
        }
        Ok(svg::render(&board, &svg::Picture::lines(overlays)))
    }

    fn target(
        &self,
        name: Option<&str>,
        at: Option<[f64; 2]>,
    ) -> Result<Target, TableScenarioError> {
        match (name, at) {
            (Some(name), None) => Ok(Target::Object(self.id(name)?)),
            (None, Some(at)) => Ok(Target::Point {
                at: point(at),
                z: 0,
            }),
            _ => Err(TableScenarioError::Invalid(
                "a los check needs exactly one of to and to_point".to_string(),
            )),
        }
    }

    fn names(&self, ids: &[ObjectId]) -> Vec<String> {
        let mut names: Vec<String> = ids.iter().map(|id| self.name_of(*id)).collect();
        names.sort();
        names
    }
}
