// A benchmark may stop at the first broken assumption.
#![allow(clippy::expect_used, clippy::unwrap_used)]

//! Game content: loading every shipped stat card and the tokens (parse,
//! check, index), validating a content pack of 200 cards the same way, and
//! checking a crew list against the hiring rules. Targets: under 50 ms,
//! under 50 ms and under 1 ms. Uploading a pack of 200 cards as a zip
//! (unzipped, sorted, checked beside the server's cards and hashed) has the
//! pack's target, 50 ms. Figures are in docs/benchmarks.md.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use soulstone_engine::content::Catalog;
use soulstone_engine::content::crew::CrewList;

fn content(c: &mut Criterion) {
    let tokens = soulstone::content::shipped_edition_files();
    let cards = soulstone::content::shipped_cards();
    let crew_cards = soulstone::content::shipped_crew_cards();
    let load = || {
        Catalog::load_with_crew_cards(
            tokens.iter().copied(),
            cards.iter().copied(),
            crew_cards.iter().copied(),
        )
        .expect("shipped content loads")
    };
    let catalog = load();
    assert!(catalog.len() >= 30);
    let (_, text) = soulstone::content::shipped_crews()[0];
    let list = CrewList::parse(text).unwrap();
    assert!(list.hire(&catalog).is_ok());

    let pack = pack_of(200, cards);
    let load_pack = || {
        Catalog::load_with_crew_cards(
            tokens.iter().copied(),
            pack.iter()
                .map(|(path, text)| (path.as_str(), text.as_str())),
            crew_cards.iter().copied(),
        )
        .expect("the pack loads")
    };
    assert_eq!(load_pack().len(), 200);

    // The upload path: 200 cards of the pack's own, zipped, sorted, checked
    // with the server's cards and hashed (what `packs::upload` does before
    // it writes).
    let server = soulstone::content::ServerContent::shipped();
    let own: Vec<(String, String)> = pack_of(cards.len() + 200, cards)
        .into_iter()
        .skip(cards.len())
        .collect();
    let zipped = zip_of(&own);
    let upload = || {
        let files =
            soulstone::content::pack::PackFiles::read(vec![soulstone::content::pack::Upload {
                name: "pack.zip".into(),
                bytes: zipped.clone(),
            }])
            .expect("the zip is read");
        let catalog = server.with_pack(&files).expect("the pack loads");
        (catalog.len(), files.hash())
    };
    assert_eq!(upload().0, catalog.len() + 200);

    let mut group = c.benchmark_group("content");
    group.bench_function("upload_a_200_card_pack_as_a_zip", |b| {
        b.iter(|| black_box(upload()))
    });
    group.bench_function("load_all_shipped_cards", |b| b.iter(|| black_box(load())));
    group.bench_function("validate_a_200_card_pack", |b| {
        b.iter(|| black_box(load_pack()))
    });
    group.bench_function("parse_and_hire_a_crew_list", |b| {
        b.iter(|| {
            let list = CrewList::parse(black_box(text)).unwrap();
            black_box(list.hire(&catalog).is_ok())
        })
    });
    group.finish();
}

/// `files` in a zip, as an organiser's browser sends it.
fn zip_of(files: &[(String, String)]) -> Vec<u8> {
    use std::io::Write;
    let mut out = std::io::Cursor::new(Vec::new());
    let mut writer = zip::ZipWriter::new(&mut out);
    for (name, text) in files {
        writer
            .start_file(name.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        writer.write_all(text.as_bytes()).unwrap();
    }
    writer.finish().unwrap();
    out.into_inner()
}

/// A pack of `size` cards as an organiser might upload: the shipped cards
/// again and again, each copy under a name of its own (what summons and
/// totems name stays the shipped cards', which the pack holds too; a
/// copied master brings no crew card).
fn pack_of(size: usize, cards: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut pack: Vec<(String, String)> = cards
        .iter()
        .map(|(path, text)| ((*path).to_string(), (*text).to_string()))
        .collect();
    let mut copy = 0;
    while pack.len() < size {
        copy += 1;
        for (path, text) in cards {
            if pack.len() == size {
                break;
            }
            // The card's own name is the first line that starts `name = "`.
            let line = if text.starts_with("name = \"") {
                0
            } else {
                text.find("\nname = \"").expect("a name") + 1
            };
            let end = line + text[line..].find("\"\n").expect("the name's end");
            // A copy brings no crew card: each crew card is its one master's.
            let renamed: String = format!("{} {copy}{}", &text[..end], &text[end..])
                .lines()
                .filter(|line| !line.starts_with("crew_card = "))
                .flat_map(|line| [line, "\n"])
                .collect();
            pack.push((format!("pack/{copy}/{path}"), renamed));
        }
    }
    pack
}

criterion_group!(benches, content);
criterion_main!(benches);
