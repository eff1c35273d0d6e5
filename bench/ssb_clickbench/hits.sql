-- A synthetic ClickBench `hits` table of {{ROWS}} rows (the real one is a 14 GB
-- download), written as Parquet to {{OUT}}/hits.parquet. Run by gen.mjs in
-- DuckDB; both systems then load that file.
--
-- Deterministic: every value is a function of the row number i (hash() is
-- DuckDB's, fixed for a DuckDB version; the file is made once and read by
-- both systems). ClickBench's types (SMALLINT flags, INTEGER ids, BIGINT
-- hashes, TEXT, DATE, TIMESTAMP) and its shape: July 2013; skewed ids and
-- strings (hits_z: a power law, index 0 the most frequent); mostly empty
-- SearchPhrase, MobilePhoneModel and Referer; CounterID 62 a large counter
-- (queries 36-42 filter on it); the URLHash, RefererHash and UserID constants
-- queries 19, 40 and 41 look for. EventTime is unique per row: i times a
-- number coprime to the seconds of July and near their golden section (so
-- times spread evenly), modulo them, is a permutation while ROWS <= 2678400;
-- "ORDER BY EventTime LIMIT n" then has one answer.
CREATE MACRO hits_u(i, k) AS CAST(hash(i, k) % 1000003 AS DOUBLE) / 1000003.0;
CREATE MACRO hits_z(i, k, n) AS CAST(floor(n * pow(hits_u(i, k), 4)) AS BIGINT);
CREATE MACRO hits_h(x, k) AS CAST(hash(x, k) >> 2 AS BIGINT);

CREATE TABLE hits_draw AS
SELECT i,
       TIMESTAMP '2013-07-01 00:00:00' + to_seconds(CAST((i * 1655341) % 2678400 AS BIGINT)) AS t,
       hits_z(i, 1, 300000) AS user_ix,
       hits_z(i, 2, 60000) AS url_ix,
       hits_z(i, 3, 20000) AS title_ix,
       hits_z(i, 4, 40000) AS phrase_ix,
       hits_z(i, 5, 30000) AS ref_ix,
       hits_u(i, 6) AS u6, hits_u(i, 7) AS u7, hits_u(i, 8) AS u8, hits_u(i, 9) AS u9,
       hits_u(i, 10) AS u10, hits_u(i, 11) AS u11, hits_u(i, 12) AS u12
FROM range({{ROWS}}) AS r(i);

CREATE TABLE hits_host AS
SELECT * FROM (VALUES (0, 'www.google.com'), (1, 'news.yandex.ru'), (2, 'mail.ru'), (3, 'video.example.com'),
  (4, 'www.avito.ru'), (5, 'google.ru'), (6, 'shop.example.org'), (7, 'auto.ru'), (8, 'www.kinopoisk.ru'),
  (9, 'sport.example.net'), (10, 'maps.google.com'), (11, 'irr.ru'), (12, 'www.livejournal.com'),
  (13, 'pogoda.example.ru'), (14, 'forum.example.com'), (15, 'www.wikipedia.org')) AS h(id, host);

CREATE TABLE hits_word AS
SELECT * FROM (VALUES (0, 'news'), (1, 'sport'), (2, 'video'), (3, 'weather'), (4, 'car'), (5, 'google'),
  (6, 'music'), (7, 'film'), (8, 'games'), (9, 'moscow'), (10, 'iphone'), (11, 'recipe'), (12, 'hotel'),
  (13, 'ticket'), (14, 'map'), (15, 'shop'), (16, 'bank'), (17, 'job'), (18, 'taxi'), (19, 'flat')) AS w(id, word);

CREATE TABLE hits_phone AS
SELECT * FROM (VALUES (0, 'iPad'), (1, 'iPhone'), (2, 'GT-I9300'), (3, 'SM-G900F'), (4, 'Lumia 920'),
  (5, 'HTC One'), (6, 'Nexus 4'), (7, 'GT-N7100'), (8, 'Xperia Z'), (9, 'MI 2S')) AS p(id, model);

COPY (
  WITH s AS (
    SELECT d.*,
      CASE WHEN u6 < 0.02 THEN ''
           ELSE (CASE WHEN url_ix % 3 = 0 THEN 'https://' ELSE 'http://' END) || uh.host || '/' ||
                (CASE url_ix % 4 WHEN 0 THEN 'news/' || uw.word || '/' || CAST(url_ix AS VARCHAR) || '.html'
                                 WHEN 1 THEN 'catalog/' || CAST(url_ix AS VARCHAR) || '?q=' || uw.word
                                 WHEN 2 THEN 'search?text=' || uw.word || '+' || CAST(url_ix % 97 AS VARCHAR)
                                 ELSE CAST(url_ix AS VARCHAR) END) END AS url,
      CASE WHEN u7 < 0.1 THEN ''
           ELSE (CASE WHEN title_ix % 7 = 0 THEN 'Google ' ELSE '' END) || tw.word || ' ' ||
                CAST(title_ix AS VARCHAR) || (CASE WHEN title_ix % 5 = 0 THEN ' - Yandex' ELSE ' | news portal' END) END AS title,
      CASE WHEN u8 < 0.8 THEN ''
           ELSE pw.word || ' ' || pw2.word || (CASE WHEN phrase_ix % 3 = 0 THEN '' ELSE ' ' || CAST(phrase_ix AS VARCHAR) END) END AS phrase,
      CASE WHEN u9 < 0.3 THEN ''
           ELSE (CASE WHEN ref_ix % 2 = 0 THEN 'https://' ELSE 'http://' END) ||
                (CASE WHEN ref_ix % 5 = 0 THEN '' ELSE 'www.' END) || rh.host || '/' ||
                (CASE WHEN ref_ix % 3 = 0 THEN '' ELSE 'page' || CAST(ref_ix AS VARCHAR) || '?from=' || rw.word END) END AS referer
    FROM hits_draw d
    JOIN hits_host uh ON uh.id = d.url_ix % 16
    JOIN hits_word uw ON uw.id = (d.url_ix // 16) % 20
    JOIN hits_word tw ON tw.id = d.title_ix % 20
    JOIN hits_word pw ON pw.id = d.phrase_ix % 20
    JOIN hits_word pw2 ON pw2.id = (d.phrase_ix // 20) % 20
    JOIN hits_host rh ON rh.id = (d.ref_ix * 7) % 16
    JOIN hits_word rw ON rw.id = d.ref_ix % 20
  )
  SELECT
    CAST(hits_h(i, 77) AS BIGINT) AS WatchID,
    CAST(CASE WHEN u10 < 0.7 THEN 1 ELSE 0 END AS SMALLINT) AS JavaEnable,
    title AS Title,
    CAST(1 AS SMALLINT) AS GoodEvent,
    t AS EventTime,
    CAST(t AS DATE) AS EventDate,
    CAST(CASE WHEN u11 < 0.3 THEN 62 ELSE 1 + hits_z(i, 13, 5000) END AS INTEGER) AS CounterID,
    CAST(hits_h(user_ix, 5) % 4294967296 - 2147483648 AS INTEGER) AS ClientIP,
    CAST(1 + hits_z(user_ix, 14, 1000) AS INTEGER) AS RegionID,
    CASE WHEN user_ix = 7 THEN 435090932899640449 ELSE hits_h(user_ix, 99) END AS UserID,
    CAST(hits_z(user_ix, 15, 8) AS SMALLINT) AS OS,
    CAST(hits_z(user_ix, 16, 40) AS SMALLINT) AS UserAgent,
    url AS URL,
    referer AS Referer,
    CAST(CASE WHEN u12 < 0.1 THEN 1 ELSE 0 END AS SMALLINT) AS IsRefresh,
    CAST(CASE WHEN user_ix % 9 = 0 THEN 0 ELSE (ARRAY[1920, 1366, 1280, 1440, 1600, 1024, 360, 768])[1 + user_ix % 8] END AS SMALLINT) AS ResolutionWidth,
    CAST(CASE WHEN user_ix % 9 = 0 THEN 0 ELSE (ARRAY[1080, 768, 1024, 900, 900, 768, 640, 1024])[1 + user_ix % 8] END AS SMALLINT) AS ResolutionHeight,
    CAST(CASE WHEN user_ix % 10 < 2 THEN 1 + user_ix % 7 ELSE 0 END AS SMALLINT) AS MobilePhone,
    CASE WHEN user_ix % 10 < 2 THEN (SELECT model FROM hits_phone WHERE id = hits_z(user_ix, 17, 10)) ELSE '' END AS MobilePhoneModel,
    CAST(CASE WHEN hits_u(i, 18) < 0.95 THEN 0 ELSE 1 + hits_z(i, 19, 60) END AS SMALLINT) AS AdvEngineID,
    CAST(CASE WHEN phrase = '' THEN 0 ELSE 1 + hits_z(i, 20, 10) END AS SMALLINT) AS SearchEngineID,
    CAST(hits_z(i, 21, 11) - 1 AS SMALLINT) AS TraficSourceID,
    CAST(CASE WHEN hits_u(i, 22) < 0.9 THEN 0 ELSE 1 END AS SMALLINT) AS DontCountHits,
    CAST(CASE WHEN hits_u(i, 23) < 0.05 THEN 1 ELSE 0 END AS SMALLINT) AS IsLink,
    CAST(CASE WHEN hits_u(i, 24) < 0.02 THEN 1 ELSE 0 END AS SMALLINT) AS IsDownload,
    phrase AS SearchPhrase,
    CASE WHEN url_ix = 0 AND url <> '' THEN 2868770270353813622 ELSE hits_h(url, 25) END AS URLHash,
    CASE WHEN ref_ix % 16 = 0 AND referer <> '' THEN 3594120000172545465 ELSE hits_h(referer, 26) END AS RefererHash,
    CAST(CASE WHEN hits_u(i, 27) < 0.05 THEN 0 ELSE 300 + hits_z(i, 28, 1600) END AS SMALLINT) AS WindowClientWidth,
    CAST(CASE WHEN hits_u(i, 29) < 0.05 THEN 0 ELSE 200 + hits_z(i, 30, 1000) END AS SMALLINT) AS WindowClientHeight,
    CAST(hits_z(i, 31, 24) - 12 AS SMALLINT) AS ClientTimeZone
  FROM s
  ORDER BY i
) TO '{{OUT}}/hits.parquet' (FORMAT parquet, COMPRESSION snappy);
