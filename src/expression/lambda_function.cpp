#include "expression/lambda_function.hpp"

#include <algorithm>

#include "common/exception.hpp"
#include "expression/expression_executor.hpp"
#include "function/scalar/nested.hpp"

namespace lakestream {
namespace {

// The items a lambda runs on: item k reads parameter p at row rows[p][k] of
// sources[p] (nullptr: the INTEGER index param, from `indexes`) and the
// captures at row capture_rows[k] of the function's arguments.
struct LambdaItems {
  std::vector<const Vector*> sources;
  std::vector<std::vector<sel_t>> rows;
  std::vector<int32_t> indexes;
  std::vector<sel_t> capture_rows;
  idx_t Size() const { return capture_rows.size(); }
};

// out[k] = body(item k), for every item, a batch of STANDARD_VECTOR_SIZE at a time.
void EvaluateLambda(const LambdaBody& lambda, const LambdaItems& items, DataChunk& args, idx_t capture_offset,
                    const FunctionContext& ctx, Vector& out) {
  idx_t total = items.Size();
  out.Reset();
  if (total > out.Capacity()) out.Resize(total);
  if (total == 0) return;
  std::vector<LogicalType> types = lambda.parameter_types;
  types.insert(types.end(), lambda.capture_types.begin(), lambda.capture_types.end());
  DataChunk in;
  in.Initialize(types);
  Vector batch(lambda.body->return_type);
  ExpressionExecutor executor(ctx);
  idx_t params = lambda.parameters;
  for (idx_t start = 0; start < total; start += STANDARD_VECTOR_SIZE) {
    idx_t n = std::min<idx_t>(STANDARD_VECTOR_SIZE, total - start);
    in.Reset();
    for (idx_t p = 0; p < params; p++) {
      if (items.sources[p]) {
        in.data[p].Copy(*items.sources[p], items.rows[p].data() + start, n, 0, 0);
      } else {
        std::copy_n(items.indexes.data() + start, n, in.data[p].GetData<int32_t>());
        in.data[p].SetAllValid(n);
      }
    }
    for (idx_t c = 0; c < lambda.capture_types.size(); c++) {
      in.data[params + c].Copy(args.data[capture_offset + c], items.capture_rows.data() + start, n, 0, 0);
    }
    in.SetCardinality(n);
    executor.Execute(*lambda.body, in, batch);
    out.Copy(batch, nullptr, n, 0, start);
  }
}

// One item per element of the valid rows of the list/map args[0], in order.
// `sources`: the vectors the parameters read (element-indexed); nullptr for the index.
LambdaItems ElementItems(const Vector& collection, idx_t count, std::vector<const Vector*> sources) {
  LambdaItems items;
  items.sources = std::move(sources);
  items.rows.resize(items.sources.size());
  const auto* entries = collection.GetData<list_entry_t>();
  for (idx_t i = 0; i < count; i++) {
    if (!collection.IsValid(i)) continue;
    for (idx_t j = 0; j < entries[i].length; j++) {
      for (auto& r : items.rows) r.push_back(static_cast<sel_t>(entries[i].offset + j));
      items.indexes.push_back(static_cast<int32_t>(j));
      items.capture_rows.push_back(static_cast<sel_t>(i));
    }
  }
  return items;
}

bool IsTrue(const Vector& v, idx_t k) { return v.IsValid(k) && v.GetData<bool>()[k]; }

// Writes list entries for `count` rows, each valid row i taking lengths[i]
// elements in order; NULL rows stay NULL.
void WriteEntries(const Vector& collection, idx_t count, const std::vector<idx_t>& lengths, Vector& result) {
  auto* out = result.GetData<list_entry_t>();
  idx_t offset = 0;
  for (idx_t i = 0; i < count; i++) {
    bool valid = collection.IsValid(i);
    result.SetValid(i, valid);
    if (!valid) continue;
    out[i] = {offset, lengths[i]};
    offset += lengths[i];
  }
  result.SetListSize(offset);
}

std::vector<idx_t> Lengths(const Vector& collection, idx_t count) {
  std::vector<idx_t> lengths(count, 0);
  const auto* entries = collection.GetData<list_entry_t>();
  for (idx_t i = 0; i < count; i++) {
    if (collection.IsValid(i)) lengths[i] = entries[i].length;
  }
  return lengths;
}

// Keeps the items whose predicate is TRUE: their element rows, and per row how many.
std::vector<sel_t> KeptRows(const LambdaItems& items, const Vector& keep, idx_t count, std::vector<idx_t>& lengths) {
  std::vector<sel_t> kept;
  lengths.assign(count, 0);
  for (idx_t k = 0; k < items.Size(); k++) {
    if (!IsTrue(keep, k)) continue;
    kept.push_back(items.rows[0][k]);
    lengths[items.capture_rows[k]]++;
  }
  return kept;
}

void ListKernel(LambdaFunctionKind kind, const LambdaBody& lambda, DataChunk& args, Vector& result, idx_t count,
                const FunctionContext& ctx) {
  const Vector& list = args.data[0];
  const Vector& child = list.Child(0);
  std::vector<const Vector*> sources{&child};
  if (lambda.parameters == 2) sources.push_back(nullptr);
  LambdaItems items = ElementItems(list, count, sources);
  if (kind == LambdaFunctionKind::TRANSFORM) {
    ResetListResult(result);
    EvaluateLambda(lambda, items, args, 1, ctx, result.Child(0));
    WriteEntries(list, count, Lengths(list, count), result);
    return;
  }
  Vector keep(TypeId::BOOLEAN);
  EvaluateLambda(lambda, items, args, 1, ctx, keep);
  if (kind == LambdaFunctionKind::FILTER) {
    std::vector<idx_t> lengths;
    std::vector<sel_t> kept = KeptRows(items, keep, count, lengths);
    ResetListResult(result);
    result.Child(0).Copy(child, kept.data(), kept.size(), 0, 0);
    WriteEntries(list, count, lengths, result);
    return;
  }
  // EXISTS / FORALL with three-valued logic, as Spark 3.
  bool exists = kind == LambdaFunctionKind::EXISTS;
  std::vector<uint8_t> decided(count, 0), saw_null(count, 0);
  for (idx_t k = 0; k < items.Size(); k++) {
    idx_t row = items.capture_rows[k];
    if (!keep.IsValid(k)) {
      saw_null[row] = 1;
    } else if (keep.GetData<bool>()[k] == exists) {
      decided[row] = 1;
    }
  }
  auto* out = result.GetData<bool>();
  for (idx_t i = 0; i < count; i++) {
    bool valid = list.IsValid(i) && (decided[i] || !saw_null[i]);
    result.SetValid(i, valid);
    if (valid) out[i] = decided[i] ? exists : !exists;
  }
}

void MapKernel(LambdaFunctionKind kind, const LambdaBody& lambda, DataChunk& args, Vector& result, idx_t count,
               const FunctionContext& ctx) {
  const Vector& map = args.data[0];
  const Vector& keys = map.Child(0).Child(0);
  const Vector& values = map.Child(0).Child(1);
  LambdaItems items = ElementItems(map, count, {&keys, &values});
  ResetListResult(result);
  Vector& entries = result.Child(0);
  idx_t total = items.Size();
  if (kind == LambdaFunctionKind::MAP_FILTER) {
    Vector keep(TypeId::BOOLEAN);
    EvaluateLambda(lambda, items, args, 1, ctx, keep);
    std::vector<idx_t> lengths;
    std::vector<sel_t> kept = KeptRows(items, keep, count, lengths);
    entries.Resize(std::max<idx_t>(kept.size(), 1));
    entries.Child(0).Copy(keys, kept.data(), kept.size(), 0, 0);
    entries.Child(1).Copy(values, kept.data(), kept.size(), 0, 0);
    entries.SetAllValid(kept.size());
    WriteEntries(map, count, lengths, result);
    return;
  }
  entries.Resize(std::max<idx_t>(total, 1));
  bool new_keys = kind == LambdaFunctionKind::TRANSFORM_KEYS;
  EvaluateLambda(lambda, items, args, 1, ctx, entries.Child(new_keys ? 0 : 1));
  entries.Child(new_keys ? 1 : 0).Copy(new_keys ? values : keys, items.rows[0].data(), total, 0, 0);
  entries.SetAllValid(total);
  WriteEntries(map, count, Lengths(map, count), result);
  if (!new_keys) return;
  const Vector& k = entries.Child(0);
  const auto* out = result.GetData<list_entry_t>();
  for (idx_t i = 0; i < count; i++) {
    if (!result.IsValid(i)) continue;
    for (idx_t a = out[i].offset; a < out[i].offset + out[i].length; a++) {
      if (!k.IsValid(a)) throw InvalidInputError("transform_keys(): the lambda gave a NULL key; map keys cannot be NULL");
      for (idx_t b = out[i].offset; b < a; b++) {
        if (RowsEqual(k, a, k, b)) {
          throw InvalidInputError("transform_keys(): duplicate map key " + k.GetValue(a).ToString() +
                                  "; the lambda must give each entry a different key");
        }
      }
    }
  }
}

// aggregate(arr, start, merge[, finish]): vectorized across rows, one pass per
// element position (the accumulator of element p depends on element p - 1).
void AggregateKernel(const std::vector<LambdaBody>& lambdas, DataChunk& args, Vector& result, idx_t count,
                     const FunctionContext& ctx) {
  const Vector& list = args.data[0];
  const Vector& child = list.Child(0);
  const auto* entries = list.GetData<list_entry_t>();
  const LambdaBody& merge = lambdas[0];
  Vector acc(merge.body->return_type, std::max<idx_t>(count, 1));
  acc.Copy(args.data[1], nullptr, count, 0, 0);
  idx_t longest = 0;
  for (idx_t i = 0; i < count; i++) {
    if (list.IsValid(i)) longest = std::max<idx_t>(longest, entries[i].length);
  }
  Vector step(merge.body->return_type);
  for (idx_t p = 0; p < longest; p++) {
    LambdaItems items;
    items.sources = {&acc, &child};
    items.rows.resize(2);
    for (idx_t i = 0; i < count; i++) {
      if (!list.IsValid(i) || entries[i].length <= p) continue;
      items.rows[0].push_back(static_cast<sel_t>(i));
      items.rows[1].push_back(static_cast<sel_t>(entries[i].offset + p));
      items.capture_rows.push_back(static_cast<sel_t>(i));
    }
    EvaluateLambda(merge, items, args, 2, ctx, step);
    for (idx_t k = 0; k < items.Size(); k++) acc.Copy(step, nullptr, 1, k, items.capture_rows[k]);
  }
  result.Reset();
  if (count > result.Capacity()) result.Resize(count);
  LambdaItems rows;
  rows.sources = {&acc};
  rows.rows.resize(1);
  for (idx_t i = 0; i < count; i++) {
    if (!list.IsValid(i)) continue;
    rows.rows[0].push_back(static_cast<sel_t>(i));
    rows.capture_rows.push_back(static_cast<sel_t>(i));
  }
  const Vector* final_values = &acc;
  Vector finished(lambdas.size() == 2 ? lambdas[1].body->return_type : merge.body->return_type);
  std::vector<sel_t> source_rows = rows.rows[0];
  if (lambdas.size() == 2) {
    EvaluateLambda(lambdas[1], rows, args, 2 + merge.capture_types.size(), ctx, finished);
    final_values = &finished;
    for (idx_t k = 0; k < source_rows.size(); k++) source_rows[k] = static_cast<sel_t>(k);
  }
  for (idx_t i = 0; i < count; i++) result.SetValid(i, false);
  for (idx_t k = 0; k < rows.Size(); k++) result.Copy(*final_values, nullptr, 1, source_rows[k], rows.capture_rows[k]);
}

}  // namespace

BoundScalarFunction MakeLambdaFunction(LambdaFunctionKind kind, std::vector<LogicalType> arguments,
                                       std::vector<LambdaBody> lambdas, LogicalType return_type) {
  scalar_kernel_t kernel = [kind, lambdas = std::move(lambdas)](DataChunk& args, Vector& result, idx_t count, const FunctionContext& ctx) {
    switch (kind) {
      case LambdaFunctionKind::AGGREGATE: AggregateKernel(lambdas, args, result, count, ctx); return;
      case LambdaFunctionKind::TRANSFORM_VALUES:
      case LambdaFunctionKind::TRANSFORM_KEYS:
      case LambdaFunctionKind::MAP_FILTER: MapKernel(kind, lambdas[0], args, result, count, ctx); return;
      default: ListKernel(kind, lambdas[0], args, result, count, ctx); return;
    }
  };
  BoundScalarFunction f;
  f.argument_types = std::move(arguments);
  f.return_type = std::move(return_type);
  f.kernel = std::move(kernel);
  // The start value of aggregate() may be NULL without making the result NULL;
  // captures may be NULL too. The kernels read validity themselves.
  f.handles_nulls = true;
  return f;
}

}  // namespace lakestream
