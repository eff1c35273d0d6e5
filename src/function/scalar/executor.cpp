// Shared helpers of the scalar kernels (see executor.hpp).
#include "function/scalar/executor.hpp"

#include <cmath>
#include <cstring>

namespace lakestream {

void CopyRow(const Vector& src, idx_t src_row, Vector& dst, idx_t dst_row) {
  if (!src.IsValid(src_row)) {
    dst.SetValid(dst_row, false);
    return;
  }
  const LogicalType& type = dst.GetType();
  if (type.IsNested() || type.id() == TypeId::SQLNULL) {
    dst.SetValue(dst_row, src.GetValue(src_row));
    return;
  }
  idx_t width = type.PhysicalSize();
  std::memcpy(dst.GetData<uint8_t>() + dst_row * width, src.GetData<uint8_t>() + src_row * width, width);
  dst.SetValid(dst_row, true);
}

bool RowsEqual(const Vector& a, idx_t a_row, const Vector& b, idx_t b_row) {
  switch (a.GetType().id()) {
    case TypeId::BOOLEAN: return a.GetData<bool>()[a_row] == b.GetData<bool>()[b_row];
    case TypeId::INTEGER:
    case TypeId::DATE: return a.GetData<int32_t>()[a_row] == b.GetData<int32_t>()[b_row];
    case TypeId::BIGINT:
    case TypeId::TIMESTAMP:
    case TypeId::TIMESTAMP_NTZ: return a.GetData<int64_t>()[a_row] == b.GetData<int64_t>()[b_row];
    case TypeId::DOUBLE: {
      double x = a.GetData<double>()[a_row], y = b.GetData<double>()[b_row];
      return x == y || (std::isnan(x) && std::isnan(y));  // NaN equals NaN, as in Spark
    }
    case TypeId::DECIMAL: return a.GetData<hugeint_t>()[a_row] == b.GetData<hugeint_t>()[b_row];
    case TypeId::VARCHAR: return a.GetData<string_t>()[a_row] == b.GetData<string_t>()[b_row];
    default: return a.GetValue(a_row) == b.GetValue(b_row);
  }
}

std::string SignatureString(const std::string& name, const std::vector<LogicalType>& types) {
  std::string s = name + "(";
  for (size_t i = 0; i < types.size(); i++) {
    if (i) s += ", ";
    s += types[i].ToString();
  }
  return s + ")";
}

void ThrowArgumentError(const ScalarBindInput& input, const std::string& accepted) {
  throw BinderError("No function matches the given name and argument types '" +
                    SignatureString(input.name, input.argument_types) + "'. Candidate functions: " + accepted +
                    ". Add an explicit CAST to match one of them.");
}

void CheckArgumentCount(const ScalarBindInput& input, idx_t min, idx_t max, const std::string& accepted) {
  idx_t n = input.argument_types.size();
  if (n < min || n > max) ThrowArgumentError(input, accepted);
}

const std::string* ConstantString(const ScalarBindInput& input, idx_t i) {
  if (i >= input.constant_arguments.size()) return nullptr;
  const Value* v = input.constant_arguments[i];
  if (!v || v->IsNull() || v->type().id() != TypeId::VARCHAR) return nullptr;
  return &v->GetString();
}

bool ImplicitlyStringCastable(const LogicalType& type) {
  return !type.IsNested() && type.id() != TypeId::INVALID;
}

LogicalType CommonType(const std::vector<LogicalType>& types, const LogicalType& null_default) {
  LogicalType common = TypeId::SQLNULL;
  for (auto& t : types) {
    common = MaxLogicalType(common, t);
    if (common.id() == TypeId::INVALID) return common;
  }
  if (common.id() == TypeId::SQLNULL) return null_default;
  return common;
}

}  // namespace lakestream
