// Redaction of statements that name a credential (common/secret/secret_redact.hpp):
// every literal goes, whatever the spelling, and parser errors about such a
// statement echo none of its literals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/exception.hpp"
#include "common/secret/secret_redact.hpp"
#include "parser/parser.hpp"

namespace lakestream {
namespace {

struct Spelling {
  const char* sql;
  std::vector<std::string> secrets;  // none may survive
  std::vector<std::string> kept;     // each must survive
};

const std::vector<Spelling>& Spellings() {
  static const std::vector<Spelling> cases = {
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' 'hunter2')", {"hunter2"}, {"'sasl.password'", "SECRET s"}},
      // `lakestream serve`'s users (docs/server.md).
      {"CREATE USER alice WITH PASSWORD 'hunter2' READ ONLY", {"hunter2"}, {"CREATE USER alice WITH PASSWORD"}},
      {"ALTER USER alice PASSWORD 'hunter2'", {"hunter2"}, {"ALTER USER alice"}},
      {"CREATE SECRET u (TYPE pg_user, PASSWORD 'hunter2', ROLE 'read_only')", {"hunter2"}, {"pg_user"}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' /* c */ 'hunter2')", {"hunter2"}, {"/* c */"}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.password'/**/'hunter2')", {"hunter2"}, {}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' -- c\n 'hunter2')", {"hunter2"}, {"-- c\n"}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' \"hunter2\")", {"hunter2"}, {"\"redacted\""}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' `hunter2`)", {"hunter2"}, {"`redacted`"}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' $$hunter2$$)", {"hunter2"}, {}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' $pw$hun'ter2$pw$)", {"hun", "ter2"}, {}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' E'hun\\'ter2')", {"hun", "ter2"}, {}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' 'hun\\'ter2 x')", {"hun", "ter2"}, {}},  // Spark's escapes
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' 'hun''ter2')", {"hun", "ter2"}, {}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' 'hunter2", {"hunter2"}, {}},  // unterminated
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' = 'a' || 'hunter2')", {"hunter2"}, {}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' 982451653)", {"982451653"}, {}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' hunter2)", {"hunter2"}, {}},  // unquoted: does not parse
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' 'hunter2' 'sasl.username' 'u')", {"hunter2"}, {}},  // no comma
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' 'password')", {"'password'"}, {"'sasl.password'"}},
      {"CREATE SECRET s (TYPE kafka, 'SASL.PASSWORD' 'hunter2')", {"hunter2"}, {}},
      {"CREATE SECRET s (TYPE kafka,\n  'sasl.password'\n  'hunter2');", {"hunter2"}, {}},
      {"CREATE SECRET s (TYPE kafka, \"sasl.password\" = 'hunter2')", {"hunter2"}, {"\"sasl.password\""}},
      {"CREATE SECRET s (TYPE kafka, `sasl.password` => 'hunter2')", {"hunter2"}, {}},
      {"CREATE SECRET s (TYPE kafka, sasl.password = hunter2)", {"hunter2"}, {"sasl.password"}},
      {"CREATE SECRET s (TYPE kafka, 'ssl.keystore.password' 'hunter2')", {"hunter2"}, {}},
      {"CREATE SECRET s (TYPE kafka, 'ssl.key.location' '/keys/hunter2.pem')", {"hunter2"}, {}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.username' 'alice-hunter2')", {"hunter2"}, {}},
      {"CREATE SECRET s (TYPE s3, KEY_ID 'AKIAHUNTER2', SECRET 'hunter2', SESSION_TOKEN 'tok3n')",
       {"AKIAHUNTER2", "hunter2", "tok3n"}, {"KEY_ID", "SESSION_TOKEN"}},
      {"CREATE SINK k FROM t INTO KAFKA WITH ('kafka.sasl.jaas.config' = 'x password=\"hunter2\";')", {"hunter2"}, {}},
      {"ALTER SINK k SET ('sasl.password' = 'hunter2')", {"hunter2"}, {}},
      {"SELECT * FROM read_kafka('b', 't', \"ssl.key.password\" => 'hunter2')", {"hunter2"}, {"read_kafka("}},
      {"SET s3_secret_access_key = 'hunter2'", {"hunter2"}, {}},
      {"SET api_token = hunter2", {"hunter2"}, {}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' 'hunter2'); SELECT 'other'", {"hunter2", "other"}, {}},
      {"CREATE SECRET s (TYPE kafka, 'sasl.password' = env('KAFKA_PW'))", {}, {"env('KAFKA_PW')"}},
  };
  return cases;
}

TEST(SecretRedactTest, EveryLiteralOfAStatementNamingACredentialGoesWhateverTheSpelling) {
  for (const Spelling& c : Spellings()) {
    std::string shown = RedactSecrets(c.sql);
    for (const std::string& secret : c.secrets) EXPECT_EQ(shown.find(secret), std::string::npos) << c.sql << "\n -> " << shown;
    for (const std::string& kept : c.kept) EXPECT_NE(shown.find(kept), std::string::npos) << c.sql << "\n -> " << shown;
  }
}

TEST(SecretRedactTest, WholeStatements) {
  EXPECT_EQ(RedactSecrets("CREATE SECRET s (TYPE kafka, 'sasl.username' 'u', 'sasl.password' 'p''w')"),
            "CREATE SECRET s (TYPE kafka, 'sasl.username' 'redacted', 'sasl.password' 'redacted')");
  EXPECT_EQ(RedactSecrets("CREATE SINK k FROM t INTO KAFKA WITH ('kafka.sasl.password' = 'p', 'topic' = 'x')"),
            "CREATE SINK k FROM t INTO KAFKA WITH ('kafka.sasl.password' = 'redacted', 'redacted' = 'redacted')");
  EXPECT_EQ(RedactSecrets("SELECT 'password', 'x' -- 'sasl.password' 'y'"), "SELECT 'password', 'redacted' -- 'sasl.password' 'y'");
  // Nothing names a credential: kept byte for byte, comments included.
  for (const char* sql : {"SELECT 'hunter2', \"x\", 42 FROM t WHERE key = 'v'", "SELECT 1 -- password 'x'",
                          "SELECT 'a /* password */ b'", "INSERT INTO t VALUES ($$x$$, E'y')"}) {
    EXPECT_EQ(RedactSecrets(sql), sql);
  }
}

TEST(SecretRedactTest, OffsetsFollowTheRedaction) {
  const std::string sql = "CREATE SECRET s (TYPE kafka, 'sasl.password' 'longer-than-redacted', x)";
  uint32_t at = static_cast<uint32_t>(sql.find(" x)") + 1);
  std::string shown = RedactSecrets(sql, &at);
  EXPECT_EQ(shown.substr(at, 1), "x");
  at = static_cast<uint32_t>(sql.find("longer"));  // inside the literal: its start
  shown = RedactSecrets(sql, &at);
  EXPECT_EQ(shown.substr(at, 10), "'redacted'");
  at = static_cast<uint32_t>(sql.find("'sasl"));  // before the literal: unmoved
  shown = RedactSecrets(sql, &at);
  EXPECT_EQ(shown.substr(at, 6), "'sasl.");
}

TEST(SecretRedactTest, MessagesLoseTheHiddenPiecesOnlyWhereTheyStandAlone) {
  RedactedSql r = RedactStatement("CREATE SECRET s (TYPE kafka, 'sasl.password' 'ab', 'sasl.username' 'e')");
  EXPECT_EQ(RedactMessage("syntax error at or near \"'ab'\"", r.hidden), "syntax error at or near \"redacted\"");
  EXPECT_EQ(RedactMessage("value ab is wrong; about e", r.hidden), "value redacted is wrong; about redacted");
}

// A parser error about a statement naming a credential shows none of its
// literals, neither in the quoted line nor in the message.
TEST(SecretRedactTest, ParserErrorsEchoNoLiteral) {
  const std::vector<std::string> statements = {
      "CREATE SECRET s (TYPE kafka, 'sasl.password' 'hunter2' 'hunter3')",
      "CREATE SECRET s (TYPE kafka, 'sasl.password' /* c */ 'hunter2' + 'hunter3')",
      "CREATE SECRET s (TYPE kafka, 'sasl.password' $$hunter2$$ 'hunter3')",
      "CREATE SECRET s (TYPE kafka, 'sasl.password' 'hunter2' hunter3 'x')",
      "CREATE SECRET s (TYPE kafka, 'sasl.password' 'hunter2', 'sasl.username' \"hunter3\"",
      "CREATE SINK k FROM t INTO KAFKA WITH ('sasl.password' = 'hunter2' 'hunter3')",
      "CREATE SECRET s (TYPE kafka, 'sasl.password' 'hunter2' 'hunter3",
  };
  for (const std::string& sql : statements) {
    try {
      Parser::Parse(sql);
      ADD_FAILURE() << "parsed: " << sql;
    } catch (const ParserError& e) {
      std::string message = e.what();
      EXPECT_EQ(message.find("hunter"), std::string::npos) << sql << "\n -> " << message;
    }
  }
}

}  // namespace
}  // namespace lakestream
