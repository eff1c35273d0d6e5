// Password authentication for `lakestream serve` (docs/server.md):
// SCRAM-SHA-256 (RFC 5802, RFC 7677) as PostgreSQL 10+ does it, so that no
// password crosses the network and the server keeps no password, only its
// verifier. No channel binding (SCRAM-SHA-256-PLUS): the server has no TLS.
//
// Password file grammar (one user per line; blank lines and lines starting
// with # are skipped):
//   line     := user ":" secret
//   secret   := password | verifier
//   verifier := "SCRAM-SHA-256$" iterations ":" base64(salt) "$" base64(StoredKey) ":" base64(ServerKey)
// A verifier is what PostgreSQL keeps in pg_authid.rolpassword (copy it from
// there, or print one with `lakestream serve --scram-verifier`); a plain
// password is turned into one when the file is read (random salt, 4096
// iterations). Passwords are used as their bytes (no SASLprep: use ASCII
// passwords with clients that normalise, as libpq does).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "lakestream/scram.hpp"
#include "pg_wire.hpp"

namespace lakestream::pg {

// The verifiers themselves are the public API's (lakestream/scram.hpp), shared
// with CREATE USER, which keeps users as secrets.
using lakestream::FormatScramVerifier;
using lakestream::MakeScramVerifier;
using lakestream::ParseScramVerifier;
using lakestream::ScramVerifier;

// Reads a password file: user -> verifier. False with *error naming the file
// and line when it cannot be read or a line is malformed.
bool ReadPasswordFile(const std::string& path, std::map<std::string, ScramVerifier>* out, std::string* error);

// One SCRAM-SHA-256 exchange, server side. `verifier` null means an unknown
// user: the exchange goes on with a salt made from `mock_seed` and fails at
// the proof, so that a client learns nothing about which users exist.
class ScramExchange {
 public:
  // `server_nonce`: the server's part of the nonce; random when empty (a
  // fixed one is for the RFC's test vectors only).
  ScramExchange(const ScramVerifier* verifier, const std::string& mock_seed, std::string server_nonce = "");

  // client-first-message (from SASLInitialResponse) -> server-first-message;
  // nullopt when the message is malformed or asks for channel binding.
  std::optional<std::string> ServerFirst(const std::string& client_first);
  // client-final-message -> server-final-message ("v=..."); nullopt when
  // the message is malformed, the nonce is not this exchange's, or the
  // proof is wrong.
  std::optional<std::string> ServerFinal(const std::string& client_final);

 private:
  ScramVerifier verifier_;
  bool known_user_;
  std::string gs2_header_;
  std::string client_first_bare_;
  std::string server_first_;
  std::string server_nonce_;
  std::string nonce_;
};

// The SASL messages of one SCRAM-SHA-256 login on `wire` (AuthenticationSASL,
// SASLInitialResponse, SASLContinue, SASLResponse, SASLFinal); `verifier`
// null for an unknown user. True when the client proved the password (the
// caller then sends AuthenticationOk); false when it did not or broke off
// the exchange (the caller sends 28P01). Throws ProtocolError for messages
// out of place.
bool AuthenticateScram(WireConnection& wire, const ScramVerifier* verifier, const std::string& user);

}  // namespace lakestream::pg
