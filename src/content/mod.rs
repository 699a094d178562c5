//! Content on disk: finds the content files under a content directory and
//! hands their text to the engine's content reader, which opens no files
//! itself. Layout (`docs/content.md`): `<dir>/<edition>/*.toml` for tokens
//! and markers, `<dir>/<edition>/models/**/*.toml` for stat cards,
//! `<dir>/<edition>/crew-cards/*.toml` for crew cards and
//! `<dir>/<edition>/crews/*.txt` for crew lists.

pub mod pack;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

use soulstone_engine::content::crew::CrewList;
use soulstone_engine::content::{Catalog, ContentError};
use soulstone_engine::first_edition::{Book, ConditionBook};
use soulstone_engine::mage_knight::content::Roster;

mod shipped {
    //! The content shipped in the binary (written by `build.rs`).
    include!(concat!(env!("OUT_DIR"), "/shipped_content.rs"));
}

/// The shipped stat cards: (path, text).
pub fn shipped_cards() -> &'static [(&'static str, &'static str)] {
    shipped::SHIPPED_CARDS
}

/// The shipped edition files (tokens and markers): (path, text).
pub fn shipped_edition_files() -> Embedded {
    shipped::SHIPPED_EDITION_FILES
}

/// The shipped crew cards: (path, text).
pub fn shipped_crew_cards() -> Embedded {
    shipped::SHIPPED_CREW_CARDS
}

/// The shipped ready crew lists: (path, text).
pub fn shipped_crews() -> &'static [(&'static str, &'static str)] {
    shipped::SHIPPED_CREWS
}

/// The shipped Mage Knight warriors and ready armies, checked.
pub fn shipped_mage_knight() -> Result<Roster, Vec<ContentError>> {
    Roster::load(
        shipped::SHIPPED_MK_WARRIORS.iter().copied(),
        shipped::SHIPPED_MK_ARMIES.iter().copied(),
    )
}

/// The shipped 1st edition models and ready crews, checked.
pub fn shipped_first_edition() -> Result<Book, Vec<ContentError>> {
    Book::load(
        shipped::SHIPPED_M1E_MODELS.iter().copied(),
        shipped::SHIPPED_M1E_CREWS.iter().copied(),
    )
}

/// The shipped 1st edition condition book (`content/m1e/conditions.toml`).
pub const SHIPPED_M1E_CONDITIONS: &str = include_str!("../../content/m1e/conditions.toml");

/// The shipped 1st edition condition book, checked.
pub fn shipped_first_edition_conditions() -> Result<ConditionBook, Vec<ContentError>> {
    ConditionBook::load("m1e/conditions.toml", SHIPPED_M1E_CONDITIONS)
}

/// The shipped Mage Knight roster, read once (the shipped content is
/// checked by the tests, so a problem here is a broken build).
pub fn mage_knight_roster() -> Result<&'static Roster, String> {
    static ROSTER: std::sync::OnceLock<Result<Roster, String>> = std::sync::OnceLock::new();
    ROSTER
        .get_or_init(|| {
            shipped_mage_knight().map_err(|errors| {
                errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The shipped 1st edition book and condition book, read once (checked by
/// the tests, so a problem here is a broken build).
pub fn first_edition_content() -> Result<&'static (Book, ConditionBook), String> {
    static CONTENT: std::sync::OnceLock<Result<(Book, ConditionBook), String>> =
        std::sync::OnceLock::new();
    CONTENT
        .get_or_init(|| {
            let words = |errors: Vec<ContentError>| {
                errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            Ok((
                shipped_first_edition().map_err(words)?,
                shipped_first_edition_conditions().map_err(words)?,
            ))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The shipped content for a command-line tool, its problems as one message.
pub fn load_shipped_for_cli() -> Result<Catalog, String> {
    load_for_server(None).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!(
            "the shipped content has problems:\n  {}",
            lines.join("\n  ")
        )
    })
}

/// What the server plays with: the shipped cards, then the cards of the
/// operator's content directory, if any (a club's own cards). Loads whole
/// or refuses, with every problem.
pub fn load_for_server(extra: Option<&Path>) -> Result<Catalog, Vec<ContentError>> {
    ServerContent::load(extra)
        .map(|content| Arc::try_unwrap(content.catalog).unwrap_or_else(|kept| (*kept).clone()))
}

/// The content this server plays with: the shipped files and the
/// operator's, the hash that names them, and the catalogs with a content
/// pack on top, kept by the pack's hash (a pack's version never changes).
pub struct ServerContent {
    operator: ContentFiles,
    pub catalog: Arc<Catalog>,
    /// A SHA-256 over every shipped file of every game system and the
    /// operator's: a game's log records it with its pack's.
    pub hash: String,
    with_packs: Mutex<HashMap<String, Arc<Catalog>>>,
}

/// What a game was made from: the hash of the server's content and of the
/// content pack version, if any (a game's record keeps both).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContentStamp {
    pub content_hash: String,
    pub pack_hash: Option<String>,
}

/// How many catalogs with a pack one instance keeps (an event's pinned
/// pack is asked for on every page of it).
const PACK_CATALOGS_KEPT: usize = 32;

impl ServerContent {
    /// The shipped content and the operator's directory, if any; refused
    /// whole, with every problem.
    pub fn load(extra: Option<&Path>) -> Result<Self, Vec<ContentError>> {
        let mut operator = ContentFiles::default();
        if let Some(dir) = extra {
            if !dir.is_dir() {
                return Err(vec![ContentError {
                    file: dir.display().to_string(),
                    line: None,
                    field: String::new(),
                    message: "the content directory does not exist".into(),
                }]);
            }
            operator.add_dir(dir);
        }
        if !operator.unreadable.is_empty() {
            return Err(operator.unreadable);
        }
        let catalog = operator.clone().load(
            shipped_edition_files(),
            shipped_cards(),
            shipped_crew_cards(),
        )?;
        let hash = operator.hash();
        Ok(Self {
            operator,
            catalog: Arc::new(catalog),
            hash,
            with_packs: Mutex::default(),
        })
    }

    /// The shipped content alone (which the tests keep loading cleanly).
    pub fn shipped() -> Self {
        Self::load(None).unwrap_or_else(|_| Self {
            operator: ContentFiles::default(),
            catalog: Arc::default(),
            hash: String::new(),
            with_packs: Mutex::default(),
        })
    }

    /// The stamp of a game made from the server's own cards.
    pub fn stamp(&self) -> ContentStamp {
        ContentStamp {
            content_hash: self.hash.clone(),
            pack_hash: None,
        }
    }

    /// The stamp of a game made with pack version `pack_hash` on top.
    pub fn stamp_with(&self, pack_hash: &str) -> ContentStamp {
        ContentStamp {
            content_hash: self.hash.clone(),
            pack_hash: Some(pack_hash.to_owned()),
        }
    }

    /// This server's catalog with `pack` on top: its cards beside the
    /// others, refused whole with every problem (a card of the pack named
    /// like one already here is one).
    pub fn with_pack(&self, pack: &pack::PackFiles) -> Result<Catalog, Vec<ContentError>> {
        let mut files = self.operator.clone();
        files.cards.extend(pack.cards.iter().cloned());
        files.crew_cards.extend(pack.crew_cards.iter().cloned());
        files.load(
            shipped_edition_files(),
            shipped_cards(),
            shipped_crew_cards(),
        )
    }

    /// The catalog with the pack of version `hash` on top, built once per
    /// instance; `files` is asked for only when it is not kept.
    pub fn catalog_with(
        &self,
        hash: &str,
        files: impl FnOnce() -> Option<pack::PackFiles>,
    ) -> Result<Arc<Catalog>, String> {
        let kept = |catalogs: &HashMap<String, Arc<Catalog>>| catalogs.get(hash).cloned();
        if let Some(catalog) = self.with_packs.lock().ok().as_ref().and_then(|c| kept(c)) {
            return Ok(catalog);
        }
        let pack = files().ok_or_else(|| format!("the content pack {hash} cannot be read"))?;
        let catalog = Arc::new(self.with_pack(&pack).map_err(|errors| {
            // It was checked when it was uploaded: only a change to the
            // shipped or the operator's cards since can make it wrong.
            let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
            format!(
                "the content pack {hash} no longer loads: {}",
                lines.join("; ")
            )
        })?);
        if let Ok(mut catalogs) = self.with_packs.lock() {
            if catalogs.len() >= PACK_CATALOGS_KEPT {
                catalogs.clear();
            }
            catalogs.insert(hash.to_owned(), Arc::clone(&catalog));
        }
        Ok(catalog)
    }
}

/// Content files read from directories, and the ones that could not be read.
#[derive(Default, Clone)]
struct ContentFiles {
    /// Each edition's own files (`tokens.toml`, `markers.toml`).
    edition_files: Vec<(String, String)>,
    cards: Vec<(String, String)>,
    crew_cards: Vec<(String, String)>,
    unreadable: Vec<ContentError>,
}

/// What a content file is, by where it lies.
#[derive(Clone, Copy)]
enum FileKind {
    /// Directly in `<edition>/`: tokens and markers.
    Edition,
    /// Under `<edition>/models/`.
    Card,
    /// Under `<edition>/crew-cards/`.
    CrewCard,
}

impl ContentFiles {
    /// Reads the edition files and every card of every edition under `dir`.
    fn add_dir(&mut self, dir: &Path) {
        for edition in EDITIONS {
            let own = dir.join(edition);
            let mut edition_files: Vec<PathBuf> = std::fs::read_dir(&own)
                .into_iter()
                .flatten()
                .flatten()
                .map(|entry| entry.path())
                .filter(|path| path.is_file() && path.extension().is_some_and(|e| e == "toml"))
                .collect();
            edition_files.sort();
            for path in edition_files {
                self.read(&path, FileKind::Edition);
            }
            for path in files_below(&dir.join(edition).join("models"), "toml") {
                self.read(&path, FileKind::Card);
            }
            for path in files_below(&dir.join(edition).join("crew-cards"), "toml") {
                self.read(&path, FileKind::CrewCard);
            }
        }
    }

    fn read(&mut self, path: &Path, kind: FileKind) {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                let read = (path.display().to_string(), text);
                match kind {
                    FileKind::Edition => self.edition_files.push(read),
                    FileKind::Card => self.cards.push(read),
                    FileKind::CrewCard => self.crew_cards.push(read),
                }
            }
            Err(e) => self.unreadable.push(ContentError {
                file: path.display().to_string(),
                line: None,
                field: String::new(),
                message: format!("cannot be read: {e}"),
            }),
        }
    }

    /// The hash of every shipped file of every game system, then these.
    fn hash(&self) -> String {
        let mut hasher = Sha256::new();
        let rooms: [&[(&str, &str)]; 9] = [
            shipped_edition_files(),
            shipped_cards(),
            shipped_crew_cards(),
            shipped_crews(),
            shipped::SHIPPED_MK_WARRIORS,
            shipped::SHIPPED_MK_ARMIES,
            shipped::SHIPPED_M1E_MODELS,
            shipped::SHIPPED_M1E_CREWS,
            &[("m1e/conditions.toml", SHIPPED_M1E_CONDITIONS)],
        ];
        let mut add = |path: &str, text: &str| {
            for part in [path, text] {
                hasher.update((part.len() as u64).to_be_bytes());
                hasher.update(part.as_bytes());
            }
        };
        for room in rooms {
            for (path, text) in room {
                add(path, text);
            }
        }
        for room in [&self.edition_files, &self.cards, &self.crew_cards] {
            for (path, text) in room {
                add(path, text);
            }
        }
        hex::encode(hasher.finalize())
    }

    /// The catalog of the embedded edition files and cards, then the files
    /// read; refused whole, with every problem, if any file is wrong or
    /// unreadable.
    fn load(
        self,
        edition_files: Embedded,
        cards: Embedded,
        crew_cards: Embedded,
    ) -> Result<Catalog, Vec<ContentError>> {
        fn read(files: &[(String, String)]) -> impl Iterator<Item = (&str, &str)> {
            files
                .iter()
                .map(|(file, text)| (file.as_str(), text.as_str()))
        }
        let own_files = edition_files
            .iter()
            .copied()
            .chain(read(&self.edition_files));
        let card_files = cards.iter().copied().chain(read(&self.cards));
        let crew_card_files = crew_cards.iter().copied().chain(read(&self.crew_cards));
        match (
            Catalog::load_with_crew_cards(own_files, card_files, crew_card_files),
            self.unreadable.is_empty(),
        ) {
            (Ok(catalog), true) => Ok(catalog),
            (Ok(_), false) => Err(self.unreadable),
            (Err(mut errors), _) => {
                errors.extend(self.unreadable);
                Err(errors)
            }
        }
    }
}

/// Files embedded in the binary: (path, text).
type Embedded = &'static [(&'static str, &'static str)];

/// Directories below a content directory that hold stat cards.
const EDITIONS: [&str; 2] = ["m4e", "m3e"];

/// Every file with `extension` below `folder`, sorted, so loading is the
/// same on every machine.
fn files_below(folder: &Path, extension: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![folder.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == extension) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// Reads the edition files and every card of every edition under `dirs`
/// (later ones after earlier ones); when they hold no edition files, the
/// shipped ones are used (a club's directory of cards). Content loads
/// whole or not at all.
pub fn load_catalog(dirs: &[&Path]) -> Result<Catalog, Vec<ContentError>> {
    let mut read = ContentFiles::default();
    for dir in dirs {
        read.add_dir(dir);
    }
    let own = if read.edition_files.is_empty() {
        shipped_edition_files()
    } else {
        &[]
    };
    read.load(own, &[], &[])
}

/// The TOML files under `dir/system/folder`, read; a file that cannot be
/// read is a problem.
fn read_room(
    dir: &Path,
    system: &str,
    folder: &str,
    problems: &mut Vec<String>,
) -> Vec<(String, String)> {
    files_below(&dir.join(system).join(folder), "toml")
        .into_iter()
        .filter_map(|path| match std::fs::read_to_string(&path) {
            Ok(text) => Some((path.display().to_string(), text)),
            Err(e) => {
                problems.push(format!("{}: cannot be read: {e}", path.display()));
                None
            }
        })
        .collect()
}

/// 1st edition's models and crews under `dir/m1e/`, if any: what was
/// read, in words for `check`'s summary, and each problem into `problems`.
fn check_first_edition(dir: &Path, problems: &mut Vec<String>) -> String {
    let models = read_room(dir, "m1e", "models", problems);
    let crews = read_room(dir, "m1e", "crews", problems);
    if models.is_empty() && crews.is_empty() {
        return String::new();
    }
    let conditions = dir.join("m1e").join("conditions.toml");
    if let Ok(text) = std::fs::read_to_string(&conditions)
        && let Err(errors) = ConditionBook::load(&conditions.display().to_string(), &text)
    {
        problems.extend(errors.iter().map(ToString::to_string));
    }
    match Book::load(
        models.iter().map(|(p, t)| (p.as_str(), t.as_str())),
        crews.iter().map(|(p, t)| (p.as_str(), t.as_str())),
    ) {
        Ok(book) => format!(
            ", {} 1st edition models and {} crews",
            book.models().count(),
            book.crews().len()
        ),
        Err(errors) => {
            problems.extend(errors.iter().map(ToString::to_string));
            String::new()
        }
    }
}

/// Mage Knight's warriors and armies under `dir/mk/`, if any: what was
/// read, in words for `check`'s summary, and each problem into `problems`.
fn check_mage_knight(dir: &Path, problems: &mut Vec<String>) -> String {
    let warriors = read_room(dir, "mk", "warriors", problems);
    let armies = read_room(dir, "mk", "armies", problems);
    if warriors.is_empty() && armies.is_empty() {
        return String::new();
    }
    match Roster::load(
        warriors.iter().map(|(p, t)| (p.as_str(), t.as_str())),
        armies.iter().map(|(p, t)| (p.as_str(), t.as_str())),
    ) {
        Ok(roster) => format!(
            ", {} Mage Knight warriors and {} armies",
            roster.warriors().count(),
            roster.armies().len()
        ),
        Err(errors) => {
            problems.extend(errors.iter().map(ToString::to_string));
            String::new()
        }
    }
}

pub fn check(dir: &Path) -> Result<String, Vec<String>> {
    if !dir.is_dir() {
        return Err(vec![format!("{} is not a directory", dir.display())]);
    }
    let catalog = load_catalog(&[dir])
        .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let mut problems = Vec::new();
    let mut lists = 0;
    for edition in EDITIONS {
        for path in files_below(&dir.join(edition).join("crews"), "txt") {
            lists += 1;
            let shown = path.display();
            let text = match std::fs::read_to_string(&path) {
                Ok(text) => text,
                Err(e) => {
                    problems.push(format!("{shown}: cannot be read: {e}"));
                    continue;
                }
            };
            match CrewList::parse(&text) {
                Err(e) => problems.push(format!("{shown}: {e}")),
                Ok(list) => {
                    if let Err(errors) = list.hire(&catalog) {
                        problems.extend(errors.iter().map(|e| format!("{shown}: {e}")));
                    }
                }
            }
        }
    }
    let mage_knight = check_mage_knight(dir, &mut problems);
    let first_edition = check_first_edition(dir, &mut problems);
    if problems.is_empty() {
        Ok(format!(
            "{}: {} cards, {} crew cards and {lists} crew lists{first_edition}{mage_knight}, no problems",
            dir.display(),
            catalog.len(),
            catalog.crew_cards().count()
        ))
    } else {
        Err(problems)
    }
}
