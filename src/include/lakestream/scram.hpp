// SCRAM-SHA-256 verifiers (RFC 5802, RFC 7677) as PostgreSQL keeps them in
// pg_authid.rolpassword: what `lakestream serve` checks a login against
// (tools/cli/pg_auth.hpp) and what CREATE USER stores instead of the
// password (docs/server.md). Public so that the server, a tool on the
// public API, and the engine, which stores users as secrets, share one
// implementation.
//
//   verifier := "SCRAM-SHA-256$" iterations ":" base64(salt) "$" base64(StoredKey) ":" base64(ServerKey)
#pragma once

#include <optional>
#include <string>

namespace lakestream {

struct ScramVerifier {
  int iterations = 4096;
  std::string salt;        // raw bytes
  std::string stored_key;  // H(ClientKey), 32 bytes
  std::string server_key;  // HMAC(SaltedPassword, "Server Key"), 32 bytes
};

// A verifier for `password` with a fresh random salt, or the given one.
// Passwords are used as their bytes (no SASLprep).
ScramVerifier MakeScramVerifier(const std::string& password, int iterations = 4096);
ScramVerifier MakeScramVerifier(const std::string& password, const std::string& salt, int iterations);
// The verifier as text (the grammar above), and back; nullopt for text that
// is not a well-formed verifier.
std::string FormatScramVerifier(const ScramVerifier& verifier);
std::optional<ScramVerifier> ParseScramVerifier(const std::string& text);

// SCRAM's building blocks, for the server's side of the exchange.
std::string ScramBase64(const std::string& bytes);
std::optional<std::string> ScramFromBase64(const std::string& text);
std::string ScramHmac(const std::string& key, const std::string& message);  // HMAC-SHA-256
std::string ScramSha256(const std::string& bytes);
// `n` bytes from the system's random number generator; throws std::runtime_error when it fails.
std::string ScramRandomBytes(size_t n);

}  // namespace lakestream
