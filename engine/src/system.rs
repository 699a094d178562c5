//! The game-system boundary: what a host needs of a game system's rules to
//! store, play, stop, score and publish its games, and nothing more (as
//! OpenSpiel's `Game` and `State`). The hosting layer (`hosted/` in the
//! service) works only through [`TableGame`], so a second system (Mage
//! Knight, with dice and dials) plugs in by implementing it, without the
//! host learning its rules.
//!
//! Everything a system stores is JSON through serde: its setup, its facts,
//! its submissions (the commands it executed, for replays) and snapshots of
//! its state. A system's state must rebuild exactly from its setup and its
//! facts; `tests/it/conformance.rs` holds every system to that.

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::bot::{Bot, BotKind};
use crate::forced::StandingAnswers;
use crate::log::{GameLog, LoggedCommand};
use crate::state::NewGame;
use crate::view::{View, Viewer};
use crate::{Event, FlowCommand, GameState, PlayerCommand, RuleError, Seat, Submission};

pub use crate::first_edition::FirstEdition;
pub use crate::mage_knight::MageKnight;

/// A finished game's log for a system that keeps no more than this: what
/// it started from, every fact, and the commands that made them (by the
/// index of their first fact). Mage Knight's and the 1st edition's.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FinishedGame<Setup, Fact, Submission> {
    pub log_format: u32,
    pub rules_version: u32,
    pub setup: Setup,
    pub facts: Vec<Fact>,
    pub commands: Vec<(u32, Submission)>,
}

impl<Setup, Fact, Submission> FinishedGame<Setup, Fact, Submission> {
    /// The log of a game stored under `(log_format, rules_version)`.
    pub fn new(
        setup: Setup,
        facts: Vec<Fact>,
        commands: Vec<(u32, Submission)>,
        (log_format, rules_version): (u32, u32),
    ) -> Self {
        Self {
            log_format,
            rules_version,
            setup,
            facts,
            commands,
        }
    }
}

/// A game system's score at some moment, as a host reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Score {
    /// Each seat's score in all (by seat index): Malifaux's VP, Mage
    /// Knight's objectives.
    pub total: [i32; 2],
    /// What an event records of it.
    pub tally: Tally,
    /// The turn (Mage Knight: the round) the game is in, 0 before the first.
    pub turn: u8,
}

/// The figures an event records for a game, by the kind of game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Tally {
    /// VP from the strategy and from the schemes, adding up to the total.
    VictoryPoints {
        strategy: [i32; 2],
        schemes: [i32; 2],
    },
    /// Objectives held (the total), then the points of opposing warriors
    /// each player eliminated and each army's points, which break ties.
    Objectives {
        objectives: [i32; 2],
        eliminated: [i32; 2],
        army: [i32; 2],
    },
}

/// The rules of one game system, as a host sees them. Implemented by a unit
/// type per system ([`Malifaux`]); the host is generic over it.
pub trait TableGame: 'static {
    /// The code a host stores with each game, naming the system that plays
    /// it (stable: stored games are read back by it).
    const CODE: &'static str;
    /// The rules' version: a snapshot stored under another is not read
    /// back (the game is rebuilt from its setup and facts instead).
    const RULES_VERSION: u32;
    /// The format of the setup, facts and submissions a host stores.
    const LOG_FORMAT: u32;

    /// Everything a game starts from (content, crews or armies, the seed).
    type Setup: Clone + Debug + Serialize + DeserializeOwned + Send + Sync;
    /// The game as it stands (snapshots store it).
    type State: Clone + Debug + Serialize + DeserializeOwned + Send + Sync;
    /// A player's command.
    type Command: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// A command as the game executed it: a player's from a seat, or the
    /// game flow's (kept with the facts so a log can be played again).
    type Submission: Clone + Debug + Serialize + DeserializeOwned + Send + Sync;
    /// One fact of the game's log: the only way its state changes.
    type Fact: Clone + Debug + Serialize + DeserializeOwned + Send + Sync;
    /// What one viewer may see of the game.
    type View: Serialize;
    /// A finished game's log, for downloads, replays and verification.
    type Log: Serialize + DeserializeOwned;

    /// The game at its start, or why the setup cannot start one.
    fn start(setup: Self::Setup) -> Result<Self::State, RuleError>;
    /// How many facts the game has applied: a host's version check.
    fn version(state: &Self::State) -> u64;
    fn is_over(state: &Self::State) -> bool;
    /// The seats whose decision the game waits for (none once it is over).
    fn waiting_for(state: &Self::State) -> Vec<Seat>;
    /// `command` from `seat`, sent against `version`.
    fn player_submission(seat: Seat, version: u64, command: Self::Command) -> Self::Submission;
    /// The game flow's command that ends the game now (a clock ran out, a
    /// player resigned), the score so far standing.
    fn end_now(version: u64) -> Self::Submission;
    /// Checks `submission` and, if the rules allow it, applies it and
    /// every automatic step after it, returning their facts. A refused
    /// submission leaves `state` as it was.
    fn execute(
        state: &mut Self::State,
        submission: &Self::Submission,
    ) -> Result<Vec<Self::Fact>, RuleError>;
    /// Applies one stored fact.
    fn apply(state: &mut Self::State, fact: &Self::Fact);
    fn score(state: &Self::State) -> Score;
    /// Claims a player disputed that the rules could not settle, in words
    /// for the organisers.
    fn disputed_claims(state: &Self::State) -> Vec<String>;
    /// What a bot of `level` in `seat` sends now, if the game waits for it;
    /// seeded, so the same position and seed decide the same.
    fn bot_command(
        state: &Self::State,
        seat: Seat,
        level: BotKind,
        seed: u64,
    ) -> Option<Self::Command>;
    /// Whether that bot would think long here (a host runs it off the
    /// request that made its turn come).
    fn bot_thinks_long(state: &Self::State, seat: Seat, level: BotKind) -> bool;
    /// The command a player's standing answers send for them now, if any.
    fn standing_choice(
        state: &Self::State,
        seat: Seat,
        answers: StandingAnswers,
    ) -> Option<Self::Command>;
    fn view(state: &Self::State, viewer: Viewer) -> Self::View;
    /// The finished game's log: what it started from (less what stays a
    /// player's own, such as the crews they brought and did not play), its
    /// facts and the commands that made them, by the index of their first
    /// fact.
    fn finished_log(
        setup: Self::Setup,
        facts: Vec<Self::Fact>,
        commands: Vec<(u32, Self::Submission)>,
        stored_versions: (u32, u32),
    ) -> Self::Log;
}

/// Malifaux (4th and 3rd edition; the edition is in the setup): the
/// engine's encounter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Malifaux;

impl TableGame for Malifaux {
    const CODE: &'static str = "malifaux";
    const RULES_VERSION: u32 = crate::log::RULES_VERSION;
    const LOG_FORMAT: u32 = crate::log::LOG_FORMAT;

    type Setup = NewGame;
    type State = GameState;
    type Command = PlayerCommand;
    type Submission = Submission;
    type Fact = Event;
    type View = View;
    type Log = GameLog;

    fn start(setup: NewGame) -> Result<GameState, RuleError> {
        GameState::new(setup)
    }

    fn version(state: &GameState) -> u64 {
        state.version
    }

    fn is_over(state: &GameState) -> bool {
        state.ended
    }

    fn waiting_for(state: &GameState) -> Vec<Seat> {
        // The same seats `pending` lists, each found at its first legal
        // option rather than with every option worked out.
        Seat::BOTH
            .into_iter()
            .filter(|seat| crate::pending::waits_for(state, *seat))
            .collect()
    }

    fn player_submission(seat: Seat, version: u64, command: PlayerCommand) -> Submission {
        Submission::player(seat, version, command)
    }

    fn end_now(version: u64) -> Submission {
        Submission::flow(version, FlowCommand::EndGame)
    }

    fn execute(state: &mut GameState, submission: &Submission) -> Result<Vec<Event>, RuleError> {
        crate::execute(state, submission)
    }

    fn apply(state: &mut GameState, fact: &Event) {
        crate::apply(state, fact)
    }

    /// VP an ability gave count with the strategy's, so the parts add up
    /// to the crew's total.
    fn score(state: &GameState) -> Score {
        let encounter = state.encounter.as_deref();
        let total = Seat::BOTH.map(|seat| i32::from(state.player(seat).victory_points));
        let scheme =
            Seat::BOTH.map(|seat| encounter.map_or(0, |e| i32::from(e.scheme_vp[seat.index()])));
        Score {
            total,
            tally: Tally::VictoryPoints {
                strategy: [0, 1].map(|i| total[i] - scheme[i]),
                schemes: scheme,
            },
            turn: encounter.map_or(0, |e| e.turn),
        }
    }

    /// "turn 2, Player B claimed 2 VP for Night Market".
    fn disputed_claims(state: &GameState) -> Vec<String> {
        state
            .encounter
            .as_deref()
            .map(|e| {
                e.choices
                    .disputed
                    .iter()
                    .map(|d| {
                        format!(
                            "turn {}, {} claimed {} VP for {}",
                            d.turn,
                            d.seat.label(),
                            d.vp,
                            d.objective
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn bot_command(
        state: &GameState,
        seat: Seat,
        level: BotKind,
        seed: u64,
    ) -> Option<PlayerCommand> {
        Bot::new(level, seat, seed).decide(state)
    }

    fn bot_thinks_long(state: &GameState, seat: Seat, level: BotKind) -> bool {
        level.thinks_long(state, seat)
    }

    fn standing_choice(
        state: &GameState,
        seat: Seat,
        answers: StandingAnswers,
    ) -> Option<PlayerCommand> {
        crate::forced::standing_choice(state, seat, answers)
    }

    fn view(state: &GameState, viewer: Viewer) -> View {
        crate::view(state, viewer)
    }

    /// Of the crews each player brought, only the one they hired is
    /// published: the others stay theirs, to bring to another game.
    fn finished_log(
        mut setup: NewGame,
        facts: Vec<Event>,
        commands: Vec<(u32, Submission)>,
        (log_format, rules_version): (u32, u32),
    ) -> GameLog {
        let hired: Option<[String; 2]> = facts.iter().find_map(|fact| match fact {
            Event::DeclarationsRevealed {
                what: crate::encounter::Declaration::Crew,
                choices,
            } => Some(choices.clone()),
            _ => None,
        });
        if let Some(encounter) = setup.encounter.as_mut() {
            for (offers, hired) in encounter.offers.iter_mut().zip(
                hired
                    .iter()
                    .flat_map(|h| h.iter().map(Some))
                    .chain(std::iter::repeat(None)),
            ) {
                if let Some(list) = offers.value.as_mut() {
                    list.retain(|offer| Some(&offer.name) == hired);
                }
            }
        }
        let commands = commands
            .into_iter()
            .map(|(at_fact, submission)| LoggedCommand {
                at_fact,
                submission,
            })
            .collect();
        GameLog {
            log_format,
            rules_version,
            setup,
            facts,
            commands,
            content: None,
            seal: None,
        }
    }
}
