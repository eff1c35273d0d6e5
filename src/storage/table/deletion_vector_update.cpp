#include "storage/table/deletion_vector_update.hpp"

#include <nlohmann/json.hpp>

#include "common/exception.hpp"
#include "common/json_parse.hpp"
#include "common/string_util.hpp"
#include "storage/delta/row_tracking.hpp"
#include "storage/table/delta_file_writer.hpp"
#include "storage/table/delta_table.hpp"

namespace lakestream {

bool WritesDeletionVectors(const delta::Snapshot& snapshot) {
  return snapshot.protocol.ListsWriterFeature("deletionVectors") &&
         StringUtil::CIEquals(snapshot.Property("delta.enableDeletionVectors"), "true") &&
         !delta::RowTrackingAssigns(snapshot.protocol, snapshot.metadata);
}

std::optional<std::string> LooseBoundsStats(const std::optional<std::string>& stats) {
  if (!stats) return stats;
  auto j = ParseJson(*stats);
  if (!j.is_object()) return stats;
  j["tightBounds"] = false;
  return j.dump();
}

DeletionVectorUpdate::DeletionVectorUpdate(std::shared_ptr<FileSystem> fs, const delta::Snapshot& snapshot,
                                           const bool& visible)
    : fs_(std::move(fs)), snapshot_(snapshot), visible_(visible), builder_(NewUuid()) {}

DeletionVectorUpdate::~DeletionVectorUpdate() {
  // Best effort, as DeltaFileWriter::Abort: what cannot be deleted is left for VACUUM.
  if (!visible_ && !written_.empty()) (void)fs_->RemoveFile(written_);
}

void DeletionVectorUpdate::Delete(const delta::AddFile& add, const std::vector<uint64_t>& rows, int64_t now_ms,
                                  std::vector<delta::Action>& actions) {
  std::vector<uint64_t> deleted = rows;
  if (add.deletion_vector) {
    auto dv = delta::ParseDeletionVectorDescriptor(*add.deletion_vector);
    if (!dv.ok()) throw CorruptionError("Table " + snapshot_.table_path + ", data file " + add.path + ": " + dv.status().message());
    auto old = delta::LoadDeletionVector(fs_.get(), snapshot_, dv.value(), add.path);
    if (!old.ok()) {
      std::string message = "Table " + snapshot_.table_path + " (version " + std::to_string(snapshot_.version) +
                            "): " + old.status().message();
      if (old.status().IsCorruption()) throw CorruptionError(message);
      throw IOError(message);
    }
    deleted = delta::UnionRows(old.value(), rows);
  }
  actions.emplace_back(RemoveFor(add, now_ms, true));
  auto records = add.NumRecords();
  if (deleted.empty() || (records && static_cast<int64_t>(deleted.size()) >= *records)) return;
  delta::AddFile next = add;
  next.deletion_vector = delta::DeletionVectorJson(builder_.Add(deleted));
  next.data_change = true;
  next.stats = LooseBoundsStats(add.stats);
  actions.emplace_back(std::move(next));
}

void DeletionVectorUpdate::Finish(DurableSet& durable) {
  if (builder_.empty()) return;
  std::string full = snapshot_.FilePath(builder_.RelativePath());
  written_ = full;
  Status s = fs_->WriteFile(full, builder_.Contents());
  if (!s.ok()) throw IOError("Table " + snapshot_.table_path + ": cannot write the deletion vector file " + full + ": " + s.message());
  durable.files.insert(full);
  durable.directories.insert(snapshot_.table_path);
}

}  // namespace lakestream
