//! Items (rulebook 669–692): wielded from deployment by warriors with
//! item slots, their points in the build total, dropped at the start of a
//! turn or when the wielder is eliminated, picked up with a special
//! action by a warrior in base contact that meets the requirements.
//! Every refused order is checked to change nothing.

use soulstone_engine::Seat;
use soulstone_engine::mage_knight::combat::CloseAttack;
use soulstone_engine::mage_knight::content::Roster;
use soulstone_engine::mage_knight::facts::{ActionKind, Fact};
use soulstone_engine::mage_knight::game::{Stage, WarriorId};
use soulstone_engine::mage_knight::items::{
    DropItem, ItemCard, PickUpItem, Requirement, Wielded, army_problem,
};
use soulstone_engine::mage_knight::warrior::{AttackType, WarriorCard};
use soulstone_engine::mage_knight::{self as mk, Order};
use soulstone_engine::table::Point;

use super::mage_knight::at;
use super::mage_knight_rules::{archer, next_roll, order, refused, scenario_armed, soldier};

const W0: WarriorId = WarriorId(0);
const W1: WarriorId = WarriorId(1);
const W2: WarriorId = WarriorId(2);

fn item(name: &str, number: &str, requires: Requirement) -> ItemCard {
    ItemCard {
        name: name.into(),
        number: number.into(),
        points: 10,
        requires,
        speed: 0,
        attack: 0,
        defense: 0,
        damage: 0,
        range: 0,
        abilities: Vec::new(),
    }
}

/// +1 damage, for a sword.
fn blade() -> ItemCard {
    ItemCard {
        damage: 1,
        attack: 1,
        ..item(
            "Blade",
            "07",
            Requirement {
                attack_type: Some(AttackType::Sword),
                ..Requirement::default()
            },
        )
    }
}

/// A relic for anyone: +1 defense.
fn crown() -> ItemCard {
    ItemCard {
        defense: 1,
        ..item("Crown", "R1", Requirement::default())
    }
}

fn slotted(mut card: WarriorCard, slots: u8) -> WarriorCard {
    card.item_slots = slots;
    card
}

/// Picks up the first dropped item.
fn pick(warrior: WarriorId) -> Order {
    Order::PickUpItem(PickUpItem { warrior, item: 0 })
}

#[test]
fn a_wielder_fights_with_its_items_and_they_count_toward_the_build_total() {
    let battle = scenario_armed(
        vec![(slotted(soldier("Guard"), 2), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(30.0, 30.0), 270)],
        vec![
            Wielded {
                item: blade(),
                wielder: 0,
            },
            Wielded {
                item: crown(),
                wielder: 0,
            },
        ],
    );
    let guard = &battle.warriors[0];
    // Every click: +1 attack, +1 damage, +1 defense.
    let first = &guard.card.dial[0];
    assert_eq!((first.attack, first.defense, first.damage), (10, 16, 3));
    let last = &guard.card.dial[2];
    assert_eq!((last.attack, last.defense, last.damage), (8, 14, 2));
    assert_eq!(guard.bare.as_ref().unwrap().dial[0].attack, 9);
    assert_eq!(battle.army_points[0], 20 + 10 + 10);
}

#[test]
fn an_army_gives_items_only_to_warriors_that_may_wield_them() {
    let cards = vec![
        slotted(soldier("Guard"), 2),
        soldier("Slotless"),
        archer("Archer"),
    ];
    let give = |item: ItemCard, wielder: u16| Wielded { item, wielder };
    let cases = [
        (vec![give(blade(), 1)], "Slotless has no free item slot"),
        (
            vec![give(blade(), 3)],
            "given to warrior 4, who is not in the army",
        ),
        (
            vec![give(blade(), 0), give(blade(), 0)],
            "same requirement as Blade",
        ),
        (
            vec![give(crown(), 0), {
                let mut other = crown();
                other.name = "Sceptre".into();
                other.requires.min_attack = Some(1);
                give(other, 0)
            }],
            "Guard already wields a relic",
        ),
    ];
    for (items, because) in cases {
        let problem = army_problem(&cards, &items).expect("refused");
        assert!(
            problem.contains(because),
            "{problem:?} should say {because:?}"
        );
    }
    let mut slotted_archer = cards.clone();
    slotted_archer[2].item_slots = 1;
    let problem = army_problem(&slotted_archer, &[give(blade(), 2)]).expect("a bow");
    assert!(
        problem.contains("Blade needs a wielder with a sword attack"),
        "{problem}"
    );
    let problem = army_problem(&slotted_archer, &[give(crown(), 0), give(crown(), 2)])
        .expect("one relic per army");
    assert!(
        problem.contains("the relic Crown is in the army more than once"),
        "{problem}"
    );
    assert_eq!(
        army_problem(&cards, &[give(blade(), 0), give(crown(), 0)]),
        None
    );
}

#[test]
fn an_item_is_dropped_at_the_start_of_the_turn_and_picked_up_by_a_warrior_in_contact() {
    let mut battle = scenario_armed(
        vec![
            (slotted(soldier("Guard"), 1), at(10.0, 10.0), 90),
            (slotted(soldier("Squire"), 1), at(10.8, 8.6), 90),
        ],
        vec![(soldier("Foe"), at(30.0, 30.0), 270)],
        vec![Wielded {
            item: blade(),
            wielder: 0,
        }],
    );
    refused(
        &mut battle,
        Order::DropItem(DropItem {
            warrior: W0,
            item: 1,
        }),
        "there is no item 2",
    );
    refused(
        &mut battle,
        Order::DropItem(DropItem {
            warrior: W2,
            item: 0,
        }),
        "not yours",
    );
    let facts = order(
        &mut battle,
        Seat::A,
        Order::DropItem(DropItem {
            warrior: W0,
            item: 0,
        }),
    )
    .unwrap();
    assert!(matches!(&facts[..], [Fact::ItemDropped { name, .. }] if name == "Blade"));
    // No action spent; the guard's card is its own again; the token lies
    // against its rear.
    assert_eq!(battle.actions_left, 3);
    assert_eq!(battle.warriors[0].card.dial[0].damage, 2);
    let token = battle.loose_items[0].at.v2();
    assert!(
        (token.dist(at(10.0, 10.0).v2()) - 1.0).abs() < 0.01,
        "{token:?}"
    );
    assert!(token.y < 10.0, "behind a guard facing up");

    // The squire, behind it, touches the token and picks it up.
    refused(&mut battle, pick(W2), "not yours");
    let facts = order(&mut battle, Seat::A, pick(W1)).unwrap();
    assert!(facts.contains(&Fact::ActionGiven {
        warrior: W1,
        kind: ActionKind::Special
    }));
    assert!(battle.loose_items.is_empty());
    assert_eq!(battle.warriors[1].items[0].name, "Blade");
    assert_eq!(battle.warriors[1].card.dial[0].damage, 3);
    assert_eq!(battle.warriors[1].tokens, 1);
    // Once an action is given, nothing more is dropped this turn.
    refused(
        &mut battle,
        Order::DropItem(DropItem {
            warrior: W1,
            item: 0,
        }),
        "before any action",
    );
}

#[test]
fn a_pick_up_needs_contact_a_free_slot_and_the_requirement() {
    let mut battle = scenario_armed(
        vec![
            (slotted(soldier("Guard"), 1), at(10.0, 10.0), 90),
            (archer("Archer"), at(12.0, 8.75), 90),
            (slotted(soldier("Far"), 1), at(20.0, 10.0), 90),
        ],
        vec![(soldier("Foe"), at(30.0, 30.0), 270)],
        vec![Wielded {
            item: blade(),
            wielder: 0,
        }],
    );
    order(
        &mut battle,
        Seat::A,
        Order::DropItem(DropItem {
            warrior: W0,
            item: 0,
        }),
    )
    .unwrap();
    let token = battle.loose_items[0].at.v2();
    // The archer stands against the token, but has no slot; with one, it
    // is no sword.
    let beside = Point::from_v2(token.plus(soulstone_engine::table::geometry::V2::new(1.0, 0.0)));
    battle.warriors[1].at = Some(beside);
    refused(&mut battle, pick(W1), "Archer has no free item slot");
    std::sync::Arc::make_mut(&mut battle.warriors[1].card).item_slots = 1;
    refused(
        &mut battle,
        pick(W1),
        "Blade needs a wielder with a sword attack",
    );
    refused(
        &mut battle,
        pick(WarriorId(2)),
        "Far is not in base contact with Blade",
    );
    refused(
        &mut battle,
        Order::PickUpItem(PickUpItem {
            warrior: W0,
            item: 1,
        }),
        "there is no item 2",
    );
}

#[test]
fn an_eliminated_wielder_drops_what_it_held_where_it_stood() {
    // Seat A's guard, on its last click, wields a blade; B's foe attacks.
    let mut battle = scenario_armed(
        vec![(slotted(soldier("Guard"), 1), at(10.0, 11.25), 270)],
        vec![(soldier("Foe"), at(10.0, 10.0), 90)],
        vec![Wielded {
            item: blade(),
            wielder: 0,
        }],
    );
    battle.stage = Stage::Acting { seat: Seat::B };
    battle.warriors[0].damage = 2;
    next_roll(&mut battle, &[6, 5]);
    let version = battle.version;
    let facts = mk::execute(
        &mut battle,
        &mk::Submission::Player {
            seat: Seat::B,
            version,
            order: Order::CloseCombat(CloseAttack {
                attacker: W1,
                target: W0,
                gang_up: Vec::new(),
                surge: None,
                capture: false,
            }),
        },
    )
    .unwrap();
    let dropped = facts
        .iter()
        .position(|f| matches!(f, Fact::ItemDropped { .. }))
        .expect("dropped");
    let gone = facts
        .iter()
        .position(|f| matches!(f, Fact::Eliminated { .. }))
        .expect("eliminated");
    assert!(dropped < gone, "dropped before it is removed");
    assert!(battle.warriors[0].items.is_empty());
    assert_eq!(battle.loose_items.len(), 1);
    let token = battle.loose_items[0].at.v2();
    assert!(
        (token.dist(at(10.0, 11.25).v2()) - 1.0).abs() < 0.01,
        "in contact with where it stood: {token:?}"
    );
}

#[test]
fn an_item_file_and_an_army_list_name_their_problems() {
    let warriors = "[[warriors]]\nname = \"Guard\"\nfaction = \"F\"\npoints = 20\nspeed_type = \"boot\"\nattack_type = \"sword\"\nitem_slots = 1\ndial = [{ speed = 8, attack = 9, defense = 15, damage = 2 }]\n";
    let items = "[[items]]\nname = \"Blade\"\nnumber = \"07\"\npoints = 10\nrequires = { attack_type = \"sword\" }\ndamage = 1\n\n[[items]]\nname = \"Hammer\"\nnumber = \"08\"\npoints = 10\nattack = 5\n";
    let errors = Roster::load([("w.toml", warriors), ("i.toml", items)], []).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        (
            errors[0].file.as_str(),
            errors[0].field.as_str(),
            errors[0].line
        ),
        ("i.toml", "items[1].attack", Some(12))
    );
    assert!(errors[0].message.contains("at most 3"), "{}", errors[0]);
    let items = items.replace("attack = 5", "attack = 1");
    let roster = Roster::load([("w.toml", warriors), ("i.toml", items.as_str())], []).unwrap();
    let list = "name = \"A\"\nbuild_total = 100\nwarriors = [\"Guard\"]\n\n[[items]]\nitem = \"Blade\"\nwielder = \"Guard\"\n";
    let army = roster.read_army("a.toml", list).unwrap();
    let fielded = roster.field(&army).unwrap();
    assert_eq!(fielded.points(), 30);
    for (wrong, because) in [
        (
            list.replace("item = \"Blade\"", "item = \"Spear\""),
            "no item is called Spear",
        ),
        (
            list.replace("wielder = \"Guard\"", "wielder = \"Knight\""),
            "no warrior in the army is called Knight",
        ),
        (
            format!("{list}\n[[items]]\nitem = \"Hammer\"\nwielder = \"Guard\"\n"),
            "Guard has no free item slot",
        ),
    ] {
        let error = roster.read_army("a.toml", &wrong).expect_err(because);
        assert_eq!(error.field, "warriors");
        assert!(error.message.contains(because), "{error}");
    }
}
