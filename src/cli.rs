//! The command line: `soulstone [serve]`, `soulstone migrate`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::{Settings, SettingsArgs};
use crate::db::Db;

#[derive(Debug, Parser)]
#[command(
    name = "soulstone",
    version,
    about = "Tournament organizer service for tabletop skirmish games"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the web application (the default).
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Site administration tasks.
    #[command(subcommand)]
    Admin(AdminCommand),
    /// Pair the next round of an event snapshot offline and print it as JSON
    /// (the format is in docs/pairing.md).
    Pair {
        /// The snapshot file (exported from the event page).
        file: std::path::PathBuf,
    },
    /// Build a demo event with many players and played rounds (for trying the
    /// service out, benchmarks and load tests).
    DemoEvent {
        /// The organiser's email; the account is created if needed (password "demo password").
        #[arg(long, default_value = "demo@soulstone.invalid")]
        owner: String,
        #[arg(long, default_value_t = 64)]
        players: usize,
        /// Rounds paired and played.
        #[arg(long, default_value_t = 3)]
        rounds: u32,
        /// Rounds planned (more than played leaves the event mid-way).
        #[arg(long, default_value_t = 5)]
        rounds_planned: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Print a synthetic event snapshot (random rounds, players in clubs) for
    /// `soulstone pair` benchmarks.
    SyntheticSnapshot {
        #[arg(long)]
        players: usize,
        #[arg(long, default_value_t = 5)]
        rounds: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A hard field of issue 20 instead of clubs of about eight.
        #[arg(long, value_enum, default_value_t = FieldShape::Clubs)]
        shape: FieldShape,
    },
    /// Rules engine scenarios: set up a game exactly, script it, check it.
    #[command(subcommand)]
    Scenario(ScenarioCommand),
    /// Whole encounters between the engine's bots, and checking game logs.
    #[command(subcommand)]
    Game(GameCommand),
    /// Game content: stat cards and crew lists (docs/content.md).
    #[command(subcommand)]
    Content(ContentCommand),
    /// Flip an encounter setup, exactly as the setup page does for the same seed.
    Setup {
        /// m4e, m3e, m1e or mk.
        #[arg(long)]
        edition: String,
        /// A shipped pool id (m3e-core, m3e-gg1 … m3e-gg4, m1e-core); default: the newest of the edition.
        #[arg(long)]
        pool: Option<String>,
        /// A pool file (TOML), e.g. a 4th edition season exported from a pool page.
        #[arg(long, conflicts_with = "pool")]
        pool_file: Option<std::path::PathBuf>,
        #[arg(long)]
        seed: Option<u64>,
        /// 1st edition encounter size: scrap or brawl.
        #[arg(long, default_value = "scrap")]
        size: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum ContentCommand {
    /// Check a content directory: every card loads and every crew list in
    /// it hires legally; prints each problem with its file, line and field.
    Check {
        /// The content directory (e.g. content/).
        dir: std::path::PathBuf,
    },
    /// Print the JSON Schema of a stat card file (or, with --edition-file,
    /// of an edition's tokens and markers files; with --crew-card, of a
    /// crew card; with --of, of another game system's file), for editors.
    Schema {
        #[arg(long, conflicts_with_all = ["crew_card", "of"])]
        edition_file: bool,
        #[arg(long, conflicts_with = "of")]
        crew_card: bool,
        #[arg(long, value_enum)]
        of: Option<SchemaOf>,
    },
}

/// The content files of the game systems with formats of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemaOf {
    /// A Mage Knight warrior file (`mk/warriors/*.toml`).
    MkWarriors,
    /// A Mage Knight army (`mk/armies/*.toml`).
    MkArmy,
    /// A 1st edition model file (`m1e/models/*.toml`).
    M1eModels,
    /// A 1st edition crew (`m1e/crews/*.toml`).
    M1eCrew,
}

impl SchemaOf {
    pub fn schema(self) -> serde_json::Value {
        use soulstone_engine::{first_edition, mage_knight};
        match self {
            SchemaOf::MkWarriors => mage_knight::content::warrior_file_schema(),
            SchemaOf::MkArmy => mage_knight::content::army_list_schema(),
            SchemaOf::M1eModels => first_edition::content::model_file_schema(),
            SchemaOf::M1eCrew => first_edition::content::crew_list_schema(),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum GameCommand {
    /// Play a whole encounter between two bots and print each turn's score
    /// and the final VP (with --edition mk, a Mage Knight game between two
    /// armies, and the objectives).
    Play {
        /// Two crew list options, player A's first (e.g. content/m4e/crews/*.txt); one
        /// may name several files separated by commas, of which that player hires one.
        #[arg(long, num_args = 1)]
        crew: Vec<std::path::PathBuf>,
        /// Mage Knight: two armies, player A's first, each a ready army's
        /// name (content/mk/armies) or an army file; none: the first two
        /// ready armies.
        #[arg(long, num_args = 1)]
        army: Vec<String>,
        /// The edition, m4e or m3e: the crew lists must be of it (default:
        /// the edition the lists give); m1e plays a 1st edition Scrap
        /// (--crew: two ready crews' names or crew files; none: the first
        /// two ready crews); mk plays Mage Knight.
        #[arg(long)]
        edition: Option<String>,
        /// Seeds the setup flips, the server seed and the bots.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The bot for player A, then for player B: easy, normal, hard,
        /// random, or greedy (the same as easy); one given plays both seats
        /// (default random).
        #[arg(long)]
        bot: Vec<String>,
        /// A table layout of the content's, by name (default: one picked
        /// from the seed).
        #[arg(long)]
        table: Option<String>,
        /// Write the game log (JSON) here.
        #[arg(long)]
        log: Option<std::path::PathBuf>,
    },
    /// Replay a game log: check every card drawn or revealed (Mage Knight:
    /// every roll) against its seed, play its commands through the rules
    /// again (every fact must come out the same), and check its seal.
    Verify {
        log: std::path::PathBuf,
        /// The server's public key (hex, from /games/signing-key): the
        /// log must be sealed with it.
        #[arg(long)]
        key: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum ScenarioCommand {
    /// Run a scenario file (docs/scenarios.md) and print its events and final
    /// state as JSON.
    Run {
        /// The scenario file (TOML, or JSON when it ends in .json).
        file: std::path::PathBuf,
        /// Check the file's expected outcome; exit with failure if not met.
        #[arg(long)]
        expect: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Create a site admin (or make an existing account an admin). The
    /// password is asked for on the terminal, or read from standard input.
    Create {
        #[arg(long)]
        email: String,
        /// The name shown for the new account.
        #[arg(long, default_value = "Site admin")]
        name: String,
    },
}

/// Runs the command line; returns the process exit code.
pub fn run(cli: Cli) -> ExitCode {
    crate::telemetry::init(cli.settings.log_json);
    // Offline commands need no settings, database or secret.
    match &cli.command {
        Some(Command::Pair { file }) => return finish(pair(file)),
        Some(Command::Game(GameCommand::Play {
            crew,
            army,
            edition,
            seed,
            bot,
            table,
            log,
        })) => {
            return finish(crate::game_cli::play(crate::game_cli::PlayRequest {
                crews: crew,
                armies: army,
                edition: edition.as_deref(),
                seed: *seed,
                bots: bot,
                table: table.as_deref(),
                log_path: log.as_deref(),
            }));
        }
        Some(Command::Game(GameCommand::Verify { log, key })) => {
            return finish(crate::game_cli::verify(log, key.as_deref()));
        }
        Some(Command::Scenario(ScenarioCommand::Run { file, expect })) => {
            return finish(run_scenario(
                file,
                *expect,
                cli.settings.content_dir.as_deref(),
            ));
        }
        Some(Command::Content(ContentCommand::Check { dir })) => {
            return finish(match crate::content::check(dir) {
                Ok(summary) => {
                    print_out(&summary);
                    Ok(())
                }
                Err(problems) => Err(format!(
                    "{} problem(s):\n  {}",
                    problems.len(),
                    problems.join("\n  ")
                )),
            });
        }
        Some(Command::Content(ContentCommand::Schema {
            edition_file,
            crew_card,
            of,
        })) => {
            let schema = if let Some(of) = of {
                of.schema()
            } else if *edition_file {
                soulstone_engine::content::edition_schema()
            } else if *crew_card {
                soulstone_engine::content::crew_card_schema()
            } else {
                soulstone_engine::content::card_schema()
            };
            return finish(
                serde_json::to_string_pretty(&schema)
                    .map(|json| print_out(&json))
                    .map_err(|e| e.to_string()),
            );
        }
        Some(Command::SyntheticSnapshot {
            players,
            rounds,
            seed,
            shape,
        }) => {
            use crate::tournament::synthetic::{Clubs, HardField, random_event};
            let field = |clubs, uneven_initial_points, met_group| HardField {
                players: *players,
                rounds: *rounds,
                clubs,
                uneven_initial_points,
                met_group,
                seed: *seed,
            };
            let snapshot = match shape {
                FieldShape::Clubs => random_event(*players, *rounds, *seed),
                FieldShape::NoClubs => field(Clubs::None, false, false).snapshot(),
                FieldShape::TwoClubs => field(Clubs::TwoClubs, false, false).snapshot(),
                FieldShape::OneRegion => field(Clubs::OneRegion, false, false).snapshot(),
                FieldShape::MetGroup => field(Clubs::Many, false, true).snapshot(),
                FieldShape::UnevenInitialPoints => field(Clubs::Many, true, false).snapshot(),
            };
            return finish(
                serde_json::to_string(&snapshot)
                    .map(|json| print_out(&json))
                    .map_err(|e| e.to_string()),
            );
        }
        Some(Command::Setup {
            edition,
            pool,
            pool_file,
            seed,
            size,
            json,
        }) => {
            return finish(setup(
                edition,
                pool.as_deref(),
                pool_file.as_deref(),
                *seed,
                size,
                *json,
            ));
        }
        _ => {}
    }
    let (settings, notes) = match Settings::resolve(&cli.settings) {
        Ok(resolved) => resolved,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::from(2);
        }
    };
    for warning in &notes.warnings {
        tracing::warn!("{warning}");
    }
    let result = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => crate::web::serve(settings).map_err(|err| err.to_string()),
        Command::Migrate => migrate(&settings),
        Command::Admin(AdminCommand::Create { email, name }) => {
            create_admin(&settings, &email, &name)
        }
        Command::DemoEvent {
            owner,
            players,
            rounds,
            rounds_planned,
            seed,
        } => demo_event(
            &settings,
            &owner,
            crate::events::demo::DemoSpec {
                players,
                rounds,
                rounds_planned,
                seed,
            },
        ),
        Command::Pair { .. }
        | Command::Setup { .. }
        | Command::SyntheticSnapshot { .. }
        | Command::Scenario(_)
        | Command::Game(_)
        | Command::Content(_) => Ok(()),
    };
    if let Err(message) = &result {
        tracing::error!("{message}");
    }
    finish(result)
}

fn finish(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn pair(file: &std::path::Path) -> Result<(), String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let snapshot =
        crate::tournament::snapshot::EventSnapshot::parse(&text).map_err(|e| e.to_string())?;
    let pairing = snapshot.pair_next_round().map_err(|e| e.to_string())?;
    let json = serde_json::to_string_pretty(&pairing).map_err(|e| e.to_string())?;
    print_out(&json);
    Ok(())
}

fn run_scenario(
    file: &std::path::Path,
    expect: bool,
    content_dir: Option<&std::path::Path>,
) -> Result<(), String> {
    use soulstone_engine::scenario::{FileFormat, ScenarioContent, ScenarioFile};
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let format = FileFormat::from_extension(file.extension().and_then(|e| e.to_str()));
    let scenario =
        ScenarioFile::parse(&text, format).map_err(|e| format!("{}: {e}", file.display()))?;
    // Models may name stat cards from the shipped content, and from the
    // operator's (`--content-dir`): a club checks its own cards with
    // scenarios of its own.
    let catalog = match content_dir {
        None => crate::content::load_shipped_for_cli()?,
        Some(dir) => crate::content::load_for_server(Some(dir)).map_err(|errors| {
            let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
            format!("the content has problems:\n  {}", lines.join("\n  "))
        })?,
    };
    let (first_edition, first_edition_conditions) = crate::content::first_edition_content()?;
    let content = ScenarioContent {
        catalog: &catalog,
        first_edition,
        first_edition_conditions,
    };
    let report = scenario
        .run(expect, content)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
    print_out(&json);
    let failures = report.failures();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}: {} failure(s):\n  {}",
            file.display(),
            failures.len(),
            failures.join("\n  ")
        ))
    }
}

/// Prints to standard output; a closed pipe (`| head`) is not an error.
pub(crate) fn print_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
}

fn setup(
    edition: &str,
    pool_id: Option<&str>,
    pool_file: Option<&std::path::Path>,
    seed: Option<u64>,
    size: &str,
    json: bool,
) -> Result<(), String> {
    use crate::setup::pool::Pool;
    use crate::setup::shipped::{newest_shipped_pool, shipped_pools};
    use crate::setup::{EncounterSize, SetupRequest, generate};
    use crate::systems::GameSystem;

    let system: GameSystem = edition
        .parse()
        .map_err(|e: crate::systems::UnknownGameSystem| e.to_string())?;
    let shipped = shipped_pools().map_err(|e| e.to_string())?;
    let from_file;
    let pool: Option<&Pool> = if !system.uses_pools() {
        None
    } else if let Some(path) = pool_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        from_file = Pool::parse_toml(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        Some(&from_file)
    } else if let Some(id) = pool_id {
        Some(shipped.iter().find(|p| p.id() == id).ok_or_else(|| {
            let ids: Vec<&str> = shipped.iter().map(|p| p.id()).collect();
            format!(
                "no shipped pool {id:?} (shipped: {}); use --pool-file for others",
                ids.join(", ")
            )
        })?)
    } else {
        Some(newest_shipped_pool(&shipped, system).ok_or_else(|| {
            format!(
                "no pool ships for {}: give one with --pool-file FILE",
                system.name()
            )
        })?)
    };
    let encounter_size = match size {
        "scrap" => EncounterSize::Scrap,
        "brawl" => EncounterSize::Brawl,
        other => return Err(format!("unknown encounter size {other:?} (scrap or brawl)")),
    };
    let seed = seed.unwrap_or_else(|| {
        use rand::RngCore;
        rand::rng().next_u64() % 1_000_000_000
    });
    let setup = generate(SetupRequest {
        system,
        pool,
        seed,
        encounter_size,
    })
    .map_err(|e| e.to_string())?;
    if json {
        print_out(&serde_json::to_string_pretty(&setup).map_err(|e| e.to_string())?);
    } else {
        let heading = format!("{} · seed {}", setup.system.name(), setup.seed);
        let table = crate::events::round_setups::TableSetup {
            setup,
            sides: None,
            shared: false,
        };
        print_out(&format!(
            "{heading}\n{}",
            crate::events::round_setups::setup_summary(&table, &crate::setup::SeatNames::default())
        ));
    }
    Ok(())
}

fn demo_event(
    settings: &Settings,
    owner: &str,
    spec: crate::events::demo::DemoSpec,
) -> Result<(), String> {
    use crate::auth::input::EmailAddress;
    use crate::db::accounts;

    let email = EmailAddress::parse(owner).map_err(|e| e.to_string())?;
    let db = Db::open(&settings.database_url, 1).map_err(|e| e.to_string())?;
    let mut conn = db.conn().map_err(|e| e.to_string())?;
    let now = chrono::Utc::now().naive_utc();
    let account = match accounts::find_by_email(&mut conn, email.as_str())
        .map_err(|e| e.to_string())?
    {
        Some(account) => account,
        None => {
            let hash =
                crate::auth::password::hash_password("demo password").map_err(|e| e.to_string())?;
            let account = accounts::create_account(
                &mut conn,
                &accounts::NewAccount {
                    email: email.as_str(),
                    display_name: "Demo organiser",
                    password_hash: &hash,
                    club: None,
                    region: None,
                    is_admin: false,
                    created_at: now,
                },
            )
            .map_err(|e| e.to_string())?
            .ok_or("the demo account could not be created")?;
            accounts::mark_email_verified(&mut conn, account.id, now).map_err(|e| e.to_string())?;
            account
        }
    };
    let actor = crate::events::Actor {
        confirmed: true,
        ..crate::events::Actor::of(&account)
    };
    let ctx = crate::events::Ctx {
        now,
        base_url: &settings.base_url,
    };
    let started = std::time::Instant::now();
    let id =
        crate::events::demo::seed_event(&mut conn, actor, spec, &ctx).map_err(|e| e.to_string())?;
    print_out(&format!(
        "created event {id} ({} players, {} rounds played) in {:.1} s: {}/events/{id}",
        spec.players,
        spec.rounds,
        started.elapsed().as_secs_f64(),
        settings.base_url
    ));
    Ok(())
}

fn migrate(settings: &Settings) -> Result<(), String> {
    let db = Db::connect(&settings.database_url, 1).map_err(|err| err.to_string())?;
    let applied = db.migrate().map_err(|err| err.to_string())?;
    for name in &applied {
        println!("applied {name}");
    }
    println!(
        "database {} is up to date ({} migrations applied now)",
        settings.database_url,
        applied.len()
    );
    Ok(())
}

fn read_password() -> Result<String, String> {
    use std::io::{BufRead, IsTerminal};
    if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password("Password for the admin account: ")
            .map_err(|e| e.to_string())?;
        let second =
            rpassword::prompt_password("Repeat the password: ").map_err(|e| e.to_string())?;
        if first != second {
            return Err("the two passwords differ".into());
        }
        Ok(first)
    } else {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .map_err(|e| format!("cannot read the password from standard input: {e}"))?;
        Ok(line.trim_end_matches(['\r', '\n']).to_owned())
    }
}

fn create_admin(settings: &Settings, raw_email: &str, raw_name: &str) -> Result<(), String> {
    use crate::auth::input::{DisplayName, EmailAddress, NewPassword};
    use crate::db::accounts;

    let email = EmailAddress::parse(raw_email).map_err(|e| e.to_string())?;
    let name = DisplayName::parse(raw_name).map_err(|e| e.to_string())?;
    let db = Db::open(&settings.database_url, 1).map_err(|e| e.to_string())?;
    let mut conn = db.conn().map_err(|e| e.to_string())?;
    if let Some(existing) =
        accounts::find_by_email(&mut conn, email.as_str()).map_err(|e| e.to_string())?
    {
        accounts::set_admin(&mut conn, existing.id, true).map_err(|e| e.to_string())?;
        println!(
            "{email} already had an account (#{}); it is now a site admin",
            existing.id
        );
        return Ok(());
    }
    let password = NewPassword::parse(&read_password()?).map_err(|e| e.to_string())?;
    let hash =
        crate::auth::password::hash_password(password.as_str()).map_err(|e| e.to_string())?;
    let now = chrono::Utc::now().naive_utc();
    let account = accounts::create_account(
        &mut conn,
        &accounts::NewAccount {
            email: email.as_str(),
            display_name: name.as_str(),
            password_hash: &hash,
            club: None,
            region: None,
            is_admin: true,
            created_at: now,
        },
    )
    .map_err(|e| e.to_string())?
    .ok_or_else(|| format!("{email} was registered at the same moment; run the command again"))?;
    // The operator typed the address on the server: no need to confirm it by mail.
    accounts::mark_email_verified(&mut conn, account.id, now).map_err(|e| e.to_string())?;
    println!("created site admin {email} (#{})", account.id);
    Ok(())
}

/// The synthetic fields `synthetic-snapshot` can print (the hard ones are
/// those of `benches/pairing_hard.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FieldShape {
    /// Clubs of about eight.
    Clubs,
    NoClubs,
    /// Two clubs of 60% and 40%.
    TwoClubs,
    /// One region of 30%, the rest in none.
    OneRegion,
    /// Six players who have all met each other (a forced float or rematch).
    MetGroup,
    /// Initial points of 1 or 3 (pair round 1 with `--rounds 0`).
    UnevenInitialPoints,
}
