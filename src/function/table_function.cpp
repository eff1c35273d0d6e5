#include "function/table_function.hpp"

#include "common/string_util.hpp"

namespace lakestream {

namespace {

class CollectionSource : public TableSource {
 public:
  CollectionSource(std::shared_ptr<const ChunkCollection> rows, std::vector<idx_t> projected, std::string name)
      : rows_(std::move(rows)), projected_(std::move(projected)), name_(std::move(name)) {}

  bool Next(DataChunk& out) override {
    if (position_ >= rows_->ChunkCount()) return false;
    const DataChunk& chunk = rows_->Chunk(position_++);
    out.Reset();
    for (idx_t c = 0; c < out.ColumnCount(); c++) out.data[c].Copy(chunk.data[projected_[c]], nullptr, chunk.size(), 0, 0);
    out.SetCardinality(chunk.size());
    return true;
  }
  std::string Name() const override { return name_; }

 private:
  std::shared_ptr<const ChunkCollection> rows_;
  std::vector<idx_t> projected_;  // output column i = rows_ column projected_[i]
  std::string name_;
  idx_t position_ = 0;
};

}  // namespace

TableSourcePtr MakeCollectionSource(std::shared_ptr<const ChunkCollection> rows, std::vector<idx_t> projected,
                                    std::string name) {
  return std::make_unique<CollectionSource>(std::move(rows), std::move(projected), std::move(name));
}

TableFunctionRegistry& TableFunctionRegistry::Instance() {
  static TableFunctionRegistry registry;
  return registry;
}

void TableFunctionRegistry::Register(const std::string& name, TableFunctionBind bind, bool suggest) {
  std::string key = StringUtil::Lower(name);
  std::lock_guard<std::mutex> guard(lock_);
  for (auto& e : entries_) {
    if (e.name == key) {
      e.bind = std::move(bind);
      e.suggest = suggest;
      return;
    }
  }
  entries_.push_back({key, std::move(bind), suggest});
}

TableFunctionBind TableFunctionRegistry::Find(const std::string& name) const {
  std::string key = StringUtil::Lower(name);
  std::lock_guard<std::mutex> guard(lock_);
  for (auto& e : entries_) {
    if (e.name == key) return e.bind;
  }
  return nullptr;
}

std::vector<std::string> TableFunctionRegistry::SuggestedNames() const {
  std::lock_guard<std::mutex> guard(lock_);
  std::vector<std::string> names;
  for (auto& e : entries_) {
    if (e.suggest) names.push_back(e.name);
  }
  return names;
}

}  // namespace lakestream
