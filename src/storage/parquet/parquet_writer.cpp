#include "storage/parquet/parquet_writer.hpp"

#include "common/file_system.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "common/write_error.hpp"
#include "storage/parquet/parquet_column_writer.hpp"
#include "storage/parquet/parquet_limits.hpp"
#include "storage/parquet/parquet_metadata.hpp"

#ifndef LAKESTREAM_VERSION
#define LAKESTREAM_VERSION "0.1.0"
#endif

namespace lakestream {

using namespace parquet;  // NOLINT

bool ParquetCodecFromName(const std::string& name, ParquetCodec& out) {
  std::string n;
  for (char c : name) n.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (n == "zstd") out = ParquetCodec::kZstd;
  else if (n == "snappy") out = ParquetCodec::kSnappy;
  else if (n == "gzip") out = ParquetCodec::kGzip;
  else if (n == "lz4" || n == "lz4_raw") out = ParquetCodec::kLz4Raw;
  else if (n == "uncompressed" || n == "none") out = ParquetCodec::kUncompressed;
  else return false;
  return true;
}

namespace {

Codec ToCodec(ParquetCodec c) {
  switch (c) {
    case ParquetCodec::kUncompressed: return Codec::UNCOMPRESSED;
    case ParquetCodec::kSnappy: return Codec::SNAPPY;
    case ParquetCodec::kGzip: return Codec::GZIP;
    case ParquetCodec::kZstd: return Codec::ZSTD;
    case ParquetCodec::kLz4Raw: return Codec::LZ4_RAW;
  }
  return Codec::ZSTD;
}

int DecimalBytes(int precision) {
  // Smallest n with 2^(8n-1) > 10^precision.
  for (int n = 1; n <= 16; n++) {
    double max = std::pow(2.0, 8 * n - 1);
    if (max > std::pow(10.0, precision)) return n;
  }
  return 16;
}


struct WNode {
  enum Kind { LEAF, STRUCT, LIST } kind = LEAF;
  int def_level = 0;
  int rep_def = 0, rep_level = 0;
  bool required = false;
  idx_t leaf = 0;
  idx_t leaf_begin = 0, leaf_end = 0;
  std::vector<std::unique_ptr<WNode>> children;
};

}  // namespace

struct ParquetWriter::Impl {
  std::string path;
  int fd = -1;
  // Object storage (remote path): the file is built in `buffer` and
  // uploaded by Finish in one PUT (a multipart upload when large), so no
  // reader ever sees a partial object. Local files: bytes not written yet
  // (WriteAll).
  bool remote = false;
  std::string buffer;
  ParquetWriterOptions opt;
  std::vector<std::string> names;
  std::vector<LogicalType> types;
  std::vector<SchemaElement> schema;
  std::vector<ParquetColumnWriter> leaves;
  ParquetColumnSettings settings;  // shared by `leaves`
  std::vector<std::unique_ptr<WNode>> roots;
  std::vector<RowGroup> row_groups;
  uint64_t offset = 0;
  int64_t rg_rows = 0;
  int64_t total_rows = 0;
  std::vector<ParquetColumnInfo> info;
  std::string error;
  bool finished = false;
  // Per column, for the chunk being appended: each row's level entries (an
  // upper bound per leaf; nested columns only).
  std::vector<std::vector<int64_t>> row_entries;

  // "column s of table h" (or of the file): how user errors name a column.
  std::string ColumnLabel(idx_t c) const {
    return "column " + names[c] + " of " + (opt.label.empty() ? path : opt.label);
  }

  // How many of the `n` rows from `done` fit the current row group without a
  // leaf of a nested column passing opt.max_nested_entries level entries.
  idx_t RowsThatFit(idx_t done, idx_t n) const {
    for (idx_t c = 0; c < roots.size(); c++) {
      const WNode& node = *roots[c];
      if (node.kind == WNode::LEAF) continue;  // read flat: no such limit
      int64_t used = 0;
      for (idx_t l = node.leaf_begin; l < node.leaf_end; l++) used = std::max(used, leaves[l].ChunkValues());
      const auto& entries = row_entries[c];
      for (idx_t r = 0; r < n; r++) {
        used += entries[done + r];
        if (used > opt.max_nested_entries) {
          n = r;
          break;
        }
      }
    }
    return n;
  }

  ~Impl() {
    if (fd >= 0) ::close(fd);
  }

  // Local files are written through `buffer`: at the end of each row group
  // and whenever it would pass kWriteBufferBytes, so a small file (a
  // commit's change file) is one write at Finish instead of one per column
  // chunk and footer; object storage keeps the whole file there.
  static constexpr size_t kWriteBufferBytes = 1 << 20;

  Status WriteAll(const std::string& data) {
    offset += data.size();
    if (remote || buffer.size() + data.size() < kWriteBufferBytes) {
      buffer += data;
      return Status::OK();
    }
    LS_RETURN_NOT_OK(WriteOut(buffer));
    buffer.clear();
    return WriteOut(data);
  }

  Status WriteOut(const std::string& data) {
    const char* p = data.data();
    size_t left = data.size();
    while (left > 0) {
      ssize_t n = ::write(fd, p, left);
      if (n < 0) {
        if (errno == EINTR) continue;
        return WriteError(path, errno);
      }
      p += n;
      left -= static_cast<size_t>(n);
    }
    return Status::OK();
  }

  // `spec` (may be null) overrides the element's name and gives its field_id.
  Status BuildSchema(const std::string& default_name, const LogicalType& t, bool required, int def, int rep,
                     std::vector<std::string> path_prefix, const ParquetField* spec, std::unique_ptr<WNode>& out) {
    const std::string& name = spec && !spec->name.empty() ? spec->name : default_name;
    auto child_spec = [spec](size_t i) -> const ParquetField* {
      return spec && i < spec->children.size() ? &spec->children[i] : nullptr;
    };
    auto node = std::make_unique<WNode>();
    node->required = required;
    int my_def = def + (required ? 0 : 1);
    node->def_level = my_def;
    node->leaf_begin = leaves.size();
    path_prefix.push_back(name);
    SchemaElement e;
    e.name = name;
    e.repetition = required ? Repetition::REQUIRED : Repetition::OPTIONAL;
    if (spec) e.field_id = spec->field_id;
    switch (t.id()) {
      case TypeId::STRUCT: {
        if (t.children().empty()) return Status::InvalidArgument(path + ": STRUCT column '" + name + "' has no fields");
        node->kind = WNode::STRUCT;
        e.num_children = static_cast<int32_t>(t.children().size());
        schema.push_back(e);
        for (size_t i = 0; i < t.children().size(); i++) {
          const auto& [cn, ct] = t.children()[i];
          std::unique_ptr<WNode> child;
          LS_RETURN_NOT_OK(BuildSchema(cn, ct, false, my_def, rep, path_prefix, child_spec(i), child));
          node->children.push_back(std::move(child));
        }
        break;
      }
      case TypeId::LIST:
      case TypeId::MAP: {
        bool is_map = t.id() == TypeId::MAP;
        node->kind = WNode::LIST;
        node->rep_def = my_def + 1;
        node->rep_level = rep + 1;
        e.num_children = 1;
        e.converted_type = is_map ? ConvertedType::MAP : ConvertedType::LIST;
        e.logical.kind = is_map ? LogicalTypeAnnotation::MAP : LogicalTypeAnnotation::LIST;
        schema.push_back(e);
        SchemaElement r;
        r.name = is_map ? "key_value" : "list";
        r.repetition = Repetition::REPEATED;
        r.num_children = is_map ? 2 : 1;
        schema.push_back(r);
        path_prefix.push_back(r.name);
        std::unique_ptr<WNode> elem;
        if (is_map) {
          // The repeated group is the (key, value) struct itself.
          auto kv = std::make_unique<WNode>();
          kv->kind = WNode::STRUCT;
          kv->required = true;
          kv->def_level = my_def + 1;
          kv->leaf_begin = leaves.size();
          const auto& entry = t.ListChild();
          std::unique_ptr<WNode> k, v;
          LS_RETURN_NOT_OK(BuildSchema("key", entry.children()[0].second, true, my_def + 1, rep + 1, path_prefix, child_spec(0), k));
          LS_RETURN_NOT_OK(BuildSchema("value", entry.children()[1].second, false, my_def + 1, rep + 1, path_prefix, child_spec(1), v));
          kv->children.push_back(std::move(k));
          kv->children.push_back(std::move(v));
          kv->leaf_end = leaves.size();
          elem = std::move(kv);
        } else {
          LS_RETURN_NOT_OK(BuildSchema("element", t.ListChild(), false, my_def + 1, rep + 1, path_prefix, child_spec(0), elem));
        }
        node->children.push_back(std::move(elem));
        break;
      }
      default: {
        using Kind = ParquetColumnWriter::Kind;
        Kind kind = Kind::BOOL;
        PhysicalType physical = PhysicalType::BOOLEAN;
        int flba_len = 0;
        switch (t.id()) {
          case TypeId::BOOLEAN: kind = Kind::BOOL; physical = PhysicalType::BOOLEAN; break;
          case TypeId::INTEGER: kind = Kind::I32; physical = PhysicalType::INT32; break;
          case TypeId::BIGINT: kind = Kind::I64; physical = PhysicalType::INT64; break;
          case TypeId::DOUBLE: kind = Kind::DOUBLE; physical = PhysicalType::DOUBLE; break;
          case TypeId::DATE:
            kind = Kind::I32;
            physical = PhysicalType::INT32;
            e.converted_type = ConvertedType::DATE;
            e.logical.kind = LogicalTypeAnnotation::DATE;
            break;
          case TypeId::TIMESTAMP:
            kind = Kind::I64;
            physical = PhysicalType::INT64;
            e.converted_type = ConvertedType::TIMESTAMP_MICROS;
            e.logical.kind = LogicalTypeAnnotation::TIMESTAMP;
            e.logical.adjusted_to_utc = true;
            e.logical.unit = 2;
            break;
          case TypeId::TIMESTAMP_NTZ:
            // A wall clock: isAdjustedToUTC=false and no converted type, which
            // would claim UTC adjustment to legacy readers (Parquet spec).
            kind = Kind::I64;
            physical = PhysicalType::INT64;
            e.logical.kind = LogicalTypeAnnotation::TIMESTAMP;
            e.logical.adjusted_to_utc = false;
            e.logical.unit = 2;
            break;
          case TypeId::VARCHAR:
            kind = Kind::STR;
            physical = PhysicalType::BYTE_ARRAY;
            e.converted_type = ConvertedType::UTF8;
            e.logical.kind = LogicalTypeAnnotation::STRING;
            break;
          case TypeId::DECIMAL: {
            int p = t.width(), s = t.scale();
            if (p < 1 || p > kMaxDecimalPrecision || s > p)
              return Status::InvalidArgument(path + ": column '" + name + "' has type " + t.ToString() +
                                             "; Parquet DECIMAL needs 1 to " + std::to_string(kMaxDecimalPrecision) +
                                             " digits and a scale of at most its precision");
            e.converted_type = ConvertedType::DECIMAL;
            e.precision = p;
            e.scale = s;
            e.logical.kind = LogicalTypeAnnotation::DECIMAL;
            e.logical.precision = p;
            e.logical.scale = s;
            if (p <= 9) {
              kind = Kind::DEC32;
              physical = PhysicalType::INT32;
            } else if (p <= 18) {
              kind = Kind::DEC64;
              physical = PhysicalType::INT64;
            } else {
              kind = Kind::DECFLBA;
              physical = PhysicalType::FIXED_LEN_BYTE_ARRAY;
              flba_len = DecimalBytes(p);
              e.type_length = flba_len;
            }
            break;
          }
          default:
            return Status::InvalidArgument(path + ": cannot write column '" + name + "' of type " + t.ToString() +
                                           " to Parquet");
        }
        e.type = physical;
        schema.push_back(e);
        node->kind = WNode::LEAF;
        node->leaf = leaves.size();
        leaves.emplace_back(path_prefix, t, kind, physical, flba_len, my_def, rep, opt.dictionary,
                            opt.dictionary_max_bytes, &settings);
        break;
      }
    }
    node->leaf_end = leaves.size();
    out = std::move(node);
    return Status::OK();
  }

  // Nested shredding.
  void EmitNull(const WNode& n, int rep, int def) {
    for (idx_t l = n.leaf_begin; l < n.leaf_end; l++) {
      leaves[l].AddLevels(rep, def, 0);
      leaves[l].AddNull();
    }
  }

  void Emit(const WNode& n, const Vector& v, idx_t row, int rep, int def) {
    if (!v.IsValid(row)) {
      if (n.required) error = "NULL map key";
      EmitNull(n, rep, def);
      return;
    }
    switch (n.kind) {
      case WNode::LEAF: {
        ParquetColumnWriter& leaf = leaves[n.leaf];
        leaf.AddLevels(rep, n.def_level, leaf.ValueBytes(v, row));
        leaf.AddValue(v, row);
        return;
      }
      case WNode::STRUCT:
        for (idx_t i = 0; i < n.children.size(); i++) Emit(*n.children[i], v.Child(i), row, rep, n.def_level);
        return;
      case WNode::LIST: {
        auto e = v.GetData<list_entry_t>()[row];
        if (e.length == 0) {
          for (idx_t l = n.leaf_begin; l < n.leaf_end; l++) leaves[l].AddLevels(rep, n.def_level, 0);
          return;
        }
        for (idx_t i = 0; i < e.length; i++)
          Emit(*n.children[0], v.Child(0), e.offset + i, i == 0 ? rep : n.rep_level, n.rep_def);
        return;
      }
    }
  }

  // ---- row groups ----

  Status FlushRowGroup() {
    if (rg_rows == 0) return Status::OK();
    RowGroup rg;
    rg.num_rows = rg_rows;
    rg.file_offset = static_cast<int64_t>(offset);
    std::string bytes;
    int64_t total_compressed = 0;
    for (auto& leaf : leaves) {
      ColumnChunk cc;
      if (!leaf.FinishChunk(static_cast<int64_t>(offset), cc, bytes)) return Status::IOError(path + ": " + leaf.Error());
      LS_RETURN_NOT_OK(WriteAll(bytes));
      total_compressed += cc.meta_data->total_compressed_size;
      rg.total_byte_size += cc.meta_data->total_uncompressed_size;
      rg.columns.push_back(std::move(cc));
    }
    rg.total_compressed_size = total_compressed;
    row_groups.push_back(std::move(rg));
    rg_rows = 0;
    // A finished row group is on disk (DeltaFileWriter rolls to a new file
    // by the size the file has there); the last one goes out with the footer.
    if (!remote && !finished) {
      LS_RETURN_NOT_OK(WriteOut(buffer));
      buffer.clear();
    }
    return Status::OK();
  }

  void MergeInfo() {
    // Called before a row group's leaves are reset: fold leaf min/max into info.
    for (idx_t c = 0; c < roots.size(); c++) {
      const WNode& n = *roots[c];
      if (n.kind != WNode::LEAF) continue;
      Value mn, mx;
      if (!leaves[n.leaf].MinMax(mn, mx)) continue;
      if (info[c].min.IsNull() || mn.Compare(info[c].min) < 0) info[c].min = mn;
      if (info[c].max.IsNull() || mx.Compare(info[c].max) > 0) info[c].max = mx;
    }
  }
};

ParquetWriter::ParquetWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ParquetWriter::~ParquetWriter() = default;

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::Create(const std::string& path,
                                                             const std::vector<std::string>& names,
                                                             const std::vector<LogicalType>& types,
                                                             const ParquetWriterOptions& options, FileSystem* fs) {
  if (names.size() != types.size())
    return Status::InvalidArgument(path + ": " + std::to_string(names.size()) + " column names for " +
                                   std::to_string(types.size()) + " types");
  if (names.empty()) return Status::InvalidArgument(path + ": a Parquet file needs at least one column");
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->opt = options;
  auto& opt = impl->opt;
  if (opt.row_group_rows == 0) opt.row_group_rows = 1;
  opt.page_size = std::clamp<idx_t>(opt.page_size, 1, kMaxTargetPageBytes);
  opt.dictionary_max_bytes = std::min<idx_t>(opt.dictionary_max_bytes, kMaxDictionaryBytes);
  opt.max_value_bytes = std::min<uint64_t>(opt.max_value_bytes, kMaxValueBytes);
  opt.max_nested_entries = std::clamp<int64_t>(opt.max_nested_entries, 1, kMaxNestedEntries);
  impl->settings.codec = ToCodec(options.codec);
  impl->settings.compression_level = opt.compression_level;
  impl->settings.page_size = opt.page_size;
  impl->settings.uncompressed_below = opt.uncompressed_below;
  impl->names = names;
  impl->types = types;
  SchemaElement root;
  root.name = "schema";
  root.num_children = static_cast<int32_t>(names.size());
  impl->schema.push_back(root);
  for (idx_t i = 0; i < names.size(); i++) {
    int depth = SchemaDepth(types[i]);
    if (depth > kMaxSchemaDepth)
      return Status::InvalidArgument(impl->ColumnLabel(i) + ": its type " + types[i].ToString() + " nests " +
                                     std::to_string(depth) + " levels deep in Parquet, more than the " +
                                     std::to_string(kMaxSchemaDepth) + " lakestream reads; nest fewer levels");
    std::unique_ptr<WNode> node;
    const ParquetField* spec = i < options.fields.size() ? &options.fields[i] : nullptr;
    LS_RETURN_NOT_OK(impl->BuildSchema(names[i], types[i], false, 0, 0, {}, spec, node));
    impl->roots.push_back(std::move(node));
    impl->info.push_back(ParquetColumnInfo{Value(types[i]), Value(types[i]), 0});
  }
  impl->row_entries.resize(names.size());
  impl->remote = IsRemotePath(path);
  if (!impl->remote && fs) {
    auto opened = fs->OpenFile(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (!opened.ok()) return Status::IOError(path + ": cannot create: " + opened.status().message());
    impl->fd = opened.value();
  } else if (!impl->remote) {
    impl->fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (impl->fd < 0) return Status::IOError(path + ": cannot create: " + std::strerror(errno));
  }
  LS_RETURN_NOT_OK(impl->WriteAll("PAR1"));
  return std::unique_ptr<ParquetWriter>(new ParquetWriter(std::move(impl)));
}

Status ParquetWriter::Append(const DataChunk& chunk) {
  auto& im = *impl_;
  if (im.finished) return Status::InvalidArgument(im.path + ": Append after Finish");
  if (chunk.ColumnCount() != im.types.size())
    return Status::InvalidArgument(im.path + ": chunk has " + std::to_string(chunk.ColumnCount()) +
                                   " columns, the file has " + std::to_string(im.types.size()));
  for (idx_t c = 0; c < im.types.size(); c++)
    if (chunk.data[c].GetType() != im.types[c])
      return Status::InvalidArgument(im.path + ": column '" + im.names[c] + "' has type " + im.types[c].ToString() +
                                     ", the chunk has " + chunk.data[c].GetType().ToString());
  // Every value is checked before any is written, so a refused chunk leaves
  // the file as it was.
  for (idx_t c = 0; c < im.types.size(); c++) {
    Status s = CheckColumnLimits(im.types[c], chunk.data[c], chunk.size(), im.opt.max_value_bytes,
                                 im.opt.max_nested_entries, &im.row_entries[c]);
    if (!s.ok()) return Status::InvalidArgument(im.ColumnLabel(c) + ": " + s.message());
  }
  idx_t done = 0;
  while (done < chunk.size()) {
    idx_t n = im.RowsThatFit(done, std::min<idx_t>(chunk.size() - done, im.opt.row_group_rows - im.rg_rows));
    if (n == 0) {
      // A nested column's row group is full: the rows go to the next one.
      if (im.rg_rows == 0) return Status::InvalidArgument(im.path + ": internal error: a row passes the entry limit");
      im.MergeInfo();
      LS_RETURN_NOT_OK(im.FlushRowGroup());
      continue;
    }
    for (idx_t c = 0; c < im.types.size(); c++) {
      const WNode& node = *im.roots[c];
      const Vector& v = chunk.data[c];
      for (idx_t r = done; r < done + n; r++)
        if (!v.IsValid(r)) im.info[c].null_count++;
      if (node.kind == WNode::LEAF) {
        im.leaves[node.leaf].AppendFlat(v, done, n);
      } else {
        for (idx_t r = done; r < done + n; r++) {
          im.Emit(node, v, r, 0, 0);
          for (idx_t l = node.leaf_begin; l < node.leaf_end; l++)
            im.leaves[l].EndPageIfFull();
        }
      }
      if (!im.error.empty()) return Status::InvalidArgument(im.ColumnLabel(c) + ": " + im.error);
      for (idx_t l = node.leaf_begin; l < node.leaf_end; l++) {
        if (!im.leaves[l].Error().empty()) return Status::IOError(im.path + ": " + im.leaves[l].Error());
      }
    }
    im.rg_rows += n;
    im.total_rows += n;
    done += n;
    size_t est = 0;
    for (auto& leaf : im.leaves) est += leaf.ChunkBytesEstimate();
    if (static_cast<idx_t>(im.rg_rows) >= im.opt.row_group_rows || est >= im.opt.row_group_bytes) {
      im.MergeInfo();
      LS_RETURN_NOT_OK(im.FlushRowGroup());
    }
  }
  return Status::OK();
}

Status ParquetWriter::EndRowGroup() {
  auto& im = *impl_;
  if (im.finished) return Status::InvalidArgument(im.path + ": EndRowGroup after Finish");
  if (im.rg_rows == 0) return Status::OK();
  im.MergeInfo();
  return im.FlushRowGroup();
}

Result<ParquetFileInfo> ParquetWriter::Finish() {
  auto& im = *impl_;
  if (im.finished) return Status::InvalidArgument(im.path + ": Finish called twice");
  im.finished = true;
  im.MergeInfo();
  LS_RETURN_NOT_OK(im.FlushRowGroup());
  FileMetaData md;
  md.version = 1;
  md.schema = im.schema;
  md.num_rows = im.total_rows;
  md.row_groups = std::move(im.row_groups);
  for (auto& [k, v] : im.opt.key_value_metadata) md.key_value_metadata.push_back(KeyValue{k, v});
  md.created_by = std::string("lakestream version ") + LAKESTREAM_VERSION;
  md.num_column_orders = static_cast<int32_t>(im.leaves.size());
  std::string footer;
  TWriter w(footer);
  WriteFileMetaData(w, md);
  if (footer.size() > kMaxFooterBytes)
    return Status::InvalidArgument(im.path + ": the footer takes " + GroupDigits(footer.size()) +
                                   " bytes, more than a Parquet footer holds; write fewer row groups or columns");
  uint32_t len = static_cast<uint32_t>(footer.size());
  footer.append(reinterpret_cast<const char*>(&len), 4);
  footer.append("PAR1");
  LS_RETURN_NOT_OK(im.WriteAll(footer));
  if (im.remote) {
    LS_RETURN_NOT_OK(FileSystem::For(im.path)->WriteFile(im.path, im.buffer));
    im.buffer = std::string();
  } else if (Status out = im.WriteOut(im.buffer); !out.ok()) {
    return out;
  } else if (::close(im.fd) != 0) {
    im.fd = -1;
    return WriteError(im.path, errno, "cannot close");
  }
  im.fd = -1;
  ParquetFileInfo info;
  info.file_size = im.offset;
  info.row_count = im.total_rows;
  info.columns = im.info;
  return info;
}

}  // namespace lakestream
