#include "connector/secret_use.hpp"

#include "catalog/catalog.hpp"
#include "common/exception.hpp"
#include "common/kafka_jaas.hpp"
#include "common/string_util.hpp"
#include "connector/sink_options.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {

std::vector<std::pair<std::string, std::string>> KafkaSecretProperties(ClientContext& context, const std::string& name,
                                                                       const std::string& what) {
  auto secret = context.Database().Secrets().Find(name);
  if (!secret) {
    throw InvalidInputError(what + ": secret " + name + " does not exist; CREATE SECRET " + name +
                            " (TYPE kafka, 'sasl.username' '...', 'sasl.password' '...') (add PERSISTENT to keep it "
                            "across sessions), or name another secret (SHOW SECRETS lists them)");
  }
  if (secret->type != "kafka") {
    throw InvalidInputError(what + ": secret " + secret->name + " is of type " + secret->type +
                            ", not kafka; name a secret created with TYPE kafka");
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& [k, v] : secret->values) {
    out.emplace_back(k, ResolveEnvValue(v, what + " (secret " + secret->name + ", '" + k + "')"));
  }
  return out;
}

SinkOptions WithSinkCredentials(ClientContext& context, const SinkCatalogEntry& sink, const SinkOptions& options) {
  SinkOptions out = options;
  if (!options.kafka) return out;
  out.kafka_properties.clear();
  std::string what = "Sink " + sink.name;
  if (!options.secret_name.empty()) out.kafka_properties = KafkaSecretProperties(context, options.secret_name, what);
  for (auto& [k, v] : options.kafka_properties) {
    out.kafka_properties.emplace_back(k, ResolveEnvValue(v, what + " ('" + k + "')"));
  }
  // A sasl.jaas.config (in the options or the secret) becomes librdkafka's
  // sasl.* properties here, once, for every client the sink makes.
  auto expanded = ExpandJaasConfig(out.kafka_properties);
  if (!expanded.ok()) throw InvalidInputError(what + ": " + expanded.status().message());
  out.kafka_properties = expanded.take();
  return out;
}

std::optional<Secret> TakeInlineCredentials(ClientContext& context, SinkCatalogEntry& sink) {
  return TakeInlineCredentials(context.Database().Secrets(), context.Database().InMemory(), sink);
}

void WithSinkSecret(ClientContext& context, const std::optional<Secret>& secret, const std::function<void()>& define) {
  if (!secret) {
    define();
    return;
  }
  SecretManager& secrets = context.Database().Secrets();
  std::optional<Secret> previous = secrets.Find(secret->name);
  secrets.Create(*secret, /*or_replace=*/true);
  try {
    define();
  } catch (...) {
    if (previous) {
      secrets.Create(*previous, true);
    } else {
      secrets.Drop(secret->name, true);
    }
    throw;
  }
}

void DropSinkSecret(ClientContext& context, const std::string& sink_name) {
  context.Database().Secrets().Drop(SinkSecretName(sink_name), std::nullopt);
}

}  // namespace lakestream
