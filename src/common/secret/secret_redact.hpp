// Redaction of credentials in SQL text, for places that keep or show what
// users typed (the shell's history file, parser error messages).
//
// The rule is by statement, not by position, so that no spelling slips
// through: when a text names a credential key anywhere (NamesCredentialKey,
// outside comments), EVERY literal in it is replaced, whatever its quoting
// ('..', "..", `..`, E'..' with backslash escapes, $$..$$ / $tag$..$tag$,
// backslash escapes as Spark reads them), whatever comments stand between a
// key and its value, and whether or not the text parses (unterminated
// literals run to the end). Kept: the quoted keys themselves
// ('sasl.password'), env('NAME') references, keywords and identifiers,
// except what stands as a key's value, up to the next ',', ')' or ';'
// (`password = hunter2`, `'sasl.password' 'a' b` inside parentheses), which
// is replaced as one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lakestream {

// Does `key` (unquoted, any case, "kafka." prefix allowed) name a credential
// whose statement is redacted? Wider than IsSensitiveKey, which decides
// which stored values are secret: any sasl.* or ssl.*key* property, any key
// containing password, passwd, secret, token, credential, private_key,
// access_key or api_key, and *key_id (S3's KEY_ID, aws_access_key_id).
bool NamesCredentialKey(std::string_view key);

struct RedactedSql {
  std::string text;                 // the SQL with its literals replaced
  std::vector<std::string> hidden;  // what was replaced, raw and unquoted (for RedactMessage)
};

// `sql` redacted as described above; text == sql when it names no
// credential. When `offset` is given (a position in `sql`), it is moved to
// the same place in the result (to the start of a replacement it pointed
// into).
RedactedSql RedactStatement(const std::string& sql, uint32_t* offset = nullptr);

// RedactStatement(sql, offset).text.
std::string RedactSecrets(const std::string& sql, uint32_t* offset = nullptr);

// `message` (an error about the redacted SQL, which may quote a piece of
// it) with every piece of `hidden` replaced by "redacted" where it stands
// alone (not inside a longer word). Pieces without a letter or digit are
// replaced only in their raw, quoted form.
std::string RedactMessage(const std::string& message, const std::vector<std::string>& hidden);

}  // namespace lakestream
