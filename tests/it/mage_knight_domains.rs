//! Domains (rulebook 661–667): chosen secretly once the terrain is
//! placed, revealed together before deployment, cancelled by name, and
//! in effect for the game. Every refused order is checked to change
//! nothing, and neither player's view holds the other's cards or choice
//! before they are revealed.

use std::sync::Arc;

use soulstone_engine::Seat;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::mage_knight::battlefield::TerrainKind;
use soulstone_engine::mage_knight::bots::{self, Style};
use soulstone_engine::mage_knight::content::Roster;
use soulstone_engine::mage_knight::domains::{ChooseDomain, DomainCard, DomainEffect};
use soulstone_engine::mage_knight::facts::Fact;
use soulstone_engine::mage_knight::game::{Battle, Stage};
use soulstone_engine::mage_knight::warrior::SpeedType;
use soulstone_engine::mage_knight::{self as mk, Order, Setup, Submission};

use super::mage_knight::feature;
use super::mage_knight_rules::{archer, soldier};

fn domain(name: &str, effects: Vec<DomainEffect>, cancels: &[&str]) -> DomainCard {
    DomainCard {
        name: name.into(),
        text: format!("{name}'s words"),
        effects,
        cancels: cancels.iter().map(|c| (*c).to_owned()).collect(),
    }
}

fn ashfall() -> DomainCard {
    domain("Ashfall", vec![DomainEffect::Range { by: -2 }], &[])
}

fn clear_skies() -> DomainCard {
    domain(
        "Clear Skies",
        vec![DomainEffect::Range { by: 1 }],
        &["Ashfall"],
    )
}

fn mire() -> DomainCard {
    domain(
        "Mire",
        vec![
            DomainEffect::Speed {
                speed_type: SpeedType::Boot,
                by: -2,
            },
            DomainEffect::Terrain {
                from: TerrainKind::Concealing,
                to: TerrainKind::Hindering,
            },
        ],
        &[],
    )
}

/// A game whose armies bring `decks`, past the entropy and objectives
/// (by the bots): it waits for the domains, or for deployment.
fn to_domains(decks: [Vec<DomainCard>; 2]) -> Battle {
    let [a, b] = decks;
    let army = |name: &str, domains| mk::Army {
        name: name.into(),
        warriors: vec![soldier("Soldier"), archer("Archer")],
        terrain: Vec::new(),
        domains,
        items: Vec::new(),
    };
    let mut battle = mk::start(Setup {
        seed: Bytes32::digest_of("domains"),
        build_total: 100,
        rounds: 4,
        armies: [army("A", a), army("B", b)],
        terrain: vec![feature(
            "the Scrub",
            TerrainKind::Concealing,
            18.0,
            12.0,
            2.0,
        )],
    })
    .unwrap();
    for step in 0..10 {
        if !matches!(
            battle.stage,
            Stage::Contributing | Stage::PlacingObjective { .. }
        ) {
            break;
        }
        let seat = Seat::BOTH
            .into_iter()
            .find(|s| battle.waits_for(*s))
            .unwrap();
        let order = bots::order(&battle, seat, Style::Greedy, step).unwrap();
        send(&mut battle, seat, order).unwrap();
    }
    battle
}

fn send(battle: &mut Battle, seat: Seat, order: Order) -> Result<Vec<Fact>, String> {
    let submission = Submission::Player {
        seat,
        version: battle.version,
        order,
    };
    mk::execute(battle, &submission).map_err(|e| e.to_string())
}

fn choose(domain: u8) -> Order {
    Order::ChooseDomain(ChooseDomain { domain })
}

fn refused(battle: &mut Battle, seat: Seat, order: Order, because: &str) {
    let before = battle.clone();
    let error = send(battle, seat, order).expect_err("refused");
    assert!(error.contains(because), "{error:?} should say {because:?}");
    assert_eq!(*battle, before, "a refused order changes nothing");
}

#[test]
fn both_players_choose_in_secret_and_the_domains_take_effect_when_revealed() {
    let mut battle = to_domains([vec![ashfall(), mire()], vec![clear_skies()]]);
    assert_eq!(battle.stage, Stage::ChoosingDomains);
    assert!(battle.waits_for(Seat::A) && battle.waits_for(Seat::B));
    refused(&mut battle, Seat::B, choose(1), "there is no domain 2");
    send(&mut battle, Seat::A, choose(1)).unwrap();
    refused(&mut battle, Seat::A, choose(0), "decision, not yours");
    assert!(!battle.waits_for(Seat::A));

    // Neither the other player nor a spectator sees A's cards or choice;
    // A sees its own.
    for viewer in [Some(Seat::B), None] {
        let view = mk::view(&battle, viewer);
        assert!(
            view.battle.domain_decks[0].is_empty(),
            "{viewer:?} sees A's cards"
        );
        assert_eq!(
            view.battle.domain_choice[0], None,
            "{viewer:?} sees A's choice"
        );
        let seen = serde_json::to_string(&view).unwrap();
        assert!(
            !seen.contains("Mire"),
            "{viewer:?} sees A's domains: {seen}"
        );
    }
    let own = serde_json::to_string(&mk::view(&battle, Some(Seat::A))).unwrap();
    assert!(own.contains("Mire"), "A sees its own cards");
    // The log line says a choice was made, not which.
    let line = mk::words::fact(
        &battle,
        &Fact::DomainChosen {
            seat: Seat::A,
            domain: 1,
        },
    )
    .unwrap();
    assert!(!line.contains("Mire"), "{line}");

    let archer_range = |b: &Battle| b.warriors[1].card.range;
    let soldier_speed = |b: &Battle| b.warriors[0].card.dial[0].speed;
    assert_eq!((archer_range(&battle), soldier_speed(&battle)), (10, 8));
    let facts = send(&mut battle, Seat::B, choose(0)).unwrap();
    let revealed = facts
        .iter()
        .find_map(|f| match f {
            Fact::DomainsRevealed { chosen, in_play } => Some((chosen.clone(), in_play.len())),
            _ => None,
        })
        .expect("revealed");
    assert_eq!(revealed, (["Mire".into(), "Clear Skies".into()], 2));
    // Clear Skies: +1 range; Mire: boots 2 slower, concealing hinders.
    assert_eq!((archer_range(&battle), soldier_speed(&battle)), (11, 6));
    assert_eq!(battle.terrain[0].kind, TerrainKind::Hindering);
    assert_eq!(
        battle.stage,
        Stage::Deploying {
            seat: battle.first.unwrap()
        }
    );
    // Revealed, the domains in play are everyone's to see.
    let seen = serde_json::to_string(&mk::view(&battle, None)).unwrap();
    assert!(seen.contains("Mire") && seen.contains("Clear Skies"));
}

#[test]
fn a_domain_that_cancels_the_other_removes_it_and_two_that_cancel_each_other_both_go() {
    let mut battle = to_domains([vec![ashfall()], vec![clear_skies()]]);
    send(&mut battle, Seat::A, choose(0)).unwrap();
    send(&mut battle, Seat::B, choose(0)).unwrap();
    let names: Vec<&str> = battle.domains.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["Clear Skies"]);
    // Ashfall's -2 never applied: only Clear Skies' +1.
    assert_eq!(battle.warriors[1].card.range, 11);

    let rival = domain("Still Air", vec![DomainEffect::Range { by: 2 }], &["Gale"]);
    let mut battle = to_domains([
        vec![domain(
            "Gale",
            vec![DomainEffect::Range { by: 3 }],
            &["Still Air"],
        )],
        vec![rival],
    ]);
    send(&mut battle, Seat::A, choose(0)).unwrap();
    send(&mut battle, Seat::B, choose(0)).unwrap();
    assert!(battle.domains.is_empty(), "each cancelled the other");
    assert_eq!(battle.warriors[1].card.range, 10);

    // The same domain chosen by both is in play once.
    let mut battle = to_domains([vec![ashfall()], vec![ashfall()]]);
    send(&mut battle, Seat::A, choose(0)).unwrap();
    send(&mut battle, Seat::B, choose(0)).unwrap();
    assert_eq!(battle.domains.len(), 1);
    assert_eq!(battle.warriors[1].card.range, 8);
}

#[test]
fn without_domain_cards_on_both_sides_no_domain_is_chosen() {
    let battle = to_domains([vec![ashfall()], Vec::new()]);
    assert!(matches!(battle.stage, Stage::Deploying { .. }));
    assert!(battle.domains.is_empty());
    // A domain never takes a range below 1.
    let mut battle = to_domains([
        vec![domain("Blind", vec![DomainEffect::Range { by: -4 }], &[])],
        vec![domain("Dark", vec![DomainEffect::Range { by: -4 }], &[])],
    ]);
    Arc::make_mut(&mut battle.warriors[1].card).range = 3;
    send(&mut battle, Seat::A, choose(0)).unwrap();
    send(&mut battle, Seat::B, choose(0)).unwrap();
    assert_eq!(battle.warriors[1].card.range, 1);
    assert_eq!(battle.warriors[0].card.range, 0, "no range stays none");
}

#[test]
fn an_army_file_names_a_bad_domain_with_its_line_and_field() {
    let roster = Roster::load(
        [(
            "w.toml",
            "[[warriors]]\nname = \"Guard\"\nfaction = \"F\"\npoints = 20\nspeed_type = \"boot\"\ndial = [{ speed = 8, attack = 9, defense = 15, damage = 2 }]\n",
        )],
        [],
    )
    .unwrap();
    let text = "name = \"A\"\nbuild_total = 100\nwarriors = [\"Guard\"]\n\n[[domains]]\nname = \"Haze\"\ntext = \"Hazy.\"\neffects = [{ effect = \"range\", by = 0 }]\n";
    let error = roster.read_army("army.toml", text).expect_err("by 0");
    assert_eq!(
        (error.field.as_str(), error.line),
        ("domains[0].effects", Some(8))
    );
    assert!(error.message.contains("not 0"), "{error}");
    let fine = text.replace("by = 0", "by = -1");
    let list = roster.read_army("army.toml", &fine).unwrap();
    assert_eq!(roster.field(&list).unwrap().domains[0].name, "Haze");
    // The shipped armies each bring domain cards that read.
    let shipped = soulstone::content::mage_knight_roster().unwrap();
    for list in shipped.armies() {
        assert!(!list.domains.is_empty(), "{} brings domains", list.name);
    }
}
