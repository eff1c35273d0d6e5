#include "function/window/window_executor.hpp"

#include <algorithm>
#include <limits>

#include "common/exception.hpp"
#include "common/vector_operations.hpp"
#include "function/window/window_internal.hpp"

namespace lakestream {

// ------------------------------------------------------------------ sorting

std::string WindowSortKey(const BoundWindow& window) {
  std::string key = "p";
  for (idx_t p : window.partitions) key += std::to_string(p) + ",";
  key += "o";
  for (auto& o : window.orders) key += std::to_string(o.input) + (o.descending ? "d" : "a") + (o.nulls_first ? "f" : "l") + ",";
  return key;
}

const std::vector<uint32_t>& WindowSort::PeerBegin() {
  if (!peer_begin_.empty() || order_.empty()) return peer_begin_;
  idx_t n = order_.size();
  peer_begin_.resize(n);
  peer_end_.resize(n);
  std::vector<row_equal_t> equal;
  for (idx_t o : order_inputs_) equal.push_back(GetRowEqualFunction(inputs_[o].GetType()));
  idx_t next_partition = 1;
  uint32_t begin = 0;
  for (idx_t pos = 0; pos < n; pos++) {
    bool boundary = pos == 0;
    if (!boundary && pos == partition_starts_[next_partition]) {
      boundary = true;
      next_partition++;
    }
    for (idx_t k = 0; k < order_inputs_.size() && !boundary; k++) {
      const Vector& v = inputs_[order_inputs_[k]];
      boundary = !equal[k](v, order_[pos - 1], v, order_[pos]);
    }
    if (boundary) begin = static_cast<uint32_t>(pos);
    peer_begin_[pos] = begin;
  }
  uint32_t end = static_cast<uint32_t>(n);
  for (idx_t pos = n; pos-- > 0;) {
    peer_end_[pos] = end;
    if (peer_begin_[pos] == pos) end = static_cast<uint32_t>(pos);
  }
  return peer_begin_;
}

const std::vector<uint32_t>& WindowSort::PeerEnd() {
  PeerBegin();
  return peer_end_;
}

// ------------------------------------------------------------------ frames

namespace {

int64_t OffsetAt(const Vector& v, uint32_t row, const BoundWindow& window) {
  if (!v.IsValid(row)) throw InvalidInputError("the frame offset of " + window.name + " is NULL; give a number of rows");
  int64_t off = v.GetData<int64_t>()[row];
  if (off < 0) throw InvalidInputError("the frame offset of " + window.name + " is negative (" + std::to_string(off) + ")");
  return off;
}

// First position in [lo, hi) whose key does not come before `bound` in the
// window's order (key >= bound ascending, key <= bound descending); with
// `past_equal`, the first whose key comes after it.
uint32_t SearchRange(const Vector& key, const std::vector<uint32_t>& order, uint32_t lo, uint32_t hi, const Vector& bound,
                     uint32_t bound_row, row_compare_t compare, bool descending, bool past_equal) {
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    int c = compare(key, order[mid], bound, bound_row);
    if (descending) c = -c;
    bool before = past_equal ? c <= 0 : c < 0;
    if (before) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace

void ComputeFrames(const BoundWindow& window, const std::vector<Vector>& inputs, WindowSort& sort,
                   std::vector<uint32_t>& begin, std::vector<uint32_t>& end) {
  const BoundWindowFrame& f = window.frame;
  idx_t n = sort.Count();
  begin.resize(n);
  end.resize(n);
  const auto& order = sort.Order();
  const auto& starts = sort.PartitionStarts();
  bool need_peers = f.range && (f.start != WindowBoundary::UNBOUNDED_PRECEDING || f.end != WindowBoundary::UNBOUNDED_FOLLOWING);
  const std::vector<uint32_t>* peer_begin = need_peers ? &sort.PeerBegin() : nullptr;
  const std::vector<uint32_t>* peer_end = need_peers ? &sort.PeerEnd() : nullptr;
  bool range_offsets = f.range && (f.start == WindowBoundary::OFFSET_PRECEDING || f.start == WindowBoundary::OFFSET_FOLLOWING ||
                                   f.end == WindowBoundary::OFFSET_PRECEDING || f.end == WindowBoundary::OFFSET_FOLLOWING);
  const Vector* key = range_offsets ? &inputs[f.range_key] : nullptr;
  row_compare_t compare = range_offsets ? GetRowCompareFunction(key->GetType()) : nullptr;
  bool descending = !window.orders.empty() && window.orders[0].descending;
  for (idx_t p = 0; p + 1 < starts.size(); p++) {
    uint32_t ps = starts[p], pe = starts[p + 1];
    // The non-NULL keys of the partition (NULLs sort to one end), for RANGE offsets.
    uint32_t nb = ps, ne = pe;
    if (key) {
      while (nb < ne && !key->IsValid(order[nb])) nb++;
      while (ne > nb && !key->IsValid(order[ne - 1])) ne--;
    }
    for (uint32_t pos = ps; pos < pe; pos++) {
      uint32_t row = order[pos];
      auto bound = [&](WindowBoundary b, idx_t input, bool is_end) -> uint32_t {
        switch (b) {
          case WindowBoundary::UNBOUNDED_PRECEDING: return ps;
          case WindowBoundary::UNBOUNDED_FOLLOWING: return pe;
          case WindowBoundary::CURRENT_ROW:
            if (!f.range) return is_end ? pos + 1 : pos;
            return is_end ? (*peer_end)[pos] : (*peer_begin)[pos];
          case WindowBoundary::OFFSET_PRECEDING:
          case WindowBoundary::OFFSET_FOLLOWING: {
            if (f.range) {
              // A NULL key's frame is its peers (the other NULLs).
              if (!key->IsValid(row)) return is_end ? (*peer_end)[pos] : (*peer_begin)[pos];
              return SearchRange(*key, order, nb, ne, inputs[input], row, compare, descending, is_end);
            }
            int64_t off = OffsetAt(inputs[input], row, window);
            int64_t target = b == WindowBoundary::OFFSET_PRECEDING ? static_cast<int64_t>(pos) - off : static_cast<int64_t>(pos) + off;
            if (is_end) target++;
            return static_cast<uint32_t>(std::clamp<int64_t>(target, ps, pe));
          }
        }
        return ps;
      };
      uint32_t b = bound(f.start, f.start_input, false);
      uint32_t e = bound(f.end, f.end_input, true);
      begin[pos] = b;
      end[pos] = std::max(b, e);
    }
  }
}

// ------------------------------------------------------------------ evaluation

namespace {

// Ranking functions: values from the row's position and its peers.
void EvaluateRanking(const BoundWindow& window, const std::vector<Vector>& inputs, WindowSort& sort, Vector& result) {
  const auto& order = sort.Order();
  const auto& starts = sort.PartitionStarts();
  bool peers = window.kind != WindowKind::ROW_NUMBER && window.kind != WindowKind::NTILE;
  const std::vector<uint32_t>* peer_begin = peers ? &sort.PeerBegin() : nullptr;
  const std::vector<uint32_t>* peer_end = peers ? &sort.PeerEnd() : nullptr;
  auto* ints = result.GetData<int64_t>();
  auto* doubles = result.GetData<double>();
  for (idx_t p = 0; p + 1 < starts.size(); p++) {
    uint32_t ps = starts[p], pe = starts[p + 1];
    int64_t size = pe - ps;
    int64_t dense = 0;
    for (uint32_t pos = ps; pos < pe; pos++) {
      uint32_t row = order[pos];
      int64_t rank = peers ? (*peer_begin)[pos] - ps + 1 : 0;
      switch (window.kind) {
        case WindowKind::ROW_NUMBER: ints[row] = pos - ps + 1; break;
        case WindowKind::RANK: ints[row] = rank; break;
        case WindowKind::DENSE_RANK:
          if ((*peer_begin)[pos] == pos) dense++;
          ints[row] = dense;
          break;
        case WindowKind::PERCENT_RANK:
          doubles[row] = size > 1 ? static_cast<double>(rank - 1) / static_cast<double>(size - 1) : 0.0;
          break;
        case WindowKind::CUME_DIST:
          doubles[row] = static_cast<double>((*peer_end)[pos] - ps) / static_cast<double>(size);
          break;
        case WindowKind::NTILE: {
          const Vector& buckets = inputs[window.arguments[0]];
          if (!buckets.IsValid(row)) {
            result.SetValid(row, false);
            break;
          }
          int64_t b = buckets.GetData<int64_t>()[row];
          if (b <= 0) throw InvalidInputError("the number of buckets of " + window.name + " must be greater than 0, not " + std::to_string(b));
          int64_t i = pos - ps;
          int64_t q = size / b, r = size % b;
          ints[row] = i < r * (q + 1) ? i / (q + 1) + 1 : r + (i - r * (q + 1)) / q + 1;
          break;
        }
        default: break;
      }
    }
  }
}

constexpr int64_t kNoRow = -1;
constexpr int64_t kDefault = -2;

// Copies into result[row] the value of `value` at source[row] (kNoRow: NULL;
// kDefault: `fallback` at row itself).
void Gather(const Vector& value, const Vector* fallback, const std::vector<int64_t>& source, Vector& result) {
  idx_t n = source.size();
  std::vector<sel_t> sel(n);
  for (idx_t i = 0; i < n; i++) sel[i] = source[i] >= 0 ? static_cast<sel_t>(source[i]) : 0;
  result.Copy(value, sel.data(), n, 0, 0);
  for (idx_t i = 0; i < n; i++) {
    if (source[i] == kNoRow) result.SetValid(i, false);
    if (source[i] == kDefault) result.SetValue(i, fallback->GetValue(i));
  }
}

// lag/lead: the row `offset` rows before/after in the partition (counting
// only non-NULL values with IGNORE NULLS), else the default.
void EvaluateOffset(const BoundWindow& window, const std::vector<Vector>& inputs, WindowSort& sort, Vector& result,
                    const std::function<void()>& check_interrupt) {
  const Vector& value = inputs[window.arguments[0]];
  const Vector& offsets = inputs[window.arguments[1]];
  const Vector* fallback = window.arguments.size() > 2 ? &inputs[window.arguments[2]] : nullptr;
  const auto& order = sort.Order();
  const auto& starts = sort.PartitionStarts();
  std::vector<int64_t> source(order.size(), kNoRow);
  std::vector<uint32_t> valid;  // positions of non-NULL values in the partition (IGNORE NULLS)
  for (idx_t p = 0; p + 1 < starts.size(); p++) {
    check_interrupt();
    uint32_t ps = starts[p], pe = starts[p + 1];
    if (window.ignore_nulls) {
      valid.clear();
      for (uint32_t pos = ps; pos < pe; pos++) {
        if (value.IsValid(order[pos])) valid.push_back(pos);
      }
    }
    idx_t valid_before = 0;  // valid positions < pos
    for (uint32_t pos = ps; pos < pe; pos++) {
      uint32_t row = order[pos];
      if (window.ignore_nulls) {
        while (valid_before < valid.size() && valid[valid_before] < pos) valid_before++;
      }
      if (!offsets.IsValid(row)) continue;  // a NULL offset gives NULL
      int64_t off = offsets.GetData<int64_t>()[row];
      if (window.kind == WindowKind::LAG) off = -off;  // off: how far forward
      int64_t target = -1;
      if (off == 0) {
        target = pos;
      } else if (!window.ignore_nulls) {
        target = static_cast<int64_t>(pos) + off;
        if (target < ps || target >= pe) target = -1;
      } else {
        bool current_valid = valid_before < valid.size() && valid[valid_before] == pos;
        int64_t index = off > 0 ? static_cast<int64_t>(valid_before + (current_valid ? 1 : 0)) + off - 1
                                : static_cast<int64_t>(valid_before) + off;
        target = index >= 0 && index < static_cast<int64_t>(valid.size()) ? static_cast<int64_t>(valid[index]) : -1;
      }
      source[row] = target >= 0 ? order[target] : (fallback ? kDefault : kNoRow);
    }
  }
  Gather(value, fallback, source, result);
}

// first_value/last_value/nth_value over each row's frame.
void EvaluateValue(const BoundWindow& window, const std::vector<Vector>& inputs, WindowSort& sort, Vector& result,
                   const std::function<void()>& check_interrupt) {
  std::vector<uint32_t> begin, end;
  ComputeFrames(window, inputs, sort, begin, end);
  check_interrupt();
  const Vector& value = inputs[window.arguments[0]];
  const Vector* nth = window.kind == WindowKind::NTH_VALUE ? &inputs[window.arguments[1]] : nullptr;
  const auto& order = sort.Order();
  idx_t n = order.size();
  // With IGNORE NULLS: valid_count[pos] = non-NULL values before pos, and
  // valid_at[k] the position of the k-th, so a frame's first, last or n-th
  // non-NULL value is found without scanning it.
  std::vector<uint32_t> valid_count, valid_at;
  if (window.ignore_nulls) {
    valid_count.resize(n + 1);
    for (idx_t pos = 0; pos < n; pos++) {
      bool v = value.IsValid(order[pos]);
      valid_count[pos + 1] = valid_count[pos] + (v ? 1 : 0);
      if (v) valid_at.push_back(static_cast<uint32_t>(pos));
    }
  }
  std::vector<int64_t> source(n, kNoRow);
  for (idx_t pos = 0; pos < n; pos++) {
    uint32_t row = order[pos];
    uint32_t b = begin[pos], e = end[pos];
    int64_t k = 1;  // which value of the frame: 1 = first
    if (nth) {
      if (!nth->IsValid(row)) continue;
      k = nth->GetData<int64_t>()[row];
      if (k <= 0) throw InvalidInputError("n of " + window.name + " must be greater than 0, not " + std::to_string(k));
    }
    int64_t target = -1;
    if (!window.ignore_nulls) {
      if (window.kind == WindowKind::LAST_VALUE) {
        target = e > b ? static_cast<int64_t>(e) - 1 : -1;
      } else {
        target = static_cast<int64_t>(b) + k - 1 < static_cast<int64_t>(e) ? static_cast<int64_t>(b) + k - 1 : -1;
      }
    } else {
      int64_t first = valid_count[b], last = static_cast<int64_t>(valid_count[e]) - 1;  // indexes into valid_at
      if (window.kind == WindowKind::LAST_VALUE) {
        target = last >= first ? static_cast<int64_t>(valid_at[last]) : -1;
      } else {
        target = first + k - 1 <= last ? static_cast<int64_t>(valid_at[first + k - 1]) : -1;
      }
    }
    if (target >= 0) source[row] = order[target];
  }
  Gather(value, nullptr, source, result);
}

}  // namespace

void EvaluateWindow(const BoundWindow& window, const std::vector<Vector>& inputs, WindowSort& sort, Vector& result,
                    const std::function<void()>& check_interrupt) {
  result.Resize(sort.Count());
  result.SetAllValid(sort.Count());
  switch (window.kind) {
    case WindowKind::ROW_NUMBER:
    case WindowKind::RANK:
    case WindowKind::DENSE_RANK:
    case WindowKind::PERCENT_RANK:
    case WindowKind::CUME_DIST:
    case WindowKind::NTILE: EvaluateRanking(window, inputs, sort, result); return;
    case WindowKind::LAG:
    case WindowKind::LEAD: EvaluateOffset(window, inputs, sort, result, check_interrupt); return;
    case WindowKind::FIRST_VALUE:
    case WindowKind::LAST_VALUE:
    case WindowKind::NTH_VALUE: EvaluateValue(window, inputs, sort, result, check_interrupt); return;
    case WindowKind::AGGREGATE: EvaluateWindowAggregate(window, inputs, sort, result, check_interrupt); return;
  }
}

}  // namespace lakestream
