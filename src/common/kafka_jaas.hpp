// Java Kafka clients take SASL credentials as one JAAS line
// (`sasl.jaas.config`), and that is what Spark and Databricks notebooks pass
// (`kafka.sasl.jaas.config`, often with Databricks' `kafkashaded.` class
// prefix). librdkafka has no such property: it takes sasl.username,
// sasl.password and sasl.mechanism. This maps the one onto the others.
//
// Grammar accepted (one login module; Java accepts the same):
//   config  := module flag option* ';'
//   module  := a class name: [kafkashaded.]org.apache.kafka.common.security.
//              plain.PlainLoginModule | ...scram.ScramLoginModule
//   flag    := required | requisite | sufficient | optional
//   option  := key '=' ( '"' chars '"' | '\'' chars '\'' | bare )
//   (inside quotes a backslash escapes the next character)
//
// PlainLoginModule gives sasl.mechanism PLAIN when none is set; a
// ScramLoginModule needs sasl.mechanism SCRAM-SHA-256 or SCRAM-SHA-512 set
// beside it (as Java requires). OAuth bearer and Kerberos modules, several
// modules, and options other than username/password are refused by name.
// No error message repeats a value (they are credentials).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/status.hpp"

namespace lakestream {

using KafkaProperties = std::vector<std::pair<std::string, std::string>>;

// Whether `key` (any case, with or without a `kafka.` prefix) is sasl.jaas.config.
bool IsJaasConfigKey(const std::string& key);

// Checks one JAAS line alone (module, options; not the mechanism, which may
// be set elsewhere): what a secret holding it is checked with.
Status CheckJaasConfig(const std::string& jaas);

// The librdkafka properties one JAAS line stands for, checked against the
// mechanism given beside it (`mechanism`: sasl.mechanism(s), "" if unset).
// InvalidArgument (NotSupported for a module lakestream cannot map) naming
// what is wrong and the fix.
Result<KafkaProperties> JaasToLibrdkafka(const std::string& jaas, const std::string& mechanism);

// `properties` with every sasl.jaas.config replaced by what it stands for;
// refuses one that contradicts a sasl.username/sasl.password set as well.
Result<KafkaProperties> ExpandJaasConfig(const KafkaProperties& properties);

}  // namespace lakestream
