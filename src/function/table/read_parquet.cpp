// read_parquet('file.parquet' | 'dir/*.parquet' | ['a.parquet', 'b.parquet']):
// the rows of Parquet files. The schema comes from the first file; every file
// must have the same column names and types. Only the columns the query reads
// are decoded.
#include <glob.h>

#include <algorithm>

#include "common/exception.hpp"
#include "common/file_system.hpp"
#include "function/table/file_discovery.hpp"
#include "common/string_util.hpp"
#include "function/table/table_functions.hpp"
#include "transaction/client_context.hpp"
#include "storage/parquet/parquet_reader.hpp"

namespace lakestream {

namespace {

class ParquetScanSource : public TableSource {
 public:
  // `fs`: what the files are opened through (ExternalAccessPolicy::Files()).
  ParquetScanSource(std::vector<std::string> files, std::vector<idx_t> column_ids, FileSystem* fs)
      : files_(std::move(files)), column_ids_(std::move(column_ids)), fs_(fs) {}

  bool Next(DataChunk& out) override {
    while (true) {
      if (!reader_) {
        if (next_file_ >= files_.size()) return false;
        auto opened = ParquetReader::Open(files_[next_file_++], fs_);
        if (!opened.ok()) opened.status().Throw();
        reader_ = opened.take();
        Status s = reader_->Scan(column_ids_);
        if (!s.ok()) s.Throw();
      }
      Status s = reader_->ReadChunk(out);
      if (!s.ok()) s.Throw();
      if (out.size() > 0) return true;
      reader_.reset();
    }
  }
  std::string Name() const override { return "PARQUET_SCAN"; }
  std::string Details() const override { return std::to_string(files_.size()) + " file(s)"; }

 private:
  std::vector<std::string> files_;
  std::vector<idx_t> column_ids_;
  FileSystem* fs_;
  std::unique_ptr<ParquetReader> reader_;
  idx_t next_file_ = 0;
};

std::vector<std::string> ExpandGlob(const std::string& pattern) {
  if (IsRemotePath(pattern)) {
    std::vector<std::string> files;
    for (auto& f : DiscoverRemoteFiles(pattern)) files.push_back(f.path);
    return files;
  }
  glob_t result{};
  int rc = ::glob(pattern.c_str(), GLOB_NOSORT, nullptr, &result);
  std::vector<std::string> files;
  if (rc == 0) {
    for (size_t i = 0; i < result.gl_pathc; i++) files.emplace_back(result.gl_pathv[i]);
  }
  globfree(&result);
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

std::vector<std::string> ResolveFileArgument(ClientContext& context, const std::string& function, const Value& argument) {
  std::vector<std::string> patterns;
  if (argument.type().id() == TypeId::LIST) {
    for (auto& v : argument.Children()) patterns.push_back(v.ToString());
  } else if (argument.type().id() == TypeId::VARCHAR && !argument.IsNull()) {
    patterns.push_back(argument.GetString());
  } else {
    throw BinderError(function + "() expects a file path, a glob or a list of paths as its first argument, got " +
                      argument.ToSQLString());
  }
  const ExternalAccessPolicy& policy = context.Database().AccessPolicy();
  std::vector<std::string> files;
  for (auto& p : patterns) {
    policy.CheckPattern(p, AccessMode::READ, function);
    auto matched = ExpandGlob(p);
    // A match may be a symlink (or under one) that leads elsewhere.
    for (auto& m : matched) policy.CheckPath(m, AccessMode::READ, function);
    if (matched.empty()) {
      throw IOError(function + "(): no file matches '" + p + "'; check the path (relative paths start at the current directory)");
    }
    files.insert(files.end(), matched.begin(), matched.end());
  }
  return files;
}

TableFunctionBinding BindReadParquet(ClientContext& context, const std::vector<Value>& args,
                                     const std::vector<std::string>& arg_names) {
  if (args.empty()) throw BinderError("read_parquet() needs a file path, e.g. read_parquet('data/*.parquet')");
  for (idx_t i = 1; i < args.size(); i++) {
    throw BinderError("read_parquet() got an unknown option " + (arg_names[i].empty() ? args[i].ToSQLString() : arg_names[i]) +
                      "; it takes only the path");
  }
  auto files = ResolveFileArgument(context, "read_parquet", args[0]);
  FileSystem* fs = context.Database().AccessPolicy().Files();
  auto first = ParquetReader::Open(files[0], fs);
  if (!first.ok()) first.status().Throw();
  TableFunctionBinding binding;
  binding.names = first.value()->ColumnNames();
  binding.types = first.value()->ColumnTypes();
  for (idx_t f = 1; f < files.size(); f++) {
    auto other = ParquetReader::Open(files[f], fs);
    if (!other.ok()) other.status().Throw();
    if (other.value()->ColumnNames() != binding.names || other.value()->ColumnTypes() != binding.types) {
      throw InvalidInputError("read_parquet(): " + files[f] + " has a different schema than " + files[0] +
                              "; read the files separately and combine them with UNION ALL and casts");
    }
  }
  binding.factory = [files, fs](const std::vector<idx_t>& projected) {
    return TableSourcePtr(std::make_unique<ParquetScanSource>(files, projected, fs));
  };
  return binding;
}

}  // namespace lakestream
