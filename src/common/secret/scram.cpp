// SCRAM-SHA-256 verifiers (include/lakestream/scram.hpp).
#include "lakestream/scram.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <stdexcept>

namespace lakestream {

namespace {

constexpr size_t kKeyBytes = SHA256_DIGEST_LENGTH;
constexpr size_t kSaltBytes = 16;

}  // namespace

std::string ScramBase64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

std::optional<std::string> ScramFromBase64(const std::string& text) {
  if (text.empty() || text.size() % 4 != 0) return std::nullopt;
  std::string out(3 * text.size() / 4, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  size_t padding = (text.back() == '=' ? 1 : 0) + (text[text.size() - 2] == '=' ? 1 : 0);
  out.resize(static_cast<size_t>(n) - padding);
  return out;
}

std::string ScramHmac(const std::string& key, const std::string& message) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(message.data()),
       message.size(), digest, &length);
  return std::string(reinterpret_cast<char*>(digest), length);
}

std::string ScramSha256(const std::string& bytes) {
  unsigned char digest[kKeyBytes];
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest);
  return std::string(reinterpret_cast<char*>(digest), kKeyBytes);
}

std::string ScramRandomBytes(size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1) {
    throw std::runtime_error("the system's random number generator failed");
  }
  return out;
}

ScramVerifier MakeScramVerifier(const std::string& password, int iterations) {
  return MakeScramVerifier(password, ScramRandomBytes(kSaltBytes), iterations);
}

ScramVerifier MakeScramVerifier(const std::string& password, const std::string& salt, int iterations) {
  ScramVerifier verifier;
  verifier.iterations = iterations;
  verifier.salt = salt;
  std::string salted(kKeyBytes, '\0');
  PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()),
                    reinterpret_cast<const unsigned char*>(verifier.salt.data()), static_cast<int>(verifier.salt.size()),
                    iterations, EVP_sha256(), static_cast<int>(kKeyBytes), reinterpret_cast<unsigned char*>(salted.data()));
  verifier.stored_key = ScramSha256(ScramHmac(salted, "Client Key"));
  verifier.server_key = ScramHmac(salted, "Server Key");
  OPENSSL_cleanse(salted.data(), salted.size());
  return verifier;
}

std::string FormatScramVerifier(const ScramVerifier& verifier) {
  return "SCRAM-SHA-256$" + std::to_string(verifier.iterations) + ":" + ScramBase64(verifier.salt) + "$" +
         ScramBase64(verifier.stored_key) + ":" + ScramBase64(verifier.server_key);
}

std::optional<ScramVerifier> ParseScramVerifier(const std::string& text) {
  const std::string prefix = "SCRAM-SHA-256$";
  if (text.rfind(prefix, 0) != 0) return std::nullopt;
  std::string rest = text.substr(prefix.size());
  size_t colon1 = rest.find(':');
  size_t dollar = rest.find('$');
  if (colon1 == std::string::npos || dollar == std::string::npos || dollar < colon1) return std::nullopt;
  size_t colon2 = rest.find(':', dollar);
  if (colon2 == std::string::npos) return std::nullopt;
  ScramVerifier verifier;
  std::string iterations = rest.substr(0, colon1);
  if (iterations.empty() || iterations.size() > 9 || iterations.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  verifier.iterations = std::stoi(iterations);
  auto salt = ScramFromBase64(rest.substr(colon1 + 1, dollar - colon1 - 1));
  auto stored = ScramFromBase64(rest.substr(dollar + 1, colon2 - dollar - 1));
  auto server = ScramFromBase64(rest.substr(colon2 + 1));
  if (verifier.iterations < 1 || !salt || !stored || !server || stored->size() != kKeyBytes ||
      server->size() != kKeyBytes) {
    return std::nullopt;
  }
  verifier.salt = *salt;
  verifier.stored_key = *stored;
  verifier.server_key = *server;
  return verifier;
}

}  // namespace lakestream
