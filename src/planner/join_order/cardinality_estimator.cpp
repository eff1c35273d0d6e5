#include "planner/join_order/cardinality_estimator.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <vector>

#include "storage/data_table.hpp"

namespace lakestream {

// Conjuncts are rarely independent: sorted most selective first, each
// after the first counts half as much as the one before (exponential
// backoff, as DuckDB does), so ten filters do not predict zero rows.
static double Combined(std::vector<double> selectivities) {
  std::sort(selectivities.begin(), selectivities.end());
  double result = 1;
  double exponent = 1;
  for (double s : selectivities) {
    result *= std::pow(std::clamp(s, 0.0, 1.0), exponent);
    exponent /= 2;
  }
  return result;
}

namespace {

// What the filters of one relation are estimated against: its columns'
// distinct counts (RelationEstimate::column_domains).
class FilterEstimator {
 public:
  explicit FilterEstimator(const std::map<ColumnBinding, double>& domains) : domains_(domains) {}

  // Selectivity of the conjunction `conjuncts`.
  double Conjunction(const std::vector<const BoundExpression*>& conjuncts) const {
    std::vector<double> selectivities;
    // Bounds of a range on an integer or date column, combined into one
    // interval (x >= a AND x < b keeps (b - a) / distinct of the rows, where
    // separately each bound would count as a default guess).
    std::map<ColumnBinding, std::pair<std::optional<double>, std::optional<double>>> ranges;
    for (const BoundExpression* e : conjuncts) {
      if (AddRangeBound(*e, ranges)) continue;
      selectivities.push_back(Selectivity(*e));
    }
    for (auto& [binding, bounds] : ranges) {
      auto [low, high] = bounds;
      auto domain = Domain(binding);
      if (low && high && domain) {
        selectivities.push_back(std::clamp((*high - *low + 1) / *domain, 1.0 / *domain, 1.0));
        continue;
      }
      // One-sided: no minimum or maximum to place the bound against.
      selectivities.push_back(kDefaultSelectivity);
    }
    return Combined(std::move(selectivities));
  }

  double Selectivity(const BoundExpression& e) const {
    switch (e.type) {
      case BoundExpressionType::AND: {
        std::vector<const BoundExpression*> children;
        children.reserve(e.children.size());
        for (auto& c : e.children) children.push_back(c.get());
        return Conjunction(children);
      }
      case BoundExpressionType::OR: {
        // Branches as if disjoint (a = 'x' OR a = 'y'), bounded by 1.
        double sum = 0;
        for (auto& c : e.children) sum += Selectivity(*c);
        return std::min(1.0, sum);
      }
      case BoundExpressionType::IN_LIST: {
        auto domain = ColumnDomain(*e.children[0]);
        if (!domain) return kDefaultSelectivity;
        double keep = std::min(1.0, static_cast<double>(e.children.size() - 1) / *domain);
        return e.negated ? 1.0 - keep : keep;
      }
      case BoundExpressionType::FUNCTION: {
        const std::string& name = e.function.name;
        if (e.children.size() == 2 && e.children[1]->IsConstant() && !e.children[1]->value.IsNull() &&
            (name == "like" || name == "ilike" || name == "not_like" || name == "not_ilike")) {
          double keep = LikeSelectivity(e.children[1]->value.ToString());
          return name.rfind("not_", 0) == 0 ? 1.0 - keep : keep;
        }
        if (e.children.size() != 2 || (name != "=" && name != "<>")) break;
        const BoundExpression* column = e.children[0]->IsConstant() ? e.children[1].get() : e.children[0].get();
        if (!e.children[0]->IsConstant() && !e.children[1]->IsConstant()) break;
        auto domain = ColumnDomain(*column);
        if (!domain) break;
        return e.function.name == "=" ? 1.0 / *domain : 1.0 - 1.0 / *domain;
      }
      default: break;
    }
    return kDefaultSelectivity;
  }

 private:
  static const BoundExpression* Column(const BoundExpression& e) {
    const BoundExpression* x = &e;
    while (x->type == BoundExpressionType::CAST && x->children.size() == 1) x = x->children[0].get();
    return x->type == BoundExpressionType::COLUMN_REF ? x : nullptr;
  }

  std::optional<double> Domain(const ColumnBinding& binding) const {
    auto it = domains_.find(binding);
    if (it == domains_.end()) return std::nullopt;
    return std::max(1.0, it->second);
  }

  std::optional<double> ColumnDomain(const BoundExpression& e) const {
    const BoundExpression* column = Column(e);
    if (!column) return std::nullopt;
    return Domain(column->binding);
  }

  // A LIKE pattern's selectivity: each literal character narrows it (as in
  // PostgreSQL's pattern estimate, though a third as steeply: words repeat
  // in text), so '%green%' keeps about 7% and a long pattern almost nothing.
  static double LikeSelectivity(const std::string& pattern) {
    idx_t literal = 0;
    for (char c : pattern) literal += c != '%' && c != '_';
    return std::max(0.001, std::pow(kDefaultSelectivity, static_cast<double>(literal) / 3.0));
  }

  // The integer a constant stands for on an integer or date column.
  static std::optional<double> Point(const Value& v) {
    if (v.IsNull()) return std::nullopt;
    switch (v.type().id()) {
      case TypeId::INTEGER: return v.GetInteger();
      case TypeId::BIGINT: return static_cast<double>(v.GetBigint());
      case TypeId::DATE: return v.GetDate();
      default: return std::nullopt;
    }
  }

  // `e` as a bound `column <op> constant` of a range on an integer or date
  // column, recorded in `ranges` (the tightest bound wins); false otherwise.
  bool AddRangeBound(const BoundExpression& e,
                     std::map<ColumnBinding, std::pair<std::optional<double>, std::optional<double>>>& ranges) const {
    if (e.type != BoundExpressionType::FUNCTION || e.children.size() != 2) return false;
    const std::string& op = e.function.name;
    if (op != "<" && op != "<=" && op != ">" && op != ">=") return false;
    bool constant_right = e.children[1]->IsConstant();
    const BoundExpression& column_side = constant_right ? *e.children[0] : *e.children[1];
    const BoundExpression& constant_side = constant_right ? *e.children[1] : *e.children[0];
    if (!constant_side.IsConstant() || column_side.type != BoundExpressionType::COLUMN_REF) return false;
    TypeId id = column_side.return_type.id();
    if (id != TypeId::INTEGER && id != TypeId::BIGINT && id != TypeId::DATE) return false;
    auto point = Point(constant_side.value);
    if (!point) return false;
    // Normalise to column >= low or column <= high (integers: < b is <= b - 1).
    bool lower = (op == ">" || op == ">=") == constant_right;
    bool strict = op == "<" || op == ">";
    double bound = strict ? (lower ? *point + 1 : *point - 1) : *point;
    auto& range = ranges[column_side.binding];
    if (lower) {
      range.first = range.first ? std::max(*range.first, bound) : bound;
    } else {
      range.second = range.second ? std::min(*range.second, bound) : bound;
    }
    return true;
  }

  const std::map<ColumnBinding, double>& domains_;
};

}  // namespace

// Rows of `rows` that `conjuncts` keep, given the relation's column domains.
static double Filtered(double rows, const std::vector<BoundExprPtr>& conjuncts,
                       const std::map<ColumnBinding, double>& domains) {
  std::vector<const BoundExpression*> list;
  list.reserve(conjuncts.size());
  for (auto& e : conjuncts) list.push_back(e.get());
  return std::max(1.0, rows * FilterEstimator(domains).Conjunction(list));
}

static RelationEstimate Same(double rows) {
  rows = std::max(1.0, rows);
  return {rows, rows, {}, {}};
}

static void CollectColumns(const BoundExpression& e, std::set<ColumnBinding>& columns) {
  if (e.type == BoundExpressionType::COLUMN_REF) columns.insert(e.binding);
  for (auto& c : e.children) CollectColumns(*c, columns);
}

std::optional<double> KnownDomain(const RelationEstimate& estimate, const ColumnBinding& column) {
  auto known = estimate.column_domains.find(column);
  if (known != estimate.column_domains.end()) return known->second;
  auto table = estimate.tables.find(column.table_index);
  if (table == estimate.tables.end() || !table->second.first) return std::nullopt;
  auto distinct = table->second.first->EstimatedDistinctCount(column.column_index);
  if (!distinct) return std::nullopt;
  return std::max(1.0, std::min(*distinct, table->second.second));
}

RelationEstimate EstimateRelation(const LogicalOperator& op) {
  switch (op.type) {
    case LogicalOperatorType::GET: {
      double rows = kUnknownCardinality;
      if (op.storage) {
        if (auto count = op.storage->EstimatedRowCount()) rows = static_cast<double>(*count);
      }
      rows = std::max(1.0, rows);
      RelationEstimate estimate{rows, rows, {}, {}};
      if (op.storage) {
        estimate.tables[op.table_index] = {op.storage, rows};
        // Only the filtered columns now; join and group columns when asked.
        std::set<ColumnBinding> filtered;
        for (auto& f : op.table_filters) CollectColumns(*f, filtered);
        for (const ColumnBinding& column : filtered) {
          if (auto distinct = KnownDomain(estimate, column)) estimate.column_domains[column] = *distinct;
        }
      }
      estimate.cardinality = Filtered(rows, op.table_filters, estimate.column_domains);
      return estimate;
    }
    case LogicalOperatorType::CHUNK_GET:
      if (op.materialized && op.materialized->plan) return Same(EstimateRelation(*op.materialized->plan).cardinality);
      if (op.materialized && op.materialized->estimated_rows >= 0) return Same(op.materialized->estimated_rows);
      return Same(static_cast<double>(op.value_rows.empty() ? op.collection->Count() : op.value_rows.size()));
    case LogicalOperatorType::SOURCE:
    case LogicalOperatorType::STREAM_GET: return Same(kUnknownCardinality);
    case LogicalOperatorType::FILTER: {
      RelationEstimate child = EstimateRelation(*op.children[0]);
      child.cardinality = Filtered(child.cardinality, op.expressions, child.column_domains);
      return child;
    }
    case LogicalOperatorType::PROJECTION:
    case LogicalOperatorType::WINDOW:  // one output row per input row
    case LogicalOperatorType::ORDER: return EstimateRelation(*op.children[0]);
    // Unnesting multiplies by list lengths the estimator cannot see, and a
    // recursive CTE's size is known only once it has run.
    case LogicalOperatorType::UNNEST:
    case LogicalOperatorType::RECURSIVE_CTE: return Same(kUnknownCardinality);
    case LogicalOperatorType::LIMIT: {
      RelationEstimate child = EstimateRelation(*op.children[0]);
      if (op.limit >= 0 && !op.limit_expression) child.cardinality = std::min(child.cardinality, std::max(1.0, static_cast<double>(op.limit)));
      return child;
    }
    case LogicalOperatorType::AGGREGATE: {
      if (op.expressions.empty()) return Same(1);
      // At most one group per row, and per combination of the group
      // columns' distinct values when the statistics know them all.
      RelationEstimate child = EstimateRelation(*op.children[0]);
      RelationEstimate groups = Same(child.cardinality);
      double combinations = 1;
      bool known = op.grouping_sets.empty();
      for (idx_t i = 0; i < op.expressions.size(); i++) {
        const BoundExpression& e = *op.expressions[i];
        std::optional<double> domain;
        if (e.type == BoundExpressionType::COLUMN_REF) domain = KnownDomain(child, e.binding);
        if (!domain) {
          known = false;
          continue;
        }
        combinations *= *domain;
        groups.column_domains[{op.table_index, i}] = std::min(*domain, child.cardinality);
      }
      if (known) groups.cardinality = std::max(1.0, std::min(child.cardinality, combinations));
      return groups;
    }
    case LogicalOperatorType::UNION: {
      double rows = 0;
      for (auto& c : op.children) rows += EstimateRelation(*c).cardinality;
      return Same(rows);
    }
    case LogicalOperatorType::SET_OPERATION: return Same(EstimateRelation(*op.children[0]).cardinality);
    case LogicalOperatorType::JOIN: {
      RelationEstimate left = EstimateRelation(*op.children[0]);
      RelationEstimate right = EstimateRelation(*op.children[1]);
      switch (op.join_type) {
        // A semi join keeps left rows, at most one per right row's key
        // when the right side is the smaller (TPC-H Q20's partsupp rows of
        // 'forest%' parts); the left's column domains still bound its keys.
        case LogicalJoinType::SEMI:
          left.cardinality = std::max(1.0, std::min(left.cardinality, right.cardinality));
          return left;
        // These keep every left row once (ANTI: at most).
        case LogicalJoinType::ANTI:
        case LogicalJoinType::MARK:
        case LogicalJoinType::SINGLE: return left;
        case LogicalJoinType::INNER:
        case LogicalJoinType::CROSS: {
          // As the join-order optimizer estimates one edge: the product,
          // times the most selective condition's selectivity.
          double selectivity = 1;
          for (auto& e : op.expressions) selectivity = std::min(selectivity, JoinSelectivity(*e, left, right));
          RelationEstimate joined = left;
          joined.cardinality = std::max(1.0, left.cardinality * right.cardinality * selectivity);
          joined.domain = std::max(left.domain, right.domain);
          joined.column_domains.insert(right.column_domains.begin(), right.column_domains.end());
          joined.tables.insert(right.tables.begin(), right.tables.end());
          return joined;
        }
        default:
          // Outer joins: at least the preserved side, bounded by the larger input.
          return Same(std::max(left.cardinality, right.cardinality));
      }
    }
  }
  return Same(kUnknownCardinality);
}

bool IsColumnEquality(const BoundExpression& e) {
  return e.type == BoundExpressionType::FUNCTION && e.function.name == "=" && e.children.size() == 2 &&
         e.children[0]->type == BoundExpressionType::COLUMN_REF && e.children[1]->type == BoundExpressionType::COLUMN_REF;
}

// The distinct values assumed for `column`, a column of relation a or b.
static double ColumnDomain(const BoundExpression& column, const RelationEstimate& a, const RelationEstimate& b) {
  for (const RelationEstimate* side : {&a, &b}) {
    if (auto domain = KnownDomain(*side, column.binding)) return *domain;
  }
  return std::max(a.domain, b.domain);
}

double JoinSelectivity(const BoundExpression& predicate, const RelationEstimate& a, const RelationEstimate& b) {
  if (IsColumnEquality(predicate)) {
    double left = ColumnDomain(*predicate.children[0], a, b);
    double right = ColumnDomain(*predicate.children[1], a, b);
    return 1.0 / std::max({left, right, 1.0});
  }
  if (predicate.type == BoundExpressionType::FUNCTION && predicate.function.name == "=") {
    // An equality of expressions (a.x + 1 = b.y): still a key match, if less sure.
    return std::max(1.0 / std::max({a.domain, b.domain, 1.0}), 1.0 / std::max(a.cardinality, b.cardinality));
  }
  return kDefaultSelectivity;
}

}  // namespace lakestream
