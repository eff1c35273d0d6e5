// Secrets at the unit level: the librdkafka configuration a sink gets from
// its named secret (and env() values) and the owner-only atomic write of the
// secrets store (history redaction: secret_redact_test.cpp).
#include <gtest/gtest.h>
#include <librdkafka/rdkafka.h>
#include <sys/stat.h>

#include <cstdlib>

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/file_system.hpp"
#include "common/secret/secret.hpp"
#include "connector/sink_options.hpp"
#include "lakestream.hpp"
#include "main/connection_access.hpp"
#include "connector/secret_use.hpp"
#include "temp_dir_util.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {
namespace {

class SecretTest : public ::testing::Test {
 protected:
  void Run(const std::string& sql) {
    auto result = conn_.Query(sql);
    ASSERT_FALSE(result->HasError()) << sql << ": " << result->GetError();
  }
  ClientContext& Context() { return ConnectionAccess::Context(conn_); }

  SinkCatalogEntry KafkaSink(std::vector<std::pair<std::string, std::string>> options) {
    SinkCatalogEntry sink;
    sink.name = "orders_out";
    sink.source = "orders";
    sink.target = "kafka";
    sink.options = {{"bootstrap.servers", "127.0.0.1:9"}, {"topic", "orders"}};
    for (auto& o : options) sink.options.push_back(o);
    return sink;
  }

  // What librdkafka holds for `key` after the resolved properties are applied, as the producer applies them.
  static std::string ConfValue(const SinkOptions& options, const std::string& key) {
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    char errstr[512];
    for (auto& [k, v] : options.kafka_properties) {
      EXPECT_EQ(rd_kafka_conf_set(conf, k.c_str(), v.c_str(), errstr, sizeof(errstr)), RD_KAFKA_CONF_OK) << k << ": " << errstr;
    }
    char value[512];
    size_t size = sizeof(value);
    std::string out = rd_kafka_conf_get(conf, key.c_str(), value, &size) == RD_KAFKA_CONF_OK ? value : "<unset>";
    rd_kafka_conf_destroy(conf);
    return out;
  }

  Database db_{""};
  Connection conn_{db_};
};

TEST_F(SecretTest, NamedSecretReachesTheLibrdkafkaConfiguration) {
  Run("CREATE SECRET kafka_prod (TYPE kafka, 'sasl.username' 'svc', 'sasl.password' 'pw-1', 'sasl.mechanism' 'SCRAM-SHA-256')");
  SinkCatalogEntry sink = KafkaSink({{"security.protocol", "SASL_SSL"}, {"secret", "kafka_prod"}});
  SinkOptions parsed = ParseSinkOptions(sink);
  EXPECT_EQ(parsed.secret_name, "kafka_prod");
  for (auto& [k, v] : parsed.kafka_properties) EXPECT_NE(v, "pw-1") << "the parsed (stored) options hold no credential";
  SinkOptions resolved = WithSinkCredentials(Context(), sink, parsed);
  EXPECT_EQ(ConfValue(resolved, "sasl.username"), "svc");
  EXPECT_EQ(ConfValue(resolved, "sasl.password"), "pw-1");
  EXPECT_EQ(ConfValue(resolved, "sasl.mechanisms"), "SCRAM-SHA-256");
  EXPECT_EQ(ConfValue(resolved, "security.protocol"), "sasl_ssl");
  // CREATE OR REPLACE SECRET is seen at the next use.
  Run("CREATE OR REPLACE SECRET kafka_prod (TYPE kafka, 'sasl.username' 'svc', 'sasl.password' 'pw-2')");
  EXPECT_EQ(ConfValue(WithSinkCredentials(Context(), sink, parsed), "sasl.password"), "pw-2");
}

TEST_F(SecretTest, EnvValuesAreReadAtUse) {
  Run("CREATE SECRET from_env (TYPE kafka, 'sasl.password' env('LAKESTREAM_UNIT_KAFKA_PW'))");
  SinkCatalogEntry sink = KafkaSink({{"secret", "from_env"}, {"sasl.username", "env('LAKESTREAM_UNIT_KAFKA_USER')"}});
  SinkOptions parsed = ParseSinkOptions(sink);
  ::unsetenv("LAKESTREAM_UNIT_KAFKA_PW");
  ::setenv("LAKESTREAM_UNIT_KAFKA_USER", "env-user", 1);
  try {
    WithSinkCredentials(Context(), sink, parsed);
    FAIL() << "an unset variable must be an error";
  } catch (const InvalidInputError& e) {
    EXPECT_NE(std::string(e.what()).find("environment variable LAKESTREAM_UNIT_KAFKA_PW, which is not set"), std::string::npos)
        << e.what();
  }
  ::setenv("LAKESTREAM_UNIT_KAFKA_PW", "env-pw", 1);
  SinkOptions resolved = WithSinkCredentials(Context(), sink, parsed);
  EXPECT_EQ(ConfValue(resolved, "sasl.password"), "env-pw");
  EXPECT_EQ(ConfValue(resolved, "sasl.username"), "env-user");
  ::unsetenv("LAKESTREAM_UNIT_KAFKA_PW");
  ::unsetenv("LAKESTREAM_UNIT_KAFKA_USER");
}

TEST_F(SecretTest, MissingOrWrongTypeSecretIsAClearError) {
  SinkCatalogEntry sink = KafkaSink({{"secret", "kafka_prod"}});
  SinkOptions parsed = ParseSinkOptions(sink);
  try {
    WithSinkCredentials(Context(), sink, parsed);
    FAIL() << "a missing secret must be an error";
  } catch (const InvalidInputError& e) {
    EXPECT_NE(std::string(e.what()).find("Sink orders_out: secret kafka_prod does not exist; CREATE SECRET kafka_prod (TYPE kafka"),
              std::string::npos)
        << e.what();
  }
  Run("CREATE SECRET kafka_prod (TYPE s3, KEY_ID 'k', SECRET 's')");
  EXPECT_THROW(WithSinkCredentials(Context(), sink, parsed), InvalidInputError);
}

TEST_F(SecretTest, InlineCredentialsMoveIntoTheSinksOwnSecret) {
  SinkCatalogEntry sink = KafkaSink({{"sasl.username", "u"}, {"sasl.password", "inline-pw"}, {"kafka.ssl.key.password", "kp"}});
  std::optional<Secret> own = TakeInlineCredentials(Context(), sink);
  ASSERT_TRUE(own.has_value());
  EXPECT_EQ(own->name, SinkSecretName("orders_out"));
  EXPECT_EQ(own->owner_sink, "orders_out");
  ASSERT_EQ(own->values.size(), 2u);
  for (auto& [k, v] : sink.options) {
    EXPECT_NE(v, "inline-pw");
    EXPECT_NE(v, "kp");
  }
  EXPECT_EQ(sink.options.back(), (std::pair<std::string, std::string>("secret", own->name)));
}

TEST(SecretStoreTest, AtomicWriteWithModeIsOwnerOnlyWhateverTheUmask) {
  testing::ScopedTempDir dir("secret_mode");
  mode_t old = ::umask(0);
  FileSystem* fs = FileSystem::Default();
  std::string path = dir.path + "/s.json";
  ASSERT_TRUE(fs->WriteFileAtomic(path, "old").ok());
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0666u) << "ordinary files follow the umask";
  ASSERT_TRUE(fs->WriteFileAtomicWithMode(path, "secret", 0600).ok());
  ::umask(old);
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(fs->ReadFile(path).value(), "secret");
}

TEST(SecretStoreTest, ANameIsNeverAPathOutOfTheStore) {
  // A well-formed secret file outside the store, where "../../outside" would
  // point: neither found (a login name reaches Find) nor removed by Drop.
  testing::ScopedTempDir dir("secret_names");
  SecretManager secrets(FileSystem::Default(), dir.path + "/db");
  Secret s;
  s.name = "inside";
  s.type = "pg_user";
  s.persistent = true;
  s.values = {{"verifier", "v"}, {"role", "read_write"}};
  secrets.Create(s, false);
  std::string outside = dir.path + "/db/outside.json";
  FileSystem* fs = FileSystem::Default();
  ASSERT_TRUE(fs->WriteFileAtomic(outside, fs->ReadFile(secrets.StoreDir() + "/inside.json").value()).ok());
  for (const char* name : {"../../outside", "../secrets/inside", "inside.json", "in side", ""}) {
    EXPECT_FALSE(secrets.Find(name).has_value()) << name;
    EXPECT_FALSE(secrets.Drop(name, std::nullopt)) << name;
    EXPECT_FALSE(secrets.Drop(name, true)) << name;
  }
  EXPECT_TRUE(fs->FileExists(outside));
  EXPECT_TRUE(secrets.Find("INSIDE").has_value());  // names stay case-insensitive
}

}  // namespace
}  // namespace lakestream
