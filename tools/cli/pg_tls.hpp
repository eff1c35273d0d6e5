// TLS for `lakestream serve` (docs/server.md), with OpenSSL: a client's
// SSLRequest is answered 'S' and the session continues over TLS.
#pragma once

#include <memory>
#include <string>

#include "pg_wire.hpp"

struct ssl_ctx_st;

namespace lakestream::pg {

// The server's certificate and key, loaded once for every session.
class TlsContext {
 public:
  // Loads PEM files (the certificate file may hold the chain). Null with
  // *error naming the file and OpenSSL's reason when they cannot be used.
  static std::unique_ptr<TlsContext> Load(const std::string& cert_file, const std::string& key_file, std::string* error);
  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

  // The server side of a TLS handshake on `fd` (TLS 1.2 or later). Null
  // with *error when the handshake fails (the session then ends).
  std::unique_ptr<Transport> Accept(int fd, std::string* error) const;

 private:
  explicit TlsContext(ssl_ctx_st* context) : context_(context) {}
  ssl_ctx_st* context_;
};

}  // namespace lakestream::pg
