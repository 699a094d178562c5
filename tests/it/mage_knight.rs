//! Mage Knight: the shipped warriors and armies, bot games held to the
//! game's invariants (dials stay on their dials, no warrior holds more
//! than two action tokens, captives stay beside their captors, every roll
//! verifies, every log replays), and
//! the command line. The rules one by one are in `mage_knight_rules.rs`.

use soulstone::content::shipped_mage_knight;
use soulstone_engine::Seat;
use soulstone_engine::bot::BotKind;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::mage_knight::battlefield::{self, Elevation, Feature, Outline, TerrainKind};
use soulstone_engine::mage_knight::facts::{ActionKind, Fact};
use soulstone_engine::mage_knight::game::Battle;
use soulstone_engine::mage_knight::warrior::WarriorCard;
use soulstone_engine::mage_knight::{self as mk, FinishedLog, MageKnight, Setup, verify};
use soulstone_engine::system::TableGame;
use soulstone_engine::table::{Point, milli};

/// A game between two of the shipped armies (by seed), on a battlefield
/// with a wood, a boulder, a pond and a hill.
pub fn set_up(seed: u64) -> Setup {
    let roster = shipped_mage_knight().expect("the shipped Mage Knight content loads");
    let lists = roster.armies();
    let n = lists.len() as u64;
    let a = &lists[(seed % n) as usize];
    let b = &lists[((seed + 1) % n) as usize];
    Setup {
        seed: Bytes32::digest_of(&format!("mk-seed-{seed}")),
        build_total: 300,
        rounds: mk::game::STANDARD_ROUNDS,
        armies: [roster.field(a).unwrap(), roster.field(b).unwrap()],
        terrain: vec![
            feature("the Wood", TerrainKind::Hindering, 10.0, 20.0, 3.0),
            feature("the Boulder", TerrainKind::Blocking, 26.0, 15.0, 2.0),
            feature("the Pond", TerrainKind::ShallowWater, 22.0, 26.0, 2.0),
            raised(
                "the Hill",
                TerrainKind::Clear,
                29.0,
                24.0,
                2.5,
                Elevation::Elevated,
            ),
        ],
    }
}

pub(crate) fn feature(name: &str, kind: TerrainKind, x: f64, y: f64, radius: f64) -> Feature {
    raised(name, kind, x, y, radius, Elevation::Ground)
}

/// A round feature at `elevation`.
pub(crate) fn raised(
    name: &str,
    kind: TerrainKind,
    x: f64,
    y: f64,
    radius: f64,
    elevation: Elevation,
) -> Feature {
    Feature {
        name: name.into(),
        kind,
        outline: Outline::Circle {
            center: at(x, y),
            radius: milli(radius),
        },
        elevation,
        construction: None,
    }
}

pub(crate) fn at(x: f64, y: f64) -> Point {
    Point {
        x: milli(x),
        y: milli(y),
    }
}

#[test]
fn the_shipped_warriors_cover_three_factions_and_every_army_is_legal() {
    let roster = shipped_mage_knight().expect("loads");
    let warriors: Vec<&WarriorCard> = roster.warriors().collect();
    assert!(warriors.len() >= 16, "{} warriors", warriors.len());
    let factions: std::collections::BTreeSet<&str> =
        warriors.iter().map(|w| w.faction.as_str()).collect();
    assert!(factions.len() >= 3, "{factions:?}");
    assert!(roster.armies().len() >= 3);
    for list in roster.armies() {
        let army = roster.field(list).expect("a ready army is legal");
        assert!(army.points() <= list.build_total);
        assert!(
            army.points() > list.build_total - 50,
            "{} is near its total",
            list.name
        );
    }
}

/// Plays a game with bots of `levels` and returns it with its log,
/// checking the invariants after every order.
pub fn play(setup: Setup, levels: [BotKind; 2], seed: u64) -> (Battle, FinishedLog) {
    let mut battle = MageKnight::start(setup.clone()).expect("starts");
    let mut facts = Vec::new();
    let mut commands = Vec::new();
    for step in 0..5_000u64 {
        if MageKnight::is_over(&battle) {
            break;
        }
        let seat = MageKnight::waiting_for(&battle)[0];
        let order = MageKnight::bot_command(
            &battle,
            seat,
            levels[seat.index()],
            seed.wrapping_mul(7919).wrapping_add(step),
        )
        .expect("a bot always has an order");
        let submission = MageKnight::player_submission(seat, battle.version, order);
        let made = MageKnight::execute(&mut battle, &submission)
            .unwrap_or_else(|e| panic!("the bot's order was refused: {e}"));
        commands.push((facts.len() as u32, submission));
        facts.extend(made);
        for w in &battle.warriors {
            assert!(w.damage <= w.card.clicks(), "a dial stays on its dial");
            assert!(w.tokens <= 2, "two action tokens at most");
            assert!(
                !w.on_battlefield() || w.damage < w.card.clicks(),
                "past its last click a warrior is gone"
            );
            if let Some(captor) = w.captor.and_then(|c| battle.warrior(c)) {
                assert_eq!(captor.captive, Some(w.id), "a captor holds its captive");
                assert!(
                    w.on_battlefield() && captor.on_battlefield(),
                    "a captive and its captor stand on the battlefield"
                );
                assert!(
                    battlefield::in_contact(w.center(), captor.center()),
                    "a captive stays in base contact with its captor"
                );
            }
            let pending = battle
                .bombardments
                .iter()
                .filter(|b| b.attacker == w.id)
                .collect::<Vec<_>>();
            if let [one] = pending.as_slice() {
                let tokens = w.card.bombardment.as_ref().map_or(0, |t| t.tokens);
                assert!(
                    (1..=usize::from(tokens)).contains(&one.tokens.len()) && one.seat == w.seat,
                    "a bombardment places its card's tokens, for its own player"
                );
            } else {
                assert!(pending.is_empty(), "one waiting bombardment per warrior");
            }
            if let Some(captive) = w.captive {
                assert_eq!(
                    battle.warrior(captive).and_then(|c| c.captor),
                    Some(w.id),
                    "a captive knows its captor"
                );
            }
        }
    }
    assert!(MageKnight::is_over(&battle), "the game ended");
    let log = MageKnight::finished_log(setup, facts, commands, (1, 1));
    (battle, log)
}

#[test]
fn bot_games_end_keep_their_invariants_and_every_roll_verifies() {
    let mut reasons = std::collections::BTreeMap::new();
    // What the games did, so the test shows the bots reach the rules.
    let mut seen = std::collections::BTreeMap::new();
    for seed in 0..36 {
        let levels = match seed % 3 {
            0 => [BotKind::Random, BotKind::Random],
            1 => [BotKind::Greedy, BotKind::Random],
            _ => [BotKind::Greedy, BotKind::Greedy],
        };
        let (battle, log) = play(set_up(seed), levels, seed);
        let rolls = verify(&log).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        for fact in &log.facts {
            let kind = match fact {
                Fact::Captured { .. } => "captured",
                Fact::Freed { .. } => "freed",
                Fact::ActionShared {
                    kind: ActionKind::Move,
                    ..
                } => "movement formation",
                Fact::ActionShared { .. } => "ranged combat formation",
                Fact::LevelChanged { soaring: true, .. } => "took off",
                Fact::BombardmentLanded { drift: None, .. } => "bombardment landed",
                Fact::BombardmentLanded { .. } => "bombardment drifted",
                Fact::TerrainPlaced { .. } => "terrain placed",
                Fact::TerrainAttacked { .. } => "constructed terrain attacked",
                Fact::DomainsRevealed { .. } => "domains revealed",
                Fact::ItemDropped { .. } => "item dropped",
                Fact::ItemPickedUp { .. } => "item picked up",
                _ => continue,
            };
            *seen.entry(kind).or_insert(0) += 1;
        }
        assert!(rolls >= 2, "at least the first player's rolls");
        *reasons
            .entry(format!("{:?}", battle.outcome.as_ref().unwrap().reason))
            .or_insert(0) += 1;
        // The log replays, through JSON, to the same game.
        let stored: FinishedLog =
            serde_json::from_str(&serde_json::to_string(&log).unwrap()).unwrap();
        let mut replayed = MageKnight::start(stored.setup.clone()).unwrap();
        for fact in &stored.facts {
            MageKnight::apply(&mut replayed, fact);
        }
        assert_eq!(replayed, battle, "seed {seed}: the log replays");
        assert!(
            integers_only(&serde_json::to_value(&battle).unwrap()),
            "the stored game holds no floats: it replays alike everywhere"
        );
        // A tampered roll is caught.
        let mut forged = stored;
        let roll = forged
            .facts
            .iter_mut()
            .find_map(|f| match f {
                Fact::Rolled { dice, .. } => Some(dice),
                _ => None,
            })
            .unwrap();
        roll[0] = if roll[0] == 6 { 5 } else { roll[0] + 1 };
        assert!(verify(&forged).is_err(), "a changed die is caught");
    }
    assert!(!reasons.is_empty());
    // Shooters rarely stay grouped in range of a foe in these games: the
    // ranged combat formation is offered in `mage_knight_formations`.
    for kind in [
        "captured",
        "movement formation",
        "took off",
        "bombardment landed",
        "bombardment drifted",
        "terrain placed",
        "constructed terrain attacked",
        "domains revealed",
        "item dropped",
        "item picked up",
    ] {
        assert!(
            seen.contains_key(kind),
            "no {kind} in the bot games: {seen:?}"
        );
    }
}

fn integers_only(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Number(n) => n.is_i64() || n.is_u64(),
        serde_json::Value::Array(items) => items.iter().all(integers_only),
        serde_json::Value::Object(fields) => fields.values().all(integers_only),
        _ => true,
    }
}

#[test]
fn the_greedy_bot_beats_the_random_one() {
    let mut wins = 0;
    let games = 20;
    for seed in 0..games {
        // Seats swapped every other game.
        let greedy = if seed % 2 == 0 { Seat::A } else { Seat::B };
        let mut levels = [BotKind::Random; 2];
        levels[greedy.index()] = BotKind::Greedy;
        let (battle, _) = play(set_up(seed), levels, seed + 100);
        if battle.outcome.as_ref().unwrap().winner == Some(greedy) {
            wins += 1;
        }
    }
    assert!(wins * 10 >= games * 7, "greedy won {wins} of {games}");
}

#[test]
fn the_dice_seed_stays_secret_until_the_end() {
    let setup = set_up(3);
    let secret = serde_json::to_string(&setup.seed).unwrap();
    let secret = secret.trim_matches('"');
    let (battle, _) = play(setup.clone(), [BotKind::Random; 2], 3);
    let early = MageKnight::start(setup).unwrap();
    for viewer in [
        soulstone_engine::Viewer::Player(Seat::A),
        soulstone_engine::Viewer::Spectator,
    ] {
        let seen = serde_json::to_string(&MageKnight::view(&early, viewer)).unwrap();
        assert!(
            !seen.contains(secret),
            "no view holds the seed before the end"
        );
    }
    let ended = serde_json::to_string(&MageKnight::view(
        &battle,
        soulstone_engine::Viewer::Spectator,
    ))
    .unwrap();
    assert!(ended.contains(secret), "the end reveals it");
}

/// `soulstone game play --edition mk` plays two ready armies to the end
/// and writes the log; `soulstone game verify` checks every roll and plays
/// the orders again; a die changed in the file is caught.
#[test]
fn the_command_line_plays_and_verifies_a_mage_knight_game() {
    use std::process::Command;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mk.json");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_soulstone"))
            .args(args)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let log = path.to_str().unwrap();
    let (ok, said) = run(&[
        "game",
        "play",
        "--edition",
        "mk",
        "--seed",
        "5",
        "--bot",
        "easy",
        "--army",
        "Thornwake Wardens",
        "--army",
        "Ashen Court Procession",
        "--log",
        log,
    ]);
    assert!(ok, "{said}");
    assert!(
        // 264 in warriors and 30 in items.
        said.contains("Thornwake Wardens (294 points) against Ashen Court Procession"),
        "{said}"
    );
    assert!(said.contains("final: "), "{said}");
    let (ok, said) = run(&["game", "verify", log]);
    assert!(ok, "{said}");
    assert!(said.contains("rolls match the revealed seed"), "{said}");
    assert!(said.contains("played again to the same facts"), "{said}");

    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let facts = json["facts"].as_array_mut().unwrap();
    let roll = facts
        .iter_mut()
        .find(|f| f["fact"] == "rolled")
        .expect("a roll");
    let die = roll["dice"][0].as_u64().unwrap();
    roll["dice"][0] = serde_json::json!(if die == 6 { 5 } else { die + 1 });
    let edited = dir.path().join("edited.json");
    std::fs::write(&edited, serde_json::to_string(&json).unwrap()).unwrap();
    let (ok, said) = run(&["game", "verify", edited.to_str().unwrap()]);
    assert!(!ok, "{said}");
    assert!(said.contains("but the seed gives"), "{said}");

    let (ok, said) = run(&[
        "game",
        "play",
        "--edition",
        "mk",
        "--army",
        "Nobody's Army",
        "--army",
        "Thornwake Wardens",
    ]);
    assert!(!ok);
    assert!(said.contains("neither a ready army"), "{said}");
}
