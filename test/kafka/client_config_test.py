#!/usr/bin/env python3
"""Kafka client settings as users write them (issue 31), against a
lakestream-mock-kafka broker, topics read back with kcat:
  * Java's `kafka.sasl.jaas.config` (the Databricks notebook line, with the
    `kafkashaded.` prefix and single quotes) is accepted by CREATE SINK and
    read_kafka and mapped onto librdkafka's sasl.* properties; the password
    shows up in no output, SHOW SINKS included; bad lines are refused by name;
  * 'create_topic' = 'true' sends Kafka's CreateTopics for a missing topic
    (the mock cluster cannot create one, so its refusal must be named) and
    uses an existing topic as it is; without it the error names the option.
The mock broker speaks no SASL, so the sinks use security.protocol PLAINTEXT:
what is checked is that the line reaches librdkafka as properties it takes.

Usage: client_config_test.py LAKESTREAM MOCK_KAFKA"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kafka_test_lib import Checker, MockBroker, Shell, read_topic  # noqa: E402

PASSWORD = "Pw-7f3e-secret"
JAAS = ("kafkashaded.org.apache.kafka.common.security.plain.PlainLoginModule required username='{}' "
        "password='{}';").format("API_KEY", PASSWORD)


def lit(text):
    """`text` as a SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def main():
    lakestream, mock = sys.argv[1], sys.argv[2]
    check = Checker()
    broker = MockBroker(mock, [("t_jaas", 1)])
    tmp = tempfile.mkdtemp(prefix="sink-client-config-")
    try:
        sh = Shell(lakestream, os.path.join(tmp, "db"))
        bs = broker.bootstrap
        sh.run("CREATE TABLE gold (category STRING, n BIGINT) TBLPROPERTIES ('change_tracking' = 'true')")
        p = sh.run("CREATE SINK s_jaas FROM gold INTO KAFKA WITH ('kafka.bootstrap.servers' = '%s', 'topic' = 't_jaas', "
                   "'kafka.security.protocol' = 'PLAINTEXT', 'kafka.sasl.mechanism' = 'PLAIN', "
                   "'kafka.sasl.jaas.config' = %s, 'start' = 'earliest')" % (bs, lit(JAAS)), check=False)
        check.true("CREATE SINK takes the Databricks sasl.jaas.config line", p.returncode == 0, p.stderr.decode())
        sh.run("INSERT INTO gold VALUES ('books', 3), ('games', 5)")
        check.eq("RUN SINK delivers through the mapped client settings", sh.rows("RUN SINK s_jaas"), [["2", "0", "1"]])
        check.eq("kcat reads both rows back", sorted(m["value"].count("books") + m["value"].count("games")
                                                       for m in read_topic(bs, "t_jaas")), [1, 1])
        shown = sh.run("SHOW SINKS").stdout.decode() + sh.run("SHOW SECRETS").stdout.decode()
        check.true("the password appears in neither SHOW SINKS nor SHOW SECRETS", PASSWORD not in shown, shown)

        scram = lit(JAAS.replace("plain.PlainLoginModule", "scram.ScramLoginModule"))
        p = sh.run("CREATE SINK s_scram FROM gold INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 't_jaas', "
                   "'sasl.jaas.config' = %s)" % (bs, scram), check=False)
        err = p.stderr.decode()
        check.true("a SCRAM line without its mechanism is refused, naming the fix and not the password",
                   p.returncode != 0 and "needs sasl.mechanism = SCRAM-SHA-256 or SCRAM-SHA-512" in err and
                   PASSWORD not in err, err)
        p = sh.run("CREATE SINK s_bad FROM gold INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 't_jaas', "
                   "'kafka.sasl.jaas.config' = 'org.apache.kafka.common.security.plain.PlainLoginModule required "
                   "username=\"u\" password=\"%s\"')" % (bs, PASSWORD), check=False)
        err = p.stderr.decode()
        check.true("a line without its closing ';' is refused by name, without the password",
                   p.returncode != 0 and "sasl.jaas.config: the line must end with ';'" in err and PASSWORD not in err, err)

        rows = sh.rows("SELECT count(*) FROM read_kafka('%s', 't_jaas', \"security.protocol\" => 'PLAINTEXT', "
                       "\"sasl.jaas.config\" => %s)" % (bs, lit(JAAS)))
        check.eq("read_kafka takes the same line", rows, [["2"]])

        # create_topic
        p = sh.run("CREATE SINK s_missing FROM gold INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 't_new')" % bs,
                   check=False)
        err = p.stderr.decode()
        check.true("a missing topic names 'create_topic' as a way out",
                   p.returncode != 0 and "topic t_new does not exist" in err and "'create_topic' = 'true'" in err, err)
        p = sh.run("CREATE SINK s_parts FROM gold INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 't_new', "
                   "'topic.partitions' = '3')" % bs, check=False)
        check.true("'topic.partitions' without 'create_topic' is refused",
                   p.returncode != 0 and "applies only with 'create_topic' = 'true'" in p.stderr.decode(), p.stderr.decode())
        # librdkafka's mock cluster answers no CreateTopics request (no controller), so what is checked here is
        # that the request is made and its failure named; against a real cluster the same call creates the topic.
        p = sh.run("CREATE SINK s_new FROM gold INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 't_new', "
                   "'create_topic' = 'true', 'topic.partitions' = '3', 'topic.replication.factor' = '1', "
                   "'start' = 'earliest')" % bs, check=False)
        err = p.stderr.decode()
        check.true("'create_topic' asks the broker to create the topic and names its answer",
                   p.returncode != 0 and "Sink s_new: creating topic t_new on " + bs + " failed" in err, err)
        check.true("the failed CREATE SINK left no sink", "s_new" not in sh.run("SHOW SINKS").stdout.decode())
        p = sh.run("CREATE SINK s_again FROM gold INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 't_jaas', "
                   "'create_topic' = 'true', 'topic.partitions' = '3')" % bs, check=False)
        check.true("'create_topic' on an existing topic uses it as it is", p.returncode == 0, p.stderr.decode())
        p = sh.run("CREATE SINK s_zero FROM gold INTO KAFKA WITH ('bootstrap.servers' = '%s', 'topic' = 't_zero', "
                   "'create_topic' = 'true', 'topic.partitions' = '0')" % bs, check=False)
        check.true("'topic.partitions' = 0 is refused, naming the allowed values",
                   p.returncode != 0 and "option 'topic.partitions' must be a whole number, at least 1, not '0'"
                   in p.stderr.decode(), p.stderr.decode())
    finally:
        broker.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    check.exit()


if __name__ == "__main__":
    main()
