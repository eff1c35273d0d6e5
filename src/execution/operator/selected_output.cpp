#include "execution/operator/selected_output.hpp"

#include "common/exception.hpp"

namespace lakestream {

SelectedOutput* AllowSelectedOutput(PhysicalOperator& op) {
  auto* output = dynamic_cast<SelectedOutput*>(&op);
  if (output) output->AllowSelection();
  return output;
}

bool EvaluateOnSelection(DataChunk& input, ChunkSelection& selection, const std::function<void()>& evaluate) {
  if (!selection.rows) {
    evaluate();
    return false;
  }
  try {
    evaluate();
    return false;
  } catch (const Exception& e) {
    if (e.Type() == ExceptionType::INTERRUPT) throw;
  }
  CutToSelection(input, selection);
  evaluate();
  return true;
}

bool CutToSelection(DataChunk& input, ChunkSelection& selection) {
  if (!selection.rows) return false;
  DataChunk selected;
  selected.Initialize(input.GetTypes(), std::max<idx_t>(selection.count, 1));
  selected.Append(input, selection.rows, selection.count);
  input = std::move(selected);
  selection = ChunkSelection{};
  return true;
}

}  // namespace lakestream
