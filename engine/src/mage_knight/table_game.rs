//! Mage Knight as a host sees it: [`TableGame`] for [`MageKnight`], its
//! finished log and the check of every roll in one.

use super::bots::search::{self, Budget};
use super::bots::{self, Style};
use super::dice;
use super::facts::Fact;
use super::game::{Battle, Setup, Stage};
use super::orders::{Order, Submission};
use super::{BattleView, hidden_from};
use crate::bot::BotKind;
use crate::fairness::{self, Bytes32};
use crate::forced::StandingAnswers;
use crate::system::{Score, TableGame, Tally};
use crate::view::Viewer;
use crate::{RuleError, Seat};

/// The rules' version (a stored snapshot under another is rebuilt).
pub const RULES_VERSION: u32 = 1;
/// The format of the setup, facts and submissions.
pub const LOG_FORMAT: u32 = 1;

/// The Mage Knight miniatures game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MageKnight;

/// A finished game: what it started from, every fact, and the commands
/// that made them.
pub type FinishedLog = crate::system::FinishedGame<Setup, Fact, Submission>;

/// Checks a finished log: the revealed seed matches the commitment the
/// game started with, every roll is the one the seed and both players'
/// entropy give, and the facts replay from the setup. Returns the number
/// of rolls checked.
pub fn verify(log: &FinishedLog) -> Result<usize, String> {
    let mut battle = super::start(log.setup.clone()).map_err(|e| e.to_string())?;
    let commitment = battle.dice.commitment;
    let mut contributions = [Bytes32::default(); 2];
    let mut rolls = 0u32;
    let mut revealed = None;
    for (i, fact) in log.facts.iter().enumerate() {
        match fact {
            Fact::Contributed { seat, entropy } => contributions[seat.index()] = *entropy,
            Fact::Rolled { dice, .. } => {
                let count =
                    u8::try_from(dice.len()).map_err(|_| format!("fact {i}: too many dice"))?;
                let expected = dice::roll(&log.setup.seed, rolls, &contributions, count);
                if &expected != dice {
                    return Err(format!(
                        "fact {i}: roll {rolls} shows {dice:?}, but the seed gives {expected:?}"
                    ));
                }
                rolls += 1;
            }
            Fact::SeedRevealed { seed } => revealed = Some(*seed),
            _ => {}
        }
        super::facts::apply(&mut battle, fact);
    }
    let seed = revealed.ok_or("the log does not reveal its seed")?;
    if fairness::commitment(&seed) != commitment || seed != log.setup.seed {
        return Err("the revealed seed does not match the game's commitment".into());
    }
    Ok(rolls as usize)
}

impl TableGame for MageKnight {
    const CODE: &'static str = "mage_knight";
    const RULES_VERSION: u32 = RULES_VERSION;
    const LOG_FORMAT: u32 = LOG_FORMAT;

    type Setup = Setup;
    type State = Battle;
    type Command = Order;
    type Submission = Submission;
    type Fact = Fact;
    type View = BattleView;
    type Log = FinishedLog;

    fn start(setup: Setup) -> Result<Battle, RuleError> {
        super::start(setup)
    }

    fn version(state: &Battle) -> u64 {
        state.version
    }

    fn is_over(state: &Battle) -> bool {
        state.stage == Stage::Over
    }

    fn waiting_for(state: &Battle) -> Vec<Seat> {
        Seat::BOTH
            .into_iter()
            .filter(|s| state.waits_for(*s))
            .collect()
    }

    fn player_submission(seat: Seat, version: u64, order: Order) -> Submission {
        Submission::Player {
            seat,
            version,
            order,
        }
    }

    fn end_now(version: u64) -> Submission {
        Submission::EndNow { version }
    }

    fn execute(state: &mut Battle, submission: &Submission) -> Result<Vec<Fact>, RuleError> {
        super::orders::execute(state, submission)
    }

    fn apply(state: &mut Battle, fact: &Fact) {
        super::facts::apply(state, fact)
    }

    /// Objectives are the score; the points each player eliminated and
    /// each army's size break ties.
    fn score(state: &Battle) -> Score {
        let objectives = Seat::BOTH.map(|s| i32::from(state.objectives_of(s)));
        Score {
            total: objectives,
            tally: Tally::Objectives {
                objectives,
                eliminated: state.eliminated_points.map(i32::from),
                army: state.army_points.map(i32::from),
            },
            turn: u8::try_from(state.round()).unwrap_or(u8::MAX),
        }
    }

    fn disputed_claims(_: &Battle) -> Vec<String> {
        // Every rule is checked: nothing is left to the players' word.
        Vec::new()
    }

    fn bot_command(state: &Battle, seat: Seat, level: BotKind, seed: u64) -> Option<Order> {
        let style = match level {
            BotKind::Random => Style::Random,
            BotKind::Greedy => Style::Greedy,
            BotKind::Normal => {
                return search::searched_or_greedy(state, seat, &Budget::NORMAL, seed);
            }
            BotKind::Hard => return search::searched_or_greedy(state, seat, &Budget::HARD, seed),
        };
        bots::order(&hidden_from(state, Some(seat)), seat, style, seed)
    }

    fn bot_thinks_long(state: &Battle, seat: Seat, level: BotKind) -> bool {
        level.searches() && search::would_search(state, seat)
    }

    fn standing_choice(_: &Battle, _: Seat, _: StandingAnswers) -> Option<Order> {
        None
    }

    fn view(state: &Battle, viewer: Viewer) -> BattleView {
        super::view(
            state,
            match viewer {
                Viewer::Player(seat) => Some(seat),
                Viewer::Spectator => None,
            },
        )
    }

    fn finished_log(
        setup: Setup,
        facts: Vec<Fact>,
        commands: Vec<(u32, Submission)>,
        stored_versions: (u32, u32),
    ) -> FinishedLog {
        FinishedLog::new(setup, facts, commands, stored_versions)
    }
}
