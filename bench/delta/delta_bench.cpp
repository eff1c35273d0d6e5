// lakestream side of bench/delta (see docs/benchmarks.md and bench/delta/driver).
//
//   lakestream_bench_delta serve DB_DIR     the bench line protocol of
//       bench/lib/bench_server.hpp over the persistent database DB_DIR, plus
//         commits <n> <table> <latency-file>
//       which runs n single-row INSERT statements into <table> (each its own
//       Delta commit), appends each one's latency in seconds to <latency-file>
//       and replies "ok <seconds for all n> <rows> <checksum>", the checksum of
//       SELECT COUNT(*), SUM(a) FROM <table> (untimed, after the commits).
//       and
//         updates <n> <table> <latency-file>
//       the same with single-row UPDATEs of a gold-style table of 1,000 keys
//       in 10 files (created with them when missing): every commit rewrites
//       one data file, so the table keeps its size while its log grows;
//       the checksum is of SELECT COUNT(*), SUM(total).
//   lakestream_bench_delta commitrun DB_DIR <table> <n>
//       opens DB_DIR, runs n single-row INSERTs into <table> (created when
//       missing) and exits: the process bench/delta/driver runs under strace to
//       count fsyncs per commit.
//   lakestream_bench_delta writers DB_DIR <table> <n> <threads>
//       opens DB_DIR once, creates <table> when missing, then <threads>
//       connections (one thread each) run n single-row INSERTs between them
//       (n / threads each), concurrently, and prints
//       "ok <seconds> <commits per second> <p50 latency s> <p99 latency s>":
//       the group commit series (commits of concurrent statements share
//       their _delta_log/ fsync); bench/delta/driver runs it under strace too.
//   lakestream_bench_delta open DB_DIR <table> [SQL]
//       times opening DB_DIR and the first query SELECT COUNT(*) FROM <table>
//       (or SQL, with {T} standing for the table; Database construction +
//       Connection + query, in a fresh process) and prints
//       "ok <seconds> <rows> <checksum>".
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_server.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

const char* kCreate =
    "CREATE TABLE IF NOT EXISTS {T} (a BIGINT, b DOUBLE, s VARCHAR, d DATE) "
    "TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')";

std::string WithTable(std::string sql, const std::string& table) {
  for (size_t p; (p = sql.find("{T}")) != std::string::npos;) sql.replace(p, 3, table);
  return sql;
}

// One single-row INSERT: row i of the same shape as the bulk data.
std::string InsertRow(const std::string& table, long long i) {
  char buf[256];
  std::snprintf(buf, sizeof(buf), "INSERT INTO %s VALUES (%lld, %lld.5, 'user_%011lld', DATE '2000-01-01')",
                table.c_str(), i, i / 2, (i * 7919) % 10000000);
  return buf;
}

// Runs n single-row commits; returns the error, or "" when all succeeded.
std::string Commits(lakestream::Connection& con, const std::string& table, long long n, std::ostream* latencies,
                    double* total) {
  auto created = con.Query(WithTable(kCreate, table));
  if (created->HasError()) return created->GetError();
  auto count = con.Query("SELECT COUNT(*) FROM " + table);
  if (count->HasError()) return count->GetError();
  long long base = count->GetValue(0, 0).AsBigint();
  auto start = Clock::now();
  for (long long k = 0; k < n; k++) {
    auto t0 = Clock::now();
    auto r = con.Query(InsertRow(table, base + k));
    double s = Since(t0);
    if (r->HasError()) return "commit " + std::to_string(base + k) + ": " + r->GetError();
    if (latencies) *latencies << s << '\n';
  }
  if (total) *total = Since(start);
  return "";
}

const char* kCreateGold =
    "CREATE TABLE IF NOT EXISTS {T} (k BIGINT, total BIGINT) "
    "TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')";
constexpr long long kGoldKeys = 1000, kGoldFiles = 10;

// Runs n single-row UPDATE commits on the gold table (creating and filling
// it first when empty); returns the error, or "" when all succeeded.
std::string Updates(lakestream::Connection& con, const std::string& table, long long n, std::ostream* latencies,
                    double* total) {
  auto created = con.Query(WithTable(kCreateGold, table));
  if (created->HasError()) return created->GetError();
  auto count = con.Query(WithTable("SELECT COUNT(*), COALESCE(SUM(total), 0) FROM {T}", table));
  if (count->HasError()) return count->GetError();
  long long rows = count->GetValue(0, 0).AsBigint();
  long long done = count->GetValue(1, 0).AsBigint();  // every UPDATE adds 1 to one total
  if (rows == 0) {
    for (long long f = 0; f < kGoldFiles; f++) {  // one INSERT, hence one data file, per key range
      long long per = kGoldKeys / kGoldFiles;
      auto r = con.Query(WithTable("INSERT INTO {T} SELECT range + " + std::to_string(f * per) +
                                       ", 0 FROM range(" + std::to_string(per) + ")",
                                   table));
      if (r->HasError()) return r->GetError();
    }
  }
  auto start = Clock::now();
  for (long long i = 0; i < n; i++) {
    auto t0 = Clock::now();
    auto r = con.Query(WithTable("UPDATE {T} SET total = total + 1 WHERE k = " +
                                     std::to_string((done + i) * 7919 % kGoldKeys),
                                 table));
    double s = Since(t0);
    if (r->HasError()) return "update " + std::to_string(done + i) + ": " + r->GetError();
    if (latencies) *latencies << s << '\n';
  }
  if (total) *total = Since(start);
  return "";
}

// The `writers` mode (see the top of this file): "" or the first error.
std::string Writers(const std::string& db_dir, const std::string& table, long long n, int threads) {
  lakestream::Database db(db_dir);
  {
    lakestream::Connection con(db);
    auto created = con.Query(WithTable(kCreate, table));
    if (created->HasError()) return created->GetError();
  }
  std::vector<std::string> errors(threads);
  std::vector<std::vector<double>> latencies(threads);
  auto start = Clock::now();
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; t++) {
    workers.emplace_back([&, t] {
      lakestream::Connection con(db);
      for (long long k = t; k < n; k += threads) {
        auto t0 = Clock::now();
        auto r = con.Query(InsertRow(table, 1000000000LL + k));
        latencies[t].push_back(Since(t0));
        if (r->HasError()) {
          errors[t] = r->GetError();
          return;
        }
      }
    });
  }
  for (auto& w : workers) w.join();
  double seconds = Since(start);
  for (auto& e : errors)
    if (!e.empty()) return e;
  std::vector<double> all;
  for (auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  std::sort(all.begin(), all.end());
  auto pct = [&](double q) { return all.empty() ? 0.0 : all[std::min(all.size() - 1, static_cast<size_t>(q * all.size()))]; };
  std::printf("ok %.6f %.1f %.6f %.6f\n", seconds, static_cast<double>(n) / seconds, pct(0.5), pct(0.99));
  return "";
}

// The commits / updates commands of `serve` (see the top of this file).
bool CommitCommands(lakestream::Connection& con, const std::string& cmd, std::istringstream& in) {
  if (cmd != "commits" && cmd != "updates") return false;
  long long n = 0;
  std::string table, path;
  in >> n >> table >> path;
  std::ofstream lat(path, std::ios::app);
  double total = 0;
  std::string err = cmd == "commits" ? Commits(con, table, n, &lat, &total) : Updates(con, table, n, &lat, &total);
  if (!err.empty()) {
    std::cout << "error " << lakestream_bench::OneLine(err) << std::endl;
    return true;
  }
  lat.flush();
  auto check = con.Query(std::string(cmd == "commits" ? "SELECT COUNT(*), SUM(a) FROM " : "SELECT COUNT(*), SUM(total) FROM ") + table);
  if (check->HasError()) {
    std::cout << "error " << lakestream_bench::OneLine(check->GetError()) << std::endl;
    return true;
  }
  std::cout << "ok " << total << " " << check->RowCount() << " " << lakestream_bench::Checksum(*check) << std::endl;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "serve" && argc == 3) return lakestream_bench::Serve({}, argv[2], CommitCommands);
    if (mode == "commitrun" && argc == 5) {
      lakestream::Database db(argv[2]);
      lakestream::Connection con(db);
      std::string err = Commits(con, argv[3], std::atoll(argv[4]), nullptr, nullptr);
      if (!err.empty()) return std::fprintf(stderr, "%s\n", err.c_str()), 1;
      return 0;
    }
    if (mode == "writers" && argc == 6) {
      std::string err = Writers(argv[2], argv[3], std::atoll(argv[4]), std::max(1, std::atoi(argv[5])));
      if (!err.empty()) return std::fprintf(stderr, "%s\n", err.c_str()), 1;
      return 0;
    }
    if (mode == "open" && (argc == 4 || argc == 5)) {
      std::string sql = argc == 5 ? WithTable(argv[4], argv[3]) : std::string("SELECT COUNT(*) FROM ") + argv[3];
      auto start = Clock::now();
      lakestream::Database db(argv[2]);
      lakestream::Connection con(db);
      auto r = con.Query(sql);
      double seconds = Since(start);
      if (r->HasError()) return std::printf("error %s\n", lakestream_bench::OneLine(r->GetError()).c_str()), 1;
      std::printf("ok %.9f %llu %s\n", seconds, static_cast<unsigned long long>(r->RowCount()),
                  lakestream_bench::Checksum(*r).c_str());
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error %s\n", e.what());
    std::printf("error %s\n", lakestream_bench::OneLine(e.what()).c_str());
    return 1;
  }
  std::fprintf(stderr, "usage: %s serve DB_DIR | commitrun DB_DIR TABLE N | writers DB_DIR TABLE N THREADS | open DB_DIR TABLE [SQL]\n", argv[0]);
  return 2;
}
