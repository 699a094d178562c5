DROP TABLE saved_crews;
