-- bench/streams (b): {{ROWS}} rows (version 1), a stream after them, then
-- {{VERSIONS}} UPDATE commits of {{CHANGES}} rows each (versions 2..{{LAST}}).
CREATE TABLE w (id BIGINT, v BIGINT) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
INSERT INTO w SELECT range AS id, range AS v FROM range({{ROWS}});
CREATE STREAM ws ON TABLE w;
