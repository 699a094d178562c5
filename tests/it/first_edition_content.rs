//! 1st edition content (issue 55, its first step): the shipped models and
//! ready crews load and hire legally; a bad card is named by file, line and
//! field; and each hiring rule of the quick reference refuses what it
//! should, in words a player reads.

use soulstone::content::shipped_first_edition;
use soulstone_engine::first_edition::{Book, CrewList, Encounter};

fn book() -> Book {
    shipped_first_edition().unwrap_or_else(|errors| {
        panic!(
            "{}",
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        )
    })
}

fn list(
    faction: &str,
    encounter: Encounter,
    soulstones: u8,
    masters: &[&str],
    hires: &[&str],
) -> CrewList {
    CrewList {
        name: "Test crew".into(),
        faction: faction.into(),
        encounter,
        soulstones,
        masters: masters.iter().map(|m| (*m).to_owned()).collect(),
        hires: hires.iter().map(|h| (*h).to_owned()).collect(),
    }
}

/// The one problem `list` is refused for, which must contain `because`.
fn refused(list: &CrewList, because: &str) {
    match book().hire(list) {
        Ok(crew) => panic!("hired, though {because}: {crew:?}"),
        Err(problems) => assert!(
            problems.iter().any(|p| p.contains(because)),
            "refused, but not because {because}: {problems:?}"
        ),
    }
}

#[test]
fn the_shipped_crews_hire_legally_with_their_pools() {
    let book = book();
    assert!(book.models().count() >= 20, "{}", book.models().count());
    let crews = book.crews();
    assert_eq!(crews.len(), 4);
    let mut factions: Vec<&str> = crews.iter().map(|c| c.faction.as_str()).collect();
    factions.sort_unstable();
    assert_eq!(
        factions,
        ["Arcanists", "Guild", "Neverborn", "Resurrectionists"]
    );
    for list in crews {
        let crew = book.hire(list).unwrap();
        assert!(crew.spent <= list.soulstones, "{}", list.name);
        // What is left and the master's cache, up to a Scrap's 8.
        let cache = crew.models[0].cache.unwrap();
        let expected = (list.soulstones - crew.spent + cache).min(8);
        assert_eq!(crew.pool, expected, "{}", list.name);
        assert_eq!(
            crew.models[0].station,
            soulstone_engine::first_edition::card::Station::Master
        );
        assert!(
            crew.models.iter().any(|m| m.totem_of.is_some()),
            "{} hires its totem",
            list.name
        );
    }
}

#[test]
fn hiring_refuses_what_the_quick_reference_forbids() {
    let grice = "Warden Ottoline Grice";
    // A legal start, to change one thing at a time.
    let ok = list(
        "Guild",
        Encounter::Scrap,
        35,
        &[grice],
        &["Lamplight Deputy x3"],
    );
    let crew = book().hire(&ok).unwrap();
    assert_eq!(crew.spent, 15);

    refused(
        &list(
            "Guild",
            Encounter::Scrap,
            35,
            &[grice],
            &["Lamplight Deputy x4"],
        ),
        "Lamplight Deputy is rare 3 (in a Scrap): 3 at most, not 4",
    );
    // A Brawl doubles the rare number.
    let brawl = list(
        "Guild",
        Encounter::Brawl,
        50,
        &[grice],
        &["Lamplight Deputy x4"],
    );
    let crew = book().hire(&brawl).unwrap();
    assert_eq!(crew.models.len(), 5);
    // ...and one master fewer is traded for 10 soulstones: 40 left and a
    // cache of 3, of which a Brawl's pool holds 10.
    assert_eq!(crew.spent, 20);
    assert_eq!(crew.pool, 10);
    let traded = list(
        "Guild",
        Encounter::Brawl,
        30,
        &[grice],
        &["Ironclad Bailiff x4", "Lamplight Deputy x2"],
    );
    assert_eq!(book().hire(&traded).unwrap().spent, 38, "30 and 10 traded");
    refused(
        &list(
            "Guild",
            Encounter::Scrap,
            35,
            &[grice],
            &["Sergeant Mabry Cole x2"],
        ),
        "Sergeant Mabry Cole is unique: 1 at most, not 2",
    );
    refused(
        &list("Guild", Encounter::Scrap, 35, &[grice], &["Hollow Child"]),
        "Hollow Child is of the Neverborn: hire from your faction or mercenaries",
    );
    refused(
        &list("Guild", Encounter::Scrap, 35, &[grice], &["Carrion Crow"]),
        "Carrion Crow is of the Resurrectionists",
    );
    refused(
        &list(
            "Arcanists",
            Encounter::Scrap,
            35,
            &["Professor Hesper Quill"],
            &["Brass Hound"],
        ),
        "Brass Hound is of the Guild",
    );
    refused(
        &list(
            "Guild",
            Encounter::Scrap,
            18,
            &[grice],
            &["Ironclad Bailiff x2", "Lamplight Deputy"],
        ),
        "the hires cost 19 soulstones, and the crew has 18",
    );
}

#[test]
fn totems_masters_mercenaries_and_sizes_follow_the_rules() {
    let grice = "Warden Ottoline Grice";
    let sallow = "Mother Sallow";
    refused(
        &list("Guild", Encounter::Scrap, 46, &[grice], &[]),
        "a Scrap is played with 1 to 45 soulstones",
    );
    refused(
        &list("Guild", Encounter::Scrap, 30, &[grice, grice], &[]),
        "a Scrap crew is led by 1 master(s)",
    );
    refused(
        &list("Guild", Encounter::Scrap, 30, &[], &["Brass Hound"]),
        "Brass Hound is Warden Ottoline Grice's totem, and Warden Ottoline Grice does not lead this crew",
    );
    refused(
        &list("Guild", Encounter::Scrap, 30, &[sallow], &[]),
        "Mother Sallow is of the Resurrectionists, not the Guild or a mercenary",
    );
    // A mercenary costs one more outside its faction; two at most.
    let two = list(
        "Guild",
        Encounter::Scrap,
        30,
        &[grice],
        &["Drifter Gunhand x2"],
    );
    assert_eq!(book().hire(&two).unwrap().spent, 12);
    let brawl_three = list(
        "Guild",
        Encounter::Brawl,
        40,
        &[grice],
        &["Drifter Gunhand x3"],
    );
    refused(
        &brawl_three,
        "a crew hires 2 mercenaries at most, and this one hires 3",
    );
    // An Outcasts crew hires its own at their cost, and nothing else.
    let outcasts = list(
        "Outcasts",
        Encounter::Brawl,
        40,
        &[],
        &["Drifter Gunhand", "Scrapheap Tinker"],
    );
    refused(&outcasts, "a Brawl crew is led by 2 master(s)");
    let outcasts = list(
        "Outcasts",
        Encounter::Scrap,
        40,
        &[grice],
        &["Lamplight Deputy"],
    );
    refused(
        &outcasts,
        "an Outcasts crew hires only Outcasts, and Lamplight Deputy is of the Guild",
    );
    refused(
        &list(
            "Guild",
            Encounter::Scrap,
            30,
            &[grice],
            &["Lamplight Deputy x0"],
        ),
        "Lamplight Deputy x0: a count is 1 to 20",
    );
}

#[test]
fn a_bad_model_or_crew_names_its_file_line_and_field() {
    let models = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content/m1e/models/guild.toml"),
    )
    .unwrap();
    // The Brass Hound (the second model) walking faster than it charges.
    let bad = models.replacen("cg = 8", "cg = 3", 1);
    let line = bad.lines().position(|l| l == "cg = 3").map(|n| n + 1);
    let errors = Book::load([("m1e/models/guild.toml", bad.as_str())], []).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].field, "models[1].cg");
    assert_eq!(errors[0].line, line);
    assert!(
        errors[0].to_string().contains("Cg at least Wk"),
        "{}",
        errors[0]
    );

    // A misspelt field is refused with its line, and nothing is loaded.
    let misspelt = models.replacen("wk = 5", "walk = 5", 1);
    let errors = Book::load([("guild.toml", misspelt.as_str())], []).unwrap_err();
    assert!(errors[0].to_string().contains("walk"), "{}", errors[0]);
    assert!(errors[0].line.is_some());

    // A ready crew hiring too much is refused with the field and line.
    let crew = "name = \"Too Many\"\nfaction = \"Guild\"\nencounter = \"scrap\"\nsoulstones = 10\nmasters = [\"Warden Ottoline Grice\"]\nhires = [\"Ironclad Bailiff x2\"]\n";
    let errors = Book::load(
        [("m1e/models/guild.toml", models.as_str())],
        [("m1e/crews/too-many.toml", crew)],
    )
    .unwrap_err();
    assert_eq!(errors[0].field, "hires");
    assert_eq!(errors[0].line, Some(6));
    assert!(
        errors[0]
            .to_string()
            .contains("the hires cost 14 soulstones, and the crew has 10")
    );
}
