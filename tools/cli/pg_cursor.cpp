#include "pg_cursor.hpp"

#include <cctype>
#include <vector>

#include "pg_format.hpp"

namespace lakestream::pg {

namespace {

// The words of a cursor command up to DECLARE's FOR: identifiers (upper-cased
// for keywords), numbers and quoted names, with where each ends.
struct Word {
  std::string text;   // as written, unquoted
  bool quoted = false;
  size_t end = 0;
};

class Words {
 public:
  explicit Words(const std::string& sql) : sql_(sql) {}

  // The next word, or nullopt at the end (';' and comments end it too).
  std::optional<Word> Next() {
    while (pos_ < sql_.size() && std::isspace(static_cast<unsigned char>(sql_[pos_]))) pos_++;
    if (pos_ >= sql_.size() || sql_[pos_] == ';') return std::nullopt;
    Word word;
    if (sql_[pos_] == '"') {
      word.quoted = true;
      for (pos_++;; pos_++) {
        if (pos_ >= sql_.size()) throw SqlError("42601", "unterminated quoted name in: " + sql_);
        if (sql_[pos_] == '"') {
          if (pos_ + 1 < sql_.size() && sql_[pos_ + 1] == '"') {
            word.text += '"';
            pos_++;
            continue;
          }
          pos_++;
          break;
        }
        word.text += sql_[pos_];
      }
    } else {
      size_t start = pos_;
      while (pos_ < sql_.size() && (std::isalnum(static_cast<unsigned char>(sql_[pos_])) || sql_[pos_] == '_' ||
                                    sql_[pos_] == '-' || sql_[pos_] == '+')) {
        pos_++;
      }
      if (pos_ == start) pos_++;  // one punctuation character
      word.text = sql_.substr(start, pos_ - start);
    }
    word.end = pos_;
    return word;
  }

  const std::string& Sql() const { return sql_; }

 private:
  const std::string& sql_;
  size_t pos_ = 0;
};

std::string Upper(const Word& word) {
  if (word.quoted) return "";
  std::string out = word.text;
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string NameOf(const Word& word) {
  if (word.quoted) return word.text;
  std::string out = word.text;
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool IsNumber(const std::string& text) {
  size_t start = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  return text.size() > start && text.size() - start <= 18 &&
         text.find_first_not_of("0123456789", start) == std::string::npos;
}

[[noreturn]] void Malformed(const std::string& sql, const std::string& grammar) {
  throw SqlError("42601", "syntax error in \"" + sql + "\"; expected " + grammar);
}

[[noreturn]] void NotForward(const std::string& what) {
  throw SqlError("0A000", "not supported yet: " + what +
                              " (lakestream's cursors only go forward: FETCH [FORWARD] n | ALL | NEXT, MOVE the same)");
}

const char* const kDeclareGrammar =
    "DECLARE name [BINARY] [NO SCROLL] CURSOR [WITH HOLD | WITHOUT HOLD] FOR query";
const char* const kFetchGrammar = "FETCH [FORWARD] [n | ALL | NEXT] [FROM | IN] name";

CursorCommand ParseDeclare(Words& words) {
  CursorCommand command;
  command.kind = CursorCommand::Kind::DECLARE;
  auto name = words.Next();
  if (!name) Malformed(words.Sql(), kDeclareGrammar);
  command.name = NameOf(*name);
  for (;;) {
    auto word = words.Next();
    if (!word) Malformed(words.Sql(), kDeclareGrammar);
    std::string kw = Upper(*word);
    if (kw == "BINARY") {
      command.binary = true;
    } else if (kw == "ASENSITIVE" || kw == "INSENSITIVE") {
      // Rows are computed at DECLARE: later changes are never seen, as INSENSITIVE asks.
    } else if (kw == "NO") {
      auto scroll = words.Next();
      if (!scroll || Upper(*scroll) != "SCROLL") Malformed(words.Sql(), kDeclareGrammar);
    } else if (kw == "SCROLL") {
      throw SqlError("0A000", "not supported yet: SCROLL cursors (fetching backward); declare it NO SCROLL, or "
                              "without SCROLL (psycopg: scrollable=None or False)");
    } else if (kw == "CURSOR") {
      break;
    } else {
      Malformed(words.Sql(), kDeclareGrammar);
    }
  }
  auto word = words.Next();
  std::string kw = word ? Upper(*word) : "";
  if (kw == "WITH" || kw == "WITHOUT") {
    auto hold = words.Next();
    if (!hold || Upper(*hold) != "HOLD") Malformed(words.Sql(), kDeclareGrammar);
    command.hold = kw == "WITH";
    word = words.Next();
    kw = word ? Upper(*word) : "";
  }
  if (kw != "FOR") Malformed(words.Sql(), kDeclareGrammar);
  command.query = words.Sql().substr(word->end);
  size_t start = command.query.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) Malformed(words.Sql(), kDeclareGrammar);
  command.query = command.query.substr(start);
  return command;
}

CursorCommand ParseFetch(Words& words, CursorCommand::Kind kind) {
  CursorCommand command;
  command.kind = kind;
  std::vector<Word> rest;
  while (auto word = words.Next()) rest.push_back(*word);
  if (rest.empty()) Malformed(words.Sql(), kFetchGrammar);
  command.name = NameOf(rest.back());
  rest.pop_back();
  if (!rest.empty() && (Upper(rest.back()) == "FROM" || Upper(rest.back()) == "IN")) rest.pop_back();
  size_t i = 0;
  std::string first = i < rest.size() ? Upper(rest[i]) : "";
  if (first == "BACKWARD" || first == "PRIOR" || first == "FIRST" || first == "LAST" || first == "ABSOLUTE" ||
      first == "RELATIVE") {
    NotForward(first);
  }
  if (first == "NEXT") {
    i++;
  } else {
    if (first == "FORWARD") first = ++i < rest.size() ? Upper(rest[i]) : "";
    if (first == "ALL") {
      command.all = true;
      i++;
    } else if (i < rest.size() && IsNumber(rest[i].text)) {
      command.count = std::stoll(rest[i].text);
      if (command.count < 0) NotForward("a negative count (fetching backward)");
      if (command.count == 0) NotForward("a count of 0 (re-reading the current row)");
      i++;
    }
  }
  if (i != rest.size() || command.name.empty()) Malformed(words.Sql(), kFetchGrammar);
  return command;
}

}  // namespace

std::optional<CursorCommand> ParseCursorCommand(const std::string& sql) {
  Words words(sql);
  auto first = words.Next();
  std::string kw = first ? Upper(*first) : "";
  if (kw == "DECLARE") return ParseDeclare(words);
  if (kw == "FETCH") return ParseFetch(words, CursorCommand::Kind::FETCH);
  if (kw == "MOVE") return ParseFetch(words, CursorCommand::Kind::MOVE);
  if (kw != "CLOSE") return std::nullopt;
  CursorCommand command;
  command.kind = CursorCommand::Kind::CLOSE;
  auto name = words.Next();
  if (!name || words.Next()) Malformed(sql, "CLOSE name | ALL");
  command.all = Upper(*name) == "ALL";
  if (!command.all) command.name = NameOf(*name);
  return command;
}

}  // namespace lakestream::pg
