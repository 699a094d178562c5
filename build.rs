//! Embeds the shipped game content (tokens, markers, stat cards,
//! crew cards and crew lists under `content/<edition>/`, Mage Knight's
//! warriors and armies under `content/mk/`) in the binary: writes one `include_str!` per file,
//! sorted, to `$OUT_DIR/shipped_content.rs`, and asks cargo to run again
//! whenever anything under `content/` changes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn files_below(folder: &Path, extension: &str, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_below(&path, extension, found);
        } else if path.extension().is_some_and(|e| e == extension) {
            found.push(path);
        }
    }
}

fn list(name: &str, root: &Path, folder: &str, extension: &str) -> String {
    let mut files = Vec::new();
    for edition in EDITIONS {
        files_below(
            &root.join("content").join(edition).join(folder),
            extension,
            &mut files,
        );
    }
    embed(name, root, files)
}

/// Each edition's own files (tokens and markers): the TOML files directly
/// in `content/<edition>/`.
fn edition_files(root: &Path) -> String {
    let mut files = Vec::new();
    for edition in EDITIONS {
        let Ok(entries) = std::fs::read_dir(root.join("content").join(edition)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_file() && path.extension().is_some_and(|e| e == "toml") {
                files.push(path);
            }
        }
    }
    embed("SHIPPED_EDITION_FILES", root, files)
}

const EDITIONS: [&str; 2] = ["m4e", "m3e"];

/// Mage Knight's warriors and ready armies: `content/mk/<folder>/*.toml`.
/// The TOML files of a game system with a content format of its own
/// (Mage Knight, 1st edition).
fn own_room(root: &Path, name: &str, system: &str, folder: &str) -> String {
    let mut files = Vec::new();
    files_below(
        &root.join("content").join(system).join(folder),
        "toml",
        &mut files,
    );
    embed(name, root, files)
}

fn embed(name: &str, root: &Path, mut files: Vec<PathBuf>) -> String {
    files.sort();
    let mut out = format!("pub const {name}: &[(&str, &str)] = &[\n");
    for path in files {
        let relative = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let absolute = path.display().to_string();
        let _ = writeln!(out, "    ({relative:?}, include_str!({absolute:?})),");
    }
    out.push_str("];\n");
    out
}

fn main() {
    println!("cargo:rerun-if-changed=content");
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let code = edition_files(&root)
        + &list("SHIPPED_CARDS", &root, "models", "toml")
        + &list("SHIPPED_CREW_CARDS", &root, "crew-cards", "toml")
        + &list("SHIPPED_CREWS", &root, "crews", "txt")
        + &own_room(&root, "SHIPPED_MK_WARRIORS", "mk", "warriors")
        + &own_room(&root, "SHIPPED_MK_ARMIES", "mk", "armies")
        + &own_room(&root, "SHIPPED_M1E_MODELS", "m1e", "models")
        + &own_room(&root, "SHIPPED_M1E_CREWS", "m1e", "crews");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    if let Err(e) = std::fs::write(out.join("shipped_content.rs"), code) {
        panic!("cannot write the shipped content list: {e}");
    }
}
