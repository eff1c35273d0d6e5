// Java's sasl.jaas.config mapped onto librdkafka's properties
// (common/kafka_jaas.hpp): the forms notebooks write, and every refusal
// named without repeating the password.
#include <gtest/gtest.h>

#include "common/kafka_jaas.hpp"

namespace lakestream {
namespace {

const char kPassword[] = "s3cr3t-Pw";

KafkaProperties Expand(const KafkaProperties& given) {
  auto expanded = ExpandJaasConfig(given);
  EXPECT_TRUE(expanded.ok()) << expanded.status().message();
  return expanded.ok() ? expanded.value() : KafkaProperties{};
}

std::string Refusal(const KafkaProperties& given) {
  auto expanded = ExpandJaasConfig(given);
  EXPECT_FALSE(expanded.ok());
  std::string message = expanded.ok() ? "" : expanded.status().message();
  EXPECT_EQ(message.find(kPassword), std::string::npos) << message;
  return message;
}

TEST(KafkaJaas, DatabricksNotebookLineBecomesPlainCredentials) {
  // As in ../shared/user-posts/dlt-table-to-kafka-crashes-on-updates.txt.
  std::string jaas = "kafkashaded.org.apache.kafka.common.security.plain.PlainLoginModule required username='KEY' "
                     "password='" + std::string(kPassword) + "';";
  KafkaProperties got = Expand({{"bootstrap.servers", "b:9092"}, {"security.protocol", "SASL_SSL"},
                                {"sasl.jaas.config", jaas}, {"sasl.mechanism", "PLAIN"}});
  KafkaProperties want = {{"bootstrap.servers", "b:9092"}, {"security.protocol", "SASL_SSL"},
                          {"sasl.username", "KEY"}, {"sasl.password", kPassword}, {"sasl.mechanism", "PLAIN"}};
  EXPECT_EQ(got, want);
}

TEST(KafkaJaas, JavaDocsFormWithDoubleQuotesAndEscapes) {
  KafkaProperties got = Expand({{"kafka.SASL.JAAS.CONFIG",
                                 "org.apache.kafka.common.security.plain.PlainLoginModule required\n"
                                 "  username=\"alice\"\n  password=\"a\\\"b;c\" ;"}});
  KafkaProperties want = {{"sasl.mechanism", "PLAIN"}, {"sasl.username", "alice"}, {"sasl.password", "a\"b;c"}};
  EXPECT_EQ(got, want);
}

TEST(KafkaJaas, ScramNeedsItsMechanismBesideIt) {
  std::string jaas = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"" +
                     std::string(kPassword) + "\";";
  KafkaProperties got = Expand({{"sasl.mechanisms", "scram-sha-512"}, {"sasl.jaas.config", jaas}});
  KafkaProperties want = {{"sasl.mechanisms", "scram-sha-512"}, {"sasl.username", "u"}, {"sasl.password", kPassword}};
  EXPECT_EQ(got, want);
  EXPECT_NE(Refusal({{"sasl.jaas.config", jaas}}).find("needs sasl.mechanism = SCRAM-SHA-256 or SCRAM-SHA-512"),
            std::string::npos);
  EXPECT_NE(Refusal({{"sasl.jaas.config", jaas}, {"sasl.mechanism", "PLAIN"}}).find("(it is PLAIN)"), std::string::npos);
}

TEST(KafkaJaas, PlainAgainstAnotherMechanismIsRefused) {
  std::string jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required username=u password=" +
                     std::string(kPassword) + ";";
  EXPECT_NE(Refusal({{"sasl.jaas.config", jaas}, {"sasl.mechanism", "SCRAM-SHA-256"}})
                .find("names the PlainLoginModule but sasl.mechanism is SCRAM-SHA-256"),
            std::string::npos);
}

TEST(KafkaJaas, ContradictingExplicitCredentialsAreRefused) {
  std::string jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"" +
                     std::string(kPassword) + "\";";
  EXPECT_NE(Refusal({{"sasl.jaas.config", jaas}, {"sasl.password", "other"}}).find("sasl.password is set both"),
            std::string::npos);
  // The same values twice are no contradiction, and are not repeated.
  KafkaProperties got = Expand({{"sasl.username", "u"}, {"sasl.jaas.config", jaas}});
  KafkaProperties want = {{"sasl.username", "u"}, {"sasl.mechanism", "PLAIN"}, {"sasl.password", kPassword}};
  EXPECT_EQ(got, want);
}

TEST(KafkaJaas, MalformedAndUnsupportedLinesAreNamed) {
  std::string p = std::string(kPassword);
  struct Case {
    std::string jaas;
    std::string want;
  } cases[] = {
      {"", "no login module class is given"},
      {"org.apache.kafka.common.security.plain.PlainLoginModule username=\"u\" password=\"" + p + "\";",
       "must be followed by a control flag"},
      {"org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"" + p + "\"",
       "must end with ';'"},
      {"org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"" + p,
       "has no closing quote"},
      {"org.apache.kafka.common.security.plain.PlainLoginModule required password=\"" + p + "\";",
       "needs both username and password"},
      {"com.example.MyLoginModule required username=\"u\" password=\"" + p + "\";", "unknown login module"},
      {"org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;",
       "not supported yet: the OAuthBearerLoginModule"},
      {"com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true;", "not supported yet: the Krb5LoginModule"},
      {"org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" password=\"" + p +
           "\" tokenauth=\"true\";",
       "not supported yet: the ScramLoginModule option 'tokenauth'"},
      {"org.apache.kafka.common.security.plain.PlainLoginModule required username=u password=" + p +
           "; org.apache.kafka.common.security.plain.PlainLoginModule required username=v password=w;",
       "more than one login module"},
  };
  for (auto& c : cases) {
    std::string message = Refusal({{"sasl.mechanism", "SCRAM-SHA-256"}, {"sasl.jaas.config", c.jaas}});
    EXPECT_NE(message.find(c.want), std::string::npos) << c.jaas << "\n -> " << message;
    EXPECT_EQ(message.rfind("sasl.jaas.config", 0), 0u) << message;
  }
  EXPECT_TRUE(CheckJaasConfig("org.apache.kafka.common.security.scram.ScramLoginModule required username=u password=p;").ok());
}

TEST(KafkaJaas, PropertiesWithoutJaasPassUnchanged) {
  KafkaProperties given = {{"bootstrap.servers", "b:1"}, {"sasl.username", "u"}};
  EXPECT_EQ(Expand(given), given);
  EXPECT_TRUE(IsJaasConfigKey("kafka.sasl.jaas.config"));
  EXPECT_FALSE(IsJaasConfigKey("sasl.jaas"));
}

}  // namespace
}  // namespace lakestream
