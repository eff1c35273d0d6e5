// range(stop) / range(start, stop[, step]) and generate_series(start, stop[, step]):
// a BIGINT sequence, as in DuckDB. range excludes stop; generate_series includes it.
#include "common/exception.hpp"
#include "common/query_progress.hpp"
#include "function/table/table_functions.hpp"

namespace lakestream {

namespace {

class RangeSource : public TableSource {
 public:
  RangeSource(int64_t start, int64_t stop, int64_t step) : next_(start), stop_(stop), step_(step) {}


  bool Next(DataChunk& out) override {
    if (!started_) {
      started_ = true;
      // The progress bar's total: the rows this range will produce. In
      // doubles, since stop - start may overflow (range(-2^63, 2^63 - 1)).
      double span = (static_cast<double>(stop_) - static_cast<double>(next_)) / static_cast<double>(step_);
      if (QueryProgress* progress = CurrentQueryProgress(); progress && span > 0) {
        progress->AddTotal(static_cast<uint64_t>(span));
      }
    }
    out.Reset();
    auto* data = out.data[0].GetData<int64_t>();
    idx_t n = 0;
    while (n < STANDARD_VECTOR_SIZE && (step_ > 0 ? next_ < stop_ : next_ > stop_)) {
      data[n++] = next_;
      next_ += step_;
    }
    out.data[0].SetAllValid(n);
    out.SetCardinality(n);
    return n > 0;
  }
  std::string Name() const override { return "RANGE"; }

 private:
  int64_t next_;
  int64_t stop_;
  int64_t step_;
  bool started_ = false;
};

}  // namespace

TableFunctionBinding BindRange(const std::string& name, const std::vector<Value>& args) {
  bool inclusive = name == "generate_series";
  if (args.empty() || args.size() > 3) {
    throw BinderError(name + "() takes (stop), (start, stop) or (start, stop, step), got " + std::to_string(args.size()) +
                      " arguments");
  }
  std::vector<int64_t> v;
  for (auto& a : args) {
    if (a.IsNull() || !a.type().IsIntegral()) {
      throw BinderError(name + "() arguments must be non-NULL integers, got " + a.ToSQLString());
    }
    v.push_back(a.AsBigint());
  }
  int64_t start = v.size() == 1 ? 0 : v[0];
  int64_t stop = v.size() == 1 ? v[0] : v[1];
  int64_t step = v.size() == 3 ? v[2] : 1;
  if (step == 0) throw BinderError(name + "() step must not be 0");
  if (inclusive) stop += step > 0 ? 1 : -1;
  TableFunctionBinding binding;
  binding.names = {name};
  binding.types = {TypeId::BIGINT};
  binding.factory = [start, stop, step](const std::vector<idx_t>&) {
    return TableSourcePtr(std::make_unique<RangeSource>(start, stop, step));
  };
  return binding;
}

}  // namespace lakestream
