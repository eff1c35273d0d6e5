DROP TABLE IF EXISTS t;
CREATE TABLE t (a BIGINT, b DOUBLE, s VARCHAR, d DATE) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');
