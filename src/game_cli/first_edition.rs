//! `soulstone game play --edition m1e` and the 1st edition half of `game
//! verify`: an encounter between two bots, and the check of every shuffle
//! and card of a log against its revealed seed.

use std::path::{Path, PathBuf};

use soulstone_engine::Seat;
use soulstone_engine::bot::BotKind;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::first_edition::{
    Book, CrewList, Fact, FinishedLog, FirstEdition, Setup, Skirmish, verify, words,
};
use soulstone_engine::system::TableGame;

use crate::cli::print_out;

/// Bot games end well within this many commands.
const MAX_ORDERS: usize = 20_000;

/// A crew by a shipped ready crew's name, or from a crew file (TOML).
fn crew_list(book: &Book, wanted: &Path) -> Result<CrewList, String> {
    let name = wanted.to_string_lossy();
    if let Some(list) = book.crews().iter().find(|l| l.name == name) {
        return Ok(list.clone());
    }
    let text = std::fs::read_to_string(wanted).map_err(|e| {
        let names: Vec<&str> = book.crews().iter().map(|l| l.name.as_str()).collect();
        format!(
            "{name} is neither a ready crew ({}) nor a readable file: {e}",
            names.join(", ")
        )
    })?;
    toml::from_str(&text).map_err(|e| format!("{name}: {e}"))
}

fn score_line(game: &Skirmish) -> String {
    let score = FirstEdition::score(game);
    let left = |s: Seat| game.on_table(s).count();
    format!(
        "VP A {}, B {}; models left A {}, B {}; soulstones A {}, B {}",
        score.total[0],
        score.total[1],
        left(Seat::A),
        left(Seat::B),
        game.player(Seat::A).soulstones,
        game.player(Seat::B).soulstones
    )
}

pub fn play(
    crews: &[PathBuf],
    seed: u64,
    bots: [BotKind; 2],
    log_path: Option<&Path>,
) -> Result<(), String> {
    let book = crate::content::shipped_first_edition().map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    let conditions = crate::content::shipped_first_edition_conditions().map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    let lists: Vec<CrewList> = match crews {
        [] => book.crews().iter().take(2).cloned().collect(),
        [a, b] => vec![crew_list(&book, a)?, crew_list(&book, b)?],
        _ => return Err("give two --crew options (player A's first), or none".into()),
    };
    let hired: Vec<_> = lists
        .iter()
        .map(|list| {
            book.hire(list)
                .map_err(|problems| format!("{}: {}", list.name, problems.join("; ")))
        })
        .collect::<Result<_, _>>()?;
    let [a, b]: [_; 2] = hired
        .try_into()
        .map_err(|_| "two crews are needed".to_owned())?;
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    seed_bytes[8..11].copy_from_slice(b"m1e");
    let setup = Setup {
        encounter: a.encounter,
        crews: [a, b],
        summonable: book.models().cloned().collect(),
        conditions,
        seed: Bytes32(seed_bytes),
    };
    print_out(&format!(
        "{} ({}, {} soulstones in the pool) against {} ({}, {}), a {}",
        setup.crews[0].name,
        setup.crews[0].faction,
        setup.crews[0].pool,
        setup.crews[1].name,
        setup.crews[1].faction,
        setup.crews[1].pool,
        setup.encounter.name()
    ));
    let mut turns_closed = 0;
    let (game, facts, commands) =
        super::bot_game::<FirstEdition>(setup.clone(), bots, seed, MAX_ORDERS, |game, made| {
            for fact in made {
                match fact {
                    Fact::StrategySet { .. }
                    | Fact::DeploymentSet { .. }
                    | Fact::FirstDeployer { .. } => {
                        if let Some(line) = words::fact(game, fact, None) {
                            print_out(&line);
                        }
                    }
                    Fact::TurnClosed => {
                        turns_closed += 1;
                        print_out(&format!("after turn {turns_closed}: {}", score_line(game)));
                    }
                    _ => {}
                }
            }
        })?;
    let result = game
        .result
        .ok_or("the game did not end within its commands")?;
    print_out(&format!(
        "final: Player A {} VP ({} strategy, {} schemes), Player B {} VP ({} strategy, {} schemes)",
        result[0].0 + result[0].1,
        result[0].0,
        result[0].1,
        result[1].0 + result[1].1,
        result[1].0,
        result[1].1
    ));
    if let Some(path) = log_path {
        let log = FirstEdition::finished_log(
            setup,
            facts,
            commands,
            (FirstEdition::LOG_FORMAT, FirstEdition::RULES_VERSION),
        );
        super::write_log(path, &log, log.facts.len())?;
    }
    Ok(())
}

/// Whether `json` is a 1st edition log (its setup holds a condition book).
pub fn is_first_edition_log(json: &serde_json::Value) -> bool {
    json.pointer("/setup/conditions").is_some() && json.pointer("/setup/crews").is_some()
}

/// Checks a 1st edition log: every shuffle and card against the revealed
/// seed, the seed against its commitment, and the commands played through
/// the rules again to the same facts.
pub fn verify_log(path: &Path, json: serde_json::Value) -> Result<(), String> {
    let at = |e: String| format!("{}: {e}", path.display());
    let log: FinishedLog = serde_json::from_value(json).map_err(|e| at(e.to_string()))?;
    let checked = verify(&log).map_err(at)?;
    print_out(&format!(
        "{}: {} facts replayed; {checked} shuffles and cards match the revealed seed; {} commands played again to the same facts",
        path.display(),
        log.facts.len(),
        log.commands.len()
    ));
    Ok(())
}
