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

    fn run_check(
        &self,
        board: &Board,
        check: &Check,
    ) -> Result<Option<String>, TableScenarioError> {
        let body = |name: &str| -> Result<super::Body, TableScenarioError> {
            Ok(board.body(Target::Object(self.id(name)?))?)
        };
        let object = |name: &str| -> Result<Target, TableScenarioError> {
            Ok(Target::Object(self.id(name)?))
        };
        let compare_f = |what: &str, expected: f64, actual: f64| {
            ((expected - actual).abs() > 2.0 * TOUCH)
                .then(|| format!("{what}: expected {expected}, got {actual:.4}"))
        };
        let compare_b = |what: &str, expected: bool, actual: bool| {
            (expected != actual).then(|| format!("{what}: expected {expected}, got {actual}"))
        };
        Ok(match check {
            Check::Distance { a, b, inches } => compare_f(
                "distance",
                *inches,
                measure::distance(board.edition, &body(a)?, &body(b)?),
            ),
            Check::Within {
                a,
                b,
                inches,
                expect,
            } => compare_b(
                "within",
                *expect,
                measure::within(board.edition, &body(a)?, &body(b)?, *inches),
            ),
            Check::CompletelyWithin {
                a,
                b,
                inches,
                expect,
            } => compare_b(
                "completely within",
                *expect,
                measure::completely_within(&body(a)?, &body(b)?, *inches),
            ),
            Check::BaseContact { a, b, expect } => compare_b(
                "base contact",
                *expect,
                measure::base_contact(&body(a)?, &body(b)?),
            ),
            Check::Los {
                from,
                to,
                to_point,
                expect,
            } => {
                let target = self.target(to.as_deref(), *to_point)?;
                compare_b(
                    "line of sight",
                    *expect,
                    sight::line_of_sight(board, object(from)?, target)?,
                )
            }
            Check::Cover {
                attacker,
                target,
                expect,
            } => {
                let actual = match sight::cover(board, object(attacker)?, object(target)?)? {
                    None => CoverExpectation::None,
                    Some(Cover::Elevation) => CoverExpectation::Elevation,
                    Some(Cover::Terrain(_)) => CoverExpectation::Terrain,
                };
                (actual != *expect).then(|| format!("cover: expected {expect:?}, got {actual:?}"))
            }
            Check::Concealment {
                attacker,
                target,
                expect,
            } => compare_b(
                "concealment",
                *expect,
                sight::concealment(board, object(attacker)?, object(target)?)?.is_some(),
            ),
            Check::FriendlyEdges {
                deployment,
                seat,
                expect,
            } => {
                let actual = measure::Layout {
                    deployment: *deployment,
                }
                .friendly_edges(*seat);
                (actual != *expect)
                    .then(|| format!("friendly edges: expected {expect:?}, got {actual:?}"))
            }
            Check::InHalf {
                model,
                deployment,
                seat,
                expect,
            } => {
                let half = measure::Layout {
                    deployment: *deployment,
                }
                .half(*seat);
                let center = body(model)?.center;
                compare_b("in the half", *expect, half.signed_distance(center) <= 0.0)
            }
            Check::Supported { model, expect } => {
                let b = body(model)?;
                compare_b(
                    "supported",
                    *expect,
                    measure::supported(board, b.center, b.radius, b.z),
                )
            }
            Check::EffectiveSize { model, expect } => {
                compare_f("effective size", *expect, body(model)?.effective_size())
            }
            Check::MeleeReaches {
                attacker,
                target,
                expect,
            } => compare_b(
                "melee reaches",
                *expect,
                measure::melee_reaches(&body(attacker)?, &body(target)?),
            ),
            Check::Engaged { model, expect } => compare_names(
                "engaged with",
                expect,
                &self.names(&measure::engaged_with(board, self.id(model)?)?),
            ),
            Check::Pulse {
                source,
                inches,
                expect,
            } => compare_names(
                "pulse",
                expect,
                &self.names(&measure::pulse(board, self.id(source)?, *inches)?),
            ),
            Check::AreaBetween { corners, expect } => {
                let ids: Vec<ObjectId> = corners
                    .iter()
                    .map(|c| self.id(c))
                    .collect::<Result<_, _>>()?;
                compare_names(
                    "area between",
                    expect,
                    &self.names(&measure::area_between(board, &ids)?),
                )
            }
            Check::Move {
                model,
                kind,
                sp,
                path,
                expect,
                cost,
                hazards,
                fall_damage,
                falls_on_the_way,
                left_engagement,
            } => {
                let waypoints = path
                    .iter()
                    .map(|p| match p.as_slice() {
                        [x, y] => Ok(Waypoint {
                            x: milli(*x),
                            y: milli(*y),
                            z: 0,
                        }),
                        [x, y, z] => Ok(Waypoint {
                            x: milli(*x),
                            y: milli(*y),
                            z: milli(*z),
                        }),
                        _ => Err(TableScenarioError::Invalid(
                            "a waypoint is [x, y] or [x, y, z]".to_string(),
                        )),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                // A path of [x, y] points keeps the model's elevation.
                let start_z = board.piece(self.id(model)?)?.z;
                let waypoints: Vec<Waypoint> = waypoints
                    .into_iter()
                    .zip(path)
                    .map(|(w, p)| {
                        if p.len() == 2 {
                            Waypoint { z: start_z, ..w }
                        } else {
                            w
                        }
                    })
                    .collect();
                let kind = match kind {
                    MoveKindSpec::Walk => MoveKind::Walk,
                    MoveKindSpec::Charge => MoveKind::Charge,
                    MoveKindSpec::Toward(p) => MoveKind::Toward {
                        x: milli(p[0]),
                        y: milli(p[1]),
                    },
                    MoveKindSpec::Away(p) => MoveKind::Away {
                        x: milli(p[0]),
                        y: milli(p[1]),
                    },
                };
                match movement::validate_move(board, self.id(model)?, &waypoints, kind, *sp) {
                    Err(error) => (move_error_code(&error) != expect).then(|| {
                        format!(
                            "move: expected {expect}, got {} ({error})",
                            move_error_code(&error)
                        )
                    }),
                    Ok(outcome) if expect != "ok" => Some(format!(
                        "move: expected {expect}, but it is legal ({outcome:?})"
                    )),
                    Ok(outcome) => cost
                        .and_then(|c| compare_f("cost", c, outcome.cost))
                        .or_else(|| {
                            hazards
                                .as_ref()
                                .and_then(|h| compare_names("hazards", h, &outcome.hazards))
                        })
                        .or_else(|| {
                            fall_damage.and_then(|d| {
                                let got = outcome.fall.as_ref().map_or(0, |f| f.damage);
                                (d != got).then(|| format!("fall damage: expected {d}, got {got}"))
                            })
                        })
                        .or_else(|| {
                            falls_on_the_way.and_then(|n| {
                                let got = outcome.falls_on_the_way.len();
                                (n != got)
                                    .then(|| format!("falls on the way: expected {n}, got {got}"))
                            })
                        })
                        .or_else(|| {
                            left_engagement.as_ref().and_then(|l| {
                                compare_names(
                                    "left engagement",
                                    l,
                                    &self.names(&outcome.left_engagement),
                                )
                            })
                        }),
                }
            }
            Check::Fall {
                model,
                damage,
                to,
                displaced,
                min_choices,
            } => {
                let fall = movement::fall(board, &body(model)?);
                match fall {
                    Err(e) => Some(format!("fall: {e}")),
                    Ok(fall) => (fall.damage != *damage)
                        .then(|| format!("fall damage: expected {damage}, got {}", fall.damage))
                        .or_else(|| compare_f("landing elevation", *to, fall.to))
                        .or_else(|| {
                            displaced.and_then(|d| {
                                ((d - fall.displaced).abs() > 0.011).then(|| {
                                    format!("displaced: expected {d}, got {:.3}", fall.displaced)
                                })
                            })
                        })
                        .or_else(|| {
                            min_choices.and_then(|n| {
                                (fall.choices.len() < n).then(|| {
                                    format!(
                                        "choices: expected at least {n}, got {:?}",
                                        fall.choices
                                    )
                                })
                            })
                        }),
                }
            }
            Check::Jump {
                model,
                to,
                remaining,
                expect,
                z,
            } => outcome_check(
                "jump",
                expect,
                movement::jump(board, self.id(model)?, point(*to), *remaining),
                |w| z.and_then(|z| compare_f("landing elevation", z, super::inches(w.z))),
            ),
            Check::Scale {
                model,
                terrain,
                down,
                expect,
                z,
                end,
            } => outcome_check(
                "scale",
                expect,
                if *down {
                    movement::scale_down(board, self.id(model)?, self.id(terrain)?)
                } else {
                    movement::scale_up(board, self.id(model)?, self.id(terrain)?)
                },
                |w| {
                    z.and_then(|z| compare_f("elevation", z, super::inches(w.z)))
                        .or_else(|| end.and_then(|end| compare_end("scale", end, w)))
                },
            ),
            Check::Place {
                model,
                to,
                range,
                completely,
                expect,
                hazards,
            } => outcome_check(
                "place",
                expect,
                movement::place(board, self.id(model)?, point(*to), *range, *completely),
                |outcome| {
                    hazards
                        .as_ref()
                        .and_then(|h| compare_names("hazards", h, &outcome.hazards))
                },
            ),
            Check::PushAround {
                model,
                toward,
                inches,
                away,
                distance_after,
                end_x_at_least,
            } => {
                let path =
                    movement::push_around(board, self.id(model)?, point(*toward), *inches, *away)
                        .map_err(|e| TableScenarioError::Invalid(e.to_string()))?;
                let start = body(model)?.center;
                let end = path.last().map_or(start, |w| Point { x: w.x, y: w.y }.v2());
                let reference = V2::new(toward[0], toward[1]);
                let apart = end.dist(reference);
                let travelled: f64 = std::iter::once(start)
                    .chain(path.iter().map(|w| Point { x: w.x, y: w.y }.v2()))
                    .collect::<Vec<_>>()
                    .windows(2)
                    .map(|w| w[0].dist(w[1]))
                    .sum();
                let wrong_way = std::iter::once(start)
                    .chain(path.iter().map(|w| Point { x: w.x, y: w.y }.v2()))
                    .collect::<Vec<_>>()
                    .windows(2)
                    .any(|w| {
                        let (before, after) = (w[0].dist(reference), w[1].dist(reference));
                        if *away {
                            after < before - 2.0 * TOUCH
                        } else {
                            after > before + 2.0 * TOUCH
                        }
                    });
                if wrong_way {
                    Some("push around: a step moved the reference points the wrong way".to_string())
                } else if travelled > inches + 2.0 * TOUCH {
                    Some(format!(
                        "push around: travelled {travelled:.3}\" of {inches}\""
                    ))
                } else if (!away && apart > distance_after + 2.0 * TOUCH)
                    || (*away && apart < distance_after - 2.0 * TOUCH)
                {
                    Some(format!(
                        "push around: ended {apart:.3}\" from the point, expected {distance_after}\""
                    ))
                } else {
                    end_x_at_least.and_then(|x| {
                        (end.x < x).then(|| {
                            format!(
                                "push around: ended at x = {:.3}, expected at least {x}",
                                end.x
                            )
                        })
                    })
                }
            }
            Check::Push {
                model,
                toward,
                inches,
                away,
                end,
            } => {
                let w =
                    movement::push_directly(board, self.id(model)?, point(*toward), *inches, *away)
                        .map_err(|e| TableScenarioError::Invalid(e.to_string()))?;
                compare_end("push", *end, &w)
            }
        })
    }
}

/// Where a base's centre ended against where the check expects it, in
/// inches, to within the rounding of the storage grid.
fn compare_end(what: &str, end: [f64; 2], w: &movement::Waypoint) -> Option<String> {
    let got = Point { x: w.x, y: w.y }.v2();
    (got.dist(V2::new(end[0], end[1])) > 2.0 * TOUCH).then(|| {
        format!(
            "{what} end: expected {end:?}, got ({:.3}, {:.3})",
            got.x, got.y
        )
    })
}

/// Compares names in any order (`actual` comes sorted).
fn compare_names(what: &str, expected: &[String], actual: &[String]) -> Option<String> {
    let mut expected = expected.to_vec();
    expected.sort();
    (expected != actual).then(|| format!("{what}: expected {expected:?}, got {actual:?}"))
}

fn outcome_check<T: std::fmt::Debug>(
    what: &str,
    expect: &str,
    result: Result<T, MoveError>,
    then: impl FnOnce(&T) -> Option<String>,
) -> Option<String> {
    match result {
        Err(error) => (move_error_code(&error) != expect).then(|| {
            format!(
                "{what}: expected {expect}, got {} ({error})",
                move_error_code(&error)
            )
        }),
        Ok(outcome) if expect != "ok" => Some(format!(
            "{what}: expected {expect}, but it is legal ({outcome:?})"
        )),
        Ok(outcome) => then(&outcome),
    }
}

fn check_label(check: &Check) -> &'static str {
    match check {
        Check::Distance { .. } => "distance",
        Check::Within { .. } => "within",
        Check::CompletelyWithin { .. } => "completely_within",
        Check::BaseContact { .. } => "base_contact",
        Check::Los { .. } => "los",
        Check::Cover { .. } => "cover",
        Check::Concealment { .. } => "concealment",
        Check::Supported { .. } => "supported",
        Check::EffectiveSize { .. } => "effective_size",
        Check::MeleeReaches { .. } => "melee_reaches",
        Check::Engaged { .. } => "engaged",
        Check::Pulse { .. } => "pulse",
        Check::AreaBetween { .. } => "area_between",
        Check::Move { .. } => "move",
        Check::Fall { .. } => "fall",
        Check::Jump { .. } => "jump",
        Check::Scale { .. } => "scale",
        Check::Place { .. } => "place",
        Check::Push { .. } => "push",
        Check::PushAround { .. } => "push_around",
        Check::FriendlyEdges { .. } => "friendly_edges",
        Check::InHalf { .. } => "in_half",
    }
}
