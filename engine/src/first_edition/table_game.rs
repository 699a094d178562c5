//! The 1st edition as a host sees it: [`TableGame`] for [`FirstEdition`],
//! its finished log, and the check of every shuffle and card in one.

use super::bots::{self, Style};
use super::facts::{Fact, apply};
use super::flow::{Order, Submission, execute};
use super::search::{self, Budget};
use super::skirmish::{Setup, Skirmish};
use super::{SkirmishView, hidden_from};
use crate::bot::BotKind;
use crate::fairness;
use crate::fate::Card;
use crate::forced::StandingAnswers;
use crate::system::{Score, TableGame, Tally};
use crate::view::Viewer;
use crate::{RuleError, Seat};

/// The rules' version (a stored snapshot under another is rebuilt).
pub const RULES_VERSION: u32 = 1;
/// The format of the setup, facts and submissions.
pub const LOG_FORMAT: u32 = 1;

/// Malifaux 1st edition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FirstEdition;

/// A finished game: what it started from, every fact, and the commands
/// that made them.
pub type FinishedLog = crate::system::FinishedGame<Setup, Fact, Submission>;

/// Checks a finished log: the revealed seed matches the game's
/// commitment, every shuffle is the one the seed and both players' cuts
/// give, every card drawn or flipped was the top of its deck, and the
/// commands played again give the very same facts. Returns the number of
/// shuffles and cards checked.
pub fn verify(log: &FinishedLog) -> Result<usize, String> {
    let mut game = super::start(log.setup.clone()).map_err(|e| e.to_string())?;
    let commitment = game.commitment;
    let mut checked = 0;
    let mut revealed = None;
    for (i, fact) in log.facts.iter().enumerate() {
        match fact {
            Fact::Shuffled { seat, number, deck } => {
                let player = game.player(*seat);
                let cards: Vec<Card> = player
                    .deck
                    .iter()
                    .chain(&player.discards)
                    .copied()
                    .collect();
                let contributions = game.contributions.map(Option::unwrap_or_default);
                let mut expected = fairness::shuffle_cards(
                    &log.setup.seed,
                    *seat,
                    *number,
                    &contributions,
                    &cards,
                );
                expected.reverse();
                if &expected != deck {
                    return Err(format!(
                        "fact {i}: shuffle {number} of {seat:?}'s deck is not the one the seed gives"
                    ));
                }
                checked += 1;
            }
            Fact::Drew { seat, cards } | Fact::Flipped { seat, cards } => {
                let top: Vec<Card> = game
                    .player(*seat)
                    .deck
                    .iter()
                    .rev()
                    .take(cards.len())
                    .copied()
                    .collect();
                if &top != cards {
                    return Err(format!(
                        "fact {i}: {cards:?} were not the top of {seat:?}'s deck ({top:?})"
                    ));
                }
                checked += cards.len();
            }
            Fact::SeedRevealed { seed } => revealed = Some(*seed),
            _ => {}
        }
        apply(&mut game, fact);
    }
    let seed = revealed.ok_or("the log does not reveal its seed")?;
    if fairness::commitment(&seed) != commitment || seed != log.setup.seed {
        return Err("the revealed seed does not match the game's commitment".into());
    }
    let mut replay = super::start(log.setup.clone()).map_err(|e| e.to_string())?;
    let mut made = Vec::new();
    for (at, submission) in &log.commands {
        if usize::try_from(*at).ok() != Some(made.len()) {
            return Err(format!("command at fact {at} is out of place"));
        }
        made.extend(
            execute(&mut replay, submission).map_err(|e| format!("command at fact {at}: {e}"))?,
        );
    }
    if made != log.facts {
        return Err("the commands played again do not give the log's facts".into());
    }
    Ok(checked)
}

impl TableGame for FirstEdition {
    const CODE: &'static str = "malifaux_1e";
    const RULES_VERSION: u32 = RULES_VERSION;
    const LOG_FORMAT: u32 = LOG_FORMAT;

    type Setup = Setup;
    type State = Skirmish;
    type Command = Order;
    type Submission = Submission;
    type Fact = Fact;
    type View = SkirmishView;
    type Log = FinishedLog;

    fn start(setup: Setup) -> Result<Skirmish, RuleError> {
        super::start(setup)
    }

    fn version(state: &Skirmish) -> u64 {
        state.version
    }

    fn is_over(state: &Skirmish) -> bool {
        state.is_over()
    }

    fn waiting_for(state: &Skirmish) -> Vec<Seat> {
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

    fn execute(state: &mut Skirmish, submission: &Submission) -> Result<Vec<Fact>, RuleError> {
        execute(state, submission)
    }

    fn apply(state: &mut Skirmish, fact: &Fact) {
        apply(state, fact)
    }

    /// VP are scored at the end; until then the score is what each
    /// strategy would give now and the Kidnap VP already scored (schemes
    /// stay secret).
    fn score(state: &Skirmish) -> Score {
        let parts = state.result.unwrap_or_else(|| {
            Seat::BOTH.map(|s| {
                (
                    super::objectives::strategy_points(state, s),
                    state.player(s).scheme_points_scored,
                )
            })
        });
        Score {
            total: parts.map(|(a, b)| i32::from(a) + i32::from(b)),
            tally: Tally::VictoryPoints {
                strategy: parts.map(|(a, _)| i32::from(a)),
                schemes: parts.map(|(_, b)| i32::from(b)),
            },
            turn: state.turn,
        }
    }

    fn disputed_claims(_: &Skirmish) -> Vec<String> {
        // Every rule played is checked: nothing rests on a player's word.
        Vec::new()
    }

    fn bot_command(state: &Skirmish, seat: Seat, level: BotKind, seed: u64) -> Option<Order> {
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

    fn bot_thinks_long(state: &Skirmish, seat: Seat, level: BotKind) -> bool {
        level.searches() && search::would_search(state, seat)
    }

    fn standing_choice(_: &Skirmish, _: Seat, _: StandingAnswers) -> Option<Order> {
        None
    }

    fn view(state: &Skirmish, viewer: Viewer) -> SkirmishView {
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
