// Executes parsed .test files against the public API and reports mismatches.
#include <unistd.h>

#include <algorithm>
#include <regex>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "common/exception.hpp"
#include "common/vector.hpp"
#include "lakestream.hpp"
#include "slt.hpp"

namespace lakestream::slt {

namespace {

using Row = std::vector<std::string>;

// Replaces every occurrence of `from` in `s`.
std::string ReplaceAll(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size()) s.replace(pos, from.size(), to);
  return s;
}

std::string FirstLine(const std::string& s) {
  auto nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl) + " ...";
}

// Result cells as the test format writes them.
std::string CellText(const Value& v) {
  if (v.IsNull()) return "NULL";
  std::string s = v.ToString();
  return s.empty() ? "(empty)" : s;
}

std::string JoinRow(const Row& row) {
  std::string out;
  for (size_t i = 0; i < row.size(); i++) out += (i ? "\t" : "") + row[i];
  return out;
}

Row SplitExpected(const std::string& line, size_t columns) {
  Row row;
  size_t start = 0;
  while (true) {
    size_t tab = line.find('\t', start);
    row.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) break;
    start = tab + 1;
  }
  // Editors love turning tabs into spaces; accept runs of spaces when that
  // gives exactly the right column count and the line has no tab at all.
  if (row.size() != columns && line.find('\t') == std::string::npos) {
    std::istringstream in(line);
    Row words;
    for (std::string w; in >> w;) words.push_back(w);
    if (words.size() == columns) return words;
  }
  return row;
}

class Runner {
 public:
  Runner(const TestFile& file, const RunOptions& options) : file_(file), options_(options) {}

  FileSummary Run() {
    // A fresh directory per file for load __TEST_DIR__/x.db.
    std::string tmpl = (std::filesystem::temp_directory_path() / "lakestream_slt_XXXXXX").string();
    if (mkdtemp(tmpl.data())) test_dir_ = tmpl;
    Open("", false);
    RunRange(0, file_.records.size());
    con_.reset();
    db_.reset();
    if (!test_dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(test_dir_, ec);
    }
    return summary_;
  }

 private:
  std::string Substitute(const std::string& s) const {
    std::string out = ReplaceAll(s, "__TEST_DIR__", test_dir_);
    // The Spark-written Delta tables (test/CMakeLists.txt finds them), as an
    // absolute path and as one relative to the working directory (which
    // relative LOCATIONs resolve against).
    out = ReplaceAll(out, "__SHARED_DIR_RELATIVE__", std::filesystem::relative(LAKESTREAM_SHARED_DIR).string());
    out = ReplaceAll(out, "__SHARED_DIR__", LAKESTREAM_SHARED_DIR);
    for (auto& [name, value] : vars_) out = ReplaceAll(out, "${" + name + "}", value);
    return out;
  }

  bool Open(const std::string& path, bool read_only) {
    con_.reset();
    db_.reset();
    try {
      DatabaseOptions options;
      options.read_only = read_only;
      // CI runs the suite at a fixed thread count (docs/ci.md); unset: the machine's cores.
      if (const char* threads = std::getenv("LAKESTREAM_THREADS")) options.threads = std::atoi(threads);
      db_ = std::make_unique<Database>(path, options);
      con_ = std::make_unique<Connection>(*db_);
      db_path_ = path;
      db_read_only_ = read_only;
      return true;
    } catch (std::exception& e) {
      open_error_ = e.what();
      return false;
    }
  }

  // " (i=3, j=0)" inside loops, so a failure names the iteration.
  std::string LoopContext() const {
    if (vars_.empty()) return "";
    std::string out = " (";
    for (auto& [name, value] : vars_) out += (out.size() > 2 ? ", " : "") + name + "=" + value;
    return out + ")";
  }

  void Fail(const Record& rec, const std::string& sql, const std::string& what) {
    summary_.failed++;
    std::cout << "================================================================\n"
              << file_.path << ":" << rec.line << LoopContext() << ": " << what << "\n";
    if (!sql.empty()) std::cout << "---- SQL ----\n" << sql << (sql.back() == '\n' ? "" : "\n");
  }

  std::unique_ptr<QueryResult> Execute(const std::string& sql) {
    if (!con_) return QueryResult::FromError(ExceptionType::IO, "the database did not open: " + open_error_);
    try {
      return con_->Query(sql);
    } catch (std::exception& e) {
      // Query must not throw; report it as a failure of this record rather
      // than aborting the file.
      return QueryResult::FromError(ExceptionType::INTERNAL, std::string("exception escaped Query(): ") + e.what());
    }
  }

  // Runs records [begin, end); returns false when the file must stop (halt,
  // fail-fast, skipped file).
  bool RunRange(size_t begin, size_t end) {
    for (size_t i = begin; i < end; i++) {
      const Record& rec = file_.records[i];
      if (rec.kind == RecordKind::LOOP) {
        for (const auto& value : rec.loop_values) {
          vars_[rec.loop_var] = value;
          if (!RunRange(i + 1, rec.loop_end)) return false;
        }
        vars_.erase(rec.loop_var);
        i = rec.loop_end;
        continue;
      }
      if (rec.kind == RecordKind::MODE_SKIP) skip_mode_ = true;
      if (rec.kind == RecordKind::MODE_UNSKIP) skip_mode_ = false;
      if (skip_mode_ || rec.skip) {
        if (rec.kind == RecordKind::QUERY || rec.kind == RecordKind::STATEMENT_OK ||
            rec.kind == RecordKind::STATEMENT_ERROR || rec.kind == RecordKind::STATEMENT_MAYBE) {
          summary_.skipped++;
        }
        continue;
      }
      if (!RunRecord(rec)) return false;
      if (options_.fail_fast && summary_.failed > 0) return false;
    }
    return true;
  }

  bool RunRecord(const Record& rec) {
    if (options_.verbose) std::cout << file_.path << ":" << rec.line << ": " << FirstLine(Substitute(rec.sql)) << "\n";
    switch (rec.kind) {
      case RecordKind::STATEMENT_OK:
      case RecordKind::STATEMENT_ERROR:
      case RecordKind::STATEMENT_MAYBE: RunStatement(rec); return true;
      case RecordKind::QUERY: RunQuery(rec); return true;
      case RecordKind::REQUIRE:
        // No optional features exist yet; a file that needs one cannot run.
        summary_.skipped_file = true;
        summary_.skip_reason = "require " + rec.argument;
        return false;
      case RecordKind::LOAD:
        if (!Open(Substitute(rec.argument), rec.read_only)) {
          Fail(rec, "", "load " + rec.argument + " failed: " + open_error_);
        }
        return true;
      case RecordKind::RESTART:
        if (!Open(db_path_, db_read_only_)) Fail(rec, "", "restart failed: " + open_error_);
        return true;
      case RecordKind::HALT: return false;
      default: return true;
    }
  }

  void RunStatement(const Record& rec) {
    summary_.statements++;
    std::string sql = Substitute(rec.sql);
    auto result = Execute(sql);
    std::string expected_message;
    for (size_t k = 0; k < rec.expected.size(); k++) expected_message += (k ? "\n" : "") + Substitute(rec.expected[k]);
    if (rec.kind == RecordKind::STATEMENT_OK) {
      if (result->HasError()) Fail(rec, sql, "statement failed but should succeed:\n" + result->GetError());
      return;
    }
    if (!result->HasError()) {
      if (rec.kind == RecordKind::STATEMENT_ERROR) Fail(rec, sql, "statement succeeded but should fail");
      return;
    }
    if (!expected_message.empty() && result->GetError().find(expected_message) == std::string::npos) {
      Fail(rec, sql,
           "wrong error message\n---- expected (a part of the message) ----\n" + expected_message +
               "\n---- actual ----\n" + result->GetError());
    }
  }

  void RunQuery(const Record& rec) {
    summary_.queries++;
    std::string sql = Substitute(rec.sql);
    auto result = Execute(sql);
    if (result->HasError()) {
      Fail(rec, sql, "query failed:\n" + result->GetError());
      return;
    }
    size_t columns = rec.types.size();
    if (result->ColumnCount() != columns) {
      Fail(rec, sql,
           "query has " + std::to_string(result->ColumnCount()) + " columns but the record says " +
               std::to_string(columns) + " (query " + rec.types + ")");
      PrintActual(*result, sql);
      return;
    }
    std::vector<Row> actual;
    for (auto& chunk : result->Chunks()) {
      for (idx_t r = 0; r < chunk->size(); r++) {
        Row row;
        for (idx_t c = 0; c < columns; c++) row.push_back(CellText(chunk->GetValue(c, r)));
        actual.push_back(std::move(row));
      }
    }
    std::vector<std::string> expected_lines;
    for (auto& line : rec.expected) expected_lines.push_back(Substitute(line));
    if (expected_lines.size() == 1 && expected_lines[0].find(" values hashing to ") != std::string::npos) {
      Fail(rec, sql, "hashed results (\"N values hashing to ...\") are not supported; write the rows out");
      return;
    }
    std::vector<Row> expected;
    for (auto& line : expected_lines) expected.push_back(SplitExpected(line, columns));
    // DuckDB also allows one value per line for multi-column results.
    bool one_per_line = columns > 1 && !expected.empty() &&
                        std::all_of(expected.begin(), expected.end(), [](const Row& r) { return r.size() == 1; });
    if (one_per_line || rec.sort == SortMode::VALUE) {
      Row flat_expected, flat_actual;
      for (auto& r : expected) flat_expected.insert(flat_expected.end(), r.begin(), r.end());
      for (auto& r : actual) flat_actual.insert(flat_actual.end(), r.begin(), r.end());
      if (rec.sort != SortMode::NONE) {
        // rowsort on one-value-per-line data cannot rebuild rows reliably; sort values.
        std::sort(flat_expected.begin(), flat_expected.end());
        std::sort(flat_actual.begin(), flat_actual.end());
      }
      if (flat_expected != flat_actual) {
        std::vector<Row> e, a;
        for (auto& v : flat_expected) e.push_back({v});
        for (auto& v : flat_actual) a.push_back({v});
        ReportMismatch(rec, sql, e, a, *result);
      }
      return;
    }
    if (rec.sort == SortMode::ROW) {
      std::sort(expected.begin(), expected.end());
      std::sort(actual.begin(), actual.end());
    }
    MatchRegexCells(expected, actual);
    if (expected != actual) ReportMismatch(rec, sql, expected, actual, *result);
  }

  // An expected cell `<REGEX>:pattern` matches an actual cell the whole
  // pattern matches (times, ids); it then compares as equal.
  static void MatchRegexCells(std::vector<Row>& expected, const std::vector<Row>& actual) {
    static const std::string prefix = "<REGEX>:";
    for (size_t k = 0; k < expected.size() && k < actual.size(); k++) {
      for (size_t c = 0; c < expected[k].size() && c < actual[k].size(); c++) {
        const std::string& cell = expected[k][c];
        if (cell.compare(0, prefix.size(), prefix) != 0) continue;
        if (std::regex_match(actual[k][c], std::regex(cell.substr(prefix.size())))) expected[k][c] = actual[k][c];
      }
    }
  }

  void ReportMismatch(const Record& rec, const std::string& sql, const std::vector<Row>& expected,
                      const std::vector<Row>& actual, const QueryResult& result) {
    Fail(rec, sql, "wrong result");
    // Lines marked '!' differ from the line at the same position on the other side.
    auto print = [](const char* title, const std::vector<Row>& rows, const std::vector<Row>& other) {
      std::cout << "---- " << title << " (" << rows.size() << (rows.size() == 1 ? " row" : " rows") << ") ----\n";
      for (size_t k = 0; k < rows.size(); k++) {
        bool same = k < other.size() && other[k] == rows[k];
        std::cout << (same ? "  " : "! ") << JoinRow(rows[k]) << "\n";
      }
    };
    print("expected", expected, actual);
    print("actual", actual, expected);
    if (expected.size() == actual.size()) {
      for (size_t k = 0; k < expected.size(); k++) {
        if (expected[k].size() != actual[k].size()) {
          std::cout << "(row " << k + 1 << ": expected " << expected[k].size() << " values, got "
                    << actual[k].size() << "; values are separated by tabs)\n";
          break;
        }
      }
    }
    PrintActual(result, sql);
  }

  // The actual result in the test format, ready to paste into the file.
  void PrintActual(const QueryResult& result, const std::string& sql) {
    std::cout << "---- actual result as a record ----\nquery ";
    for (auto& type : result.Types()) {
      switch (type.id()) {
        case TypeId::INTEGER:
        case TypeId::BIGINT: std::cout << 'I'; break;
        case TypeId::DOUBLE:
        case TypeId::DECIMAL: std::cout << 'R'; break;
        case TypeId::BOOLEAN: std::cout << 'B'; break;
        default: std::cout << 'T';
      }
    }
    std::cout << "\n" << sql << (!sql.empty() && sql.back() == '\n' ? "" : "\n") << "----\n";
    for (auto& chunk : result.Chunks()) {
      for (idx_t r = 0; r < chunk->size(); r++) {
        Row row;
        for (idx_t c = 0; c < result.ColumnCount(); c++) row.push_back(CellText(chunk->GetValue(c, r)));
        std::cout << JoinRow(row) << "\n";
      }
    }
  }

  const TestFile& file_;
  const RunOptions& options_;
  FileSummary summary_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
  std::string db_path_;
  bool db_read_only_ = false;
  std::string open_error_;
  std::string test_dir_;
  std::map<std::string, std::string> vars_;
  bool skip_mode_ = false;
};

}  // namespace

FileSummary RunTestFile(const TestFile& file, const RunOptions& options) {
  Runner runner(file, options);
  return runner.Run();
}

}  // namespace lakestream::slt
