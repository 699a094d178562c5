-- A player's standing answers in browser games (docs/play.md): beside
-- taking the decisions with one option, the game may decline a cheat no
-- card in hand would make count (on by default), and finish a duel's
-- modifiers at once for a player who never boosts (off by default).
ALTER TABLE play_settings ADD COLUMN skips_idle_cheats BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE play_settings ADD COLUMN never_boosts BOOLEAN NOT NULL DEFAULT FALSE;
