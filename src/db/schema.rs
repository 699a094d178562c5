// The tables of both backends, kept by hand beside the migrations; the test
// `schema_matches_migrations` checks this file against both databases.

diesel::table! {
    audit_log (id) {
        id -> BigInt,
        at -> Timestamp,
        actor_account_id -> Nullable<BigInt>,
        event_id -> Nullable<BigInt>,
        action -> Text,
        detail -> Text,
    }
}

diesel::table! {
    accounts (id) {
        id -> BigInt,
        email -> Text,
        display_name -> Text,
        password_hash -> Text,
        club -> Nullable<Text>,
        region -> Nullable<Text>,
        malifaux_name -> Nullable<Text>,
        mage_knight_name -> Nullable<Text>,
        is_admin -> Bool,
        email_verified_at -> Nullable<Timestamp>,
        session_generation -> Integer,
        created_at -> Timestamp,
        deleted_at -> Nullable<Timestamp>,
        profile_hidden -> Bool,
    }
}

diesel::table! {
    account_sessions (sid) {
        sid -> Text,
        account_id -> BigInt,
        started_at -> Timestamp,
        last_seen_at -> Timestamp,
        device -> Text,
        kind -> Text,
        expires_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    revoked_tokens (jti) {
        jti -> Text,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    email_tokens (id) {
        id -> BigInt,
        account_id -> BigInt,
        purpose -> Text,
        token_hash -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        used_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    login_failures (id) {
        id -> BigInt,
        throttle_key -> Text,
        at -> Timestamp,
    }
}

diesel::table! {
    mail_outbox (id) {
        id -> BigInt,
        to_address -> Text,
        subject -> Text,
        body_text -> Text,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> Timestamp,
        claimed_by -> Nullable<Text>,
        claimed_until -> Nullable<Timestamp>,
        last_error -> Nullable<Text>,
        created_at -> Timestamp,
        sent_at -> Nullable<Timestamp>,
        dedupe_key -> Nullable<Text>,
    }
}

diesel::joinable!(email_tokens -> accounts (account_id));

diesel::table! {
    pools (id) {
        id -> BigInt,
        slug -> Text,
        edition -> Text,
        name -> Text,
        definition -> Text,
        shipped -> Bool,
        owner_account_id -> Nullable<BigInt>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        featured -> Bool,
    }
}

diesel::table! {
    game_invitations (id) {
        id -> BigInt,
        token -> Text,
        inviter_id -> BigInt,
        inviter_lists -> Text,
        time_control_ms -> Nullable<BigInt>,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        accepted_by -> Nullable<BigInt>,
        hosted_game_id -> Nullable<BigInt>,
        cancelled_at -> Nullable<Timestamp>,
        event_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    prepared_scenarios (event_id, round_number) {
        event_id -> BigInt,
        round_number -> Integer,
        setup -> Text,
        prepared_at -> Timestamp,
    }
}

diesel::table! {
    pool_revisions (id) {
        id -> BigInt,
        pool_id -> BigInt,
        revision -> Text,
        definition -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    events (id) {
        id -> BigInt,
        name -> Text,
        description -> Text,
        venue -> Text,
        starts_on -> Date,
        ends_on -> Date,
        game_system -> Text,
        format -> Text,
        rounds_planned -> Integer,
        round_minutes -> Integer,
        encounter_size -> Integer,
        player_cap -> Nullable<Integer>,
        registration_opens_at -> Nullable<Timestamp>,
        registration_closes_at -> Nullable<Timestamp>,
        visibility -> Text,
        status -> Text,
        pool_id -> Nullable<BigInt>,
        settings -> Text,
        lists_published -> Bool,
        version -> Integer,
        created_by -> BigInt,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        finished_at -> Nullable<Timestamp>,
        data_revision -> BigInt,
        content_pack_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    event_staff (event_id, account_id) {
        event_id -> BigInt,
        account_id -> BigInt,
        role -> Text,
    }
}

diesel::table! {
    form_submissions (account_id, submission_key) {
        account_id -> BigInt,
        submission_key -> Text,
        outcome -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    staff_invitations (id) {
        id -> BigInt,
        event_id -> BigInt,
        email -> Text,
        role -> Text,
        token_hash -> Text,
        invited_by -> BigInt,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        accepted_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    registrations (id) {
        id -> BigInt,
        event_id -> BigInt,
        account_id -> Nullable<BigInt>,
        display_name -> Text,
        club -> Nullable<Text>,
        status -> Text,
        checked_in -> Bool,
        dropped -> Bool,
        dropped_after_round -> Nullable<Integer>,
        joined_round -> Integer,
        initial_points -> Integer,
        fixed_table -> Nullable<Integer>,
        faction -> Nullable<Text>,
        army_list -> Nullable<Text>,
        army_points -> Nullable<Integer>,
        registered_at -> Timestamp,
        playoff_seed -> Nullable<Integer>,
        team_id -> Nullable<BigInt>,
        team_board -> Nullable<Integer>,
    }
}

diesel::table! {
    rounds (id) {
        id -> BigInt,
        event_id -> BigInt,
        number -> Integer,
        status -> Text,
        seed -> BigInt,
        pairing -> Text,
        setup -> Nullable<Text>,
        published_at -> Nullable<Timestamp>,
        clock_started_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
        setup_history -> Nullable<Text>,
    }
}

diesel::table! {
    games (id) {
        id -> BigInt,
        event_id -> BigInt,
        round_id -> Nullable<BigInt>,
        table_number -> Nullable<Integer>,
        player_a -> BigInt,
        player_b -> Nullable<BigInt>,
        setup -> Nullable<Text>,
        status -> Text,
        reported_by -> Nullable<BigInt>,
        confirmed_by -> Nullable<BigInt>,
        a_strategy_vp -> Nullable<Integer>,
        a_scheme_vp -> Nullable<Integer>,
        b_strategy_vp -> Nullable<Integer>,
        b_scheme_vp -> Nullable<Integer>,
        a_objectives -> Nullable<Integer>,
        b_objectives -> Nullable<Integer>,
        a_eliminated -> Nullable<Integer>,
        b_eliminated -> Nullable<Integer>,
        a_army -> Nullable<Integer>,
        b_army -> Nullable<Integer>,
        dispute_note -> Nullable<Text>,
        version -> Integer,
        played_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        sides -> Nullable<Text>,
        team_match_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    game_declarations (game_id, registration_id) {
        game_id -> BigInt,
        registration_id -> BigInt,
        leader -> Text,
        crew -> Text,
    }
}

diesel::table! {
    result_changes (id) {
        id -> BigInt,
        game_id -> BigInt,
        event_id -> BigInt,
        account_id -> Nullable<BigInt>,
        action -> Text,
        before_json -> Nullable<Text>,
        after_json -> Nullable<Text>,
        note -> Nullable<Text>,
        at -> Timestamp,
    }
}

diesel::table! {
    hosted_games (id) {
        id -> BigInt,
        kind -> Text,
        pairing_game_id -> Nullable<BigInt>,
        seat_a_account_id -> Nullable<BigInt>,
        seat_b_account_id -> Nullable<BigInt>,
        seat_a_bot -> Nullable<Text>,
        seat_b_bot -> Nullable<Text>,
        status -> Text,
        rules_version -> Integer,
        log_format -> Integer,
        setup -> Text,
        version -> BigInt,
        vp_a -> Nullable<Integer>,
        vp_b -> Nullable<Integer>,
        ended_by -> Nullable<Text>,
        time_control_ms -> Nullable<BigInt>,
        clock_a_ms -> Nullable<BigInt>,
        clock_b_ms -> Nullable<BigInt>,
        clock_running -> Nullable<Text>,
        clock_since -> Nullable<Timestamp>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        turn -> Nullable<Integer>,
        clock_deadline -> Nullable<Timestamp>,
        table_game -> Text,
        content_hash -> Nullable<Text>,
        pack_hash -> Nullable<Text>,
    }
}

diesel::table! {
    content_packs (id) {
        id -> BigInt,
        event_id -> Nullable<BigInt>,
        uploaded_by -> Nullable<BigInt>,
        name -> Text,
        hash -> Text,
        files -> Text,
        cards -> Integer,
        crew_cards -> Integer,
        created_at -> Timestamp,
    }
}

diesel::table! {
    hosted_game_facts (game_id, seq) {
        game_id -> BigInt,
        seq -> BigInt,
        fact -> Text,
        at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    hosted_game_snapshots (game_id, seq) {
        game_id -> BigInt,
        seq -> BigInt,
        state -> Text,
    }
}

diesel::table! {
    hosted_game_commands (game_id, seat, idempotency_key) {
        game_id -> BigInt,
        seat -> Text,
        idempotency_key -> Text,
        from_version -> BigInt,
        to_version -> BigInt,
        created_at -> Timestamp,
    }
}

diesel::table! {
    hosted_game_submissions (game_id, at_fact) {
        game_id -> BigInt,
        at_fact -> BigInt,
        submission -> Text,
    }
}

diesel::table! {
    play_settings (account_id) {
        account_id -> BigInt,
        takes_forced_choices -> Bool,
        skips_idle_cheats -> Bool,
        never_boosts -> Bool,
    }
}

diesel::table! {
    saved_crews (id) {
        id -> BigInt,
        account_id -> BigInt,
        name -> Text,
        edition -> Text,
        list_text -> Text,
        saved_at -> Timestamp,
        event_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    served_heartbeat (id) {
        id -> Integer,
        served_at -> Timestamp,
    }
}

diesel::table! {
    digital_pairings (pairing_game_id) {
        pairing_game_id -> BigInt,
        marked_by -> Nullable<BigInt>,
        marked_at -> Timestamp,
    }
}

diesel::table! {
    pairing_crews (pairing_game_id, seat) {
        pairing_game_id -> BigInt,
        seat -> Text,
        lists -> Text,
        submitted_at -> Timestamp,
    }
}

diesel::table! {
    playoffs (event_id) {
        event_id -> BigInt,
        cut_size -> Integer,
        third_place -> Bool,
        tie_rule -> Text,
        higher_seed_chooses -> Bool,
        first_round -> Integer,
        created_at -> Timestamp,
    }
}

diesel::table! {
    teams (id) {
        id -> BigInt,
        event_id -> BigInt,
        name -> Text,
        club -> Nullable<Text>,
        captain_account_id -> Nullable<BigInt>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    team_matches (id) {
        id -> BigInt,
        event_id -> BigInt,
        round_id -> BigInt,
        match_number -> Integer,
        team_a -> BigInt,
        team_b -> Nullable<BigInt>,
        choices -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::joinable!(registrations -> events (event_id));
diesel::joinable!(rounds -> events (event_id));
diesel::joinable!(games -> rounds (round_id));
diesel::joinable!(event_staff -> events (event_id));
diesel::joinable!(staff_invitations -> events (event_id));
diesel::joinable!(events -> pools (pool_id));
diesel::joinable!(pool_revisions -> pools (pool_id));
diesel::joinable!(account_sessions -> accounts (account_id));
diesel::joinable!(hosted_game_facts -> hosted_games (game_id));
diesel::joinable!(hosted_game_snapshots -> hosted_games (game_id));
diesel::joinable!(hosted_game_commands -> hosted_games (game_id));
diesel::joinable!(hosted_game_submissions -> hosted_games (game_id));
diesel::allow_tables_to_appear_in_same_query!(
    account_sessions,
    game_invitations,
    prepared_scenarios,
    playoffs,
    teams,
    team_matches,
    pool_revisions,
    form_submissions,
    staff_invitations,
    accounts,
    audit_log,
    email_tokens,
    events,
    event_staff,
    registrations,
    rounds,
    games,
    game_declarations,
    result_changes,
    pools,
    hosted_games,
    hosted_game_facts,
    hosted_game_snapshots,
    hosted_game_commands,
    hosted_game_submissions,
    play_settings,
    saved_crews,
    content_packs,
    served_heartbeat,
    digital_pairings,
    pairing_crews,
);
