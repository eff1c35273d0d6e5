"""spark.read honours every option it is given or refuses it by name
(issue 31): CSV header/sep/quote/inferSchema/schema, JSON multiLine and
primitivesAsString, Delta time travel and the change feed under both of
Delta's names (readChangeFeed, readChangeData)."""
import pytest

from conftest import rows
from lakestream.pyspark import AnalysisException
from lakestream.pyspark.sql.types import DoubleType, IntegerType, StringType, StructField, StructType


@pytest.fixture
def csv_file(tmp_path):
    path = tmp_path / "orders.csv"
    path.write_text("id,name,amount\n1,books,2.5\n2,games,3\n")
    return str(path)


def test_csv_header_true_takes_names_from_the_first_line(spark, csv_file):
    df = spark.read.csv(csv_file, header=True)
    assert df.columns == ["id", "name", "amount"]
    # Spark's default for CSV is no inference: every column a string.
    assert df.dtypes == [("id", "string"), ("name", "string"), ("amount", "string")]
    assert rows(df) == [("1", "books", "2.5"), ("2", "games", "3")]


def test_csv_header_option_spellings_and_default(spark, csv_file):
    assert spark.read.option("header", "true").csv(csv_file).count() == 2
    assert spark.read.option("HEADER", True).format("csv").load(csv_file).count() == 2
    no_header = spark.read.csv(csv_file)
    assert no_header.columns == ["_c0", "_c1", "_c2"]
    assert ("id", "name", "amount") in rows(no_header) and no_header.count() == 3  # the header line is a row


def test_csv_infer_schema_and_declared_schema(spark, csv_file):
    inferred = spark.read.options(header=True, inferSchema=True).csv(csv_file)
    assert dict(inferred.dtypes)["amount"] == "double"
    assert rows(inferred.select("id")) == [(1,), (2,)]
    declared = StructType([StructField("id", IntegerType()), StructField("name", StringType()),
                           StructField("amount", DoubleType())])
    typed = spark.read.schema(declared).option("header", True).csv(csv_file)
    assert typed.dtypes == [("id", "int"), ("name", "string"), ("amount", "double")]
    ddl = spark.read.csv(csv_file, schema="id INT, name STRING, amount DOUBLE", header=True)
    assert rows(ddl) == [(1, "books", 2.5), (2, "games", 3.0)]


def test_csv_separator_and_quote(spark, tmp_path):
    path = tmp_path / "semi.csv"
    path.write_text("a;b\n'x;y';2\n")
    df = spark.read.csv(str(path), sep=";", quote="'", header=True)
    assert rows(df) == [("x;y", "2")]
    tabs = tmp_path / "t.tsv"
    tabs.write_text("a\tb\n1\t2\n")
    assert rows(spark.read.option("delimiter", "\t").option("header", "true").csv(str(tabs))) == [("1", "2")]


def test_json_multiline_and_primitives_as_string(spark, tmp_path):
    path = tmp_path / "doc.json"
    path.write_text('{\n  "a": 1,\n  "b": {"c": 2.5}\n}\n')
    df = spark.read.option("multiLine", True).json(str(path))
    assert rows(df.select("a")) == [(1,)]
    as_text = spark.read.json(str(path), multiLine=True, primitivesAsString=True)
    assert dict(as_text.dtypes)["a"] == "string"


def test_unknown_and_unsupported_options_are_refused_by_name(spark, csv_file):
    with pytest.raises(AnalysisException, match=r"'nullvalue' is not supported yet for format csv; lakestream takes header"):
        spark.read.option("nullValue", "NA").csv(csv_file)
    with pytest.raises(AnalysisException, match="mode = 'PERMISSIVE' is not supported yet"):
        spark.read.csv(csv_file, mode="PERMISSIVE")
    assert spark.read.csv(csv_file, mode="FAILFAST", header=True).count() == 2
    with pytest.raises(AnalysisException, match="UTF-8"):
        spark.read.csv(csv_file, encoding="latin1")
    with pytest.raises(AnalysisException, match="must be one character"):
        spark.read.csv(csv_file, sep="::")
    with pytest.raises(AnalysisException, match="must be true or false"):
        spark.read.csv(csv_file, header="maybe")
    with pytest.raises(AnalysisException, match="read.text\\(\\) is not supported yet"):
        spark.read.text(csv_file)


def test_delta_time_travel_and_change_feed_both_names(spark):
    spark.sql("CREATE TABLE t (id INT) TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')")
    spark.sql("INSERT INTO t VALUES (1)")  # version 1
    spark.sql("INSERT INTO t VALUES (2)")  # version 2
    spark.sql("DELETE FROM t WHERE id = 1")  # version 3
    assert rows(spark.read.option("versionAsOf", 1).table("t")) == [(1,)]
    assert rows(spark.read.format("delta").option("versionAsOf", 2).table("t").orderBy("id")) == [(1,), (2,)]
    for name in ("readChangeFeed", "readChangeData"):
        feed = spark.read.format("delta").option(name, "true").option("startingVersion", 2).table("t")
        got = sorted((r["id"], r["_change_type"], r["_commit_version"]) for r in feed.collect())
        assert got == [(1, "delete", 3), (2, "insert", 2)], name
    bounded = spark.read.option("readChangeFeed", True).option("startingVersion", 1).option("endingVersion", 1).table("t")
    assert [(r["id"], r["_change_type"]) for r in bounded.collect()] == [(1, "insert")]
    with pytest.raises(AnalysisException, match="needs startingVersion or startingTimestamp"):
        spark.read.option("readChangeFeed", "true").table("t")
    with pytest.raises(AnalysisException, match="applies with readChangeFeed = true only"):
        spark.read.option("startingVersion", 1).table("t")
    with pytest.raises(AnalysisException, match="'maxfilespertrigger' is not supported for Delta tables"):
        spark.read.option("maxFilesPerTrigger", 1).table("t")


def test_parquet_of_several_paths(spark, tmp_path):
    spark.sql("COPY (SELECT range AS id FROM range(3)) TO '%s'" % (tmp_path / "a.parquet"))
    spark.sql("COPY (SELECT 10 AS id) TO '%s'" % (tmp_path / "b.parquet"))
    df = spark.read.parquet(str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet"))
    assert sorted(r[0] for r in rows(df)) == [0, 1, 2, 10]
    with pytest.raises(AnalysisException, match="mergeSchema = true is not supported yet"):
        spark.read.option("mergeSchema", "true").parquet(str(tmp_path / "a.parquet"))
