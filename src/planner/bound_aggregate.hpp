// An aggregate call as the binder resolves it: which aggregate kernel, over
// which argument. The logical plan's AGGREGATE node holds these; the hash
// aggregate (execution) and the view maintainers (ivm) evaluate them.
#pragma once

#include <vector>

#include "expression/bound_expression.hpp"
#include "function/aggregate_function.hpp"

namespace lakestream {

struct BoundAggregate {
  BoundAggregate() = default;
  BoundAggregate(AggregateSignature signature_p, BoundExprPtr argument_p)
      : signature(std::move(signature_p)), argument(std::move(argument_p)) {}

  AggregateSignature signature;
  BoundExprPtr argument;  // null for count(*) and grouping()
  BoundExprPtr second;    // max_by(x, y)/min_by(x, y): y; null otherwise
  // FILTER (WHERE ...): only rows where it is TRUE reach the aggregate.
  BoundExprPtr filter;
  // ORDER BY inside the call (or WITHIN GROUP), for order-sensitive aggregates.
  std::vector<BoundExprPtr> order_keys;
  std::vector<AggregateOrderKey> order;
  // grouping(a, b)/grouping_id(...): the GROUP BY positions of the arguments;
  // bit i (from the most significant) is 1 when argument i is not grouped.
  std::vector<idx_t> grouping_columns;

  // Every expression the aggregate evaluates, for passes that resolve or
  // collect column references.
  std::vector<BoundExprPtr*> Expressions() {
    std::vector<BoundExprPtr*> all;
    for (BoundExprPtr* e : {&argument, &second, &filter}) {
      if (*e) all.push_back(e);
    }
    for (auto& k : order_keys) all.push_back(&k);
    return all;
  }
  std::vector<const BoundExpression*> Expressions() const {
    std::vector<const BoundExpression*> all;
    for (auto* e : const_cast<BoundAggregate*>(this)->Expressions()) all.push_back(e->get());
    return all;
  }
};

}  // namespace lakestream
