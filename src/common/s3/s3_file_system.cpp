#include "common/s3/s3_file_system.hpp"

#include <curl/curl.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "common/string_util.hpp"

namespace lakestream {

struct S3FileSystem::Request {
  std::string method = "GET";
  S3Location loc;
  std::string path;  // for messages
  std::map<std::string, std::string> query;
  std::vector<std::string> headers;
  const std::string* body = nullptr;
  // Status codes that are answers, not errors (2xx always are).
  std::vector<long> accept;
};

struct S3FileSystem::Response {
  long status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // lower-case names
  bool expect_body = true;                      // false for HEAD (its Content-Length is the object's)
};

namespace {

std::string UriEncode(const std::string& s, bool keep_slash) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/')) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string Sha256Hex(const std::string& data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : digest) {
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  return out;
}

int MaxAttempts() {
  const char* v = std::getenv("LAKESTREAM_S3_MAX_ATTEMPTS");
  int n = v ? std::atoi(v) : 0;
  return n > 0 ? n : 6;
}

bool Retryable(long status, const std::string& code) {
  // 501 NotImplemented (a header the store does not support) will not change on retry.
  return (status >= 500 && status != 501) || status == 429 || code == "SlowDown" || code == "RequestTimeout" ||
         code == "ConditionalRequestConflict";
}

// libxml2 helpers: the text of the first child element named `name`.
std::string ChildText(xmlNode* node, const char* name) {
  for (xmlNode* c = node ? node->children : nullptr; c; c = c->next) {
    if (c->type == XML_ELEMENT_NODE && xmlStrcmp(c->name, reinterpret_cast<const xmlChar*>(name)) == 0) {
      xmlChar* t = xmlNodeGetContent(c);
      std::string s = t ? reinterpret_cast<const char*>(t) : "";
      xmlFree(t);
      return s;
    }
  }
  return "";
}

struct XmlDoc {
  xmlDoc* doc = nullptr;
  explicit XmlDoc(const std::string& body) {
    if (!body.empty())
      doc = xmlReadMemory(body.data(), static_cast<int>(body.size()), "s3.xml", nullptr, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  }
  ~XmlDoc() {
    if (doc) xmlFreeDoc(doc);
  }
  xmlNode* Root() const { return doc ? xmlDocGetRootElement(doc) : nullptr; }
};

// S3's <Error><Code/><Message/></Error>.
void ErrorCode(const std::string& body, std::string* code, std::string* message) {
  XmlDoc doc(body);
  xmlNode* root = doc.Root();
  if (!root) return;
  *code = ChildText(root, "Code");
  *message = ChildText(root, "Message");
}

int64_t ParseHttpDate(const std::string& text) {
  time_t t = curl_getdate(text.c_str(), nullptr);
  return t < 0 ? 0 : static_cast<int64_t>(t) * 1000;
}

// ISO 8601 "2024-05-01T10:00:00.000Z" (ListObjectsV2's LastModified).
int64_t ParseIsoDate(const std::string& text) {
  struct tm tm = {};
  if (!strptime(text.c_str(), "%Y-%m-%dT%H:%M:%S", &tm)) return 0;
  int64_t ms = static_cast<int64_t>(timegm(&tm)) * 1000;
  size_t dot = text.find('.');
  if (dot != std::string::npos) ms += std::atoi(text.substr(dot + 1, 3).c_str());
  return ms;
}

size_t WriteBody(char* data, size_t size, size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

size_t WriteHeader(char* data, size_t size, size_t n, void* out) {
  std::string line(data, size * n);
  size_t colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = StringUtil::Lower(line.substr(0, colon));
    std::string value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ')) value.erase(0, 1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' ')) value.pop_back();
    auto* resp = static_cast<S3FileSystem::Response*>(out);
    // A known body length is reserved at once: a range GET of 8 MiB would
    // otherwise grow the string a dozen times.
    if (name == "content-length" && resp->expect_body) {
      uint64_t length = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
      if (ec == std::errc() && end == value.data() + value.size())
        resp->body.reserve(static_cast<size_t>(std::min<uint64_t>(length, uint64_t{1} << 28)));
    }
    resp->headers[name] = value;
  }
  return size * n;
}

// One curl handle per thread: kept connections make the next request cheap.
struct CurlHandle {
  CURL* curl = nullptr;
  CurlHandle() {
    static std::once_flag once;
    std::call_once(once, [] {
      curl_global_init(CURL_GLOBAL_DEFAULT);
      xmlInitParser();
    });
    curl = curl_easy_init();
  }
  ~CurlHandle() {
    if (curl) curl_easy_cleanup(curl);
  }
};

std::string Describe(const std::string& method, const S3Location& loc) {
  return "S3 " + method + " of bucket '" + loc.bucket + "', key '" + loc.key + "'";
}

}  // namespace

Result<S3Location> ParseS3Path(const std::string& path) {
  if (!StringUtil::StartsWith(path, "s3://"))
    return Status::NotSupported("'" + path + "': only local paths and s3://bucket/key URLs are supported (Google Cloud "
                                "Storage and R2 through their S3 endpoints: an s3:// URL and the secret's ENDPOINT)");
  std::string rest = path.substr(5);
  size_t slash = rest.find('/');
  S3Location loc;
  loc.bucket = rest.substr(0, slash);
  if (slash != std::string::npos) loc.key = rest.substr(slash + 1);
  while (!loc.key.empty() && loc.key.back() == '/') loc.key.pop_back();
  if (loc.bucket.empty())
    return Status::InvalidArgument("'" + path + "' names no bucket; write s3://bucket/key");
  return loc;
}

// A listing is a GET of the bucket: it names the prefix listed as its key.
static std::string DescribeRequest(const S3FileSystem::Request& req) {
  auto prefix = req.query.find("prefix");
  if (req.loc.key.empty() && prefix != req.query.end())
    return "S3 LIST of bucket '" + req.loc.bucket + "', key prefix '" + prefix->second + "'";
  return Describe(req.method, req.loc);
}

S3FileSystem* S3FileSystem::Instance() {
  static S3FileSystem* fs = new S3FileSystem();
  return fs;
}

Result<S3FileSystem::Response> S3FileSystem::Send(const Request& req) {
  std::string full_path = "s3://" + req.loc.bucket + "/" + req.loc.key;
  auto resolved = ResolveS3Config(full_path);
  if (!resolved.ok()) return resolved.status();
  const S3Config& cfg = resolved.value();
  std::string host = cfg.endpoint.empty() ? "s3." + cfg.region + ".amazonaws.com" : cfg.endpoint;
  std::string url = std::string(cfg.use_ssl ? "https://" : "http://");
  if (cfg.path_style) {
    url += host + "/" + req.loc.bucket;
  } else {
    url += req.loc.bucket + "." + host;
  }
  url += "/" + UriEncode(req.loc.key, true);
  // Sorted and encoded: SigV4's canonical query string is exactly this.
  bool first = true;
  for (auto& [k, v] : req.query) {
    url += first ? "?" : "&";
    first = false;
    url += UriEncode(k, false) + "=" + UriEncode(v, false);
  }
  static thread_local CurlHandle handle;
  CURL* curl = handle.curl;
  if (!curl) return Status::IOError(DescribeRequest(req) + ": cannot initialise libcurl");
  int attempts = MaxAttempts();
  std::mt19937_64 rng(std::random_device{}());
  std::string last_error;
  for (int attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) {
      // Exponential backoff with full jitter, capped at 5 s.
      int64_t cap = std::min<int64_t>(5000, 50LL << std::min(attempt, 10));
      std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int64_t>(cap / 2, cap)(rng)));
    }
    requests_++;
    curl_easy_reset(curl);
    Response resp;
    resp.expect_body = req.method != "HEAD";
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 60L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, WriteBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &resp.body);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, WriteHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &resp);
    // Fewer, larger reads from the socket for large bodies (default 16 KiB).
    curl_easy_setopt(curl, CURLOPT_BUFFERSIZE, 512L * 1024);
    struct curl_slist* headers = nullptr;
    for (auto& h : req.headers) headers = curl_slist_append(headers, h.c_str());
    static const std::string kEmpty;
    const std::string& body = req.body ? *req.body : kEmpty;
    std::string content_sha = "x-amz-content-sha256: " + Sha256Hex(body);
    headers = curl_slist_append(headers, content_sha.c_str());
    headers = curl_slist_append(headers, "Expect:");
    if (req.method == "HEAD") {
      curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    } else if (req.method == "PUT" || req.method == "POST") {
      curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, req.method.c_str());
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
      curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
      headers = curl_slist_append(headers, "Content-Type: application/octet-stream");
    } else if (req.method != "GET") {
      curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, req.method.c_str());
    }
    std::string session;
    if (!cfg.key_id.empty()) {
      std::string sigv4 = "aws:amz:" + cfg.region + ":s3";
      curl_easy_setopt(curl, CURLOPT_AWS_SIGV4, sigv4.c_str());
      curl_easy_setopt(curl, CURLOPT_USERNAME, cfg.key_id.c_str());
      curl_easy_setopt(curl, CURLOPT_PASSWORD, cfg.secret.c_str());
      if (!cfg.session_token.empty()) {
        session = "x-amz-security-token: " + cfg.session_token;
        headers = curl_slist_append(headers, session.c_str());
      }
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    CURLcode rc = curl_easy_perform(curl);
    curl_slist_free_all(headers);
    if (rc != CURLE_OK) {
      last_error = std::string(curl_easy_strerror(rc)) + " (" + url.substr(0, url.find('?')) + ", credentials from " +
                   cfg.origin + ")";
      continue;  // connection refused, reset, timeout: retried
    }
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &resp.status);
    if (resp.status >= 200 && resp.status < 300) return resp;
    for (long a : req.accept)
      if (a == resp.status) return resp;
    std::string code, message;
    ErrorCode(resp.body, &code, &message);
    std::string what = DescribeRequest(req) + " failed: HTTP " + std::to_string(resp.status) +
                       (code.empty() ? "" : " " + code) + (message.empty() ? "" : ": " + message);
    if (Retryable(resp.status, code)) {
      last_error = what;
      continue;
    }
    if (resp.status == 404 && code == "NoSuchBucket") {
      // Not NotFound: callers read that as "no such object here" (no Delta
      // table, no file to list), which hides that every key of the path is
      // unreachable. The store, and where its settings came from, say which
      // bucket was asked for where.
      return Status::IOError(what + " (there is no bucket '" + req.loc.bucket + "' at " + host +
                             ": create it, or correct the bucket name in the path or the " +
                             (cfg.endpoint.empty() ? "REGION" : "ENDPOINT") + " of the S3 secret; settings from " +
                             cfg.origin + ")");
    }
    if (resp.status == 404) return Status::NotFound(what);
    if (resp.status == 412) return Status::AlreadyExists(what);
    if (resp.status == 501) return Status::NotSupported(what);
    if (resp.status == 401 || resp.status == 403) {
      return Status::IOError(what + " (credentials from " + cfg.origin +
                             "; check the key, secret and region of the S3 secret, CREATE SECRET (TYPE s3, ...))");
    }
    return Status::IOError(what);
  }
  return Status::IOError(DescribeRequest(req) + " failed after " + std::to_string(attempts) +
                         " attempts: " + last_error);
}

Result<std::string> S3FileSystem::ReadFile(const std::string& path) {
  Request req;
  auto loc = ParseS3Path(path);
  if (!loc.ok()) return loc.status();
  req.loc = loc.take();
  auto resp = Send(req);
  if (!resp.ok()) return resp.status();
  return std::move(resp.take().body);
}

Result<std::string> S3FileSystem::ReadRange(const std::string& path, uint64_t offset, uint64_t length) {
  if (length == 0) return std::string();
  Request req;
  auto loc = ParseS3Path(path);
  if (!loc.ok()) return loc.status();
  req.loc = loc.take();
  req.headers.push_back("Range: bytes=" + std::to_string(offset) + "-" + std::to_string(offset + length - 1));
  auto resp = Send(req);
  if (!resp.ok()) return resp.status();
  Response r = resp.take();
  // A server that ignores Range answers 200 with the whole object.
  if (r.status == 200 && r.body.size() > length) return r.body.substr(offset, length);
  return std::move(r.body);
}

Result<FileSystem::Tail> S3FileSystem::ReadTail(const std::string& path, uint64_t length) {
  Request req;
  auto loc = ParseS3Path(path);
  if (!loc.ok()) return loc.status();
  req.loc = loc.take();
  // A suffix range: the object's last `length` bytes, and (Content-Range)
  // its size, in one request. An empty object has no such range: 416.
  req.headers.push_back("Range: bytes=-" + std::to_string(std::max<uint64_t>(length, 1)));
  req.accept.push_back(416);
  auto resp = Send(req);
  if (!resp.ok()) return resp.status();
  Response r = resp.take();
  Tail tail;
  if (r.status == 416) return tail;
  if (r.status == 206) {
    // "bytes FIRST-LAST/SIZE"
    const std::string& range = r.headers["content-range"];
    size_t slash = range.rfind('/');
    char* end = nullptr;
    unsigned long long size = slash == std::string::npos ? 0 : std::strtoull(range.c_str() + slash + 1, &end, 10);
    if (slash == std::string::npos || end == range.c_str() + slash + 1 || size < r.body.size())
      return Status::IOError(Describe("GET", req.loc) + ": the store answered a range request with Content-Range '" +
                             range + "'");
    tail.file_size = size;
    size_t dash = range.find('-');
    unsigned long long last = dash == std::string::npos ? 0 : std::strtoull(range.c_str() + dash + 1, nullptr, 10);
    if (size > 0 && (last != size - 1 || r.body.size() > std::max<uint64_t>(length, 1))) {
      // Not the suffix asked for (s3rver answers `bytes=-N` with the first
      // N+1 bytes): now that the size is known, ask for the tail by offsets.
      uint64_t want = std::min<uint64_t>(length, size);
      auto bytes = ReadRange(path, size - want, want);
      if (!bytes.ok()) return bytes.status();
      tail.bytes = bytes.take();
      return tail;
    }
    tail.bytes = std::move(r.body);
  } else {
    // A store that ignores Range answers 200 with the whole object.
    tail.file_size = r.body.size();
    tail.bytes = r.body.substr(r.body.size() - std::min<uint64_t>(length, r.body.size()));
  }
  if (length == 0) tail.bytes.clear();
  return tail;
}

Status S3FileSystem::WriteFile(const std::string& path, const std::string& contents) {
  auto loc = ParseS3Path(path);
  if (!loc.ok()) return loc.status();
  if (contents.size() > multipart_threshold_.load()) return MultipartUpload(path, loc.value(), contents);
  Request req;
  req.method = "PUT";
  req.loc = loc.take();
  req.body = &contents;
  auto resp = Send(req);
  return resp.ok() ? Status::OK() : resp.status();
}

Status S3FileSystem::MultipartUpload(const std::string& path, const S3Location& loc, const std::string& contents) {
  Request start;
  start.method = "POST";
  start.loc = loc;
  start.query["uploads"] = "";
  auto started = Send(start);
  if (!started.ok()) return started.status();
  XmlDoc doc(started.value().body);
  std::string upload_id = ChildText(doc.Root(), "UploadId");
  if (upload_id.empty()) return Status::IOError(Describe("POST", loc) + ": the store started no multipart upload (no UploadId)");
  std::string done = "<CompleteMultipartUpload>";
  Status failed;
  const uint64_t part_size = std::max<uint64_t>(1, part_size_.load());
  for (uint64_t off = 0, part = 1; off < contents.size(); off += part_size, part++) {
    std::string chunk = contents.substr(off, part_size);
    Request put;
    put.method = "PUT";
    put.loc = loc;
    put.query["partNumber"] = std::to_string(part);
    put.query["uploadId"] = upload_id;
    put.body = &chunk;
    auto r = Send(put);
    if (!r.ok()) {
      failed = r.status();
      break;
    }
    done += "<Part><PartNumber>" + std::to_string(part) + "</PartNumber><ETag>" + r.value().headers["etag"] +
            "</ETag></Part>";
  }
  if (failed.ok()) {
    done += "</CompleteMultipartUpload>";
    Request complete;
    complete.method = "POST";
    complete.loc = loc;
    complete.query["uploadId"] = upload_id;
    complete.body = &done;
    auto r = Send(complete);
    if (r.ok() && r.value().body.find("<Error>") == std::string::npos) return Status::OK();
    failed = r.ok() ? Status::IOError(Describe("POST", loc) + ": completing the multipart upload failed: " + r.value().body)
                    : r.status();
  }
  Request abort;
  abort.method = "DELETE";
  abort.loc = loc;
  abort.query["uploadId"] = upload_id;
  (void)Send(abort);
  return failed;
}

Result<std::vector<std::string>> S3FileSystem::ListDirectory(const std::string& dir) {
  auto loc = ParseS3Path(dir);
  if (!loc.ok()) return loc.status();
  std::string prefix = loc.value().key.empty() ? "" : loc.value().key + "/";
  std::vector<std::string> names;
  std::string token;
  do {
    Request req;
    req.loc.bucket = loc.value().bucket;
    req.query["list-type"] = "2";
    req.query["delimiter"] = "/";
    req.query["prefix"] = prefix;
    if (!token.empty()) req.query["continuation-token"] = token;
    auto resp = Send(req);
    if (!resp.ok()) return resp.status();
    XmlDoc doc(resp.value().body);
    xmlNode* root = doc.Root();
    if (!root) return Status::IOError(Describe("LIST", loc.value()) + ": the listing is not XML");
    for (xmlNode* c = root->children; c; c = c->next) {
      if (c->type != XML_ELEMENT_NODE) continue;
      std::string key;
      if (xmlStrcmp(c->name, BAD_CAST "Contents") == 0) key = ChildText(c, "Key");
      else if (xmlStrcmp(c->name, BAD_CAST "CommonPrefixes") == 0) key = ChildText(c, "Prefix");
      else continue;
      if (key.size() <= prefix.size()) continue;  // the "directory marker" object itself
      std::string name = key.substr(prefix.size());
      while (!name.empty() && name.back() == '/') name.pop_back();
      if (!name.empty()) names.push_back(name);
    }
    token = ChildText(root, "IsTruncated") == "true" ? ChildText(root, "NextContinuationToken") : "";
  } while (!token.empty());
  if (names.empty())
    return Status::NotFound(dir + ": no such directory (the listing of bucket '" + loc.value().bucket +
                            "' answered HTTP 200 with no key under the prefix '" + prefix + "')");
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

Result<std::vector<S3Object>> S3FileSystem::ListRecursive(const std::string& prefix_path, const std::string& start_after,
                                                           const std::string& stop_before) {
  auto loc = ParseS3Path(prefix_path);
  if (!loc.ok()) return loc.status();
  std::string prefix = loc.value().key.empty() ? "" : loc.value().key + "/";
  std::vector<S3Object> out;
  std::string token;
  bool in_order = true;
  std::string last_key;
  do {
    Request req;
    req.loc.bucket = loc.value().bucket;
    req.query["list-type"] = "2";
    req.query["prefix"] = prefix;
    if (!start_after.empty()) req.query["start-after"] = start_after;
    if (!token.empty()) req.query["continuation-token"] = token;
    auto resp = Send(req);
    if (!resp.ok()) return resp.status();
    XmlDoc doc(resp.value().body);
    xmlNode* root = doc.Root();
    if (!root) return Status::IOError(Describe("LIST", loc.value()) + ": the listing is not XML");
    for (xmlNode* c = root->children; c; c = c->next) {
      if (c->type != XML_ELEMENT_NODE || xmlStrcmp(c->name, BAD_CAST "Contents") != 0) continue;
      S3Object o;
      o.key = ChildText(c, "Key");
      o.size = std::strtoull(ChildText(c, "Size").c_str(), nullptr, 10);
      o.mtime_ms = ParseIsoDate(ChildText(c, "LastModified"));
      // S3 lists in key order, so the first key at stop_before ends the
      // listing. Not every store does (s3rver walks its folders: "t/x/..."
      // comes before "t/x-1"): once a key comes out of order, the rest is
      // listed and filtered instead.
      if (o.key < last_key) in_order = false;
      last_key = o.key;
      if (!stop_before.empty() && o.key >= stop_before) {
        if (in_order) return out;
        continue;
      }
      if (!o.key.empty() && o.key.back() != '/') out.push_back(o);
    }
    token = ChildText(root, "IsTruncated") == "true" ? ChildText(root, "NextContinuationToken") : "";
  } while (!token.empty());
  if (!in_order) std::sort(out.begin(), out.end(), [](const S3Object& a, const S3Object& b) { return a.key < b.key; });
  return out;
}

Result<std::vector<S3Object>> S3FileSystem::ListRecursiveSkipping(const std::string& prefix_path,
                                                                  const std::string& skipped) {
  auto loc = ParseS3Path(prefix_path);
  if (!loc.ok()) return loc.status();
  std::string folder = (loc.value().key.empty() ? "" : loc.value().key + "/") + skipped;
  // Every key in folder/ sorts before folder + '0', since '/' < '0'.
  auto before = ListRecursive(prefix_path, "", folder + "/");
  if (!before.ok()) return before.status();
  auto after = ListRecursive(prefix_path, folder + "0");
  if (!after.ok()) return after.status();
  std::vector<S3Object> out = before.take();
  for (auto& o : after.value()) out.push_back(std::move(o));
  return out;
}

Status S3FileSystem::CreateDirectories(const std::string&) { return Status::OK(); }

bool S3FileSystem::FileExists(const std::string& path) {
  auto loc = ParseS3Path(path);
  if (!loc.ok()) return false;
  if (!loc.value().key.empty()) {
    Request req;
    req.method = "HEAD";
    req.loc = loc.value();
    if (Send(req).ok()) return true;
  }
  auto listed = ListDirectory(path);
  return listed.ok();
}

Result<uint64_t> S3FileSystem::FileSize(const std::string& path) {
  Request req;
  req.method = "HEAD";
  auto loc = ParseS3Path(path);
  if (!loc.ok()) return loc.status();
  req.loc = loc.take();
  auto resp = Send(req);
  if (!resp.ok()) return resp.status();
  return static_cast<uint64_t>(std::strtoull(resp.value().headers["content-length"].c_str(), nullptr, 10));
}

Result<int64_t> S3FileSystem::ModificationTime(const std::string& path) {
  Request req;
  req.method = "HEAD";
  auto loc = ParseS3Path(path);
  if (!loc.ok()) return loc.status();
  req.loc = loc.take();
  auto resp = Send(req);
  if (!resp.ok()) return resp.status();
  return ParseHttpDate(resp.value().headers["last-modified"]);
}

Status S3FileSystem::RemoveFile(const std::string& path) {
  auto loc = ParseS3Path(path);
  if (!loc.ok()) return loc.status();
  // DELETE answers 204 for a missing key too: HEAD keeps the NotFound contract.
  Request head;
  head.method = "HEAD";
  head.loc = loc.value();
  auto h = Send(head);
  if (!h.ok()) return h.status();
  Request req;
  req.method = "DELETE";
  req.loc = loc.take();
  auto resp = Send(req);
  return resp.ok() ? Status::OK() : resp.status();
}

Status S3FileSystem::Rename(const std::string& from, const std::string& to) {
  return Status::NotSupported("cannot rename " + from + " to " + to + ": object storage has no rename");
}

Status S3FileSystem::Link(const std::string& from, const std::string& to) {
  return Status::NotSupported("cannot link " + to + " to " + from + ": object storage has no hard links");
}

Status S3FileSystem::Fsync(const std::string&) { return Status::OK(); }
Status S3FileSystem::FsyncDirectory(const std::string&) { return Status::OK(); }
Status S3FileSystem::FsyncAll(const DurableSet&) { return Status::OK(); }

Status S3FileSystem::SetMode(const std::string& path, uint32_t) {
  return Status::NotSupported("cannot set the permissions of " + path +
                              ": object storage has no file modes (use the bucket's access policy)");
}

Status S3FileSystem::WriteFileAtomic(const std::string& path, const std::string& contents) {
  // A PUT replaces an object atomically: readers see the old or the new one.
  return WriteFile(path, contents);
}

Status S3FileSystem::PutIfAbsent(const std::string& path, const std::string& contents, const DurableSet&) {
  auto loc = ParseS3Path(path);
  if (!loc.ok()) return loc.status();
  auto cfg = ResolveS3Config(path);
  if (!cfg.ok()) return cfg.status();
  if (cfg.value().allow_unsafe_rename) {
    // Single-writer mode (ALLOW_UNSAFE_RENAME): racing writers may both see
    // no object and both PUT; the user has promised there is only one.
    Request head;
    head.method = "HEAD";
    head.loc = loc.value();
    auto h = Send(head);
    if (h.ok()) return Status::AlreadyExists(path + " already exists");
    if (!h.status().IsNotFound()) return h.status();
    return WriteFile(path, contents);
  }
  Status honoured = ProbeConditionalWrites(loc.value(), cfg.value());
  if (!honoured.ok()) return honoured;
  Request req;
  req.method = "PUT";
  req.loc = loc.take();
  req.body = &contents;
  req.headers.push_back("If-None-Match: *");
  auto resp = Send(req);
  if (resp.ok()) return Status::OK();
  if (resp.status().code() == Status::Code::kNotSupported) return NoConditionalWrites(resp.status().message());
  return resp.status();
}

Status S3FileSystem::NoConditionalWrites(const std::string& what) {
  return Status::NotSupported(what +
                              "; this store does not support conditional writes (If-None-Match), which Delta commits "
                              "need. If exactly one writer ever commits to this table, set ALLOW_UNSAFE_RENAME true "
                              "in its S3 secret (or AWS_S3_ALLOW_UNSAFE_RENAME=true): concurrent writers could then "
                              "overwrite each other's commits");
}

Status S3FileSystem::ProbeConditionalWrites(const S3Location& loc, const S3Config& cfg) {
  // A store that ignores If-None-Match answers 200 and overwrites: every
  // writer would believe it won. A probe object written twice with the
  // header tells (the second PUT must be refused), once per endpoint and
  // bucket; it lies beside the key, the one place known to be writable.
  std::string store = (cfg.endpoint.empty() ? "s3." + cfg.region + ".amazonaws.com" : cfg.endpoint) + "/" + loc.bucket;
  {
    std::lock_guard<std::mutex> lock(probe_mutex_);
    auto known = probed_.find(store);
    if (known != probed_.end()) return known->second;
  }
  char id[17];
  std::random_device rd;
  std::snprintf(id, sizeof(id), "%08x%08x", rd(), rd());
  Request put;
  put.method = "PUT";
  put.loc.bucket = loc.bucket;
  size_t slash = loc.key.rfind('/');
  put.loc.key = (slash == std::string::npos ? "" : loc.key.substr(0, slash + 1)) + ".lakestream-if-none-match-probe-" + id;
  static const std::string kBody = "probe";
  put.body = &kBody;
  put.headers.push_back("If-None-Match: *");
  auto first = Send(put);
  if (!first.ok()) {
    // Not remembered: a store that refuses the header says so on every commit.
    return first.status().code() == Status::Code::kNotSupported ? NoConditionalWrites(first.status().message())
                                                                : first.status();
  }
  auto second = Send(put);
  Request remove;
  remove.method = "DELETE";
  remove.loc = put.loc;
  (void)Send(remove);
  Status verdict;
  if (second.ok()) {
    verdict = NoConditionalWrites("S3 store " + store + " ignores If-None-Match: a second PUT of '" + put.loc.key +
                                  "' with If-None-Match: * replaced the object instead of answering 412");
  } else if (second.status().code() == Status::Code::kNotSupported) {
    verdict = NoConditionalWrites(second.status().message());
  } else if (!second.status().IsAlreadyExists()) {
    return second.status();  // a transport error: ask again next time
  }
  std::lock_guard<std::mutex> lock(probe_mutex_);
  probed_[store] = verdict;
  return verdict;
}

}  // namespace lakestream
