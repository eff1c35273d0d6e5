// lakestream side of bench/latency (see bench/latency/driver): end-to-end
// latency from a single-row INSERT to the message on the broker.
//
//   lakestream_bench_latency DB_DIR BOOTSTRAP LAKESTREAM_BIN OUT_DIR SINGLE_N RATE SECONDS
//
// In DB_DIR: table t (id BIGINT primary key, note VARCHAR; change feed on),
// an auto materialized view v over it, and a Kafka sink s on v (format
// upsert, key id) to topic `latency` of BOOTSTRAP; a plain table c (no view,
// no sink) for the commit baseline. A separate process
// `LAKESTREAM_BIN sink DB_DIR s --follow --interval 1` delivers; a consumer
// thread here (librdkafka, read_committed, fetch.wait.max.ms = 1) notes when
// each key arrives. Clocks: steady_clock of this process for both ends.
//
//   1. commit: SINGLE_N single-row INSERTs into c (the durable commit floor);
//   2. single: SINGLE_N single-row INSERTs into t, one at a time, each waiting
//      for its message; the commit series is interleaved with this one (one
//      INSERT into c before each, so both see the same machine state), with
//      20 ms pauses so the follower is idle when either commits;
//   3. rate: INSERTs into c paced at RATE per second for SECONDS / 4 (the
//      plain table's achieved rate: this machine state's ceiling), then into
//      t at RATE for SECONDS; then waits up to 60 s for every message;
//      counts distinct and duplicate keys.
// Writes OUT_DIR/{commit,insert,e2e,rate_e2e}.txt (seconds, one per line),
// OUT_DIR/single_times.txt (start, return and arrival of each single INSERT,
// steady_clock ns, and this process's pid: bench/latency/stages lines them
// up with the LAKESTREAM_DELIVERY_TRACE file the driver always sets, for
// the broker's acknowledgement of each INSERT's message, the follower's
// sink_acked)
// and prints "ok <rate sent> <rate delivered distinct> <duplicates>
// <achieved commits/s> <single delivered> <plain table achieved commits/s>".
#include <librdkafka/rdkafka.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

struct Arrivals {
  std::mutex mutex;
  std::unordered_map<int64_t, Clock::time_point> first;  // key -> first arrival
  int64_t duplicates = 0;
  int64_t total = 0;
};

void Consume(const std::string& bootstrap, Arrivals& arrivals, std::atomic<bool>& stop) {
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  auto set = [&](const char* k, const char* v) {
    if (rd_kafka_conf_set(conf, k, v, err, sizeof(err)) != RD_KAFKA_CONF_OK) std::fprintf(stderr, "%s: %s\n", k, err);
  };
  set("bootstrap.servers", bootstrap.c_str());
  set("group.id", "latency-bench");
  set("enable.auto.commit", "false");
  set("isolation.level", "read_committed");
  set("fetch.wait.max.ms", "1");
  set("fetch.error.backoff.ms", "5");
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof(err));
  if (!rk) {
    std::fprintf(stderr, "consumer: %s\n", err);
    return;
  }
  rd_kafka_poll_set_consumer(rk);
  rd_kafka_topic_partition_list_t* parts = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(parts, "latency", 0)->offset = RD_KAFKA_OFFSET_BEGINNING;
  rd_kafka_assign(rk, parts);
  rd_kafka_topic_partition_list_destroy(parts);
  while (!stop) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, 5);
    if (!m) continue;
    auto now = Clock::now();
    if (!m->err && m->key) {
      int64_t key = std::atoll(std::string(static_cast<const char*>(m->key), m->key_len).c_str());
      std::lock_guard<std::mutex> guard(arrivals.mutex);
      arrivals.total++;
      if (!arrivals.first.emplace(key, now).second) {
        arrivals.duplicates++;
        // Which delivery repeated: the lakestream.version header tells a
        // redelivered change from a broker-side repeat (same version).
        std::string version = "?";
        rd_kafka_headers_t* headers = nullptr;
        const void* value = nullptr;
        size_t size = 0;
        if (rd_kafka_message_headers(m, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR &&
            rd_kafka_header_get_last(headers, "lakestream.version", &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR) {
          version.assign(static_cast<const char*>(value), size);
        }
        std::fprintf(stderr, "duplicate: key %lld at offset %lld (version %s)\n", static_cast<long long>(key),
                     static_cast<long long>(m->offset), version.c_str());
      }
    }
    rd_kafka_message_destroy(m);
  }
  rd_kafka_consumer_close(rk);
  rd_kafka_destroy(rk);
}

void Must(lakestream::Connection& con, const std::string& sql) {
  auto r = con.Query(sql);
  if (r->HasError()) {
    std::fprintf(stderr, "%s: %s\n", sql.c_str(), r->GetError().c_str());
    std::exit(1);
  }
}

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

void Write(const std::string& path, const std::vector<double>& values) {
  std::ofstream out(path);
  for (double v : values) out << v << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: %s DB_DIR BOOTSTRAP LAKESTREAM_BIN OUT_DIR SINGLE_N RATE SECONDS\n", argv[0]);
    return 2;
  }
  std::string db_dir = argv[1], bootstrap = argv[2], bin = argv[3], out = argv[4];
  int single_n = std::atoi(argv[5]);
  double rate = std::atof(argv[6]), seconds = std::atof(argv[7]);

  lakestream::Database db(db_dir);
  lakestream::Connection con(db);
  Must(con, "CREATE TABLE t (id BIGINT, note VARCHAR, PRIMARY KEY (id)) TBLPROPERTIES ('change_tracking' = 'true')");
  Must(con, "CREATE MATERIALIZED VIEW v AS SELECT id, note FROM t");
  Must(con, "CREATE SINK s FROM v INTO KAFKA WITH ('bootstrap.servers' = '" + bootstrap +
                "', 'topic' = 'latency', 'format' = 'upsert', 'key' = 'id')");
  Must(con, "CREATE TABLE c (id BIGINT, note VARCHAR)");

  Arrivals arrivals;
  std::atomic<bool> stop{false};
  std::thread consumer([&] { Consume(bootstrap, arrivals, stop); });

  std::string log = out + "/follow.log";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> args = {bin, "sink", db_dir, "s", "--follow", "--interval", "1"};
  std::vector<char*> argp;
  for (auto& a : args) argp.push_back(a.data());
  argp.push_back(nullptr);
  pid_t follower = 0;
  if (posix_spawn(&follower, bin.c_str(), &actions, nullptr, argp.data(), environ) != 0) {
    std::fprintf(stderr, "cannot start %s\n", bin.c_str());
    return 1;
  }
  posix_spawn_file_actions_destroy(&actions);

  auto arrived = [&](int64_t key) -> std::optional<Clock::time_point> {
    std::lock_guard<std::mutex> guard(arrivals.mutex);
    auto it = arrivals.first.find(key);
    if (it == arrivals.first.end()) return std::nullopt;
    return it->second;
  };
  auto wait_for = [&](int64_t key, double limit) {
    auto until = Clock::now() + std::chrono::duration<double>(limit);
    while (Clock::now() < until) {
      if (auto t = arrived(key)) return t;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return arrived(key);
  };

  // Warm-up: the follower's first pass and the consumer's connection.
  Must(con, "INSERT INTO t VALUES (0, 'warm-up')");
  if (!wait_for(0, 30)) {
    std::fprintf(stderr, "the warm-up message never arrived (see %s)\n", log.c_str());
    kill(follower, SIGTERM);
    stop = true;
    consumer.join();
    return 1;
  }

  std::vector<double> commit, insert, e2e, rate_e2e;
  // Per single INSERT: start, return, arrival (steady_clock ns, the clock of
  // LAKESTREAM_DELIVERY_TRACE), for bench/latency/stages.
  std::ofstream times(out + "/single_times.txt");
  auto ns = [](Clock::time_point t) {
    return static_cast<long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
  };
  int single_delivered = 0;
  for (int i = 1; i <= single_n; i++) {
    // The pauses let the follower finish its pass (it takes the write lock
    // when it saves its position, at most once a second), so neither commit
    // waits for it.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto c0 = Clock::now();
    Must(con, "INSERT INTO c VALUES (" + std::to_string(i) + ", 'single')");
    commit.push_back(Seconds(Clock::now() - c0));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto t0 = Clock::now();
    Must(con, "INSERT INTO t VALUES (" + std::to_string(i) + ", 'single')");
    auto t1 = Clock::now();
    insert.push_back(Seconds(t1 - t0));
    if (auto t = wait_for(i, 10)) {
      e2e.push_back(Seconds(*t - t0));
      single_delivered++;
      times << ns(t0) << " " << ns(t1) << " " << ns(*t) << " " << getpid() << "\n";
    }
  }

  // Sustained rate: INSERTs paced at `rate` into `table` for `length` seconds
  // (each key noted with its start time); returns the achieved rate.
  auto paced = [&](const std::string& table, int64_t first_key, double length,
                   std::unordered_map<int64_t, Clock::time_point>* sent) {
    auto start = Clock::now();
    auto period = std::chrono::duration<double>(1.0 / rate);
    int64_t count = 0;
    while (Seconds(Clock::now() - start) < length) {
      auto due = start + std::chrono::duration_cast<Clock::duration>(period * count);
      std::this_thread::sleep_until(due);
      int64_t key = first_key + count;
      auto t0 = Clock::now();
      Must(con, "INSERT INTO " + table + " VALUES (" + std::to_string(key) + ", 'rate')");
      if (sent) (*sent)[key] = t0;
      count++;
    }
    return count / Seconds(Clock::now() - start);
  };
  // The ceiling of this machine state: the same pacing into the plain table
  // (a durable commit each, no view, no sink), a quarter of the time.
  double plain_achieved = paced("c", 2000000, std::max(2.0, seconds / 4), nullptr);
  std::unordered_map<int64_t, Clock::time_point> sent;
  double achieved = paced("t", 1000000, seconds, &sent);
  auto n = static_cast<int64_t>(sent.size());
  auto until = Clock::now() + std::chrono::seconds(60);
  int64_t delivered = 0;
  while (Clock::now() < until) {
    delivered = 0;
    for (auto& [key, t0] : sent) delivered += arrived(key) ? 1 : 0;
    if (delivered == n) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // late duplicates would show now
  for (auto& [key, t0] : sent) {
    if (auto t = arrived(key)) rate_e2e.push_back(Seconds(*t - t0));
  }
  kill(follower, SIGINT);
  int status = 0;
  waitpid(follower, &status, 0);
  stop = true;
  consumer.join();

  Write(out + "/commit.txt", commit);
  Write(out + "/insert.txt", insert);
  Write(out + "/e2e.txt", e2e);
  Write(out + "/rate_e2e.txt", rate_e2e);
  int64_t duplicates;
  {
    std::lock_guard<std::mutex> guard(arrivals.mutex);
    duplicates = arrivals.duplicates;
  }
  std::printf("ok %lld %lld %lld %.1f %d %.1f\n", static_cast<long long>(n), static_cast<long long>(rate_e2e.size()),
              static_cast<long long>(duplicates), achieved, single_delivered, plain_achieved);
  return 0;
}
