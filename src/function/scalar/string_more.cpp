// DuckDB's string functions beside the Spark set of string.cpp:
//
//   strlen(s), octet_length(s)   bytes (BIGINT); bit_length(s) bits
//   translate(s, from, to)       each character of `from` becomes the one at the
//                                same place in `to`, or is dropped when `to` is shorter
//   string_split(s, sep)         VARCHAR[]; aliases str_split, string_to_array,
//                                split; an empty separator splits into characters
//   regexp_split_to_array(s, re) VARCHAR[] split at each match (RE2)
//   prefix(s, p), suffix(s, p)   BOOLEAN
//   format(fmt, ...)             {} placeholders ({{ and }} are braces), {n} by
//                                position, {:spec}
//                                takes a printf spec ({:.2f}, {:5d}, {:x})
//   printf(fmt, ...)             %d %i %s %f %e %g %x %X %o %c %% with flags,
//                                width and precision; %d of a non-integer is an error
//   md5(s), sha256(s)            lower-case hex digests
//   uuid(), gen_random_uuid()    random version-4 UUID as VARCHAR (no UUID type)
//   unicode(s)                   code point of the first character, -1 for ''
//   levenshtein, damerau_levenshtein, hamming/mismatches (BIGINT), jaccard (sets),
//   jaro_similarity, jaro_winkler_similarity (DOUBLE): over bytes, as DuckDB
//
// All are NULL in -> NULL out (format and printf too, as DuckDB).
#include <openssl/evp.h>
#include <re2/re2.h>

#include <algorithm>
#include <random>
#include <set>

#include "function/regex_matcher.hpp"
#include "function/scalar/duckdb_functions.hpp"
#include "function/scalar/executor.hpp"
#include "function/scalar/nested.hpp"
#include "function/scalar/string_bind.hpp"
#include "function/scalar/utf8.hpp"

namespace lakestream {
namespace {

// Every parameter required (StringBind in string_bind.hpp).
BoundScalarFunction Strings(const ScalarBindInput& input, const std::vector<TypeId>& expected, LogicalType ret,
                            scalar_kernel_t kernel, const std::string& accepted) {
  return StringBind(input, expected, expected.size(), std::move(ret), std::move(kernel), accepted);
}

inline std::string_view Sv(DataChunk& args, idx_t col, idx_t row) {
  string_t s = args.data[col].GetData<string_t>()[row];
  return {s.data(), s.size()};
}

// The code points of s.
std::vector<uint32_t> CodePoints(std::string_view s) {
  std::vector<uint32_t> out;
  for (size_t pos = 0; pos < s.size();) {
    size_t len = 1;
    out.push_back(utf8::Decode(s, pos, len));
    pos += std::max<size_t>(len, 1);
  }
  return out;
}

// The bytes of s: DuckDB's edit distances and similarities compare bytes, so
// levenshtein('héllo', 'hello') is 2.
std::vector<uint32_t> Bytes(std::string_view s) { return {s.begin(), s.end()}; }

template <int64_t BITS_PER_BYTE>
BoundScalarFunction BindByteLength(const ScalarBindInput& input) {
  return Strings(input, {TypeId::VARCHAR}, TypeId::BIGINT, [](DataChunk& a, Vector& r, idx_t n, const FunctionContext&) {
    UnaryExecute<string_t, int64_t>(a.data[0], r, n, [](string_t s) { return static_cast<int64_t>(s.size()) * BITS_PER_BYTE; });
  }, input.name + "(VARCHAR)");
}

BoundScalarFunction BindTranslate(const ScalarBindInput& input) {
  return Strings(input, {TypeId::VARCHAR, TypeId::VARCHAR, TypeId::VARCHAR}, TypeId::VARCHAR,
                 [](DataChunk& a, Vector& r, idx_t n, const FunctionContext&) {
                   auto* out = r.GetData<string_t>();
                   std::string buffer;
                   RowLoop(a, r, n, [&](idx_t i) {
                     std::vector<uint32_t> from = CodePoints(Sv(a, 1, i)), to = CodePoints(Sv(a, 2, i));
                     buffer.clear();
                     for (uint32_t c : CodePoints(Sv(a, 0, i))) {
                       auto at = std::find(from.begin(), from.end(), c);
                       if (at == from.end()) {
                         utf8::Encode(c, buffer);
                       } else if (static_cast<size_t>(at - from.begin()) < to.size()) {
                         utf8::Encode(to[at - from.begin()], buffer);
                       }
                     }
                     out[i] = r.AddString(buffer);
                   });
                 }, "translate(VARCHAR, from VARCHAR, to VARCHAR)");
}

BoundScalarFunction BindStringSplit(const ScalarBindInput& input) {
  LogicalType list = LogicalType::List(TypeId::VARCHAR);
  auto bound = Strings(input, {TypeId::VARCHAR, TypeId::VARCHAR}, list, nullptr, input.name + "(VARCHAR, separator VARCHAR)");
  bound.kernel = RowValueKernel([list](const std::vector<Value>& a) {
    const std::string& s = a[0].GetString();
    const std::string& sep = a[1].GetString();
    std::vector<Value> parts;
    if (sep.empty()) {
      for (size_t pos = 0; pos < s.size();) {
        size_t next = utf8::Next(s, pos);
        parts.emplace_back(s.substr(pos, next - pos));
        pos = next;
      }
      if (s.empty()) parts.emplace_back(std::string());
    } else {
      size_t start = 0;
      for (size_t at; (at = s.find(sep, start)) != std::string::npos; start = at + sep.size()) parts.emplace_back(s.substr(start, at - start));
      parts.emplace_back(s.substr(start));
    }
    return Value::LIST(list, std::move(parts));
  });
  return bound;
}

BoundScalarFunction BindRegexpSplit(const ScalarBindInput& input) {
  LogicalType list = LogicalType::List(TypeId::VARCHAR);
  const char* accepted = "regexp_split_to_array(VARCHAR, pattern VARCHAR)";
  auto bound = Strings(input, {TypeId::VARCHAR, TypeId::VARCHAR}, list, nullptr, accepted);
  bound.kernel = RowValueKernel([list](const std::vector<Value>& a) {
    const std::string& s = a[0].GetString();
    RE2::Options options;
    options.set_max_mem(kRegexMaxMemory);
    options.set_log_errors(false);
    RE2 re(TranslateRegex(a[1].GetString(), "regexp_split_to_array"), options);
    if (!re.ok()) throw InvalidInputError("regexp_split_to_array(): invalid pattern '" + a[1].GetString() + "': " + re.error());
    std::vector<Value> parts;
    re2::StringPiece rest(s), match;
    size_t start = 0, search = 0;
    while (search <= s.size() && re.Match(rest, search, s.size(), RE2::UNANCHORED, &match, 1)) {
      size_t at = static_cast<size_t>(match.data() - s.data());
      if (match.empty()) {  // an empty match splits between characters, never at the ends
        if (at >= s.size()) break;
        if (at == start) {
          search = utf8::Next(s, at);
          parts.emplace_back(s.substr(start, search - start));
          start = search;
          continue;
        }
      }
      parts.emplace_back(s.substr(start, at - start));
      start = at + match.size();
      search = match.empty() ? utf8::Next(s, at) : start;
    }
    parts.emplace_back(s.substr(start));
    return Value::LIST(list, std::move(parts));
  });
  return bound;
}

template <bool PREFIX>
BoundScalarFunction BindAffix(const ScalarBindInput& input) {
  return Strings(input, {TypeId::VARCHAR, TypeId::VARCHAR}, TypeId::BOOLEAN, [](DataChunk& a, Vector& r, idx_t n, const FunctionContext&) {
    auto* out = r.GetData<bool>();
    RowLoop(a, r, n, [&](idx_t i) {
      std::string_view s = Sv(a, 0, i), p = Sv(a, 1, i);
      out[i] = s.size() >= p.size() && (PREFIX ? s.substr(0, p.size()) == p : s.substr(s.size() - p.size()) == p);
    });
  }, input.name + "(VARCHAR, VARCHAR)");
}

// ---- printf / format ------------------------------------------------------

// One printf conversion `spec` (flags, width, precision, no '%', no type) of
// type `conv` applied to `v`; `function` names the caller in errors.
void FormatOne(const std::string& function, const std::string& spec, char conv, const Value& v, std::string& out) {
  std::string f = "%" + spec;
  char buf[512];
  auto emit = [&](auto x) {
    int n = std::snprintf(buf, sizeof(buf), f.c_str(), x);
    if (n >= static_cast<int>(sizeof(buf))) throw InvalidInputError(function + "(): the formatted value of '%" + spec + conv + "' is longer than 511 bytes");
    out.append(buf, std::max(n, 0));
  };
  TypeId t = v.type().id();
  bool integral = t == TypeId::INTEGER || t == TypeId::BIGINT || t == TypeId::BOOLEAN;
  bool numeric = integral || t == TypeId::DOUBLE || t == TypeId::DECIMAL;
  switch (conv) {
    case 'd': case 'i': case 'x': case 'X': case 'o': case 'c':
      if (!integral) throw InvalidInputError(function + "(): '%" + std::string(1, conv) + "' formats an integer, got " + v.type().ToString() + " " + v.ToString() + "; use %f or %s, or CAST the value to BIGINT");
      f += conv == 'c' ? "c" : std::string("ll") + conv;
      if (conv == 'c') emit(static_cast<int>(v.AsBigint()));
      else emit(static_cast<long long>(v.AsBigint()));
      return;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
      if (!numeric) throw InvalidInputError(function + "(): '%" + std::string(1, conv) + "' formats a number, got " + v.type().ToString() + " '" + v.ToString() + "'; use %s, or CAST the value to DOUBLE");
      f += conv;
      emit(v.AsDouble());
      return;
    case 's': {
      f += 's';
      std::string s = v.ToString();
      if (spec.empty()) { out += s; return; }
      emit(s.c_str());
      return;
    }
    default:
      throw InvalidInputError(function + "(): unknown conversion '%" + std::string(1, conv) + "'; use one of %d %i %s %f %e %g %x %X %o %c %%");
  }
}

// Reads a printf spec (flags, width, precision) then its conversion letter from fmt[pos...].
std::pair<std::string, char> ReadSpec(const std::string& function, const std::string& fmt, size_t& pos) {
  size_t begin = pos;
  while (pos < fmt.size() && std::strchr("-+ #0", fmt[pos])) pos++;
  while (pos < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[pos]))) pos++;
  if (pos < fmt.size() && fmt[pos] == '.') {
    pos++;
    while (pos < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[pos]))) pos++;
  }
  if (pos >= fmt.size()) throw InvalidInputError(function + "(): format string '" + fmt + "' ends inside a conversion; write %% for a literal %");
  if (pos - begin > 20) throw InvalidInputError(function + "(): the conversion at byte " + std::to_string(begin) + " of '" + fmt + "' is too long");
  return {fmt.substr(begin, pos - begin), fmt[pos++]};
}

std::string Printf(const std::vector<Value>& a) {
  const std::string& fmt = a[0].GetString();
  std::string out;
  size_t next = 1;
  for (size_t pos = 0; pos < fmt.size();) {
    char c = fmt[pos++];
    if (c != '%') { out += c; continue; }
    if (pos < fmt.size() && fmt[pos] == '%') { out += '%'; pos++; continue; }
    auto [spec, conv] = ReadSpec("printf", fmt, pos);
    if (next >= a.size()) throw InvalidInputError("printf(): format string '" + fmt + "' has more conversions than the " + std::to_string(a.size() - 1) + " values given");
    FormatOne("printf", spec, conv, a[next++], out);
  }
  return out;
}

std::string Format(const std::vector<Value>& a) {
  const std::string& fmt = a[0].GetString();
  std::string out;
  size_t next = 1;
  for (size_t pos = 0; pos < fmt.size();) {
    char c = fmt[pos++];
    if ((c == '{' || c == '}') && pos < fmt.size() && fmt[pos] == c) { out += c; pos++; continue; }
    if (c == '}') throw InvalidInputError("format(): unmatched '}' in '" + fmt + "'; write }} for a literal brace");
    if (c != '{') { out += c; continue; }
    size_t close = fmt.find('}', pos);
    if (close == std::string::npos) throw InvalidInputError("format(): unmatched '{' in '" + fmt + "'; write {{ for a literal brace");
    std::string inside = fmt.substr(pos, close - pos);
    pos = close + 1;
    // {n} and {n:spec} name the value by its 0-based position.
    size_t digits = 0;
    while (digits < inside.size() && std::isdigit(static_cast<unsigned char>(inside[digits]))) digits++;
    size_t index = next;
    if (digits > 0) {
      if (digits > 6) throw InvalidInputError("format(): the position in '{" + inside + "}' is too large");
      index = std::stoul(inside.substr(0, digits)) + 1;
      inside = inside.substr(digits);
    } else {
      next++;
    }
    if (index >= a.size()) throw InvalidInputError("format(): format string '" + fmt + "' refers to value " + std::to_string(index) + " but " + std::to_string(a.size() - 1) + " values were given");
    const Value& v = a[index];
    if (inside.empty()) { out += v.ToString(); continue; }
    if (inside[0] != ':') throw NotImplementedError("format() placeholder '{" + inside + "}' (write {}, {n} or {:spec})");
    std::string spec = inside.substr(1);
    size_t p = 0;
    char conv = 0;
    std::string flags;
    if (!spec.empty() && std::isalpha(static_cast<unsigned char>(spec.back()))) {
      conv = spec.back();
      spec.pop_back();
    }
    if (!spec.empty() && spec[0] == '<') { flags = "-"; p = 1; }
    else if (!spec.empty() && spec[0] == '>') p = 1;
    std::string printf_spec = flags + spec.substr(p);
    if (conv == 0) {
      TypeId t = v.type().id();
      conv = (t == TypeId::INTEGER || t == TypeId::BIGINT) ? 'd' : (t == TypeId::DOUBLE || t == TypeId::DECIMAL) && printf_spec.find('.') != std::string::npos ? 'f' : 's';
    }
    FormatOne("format", printf_spec, conv, v, out);
  }
  return out;
}

// printf/format keep each value's type (integers as BIGINT, numbers as DOUBLE
// or DECIMAL, the rest as VARCHAR) so the conversion can check it.
BoundScalarFunction BindPrintf(const ScalarBindInput& input) {
  bool is_printf = input.name == "printf";
  std::string accepted = input.name + "(format VARCHAR, values...)";
  if (input.argument_types.empty()) ThrowArgumentError(input, accepted);
  std::vector<LogicalType> args{TypeId::VARCHAR};
  if (!ImplicitlyStringCastable(input.argument_types[0])) ThrowArgumentError(input, accepted);
  for (idx_t i = 1; i < input.argument_types.size(); i++) {
    const LogicalType& t = input.argument_types[i];
    if (t.IsIntegral()) args.emplace_back(TypeId::BIGINT);
    else if (t.id() == TypeId::DOUBLE || t.id() == TypeId::DECIMAL || t.id() == TypeId::BOOLEAN) args.push_back(t);
    else if (t.id() == TypeId::SQLNULL || ImplicitlyStringCastable(t)) args.emplace_back(TypeId::VARCHAR);
    else args.push_back(t);  // nested values print as their text
  }
  return Bound(std::move(args), TypeId::VARCHAR, RowValueKernel([is_printf](const std::vector<Value>& a) {
                 return Value::VARCHAR(is_printf ? Printf(a) : Format(a));
               }));
}

// ---- digests, uuid, unicode ------------------------------------------------

template <bool SHA>
BoundScalarFunction BindDigest(const ScalarBindInput& input) {
  return Strings(input, {TypeId::VARCHAR}, TypeId::VARCHAR, [](DataChunk& a, Vector& r, idx_t n, const FunctionContext&) {
    UnaryExecute<string_t, string_t>(a.data[0], r, n, [&](string_t s) {
      unsigned char digest[EVP_MAX_MD_SIZE];
      unsigned int len = 0;
      EVP_Digest(s.data(), s.size(), digest, &len, SHA ? EVP_sha256() : EVP_md5(), nullptr);
      static const char* kHex = "0123456789abcdef";
      char hex[2 * EVP_MAX_MD_SIZE];
      size_t bytes = len;
      for (size_t k = 0; k < bytes; k++) {
        hex[2 * k] = kHex[digest[k] >> 4];
        hex[2 * k + 1] = kHex[digest[k] & 15];
      }
      return r.AddString(std::string_view(hex, 2 * bytes));
    });
  }, input.name + "(VARCHAR)");
}

BoundScalarFunction BindUuid(const ScalarBindInput& input) {
  CheckArgumentCount(input, 0, 0, input.name + "()");
  BoundScalarFunction f = Bound({}, TypeId::VARCHAR, [](DataChunk&, Vector& r, idx_t n, const FunctionContext&) {
    thread_local std::mt19937_64 rng{std::random_device{}()};
    auto* out = r.GetData<string_t>();
    static const char* kHex = "0123456789abcdef";
    for (idx_t i = 0; i < n; i++) {
      uint64_t hi = rng(), lo = rng();
      hi = (hi & ~uint64_t{0xF000}) | 0x4000;                            // version 4
      lo = (lo & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);        // variant 10
      char text[36];
      int k = 0;
      for (int nibble = 0; nibble < 32; nibble++) {
        if (nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20) text[k++] = '-';
        uint64_t word = nibble < 16 ? hi : lo;
        text[k++] = kHex[(word >> (60 - 4 * (nibble % 16))) & 15];
      }
      out[i] = r.AddString(std::string_view(text, 36));
    }
    r.SetAllValid(n);
  });
  f.deterministic = false;
  return f;
}

BoundScalarFunction BindUnicode(const ScalarBindInput& input) {
  return Strings(input, {TypeId::VARCHAR}, TypeId::INTEGER, [](DataChunk& a, Vector& r, idx_t n, const FunctionContext&) {
    UnaryExecute<string_t, int32_t>(a.data[0], r, n, [](string_t s) {
      if (s.empty()) return -1;
      size_t len = 1;
      return static_cast<int32_t>(utf8::Decode(std::string_view(s.data(), s.size()), 0, len));
    });
  }, "unicode(VARCHAR)");
}

// ---- similarity ------------------------------------------------------------

int64_t Levenshtein(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  std::vector<int64_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); j++) prev[j] = static_cast<int64_t>(j);
  for (size_t i = 1; i <= a.size(); i++) {
    cur[0] = static_cast<int64_t>(i);
    for (size_t j = 1; j <= b.size(); j++) cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// Damerau-Levenshtein with unrestricted transpositions (DuckDB's definition:
// damerau_levenshtein('ca', 'abc') = 2).
int64_t DamerauLevenshtein(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  size_t n = a.size(), m = b.size();
  int64_t inf = static_cast<int64_t>(n + m);
  std::vector<std::vector<int64_t>> d(n + 2, std::vector<int64_t>(m + 2, 0));
  d[0][0] = inf;
  for (size_t i = 0; i <= n; i++) { d[i + 1][0] = inf; d[i + 1][1] = static_cast<int64_t>(i); }
  for (size_t j = 0; j <= m; j++) { d[0][j + 1] = inf; d[1][j + 1] = static_cast<int64_t>(j); }
  std::unordered_map<uint32_t, size_t> last_row;
  for (size_t i = 1; i <= n; i++) {
    size_t last_col = 0;
    for (size_t j = 1; j <= m; j++) {
      size_t i1 = last_row.count(b[j - 1]) ? last_row[b[j - 1]] : 0;
      size_t j1 = last_col;
      int64_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      if (!cost) last_col = j;
      d[i + 1][j + 1] = std::min({d[i][j] + cost, d[i + 1][j] + 1, d[i][j + 1] + 1,
                                  d[i1][j1] + static_cast<int64_t>((i - i1 - 1) + 1 + (j - j1 - 1))});
    }
    last_row[a[i - 1]] = i;
  }
  return d[n + 1][m + 1];
}

double Jaro(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  if (a.empty() || b.empty()) return 0;
  size_t window = std::max<size_t>(std::max(a.size(), b.size()) / 2, 1) - 1;
  std::vector<bool> am(a.size()), bm(b.size());
  size_t matches = 0;
  for (size_t i = 0; i < a.size(); i++) {
    size_t lo = i > window ? i - window : 0, hi = std::min(b.size(), i + window + 1);
    for (size_t j = lo; j < hi; j++) {
      if (!bm[j] && a[i] == b[j]) { am[i] = bm[j] = true; matches++; break; }
    }
  }
  if (!matches) return 0;
  size_t transpositions = 0;
  for (size_t i = 0, j = 0; i < a.size(); i++) {
    if (!am[i]) continue;
    while (!bm[j]) j++;
    if (a[i] != b[j]) transpositions++;
    j++;
  }
  double m = static_cast<double>(matches);
  return (m / static_cast<double>(a.size()) + m / static_cast<double>(b.size()) + (m - static_cast<double>(transpositions) / 2) / m) / 3;
}

double JaroWinkler(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  double sim = Jaro(a, b);
  if (sim > 0.7) {
    size_t prefix = 0;
    while (prefix < 4 && prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) prefix++;
    sim += static_cast<double>(prefix) * 0.1 * (1 - sim);
  }
  return sim;
}

double Jaccard(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  if (a.empty() || b.empty()) throw InvalidInputError("jaccard(): both strings must have at least one character; got an empty string");
  std::set<uint32_t> sa(a.begin(), a.end()), sb(b.begin(), b.end());
  size_t common = 0;
  for (uint32_t c : sa) common += sb.count(c);
  return static_cast<double>(common) / static_cast<double>(sa.size() + sb.size() - common);
}

int64_t Hamming(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  if (a.empty() || b.empty()) throw InvalidInputError("hamming(): both strings must have at least one character; got an empty string");
  if (a.size() != b.size()) throw InvalidInputError("hamming(): the strings must have the same length, got " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + " characters");
  int64_t d = 0;
  for (size_t i = 0; i < a.size(); i++) d += a[i] != b[i];
  return d;
}

template <class T, T (*FN)(const std::vector<uint32_t>&, const std::vector<uint32_t>&)>
BoundScalarFunction BindSimilarity(const ScalarBindInput& input) {
  constexpr bool kInt = std::is_same_v<T, int64_t>;
  return Strings(input, {TypeId::VARCHAR, TypeId::VARCHAR}, kInt ? TypeId::BIGINT : TypeId::DOUBLE,
                 [](DataChunk& a, Vector& r, idx_t n, const FunctionContext&) {
                   auto* out = r.GetData<T>();
                   RowLoop(a, r, n, [&](idx_t i) { out[i] = FN(Bytes(Sv(a, 0, i)), Bytes(Sv(a, 1, i))); });
                 }, input.name + "(VARCHAR, VARCHAR)");
}

}  // namespace

void RegisterStringMoreFunctions(ScalarFunctionRegistry& registry) {
  registry.Register("strlen", BindByteLength<1>);
  registry.Register("octet_length", BindByteLength<1>);
  registry.Register("bit_length", BindByteLength<8>);
  registry.Register("translate", BindTranslate);
  for (const char* name : {"string_split", "str_split", "string_to_array"}) registry.Register(name, BindStringSplit);
  registry.Register("regexp_split_to_array", BindRegexpSplit);
  registry.Register("string_split_regex", BindRegexpSplit);
  registry.Register("str_split_regex", BindRegexpSplit);
  registry.Register("prefix", BindAffix<true>);
  registry.Register("suffix", BindAffix<false>);
  registry.Register("format", BindPrintf);
  registry.Register("printf", BindPrintf);
  registry.Register("md5", BindDigest<false>);
  registry.Register("sha256", BindDigest<true>);
  registry.Register("uuid", BindUuid);
  registry.Register("gen_random_uuid", BindUuid);
  registry.Register("unicode", BindUnicode);
  registry.Register("levenshtein", BindSimilarity<int64_t, Levenshtein>);
  registry.Register("editdist3", BindSimilarity<int64_t, Levenshtein>);
  registry.Register("damerau_levenshtein", BindSimilarity<int64_t, DamerauLevenshtein>);
  registry.Register("hamming", BindSimilarity<int64_t, Hamming>);
  registry.Register("mismatches", BindSimilarity<int64_t, Hamming>);
  registry.Register("jaccard", BindSimilarity<double, Jaccard>);
  registry.Register("jaro_similarity", BindSimilarity<double, Jaro>);
  registry.Register("jaro_winkler_similarity", BindSimilarity<double, JaroWinkler>);
}

}  // namespace lakestream
