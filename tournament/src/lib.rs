//! Pairings, standings and tiebreakers: pure functions over plain data. No
//! web, no database, no clock; the same snapshot always gives the same result.

pub mod bracket;
pub mod limits;
pub mod pairing;
pub mod rating;
pub mod snapshot;
pub mod standings;
pub mod synthetic;
pub mod tables;
pub mod teams;

use serde::{Deserialize, Serialize};

/// A player's id within an event (the registration id on the server).
pub type PlayerId = i64;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    /// Club, region or team: pairs within one are avoided when asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    #[serde(default)]
    pub dropped: bool,
    /// A table this player always sits at (accessibility).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_table: Option<u32>,
    /// Tournament points granted on entry (late entries; 0 by default).
    #[serde(default)]
    pub initial_points: i32,
}

/// The recorded outcome of a game, by game system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum GameScore {
    /// Victory points of each side.
    Malifaux { a_vp: i32, b_vp: i32 },
    /// Objectives controlled, points of warriors eliminated, and army size.
    MageKnight {
        a_objectives: i32,
        b_objectives: i32,
        a_eliminated: i32,
        b_eliminated: i32,
        a_army: i32,
        b_army: i32,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    AWins,
    BWins,
    Draw,
}

impl GameScore {
    /// Who won. Malifaux: more VP. Mage Knight: more objectives, then more
    /// points eliminated, then the smaller army; otherwise a draw.
    pub fn outcome(&self) -> Outcome {
        use std::cmp::Ordering::{Equal, Greater, Less};
        let order = match *self {
            GameScore::Malifaux { a_vp, b_vp } => a_vp.cmp(&b_vp),
            GameScore::MageKnight {
                a_objectives,
                b_objectives,
                a_eliminated,
                b_eliminated,
                a_army,
                b_army,
            } => a_objectives
                .cmp(&b_objectives)
                .then(a_eliminated.cmp(&b_eliminated))
                .then(b_army.cmp(&a_army)),
        };
        match order {
            Greater => Outcome::AWins,
            Less => Outcome::BWins,
            Equal => Outcome::Draw,
        }
    }

    /// The "scored" figure of each side used by the VP tiebreakers: victory
    /// points in Malifaux, objectives in Mage Knight.
    pub fn scored(&self) -> (i32, i32) {
        match *self {
            GameScore::Malifaux { a_vp, b_vp } => (a_vp, b_vp),
            GameScore::MageKnight {
                a_objectives,
                b_objectives,
                ..
            } => (a_objectives, b_objectives),
        }
    }

    /// Points of warriors eliminated by each side (Mage Knight; 0 otherwise).
    pub fn eliminated(&self) -> (i32, i32) {
        match *self {
            GameScore::Malifaux { .. } => (0, 0),
            GameScore::MageKnight {
                a_eliminated,
                b_eliminated,
                ..
            } => (a_eliminated, b_eliminated),
        }
    }
}

/// A game of a round (or of league open play). `b = None` is a bye.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Game {
    /// The round it belongs to; `None` for league open play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<u32>,
    pub a: PlayerId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b: Option<PlayerId>,
    /// The accepted result; `None` while it is not in (or not yet confirmed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameScore>,
}

impl Game {
    pub fn is_bye(&self) -> bool {
        self.b.is_none()
    }

    pub fn involves(&self, player: PlayerId) -> bool {
        self.a == player || self.b == Some(player)
    }

    /// The other player, for a player of this game.
    pub fn opponent_of(&self, player: PlayerId) -> Option<PlayerId> {
        if self.a == player {
            self.b
        } else if self.b == Some(player) {
            Some(self.a)
        } else {
            None
        }
    }
}

/// How results turn into tournament points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scoring {
    pub win: i32,
    pub draw: i32,
    pub loss: i32,
    /// A bye counts as a win with these figures.
    #[serde(default = "default_bye_scored")]
    pub bye_scored: i32,
    #[serde(default)]
    pub bye_conceded: i32,
}

fn default_bye_scored() -> i32 {
    Scoring::default().bye_scored
}

impl Default for Scoring {
    fn default() -> Self {
        Self {
            win: 3,
            draw: 1,
            loss: 0,
            bye_scored: 5,
            bye_conceded: 0,
        }
    }
}

/// Tiebreakers, applied in the order an event lists them (higher is better).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreaker {
    /// Scored minus conceded (VP in Malifaux, objectives in Mage Knight).
    VpDiff,
    /// Scored in total.
    VpScored,
    /// Strength of schedule: the sum of the opponents' tournament points.
    Sos,
    /// Extended strength of schedule: the sum of the opponents' SOS.
    Esos,
    /// Points won in games among the players still tied at this step.
    #[serde(rename = "h2h")]
    HeadToHead,
    /// Mage Knight: points of warriors eliminated.
    PointsEliminated,
}

impl Tiebreaker {
    pub const ALL: [Tiebreaker; 6] = [
        Tiebreaker::VpDiff,
        Tiebreaker::VpScored,
        Tiebreaker::Sos,
        Tiebreaker::Esos,
        Tiebreaker::HeadToHead,
        Tiebreaker::PointsEliminated,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Self::VpDiff => "vp_diff",
            Self::VpScored => "vp_scored",
            Self::Sos => "sos",
            Self::Esos => "esos",
            Self::HeadToHead => "h2h",
            Self::PointsEliminated => "points_eliminated",
        }
    }

    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.code() == code.trim())
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::VpDiff => "VP difference",
            Self::VpScored => "VP scored",
            Self::Sos => "Strength of schedule",
            Self::Esos => "Extended strength of schedule",
            Self::HeadToHead => "Head to head",
            Self::PointsEliminated => "Points eliminated",
        }
    }

    pub fn short_label(self) -> &'static str {
        match self {
            Self::VpDiff => "VP±",
            Self::VpScored => "VP",
            Self::Sos => "SOS",
            Self::Esos => "ESOS",
            Self::HeadToHead => "H2H",
            Self::PointsEliminated => "Elim.",
        }
    }
}
