#include "storage/parquet/parquet_metadata.hpp"

namespace lakestream::parquet {

namespace {

// Iterates the fields of a struct: FIELDS is a switch body over `id`; the
// default case skips unknown fields.
#define TSTRUCT(r, FIELDS)                                   \
  do {                                                       \
    (r).StructBegin();                                       \
    int16_t id;                                              \
    TType ft;                                                \
    while ((r).ok() && (r).ReadFieldBegin(id, ft)) {         \
      switch (id) {                                          \
        FIELDS /* NOLINT(bugprone-macro-parentheses): case labels */ \
        default: (r).Skip(ft); break;                        \
      }                                                      \
    }                                                        \
    (r).StructEnd();                                         \
  } while (0)

#define EXPECT(t)                                            \
  if (ft != (t)) { r.Skip(ft); break; }

void ReadEmpty(TReader& r) { r.Skip(TType::STRUCT); }

void ReadTimeUnit(TReader& r, int16_t& unit) {
  TSTRUCT(r, case 1: case 2: case 3: unit = id; r.Skip(ft); break;);
}

void ReadLogicalType(TReader& r, LogicalTypeAnnotation& lt) {
  TSTRUCT(r,
    case 5:
      lt.kind = 5;
      EXPECT(TType::STRUCT);
      TSTRUCT(r, case 1: lt.scale = r.ReadI32(); break; case 2: lt.precision = r.ReadI32(); break;);
      break;
    case 7: case 8:
      lt.kind = id;
      EXPECT(TType::STRUCT);
      TSTRUCT(r, case 1: lt.adjusted_to_utc = r.ReadBool(ft); break;
                 case 2: EXPECT(TType::STRUCT); ReadTimeUnit(r, lt.unit); break;);
      break;
    case 10:
      lt.kind = 10;
      EXPECT(TType::STRUCT);
      TSTRUCT(r, case 1: lt.bit_width = r.ReadByte(); break; case 2: lt.is_signed = r.ReadBool(ft); break;);
      break;
    case 1: case 2: case 3: case 4: case 6: case 11: case 12: case 13: case 14: case 15:
      lt.kind = id;
      r.Skip(ft);
      break;);
}

void ReadSchemaElement(TReader& r, SchemaElement& e) {
  TSTRUCT(r,
    case 1: e.type = static_cast<PhysicalType>(r.ReadI32()); break;
    case 2: e.type_length = r.ReadI32(); break;
    case 3: e.repetition = static_cast<Repetition>(r.ReadI32()); break;
    case 4: EXPECT(TType::BINARY); e.name = std::string(r.ReadBinary()); break;
    case 5: e.num_children = r.ReadI32(); break;
    case 6: e.converted_type = static_cast<ConvertedType>(r.ReadI32()); break;
    case 7: e.scale = r.ReadI32(); break;
    case 8: e.precision = r.ReadI32(); break;
    case 9: e.field_id = r.ReadI32(); break;
    case 10: EXPECT(TType::STRUCT); ReadLogicalType(r, e.logical); break;);
}

void ReadStatistics(TReader& r, Statistics& s) {
  TSTRUCT(r,
    case 1: EXPECT(TType::BINARY); s.max = std::string(r.ReadBinary()); break;
    case 2: EXPECT(TType::BINARY); s.min = std::string(r.ReadBinary()); break;
    case 3: s.null_count = r.ReadI64(); break;
    case 4: s.distinct_count = r.ReadI64(); break;
    case 5: EXPECT(TType::BINARY); s.max_value = std::string(r.ReadBinary()); break;
    case 6: EXPECT(TType::BINARY); s.min_value = std::string(r.ReadBinary()); break;);
}

template <class F>
void ReadList(TReader& r, TType ft, TType want, F&& f) {
  if (ft != TType::LIST && ft != TType::SET) {
    r.Skip(ft);
    return;
  }
  TType et;
  uint32_t n = r.ReadListBegin(et);
  if (n > 0 && et != want) {
    r.Fail("unexpected thrift list element type");
    return;
  }
  for (uint32_t i = 0; i < n && r.ok(); i++) f();
}

void ReadColumnMetaData(TReader& r, ColumnMetaData& m) {
  TSTRUCT(r,
    case 1: m.type = static_cast<PhysicalType>(r.ReadI32()); break;
    case 2: ReadList(r, ft, TType::I32, [&] { m.encodings.push_back(static_cast<Encoding>(r.ReadI32())); }); break;
    case 3: ReadList(r, ft, TType::BINARY, [&] { m.path_in_schema.emplace_back(r.ReadBinary()); }); break;
    case 4: m.codec = static_cast<Codec>(r.ReadI32()); break;
    case 5: m.num_values = r.ReadI64(); break;
    case 6: m.total_uncompressed_size = r.ReadI64(); break;
    case 7: m.total_compressed_size = r.ReadI64(); break;
    case 9: m.data_page_offset = r.ReadI64(); break;
    case 10: m.index_page_offset = r.ReadI64(); break;
    case 11: m.dictionary_page_offset = r.ReadI64(); break;
    case 12: EXPECT(TType::STRUCT); m.statistics.emplace(); ReadStatistics(r, *m.statistics); break;);
}

void ReadColumnChunk(TReader& r, ColumnChunk& c) {
  TSTRUCT(r,
    case 1: EXPECT(TType::BINARY); c.file_path = std::string(r.ReadBinary()); break;
    case 2: c.file_offset = r.ReadI64(); break;
    case 3: EXPECT(TType::STRUCT); c.meta_data.emplace(); ReadColumnMetaData(r, *c.meta_data); break;);
}

void ReadRowGroup(TReader& r, RowGroup& g) {
  TSTRUCT(r,
    case 1: ReadList(r, ft, TType::STRUCT, [&] { g.columns.emplace_back(); ReadColumnChunk(r, g.columns.back()); }); break;
    case 2: g.total_byte_size = r.ReadI64(); break;
    case 3: g.num_rows = r.ReadI64(); break;
    case 5: g.file_offset = r.ReadI64(); break;
    case 6: g.total_compressed_size = r.ReadI64(); break;);
}

}  // namespace

bool ReadFileMetaData(TReader& r, FileMetaData& md) {
  TSTRUCT(r,
    case 1: md.version = r.ReadI32(); break;
    case 2: ReadList(r, ft, TType::STRUCT, [&] { md.schema.emplace_back(); ReadSchemaElement(r, md.schema.back()); }); break;
    case 3: md.num_rows = r.ReadI64(); break;
    case 4: ReadList(r, ft, TType::STRUCT, [&] { md.row_groups.emplace_back(); ReadRowGroup(r, md.row_groups.back()); }); break;
    case 5: ReadList(r, ft, TType::STRUCT, [&] {
              md.key_value_metadata.emplace_back();
              auto& kv = md.key_value_metadata.back();
              TSTRUCT(r, case 1: EXPECT(TType::BINARY); kv.key = std::string(r.ReadBinary()); break;
                         case 2: EXPECT(TType::BINARY); kv.value = std::string(r.ReadBinary()); break;);
            }); break;
    case 6: EXPECT(TType::BINARY); md.created_by = std::string(r.ReadBinary()); break;
    case 7: ReadList(r, ft, TType::STRUCT, [&] { md.num_column_orders++; ReadEmpty(r); }); break;);
  return r.ok();
}

bool ReadPageHeader(TReader& r, PageHeader& ph) {
  TSTRUCT(r,
    case 1: ph.type = static_cast<PageType>(r.ReadI32()); break;
    case 2: ph.uncompressed_page_size = r.ReadI32(); break;
    case 3: ph.compressed_page_size = r.ReadI32(); break;
    case 4: ph.crc = r.ReadI32(); break;
    case 5: {
      EXPECT(TType::STRUCT);
      auto& h = ph.data_page_header.emplace();
      TSTRUCT(r, case 1: h.num_values = r.ReadI32(); break;
                 case 2: h.encoding = static_cast<Encoding>(r.ReadI32()); break;
                 case 3: h.definition_level_encoding = static_cast<Encoding>(r.ReadI32()); break;
                 case 4: h.repetition_level_encoding = static_cast<Encoding>(r.ReadI32()); break;
                 case 5: EXPECT(TType::STRUCT); h.statistics.emplace(); ReadStatistics(r, *h.statistics); break;);
      break;
    }
    case 7: {
      EXPECT(TType::STRUCT);
      auto& h = ph.dictionary_page_header.emplace();
      TSTRUCT(r, case 1: h.num_values = r.ReadI32(); break;
                 case 2: h.encoding = static_cast<Encoding>(r.ReadI32()); break;
                 case 3: h.is_sorted = r.ReadBool(ft); break;);
      break;
    }
    case 8: {
      EXPECT(TType::STRUCT);
      auto& h = ph.data_page_header_v2.emplace();
      TSTRUCT(r, case 1: h.num_values = r.ReadI32(); break;
                 case 2: h.num_nulls = r.ReadI32(); break;
                 case 3: h.num_rows = r.ReadI32(); break;
                 case 4: h.encoding = static_cast<Encoding>(r.ReadI32()); break;
                 case 5: h.definition_levels_byte_length = r.ReadI32(); break;
                 case 6: h.repetition_levels_byte_length = r.ReadI32(); break;
                 case 7: h.is_compressed = r.ReadBool(ft); break;
                 case 8: EXPECT(TType::STRUCT); h.statistics.emplace(); ReadStatistics(r, *h.statistics); break;);
      break;
    });
  return r.ok();
}

// ---- writing ----

namespace {

void WriteStatistics(TWriter& w, const Statistics& s) {
  w.StructBegin();
  if (s.max) w.FieldBinary(1, *s.max);
  if (s.min) w.FieldBinary(2, *s.min);
  if (s.null_count) w.FieldI64(3, *s.null_count);
  if (s.distinct_count) w.FieldI64(4, *s.distinct_count);
  if (s.max_value) w.FieldBinary(5, *s.max_value);
  if (s.min_value) w.FieldBinary(6, *s.min_value);
  w.StructEnd();
}

void WriteLogicalType(TWriter& w, const LogicalTypeAnnotation& lt) {
  w.StructBegin();
  switch (lt.kind) {
    case LogicalTypeAnnotation::DECIMAL:
      w.FieldBegin(5, TType::STRUCT);
      w.StructBegin();
      w.FieldI32(1, lt.scale);
      w.FieldI32(2, lt.precision);
      w.StructEnd();
      break;
    case LogicalTypeAnnotation::TIME:
    case LogicalTypeAnnotation::TIMESTAMP:
      w.FieldBegin(lt.kind, TType::STRUCT);
      w.StructBegin();
      w.FieldBool(1, lt.adjusted_to_utc);
      w.FieldBegin(2, TType::STRUCT);
      w.StructBegin();
      w.FieldEmptyStruct(lt.unit);
      w.StructEnd();
      w.StructEnd();
      break;
    case LogicalTypeAnnotation::INTEGER:
      w.FieldBegin(10, TType::STRUCT);
      w.StructBegin();
      w.FieldByte(1, lt.bit_width);
      w.FieldBool(2, lt.is_signed);
      w.StructEnd();
      break;
    default: w.FieldEmptyStruct(lt.kind); break;
  }
  w.StructEnd();
}

}  // namespace

void WriteFileMetaData(TWriter& w, const FileMetaData& md) {
  w.StructBegin();
  w.FieldI32(1, md.version);
  w.FieldBegin(2, TType::LIST);
  w.ListBegin(TType::STRUCT, static_cast<uint32_t>(md.schema.size()));
  for (auto& e : md.schema) {
    w.StructBegin();
    if (e.type) w.FieldI32(1, static_cast<int32_t>(*e.type));
    if (e.type && *e.type == PhysicalType::FIXED_LEN_BYTE_ARRAY) w.FieldI32(2, e.type_length);
    if (e.repetition) w.FieldI32(3, static_cast<int32_t>(*e.repetition));
    w.FieldBinary(4, e.name);
    if (!e.type) w.FieldI32(5, e.num_children);
    if (e.converted_type) w.FieldI32(6, static_cast<int32_t>(*e.converted_type));
    if (e.converted_type == ConvertedType::DECIMAL) {
      w.FieldI32(7, e.scale);
      w.FieldI32(8, e.precision);
    }
    if (e.field_id) w.FieldI32(9, *e.field_id);
    if (e.logical.kind != LogicalTypeAnnotation::NONE) {
      w.FieldBegin(10, TType::STRUCT);
      WriteLogicalType(w, e.logical);
    }
    w.StructEnd();
  }
  w.FieldI64(3, md.num_rows);
  w.FieldBegin(4, TType::LIST);
  w.ListBegin(TType::STRUCT, static_cast<uint32_t>(md.row_groups.size()));
  for (auto& g : md.row_groups) {
    w.StructBegin();
    w.FieldBegin(1, TType::LIST);
    w.ListBegin(TType::STRUCT, static_cast<uint32_t>(g.columns.size()));
    for (auto& c : g.columns) {
      w.StructBegin();
      w.FieldI64(2, c.file_offset);
      if (c.meta_data) {
        auto& m = *c.meta_data;
        w.FieldBegin(3, TType::STRUCT);
        w.StructBegin();
        w.FieldI32(1, static_cast<int32_t>(m.type));
        w.FieldBegin(2, TType::LIST);
        w.ListBegin(TType::I32, static_cast<uint32_t>(m.encodings.size()));
        for (auto e : m.encodings) w.WriteI32(static_cast<int32_t>(e));
        w.FieldBegin(3, TType::LIST);
        w.ListBegin(TType::BINARY, static_cast<uint32_t>(m.path_in_schema.size()));
        for (auto& p : m.path_in_schema) w.WriteBinary(p);
        w.FieldI32(4, static_cast<int32_t>(m.codec));
        w.FieldI64(5, m.num_values);
        w.FieldI64(6, m.total_uncompressed_size);
        w.FieldI64(7, m.total_compressed_size);
        w.FieldI64(9, m.data_page_offset);
        if (m.dictionary_page_offset) w.FieldI64(11, *m.dictionary_page_offset);
        if (m.statistics) {
          w.FieldBegin(12, TType::STRUCT);
          WriteStatistics(w, *m.statistics);
        }
        w.StructEnd();
      }
      w.StructEnd();
    }
    w.FieldI64(2, g.total_byte_size);
    w.FieldI64(3, g.num_rows);
    if (g.file_offset) w.FieldI64(5, *g.file_offset);
    if (g.total_compressed_size) w.FieldI64(6, *g.total_compressed_size);
    w.StructEnd();
  }
  if (!md.key_value_metadata.empty()) {
    w.FieldBegin(5, TType::LIST);
    w.ListBegin(TType::STRUCT, static_cast<uint32_t>(md.key_value_metadata.size()));
    for (auto& kv : md.key_value_metadata) {
      w.StructBegin();
      w.FieldBinary(1, kv.key);
      if (kv.value) w.FieldBinary(2, *kv.value);
      w.StructEnd();
    }
  }
  w.FieldBinary(6, md.created_by);
  if (md.num_column_orders > 0) {
    w.FieldBegin(7, TType::LIST);
    w.ListBegin(TType::STRUCT, static_cast<uint32_t>(md.num_column_orders));
    for (int i = 0; i < md.num_column_orders; i++) {
      w.StructBegin();
      w.FieldEmptyStruct(1);
      w.StructEnd();
    }
  }
  w.StructEnd();
}

void WritePageHeader(TWriter& w, const PageHeader& ph) {
  w.StructBegin();
  w.FieldI32(1, static_cast<int32_t>(ph.type));
  w.FieldI32(2, ph.uncompressed_page_size);
  w.FieldI32(3, ph.compressed_page_size);
  if (ph.crc) w.FieldI32(4, *ph.crc);
  if (ph.data_page_header) {
    auto& h = *ph.data_page_header;
    w.FieldBegin(5, TType::STRUCT);
    w.StructBegin();
    w.FieldI32(1, h.num_values);
    w.FieldI32(2, static_cast<int32_t>(h.encoding));
    w.FieldI32(3, static_cast<int32_t>(h.definition_level_encoding));
    w.FieldI32(4, static_cast<int32_t>(h.repetition_level_encoding));
    if (h.statistics) {
      w.FieldBegin(5, TType::STRUCT);
      WriteStatistics(w, *h.statistics);
    }
    w.StructEnd();
  }
  if (ph.dictionary_page_header) {
    auto& h = *ph.dictionary_page_header;
    w.FieldBegin(7, TType::STRUCT);
    w.StructBegin();
    w.FieldI32(1, h.num_values);
    w.FieldI32(2, static_cast<int32_t>(h.encoding));
    w.StructEnd();
  }
  if (ph.data_page_header_v2) {
    auto& h = *ph.data_page_header_v2;
    w.FieldBegin(8, TType::STRUCT);
    w.StructBegin();
    w.FieldI32(1, h.num_values);
    w.FieldI32(2, h.num_nulls);
    w.FieldI32(3, h.num_rows);
    w.FieldI32(4, static_cast<int32_t>(h.encoding));
    w.FieldI32(5, h.definition_levels_byte_length);
    w.FieldI32(6, h.repetition_levels_byte_length);
    w.FieldBool(7, h.is_compressed);
    w.StructEnd();
  }
  w.StructEnd();
}

}  // namespace lakestream::parquet
