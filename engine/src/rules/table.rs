//! The table: measuring, terrain, engagement, movement and sight, as each
//! edition reads them (docs/table.md).

/// How vertical distance counts in a measurement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerticalDistance {
    /// 4th edition: it does not.
    Ignored,
    /// 3rd edition: the height difference less the lower object's size
    /// (never below 0) is added.
    AboveTheLowerObject,
}

/// When a model is in a piece of terrain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TerrainContact {
    /// 4th edition: its base touches it.
    Touching,
    /// 3rd edition: its base overlaps it.
    Overlapping,
}

/// How much of a base must be supported for it not to fall.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// 4th edition: half of it.
    HalfTheBase,
    /// 3rd edition: any of it.
    AnyOfTheBase,
}

/// Who engages whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engagement {
    /// 4th edition: every model but a peon engages enemies within this
    /// many inches at a height the lower model's size reaches; peons
    /// neither engage nor are engaged.
    FixedRange { inches: u8 },
    /// 3rd edition: a model engages within its longest melee range (none
    /// without a melee action) the enemies in its line of sight.
    MeleeRangeInSight,
}

/// What being engaged does to a Walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngagedWalk {
    /// 4th edition: an engaged model walks at half its Sp (rounded down).
    HalfSpeed,
    /// 3rd edition: a Walk never takes the base out of the engagement
    /// range of an enemy engaging it.
    StaysEngaged,
}

/// Whose bases a moving model may pass through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassThrough {
    /// 4th edition: friendly models and enemy peons.
    FriendsAndEnemyPeons,
    /// 3rd edition: no model.
    Nothing,
}

/// Damage from falling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FallDamage {
    /// 4th edition: 1 from 2" or more.
    OneFromTwoInches,
    /// 3rd edition: half the distance, rounded down.
    HalfTheDistance,
}

/// When terrain that reaches above only one of two models blocks sight
/// between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeightBlocking {
    /// 4th edition: when it rises above both, or above one that stands
    /// within its blocking reach.
    BothOrTheNearOne,
    /// 3rd edition: only when it rises above both (shadows do the rest).
    Both,
}

/// Whether the terrain a model stands on hides what it looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoodOnTerrain {
    /// 4th edition: never.
    Ignored,
    /// 3rd edition: not when some sight line crosses 1" of it or less.
    IgnoredWhenThin,
}

/// How near blocking terrain a target must be for cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoverReach {
    /// 4th edition: within the cover reach (1").
    Inch,
    /// 3rd edition: in the terrain's shadow.
    Shadow,
}

/// How far through concealing terrain an attacker standing in it may see
/// and still ignore it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConcealmentException {
    /// 4th edition: less than 1".
    LessThanAnInch,
    /// 3rd edition: 1" or less.
    AnInchOrLess,
}

/// Line of sight, cover and concealment.
#[derive(Debug)]
pub struct SightRules {
    pub height_blocking: HeightBlocking,
    /// 3rd edition: a model in a blocking piece's shadow is hidden by it.
    pub shadows_block: bool,
    /// 3rd edition: any model blocks sight; 4th edition: only enemies.
    pub friendly_models_block: bool,
    pub stood_on: StoodOnTerrain,
    /// 4th edition: a target at least 2" higher has cover.
    pub elevation_cover: bool,
    pub cover_reach: CoverReach,
    pub concealment_exception: ConcealmentException,
}

/// The table's rules of one edition.
#[derive(Debug)]
pub struct TableRules {
    pub vertical: VerticalDistance,
    pub terrain_contact: TerrainContact,
    pub support: Support,
    pub engagement: Engagement,
    pub engaged_walk: EngagedWalk,
    pub pass_through: PassThrough,
    pub fall_damage: FallDamage,
    /// 4th edition: models jump and scale climbable terrain.
    pub climbing: bool,
    pub sight: SightRules,
}
