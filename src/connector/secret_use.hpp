// Where secrets are used (connector layer: it resolves them for the broker): Kafka sinks ('secret' = 'name' in CREATE SINK WITH)
// and read_kafka (secret => 'name'). Values are resolved when the broker is
// contacted (CREATE/ALTER/RUN SINK, read_kafka's bind), never stored with
// the sink: inline credentials of a sink move into a persistent secret the
// sink owns (SinkSecretName) and the sink keeps only 'secret' = its name.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/sink_credentials.hpp"
#include "common/secret/secret.hpp"

namespace lakestream {

class ClientContext;
struct SinkCatalogEntry;
struct SinkOptions;

// The librdkafka properties of the kafka secret `name`, env() values read
// now. Throws InvalidInputError naming `what`, the secret and the fix when
// it does not exist or is not a kafka secret, or a variable is unset.
std::vector<std::pair<std::string, std::string>> KafkaSecretProperties(ClientContext& context, const std::string& name,
                                                                       const std::string& what);

// `options` with the named secret's properties put first (the sink's own
// options win) and env() values read: what the producer and consumers use.
SinkOptions WithSinkCredentials(ClientContext& context, const SinkCatalogEntry& sink, const SinkOptions& options);

// CREATE/ALTER SINK: takes the sensitive plain values out of `sink.options`
// into the sink's own secret (merged into the one the database keeps for it, if any),
// leaving 'secret' = its name. Returns that secret for the caller to store
// (nullopt when nothing moved). Throws when the options also name another secret.
std::optional<Secret> TakeInlineCredentials(ClientContext& context, SinkCatalogEntry& sink);

// Stores `secret` for the definition of `sink` (made by `define`); when
// `define` throws, the previous version of the secret is put back.
void WithSinkSecret(ClientContext& context, const std::optional<Secret>& secret, const std::function<void()>& define);

// Drops the secret sink `sink_name` owns, if any.
void DropSinkSecret(ClientContext& context, const std::string& sink_name);

}  // namespace lakestream
