// `lakestream serve`'s message framing and value conversions
// (tools/cli/pg_wire.cpp, pg_format.cpp): a peer's bad lengths and
// truncated fields are ProtocolErrors, never allocations of its choosing.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "lakestream/tools.hpp"
#include "pg_format.hpp"
#include "pg_wire.hpp"

namespace lakestream::pg {
namespace {

// A WireConnection reading `bytes` (then end of stream) from a socket pair.
class Peer {
 public:
  explicit Peer(const std::string& bytes) {
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds_), 0);
    EXPECT_EQ(write(fds_[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    shutdown(fds_[1], SHUT_WR);
  }
  ~Peer() {
    close(fds_[0]);
    close(fds_[1]);
  }
  Peer(const Peer&) = delete;
  Peer& operator=(const Peer&) = delete;
  int Fd() const { return fds_[0]; }

 private:
  int fds_[2] = {-1, -1};
};

std::string Be32(uint32_t v) {
  return std::string{static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
                     static_cast<char>(v)};
}

TEST(PgWireTest, ReadsWholeMessagesAndCleanEnd) {
  Peer peer("Q" + Be32(4 + 9) + std::string("SELECT 1\0", 9) + "S" + Be32(4));
  WireConnection wire(peer.Fd());
  char type;
  std::string body;
  ASSERT_TRUE(wire.ReadMessage(&type, &body));
  EXPECT_EQ(type, 'Q');
  MessageReader in(body);
  EXPECT_EQ(in.CString("query"), "SELECT 1");
  ASSERT_TRUE(wire.ReadMessage(&type, &body));
  EXPECT_EQ(type, 'S');
  EXPECT_TRUE(body.empty());
  EXPECT_FALSE(wire.ReadMessage(&type, &body));  // end of stream between messages
}

TEST(PgWireTest, RefusesLengthsOutOfRange) {
  for (uint32_t length : {0u, 3u, kMaxMessageBytes + 1, 1u << 30, 0xFFFFFFFFu}) {
    Peer peer("Q" + Be32(length) + "x");
    WireConnection wire(peer.Fd());
    char type;
    std::string body;
    EXPECT_THROW(wire.ReadMessage(&type, &body), ProtocolError) << length;
    EXPECT_LT(body.capacity(), 1u << 20) << "no allocation of the peer's choosing";
  }
  Peer startup(Be32(kMaxStartupBytes + 1) + Be32(kProtocolV3));
  WireConnection wire(startup.Fd());
  std::string body;
  EXPECT_THROW(wire.ReadStartup(&body), ProtocolError);
}

TEST(PgWireTest, ConnectionEndingInsideAMessageIsAnError) {
  Peer peer("B" + Be32(100) + "short");
  WireConnection wire(peer.Fd());
  char type;
  std::string body;
  EXPECT_THROW(wire.ReadMessage(&type, &body), ProtocolError);
}

TEST(PgWireTest, MessageReaderChecksBounds) {
  std::string body = std::string("ab", 2) + Be32(7).substr(2);
  MessageReader in(body);
  EXPECT_EQ(in.Int16("first"), ('a' << 8) | 'b');
  EXPECT_EQ(in.Int16("second"), 7);
  EXPECT_THROW(in.Byte("past the end"), ProtocolError);
  MessageReader no_nul("abc");
  EXPECT_THROW(no_nul.CString("name"), ProtocolError);
  MessageReader bytes(Be32(5));
  EXPECT_THROW(bytes.Bytes(5, "value"), ProtocolError);
}

TEST(PgWireTest, BuildsMessagesWithLengths) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  WireConnection out(fds[0]);
  out.Begin('C');
  out.CString("SELECT 2");
  out.End();
  ASSERT_TRUE(out.Flush());
  char buf[64];
  ssize_t n = read(fds[1], buf, sizeof(buf));
  EXPECT_EQ(std::string(buf, static_cast<size_t>(n)), "C" + Be32(4 + 9) + std::string("SELECT 2\0", 9));
  close(fds[0]);
  close(fds[1]);
}

std::string BinaryNumeric(std::initializer_list<uint16_t> words) {
  std::string out;
  for (uint16_t w : words) {
    out.push_back(static_cast<char>(w >> 8));
    out.push_back(static_cast<char>(w & 0xff));
  }
  return out;
}

TEST(PgFormatTest, BinaryParameters) {
  // numeric: ndigits, weight, sign, dscale, base-10000 digits
  EXPECT_EQ(ParameterValue(kNumeric, true, BinaryNumeric({2, 0, 0x4000, 2, 1234, 2500})).GetString(), "-1234.25");
  EXPECT_EQ(ParameterValue(kNumeric, true, BinaryNumeric({1, static_cast<uint16_t>(-1), 0, 4, 1})).GetString(), "0.0001");
  EXPECT_EQ(ParameterValue(kNumeric, true, BinaryNumeric({1, 1, 0, 0, 1})).GetString(), "10000");
  EXPECT_EQ(ParameterValue(kNumeric, true, BinaryNumeric({0, 0, 0, 0})).GetString(), "0");
  EXPECT_THROW(ParameterValue(kNumeric, true, BinaryNumeric({3, 0, 0, 0, 1})), std::invalid_argument);
  EXPECT_EQ(ParameterValue(kInt4, true, Be32(0xFFFFFFFE)).GetBigint(), -2);
  EXPECT_THROW(ParameterValue(kInt8, true, Be32(1)), std::invalid_argument);
  EXPECT_EQ(ParameterValue(kDate, true, Be32(0)).ToString(), "2000-01-01");
  EXPECT_THROW(ParameterValue(kJson, true, "{}"), std::invalid_argument);
  EXPECT_EQ(ParameterValue(kInt8, false, "-42").GetBigint(), -42);
  EXPECT_THROW(ParameterValue(kInt8, false, "4x"), std::invalid_argument);
  EXPECT_EQ(ParameterValue(kUnspecified, false, "text").GetString(), "text");
}

TEST(PgFormatTest, TagsAndSqlStates) {
  EXPECT_EQ(LeadingKeywords("  -- c\n(select 1)", 1), "SELECT");
  EXPECT_EQ(LeadingKeywords("create or replace temp table t (a int)", 2), "CREATE TABLE");
  auto none = MakeTableResult({}, {}, {});
  EXPECT_EQ(CommandTag("insert into t values (1)", *none, 3), "INSERT 0 3");
  EXPECT_EQ(CommandTag("CREATE MATERIALIZED VIEW v AS SELECT 1", *none, 0), "CREATE MATERIALIZED VIEW");
  auto rows = MakeTableResult({"a"}, {TypeKind::BIGINT}, {{SqlValue::Bigint(1)}});
  EXPECT_EQ(CommandTag("with x as (select 1) select * from x", *rows, 1), "SELECT 1");
  EXPECT_EQ(SqlStateOf(ErrorKind::PARSER, "Parser Error: ..."), "42601");
  EXPECT_EQ(SqlStateOf(ErrorKind::CATALOG, "Catalog Error: Table with name x does not exist!"), "42P01");
  EXPECT_EQ(SqlStateOf(ErrorKind::INVALID_INPUT, "Cannot execute INSERT: the database is read-only"), "25006");
  EXPECT_EQ(SqlStateOf(ErrorKind::INTERRUPTED, "Interrupt Error: ..."), "57014");
}

}  // namespace
}  // namespace lakestream::pg
