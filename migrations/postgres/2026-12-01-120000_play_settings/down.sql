DROP TABLE play_settings;
