#include "catalog/sink_credentials.hpp"

#include <librdkafka/rdkafka.h>

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/kafka_jaas.hpp"
#include "common/string_util.hpp"

namespace lakestream {

void CheckKafkaCredential(const std::string& what, const std::string& key, const std::string& value) {
  bool env = EnvReferenceName(value).has_value();
  if (IsJaasConfigKey(key)) {  // Java's form, mapped at use (common/kafka_jaas.hpp)
    Status s = env ? Status::OK() : CheckJaasConfig(value);
    if (!s.ok()) throw InvalidInputError(what + ": " + s.message());
    return;
  }
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char errstr[512];
  rd_kafka_conf_res_t res = rd_kafka_conf_set(conf, key.c_str(), env ? "" : value.c_str(), errstr, sizeof(errstr));
  rd_kafka_conf_destroy(conf);
  if (res == RD_KAFKA_CONF_UNKNOWN) {
    throw InvalidInputError(what + ": unknown Kafka property '" + key + "'; a kafka secret holds librdkafka properties "
                            "such as sasl.username, sasl.password, sasl.mechanism, security.protocol, ssl.key.password");
  }
  if (res != RD_KAFKA_CONF_OK && !env) {
    // librdkafka's message quotes the value: not shown for a credential.
    throw InvalidInputError(what + ": bad value for Kafka property '" + key + "'" +
                            (IsSensitiveKey("kafka", key) ? std::string() : ": " + std::string(errstr)));
  }
}

std::string SinkSecretOption(const SinkCatalogEntry& sink) {
  for (auto& [k, v] : sink.options) {
    if (StringUtil::CIEquals(k, "secret")) return v;
  }
  return "";
}

std::optional<Secret> TakeInlineCredentials(SecretManager& secrets, bool in_memory, SinkCatalogEntry& sink) {
  if (sink.target == "file") return std::nullopt;
  std::string own = SinkSecretName(sink.name);
  std::vector<std::pair<std::string, std::string>> moved;
  std::vector<std::pair<std::string, std::string>> kept;
  for (auto& [k, v] : sink.options) {
    if (IsSensitiveKey("kafka", k) && !EnvReferenceName(v)) {
      std::string key = StringUtil::StartsWith(StringUtil::Lower(k), "kafka.") ? k.substr(6) : k;
      CheckKafkaCredential("Sink " + sink.name, key, v);
      moved.emplace_back(key, v);
    } else if (!StringUtil::CIEquals(k, "secret")) {
      kept.emplace_back(k, v);
    }
  }
  std::string named = SinkSecretOption(sink);
  if (moved.empty()) return std::nullopt;
  if (!named.empty() && !StringUtil::CIEquals(named, own)) {
    throw InvalidInputError("Sink " + sink.name + ": it names secret " + named + " and also gives '" + moved[0].first +
                            "' inline; put the credential into the secret (CREATE OR REPLACE SECRET " + named +
                            " ...) or leave out 'secret'");
  }
  Secret secret;
  secret.name = own;
  secret.type = "kafka";
  secret.persistent = !in_memory;
  secret.owner_sink = sink.name;
  // ALTER SINK SET ('sasl.password' = ...) keeps the other credentials of the sink's secret.
  if (!named.empty()) {
    if (auto previous = secrets.Find(own)) secret.values = previous->values;
  }
  for (auto& [k, v] : moved) {
    bool replaced = false;
    for (auto& [pk, pv] : secret.values) {
      if (StringUtil::CIEquals(pk, k)) {
        pv = v;
        replaced = true;
      }
    }
    if (!replaced) secret.values.emplace_back(k, v);
  }
  kept.emplace_back("secret", own);
  sink.options = std::move(kept);
  sink.parsed_options.reset();
  return secret;
}

void MoveStoredInlineCredentials(SecretManager& secrets, SinkCatalogEntry& sink) {
  std::optional<Secret> own;
  try {
    own = TakeInlineCredentials(secrets, /*in_memory=*/false, sink);
  } catch (const InvalidInputError&) {
    return;  // a value librdkafka refuses: RUN SINK reports it (without the value)
  }
  if (own) secrets.Create(*own, /*or_replace=*/true);
}

}  // namespace lakestream
