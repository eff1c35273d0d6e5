// stream_has_data(name): whether the table stream `name` has changes pending
// (stream/stream_reader.hpp StreamHasData). The binder checks the argument,
// a constant naming an existing stream (planner/bind_expression.cpp); the
// stream's log is looked at when the expression first runs in a statement,
// and every row of the statement gets that one answer.
#include <optional>

#include "function/scalar/executor.hpp"
#include "stream/stream_reader.hpp"
#include "transaction/client_context.hpp"

namespace lakestream {
namespace {

BoundScalarFunction BindStreamHasData(const ScalarBindInput& input) {
  if (input.argument_types.size() != 1 || input.argument_types[0].id() != TypeId::VARCHAR || !input.constant_arguments[0] ||
      input.constant_arguments[0]->IsNull()) {
    throw BinderError(SignatureString(input.name, input.argument_types) +
                      ": stream_has_data() takes the stream's name as a string constant, e.g. stream_has_data('orders_stream')");
  }
  std::string stream_name = input.constant_arguments[0]->GetString();
  auto answer = std::make_shared<std::optional<bool>>();
  auto f = Bound({TypeId::VARCHAR}, TypeId::BOOLEAN,
                 [stream_name, answer](DataChunk&, Vector& result, idx_t count, const FunctionContext& ctx) {
                   if (!answer->has_value()) {
                     if (!ctx.client) {
                       throw InternalError("stream_has_data(" + stream_name + ") evaluated outside a statement");
                     }
                     StreamCatalogEntry& stream = ctx.client->GetCatalog().GetStream(stream_name);
                     *answer = StreamHasData(*ctx.client, stream);
                   }
                   auto* out = result.GetData<bool>();
                   for (idx_t i = 0; i < count; i++) out[i] = **answer;
                   result.SetAllValid(count);
                 });
  // Never folded while binding: the answer depends on the stream's log when the statement runs.
  f.deterministic = false;
  return f;
}

}  // namespace

void RegisterStreamFunctions(ScalarFunctionRegistry& registry) { registry.Register("stream_has_data", BindStreamHasData); }

}  // namespace lakestream
