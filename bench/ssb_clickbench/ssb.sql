-- Star Schema Benchmark tables (O'Neil, O'Neil, Chen: "Star Schema Benchmark",
-- rev. 3) derived from the TPC-H Parquet files in {{TPCH}}, written as Parquet
-- into {{OUT}}. Run by gen.mjs in DuckDB; both systems then load these files.
--
-- The usual derivation: lineorder is lineitem joined with its order (and with
-- partsupp for the supply cost); money is whole cents and discount/tax whole
-- percents (SSB's integer columns); dates are yyyymmdd integers that join the
-- generated date dimension. customer/supplier get SSB's city (nation's first
-- 9 characters, space padded, and a digit), nation and region names; part
-- gets p_mfgr 'MFGR#m', p_category 'MFGR#mn' from TPC-H's Brand#mn and
-- p_brand1 'MFGR#mnbb' (bb = 01..40).
CREATE MACRO ssb_datekey(d) AS CAST(year(d) * 10000 + month(d) * 100 + day(d) AS INTEGER);
CREATE MACRO ssb_cents(x) AS CAST(round(x * 100) AS BIGINT);
CREATE MACRO ssb_city(nation, key) AS rpad(left(nation, 9), 9, ' ') || CAST(key % 10 AS VARCHAR);

COPY (
  SELECT CAST(l_orderkey AS BIGINT) AS lo_orderkey, CAST(l_linenumber AS INTEGER) AS lo_linenumber,
         CAST(o_custkey AS INTEGER) AS lo_custkey, CAST(l_partkey AS INTEGER) AS lo_partkey,
         CAST(l_suppkey AS INTEGER) AS lo_suppkey, ssb_datekey(o_orderdate) AS lo_orderdate,
         o_orderpriority AS lo_orderpriority, CAST(o_shippriority AS INTEGER) AS lo_shippriority,
         CAST(l_quantity AS INTEGER) AS lo_quantity, ssb_cents(l_extendedprice) AS lo_extendedprice,
         ssb_cents(o_totalprice) AS lo_ordtotalprice, CAST(round(l_discount * 100) AS INTEGER) AS lo_discount,
         ssb_cents(l_extendedprice) * (100 - CAST(round(l_discount * 100) AS INTEGER)) // 100 AS lo_revenue,
         ssb_cents(ps_supplycost) AS lo_supplycost, CAST(round(l_tax * 100) AS INTEGER) AS lo_tax,
         ssb_datekey(l_commitdate) AS lo_commitdate, l_shipmode AS lo_shipmode
  FROM read_parquet('{{TPCH}}/lineitem.parquet')
  JOIN read_parquet('{{TPCH}}/orders.parquet') ON l_orderkey = o_orderkey
  JOIN read_parquet('{{TPCH}}/partsupp.parquet') ON ps_partkey = l_partkey AND ps_suppkey = l_suppkey
  ORDER BY lo_orderkey, lo_linenumber
) TO '{{OUT}}/lineorder.parquet' (FORMAT parquet, COMPRESSION snappy);

COPY (
  SELECT CAST(c_custkey AS INTEGER) AS c_custkey, c_name, c_address, ssb_city(n_name, c_custkey) AS c_city,
         n_name AS c_nation, r_name AS c_region, c_phone, c_mktsegment
  FROM read_parquet('{{TPCH}}/customer.parquet')
  JOIN read_parquet('{{TPCH}}/nation.parquet') ON c_nationkey = n_nationkey
  JOIN read_parquet('{{TPCH}}/region.parquet') ON n_regionkey = r_regionkey
  ORDER BY c_custkey
) TO '{{OUT}}/customer.parquet' (FORMAT parquet, COMPRESSION snappy);

COPY (
  SELECT CAST(s_suppkey AS INTEGER) AS s_suppkey, s_name, s_address, ssb_city(n_name, s_suppkey) AS s_city,
         n_name AS s_nation, r_name AS s_region, s_phone
  FROM read_parquet('{{TPCH}}/supplier.parquet')
  JOIN read_parquet('{{TPCH}}/nation.parquet') ON s_nationkey = n_nationkey
  JOIN read_parquet('{{TPCH}}/region.parquet') ON n_regionkey = r_regionkey
  ORDER BY s_suppkey
) TO '{{OUT}}/supplier.parquet' (FORMAT parquet, COMPRESSION snappy);

COPY (
  SELECT CAST(p_partkey AS INTEGER) AS p_partkey, p_name,
         'MFGR#' || substr(p_brand, 7, 1) AS p_mfgr,
         'MFGR#' || substr(p_brand, 7, 2) AS p_category,
         'MFGR#' || substr(p_brand, 7, 2) || lpad(CAST(1 + (p_partkey * 7) % 40 AS VARCHAR), 2, '0') AS p_brand1,
         split_part(p_name, ' ', 1) AS p_color, p_type, CAST(p_size AS INTEGER) AS p_size, p_container
  FROM read_parquet('{{TPCH}}/part.parquet')
  ORDER BY p_partkey
) TO '{{OUT}}/part.parquet' (FORMAT parquet, COMPRESSION snappy);

-- The date dimension: every day of 1992-1998, SSB's 17 columns.
COPY (
  SELECT ssb_datekey(d) AS d_datekey,
         strftime(d, '%B ') || CAST(day(d) AS VARCHAR) || ', ' || CAST(year(d) AS VARCHAR) AS d_date,
         strftime(d, '%A') AS d_dayofweek, strftime(d, '%B') AS d_month,
         CAST(year(d) AS INTEGER) AS d_year, CAST(year(d) * 100 + month(d) AS INTEGER) AS d_yearmonthnum,
         strftime(d, '%b%Y') AS d_yearmonth, CAST(isodow(d) % 7 + 1 AS INTEGER) AS d_daynuminweek,
         CAST(day(d) AS INTEGER) AS d_daynuminmonth, CAST(dayofyear(d) AS INTEGER) AS d_daynuminyear,
         CAST(month(d) AS INTEGER) AS d_monthnuminyear,
         CAST((dayofyear(d) - 1) // 7 + 1 AS INTEGER) AS d_weeknuminyear,
         CASE WHEN month(d) = 12 THEN 'Christmas' WHEN month(d) IN (6, 7, 8) THEN 'Summer'
              WHEN month(d) IN (3, 4) THEN 'Spring' WHEN month(d) IN (9, 10, 11) THEN 'Fall' ELSE 'Winter' END
           AS d_sellingseason,
         isodow(d) = 6 AS d_lastdayinweekfl,
         d = last_day(d) AS d_lastdayinmonthfl,
         (month(d) = 1 AND day(d) = 1) OR (month(d) = 12 AND day(d) = 25) OR (month(d) = 7 AND day(d) = 4) AS d_holidayfl,
         isodow(d) <= 5 AS d_weekdayfl
  FROM (SELECT CAST(range AS DATE) AS d FROM range(DATE '1992-01-01', DATE '1999-01-01', INTERVAL 1 DAY))
  ORDER BY d
) TO '{{OUT}}/date.parquet' (FORMAT parquet, COMPRESSION snappy);
