-- A player may keep their profile and rating off the public lists.
ALTER TABLE accounts ADD COLUMN profile_hidden BOOLEAN NOT NULL DEFAULT FALSE;
