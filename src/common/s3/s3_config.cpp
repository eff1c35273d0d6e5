#include "common/s3/s3_config.hpp"

#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>

#include "common/string_util.hpp"

namespace lakestream {

namespace {

std::mutex sources_mu;
uint64_t next_token = 1;
std::map<uint64_t, S3ConfigSource>& Sources() {
  static auto* sources = new std::map<uint64_t, S3ConfigSource>();
  return *sources;
}

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

Result<bool> ParseBool(const std::string& key, const std::string& value) {
  std::string v = StringUtil::Lower(Trim(value));
  if (v == "true" || v == "1" || v == "on" || v == "yes") return true;
  if (v == "false" || v == "0" || v == "off" || v == "no" || v.empty()) return false;
  return Status::InvalidArgument("S3 option " + key + " = '" + value + "' is not a boolean; use true or false");
}

using IniFile = std::map<std::string, std::map<std::string, std::string>>;  // section -> key -> value

IniFile ParseIni(std::istream& in) {
  IniFile out;
  std::string line;
  std::map<std::string, std::string>* section = nullptr;
  while (std::getline(in, line)) {
    std::string t = Trim(line);
    if (t.empty() || t[0] == '#' || t[0] == ';') continue;
    if (t.front() == '[' && t.back() == ']') {
      section = &out[Trim(t.substr(1, t.size() - 2))];
      continue;
    }
    if (!section) continue;
    size_t eq = t.find('=');
    if (eq == std::string::npos) continue;
    (*section)[StringUtil::Lower(Trim(t.substr(0, eq)))] = Trim(t.substr(eq + 1));
  }
  return out;
}

// ~/.aws/credentials and ~/.aws/config are consulted for every request that
// no secret or environment variable configures: each file's parse is kept
// while its identity, size and modification time are unchanged. A time
// within kRacyNanos of the read may hide a second write in the same
// timestamp tick, so such a parse is not kept.
constexpr int64_t kRacyNanos = 2'000'000'000;
std::atomic<uint64_t> ini_reads{0};

struct IniCacheEntry {
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = 0;
  int64_t mtime_ns = 0;
  IniFile contents;
};

std::map<std::string, std::string> IniSection(const std::string& file, const std::string& section) {
  static std::mutex mu;
  static auto* cache = new std::map<std::string, IniCacheEntry>();
  struct stat st;
  if (file.empty() || ::stat(file.c_str(), &st) != 0) return {};
  int64_t mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  {
    std::lock_guard<std::mutex> g(mu);
    auto it = cache->find(file);
    if (it != cache->end() && it->second.dev == st.st_dev && it->second.ino == st.st_ino &&
        it->second.size == st.st_size && it->second.mtime_ns == mtime_ns) {
      auto sec = it->second.contents.find(section);
      return sec == it->second.contents.end() ? std::map<std::string, std::string>() : sec->second;
    }
    cache->erase(file);
  }
  int64_t now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::system_clock::now().time_since_epoch()).count();
  std::ifstream in(file);
  if (!in) return {};
  ini_reads++;
  IniCacheEntry entry{st.st_dev, st.st_ino, st.st_size, mtime_ns, ParseIni(in)};
  auto sec = entry.contents.find(section);
  std::map<std::string, std::string> out = sec == entry.contents.end() ? std::map<std::string, std::string>() : sec->second;
  if (mtime_ns <= now_ns - kRacyNanos) {
    std::lock_guard<std::mutex> g(mu);
    (*cache)[file] = std::move(entry);
  }
  return out;
}

}  // namespace

uint64_t S3ProfileFileReads() { return ini_reads.load(); }

namespace {

void ApplyEndpoint(S3Config& c, const std::string& endpoint) {
  std::string e = endpoint;
  if (StringUtil::StartsWith(e, "http://")) {
    c.use_ssl = false;
    e = e.substr(7);
  } else if (StringUtil::StartsWith(e, "https://")) {
    c.use_ssl = true;
    e = e.substr(8);
  }
  while (!e.empty() && e.back() == '/') e.pop_back();
  c.endpoint = e;
  // A custom endpoint (MinIO, a test server, an IP) rarely resolves
  // bucket.host names: path style unless told otherwise.
  if (!e.empty()) c.path_style = true;
}

}  // namespace

uint64_t RegisterS3ConfigSource(S3ConfigSource source) {
  std::lock_guard<std::mutex> g(sources_mu);
  uint64_t token = next_token++;
  Sources()[token] = std::move(source);
  return token;
}

void UnregisterS3ConfigSource(uint64_t token) {
  std::lock_guard<std::mutex> g(sources_mu);
  Sources().erase(token);
}

Result<S3Config> S3ConfigFromValues(const std::vector<std::pair<std::string, std::string>>& values,
                                    const std::string& origin) {
  S3Config c;
  c.origin = origin;
  bool style_given = false;
  std::string style;
  std::optional<bool> ssl;
  for (auto& [k, v] : values) {
    std::string key = StringUtil::Lower(k);
    if (key == "key_id") c.key_id = v;
    else if (key == "secret") c.secret = v;
    else if (key == "session_token") c.session_token = v;
    else if (key == "region") c.region = v;
    else if (key == "endpoint") ApplyEndpoint(c, v);
    else if (key == "url_style") {
      style = StringUtil::Lower(v);
      if (style != "path" && style != "vhost")
        return Status::InvalidArgument(origin + ": URL_STYLE '" + v + "' is neither 'path' nor 'vhost'");
      style_given = true;
    } else if (key == "use_ssl") {
      auto b = ParseBool("USE_SSL", v);
      if (!b.ok()) return b.status();
      ssl = b.value();
    } else if (key == "allow_unsafe_rename") {
      auto b = ParseBool("ALLOW_UNSAFE_RENAME", v);
      if (!b.ok()) return b.status();
      c.allow_unsafe_rename = b.value();
    }
  }
  if (style_given) c.path_style = style == "path";
  if (ssl) c.use_ssl = *ssl;
  return c;
}

Result<S3Config> ResolveS3Config(const std::string& path) {
  {
    std::vector<S3ConfigSource> sources;
    {
      std::lock_guard<std::mutex> g(sources_mu);
      for (auto& [t, s] : Sources()) sources.push_back(s);
    }
    for (auto& s : sources) {
      if (auto c = s(path)) return std::move(*c);
    }
  }
  std::vector<std::pair<std::string, std::string>> values;
  std::string unsafe = Env("AWS_S3_ALLOW_UNSAFE_RENAME");
  if (!unsafe.empty()) values.emplace_back("allow_unsafe_rename", unsafe);
  std::string region = Env("AWS_REGION");
  if (region.empty()) region = Env("AWS_DEFAULT_REGION");
  std::string endpoint = Env("AWS_ENDPOINT_URL_S3");
  if (endpoint.empty()) endpoint = Env("AWS_ENDPOINT_URL");
  if (!endpoint.empty()) values.emplace_back("endpoint", endpoint);
  std::string style = Env("AWS_S3_URL_STYLE");
  if (!style.empty()) values.emplace_back("url_style", style);
  if (!Env("AWS_ACCESS_KEY_ID").empty()) {
    values.emplace_back("key_id", Env("AWS_ACCESS_KEY_ID"));
    values.emplace_back("secret", Env("AWS_SECRET_ACCESS_KEY"));
    values.emplace_back("session_token", Env("AWS_SESSION_TOKEN"));
    if (!region.empty()) values.emplace_back("region", region);
    return S3ConfigFromValues(values, "the AWS_* environment variables");
  }
  std::string home = Env("HOME");
  std::string profile = Env("AWS_PROFILE");
  if (profile.empty()) profile = "default";
  std::string cred_file = Env("AWS_SHARED_CREDENTIALS_FILE");
  if (cred_file.empty() && !home.empty()) cred_file = home + "/.aws/credentials";
  std::string config_file = Env("AWS_CONFIG_FILE");
  if (config_file.empty() && !home.empty()) config_file = home + "/.aws/config";
  auto creds = IniSection(cred_file, profile);
  auto conf = IniSection(config_file, profile == "default" ? "default" : "profile " + profile);
  if (region.empty() && conf.count("region")) region = conf["region"];
  if (!region.empty()) values.emplace_back("region", region);
  if (creds.count("aws_access_key_id")) {
    values.emplace_back("key_id", creds["aws_access_key_id"]);
    values.emplace_back("secret", creds["aws_secret_access_key"]);
    if (creds.count("aws_session_token")) values.emplace_back("session_token", creds["aws_session_token"]);
    return S3ConfigFromValues(values, "profile " + profile + " of " + cred_file);
  }
  return S3ConfigFromValues(values, "no credentials (anonymous requests)");
}

}  // namespace lakestream
