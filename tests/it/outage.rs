//! Game clocks across an outage (issue 60, item 9): the real server killed
//! for longer than the player on move has left, then started again. The
//! time nobody served is not charged: the game is still playing, with the
//! time it had. And the once-a-second clock check reads only the games
//! whose clock is due (item 4), not every timed game.

use soulstone_engine::system::Malifaux;
use std::time::Duration;

use soulstone::db::schema::hosted_games;
use soulstone::hosted;

use crate::support::{Backend, TestDb, app::create_verified_account};

both_backends!(
    an_outage_is_not_charged_to_the_player_on_move,
    the_clock_check_reads_only_the_games_due,
);

/// The player's clock, read from the database: (status, left, running).
fn clock_of(db: &soulstone::db::Db, game: i64) -> (String, i64, bool) {
    use diesel::prelude::*;
    let mut conn = db.conn().unwrap();
    let row = hosted::load::<Malifaux>(&mut conn, game).unwrap();
    let clocks = row.clocks.expect("a timed game");
    let left = clocks.left_at(chrono::Utc::now().naive_utc())[0];
    let status: String = hosted_games::table
        .find(game)
        .select(hosted_games::status)
        .first(&mut conn)
        .unwrap();
    (status, left, clocks.runs(soulstone_engine::Seat::A))
}

async fn an_outage_is_not_charged_to_the_player_on_move(backend: Backend) {
    use diesel::prelude::*;
    let db = TestDb::create(&backend);
    let data_dir = tempfile::tempdir().unwrap();
    let url = db.url_setting();
    let opened = db.open();
    let game = timed_practice_game(&opened, "clock@example.org", 9);
    let env = [
        ("DATABASE_URL", url.as_str()),
        (
            "SOULSTONE_SECRET",
            "a fixed secret for the outage test, 32+ chars",
        ),
        ("SOULSTONE_DATA_DIR", "data"),
    ];
    let server = crate::binary::start(data_dir.path(), &env);
    // The player on move has ten seconds left, from now.
    let now = chrono::Utc::now().naive_utc();
    {
        let mut conn = opened.conn().unwrap();
        diesel::update(hosted_games::table.find(game))
            .set((
                hosted_games::clock_a_ms.eq(10_000i64),
                hosted_games::clock_since.eq(now),
                hosted_games::clock_deadline.eq(now + chrono::Duration::seconds(10)),
            ))
            .execute(&mut conn)
            .unwrap();
    }
    let (_, _, running) = clock_of(&opened, game);
    assert!(running, "the game waits for its player, whose clock runs");
    // The server notes that it serves; then it dies without a word.
    tokio::time::sleep(Duration::from_secs(3)).await;
    drop(server);
    let (status, left, _) = clock_of(&opened, game);
    assert_eq!(status, "playing");
    assert!(
        left <= 7_000,
        "three of the ten seconds were served: {left} ms left"
    );

    // Down for twelve seconds: longer than the clock had.
    tokio::time::sleep(Duration::from_secs(12)).await;
    let server = crate::binary::start(data_dir.path(), &env);
    // The clock watcher looks every second: give it a few looks.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (status, left, running) = clock_of(&opened, game);
    assert_eq!(status, "playing", "the outage was charged to the player");
    assert!(running);
    // What was left at the kill, less the time since the restart; the
    // server's last note may have come up to a beat before the kill.
    assert!(
        left > 0 && left <= 9_000,
        "{left} ms left after the restart"
    );
    // And the clock still runs out when it should, while served.
    tokio::time::sleep(Duration::from_millis(u64::try_from(left).unwrap() + 2_500)).await;
    let (status, _, _) = clock_of(&opened, game);
    assert_eq!(status, "finished", "the clock ran out while served");
    drop(server);
}

/// A practice game with a 30-minute clock, waiting for its player.
fn timed_practice_game(db: &soulstone::db::Db, email: &str, seed: u8) -> i64 {
    let mut conn = db.conn().unwrap();
    let account = create_verified_account(&mut conn, email, "Clock", false);
    crate::support::app::start_practice_game(&mut conn, account, seed, Some(30 * 60_000))
}

async fn the_clock_check_reads_only_the_games_due(backend: Backend) {
    use diesel::prelude::*;
    let db = TestDb::create(&backend);
    let opened = db.open();
    let games: Vec<i64> = (0..3)
        .map(|n| timed_practice_game(&opened, &format!("due{n}@example.org"), n))
        .collect();
    let mut conn = opened.conn().unwrap();
    let now = chrono::Utc::now().naive_utc();
    let due = |conn: &mut soulstone::db::DbConnection, at: chrono::NaiveDateTime| {
        let mut ids: Vec<i64> = soulstone::db::hosted::games_with_clocks_due(conn, at)
            .unwrap()
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        ids.sort_unstable();
        ids
    };
    // Thirty minutes on every clock: none is due for a while, all after.
    assert_eq!(due(&mut conn, now), Vec::<i64>::new());
    assert_eq!(
        due(&mut conn, now + chrono::Duration::minutes(29)),
        Vec::<i64>::new()
    );
    assert_eq!(due(&mut conn, now + chrono::Duration::minutes(31)), games);
    // A deadline not yet known (a game from before the column) is checked.
    diesel::update(hosted_games::table.find(games[1]))
        .set(hosted_games::clock_deadline.eq(None::<chrono::NaiveDateTime>))
        .execute(&mut conn)
        .unwrap();
    assert_eq!(due(&mut conn, now), vec![games[1]]);
    // Every running clock is still there for whoever needs them all.
    assert_eq!(
        soulstone::db::hosted::games_with_running_clocks(&mut conn)
            .unwrap()
            .len(),
        3
    );
}
