// Redaction of credentials in SQL text, for places that keep what users
// typed (the shell's history file).
#pragma once

#include <cstdint>
#include <string>

namespace lakestream {

// `sql` with every string literal that is the value of a sensitive key
// (IsSensitiveKey: 'sasl.password' = '...', SECRET '...',
// "ssl.key.password" => '...', kafka.sasl.password = '...') replaced by
// 'redacted'. Keys may be identifiers (dotted), "quoted" or 'quoted'; the
// separator '=', '=>' or none (CREATE SECRET's KEY 'value'). Everything
// else is kept byte for byte.
// When `offset` is given (a position in `sql`), it is moved to the same
// place in the result (to the start of a redacted literal it pointed into).
std::string RedactSecrets(const std::string& sql, uint32_t* offset = nullptr);

}  // namespace lakestream
