// Child process of crash_test.py and the two-writer test: opens the database
// DB_DIR with the public API and runs the statements of OPS_FILE (one per
// line) in order. After each statement returns successfully it appends
// "committed <index>" to ACK_FILE with a single write(2) (so a SIGKILL can
// never leave half an acknowledgment). The first statement runs with index
// FIRST_INDEX. Exits 0 when all ran, 3 on the first error (reported on stderr
// and in ACK_FILE as "error <index> <message>").
#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

using namespace lakestream;

static void Append(int fd, const std::string& line) {
  std::string s = line + "\n";
  if (::write(fd, s.data(), s.size()) != static_cast<ssize_t>(s.size())) std::abort();
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: crash_writer DB_DIR OPS_FILE ACK_FILE [FIRST_INDEX]\n";
    return 2;
  }
  long first = argc > 4 ? std::atol(argv[4]) : 0;
  int ack = ::open(argv[3], O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (ack < 0) return 2;
  std::ifstream ops(argv[2]);
  Database db(argv[1]);
  Connection con(db);
  Append(ack, "opened");
  std::string sql;
  long index = first;
  while (std::getline(ops, sql)) {
    if (sql.empty()) continue;
    auto result = con.Query(sql);
    if (result->HasError()) {
      std::string msg = result->GetError();
      for (auto& c : msg) if (c == '\n') c = ' ';
      Append(ack, "error " + std::to_string(index) + " " + msg);
      std::cerr << "statement " << index << " failed: " << msg << "\n  " << sql << "\n";
      return 3;
    }
    Append(ack, "committed " + std::to_string(index));
    index++;
  }
  return 0;
}
