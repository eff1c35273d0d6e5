// `lakestream serve [DB_DIR] [--listen HOST:PORT] [--readonly] [--password-file FILE]
//                  [--readonly-user NAME]... [--tls-cert FILE --tls-key FILE [--tls-required]] [--safe]`,
// and `lakestream serve --scram-verifier`:
// serves the database over the PostgreSQL wire protocol (docs/server.md),
// one thread per client connection, until SIGINT/SIGTERM.
//
// Prints "lakestream serve: listening on HOST:PORT" to stderr once the
// socket listens (with the real port when PORT is 0), so scripts can wait
// for it. Exit codes: 0 stopped by a signal; 1 the database or the socket
// could not be opened; 2 bad command line. `--scram-verifier` reads a
// password line from stdin and prints its SCRAM-SHA-256 verifier for a
// password file (pg_auth.hpp).
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>

#include "lakestream/connection.hpp"
#include "lakestream/database.hpp"
#include "lakestream/tools.hpp"
#include "pg_session.hpp"
#include "subcommands.hpp"

namespace lakestream {

namespace {

std::atomic<bool> g_stop{false};
void OnSignal(int) { g_stop = true; }

int Usage(const std::string& problem) {
  if (!problem.empty()) std::fprintf(stderr, "lakestream serve: %s\n", problem.c_str());
  std::fprintf(stderr,
               "usage: lakestream serve [DB_DIR] [--listen HOST:PORT] [--readonly] [--password-file FILE]\n"
               "                        [--readonly-user NAME]... [--tls-cert FILE --tls-key FILE [--tls-required]] [--safe]\n"
               "       lakestream serve --scram-verifier < password\n"
               "  serves DB_DIR (in memory when omitted) to PostgreSQL clients (psql, psycopg, JDBC);\n"
               "  --listen defaults to 127.0.0.1:5433; --password-file holds USER:PASSWORD (or\n"
               "  USER:SCRAM-SHA-256$...) lines and makes every client log in with one of them by SCRAM-SHA-256;\n"
               "  so do the database's own users (CREATE USER name PASSWORD '...' [READ ONLY]); one of the two\n"
               "  is required when HOST is not a loopback address; a --readonly-user's sessions only read;\n"
               "  --tls-cert/--tls-key (PEM) let clients use TLS (sslmode=require), --tls-required makes them\n");
  return 2;
}

bool IsLoopback(const sockaddr_storage& addr) {
  if (addr.ss_family == AF_INET) {
    auto* a = reinterpret_cast<const sockaddr_in*>(&addr);
    return (ntohl(a->sin_addr.s_addr) >> 24) == 127;
  }
  if (addr.ss_family == AF_INET6) {
    auto* a = reinterpret_cast<const sockaddr_in6*>(&addr);
    return IN6_IS_ADDR_LOOPBACK(&a->sin6_addr);
  }
  return false;
}

}  // namespace

int RunServeCommand(int argc, char** argv) {
  std::string db_path;
  std::string listen = "127.0.0.1:5433";
  std::string password_file;
  std::string tls_cert;
  std::string tls_key;
  DatabaseOptions db_options;
  pg::ServerOptions options;
  for (int i = 2; i < argc; i++) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        Usage(arg + " needs a value");
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--listen") {
      listen = value();
    } else if (arg == "--readonly" || arg == "-readonly") {
      db_options.read_only = true;
    } else if (arg == "--safe" || arg == "-safe") {
      db_options.enable_external_access = false;
    } else if (arg == "--password-file") {
      password_file = value();
    } else if (arg == "--tls-cert") {
      tls_cert = value();
    } else if (arg == "--tls-key") {
      tls_key = value();
    } else if (arg == "--tls-required") {
      options.tls_required = true;
    } else if (arg == "--readonly-user") {
      std::string names = value();
      for (size_t start = 0, comma = 0; comma != std::string::npos; start = comma + 1) {
        comma = names.find(',', start);
        std::string name = names.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!name.empty()) options.read_only_users.insert(name);
      }
    } else if (arg == "--scram-verifier") {
      std::string password;
      if (!std::getline(std::cin, password) || password.empty()) return Usage("--scram-verifier reads a password line from stdin");
      std::printf("%s\n", pg::FormatScramVerifier(pg::MakeScramVerifier(password)).c_str());
      return 0;
    } else if (arg == "--user") {
      return Usage("not supported yet: --user NAME:SECRET (a secret's value cannot be read back by design, "
                   "docs/secrets.md); put USER:PASSWORD lines in a --password-file (mode 0600)");
    } else if (arg == "--help" || arg == "-h") {
      Usage("");
      return 0;
    } else if (!arg.empty() && arg[0] == '-') {
      return Usage("unknown option " + arg);
    } else if (db_path.empty()) {
      db_path = arg;
    } else {
      return Usage("more than one database directory");
    }
  }
  auto colon = listen.rfind(':');
  if (colon == std::string::npos) return Usage("--listen wants HOST:PORT, got " + listen);
  std::string host = listen.substr(0, colon);
  std::string port = listen.substr(colon + 1);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (!password_file.empty()) {
    std::string error;
    if (!pg::ReadPasswordFile(password_file, &options.users, &error)) {
      std::fprintf(stderr, "lakestream serve: %s\n", error.c_str());
      return 1;
    }
  }
  options.read_only = db_options.read_only;
  if (tls_cert.empty() != tls_key.empty()) return Usage("--tls-cert and --tls-key go together");
  if (options.tls_required && tls_cert.empty()) return Usage("--tls-required needs --tls-cert and --tls-key");
  std::unique_ptr<pg::TlsContext> tls;
  if (!tls_cert.empty()) {
    std::string error;
    tls = pg::TlsContext::Load(tls_cert, tls_key, &error);
    if (!tls) {
      std::fprintf(stderr, "lakestream serve: %s\n", error.c_str());
      return 1;
    }
    options.tls = tls.get();
  }

  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  int rc = getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &found);
  if (rc != 0) return Usage("cannot resolve --listen " + listen + ": " + gai_strerror(rc));
  sockaddr_storage addr{};
  socklen_t addr_len = found->ai_addrlen;
  std::memcpy(&addr, found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);
  std::unique_ptr<Database> db;
  bool database_has_users = false;
  try {
    db = std::make_unique<Database>(db_path, db_options);
    Connection connection(*db);
    database_has_users = HasServerUsers(connection);
  } catch (std::exception& e) {
    std::fprintf(stderr, "lakestream serve: %s\n", e.what());
    return 1;
  }
  bool have_users = !options.users.empty() || database_has_users;
  // Off loopback, logins stay required even if every user is dropped later.
  options.login_required = !IsLoopback(addr);
  if (options.login_required && !have_users) {
    return Usage("--listen " + listen +
                 " is reachable from other machines; give --password-file, or CREATE USER in the database, so "
                 "that clients must log in");
  }
  if (!options.read_only_users.empty() && !have_users) {
    return Usage("--readonly-user needs --password-file or users in the database (CREATE USER): without logins "
                 "any client could name another user");
  }
  if (!options.read_only_users.empty() && db_path.empty()) {
    return Usage("--readonly-user needs a database directory (an in-memory database cannot be opened twice)");
  }
  // Read-only users' sessions run on a second, read-only open of the directory, made at the first such login.
  pg::ReadOnlyDatabase read_only_db(db_path, db_options);
  options.read_only_database = &read_only_db;

  int fd = ::socket(addr.ss_family, SOCK_STREAM, 0);
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), addr_len) != 0 || ::listen(fd, 64) != 0) {
    std::fprintf(stderr, "lakestream serve: cannot listen on %s: %s\n", listen.c_str(), std::strerror(errno));
    return 1;
  }
  sockaddr_storage bound{};
  socklen_t bound_len = sizeof(bound);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &bound_len);
  int bound_port = ntohs(bound.ss_family == AF_INET ? reinterpret_cast<sockaddr_in*>(&bound)->sin_port
                                                    : reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port);
  std::fprintf(stderr, "lakestream serve: listening on %s:%d%s%s (%s)\n", host.c_str(), bound_port,
               db_options.read_only ? ", read-only" : "", tls ? (options.tls_required ? ", TLS only" : ", TLS") : "",
               db_path.empty() ? "in-memory database" : db_path.c_str());
  std::fflush(stderr);

  struct sigaction action{};
  action.sa_handler = OnSignal;  // no SA_RESTART: poll() returns on the signal
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  pg::CancelRegistry registry;
  std::atomic<int> active{0};
  while (!g_stop) {
    pollfd pfd{fd, POLLIN, 0};
    if (::poll(&pfd, 1, 500) <= 0) continue;
    int client = ::accept(fd, nullptr, nullptr);
    if (client < 0) continue;
    ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    active++;
    std::thread([&db, &options, &registry, &active, client] {
      pg::ServeConnection(*db, options, registry, client);
      active--;
    }).detach();
  }
  ::close(fd);
  // Sessions still connected are cut off: the process ends, and every
  // statement's commit is atomic, so nothing is left half-written.
  std::fprintf(stderr, "lakestream serve: stopped (%d connection(s) open)\n", active.load());
  std::_Exit(0);
}

}  // namespace lakestream
