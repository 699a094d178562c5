//! `soulstone game play` and `soulstone game verify`: whole encounters
//! between the engine's bots, and checking a game log against its seed
//! (Malifaux here, Mage Knight in [`mage_knight`]).

mod first_edition;
mod mage_knight;

use std::path::Path;

use soulstone_engine::bot::{Bot, BotKind, play_to_end};
use soulstone_engine::content::crew::CrewList;
use soulstone_engine::encounter::{Brought, new_encounter};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::log::{GameLog, LoggedCommand};
use soulstone_engine::{Event, GameState, Seat};

use crate::cli::print_out;

/// A whole encounter's commands stay well under this.
const MAX_COMMANDS: usize = 50_000;

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn score_line(state: &GameState) -> String {
    let vp = |seat: Seat| state.player(seat).victory_points;
    format!("A {} VP, B {} VP", vp(Seat::A), vp(Seat::B))
}

/// What `game play` is asked to play.
pub struct PlayRequest<'a> {
    pub crews: &'a [std::path::PathBuf],
    pub armies: &'a [String],
    pub edition: Option<&'a str>,
    pub seed: u64,
    pub bots: &'a [String],
    pub table: Option<&'a str>,
    pub log_path: Option<&'a Path>,
}

pub fn play(request: PlayRequest<'_>) -> Result<(), String> {
    let PlayRequest {
        crews,
        armies,
        edition,
        seed,
        bots,
        table,
        log_path,
    } = request;
    let kinds: Vec<BotKind> = bots
        .iter()
        .map(|name| name.parse::<BotKind>())
        .collect::<Result<_, _>>()?;
    let kind = |i: usize| {
        kinds
            .get(i)
            .or(kinds.first())
            .copied()
            .unwrap_or(BotKind::Random)
    };
    if edition == Some("mk") {
        if !crews.is_empty() {
            return Err("Mage Knight plays armies: give --army, not --crew".into());
        }
        return mage_knight::play(armies, seed, [kind(0), kind(1)], log_path);
    }
    if !armies.is_empty() {
        return Err("--army is for Mage Knight (--edition mk); Malifaux plays --crew".into());
    }
    if edition == Some("m1e") {
        if table.is_some() {
            return Err("1st edition encounters are played on an open table: no --table".into());
        }
        return first_edition::play(crews, seed, [kind(0), kind(1)], log_path);
    }
    let [a, b] = crews else {
        return Err("give exactly two --crew options (player A's first)".into());
    };
    // A --crew may name several files, separated by commas: that player
    // hires one of them during setup, in secret.
    let parse = |paths: &Path| -> Result<Vec<(String, CrewList)>, String> {
        let text = paths.to_string_lossy();
        text.split(',')
            .map(|one| {
                let path = Path::new(one.trim());
                let list = CrewList::parse(&read(path)?)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                let name = path
                    .file_stem()
                    .map_or_else(|| one.to_string(), |s| s.to_string_lossy().into_owned());
                Ok((name, list))
            })
            .collect()
    };
    let lists = [parse(a)?, parse(b)?];
    if let Some(wanted) = edition {
        let wanted: soulstone_engine::Edition =
            serde_json::from_value(serde_json::Value::String(wanted.to_string()))
                .map_err(|_| format!("unknown edition {wanted:?} (m4e, m3e, m1e or mk)"))?;
        if let Some((name, list)) = lists.iter().flatten().find(|(_, l)| l.edition != wanted) {
            return Err(format!(
                "{name} is a {} crew list, not {}",
                list.edition.name(),
                wanted.name()
            ));
        }
    }
    let brought = lists.each_ref().map(|seat| {
        seat.iter()
            .map(|(name, list)| Brought { name, list })
            .collect::<Vec<_>>()
    });
    let catalog = crate::content::load_shipped_for_cli()?;
    // The server seed, from the command's seed (a real game's is random).
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let setup = new_encounter(
        &catalog,
        [&brought[0], &brought[1]],
        Bytes32(seed_bytes),
        table,
    )
    .map_err(|e| e.to_string())?;
    if let Some(encounter) = &setup.encounter {
        print_out(&format!(
            "{} attacks; strategy {}, {:?} deployment; schemes {}; {} terrain pieces",
            encounter.attacker.label(),
            encounter.strategy.name,
            encounter.deployment,
            encounter.scheme_pool.join(", "),
            setup.terrain.len()
        ));
    }
    let mut state = Box::new(GameState::new(setup.clone()).map_err(|e| e.to_string())?);
    let mut log = GameLog::new(setup);
    let mut bots = [
        Bot::new(kind(0), Seat::A, seed),
        Bot::new(kind(1), Seat::B, seed),
    ];
    play_to_end(
        &mut state,
        &mut bots,
        MAX_COMMANDS,
        |state, submission, facts| {
            if !facts.is_empty() {
                log.commands.push(LoggedCommand {
                    at_fact: u32::try_from(log.facts.len()).unwrap_or(u32::MAX),
                    submission: submission.clone(),
                });
            }
            for fact in facts {
                match fact {
                    Event::DeclarationsRevealed { what, choices } => {
                        print_out(&format!(
                            "{}: A {}, B {}",
                            what.label(),
                            choices[0],
                            choices[1]
                        ));
                    }
                    Event::TurnStarted { turn } if *turn > 1 => {
                        print_out(&format!("after turn {}: {}", turn - 1, score_line(state)));
                    }
                    Event::SchemeRevealed {
                        seat,
                        scheme,
                        amount,
                    } => {
                        print_out(&format!(
                            "  {} reveals {} for {amount} VP",
                            seat.label(),
                            scheme.name
                        ));
                    }
                    Event::SchemeScored {
                        seat,
                        scheme,
                        amount,
                    } => {
                        print_out(&format!(
                            "  {} scores {scheme} again at the end, for {amount} VP",
                            seat.label()
                        ));
                    }
                    _ => {}
                }
            }
            log.facts.extend_from_slice(facts);
        },
    )
    .map_err(|e| e.to_string())?;
    let last_turn = state.encounter.as_deref().map_or(0, |e| e.turn);
    print_out(&format!("after turn {last_turn}: {}", score_line(&state)));
    let (a_vp, b_vp) = (
        state.player(Seat::A).victory_points,
        state.player(Seat::B).victory_points,
    );
    print_out(&format!(
        "final: {}",
        match a_vp.cmp(&b_vp) {
            std::cmp::Ordering::Greater => format!("Player A wins {a_vp}–{b_vp}"),
            std::cmp::Ordering::Less => format!("Player B wins {b_vp}–{a_vp}"),
            std::cmp::Ordering::Equal => format!("a draw, {a_vp}–{b_vp}"),
        }
    ));
    if let Some(path) = log_path {
        write_log(path, &log, log.facts.len())?;
    }
    Ok(())
}

/// A game of `G` between two bots from `setup`, `each` shown every batch
/// of facts with the game after it; returns the finished game, its facts
/// and the commands that made them (by the index of their first fact).
#[allow(clippy::type_complexity)]
fn bot_game<G: soulstone_engine::system::TableGame>(
    setup: G::Setup,
    bots: [BotKind; 2],
    seed: u64,
    most: usize,
    mut each: impl FnMut(&G::State, &[G::Fact]),
) -> Result<(G::State, Vec<G::Fact>, Vec<(u32, G::Submission)>), String> {
    let mut game = G::start(setup).map_err(|e| e.to_string())?;
    let mut facts = Vec::new();
    let mut commands = Vec::new();
    for step in 0..most {
        if G::is_over(&game) {
            break;
        }
        let Some(seat) = G::waiting_for(&game).first().copied() else {
            break;
        };
        let command = G::bot_command(
            &game,
            seat,
            bots[seat.index()],
            seed.wrapping_add(step as u64),
        )
        .ok_or("the bot found no command")?;
        let submission = G::player_submission(seat, G::version(&game), command);
        let made = G::execute(&mut game, &submission).map_err(|e| e.to_string())?;
        commands.push((u32::try_from(facts.len()).unwrap_or(u32::MAX), submission));
        each(&game, &made);
        facts.extend(made);
    }
    if !G::is_over(&game) {
        return Err(format!("the game did not end within {most} commands"));
    }
    Ok((game, facts, commands))
}

/// Writes a game's log as JSON to `path` and says so.
fn write_log(path: &Path, log: &impl serde::Serialize, facts: usize) -> Result<(), String> {
    let json = serde_json::to_string(log).map_err(|e| e.to_string())?;
    std::fs::write(path, json).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    print_out(&format!("log: {} ({facts} facts)", path.display()));
    Ok(())
}

/// Checks a log three ways and says what each showed: its cards against
/// the seed's shuffles, its commands played through the rules again, and
/// its seal (with `key`, it must be that key's). Any that fails fails it.
pub fn verify(path: &Path, key: Option<&str>) -> Result<(), String> {
    let at = |e: String| format!("{}: {e}", path.display());
    let text = read(path)?;
    if let Ok(json) = serde_json::from_str::<serde_json::Value>(&text)
        && mage_knight::is_mage_knight_log(&json)
    {
        return mage_knight::verify_log(path, json);
    }
    if let Ok(json) = serde_json::from_str::<serde_json::Value>(&text)
        && first_edition::is_first_edition_log(&json)
    {
        return first_edition::verify_log(path, json);
    }
    let log = GameLog::from_json(&text).map_err(|e| at(e.to_string()))?;
    let state = log.verify().map_err(|e| at(e.to_string()))?;
    let commands = crate::hosted::seal::commands_replayed(&log).map_err(at)?;
    let seal = match crate::hosted::seal::check_seal(&log, key).map_err(at)? {
        crate::hosted::seal::SealCheck::Signed { key } => {
            format!("sealed with the key {key}, and the seal holds")
        }
        crate::hosted::seal::SealCheck::Unsealed => {
            "not sealed: nothing shows the log is whole (give --key to require a seal)".into()
        }
    };
    print_out(&format!(
        "{}: {} facts replayed; every card drawn or revealed matches the seed's shuffles; {commands}; {seal}; {}{}",
        path.display(),
        log.facts.len(),
        score_line(&state),
        if state.ended { "" } else { " (not ended)" }
    ));
    Ok(())
}
