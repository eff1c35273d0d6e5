// One client connection of `lakestream serve` (docs/server.md): startup and
// authentication, the simple and extended query protocols, cancel requests.
// Each session has its own lakestream Connection; the Database is shared.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "pg_auth.hpp"
#include "pg_catalog.hpp"
#include "pg_tls.hpp"
#include "pg_wire.hpp"

namespace lakestream::pg {

// The database directory opened a second time, read-only (as another
// process would), for the sessions of read-only users: they see every commit
// and can make none. Opened at the first such login.
class ReadOnlyDatabase {
 public:
  ReadOnlyDatabase(std::string path, DatabaseOptions options) : path_(std::move(path)), options_(std::move(options)) {}
  // nullptr with *error when it cannot be opened (an in-memory database
  // cannot be opened twice).
  Database* Get(std::string* error);

 private:
  std::mutex mutex_;
  std::string path_;
  DatabaseOptions options_;
  std::unique_ptr<Database> database_;
};

struct ServerOptions {
  // user -> SCRAM verifier (pg_auth.hpp), from --password-file. Users are
  // also the database's own (CREATE USER, lakestream/tools.hpp), looked up at
  // each login; a name in both logs in with the file's password.
  std::map<std::string, ScramVerifier> users;
  // Every client logs in, even while neither the file nor the database
  // names a user (a server reachable from other machines).
  bool login_required = false;
  bool read_only = false;  // the whole server
  // Users whose sessions only read (--readonly-user; the database's READ
  // ONLY users too): their connections are on `read_only_database`, so
  // every write fails as on a read-only server (25006).
  std::set<std::string> read_only_users;
  ReadOnlyDatabase* read_only_database = nullptr;
  // Set: SSLRequest is answered 'S' and the session goes on over TLS;
  // `tls_required` refuses sessions that did not ask for it.
  const TlsContext* tls = nullptr;
  bool tls_required = false;
};

// The running sessions by process id, for CancelRequest (which arrives on a
// new connection carrying the process id and secret of BackendKeyData).
class CancelRegistry {
 public:
  // A fresh (process id, secret) for `connection`; a cancel interrupts it
  // and sets *cancelled.
  std::pair<int32_t, int32_t> Register(Connection* connection, std::atomic<bool>* cancelled);
  void Unregister(int32_t pid);
  // Interrupts the session's running statement when the secret matches;
  // a wrong or stale key does nothing (as in Postgres, no answer either way).
  void Cancel(int32_t pid, int32_t secret);

 private:
  std::mutex mutex_;
  int32_t next_pid_ = 1000;
  struct Entry {
    int32_t secret;
    Connection* connection;
    std::atomic<bool>* cancelled;
  };
  std::map<int32_t, Entry> sessions_;
};

// Serves one accepted socket until the client leaves; closes `fd`.
void ServeConnection(Database& db, const ServerOptions& options, CancelRegistry& registry, int fd);

}  // namespace lakestream::pg
