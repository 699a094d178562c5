//! The rows of the access-control matrix: each route, the method it is
//! asked with, and the status each kind of visitor gets (the runner is in
//! `super`).

/// Who is asking. The order is the order of the columns in `MATRIX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Anonymous,
    Player,
    OtherPlayer,
    Judge,
    Owner,
    Admin,
}

pub(super) const ROLES: [Role; 6] = [
    Role::Anonymous,
    Role::Player,
    Role::OtherPlayer,
    Role::Judge,
    Role::Owner,
    Role::Admin,
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Method {
    Get,
    /// A form post with the browser's CSRF token.
    Post,
    /// JSON to the API, with the role's bearer token (none for anonymous).
    ApiGet,
    ApiPost,
}

pub(super) struct Case {
    pub(super) method: Method,
    /// `{…}` placeholders are filled from the fixture (see `Fixture::fill`).
    pub(super) path: &'static str,
    /// Form fields or a JSON body.
    pub(super) body: &'static str,
    /// Expected status for anonymous, player, other player, judge, owner, admin.
    pub(super) expect: [u16; 6],
    /// Changes the fixture or ends the session, so it runs after every other row.
    pub(super) runs_last: bool,
}

const fn case(method: Method, path: &'static str, expect: [u16; 6]) -> Case {
    Case {
        method,
        path,
        body: "",
        expect,
        runs_last: false,
    }
}

const fn with_body(
    method: Method,
    path: &'static str,
    body: &'static str,
    expect: [u16; 6],
) -> Case {
    Case {
        method,
        path,
        body,
        expect,
        runs_last: false,
    }
}

use Method::{ApiGet, ApiPost, Get, Post};

const ALL_200: [u16; 6] = [200; 6];
/// Pages for signed-in people: anonymous visitors are sent to sign in.
const SIGNED_IN_200: [u16; 6] = [303, 200, 200, 200, 200, 200];
const ADMIN_ONLY_200: [u16; 6] = [303, 403, 403, 403, 403, 200];
/// Event staff pages: judges, organisers and site admins.
const STAFF_200: [u16; 6] = [303, 403, 403, 200, 200, 200];
/// Event staff actions answered by a redirect (success or a flash explaining why not).
const STAFF_303: [u16; 6] = [303, 403, 403, 303, 303, 303];

pub(super) const MATRIX: &[Case] = &[
    case(Get, "/", ALL_200),
    case(Get, "/healthz", ALL_200),
    case(Get, "/static/style.css", ALL_200),
    case(Get, "/signup", [200, 303, 303, 303, 303, 303]),
    case(Get, "/signup/check-email", ALL_200),
    case(Get, "/signin", [200, 303, 303, 303, 303, 303]),
    case(Get, "/verify-email?token=nope", [400; 6]),
    // A venue link with a code that is no event's today.
    case(Get, "/venue/1-0000000000", [400; 6]),
    case(Get, "/password/forgot", ALL_200),
    case(Get, "/password/reset?token=nope", [400; 6]),
    case(Get, "/account", SIGNED_IN_200),
    case(Get, "/account/delete", SIGNED_IN_200),
    // A staff invitation's link: sign in first, then a bad token is refused.
    case(
        Get,
        "/staff/accept?token=nope",
        [303, 400, 400, 400, 400, 400],
    ),
    with_body(
        Post,
        "/staff/accept",
        "token=nope",
        [303, 400, 400, 400, 400, 400],
    ),
    case(Get, "/admin", ADMIN_ONLY_200),
    case(Get, "/admin/mail", ADMIN_ONLY_200),
    // Empty forms: signed-in users reach validation (422), others sign in first.
    with_body(Post, "/signup", "display_name=", [422; 6]),
    // `{role}` in a body becomes the visitor's role, so throttling counts apart.
    with_body(
        Post,
        "/signin",
        "email={role}%40example.org&password=wrong",
        [401; 6],
    ),
    with_body(Post, "/password/forgot", "email=", [422; 6]),
    with_body(
        Post,
        "/password/reset",
        "token=nope&password=long+enough+password",
        [400; 6],
    ),
    with_body(
        Post,
        "/account/profile",
        "display_name=",
        [303, 422, 422, 422, 422, 422],
    ),
    with_body(
        Post,
        "/account/password",
        "current_password=&new_password=",
        [303, 422, 422, 422, 422, 422],
    ),
    case(Post, "/account/resend-verification", [303; 6]),
    case(Post, "/account/sessions/end-others", [303; 6]),
    // No such token: nothing to ask about; posting it says it had ended.
    case(
        Get,
        "/account/tokens/{missing}/revoke",
        [303, 404, 404, 404, 404, 404],
    ),
    case(Post, "/account/tokens/{missing}/revoke", [303; 6]),
    with_body(
        Post,
        "/account/delete",
        "password=wrong",
        [303, 422, 422, 422, 422, 422],
    ),
    case(
        Post,
        "/admin/mail/{missing}/retry",
        [303, 403, 403, 403, 403, 303],
    ),
    // Events. The fixture: {event} is running with round 1 published; the
    // player plays {game}; the other player is registered but not in it;
    // {draft} is a draft event; the judge judges both.
    // Hosted play. {hosted} is the player's practice game, under way.
    case(Get, "/play", SIGNED_IN_200),
    with_body(
        Post,
        "/play/practice",
        "bot=random",
        [303, 422, 422, 422, 422, 422],
    ),
    // Invitations: signed in to make or open one; nothing brought is 422,
    // and a link that does not exist is 404.
    case(Get, "/play/invite", SIGNED_IN_200),
    with_body(
        Post,
        "/play/invite",
        "minutes=30",
        [303, 422, 422, 422, 422, 422],
    ),
    case(
        Get,
        "/play/invite/no-such-link",
        [303, 404, 404, 404, 404, 404],
    ),
    with_body(
        Post,
        "/play/invite/no-such-link/accept",
        "crew=lamplighters-50",
        [303, 404, 404, 404, 404, 404],
    ),
    case(
        Post,
        "/play/invite/no-such-link/cancel",
        [303, 404, 404, 404, 404, 404],
    ),
    // Mage Knight: an unknown opponent is sent back with its reason; a
    // Malifaux game is not a Mage Knight one.
    with_body(Post, "/play/mk/practice", "bot=nobody", [303; 6]),
    case(Get, "/mk/games/{missing}", [404; 6]),
    case(Get, "/mk/games/{hosted}", [404; 6]),
    case(Get, "/mk/games/{missing}/moves", [404; 6]),
    case(Get, "/mk/games/{hosted}/moves", [404; 6]),
    with_body(
        Post,
        "/mk/games/{missing}/order",
        "version=0&key=k1&kind=end_actions",
        [303, 404, 404, 404, 404, 404],
    ),
    case(Get, "/mk/games/{missing}/log", [404; 6]),
    // 1st edition, as Mage Knight: a Malifaux game is not a 1st edition one.
    with_body(Post, "/play/m1e/practice", "bot=nobody", [303; 6]),
    case(Get, "/m1e/games/{missing}", [404; 6]),
    case(Get, "/m1e/games/{hosted}", [404; 6]),
    case(Get, "/m1e/games/{missing}/moves", [404; 6]),
    case(Get, "/m1e/games/{hosted}/moves", [404; 6]),
    with_body(
        Post,
        "/m1e/games/{missing}/order",
        "version=0&key=k1&kind=choice&order=%7B%22order%22%3A%22end_activation%22%7D",
        [303, 404, 404, 404, 404, 404],
    ),
    case(Get, "/m1e/games/{missing}/log", [404; 6]),
    case(Get, "/games/{hosted}", ALL_200),
    case(Get, "/games/{hosted}/events?after=999999", ALL_200),
    case(Get, "/games/{missing}", [404; 6]),
    // Replays, logs and verification wait for the end.
    case(Get, "/games/{hosted}/replay", [409; 6]),
    case(Get, "/games/{hosted}/log.json", [409; 6]),
    case(Get, "/games/{hosted}/verify", [409; 6]),
    // The key finished logs are sealed with is public.
    case(Get, "/games/signing-key", ALL_200),
    // Only the player sends commands (this one is unreadable: a flash).
    with_body(
        Post,
        "/games/{hosted}/command",
        "version=0&key=k&kind=command&command=x",
        [303, 303, 403, 403, 403, 403],
    ),
    // The table's preview answers only the player (a verdict in JSON).
    with_body(
        Post,
        "/games/{hosted}/preview",
        "version=0&kind=walk&x=1&y=1",
        [303, 200, 403, 403, 403, 403],
    ),
    // Each signed-in person's own setting; back to the play page.
    with_body(
        Post,
        "/play/settings",
        "takes_forced_choices=off&back=/play",
        [303; 6],
    ),
    case(Get, "/games/{hosted}/resign", SIGNED_IN_200),
    case(Get, "/games/{hosted}/claim", SIGNED_IN_200),
    // A practice game cannot be claimed (a flash says so); only players may try.
    case(
        Post,
        "/games/{hosted}/claim",
        [303, 303, 403, 403, 403, 403],
    ),
    case(
        ApiGet,
        "/api/v1/games/{hosted}",
        [401, 200, 200, 200, 200, 200],
    ),
    // A game of the player's own to resign ({hosted} stays under way).
    with_body(
        ApiPost,
        "/api/v1/games/{resigned}/resign",
        "{}",
        [401, 204, 403, 403, 403, 403],
    ),
    case(
        ApiGet,
        "/api/v1/games/{hosted}/facts",
        [401, 200, 200, 200, 200, 200],
    ),
    with_body(
        ApiPost,
        "/api/v1/games/{hosted}/commands",
        r#"{"version": 999999, "idempotency_key": "k", "command": {"type": "pass"}}"#,
        [401, 409, 403, 403, 403, 403],
    ),
    case(Get, "/events", ALL_200),
    case(Get, "/events/new", SIGNED_IN_200),
    with_body(Post, "/events/new", "name=", [303, 422, 422, 422, 422, 422]),
    case(Get, "/events/{event}", ALL_200),
    case(Get, "/events/{draft}", [404, 404, 404, 200, 200, 200]),
    // The event's settings and life are the organisers', not the judges'.
    case(Get, "/events/{event}/edit", [303, 403, 403, 403, 200, 200]),
    with_body(
        Post,
        "/events/{event}/edit",
        "name=",
        [303, 403, 403, 403, 422, 422],
    ),
    with_body(
        Post,
        "/events/{event}/status",
        "status=running",
        [303, 403, 403, 403, 409, 409],
    ),
    case(Get, "/events/{event}/confirm?action=finish", SIGNED_IN_200),
    with_body(
        Post,
        "/events/{event}/staff",
        "email=nobody%40example.org&role=judge",
        [303, 403, 403, 403, 303, 303],
    ),
    case(
        Post,
        "/events/{event}/staff/{missing}/remove",
        [303, 403, 403, 403, 404, 404],
    ),
    with_body(Post, "/events/{event}/lists", "published=true", STAFF_303),
    case(Get, "/events/{event}/snapshot.json", STAFF_200),
    case(Post, "/events/{event}/register", [303; 6]),
    case(Get, "/events/{event}/players", STAFF_200),
    case(Get, "/events/{event}/scenarios", STAFF_200),
    case(
        Post,
        "/events/{event}/games/{missing}/digital",
        [303, 404, 404, 404, 404, 404],
    ),
    // A running event's rounds to come are flipped (or none are left).
    case(Post, "/events/{event}/scenarios/flip", STAFF_303),
    // Nothing announced: a flash names what is missing.
    case(Post, "/events/{event}/scenarios/3/announce", STAFF_303),
    case(Post, "/events/{event}/rounds/1/announce", STAFF_303),
    with_body(Post, "/events/{event}/players", "name=", STAFF_303),
    with_body(
        Post,
        "/events/{event}/players/{player_reg}/check-in",
        "value=true",
        STAFF_303,
    ),
    // Nobody ticked: a flash asks for ticks.
    case(Post, "/events/{event}/players/check-in", STAFF_303),
    // The player has a game, so the entry stays (a flash says why).
    case(
        Post,
        "/events/{event}/players/{player_reg}/remove",
        STAFF_303,
    ),
    // Registered, not waitlisted: nothing to promote (a flash says so).
    case(
        Post,
        "/events/{event}/players/{player_reg}/promote",
        STAFF_303,
    ),
    // The player may take back their own drop until the next round is
    // paired: here they have not dropped, so nothing changes.
    with_body(
        Post,
        "/events/{event}/players/{player_reg}/drop",
        "value=false",
        [303, 303, 403, 303, 303, 303],
    ),
    with_body(
        Post,
        "/events/{event}/players/{player_reg}/edit",
        "display_name=",
        STAFF_303,
    ),
    with_body(
        Post,
        "/events/{event}/players/{player_reg}/link",
        "email=",
        STAFF_303,
    ),
    with_body(
        Post,
        "/events/{event}/players/{player_reg}/declare",
        "faction=Guild",
        [303, 303, 403, 303, 303, 303],
    ),
    with_body(Post, "/events/{event}/rounds", "version=0", STAFF_303),
    with_body(
        Post,
        "/events/{event}/rounds/import",
        "version=0&pairing=%7B%7D",
        STAFF_303,
    ),
    case(Get, "/events/{event}/rounds/1", ALL_200),
    with_body(
        Post,
        "/events/{event}/rounds/1/swap",
        "version=0&first=1&second=2",
        STAFF_303,
    ),
    with_body(
        Post,
        "/events/{event}/rounds/1/publish",
        "version=0",
        STAFF_303,
    ),
    with_body(
        Post,
        "/events/{event}/rounds/1/delete",
        "version=0",
        STAFF_303,
    ),
    with_body(
        Post,
        "/events/{event}/rounds/1/search-longer",
        "version=0",
        STAFF_303,
    ),
    with_body(
        Post,
        "/events/{event}/rounds/1/setup",
        "per_table=false",
        STAFF_303,
    ),
    case(Post, "/events/{event}/rounds/1/clock", STAFF_303),
    case(Post, "/events/{event}/rounds/1/digital", STAFF_303),
    case(Get, "/events/{event}/rounds/1/projector", ALL_200),
    case(Get, "/events/{event}/rounds/1/sheets", STAFF_200),
    case(Get, "/events/{event}/games/{game}", ALL_200),
    with_body(
        Post,
        "/events/{event}/games/{game}/report",
        "version=999&a_strategy_vp=1&a_scheme_vp=1&b_strategy_vp=1&b_scheme_vp=1",
        [303, 422, 403, 422, 422, 422],
    ),
    with_body(
        Post,
        "/events/{event}/games/{game}/confirm",
        "version=999",
        [303, 303, 403, 303, 303, 303],
    ),
    with_body(
        Post,
        "/events/{event}/games/{game}/dispute",
        "version=999",
        [303, 303, 403, 403, 403, 403],
    ),
    // Played at a table (its opponent has no account): nothing to bring;
    // the player is told so, anyone else may not.
    case(Get, "/events/{event}/games/{game}/play", [404; 6]),
    with_body(
        Post,
        "/events/{event}/games/{game}/crews",
        "crew=mudlark-50",
        [303, 303, 403, 403, 403, 403],
    ),
    case(
        Get,
        "/events/{event}/games/new",
        [303, 200, 200, 403, 403, 403],
    ),
    with_body(
        Post,
        "/events/{event}/games/new",
        "opponent=",
        [303, 422, 422, 403, 403, 403],
    ),
    case(Get, "/events/{event}/standings", ALL_200),
    case(Get, "/events/{event}/standings.csv", ALL_200),
    case(Get, "/events/{event}/standings.json", ALL_200),
    case(Get, "/events/{event}/results.csv", ALL_200),
    case(Get, "/events/{event}/results.json", ALL_200),
    // No cut has been made in the fixture: the bracket is not found, and
    // a cut at a stale version is refused (staff see why in a flash).
    case(Get, "/rankings", ALL_200),
    case(Get, "/cards", ALL_200),
    case(Get, "/cards?system=m3e", ALL_200),
    case(Get, "/cards/m4e/brann-cole", ALL_200),
    case(Get, "/crews/build?system=m4e", ALL_200),
    case(Get, "/crews", SIGNED_IN_200),
    // Saving a list: the form's list is JSON; a signed-in player keeps it.
    with_body(
        Post,
        "/crews",
        "name=Matrix&replace=1&list=%7B%22edition%22%3A%22m4e%22%2C%22faction%22%3A%22Guild%22%2C%22leader%22%3A%22Odessa+Vane%2C+Lamplighter+Marshal%22%2C%22size%22%3A50%2C%22models%22%3A%5B%5D%7D",
        [303; 6],
    ),
    // Another player's list, or none, is not found.
    case(
        Get,
        "/crews/{missing}/delete",
        [303, 404, 404, 404, 404, 404],
    ),
    case(
        Post,
        "/crews/{missing}/delete",
        [303, 404, 404, 404, 404, 404],
    ),
    // A pasted list anyone may read into the builder (nothing is stored).
    with_body(
        Post,
        "/crews/build",
        "import=Edition%3A+m4e%0AFaction%3A+Guild%0ALeader%3A+Odessa+Vane%2C+Lamplighter+Marshal%0ASize%3A+50%0A",
        ALL_200,
    ),
    // An event's cards: its organiser's page; the pack's cards for anyone
    // who may see the event.
    case(Get, "/events/{event}/pack", [303, 403, 403, 403, 200, 200]),
    // The fixture's event has begun its rounds: its cards no longer change.
    with_body(
        Post,
        "/events/{event}/pack/pin",
        "pack=",
        [303, 403, 403, 403, 422, 422],
    ),
    // An upload is refused before it is read unless the sender may upload
    // (a form that is not an upload is refused as unreadable).
    case(Post, "/events/{event}/pack", [303, 403, 403, 403, 400, 400]),
    case(Get, "/admin/packs", ADMIN_ONLY_200),
    case(Post, "/admin/packs", [303, 403, 403, 403, 403, 400]),
    case(Get, "/cards?event={event}", ALL_200),
    case(Get, "/crews/build?event={event}", ALL_200),
    case(Get, "/play?event={event}", SIGNED_IN_200),
    case(Get, "/rankings.csv?system=m4e", ALL_200),
    case(Get, "/rankings.json?system=mk&region=North", ALL_200),
    case(Get, "/players/{player}", ALL_200),
    // The fixture is not a team event: it has no teams or matches to find.
    case(Get, "/events/{event}/teams", [404; 6]),
    case(Get, "/events/{event}/teams.csv", [404; 6]),
    with_body(
        Post,
        "/events/{event}/teams",
        "team_name=Crows&member_2=Ann",
        [303, 404, 404, 404, 404, 404],
    ),
    with_body(
        Post,
        "/events/{event}/teams/desk",
        "team_name=Crows&member_1=Ann",
        [303, 404, 404, 404, 404, 404],
    ),
    case(Get, "/events/{event}/matches/{missing}", [404; 6]),
    with_body(
        Post,
        "/events/{event}/matches/{missing}/choose",
        "step=0&pick=1",
        [303, 404, 404, 404, 404, 404],
    ),
    case(Get, "/events/{event}/bracket", [404; 6]),
    case(Get, "/events/{event}/placings.csv", [404; 6]),
    with_body(
        Post,
        "/events/{event}/playoffs",
        "version=0&cut=8",
        STAFF_303,
    ),
    with_body(
        Post,
        "/events/{event}/playoffs/undo",
        "version=0",
        STAFF_303,
    ),
    // Pools: {pool} belongs to the owner and is used by the running event.
    case(Get, "/pools", ALL_200),
    case(Get, "/pools/new", SIGNED_IN_200),
    with_body(Post, "/pools/new", "name=", [303, 422, 422, 422, 422, 422]),
    case(Get, "/pools/import", SIGNED_IN_200),
    with_body(
        Post,
        "/pools/import",
        "text=",
        [303, 422, 422, 422, 422, 422],
    ),
    case(Get, "/pools/{pool}", ALL_200),
    case(Get, "/pools/{pool}/export.toml", ALL_200),
    case(Get, "/pools/{pool}/export.json", ALL_200),
    case(Get, "/pools/{pool}/edit", [303, 403, 403, 403, 409, 409]),
    with_body(
        Post,
        "/pools/{pool}/edit",
        "name=",
        [303, 403, 403, 403, 409, 409],
    ),
    case(Post, "/pools/{pool}/clone", [303; 6]),
    // Only a site admin chooses what anonymous visitors flip with.
    with_body(
        Post,
        "/pools/{pool}/feature",
        "featured=false",
        [303, 403, 403, 403, 403, 303],
    ),
    case(Get, "/setup", ALL_200),
    case(ApiGet, "/api/v1/me", [401, 200, 200, 200, 200, 200]),
    case(ApiGet, "/api/v1/nothing-here", [404; 6]),
    with_body(ApiPost, "/api/v1/token", "{}", [400; 6]),
    case(ApiGet, "/api/v1/events", ALL_200),
    with_body(
        ApiPost,
        "/api/v1/events",
        "{}",
        [401, 400, 400, 400, 400, 400],
    ),
    case(ApiGet, "/api/v1/events/{event}", ALL_200),
    with_body(
        ApiPost,
        "/api/v1/events/{event}/status",
        r#"{"status":"running"}"#,
        [401, 403, 403, 403, 409, 409],
    ),
    case(
        ApiPost,
        "/api/v1/events/{event}/register",
        [401, 409, 409, 409, 409, 409],
    ),
    with_body(
        ApiPost,
        "/api/v1/events/{event}/players",
        r#"{"name":""}"#,
        [401, 403, 403, 400, 400, 400],
    ),
    with_body(
        ApiPost,
        "/api/v1/events/{event}/players/{player_reg}/check-in",
        r#"{"checked_in":true}"#,
        [401, 403, 403, 204, 204, 204],
    ),
    with_body(
        ApiPost,
        "/api/v1/events/{event}/players/{player_reg}/drop",
        r#"{"dropped":false}"#,
        [401, 204, 403, 204, 204, 204],
    ),
    with_body(
        ApiPost,
        "/api/v1/events/{event}/rounds",
        r#"{"version":0}"#,
        [401, 403, 403, 409, 409, 409],
    ),
    case(ApiGet, "/api/v1/events/{event}/rounds/1", ALL_200),
    with_body(
        ApiPost,
        "/api/v1/events/{event}/rounds/1/publish",
        r#"{"version":0}"#,
        [401, 403, 403, 409, 409, 409],
    ),
    with_body(
        ApiPost,
        "/api/v1/events/{event}/rounds/1/search-longer",
        r#"{"version":0}"#,
        [401, 403, 403, 409, 409, 409],
    ),
    with_body(
        ApiPost,
        "/api/v1/events/{event}/games/{game}/result",
        r#"{"version":999,"a_strategy_vp":1,"a_scheme_vp":1,"b_strategy_vp":1,"b_scheme_vp":1}"#,
        [401, 409, 403, 409, 409, 409],
    ),
    with_body(
        ApiPost,
        "/api/v1/events/{event}/games/{game}/confirm",
        r#"{"version":999}"#,
        [401, 409, 403, 409, 409, 409],
    ),
    with_body(
        ApiPost,
        "/api/v1/events/{event}/games/{game}/dispute",
        r#"{"version":999}"#,
        [401, 409, 403, 403, 403, 403],
    ),
    case(ApiGet, "/api/v1/events/{event}/standings", ALL_200),
    case(ApiGet, "/api/v1/events/{event}/bracket", [404; 6]),
    // No cut to undo in the fixture.
    with_body(
        ApiPost,
        "/api/v1/events/{event}/playoffs/undo",
        "{}",
        [401, 403, 403, 409, 409, 409],
    ),
    case(ApiGet, "/api/v1/events/{event}/teams", [404; 6]),
    with_body(
        ApiPost,
        "/api/v1/events/{event}/teams",
        r#"{"name":"Crows","members":["Ann"]}"#,
        [401, 404, 404, 404, 404, 404],
    ),
    with_body(
        ApiPost,
        "/api/v1/events/{event}/matches/{missing}/choices",
        r#"{"step":0,"pick":1}"#,
        [401, 404, 404, 404, 404, 404],
    ),
    case(ApiGet, "/api/v1/rankings?system=m4e", ALL_200),
    // The player's own profile (never hidden in the fixture).
    case(ApiGet, "/api/v1/players/{player}", ALL_200),
    with_body(
        ApiPost,
        "/api/v1/events/{event}/playoffs",
        r#"{"cut":8,"version":0}"#,
        [401, 403, 403, 409, 409, 409],
    ),
    case(ApiGet, "/api/v1/pools", ALL_200),
    case(ApiGet, "/api/v1/pools/{pool}", ALL_200),
    case(ApiGet, "/api/v1/setup?edition=mk&seed=1", ALL_200),
    case(
        ApiPost,
        "/api/v1/token/revoke",
        [401, 204, 204, 204, 204, 204],
    ),
    // These change the visitor or the fixture, so they run last.
    // Resigning ends the game, so it comes after every other row.
    Case {
        method: Post,
        path: "/games/{hosted}/resign",
        body: "",
        expect: [303, 303, 403, 403, 403, 403],
        runs_last: true,
    },
    Case {
        method: Post,
        path: "/events/{event}/withdraw",
        body: "",
        expect: [303; 6],
        runs_last: true,
    },
    Case {
        method: Post,
        path: "/signout",
        body: "",
        expect: [303; 6],
        runs_last: true,
    },
];
