#include "pg_wire.hpp"

#include <arpa/inet.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace lakestream::pg {

namespace {

uint32_t ReadBe32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return ntohl(v);
}

}  // namespace

std::string_view MessageReader::Bytes(size_t n, const char* field) {
  if (n > Remaining()) {
    throw ProtocolError(std::string("message ends inside its ") + field + " (" + std::to_string(n) +
                        " bytes wanted, " + std::to_string(Remaining()) + " left)");
  }
  auto out = body_.substr(pos_, n);
  pos_ += n;
  return out;
}

uint8_t MessageReader::Byte(const char* field) { return static_cast<uint8_t>(Bytes(1, field)[0]); }

int16_t MessageReader::Int16(const char* field) {
  auto b = Bytes(2, field);
  uint16_t v;
  std::memcpy(&v, b.data(), 2);
  return static_cast<int16_t>(ntohs(v));
}

int32_t MessageReader::Int32(const char* field) { return static_cast<int32_t>(ReadBe32(Bytes(4, field).data())); }

std::string MessageReader::CString(const char* field) {
  auto rest = body_.substr(pos_);
  auto nul = rest.find('\0');
  if (nul == std::string_view::npos) throw ProtocolError(std::string("the ") + field + " string has no terminating NUL");
  pos_ += nul + 1;
  return std::string(rest.substr(0, nul));
}

void WireConnection::UseTransport(std::unique_ptr<Transport> transport) {
  if (HasBufferedInput()) throw ProtocolError("the client sent data before the TLS handshake");
  transport_ = std::move(transport);
}

long WireConnection::Receive(char* dst, size_t n) {
  if (transport_) return transport_->Receive(dst, n);
  return ::recv(fd_, dst, n, 0);
}

long WireConnection::Send(const char* src, size_t n) {
  if (transport_) return transport_->Send(src, n);
  return ::send(fd_, src, n, MSG_NOSIGNAL);
}

bool WireConnection::ReadExact(char* dst, size_t n, bool eof_ok) {
  size_t done = 0;
  while (done < n) {
    if (in_begin_ == in_end_) {
      long got = Receive(in_.data(), in_.size());
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        if (done == 0 && eof_ok) return false;
        throw ProtocolError("the connection ended inside a message");
      }
      in_begin_ = 0;
      in_end_ = static_cast<size_t>(got);
    }
    size_t take = std::min(n - done, in_end_ - in_begin_);
    std::memcpy(dst + done, in_.data() + in_begin_, take);
    in_begin_ += take;
    done += take;
  }
  return true;
}

bool WireConnection::ReadStartup(std::string* body) {
  char len_bytes[4];
  if (!ReadExact(len_bytes, 4, true)) return false;
  uint32_t len = ReadBe32(len_bytes);
  if (len < 8 || len > kMaxStartupBytes) {
    throw ProtocolError("invalid startup packet length " + std::to_string(len) + " (must be 8 to " +
                        std::to_string(kMaxStartupBytes) + ")");
  }
  body->resize(len - 4);
  ReadExact(body->data(), body->size(), false);
  return true;
}

bool WireConnection::ReadMessage(char* type, std::string* body) {
  if (!ReadExact(type, 1, true)) return false;
  char len_bytes[4];
  ReadExact(len_bytes, 4, false);
  uint32_t len = ReadBe32(len_bytes);
  if (len < 4 || len > kMaxMessageBytes) {
    throw ProtocolError("invalid length " + std::to_string(len) + " of a '" + std::string(1, *type) +
                        "' message (must be 4 to " + std::to_string(kMaxMessageBytes) + ")");
  }
  body->resize(len - 4);
  ReadExact(body->data(), body->size(), false);
  return true;
}

bool WireConnection::WaitForInput(int timeout_ms) {
  if (in_begin_ < in_end_ || (transport_ && transport_->Pending())) return true;
  pollfd pfd{fd_, POLLIN, 0};
  return ::poll(&pfd, 1, timeout_ms) > 0;
}

void WireConnection::Begin(char type) {
  out_.push_back(type);
  message_start_ = out_.size();
  out_.append(4, '\0');
}

void WireConnection::Int16(int16_t v) {
  uint16_t be = htons(static_cast<uint16_t>(v));
  out_.append(reinterpret_cast<const char*>(&be), 2);
}

void WireConnection::Int32(int32_t v) {
  uint32_t be = htonl(static_cast<uint32_t>(v));
  out_.append(reinterpret_cast<const char*>(&be), 4);
}

void WireConnection::CString(std::string_view s) {
  out_.append(s);
  out_.push_back('\0');
}

void WireConnection::Bytes(std::string_view s) { out_.append(s); }

void WireConnection::End() {
  uint32_t be = htonl(static_cast<uint32_t>(out_.size() - message_start_));
  std::memcpy(out_.data() + message_start_, &be, 4);
}

bool WireConnection::Flush() {
  size_t done = 0;
  while (done < out_.size()) {
    long n = Send(out_.data() + done, out_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      out_.clear();
      return false;
    }
    done += static_cast<size_t>(n);
  }
  out_.clear();
  return true;
}

void SendErrorResponse(WireConnection& wire, const std::string& sqlstate, const std::string& message,
                       const char* severity) {
  wire.Begin('E');
  wire.Bytes("S");
  wire.CString(severity);
  wire.Bytes("V");
  wire.CString(severity);
  wire.Bytes("C");
  wire.CString(sqlstate);
  wire.Bytes("M");
  wire.CString(message);
  wire.Bytes(std::string_view("\0", 1));
  wire.End();
}

}  // namespace lakestream::pg
