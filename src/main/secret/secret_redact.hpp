// Redaction of credentials in SQL text, for places that keep what users
// typed (the shell's history file).
#pragma once

#include <string>

namespace lakestream {

// `sql` with every string literal that is the value of a sensitive key
// (IsSensitiveKey: 'sasl.password' = '...', SECRET '...',
// "ssl.key.password" => '...', kafka.sasl.password = '...') replaced by
// 'redacted'. Keys may be identifiers (dotted), "quoted" or 'quoted'; the
// separator '=', '=>' or none (CREATE SECRET's KEY 'value'). Everything
// else is kept byte for byte.
std::string RedactSecrets(const std::string& sql);

}  // namespace lakestream
