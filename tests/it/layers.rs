//! The root crate's layers, read from its sources: the web, then the
//! services (hosting, the events, mail), then the database, then plain
//! modules (data, settings and helpers that know nothing of the others).
//! An import may stay in its own layer or point down, never up, and the
//! web reaches the database only through a service; the entry points may
//! use every layer.

use std::path::{Path, PathBuf};

/// The layers from the top down, with the top-level modules of each.
const LAYERS: &[(&str, &[&str])] = &[
    ("entry", &["main", "lib", "cli", "game_cli"]),
    ("web", &["web"]),
    // The services, in the order they use each other: hosting reports
    // into the events (never the other way), the events send mail.
    ("hosting and rankings", &["hosted", "rankings"]),
    (
        "events, pools, accounts, crews and packs",
        &["events", "pools", "accounts", "crews", "packs"],
    ),
    ("mail", &["mail"]),
    ("db", &["db"]),
    (
        "plain",
        &[
            "auth",
            "chess_clock",
            "config",
            "content",
            "setup",
            "systems",
            "telemetry",
            "tournament",
        ],
    ),
];

/// The identifier `from` starts with (after spaces).
fn ident(from: &str) -> String {
    from.trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// What the web may name of the database layer: the pool, a connection
/// from it, its error and the state of a database refusing writes, which
/// it hands to the services or reports. Never a query, a row or a table:
/// those it reaches through a service.
const WEB_MAY_NAME_OF_DB: &[&str] = &["Db", "DbConnection", "DbError", "WritesRefused"];

/// The names used of `crate::db::` on each line of `code` (`crate::db::X`,
/// `crate::db::{X, y::Z}`: X and y), comments left out.
fn db_names(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in code.lines().enumerate() {
        let line = line.split("//").next().unwrap_or("");
        for (at, word) in line.match_indices("crate::db::") {
            let rest = &line[at + word.len()..];
            match rest.strip_prefix('{') {
                Some(group) => {
                    let group = group.split('}').next().unwrap_or("");
                    found.extend(group.split(',').map(|entry| (number + 1, ident(entry))));
                }
                None => found.push((number + 1, ident(rest))),
            }
        }
    }
    found.retain(|(_, name)| !name.is_empty());
    found
}

/// Whether a module of layer `from` may import one of layer `to`: its own
/// layer or one below, except that the web reaches the database only
/// through a service; the entry points use anything.
fn may_use(from: usize, to: usize) -> bool {
    let (from_name, to_name) = (LAYERS[from].0, LAYERS[to].0);
    from_name == "entry" || (to >= from && !(from_name == "web" && to_name == "db"))
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
}

fn rust_files(folder: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The top-level modules `code` names through `crate::`, with the line
/// each is named on: `crate::db::x` and every path of `crate::{db, web::y}`.
/// Comments are left out.
fn crate_modules(text: &str) -> Vec<(usize, String)> {
    let code: String = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut found = Vec::new();
    for (at, word) in code.match_indices("crate::") {
        // A preceding identifier character means another name
        // (`soulstone_crate::`), not this crate.
        if code[..at]
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let line = code[..at].matches('\n').count() + 1;
        let rest = &code[at + word.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The group's top-level entries, each a path from the crate root.
            let mut depth = 0;
            let mut entry_start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        found.push((line, ident(&group[entry_start..i])));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.push((line, ident(&group[entry_start..i])));
                        entry_start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            found.push((line, ident(rest)));
        }
    }
    found.retain(|(_, module)| !module.is_empty());
    found
}

#[test]
fn imports_in_the_root_crate_point_down_the_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    assert!(
        files.len() > 50,
        "the scan found only {} files",
        files.len()
    );
    let mut against = Vec::new();
    for path in &files {
        let relative = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let module = relative
            .trim_start_matches("src/")
            .split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_string();
        let Some(from) = layer_of(&module) else {
            against.push(format!(
                "{relative}: module {module} is in no layer (add it to LAYERS)"
            ));
            continue;
        };
        let text = std::fs::read_to_string(path).unwrap();
        if module == "web" {
            for (line, name) in db_names(&text) {
                if !WEB_MAY_NAME_OF_DB.contains(&name.as_str()) {
                    against.push(format!(
                        "{relative}:{line}: the web names db::{name}: reach it through a service"
                    ));
                }
            }
        }
        for (line, target) in crate_modules(&text) {
            {
                if target == module {
                    continue;
                }
                // Items of the crate root (`crate::VERSION`) belong to no layer.
                let Some(to) = layer_of(&target) else {
                    continue;
                };
                if may_use(from, to) {
                    continue;
                }
                // The handles the web may hold are checked name by name below.
                if module == "web" && target == "db" {
                    continue;
                }
                against.push(format!(
                    "{relative}:{line}: {} ({}) imports {target} ({})",
                    module, LAYERS[from].0, LAYERS[to].0
                ));
            }
        }
    }
    assert!(against.is_empty(), "{}", against.join("\n"));
}

#[test]
fn the_layer_scan_sees_every_import_and_skips_comments() {
    let names =
        |text: &str| -> Vec<String> { crate_modules(text).into_iter().map(|(_, m)| m).collect() };
    assert_eq!(names("use crate::db::events;"), ["db"]);
    assert_eq!(
        names("let x = crate::web::error_page::render(crate::events::X);"),
        ["web", "events"]
    );
    assert_eq!(
        names("use crate::{\n    db::{self, X},\n    events::Y,\n};"),
        ["db", "events"]
    );
    assert_eq!(
        crate_modules("fn a() {}\nuse crate::hosted;")[0],
        (2, "hosted".to_string())
    );
    assert!(names("// crate::db is named in a comment").is_empty());
    assert!(names("use soulstone_engine::rules;").is_empty());
}

#[test]
fn the_web_names_of_the_database_only_its_handles() {
    let names =
        |code: &str| -> Vec<String> { db_names(code).into_iter().map(|(_, n)| n).collect() };
    assert_eq!(names("fn f(db: crate::db::Db) {}"), ["Db"]);
    assert_eq!(
        names("use crate::db::{Db, events::find_game};"),
        ["Db", "events"]
    );
    assert_eq!(names("crate::db::hosted::beat(conn)"), ["hosted"]);
    assert!(names("// crate::db::hosted::beat").is_empty());
    assert!(
        names("use crate::db::{Db, DbError};")
            .iter()
            .all(|n| WEB_MAY_NAME_OF_DB.contains(&n.as_str()))
    );
}

#[test]
fn the_layers_allow_down_and_refuse_up_and_the_web_reaching_the_database() {
    let layer = |module: &str| layer_of(module).unwrap();
    assert!(may_use(layer("web"), layer("events")));
    assert!(may_use(layer("hosted"), layer("events")));
    assert!(may_use(layer("db"), layer("setup")));
    assert!(!may_use(layer("events"), layer("hosted")));
    assert!(!may_use(layer("events"), layer("web")));
    assert!(!may_use(layer("db"), layer("mail")));
    assert!(!may_use(layer("web"), layer("db")));
    assert!(may_use(layer("cli"), layer("web")));
}

/// What of the standard library reaches outside a pure crate: files,
/// network, clock, environment, processes and threads.
pub(crate) const OUTSIDE_WORLD: [&str; 8] = [
    "std::fs",
    "std::net",
    "std::time",
    "std::env",
    "std::process",
    "std::thread",
    "SystemTime",
    "Instant",
];

/// The tournament rules are a crate of their own, pure as the engine is:
/// its manifest names only pure crates (the compiler then refuses the web,
/// the database or an async runtime), and its sources reach for no file,
/// network, clock, environment, process or thread of the standard library.
#[test]
fn the_tournament_crate_uses_nothing_impure() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tournament");
    let pure = [
        "integer-blossom",
        "serde",
        "serde_json",
        "skillratings",
        "soulstone-random",
        "strum",
        "thiserror",
    ];
    let manifest: toml::Table = std::fs::read_to_string(root.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let impure: Vec<&String> = manifest["dependencies"]
        .as_table()
        .unwrap()
        .keys()
        .filter(|name| !pure.contains(&name.as_str()))
        .collect();
    assert!(
        impure.is_empty(),
        "tournament/Cargo.toml depends on {impure:?}, which is not on the list of pure crates"
    );
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    assert!(
        files.len() > 10,
        "the scan found only {} files",
        files.len()
    );
    let found: Vec<String> = files
        .iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            OUTSIDE_WORLD
                .iter()
                .filter(|word| text.contains(*word))
                .map(|word| format!("{}: {word}", path.display()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(found.is_empty(), "impure uses: {found:?}");
}
