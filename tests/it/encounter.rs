//! Whole encounters played by the engine's bots, in both editions: every
//! game ends after its last turn (4th edition 4, 3rd edition 5) within the
//! VP caps, every card is accounted for, the log replays to the same
//! state, and no view shows a scheme, a secret setup choice or the crews a
//! player brought to anyone but their owner.

use soulstone::content::{load_for_server, shipped_crews};
use soulstone_engine::bot::{Bot, BotKind, play_to_end};
use soulstone_engine::content::crew::CrewList;
use soulstone_engine::encounter::{Brought, Step, new_encounter};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::fate::DECK_SIZE;
use soulstone_engine::log::{GameLog, Position};
use soulstone_engine::{GameState, Seat, Viewer, view};

/// The shipped crew lists of an edition ("m4e" or "m3e").
fn crews(edition: &str) -> Vec<(String, CrewList)> {
    shipped_crews()
        .iter()
        .filter(|(path, _)| path.contains(edition))
        .map(|(path, text)| {
            let list = CrewList::parse(text).expect("a shipped crew list parses");
            (path.to_string(), list)
        })
        .collect()
}

/// The lists each player brings for `seed`: one to three of the shipped
/// ones, so the secret choices of faction, leader and crew are real ones.
fn brought(seed: u64, lists: &[(String, CrewList)]) -> [Vec<Brought<'_>>; 2] {
    let n = lists.len();
    Seat::BOTH.map(|seat| {
        let count = 1 + (seed as usize + seat.index()) % 3;
        let first = (seed as usize / 3 + seat.index() * 2) % n;
        (0..count.min(n))
            .map(|k| {
                let (name, list) = &lists[(first + k) % n];
                Brought { name, list }
            })
            .collect()
    })
}

/// Plays a whole 4th edition encounter; checks the invariants as it goes.
fn play(seed: u64, kinds: [BotKind; 2]) -> (GameState, GameLog) {
    play_edition("m4e", seed, kinds)
}

/// The setup of a game of `edition` ("m4e" or "m3e") for `seed`, with the
/// shipped content and crews.
pub(crate) fn set_up(edition: &str, seed: u64) -> soulstone_engine::state::NewGame {
    let catalog = load_for_server(None).expect("the shipped content loads");
    let lists = crews(edition);
    let [a, b] = brought(seed, &lists);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    // Every fourth 4th edition game plays a TO's season the content lacks,
    // scored by the players' claims.
    let season = (seed % 4 == 3 && edition == "m4e").then(claimed_season);
    soulstone_engine::encounter::new_encounter_in(
        &catalog,
        [&a, &b],
        Bytes32(bytes),
        None,
        season.as_ref(),
    )
    .expect("the encounter sets up")
}

fn play_edition(edition: &str, seed: u64, kinds: [BotKind; 2]) -> (GameState, GameLog) {
    let setup = set_up(edition, seed);
    let mut state = Box::new(GameState::new(setup.clone()).expect("a valid game"));
    let mut log = GameLog::new(setup);
    let mut bots = [
        Bot::new(kinds[0], Seat::A, seed),
        Bot::new(kinds[1], Seat::B, seed),
    ];
    let mut facts_so_far = Vec::new();
    play_to_end(&mut state, &mut bots, 20_000, |state, _, facts| {
        facts_so_far.extend_from_slice(facts);
        check(seed, state, &facts_so_far);
    })
    .unwrap_or_else(|e| {
        // Where it stopped: the step, the innermost procedure, the last facts.
        let last: Vec<String> = facts_so_far
            .iter()
            .rev()
            .take(12)
            .rev()
            .map(|f| serde_json::to_string(f).unwrap_or_default())
            .collect();
        panic!(
            "seed {seed}: {e}\nstep {:?}, frame {:?}\n{}",
            state.encounter.as_ref().map(|e| e.step),
            state.frame(),
            last.join("\n")
        )
    });
    log.facts = facts_so_far;
    assert!(state.ended, "seed {seed}: the game did not end");
    (*state, log)
}

/// A round of a season whose strategy and two of whose schemes the content
/// does not describe.
fn claimed_season() -> soulstone_engine::encounter::GivenScenario {
    use soulstone_engine::encounter::objectives::SeasonScheme;
    soulstone_engine::encounter::GivenScenario {
        attacker: Seat::B,
        strategy_suit: soulstone_engine::fate::Suit::Masks,
        strategy: Some("Night Market".into()),
        deployment: soulstone_engine::table::measure::Deployment::Standard,
        schemes: vec![
            "Smuggle the Cargo".into(),
            "Deep Raid".into(),
            "Burn the Ledgers".into(),
        ],
        season_schemes: vec![
            SeasonScheme {
                name: "Smuggle the Cargo".into(),
                next: vec!["Burn the Ledgers".into(), "Deep Raid".into()],
            },
            SeasonScheme {
                name: "Burn the Ledgers".into(),
                next: vec!["Smuggle the Cargo".into()],
            },
        ],
    }
}

/// `viewer` sees the same of both states, as sent (JSON). The views are
/// compared as values first: equal values make equal JSON, and comparing
/// them is what lets the property run reach thousands of games.
fn assert_same_view(
    state: &GameState,
    other: &GameState,
    viewer: Viewer,
    what: impl Fn() -> String,
) {
    let (seen, other_seen) = (view(state, viewer), view(other, viewer));
    if seen != other_seen {
        assert_eq!(
            serde_json::to_value(seen).expect("json"),
            serde_json::to_value(other_seen).expect("json"),
            "{}",
            what()
        );
    }
}

/// What holds after every command: 54 cards a deck, and schemes secret.
fn check(seed: u64, state: &GameState, facts: &[soulstone_engine::Event]) {
    // The table the state keeps for its version (shared by the bots'
    // probes) is the one it would build afresh.
    let mut fresh = state.clone();
    fresh.table_cache = soulstone_engine::state::TableCache::default();
    assert_eq!(*state.table(), *fresh.table(), "seed {seed}: a stale table");
    for seat in Seat::BOTH {
        let p = state.player(seat);
        let cards = p.deck.len()
            + p.hand.len()
            + p.discard.len()
            + p.removed.len()
            + p.revealed.len()
            + p.conflict.len();
        assert_eq!(cards, DECK_SIZE, "seed {seed}: {seat:?}'s 54 cards");
    }
    // A view works out only its viewer's options whole: the same as
    // `pending`'s (checked at every fifth version, `pending` being dear).
    if state.version.is_multiple_of(5) {
        let open = soulstone_engine::pending(state);
        for viewer in [
            Viewer::Player(Seat::A),
            Viewer::Player(Seat::B),
            Viewer::Spectator,
        ] {
            let seen = view(state, viewer);
            assert_eq!(seen.waiting_for, open.seats(), "seed {seed}: {viewer:?}");
            let mine = match viewer {
                Viewer::Player(seat) => open.for_seat(seat).cloned(),
                Viewer::Spectator => None,
            };
            assert_eq!(seen.decision, mine, "seed {seed}: {viewer:?}");
        }
    }
    // Another player's or a spectator's view never holds a scheme, nor
    // does the fact that selected it.
    let encounter = state.encounter.as_deref().expect("an encounter");
    // A claim waits only while its opponent is asked to answer it.
    assert_eq!(
        encounter.choices.claim.is_some(),
        matches!(encounter.step, Step::AnswerClaim { .. }),
        "seed {seed}: a claim and the step disagree"
    );
    if let (Some(claim), Step::AnswerClaim { seat }) = (&encounter.choices.claim, encounter.step) {
        assert_eq!(claim.seat, seat.other(), "seed {seed}");
    }
    // Chain activations stop at two models in a row, and an additional
    // action waits in the queue only while the action before it resolves.
    assert!(
        encounter.in_a_row <= soulstone_engine::encounter::MAX_IN_A_ROW,
        "seed {seed}: {} models in a row",
        encounter.in_a_row
    );
    let acting = state
        .frames
        .iter()
        .any(|f| matches!(f, soulstone_engine::state::Frame::Action { .. }));
    // Between actions the queue waits only for its controller to name an
    // action or pick a target, and then for nobody else.
    let decider = state
        .unnamed_queued()
        .or(state
            .action_queue
            .first()
            .filter(|next| next.needs_choice()))
        .and_then(|next| next.decided_by(state));
    assert!(
        acting || state.action_queue.is_empty() || decider.is_some(),
        "seed {seed}: an additional action left in the queue"
    );
    if let (false, Some(decider)) = (acting, decider)
        && state.damage_queue.is_empty()
    {
        assert_eq!(
            soulstone_engine::pending(state).seats(),
            vec![decider],
            "seed {seed}: only the controller decides for the queue (step {:?}, frames {:?}, queue {:?})",
            encounter.step,
            state.frames,
            state.action_queue
        );
    }
    // No two bases at one height overlap (beyond the table's touching
    // tolerance): a stop in base contact rounds away from the other base.
    let bodies: Vec<_> = state
        .models
        .iter()
        .filter(|m| m.on_table())
        .filter_map(|m| m.body().map(|b| (m.id, b)))
        .collect();
    for (i, (a, first)) in bodies.iter().enumerate() {
        for (b, second) in &bodies[i + 1..] {
            let overlap = first.radius + second.radius - first.center.dist(second.center);
            assert!(
                first.z != second.z || overlap <= soulstone_engine::table::TOUCH + 1e-9,
                "seed {seed}: {a:?} and {b:?} overlap by {overlap}\""
            );
        }
    }
    // (A 3rd edition crew holds two.)
    for (i, held) in encounter.choices.schemes.iter().flatten().enumerate() {
        let k = encounter.choices.schemes[held.owner.index()]
            .iter()
            .position(|h| h == held)
            .expect("held");
        for viewer in [Viewer::Player(held.owner.other()), Viewer::Spectator] {
            let shown = view(state, viewer)
                .encounter
                .expect("the encounter is shown");
            let theirs = &shown.choices.schemes[held.owner.index()][k];
            assert!(
                theirs.value.is_none(),
                "seed {seed}: {viewer:?} sees scheme {i}"
            );
        }
        let mine = view(state, Viewer::Player(held.owner))
            .encounter
            .expect("shown");
        assert!(mine.choices.schemes[held.owner.index()][k].value.is_some());
    }
    // Whether a crew is asked to reveal after an activation is read from
    // public facts only: the opponent's view of the encounter gives the
    // same answer as the whole state.
    for seat in Seat::BOTH {
        let asked = encounter.may_reveal_after_activation(seat);
        for viewer in [Viewer::Player(seat.other()), Viewer::Spectator] {
            let shown = view(state, viewer).encounter.expect("shown");
            assert_eq!(
                shown.may_reveal_after_activation(seat),
                asked,
                "seed {seed}: {viewer:?} cannot tell whether {seat:?} is asked"
            );
        }
    }
    // Swapping a crew's scheme for another changes nothing its opponent
    // or a spectator sees.
    for seat in Seat::BOTH {
        let mut other = state.clone();
        let Some(held) = other
            .encounter
            .as_mut()
            .map(std::sync::Arc::make_mut)
            .and_then(|e| e.choices_mut().schemes[seat.index()].last_mut())
        else {
            continue;
        };
        held.value = Some(soulstone_engine::encounter::HeldScheme {
            name: "Some Other Scheme".into(),
            target: None,
            second_target: None,
        });
        for viewer in [Viewer::Player(seat.other()), Viewer::Spectator] {
            assert_same_view(state, &other, viewer, || {
                format!("seed {seed}: {viewer:?} can tell {seat:?}'s scheme")
            });
        }
    }
    // Nor the crews a player brought, nor a setup choice not yet revealed.
    for seat in Seat::BOTH {
        let mut other = state.clone();
        let Some(encounter) = other.encounter.as_mut().map(std::sync::Arc::make_mut) else {
            continue;
        };
        let setup = std::sync::Arc::make_mut(&mut encounter.setup);
        // Another crew brought besides (the player's own choices stay
        // possible, so only what is secret differs).
        if let Some(offers) = setup.offers[seat.index()].value.as_mut() {
            let mut another = offers[0].clone();
            another.name = "Another crew".into();
            another.faction = "Another faction".into();
            another.leader = "Another leader".into();
            another.models.truncate(1);
            offers.insert(0, another);
        }
        if let Some(declared) = encounter.choices_mut().declared[seat.index()].as_mut() {
            declared.value = Some("Something else".into());
        }
        for viewer in [Viewer::Player(seat.other()), Viewer::Spectator] {
            assert_same_view(state, &other, viewer, || {
                format!("seed {seed}: {viewer:?} can tell {seat:?}'s crews or choices")
            });
        }
    }
    for fact in facts.iter().rev().take(8) {
        if let soulstone_engine::Event::Declared { seat, .. } = fact {
            for viewer in [Viewer::Player(seat.other()), Viewer::Spectator] {
                let shown = fact.for_viewer(viewer);
                assert!(
                    shown["choice"].get("value").is_none(),
                    "seed {seed}: {shown}"
                );
            }
        }
        if let soulstone_engine::Event::SchemeSelected { seat, .. } = fact {
            for viewer in [Viewer::Player(seat.other()), Viewer::Spectator] {
                let shown = fact.for_viewer(viewer);
                assert!(
                    shown["scheme"].get("value").is_none(),
                    "seed {seed}: {shown}"
                );
            }
        }
    }
}

/// Bot games with the Hollowmarch, whose leader summons: each summoned
/// model joins the summoner's crew touching the summoner, and a non-peon
/// gains the Summon and Slow tokens at once.
#[test]
fn bots_summon_models_into_the_summoners_crew() {
    use soulstone_engine::Event;
    use soulstone_engine::table::measure::base_contact;
    let mut summoned = 0;
    for seed in 0..40u64 {
        let (state, log) = play(seed, [BotKind::Random, BotKind::Random]);
        let mut replayed = GameState::new(log.setup.clone()).expect("a valid game");
        let mut summoner = None;
        for (index, fact) in log.facts.iter().enumerate() {
            soulstone_engine::state::apply(&mut replayed, fact);
            match fact {
                Event::SummonOffered { summoner: by, .. } => summoner = Some(*by),
                Event::ModelSummoned {
                    model, seat, card, ..
                } => {
                    summoned += 1;
                    let new = replayed
                        .model(*model)
                        .expect("the summoned model is in the game");
                    let by = replayed
                        .model(summoner.expect("offered first"))
                        .expect("summoner");
                    assert_eq!((new.owner, &*new.card.name), (by.owner, card.as_str()));
                    assert_eq!(new.owner, *seat);
                    assert!(
                        base_contact(&new.body().expect("placed"), &by.body().expect("placed")),
                        "seed {seed}: not touching its summoner"
                    );
                    let tokens: Vec<String> = log.facts[index + 1..]
                        .iter()
                        .take_while(|f| matches!(f, Event::TokenGained { .. }))
                        .filter_map(|f| match f {
                            Event::TokenGained {
                                model: m, token, ..
                            } if m == model => Some(token.to_string()),
                            _ => None,
                        })
                        .collect();
                    let expected: Vec<String> = if new.card.peon {
                        Vec::new()
                    } else {
                        vec!["summon".into(), "slow".into()]
                    };
                    assert_eq!(tokens, expected, "seed {seed}");
                }
                _ => {}
            }
        }
        assert_eq!(replayed.models, state.models, "seed {seed}");
        if summoned >= 3 {
            return;
        }
    }
    panic!("only {summoned} summons in 40 bot games with the Hollowmarch");
}

/// The property run: `SOULSTONE_ENCOUNTER_GAMES` games (6 by default; the
/// benchmark run plays 10,000), seeds shared out over the machine's cores.
/// `SOULSTONE_ENCOUNTER_SEED=N` replays the one game a failure names.
#[test]
fn bot_encounters_end_after_turn_four_within_the_caps_and_replay() {
    property_run(one_bot_encounter);
}

/// Plays `one` for the seed `SOULSTONE_ENCOUNTER_SEED` names, or for
/// `SOULSTONE_ENCOUNTER_GAMES` seeds (6 by default) shared out over the
/// machine's cores.
fn property_run(one: fn(u64)) {
    if let Some(seed) = std::env::var("SOULSTONE_ENCOUNTER_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        one(seed);
        return;
    }
    let games: u64 = std::env::var("SOULSTONE_ENCOUNTER_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    std::thread::scope(|scope| {
        for first in 0..threads {
            scope.spawn(move || {
                for seed in (first..games).step_by(threads as usize) {
                    one(seed);
                }
            });
        }
    });
}

/// The bots of a property game: random, mixed, greedy, or the easy level
/// against the normal one (searching), by seed.
fn bots_for(seed: u64) -> [BotKind; 2] {
    match seed % 6 {
        0 | 3 => [BotKind::Random, BotKind::Random],
        1 | 4 => [BotKind::Greedy, BotKind::Random],
        2 => [BotKind::Greedy, BotKind::Greedy],
        _ => [BotKind::Greedy, BotKind::Normal],
    }
}

fn one_bot_encounter(seed: u64) {
    let (state, log) = play(seed, bots_for(seed));
    let encounter = state.encounter.as_deref().expect("an encounter");
    let rules = &state.edition.rules().encounter;
    assert_eq!(encounter.turn, rules.turns, "seed {seed}");
    assert_eq!(encounter.step, Step::Over, "seed {seed}");
    for seat in Seat::BOTH {
        let i = seat.index();
        assert!(encounter.strategy_vp[i] <= rules.max_strategy_vp);
        assert!(encounter.scheme_vp[i] <= rules.max_scheme_vp);
        // Abilities may score too (an ability's gain_victory_points).
        assert!(
            state.player(seat).victory_points >= encounter.strategy_vp[i] + encounter.scheme_vp[i]
        );
    }
    assert!(
        encounter.choices.claim.is_none(),
        "seed {seed}: a claim left open"
    );
    if seed % 4 == 3 {
        // The season's strategy: both crews claim at every end phase, and
        // what each gained is what its opponent confirmed.
        use soulstone_engine::Event;
        use soulstone_engine::encounter::ClaimedObjective;
        let strategy_claims = log
            .facts
            .iter()
            .filter(|f| {
                matches!(
                    f,
                    Event::VpClaimed {
                        objective: ClaimedObjective::Strategy { .. },
                        ..
                    }
                )
            })
            .count();
        assert_eq!(strategy_claims, 8, "seed {seed}");
        for seat in Seat::BOTH {
            let confirmed: u8 = log
                .facts
                .windows(2)
                .filter_map(|w| match w {
                    [
                        Event::ClaimConfirmed { seat: s },
                        Event::StrategyScored { seat: t, amount },
                    ] if *s == seat && *t == seat => Some(*amount),
                    _ => None,
                })
                .sum();
            assert_eq!(
                confirmed,
                encounter.strategy_vp[seat.index()],
                "seed {seed}"
            );
        }
    }
    for d in &encounter.choices.disputed {
        assert!(d.vp > 0 && (1..=4).contains(&d.turn), "seed {seed}: {d:?}");
    }
    let replayed = log.replay().expect("the log replays");
    assert_eq!(Position::of(&replayed), Position::of(&state), "seed {seed}");
    assert_eq!(replayed.encounter, state.encounter, "seed {seed}");
}

/// 3rd edition encounters with the shipped 3rd edition crews:
/// `SOULSTONE_ENCOUNTER_GAMES` games as above (6 by default), each ending
/// after turn 5 within the caps, with no VP on turn 1, initiative flipped
/// every turn, every pass paid with a pass token, and the log replaying.
/// `SOULSTONE_ENCOUNTER_SEED=N` replays the one game a failure names.
#[test]
fn m3e_bot_encounters_end_after_turn_five_within_the_caps_and_replay() {
    property_run(one_m3e_encounter);
}

fn one_m3e_encounter(seed: u64) {
    use soulstone_engine::Event;
    let (state, log) = play_edition("m3e", seed, bots_for(seed));
    assert_eq!(state.edition, soulstone_engine::Edition::Third);
    let encounter = state.encounter.as_deref().expect("an encounter");
    assert_eq!(
        (encounter.turn, encounter.step),
        (5, Step::Over),
        "seed {seed}"
    );
    for seat in Seat::BOTH {
        let i = seat.index();
        assert!(encounter.strategy_vp[i] <= 4, "seed {seed}");
        assert!(encounter.scheme_vp[i] <= 4, "seed {seed}");
        assert!(state.player(seat).hand.len() <= 6, "seed {seed}");
        // Two schemes chosen, each secret until it scored (or a claim for
        // it was disputed), each scoring at most once a turn, twice a game.
        let choices = &encounter.choices;
        assert_eq!(
            choices.schemes[i].len() + choices.revealed[i].len(),
            2,
            "seed {seed}"
        );
        // (A disputed claim gains nothing and uses nothing up.)
        for name in &choices.revealed[i] {
            let claims: Vec<_> = choices.scores_of(seat, name).collect();
            assert!(!claims.is_empty(), "seed {seed}: revealed unclaimed");
            assert!(
                claims.iter().all(|s| (2..=5).contains(&s.turn)),
                "seed {seed}"
            );
            assert!(
                claims.windows(2).all(|w| w[0].turn < w[1].turn),
                "seed {seed}: twice in a turn: {claims:?}"
            );
            let scored: Vec<_> = claims.iter().filter(|s| s.vp > 0).collect();
            assert!(
                scored.len() <= 2 && scored.iter().all(|s| s.vp == 1),
                "seed {seed}"
            );
            if let [_, second] = scored.as_slice() {
                assert_eq!(second.turn, 5, "seed {seed}: {claims:?}");
            }
        }
        let scored: u8 = choices
            .scheme_scores
            .iter()
            .filter(|s| s.seat == seat)
            .map(|s| s.vp)
            .sum();
        assert_eq!(scored, encounter.scheme_vp[i], "seed {seed}");
    }
    // Replaying the facts, tracking the turn and each crew's pass tokens.
    let mut turn = 0;
    let mut flipped = [false; 6];
    let mut tokens = [0u8; 2];
    let mut after_an_answer = false;
    // The model disengaging, and how far the strike's flip shortened its push.
    let mut disengaging: Option<(soulstone_engine::model::ModelId, u8)> = None;
    for fact in &log.facts {
        match fact {
            Event::DisengageStarted { model } => disengaging = Some((*model, 0)),
            // A strike deals no damage of its own.
            Event::DamageDealt { report } => assert!(
                disengaging.is_none_or(|(model, _)| model != report.target),
                "seed {seed}: a disengaging model damaged"
            ),
            Event::DisengageFlipEnded { model, reduction } => {
                assert_eq!(disengaging.map(|(m, _)| m), Some(*model), "seed {seed}");
                assert!([0, 2, 4, 6, 7].contains(reduction), "seed {seed}");
                disengaging = Some((*model, *reduction));
            }
            Event::DisengagePushOffered { model, inches, .. } => {
                let (m, reduction) = disengaging.take().expect("a Disengage under way");
                assert_eq!(m, *model, "seed {seed}");
                let mv = state.model(m).expect("the model").card.speed;
                // Slow and Fast change the Mv it pushes from by a little.
                assert!(
                    u16::from(*inches) <= u16::from(mv.saturating_sub(reduction)) + 2,
                    "seed {seed}: pushed {inches} after {reduction} off Mv {mv}"
                );
            }
            _ => {}
        }
        // A scheme that scored with no claim answered before it was scored
        // by the engine: one whose content it can check.
        if let Event::SchemeRevealed {
            scheme: soulstone_engine::encounter::HeldScheme { name, .. },
            ..
        }
        | Event::SchemeScored { scheme: name, .. } = fact
            && !after_an_answer
        {
            let def = encounter
                .setup
                .schemes
                .scheme(name)
                .expect("a content scheme");
            let claimed = soulstone_engine::encounter::objectives::SchemeCondition::Claimed;
            assert!(
                !def.reveal.contains(&claimed) || !def.end.contains(&claimed),
                "seed {seed}: {name} scored unclaimed"
            );
        }
        after_an_answer = matches!(
            fact,
            Event::ClaimConfirmed { .. } | Event::ClaimDisputed { .. }
        );
        match fact {
            Event::TurnStarted { turn: t } => turn = *t,
            Event::InitiativeFlipped { .. } => flipped[usize::from(turn)] = true,
            Event::InitiativeSet { .. } => tokens = [0, 0],
            Event::PassTokensGained { seat, count } => tokens[seat.index()] += count,
            Event::Passed { seat, with_token } => {
                assert!(
                    *with_token,
                    "seed {seed}: a 3rd edition pass without a token"
                );
                assert!(
                    tokens[seat.index()] > 0,
                    "seed {seed}: passed with no token"
                );
                tokens[seat.index()] -= 1;
            }
            Event::StrategyScored { .. }
            | Event::SchemeRevealed { .. }
            | Event::VpClaimed { .. } => {
                assert!(turn >= 2, "seed {seed}: VP on turn {turn}")
            }
            _ => {}
        }
    }
    assert_eq!(
        flipped[1..],
        [true; 5],
        "seed {seed}: a turn without an initiative flip"
    );
    let replayed = log.replay().expect("the log replays");
    assert_eq!(Position::of(&replayed), Position::of(&state), "seed {seed}");
    assert_eq!(replayed.encounter, state.encounter, "seed {seed}");
}

#[test]
fn verify_accepts_a_bot_game_log_and_rejects_one_changed_card() {
    let (_, log) = play(7, [BotKind::Greedy, BotKind::Random]);
    let text = serde_json::to_string(&log).expect("json");
    let stored = GameLog::from_json(&text).expect("the log reads back");
    stored.verify().expect("the log matches its seed");
    // Change the first card drawn to another card.
    let mut value: serde_json::Value = serde_json::from_str(&text).expect("json");
    let facts = value["facts"].as_array_mut().expect("facts");
    let drawn = facts
        .iter_mut()
        .find(|f| f["type"] == "drew")
        .expect("a card was drawn");
    let card = drawn["card"]["value"]
        .as_str()
        .expect("the card")
        .to_string();
    let other = if card == "1R" { "2R" } else { "1R" };
    drawn["card"]["value"] = serde_json::Value::from(other);
    let changed = GameLog::from_json(&value.to_string()).expect("still a log");
    let error = changed.verify().expect_err("a changed card is caught");
    assert!(error.to_string().contains("drew"), "{error}");
}

/// Setup steps F to H: factions, then leaders, then crews, each chosen in
/// secret and revealed once both are in; a choice out of turn, out of the
/// player's own lists, or made twice is refused and changes nothing.
#[test]
fn factions_leaders_and_crews_are_chosen_in_secret_and_revealed_together() {
    use soulstone_engine::encounter::Declaration;
    use soulstone_engine::{PlayerCommand, Submission, execute};
    let catalog = load_for_server(None).expect("the shipped content loads");
    let lists = crews("m4e");
    let mine: Vec<Brought<'_>> = lists[..2]
        .iter()
        .map(|(name, list)| Brought { name, list })
        .collect();
    let theirs = [Brought {
        name: &lists[2].0,
        list: &lists[2].1,
    }];
    let setup = new_encounter(&catalog, [&mine, &theirs], Bytes32([9; 32]), None)
        .expect("the encounter sets up");
    let mut state = GameState::new(setup).expect("a valid game");
    assert!(state.models.is_empty(), "no crew is hired before step H");
    let send = |state: &mut GameState, seat: Seat, command: PlayerCommand| {
        let submission = Submission::player(seat, state.version, command);
        execute(state, &submission)
    };
    let declare = |what, choice: &str| PlayerCommand::Declare {
        what,
        choice: choice.into(),
    };
    let faction_a = lists[0].1.faction.clone();
    assert!(
        send(
            &mut state,
            Seat::A,
            declare(Declaration::Faction, &faction_a)
        )
        .is_err(),
        "no faction before the attacker has chosen a zone"
    );
    let attacker = state
        .encounter
        .as_deref()
        .expect("encounter")
        .setup
        .attacker;
    send(
        &mut state,
        attacker,
        PlayerCommand::ChooseZone {
            zone: soulstone_engine::encounter::Zone::Lower,
        },
    )
    .expect("the attacker chooses a zone");
    let before = state.clone();
    for (command, why) in [
        (
            declare(Declaration::Leader, "Anyone"),
            "a leader before a faction",
        ),
        (
            declare(Declaration::Faction, "Guild"),
            "a faction A did not bring",
        ),
        (
            declare(Declaration::Faction, &lists[2].1.faction),
            "B's faction, which A did not bring",
        ),
    ] {
        if command_allowed_for_a(&lists, &command) {
            continue;
        }
        let error = send(&mut state, Seat::A, command).expect_err(why);
        assert_eq!(state, before, "{why} changes nothing: {error}");
    }
    send(
        &mut state,
        Seat::A,
        declare(Declaration::Faction, &faction_a),
    )
    .expect("A's faction");
    let error = send(
        &mut state,
        Seat::A,
        declare(Declaration::Faction, &faction_a),
    )
    .expect_err("a second faction");
    assert!(error.to_string().contains("already"), "{error}");
    // B sees that A has chosen, not what.
    let shown = view(&state, Viewer::Player(Seat::B))
        .encounter
        .expect("shown");
    let declared = shown.choices.declared[0].as_ref().expect("A has declared");
    assert!(
        declared.value.is_none(),
        "B sees A's faction before its own"
    );
    assert!(shown.setup.offers[0].value.is_none(), "B sees A's lists");
    assert!(shown.choices.factions.is_none());
    let faction_b = lists[2].1.faction.clone();
    send(
        &mut state,
        Seat::B,
        declare(Declaration::Faction, &faction_b),
    )
    .expect("B's faction");
    let encounter = state.encounter.as_deref().expect("encounter");
    assert_eq!(
        encounter.choices.factions,
        Some([faction_a.clone(), faction_b.clone()])
    );
    assert_eq!(
        encounter.step,
        Step::Declare {
            what: Declaration::Leader
        }
    );
    // Leaders, then crews, each from the lists of the faction revealed.
    for seat in Seat::BOTH {
        let options = encounter.declarable(seat, Declaration::Leader);
        assert!(!options.is_empty(), "{seat:?} has a leader to choose");
    }
    let leaders = Seat::BOTH.map(|seat| encounter.declarable(seat, Declaration::Leader)[0].clone());
    for seat in Seat::BOTH {
        send(
            &mut state,
            seat,
            declare(Declaration::Leader, &leaders[seat.index()]),
        )
        .expect("a leader");
    }
    let encounter = state.encounter.as_deref().expect("encounter");
    let crews_chosen =
        Seat::BOTH.map(|seat| encounter.declarable(seat, Declaration::Crew)[0].clone());
    for seat in Seat::BOTH {
        send(
            &mut state,
            seat,
            declare(Declaration::Crew, &crews_chosen[seat.index()]),
        )
        .expect("a crew");
    }
    let encounter = state.encounter.as_deref().expect("encounter");
    assert_eq!(encounter.choices.crews.as_ref(), Some(&crews_chosen));
    assert_eq!(encounter.step, Step::SplitCrew);
    for seat in Seat::BOTH {
        let list = &lists
            .iter()
            .find(|(name, _)| *name == crews_chosen[seat.index()])
            .expect("a brought list")
            .1;
        let hired = state.models.iter().filter(|m| m.owner == seat).count();
        assert_eq!(hired, list.models.len() + 1, "{seat:?}'s crew is hired");
        let leader = encounter.leaders[seat.index()].expect("a leader");
        assert_eq!(
            &*state.model(leader).expect("the leader").card.name,
            list.leader.as_str(),
            "{seat:?}'s leader"
        );
        let pool = list.hire(&catalog).expect("hires").pool;
        assert_eq!(state.player(seat).soulstones, u16::from(pool));
    }
}

/// Whether A brought what `command` names (a test list may share B's faction).
fn command_allowed_for_a(
    lists: &[(String, CrewList)],
    command: &soulstone_engine::PlayerCommand,
) -> bool {
    match command {
        soulstone_engine::PlayerCommand::Declare { choice, .. } => {
            lists[..2].iter().any(|(_, l)| &l.faction == choice)
        }
        _ => false,
    }
}

/// An event round's scenario is played as the round names it: where the
/// content has its strategy and schemes they are scored by the engine;
/// an entry the content lacks is played by claims (never swapped for
/// another), with the season's Next Available Schemes; only a round with
/// no schemes gets three of the content's.
#[test]
fn a_given_scenario_is_played_as_the_round_names_it() {
    use soulstone_engine::encounter::objectives::{SeasonScheme, StrategyScoring};
    use soulstone_engine::encounter::{GivenScenario, new_encounter_in};
    use soulstone_engine::fate::Suit;
    use soulstone_engine::table::measure::Deployment;
    let catalog = load_for_server(None).expect("the shipped content loads");
    let lists = crews("m4e");
    let [a, b] = brought(7, &lists);
    let known = GivenScenario {
        attacker: Seat::B,
        strategy_suit: Suit::Rams,
        strategy: Some("lamp posts".into()),
        deployment: Deployment::Corner,
        schemes: vec!["Assassinate".into(), "Culling".into(), "Deep Raid".into()],
        season_schemes: Vec::new(),
    };
    let setup = new_encounter_in(&catalog, [&a, &b], Bytes32([3; 32]), None, Some(&known))
        .expect("the encounter sets up");
    let encounter = setup.encounter.expect("an encounter");
    assert_eq!(encounter.attacker, Seat::B);
    assert_eq!(encounter.strategy.name, "Lamp Posts");
    assert_ne!(encounter.strategy.scoring, StrategyScoring::Claimed);
    assert_eq!(encounter.deployment, Deployment::Corner);
    assert_eq!(
        encounter.scheme_pool,
        ["Assassinate", "Culling", "Deep Raid"]
    );
    assert!(encounter.schemes.schemes.iter().all(|s| !s.is_claimed()));

    let unknown = GivenScenario {
        strategy: Some("Night Market".into()),
        strategy_suit: Suit::Tomes,
        schemes: vec!["Assassinate".into(), "Not a Scheme".into()],
        season_schemes: vec![
            SeasonScheme {
                name: "Not a Scheme".into(),
                next: vec!["Assassinate".into(), "Also Not One".into()],
            },
            SeasonScheme {
                name: "Also Not One".into(),
                next: Vec::new(),
            },
        ],
        ..known.clone()
    };
    let setup = new_encounter_in(&catalog, [&a, &b], Bytes32([3; 32]), None, Some(&unknown))
        .expect("the encounter sets up");
    let encounter = setup.encounter.expect("an encounter");
    assert_eq!(encounter.strategy.name, "Night Market");
    assert_eq!(encounter.strategy.scoring, StrategyScoring::Claimed);
    assert!(encounter.strategy.markers.is_empty());
    assert_eq!(encounter.scheme_pool, ["Assassinate", "Not a Scheme"]);
    let claimed = encounter.schemes.scheme("not a scheme").expect("kept");
    assert!(claimed.is_claimed());
    assert_eq!(claimed.next, ["Assassinate", "Also Not One"]);
    assert!(
        encounter
            .schemes
            .scheme("Also Not One")
            .is_some_and(|s| s.is_claimed())
    );
    let assassinate = encounter.schemes.scheme("Assassinate").expect("content");
    assert!(!assassinate.is_claimed());

    let none = GivenScenario {
        schemes: Vec::new(),
        ..known
    };
    let setup = new_encounter_in(&catalog, [&a, &b], Bytes32([3; 32]), None, Some(&none))
        .expect("the encounter sets up");
    let encounter = setup.encounter.expect("an encounter");
    let objectives = catalog
        .objectives(soulstone_engine::Edition::Fourth)
        .expect("objectives");
    assert_eq!(encounter.scheme_pool.len(), 3);
    assert!(
        encounter
            .scheme_pool
            .iter()
            .all(|name| objectives.scheme(name).is_some())
    );
}
