-- A round's shared scenario leaves attacker and defender to each table:
-- the table's own flip for sides, as JSON (setup::TableSides).
ALTER TABLE games ADD COLUMN sides TEXT;
-- Setups a round had before it was flipped again (or a scenario entered),
-- oldest first, as JSON (events::rounds::ReplacedSetup): players see them.
ALTER TABLE rounds ADD COLUMN setup_history TEXT;
