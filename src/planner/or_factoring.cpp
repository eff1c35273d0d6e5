#include "planner/or_factoring.hpp"

#include <set>

namespace lakestream {

namespace {

// Past this many branches x conjuncts an OR is left as written: factoring
// compares every conjunct of one branch with every other branch's.
constexpr size_t kMaxFactoringWork = 4096;

void SplitBy(BoundExprPtr expr, BoundExpressionType type, std::vector<BoundExprPtr>& out) {
  if (expr->type != type) {
    out.push_back(std::move(expr));
    return;
  }
  for (auto& child : expr->children) SplitBy(std::move(child), type, out);
}

BoundExprPtr Combine(std::vector<BoundExprPtr> parts, BoundExpressionType type) {
  BoundExprPtr result = std::move(parts[0]);
  for (size_t i = 1; i < parts.size(); i++) {
    auto node = std::make_unique<BoundExpression>(type, LogicalType(TypeId::BOOLEAN));
    node->children.push_back(std::move(result));
    node->children.push_back(std::move(parts[i]));
    result = std::move(node);
  }
  return result;
}

// The OR of the branches, each the AND of its conjuncts.
BoundExprPtr CombineBranches(std::vector<std::vector<BoundExprPtr>> branches) {
  std::vector<BoundExprPtr> ands;
  ands.reserve(branches.size());
  for (auto& branch : branches) ands.push_back(Combine(std::move(branch), BoundExpressionType::AND));
  return Combine(std::move(ands), BoundExpressionType::OR);
}

// Index of an expression equal to `e` in `list`, or list.size().
size_t Find(const std::vector<BoundExprPtr>& list, const BoundExpression& e) {
  for (size_t i = 0; i < list.size(); i++) {
    if (list[i] && list[i]->Equals(e)) return i;
  }
  return list.size();
}

bool IsIntegralWidth(TypeId id) { return id == TypeId::INTEGER || id == TypeId::BIGINT; }

// Digits left of the decimal point that `type` holds exactly (integers: all).
int IntegerDigits(const LogicalType& type) {
  if (type.id() == TypeId::INTEGER) return 10;
  if (type.id() == TypeId::BIGINT) return 19;
  if (type.id() == TypeId::DECIMAL) return type.width() - type.scale();
  return -1;
}

bool CastCannotFail(const LogicalType& from, const LogicalType& to) {
  if (from == to) return true;
  if (!from.IsNumeric() || !to.IsNumeric()) return false;
  if (to.id() == TypeId::DOUBLE) return true;
  if (from.id() == TypeId::DOUBLE) return false;
  if (IsIntegralWidth(to.id())) return IsIntegralWidth(from.id()) && IntegerDigits(from) <= IntegerDigits(to);
  // to DECIMAL: every integer digit fits and no fractional digit is cut.
  int from_scale = from.id() == TypeId::DECIMAL ? from.scale() : 0;
  return IntegerDigits(from) <= IntegerDigits(to) && from_scale <= to.scale();
}

bool CannotFail(const BoundExpression& e) {
  switch (e.type) {
    case BoundExpressionType::CONSTANT:
    case BoundExpressionType::COLUMN_REF:
      return true;
    case BoundExpressionType::AND:
    case BoundExpressionType::OR:
    case BoundExpressionType::NOT:
    case BoundExpressionType::IS_NULL:
    case BoundExpressionType::IS_NOT_NULL:
    case BoundExpressionType::IN_LIST:
      break;
    case BoundExpressionType::CAST:
      if (!e.try_cast && !CastCannotFail(e.children[0]->return_type, e.return_type)) return false;
      break;
    case BoundExpressionType::FUNCTION: {
      static const std::set<std::string> kSafe = {"=", "<>", "!=", "<", "<=", ">", ">=", "like", "not_like", "ilike",
                                                  "not_ilike", "is_distinct_from", "is_not_distinct_from"};
      if (!e.function.deterministic || !kSafe.count(e.function.name)) return false;
      break;
    }
    default:
      return false;
  }
  for (auto& c : e.children) {
    if (!CannotFail(*c)) return false;
  }
  return true;
}

// For each table restricted by every branch alone, the OR of the branches'
// restrictions of it (appended to `out` unless already in `existing`).
void DeriveTableRestrictions(const std::vector<std::vector<BoundExprPtr>>& branches,
                             const std::vector<BoundExprPtr>& existing, std::vector<BoundExprPtr>& out) {
  std::set<idx_t> all_tables;
  for (auto& branch : branches) {
    for (auto& e : branch) CollectBindingTables(*e, all_tables);
  }
  if (all_tables.size() < 2) return;  // the OR itself already restricts one table
  for (idx_t table : all_tables) {
    std::vector<BoundExprPtr> per_branch;
    for (auto& branch : branches) {
      std::vector<BoundExprPtr> parts;
      for (auto& e : branch) {
        std::set<idx_t> tables;
        CollectBindingTables(*e, tables);
        if (tables.size() == 1 && *tables.begin() == table && CannotFail(*e)) parts.push_back(e->Copy());
      }
      if (parts.empty()) break;  // this branch does not restrict `table`
      per_branch.push_back(Combine(std::move(parts), BoundExpressionType::AND));
    }
    if (per_branch.size() != branches.size()) continue;
    auto derived = Combine(std::move(per_branch), BoundExpressionType::OR);
    if (Find(existing, *derived) == existing.size() && Find(out, *derived) == out.size()) out.push_back(std::move(derived));
  }
}

}  // namespace

void FactorOrConjuncts(std::vector<BoundExprPtr>& conjuncts) {
  std::vector<BoundExprPtr> result;
  for (size_t i = 0; i < conjuncts.size(); i++) {
    if (conjuncts[i]->type != BoundExpressionType::OR) {
      result.push_back(std::move(conjuncts[i]));
      continue;
    }
    std::vector<BoundExprPtr> or_parts;
    SplitBy(std::move(conjuncts[i]), BoundExpressionType::OR, or_parts);
    std::vector<std::vector<BoundExprPtr>> branches(or_parts.size());
    size_t work = 0;
    for (size_t b = 0; b < or_parts.size(); b++) {
      SplitBy(std::move(or_parts[b]), BoundExpressionType::AND, branches[b]);
      work += branches[b].size();
    }
    if (work * branches.size() > kMaxFactoringWork) {
      result.push_back(CombineBranches(std::move(branches)));
      continue;
    }
    // 1. Conjuncts of the first branch found in every other branch.
    std::vector<BoundExprPtr>& first = branches[0];
    for (size_t k = 0; k < first.size();) {
      bool everywhere = true;
      for (size_t b = 1; b < branches.size() && everywhere; b++) everywhere = Find(branches[b], *first[k]) < branches[b].size();
      if (!everywhere) {
        k++;
        continue;
      }
      for (size_t b = 1; b < branches.size(); b++) branches[b].erase(branches[b].begin() + Find(branches[b], *first[k]));
      result.push_back(std::move(first[k]));
      first.erase(first.begin() + k);
    }
    // A branch left empty is TRUE: the OR adds nothing to the common part.
    bool some_branch_true = false;
    for (auto& branch : branches) some_branch_true = some_branch_true || branch.empty();
    if (some_branch_true) continue;
    // 2. Per-table restrictions implied by the OR.
    std::vector<BoundExprPtr> derived;
    DeriveTableRestrictions(branches, conjuncts, derived);
    DeriveTableRestrictions(branches, result, derived);
    result.push_back(CombineBranches(std::move(branches)));
    for (auto& d : derived) result.push_back(std::move(d));
  }
  conjuncts = std::move(result);
}

}  // namespace lakestream
