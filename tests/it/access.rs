//! The access-control matrix: every route × every kind of visitor → the
//! expected status. A new route gets a row in `MATRIX`; the test also fails
//! when a registered route has no row (see `every_route_is_in_the_matrix`).

use crate::support::{Backend, TestApp, TestClient};

/// Who is asking. The order is the order of the columns in `MATRIX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Anonymous,
    Player,
    OtherPlayer,
    Judge,
    Owner,
    Admin,
}

const ROLES: [Role; 6] = [
    Role::Anonymous,
    Role::Player,
    Role::OtherPlayer,
    Role::Judge,
    Role::Owner,
    Role::Admin,
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Method {
    Get,
    /// A form post with the browser's CSRF token.
    Post,
    /// JSON to the API, with the role's bearer token (none for anonymous).
    ApiGet,
    ApiPost,
}

struct Case {
    method: Method,
    /// `{…}` placeholders are filled from the fixture (see `Fixture::fill`).
    path: &'static str,
    /// Form fields or a JSON body.
    body: &'static str,
    /// Expected status for anonymous, player, other player, judge, owner, admin.
    expect: [u16; 6],
    /// Changes the fixture or ends the session, so it runs after every other row.
    runs_last: bool,
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

const MATRIX: &[Case] = &[
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

struct Fixture {
    values: Vec<(&'static str, String)>,
}

impl Fixture {
    fn fill(&self, path: &str) -> String {
        self.values
            .iter()
            .fold(path.to_owned(), |p, (key, value)| p.replace(key, value))
    }
}

/// A running event with a published round, a draft event and a pool in use.
async fn fixture(app: &TestApp, visitors: &[Visitor]) -> Fixture {
    use serde_json::json;
    let api = |role: Role| {
        let v = visitors.iter().find(|v| v.role == role).unwrap();
        crate::support::ApiClient {
            base: app.address.clone(),
            http: reqwest::Client::builder()
                .pool_idle_timeout(crate::support::POOL_IDLE)
                .build()
                .unwrap(),
            token: v.bearer.clone().unwrap(),
        }
    };
    let owner = api(Role::Owner);
    let owner_id = app
        .with_conn(|conn| {
            soulstone::db::accounts::find_by_email(conn, "owner@example.org")
                .unwrap()
                .unwrap()
                .id
        })
        .await;
    let pool = soulstone::setup::pool::Pool::parse_toml(
        "id = \"access-pool\"\nname = \"Access pool\"\nedition = \"m4e\"\nsource = \"test\"\n\
         [[strategies]]\nsuit = \"rams\"\nname = \"S1\"\n[[strategies]]\nsuit = \"masks\"\nname = \"S2\"\n\
         [[strategies]]\nsuit = \"tomes\"\nname = \"S3\"\n[[strategies]]\nsuit = \"crows\"\nname = \"S4\"\n\
         [[schemes]]\nname = \"A\"\n[[schemes]]\nname = \"B\"\n[[schemes]]\nname = \"C\"\n",
    )
    .unwrap();
    app.with_conn(move |conn| {
        let inserted = soulstone::db::pools::insert_pool(
            conn,
            &pool,
            owner_id,
            chrono::Utc::now().naive_utc(),
        )
        .unwrap();
        assert!(inserted.inserted());
    })
    .await;
    let body = json!({
        "name": "Access event", "starts_on": "2026-12-05", "ends_on": "2026-12-05", "game_system": "m4e",
        "format": "swiss", "rounds_planned": 3, "round_minutes": 120, "encounter_size": 50,
        "visibility": "public", "pool": "access-pool", "points_win": 3, "points_draw": 1, "points_loss": 0,
        "bye_scored": 5, "bye_conceded": 0, "tiebreakers": "vp_diff"
    });
    let (_, event) = owner.post("/events", body.clone()).await;
    let event = event["id"].as_i64().unwrap();
    let (_, draft) = owner.post("/events", body).await;
    let draft = draft["id"].as_i64().unwrap();
    let owner_browser = &visitors
        .iter()
        .find(|v| v.role == Role::Owner)
        .unwrap()
        .browser;
    let judge_browser = &visitors
        .iter()
        .find(|v| v.role == Role::Judge)
        .unwrap()
        .browser;
    for (nth, id) in [event, draft].into_iter().enumerate() {
        let r = owner_browser
            .post_form(
                &format!("/events/{id}/staff"),
                &[("email", "judge@example.org"), ("role", "judge")],
            )
            .await;
        assert_eq!(r.status(), 303);
        app.accept_staff_invitation(judge_browser, "judge@example.org", nth + 1)
            .await;
    }
    owner
        .post(
            &format!("/events/{event}/status"),
            json!({"status": "registration"}),
        )
        .await;
    let mut player_reg = 0;
    for role in [Role::Player, Role::OtherPlayer] {
        let (code, entry) = api(role)
            .post(&format!("/events/{event}/register"), json!({}))
            .await;
        assert_eq!(code, 201);
        if role == Role::Player {
            player_reg = entry["id"].as_i64().unwrap();
        }
    }
    owner
        .post(
            &format!("/events/{event}/status"),
            json!({"status": "running"}),
        )
        .await;
    for name in ["Walk One", "Walk Two"] {
        owner
            .post(&format!("/events/{event}/players"), json!({"name": name}))
            .await;
    }
    let (_, detail) = owner.get(&format!("/events/{event}")).await;
    for p in detail["players"].as_array().unwrap() {
        owner
            .post(
                &format!("/events/{event}/players/{}/check-in", p["id"]),
                json!({"checked_in": true}),
            )
            .await;
    }
    let (code, round) = owner
        .post(&format!("/events/{event}/rounds"), json!({}))
        .await;
    assert_eq!(code, 201, "{round}");
    // The other player must not be the player's opponent: swap them apart if drawn together.
    let other_reg = detail["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "OtherPlayer")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let together = round["tables"].as_array().unwrap().iter().any(|t| {
        let ids = [t["player_a"].as_i64(), t["player_b"].as_i64()];
        ids.contains(&Some(player_reg)) && ids.contains(&Some(other_reg))
    });
    if together {
        let walk = detail["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "Walk One")
            .unwrap()["id"]
            .to_string();
        let (_, event_detail) = owner.get(&format!("/events/{event}")).await;
        let version = event_detail["version"].to_string();
        let r = owner_browser
            .post_form(
                &format!("/events/{event}/rounds/1/swap"),
                &[
                    ("version", &version),
                    ("first", &other_reg.to_string()),
                    ("second", &walk),
                ],
            )
            .await;
        assert_eq!(r.status(), 303);
    }
    owner
        .post(&format!("/events/{event}/rounds/1/publish"), json!({}))
        .await;
    let (_, round) = owner.get(&format!("/events/{event}/rounds/1")).await;
    let game = round["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["player_a"] == player_reg || t["player_b"] == player_reg)
        .unwrap()["game"]
        .as_i64()
        .unwrap();
    let practice = |seed: u8| {
        app.with_conn(move |conn| {
            let player = soulstone::db::accounts::find_by_email(conn, "player@example.org")
                .unwrap()
                .unwrap()
                .id;
            let shipped = soulstone::content::shipped_crews()
                .iter()
                .find(|(path, _)| path.contains("m4e"))
                .unwrap();
            let list = soulstone::hosted::BroughtList {
                name: "mine".into(),
                list: soulstone_engine::content::crew::CrewList::parse(shipped.1).unwrap(),
            };
            let request = soulstone::hosted::PracticeRequest {
                account_id: player,
                lists: vec![list.clone()],
                bot: soulstone_engine::bot::BotKind::Random,
                bot_lists: vec![list],
                seed: soulstone_engine::fairness::Bytes32([seed; 32]),
                time_control_ms: None,
            };
            let catalog = soulstone::content::load_for_server(None).unwrap();
            soulstone::hosted::start_practice(
                conn,
                &catalog,
                &request,
                chrono::Utc::now().naive_utc(),
            )
            .unwrap()
        })
    };
    let hosted = practice(4).await;
    let resigned = practice(5).await;
    let player_account = app
        .with_conn(|conn| {
            soulstone::db::accounts::find_by_email(conn, "player@example.org")
                .unwrap()
                .unwrap()
                .id
        })
        .await;
    Fixture {
        values: vec![
            ("{missing}", "999999".into()),
            ("{event}", event.to_string()),
            ("{draft}", draft.to_string()),
            ("{player_reg}", player_reg.to_string()),
            ("{player}", player_account.to_string()),
            ("{game}", game.to_string()),
            ("{pool}", "access-pool".into()),
            ("{hosted}", hosted.to_string()),
            ("{resigned}", resigned.to_string()),
        ],
    }
}

struct Visitor {
    role: Role,
    browser: TestClient,
    bearer: Option<String>,
}

async fn visitors(app: &TestApp) -> Vec<Visitor> {
    let mut visitors = Vec::new();
    for role in ROLES {
        let email = match role {
            Role::OtherPlayer => "other@example.org".to_owned(),
            _ => format!("{role:?}@example.org").to_lowercase(),
        };
        let (browser, bearer) = if role == Role::Anonymous {
            (app.new_client(), None)
        } else {
            app.create_account(&email, &format!("{role:?}"), role == Role::Admin)
                .await;
            let browser = app.signed_in_client(&email).await;
            let token: serde_json::Value = browser
                .http
                .post(app.url("/api/v1/token"))
                .json(&serde_json::json!({"email": email, "password": crate::support::PASSWORD}))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            (browser, Some(token["token"].as_str().unwrap().to_owned()))
        };
        visitors.push(Visitor {
            role,
            browser,
            bearer,
        });
    }
    visitors
}

async fn request(visitor: &Visitor, case: &Case, path: &str) -> u16 {
    let http = &visitor.browser.http;
    let url = visitor.browser.url(path);
    let response = match case.method {
        Get => http.get(url).send().await.unwrap(),
        Post => {
            let body = case
                .body
                .replace("{role}", &format!("{:?}-x", visitor.role));
            let mut fields: Vec<(String, String)> = serde_urlencoded::from_str(&body).unwrap();
            fields.push(("csrf_token".into(), visitor.browser.csrf_token().await));
            http.post(url).form(&fields).send().await.unwrap()
        }
        ApiGet | ApiPost => {
            let mut builder = if case.method == ApiGet {
                http.get(url)
            } else {
                http.post(url)
            };
            if let Some(token) = &visitor.bearer {
                builder = builder.bearer_auth(token);
            }
            if !case.body.is_empty() {
                builder = builder
                    .header("content-type", "application/json")
                    .body(case.body);
            }
            builder.send().await.unwrap()
        }
    };
    response.status().as_u16()
}

both_backends!(access_control_matrix);

async fn access_control_matrix(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let visitors = visitors(&app).await;
    let fixture = fixture(&app, &visitors).await;
    let mut failures = Vec::new();
    let ordered = MATRIX
        .iter()
        .filter(|c| !c.runs_last)
        .chain(MATRIX.iter().filter(|c| c.runs_last));
    for case in ordered {
        let path = fixture.fill(case.path);
        for (visitor, expected) in visitors.iter().zip(case.expect) {
            let got = request(visitor, case, &path).await;
            if got != expected {
                failures.push(format!(
                    "{:?} {path} as {:?}: expected {expected}, got {got}",
                    case.method, visitor.role
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "access-control mismatches:\n{}",
        failures.join("\n")
    );
}

/// The route patterns the handlers declare, read from their `#[get]` and
/// `#[post]` attributes (handlers in `api*.rs` files sit under `/api/v1`).
fn registered_routes() -> Vec<String> {
    let mut routes = Vec::new();
    let web_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web");
    let mut files = vec![web_dir];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let prefix = if name.starts_with("api") {
            "/api/v1"
        } else {
            ""
        };
        let source = std::fs::read_to_string(&path).unwrap();
        for line in source.lines() {
            let line = line.trim();
            for method in ["get", "post"] {
                let marker = format!("#[{method}(\"");
                if let Some(rest) = line.strip_prefix(&marker) {
                    let route = rest.split('"').next().unwrap();
                    routes.push(format!("{} {prefix}{route}", method.to_uppercase()));
                }
            }
        }
    }
    routes.sort();
    routes
}

/// Every registered route pattern has at least one row in the matrix.
#[test]
fn every_route_is_in_the_matrix() {
    let registered = registered_routes();
    assert!(
        registered.len() >= 20,
        "too few routes found: {registered:?}"
    );
    let covered: Vec<(String, String)> = MATRIX
        .iter()
        .map(|c| {
            let method = match c.method {
                Get | ApiGet => "GET",
                Post | ApiPost => "POST",
            };
            (
                method.to_owned(),
                c.path.split('?').next().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let mut missing = Vec::new();
    for route in &registered {
        let (method, pattern) = route.split_once(' ').unwrap();
        let matches = covered
            .iter()
            .any(|(m, path)| m == method && pattern_matches(pattern, path));
        if !matches {
            missing.push(route.clone());
        }
    }
    assert!(
        missing.is_empty(),
        "routes without a row in MATRIX: {missing:?}"
    );
}

fn pattern_matches(pattern: &str, path: &str) -> bool {
    let pattern: Vec<&str> = pattern.split('/').collect();
    let path: Vec<&str> = path.split('/').collect();
    pattern.len() == path.len()
        && pattern
            .iter()
            .zip(&path)
            .all(|(p, s)| p == s || (p.starts_with('{') && (s.starts_with('{') || !s.is_empty())))
}
