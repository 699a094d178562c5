//! Hosted games and the game system that plays them, on both backends.

use soulstone::hosted::{self, HostedError, HostedStatus};
use soulstone_engine::system::Malifaux;

use super::hosted::{a_legal_command, now, practice};
use crate::support::Backend;

both_backends!(a_game_another_system_plays_is_not_read_as_this_ones);

/// A game's row names the system that plays it: the host reads it back
/// only through that system, and refuses, changing nothing, a game whose
/// system this build does not know (as a newer build's game would be).
async fn a_game_another_system_plays_is_not_read_as_this_ones(backend: Backend) {
    use diesel::RunQueryDsl;
    let (_test_db, db, account, id) = practice(&backend, 5);
    let mut conn = db.conn().unwrap();
    let before = hosted::load::<Malifaux>(&mut conn, id).unwrap();
    diesel::sql_query(format!(
        "UPDATE hosted_games SET table_game = 'mage_knight' WHERE id = {id}"
    ))
    .execute(&mut conn)
    .unwrap();
    let other = |error: HostedError| matches!(error, HostedError::OtherSystem { stored, .. } if stored == "mage_knight");
    assert!(other(hosted::load::<Malifaux>(&mut conn, id).unwrap_err()));
    assert!(other(
        hosted::resign(&mut conn, id, account, now()).unwrap_err()
    ));
    let command = a_legal_command(&before.state, 1);
    let refused = hosted::submit::<Malifaux>(
        &mut conn,
        id,
        account,
        before.state.version,
        "k-other",
        command,
        now(),
    );
    assert!(other(refused.unwrap_err()));
    diesel::sql_query(format!(
        "UPDATE hosted_games SET table_game = 'malifaux' WHERE id = {id}"
    ))
    .execute(&mut conn)
    .unwrap();
    let after = hosted::load::<Malifaux>(&mut conn, id).unwrap();
    assert_eq!(after.status, HostedStatus::Playing, "nothing was resigned");
    assert_eq!(
        after.state.version, before.state.version,
        "nothing was played"
    );
}
