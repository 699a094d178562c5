//! `soulstone game play --edition mk` and the Mage Knight half of `game
//! verify`: a game between two bots on seeded terrain, and the check of
//! every roll of a log against its revealed seed.

use std::path::Path;

use soulstone_engine::Seat;
use soulstone_engine::bot::BotKind;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::mage_knight::content::{ArmyList, Roster};
use soulstone_engine::mage_knight::facts::Fact;
use soulstone_engine::mage_knight::game::{Battle, STANDARD_ROUNDS};
use soulstone_engine::mage_knight::placing::laid_before;
use soulstone_engine::mage_knight::{Army, FinishedLog, MageKnight, Setup, verify};
use soulstone_engine::system::TableGame;

use crate::cli::print_out;

/// Bot games end well within this many orders.
const MAX_ORDERS: usize = 5_000;

/// An army by a shipped ready army's name, or from an army file (TOML:
/// name, build total, warriors by name).
fn army(roster: &Roster, wanted: &str) -> Result<(Army, u16), String> {
    let list: ArmyList = match roster.army_list(wanted) {
        Some(list) => list.clone(),
        None => {
            let path = Path::new(wanted);
            let text = std::fs::read_to_string(path).map_err(|e| {
                let names: Vec<&str> = roster.armies().iter().map(|a| a.name.as_str()).collect();
                format!(
                    "{wanted} is neither a ready army ({}) nor a readable file: {e}",
                    names.join(", ")
                )
            })?;
            roster.read_army(wanted, &text).map_err(|e| e.to_string())?
        }
    };
    let fielded = roster.field(&list).map_err(|e| format!("{wanted}: {e}"))?;
    Ok((fielded, list.build_total))
}

fn score_line(battle: &Battle) -> String {
    format!(
        "objectives A {}, B {}; points eliminated A {}, B {}",
        battle.objectives_of(Seat::A),
        battle.objectives_of(Seat::B),
        battle.eliminated_points[0],
        battle.eliminated_points[1]
    )
}

pub fn play(
    armies: &[String],
    seed: u64,
    bots: [BotKind; 2],
    log_path: Option<&Path>,
) -> Result<(), String> {
    let roster = crate::content::shipped_mage_knight().map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    let names: Vec<String> = match armies {
        [] => roster
            .armies()
            .iter()
            .take(2)
            .map(|a| a.name.clone())
            .collect(),
        [a, b] => vec![a.clone(), b.clone()],
        _ => return Err("give two --army options (player A's first), or none".into()),
    };
    let (a, a_total) = army(&roster, &names[0])?;
    let (b, b_total) = army(&roster, &names[1])?;
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let armies = [a, b];
    let setup = Setup {
        seed: Bytes32(seed_bytes),
        build_total: a_total.max(b_total),
        rounds: STANDARD_ROUNDS,
        terrain: laid_before(&armies, seed),
        armies,
    };
    print_out(&format!(
        "{} ({} points) against {} ({} points), build total {}, {} rounds; terrain: {}",
        setup.armies[0].name,
        setup.armies[0].points(),
        setup.armies[1].name,
        setup.armies[1].points(),
        setup.build_total,
        setup.rounds,
        if setup.terrain.is_empty() {
            "placed by the players from their pile".to_owned()
        } else {
            setup
                .terrain
                .iter()
                .map(|f| f.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        }
    ));
    let (battle, facts, commands) =
        super::bot_game::<MageKnight>(setup.clone(), bots, seed, MAX_ORDERS, |battle, made| {
            for fact in made {
                match fact {
                    Fact::FirstPlayer { seat, distances } => print_out(&format!(
                        "{} goes first; objectives {}\" and {}\" beyond the deployment areas",
                        seat.label(),
                        distances[0],
                        distances[1]
                    )),
                    Fact::TurnBegan { seat, .. }
                        if *seat == battle.first.unwrap_or(Seat::A) && battle.round() > 1 =>
                    {
                        print_out(&format!(
                            "after round {}: {}",
                            battle.round() - 1,
                            score_line(battle)
                        ));
                    }
                    _ => {}
                }
            }
        })?;
    let outcome = battle
        .outcome
        .as_ref()
        .ok_or("the game did not end within its orders")?;
    print_out(&format!(
        "final: {}; {}",
        outcome.words(),
        score_line(&battle)
    ));
    if let Some(path) = log_path {
        let log = MageKnight::finished_log(
            setup,
            facts,
            commands,
            (MageKnight::LOG_FORMAT, MageKnight::RULES_VERSION),
        );
        super::write_log(path, &log, log.facts.len())?;
    }
    Ok(())
}

/// Whether `json` is a Mage Knight log (its setup fields armies).
pub fn is_mage_knight_log(json: &serde_json::Value) -> bool {
    json.pointer("/setup/armies").is_some()
}

/// Checks a Mage Knight log: every roll against the revealed seed, the
/// seed against its commitment, the facts replayed, and the orders played
/// through the rules again to the same facts.
pub fn verify_log(path: &Path, json: serde_json::Value) -> Result<(), String> {
    let at = |e: String| format!("{}: {e}", path.display());
    let log: FinishedLog = serde_json::from_value(json).map_err(|e| at(e.to_string()))?;
    let rolls = verify(&log).map_err(at)?;
    let mut battle = MageKnight::start(log.setup.clone()).map_err(|e| at(e.to_string()))?;
    let mut made = Vec::new();
    for (at_fact, submission) in &log.commands {
        if usize::try_from(*at_fact).ok() != Some(made.len()) {
            return Err(at(format!(
                "an order is logged at fact {at_fact}, but replaying reached fact {}",
                made.len()
            )));
        }
        made.extend(MageKnight::execute(&mut battle, submission).map_err(|e| at(e.to_string()))?);
    }
    if made != log.facts {
        return Err(at(
            "replaying the orders does not give the logged facts".into()
        ));
    }
    print_out(&format!(
        "{}: {} facts replayed; {rolls} rolls match the revealed seed; {} orders played again to the same facts; {}",
        path.display(),
        log.facts.len(),
        log.commands.len(),
        battle
            .outcome
            .as_ref()
            .map_or_else(|| "not ended".to_owned(), |o| o.words())
    ));
    Ok(())
}
