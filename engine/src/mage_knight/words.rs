//! Mage Knight in words: an order as a player reads it before sending it,
//! and each fact as a line of the game's log, with its numbers.

use super::battlefield::Feature;
use super::facts::{Critical, Fact, Harm, RollFor};
use super::game::{Battle, WarriorId};
use super::orders::Order;
use crate::Seat;
use crate::table::{Point, inches};

fn name(battle: &Battle, id: WarriorId) -> String {
    battle.warrior(id).map_or_else(
        || format!("warrior {}", id.0),
        |w| format!("{} ({} #{})", w.card.name, w.seat.label(), id.0),
    )
}

fn spot(at: Point) -> String {
    format!("({:.1}\", {:.1}\")", inches(at.x), inches(at.y))
}

fn names(battle: &Battle, ids: &[WarriorId]) -> String {
    ids.iter()
        .map(|id| name(battle, *id))
        .collect::<Vec<_>>()
        .join(" and ")
}

/// A constructed feature's card, and the damage it took this turn.
pub fn construction(feature: &Feature, taken: u8) -> Option<String> {
    let c = feature.construction?;
    let fortified = if c.fortification > 0 {
        format!(", fortification +{}", c.fortification)
    } else {
        String::new()
    };
    let taken = if taken > 0 {
        format!(" ({taken} taken this turn)")
    } else {
        String::new()
    };
    Some(format!(
        "constructed: defense {}, structure {}{taken}{fortified}",
        c.defense, c.structure
    ))
}

/// What sending `order` does, in words, as `seat` (who sends it) reads it.
pub fn order(battle: &Battle, seat: Seat, order: &Order) -> String {
    match order {
        Order::Contribute { .. } => "Add your entropy to the dice".into(),
        Order::PlaceObjective { x } => format!("Place your objective {:.1}\" across", inches(*x)),
        Order::PlaceTerrain(p) => format!(
            "Place {} at {}",
            battle
                .pile
                .get(usize::from(p.feature))
                .map_or("a feature", |f| f.name.as_str()),
            spot(p.at)
        ),
        Order::PassTerrain if battle.second_constructed => {
            "Place no second constructed feature this turn".into()
        }
        Order::PassTerrain => "Place no more terrain: nothing left in the pile fits".into(),
        Order::ChooseDomain(choice) => {
            let card = battle.domain_decks[seat.index()].get(usize::from(choice.domain));
            match card {
                Some(card) => format!("Choose the domain {}: {}", card.name, card.text),
                None => format!("Choose domain {}", choice.domain + 1),
            }
        }
        Order::Deploy { placements } => format!(
            "Deploy your {} warriors in two rows across your deployment area",
            placements.len()
        ),
        Order::Move(m) => {
            let to = m
                .path
                .last()
                .map_or_else(|| "where it stands".into(), |p| spot(*p));
            let level = match (m.change_level, battle.warrior(m.warrior)) {
                (true, Some(w)) if w.soaring => " (landing)",
                (true, _) => " (taking off)",
                _ => "",
            };
            format!(
                "Move {} to {to}, facing {}°{}{level}",
                name(battle, m.warrior),
                m.facing,
                if m.double_time { " (double-time)" } else { "" }
            )
        }
        Order::CloseCombat(c) => {
            let helpers = if c.gang_up.is_empty() {
                String::new()
            } else {
                format!(", {} ganging up", names(battle, &c.gang_up))
            };
            let surge = if c.surge.is_some() {
                " after a surge"
            } else {
                ""
            };
            let held = battle
                .warrior(c.target)
                .is_some_and(|t| t.captor == Some(c.attacker));
            let aim = if held {
                " to eliminate its captive (-3)"
            } else if c.capture {
                " to capture it (-3)"
            } else {
                ""
            };
            format!(
                "{} attacks {} in close combat{aim}{surge}{helpers}",
                name(battle, c.attacker),
                name(battle, c.target)
            )
        }
        Order::MoveFormation(f) => {
            let ids: Vec<WarriorId> = f.members.iter().map(|m| m.warrior).collect();
            format!("Move {} together in a formation", names(battle, &ids))
        }
        Order::RangedFormation(f) => {
            let parts: Vec<String> = f
                .members
                .iter()
                .map(|m| {
                    format!(
                        "{} {}",
                        name(battle, m.warrior),
                        match m.adds {
                            super::combat::Boost::Attack => "+2 attack",
                            super::combat::Boost::Damage => "+1 damage",
                        }
                    )
                })
                .collect();
            format!(
                "{} leads a formation's shot at {} ({})",
                name(battle, f.attack.attacker),
                names(battle, &f.attack.targets),
                parts.join(", ")
            )
        }
        Order::RangedCombat(r) => format!(
            "{} shoots at {}{}{}",
            name(battle, r.attacker),
            names(battle, &r.targets),
            match r.point_blank {
                Some(super::combat::Boost::Attack) => " (point blank: +1 attack)",
                Some(super::combat::Boost::Damage) => " (point blank: +1 damage)",
                None => "",
            },
            if r.precision { " (precision: -2)" } else { "" }
        ),
        Order::Bombard(b) => format!(
            "{} bombards {}",
            name(battle, b.attacker),
            b.spots
                .iter()
                .map(|p| spot(*p))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        Order::DropItem(d) => format!(
            "{} drops {}",
            name(battle, d.warrior),
            battle
                .warrior(d.warrior)
                .and_then(|w| w.items.get(usize::from(d.item)))
                .map_or("an item", |i| i.name.as_str())
        ),
        Order::PickUpItem(p) => format!(
            "{} picks up {} (a special action)",
            name(battle, p.warrior),
            battle
                .loose_items
                .get(usize::from(p.item))
                .map_or("an item", |l| l.item.name.as_str())
        ),
        Order::AttackTerrain(t) => format!(
            "{} attacks {} ({})",
            name(battle, t.attacker),
            battle
                .terrain
                .get(usize::from(t.feature))
                .map_or("a feature", |f| f.name.as_str()),
            if t.ranged { "ranged" } else { "close combat" }
        ),
        Order::SplitDamage { shares } => format!(
            "Divide the damage: {}",
            shares
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Order::EndActions => "End your action phase".into(),
    }
}

/// A fact as a log line (`battle` names the warriors: any moment of the
/// game will do); `None` for facts a log does not show (an attack's dice
/// are shown with it).
pub fn fact(battle: &Battle, fact: &Fact) -> Option<String> {
    Some(match fact {
        Fact::Contributed { seat, .. } => format!("{} added entropy to the dice", seat.label()),
        Fact::Rolled { roll, dice } => {
            let total: u8 = dice.iter().sum();
            match roll {
                RollFor::FirstPlayer => format!("A roll for the first player: {dice:?} = {total}"),
                RollFor::BreakAway { warrior } => format!(
                    "{} tries to break away: rolled {total} ({})",
                    name(battle, *warrior),
                    if total >= 4 { "away" } else { "held" }
                ),
                RollFor::Attack { .. } | RollFor::Bombardment { .. } | RollFor::Drift { .. } => {
                    return None;
                }
            }
        }
        Fact::FirstPlayer { seat, distances } => format!(
            "{} goes first; objectives {}\" (A) and {}\" (B) beyond the deployment areas",
            seat.label(),
            distances[0],
            distances[1]
        ),
        Fact::ObjectivePlaced { seat, at } => {
            format!("{} placed its objective at {}", seat.label(), spot(*at))
        }
        Fact::TerrainPlaced { seat, feature, .. } => format!(
            "{} placed {} ({}) at {}",
            seat.label(),
            feature.name,
            feature.kind.words(),
            spot(Point::from_v2(feature.shape().bounding_circle().0))
        ),
        Fact::TerrainPassed { seat } => format!(
            "{}: nothing left in the pile fits; the terrain is placed",
            seat.label()
        ),
        // Which card stays secret until both are revealed.
        Fact::DomainChosen { seat, .. } => format!("{} chose a domain", seat.label()),
        Fact::DomainsRevealed { chosen, in_play } => {
            let kept: Vec<&str> = in_play.iter().map(|d| d.name.as_str()).collect();
            format!(
                "Domains revealed: {} (A) and {} (B); in play: {}",
                chosen[0],
                chosen[1],
                if kept.is_empty() {
                    "none, each cancelled".to_owned()
                } else {
                    kept.join(" and ")
                }
            )
        }
        Fact::ItemDropped {
            warrior,
            name: item,
            at,
            ..
        } => format!(
            "{} drops {item}; its token lies at {}",
            name(battle, *warrior),
            spot(*at)
        ),
        Fact::ItemPickedUp {
            warrior,
            name: item,
            ..
        } => format!("{} picks up and wields {item}", name(battle, *warrior)),
        Fact::SecondPieceDeclined { seat } => {
            format!("{} places no second constructed feature", seat.label())
        }
        Fact::TerrainAttacked {
            attacker,
            name: feature,
            roll,
            attack,
            defense,
            hit,
            critical,
            ..
        } => format!(
            "{} attacks {feature}: {roll} + attack {attack} = {} against its defense {defense}: {}",
            name(battle, *attacker),
            u16::from(*roll) + u16::from(*attack),
            match (critical, hit) {
                (Some(Critical::Hit), _) => "a critical hit",
                (Some(Critical::Miss), _) => "a critical miss",
                (None, true) => "a hit",
                (None, false) => "a miss",
            }
        ),
        Fact::TerrainDamaged { name, amount, .. } => {
            format!("{name} takes {amount} structural damage")
        }
        Fact::TerrainEliminated { name, .. } => {
            format!("{name} is eliminated and leaves the battlefield")
        }
        Fact::Deployed { seat, placements } => {
            format!("{} deployed {} warriors", seat.label(), placements.len())
        }
        Fact::TurnBegan { seat, actions } => {
            format!("{}'s turn: {actions} actions", seat.label())
        }
        Fact::ActionGiven { .. } => return None,
        Fact::Moved {
            warrior,
            path,
            facing,
        } => format!(
            "{} moved to {}, facing {facing}°",
            name(battle, *warrior),
            path.last().map_or_else(String::new, |p| spot(*p))
        ),
        Fact::LevelChanged { warrior, soaring } => format!(
            "{} {}",
            name(battle, *warrior),
            if *soaring {
                "took off to soaring level"
            } else {
                "landed"
            }
        ),
        Fact::Turned { warrior, facing } => {
            format!("{} turned to face {facing}°", name(battle, *warrior))
        }
        Fact::Attacked {
            attacker,
            roll,
            against,
            hits,
            critical,
        } => {
            let each: Vec<String> = against
                .iter()
                .map(|(target, attack, defense)| {
                    format!(
                        "{roll} + attack {attack} = {} against {}'s defense {defense}: {}",
                        u16::from(*roll) + u16::from(*attack),
                        name(battle, *target),
                        if hits.contains(target) { "hit" } else { "miss" }
                    )
                })
                .collect();
            let critical = match critical {
                Some(Critical::Hit) => " A critical hit!",
                Some(Critical::Miss) => " A critical miss!",
                None => "",
            };
            format!(
                "{} attacks: {}.{critical}",
                name(battle, *attacker),
                each.join("; ")
            )
        }
        Fact::Damaged {
            warrior,
            amount,
            harm,
        } => {
            let why = match harm {
                Harm::Attack { .. } => "damage",
                Harm::Pushing => "pushing damage",
                Harm::ShakeOff { .. } => "shake off damage",
            };
            format!("{} takes {amount} {why}", name(battle, *warrior))
        }
        Fact::Healed { warrior, amount } => {
            format!("{} is healed of {amount}", name(battle, *warrior))
        }
        Fact::Eliminated { warrior, credited } => format!(
            "{} is eliminated{}",
            name(battle, *warrior),
            credited.map_or_else(String::new, |s| format!(
                " ({} points to {})",
                battle.warrior(*warrior).map_or(0, |w| w.card.points),
                s.label()
            ))
        ),
        Fact::TokenGiven { .. } => return None,
        Fact::ActionShared { warriors, .. } => {
            format!(
                "{} share the action in a formation",
                names(battle, warriors)
            )
        }
        Fact::Captured { captor, captive } => format!(
            "{} took {} captive",
            name(battle, *captor),
            name(battle, *captive)
        ),
        Fact::Freed { captive } => format!("{} was freed", name(battle, *captive)),
        Fact::Bombarded {
            attacker, tokens, ..
        } => format!(
            "{} places bombardment tokens at {}; they fall at the start of its player's next turn",
            name(battle, *attacker),
            tokens
                .iter()
                .map(|t| spot(t.at))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        Fact::BombardmentLanded {
            attacker,
            token,
            result,
            landing,
            blocked,
            drift,
        } => {
            let blocked = if *blocked {
                " (line of fire blocked: -2)"
            } else {
                ""
            };
            let fell = match drift {
                None => "it lands where it was placed".to_owned(),
                Some(d) => format!("it drifts {}\" (die {}) to {}", d.inches, d.die, spot(d.to)),
            };
            format!(
                "{}'s bombardment token {}: result {result}{blocked} against landing {landing}; {fell}",
                name(battle, *attacker),
                token + 1
            )
        }
        Fact::BombardmentResolved { attacker } => {
            format!("{}'s bombardment is over", name(battle, *attacker))
        }
        Fact::SplitAsked { seat, split } => format!(
            "{} divides {} damage among {}",
            seat.label(),
            split.damage,
            names(battle, &split.hits)
        ),
        Fact::DamageDivided { .. } => return None,
        Fact::ActionPhaseEnded { seat } => format!("{} ends its action phase", seat.label()),
        Fact::PlayerEliminated { seat } => {
            format!(
                "{} has no able warriors and is out of the game",
                seat.label()
            )
        }
        Fact::ObjectiveChanged {
            objective,
            controller,
        } => match controller {
            Some(seat) => format!("{} takes objective {}", seat.label(), objective + 1),
            None => format!("Objective {} is contested: no one holds it", objective + 1),
        },
        Fact::TokensCleared { warriors } => {
            format!(
                "{} warriors that rested lose their action tokens",
                warriors.len()
            )
        }
        Fact::GameEnded { outcome } => outcome.words(),
        Fact::SeedRevealed { seed } => format!("The dice's seed is revealed: {seed:?}"),
    })
}
