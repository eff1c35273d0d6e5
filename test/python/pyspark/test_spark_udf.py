"""Python UDFs as PySpark code writes them (issue 31): F.udf with a return
type, the @udf decorator, spark.udf.register for SQL; called per row with
None for NULL, as Spark calls them."""
import pytest

from conftest import rows
from lakestream.pyspark.errors import AnalysisException
from lakestream.pyspark.sql import functions as F
from lakestream.pyspark.sql.types import DoubleType, IntegerType, StringType


@pytest.fixture
def deals(spark):
    return spark.createDataFrame([(1, "gold", 120.0), (2, "silver", None), (3, None, 30.0)],
                                 ["id", "tier", "amount"])


def test_udf_in_with_column_select_and_filter(deals):
    band = F.udf(lambda amount: None if amount is None else ("big" if amount > 100 else "small"), StringType())
    doubled = F.udf(lambda x: x * 2 if x is not None else -1.0, DoubleType())
    got = deals.withColumn("band", band(F.col("amount"))).select("id", "band", doubled("amount").alias("d"))
    assert rows(got.orderBy("id")) == [(1, "big", 240.0), (2, None, -1.0), (3, "small", 60.0)]
    assert rows(deals.filter(band("amount") == "big").select("id")) == [(1,)]


def test_decorator_forms_and_default_string_return(deals):
    @F.udf(returnType=IntegerType())
    def tier_rank(tier):
        return {"gold": 1, "silver": 2}.get(tier, 9)

    @F.udf("int")
    def id_squared(i):
        return i * i

    @F.udf
    def describe(tier, amount):
        return f"{tier}:{amount}"

    got = deals.select("id", tier_rank("tier").alias("r"), id_squared("id").alias("sq"), describe("tier", "amount"))
    assert rows(got.orderBy("id")) == [(1, 1, 1, "gold:120.0"), (2, 2, 4, "silver:None"), (3, 9, 9, "None:30.0")]


def test_spark_udf_register_makes_it_callable_from_sql(spark, deals):
    deals.write.saveAsTable("deals")
    spark.udf.register("net", lambda amount: None if amount is None else amount * 0.8, DoubleType())
    assert rows(spark.sql("SELECT id, net(amount) AS n FROM deals ORDER BY id")) == [(1, 96.0), (2, None), (3, 24.0)]
    upper_udf = spark.udf.register("shout", F.udf(lambda s: s.upper() if s else s))
    assert rows(deals.select(upper_udf("tier").alias("t")).orderBy("t")) == [(None,), ("GOLD",), ("SILVER",)]


def test_a_failing_udf_names_the_python_error(deals):
    boom = F.udf(lambda x: 1 // 0, IntegerType())
    with pytest.raises(Exception, match="ZeroDivisionError"):
        deals.select(boom("id")).collect()


def test_java_udfs_are_refused_by_name(spark):
    with pytest.raises(AnalysisException, match="not supported yet"):
        spark.udf.registerJavaFunction("f", "com.example.F")


def test_pandas_udf_series_to_series(deals, spark):
    import pandas as pd

    @F.pandas_udf("double")
    def with_tax(amount: pd.Series) -> pd.Series:
        return amount * 1.25

    got = deals.select("id", with_tax(F.col("amount")).alias("taxed")).orderBy("id")
    assert rows(got) == [(1, 150.0), (2, None), (3, 37.5)]
    spark.udf.register("with_tax_sql", with_tax)
    assert spark.sql("SELECT with_tax_sql(CAST(8 AS DOUBLE))").collect()[0][0] == 10.0
    plain = F.pandas_udf(lambda s: s.str.len(), IntegerType())
    assert rows(deals.select("id", plain("tier").alias("n")).orderBy("id")) == [(1, 4), (2, 6), (3, None)]


def test_pandas_udf_kinds_not_supported_are_refused(deals):
    import pandas as pd
    with pytest.raises(AnalysisException, match="grouped-aggregate"):
        @F.pandas_udf("double")
        def mean_of(v: pd.Series) -> float:
            return v.mean()
    with pytest.raises(AnalysisException, match="functionType"):
        F.pandas_udf(lambda s: s, "double", F.PandasUDFType.GROUPED_MAP)
