//! Bots for the 1st edition: a random one over the legal choices, and a
//! greedy one that plays by rules of thumb (strike what it can reach, cheat
//! to win a duel it is losing, walk to its strategy). Both see only their
//! seat's view (their own hand, never a deck's order).

use soulstone_random::RandomStream;

use super::actions::{self, Action};
use super::card::{SpellEffect, Station, WeaponKind};
use super::duel::{DuelStep, Versus};
use super::field::{self, CONTACT};
use super::flow::{Order, may_spend_stone};
use super::objectives::{Deployment, Scheme, SchemePick, Strategy, schemes_problem};
use super::skirmish::{Activation, Model, ModelId, Skirmish, Stage};
use crate::Seat;
use crate::fairness::Bytes32;
use crate::table::geometry::V2;

/// How a bot chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Random,
    Greedy,
}

/// What the bot in `seat` sends now, if the game waits for it. `view` is
/// the seat's view.
pub fn order(view: &Skirmish, seat: Seat, style: Style, seed: u64) -> Option<Order> {
    if !view.waits_for(seat) {
        return None;
    }
    let mut rng = RandomStream::from_seed_and_label(seed, "m1e-bot");
    if view.stage == Stage::Contributing {
        return Some(Order::Contribute {
            entropy: Bytes32(rng.next_bytes32()),
        });
    }
    if style == Style::Greedy
        && let Some(order) = greedy(view, seat)
    {
        return Some(order);
    }
    let options = choices(view, seat);
    let pick = rng.below(u32::try_from(options.len()).unwrap_or(1).max(1));
    options.get(usize::try_from(pick).unwrap_or(0)).cloned()
}

/// The legal choices a bot considers now (moves are sampled, not every
/// point of the table).
pub fn choices(game: &Skirmish, seat: Seat) -> Vec<Order> {
    match &game.stage {
        Stage::Contributing => vec![Order::Contribute {
            entropy: Bytes32::default(),
        }],
        Stage::ChoosingStrategy { .. } => Strategy::ALL
            .map(|strategy| Order::ChooseStrategy { strategy })
            .to_vec(),
        Stage::ChoosingDeployment { .. } => Deployment::ALL
            .map(|deployment| Order::ChooseDeployment { deployment })
            .to_vec(),
        Stage::ChoosingSchemes => scheme_sets(game, seat)
            .into_iter()
            .map(|schemes| Order::ChooseSchemes { schemes })
            .collect(),
        Stage::ChoosingDeployOrder { .. } => vec![
            Order::DeployFirst { first: true },
            Order::DeployFirst { first: false },
        ],
        Stage::Deploying { .. } => deploy_spots(game, seat)
            .into_iter()
            .map(|(model, at)| Order::Deploy { model, at })
            .collect(),
        Stage::Discarding { .. } => {
            let hand = &game.player(seat).hand;
            let low: Vec<_> = hand.iter().filter(|c| c.value() < 6).copied().collect();
            let mut options = vec![Order::Discard { cards: Vec::new() }];
            if !low.is_empty() {
                options.push(Order::Discard { cards: low });
            }
            options
        }
        Stage::Reflipping { .. } => vec![
            Order::Reflip { reflip: true },
            Order::Reflip { reflip: false },
        ],
        Stage::Activating { .. } => game
            .on_table(seat)
            .filter(|m| !m.activated)
            .map(|m| Order::Activate { model: m.id })
            .collect(),
        Stage::Acting { activation } => {
            let mut options = vec![Order::EndActivation];
            options.extend(
                action_candidates(game, activation)
                    .into_iter()
                    .map(|action| Order::Act { action }),
            );
            options
        }
        Stage::Dueling { duel, .. } => match duel.step {
            DuelStep::Changing { .. } => {
                let mut options = vec![Order::ChangeTotal {
                    cheat: None,
                    soulstone: false,
                }];
                let Some(side) = duel.side(seat) else {
                    return options;
                };
                let hand = &game.player(seat).hand;
                let stone = side.may_use_stone && game.player(seat).soulstones > 0;
                if stone {
                    options.push(Order::ChangeTotal {
                        cheat: None,
                        soulstone: true,
                    });
                }
                if side.may_cheat(hand) {
                    for card in hand {
                        options.push(Order::ChangeTotal {
                            cheat: Some(*card),
                            soulstone: false,
                        });
                    }
                }
                options
            }
            DuelStep::Triggering { .. } => {
                let mut options = vec![Order::Trigger { trigger: None }];
                if let Some(side) = duel.side(seat) {
                    options.extend(side.payable().into_iter().map(|t| Order::Trigger {
                        trigger: Some(t.name.clone()),
                    }));
                }
                options
            }
        },
        Stage::CheatingDamage { .. } => {
            let mut options = vec![Order::ChangeTotal {
                cheat: None,
                soulstone: false,
            }];
            options.extend(
                game.player(seat)
                    .hand
                    .iter()
                    .map(|card| Order::ChangeTotal {
                        cheat: Some(*card),
                        soulstone: false,
                    }),
            );
            options
        }
        Stage::Preventing { .. } => vec![
            Order::Prevent { soulstone: true },
            Order::Prevent { soulstone: false },
        ],
        Stage::Over => Vec::new(),
    }
}

/// Scheme sets worth considering: none, each scheme alone (announced and
/// not), and pairs of the generic ones.
fn scheme_sets(game: &Skirmish, seat: Seat) -> Vec<Vec<SchemePick>> {
    let leader = |owner: Seat| game.crew(owner).find(|m| actions::leads(m)).map(|m| m.id);
    let mut singles = Vec::new();
    for scheme in Scheme::ALL {
        let model = match scheme.names_model() {
            Some(Seat::A) => leader(seat),
            Some(Seat::B) => leader(seat.other()),
            None => None,
        };
        for announce in [false, true] {
            singles.push(SchemePick {
                scheme,
                model,
                announce,
            });
        }
    }
    let mut sets: Vec<Vec<SchemePick>> = vec![Vec::new()];
    sets.extend(singles.iter().map(|p| vec![p.clone()]));
    for (i, a) in singles.iter().enumerate() {
        for b in singles.iter().skip(i + 1) {
            if a.scheme != b.scheme {
                sets.push(vec![a.clone(), b.clone()]);
            }
        }
    }
    sets.retain(|set| schemes_problem(game, seat, set).is_none());
    sets
}

/// Spots for the next model to deploy: a row across the zone's heart.
fn deploy_spots(game: &Skirmish, seat: Seat) -> Vec<(ModelId, crate::table::Point)> {
    let (Some(deployment), Some(model)) = (
        game.deployment,
        game.crew(seat).find(|m| m.at.is_none() && !m.killed),
    ) else {
        return Vec::new();
    };
    let side = field::side_of(game, seat);
    let heart = deployment.heart(side);
    // Across the zone: perpendicular to the line between the zones' hearts.
    let across = {
        let d = deployment.heart(1 - side).minus(heart).unit();
        V2::new(-d.y, d.x)
    };
    let mut spots = Vec::new();
    for step in 0..24 {
        let offset = f64::from(step / 2) * 1.5 * if step % 2 == 0 { 1.0 } else { -1.0 };
        for depth in [0.0, -1.5, 1.5] {
            let toward = deployment.heart(1 - side).minus(heart).unit();
            let p = heart.plus(across.scale(offset)).plus(toward.scale(depth));
            let at = field::point(p);
            if actions::deploy_problem(game, model, at).is_none() {
                spots.push((model.id, at));
            }
        }
    }
    spots
}

fn enemies<'a>(game: &'a Skirmish, model: &'a Model) -> impl Iterator<Item = &'a Model> {
    game.on_table(model.seat.other())
}

/// The weapons a model may strike with: its own, and Bash if it has no
/// melee weapon.
fn weapons(model: &Model) -> Vec<Option<u8>> {
    let mut list: Vec<Option<u8>> = (0..model.card.weapons.len())
        .filter_map(|i| u8::try_from(i).ok().map(Some))
        .collect();
    if !model
        .card
        .weapons
        .iter()
        .any(|w| w.kind == WeaponKind::Melee)
    {
        list.push(None);
    }
    list
}

/// Where the active model might go, and what it might do.
fn action_candidates(game: &Skirmish, activation: &Activation) -> Vec<Action> {
    let Some(model) = game.model(activation.model) else {
        return Vec::new();
    };
    let mut list = Vec::new();
    for enemy in enemies(game, model) {
        for weapon in weapons(model) {
            for focus in [false, true] {
                list.push(Action::Strike {
                    target: enemy.id,
                    weapon,
                    focus,
                });
            }
            list.push(Action::Charge {
                target: enemy.id,
                weapon,
            });
        }
    }
    for (i, spell) in model.card.spells.iter().enumerate() {
        let Ok(spell_index) = u8::try_from(i) else {
            continue;
        };
        let targets: Vec<ModelId> = if spell.rg == 0 {
            vec![model.id]
        } else {
            game.models
                .iter()
                .filter(|m| m.on_table())
                .map(|m| m.id)
                .collect()
        };
        for target in targets {
            for channel in [false, true] {
                list.push(Action::Cast {
                    spell: spell_index,
                    target,
                    channel,
                });
            }
        }
    }
    list.extend(walks(game, model).into_iter().map(|to| Action::Walk { to }));
    list.push(Action::DefensiveStance);
    list.push(Action::Heal);
    list.push(Action::Interact { pass_to: None });
    list.push(Action::Pass);
    list.retain(|a| actions::allowed(game, activation, a));
    list
}

/// Walks worth trying: toward the nearest enemy, toward the strategy's
/// point, and eight directions at full and half speed.
fn walks(game: &Skirmish, model: &Model) -> Vec<crate::table::Point> {
    let Some(from) = field::at(model) else {
        return Vec::new();
    };
    let speed = actions::speed(model, false);
    let mut goals = Vec::new();
    if let Some(enemy) = nearest_enemy(game, model) {
        goals.push((field::at(enemy), Some(enemy)));
    }
    goals.push((Some(objective_point(game, model)), None));
    let mut spots = Vec::new();
    for (goal, stop_at) in goals {
        if let Some(goal) = goal {
            spots.push(field::straight_move(
                game, model, from, goal, speed, stop_at,
            ));
        }
    }
    for k in 0..8 {
        let angle = f64::from(k) * std::f64::consts::PI / 4.0;
        let direction = V2::new(angle.cos(), angle.sin());
        for share in [1.0, 0.5] {
            let goal = from.plus(direction.scale(speed * share));
            spots.push(field::straight_move(game, model, from, goal, speed, None));
        }
    }
    spots
        .into_iter()
        .filter(|p| p.dist(from) > 0.2)
        .map(field::point)
        .collect()
}

fn nearest_enemy<'a>(game: &'a Skirmish, model: &'a Model) -> Option<&'a Model> {
    enemies(game, model).min_by(|a, b| {
        let da = field::gap(model, a).unwrap_or(f64::MAX);
        let db = field::gap(model, b).unwrap_or(f64::MAX);
        da.total_cmp(&db)
    })
}

/// Where the model's strategy wants it.
fn objective_point(game: &Skirmish, model: &Model) -> V2 {
    let seat = model.seat;
    let deployment = game.deployment.unwrap_or(Deployment::Standard);
    let home = deployment.heart(field::side_of(game, seat));
    match game.player(seat).strategy {
        Some(Strategy::TreasureHunt) => {
            if model.carries_treasure {
                home
            } else if let Some(marker) = game.treasure {
                marker.v2()
            } else {
                game.models
                    .iter()
                    .find(|m| m.carries_treasure)
                    .and_then(field::at)
                    .unwrap_or_else(field::center)
            }
        }
        Some(Strategy::ClaimJump) => field::center(),
        Some(Strategy::Reconnoiter) => {
            // The quarter this model's crew holds least, by index.
            let mut held = [0usize; 4];
            for m in game.on_table(seat) {
                if let Some(p) = field::at(m) {
                    held[field::quarter(p)] += 1;
                }
            }
            let i = usize::from(model.id.0) % 4;
            let quarter = (0..4)
                .min_by_key(|q| (held[*q], (q + 4 - i) % 4))
                .unwrap_or(0);
            let x = if quarter % 2 == 0 { 9.0 } else { 27.0 };
            let y = if quarter < 2 { 9.0 } else { 27.0 };
            V2::new(x, y)
        }
        _ => nearest_enemy(game, model)
            .and_then(field::at)
            .unwrap_or_else(field::center),
    }
}

/// Rules of thumb; `None` leaves the choice to chance.
pub(crate) fn greedy(game: &Skirmish, seat: Seat) -> Option<Order> {
    match &game.stage {
        Stage::ChoosingStrategy { .. } => Some(Order::ChooseStrategy {
            strategy: Strategy::Slaughter,
        }),
        Stage::ChoosingDeployment { .. } => Some(Order::ChooseDeployment {
            deployment: Deployment::Standard,
        }),
        Stage::ChoosingSchemes => {
            let leader = game
                .crew(seat)
                .find(|m| m.card.station == Station::Master)
                .map(|m| m.id);
            let wanted = vec![
                SchemePick {
                    scheme: Scheme::Bodyguard,
                    model: leader,
                    announce: true,
                },
                SchemePick {
                    scheme: Scheme::EyeForAnEye,
                    model: None,
                    announce: false,
                },
            ];
            let most = usize::from(game.encounter.max_schemes());
            let schemes: Vec<SchemePick> = wanted.into_iter().take(most).collect();
            schemes_problem(game, seat, &schemes)
                .is_none()
                .then_some(Order::ChooseSchemes { schemes })
        }
        Stage::ChoosingDeployOrder { .. } => Some(Order::DeployFirst { first: false }),
        Stage::Deploying { .. } => deploy_spots(game, seat)
            .into_iter()
            .next()
            .map(|(model, at)| Order::Deploy { model, at }),
        Stage::Discarding { .. } => Some(Order::Discard {
            cards: game
                .player(seat)
                .hand
                .iter()
                .filter(|c| c.value() < 5)
                .copied()
                .collect(),
        }),
        Stage::Reflipping { .. } => Some(Order::Reflip {
            reflip: game.player(seat).soulstones >= 3,
        }),
        Stage::Activating { .. } => {
            let ready: Vec<&Model> = game.on_table(seat).filter(|m| !m.activated).collect();
            ready
                .iter()
                .min_by(|a, b| {
                    let da = nearest_enemy(game, a).and_then(|e| field::gap(a, e));
                    let db = nearest_enemy(game, b).and_then(|e| field::gap(b, e));
                    da.unwrap_or(f64::MAX).total_cmp(&db.unwrap_or(f64::MAX))
                })
                .map(|m| Order::Activate { model: m.id })
        }
        Stage::Acting { activation } => Some(greedy_action(game, activation)),
        Stage::Dueling { duel, .. } => match duel.step {
            DuelStep::Changing { .. } => {
                let side = duel.side(seat)?;
                let mine_wins = |d: &super::duel::Duel| {
                    let actor_wins = d.actor_wins();
                    if d.actor.seat == seat {
                        actor_wins
                    } else {
                        !actor_wins
                    }
                };
                if mine_wins(duel) {
                    return Some(Order::ChangeTotal {
                        cheat: None,
                        soulstone: false,
                    });
                }
                let hand = &game.player(seat).hand;
                if side.may_cheat(hand) {
                    let mut sorted = hand.clone();
                    sorted.sort_by_key(|c| c.value());
                    for card in sorted {
                        let mut tried = (**duel).clone();
                        if let Some(s) = tried.side_mut(seat) {
                            s.card = card;
                        }
                        if mine_wins(&tried) {
                            return Some(Order::ChangeTotal {
                                cheat: Some(card),
                                soulstone: false,
                            });
                        }
                    }
                }
                let close = match &duel.versus {
                    Versus::Model { defender } => {
                        (duel.actor.total() - defender.total()).abs() <= 6
                    }
                    Versus::Number { tn, .. } => (tn - duel.actor.total()) <= 6,
                };
                Some(Order::ChangeTotal {
                    cheat: None,
                    soulstone: close && side.may_use_stone && game.player(seat).soulstones >= 2,
                })
            }
            DuelStep::Triggering { .. } => Some(Order::Trigger {
                trigger: duel
                    .side(seat)
                    .and_then(|s| s.payable().first().map(|t| t.name.clone())),
            }),
        },
        Stage::CheatingDamage { flip, .. } => {
            let now = flip.card.value();
            let wanted = if now < 6 { 6 } else { 11 };
            let cheat = (now < 11)
                .then(|| {
                    game.player(seat)
                        .hand
                        .iter()
                        .filter(|c| c.value() >= wanted && c.value() <= 13)
                        .min_by_key(|c| c.value())
                        .copied()
                })
                .flatten();
            Some(Order::ChangeTotal {
                cheat,
                soulstone: false,
            })
        }
        Stage::Preventing { flip, .. } => {
            let left = game.model(flip.target).map_or(0, |m| m.wounds_left);
            let amount = flip.amount.unwrap_or(0);
            Some(Order::Prevent {
                soulstone: amount >= 3 || amount >= left,
            })
        }
        _ => None,
    }
}

fn greedy_action(game: &Skirmish, activation: &Activation) -> Order {
    let Some(model) = game.model(activation.model) else {
        return Order::EndActivation;
    };
    let legal = |action: &Action| actions::allowed(game, activation, action);
    let act = |action: Action| Order::Act { action };
    if model.carries_treasure
        && let Some(to) = walk_toward(game, model, objective_point(game, model))
        && legal(&Action::Walk { to })
    {
        return act(Action::Walk { to });
    }
    // Strike the most wounded enemy in reach with the hardest-hitting weapon.
    let mut strikes: Vec<(i32, Action)> = Vec::new();
    for enemy in enemies(game, model) {
        for weapon in weapons(model) {
            let action = Action::Strike {
                target: enemy.id,
                weapon,
                focus: false,
            };
            if legal(&action) {
                let hit = actions::weapon_of(model, weapon)
                    .map_or(0, |w| i32::from(w.2) * 2 + i32::from(w.3.moderate));
                strikes.push((hit * 4 - i32::from(enemy.wounds_left), action));
            }
        }
    }
    if let Some((_, action)) = strikes.into_iter().max_by_key(|(worth, _)| *worth) {
        return act(action);
    }
    // A damaging spell on an enemy.
    for (i, spell) in model.card.spells.iter().enumerate() {
        let damaging = spell
            .effects
            .iter()
            .any(|e| matches!(e, SpellEffect::Damage { .. }));
        if !damaging || model.card.ca + 6 < spell.cc {
            continue;
        }
        for enemy in enemies(game, model) {
            let action = Action::Cast {
                spell: u8::try_from(i).unwrap_or(0),
                target: enemy.id,
                channel: false,
            };
            if legal(&action) {
                return act(action);
            }
        }
    }
    if legal(&Action::Interact { pass_to: None }) {
        return act(Action::Interact { pass_to: None });
    }
    if let Some(enemy) = nearest_enemy(game, model) {
        let reach = f64::from(model.card.cg) + 1.0;
        let gap = field::gap(model, enemy).unwrap_or(f64::MAX);
        let wanted_objective = matches!(
            game.player(model.seat).strategy,
            Some(Strategy::Slaughter | Strategy::Assassinate) | None
        );
        if gap <= reach && wanted_objective {
            let weapon = weapons(model)
                .into_iter()
                .find(|w| actions::weapon_of(model, *w).is_some_and(|x| x.0 == WeaponKind::Melee))
                .flatten();
            let charge = Action::Charge {
                target: enemy.id,
                weapon,
            };
            if legal(&charge) {
                return act(charge);
            }
        }
    }
    if model.wounds_left * 2 <= model.card.wd
        && game.player(model.seat).soulstones >= 2
        && legal(&Action::Heal)
    {
        return act(Action::Heal);
    }
    let goal = objective_point(game, model);
    let engaged = field::engaging(game, model).next().is_some();
    if !engaged
        && let Some(to) = walk_toward(game, model, goal)
        && legal(&Action::Walk { to })
    {
        return act(Action::Walk { to });
    }
    if may_spend_stone(game, model.seat) && engaged && legal(&Action::DefensiveStance) {
        return act(Action::DefensiveStance);
    }
    Order::EndActivation
}

/// The farthest straight walk toward `goal`, stopping short of contact
/// with an enemy standing there.
fn walk_toward(game: &Skirmish, model: &Model, goal: V2) -> Option<crate::table::Point> {
    let from = field::at(model)?;
    let standing = enemies(game, model)
        .find(|e| field::at(e).is_some_and(|p| p.dist(goal) < field::radius(&e.card) + CONTACT));
    let end = field::straight_move(
        game,
        model,
        from,
        goal,
        actions::speed(model, false),
        standing,
    );
    (end.dist(from) > 0.2).then(|| field::point(end))
}
