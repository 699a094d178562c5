ALTER TABLE play_settings DROP COLUMN never_boosts;
ALTER TABLE play_settings DROP COLUMN skips_idle_cheats;
