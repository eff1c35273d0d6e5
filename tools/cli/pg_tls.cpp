#include "pg_tls.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>

namespace lakestream::pg {

namespace {

std::string OpenSslReason() {
  unsigned long code = ERR_get_error();
  if (code == 0) return "unknown reason";
  char text[256];
  ERR_error_string_n(code, text, sizeof(text));
  ERR_clear_error();
  return text;
}

class TlsTransport : public Transport {
 public:
  explicit TlsTransport(SSL* ssl) : ssl_(ssl) {}
  ~TlsTransport() override {
    SSL_shutdown(ssl_);
    SSL_free(ssl_);
  }
  TlsTransport(const TlsTransport&) = delete;
  TlsTransport& operator=(const TlsTransport&) = delete;

  long Receive(char* dst, size_t n) override {
    size_t got = 0;
    if (SSL_read_ex(ssl_, dst, n, &got) == 1) return static_cast<long>(got);
    return SSL_get_error(ssl_, 0) == SSL_ERROR_ZERO_RETURN ? 0 : -1;
  }
  long Send(const char* src, size_t n) override {
    size_t sent = 0;
    if (SSL_write_ex(ssl_, src, n, &sent) == 1) return static_cast<long>(sent);
    return -1;
  }
  bool Pending() override { return SSL_pending(ssl_) > 0; }

 private:
  SSL* ssl_;
};

}  // namespace

std::unique_ptr<TlsContext> TlsContext::Load(const std::string& cert_file, const std::string& key_file,
                                             std::string* error) {
  SSL_CTX* context = SSL_CTX_new(TLS_server_method());
  if (!context) {
    *error = "cannot set up TLS: " + OpenSslReason();
    return nullptr;
  }
  SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
  // Writes may be retried with a moved buffer (the session's output string grows between tries).
  SSL_CTX_set_mode(context, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  if (SSL_CTX_use_certificate_chain_file(context, cert_file.c_str()) != 1) {
    *error = "cannot use the TLS certificate " + cert_file + ": " + OpenSslReason() + " (a PEM file is expected)";
  } else if (SSL_CTX_use_PrivateKey_file(context, key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    *error = "cannot use the TLS key " + key_file + ": " + OpenSslReason() + " (an unencrypted PEM key is expected)";
  } else if (SSL_CTX_check_private_key(context) != 1) {
    *error = "the TLS key " + key_file + " does not belong to the certificate " + cert_file;
  } else {
    return std::unique_ptr<TlsContext>(new TlsContext(context));
  }
  SSL_CTX_free(context);
  return nullptr;
}

TlsContext::~TlsContext() { SSL_CTX_free(context_); }

std::unique_ptr<Transport> TlsContext::Accept(int fd, std::string* error) const {
  SSL* ssl = SSL_new(context_);
  if (!ssl || SSL_set_fd(ssl, fd) != 1) {
    *error = "cannot start TLS: " + OpenSslReason();
    SSL_free(ssl);
    return nullptr;
  }
  if (SSL_accept(ssl) != 1) {
    *error = "the TLS handshake failed: " + OpenSslReason();
    SSL_free(ssl);
    return nullptr;
  }
  return std::make_unique<TlsTransport>(ssl);
}

}  // namespace lakestream::pg
