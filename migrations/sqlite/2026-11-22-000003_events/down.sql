DROP TABLE result_changes;
DROP TABLE game_declarations;
DROP TABLE games;
DROP TABLE rounds;
DROP TABLE registrations;
DROP TABLE event_staff;
DROP TABLE events;
DROP TABLE pools;
