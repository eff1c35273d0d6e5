#include "ivm/aggregate_maintainer.hpp"
#include "execution/plan_executor.hpp"

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "catalog/catalog.hpp"
#include "catalog/object_folder.hpp"
#include "common/decimal.hpp"
#include "common/exception.hpp"
#include "common/json_parse.hpp"
#include "common/string_util.hpp"
#include "transaction/client_context.hpp"
#include "storage/parquet/parquet_reader.hpp"
#include "storage/parquet/parquet_writer.hpp"
#include "storage/table/deletion_vector_update.hpp"

namespace lakestream {

static const char* kSourcesKey = "lakestream.ivm.sources";
// When a refresh writes the state file (besides after a rebuild): after this
// many refreshes kept it in memory only, or once the source change read since
// the file exceeds kSaveRows and kSaveRowsPerGroup per group. A restart then
// re-reads at most that much change; the file's cost (a write of every
// group, two fsyncs) is spread over many refreshes.
static constexpr idx_t kSaveEveryRefreshes = 16;
static constexpr idx_t kSaveRows = 1000000;
static constexpr idx_t kSaveRowsPerGroup = 16;

struct AggregateMaintainer::Cache {
  std::string definition;  // a replaced definition never reuses the state
  int64_t view_version = -1;
  std::unique_ptr<ViewAggregateState> state;
  std::map<std::string, int64_t> versions;
  idx_t refreshes_unsaved = 0;
  idx_t rows_unsaved = 0;
  StoredRows stored;
};

uint32_t AggregateMaintainer::StoredRows::PathId(const std::string& path) {
  auto [it, fresh] = path_ids.try_emplace(path, static_cast<uint32_t>(paths.size()));
  if (fresh) paths.push_back(path);
  return it->second;
}

void AggregateMaintainer::StoredRows::Clear() {
  known = false;
  rows.clear();
  paths.clear();
  path_ids.clear();
  if (by_group) by_group->Clear();
}

static std::vector<idx_t> Prefix(idx_t n) {
  std::vector<idx_t> out;
  for (idx_t i = 0; i < n; i++) out.push_back(i);
  return out;
}

AggregateMaintainer::AggregateMaintainer(ClientContext& context, TableCatalogEntry& view,
                                         std::shared_ptr<const CompiledView> compiled)
    : context_(context), view_(view), compiled_(std::move(compiled)), analysis_(compiled_->analysis) {
  LogicalOperatorPtr plan = compiled_->Plan(context);
  LogicalOperatorPtr* slot = FindAggregateSlot(plan);
  if (!slot) throw InternalError("materialized view " + view.name + ": no aggregate in an aggregate view");
  const LogicalOperator& aggregate = **slot;
  group_count_ = aggregate.expressions.size();
  group_columns_ = Prefix(group_count_);
  for (auto& g : aggregate.expressions) state_types_.push_back(g->return_type);
  state_types_.push_back(TypeId::BIGINT);  // count(*)
  AggregateSignature count = BindAggregate("count", {TypeId::BIGINT}, false, false);
  for (idx_t j = 0; j < aggregate.aggregates.size(); j++) {
    const AggregateSignature& sig = aggregate.aggregates[j].signature;
    view_aggregates_.push_back(sig);
    auto add = [&](AggregateSignature s) {
      if (s.kind == AggregateKind::COUNT) s.input_type = sig.input_type;
      subs_.push_back({s, j});
      state_types_.push_back(s.return_type);
    };
    switch (sig.kind) {
      case AggregateKind::COUNT_STAR: break;
      case AggregateKind::SUM: add(sig); add(count); break;
      case AggregateKind::AVG: add(BindAggregate("sum", {sig.input_type}, false, false)); add(count); break;
      case AggregateKind::COUNT:
      case AggregateKind::MIN:
      case AggregateKind::MAX:
      case AggregateKind::COUNT_DISTINCT: add(sig); break;
      default:
        // view_analysis.cpp sends every other aggregate to recompute-and-diff.
        throw InternalError(sig.name + "() in an incrementally maintained view");
    }
  }
  std::vector<AggregateSignature> sub_signatures;
  for (auto& sub : subs_) sub_signatures.push_back(sub.signature);
  state_ = std::make_unique<ViewAggregateState>(
      std::vector<LogicalType>(state_types_.begin(), state_types_.begin() + static_cast<std::ptrdiff_t>(group_count_)),
      sub_signatures);
  first_sub_.assign(view_aggregates_.size(), 0);
  for (idx_t s = subs_.size(); s-- > 0;) first_sub_[subs_[s].aggregate] = s;
  // A view whose select list only names keys and aggregates (no HAVING, no
  // expression over them) gets its rows without running its plan (ViewRowsFor).
  if (plan->type == LogicalOperatorType::PROJECTION && plan->children.size() == 1 &&
      plan->children[0].get() == slot->get()) {
    for (auto& e : plan->expressions) {
      const ColumnBinding& b = e->binding;
      bool key = b.table_index == aggregate.table_index && b.column_index < group_count_;
      bool value = b.table_index == aggregate.aggregate_index && b.column_index < view_aggregates_.size();
      if (e->type != BoundExpressionType::COLUMN_REF || !(key || value)) {
        direct_.clear();
        break;
      }
      direct_.emplace_back(key, b.column_index);
      view_types_.push_back(e->return_type);
    }
    if (direct_.empty()) view_types_.clear();
  }
  by_group_ = KeysAreStateKeys() && ViewStoredRows::Supports(view_.Types());
}

LogicalOperatorPtr AggregateMaintainer::BuildStatePlan() const {
  LogicalOperatorPtr plan = compiled_->Plan(context_);
  LogicalOperator& aggregate = **FindAggregateSlot(plan);
  auto op = std::make_unique<LogicalOperator>(LogicalOperatorType::AGGREGATE);
  op->table_index = aggregate.table_index;
  op->aggregate_index = aggregate.aggregate_index;
  op->expressions = std::move(aggregate.expressions);
  op->aggregates.push_back({BindAggregate("count", {}, false, true), nullptr});
  for (auto& sub : subs_) {
    BoundAggregate a;
    a.signature = sub.signature;
    a.argument = AddCast(aggregate.aggregates[sub.aggregate].argument->Copy(), sub.signature.input_type);
    op->aggregates.push_back(std::move(a));
  }
  op->children = std::move(aggregate.children);
  return op;
}

std::vector<Row> AggregateMaintainer::RunStatePlan() {
  return CollectRows(ExecutePlan(context_, BuildStatePlan()));
}

Value AggregateMaintainer::FinalValue(GroupId group, idx_t j) const {
  const AggregateSignature& sig = view_aggregates_[j];
  idx_t sub = first_sub_[j];
  switch (sig.kind) {
    case AggregateKind::COUNT_STAR: return Value::BIGINT(state_->Count(group));
    case AggregateKind::SUM: return state_->Counter(group, sub + 1) == 0 ? Value(sig.return_type) : state_->Sub(group, sub);
    case AggregateKind::AVG: {
      int64_t n = state_->Counter(group, sub + 1);
      if (n == 0) return Value(sig.return_type);
      // The same arithmetic as avg() itself, so both give the same double.
      Value total = state_->Sub(group, sub);
      hugeint_t sum = total.type().id() == TypeId::DECIMAL ? total.GetHugeint() : static_cast<hugeint_t>(total.AsBigint());
      double divisor = sig.input_type.id() == TypeId::DECIMAL
                           ? static_cast<double>(Decimal::PowerOfTen(sig.input_type.scale()))
                           : 1.0;
      return Value::DOUBLE(static_cast<double>(sum) / static_cast<double>(n) / divisor);
    }
    default: return state_->Sub(group, sub);
  }
}

std::vector<Row> AggregateMaintainer::ViewRowsFor(const std::vector<GroupId>& groups) {
  std::vector<LogicalType> types(state_types_.begin(), state_types_.begin() + group_count_);
  for (auto& sig : view_aggregates_) types.push_back(sig.return_type);
  if (!direct_.empty()) {
    // The view's columns are the keys and aggregates themselves: its rows are
    // built here, without planning and running the view's projection.
    std::vector<Row> out(groups.size());
    for (idx_t r = 0; r < groups.size(); r++) {
      GroupId group = groups[r];
      Row& row = out[r];
      row.reserve(direct_.size());
      for (idx_t c = 0; c < direct_.size(); c++) {
        auto [is_key, index] = direct_[c];
        Value v = is_key ? state_->KeyValue(group, index) : FinalValue(group, index);
        const LogicalType& type = view_types_[c];
        row.push_back(v.type() == type ? std::move(v) : v.CastAs(type));
      }
    }
    return out;
  }
  // The groups' final aggregate values, written straight into chunks.
  auto finals = std::make_shared<ChunkCollection>(types);
  for (idx_t start = 0; start < groups.size(); start += STANDARD_VECTOR_SIZE) {
    idx_t count = std::min<idx_t>(STANDARD_VECTOR_SIZE, groups.size() - start);
    DataChunk chunk;
    chunk.Initialize(types, count);
    for (idx_t r = 0; r < count; r++) {
      GroupId group = groups[start + r];
      for (idx_t g = 0; g < group_count_; g++) chunk.SetValue(g, r, state_->KeyValue(group, g));  // casts to the column's type
      for (idx_t j = 0; j < view_aggregates_.size(); j++) chunk.SetValue(group_count_ + j, r, FinalValue(group, j));
    }
    chunk.SetCardinality(count);
    finals->Append(std::move(chunk));
  }
  // The view's own plan, with its aggregate reading these rows: HAVING and the
  // select list then apply exactly as in a full computation.
  LogicalOperatorPtr plan = compiled_->Plan(context_);
  LogicalOperatorPtr& slot = *FindAggregateSlot(plan);
  auto rows = std::make_unique<LogicalOperator>(LogicalOperatorType::CHUNK_GET);
  rows->table_index = compiled_->FreeTableIndex();
  rows->collection = std::move(finals);
  auto replacement = std::make_unique<LogicalOperator>(LogicalOperatorType::AGGREGATE);
  replacement->table_index = slot->table_index;
  replacement->aggregate_index = slot->aggregate_index;
  for (idx_t g = 0; g < group_count_; g++) {
    replacement->expressions.push_back(MakeBindingRef({rows->table_index, g}, types[g]));
  }
  for (idx_t j = 0; j < view_aggregates_.size(); j++) {
    const LogicalType& type = types[group_count_ + j];
    replacement->aggregates.push_back(
        {BindAggregate("any_value", {type}, false, false), MakeBindingRef({rows->table_index, group_count_ + j}, type)});
  }
  replacement->children.push_back(std::move(rows));
  slot = std::move(replacement);
  return CollectRows(ExecutePlan(context_, std::move(plan)));
}

bool AggregateMaintainer::LoadStoredRows() {
  stored_.Clear();
  DeltaTable& storage = *DatabaseInstance::AsDelta(view_);
  std::shared_ptr<const DeltaSnapshotState> state = storage.State();
  ViewRows all = ScanViewRows(storage, view_.Types(), analysis_.key_columns);
  GetIvmCounters().stored_row_scans++;
  if (by_group_) {
    // Each row by its group's id: a row of no group, or a second row of one, and the rows cannot be kept by group.
    if (!stored_.by_group) stored_.by_group = std::make_unique<ViewStoredRows>(view_.Types());
    ViewStoredRows& rows = *stored_.by_group;
    for (idx_t i = 0; i < all.rows.size(); i++) {
      auto id = static_cast<uint64_t>(all.ids[i]);
      std::optional<GroupId> group = state_->Find(EncodeRow(all.rows[i], analysis_.key_columns));
      if (id >> 32 >= state->files.size() || !group || rows.Has(*group)) {
        stored_.Clear();
        return false;
      }
      rows.Set(*group, all.rows[i], rows.PathId(state->files[id >> 32]->path), static_cast<uint32_t>(id & 0xffffffffULL));
    }
    stored_.known = true;
    return true;
  }
  stored_.rows.reserve(all.rows.size());
  for (idx_t i = 0; i < all.rows.size(); i++) {
    auto id = static_cast<uint64_t>(all.ids[i]);
    if (id >> 32 >= state->files.size()) return false;
    StoredRow stored{std::move(all.rows[i]), stored_.PathId(state->files[id >> 32]->path),
                     static_cast<uint32_t>(id & 0xffffffffULL)};
    if (!stored_.rows.emplace(EncodeRow(stored.row, analysis_.key_columns), std::move(stored)).second) {
      stored_.Clear();  // a key repeats: rows cannot be found by group
      return false;
    }
  }
  stored_.known = true;
  return true;
}

bool AggregateMaintainer::RowIdsOf(const std::vector<std::string>& paths,
                                   const std::vector<std::pair<uint32_t, uint32_t>>& places, std::vector<row_t>& ids) const {
  const DeltaSnapshotState& state = *DatabaseInstance::AsDelta(view_)->State();
  // Only the files the rows are in need their index in the snapshot.
  constexpr uint64_t kUnknown = ~uint64_t(0);
  std::vector<uint64_t> index_of(paths.size(), kUnknown);
  std::unordered_map<std::string_view, uint32_t> wanted;
  for (auto& place : places) wanted.emplace(paths[place.first], place.first);
  idx_t found = 0;
  for (uint64_t f = 0; f < state.files.size() && found < wanted.size(); f++) {
    auto it = wanted.find(state.files[f]->path);
    if (it == wanted.end() || index_of[it->second] != kUnknown) continue;
    index_of[it->second] = f;
    found++;
  }
  if (found < wanted.size()) return false;
  ids.clear();
  ids.reserve(places.size());
  for (auto& [file, position] : places) ids.push_back(static_cast<row_t>(index_of[file] << 32 | position));
  return true;
}

bool AggregateMaintainer::StoredRowsFor(const std::vector<std::string>& keys, ViewRows& out) {
  std::vector<const StoredRow*> found;
  found.reserve(keys.size());
  for (auto& key : keys) {
    auto it = stored_.rows.find(key);
    if (it != stored_.rows.end()) found.push_back(&it->second);  // else a group the view holds no row of
  }
  std::vector<std::pair<uint32_t, uint32_t>> places;
  places.reserve(found.size());
  for (const StoredRow* row : found) places.emplace_back(row->file, row->position);
  if (!RowIdsOf(stored_.paths, places, out.ids)) return false;
  out.rows.reserve(found.size());
  for (const StoredRow* row : found) out.rows.push_back(row->row);
  return true;
}

bool AggregateMaintainer::KeysAreStateKeys() const {
  const std::vector<idx_t>& keys = analysis_.key_columns;
  if (direct_.empty() || keys.size() != group_count_) return false;
  for (idx_t i = 0; i < keys.size(); i++) {
    if (keys[i] >= direct_.size() || direct_[keys[i]] != std::make_pair(true, i) || view_types_[keys[i]] != state_types_[i]) {
      return false;
    }
  }
  return true;
}

void AggregateMaintainer::PlacePendingRows() {
  PendingRows pending = std::move(pending_);
  pending_ = PendingRows();
  if (!stored_.known) return;
  ViewStoredRows* by_group = by_group_ ? stored_.by_group.get() : nullptr;
  for (auto& key : pending.removed) stored_.rows.erase(key);
  for (GroupId group : pending.removed_groups) by_group->Erase(group);
  const idx_t written = by_group ? pending.written_groups.size() : pending.written.size();
  if (written == 0) return;
  // The file the commit added: the one path of the snapshot not there before.
  const DeltaSnapshotState& state = *DatabaseInstance::AsDelta(view_)->State();
  std::unordered_set<std::string_view> before(pending.paths_before.begin(), pending.paths_before.end());
  const delta::AddFile* added = nullptr;
  idx_t new_files = 0;
  for (auto* add : state.files) {
    if (before.count(add->path)) continue;
    new_files++;
    added = add;
  }
  if (new_files != 1 || added->DeletedRowCount() != 0 ||
      added->NumRecords().value_or(-1) != static_cast<int64_t>(written)) {
    stored_.Clear();  // not written as expected: the next refresh scans the view
    return;
  }
  if (by_group) {
    uint32_t file = by_group->PathId(added->path);
    for (idx_t i = 0; i < written; i++) {
      idx_t row = pending.written_rows[i];
      by_group->Set(pending.written_groups[i], pending.fresh.Chunk(row / STANDARD_VECTOR_SIZE), row % STANDARD_VECTOR_SIZE,
                    file, static_cast<uint32_t>(i));
    }
    by_group->CompactPaths(state.files.size());
    return;
  }
  uint32_t file = stored_.PathId(added->path);
  uint32_t position = 0;
  for (auto& [key, row] : pending.written) stored_.rows[key] = StoredRow{std::move(row), file, position++};
  // Paths of files no row is in any more are dropped now and then.
  if (stored_.paths.size() > 64 + 2 * state.files.size()) {
    StoredRows compact;
    compact.known = true;
    compact.rows = std::move(stored_.rows);
    for (auto& [key, row] : compact.rows) row.file = compact.PathId(stored_.paths[row.file]);
    stored_ = std::move(compact);
  }
}

idx_t AggregateMaintainer::ApplyChanges(const std::map<std::string, SourceDelta>& deltas, TableCommit& commit,
                                        DeltaFileRows& read, ChunkCollection& removed) {
  ChunkCollection plus, minus;
  RunDeltaRule(context_, [this] { return BuildStatePlan(); }, deltas, plus, minus);
  std::vector<GroupId> touched;
  // The minus side first: a deleted extreme is judged against the old extreme.
  for (idx_t k = 0; k < minus.ChunkCount(); k++) state_->Apply(minus.Chunk(k), -1, touched);
  for (idx_t k = 0; k < plus.ChunkCount(); k++) state_->Apply(plus.Chunk(k), +1, touched);
  // The touched groups, each once, in the order the change first touched
  // them: their keys, and their groups now (kNoGroup once a group has no rows).
  std::vector<std::string> keys;
  std::vector<GroupId> groups, ids;
  std::vector<uint8_t> live;
  std::vector<uint8_t> seen(state_->IdLimit(), 0);
  std::unordered_set<std::string> recompute;
  std::vector<GroupId> emptied;
  for (GroupId id : touched) {
    if (seen[id]) continue;
    seen[id] = 1;
    keys.push_back(state_->Key(id));
    groups.push_back(id);
    ids.push_back(id);
    live.push_back(1);
    int64_t count = state_->Count(id);
    if (count < 0) {
      throw InternalError("materialized view " + view_.name + ": a group's row count fell below zero; "
                          "run REFRESH MATERIALIZED VIEW " + view_.name + " FULL");
    }
    if (count == 0) {
      groups.back() = kNoGroup;
      live.back() = 0;
      emptied.push_back(id);
    } else if (state_->NeedsRecompute(id)) {
      recompute.insert(keys.back());
    }
  }
  // Groups left without rows go once their stored rows are found by their
  // ids; an erased group's id is reused by the next new group.
  auto erase_emptied = [&] {
    for (GroupId id : emptied) state_->Erase(id);
  };
  if (!recompute.empty()) {
    for (auto& row : RunStatePlan()) {
      if (recompute.count(EncodeRow(row, group_columns_))) state_->Set(row);
    }
  }
  DeltaTable& storage = *DatabaseInstance::AsDelta(view_);
  // The old rows from the stored rows where they can be kept (see the header).
  bool placed = !analysis_.key_columns.empty() && WritesDeletionVectors(storage.Snapshot()) &&
                (stored_.known || LoadStoredRows());
  if (placed && by_group_) {
    // Each touched group's stored row against its new row, group by group.
    if (CommitFromStoredRows(ids, live, commit, removed) ||
        (LoadStoredRows() && CommitFromStoredRows(ids, live, commit, removed))) {
      for (auto* add : storage.State()->files) pending_.paths_before.push_back(add->path);
      erase_emptied();
      return keys.size();
    }
    placed = false;  // the stored rows cannot be kept by group: scan below
  }
  erase_emptied();
  std::vector<GroupId> states;
  for (GroupId group : groups) {
    if (group != kNoGroup) states.push_back(group);
  }
  std::vector<Row> new_rows = states.empty() ? std::vector<Row>() : ViewRowsFor(states);
  ViewRows old_rows;
  if (placed && !StoredRowsFor(keys, old_rows)) {
    placed = LoadStoredRows() && StoredRowsFor(keys, old_rows);
  }
  if (!placed) {
    stored_.Clear();
    std::unordered_set<std::string_view> touched_keys(keys.begin(), keys.end());
    old_rows = ScanViewRows(*view_.storage, view_.Types(), analysis_.key_columns,
                            [&](const std::string& key) { return touched_keys.count(key) > 0; });
  }
  DiffRows(old_rows, new_rows, analysis_.key_columns, view_.Types(), commit);
  read = std::move(old_rows.files);
  if (placed) {
    // What Keep() places after the commit, and the removed rows' values.
    std::unordered_map<row_t, const Row*> old_by_id;
    old_by_id.reserve(old_rows.ids.size());
    for (idx_t i = 0; i < old_rows.ids.size(); i++) old_by_id.emplace(old_rows.ids[i], &old_rows.rows[i]);
    std::vector<const Row*> values;
    values.reserve(commit.deleted_rows.size() + commit.updated_row_ids.size());
    for (row_t id : commit.deleted_rows) {
      values.push_back(old_by_id.at(id));
      pending_.removed.push_back(EncodeRow(*values.back(), analysis_.key_columns));
    }
    for (row_t id : commit.updated_row_ids) values.push_back(old_by_id.at(id));
    removed = MakeCollection(view_.Types(), values);
    auto written = [&](const ChunkCollection& rows) {
      ForEachRow(rows, [&](const Row& row) { pending_.written.emplace_back(EncodeRow(row, analysis_.key_columns), row); });
    };
    written(commit.updated);
    written(commit.inserted);
    for (auto* add : storage.State()->files) pending_.paths_before.push_back(add->path);
  }
  return keys.size();
}

void AggregateMaintainer::RebuildState() {
  state_->Clear();
  for (auto& row : RunStatePlan()) state_->Set(row);
}

std::string AggregateMaintainer::StateDirectory(ClientContext& context, const std::string& view_name) {
  // The lower-case name, escaped like a table's folder (object_folder.hpp).
  return context.Database().Path() + "/_lakestream/ivm/" + ObjectFolderName(StringUtil::Lower(view_name), "materialized view");
}

std::string AggregateMaintainer::StatePath(int64_t view_version) const {
  return StateDirectory(context_, view_.name) + "/state-" + std::to_string(view_version) + ".parquet";
}

static std::vector<std::string> StateNames(idx_t groups, idx_t subs) {
  std::vector<std::string> names;
  for (idx_t i = 0; i < groups; i++) names.push_back("k" + std::to_string(i));
  names.push_back("__count");
  for (idx_t i = 0; i < subs; i++) names.push_back("s" + std::to_string(i));
  return names;
}

void AggregateMaintainer::SaveState(int64_t view_version) {
  FileSystem* fs = context_.Database().Fs();
  std::string dir = StateDirectory(context_, view_.name);
  Status s = fs->CreateDirectories(dir);
  // Its files are pruned later: never through a symlink leading elsewhere.
  if (s.ok() && !IsRemotePath(dir)) s = CheckOwnedFolder(context_.Database().Path(), dir);
  if (!s.ok()) {
    throw IOError("Cannot keep the state of materialized view " + view_.name + " in " + dir + ": " + s.message() +
                  "; make it a plain folder of the database (or remove it) and refresh the view");
  }
  std::string path = StatePath(view_version);
  // On object storage one PUT is atomic: no temp file, no rename.
  bool remote = IsRemotePath(path);
  std::string tmp = remote ? path : path + ".tmp";
  ParquetWriterOptions options;
  options.uncompressed_below = kSmallChunkUncompressedBytes;  // as table data files
  options.key_value_metadata.push_back({kSourcesKey, nlohmann::json(versions_).dump()});
  auto writer = ParquetWriter::Create(tmp, StateNames(group_count_, subs_.size()), state_types_, options);
  if (!writer.ok()) writer.status().Throw();
  std::vector<Row> rows;
  rows.reserve(state_->Size());
  for (GroupId id = 0; id < state_->IdLimit(); id++) {
    if (state_->Live(id)) rows.push_back(state_->StateRow(id));
  }
  ChunkCollection data = MakeCollection(state_types_, rows);
  for (idx_t k = 0; k < data.ChunkCount(); k++) {
    Status a = writer.value()->Append(data.Chunk(k));
    if (!a.ok()) a.Throw();
  }
  auto done = writer.value()->Finish();
  if (!done.ok()) done.status().Throw();
  // Durable before the older files go (PruneStates), so some state file always survives.
  // One step after the other: no rename of a file whose fsync failed.
  Status step = fs->Fsync(tmp);
  if (step.ok() && !remote) step = fs->Rename(tmp, path);
  if (step.ok()) step = fs->FsyncDirectory(dir);
  if (!step.ok()) step.Throw();
  PruneStates(view_version);
}

void AggregateMaintainer::PruneStates(int64_t keep_version) {
  std::string dir = StateDirectory(context_, view_.name);
  std::string keep = "state-" + std::to_string(keep_version) + ".parquet";
  if (IsRemotePath(dir)) {
    FileSystem* fs = context_.Database().Fs();
    auto names = fs->ListDirectory(dir);
    if (!names.ok()) return;  // best effort, as below
    for (auto& name : names.value()) {
      if (name != keep) (void)fs->RemoveFile(dir + "/" + name);
    }
    return;
  }
  std::error_code ec;
  for (auto& file : std::filesystem::directory_iterator(dir, ec)) {
    if (file.path().filename() != keep) std::filesystem::remove(file.path(), ec);
  }
}

void AggregateMaintainer::Keep(int64_t view_version, const std::map<std::string, int64_t>& versions, idx_t change_rows,
                               bool rebuilt) {
  if (rebuilt) {
    stored_.Clear();
  } else {
    PlacePendingRows();
  }
  if (versions != versions_ || rebuilt) refreshes_unsaved_++;
  rows_unsaved_ += change_rows;
  versions_ = versions;
  if (rebuilt || refreshes_unsaved_ >= kSaveEveryRefreshes ||
      rows_unsaved_ >= std::max<idx_t>(kSaveRows, kSaveRowsPerGroup * state_->Size())) {
    try {
      SaveState(view_version);
      refreshes_unsaved_ = 0;
      rows_unsaved_ = 0;
    } catch (const IOError&) {
      // The view's commit stands; the state is a cache, kept in memory, and
      // the next refresh tries the file again (a restart meanwhile catches up
      // from the older file, or recomputes).
    }
  }
  auto cache = std::make_shared<Cache>();
  cache->definition = view_.definition;
  cache->view_version = view_version;
  cache->state = std::move(state_);
  cache->versions = versions_;
  cache->refreshes_unsaved = refreshes_unsaved_;
  cache->rows_unsaved = rows_unsaved_;
  cache->stored = std::move(stored_);
  RuntimeOf(view_).aggregate = std::move(cache);
}

bool AggregateMaintainer::LoadState() {
  int64_t version = DatabaseInstance::AsDelta(view_)->Version();
  auto cache = std::static_pointer_cast<Cache>(std::move(RuntimeOf(view_).aggregate));
  RuntimeOf(view_).aggregate.reset();
  if (cache && cache->definition == view_.definition && cache->view_version == version) {
    state_ = std::move(cache->state);
    versions_ = std::move(cache->versions);
    refreshes_unsaved_ = cache->refreshes_unsaved;
    rows_unsaved_ = cache->rows_unsaved;
    stored_ = std::move(cache->stored);
    return true;
  }
  // The newest file not newer than the view (a newer one, left by a crash
  // before its commit, reflects changes the view does not hold).
  int64_t best = -1;
  std::error_code ec;
  for (auto& file : std::filesystem::directory_iterator(StateDirectory(context_, view_.name), ec)) {
    std::string name = file.path().filename().string();
    // state-<digits>.parquet (not the .tmp of an interrupted write)
    if (name.size() <= 14 || !StringUtil::StartsWith(name, "state-") || name.substr(name.size() - 8) != ".parquet") continue;
    std::string digits = name.substr(6, name.size() - 14);
    if (digits.find_first_not_of("0123456789") != std::string::npos) continue;
    int64_t v = std::stoll(digits);
    if (v <= version && v > best) best = v;
  }
  refreshes_unsaved_ = 0;
  rows_unsaved_ = 0;
  return best >= 0 && LoadStateFile(best);
}

bool AggregateMaintainer::LoadStateFile(int64_t view_version) {
  std::string path = StatePath(view_version);
  auto reader = ParquetReader::Open(path);
  if (!reader.ok()) return false;  // a torn or foreign file: rebuild rather than fail
  ParquetReader& r = *reader.value();
  if (r.ColumnTypes().size() != state_types_.size()) return false;
  versions_.clear();
  for (auto& [k, v] : r.KeyValueMetadata()) {
    if (k != kSourcesKey) continue;
    nlohmann::json sources = ParseJson(v);
    if (!sources.is_object()) return false;
    versions_ = sources.get<std::map<std::string, int64_t>>();
  }
  if (!r.Scan(Prefix(state_types_.size())).ok()) return false;
  state_->Clear();
  while (true) {
    DataChunk chunk;
    chunk.Initialize(r.ProjectedTypes());
    if (!r.ReadChunk(chunk).ok()) return false;
    if (chunk.size() == 0) break;
    for (idx_t row = 0; row < chunk.size(); row++) {
      Row values;
      for (idx_t c = 0; c < state_types_.size(); c++) values.push_back(chunk.GetValue(c, row).CastAs(state_types_[c]));
      state_->Set(values);
    }
  }
  return true;
}

}  // namespace lakestream
