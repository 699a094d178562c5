DROP TABLE pairing_crews;
DROP TABLE digital_pairings;
