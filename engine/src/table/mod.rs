//! The table: where things are, and the rules that measure, move and see
//! across it (4th edition "The Table" to "Terrain", with the 3rd edition
//! differences where an [`Edition`] is asked for). Pure like the rest of the
//! engine; `docs/table.md` describes the model and its documented limits.
//!
//! Positions and heights are stored as integer thousandths of an inch
//! ([`Milli`]) so a saved table replays identically; the rules compute in
//! f64 inches ([`geometry`]) with one tolerance for touching, [`TOUCH`].

pub mod blast;
pub mod geometry;
pub mod measure;
pub mod movement;
pub mod scenario;
pub mod sight;
pub mod svg;

use serde::{Deserialize, Serialize};

use super::{Edition, Seat};
pub use geometry::TOUCH;
use geometry::{Shape, V2};

/// Thousandths of an inch.
pub type Milli = i32;

pub const MILLI_PER_INCH: f64 = 1000.0;
/// The table is 36" square.
pub const TABLE_SIZE: Milli = 36_000;

pub fn inches(value: Milli) -> f64 {
    f64::from(value) / MILLI_PER_INCH
}

/// Inches to the storage grid (rounded to the nearest thousandth).
pub fn milli(value: f64) -> Milli {
    (value * MILLI_PER_INCH).round() as Milli
}

/// A point on the table, in thousandths of an inch from the bottom-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Point {
    pub x: Milli,
    pub y: Milli,
}

impl Point {
    pub fn v2(self) -> V2 {
        V2::new(inches(self.x), inches(self.y))
    }
    pub fn from_v2(v: V2) -> Point {
        Point {
            x: milli(v.x),
            y: milli(v.y),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ObjectId(pub u32);

/// A base diameter in millimetres, as stat cards give it (30, 40, 50...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BaseMm(pub u16);

impl BaseMm {
    pub const SMALL: BaseMm = BaseMm(30);
    pub fn radius(self) -> f64 {
        f64::from(self.0) / 25.4 / 2.0
    }
}

/// A model on the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    pub id: ObjectId,
    pub name: std::sync::Arc<str>,
    pub seat: Seat,
    pub base: BaseMm,
    pub sz: u8,
    pub at: Point,
    /// The elevation of the base: 0 on the table, else the top of the
    /// climbable terrain supporting it.
    pub z: Milli,
    /// Peons never engage and enemies may move through them.
    pub peon: bool,
    /// Ignores terrain while moving (Flight and the like).
    pub ignores_terrain: bool,
    /// 3rd edition: its engagement range, the reach of its longest melee
    /// action in inches; none without a melee action. (4th edition models
    /// engage within 1", whatever their actions.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engagement: Option<u8>,
}

impl Piece {
    /// The piece a model with `card` makes, standing at `spot`.
    pub fn of_card(
        id: crate::model::ModelId,
        card: &crate::model::ModelCard,
        seat: Seat,
        spot: crate::model::Placement,
    ) -> Piece {
        Piece {
            id: id.object(),
            name: card.name.clone(),
            seat,
            base: card.base,
            sz: card.sz,
            at: spot.at,
            z: spot.z,
            peon: card.peon,
            ignores_terrain: false,
            engagement: card.melee_reach(),
        }
    }
}

/// What a marker is for.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum MarkerKind {
    /// Left where a model was killed (4th edition).
    Remains,
    Scheme,
    Strategy,
    /// Made by an ability, or a table scenario's own marker.
    #[default]
    Other,
}

/// A marker: 30 mm and Ht 0 unless stated. With terrain traits it is also
/// terrain (an Ice Pillar, a Pyre marker).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    pub id: ObjectId,
    pub name: String,
    #[serde(default)]
    pub kind: MarkerKind,
    /// The player who made it, for markers that have one (scheme markers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Seat>,
    pub base: BaseMm,
    pub height: Milli,
    pub at: Point,
    pub z: Milli,
    pub traits: Traits,
}

impl Marker {
    /// Its base as the table rules see it, without building a table.
    pub fn body(&self) -> Body {
        Body {
            id: Some(self.id),
            center: self.at.v2(),
            radius: self.base.radius(),
            z: inches(self.z),
            size: inches(self.height),
            seat: None,
            peon: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Footprint {
    Circle { center: Point, radius: Milli },
    Polygon { points: Vec<Point> },
}

/// A terrain piece: a footprint standing on `elevation` (0 for the table,
/// more for a bridge deck or a box on a roof) and rising `height` above it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terrain {
    pub id: ObjectId,
    pub name: String,
    pub footprint: Footprint,
    pub elevation: Milli,
    pub height: Milli,
    pub traits: Traits,
    /// What its hazardous trait does to a model that suffers it: gain this
    /// token (an enemy token, the terrain being no crew's), as a lava pool
    /// of Hazardous (Burning) does. None: 1 damage, the rules' default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hazard: Option<crate::token::Token>,
    /// More of the same piece, each with its own footprint and height: a
    /// ruin whose floor is low while one wall still rises far above it
    /// (Complicated Terrain). The rules see one piece: a model standing on
    /// any part stands on the piece, which then blocks none of its sight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<TerrainPart>,
}

/// A further part of a terrain piece: same elevation, traits and name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerrainPart {
    pub footprint: Footprint,
    pub height: Milli,
}

impl Terrain {
    pub fn top(&self) -> Milli {
        self.elevation + self.height
    }
}

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Trait {
    Blocking,
    Climbable,
    Concealing,
    Dense,
    Destructible,
    Hazardous,
    Impassable,
    Severe,
}

impl Trait {
    pub const ALL: [Trait; 8] = [
        Trait::Blocking,
        Trait::Climbable,
        Trait::Concealing,
        Trait::Dense,
        Trait::Destructible,
        Trait::Hazardous,
        Trait::Impassable,
        Trait::Severe,
    ];
    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of terrain traits (written as a list in files).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "Vec<Trait>", into = "Vec<Trait>")]
pub struct Traits(u8);

impl Traits {
    pub fn has(self, t: Trait) -> bool {
        self.0 & t.bit() != 0
    }
    pub fn with(self, t: Trait) -> Traits {
        Traits(self.0 | t.bit())
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl From<Vec<Trait>> for Traits {
    fn from(list: Vec<Trait>) -> Self {
        list.into_iter().fold(Traits::default(), Traits::with)
    }
}

impl From<Traits> for Vec<Trait> {
    fn from(traits: Traits) -> Self {
        Trait::ALL.into_iter().filter(|t| traits.has(*t)).collect()
    }
}

/// Everything on the table: the stored, serialisable state.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Table {
    #[serde(default)]
    pub pieces: Vec<Piece>,
    #[serde(default)]
    pub markers: std::sync::Arc<Vec<Marker>>,
    /// Shared with the game state: the terrain is fixed for the game, and
    /// a table is built for every rules check.
    #[serde(default)]
    pub terrain: std::sync::Arc<TerrainSet>,
    /// The areas Aura tokens make terrain, worked out from the models'
    /// tokens each time the table is built (never stored).
    #[serde(skip)]
    pub auras: Vec<AuraArea>,
}

/// The area within some inches of a model holding an Aura token: terrain
/// of the aura's trait for every model but its holder and those friendly
/// to the token.
#[derive(Debug, Clone, PartialEq)]
pub struct AuraArea {
    pub holder: ObjectId,
    /// "Aura (Hazardous) of Odessa Vane": each aura is a piece of its own.
    pub name: String,
    pub center: Point,
    pub z: Milli,
    /// The holder's base radius and the aura's reach, in inches.
    pub radius: f64,
    /// Up and down from the holder's base, in inches, as far as it reaches.
    pub reach: f64,
    pub traits: Traits,
    /// The crew the token is friendly to (none: it counts as no crew's).
    pub friendly_to: Option<Seat>,
}

/// Whether a base of `base` at `spot` may touch a hazardous terrain piece
/// or marker: a quick look at their bounds, so a board is built to check
/// hazards only for a model near one (every action asks).
pub fn near_hazard(
    terrain: &TerrainSet,
    markers: &[Marker],
    spot: crate::model::Placement,
    base: BaseMm,
) -> bool {
    let (center, radius) = (spot.at.v2(), base.radius() + 0.1);
    let near =
        |o: &Obstacle| o.has(Trait::Hazardous) && o.bounds.0.dist(center) <= o.bounds.1 + radius;
    terrain.obstacles().iter().any(near)
        || markers.iter().any(|m| {
            m.traits.has(Trait::Hazardous) && m.at.v2().dist(center) <= m.base.radius() + radius
        })
}

impl AuraArea {
    /// The area `aura` makes around a model of base `base` standing at `spot`.
    pub fn new(
        holder: ObjectId,
        name: String,
        spot: crate::model::Placement,
        base: BaseMm,
        aura: crate::token::TokenAura,
        friendly_to: Option<Seat>,
    ) -> Self {
        let reach = f64::from(aura.inches);
        AuraArea {
            holder,
            name,
            center: spot.at,
            z: spot.z,
            radius: base.radius() + reach,
            reach,
            traits: Traits::default().with(aura.terrain),
            friendly_to,
        }
    }
}

/// A table's terrain pieces, with the obstacles the rules check worked out
/// once and shared by every board built from them: a game builds a board
/// for nearly every command it checks, and the terrain never changes.
/// Serialised as the list of pieces alone.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TerrainSet {
    pieces: Vec<Terrain>,
    #[serde(skip)]
    obstacles: std::sync::OnceLock<std::sync::Arc<[Obstacle]>>,
}

impl TerrainSet {
    /// To change the pieces (a table being set up); the obstacles are
    /// worked out again.
    pub fn pieces_mut(&mut self) -> &mut Vec<Terrain> {
        self.obstacles = std::sync::OnceLock::new();
        &mut self.pieces
    }

    fn obstacles(&self) -> std::sync::Arc<[Obstacle]> {
        std::sync::Arc::clone(
            self.obstacles
                .get_or_init(|| self.pieces.iter().flat_map(Obstacle::of_terrain).collect()),
        )
    }
}

impl std::ops::Deref for TerrainSet {
    type Target = [Terrain];

    fn deref(&self) -> &[Terrain] {
        &self.pieces
    }
}

impl From<Vec<Terrain>> for TerrainSet {
    fn from(pieces: Vec<Terrain>) -> Self {
        TerrainSet {
            pieces,
            obstacles: std::sync::OnceLock::new(),
        }
    }
}

/// Equal pieces make equal terrain: the obstacles follow from them.
impl PartialEq for TerrainSet {
    fn eq(&self, other: &Self) -> bool {
        self.pieces == other.pieces
    }
}

impl Eq for TerrainSet {}

/// What a query refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    Object(ObjectId),
    /// A point on the table (or on terrain at `z`), seen as a Ht 0 model.
    Point {
        at: Point,
        z: Milli,
    },
}

/// A disc-shaped object as the rules see it, in inches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body {
    pub id: Option<ObjectId>,
    pub center: V2,
    pub radius: f64,
    pub z: f64,
    /// Sz for a model, Ht for a marker, 0 for a point.
    pub size: f64,
    pub seat: Option<Seat>,
    pub peon: bool,
}

impl Body {
    /// Size plus elevation: what sight lines compare against heights.
    pub fn effective_size(&self) -> f64 {
        self.size + self.z
    }
    pub fn shape(&self) -> Shape {
        Shape::Circle {
            center: self.center,
            radius: self.radius,
        }
    }
}

/// A terrain piece (or a marker with terrain traits) prepared for queries.
#[derive(Debug, Clone, PartialEq)]
pub struct Obstacle {
    pub id: ObjectId,
    pub name: String,
    pub shape: Shape,
    pub bounds: (V2, f64),
    pub bottom: f64,
    pub top: f64,
    pub traits: Traits,
    /// An aura's: the model holding it, which its own aura does not affect.
    pub around: Option<ObjectId>,
    /// An aura's: the crew it is friendly to, whose models choose to be
    /// unaffected by it.
    pub friendly_to: Option<Seat>,
}

impl Obstacle {
    /// One obstacle per part of the piece, all with the piece's id: what
    /// asks for "the piece" compares ids.
    fn of_terrain(t: &Terrain) -> impl Iterator<Item = Self> + '_ {
        let first = std::iter::once((&t.footprint, t.height));
        let parts = t.parts.iter().map(|part| (&part.footprint, part.height));
        first.chain(parts).map(|(footprint, height)| {
            let shape = footprint_shape(footprint);
            Obstacle {
                id: t.id,
                name: t.name.clone(),
                bounds: shape.bounding_circle(),
                shape,
                bottom: inches(t.elevation),
                top: inches(t.elevation + height),
                traits: t.traits,
                around: None,
                friendly_to: None,
            }
        })
    }

    fn of_aura(aura: &AuraArea) -> Self {
        let shape = Shape::Circle {
            center: aura.center.v2(),
            radius: aura.radius,
        };
        let z = inches(aura.z);
        Obstacle {
            id: aura.holder,
            name: aura.name.clone(),
            bounds: shape.bounding_circle(),
            shape,
            bottom: (z - aura.reach).max(0.0),
            top: z + aura.reach,
            traits: aura.traits,
            around: Some(aura.holder),
            friendly_to: aura.friendly_to,
        }
    }

    /// Whether it affects `body`: terrain affects every model; an aura
    /// neither its holder nor a model friendly to it.
    pub fn affects(&self, body: &Body) -> bool {
        self.around.is_none_or(|holder| body.id != Some(holder))
            && (self.friendly_to.is_none() || self.friendly_to != body.seat)
    }

    pub fn has(&self, t: Trait) -> bool {
        self.traits.has(t)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("there is nothing with id {0} on the table")]
    UnknownObject(u32),
    #[error("object {0} is not a model")]
    NotAModel(u32),
    #[error("{0}")]
    Invalid(String),
}

/// A table prepared for queries: shapes in inches, with their bounds.
/// Build once per table state; every rule query borrows it.
#[derive(Debug, Clone)]
pub struct Board<'t> {
    pub table: &'t Table,
    pub edition: Edition,
    /// The terrain's, shared with the table's terrain.
    terrain: std::sync::Arc<[Obstacle]>,
    /// The markers' with terrain traits.
    markers: Vec<Obstacle>,
}

/// How tall an impassable marker of no height stands for movement: enough
/// to stop a model on the ground, not one above it.
const FLAT_IMPASSABLE_HEIGHT: f64 = 0.1;

impl<'t> Board<'t> {
    /// The table's rules of the board's edition.
    pub fn rules(&self) -> &'static crate::rules::TableRules {
        &self.edition.rules().table
    }

    pub fn new(table: &'t Table, edition: Edition) -> Self {
        let markers = table
            .markers
            .iter()
            .filter(|m| !m.traits.is_empty())
            .map(|m| {
                let shape = Shape::Circle {
                    center: m.at.v2(),
                    radius: m.base.radius(),
                };
                // An impassable marker of no height (Turf War's) still
                // stops the models at its level.
                let height = if m.height == 0 && m.traits.has(Trait::Impassable) {
                    FLAT_IMPASSABLE_HEIGHT
                } else {
                    inches(m.height)
                };
                Obstacle {
                    id: m.id,
                    name: m.name.clone(),
                    bounds: shape.bounding_circle(),
                    shape,
                    bottom: inches(m.z),
                    top: inches(m.z) + height,
                    traits: m.traits,
                    around: None,
                    friendly_to: None,
                }
            })
            .chain(table.auras.iter().map(Obstacle::of_aura))
            .collect();
        Board {
            table,
            edition,
            terrain: table.terrain.obstacles(),
            markers,
        }
    }

    /// Every obstacle: the terrain, then the markers with terrain traits.
    pub fn obstacles(&self) -> impl Iterator<Item = &Obstacle> + '_ {
        self.terrain.iter().chain(&self.markers)
    }

    pub fn piece(&self, id: ObjectId) -> Result<&'t Piece, TableError> {
        self.table
            .pieces
            .iter()
            .find(|p| p.id == id)
            .ok_or_else(|| {
                if self.table.markers.iter().any(|m| m.id == id)
                    || self.table.terrain.iter().any(|t| t.id == id)
                {
                    TableError::NotAModel(id.0)
                } else {
                    TableError::UnknownObject(id.0)
                }
            })
    }

    pub fn body(&self, target: Target) -> Result<Body, TableError> {
        match target {
            Target::Point { at, z } => Ok(Body {
                id: None,
                center: at.v2(),
                radius: 0.0,
                z: inches(z),
                size: 0.0,
                seat: None,
                peon: false,
            }),
            Target::Object(id) => {
                if let Some(p) = self.table.pieces.iter().find(|p| p.id == id) {
                    return Ok(piece_body(p));
                }
                if let Some(m) = self.table.markers.iter().find(|m| m.id == id) {
                    return Ok(m.body());
                }
                Err(TableError::UnknownObject(id.0))
            }
        }
    }

    pub fn obstacle(&self, id: ObjectId) -> Result<&Obstacle, TableError> {
        self.obstacles()
            .find(|o| o.id == id)
            .ok_or(TableError::UnknownObject(id.0))
    }

    /// Every model's body.
    pub fn bodies(&self) -> impl Iterator<Item = Body> + '_ {
        self.table.pieces.iter().map(piece_body)
    }
}

/// A model's base, if it stands on the table: the body its piece gives,
/// without building a table.
pub fn model_body(model: &crate::model::Model) -> Option<Body> {
    let spot = model.placement?;
    Some(Body {
        id: Some(model.id.object()),
        center: spot.at.v2(),
        radius: model.card.base.radius(),
        z: inches(spot.z),
        size: f64::from(model.card.sz),
        seat: Some(model.owner),
        peon: model.card.peon,
    })
}

/// Centres for a base of `base` touching `around`, on `count` even
/// bearings (the first due east).
pub fn contact_points(around: &Body, base: BaseMm, count: u16) -> impl Iterator<Item = Point> + '_ {
    // Half a touch out: rounding to thousandths never makes them overlap.
    let reach = around.radius + base.radius() + geometry::TOUCH / 2.0;
    (0..count).map(move |k| {
        let angle = std::f64::consts::TAU * f64::from(k) / f64::from(count);
        Point::from_v2(
            around
                .center
                .plus(geometry::V2::new(angle.cos(), angle.sin()).scale(reach)),
        )
    })
}

pub fn piece_body(p: &Piece) -> Body {
    Body {
        id: Some(p.id),
        center: p.at.v2(),
        radius: p.base.radius(),
        z: inches(p.z),
        size: f64::from(p.sz),
        seat: Some(p.seat),
        peon: p.peon,
    }
}

pub fn footprint_shape(footprint: &Footprint) -> Shape {
    match footprint {
        Footprint::Circle { center, radius } => Shape::Circle {
            center: center.v2(),
            radius: inches(*radius),
        },
        Footprint::Polygon { points } => Shape::Polygon {
            points: points.iter().map(|p| p.v2()).collect(),
        },
    }
}
