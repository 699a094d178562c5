ALTER TABLE accounts DROP COLUMN profile_hidden;
