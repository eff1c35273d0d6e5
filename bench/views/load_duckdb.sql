CREATE TABLE src AS SELECT range AS id, range % 1000 AS g, CAST((range * 7919 % 10007) / 100.0 AS DECIMAL(12,2)) AS v FROM range({{N}});
CREATE TABLE dim AS SELECT range AS g, 'region ' || CAST(range % 7 AS VARCHAR) AS region FROM range(1000);
SELECT COUNT(*) FROM src;
