#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
/* The local broker re-appends a retried produce request (docs/sinks.md,
   "lakestream-mock-kafka"): this shows it with librdkafka's own idempotent
   producer, no lakestream involved. Built and run by mock_retry_probe.py.
   usage: mock_retry_probe BOOTSTRAP N MOCKPID: produces 0..N-1 idempotently to
   t:0, taking the brokers down (SIGUSR1) and up (SIGUSR2) every 40000. */
static long failed = 0;
static void dr(rd_kafka_t *rk, const rd_kafka_message_t *m, void *o) { if (m->err) failed++; }
int main(int argc, char **argv) {
  char err[512];
  rd_kafka_conf_t *c = rd_kafka_conf_new();
  rd_kafka_conf_set(c, "bootstrap.servers", argv[1], err, sizeof err);
  rd_kafka_conf_set(c, "enable.idempotence", "true", err, sizeof err);
  rd_kafka_conf_set(c, "batch.num.messages", "100", err, sizeof err);
  rd_kafka_conf_set(c, "linger.ms", "5", err, sizeof err);
  rd_kafka_conf_set(c, "log_level", "0", err, sizeof err);
  rd_kafka_conf_set_dr_msg_cb(c, dr);
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, c, err, sizeof err);
  long n = atol(argv[2]); pid_t mock = atoi(argv[3]);
  for (long i = 0; i < n; i++) {
    char buf[32]; int len = snprintf(buf, sizeof buf, "%ld", i);
    while (rd_kafka_producev(rk, RD_KAFKA_V_TOPIC("t"), RD_KAFKA_V_PARTITION(0), RD_KAFKA_V_VALUE(buf, len),
                             RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END) == RD_KAFKA_RESP_ERR__QUEUE_FULL)
      rd_kafka_poll(rk, 10);
    if (i % 1000 == 0) rd_kafka_poll(rk, 0);
    if (i % 40000 == 20000) { kill(mock, SIGUSR1); usleep(300000); kill(mock, SIGUSR2); }
  }
  while (rd_kafka_outq_len(rk) > 0) rd_kafka_flush(rk, 1000);
  fprintf(stderr, "failed deliveries %ld\n", failed);
  rd_kafka_destroy(rk);
  return 0;
}
