ALTER TABLE rounds DROP COLUMN setup_history;
ALTER TABLE games DROP COLUMN sides;
