// PostgreSQL frontend/backend protocol v3: message framing for `lakestream
// serve` (docs/server.md). Reads whole messages off a socket and builds the
// server's messages; knows nothing of SQL.
//
// Limits (a peer past them gets ProtocolError, never an allocation of its
// choosing): a startup packet is at most kMaxStartupBytes, any other
// message at most kMaxMessageBytes (a length field below 4 is malformed too).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lakestream::pg {

constexpr uint32_t kMaxStartupBytes = 10000;           // as PostgreSQL's own limit
constexpr uint32_t kMaxMessageBytes = 64u << 20;        // 64 MiB: far above any SQL text a client sends
constexpr int32_t kProtocolV3 = 196608;                 // 3.0
constexpr int32_t kSslRequestCode = 80877103;
constexpr int32_t kGssEncRequestCode = 80877104;
constexpr int32_t kCancelRequestCode = 80877102;

// A peer that breaks the protocol (bad length, truncated field). The
// session answers SQLSTATE 08P01 and closes the connection.
class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The fields of one message body, read front to back; every read checks the
// bounds and throws ProtocolError naming the field when the body is short.
class MessageReader {
 public:
  explicit MessageReader(std::string_view body) : body_(body) {}
  uint8_t Byte(const char* field);
  int16_t Int16(const char* field);
  int32_t Int32(const char* field);
  // A NUL-terminated string.
  std::string CString(const char* field);
  std::string_view Bytes(size_t n, const char* field);
  size_t Remaining() const { return body_.size() - pos_; }

 private:
  std::string_view body_;
  size_t pos_ = 0;
};

// The byte stream under a WireConnection when it is not the plain socket
// (TLS, pg_tls.hpp). Receive/Send return the bytes moved, 0 at the end of
// the stream, < 0 on an error.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual long Receive(char* dst, size_t n) = 0;
  virtual long Send(const char* src, size_t n) = 0;
  // Bytes already read off the socket and waiting inside the transport.
  virtual bool Pending() = 0;
};

// A socket connection: buffered reads of whole messages and an output
// buffer of built messages, written by Flush().
class WireConnection {
 public:
  explicit WireConnection(int fd) : fd_(fd) {}
  int Fd() const { return fd_; }

  // From now on bytes go through `transport` (after SSLRequest). Throws
  // ProtocolError when the client sent bytes after its request without
  // waiting for the answer: those were not protected and must not be read
  // as if they were (CVE-2021-23214 in PostgreSQL).
  void UseTransport(std::unique_ptr<Transport> transport);
  // Bytes read off the socket and not yet taken by a message.
  bool HasBufferedInput() const { return in_begin_ != in_end_; }
  bool Encrypted() const { return transport_ != nullptr; }

  // The untyped first packet (length, then body). False when the peer closed
  // before sending anything; throws ProtocolError for a bad length.
  bool ReadStartup(std::string* body);
  // One typed message: false at a clean end of stream before its type byte;
  // throws ProtocolError for a bad length or a connection that ends inside
  // the message.
  bool ReadMessage(char* type, std::string* body);

  // True when input is waiting (buffered, or readable on the socket,
  // including its end) within `timeout_ms`.
  bool WaitForInput(int timeout_ms);

  // Building messages: Begin, the fields, End (which fills in the length).
  void Begin(char type);
  void Int16(int16_t v);
  void Int32(int32_t v);
  void CString(std::string_view s);
  void Bytes(std::string_view s);
  void End();
  // A whole message without fields after its type ('N' answer to SSLRequest
  // is a single byte: RawByte).
  void RawByte(char c) { out_.push_back(c); }
  // Writes the buffered output; false when the peer is gone.
  bool Flush();
  // Flushes when the buffer holds more than a socket's worth (row streaming).
  bool MaybeFlush() { return out_.size() < (64u << 10) || Flush(); }

 private:
  // Reads exactly n bytes; false at EOF before any of them when `eof_ok`,
  // else throws ProtocolError at EOF.
  bool ReadExact(char* dst, size_t n, bool eof_ok);
  long Receive(char* dst, size_t n);
  long Send(const char* src, size_t n);
  int fd_;
  std::unique_ptr<Transport> transport_;
  std::vector<char> in_ = std::vector<char>(64u << 10);
  size_t in_begin_ = 0;
  size_t in_end_ = 0;
  std::string out_;
  size_t message_start_ = 0;
};

// An ErrorResponse ('E': severity, SQLSTATE, message), not yet flushed.
void SendErrorResponse(WireConnection& wire, const std::string& sqlstate, const std::string& message,
                       const char* severity = "ERROR");

}  // namespace lakestream::pg
