//! What the game page's forms send, read into orders. The forms are
//! checked here only for their shape (numbers, warriors); whether the
//! rules allow the order is the engine's to say.

use soulstone_engine::fairness::Bytes32;
use soulstone_engine::mage_knight::bombardment::Bombard;
use soulstone_engine::mage_knight::combat::{Boost, CloseAttack, RangedAttack};
use soulstone_engine::mage_knight::constructed::TerrainAttack;
use soulstone_engine::mage_knight::facts::Placement;
use soulstone_engine::mage_knight::formation::{self, Contribution, RangedFormation};
use soulstone_engine::mage_knight::items::{DropItem, PickUpItem};
use soulstone_engine::mage_knight::movement::MoveOrder;
use soulstone_engine::mage_knight::placing::PlaceTerrain;
use soulstone_engine::mage_knight::{Battle, Order, WarriorId};
use soulstone_engine::table::{Point, milli};

use super::super::form_field;

/// What a form asks for: an order as it stands, or a movement
/// formation whose members follow their leader's path, which needs the
/// warriors' places to become an order.
#[derive(Debug, PartialEq)]
pub(super) enum Asked {
    Order(Order),
    FollowLeader {
        leader: MoveOrder,
        members: Vec<WarriorId>,
    },
}

impl Asked {
    /// The order to send, given the game as it stands.
    pub(super) fn into_order(self, battle: &Battle) -> Order {
        match self {
            Asked::Order(order) => order,
            Asked::FollowLeader { leader, members } => {
                Order::MoveFormation(formation::following(battle, leader, &members))
            }
        }
    }
}

/// The warriors a form names under `name`.
fn ids(fields: &[(String, String)], name: &str) -> Result<Vec<WarriorId>, String> {
    fields
        .iter()
        .filter(|(k, v)| k == name && !v.trim().is_empty())
        .map(|(_, v)| {
            v.trim()
                .parse::<u16>()
                .map(WarriorId)
                .map_err(|_| "That warrior could not be read: reload the page.".to_owned())
        })
        .collect()
}

/// What a form asks for: a listed choice (JSON), a move to a point
/// (bending through others, alone or leading a formation), an attack, the
/// entropy for the dice, or the end of the action phase.
pub(super) fn asked_by_form(fields: &[(String, String)]) -> Result<Asked, String> {
    order_from_form(fields).map(|order| match order {
        Order::Move(leader) => match ids(fields, "member") {
            Ok(members) if members.iter().any(|m| *m != leader.warrior) => {
                Asked::FollowLeader { leader, members }
            }
            _ => Asked::Order(Order::Move(leader)),
        },
        other => Asked::Order(other),
    })
}

fn order_from_form(fields: &[(String, String)]) -> Result<Order, String> {
    let field = |name: &str| form_field(fields, name).trim();
    // A point's coordinate, in inches on the battlefield.
    let number = |name: &str, label: &str| {
        field(name)
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && (0.0..=36.0).contains(v))
            .ok_or_else(|| format!("{label} is a number of inches from 0 to 36."))
    };
    match field("kind") {
        "choice" => serde_json::from_str(field("order"))
            .map_err(|_| "That choice could not be read: reload the page.".to_owned()),
        "end_actions" => Ok(Order::EndActions),
        "contribute" => {
            let typed = field("entropy");
            let entropy = if typed.is_empty() {
                Bytes32(rand::random())
            } else {
                Bytes32::digest_of(typed)
            };
            Ok(Order::Contribute { entropy })
        }
        "move" => {
            let warrior = field("warrior")
                .parse::<u16>()
                .map_err(|_| "Choose the warrior to move.".to_owned())?;
            let x = number("x", "Across")?;
            let y = number("y", "Up")?;
            let facing = field("facing")
                .parse::<u16>()
                .ok()
                .filter(|f| *f < 360)
                .ok_or("The facing is a whole number of degrees from 0 to 359.")?;
            let mut path = bends(field("via"))?;
            path.push(Point {
                x: milli(x),
                y: milli(y),
            });
            let captive_to = match (field("captive_x"), field("captive_y")) {
                ("", "") => None,
                _ => Some(Point {
                    x: milli(number("captive_x", "The captive's across")?),
                    y: milli(number("captive_y", "The captive's up")?),
                }),
            };
            Ok(Order::Move(MoveOrder {
                warrior: WarriorId(warrior),
                path,
                facing,
                double_time: field("double_time") == "on",
                captive_to,
                change_level: field("change_level") == "on",
            }))
        }
        "attack" => attack_from_form(fields),
        "place_terrain" => {
            let feature = field("feature")
                .parse::<u8>()
                .map_err(|_| "Choose the feature to place.".to_owned())?;
            let at = Point {
                x: milli(number("x", "Across")?),
                y: milli(number("y", "Up")?),
            };
            Ok(Order::PlaceTerrain(PlaceTerrain { feature, at }))
        }
        "deploy" => deployment_from_form(fields),
        "drop_item" => {
            let (warrior, item) = field("drop")
                .split_once(':')
                .and_then(|(w, i)| Some((w.parse::<u16>().ok()?, i.parse::<u8>().ok()?)))
                .ok_or("Choose the item to drop.")?;
            Ok(Order::DropItem(DropItem {
                warrior: WarriorId(warrior),
                item,
            }))
        }
        "pick_up_item" => {
            let warrior = field("warrior")
                .parse::<u16>()
                .map(WarriorId)
                .map_err(|_| "Choose the warrior to pick the item up.".to_owned())?;
            let item = field("item")
                .parse::<u8>()
                .map_err(|_| "Choose the item to pick up.".to_owned())?;
            Ok(Order::PickUpItem(PickUpItem { warrior, item }))
        }
        "attack_terrain" => {
            let attacker = field("attacker")
                .parse::<u16>()
                .map(WarriorId)
                .map_err(|_| "Choose the attacking warrior.".to_owned())?;
            let feature = field("feature")
                .parse::<u8>()
                .map_err(|_| "Choose the constructed feature to attack.".to_owned())?;
            Ok(Order::AttackTerrain(TerrainAttack {
                attacker,
                feature,
                ranged: field("style") == "ranged",
            }))
        }
        "bombard" => {
            let attacker = field("attacker")
                .parse::<u16>()
                .map(WarriorId)
                .map_err(|_| "Choose the warrior to bombard with.".to_owned())?;
            let spots = bends(field("spots"))?;
            if spots.is_empty() {
                return Err("Write where the token goes: across, up (in inches).".into());
            }
            Ok(Order::Bombard(Bombard { attacker, spots }))
        }
        _ => Err("The form does not say what to do: reload the page.".into()),
    }
}

/// A deployment as typed: each warrior's place and facing, in the order
/// the form lists them, and the wing warriors ticked to soar.
fn deployment_from_form(fields: &[(String, String)]) -> Result<Order, String> {
    let all = |name: &str| -> Vec<&str> {
        fields
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.trim())
            .collect()
    };
    let (warriors, xs, ys, facings) = (all("warrior"), all("x"), all("y"), all("facing"));
    if warriors.is_empty()
        || [xs.len(), ys.len(), facings.len()]
            .iter()
            .any(|n| *n != warriors.len())
    {
        return Err("Give every warrior a place and a facing.".into());
    }
    let soaring = ids(fields, "soaring")?;
    let inches = |v: &str, label: &str| {
        v.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && (0.0..=36.0).contains(v))
            .ok_or_else(|| format!("{label} is a number of inches from 0 to 36."))
    };
    let mut placements = Vec::new();
    for (((warrior, x), y), facing) in warriors.iter().zip(&xs).zip(&ys).zip(&facings) {
        let warrior = warrior
            .parse::<u16>()
            .map(WarriorId)
            .map_err(|_| "That warrior could not be read: reload the page.".to_owned())?;
        let facing = facing
            .parse::<u16>()
            .ok()
            .filter(|f| *f < 360)
            .ok_or("The facing is a whole number of degrees from 0 to 359.")?;
        placements.push(Placement {
            warrior,
            at: Point {
                x: milli(inches(x, "Across")?),
                y: milli(inches(y, "Up")?),
            },
            facing,
            soaring: soaring.contains(&warrior),
        });
    }
    Ok(Order::Deploy { placements })
}

/// Points as typed (a path's bends, bombardment tokens): "x, y"
/// separated by semicolons.
fn bends(typed: &str) -> Result<Vec<Point>, String> {
    let problem = || {
        "Write points as across, up (in inches), separated by semicolons: 12, 8; 14, 10.".to_owned()
    };
    typed
        .split(';')
        .map(str::trim)
        .filter(|point| !point.is_empty())
        .map(|point| {
            let (x, y) = point.split_once(',').ok_or_else(problem)?;
            let inches = |v: &str| {
                v.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && (0.0..=36.0).contains(v))
                    .ok_or_else(problem)
            };
            Ok(Point {
                x: milli(inches(x)?),
                y: milli(inches(y)?),
            })
        })
        .collect()
}

/// A close or ranged attack as the attack form writes it: the attacker,
/// its targets (one for close combat), the friends ganging up, a bow's
/// point blank bonus and precision.
fn attack_from_form(fields: &[(String, String)]) -> Result<Order, String> {
    let ids = |name: &str| ids(fields, name);
    let attacker = form_field(fields, "attacker")
        .trim()
        .parse::<u16>()
        .map(WarriorId)
        .map_err(|_| "Choose the attacking warrior.".to_owned())?;
    let targets = ids("target")?;
    if targets.is_empty() {
        return Err("Tick the warrior or warriors to attack.".into());
    }
    match form_field(fields, "style").trim() {
        "close" => {
            let [target] = targets[..] else {
                return Err("A close combat attack has one target.".into());
            };
            Ok(Order::CloseCombat(CloseAttack {
                attacker,
                target,
                gang_up: ids("helper")?,
                surge: None,
                capture: form_field(fields, "capture") == "on",
            }))
        }
        "ranged" => {
            let attack = RangedAttack {
                attacker,
                targets,
                point_blank: match form_field(fields, "point_blank").trim() {
                    "attack" => Some(Boost::Attack),
                    "damage" => Some(Boost::Damage),
                    _ => None,
                },
                precision: form_field(fields, "precision") == "on",
            };
            let members = supporters(fields)?;
            Ok(if members.is_empty() {
                Order::RangedCombat(attack)
            } else {
                Order::RangedFormation(RangedFormation { attack, members })
            })
        }
        _ => Err("Choose close or ranged combat.".into()),
    }
}

/// A ranged combat formation's other members as the attack form writes
/// them: one "support" field per warrior, "id:attack" or "id:damage"
/// (empty: not in the formation).
fn supporters(fields: &[(String, String)]) -> Result<Vec<Contribution>, String> {
    fields
        .iter()
        .filter(|(k, v)| k == "support" && !v.trim().is_empty())
        .map(|(_, v)| {
            let problem = || "That formation member could not be read: reload the page.".to_owned();
            let (id, adds) = v.trim().split_once(':').ok_or_else(problem)?;
            let warrior = id.parse::<u16>().map(WarriorId).map_err(|_| problem())?;
            let adds = match adds {
                "attack" => Boost::Attack,
                "damage" => Boost::Damage,
                _ => return Err(problem()),
            };
            Ok(Contribution { warrior, adds })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use soulstone_engine::table::milli;

    fn fields(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn the_attack_form_writes_close_and_ranged_attacks() {
        let close = attack_from_form(&fields(&[
            ("attacker", "2"),
            ("style", "close"),
            ("target", "7"),
            ("helper", "3"),
        ]));
        assert_eq!(
            close,
            Ok(Order::CloseCombat(CloseAttack {
                attacker: WarriorId(2),
                target: WarriorId(7),
                gang_up: vec![WarriorId(3)],
                surge: None,
                capture: false,
            }))
        );
        let shot = attack_from_form(&fields(&[
            ("attacker", "1"),
            ("style", "ranged"),
            ("target", "7"),
            ("target", "8"),
            ("point_blank", "damage"),
        ]));
        assert_eq!(
            shot,
            Ok(Order::RangedCombat(RangedAttack {
                attacker: WarriorId(1),
                targets: vec![WarriorId(7), WarriorId(8)],
                point_blank: Some(Boost::Damage),
                precision: false,
            }))
        );
        let two = attack_from_form(&fields(&[
            ("attacker", "1"),
            ("style", "close"),
            ("target", "7"),
            ("target", "8"),
        ]));
        assert_eq!(two, Err("A close combat attack has one target.".into()));
        let none = attack_from_form(&fields(&[("attacker", "1"), ("style", "close")]));
        assert!(none.is_err());
    }

    #[test]
    fn the_attack_form_writes_captures_and_ranged_formations() {
        let capture = attack_from_form(&fields(&[
            ("attacker", "2"),
            ("style", "close"),
            ("target", "7"),
            ("capture", "on"),
        ]));
        assert!(matches!(
            capture,
            Ok(Order::CloseCombat(CloseAttack { capture: true, .. }))
        ));
        let volley = attack_from_form(&fields(&[
            ("attacker", "1"),
            ("style", "ranged"),
            ("target", "7"),
            ("support", "3:attack"),
            ("support", ""),
            ("support", "4:damage"),
        ]));
        assert_eq!(
            volley,
            Ok(Order::RangedFormation(RangedFormation {
                attack: RangedAttack {
                    attacker: WarriorId(1),
                    targets: vec![WarriorId(7)],
                    point_blank: None,
                    precision: false,
                },
                members: vec![
                    Contribution {
                        warrior: WarriorId(3),
                        adds: Boost::Attack
                    },
                    Contribution {
                        warrior: WarriorId(4),
                        adds: Boost::Damage
                    },
                ],
            }))
        );
        let garbled = attack_from_form(&fields(&[
            ("attacker", "1"),
            ("style", "ranged"),
            ("target", "7"),
            ("support", "3:both"),
        ]));
        assert!(garbled.is_err());
    }

    #[test]
    fn the_deployment_form_places_each_warrior_and_soars_the_ticked() {
        let order = order_from_form(&fields(&[
            ("kind", "deploy"),
            ("warrior", "0"),
            ("x", "10"),
            ("y", "1.5"),
            ("facing", "90"),
            ("warrior", "1"),
            ("x", "12.25"),
            ("y", "2"),
            ("facing", "45"),
            ("soaring", "1"),
        ]));
        let Ok(Order::Deploy { placements }) = order else {
            panic!("a deployment: {order:?}");
        };
        assert_eq!(placements.len(), 2);
        assert_eq!(
            (placements[1].warrior, placements[1].facing),
            (WarriorId(1), 45)
        );
        assert_eq!(placements[1].at.v2().x, 12.25);
        assert!(placements[1].soaring && !placements[0].soaring);
        let short = order_from_form(&fields(&[
            ("kind", "deploy"),
            ("warrior", "0"),
            ("x", "10"),
        ]));
        assert_eq!(
            short,
            Err("Give every warrior a place and a facing.".into())
        );
        let off = order_from_form(&fields(&[
            ("kind", "deploy"),
            ("warrior", "0"),
            ("x", "40"),
            ("y", "1"),
            ("facing", "90"),
        ]));
        assert_eq!(
            off,
            Err("Across is a number of inches from 0 to 36.".into())
        );
    }

    #[test]
    fn the_move_form_places_a_captive_only_when_both_inches_are_given() {
        let order = |pairs: &[(&str, &str)]| order_from_form(&fields(pairs));
        let moved = [
            ("kind", "move"),
            ("warrior", "1"),
            ("x", "10"),
            ("y", "12"),
            ("facing", "90"),
        ];
        let captive_to = |pairs: &[(&str, &str)]| match order(pairs) {
            Ok(Order::Move(m)) => Ok(m.captive_to),
            Ok(other) => panic!("{other:?}"),
            Err(problem) => Err(problem),
        };
        assert_eq!(captive_to(&moved), Ok(None));
        let with = |cx: &'static str, cy: &'static str| {
            let mut pairs = moved.to_vec();
            pairs.extend([("captive_x", cx), ("captive_y", cy)]);
            pairs
        };
        assert_eq!(
            captive_to(&with("11", "12.5")),
            Ok(Some(Point {
                x: milli(11.0),
                y: milli(12.5)
            }))
        );
        assert_eq!(
            captive_to(&with("11", "")),
            Err("The captive's up is a number of inches from 0 to 36.".into())
        );
    }

    #[test]
    fn item_and_terrain_forms_write_their_orders_and_name_what_is_missing() {
        let order = |pairs: &[(&str, &str)]| order_from_form(&fields(pairs));
        assert_eq!(
            order(&[("kind", "drop_item"), ("drop", "4:1")]),
            Ok(Order::DropItem(DropItem {
                warrior: WarriorId(4),
                item: 1
            }))
        );
        assert_eq!(
            order(&[("kind", "drop_item"), ("drop", "4")]),
            Err("Choose the item to drop.".into())
        );
        assert_eq!(
            order(&[("kind", "pick_up_item"), ("warrior", "2"), ("item", "0")]),
            Ok(Order::PickUpItem(PickUpItem {
                warrior: WarriorId(2),
                item: 0
            }))
        );
        assert_eq!(
            order(&[("kind", "pick_up_item"), ("warrior", "2")]),
            Err("Choose the item to pick up.".into())
        );
        assert_eq!(
            order(&[
                ("kind", "attack_terrain"),
                ("attacker", "3"),
                ("feature", "1"),
                ("style", "ranged")
            ]),
            Ok(Order::AttackTerrain(TerrainAttack {
                attacker: WarriorId(3),
                feature: 1,
                ranged: true
            }))
        );
        assert_eq!(
            order(&[("kind", "attack_terrain"), ("attacker", "3")]),
            Err("Choose the constructed feature to attack.".into())
        );
    }

    #[test]
    fn a_move_with_members_ticked_leads_a_formation() {
        let asked = asked_by_form(&fields(&[
            ("kind", "move"),
            ("warrior", "1"),
            ("x", "10"),
            ("y", "14"),
            ("facing", "90"),
            ("member", "1"),
            ("member", "2"),
            ("member", "3"),
        ]));
        let Ok(Asked::FollowLeader { leader, members }) = asked else {
            panic!("a formation: {asked:?}");
        };
        assert_eq!(leader.warrior, WarriorId(1));
        assert_eq!(members, vec![WarriorId(1), WarriorId(2), WarriorId(3)]);
        // Ticking only the warrior itself is a plain move.
        let alone = asked_by_form(&fields(&[
            ("kind", "move"),
            ("warrior", "1"),
            ("x", "10"),
            ("y", "14"),
            ("facing", "90"),
            ("member", "1"),
        ]));
        assert!(matches!(alone, Ok(Asked::Order(Order::Move(_)))));
    }

    #[test]
    fn a_formation_following_its_leader_is_one_the_rules_accept() {
        use soulstone_engine::Seat;
        use soulstone_engine::mage_knight::{Setup, Stage, formation, start};
        let roster = crate::content::mage_knight_roster().expect("shipped content");
        let army = roster.field(&roster.armies()[0]).expect("a ready army");
        let mut battle = start(Setup {
            seed: Bytes32::default(),
            build_total: 300,
            rounds: 12,
            armies: [army.clone(), army],
            terrain: Vec::new(),
        })
        .expect("starts");
        // Three of Seat A's side by side; everyone else far off.
        for (i, w) in battle.warriors.iter_mut().enumerate() {
            let x = 5.0 + 1.25 * i as f64;
            let y = if w.seat == Seat::A { 5.0 } else { 30.0 };
            w.at = Some(Point::from_v2(soulstone_engine::table::geometry::V2::new(
                x, y,
            )));
        }
        battle.stage = Stage::Acting { seat: Seat::A };
        battle.actions_left = 3;
        let (ids, faction) = {
            let first = &battle.warriors[0];
            let same: Vec<WarriorId> = battle
                .warriors
                .iter()
                .take(3)
                .filter(|w| w.card.faction == first.card.faction)
                .map(|w| w.id)
                .collect();
            (same, first.card.faction.clone())
        };
        assert_eq!(ids.len(), 3, "a ready army of {faction}");
        // Led by the middle one, 2" up: the front of the move goes first.
        let leader = MoveOrder {
            warrior: ids[1],
            path: vec![Point {
                x: milli(6.25),
                y: milli(7.0),
            }],
            facing: 90,
            double_time: false,
            captive_to: None,
            change_level: false,
        };
        let order = Asked::FollowLeader {
            leader,
            members: ids.clone(),
        }
        .into_order(&battle);
        let Order::MoveFormation(group) = &order else {
            panic!("a movement formation: {order:?}");
        };
        // Side by side, no one is ahead: the leader moves first.
        assert_eq!(group.members[0].warrior, ids[1]);
        let left = group
            .members
            .iter()
            .find(|m| m.warrior == ids[0])
            .expect("the left one moves too");
        assert_eq!(
            left.path,
            vec![Point {
                x: milli(5.0),
                y: milli(7.0)
            }]
        );
        formation::check_move(&battle, Seat::A, group).expect("the rules accept it");
    }

    #[test]
    fn a_path_bends_through_typed_points() {
        let point = |x: f64, y: f64| Point {
            x: milli(x),
            y: milli(y),
        };
        assert_eq!(
            bends("12, 8; 14,10.5"),
            Ok(vec![point(12.0, 8.0), point(14.0, 10.5)])
        );
        assert_eq!(bends("  "), Ok(Vec::new()));
        assert!(bends("12").is_err());
        assert!(bends("40, 1").is_err(), "off the battlefield");
    }
}
