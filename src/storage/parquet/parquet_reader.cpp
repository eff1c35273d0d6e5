#include "storage/parquet/parquet_reader.hpp"

#include "common/file_system.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "storage/parquet/parquet_codec.hpp"
#include "storage/parquet/parquet_column_reader.hpp"
#include "storage/parquet/parquet_encoding.hpp"
#include "storage/parquet/parquet_limits.hpp"
#include "storage/parquet/parquet_metadata.hpp"
#include "storage/parquet/parquet_remote_source.hpp"
#include "storage/parquet/parquet_schema.hpp"
#include "storage/parquet/parquet_statistics.hpp"

namespace lakestream {

using namespace parquet;  // NOLINT

namespace {

// Memory image of the file: mmap'ed or owned.
struct FileImage {
  const uint8_t* data = nullptr;
  size_t size = 0;
  void* map = nullptr;
  std::string owned;
  ~FileImage() {
    if (map) munmap(map, size);
  }
};

// All levels and values of one leaf of a nested column in a row group.
struct LeafData {
  std::vector<uint16_t> def, rep;
  std::unique_ptr<Vector> values;
  idx_t count = 0;  // non-NULL values
  idx_t pos = 0, vpos = 0;
};

template <class T>
void Spread(T* data, uint8_t* valid, const uint16_t* defs, uint16_t max_def, uint32_t k, uint32_t nn) {
  int64_t j = static_cast<int64_t>(nn) - 1;
  for (int64_t i = static_cast<int64_t>(k) - 1; i >= 0; i--) {
    if (defs[i] == max_def) {
      data[i] = data[j--];
      valid[i] = 1;
    } else {
      data[i] = T();
      valid[i] = 0;
    }
  }
}

}  // namespace

struct ParquetReader::Impl {
  std::string path;
  FileImage file;  // local files and buffers: the whole file
  uint64_t file_size = 0;
  // Remote files: the column chunks of the row group being read, and the
  // next one's on their way (parquet_remote_source.hpp).
  std::unique_ptr<RangePrefetcher> prefetcher;
  RangeBytes row_group_bytes;
  std::string tail;  // the file's last bytes, read with the footer
  uint64_t tail_offset = 0;
  FileMetaData md;
  ParquetSchema schema;
  std::vector<std::string> names;
  std::vector<LogicalType> types;

  // Scan state.
  std::vector<std::unique_ptr<PageScratch>> page_scratch;  // per leaf; outlives the chunk readers in cols
  struct ColumnState {
    idx_t column;
    const ENode* node;
    std::unique_ptr<ColumnChunkReader> flat;
    std::vector<LeafData> leaves;  // nested: indexed by leaf - node->leaf_begin
  };
  std::vector<ColumnState> cols;
  // Narrowed copies of struct columns (ScanProjected) that `cols` point at.
  std::vector<std::unique_ptr<ENode>> narrowed;
  std::vector<ParquetFilter> filters;
  bool scanning = false;
  idx_t next_rg = 0;
  int64_t rows_left = 0;
  idx_t skipped = 0;
  std::vector<uint16_t> def_scratch;
  std::string nested_error;

  Status Corrupt(const std::string& m) const { return Status::Corruption(path + ": corrupt Parquet file: " + m); }

  // `tail` holds the last `tail_len` bytes of the file of `n` bytes (all of
  // them for a local file; for a remote one, enough to hold the footer).
  Status ParseFooter(const uint8_t* tail, size_t tail_len, uint64_t n) {
    file_size = n;
    if (n < 12) return Corrupt("file of " + std::to_string(n) + " bytes is too small to be Parquet");
    if (tail_len < 8) return Corrupt("only " + std::to_string(tail_len) + " bytes of the file's end could be read");
    const uint8_t* end = tail + tail_len;
    // The start is checked when it was read; a remote file's ranged open
    // reads only its end (a footer parsed from non-Parquet bytes fails anyway).
    if (tail_len == n && std::memcmp(tail, "PAR1", 4) != 0) return Corrupt("bad magic at the start (not a Parquet file)");
    if (std::memcmp(end - 4, "PAR1", 4) != 0) {
      if (std::memcmp(end - 4, "PARE", 4) == 0) return Status::NotSupported(path + ": encrypted Parquet files are not supported");
      return Corrupt("bad magic at the end (truncated file?)");
    }
    uint32_t footer_len = Load<uint32_t>(end - 8);
    if (footer_len > n - 12) return Corrupt("footer length " + std::to_string(footer_len) + " past the start of the file");
    if (footer_len > tail_len - 8) return Corrupt("footer of " + std::to_string(footer_len) + " bytes was not read whole");
    TReader r(end - 8 - footer_len, footer_len);
    if (!ReadFileMetaData(r, md)) return Corrupt("bad footer (" + r.error() + ")");
    LS_RETURN_NOT_OK(BuildSchema(path, md.schema, schema));
    for (auto& c : schema.columns) {
      names.push_back(c->name);
      types.push_back(c->type);
    }
    uint64_t data_end = n - 8 - footer_len;
    int64_t total = 0;
    for (auto& rg : md.row_groups) {
      if (rg.num_rows < 0) return Corrupt("negative row count in a row group");
      if (rg.columns.size() != schema.leaves.size())
        return Corrupt("row group has " + std::to_string(rg.columns.size()) + " column chunks, schema has " +
                       std::to_string(schema.leaves.size()) + " leaf columns");
      for (size_t i = 0; i < rg.columns.size(); i++) {
        auto& cc = rg.columns[i];
        if (!cc.file_path.empty()) return Status::NotSupported(path + ": column chunks in other files are not supported");
        if (!cc.meta_data) return Corrupt("column chunk without metadata");
        auto& m = *cc.meta_data;
        if (m.type != schema.leaves[i].physical) return Corrupt("column '" + schema.leaves[i].path + "' has a type other than its schema's");
        int64_t start = ChunkStart(m);
        if (start < 4 || m.total_compressed_size < 0 || static_cast<uint64_t>(start) > data_end ||
            static_cast<uint64_t>(m.total_compressed_size) > data_end - start)
          return Corrupt("column chunk of '" + schema.leaves[i].path + "' lies outside the data area");
      }
      if (__builtin_add_overflow(total, rg.num_rows, &total)) return Corrupt("row count overflows");
    }
    if (md.num_rows < 0) return Corrupt("negative row count");
    return Status::OK();
  }

  static int64_t ChunkStart(const ColumnMetaData& m) {
    int64_t start = m.data_page_offset;
    if (m.dictionary_page_offset && *m.dictionary_page_offset > 0 && *m.dictionary_page_offset < start)
      start = *m.dictionary_page_offset;
    return start;
  }

  ByteRange ChunkRange(idx_t rg, idx_t leaf) const {
    auto& m = *md.row_groups[rg].columns[leaf].meta_data;
    return ByteRange{static_cast<uint64_t>(ChunkStart(m)), static_cast<uint64_t>(m.total_compressed_size)};
  }

  Status ChunkReader(idx_t rg, idx_t leaf, std::unique_ptr<ColumnChunkReader>& out) {
    auto& m = *md.row_groups[rg].columns[leaf].meta_data;
    ByteRange range = ChunkRange(rg, leaf);
    const uint8_t* begin = prefetcher ? row_group_bytes.Find(range.offset, range.length) : file.data + range.offset;
    if (!begin) return Status::IOError(path + ": column chunk of '" + schema.leaves[leaf].path + "' was not fetched");
    if (page_scratch.size() <= leaf) page_scratch.resize(schema.leaves.size());
    if (!page_scratch[leaf]) page_scratch[leaf] = std::make_unique<PageScratch>();
    out = std::make_unique<ColumnChunkReader>(path, schema.leaves[leaf], m.codec, begin, begin + range.length,
                                              *page_scratch[leaf]);
    return Status::OK();
  }

  // The leaves the current scan decodes: a narrowed struct skips the others.
  std::vector<idx_t> ScanLeaves() const {
    std::vector<idx_t> leaves;
    for (const auto& cs : cols) CollectLeaves(*cs.node, leaves);
    return leaves;
  }

  // The byte ranges of the scanned column chunks of `rg` still to fetch:
  // merged, less what the tail read with the footer holds.
  std::vector<ByteRange> ScanRanges(idx_t rg) const {
    std::vector<ByteRange> ranges;
    for (idx_t leaf : ScanLeaves()) ranges.push_back(ChunkRange(rg, leaf));
    return ClipToTail(CoalesceRanges(std::move(ranges), kMaxGap), tail_offset);
  }

  // Remote files: replaces the fetched bytes with those of `rg` and starts
  // fetching the next row group the scan will read.
  Status FetchRowGroup(idx_t rg) {
    row_group_bytes = RangeBytes();  // the previous row group's readers are gone
    if (cols.empty()) return Status::OK();
    auto ranges = ScanRanges(rg);
    if (!ranges.empty()) {
      auto bytes = prefetcher->Take(rg, ranges);
      if (!bytes.ok()) return bytes.status();
      row_group_bytes = bytes.take();
    }
    row_group_bytes.AddTail(tail, tail_offset);
    for (idx_t next = rg + 1; next < md.row_groups.size(); next++) {
      if (md.row_groups[next].num_rows == 0 || !RowGroupCanMatch(next)) continue;
      auto next_ranges = ScanRanges(next);
      if (!next_ranges.empty()) prefetcher->Prefetch(next, std::move(next_ranges));
      break;
    }
    return Status::OK();
  }

  bool RowGroupCanMatch(idx_t rg) const { return parquet::RowGroupCanMatch(md, schema, filters, rg); }
  ParquetColumnStats Stats(idx_t rg, idx_t column) const { return ColumnChunkStats(md, schema, rg, column); }

  static void CollectLeaves(const ENode& node, std::vector<idx_t>& out) {
    if (node.kind == ENode::LEAF) out.push_back(node.leaf);
    for (auto& c : node.children) CollectLeaves(*c, out);
  }

  Status OpenRowGroup(idx_t rg) {
    rows_left = md.row_groups[rg].num_rows;
    for (auto& cs : cols) {
      cs.flat.reset();
      cs.leaves.clear();
    }
    if (prefetcher) LS_RETURN_NOT_OK(FetchRowGroup(rg));
    std::vector<idx_t> leaf_ids;
    for (auto& cs : cols) {
      const ENode& node = *cs.node;
      if (node.kind == ENode::LEAF && schema.leaves[node.leaf].max_rep == 0) {
        LS_RETURN_NOT_OK(ChunkReader(rg, node.leaf, cs.flat));
        continue;
      }
      // A narrowed struct spans leaves it does not use: those stay empty.
      cs.leaves.resize(node.leaf_end - node.leaf_begin);
      leaf_ids.clear();
      CollectLeaves(node, leaf_ids);
      for (idx_t l : leaf_ids) {
        LeafData& ld = cs.leaves[l - node.leaf_begin];
        const LeafDesc& desc = schema.leaves[l];
        std::unique_ptr<ColumnChunkReader> reader;
        LS_RETURN_NOT_OK(ChunkReader(rg, l, reader));
        // Sized for the chunk's level count (its values are at most that many)
        // so the values are not copied on every doubling; capped, as the
        // footer's count is only a claim.
        int64_t expected = std::clamp<int64_t>(md.row_groups[rg].columns[l].meta_data->num_values, 64, 1 << 20);
        ld.values = std::make_unique<Vector>(desc.type, static_cast<idx_t>(expected));
        ld.def.reserve(static_cast<size_t>(expected));
        // Repetition levels only exist under a list or map; elsewhere every
        // entry starts a row and none are stored.
        const bool reps = desc.max_rep > 0;
        if (reps) ld.rep.reserve(static_cast<size_t>(expected));
        int64_t rows = 0;
        while (reader->HasMorePages()) {
          if (reader->values_left() == 0) {
            // Load the next page (or discover that only non-data pages remain).
            uint32_t dummy;
            uint16_t d0, r0;
            idx_t before = ld.def.size();
            ld.def.push_back(0);
            if (reps) ld.rep.push_back(0);
            Status s = reader->Read(1, &d0, &r0, *ld.values, ld.count, dummy);
            if (!s.ok()) {
              if (s.IsCorruption() && !reader->HasMorePages() && s.message().find("ran out of pages") != std::string::npos) {
                ld.def.resize(before);
                if (reps) ld.rep.resize(before);
                break;
              }
              return s;
            }
            ld.def[before] = desc.max_def > 0 ? d0 : 0;
            if (reps) ld.rep[before] = r0;
            ld.count += dummy;
            continue;
          }
          int64_t k = reader->values_left();
          if (static_cast<int64_t>(ld.def.size()) + k > kMaxNestedEntries)
            return Status::NotSupported(path + ": nested column '" + desc.path + "' has too many values in one row group");
          idx_t base = ld.def.size();
          ld.def.resize(base + k);
          if (reps) ld.rep.resize(base + k);
          uint32_t nn;
          LS_RETURN_NOT_OK(reader->Read(static_cast<uint32_t>(k), desc.max_def > 0 ? ld.def.data() + base : nullptr,
                                        reps ? ld.rep.data() + base : nullptr, *ld.values, ld.count, nn));
          ld.count += nn;
        }
        if (reps) {
          for (auto r : ld.rep) rows += r == 0;
        } else {
          rows = static_cast<int64_t>(ld.def.size());
        }
        if (rows != rows_left)
          return Corrupt("column '" + desc.path + "' has " + std::to_string(rows) + " rows in a row group of " +
                         std::to_string(rows_left));
      }
    }
    return Status::OK();
  }

  void SkipEntries(ColumnState& cs, const ENode& node) {
    for (idx_t l = node.leaf_begin; l < node.leaf_end; l++) cs.leaves[l - cs.node->leaf_begin].pos++;
  }

  // Reads one value of `node` into vec[row]; the parent is known to be present.
  void ReadValue(ColumnState& cs, const ENode& node, Vector& vec, idx_t row, int depth) {
    LeafData& f = cs.leaves[node.leaf_begin - cs.node->leaf_begin];
    if (node.leaf_begin == node.leaf_end || f.pos >= f.def.size()) {
      nested_error = "levels end early";
      vec.SetValid(row, false);
      return;
    }
    int d = f.def[f.pos];
    if (d < node.def_level) {
      vec.SetValid(row, false);
      SkipEntries(cs, node);
      return;
    }
    vec.SetValid(row, true);
    switch (node.kind) {
      case ENode::LEAF: {
        if (f.vpos >= f.count) {
          nested_error = "more defined levels than values";
          vec.SetValid(row, false);
          f.pos++;
          return;
        }
        idx_t w = node.type.PhysicalSize();
        std::memcpy(vec.GetData<uint8_t>() + row * w, f.values->GetData<uint8_t>() + f.vpos * w, w);
        f.vpos++;
        f.pos++;
        return;
      }
      case ENode::STRUCT:
        for (idx_t i = 0; i < node.children.size(); i++) ReadValue(cs, *node.children[i], vec.Child(i), row, depth + 1);
        return;
      case ENode::LIST: {
        idx_t start = vec.ListSize();
        vec.GetData<list_entry_t>()[row] = list_entry_t{start, 0};
        if (d < node.rep_def) {
          SkipEntries(cs, node);
          return;
        }
        Vector& child = vec.Child(0);
        idx_t len = 0;
        while (true) {
          idx_t idx = vec.ListSize();
          if (idx >= child.Capacity()) child.Resize(std::max<idx_t>(idx * 2, STANDARD_VECTOR_SIZE));
          size_t before = f.pos;
          ReadValue(cs, *node.children[0], child, idx, depth + 1);
          vec.SetListSize(idx + 1);
          len++;
          if (f.pos == before) {
            nested_error = "no progress";
            break;
          }
          if (f.pos >= f.def.size() || f.rep[f.pos] != node.rep_level) break;
        }
        vec.GetData<list_entry_t>()[row].length = len;
        return;
      }
    }
  }

  void AttachHeaps(ColumnState& cs, const ENode& node, Vector& vec) {
    if (node.kind == ENode::LEAF) {
      if (node.type.id() == TypeId::VARCHAR) vec.AddHeapReference(*cs.leaves[node.leaf - cs.node->leaf_begin].values);
      return;
    }
    for (idx_t i = 0; i < node.children.size(); i++) AttachHeaps(cs, *node.children[i], vec.Child(i));
  }

  Status ReadFlat(ColumnState& cs, Vector& vec, idx_t count) {
    const LeafDesc& leaf = schema.leaves[cs.node->leaf];
    uint32_t nn;
    if (leaf.max_def == 0) {
      LS_RETURN_NOT_OK(cs.flat->Read(static_cast<uint32_t>(count), nullptr, nullptr, vec, 0, nn));
      vec.SetAllValid(count);
      return Status::OK();
    }
    if (def_scratch.size() < count) def_scratch.resize(count);
    LS_RETURN_NOT_OK(cs.flat->Read(static_cast<uint32_t>(count), def_scratch.data(), nullptr, vec, 0, nn));
    if (nn == count) {
      vec.SetAllValid(count);
      return Status::OK();
    }
    uint16_t md = static_cast<uint16_t>(leaf.max_def);
    uint8_t* valid = vec.Validity();
    uint32_t k = static_cast<uint32_t>(count);
    switch (vec.GetType().PhysicalSize()) {
      case 1: Spread(vec.GetData<uint8_t>(), valid, def_scratch.data(), md, k, nn); break;
      case 4: Spread(vec.GetData<uint32_t>(), valid, def_scratch.data(), md, k, nn); break;
      case 8: Spread(vec.GetData<uint64_t>(), valid, def_scratch.data(), md, k, nn); break;
      case 16:
        if (vec.GetType().id() == TypeId::VARCHAR) Spread(vec.GetData<string_t>(), valid, def_scratch.data(), md, k, nn);
        else Spread(vec.GetData<hugeint_t>(), valid, def_scratch.data(), md, k, nn);
        break;
    }
    return Status::OK();
  }
};

ParquetReader::ParquetReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ParquetReader::~ParquetReader() = default;

Result<std::unique_ptr<ParquetReader>> ParquetReader::Open(const std::string& path, FileSystem* fs) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  if (IsRemotePath(path)) return OpenRanged(path, fs ? fs : FileSystem::For(path));
  int fd = -1;
  if (fs) {
    if (!fs->ReadsInPlace()) return OpenRanged(path, fs);
    auto opened = fs->OpenFile(path, O_RDONLY, 0);
    if (!opened.ok()) {
      if (opened.status().IsNotFound()) return Status::NotFound(path + ": no such Parquet file");
      return Status::IOError(path + ": cannot open: " + opened.status().message());
    }
    fd = opened.value();
  } else {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  }
  if (fd < 0) {
    int e = errno;
    if (e == ENOENT) return Status::NotFound(path + ": no such Parquet file");
    return Status::IOError(path + ": cannot open: " + std::strerror(e));
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return Status::IOError(path + ": cannot stat: " + std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::IOError(path + ": not a regular file");
  }
  size_t size = static_cast<size_t>(st.st_size);
  // A small file (a change data file, a commit's new file) is read into
  // memory: unmapping it would cost a TLB shootdown across the process's
  // threads, which was a third of reading a view's 2,000-row source change.
  constexpr size_t kReadBelow = size_t(64) << 10;
  if (size > 0 && size < kReadBelow) {
    auto read = ReadWholeFd(fd, path);  // closes fd
    if (!read.ok()) return Status::IOError(path + ": " + read.status().message());
    impl->file.owned = read.take();
    impl->file.data = reinterpret_cast<const uint8_t*>(impl->file.owned.data());
    impl->file.size = impl->file.owned.size();
    LS_RETURN_NOT_OK(impl->ParseFooter(impl->file.data, impl->file.size, impl->file.size));
    return std::unique_ptr<ParquetReader>(new ParquetReader(std::move(impl)));
  }
  if (size > 0) {
    void* m = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      int e = errno;
      ::close(fd);
      return Status::IOError(path + ": cannot map: " + std::strerror(e));
    }
    impl->file.map = m;
    impl->file.data = static_cast<const uint8_t*>(m);
  }
  impl->file.size = size;
  ::close(fd);
  LS_RETURN_NOT_OK(impl->ParseFooter(impl->file.data, size, size));
  return std::unique_ptr<ParquetReader>(new ParquetReader(std::move(impl)));
}

Result<std::unique_ptr<ParquetReader>> ParquetReader::OpenBuffer(const std::string& name, std::string data) {
  auto impl = std::make_unique<Impl>();
  impl->path = name;
  impl->file.owned = std::move(data);
  impl->file.data = reinterpret_cast<const uint8_t*>(impl->file.owned.data());
  impl->file.size = impl->file.owned.size();
  LS_RETURN_NOT_OK(impl->ParseFooter(impl->file.data, impl->file.size, impl->file.size));
  return std::unique_ptr<ParquetReader>(new ParquetReader(std::move(impl)));
}

Result<std::unique_ptr<ParquetReader>> ParquetReader::OpenRanged(const std::string& path, FileSystem* fs) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  auto tail = ReadParquetTail(fs, path);
  if (!tail.ok()) {
    if (tail.status().IsNotFound()) return Status::NotFound(path + ": no such Parquet file (" + tail.status().message() + ")");
    return tail.status();
  }
  impl->tail = std::move(tail.value().bytes);
  impl->tail_offset = tail.value().file_size - impl->tail.size();
  LS_RETURN_NOT_OK(impl->ParseFooter(reinterpret_cast<const uint8_t*>(impl->tail.data()), impl->tail.size(),
                                     tail.value().file_size));
  impl->prefetcher = std::make_unique<RangePrefetcher>(fs, path);
  return std::unique_ptr<ParquetReader>(new ParquetReader(std::move(impl)));
}

const std::string& ParquetReader::path() const { return impl_->path; }
const std::vector<std::string>& ParquetReader::ColumnNames() const { return impl_->names; }
const std::vector<LogicalType>& ParquetReader::ColumnTypes() const { return impl_->types; }

static ParquetField FieldsOf(const parquet::ENode& node, bool named) {
  ParquetField field;
  if (named) field.name = node.name;
  field.field_id = node.field_id;
  if (node.kind == parquet::ENode::STRUCT) {
    for (auto& c : node.children) field.children.push_back(FieldsOf(*c, true));
  } else if (node.kind == parquet::ENode::LIST && !node.children.empty()) {
    const parquet::ENode& element = *node.children[0];
    if (node.type.id() == TypeId::MAP && element.children.size() == 2) {
      field.children.push_back(FieldsOf(*element.children[0], false));
      field.children.push_back(FieldsOf(*element.children[1], false));
    } else {
      field.children.push_back(FieldsOf(element, false));
    }
  }
  return field;
}

ParquetField ParquetReader::ColumnFields(idx_t column) const {
  if (column >= impl_->schema.columns.size()) return {};
  return FieldsOf(*impl_->schema.columns[column], true);
}
int64_t ParquetReader::RowCount() const {
  int64_t total = 0;
  for (auto& rg : impl_->md.row_groups) total += rg.num_rows;
  return total;
}
idx_t ParquetReader::RowGroupCount() const { return impl_->md.row_groups.size(); }
const std::string& ParquetReader::CreatedBy() const { return impl_->md.created_by; }
std::vector<std::pair<std::string, std::string>> ParquetReader::KeyValueMetadata() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& kv : impl_->md.key_value_metadata) out.emplace_back(kv.key, kv.value.value_or(""));
  return out;
}
ParquetColumnStats ParquetReader::ColumnStatistics(idx_t rg, idx_t column) const { return impl_->Stats(rg, column); }
idx_t ParquetReader::RowGroupsSkipped() const { return impl_->skipped; }

Status ParquetReader::Scan(const std::vector<idx_t>& column_ids, const std::vector<ParquetFilter>& filters) {
  auto& im = *impl_;
  im.cols.clear();
  for (idx_t c : column_ids) {
    if (c >= im.schema.columns.size())
      return Status::InvalidArgument(im.path + ": column index " + std::to_string(c) + " out of range (file has " +
                                     std::to_string(im.schema.columns.size()) + " columns)");
    Impl::ColumnState cs;
    cs.column = c;
    cs.node = im.schema.columns[c].get();
    im.cols.push_back(std::move(cs));
  }
  im.filters = filters;
  im.next_rg = 0;
  im.rows_left = 0;
  im.skipped = 0;
  im.scanning = true;
  return Status::OK();
}

namespace {
std::unique_ptr<ENode> CloneNode(const ENode& n) {
  auto c = std::make_unique<ENode>();
  c->kind = n.kind;
  c->type = n.type;
  c->name = n.name;
  c->def_level = n.def_level;
  c->rep_def = n.rep_def;
  c->rep_level = n.rep_level;
  c->leaf = n.leaf;
  c->leaf_begin = n.leaf_begin;
  c->leaf_end = n.leaf_end;
  for (auto& child : n.children) c->children.push_back(CloneNode(*child));
  return c;
}
}  // namespace

Status ParquetReader::ScanProjected(const std::vector<ParquetProjection>& columns,
                                    const std::vector<ParquetFilter>& filters) {
  auto& im = *impl_;
  std::vector<idx_t> ids;
  ids.reserve(columns.size());
  for (const auto& p : columns) ids.push_back(p.column);
  LS_RETURN_NOT_OK(Scan(ids, filters));
  im.narrowed.clear();
  for (idx_t i = 0; i < columns.size(); i++) {
    const auto& fields = columns[i].fields;
    if (fields.empty()) continue;
    const ENode& node = *im.cols[i].node;
    if (node.kind != ENode::STRUCT) {
      im.scanning = false;
      return Status::InvalidArgument(im.path + ": column '" + im.names[columns[i].column] +
                                     "' is not a struct; it has no fields to project");
    }
    auto narrow = std::make_unique<ENode>();
    narrow->kind = ENode::STRUCT;
    narrow->name = node.name;
    narrow->def_level = node.def_level;
    child_list_t kept;
    for (idx_t c = 0; c < node.children.size(); c++) {
      const std::string& name = node.type.children()[c].first;
      if (std::find(fields.begin(), fields.end(), name) == fields.end()) continue;
      kept.emplace_back(name, node.children[c]->type);
      narrow->children.push_back(CloneNode(*node.children[c]));
    }
    if (narrow->children.empty()) {
      im.scanning = false;
      return Status::InvalidArgument(im.path + ": column '" + im.names[columns[i].column] +
                                     "' has none of the projected fields");
    }
    narrow->type = LogicalType::Struct(std::move(kept));
    narrow->leaf_begin = narrow->children.front()->leaf_begin;
    narrow->leaf_end = narrow->children.back()->leaf_end;
    im.cols[i].node = narrow.get();
    im.narrowed.push_back(std::move(narrow));
  }
  return Status::OK();
}

std::vector<LogicalType> ParquetReader::ProjectedTypes() const {
  std::vector<LogicalType> t;
  for (auto& c : impl_->cols) t.push_back(c.node->type);
  return t;
}

Status ParquetReader::ReadChunk(DataChunk& out) {
  auto& im = *impl_;
  out.Reset();
  if (!im.scanning) return Status::InvalidArgument(im.path + ": ReadChunk before Scan");
  if (out.ColumnCount() != im.cols.size())
    return Status::InvalidArgument(im.path + ": DataChunk has " + std::to_string(out.ColumnCount()) +
                                   " columns, the scan projects " + std::to_string(im.cols.size()));
  while (im.rows_left == 0) {
    if (im.next_rg >= im.md.row_groups.size()) {
      im.scanning = false;
      return Status::OK();
    }
    idx_t rg = im.next_rg++;
    if (im.md.row_groups[rg].num_rows == 0) continue;
    if (!im.RowGroupCanMatch(rg)) {
      im.skipped++;
      continue;
    }
    Status s = im.OpenRowGroup(rg);
    if (!s.ok()) {
      im.scanning = false;
      im.rows_left = 0;
      return s;
    }
    if (im.cols.empty()) break;
  }
  idx_t count = static_cast<idx_t>(std::min<int64_t>(im.rows_left, STANDARD_VECTOR_SIZE));
  for (idx_t c = 0; c < im.cols.size(); c++) {
    auto& cs = im.cols[c];
    Vector& vec = out.data[c];
    if (vec.GetType() != cs.node->type)
      return Status::InvalidArgument(im.path + ": DataChunk column " + std::to_string(c) + " has type " +
                                     vec.GetType().ToString() + ", expected " + cs.node->type.ToString());
    if (cs.flat) {
      Status s = im.ReadFlat(cs, vec, count);
      if (!s.ok()) {
        im.scanning = false;
        im.rows_left = 0;
        return s;
      }
    } else {
      im.nested_error.clear();
      im.AttachHeaps(cs, *cs.node, vec);
      for (idx_t r = 0; r < count && im.nested_error.empty(); r++) im.ReadValue(cs, *cs.node, vec, r, 0);
      if (!im.nested_error.empty()) {
        im.scanning = false;
        im.rows_left = 0;
        return im.Corrupt("nested column '" + cs.node->name + "': " + im.nested_error);
      }
    }
  }
  im.rows_left -= count;
  out.SetCardinality(count);
  return Status::OK();
}

}  // namespace lakestream
