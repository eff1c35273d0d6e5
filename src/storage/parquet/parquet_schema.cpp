#include "storage/parquet/parquet_schema.hpp"

#include "storage/parquet/parquet_limits.hpp"

namespace lakestream::parquet {

namespace {

struct SNode {
  const SchemaElement* e;
  std::vector<SNode> children;
};


class Builder {
 public:
  Builder(const std::string& file, const std::vector<SchemaElement>& el, ParquetSchema& out)
      : file_(file), el_(el), out_(out) {}

  Status Run() {
    if (el_.empty()) return Corrupt("empty schema");
    size_t pos = 0;
    SNode root;
    LS_RETURN_NOT_OK(Parse(pos, root, 0));
    if (pos != el_.size()) return Corrupt("schema has trailing elements");
    if (!root.e->type.has_value() && root.children.empty()) return Corrupt("schema root has no columns");
    if (root.e->type.has_value()) return Corrupt("schema root is not a group");
    for (auto& c : root.children) {
      std::unique_ptr<ENode> n;
      LS_RETURN_NOT_OK(Build(c, 0, 0, false, "", n, 0));
      out_.columns.push_back(std::move(n));
    }
    return Status::OK();
  }

 private:
  Status Corrupt(const std::string& m) { return Status::Corruption(file_ + ": invalid Parquet schema: " + m); }

  Status Parse(size_t& pos, SNode& node, int depth) {
    if (depth > kMaxSchemaDepth) return Corrupt("nesting too deep");
    if (pos >= el_.size()) return Corrupt("num_children past the end of the schema");
    node.e = &el_[pos++];
    if (node.e->type.has_value()) return Status::OK();
    if (node.e->num_children < 0 || static_cast<size_t>(node.e->num_children) > el_.size() - pos)
      return Corrupt("bad num_children for '" + node.e->name + "'");
    node.children.resize(node.e->num_children);
    for (auto& c : node.children) LS_RETURN_NOT_OK(Parse(pos, c, depth + 1));
    return Status::OK();
  }

  static bool IsList(const SchemaElement& e) {
    return e.logical.kind == LogicalTypeAnnotation::LIST || e.converted_type == ConvertedType::LIST;
  }
  static bool IsMap(const SchemaElement& e) {
    return e.logical.kind == LogicalTypeAnnotation::MAP || e.converted_type == ConvertedType::MAP ||
           e.converted_type == ConvertedType::MAP_KEY_VALUE;
  }

  // strip_repeated: the caller already accounted for this node being REPEATED.
  Status Build(const SNode& s, int def, int rep, bool strip_repeated, const std::string& prefix,
               std::unique_ptr<ENode>& out, int depth) {
    if (depth > kMaxSchemaDepth) return Corrupt("nesting too deep");
    const SchemaElement& e = *s.e;
    std::string path = prefix.empty() ? e.name : prefix + "." + e.name;
    Repetition r = e.repetition.value_or(Repetition::OPTIONAL);
    if (r == Repetition::REPEATED && !strip_repeated) {
      // A bare repeated field: a LIST of required elements.
      auto list = std::make_unique<ENode>();
      list->kind = ENode::LIST;
      list->name = e.name;
      list->field_id = e.field_id;
      list->def_level = def;
      list->rep_def = def + 1;
      list->rep_level = rep + 1;
      list->leaf_begin = out_.leaves.size();
      std::unique_ptr<ENode> elem;
      LS_RETURN_NOT_OK(Build(s, def + 1, rep + 1, true, prefix, elem, depth + 1));
      list->type = LogicalType::List(elem->type);
      list->leaf_end = out_.leaves.size();
      list->children.push_back(std::move(elem));
      out = std::move(list);
      return Status::OK();
    }
    int my_def = def + ((r == Repetition::OPTIONAL && !strip_repeated) ? 1 : 0);
    auto node = std::make_unique<ENode>();
    node->name = e.name;
    node->field_id = e.field_id;
    node->def_level = my_def;
    node->leaf_begin = out_.leaves.size();
    if (e.type.has_value()) {
      LeafDesc leaf;
      leaf.path = path;
      leaf.physical = *e.type;
      leaf.type_length = e.type_length;
      leaf.max_def = my_def;
      leaf.max_rep = rep;
      LS_RETURN_NOT_OK(MapLeaf(e, leaf));
      node->kind = ENode::LEAF;
      node->type = leaf.type;
      node->leaf = out_.leaves.size();
      out_.leaves.push_back(std::move(leaf));
    } else if (IsList(e) || IsMap(e)) {
      if (s.children.size() != 1) return Corrupt("LIST/MAP group '" + path + "' must have one child");
      const SNode& rc = s.children[0];
      if (rc.e->repetition != Repetition::REPEATED) {
        // Not a valid list/map; read it as a struct.
        return BuildStruct(s, node, my_def, rep, path, out, depth);
      }
      node->kind = ENode::LIST;
      node->rep_def = my_def + 1;
      node->rep_level = rep + 1;
      std::unique_ptr<ENode> elem;
      bool is_map = IsMap(e);
      const SchemaElement& re = *rc.e;
      if (!re.type.has_value() && rc.children.empty())
        return Corrupt("LIST/MAP '" + path + "' has an empty repeated group '" + re.name + "'");
      bool elem_is_repeated_node = is_map || re.type.has_value() || rc.children.size() > 1 || re.name == "array" ||
                                   re.name == e.name + "_tuple";
      if (elem_is_repeated_node) {
        LS_RETURN_NOT_OK(Build(rc, my_def + 1, rep + 1, true, path, elem, depth + 1));
      } else {
        LS_RETURN_NOT_OK(Build(rc.children[0], my_def + 1, rep + 1, false, path + "." + re.name, elem, depth + 1));
      }
      if (is_map) {
        if (elem->kind != ENode::STRUCT || elem->children.size() != 2)
          return Status::NotSupported(file_ + ": MAP '" + path + "' without exactly a key and a value");
        node->type = LogicalType::Map(elem->children[0]->type, elem->children[1]->type);
      } else {
        node->type = LogicalType::List(elem->type);
      }
      node->children.push_back(std::move(elem));
    } else {
      return BuildStruct(s, node, my_def, rep, path, out, depth);
    }
    node->leaf_end = out_.leaves.size();
    out = std::move(node);
    return Status::OK();
  }

  Status BuildStruct(const SNode& s, std::unique_ptr<ENode>& node, int my_def, int rep, const std::string& path,
                     std::unique_ptr<ENode>& out, int depth) {
    if (s.children.empty()) return Status::NotSupported(file_ + ": empty group '" + path + "'");
    node->kind = ENode::STRUCT;
    child_list_t fields;
    for (auto& c : s.children) {
      std::unique_ptr<ENode> child;
      LS_RETURN_NOT_OK(Build(c, my_def, rep, false, path, child, depth + 1));
      fields.emplace_back(c.e->name, child->type);
      node->children.push_back(std::move(child));
    }
    node->type = LogicalType::Struct(std::move(fields));
    node->leaf_end = out_.leaves.size();
    out = std::move(node);
    return Status::OK();
  }

  Status MapLeaf(const SchemaElement& e, LeafDesc& leaf) {
    const auto& lt = e.logical;
    auto ct = e.converted_type;
    bool is_decimal = lt.kind == LogicalTypeAnnotation::DECIMAL || ct == ConvertedType::DECIMAL;
    int precision = lt.kind == LogicalTypeAnnotation::DECIMAL ? lt.precision : e.precision;
    int scale = lt.kind == LogicalTypeAnnotation::DECIMAL ? lt.scale : e.scale;
    auto decimal = [&](Conv conv, int max_p) -> Status {
      if (precision <= 0) precision = max_p;
      if (precision > kMaxDecimalPrecision) return Status::NotSupported(file_ + ": DECIMAL(" + std::to_string(precision) + ") column '" +
                                                      leaf.path + "' is wider than 38 digits");
      if (scale < 0 || scale > precision) return Corrupt("bad DECIMAL scale for '" + leaf.path + "'");
      leaf.type = LogicalType::Decimal(static_cast<uint8_t>(precision), static_cast<uint8_t>(scale));
      leaf.conv = conv;
      return Status::OK();
    };
    switch (leaf.physical) {
      case PhysicalType::BOOLEAN: leaf.type = TypeId::BOOLEAN; leaf.conv = Conv::BOOL; return Status::OK();
      case PhysicalType::INT32: {
        if (is_decimal) return decimal(Conv::I32_DEC, 9);
        if (lt.kind == LogicalTypeAnnotation::DATE || ct == ConvertedType::DATE) {
          leaf.type = TypeId::DATE;
          leaf.conv = Conv::COPY4;
          return Status::OK();
        }
        bool is_unsigned = (lt.kind == LogicalTypeAnnotation::INTEGER && !lt.is_signed) ||
                           ct == ConvertedType::UINT_8 || ct == ConvertedType::UINT_16 || ct == ConvertedType::UINT_32;
        leaf.unsigned_int = is_unsigned;
        if (lt.kind == LogicalTypeAnnotation::TIME || ct == ConvertedType::TIME_MILLIS) {
          leaf.type = TypeId::BIGINT;
          leaf.conv = Conv::I32_MILLIS_TO_MICROS;
        } else if (is_unsigned) {
          leaf.type = TypeId::BIGINT;
          leaf.conv = Conv::U32_TO_I64;
        } else {
          leaf.type = TypeId::INTEGER;
          leaf.conv = Conv::COPY4;
        }
        return Status::OK();
      }
      case PhysicalType::INT64: {
        if (is_decimal) return decimal(Conv::I64_DEC, 18);
        leaf.unsigned_int = (lt.kind == LogicalTypeAnnotation::INTEGER && !lt.is_signed) || ct == ConvertedType::UINT_64;
        int unit = 0;
        if (lt.kind == LogicalTypeAnnotation::TIMESTAMP) unit = lt.unit;
        else if (ct == ConvertedType::TIMESTAMP_MILLIS) unit = 1;
        else if (ct == ConvertedType::TIMESTAMP_MICROS) unit = 2;
        if (unit) {
          // isAdjustedToUTC=false is a wall clock (TIMESTAMP_NTZ); the legacy
          // converted types mean UTC-adjusted, as the Parquet spec says.
          bool wall = lt.kind == LogicalTypeAnnotation::TIMESTAMP && !lt.adjusted_to_utc;
          leaf.type = wall ? TypeId::TIMESTAMP_NTZ : TypeId::TIMESTAMP;
          leaf.conv = unit == 1 ? Conv::I64_MILLIS_TO_MICROS : unit == 3 ? Conv::I64_NANOS_TO_MICROS : Conv::COPY8;
          return Status::OK();
        }
        leaf.type = TypeId::BIGINT;
        if (lt.kind == LogicalTypeAnnotation::TIME && lt.unit == 3) leaf.conv = Conv::I64_NANOS_TO_MICROS;
        else leaf.conv = Conv::COPY8;
        return Status::OK();
      }
      case PhysicalType::INT96: leaf.type = TypeId::TIMESTAMP; leaf.conv = Conv::INT96_TO_TS; return Status::OK();
      case PhysicalType::FLOAT: leaf.type = TypeId::DOUBLE; leaf.conv = Conv::FLOAT_TO_DOUBLE; return Status::OK();
      case PhysicalType::DOUBLE: leaf.type = TypeId::DOUBLE; leaf.conv = Conv::COPY8; return Status::OK();
      case PhysicalType::BYTE_ARRAY:
      case PhysicalType::FIXED_LEN_BYTE_ARRAY:
        if (leaf.physical == PhysicalType::FIXED_LEN_BYTE_ARRAY && (e.type_length <= 0 || e.type_length > kMaxFixedLength))
          return Corrupt("bad type_length for '" + leaf.path + "'");
        if (is_decimal) return decimal(Conv::BIN_DEC, 38);
        leaf.type = TypeId::VARCHAR;
        leaf.conv = Conv::STR;
        return Status::OK();
    }
    return Corrupt("unknown physical type for '" + leaf.path + "'");
  }

  const std::string& file_;
  const std::vector<SchemaElement>& el_;
  ParquetSchema& out_;
};

}  // namespace

Status BuildSchema(const std::string& file, const std::vector<SchemaElement>& elements, ParquetSchema& out) {
  return Builder(file, elements, out).Run();
}

}  // namespace lakestream::parquet
