// S3Config: where and as whom an s3:// path is reached (docs/object-storage.md).
//
// Resolution order for a path (first that applies wins, as DuckDB and the
// AWS SDKs do):
//   1. a secret of TYPE s3 whose SCOPE is the longest prefix of the path, in
//      any database open in this process that registered a source
//      (RegisterS3ConfigSource; DatabaseInstance does with its secrets);
//   2. the environment: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
//      AWS_SESSION_TOKEN, AWS_REGION (or AWS_DEFAULT_REGION),
//      AWS_ENDPOINT_URL (or AWS_ENDPOINT_URL_S3), AWS_S3_ALLOW_UNSAFE_RENAME;
//   3. ~/.aws/credentials (and ~/.aws/config for the region), profile
//      AWS_PROFILE or "default" (AWS_SHARED_CREDENTIALS_FILE and
//      AWS_CONFIG_FILE move them).
// Keys missing from the winner are not taken from a later source (a secret
// that names the endpoint but no keys means an anonymous store).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.hpp"

namespace lakestream {

struct S3Config {
  std::string key_id;
  std::string secret;
  std::string session_token;
  std::string region = "us-east-1";
  // host[:port], or a URL whose scheme sets use_ssl ("http://127.0.0.1:9000").
  // Empty: AWS (s3.<region>.amazonaws.com).
  std::string endpoint;
  bool path_style = false;  // URL_STYLE 'path' (MinIO, test servers) vs 'vhost'
  bool use_ssl = true;
  // A store without conditional writes (If-None-Match) may take Delta
  // commits only when one writer exists: then PutIfAbsent is HEAD + PUT and
  // two racing writers can overwrite each other's commit. Off by default.
  bool allow_unsafe_rename = false;
  std::string origin;  // "secret NAME", "environment", "profile P" (for messages)
};

// A source of configurations: the config for `path` (or the error that its
// settings are wrong), or nullopt when it has nothing for it. Never throws.
using S3ConfigSource = std::function<std::optional<Result<S3Config>>(const std::string& path)>;

// Registers a source consulted before the environment; returns a token for
// UnregisterS3ConfigSource. Thread-safe.
uint64_t RegisterS3ConfigSource(S3ConfigSource source);
void UnregisterS3ConfigSource(uint64_t token);

// The configuration for `path` (an s3:// URL) per the order above.
Result<S3Config> ResolveS3Config(const std::string& path);

// How often ~/.aws/credentials or ~/.aws/config was read and parsed: each is
// re-read only after it changed (identity, size or modification time).
// For tests.
uint64_t S3ProfileFileReads();

// Builds a config from secret values (keys lower case: key_id, secret,
// session_token, region, endpoint, url_style, use_ssl, allow_unsafe_rename).
// InvalidArgument names the bad key and value.
Result<S3Config> S3ConfigFromValues(const std::vector<std::pair<std::string, std::string>>& values,
                                    const std::string& origin);

}  // namespace lakestream
