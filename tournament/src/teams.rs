//! Team events: each round pairs teams by Swiss, and each team match is a
//! set of individual games between their members.
//!
//! - A team match is won by the team that wins more of its games; equal
//!   game wins draw the match. Match points follow the event's scoring.
//! - Team standings: match points, then games won, then the VP difference
//!   of every member game (see `docs/pairing.md`).
//! - Team Swiss is the individual solver run over teams: a team match is
//!   a game whose "VP" are games won, so rematches, club avoidance and the
//!   proof of optimality are the same code and the same guarantees.
//! - Inside a match the members meet by rank (board 1 against board 1), or
//!   by the captains' alternating choice: one captain puts a defender
//!   forward, the other picks who attacks them, and the roles swap until
//!   one member of each side is left, who meet.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::pairing::{PairingError, PairingSettings, RoundPairing, pair_round};
use super::{Game, GameScore, Outcome, Player, PlayerId, Scoring, Tiebreaker};

/// A team's id within an event (the team row's id on the server).
pub type TeamId = i64;

/// The smallest and largest team a TO may set.
pub const MIN_TEAM_SIZE: u32 = 2;
pub const MAX_TEAM_SIZE: u32 = 8;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    pub id: TeamId,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    #[serde(default)]
    pub dropped: bool,
}

/// A team match of a round. `b = None` is a bye. `games` holds the member
/// games paired so far, each with team A's member as player A, and its
/// result once accepted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMatch {
    pub round: u32,
    pub a: TeamId,
    pub b: Option<TeamId>,
    pub games: Vec<Option<GameScore>>,
}

/// Games won and VP of each side of a finished team match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MatchTally {
    pub a_won: u32,
    pub b_won: u32,
    pub drawn: u32,
    pub a_scored: i32,
    pub b_scored: i32,
}

impl MatchTally {
    pub fn outcome(&self) -> Outcome {
        match self.a_won.cmp(&self.b_won) {
            std::cmp::Ordering::Greater => Outcome::AWins,
            std::cmp::Ordering::Less => Outcome::BWins,
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }
}

impl TeamMatch {
    /// The match's tally once every one of its `boards` games has an
    /// accepted result (None before, and for a bye).
    pub fn tally(&self, boards: u32) -> Option<MatchTally> {
        self.b?;
        if self.games.len() != boards as usize {
            return None;
        }
        let mut tally = MatchTally::default();
        for score in &self.games {
            let score = (*score)?;
            let (a, b) = score.scored();
            tally.a_scored += a;
            tally.b_scored += b;
            match score.outcome() {
                Outcome::AWins => tally.a_won += 1,
                Outcome::BWins => tally.b_won += 1,
                Outcome::Draw => tally.drawn += 1,
            }
        }
        Some(tally)
    }
}

/// The scoring team Swiss pairs on: the event's match points, and a bye
/// counted as winning every board.
fn team_scoring(scoring: &Scoring, boards: u32) -> Scoring {
    Scoring {
        bye_scored: i32::try_from(boards).unwrap_or(i32::MAX),
        bye_conceded: 0,
        ..*scoring
    }
}

/// Teams as the Swiss solver sees players, and finished matches as games
/// whose VP are games won. Unfinished matches count as a meeting only.
pub fn as_players_and_games(
    teams: &[Team],
    matches: &[TeamMatch],
    boards: u32,
) -> (Vec<Player>, Vec<Game>) {
    let players = teams
        .iter()
        .map(|t| Player {
            id: t.id,
            name: t.name.clone(),
            club: t.club.clone(),
            dropped: t.dropped,
            fixed_table: None,
            initial_points: 0,
        })
        .collect();
    let games = matches
        .iter()
        .map(|m| Game {
            round: Some(m.round),
            table: None,
            a: m.a,
            b: m.b,
            result: m.tally(boards).map(|t| GameScore::Malifaux {
                a_vp: i32::try_from(t.a_won).unwrap_or(i32::MAX),
                b_vp: i32::try_from(t.b_won).unwrap_or(i32::MAX),
            }),
        })
        .collect();
    (players, games)
}

/// The settings team Swiss pairs with: teams in order of match points,
/// then games won.
pub fn pairing_settings(
    scoring: &Scoring,
    boards: u32,
    avoid_same_club: bool,
    seed: u64,
) -> PairingSettings {
    PairingSettings {
        scoring: team_scoring(scoring, boards),
        tiebreakers: vec![Tiebreaker::VpScored],
        avoid_same_club,
        seed,
    }
}

/// Pairs round `round` of a team event: teams never meet twice while it
/// can be avoided, and the pairing carries the solver's proof.
pub fn pair_teams(
    teams: &[Team],
    matches: &[TeamMatch],
    scoring: &Scoring,
    boards: u32,
    avoid_same_club: bool,
    seed: u64,
    round: u32,
) -> Result<RoundPairing, PairingError> {
    let (players, games) = as_players_and_games(teams, matches, boards);
    pair_round(
        &players,
        &games,
        &pairing_settings(scoring, boards, avoid_same_club, seed),
        round,
    )
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamStandingRow {
    /// 1-based; teams level on every criterion share a rank.
    pub rank: u32,
    pub team: TeamId,
    pub name: String,
    pub dropped: bool,
    pub match_wins: u32,
    pub match_draws: u32,
    pub match_losses: u32,
    pub byes: u32,
    pub points: i32,
    pub games_won: u32,
    pub vp_diff: i32,
}

/// Team standings from the matches with every result in (byes always
/// count): match points, then games won, then VP difference.
pub fn team_standings(
    teams: &[Team],
    matches: &[TeamMatch],
    scoring: &Scoring,
    boards: u32,
) -> Vec<TeamStandingRow> {
    let mut rows: BTreeMap<TeamId, TeamStandingRow> = teams
        .iter()
        .map(|t| {
            (
                t.id,
                TeamStandingRow {
                    rank: 0,
                    team: t.id,
                    name: t.name.clone(),
                    dropped: t.dropped,
                    match_wins: 0,
                    match_draws: 0,
                    match_losses: 0,
                    byes: 0,
                    points: 0,
                    games_won: 0,
                    vp_diff: 0,
                },
            )
        })
        .collect();
    let bye_vp = (scoring.bye_scored - scoring.bye_conceded)
        .saturating_mul(i32::try_from(boards).unwrap_or(i32::MAX));
    for m in matches {
        let Some(b) = m.b else {
            if let Some(row) = rows.get_mut(&m.a) {
                row.byes += 1;
                row.match_wins += 1;
                row.points += scoring.win;
                row.games_won += boards;
                row.vp_diff = row.vp_diff.saturating_add(bye_vp);
            }
            continue;
        };
        let Some(tally) = m.tally(boards) else {
            continue;
        };
        let diff = tally.a_scored - tally.b_scored;
        let outcome = tally.outcome();
        for (team, won, vp, result) in [
            (m.a, tally.a_won, diff, outcome),
            (b, tally.b_won, -diff, flipped(outcome)),
        ] {
            let Some(row) = rows.get_mut(&team) else {
                continue;
            };
            row.games_won += won;
            row.vp_diff += vp;
            match result {
                Outcome::AWins => {
                    row.match_wins += 1;
                    row.points += scoring.win;
                }
                Outcome::Draw => {
                    row.match_draws += 1;
                    row.points += scoring.draw;
                }
                Outcome::BWins => {
                    row.match_losses += 1;
                    row.points += scoring.loss;
                }
            }
        }
    }
    let mut rows: Vec<TeamStandingRow> = rows.into_values().collect();
    let key = |r: &TeamStandingRow| (r.points, r.games_won, r.vp_diff);
    rows.sort_by(|x, y| key(y).cmp(&key(x)).then_with(|| x.name.cmp(&y.name)));
    let mut rank = 0;
    let mut previous = None;
    for (i, row) in rows.iter_mut().enumerate() {
        if previous != Some(key(row)) {
            rank = u32::try_from(i).unwrap_or(u32::MAX) + 1;
            previous = Some(key(row));
        }
        row.rank = rank;
    }
    rows
}

/// An outcome seen from the other side.
fn flipped(outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::AWins => Outcome::BWins,
        Outcome::BWins => Outcome::AWins,
        Outcome::Draw => Outcome::Draw,
    }
}

/// How the members of two teams are matched within a team match.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum MemberPairing {
    /// The captains take turns: a defender put forward, an attacker picked.
    #[default]
    CaptainsChoice,
    /// Board order as the captain registered it: first against first.
    ByRank,
}

impl MemberPairing {
    pub const ALL: [MemberPairing; 2] = [MemberPairing::CaptainsChoice, MemberPairing::ByRank];

    pub fn code(self) -> &'static str {
        self.into()
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::CaptainsChoice => {
                "Captains' choice: one captain puts a defender forward, the other picks who plays them, taking turns"
            }
            Self::ByRank => "By rank: each team's first player meets the other's first, and so on",
        }
    }
}

/// Which team of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchSide {
    A,
    B,
}

impl MatchSide {
    pub fn other(self) -> Self {
        match self {
            Self::A => Self::B,
            Self::B => Self::A,
        }
    }
}

/// What the captains' choice waits for next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum NextChoice {
    /// `side`'s captain puts one of `options` forward as a defender.
    Defender {
        side: MatchSide,
        options: Vec<PlayerId>,
    },
    /// `side`'s captain picks one of `options` to play `against`.
    Attacker {
        side: MatchSide,
        against: PlayerId,
        options: Vec<PlayerId>,
    },
    /// Every member is paired: (team A's member, team B's member), in the
    /// order the pairs were made.
    Done { pairs: Vec<(PlayerId, PlayerId)> },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChoiceError {
    #[error("the two teams must field the same number of players ({a} and {b})")]
    UnequalTeams { a: usize, b: usize },
    #[error("player {0} is not one of the players to choose from")]
    NotAnOption(PlayerId),
    #[error("every player of this match is already paired")]
    Finished,
}

/// Replays the choices made so far (defender, attacker, defender, ...)
/// and says what comes next. Team A puts the first defender forward; the
/// side that defends alternates with each pair.
pub fn next_choice(
    a_members: &[PlayerId],
    b_members: &[PlayerId],
    made: &[PlayerId],
) -> Result<NextChoice, ChoiceError> {
    if a_members.len() != b_members.len() {
        return Err(ChoiceError::UnequalTeams {
            a: a_members.len(),
            b: b_members.len(),
        });
    }
    let mut left: [Vec<PlayerId>; 2] = [a_members.to_vec(), b_members.to_vec()];
    let index = |side: MatchSide| usize::from(side == MatchSide::B);
    let mut pairs = Vec::new();
    let mut steps = made.iter().copied();
    loop {
        if left[0].len() <= 1 {
            if let (Some(&a), Some(&b)) = (left[0].first(), left[1].first()) {
                pairs.push((a, b));
            }
            return match steps.next() {
                Some(_) => Err(ChoiceError::Finished),
                None => Ok(NextChoice::Done { pairs }),
            };
        }
        let defending = if pairs.len() % 2 == 0 {
            MatchSide::A
        } else {
            MatchSide::B
        };
        let Some(defender) = steps.next() else {
            return Ok(NextChoice::Defender {
                side: defending,
                options: left[index(defending)].clone(),
            });
        };
        take(&mut left[index(defending)], defender)?;
        let attacking = defending.other();
        let Some(attacker) = steps.next() else {
            return Ok(NextChoice::Attacker {
                side: attacking,
                against: defender,
                options: left[index(attacking)].clone(),
            });
        };
        take(&mut left[index(attacking)], attacker)?;
        pairs.push(match defending {
            MatchSide::A => (defender, attacker),
            MatchSide::B => (attacker, defender),
        });
    }
}

fn take(left: &mut Vec<PlayerId>, id: PlayerId) -> Result<(), ChoiceError> {
    let position = left
        .iter()
        .position(|&x| x == id)
        .ok_or(ChoiceError::NotAnOption(id))?;
    left.remove(position);
    Ok(())
}

/// Checks `pick` against what comes next and returns the choices with it.
pub fn choose(
    a_members: &[PlayerId],
    b_members: &[PlayerId],
    made: &[PlayerId],
    pick: PlayerId,
) -> Result<Vec<PlayerId>, ChoiceError> {
    match next_choice(a_members, b_members, made)? {
        NextChoice::Done { .. } => Err(ChoiceError::Finished),
        NextChoice::Defender { options, .. } | NextChoice::Attacker { options, .. } => {
            if !options.contains(&pick) {
                return Err(ChoiceError::NotAnOption(pick));
            }
            let mut next = made.to_vec();
            next.push(pick);
            Ok(next)
        }
    }
}

/// Members by rank: board k of team A against board k of team B.
pub fn pairs_by_rank(
    a_members: &[PlayerId],
    b_members: &[PlayerId],
) -> Result<Vec<(PlayerId, PlayerId)>, ChoiceError> {
    if a_members.len() != b_members.len() {
        return Err(ChoiceError::UnequalTeams {
            a: a_members.len(),
            b: b_members.len(),
        });
    }
    Ok(a_members
        .iter()
        .copied()
        .zip(b_members.iter().copied())
        .collect())
}

/// Teams that have met in earlier matches, as unordered pairs.
pub fn meetings(matches: &[TeamMatch]) -> BTreeSet<(TeamId, TeamId)> {
    matches
        .iter()
        .filter_map(|m| m.b.map(|b| (m.a.min(b), m.a.max(b))))
        .collect()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn win(a_vp: i32, b_vp: i32) -> Option<GameScore> {
        Some(GameScore::Malifaux { a_vp, b_vp })
    }

    fn team(id: TeamId) -> Team {
        Team {
            id,
            name: format!("Team {id}"),
            club: None,
            dropped: false,
        }
    }

    #[test]
    fn a_match_goes_to_more_games_won_and_level_games_draw_it() {
        let m = TeamMatch {
            round: 1,
            a: 1,
            b: Some(2),
            games: vec![win(6, 2), win(1, 8), win(4, 4)],
        };
        let tally = m.tally(3).unwrap();
        assert_eq!((tally.a_won, tally.b_won, tally.drawn), (1, 1, 1));
        assert_eq!(tally.outcome(), Outcome::Draw);
        assert_eq!((tally.a_scored, tally.b_scored), (11, 14));
        let unfinished = TeamMatch {
            games: vec![win(6, 2), None, win(4, 4)],
            ..m.clone()
        };
        assert_eq!(unfinished.tally(3), None);
        let short = TeamMatch {
            games: vec![win(6, 2), win(4, 4)],
            ..m
        };
        assert_eq!(short.tally(3), None, "a board still to pair");
    }

    #[test]
    fn standings_order_by_match_points_then_games_won_then_vp_difference() {
        let teams: Vec<Team> = (1..=4).map(team).collect();
        let matches = vec![
            // 1 beats 2 by two games to one; 3 beats 4 three to none.
            TeamMatch {
                round: 1,
                a: 1,
                b: Some(2),
                games: vec![win(5, 0), win(5, 4), win(0, 9)],
            },
            TeamMatch {
                round: 1,
                a: 3,
                b: Some(4),
                games: vec![win(3, 2), win(3, 2), win(3, 2)],
            },
        ];
        let rows = team_standings(&teams, &matches, &Scoring::default(), 3);
        let order: Vec<TeamId> = rows.iter().map(|r| r.team).collect();
        // 3 and 1 won their matches, 3 by more games; 2 won a game, 4 none.
        assert_eq!(order, vec![3, 1, 2, 4]);
        assert_eq!(rows[0].games_won, 3);
        assert_eq!(rows[1].vp_diff, 10 - 13);
        assert_eq!((rows[2].match_losses, rows[2].games_won), (1, 1));
        assert_eq!(rows[0].points, 3);
    }

    #[test]
    fn a_bye_wins_every_board() {
        let teams: Vec<Team> = (1..=3).map(team).collect();
        let matches = vec![TeamMatch {
            round: 1,
            a: 3,
            b: None,
            games: vec![],
        }];
        let rows = team_standings(&teams, &matches, &Scoring::default(), 3);
        assert_eq!(rows[0].team, 3);
        assert_eq!(
            (rows[0].byes, rows[0].games_won, rows[0].vp_diff),
            (1, 3, 15)
        );
    }

    #[test]
    fn captains_alternate_and_the_last_two_meet() {
        let a = [11, 12, 13];
        let b = [21, 22, 23];
        assert_eq!(
            next_choice(&a, &b, &[]).unwrap(),
            NextChoice::Defender {
                side: MatchSide::A,
                options: a.to_vec()
            }
        );
        let made = choose(&a, &b, &[], 12).unwrap();
        assert_eq!(
            next_choice(&a, &b, &made).unwrap(),
            NextChoice::Attacker {
                side: MatchSide::B,
                against: 12,
                options: b.to_vec()
            }
        );
        assert_eq!(choose(&a, &b, &made, 12), Err(ChoiceError::NotAnOption(12)));
        let made = choose(&a, &b, &made, 23).unwrap();
        assert_eq!(
            next_choice(&a, &b, &made).unwrap(),
            NextChoice::Defender {
                side: MatchSide::B,
                options: vec![21, 22]
            }
        );
        let made = choose(&a, &b, &made, 21).unwrap();
        let made = choose(&a, &b, &made, 13).unwrap();
        assert_eq!(
            next_choice(&a, &b, &made).unwrap(),
            NextChoice::Done {
                pairs: vec![(12, 23), (13, 21), (11, 22)]
            }
        );
        assert_eq!(choose(&a, &b, &made, 11), Err(ChoiceError::Finished));
    }

    proptest! {
        /// Whatever the captains pick, every member plays exactly once and
        /// always against the other team.
        #[test]
        fn any_sequence_of_choices_pairs_everyone_once(size in 1usize..=8, picks in proptest::collection::vec(any::<prop::sample::Index>(), 16)) {
            let a: Vec<PlayerId> = (0..size as i64).map(|i| 100 + i).collect();
            let b: Vec<PlayerId> = (0..size as i64).map(|i| 200 + i).collect();
            let mut made = Vec::new();
            let mut picks = picks.into_iter();
            let pairs = loop {
                match next_choice(&a, &b, &made).unwrap() {
                    NextChoice::Done { pairs } => break pairs,
                    NextChoice::Defender { options, .. } | NextChoice::Attacker { options, .. } => {
                        let pick = options[picks.next().unwrap().index(options.len())];
                        made = choose(&a, &b, &made, pick).unwrap();
                    }
                }
            };
            prop_assert_eq!(pairs.len(), size);
            let firsts: BTreeSet<_> = pairs.iter().map(|p| p.0).collect();
            let seconds: BTreeSet<_> = pairs.iter().map(|p| p.1).collect();
            prop_assert_eq!(firsts, a.iter().copied().collect::<BTreeSet<_>>());
            prop_assert_eq!(seconds, b.iter().copied().collect::<BTreeSet<_>>());
        }
    }
}
