//! The card format and the hiring rules of an edition: what the content
//! checks on load and what a crew list must meet.

/// The stat a card moves by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpeedStat {
    /// 4th edition: Sp.
    Sp,
    /// 3rd edition: Mv.
    Mv,
}

/// What a stat card may carry.
#[derive(Debug)]
pub struct ContentRules {
    pub speed: SpeedStat,
    /// 4th edition: signature actions.
    pub signature_actions: bool,
    /// 3rd edition: bonus actions.
    pub bonus_actions: bool,
    /// 4th edition: a master brings a crew card.
    pub crew_cards: bool,
    /// 4th edition: peons are a station, and henchman a characteristic;
    /// 3rd edition: henchman and enforcer are stations, and there are no
    /// peons.
    pub peons: bool,
    /// 3rd edition: the Insignificant ability.
    pub insignificant: bool,
    /// 4th edition: a health track may carry a soulstone.
    pub soulstone_on_death: bool,
    /// 4th edition: every model but a peon uses soulstones.
    pub non_peons_use_soulstones: bool,
    /// 3rd edition: a killed model drops remains by its characteristics
    /// (Corpse and Scrap Markers, several remains markers by name).
    pub remains_by_characteristic: bool,
    /// 4th edition: tokens that make terrain around a model (auras).
    pub token_auras: bool,
    /// 4th edition: a model holding a token keeps the crew that applied it
    /// (M4E Tokens, lines 1468 and 1472).
    pub tokens_track_applier: bool,
    pub hiring: HiringRules,
}

/// What a crew list must meet.
#[derive(Debug)]
pub struct HiringRules {
    /// Unspent soulstones a crew keeps for its pool.
    pub max_leftover_pool: u8,
    /// 4th edition: at most this many models outside the leader's keyword.
    pub max_out_of_keyword: Option<usize>,
    /// 4th edition: a Loyal model is hired only by a leader sharing its
    /// keyword.
    pub loyalty: bool,
    /// 4th edition: the leader's totems are all hired, up to their limit.
    pub totems_required: bool,
    /// 3rd edition: upgrades are bought at hiring (4th edition attaches
    /// them during the game, M4E line 1559).
    pub upgrades_hired: bool,
}
