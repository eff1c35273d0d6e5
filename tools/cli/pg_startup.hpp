// The start of a `lakestream serve` session (docs/server.md): the untyped
// packets before the first typed message (SSLRequest, GSSENCRequest,
// CancelRequest, StartupMessage) and the login.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "pg_session.hpp"
#include "pg_wire.hpp"

namespace lakestream::pg {

struct StartupPacket {
  bool cancel = false;  // a CancelRequest for (cancel_pid, cancel_secret); no session follows
  int32_t cancel_pid = 0;
  int32_t cancel_secret = 0;
  std::map<std::string, std::string> params;  // the StartupMessage's; "user" is set
  bool read_only_user = false;                // the user is one of the database's READ ONLY users
};

// Reads packets until a StartupMessage whose user logged in or a
// CancelRequest. The login is by SCRAM when `options` asks for it or the
// database of `users` (a connection to it) has users; the user's verifier
// comes from `options.users`, else from that database. SSLRequest is answered 'S'
// and TLS started when `options.tls` is set, else 'N'; GSSENCRequest 'N'.
// nullopt when the client left or was turned away with a FATAL error (a
// protocol other than 3.0, no TLS where it is required, no user, a failed
// login). Throws ProtocolError for malformed packets and for bytes sent
// after an SSLRequest before its answer.
std::optional<StartupPacket> AcceptStartup(WireConnection& wire, const ServerOptions& options, Connection& users);

}  // namespace lakestream::pg
