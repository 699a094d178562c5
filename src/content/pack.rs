//! A content pack as uploaded through the web: stat cards and crew cards in
//! the same TOML as `content/`, sent as a zip or as loose files. Reading
//! one only sorts its files; whether the cards are right is the engine's
//! content reader's to say, with the file, line and field of each problem
//! (`ServerContent::with_pack`).

use std::io::Read;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use soulstone_engine::content::ContentError;

/// The most files a pack may hold.
pub const MAX_PACK_FILES: usize = 500;
/// The most bytes a pack's files may hold, unpacked: a zip that would
/// unpack to more is refused before it is unpacked further.
pub const MAX_PACK_BYTES: usize = 4 * 1024 * 1024;

/// A pack's files, sorted into stat cards and crew cards, each as
/// (the name it was uploaded under, its text).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackFiles {
    pub cards: Vec<(String, String)>,
    pub crew_cards: Vec<(String, String)>,
}

/// One file as it came in: a loose file or a zip.
pub struct Upload {
    pub name: String,
    pub bytes: Vec<u8>,
}

impl PackFiles {
    /// The files of `uploads` (zips unpacked), sorted by what each holds;
    /// refused whole with every problem found.
    pub fn read(uploads: Vec<Upload>) -> Result<Self, Vec<ContentError>> {
        let mut read = Reading::default();
        for upload in uploads {
            if upload.name.to_ascii_lowercase().ends_with(".zip") {
                read.unzip(&upload);
            } else {
                read.file(upload.name, upload.bytes);
            }
        }
        if read.files == 0 && read.problems.is_empty() {
            read.problems
                .push(whole("", "the pack holds no .toml files"));
        }
        if read.problems.is_empty() {
            read.pack.cards.sort();
            read.pack.crew_cards.sort();
            Ok(read.pack)
        } else {
            Err(read.problems)
        }
    }

    /// The pack's version: a SHA-256 over every file's name and text, in
    /// order, each length-prefixed so no two packs share one.
    pub fn hash(&self) -> String {
        let mut hasher = Sha256::new();
        for (kind, files) in [("cards", &self.cards), ("crew-cards", &self.crew_cards)] {
            hasher.update(kind.as_bytes());
            hasher.update((files.len() as u64).to_be_bytes());
            for (name, text) in files {
                for part in [name, text] {
                    hasher.update((part.len() as u64).to_be_bytes());
                    hasher.update(part.as_bytes());
                }
            }
        }
        hex::encode(hasher.finalize())
    }

    /// The stat cards and crew cards, as (name, text) pairs the engine reads.
    pub fn card_files(&self) -> impl Iterator<Item = (&str, &str)> {
        self.cards.iter().map(|(n, t)| (n.as_str(), t.as_str()))
    }

    pub fn crew_card_files(&self) -> impl Iterator<Item = (&str, &str)> {
        self.crew_cards
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
    }
}

#[derive(Default)]
struct Reading {
    pack: PackFiles,
    problems: Vec<ContentError>,
    files: usize,
    bytes: usize,
}

impl Reading {
    /// Counts `size` more bytes, or says the pack is too big.
    fn admit(&mut self, name: &str, size: usize) -> bool {
        self.files += 1;
        self.bytes = self.bytes.saturating_add(size);
        if self.files > MAX_PACK_FILES {
            if self.files == MAX_PACK_FILES + 1 {
                self.problems.push(whole(
                    name,
                    &format!("a pack holds at most {MAX_PACK_FILES} files"),
                ));
            }
            return false;
        }
        if self.bytes > MAX_PACK_BYTES {
            self.problems.push(whole(
                name,
                &format!(
                    "a pack holds at most {} MiB of cards",
                    MAX_PACK_BYTES / 1024 / 1024
                ),
            ));
            return false;
        }
        true
    }

    /// A loose `.toml` file; anything else is a problem.
    fn file(&mut self, name: String, bytes: Vec<u8>) {
        if !name.to_ascii_lowercase().ends_with(".toml") {
            self.problems
                .push(whole(&name, "is neither a .toml file nor a .zip of them"));
            return;
        }
        if !self.admit(&name, bytes.len()) {
            return;
        }
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                self.problems.push(whole(&name, "is not UTF-8 text"));
                return;
            }
        };
        match kind_of(&text) {
            // A file that is not TOML goes to the card reader, which says
            // where it breaks.
            Some(FileKind::Card) | None => self.pack.cards.push((name, text)),
            Some(FileKind::CrewCard) => self.pack.crew_cards.push((name, text)),
            Some(FileKind::Neither) => self.problems.push(whole(
                &name,
                "is neither a stat card (it has no `station`) nor a crew card (it has no `master`)",
            )),
        }
    }

    /// Every `.toml` file in a zip, by its path inside; folders and other
    /// files (a README, say) are passed over.
    fn unzip(&mut self, upload: &Upload) {
        let mut archive = match zip::ZipArchive::new(std::io::Cursor::new(&upload.bytes)) {
            Ok(archive) => archive,
            Err(e) => {
                self.problems.push(whole(
                    &upload.name,
                    &format!("is not a zip that can be read: {e}"),
                ));
                return;
            }
        };
        for index in 0..archive.len() {
            let mut entry = match archive.by_index(index) {
                Ok(entry) => entry,
                Err(e) => {
                    self.problems.push(whole(
                        &upload.name,
                        &format!("entry {index} cannot be read: {e}"),
                    ));
                    continue;
                }
            };
            let inner = match entry.name() {
                Ok(name) => name.into_owned(),
                Err(e) => {
                    self.problems.push(whole(
                        &upload.name,
                        &format!("entry {index} has a name that cannot be read: {e}"),
                    ));
                    continue;
                }
            };
            if entry.is_dir() || !inner.to_ascii_lowercase().ends_with(".toml") {
                continue;
            }
            let name = format!("{}/{inner}", upload.name);
            // What the entry says it holds may be a lie: read one byte past
            // what is left, so a bigger entry is caught without unpacking it.
            let room = MAX_PACK_BYTES.saturating_sub(self.bytes);
            let mut bytes = Vec::new();
            let limit = u64::try_from(room).unwrap_or(u64::MAX).saturating_add(1);
            if let Err(e) = (&mut entry).take(limit).read_to_end(&mut bytes) {
                self.problems
                    .push(whole(&name, &format!("cannot be unpacked: {e}")));
                continue;
            }
            self.file(name, bytes);
            if self.bytes > MAX_PACK_BYTES || self.files > MAX_PACK_FILES {
                return;
            }
        }
    }
}

enum FileKind {
    Card,
    CrewCard,
    Neither,
}

/// What a file holds, by its keys; none when it is not TOML.
fn kind_of(text: &str) -> Option<FileKind> {
    let table = text.parse::<toml::Table>().ok()?;
    Some(if table.contains_key("master") {
        FileKind::CrewCard
    } else if table.contains_key("station") {
        FileKind::Card
    } else {
        FileKind::Neither
    })
}

fn whole(file: &str, message: &str) -> ContentError {
    ContentError {
        file: file.to_owned(),
        line: None,
        field: String::new(),
        message: message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    const CARD: &str = "edition = \"m4e\"\nname = \"X\"\nstation = \"minion\"\n";
    const CREW_CARD: &str = "edition = \"m4e\"\nname = \"Y\"\nmaster = \"Z\"\n";

    fn zip_of(files: &[(&str, &str)]) -> Vec<u8> {
        let mut out = std::io::Cursor::new(Vec::new());
        let mut writer = zip::ZipWriter::new(&mut out);
        for (name, text) in files {
            writer
                .start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            writer.write_all(text.as_bytes()).unwrap();
        }
        writer.finish().unwrap();
        out.into_inner()
    }

    fn loose(name: &str, text: &str) -> Upload {
        Upload {
            name: name.into(),
            bytes: text.as_bytes().to_vec(),
        }
    }

    #[test]
    fn loose_files_and_zips_are_sorted_by_what_they_hold() {
        let zip = zip_of(&[
            ("m4e/crew-cards/y.toml", CREW_CARD),
            ("README.md", "not a card"),
            ("m4e/models/x2.toml", CARD),
        ]);
        let pack = PackFiles::read(vec![
            loose("x.toml", CARD),
            Upload {
                name: "club.zip".into(),
                bytes: zip,
            },
        ])
        .unwrap();
        assert_eq!(
            pack.cards
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>(),
            ["club.zip/m4e/models/x2.toml", "x.toml"]
        );
        assert_eq!(pack.crew_cards[0].0, "club.zip/m4e/crew-cards/y.toml");
    }

    #[test]
    fn the_hash_names_the_files_and_their_order_does_not_matter() {
        let one = PackFiles::read(vec![loose("a.toml", CARD), loose("b.toml", CREW_CARD)]).unwrap();
        let other =
            PackFiles::read(vec![loose("b.toml", CREW_CARD), loose("a.toml", CARD)]).unwrap();
        assert_eq!(one.hash(), other.hash());
        let renamed =
            PackFiles::read(vec![loose("c.toml", CARD), loose("b.toml", CREW_CARD)]).unwrap();
        assert_ne!(one.hash(), renamed.hash());
        assert_eq!(one.hash().len(), 64);
    }

    #[test]
    fn what_is_not_a_card_is_refused_with_its_name() {
        let errors = PackFiles::read(vec![
            loose("notes.txt", "hello"),
            loose("tokens.toml", "[[tokens]]\nname = \"a\"\n"),
        ])
        .unwrap_err();
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].file, "notes.txt");
        assert!(
            errors[1].message.contains("neither a stat card"),
            "{errors:?}"
        );
        assert!(PackFiles::read(Vec::new()).is_err());
        let broken = PackFiles::read(vec![Upload {
            name: "x.zip".into(),
            bytes: b"PK not really".to_vec(),
        }])
        .unwrap_err();
        assert!(broken[0].message.contains("not a zip"), "{broken:?}");
    }

    #[test]
    fn a_zip_that_unpacks_past_the_limit_is_refused() {
        let big = "#".repeat(MAX_PACK_BYTES + 10);
        let errors = PackFiles::read(vec![Upload {
            name: "big.zip".into(),
            bytes: zip_of(&[("a.toml", &big)]),
        }])
        .unwrap_err();
        assert!(errors[0].message.contains("at most 4 MiB"), "{errors:?}");
    }
}
