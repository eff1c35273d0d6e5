// String functions: lower, upper, length, substring, concat, ||, concat_ws,
// trim family, replace, split_part, starts_with/ends_with/contains, lpad/rpad,
// reverse, repeat, position/strpos/instr/locate, left, right, overlay,
// chr, ascii/unicode.
//
// Semantics (Spark unless noted; all positions and lengths count UTF-8
// characters, not bytes):
//  * Arguments of any non-nested type are accepted where a string is expected
//    and cast to VARCHAR by the binder (Spark: concat('id-', 42)).
//  * concat skips NULL arguments (DuckDB; Spark would return NULL) so
//    concat(first, ' ', middle, ' ', last) survives a NULL middle name;
//    `a || b` is NULL when either side is NULL (SQL standard). concat_ws skips
//    NULL values and is NULL only when the separator is.
//  * substring(s, start[, len]) is 1-based; start 0 acts as 1 and a negative
//    start counts from the end (Spark's substringSQL); len < 1 gives ''.
//  * trim(s[, chars]) removes spaces (or any character in `chars`) from both
//    ends; the argument order is DuckDB's trim(string, characters).
//  * split_part(s, delim, n): n < 0 counts from the end, out of range gives '',
//    n = 0 is an error (Spark); an empty delimiter leaves s whole.
//  * lpad/rpad truncate to len when s is longer; an empty pad leaves s as is.
//  * position(sub, s), locate(sub, s[, from]) and instr/strpos(s, sub) return
//    the 1-based index of the first match, 0 when absent.
//  * chr(code) is the character of a Unicode code point (0 to 0x10FFFF, not a
//    surrogate; others are an error); ascii(s) / unicode(s) the code point of
//    s's first character, 0 for '' (DuckDB).
#include <algorithm>

#include "function/scalar/executor.hpp"
#include "function/scalar/nested.hpp"
#include "function/scalar/string_bind.hpp"
#include "function/scalar/utf8.hpp"

namespace lakestream {

BoundScalarFunction StringBind(const ScalarBindInput& input, const std::vector<TypeId>& expected, idx_t min_args,
                               LogicalType ret, scalar_kernel_t kernel, const std::string& accepted) {
  CheckArgumentCount(input, min_args, expected.size(), accepted);
  std::vector<LogicalType> args;
  for (idx_t i = 0; i < input.argument_types.size(); i++) {
    const LogicalType& t = input.argument_types[i];
    bool ok = t.id() == TypeId::SQLNULL ||
              (expected[i] == TypeId::VARCHAR ? ImplicitlyStringCastable(t) : t.IsIntegral());
    if (!ok) ThrowArgumentError(input, accepted);
    args.push_back(expected[i]);
  }
  return Bound(std::move(args), std::move(ret), std::move(kernel));
}

namespace {

inline string_t Str(DataChunk& args, idx_t col, idx_t row) { return args.data[col].GetData<string_t>()[row]; }
inline int64_t Int(DataChunk& args, idx_t col, idx_t row) { return args.data[col].GetData<int64_t>()[row]; }

// Kernels whose results are substrings of argument 0 reference its heap.
inline string_t* ViewResult(DataChunk& args, Vector& result) {
  result.AddHeapReference(args.data[0]);
  return result.GetData<string_t>();
}

template <bool UPPER>
void CaseKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  std::string buffer;
  UnaryExecute<string_t, string_t>(args.data[0], result, count, [&](string_t s) -> string_t {
    if (utf8::IsAscii(s)) {
      char* out = result.Heap().Allocate(s.size());
      for (size_t k = 0; k < s.size(); k++) {
        char c = s[k];
        out[k] = UPPER ? (c >= 'a' && c <= 'z' ? c - 32 : c) : (c >= 'A' && c <= 'Z' ? c + 32 : c);
      }
      return string_t(out, s.size());
    }
    utf8::MapCase<UPPER>(s, buffer);
    return result.AddString(buffer);
  });
}

void LengthKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  UnaryExecute<string_t, int32_t>(args.data[0], result, count, [](string_t s) { return static_cast<int32_t>(utf8::Length(s)); });
}

// Spark's UTF8String.substringSQL on character positions.
string_t Substring(string_t s, int64_t pos, int64_t length) {
  int64_t n = utf8::IsAscii(s) ? static_cast<int64_t>(s.size()) : utf8::Length(s);
  int64_t start = pos > 0 ? pos - 1 : (pos < 0 ? n + pos : 0);
  int64_t end = length > INT64_MAX - std::max<int64_t>(start, 0) ? INT64_MAX : start + length;
  start = std::max<int64_t>(start, 0);
  if (start >= end || start >= n) return string_t();
  end = std::min(end, n);
  if (n == static_cast<int64_t>(s.size())) return s.substr(start, end - start);
  size_t b = utf8::ByteOffset(s, start);
  size_t e = b + utf8::ByteOffset(s.substr(b), end - start);
  return s.substr(b, e - b);
}

void SubstringKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  string_t* out = ViewResult(args, result);
  bool has_len = args.ColumnCount() == 3;
  RowLoop(args, result, count, [&](idx_t i) {
    out[i] = Substring(Str(args, 0, i), Int(args, 1, i), has_len ? Int(args, 2, i) : INT64_MAX);
  });
}

// overlay(s, replacement, pos[, len]) as Spark's Overlay: the first pos - 1
// characters, the replacement, then s from character pos + len; len < 0 or
// absent means the replacement's length.
void OverlayKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  std::string buffer;
  auto* out = result.GetData<string_t>();
  bool has_len = args.ColumnCount() == 4;
  RowLoop(args, result, count, [&](idx_t i) {
    string_t s = Str(args, 0, i);
    string_t replacement = Str(args, 1, i);
    int64_t pos = Int(args, 2, i);
    int64_t len = has_len ? Int(args, 3, i) : -1;
    if (len < 0) len = utf8::Length(replacement);
    string_t prefix = Substring(s, 1, pos - 1);
    string_t suffix = Substring(s, pos > INT64_MAX - len ? INT64_MAX : pos + len, INT64_MAX);
    buffer.assign(prefix.data(), prefix.size());
    buffer.append(replacement.data(), replacement.size());
    buffer.append(suffix.data(), suffix.size());
    out[i] = result.AddString(buffer);
  });
}

template <bool FROM_LEFT>
void LeftRightKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  string_t* out = ViewResult(args, result);
  RowLoop(args, result, count, [&](idx_t i) {
    int64_t n = Int(args, 1, i);
    string_t s = Str(args, 0, i);
    if (n <= 0) {
      out[i] = string_t();
    } else if (FROM_LEFT) {
      out[i] = s.substr(0, utf8::ByteOffset(s, n));
    } else {
      int64_t len = utf8::Length(s);
      out[i] = n >= len ? s : s.substr(utf8::ByteOffset(s, len - n));
    }
  });
}

// concat: NULL arguments are skipped; the result is never NULL.
void ConcatKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  std::string buffer;
  auto* out = result.GetData<string_t>();
  for (idx_t i = 0; i < count; i++) {
    buffer.clear();
    for (auto& v : args.data) {
      if (v.IsValid(i)) buffer += v.GetData<string_t>()[i];
    }
    out[i] = result.AddString(buffer);
    result.SetValid(i, true);
  }
}

void ConcatOperatorKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  BinaryExecute<string_t, string_t, string_t>(args.data[0], args.data[1], result, count, [&](string_t a, string_t b) {
    char* p = result.Heap().Allocate(a.size() + b.size());
    if (!a.empty()) std::memcpy(p, a.data(), a.size());
    if (!b.empty()) std::memcpy(p + a.size(), b.data(), b.size());
    return string_t(p, a.size() + b.size());
  });
}

void ConcatWsKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  std::string buffer;
  auto* out = result.GetData<string_t>();
  for (idx_t i = 0; i < count; i++) {
    if (!args.data[0].IsValid(i)) {
      result.SetValid(i, false);
      continue;
    }
    string_t sep = Str(args, 0, i);
    buffer.clear();
    bool first = true;
    for (idx_t c = 1; c < args.ColumnCount(); c++) {
      if (!args.data[c].IsValid(i)) continue;
      if (!first) buffer += sep;
      first = false;
      buffer += Str(args, c, i);
    }
    out[i] = result.AddString(buffer);
    result.SetValid(i, true);
  }
}

// True when the character at s[pos, pos+len) is one of `chars`.
bool InSet(string_t chars, string_t c) {
  for (size_t k = 0; k < chars.size(); k = utf8::Next(chars, k)) {
    if (chars.substr(k, utf8::Next(chars, k) - k) == c) return true;
  }
  return false;
}

template <bool LEFT, bool RIGHT>
void TrimKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  string_t* out = ViewResult(args, result);
  bool has_chars = args.ColumnCount() == 2;
  RowLoop(args, result, count, [&](idx_t i) {
    string_t s = Str(args, 0, i);
    string_t chars = has_chars ? Str(args, 1, i) : string_t(" ");
    size_t b = 0, e = s.size();
    if (LEFT) {
      while (b < e) {
        size_t n = utf8::Next(s, b);
        if (!InSet(chars, s.substr(b, n - b))) break;
        b = n;
      }
    }
    if (RIGHT) {
      while (e > b) {
        size_t start = e - 1;
        while (start > b && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) start--;
        if (!InSet(chars, s.substr(start, e - start))) break;
        e = start;
      }
    }
    out[i] = s.substr(b, e - b);
  });
}

void ReplaceKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  std::string buffer;
  auto* out = result.GetData<string_t>();
  bool has_to = args.ColumnCount() == 3;
  RowLoop(args, result, count, [&](idx_t i) {
    string_t s = Str(args, 0, i), from = Str(args, 1, i), to = has_to ? Str(args, 2, i) : string_t();
    if (from.empty() || s.find(from) == string_t::npos) {
      out[i] = result.AddString(s);
      return;
    }
    buffer.clear();
    size_t pos = 0;
    for (size_t hit; (hit = s.find(from, pos)) != string_t::npos; pos = hit + from.size()) {
      buffer.append(s.substr(pos, hit - pos));
      buffer.append(to);
    }
    buffer.append(s.substr(pos));
    out[i] = result.AddString(buffer);
  });
}

void SplitPartKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  string_t* out = ViewResult(args, result);
  RowLoop(args, result, count, [&](idx_t i) {
    string_t s = Str(args, 0, i), delim = Str(args, 1, i);
    int64_t n = Int(args, 2, i);
    if (n == 0) throw InvalidInputError("split_part: the part index must not be 0 (parts count from 1, or from -1 at the end)");
    std::vector<string_t> parts;
    if (delim.empty()) {
      parts.push_back(s);
    } else {
      size_t pos = 0;
      for (size_t hit; (hit = s.find(delim, pos)) != string_t::npos; pos = hit + delim.size()) parts.push_back(s.substr(pos, hit - pos));
      parts.push_back(s.substr(pos));
    }
    int64_t k = n > 0 ? n - 1 : static_cast<int64_t>(parts.size()) + n;
    out[i] = (k >= 0 && k < static_cast<int64_t>(parts.size())) ? parts[k] : string_t();
  });
}

enum class Probe { STARTS, ENDS, CONTAINS };

template <Probe P>
void ProbeKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  BinaryExecute<string_t, string_t, bool>(args.data[0], args.data[1], result, count, [](string_t s, string_t p) {
    if (P == Probe::STARTS) return s.substr(0, p.size()) == p;
    if (P == Probe::ENDS) return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
    return s.find(p) != string_t::npos;
  });
}

template <bool LEFT>
void PadKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  std::string buffer;
  auto* out = result.GetData<string_t>();
  bool has_pad = args.ColumnCount() == 3;
  RowLoop(args, result, count, [&](idx_t i) {
    string_t s = Str(args, 0, i), pad = has_pad ? Str(args, 2, i) : string_t(" ");
    int64_t target = Int(args, 1, i);
    int64_t len = utf8::Length(s);
    if (target <= 0) {
      out[i] = string_t();
      return;
    }
    if (target > (1 << 28)) throw InvalidInputError("lpad/rpad: length " + std::to_string(target) + " is too large");
    if (len >= target || pad.empty()) {
      out[i] = result.AddString(s.substr(0, utf8::ByteOffset(s, target)));
      return;
    }
    std::string fill;
    int64_t pad_len = utf8::Length(pad);
    for (int64_t need = target - len; need > 0; need -= pad_len) fill.append(pad.substr(0, utf8::ByteOffset(pad, need)));
    buffer.clear();
    if (LEFT) buffer.append(fill);
    buffer.append(s);
    if (!LEFT) buffer.append(fill);
    out[i] = result.AddString(buffer);
  });
}

void ReverseKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  UnaryExecute<string_t, string_t>(args.data[0], result, count, [&](string_t s) {
    char* p = result.Heap().Allocate(s.size());
    size_t w = s.size();
    for (size_t k = 0; k < s.size();) {
      size_t n = utf8::Next(s, k);
      w -= n - k;
      std::memcpy(p + w, s.data() + k, n - k);
      k = n;
    }
    return string_t(p, s.size());
  });
}

void ChrKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  std::string buffer;
  UnaryExecute<int64_t, string_t>(args.data[0], result, count, [&](int64_t code) {
    if (code < 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
      throw InvalidInputError("chr: " + std::to_string(code) +
                              " is not a Unicode code point; use 0 to 1114111 (0x10FFFF), surrogates 55296-57343 excluded");
    }
    buffer.clear();
    utf8::Encode(static_cast<uint32_t>(code), buffer);
    return result.AddString(buffer);
  });
}

void AsciiKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  UnaryExecute<string_t, int32_t>(args.data[0], result, count, [](string_t s) {
    size_t len = 0;
    return s.empty() ? 0 : static_cast<int32_t>(utf8::Decode(s, 0, len));
  });
}

// The longest string repeat() builds. Strings are string_views, so the
// engine has no hard limit; this one keeps a typo in a count from asking for
// terabytes. (A table stores values up to 256 MiB: parquet_limits.hpp.)
constexpr uint64_t kMaxRepeatBytes = 1ULL << 30;

void RepeatKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  BinaryExecute<string_t, int64_t, string_t>(args.data[0], args.data[1], result, count, [&](string_t s, int64_t n) {
    if (n <= 0 || s.empty()) return string_t();
    if (static_cast<double>(s.size()) * static_cast<double>(n) > static_cast<double>(kMaxRepeatBytes)) {
      throw InvalidInputError("repeat: " + std::to_string(n) + " copies of a " + std::to_string(s.size()) +
                              "-byte string would take more than 1 GiB (" + std::to_string(kMaxRepeatBytes) +
                              " bytes), the longest string repeat builds; repeat fewer times");
    }
    size_t total = s.size() * static_cast<size_t>(n);
    char* p = result.Heap().Allocate(total);
    // Doubling copies: a few large memcpys rather than n small ones.
    std::memcpy(p, s.data(), s.size());
    for (size_t filled = s.size(); filled < total; filled *= 2) std::memcpy(p + filled, p, std::min(filled, total - filled));
    return string_t(p, total);
  });
}

// 1-based character index of `sub` in `s` at or after character `from` (1-based), 0 if absent.
int32_t FindPosition(string_t s, string_t sub, int64_t from) {
  if (from < 1) return 0;
  size_t start = utf8::ByteOffset(s, from - 1);
  if (start > s.size() || (start == s.size() && from - 1 > utf8::Length(s))) return 0;
  size_t hit = s.find(sub, start);
  if (hit == string_t::npos) return 0;
  return static_cast<int32_t>(utf8::Length(s.substr(0, hit)) + 1);
}

// SUB_FIRST: position(sub, s) / locate(sub, s[, from]); else instr(s, sub).
template <bool SUB_FIRST>
void PositionKernel(DataChunk& args, Vector& result, idx_t count, const FunctionContext&) {
  auto* out = result.GetData<int32_t>();
  bool has_from = args.ColumnCount() == 3;
  RowLoop(args, result, count, [&](idx_t i) {
    string_t a = Str(args, 0, i), b = Str(args, 1, i);
    out[i] = SUB_FIRST ? FindPosition(b, a, has_from ? Int(args, 2, i) : 1) : FindPosition(a, b, 1);
  });
}

void ConcatBind(ScalarFunctionRegistry& registry) {
  registry.Register("concat", [](const ScalarBindInput& in) {
    const char* accepted = "concat(VARCHAR, ...)";
    if (in.argument_types.empty()) ThrowArgumentError(in, accepted);
    // Spark's concat also joins arrays (nested_array.cpp); || is array concatenation too.
    for (auto& t : in.argument_types) {
      if (t.id() == TypeId::LIST) return BindArrayConcatFunction(in);
    }
    std::vector<TypeId> expected(in.argument_types.size(), TypeId::VARCHAR);
    auto f = StringBind(in, expected, 1, TypeId::VARCHAR, ConcatKernel, accepted);
    f.handles_nulls = true;
    return f;
  });
  registry.Register("||", [](const ScalarBindInput& in) {
    for (auto& t : in.argument_types) {
      if (t.id() == TypeId::LIST) return BindArrayConcatFunction(in);
    }
    return StringBind(in, {TypeId::VARCHAR, TypeId::VARCHAR}, 2, TypeId::VARCHAR, ConcatOperatorKernel, "VARCHAR || VARCHAR");
  });
  registry.Register("concat_ws", [](const ScalarBindInput& in) {
    const char* accepted = "concat_ws(separator VARCHAR, VARCHAR, ...)";
    if (in.argument_types.empty()) ThrowArgumentError(in, accepted);
    std::vector<TypeId> expected(in.argument_types.size(), TypeId::VARCHAR);
    auto f = StringBind(in, expected, 1, TypeId::VARCHAR, ConcatWsKernel, accepted);
    f.handles_nulls = true;
    return f;
  });
}

}  // namespace

void RegisterStringFunctions(ScalarFunctionRegistry& registry) {
  using T = TypeId;
  // name, parameters, required count, return type, kernel, accepted signatures
  struct Entry {
    std::vector<std::string> names;
    std::vector<TypeId> params;
    idx_t min_args;
    TypeId ret;
    void (*kernel)(DataChunk&, Vector&, idx_t, const FunctionContext&);
    const char* accepted;
  };
  const std::vector<Entry> entries = {
      {{"lower", "lcase"}, {T::VARCHAR}, 1, T::VARCHAR, CaseKernel<false>, "lower(VARCHAR)"},
      {{"upper", "ucase"}, {T::VARCHAR}, 1, T::VARCHAR, CaseKernel<true>, "upper(VARCHAR)"},
      {{"length", "char_length", "character_length", "len"}, {T::VARCHAR}, 1, T::INTEGER, LengthKernel, "length(VARCHAR)"},
      {{"substring", "substr"}, {T::VARCHAR, T::BIGINT, T::BIGINT}, 2, T::VARCHAR, SubstringKernel,
       "substring(VARCHAR, start BIGINT[, length BIGINT])"},
      {{"overlay"}, {T::VARCHAR, T::VARCHAR, T::BIGINT, T::BIGINT}, 3, T::VARCHAR, OverlayKernel,
       "overlay(VARCHAR, replacement VARCHAR, position BIGINT[, length BIGINT])"},
      {{"left"}, {T::VARCHAR, T::BIGINT}, 2, T::VARCHAR, LeftRightKernel<true>, "left(VARCHAR, BIGINT)"},
      {{"right"}, {T::VARCHAR, T::BIGINT}, 2, T::VARCHAR, LeftRightKernel<false>, "right(VARCHAR, BIGINT)"},
      {{"trim", "btrim"}, {T::VARCHAR, T::VARCHAR}, 1, T::VARCHAR, TrimKernel<true, true>, "trim(VARCHAR[, characters VARCHAR])"},
      {{"ltrim"}, {T::VARCHAR, T::VARCHAR}, 1, T::VARCHAR, TrimKernel<true, false>, "ltrim(VARCHAR[, characters VARCHAR])"},
      {{"rtrim"}, {T::VARCHAR, T::VARCHAR}, 1, T::VARCHAR, TrimKernel<false, true>, "rtrim(VARCHAR[, characters VARCHAR])"},
      {{"replace"}, {T::VARCHAR, T::VARCHAR, T::VARCHAR}, 2, T::VARCHAR, ReplaceKernel,
       "replace(VARCHAR, search VARCHAR[, replacement VARCHAR])"},
      {{"split_part"}, {T::VARCHAR, T::VARCHAR, T::BIGINT}, 3, T::VARCHAR, SplitPartKernel,
       "split_part(VARCHAR, delimiter VARCHAR, part BIGINT)"},
      {{"starts_with", "startswith"}, {T::VARCHAR, T::VARCHAR}, 2, T::BOOLEAN, ProbeKernel<Probe::STARTS>, "starts_with(VARCHAR, VARCHAR)"},
      {{"ends_with", "endswith"}, {T::VARCHAR, T::VARCHAR}, 2, T::BOOLEAN, ProbeKernel<Probe::ENDS>, "ends_with(VARCHAR, VARCHAR)"},
      {{"contains"}, {T::VARCHAR, T::VARCHAR}, 2, T::BOOLEAN, ProbeKernel<Probe::CONTAINS>, "contains(VARCHAR, VARCHAR)"},
      {{"lpad"}, {T::VARCHAR, T::BIGINT, T::VARCHAR}, 2, T::VARCHAR, PadKernel<true>, "lpad(VARCHAR, length BIGINT[, pad VARCHAR])"},
      {{"rpad"}, {T::VARCHAR, T::BIGINT, T::VARCHAR}, 2, T::VARCHAR, PadKernel<false>, "rpad(VARCHAR, length BIGINT[, pad VARCHAR])"},
      {{"reverse"}, {T::VARCHAR}, 1, T::VARCHAR, ReverseKernel, "reverse(VARCHAR)"},
      {{"repeat"}, {T::VARCHAR, T::BIGINT}, 2, T::VARCHAR, RepeatKernel, "repeat(VARCHAR, count BIGINT)"},
      {{"chr"}, {T::BIGINT}, 1, T::VARCHAR, ChrKernel, "chr(code INTEGER)"},
      {{"ascii"}, {T::VARCHAR}, 1, T::INTEGER, AsciiKernel, "ascii(VARCHAR)"},
      {{"instr", "strpos"}, {T::VARCHAR, T::VARCHAR}, 2, T::INTEGER, PositionKernel<false>, "instr(VARCHAR, substring VARCHAR)"},
      {{"position", "locate"}, {T::VARCHAR, T::VARCHAR, T::BIGINT}, 2, T::INTEGER, PositionKernel<true>,
       "position(substring VARCHAR, VARCHAR[, start BIGINT])"},
  };
  for (auto& e : entries) {
    for (auto& name : e.names) {
      registry.Register(name, [e](const ScalarBindInput& in) {
        return StringBind(in, e.params, e.min_args, e.ret, e.kernel, e.accepted);
      });
    }
  }
  ConcatBind(registry);
  RegisterLikeFunctions(registry);
  RegisterRegexpFunctions(registry);
}

}  // namespace lakestream
