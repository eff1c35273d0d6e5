#include "pg_auth.hpp"

#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <utility>
#include <vector>

namespace lakestream::pg {

namespace {

constexpr size_t kKeyBytes = SHA256_DIGEST_LENGTH;
constexpr size_t kSaltBytes = 16;
constexpr size_t kNonceBytes = 18;

// The value of attribute `name` ("r", "p", ...) in a comma-separated SCRAM
// message, or nullopt.
std::optional<std::string> Attribute(const std::string& message, char name) {
  size_t start = 0;
  while (start <= message.size()) {
    size_t comma = message.find(',', start);
    std::string part = message.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (part.size() >= 2 && part[0] == name && part[1] == '=') return part.substr(2);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return std::nullopt;
}

}  // namespace

bool ReadPasswordFile(const std::string& path, std::map<std::string, ScramVerifier>* out, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read the password file " + path + ": " + std::strerror(errno);
    return false;
  }
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    number++;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    auto colon = line.find(':');
    if (colon == std::string::npos || colon == 0) {
      *error = path + ":" + std::to_string(number) + ": expected USER:PASSWORD or USER:SCRAM-SHA-256$...";
      return false;
    }
    std::string secret = line.substr(colon + 1);
    if (secret.rfind("SCRAM-SHA-256$", 0) == 0) {
      auto verifier = ParseScramVerifier(secret);
      if (!verifier) {
        *error = path + ":" + std::to_string(number) +
                 ": a malformed SCRAM verifier; expected SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey> "
                 "(base64), as `lakestream serve --scram-verifier` prints";
        return false;
      }
      (*out)[line.substr(0, colon)] = *verifier;
    } else {
      (*out)[line.substr(0, colon)] = MakeScramVerifier(secret);
    }
  }
  if (out->empty()) {
    *error = "the password file " + path + " names no user; add USER:PASSWORD lines";
    return false;
  }
  struct stat st{};
  if (::stat(path.c_str(), &st) == 0 && (st.st_mode & 077) != 0) {
    std::fprintf(stderr, "lakestream serve: warning: the password file %s is readable by other users; chmod 600 %s\n",
                 path.c_str(), path.c_str());
  }
  return true;
}

ScramExchange::ScramExchange(const ScramVerifier* verifier, const std::string& mock_seed, std::string server_nonce)
    : known_user_(verifier != nullptr), server_nonce_(std::move(server_nonce)) {
  if (server_nonce_.empty()) server_nonce_ = ScramBase64(ScramRandomBytes(kNonceBytes));
  if (verifier) {
    verifier_ = *verifier;
  } else {
    // The same made-up salt each time for a user name, as a real user's salt does not change either.
    verifier_.salt = ScramSha256("lakestream mock salt " + mock_seed).substr(0, kSaltBytes);
    verifier_.stored_key = ScramRandomBytes(kKeyBytes);
    verifier_.server_key = ScramRandomBytes(kKeyBytes);
  }
}

std::optional<std::string> ScramExchange::ServerFirst(const std::string& client_first) {
  // gs2-header: "n,," (no binding) or "y,," (the client could bind, the server offered none); "p=" asks for it.
  if (client_first.size() < 3 || (client_first[0] != 'n' && client_first[0] != 'y') || client_first[1] != ',') {
    return std::nullopt;
  }
  size_t second_comma = client_first.find(',', 2);
  if (second_comma == std::string::npos) return std::nullopt;
  gs2_header_ = client_first.substr(0, second_comma + 1);
  client_first_bare_ = client_first.substr(second_comma + 1);
  auto client_nonce = Attribute(client_first_bare_, 'r');
  if (!client_nonce || client_nonce->empty() || client_first_bare_.rfind("m=", 0) == 0) return std::nullopt;
  nonce_ = *client_nonce + server_nonce_;
  server_first_ = "r=" + nonce_ + ",s=" + ScramBase64(verifier_.salt) + ",i=" + std::to_string(verifier_.iterations);
  return server_first_;
}

std::optional<std::string> ScramExchange::ServerFinal(const std::string& client_final) {
  if (server_first_.empty()) return std::nullopt;
  size_t proof_at = client_final.rfind(",p=");
  if (proof_at == std::string::npos) return std::nullopt;
  std::string without_proof = client_final.substr(0, proof_at);
  auto binding = Attribute(without_proof, 'c');
  auto nonce = Attribute(without_proof, 'r');
  auto proof = ScramFromBase64(client_final.substr(proof_at + 3));
  if (!binding || *binding != ScramBase64(gs2_header_) || !nonce || *nonce != nonce_ || !proof || proof->size() != kKeyBytes) {
    return std::nullopt;
  }
  std::string auth_message = client_first_bare_ + "," + server_first_ + "," + without_proof;
  std::string client_signature = ScramHmac(verifier_.stored_key, auth_message);
  std::string client_key(kKeyBytes, '\0');
  for (size_t i = 0; i < kKeyBytes; i++) client_key[i] = static_cast<char>((*proof)[i] ^ client_signature[i]);
  std::string stored = ScramSha256(client_key);
  bool match = CRYPTO_memcmp(stored.data(), verifier_.stored_key.data(), kKeyBytes) == 0;
  if (!match || !known_user_) return std::nullopt;
  return "v=" + ScramBase64(ScramHmac(verifier_.server_key, auth_message));
}

}  // namespace lakestream::pg

namespace lakestream::pg {

namespace {

// The body of the client's next SASL message ('p'); nullopt when it hung up.
std::optional<std::string> ReadSaslMessage(WireConnection& wire) {
  char type;
  std::string body;
  if (!wire.ReadMessage(&type, &body)) return std::nullopt;
  if (type != 'p') throw ProtocolError("expected a SASL response during authentication");
  return body;
}

void SendAuthentication(WireConnection& wire, int32_t code, const std::string& data) {
  wire.Begin('R');
  wire.Int32(code);
  wire.Bytes(data);
  wire.End();
  wire.Flush();
}

}  // namespace

bool AuthenticateScram(WireConnection& wire, const ScramVerifier* verifier, const std::string& user) {
  SendAuthentication(wire, 10, std::string("SCRAM-SHA-256\0\0", 15));  // AuthenticationSASL: the one mechanism
  auto initial = ReadSaslMessage(wire);
  if (!initial) return false;
  MessageReader in(*initial);
  std::string mechanism = in.CString("SASL mechanism");
  int32_t length = in.Int32("SASL data length");
  if (mechanism != "SCRAM-SHA-256" || length < 0) return false;
  ScramExchange exchange(verifier, user);
  auto server_first = exchange.ServerFirst(std::string(in.Bytes(static_cast<size_t>(length), "SASL data")));
  if (!server_first) return false;
  SendAuthentication(wire, 11, *server_first);  // AuthenticationSASLContinue
  auto response = ReadSaslMessage(wire);
  if (!response) return false;
  auto server_final = exchange.ServerFinal(*response);
  if (!server_final) return false;
  SendAuthentication(wire, 12, *server_final);  // AuthenticationSASLFinal
  return true;
}

}  // namespace lakestream::pg
