DROP TABLE served_heartbeat;
