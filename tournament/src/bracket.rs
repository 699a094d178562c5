//! Playoffs: a single-elimination cut after the Swiss rounds.
//!
//! The bracket is worked out afresh from the seeds and the playoff games
//! played so far: nothing about it is stored but the seeding, so a corrected
//! result moves the bracket on with it. Seeds sit in the usual bracket order
//! (1 meets the lowest seed, 1 and 2 can only meet in the final), and a cut
//! that is not a power of two gives its byes to the top seeds.

use serde::{Deserialize, Serialize};

use super::{Game, GameScore, Outcome, PlayerId};

/// The smallest and largest cut a TO may choose.
pub const MIN_CUT: u32 = 2;
pub const MAX_CUT: u32 = 64;

/// Who advances from a playoff game that ends level.
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
pub enum PlayoffTie {
    /// The higher seed.
    #[default]
    HigherSeed,
    /// The better VP difference over the Swiss rounds, then the higher seed.
    SwissVpDiff,
}

impl PlayoffTie {
    pub const ALL: [PlayoffTie; 2] = [PlayoffTie::HigherSeed, PlayoffTie::SwissVpDiff];

    pub fn code(self) -> &'static str {
        self.into()
    }

    /// The rule as the event page states it.
    pub fn label(self) -> &'static str {
        match self {
            Self::HigherSeed => "A drawn game goes to the higher seed.",
            Self::SwissVpDiff => {
                "A drawn game goes to the player with the better VP difference over the Swiss rounds, then to the higher seed."
            }
        }
    }
}

/// The playoff's shape, as the TO chose it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayoffRules {
    pub cut: u32,
    /// The two losing semifinalists play for third place.
    pub third_place: bool,
    pub tie: PlayoffTie,
}

/// A seeded player; seeds are 1-based in the order the seeds are given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seeded {
    pub player: PlayerId,
    /// VP difference over the Swiss rounds, for [`PlayoffTie::SwissVpDiff`].
    pub swiss_vp_diff: i32,
}

/// One side of a bracket match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entrant {
    Player {
        player: PlayerId,
        seed: u32,
    },
    /// No one: the other side advances without a game.
    Bye,
    /// The winner (or loser) of a match not decided yet.
    Undecided,
}

impl Entrant {
    pub fn player(self) -> Option<PlayerId> {
        match self {
            Self::Player { player, .. } => Some(player),
            _ => None,
        }
    }

    fn seed(self) -> Option<u32> {
        match self {
            Self::Player { seed, .. } => Some(seed),
            _ => None,
        }
    }
}

/// Where a bracket match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum MatchState {
    /// A side is still to be decided by an earlier match.
    Waiting,
    /// Both players are known and no game has been paired.
    ToPair,
    /// Paired, without an accepted result yet.
    Playing,
    /// Decided: by the game, by the tie rule after a draw, or by a bye.
    Decided {
        winner: Entrant,
        loser: Entrant,
        by_tie_rule: bool,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BracketMatch {
    /// The side drawn from the higher seed's half of the slot.
    pub high: Entrant,
    pub low: Entrant,
    pub state: MatchState,
    /// The "scored" figures (VP, or objectives in Mage Knight) of the high
    /// and the low side, once accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<(i32, i32)>,
}

impl BracketMatch {
    pub fn winner(&self) -> Entrant {
        match self.state {
            MatchState::Decided { winner, .. } => winner,
            _ => Entrant::Undecided,
        }
    }

    pub fn loser(&self) -> Entrant {
        match self.state {
            MatchState::Decided { loser, .. } => loser,
            _ => Entrant::Undecided,
        }
    }

    /// A game is (or will be) played: neither side is a bye.
    pub fn is_game(&self) -> bool {
        self.high != Entrant::Bye && self.low != Entrant::Bye
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BracketRound {
    pub name: String,
    pub matches: Vec<BracketMatch>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Bracket {
    pub rounds: Vec<BracketRound>,
    /// Played alongside the final, when the rules ask for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub third_place: Option<BracketMatch>,
}

/// The next playoff round to pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextPlayoffRound {
    /// Pair round `index` (0-based) with these games, higher seed first,
    /// the third-place game (if any) last.
    Pair {
        index: usize,
        name: String,
        games: Vec<(PlayerId, PlayerId)>,
    },
    /// A match of the round before still waits for its result.
    Waiting,
    /// Every round is paired.
    Finished,
}

/// A final place, shared by `place..=last_place` when several players went
/// out in the same round without playing each other for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Placing {
    pub player: PlayerId,
    pub place: u32,
    pub last_place: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BracketError {
    #[error("a cut of {0} is not possible: choose from {MIN_CUT} to {MAX_CUT} players")]
    CutSize(u32),
    #[error("the cut is {cut} players but {seeded} were seeded")]
    Seeds { cut: u32, seeded: usize },
    #[error("playoff round {round} has a game the bracket does not hold (players {a} and {b:?})")]
    StrayGame {
        round: usize,
        a: PlayerId,
        b: Option<PlayerId>,
    },
    #[error("there are {played} playoff rounds but the bracket has only {rounds}")]
    TooManyRounds { played: usize, rounds: usize },
}

/// Seeds (1-based) in bracket order for a bracket of `size` slots, a power
/// of two: neighbouring pairs meet first, and seed `s` meets `size + 1 - s`.
pub fn seed_order(size: u32) -> Vec<u32> {
    let mut order = vec![1];
    while (order.len() as u32) < size {
        let next = order.len() as u32 * 2;
        order = order.iter().flat_map(|&s| [s, next + 1 - s]).collect();
    }
    order
}

/// The name of a playoff round by how many rounds follow it.
pub fn round_name(rounds_after: usize) -> String {
    match rounds_after {
        0 => "Final".into(),
        1 => "Semifinals".into(),
        2 => "Quarterfinals".into(),
        n => format!("Round of {}", 1u64 << (n + 1)),
    }
}

/// The number of playoff rounds a cut takes.
pub fn rounds_for(cut: u32) -> usize {
    cut.next_power_of_two().trailing_zeros() as usize
}

/// Works the bracket out from the seeds (best first, exactly `cut` of them)
/// and the games of each playoff round so far.
pub fn bracket(
    rules: &PlayoffRules,
    seeds: &[Seeded],
    played: &[Vec<Game>],
) -> Result<Bracket, BracketError> {
    if !(MIN_CUT..=MAX_CUT).contains(&rules.cut) {
        return Err(BracketError::CutSize(rules.cut));
    }
    if seeds.len() != rules.cut as usize {
        return Err(BracketError::Seeds {
            cut: rules.cut,
            seeded: seeds.len(),
        });
    }
    let total = rounds_for(rules.cut);
    if played.len() > total {
        return Err(BracketError::TooManyRounds {
            played: played.len(),
            rounds: total,
        });
    }
    let judge = Judge { rules, seeds };
    let mut entrants: Vec<Entrant> = seed_order(rules.cut.next_power_of_two())
        .into_iter()
        .map(|seed| match seeds.get(seed as usize - 1) {
            Some(s) => Entrant::Player {
                player: s.player,
                seed,
            },
            None => Entrant::Bye,
        })
        .collect();
    let mut rounds = Vec::with_capacity(total);
    let mut third_place = None;
    for index in 0..total {
        let games = played.get(index).map_or(&[][..], Vec::as_slice);
        let mut used = vec![false; games.len()];
        let matches: Vec<BracketMatch> = entrants
            .chunks(2)
            .map(|pair| judge.resolve(pair[0], pair[1], games, &mut used))
            .collect();
        let is_final = index + 1 == total;
        if is_final && rules.third_place && index > 0 {
            let semis: &BracketRound = &rounds[index - 1];
            let mut losers: Vec<Entrant> = semis.matches.iter().map(BracketMatch::loser).collect();
            losers.sort_by_key(|e| e.seed().unwrap_or(u32::MAX));
            third_place = Some(judge.resolve(losers[0], losers[1], games, &mut used));
        }
        if let Some(stray) = used.iter().position(|u| !u) {
            return Err(BracketError::StrayGame {
                round: index + 1,
                a: games[stray].a,
                b: games[stray].b,
            });
        }
        entrants = matches.iter().map(BracketMatch::winner).collect();
        rounds.push(BracketRound {
            name: round_name(total - index - 1),
            matches,
        });
    }
    Ok(Bracket {
        rounds,
        third_place,
    })
}

struct Judge<'a> {
    rules: &'a PlayoffRules,
    seeds: &'a [Seeded],
}

impl Judge<'_> {
    /// The state of the match between two sides, using (and marking) its
    /// game among the round's games.
    fn resolve(
        &self,
        high: Entrant,
        low: Entrant,
        games: &[Game],
        used: &mut [bool],
    ) -> BracketMatch {
        let decided = |winner, loser, by_tie_rule| MatchState::Decided {
            winner,
            loser,
            by_tie_rule,
        };
        let mut scores = None;
        let state = match (high, low) {
            (Entrant::Undecided, _) | (_, Entrant::Undecided) => MatchState::Waiting,
            (Entrant::Bye, other) | (other, Entrant::Bye) => decided(other, Entrant::Bye, false),
            (Entrant::Player { player: h, .. }, Entrant::Player { player: l, .. }) => {
                let found = games
                    .iter()
                    .enumerate()
                    .position(|(i, g)| !used[i] && g.b.is_some() && g.involves(h) && g.involves(l));
                match found {
                    None => MatchState::ToPair,
                    Some(i) => {
                        used[i] = true;
                        match games[i].result {
                            None => MatchState::Playing,
                            Some(score) => {
                                let high_is_a = games[i].a == h;
                                scores = Some(oriented(score, high_is_a));
                                let outcome = match (score.outcome(), high_is_a) {
                                    (Outcome::Draw, _) => None,
                                    (Outcome::AWins, true) | (Outcome::BWins, false) => Some(true),
                                    _ => Some(false),
                                };
                                match outcome {
                                    Some(true) => decided(high, low, false),
                                    Some(false) => decided(low, high, false),
                                    None if self.tie_goes_to_first(high, low) => {
                                        decided(high, low, true)
                                    }
                                    None => decided(low, high, true),
                                }
                            }
                        }
                    }
                }
            }
        };
        BracketMatch {
            high,
            low,
            state,
            scores,
        }
    }

    /// Whether a drawn game between `a` and `b` goes to `a`.
    fn tie_goes_to_first(&self, a: Entrant, b: Entrant) -> bool {
        let (Some(seed_a), Some(seed_b)) = (a.seed(), b.seed()) else {
            return true;
        };
        let diff = |seed: u32| self.seeds[seed as usize - 1].swiss_vp_diff;
        match self.rules.tie {
            PlayoffTie::HigherSeed => seed_a < seed_b,
            PlayoffTie::SwissVpDiff => (diff(seed_b), seed_a) < (diff(seed_a), seed_b),
        }
    }
}

/// A game's scored figures as (high side, low side).
fn oriented(score: GameScore, high_is_a: bool) -> (i32, i32) {
    let (a, b) = score.scored();
    if high_is_a { (a, b) } else { (b, a) }
}

impl Bracket {
    /// The matches of round `index` that are played in it: the round's own,
    /// and in the final round the third-place game.
    fn matches_of(&self, index: usize) -> impl Iterator<Item = &BracketMatch> {
        let third = (index + 1 == self.rounds.len())
            .then_some(self.third_place.as_ref())
            .flatten();
        self.rounds[index].matches.iter().chain(third)
    }

    /// What to pair next, given how many playoff rounds are stored.
    pub fn next(&self, rounds_stored: usize) -> NextPlayoffRound {
        let Some(round) = self.rounds.get(rounds_stored) else {
            return NextPlayoffRound::Finished;
        };
        let matches: Vec<&BracketMatch> = self.matches_of(rounds_stored).collect();
        if matches.iter().any(|m| m.state == MatchState::Waiting) {
            return NextPlayoffRound::Waiting;
        }
        let games = matches
            .iter()
            .filter(|m| m.state == MatchState::ToPair)
            .filter_map(|m| {
                // The higher seed sits as player A, whichever slot it came from.
                let mut sides = [m.high, m.low];
                sides.sort_by_key(|e| e.seed());
                Some((sides[0].player()?, sides[1].player()?))
            })
            .collect();
        NextPlayoffRound::Pair {
            index: rounds_stored,
            name: round.name.clone(),
            games,
        }
    }

    /// The champion, once the final is decided.
    pub fn champion(&self) -> Option<PlayerId> {
        self.rounds.last()?.matches.first()?.winner().player()
    }

    /// Every match is decided (the third-place game included).
    pub fn is_finished(&self) -> bool {
        self.rounds
            .iter()
            .flat_map(|r| &r.matches)
            .chain(&self.third_place)
            .all(|m| matches!(m.state, MatchState::Decided { .. }))
    }

    /// The places known so far, best first: the final decides 1 and 2, the
    /// third-place game 3 and 4; players out in the same earlier round share
    /// the places below those who went further.
    pub fn placings(&self) -> Vec<Placing> {
        let mut placings = Vec::new();
        let mut above = 0u32;
        let mut place = |players: &[Entrant], shared: bool, placings: &mut Vec<Placing>| {
            let count = players.len() as u32;
            for (i, entrant) in players.iter().enumerate() {
                let own = above + 1 + i as u32;
                if let Some(player) = entrant.player() {
                    placings.push(Placing {
                        player,
                        place: if shared { above + 1 } else { own },
                        last_place: if shared { above + count } else { own },
                    });
                }
            }
            above += count;
        };
        let total = self.rounds.len();
        for (index, round) in self.rounds.iter().enumerate().rev() {
            if index + 1 == total {
                let Some(last) = round.matches.first() else {
                    continue;
                };
                place(&[last.winner(), last.loser()], false, &mut placings);
                if let Some(third) = &self.third_place {
                    let sides = [third.winner(), third.loser()];
                    let real: Vec<Entrant> =
                        sides.into_iter().filter(|e| *e != Entrant::Bye).collect();
                    place(&real, false, &mut placings);
                }
            } else if index + 2 == total && self.third_place.is_some() {
                // Placed by the third-place game.
                continue;
            } else {
                let losers: Vec<Entrant> = round
                    .matches
                    .iter()
                    .filter(|m| m.is_game())
                    .map(BracketMatch::loser)
                    .collect();
                place(&losers, true, &mut placings);
            }
        }
        placings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn seeds(cut: u32) -> Vec<Seeded> {
        (1..=cut)
            .map(|s| Seeded {
                player: i64::from(s) * 10,
                swiss_vp_diff: 0,
            })
            .collect()
    }

    fn rules(cut: u32, third_place: bool) -> PlayoffRules {
        PlayoffRules {
            cut,
            third_place,
            tie: PlayoffTie::HigherSeed,
        }
    }

    fn won(a: PlayerId, b: PlayerId, a_vp: i32, b_vp: i32) -> Game {
        Game {
            round: None,
            table: None,
            a,
            b: Some(b),
            result: Some(GameScore::Malifaux { a_vp, b_vp }),
        }
    }

    /// Plays a bracket to the end; `pick` gives each game's VP.
    fn play_out(
        rules: &PlayoffRules,
        seeds: &[Seeded],
        mut pick: impl FnMut(PlayerId, PlayerId) -> (i32, i32),
    ) -> (Bracket, Vec<Vec<Game>>) {
        let mut played: Vec<Vec<Game>> = Vec::new();
        loop {
            let b = bracket(rules, seeds, &played).expect("bracket");
            match b.next(played.len()) {
                NextPlayoffRound::Finished => return (b, played),
                NextPlayoffRound::Waiting => panic!("waiting with every result in"),
                NextPlayoffRound::Pair { games, .. } => played.push(
                    games
                        .into_iter()
                        .map(|(a, b)| {
                            let (x, y) = pick(a, b);
                            won(a, b, x, y)
                        })
                        .collect(),
                ),
            }
        }
    }

    #[test]
    fn seeds_sit_in_the_usual_bracket_order() {
        assert_eq!(seed_order(2), vec![1, 2]);
        assert_eq!(seed_order(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
        assert_eq!(round_name(0), "Final");
        assert_eq!(round_name(3), "Round of 16");
        assert_eq!(rounds_for(6), 3);
    }

    #[test]
    fn a_cut_of_six_gives_the_top_two_seeds_byes() {
        let b = bracket(&rules(6, false), &seeds(6), &[]).expect("bracket");
        let first = &b.rounds[0].matches;
        assert_eq!(
            first[0].high,
            Entrant::Player {
                player: 10,
                seed: 1
            }
        );
        assert_eq!(first[0].low, Entrant::Bye);
        assert_eq!(first[0].winner().player(), Some(10));
        assert_eq!(first[2].winner().player(), Some(20));
        // Round 1 pairs 4 v 5 and 3 v 6 only.
        assert_eq!(
            b.next(0),
            NextPlayoffRound::Pair {
                index: 0,
                name: "Quarterfinals".into(),
                games: vec![(40, 50), (30, 60)],
            }
        );
    }

    #[test]
    fn a_draw_goes_by_the_tie_rule() {
        let mut seeded = seeds(2);
        seeded[1].swiss_vp_diff = 9;
        let draw = vec![vec![won(20, 10, 5, 5)]];
        let higher = bracket(&rules(2, false), &seeded, &draw).expect("bracket");
        assert_eq!(higher.champion(), Some(10));
        let by_vp = PlayoffRules {
            tie: PlayoffTie::SwissVpDiff,
            ..rules(2, false)
        };
        let b = bracket(&by_vp, &seeded, &draw).expect("bracket");
        assert_eq!(b.champion(), Some(20));
        assert!(matches!(
            b.rounds[0].matches[0].state,
            MatchState::Decided {
                by_tie_rule: true,
                ..
            }
        ));
        // Scores read from the high seed's side although it sat as player b.
        assert_eq!(b.rounds[0].matches[0].scores, Some((5, 5)));
    }

    #[test]
    fn a_game_the_bracket_does_not_hold_is_refused() {
        let stray = vec![vec![won(10, 20, 3, 1)]];
        assert!(matches!(
            bracket(&rules(4, false), &seeds(4), &stray),
            Err(BracketError::StrayGame { round: 1, .. })
        ));
        assert!(matches!(
            bracket(&rules(65, false), &seeds(65), &[]),
            Err(BracketError::CutSize(65))
        ));
    }

    #[test]
    fn a_round_with_a_result_missing_waits() {
        let mut open = won(10, 40, 0, 0);
        open.result = None;
        let b = bracket(
            &rules(4, false),
            &seeds(4),
            &[vec![open, won(20, 30, 6, 2)]],
        )
        .expect("bracket");
        assert_eq!(b.rounds[0].matches[0].state, MatchState::Playing);
        assert_eq!(b.next(1), NextPlayoffRound::Waiting);
    }

    #[test]
    fn the_third_place_game_is_played_with_the_final() {
        let r = rules(4, true);
        let (b, played) = play_out(&r, &seeds(4), |_, _| (4, 1));
        // The better seed of the two losing semifinalists sits as player A.
        assert_eq!(played[1], vec![won(10, 20, 4, 1), won(30, 40, 4, 1)]);
        let places: Vec<(PlayerId, u32)> =
            b.placings().iter().map(|p| (p.player, p.place)).collect();
        assert_eq!(places, vec![(10, 1), (20, 2), (30, 3), (40, 4)]);
    }

    #[test]
    fn without_a_third_place_game_the_semifinal_losers_share_third() {
        let (b, _) = play_out(&rules(8, false), &seeds(8), |_, _| (6, 2));
        let p = b.placings();
        assert_eq!((p[2].place, p[2].last_place), (3, 4));
        assert_eq!((p[4].place, p[4].last_place), (5, 8));
        assert_eq!(p.len(), 8);
    }

    proptest! {
        #[test]
        fn every_bracket_plays_out_fairly(
            cut in MIN_CUT..=MAX_CUT,
            third_place: bool,
            results in proptest::collection::vec((0i32..6, 0i32..6), 80),
        ) {
            let seeded = seeds(cut);
            let r = rules(cut, third_place);
            let first = bracket(&r, &seeded, &[]).expect("bracket");
            // Every seed placed once; byes only beside the top seeds.
            let size = cut.next_power_of_two();
            let mut placed: Vec<u32> = Vec::new();
            for m in &first.rounds[0].matches {
                for side in [m.high, m.low] {
                    if let Entrant::Player { seed, .. } = side {
                        placed.push(seed);
                    }
                }
                if m.low == Entrant::Bye || m.high == Entrant::Bye {
                    let seed = m.high.seed().or(m.low.seed()).expect("a bye has a player beside it");
                    prop_assert!(seed <= size - cut, "seed {} got a bye in a cut of {}", seed, cut);
                }
            }
            placed.sort_unstable();
            prop_assert_eq!(placed, (1..=cut).collect::<Vec<_>>());

            let mut next_result = results.into_iter().cycle();
            let (done, played) = play_out(&r, &seeded, |_, _| next_result.next().unwrap_or((1, 0)));
            prop_assert!(done.is_finished());
            let champion = done.champion().expect("a champion");
            // The champion is in every round, a bye counting as being there.
            for round in &done.rounds {
                prop_assert!(round.matches.iter().any(|m| m.winner().player() == Some(champion)));
            }
            let games: usize = played.iter().map(Vec::len).sum();
            let third = usize::from(third_place && cut >= 4);
            prop_assert_eq!(games, cut as usize - 1 + third);
            // Every player placed once, within the cut, the champion first.
            let placings = done.placings();
            let mut players: Vec<PlayerId> = placings.iter().map(|p| p.player).collect();
            players.sort_unstable();
            players.dedup();
            prop_assert_eq!(players.len(), cut as usize);
            prop_assert_eq!(placings[0].player, champion);
            prop_assert!(placings.iter().all(|p| 1 <= p.place && p.place <= p.last_place && p.last_place <= cut));
        }
    }
}
