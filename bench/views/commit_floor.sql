-- The smallest durable commit in the same database: one row, one data file,
-- one commit file, the same two flush rounds as a refresh's commit. What a
-- refresh costs above it is the refresh's own work.
INSERT INTO floor_t VALUES (1);
