import os
import shutil
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "test", "kafka"))

from lakestream.pyspark.sql import SparkSession  # noqa: E402


def build_dir():
    shell = os.environ.get("LAKESTREAM_SHELL")
    return os.path.dirname(shell) if shell else os.path.join(ROOT, "build", "release")


def mock_kafka_binary():
    return os.environ.get("LAKESTREAM_MOCK_KAFKA") or os.path.join(build_dir(), "lakestream-mock-kafka")


@pytest.fixture
def spark(tmp_path):
    s = SparkSession.builder.config("lakestream.database", str(tmp_path / "lake")).getOrCreate()
    yield s
    s.stop()


@pytest.fixture
def broker():
    if not shutil.which("kcat") or not os.path.exists(mock_kafka_binary()):
        pytest.skip("kcat or lakestream-mock-kafka missing")
    from kafka_test_lib import MockBroker
    b = MockBroker(mock_kafka_binary(), [("gold", 1), ("agg", 1), ("complete", 1), ("events", 4), ("t", 1)])
    yield b
    b.stop()


def topic(broker, name):
    from kafka_test_lib import read_topic
    return read_topic(broker.bootstrap, name)


def rows(df):
    return sorted((tuple(r) for r in df.collect()), key=lambda t: tuple((v is not None, v) for v in t))
