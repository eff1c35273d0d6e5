// A Kafka sink's credentials as the catalog keeps them: never in clear.
// Inline credentials of a sink (CREATE/ALTER SINK ... 'sasl.password' = ...)
// move into a persistent secret the sink owns (SinkSecretName), and the
// sink keeps only 'secret' = its name. The catalog layer does this, because
// a catalog written before secrets existed is migrated when it is saved
// (DatabaseInstance::SaveCatalog); connector/secret_use.hpp resolves the
// secrets when the broker is contacted.
#pragma once

#include <optional>
#include <string>

#include "common/secret/secret.hpp"

namespace lakestream {

struct SinkCatalogEntry;

// Throws InvalidInputError ("<what>: ...") when librdkafka does not know the
// property `key` or (for a plain value) rejects the value. Never quotes the value.
void CheckKafkaCredential(const std::string& what, const std::string& key, const std::string& value);

// The value of the sink's 'secret' option, or "" when it names none.
std::string SinkSecretOption(const SinkCatalogEntry& sink);

// CREATE/ALTER SINK: takes the sensitive plain values out of `sink.options`
// into the sink's own secret (merged into the one `secrets` keeps for it, if
// any), leaving 'secret' = its name. Returns that secret for the caller to
// store (nullopt when nothing moved). Throws when the options also name
// another secret.
std::optional<Secret> TakeInlineCredentials(SecretManager& secrets, bool in_memory, SinkCatalogEntry& sink);

// A catalog written before secrets existed may hold a sink's password in
// clear: DatabaseInstance::SaveCatalog moves it into the sink's own secret
// (stored at once) before the catalog is written again.
void MoveStoredInlineCredentials(SecretManager& secrets, SinkCatalogEntry& sink);

}  // namespace lakestream
