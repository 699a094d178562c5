DROP TABLE prepared_scenarios;
