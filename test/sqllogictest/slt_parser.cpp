// Parser for .test files (format in slt.hpp).
#include <fstream>
#include <sstream>

#include "slt.hpp"

namespace lakestream::slt {

namespace {

bool IsBlank(const std::string& s) { return s.find_first_not_of(" \t\r") == std::string::npos; }

std::vector<std::string> Words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  std::string w;
  while (in >> w) words.push_back(w);
  return words;
}

// Everything after the first `skip` words of `line`, trimmed.
std::string Rest(const std::string& line, size_t skip) {
  size_t pos = 0;
  for (size_t k = 0; k < skip; k++) {
    pos = line.find_first_not_of(" \t", pos);
    if (pos == std::string::npos) return "";
    pos = line.find_first_of(" \t", pos);
    if (pos == std::string::npos) return "";
  }
  size_t start = line.find_first_not_of(" \t", pos);
  if (start == std::string::npos) return "";
  size_t end = line.find_last_not_of(" \t\r");
  return line.substr(start, end - start + 1);
}

}  // namespace

bool ParseTestFile(const std::string& path, TestFile& file, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = path + ": cannot open the file";
    return false;
  }
  file.path = path;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  auto fail = [&](size_t i, const std::string& message) {
    error = path + ":" + std::to_string(i + 1) + ": " + message;
    return false;
  };

  std::vector<size_t> open_loops;  // indexes of LOOP records awaiting endloop
  bool skip_next = false;
  size_t i = 0;
  while (i < lines.size()) {
    const std::string& line = lines[i];
    if (IsBlank(line) || line[0] == '#') {
      i++;
      continue;
    }
    auto words = Words(line);
    const std::string& cmd = words[0];
    Record rec;
    rec.line = static_cast<int>(i + 1);

    // Classic sqllogictest conditions apply to the next record only.
    if (cmd == "skipif" || cmd == "onlyif") {
      if (words.size() < 2) return fail(i, cmd + " needs an engine name");
      bool us = words[1] == "lakestream";
      skip_next = skip_next || (cmd == "skipif" ? us : !us);
      i++;
      continue;
    }
    rec.skip = skip_next;
    skip_next = false;

    // SQL lines up to "----" or a blank line; then, after "----", expected
    // lines up to a blank line.
    auto read_body = [&](Record& r) {
      i++;
      std::string sql;
      while (i < lines.size() && !IsBlank(lines[i]) && lines[i] != "----") {
        sql += lines[i] + "\n";
        i++;
      }
      r.sql = sql;
      if (i < lines.size() && lines[i] == "----") {
        r.has_expected = true;
        i++;
        while (i < lines.size() && !IsBlank(lines[i])) r.expected.push_back(lines[i++]);
      }
    };

    if (cmd == "statement") {
      if (words.size() < 2) return fail(i, "statement needs ok, error or maybe");
      if (words[1] == "ok") {
        rec.kind = RecordKind::STATEMENT_OK;
      } else if (words[1] == "error") {
        rec.kind = RecordKind::STATEMENT_ERROR;
      } else if (words[1] == "maybe") {
        rec.kind = RecordKind::STATEMENT_MAYBE;
      } else {
        return fail(i, "unknown statement kind \"" + words[1] + "\" (use ok, error or maybe)");
      }
      std::string inline_message = Rest(line, 2);
      read_body(rec);
      if (rec.sql.empty()) return fail(rec.line - 1, "statement without SQL");
      if (rec.kind == RecordKind::STATEMENT_OK && rec.has_expected) {
        return fail(rec.line - 1, "statement ok cannot have a ---- section; use query for results");
      }
      // "statement error <part>" on the header line works like a ---- section.
      if (!inline_message.empty()) rec.expected.insert(rec.expected.begin(), inline_message);
    } else if (cmd == "query") {
      rec.kind = RecordKind::QUERY;
      if (words.size() < 2) return fail(i, "query needs type letters, e.g. query IT");
      rec.types = words[1];
      for (char c : rec.types) {
        if (std::string("ITRBD").find(c) == std::string::npos) {
          return fail(i, std::string("unknown type letter '") + c + "' (use I, R, T, B)");
        }
      }
      if (words.size() >= 3) {
        if (words[2] == "rowsort") rec.sort = SortMode::ROW;
        else if (words[2] == "valuesort") rec.sort = SortMode::VALUE;
        else if (words[2] == "nosort") rec.sort = SortMode::NONE;
        // anything else is a label, which we do not use
      }
      read_body(rec);
      if (rec.sql.empty()) return fail(rec.line - 1, "query without SQL");
    } else if (cmd == "require") {
      rec.kind = RecordKind::REQUIRE;
      rec.argument = Rest(line, 1);
      i++;
    } else if (cmd == "load") {
      rec.kind = RecordKind::LOAD;
      if (words.size() < 2) return fail(i, "load needs a database directory");
      rec.argument = words[1];
      rec.read_only = words.size() > 2 && words[2] == "readonly";
      i++;
    } else if (cmd == "restart") {
      rec.kind = RecordKind::RESTART;
      i++;
    } else if (cmd == "loop" || cmd == "concurrentloop") {
      rec.kind = RecordKind::LOOP;
      if (words.size() != 4) return fail(i, "usage: loop <var> <from> <to>");
      rec.loop_var = words[1];
      try {
        long from = std::stol(words[2]), to = std::stol(words[3]);
        for (long v = from; v < to; v++) rec.loop_values.push_back(std::to_string(v));
      } catch (std::exception&) {
        return fail(i, "loop bounds must be integers");
      }
      open_loops.push_back(file.records.size());
      i++;
    } else if (cmd == "foreach" || cmd == "concurrentforeach") {
      rec.kind = RecordKind::LOOP;
      if (words.size() < 3) return fail(i, "usage: foreach <var> <value> [<value> ...]");
      rec.loop_var = words[1];
      rec.loop_values.assign(words.begin() + 2, words.end());
      open_loops.push_back(file.records.size());
      i++;
    } else if (cmd == "endloop") {
      if (open_loops.empty()) return fail(i, "endloop without loop");
      rec.kind = RecordKind::ENDLOOP;
      file.records[open_loops.back()].loop_end = file.records.size();
      open_loops.pop_back();
      i++;
    } else if (cmd == "mode") {
      if (words.size() != 2 || (words[1] != "skip" && words[1] != "unskip")) {
        return fail(i, "usage: mode skip|unskip");
      }
      rec.kind = words[1] == "skip" ? RecordKind::MODE_SKIP : RecordKind::MODE_UNSKIP;
      i++;
    } else if (cmd == "halt") {
      rec.kind = RecordKind::HALT;
      i++;
    } else if (cmd == "sleep" || cmd == "hash-threshold") {
      rec.kind = RecordKind::NOOP;
      i++;
    } else {
      return fail(i, "unknown command \"" + cmd + "\" (a record starts with statement, query, load, loop, ...)");
    }
    file.records.push_back(std::move(rec));
  }
  if (!open_loops.empty()) {
    return fail(static_cast<size_t>(file.records[open_loops.back()].line - 1), "loop without endloop");
  }
  return true;
}

}  // namespace lakestream::slt
