#include "pg_startup.hpp"

#include <cstdio>
#include <utility>

#include "lakestream/tools.hpp"
#include "pg_auth.hpp"

namespace lakestream::pg {

namespace {

std::nullopt_t TurnAway(WireConnection& wire, const std::string& sqlstate, const std::string& message) {
  SendErrorResponse(wire, sqlstate, message, "FATAL");
  wire.Flush();
  return std::nullopt;
}

}  // namespace

std::optional<StartupPacket> AcceptStartup(WireConnection& wire, const ServerOptions& options, Connection& users) {
  std::string body;
  for (;;) {
    if (!wire.ReadStartup(&body)) return std::nullopt;
    MessageReader in(body);
    int32_t code = in.Int32("protocol version");
    if (code == kSslRequestCode && options.tls && !wire.Encrypted()) {
      // Bytes sent before our answer were not protected: never read them as if they were.
      if (wire.HasBufferedInput()) throw ProtocolError("received unencrypted data after the SSL request");
      wire.RawByte('S');
      wire.Flush();
      std::string error;
      auto tls = options.tls->Accept(wire.Fd(), &error);
      if (!tls) {  // nothing can be said to the client: the channel is neither plain nor TLS
        std::fprintf(stderr, "lakestream serve: a session ended: %s\n", error.c_str());
        return std::nullopt;
      }
      wire.UseTransport(std::move(tls));
      continue;
    }
    if (code == kSslRequestCode || code == kGssEncRequestCode) {
      wire.RawByte('N');  // no TLS (no --tls-cert) or GSS: the client goes on in plain text, or leaves
      wire.Flush();
      continue;
    }
    StartupPacket packet;
    if (code == kCancelRequestCode) {
      packet.cancel = true;
      packet.cancel_pid = in.Int32("process id");
      packet.cancel_secret = in.Int32("secret key");
      return packet;
    }
    if (code >> 16 != 3) {
      return TurnAway(wire, "0A000",
                      "not supported yet: frontend protocol " + std::to_string(code >> 16) + "." +
                          std::to_string(code & 0xffff) + "; lakestream serve speaks protocol 3.0");
    }
    if (options.tls_required && !wire.Encrypted()) {
      return TurnAway(wire, "28000",
                      "this server takes TLS connections only (--tls-required); connect with sslmode=require");
    }
    while (in.Remaining() > 1) {
      std::string key = in.CString("parameter name");
      packet.params[key] = in.CString("parameter value");
    }
    const std::string& user = packet.params["user"];
    if (user.empty()) {
      return TurnAway(wire, "28000", "no user name in the startup packet; connect with a user (psql -U NAME)");
    }
    std::optional<ScramVerifier> verifier;
    bool database_users = true;  // when the store cannot be read, logins stay required
    if (auto it = options.users.find(user); it != options.users.end()) {
      verifier = it->second;
    } else {
      try {
        if (auto found = FindServerUser(users, user)) {
          verifier = ParseScramVerifier(found->verifier);
          packet.read_only_user = found->read_only;
        }
        database_users = verifier || HasServerUsers(users);
      } catch (std::exception& e) {  // a damaged user file: that user cannot log in, the server says why
        std::fprintf(stderr, "lakestream serve: user %s cannot log in: %s\n", user.c_str(), e.what());
      }
    }
    if (options.login_required || !options.users.empty() || database_users) {
      if (!AuthenticateScram(wire, verifier ? &*verifier : nullptr, user)) {
        return TurnAway(wire, "28P01", "password authentication failed for user \"" + user + "\"");
      }
    }
    return packet;
  }
}

}  // namespace lakestream::pg
