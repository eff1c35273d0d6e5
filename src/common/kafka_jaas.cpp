#include "common/kafka_jaas.hpp"

#include <cctype>
#include <map>

#include "common/string_util.hpp"

namespace lakestream {

namespace {

const char kHowToWrite[] =
    "write it as org.apache.kafka.common.security.plain.PlainLoginModule required username=\"...\" "
    "password=\"...\"; (or give sasl.username and sasl.password instead)";

Status Bad(const std::string& what) {
  return Status::InvalidArgument("sasl.jaas.config: " + what + "; " + kHowToWrite);
}

struct JaasLine {
  std::string module;
  std::string flag;
  std::map<std::string, std::string> options;
};

class JaasScanner {
 public:
  explicit JaasScanner(const std::string& text) : text_(text) {}

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) pos_++;
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ >= text_.size();
  }
  bool Take(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      pos_++;
      return true;
    }
    return false;
  }
  // A run of characters that are not space, '=', ';' or quotes.
  std::string Word() {
    SkipSpace();
    size_t start = pos_;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c)) || c == '=' || c == ';' || c == '"' || c == '\'') break;
      pos_++;
    }
    return text_.substr(start, pos_ - start);
  }
  // A quoted or bare value; false on an unterminated quote.
  bool Value(std::string& out) {
    SkipSpace();
    if (pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\'')) {
      char quote = text_[pos_++];
      out.clear();
      while (pos_ < text_.size() && text_[pos_] != quote) {
        if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) pos_++;
        out += text_[pos_++];
      }
      if (pos_ >= text_.size()) return false;
      pos_++;
      return true;
    }
    out = Word();
    return true;
  }

 private:
  const std::string& text_;
  size_t pos_ = 0;
};

Result<JaasLine> ParseJaas(const std::string& text) {
  JaasScanner scan(text);
  JaasLine line;
  line.module = scan.Word();
  if (line.module.empty()) return Bad("no login module class is given");
  line.flag = StringUtil::Lower(scan.Word());
  if (line.flag != "required" && line.flag != "requisite" && line.flag != "sufficient" && line.flag != "optional") {
    return Bad("the login module class must be followed by a control flag (required)");
  }
  while (!scan.Take(';')) {
    if (scan.AtEnd()) return Bad("the line must end with ';'");
    std::string key = scan.Word();
    if (key.empty() || !scan.Take('=')) return Bad("expected key=value after the control flag");
    std::string value;
    if (!scan.Value(value)) return Bad("the value of '" + key + "' has no closing quote");
    line.options[key] = value;
  }
  if (!scan.AtEnd()) {
    return Status::NotSupported("sasl.jaas.config: not supported yet: more than one login module in one line; "
                                "give one module");
  }
  return line;
}

std::string LastDotted(const std::string& name) {
  auto dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

}  // namespace

bool IsJaasConfigKey(const std::string& key) {
  std::string k = StringUtil::Lower(key);
  if (StringUtil::StartsWith(k, "kafka.")) k = k.substr(6);
  return k == "sasl.jaas.config";
}

namespace {

struct JaasLogin {
  bool plain = false;  // else SCRAM
  std::string username;
  std::string password;
};

Result<JaasLogin> ReadJaas(const std::string& jaas) {
  auto parsed = ParseJaas(jaas);
  if (!parsed.ok()) return parsed.status();
  const JaasLine& line = parsed.value();
  std::string module = line.module;
  if (StringUtil::StartsWith(module, "kafkashaded.")) module = module.substr(12);  // Databricks' shaded client
  std::string kind = LastDotted(module);
  if (kind == "OAuthBearerLoginModule") {
    return Status::NotSupported("sasl.jaas.config: not supported yet: the OAuthBearerLoginModule; give librdkafka's "
                                "sasl.mechanism = OAUTHBEARER with sasl.oauthbearer.* properties instead");
  }
  if (kind == "Krb5LoginModule") {
    return Status::NotSupported("sasl.jaas.config: not supported yet: the Krb5LoginModule; give librdkafka's "
                                "sasl.mechanism = GSSAPI with sasl.kerberos.* properties instead");
  }
  JaasLogin login;
  login.plain = module == "org.apache.kafka.common.security.plain.PlainLoginModule";
  bool scram = module == "org.apache.kafka.common.security.scram.ScramLoginModule";
  if (!login.plain && !scram) return Bad("unknown login module " + line.module);
  for (auto& [key, value] : line.options) {
    if (key != "username" && key != "password") {
      return Status::NotSupported("sasl.jaas.config: not supported yet: the " + kind + " option '" + key +
                                  "'; lakestream maps username and password only");
    }
  }
  if (!line.options.count("username") || !line.options.count("password")) {
    return Bad("the " + kind + " needs both username and password");
  }
  login.username = line.options.at("username");
  login.password = line.options.at("password");
  return login;
}

}  // namespace

Status CheckJaasConfig(const std::string& jaas) { return ReadJaas(jaas).status(); }

Result<KafkaProperties> JaasToLibrdkafka(const std::string& jaas, const std::string& mechanism) {
  auto read = ReadJaas(jaas);
  if (!read.ok()) return read.status();
  const JaasLogin& login = read.value();
  std::string mech = StringUtil::Upper(mechanism);
  KafkaProperties out;
  if (login.plain) {
    if (!mech.empty() && mech != "PLAIN") {
      return Status::InvalidArgument("sasl.jaas.config names the PlainLoginModule but sasl.mechanism is " + mechanism +
                                     "; set sasl.mechanism = PLAIN, or use the module of " + mechanism);
    }
    if (mech.empty()) out.emplace_back("sasl.mechanism", "PLAIN");
  } else if (mech != "SCRAM-SHA-256" && mech != "SCRAM-SHA-512") {
    return Status::InvalidArgument("sasl.jaas.config names the ScramLoginModule, which needs sasl.mechanism = "
                                   "SCRAM-SHA-256 or SCRAM-SHA-512 beside it (" +
                                   (mech.empty() ? std::string("none is set") : "it is " + mechanism) + ")");
  }
  out.emplace_back("sasl.username", login.username);
  out.emplace_back("sasl.password", login.password);
  return out;
}

Result<KafkaProperties> ExpandJaasConfig(const KafkaProperties& properties) {
  std::string mechanism;
  std::map<std::string, std::string> given;  // sasl.username / sasl.password set as themselves
  bool any = false;
  for (auto& [k, v] : properties) {
    std::string key = StringUtil::Lower(k);
    if (key == "sasl.mechanism" || key == "sasl.mechanisms") mechanism = v;
    if (key == "sasl.username" || key == "sasl.password") given[key] = v;
    any = any || IsJaasConfigKey(k);
  }
  if (!any) return properties;
  KafkaProperties out;
  for (auto& [k, v] : properties) {
    if (!IsJaasConfigKey(k)) {
      out.emplace_back(k, v);
      continue;
    }
    auto mapped = JaasToLibrdkafka(v, mechanism);
    if (!mapped.ok()) return mapped.status();
    for (auto& [mk, mv] : mapped.value()) {
      auto it = given.find(mk);
      if (it != given.end() && it->second != mv) {
        return Status::InvalidArgument(mk + " is set both by sasl.jaas.config and on its own, to different values; "
                                            "give the credentials one way");
      }
      if (it == given.end()) out.emplace_back(mk, mv);
    }
  }
  return out;
}

}  // namespace lakestream
