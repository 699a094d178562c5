//! Ratings across events: Glicko-2 (the `skillratings` crate), with one
//! rating period per calendar month. Every game of the ranked events ending
//! in a month is rated at once against the opponents' ratings at the start
//! of that month, so the order of events within a month does not matter,
//! as the formula intends. A month without games widens a player's
//! deviation (their rating grows less certain) and leaves the rating alone.
//! `docs/rankings.md` gives the formula's parameters.

use std::collections::BTreeMap;

use serde::Serialize;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, decay_deviation, glicko2_rating_period};

use super::{Outcome, PlayerId};

/// A rated game between two players (accounts, not registrations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatedGame {
    pub a: PlayerId,
    pub b: PlayerId,
    pub outcome: Outcome,
}

/// A ranked event's games, with the month it ended in (any increasing
/// count of months, such as `year * 12 + month`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedEvent {
    pub event: i64,
    pub month: i32,
    pub games: Vec<RatedGame>,
}

/// A player's rating after one of their events.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RatingPoint {
    pub event: i64,
    pub rating: f64,
    pub deviation: f64,
    /// This event's part of its month's change: the events of a month are
    /// rated together, and their parts add up to the month's change.
    pub change: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerRating {
    pub player: PlayerId,
    pub rating: f64,
    /// One standard deviation of the rating's uncertainty.
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
    pub events: u32,
    pub history: Vec<RatingPoint>,
}

impl PlayerRating {
    /// Few games yet: the rating is still a guess.
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }
}

/// Above this deviation a rating is shown as provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The system constant τ: how fast volatility may change (Glickman
/// suggests 0.3 to 1.2; small is steady).
pub const TAU: f64 = 0.5;

struct State {
    rating: Glicko2Rating,
    /// The last month this player's deviation was brought up to date for.
    month: i32,
    games: u32,
    events: u32,
    history: Vec<RatingPoint>,
}

/// Every player's rating after the given events, in any order.
pub fn ratings(events: &[RatedEvent]) -> BTreeMap<PlayerId, PlayerRating> {
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let mut months: BTreeMap<i32, Vec<&RatedEvent>> = BTreeMap::new();
    for event in events {
        months.entry(event.month).or_default().push(event);
    }
    let mut players: BTreeMap<PlayerId, State> = BTreeMap::new();
    // Per player: (opponent, points ×2, event) of each game this month.
    let mut results: BTreeMap<PlayerId, Vec<(PlayerId, u8, i64)>> = BTreeMap::new();
    // Per (player, event): that event's part of the player's month's change.
    let mut parts: BTreeMap<(PlayerId, i64), f64> = BTreeMap::new();
    for (&month, month_events) in &months {
        results.clear();
        parts.clear();
        for (event, game) in month_events
            .iter()
            .flat_map(|e| e.games.iter().map(move |g| (e.event, g)))
        {
            if game.a == game.b {
                continue;
            }
            // Points ×2 so a draw stays an integer: the results sort exactly.
            let (a_points, b_points) = match game.outcome {
                Outcome::AWins => (2, 0),
                Outcome::BWins => (0, 2),
                Outcome::Draw => (1, 1),
            };
            results
                .entry(game.a)
                .or_default()
                .push((game.b, a_points, event));
            results
                .entry(game.b)
                .or_default()
                .push((game.a, b_points, event));
        }
        // Everyone who plays this month starts it with their deviation
        // widened for the months they sat out.
        for &player in results.keys() {
            let state = players.entry(player).or_insert_with(|| State {
                rating: Glicko2Rating::new(),
                month,
                games: 0,
                events: 0,
                history: Vec::new(),
            });
            for _ in state.month.saturating_add(1)..month {
                state.rating = decay_deviation(&state.rating);
            }
            state.month = month;
        }
        let start: BTreeMap<PlayerId, Glicko2Rating> = results
            .keys()
            .filter_map(|p| Some((*p, players.get(p)?.rating)))
            .collect();
        for (player, list) in &mut results {
            // A fixed order makes the floating-point sums independent of the
            // order the games came in.
            list.sort_unstable();
            let against: Vec<(Glicko2Rating, Outcomes)> = list
                .iter()
                .filter_map(|(opponent, points, _)| {
                    let outcome = match points {
                        2 => Outcomes::WIN,
                        0 => Outcomes::LOSS,
                        _ => Outcomes::DRAW,
                    };
                    Some((*start.get(opponent)?, outcome))
                })
                .collect();
            let Some(state) = players.get_mut(player) else {
                continue;
            };
            let before = state.rating;
            state.rating = glicko2_rating_period(&before, &against, &config);
            state.games += list.len() as u32;
            for ((_, _, event), part) in
                list.iter()
                    .zip(game_parts(&before, &state.rating, list, &start))
            {
                *parts.entry((*player, *event)).or_default() += part;
            }
        }
        for event in month_events {
            let mut present: Vec<PlayerId> = event.games.iter().flat_map(|g| [g.a, g.b]).collect();
            present.sort_unstable();
            present.dedup();
            for player in present {
                if let Some(state) = players.get_mut(&player) {
                    state.events += 1;
                    state.history.push(RatingPoint {
                        event: event.event,
                        rating: state.rating.rating,
                        deviation: state.rating.deviation,
                        change: parts.get(&(player, event.event)).copied().unwrap_or(0.0),
                    });
                }
            }
        }
    }
    // Bring everyone's deviation up to the last month rated.
    let last = months.keys().next_back().copied().unwrap_or(0);
    players
        .into_iter()
        .map(|(player, mut state)| {
            for _ in state.month.saturating_add(1)..=last {
                state.rating = decay_deviation(&state.rating);
            }
            (
                player,
                PlayerRating {
                    player,
                    rating: state.rating.rating,
                    deviation: state.rating.deviation,
                    volatility: state.rating.volatility,
                    games: state.games,
                    events: state.events,
                    history: state.history,
                },
            )
        })
        .collect()
}

/// Glicko-2's scale factor between its internal scale and ratings.
const GLICKO2_SCALE: f64 = 173.7178;

/// Each game's part of a player's change over a rating period: Glicko-2
/// moves the rating by the new deviation squared times the sum over the
/// games of g(φⱼ)·(sⱼ − Eⱼ), so each game's term, times the same factor,
/// is its part, and the parts add up to the change.
fn game_parts(
    before: &Glicko2Rating,
    after: &Glicko2Rating,
    games: &[(PlayerId, u8, i64)],
    start: &BTreeMap<PlayerId, Glicko2Rating>,
) -> Vec<f64> {
    let mu = (before.rating - 1500.0) / GLICKO2_SCALE;
    let phi_after = after.deviation / GLICKO2_SCALE;
    games
        .iter()
        .map(|(opponent, points, _)| {
            let Some(them) = start.get(opponent) else {
                return 0.0;
            };
            let mu_j = (them.rating - 1500.0) / GLICKO2_SCALE;
            let phi_j = them.deviation / GLICKO2_SCALE;
            let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
            let expected = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
            let score = f64::from(*points) / 2.0;
            GLICKO2_SCALE * phi_after * phi_after * g * (score - expected)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn game(a: PlayerId, b: PlayerId, outcome: Outcome) -> RatedGame {
        RatedGame { a, b, outcome }
    }

    fn arb_events() -> impl Strategy<Value = Vec<RatedEvent>> {
        let outcome = prop_oneof![
            Just(Outcome::AWins),
            Just(Outcome::BWins),
            Just(Outcome::Draw)
        ];
        let games =
            proptest::collection::vec((0i64..12, 0i64..12, outcome), 1..20).prop_map(|games| {
                games
                    .into_iter()
                    .map(|(a, b, outcome)| game(a, b, outcome))
                    .collect::<Vec<_>>()
            });
        proptest::collection::vec((0i32..4, games), 1..8).prop_map(|events| {
            events
                .into_iter()
                .enumerate()
                .map(|(i, (month, games))| RatedEvent {
                    event: i as i64,
                    month,
                    games,
                })
                .collect()
        })
    }

    #[test]
    fn a_win_raises_and_a_loss_lowers() {
        let r = ratings(&[RatedEvent {
            event: 1,
            month: 0,
            games: vec![game(1, 2, Outcome::AWins)],
        }]);
        assert!(r[&1].rating > 1500.0 && r[&2].rating < 1500.0);
        assert!(r[&1].deviation < 350.0);
        assert_eq!((r[&1].games, r[&1].events), (1, 1));
        assert!(r[&1].is_provisional());
    }

    #[test]
    fn a_month_away_widens_the_deviation_only() {
        let played = RatedEvent {
            event: 1,
            month: 0,
            games: vec![game(1, 2, Outcome::Draw)],
        };
        let later = RatedEvent {
            event: 2,
            month: 6,
            games: vec![game(3, 4, Outcome::Draw)],
        };
        let before = ratings(std::slice::from_ref(&played));
        let after = ratings(&[played, later]);
        assert_eq!(before[&1].rating, after[&1].rating);
        assert!(after[&1].deviation > before[&1].deviation);
    }

    #[test]
    fn two_events_of_a_month_each_show_their_part() {
        // A win at one event and a loss at the other, the same month.
        let r = ratings(&[
            RatedEvent {
                event: 1,
                month: 0,
                games: vec![game(1, 2, Outcome::AWins), game(1, 3, Outcome::AWins)],
            },
            RatedEvent {
                event: 2,
                month: 0,
                games: vec![game(1, 4, Outcome::BWins)],
            },
        ]);
        let history = &r[&1].history;
        assert_eq!(history.len(), 2);
        // One rating after the month, but each event its own change.
        assert_eq!(history[0].rating, history[1].rating);
        assert!(history[0].change > 0.0 && history[1].change < 0.0);
        assert!(history[0].change > -history[1].change, "two wins, one loss");
    }

    proptest! {
        #[test]
        fn the_parts_of_a_month_add_up_to_its_change(events in arb_events()) {
            let mut months: Vec<i32> = events.iter().map(|e| e.month).collect();
            months.sort_unstable();
            months.dedup();
            let all = ratings(&events);
            for (player, rating) in &all {
                // The rating before each month is the last point of an
                // earlier month (deviation widening leaves it alone).
                let mut before = 1500.0;
                for month in &months {
                    let of_month: Vec<&RatingPoint> = rating
                        .history
                        .iter()
                        .filter(|p| events.iter().any(|e| e.event == p.event && e.month == *month))
                        .collect();
                    let Some(last) = of_month.last() else { continue };
                    let parts: f64 = of_month.iter().map(|p| p.change).sum();
                    prop_assert!(
                        (before + parts - last.rating).abs() < 1e-6,
                        "player {} month {}: {} + {} != {}", player, month, before, parts, last.rating
                    );
                    before = last.rating;
                }
            }
        }

        #[test]
        fn the_order_of_events_within_a_month_does_not_matter(events in arb_events()) {
            let mut reversed = events.clone();
            reversed.reverse();
            let forward = ratings(&events);
            let backward = ratings(&reversed);
            prop_assert_eq!(forward.len(), backward.len());
            for (player, rating) in &forward {
                let other = &backward[player];
                prop_assert_eq!(rating.rating, other.rating);
                prop_assert_eq!(rating.deviation, other.deviation);
            }
        }

        #[test]
        fn a_player_who_only_wins_never_loses_rating(events in arb_events()) {
            // Player 99 wins every game it plays, one per event, each
            // event a month after the one before.
            let mut events = events;
            for (i, event) in events.iter_mut().enumerate() {
                event.month = i as i32 * 2;
                event.games.push(game(99, i as i64 % 12, Outcome::AWins));
            }
            let mut seen = Vec::new();
            let mut last = 1500.0;
            for event in &events {
                seen.push(event.clone());
                let now = ratings(&seen)[&99].rating;
                prop_assert!(now >= last, "{} after {}", now, last);
                last = now;
            }
        }
    }
}
