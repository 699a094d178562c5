//! Standings: tournament points, then the event's tiebreakers in order.
//!
//! Players are split step by step: first by points, then each group still
//! tied is split by the next tiebreaker. Head-to-head is computed within the
//! group still tied at its step (points won in games among those players),
//! which keeps it well defined for ties of three or more.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Game, Outcome, Player, PlayerId, Scoring, Tiebreaker};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingRow {
    /// 1-based; players tied on every criterion share a rank.
    pub rank: u32,
    pub player: PlayerId,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    pub dropped: bool,
    /// Games with an accepted result, byes included.
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub byes: u32,
    pub points: i32,
    pub scored: i32,
    pub conceded: i32,
    pub eliminated: i32,
    pub sos: i32,
    pub esos: i32,
    /// The value of each of the event's tiebreakers, in the event's order.
    pub tiebreaks: Vec<i64>,
}

impl StandingRow {
    pub fn vp_diff(&self) -> i32 {
        self.scored - self.conceded
    }
}

#[derive(Debug, Default, Clone)]
struct Tally {
    played: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    byes: u32,
    points: i32,
    scored: i32,
    conceded: i32,
    eliminated: i32,
    opponents: Vec<PlayerId>,
}

/// Computes the standings. Games without an accepted result are ignored
/// (byes always count).
pub fn standings(
    players: &[Player],
    games: &[Game],
    scoring: &Scoring,
    tiebreakers: &[Tiebreaker],
) -> Vec<StandingRow> {
    let mut tallies: BTreeMap<PlayerId, Tally> = players
        .iter()
        .map(|p| {
            (
                p.id,
                Tally {
                    points: p.initial_points,
                    ..Tally::default()
                },
            )
        })
        .collect();
    for game in games {
        let Some(b) = game.b else {
            if let Some(t) = tallies.get_mut(&game.a) {
                t.played += 1;
                t.byes += 1;
                t.wins += 1;
                t.points += scoring.win;
                t.scored += scoring.bye_scored;
                t.conceded += scoring.bye_conceded;
            }
            continue;
        };
        let Some(score) = game.result else { continue };
        let outcome = score.outcome();
        let (a_scored, b_scored) = score.scored();
        let (a_elim, b_elim) = score.eliminated();
        for (me, them, my_scored, their_scored, my_elim, won, lost) in [
            (
                game.a,
                b,
                a_scored,
                b_scored,
                a_elim,
                outcome == Outcome::AWins,
                outcome == Outcome::BWins,
            ),
            (
                b,
                game.a,
                b_scored,
                a_scored,
                b_elim,
                outcome == Outcome::BWins,
                outcome == Outcome::AWins,
            ),
        ] {
            if let Some(t) = tallies.get_mut(&me) {
                t.played += 1;
                t.scored += my_scored;
                t.conceded += their_scored;
                t.eliminated += my_elim;
                t.opponents.push(them);
                if won {
                    t.wins += 1;
                    t.points += scoring.win;
                } else if lost {
                    t.losses += 1;
                    t.points += scoring.loss;
                } else {
                    t.draws += 1;
                    t.points += scoring.draw;
                }
            }
        }
    }
    let points_of = |id: &PlayerId| tallies.get(id).map(|t| t.points).unwrap_or(0);
    let sos: BTreeMap<PlayerId, i32> = tallies
        .iter()
        .map(|(id, t)| (*id, t.opponents.iter().map(points_of).sum()))
        .collect();
    let esos: BTreeMap<PlayerId, i32> = tallies
        .iter()
        .map(|(id, t)| {
            (
                *id,
                t.opponents
                    .iter()
                    .map(|o| sos.get(o).copied().unwrap_or(0))
                    .sum(),
            )
        })
        .collect();

    let index: BTreeMap<PlayerId, usize> =
        players.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let mut values: Vec<Vec<i64>> = vec![Vec::with_capacity(tiebreakers.len()); players.len()];
    // Start with everyone in one group, split by points, then by each tiebreaker.
    let mut groups: Vec<Vec<usize>> = vec![(0..players.len()).collect()];
    let value_of = |i: usize, criterion: Option<Tiebreaker>, group: &[usize]| -> i64 {
        let id = players[i].id;
        let Some(t) = tallies.get(&id) else { return 0 };
        match criterion {
            None => i64::from(t.points),
            Some(Tiebreaker::VpDiff) => i64::from(t.scored - t.conceded),
            Some(Tiebreaker::VpScored) => i64::from(t.scored),
            Some(Tiebreaker::Sos) => i64::from(sos.get(&id).copied().unwrap_or(0)),
            Some(Tiebreaker::Esos) => i64::from(esos.get(&id).copied().unwrap_or(0)),
            Some(Tiebreaker::PointsEliminated) => i64::from(t.eliminated),
            Some(Tiebreaker::HeadToHead) => head_to_head(id, group, players, games, scoring),
        }
    };
    let criteria: Vec<Option<Tiebreaker>> = std::iter::once(None)
        .chain(tiebreakers.iter().copied().map(Some))
        .collect();
    for criterion in criteria {
        let mut next = Vec::with_capacity(groups.len());
        for group in groups {
            let mut scored: Vec<(i64, usize)> = group
                .iter()
                .map(|&i| (value_of(i, criterion, &group), i))
                .collect();
            if criterion.is_some() {
                for &(value, i) in &scored {
                    values[i].push(value);
                }
            }
            if group.len() == 1 {
                next.push(group);
                continue;
            }
            scored.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
            let mut current: Vec<usize> = Vec::new();
            let mut current_value = None;
            for (value, i) in scored {
                if current_value.is_some_and(|v| v != value) {
                    next.push(std::mem::take(&mut current));
                }
                current_value = Some(value);
                current.push(i);
            }
            if !current.is_empty() {
                next.push(current);
            }
        }
        groups = next;
    }

    let mut rows = Vec::with_capacity(players.len());
    let mut position = 0u32;
    for mut group in groups {
        // Fully tied players share the rank; list them by name for a stable order.
        group.sort_by(|&x, &y| {
            players[x]
                .name
                .cmp(&players[y].name)
                .then(players[x].id.cmp(&players[y].id))
        });
        let rank = position + 1;
        for i in group {
            position += 1;
            let p = &players[i];
            let t = tallies.get(&p.id).cloned().unwrap_or_default();
            rows.push(StandingRow {
                rank,
                player: p.id,
                name: p.name.clone(),
                club: p.club.clone(),
                dropped: p.dropped,
                played: t.played,
                wins: t.wins,
                draws: t.draws,
                losses: t.losses,
                byes: t.byes,
                points: t.points,
                scored: t.scored,
                conceded: t.conceded,
                eliminated: t.eliminated,
                sos: sos.get(&p.id).copied().unwrap_or(0),
                esos: esos.get(&p.id).copied().unwrap_or(0),
                tiebreaks: std::mem::take(&mut values[index.get(&p.id).copied().unwrap_or(i)]),
            });
        }
    }
    rows
}

/// Tournament points a player won in games against the others of `group`.
fn head_to_head(
    player: PlayerId,
    group: &[usize],
    players: &[Player],
    games: &[Game],
    scoring: &Scoring,
) -> i64 {
    let members: Vec<PlayerId> = group.iter().map(|&i| players[i].id).collect();
    let mut points = 0i64;
    for game in games {
        let (Some(b), Some(score)) = (game.b, game.result) else {
            continue;
        };
        let opponent = if game.a == player {
            b
        } else if b == player {
            game.a
        } else {
            continue;
        };
        if !members.contains(&opponent) {
            continue;
        }
        let won = match score.outcome() {
            Outcome::Draw => None,
            Outcome::AWins => Some(game.a == player),
            Outcome::BWins => Some(b == player),
        };
        points += i64::from(match won {
            Some(true) => scoring.win,
            Some(false) => scoring.loss,
            None => scoring.draw,
        });
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameScore;

    fn player(id: PlayerId, name: &str) -> Player {
        Player {
            id,
            name: name.into(),
            club: None,
            dropped: false,
            fixed_table: None,
            initial_points: 0,
        }
    }

    fn game(round: u32, a: PlayerId, b: PlayerId, a_vp: i32, b_vp: i32) -> Game {
        Game {
            round: Some(round),
            table: None,
            a,
            b: Some(b),
            result: Some(GameScore::Malifaux { a_vp, b_vp }),
        }
    }

    #[test]
    fn points_then_tiebreakers_in_order() {
        let players = vec![
            player(1, "Ann"),
            player(2, "Bob"),
            player(3, "Cat"),
            player(4, "Dan"),
        ];
        let games = vec![
            game(1, 1, 2, 8, 2),
            game(1, 3, 4, 5, 4),
            game(2, 1, 3, 4, 4),
            game(2, 2, 4, 6, 1),
        ];
        let rows = standings(
            &players,
            &games,
            &Scoring::default(),
            &[Tiebreaker::VpDiff, Tiebreaker::Sos],
        );
        let order: Vec<PlayerId> = rows.iter().map(|r| r.player).collect();
        // Ann 4 TP (+6), Cat 4 TP (+1), Bob 3 TP (-1), Dan 0 TP.
        assert_eq!(order, [1, 3, 2, 4]);
        assert_eq!(rows[0].points, 4);
        assert_eq!(rows[0].tiebreaks, vec![6, 7]);
        assert_eq!(rows[0].sos, 3 + 4);
        assert_eq!(rows[3].losses, 2);
        assert_eq!(
            rows.iter().map(|r| r.rank).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
    }

    #[test]
    fn byes_count_as_wins_with_the_event_figures_and_pending_results_do_not_count() {
        let players = vec![player(1, "Ann"), player(2, "Bob"), player(3, "Cat")];
        let scoring = Scoring {
            bye_scored: 6,
            bye_conceded: 1,
            ..Scoring::default()
        };
        let games = vec![
            Game {
                round: Some(1),
                table: None,
                a: 3,
                b: None,
                result: None,
            },
            Game {
                round: Some(1),
                table: Some(1),
                a: 1,
                b: Some(2),
                result: None,
            },
        ];
        let rows = standings(&players, &games, &scoring, &[Tiebreaker::VpDiff]);
        assert_eq!(rows[0].player, 3);
        assert_eq!(
            (
                rows[0].points,
                rows[0].scored,
                rows[0].conceded,
                rows[0].byes
            ),
            (3, 6, 1, 1)
        );
        assert_eq!(rows[1].played, 0);
        assert_eq!(rows[1].rank, rows[2].rank, "untied by nothing: shared rank");
    }

    #[test]
    fn head_to_head_among_the_tied_players_only() {
        let players = vec![player(1, "Ann"), player(2, "Bob"), player(3, "Cat")];
        // All three beat each other once in a cycle but Bob also drew... make a clear h2h:
        let games = vec![
            game(1, 2, 1, 5, 3),
            game(2, 1, 3, 5, 0),
            game(3, 3, 2, 5, 0),
        ];
        // Everyone has 3 TP. H2H among all three is 3 each; VP diff decides next.
        let rows = standings(
            &players,
            &games,
            &Scoring::default(),
            &[Tiebreaker::HeadToHead, Tiebreaker::VpDiff],
        );
        assert!(rows.iter().all(|r| r.points == 3));
        assert!(rows.iter().all(|r| r.tiebreaks[0] == 3));
        // Ann: +2-5... Ann scored 3+5=8, conceded 5+0=5 → +3; Bob 5+0 vs 3+5 → -3; Cat 0+5 vs 5+0 → 0.
        assert_eq!(rows.iter().map(|r| r.player).collect::<Vec<_>>(), [1, 3, 2]);

        // Two players tied: the one who won their game goes first.
        let players = vec![
            player(1, "Ann"),
            player(2, "Bob"),
            player(3, "Cat"),
            player(4, "Dan"),
        ];
        let games = vec![
            game(1, 2, 1, 3, 2),
            game(1, 3, 4, 9, 0),
            game(2, 1, 4, 9, 0),
            game(2, 3, 2, 9, 0),
        ];
        let rows = standings(
            &players,
            &games,
            &Scoring::default(),
            &[Tiebreaker::HeadToHead, Tiebreaker::VpDiff],
        );
        let ann = rows.iter().position(|r| r.player == 1).unwrap();
        let bob = rows.iter().position(|r| r.player == 2).unwrap();
        assert!(
            bob < ann,
            "Bob beat Ann though Ann has the better VP difference"
        );
    }

    #[test]
    fn mage_knight_winner_by_objectives_then_eliminated_then_smaller_army() {
        let mk = |a_o, b_o, a_e, b_e, a_army, b_army| GameScore::MageKnight {
            a_objectives: a_o,
            b_objectives: b_o,
            a_eliminated: a_e,
            b_eliminated: b_e,
            a_army,
            b_army,
        };
        assert_eq!(mk(2, 1, 0, 300, 300, 300).outcome(), Outcome::AWins);
        assert_eq!(mk(1, 1, 120, 80, 300, 300).outcome(), Outcome::AWins);
        assert_eq!(mk(1, 1, 80, 80, 300, 295).outcome(), Outcome::BWins);
        assert_eq!(mk(0, 0, 80, 80, 300, 300).outcome(), Outcome::Draw);
    }

    #[test]
    fn late_entries_start_with_their_initial_points() {
        let mut late = player(3, "Cat");
        late.initial_points = 1;
        let rows = standings(&[player(1, "Ann"), late], &[], &Scoring::default(), &[]);
        assert_eq!(rows[0].player, 3);
        assert_eq!(rows[0].points, 1);
    }
}
