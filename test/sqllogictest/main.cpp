// lakestream_sqllogictest [-v] [-x] FILE_OR_DIR...
//
// Runs each .test file (directories are searched recursively, in path order)
// in its own fresh database and prints one summary line per file:
//   test/sql/x.test: 42 queries, 7 statements, 0 failed
// Exit code: 0 when every record passed (skipped files count as passed),
// 1 when anything failed or a file did not parse, 2 on bad arguments.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "slt.hpp"

int main(int argc, char** argv) {
  lakestream::slt::RunOptions options;
  std::vector<std::string> files;
  for (int i = 1; i < argc; i++) {
    std::string arg = argv[i];
    if (arg == "-v" || arg == "--verbose") {
      options.verbose = true;
    } else if (arg == "-x" || arg == "--fail-fast") {
      options.fail_fast = true;
    } else if (arg == "-h" || arg == "--help") {
      std::cout << "usage: lakestream_sqllogictest [-v|--verbose] [-x|--fail-fast] FILE_OR_DIR...\n";
      return 0;
    } else if (std::filesystem::is_directory(arg)) {
      std::vector<std::string> found;
      for (auto& entry : std::filesystem::recursive_directory_iterator(arg)) {
        if (entry.is_regular_file() && entry.path().extension() == ".test") found.push_back(entry.path().string());
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(arg);
    }
  }
  if (files.empty()) {
    std::cerr << "usage: lakestream_sqllogictest [-v|--verbose] [-x|--fail-fast] FILE_OR_DIR...\n";
    return 2;
  }

  int failed_files = 0;
  int total_records = 0, total_failed = 0;
  for (auto& path : files) {
    lakestream::slt::TestFile file;
    std::string error;
    if (!lakestream::slt::ParseTestFile(path, file, error)) {
      std::cout << error << "\n" << path << ": could not be parsed, 1 failed" << std::endl;
      failed_files++;
      total_failed++;
      continue;
    }
    auto summary = lakestream::slt::RunTestFile(file, options);
    std::cout << path << ": ";
    if (summary.skipped_file) {
      std::cout << "skipped (" << summary.skip_reason << ")";
    } else {
      std::cout << summary.queries << " queries, " << summary.statements << " statements, " << summary.failed
                << " failed";
      if (summary.skipped > 0) std::cout << ", " << summary.skipped << " skipped";
    }
    std::cout << std::endl;
    total_records += summary.queries + summary.statements;
    total_failed += summary.failed;
    if (summary.failed > 0) failed_files++;
  }
  if (files.size() > 1) {
    std::cout << files.size() << " files, " << total_records << " records, " << total_failed << " failed ("
              << failed_files << " files with failures)" << std::endl;
  }
  return failed_files == 0 ? 0 : 1;
}
