//! The 1st edition's setup rules that are pure functions (issue 55): the
//! schemes' limits and the flips' tables, each naming the quick
//! reference's line (`../shared/seeds/004_*.txt`). The rules played on the
//! table are scenario files, `tests/scenarios/m1e/` (docs/scenarios.md).

use soulstone_engine::Seat;
use soulstone_engine::fate::Card;
use soulstone_engine::first_edition::objectives::{
    Deployment, Scheme, SchemePick, Strategy, schemes_problem,
};
use soulstone_engine::first_edition::{self, ModelId, Skirmish};

use super::first_edition_games::set_up;

/// The game `set_up(seed)` starts, its crews hired.
fn table(seed: u64) -> Skirmish {
    first_edition::start(set_up(seed)).unwrap()
}

fn id(game: &Skirmish, name: &str) -> ModelId {
    game.models
        .iter()
        .find(|m| m.card.name == name)
        .unwrap_or_else(|| panic!("{name} is in the game"))
        .id
}

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

/// Lines 380, 419–438: a Scrap takes two schemes at most; faction schemes
/// are their faction's; Thwart is always announced.
#[test]
fn schemes_keep_to_the_encounter_and_the_faction() {
    let game = table(0);
    let pick = |scheme, announce| SchemePick {
        scheme,
        model: None,
        announce,
    };
    let three = [
        pick(Scheme::HoldOut, false),
        pick(Scheme::Breakthrough, false),
        pick(Scheme::EyeForAnEye, false),
    ];
    assert!(
        schemes_problem(&game, Seat::A, &three)
            .unwrap()
            .contains("at most 2")
    );
    assert!(
        schemes_problem(&game, Seat::B, &[pick(Scheme::Raid, true)])
            .unwrap()
            .contains("Guild crews only")
    );
    assert_eq!(
        schemes_problem(&game, Seat::A, &[pick(Scheme::Raid, true)]),
        None
    );
    let bodyguard = SchemePick {
        scheme: Scheme::Bodyguard,
        model: Some(id(&game, "Coil Apprentice")),
        announce: true,
    };
    assert!(schemes_problem(&game, Seat::A, &[bodyguard]).is_some());
}

/// Lines 386–391: the flips' tables.
#[test]
fn strategy_and_deployment_follow_the_flip() {
    let strategies = [
        ("1R", Some(Strategy::TreasureHunt)),
        ("3R", Some(Strategy::TreasureHunt)),
        ("4R", Some(Strategy::Assassinate)),
        ("8R", Some(Strategy::Slaughter)),
        ("10R", Some(Strategy::ClaimJump)),
        ("13R", Some(Strategy::Reconnoiter)),
        ("RJ", None),
    ];
    for (flip, strategy) in strategies {
        assert_eq!(Strategy::from_flip(card(flip)), strategy, "{flip}");
    }
    assert_eq!(
        Deployment::from_flip(card("4M")),
        Some(Deployment::Diagonal)
    );
    assert_eq!(
        Deployment::from_flip(card("9M")),
        Some(Deployment::Standard)
    );
    assert_eq!(
        Deployment::from_flip(card("10M")),
        Some(Deployment::Corners)
    );
    assert_eq!(Deployment::from_flip(card("BJ")), None);
}
