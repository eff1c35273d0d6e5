// lakestream-mock-kafka: runs librdkafka's in-process mock cluster
// (rdkafka_mock.h) on loopback so tests and the demo have a Kafka broker
// without a JVM. Real clients (kcat, lakestream) talk to it over TCP.
//
//   lakestream-mock-kafka [--brokers N] [--topic NAME:PARTITIONS]... [--bootstrap-file PATH]
//
// Prints "bootstrap=HOST:PORT[,...]" on stdout (and writes the bare address to
// --bootstrap-file, atomically, once the cluster listens), then runs until
// SIGINT/SIGTERM. Outages for tests: SIGUSR1 takes every broker down (open
// connections are closed, new ones refused), SIGUSR2 brings them back.
//
// What it lacks compared with Apache Kafka (see docs/sinks.md): data lives in
// memory only and is gone when it stops; a retried produce request is
// appended again (no idempotent sequence check); aborted transactional messages stay
// visible even to read_committed consumers; no ACLs, SASL or TLS; no log
// compaction; topics that clients ask for are created on demand with the
// default partition count unless created up front with --topic.
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::atomic<int> g_stop{0};
std::atomic<int> g_down_requests{0};
std::atomic<int> g_up_requests{0};

void OnStop(int) { g_stop = 1; }
void OnDown(int) { g_down_requests++; }
void OnUp(int) { g_up_requests++; }

int Usage() {
  std::fprintf(stderr,
               "usage: lakestream-mock-kafka [--brokers N] [--topic NAME:PARTITIONS]... [--bootstrap-file PATH]\n"
               "  SIGUSR1 takes the brokers down, SIGUSR2 brings them back, SIGTERM/SIGINT stop.\n");
  return 2;
}

bool WriteFileAtomically(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) return false;
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok = std::fclose(f) == 0 && ok;
  return ok && std::rename(tmp.c_str(), path.c_str()) == 0;
}

void SetAllBrokers(rd_kafka_mock_cluster_t* cluster, int brokers, bool up) {
  // Mock broker ids are 1..N.
  for (int id = 1; id <= brokers; id++) {
    if (up) {
      rd_kafka_mock_broker_set_up(cluster, id);
    } else {
      rd_kafka_mock_broker_set_down(cluster, id);
    }
  }
  std::fprintf(stdout, "brokers %s\n", up ? "up" : "down");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  int brokers = 1;
  std::string bootstrap_file;
  std::vector<std::pair<std::string, int>> topics;
  for (int i = 1; i < argc; i++) {
    std::string arg = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--brokers") {
      const char* v = next();
      if (!v || (brokers = std::atoi(v)) < 1) return Usage();
    } else if (arg == "--topic") {
      const char* v = next();
      if (!v) return Usage();
      std::string spec = v;
      auto colon = spec.rfind(':');
      int partitions = colon == std::string::npos ? 1 : std::atoi(spec.c_str() + colon + 1);
      std::string name = spec.substr(0, colon);
      if (name.empty() || partitions < 1) return Usage();
      topics.emplace_back(name, partitions);
    } else if (arg == "--bootstrap-file") {
      const char* v = next();
      if (!v) return Usage();
      bootstrap_file = v;
    } else if (arg == "-h" || arg == "--help") {
      Usage();
      return 0;
    } else {
      std::fprintf(stderr, "lakestream-mock-kafka: unknown argument %s\n", arg.c_str());
      return Usage();
    }
  }

  // The mock cluster needs a client handle to live in; a producer is the
  // lightest one. Its own logs stay quiet unless something is wrong.
  char errstr[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "log_level", "3", errstr, sizeof(errstr));
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
  if (!rk) {
    std::fprintf(stderr, "lakestream-mock-kafka: cannot create the client handle: %s\n", errstr);
    return 1;
  }
  rd_kafka_mock_cluster_t* cluster = rd_kafka_mock_cluster_new(rk, brokers);
  if (!cluster) {
    std::fprintf(stderr, "lakestream-mock-kafka: cannot start the mock cluster\n");
    rd_kafka_destroy(rk);
    return 1;
  }
  for (auto& [name, partitions] : topics) {
    rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(cluster, name.c_str(), partitions, brokers < 3 ? brokers : 3);
    if (err) {
      std::fprintf(stderr, "lakestream-mock-kafka: cannot create topic %s: %s\n", name.c_str(), rd_kafka_err2str(err));
      return 1;
    }
  }
  std::string bootstraps = rd_kafka_mock_cluster_bootstraps(cluster);

  struct sigaction sa {};
  sa.sa_handler = OnStop;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sa.sa_handler = OnDown;
  sigaction(SIGUSR1, &sa, nullptr);
  sa.sa_handler = OnUp;
  sigaction(SIGUSR2, &sa, nullptr);

  std::fprintf(stdout, "bootstrap=%s\n", bootstraps.c_str());
  std::fflush(stdout);
  if (!bootstrap_file.empty() && !WriteFileAtomically(bootstrap_file, bootstraps + "\n")) {
    std::fprintf(stderr, "lakestream-mock-kafka: cannot write %s: %s\n", bootstrap_file.c_str(), std::strerror(errno));
    return 1;
  }

  // The cluster runs on its own threads; this one only turns signals (which
  // must not call into librdkafka from a handler) into broker state changes.
  int downs_seen = 0, ups_seen = 0;
  while (!g_stop) {
    usleep(20 * 1000);
    int downs = g_down_requests, ups = g_up_requests;
    if (downs != downs_seen) {
      downs_seen = downs;
      SetAllBrokers(cluster, brokers, false);
    }
    if (ups != ups_seen) {
      ups_seen = ups;
      SetAllBrokers(cluster, brokers, true);
    }
  }
  rd_kafka_mock_cluster_destroy(cluster);
  rd_kafka_destroy(rk);
  return 0;
}
