#include "pipeline/pipeline_graph.hpp"

#include "parser/expectations.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "parser/lexer.hpp"
#include "parser/parser.hpp"
#include "parser/table_ref_visitor.hpp"

namespace lakestream {

const char* FlowKindName(FlowKind kind) {
  switch (kind) {
    case FlowKind::STREAMING_TABLE: return "streaming table";
    case FlowKind::MATERIALIZED_VIEW: return "materialized view";
    case FlowKind::SINK: return "sink";
    case FlowKind::TABLE: return "table";
    case FlowKind::STREAM: return "stream";
    case FlowKind::VIEW: return "view";
    case FlowKind::FLOW: return "flow";
    case FlowKind::APPLY_CHANGES: return "apply changes";
  }
  return "flow";
}

namespace {

// A dataset's name as the pipeline's flows know it: LIVE.x, main.x and x are
// one dataset x; s.x (and catalog.s.x) is s.x. The catalog resolves it when the
// statement runs (transaction/name_resolution.hpp); this only orders the flows.
std::vector<std::string> DatasetParts(const QualifiedName& name) {
  std::vector<std::string> parts = name.parts;
  if (parts.size() == 3) parts.erase(parts.begin());
  if (parts.size() == 2 && (StringUtil::CIEquals(parts[0], "live") || StringUtil::CIEquals(parts[0], "main") ||
                            StringUtil::CIEquals(parts[0], "default") || StringUtil::CIEquals(parts[0], "public"))) {
    parts.erase(parts.begin());
  }
  return parts;
}

std::string DatasetName(const QualifiedName& name) {
  std::string out;
  for (auto& part : DatasetParts(name)) out += (out.empty() ? "" : ".") + part;
  return out;
}

std::string BaseName(const QualifiedName& name) { return StringUtil::Lower(DatasetName(name)); }

// The schema of a dataset declared as s.x, "" for one of main: its query's
// unqualified (and LIVE.) names are of that schema.
std::string DatasetSchema(const QualifiedName& name) {
  std::vector<std::string> parts = DatasetParts(name);
  return parts.size() == 2 ? parts[0] : "";
}

// The datasets a query of a dataset of `schema` reads (table_changes('t', ...) reads t).
void CollectQuery(const QueryNode& node, const std::string& schema, std::vector<std::string>& out) {
  VisitTableRefs(node, [&](const TableRef& ref) {
    if (ref.type == TableRefType::BASE_TABLE) {
      const auto& parts = ref.name.parts;
      bool local = parts.size() == 1 || (parts.size() == 2 && StringUtil::CIEquals(parts[0], "live"));
      out.push_back(local && !schema.empty() ? StringUtil::Lower(schema + "." + parts.back()) : BaseName(ref.name));
      return;
    }
    if (ref.function && StringUtil::CIEquals(ref.function->function_name, "table_changes") &&
        !ref.function->children.empty() && ref.function->children[0]->type == ExpressionType::CONSTANT &&
        ref.function->children[0]->value.type().id() == TypeId::VARCHAR) {
      QualifiedName name;
      const std::string& text = ref.function->children[0]->value.GetString();
      for (size_t start = 0, dot = 0; dot != std::string::npos; start = dot + 1) {
        dot = text.find('.', start);
        name.parts.push_back(text.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
      }
      out.push_back(BaseName(name));
    }
  });
}

bool IsWord(const Token& token, const char* word) {
  return token.type == TokenType::IDENTIFIER && StringUtil::CIEquals(token.text, word);
}

// The statement's text with its first `count` tokens (the declaration's head,
// e.g. CREATE OR REPLACE) replaced by `head`. The head is found with the
// lexer, so comments and spacing before or inside it do not matter.
std::string ReplaceHead(const std::string& text, const std::vector<Token>& tokens, size_t count, const std::string& head) {
  return head + " " + text.substr(tokens[count].offset);
}

// CREATE [OR REPLACE] <view kind> ... -> CREATE OR REFRESH <view kind> ...
std::string AsCreateOrRefresh(const std::string& text) {
  auto tokens = Lexer::Tokenize(text);
  size_t head = tokens.size() > 3 && IsWord(tokens[1], "OR") && IsWord(tokens[2], "REPLACE") ? 3 : 1;
  return ReplaceHead(text, tokens, head, "CREATE OR REFRESH");
}

// CREATE <keywords> name ... -> CREATE <KEYWORDS> IF NOT EXISTS name ..., where
// `keywords` is the object's kind (SINK, TABLE, STREAM, TABLE STREAM); the
// text is unchanged when its head is not exactly that (the parser accepted
// another form, which then runs as written).
std::string AsCreateIfNotExists(const std::string& text, const std::vector<const char*>& keywords) {
  auto tokens = Lexer::Tokenize(text);
  if (tokens.size() < keywords.size() + 2 || !IsWord(tokens[0], "CREATE")) return text;
  std::string head = "CREATE";
  for (size_t i = 0; i < keywords.size(); i++) {
    if (!IsWord(tokens[i + 1], keywords[i])) return text;
    head += std::string(" ") + keywords[i];
  }
  return ReplaceHead(text, tokens, keywords.size() + 1, head + " IF NOT EXISTS");
}

// CREATE [OR ...] [TEMPORARY] [LIVE] VIEW name ... -> CREATE OR REPLACE VIEW name ...
std::string AsCreateViewOrReplace(const std::string& text) {
  auto tokens = Lexer::Tokenize(text);
  size_t view = 0;
  while (view < tokens.size() && !IsWord(tokens[view], "VIEW")) view++;
  if (view + 1 >= tokens.size()) return text;
  return ReplaceHead(text, tokens, view + 1, "CREATE OR REPLACE VIEW");
}

uint32_t LineOf(const std::string& sql, uint32_t offset) {
  uint32_t line = 1;
  for (uint32_t i = 0; i < offset && i < sql.size(); i++) line += sql[i] == '\n';
  // The statement starts at the first non-blank character after `offset`.
  for (uint32_t i = offset; i < sql.size() && (sql[i] == ' ' || sql[i] == '\n' || sql[i] == '\t' || sql[i] == '\r'); i++) {
    line += sql[i] == '\n';
  }
  return line;
}

// APPLY CHANGES INTO t (or CREATE FLOW f AS AUTO CDC INTO t) joins the
// declaration of t (a streaming table without a query): the flow runs the
// declaration, then the statement, and reads the source.
void JoinApplyChanges(const ApplyChangesStatement& cdc, uint32_t line, const std::string& file, std::vector<Flow>& flows,
                      std::map<std::string, idx_t>& by_name) {
  std::string at = file + " line " + std::to_string(line) + ": ";
  std::string target = cdc.target.Name();
  auto it = by_name.find(StringUtil::Lower(target));
  if (it == by_name.end()) {
    throw InvalidInputError(at + "APPLY CHANGES INTO " + target + " needs its target declared in the pipeline; add "
                            "CREATE OR REFRESH STREAMING TABLE " + target + ";");
  }
  Flow& flow = flows[it->second];
  if (flow.kind == FlowKind::APPLY_CHANGES) {
    throw InvalidInputError(at + target + " already has an APPLY CHANGES flow (line " + std::to_string(flow.line) +
                            "); one flow per target");
  }
  auto declared = Parser::Parse(flow.statements.front());
  auto* view = declared.size() == 1 && declared[0]->type == StatementType::CREATE_VIEW
                   ? static_cast<CreateViewStatement*>(declared[0].get())
                   : nullptr;
  if (flow.kind != FlowKind::STREAMING_TABLE || !view || view->query) {
    throw InvalidInputError(at + "APPLY CHANGES INTO " + target + ": " + target + " (line " + std::to_string(flow.line) +
                            ") must be a streaming table declared without a query (CREATE OR REFRESH STREAMING TABLE " +
                            target + ";), since the flow writes its rows");
  }
  if (!cdc.flow_name.empty() && !StringUtil::CIEquals(cdc.flow_name, target) && by_name.count(StringUtil::Lower(cdc.flow_name))) {
    throw InvalidInputError(at + "flow " + cdc.flow_name + " has the name of another dataset of the pipeline; rename it");
  }
  flow.kind = FlowKind::APPLY_CHANGES;
  flow.statements.push_back(cdc.text);
  flow.inputs.push_back(BaseName(cdc.source));
}

// The dataset a flow writes: a CREATE FLOW's target, any other flow's own name.
std::string Written(const Flow& flow) { return flow.kind == FlowKind::FLOW ? flow.target : StringUtil::Lower(flow.name); }

// Rows must not flow back into where they came from: a dataset that reads
// itself, directly (a flow that reads its own target, STREAM(t) into t) or
// through other flows, would get its own rows again on every run. Checked
// on the datasets, not the flows: two CREATE FLOWs into t and u, one reading
// u and the other t, form a cycle although neither flow reads the other.
// Throws InvalidInputError naming the cycle and the flow of each step.
void CheckDataCycles(const std::vector<Flow>& flows, const std::map<std::string, idx_t>& by_name, const std::string& file) {
  struct Edge {
    std::string to;     // the dataset read
    const Flow* flow;   // the flow that reads it and writes the edge's source
  };
  std::map<std::string, std::vector<Edge>> reads;  // dataset -> what its writers read
  for (auto& f : flows) {
    for (auto& input : f.inputs) {
      if (by_name.count(input)) reads[Written(f)].push_back({input, &f});
    }
  }
  auto shown = [&](const std::string& dataset) {
    auto it = by_name.find(dataset);
    return it == by_name.end() ? dataset : flows[it->second].name;
  };
  std::map<std::string, int> color;
  std::vector<std::string> stack;  // the datasets being visited, in the order entered
  std::vector<const Edge*> taken;  // taken[i]: the edge from stack[i] to stack[i + 1]
  std::function<void(const std::string&)> visit = [&](const std::string& dataset) {
    color[dataset] = 1;
    stack.push_back(dataset);
    for (auto& edge : reads[dataset]) {
      if (color[edge.to] == 1) {
        auto start = static_cast<size_t>(std::find(stack.begin(), stack.end(), edge.to) - stack.begin());
        std::string cycle, steps;
        for (size_t i = start; i < stack.size(); i++) {
          const Edge& step = i + 1 < stack.size() ? *taken[i] : edge;
          cycle += shown(stack[i]) + " -> ";
          steps += std::string(steps.empty() ? "" : "; ") + FlowKindName(step.flow->kind) + " " + step.flow->name +
                   " (line " + std::to_string(step.flow->line) + ") writes " + shown(stack[i]) + " from " +
                   shown(step.to);
        }
        throw InvalidInputError(file + ": the pipeline has a cycle: " + cycle + shown(edge.to) + " (" + steps +
                                "). Each run would feed the rows it writes back into " + shown(edge.to) +
                                " (a streaming read appends them again every time); read another dataset, or break "
                                "the cycle");
      }
      if (color[edge.to] == 2) continue;
      taken.push_back(&edge);
      visit(edge.to);
      taken.pop_back();
    }
    stack.pop_back();
    color[dataset] = 2;
  };
  for (auto& f : flows) visit(Written(f));
}

}  // namespace

std::vector<Flow> PlanPipeline(const std::string& sql, const std::string& file) {
  auto statements = Parser::Parse(sql);
  std::vector<Flow> flows;
  std::map<std::string, idx_t> by_name;
  std::map<std::string, uint32_t> declared_only;  // streaming tables without a query -> line
  std::vector<std::pair<const ApplyChangesStatement*, uint32_t>> cdc_flows;  // joined to their targets below
  for (auto& statement : statements) {
    Flow flow;
    flow.line = LineOf(sql, statement->location);
    const std::string& text = statement->text;
    switch (statement->type) {
      case StatementType::APPLY_CHANGES:
        cdc_flows.emplace_back(static_cast<const ApplyChangesStatement*>(statement.get()), flow.line);
        continue;
      case StatementType::CREATE_VIEW: {
        auto& view = static_cast<CreateViewStatement&>(*statement);
        flow.name = DatasetName(view.name);
        flow.schema = DatasetSchema(view.name);
        if (view.query) CollectQuery(*view.query, DatasetSchema(view.name), flow.inputs);
        if (view.kind == ViewKind::VIEW) {
          // [TEMPORARY] LIVE VIEW and CREATE VIEW: a plain view, replaced each
          // pass. It is stored (not a temporary view of the run's session) so
          // that materialized views defined over it refresh outside a run too.
          flow.kind = FlowKind::VIEW;
          flow.definition = view.query_text;
          flow.statements.push_back(AsCreateViewOrReplace(text));
          break;
        }
        flow.kind = view.kind == ViewKind::STREAMING_TABLE ? FlowKind::STREAMING_TABLE : FlowKind::MATERIALIZED_VIEW;
        // A view with expectations runs its declaration every pass, which
        // checks them; without, REFRESH while the definition is unchanged.
        if (flow.kind == FlowKind::MATERIALIZED_VIEW && view.expectations.empty()) flow.definition = view.query_text;
        if (!view.query) declared_only[StringUtil::Lower(flow.name)] = flow.line;
        // Each run refreshes: CREATE [OR REPLACE] X -> CREATE OR REFRESH X.
        flow.statements.push_back(view.or_refresh ? text : AsCreateOrRefresh(text));
        break;
      }
      case StatementType::CREATE_FLOW: {
        auto& create = static_cast<CreateFlowStatement&>(*statement);
        flow.name = create.name;
        flow.kind = FlowKind::FLOW;
        flow.target = BaseName(create.target);
        // Its query's inputs only; the target is added as an input (to run
        // after the target's declaration) once data cycles were checked.
        if (create.query) CollectQuery(*create.query, DatasetSchema(create.target), flow.inputs);
        flow.statements.push_back(text);
        break;
      }
      case StatementType::CREATE_SINK: {
        auto& sink = static_cast<CreateSinkStatement&>(*statement);
        flow.name = DatasetName(sink.name);
        flow.schema = DatasetSchema(sink.name);
        flow.kind = FlowKind::SINK;
        flow.inputs.push_back(BaseName(sink.source));
        flow.statements.push_back(sink.if_not_exists || sink.or_replace
                                      ? text
                                      : AsCreateIfNotExists(text, {"SINK"}));
        flow.statements.push_back("RUN SINK " + flow.name);
        break;
      }
      case StatementType::CREATE_TABLE: {
        auto& table = static_cast<CreateTableStatement&>(*statement);
        flow.name = DatasetName(table.name);
        flow.schema = DatasetSchema(table.name);
        flow.kind = FlowKind::TABLE;
        if (table.as_query) CollectQuery(*table.as_query, "", flow.inputs);  // CTAS reads in the current schema
        flow.statements.push_back(table.if_not_exists || table.or_replace
                                      ? text
                                      : AsCreateIfNotExists(text, {"TABLE"}));
        break;
      }
      case StatementType::CREATE_STREAM: {
        auto& stream = static_cast<CreateStreamStatement&>(*statement);
        flow.name = DatasetName(stream.name);
        flow.schema = DatasetSchema(stream.name);
        flow.kind = FlowKind::STREAM;
        flow.inputs.push_back(BaseName(stream.table));
        std::string as_written = text;
        if (!stream.if_not_exists && !stream.or_replace) {
          as_written = AsCreateIfNotExists(text, {"STREAM"});
          if (as_written == text) as_written = AsCreateIfNotExists(text, {"TABLE", "STREAM"});
        }
        flow.statements.push_back(as_written);
        break;
      }
      default:
        throw InvalidInputError(file + " line " + std::to_string(flow.line) +
                                ": a pipeline holds declarations only (CREATE [OR REFRESH] STREAMING TABLE, MATERIALIZED "
                                "VIEW or LIVE TABLE, CREATE [TEMPORARY] LIVE VIEW, CREATE FLOW, CREATE SINK, CREATE TABLE, "
                                "CREATE STREAM, and SET key = value for parameters); run other statements with "
                                "lakestream -c or -f");
    }
    std::string key = StringUtil::Lower(flow.name);
    if (by_name.count(key)) {
      throw InvalidInputError(file + " line " + std::to_string(flow.line) + ": " + flow.name + " is declared twice (first on line " +
                              std::to_string(flows[by_name[key]].line) + "); give one of them another name");
    }
    // A flow does not depend on itself (a view named like its source is a cycle, caught below).
    std::sort(flow.inputs.begin(), flow.inputs.end());
    flow.inputs.erase(std::unique(flow.inputs.begin(), flow.inputs.end()), flow.inputs.end());
    by_name[key] = flows.size();
    flows.push_back(std::move(flow));
  }
  for (auto& [cdc, line] : cdc_flows) JoinApplyChanges(*cdc, line, file, flows, by_name);
  CheckDataCycles(flows, by_name, file);
  for (auto& f : flows) {
    // After the target's declaration, which the flow needs to create it.
    if (f.kind == FlowKind::FLOW) f.inputs.push_back(f.target);
  }
  // Readers of a flow target run after every flow into it.
  std::map<std::string, std::vector<std::string>> flows_into;
  for (auto& f : flows) {
    if (f.kind == FlowKind::FLOW) flows_into[f.target].push_back(StringUtil::Lower(f.name));
  }
  for (auto& [name, line] : declared_only) {
    if (flows_into.count(name) || flows[by_name[name]].kind == FlowKind::APPLY_CHANGES) continue;
    const std::string& shown = flows[by_name[name]].name;
    throw InvalidInputError(file + " line " + std::to_string(line) + ": streaming table " + shown +
                            " has no query and no flow writes into it; give it one (AS SELECT ...) or add CREATE FLOW "
                            "name AS INSERT INTO " + shown + " BY NAME SELECT ...");
  }
  for (auto& f : flows) {
    if (f.kind == FlowKind::FLOW) continue;
    std::vector<std::string> extra;
    for (auto& input : f.inputs) {
      auto it = flows_into.find(input);
      if (it != flows_into.end() && input != StringUtil::Lower(f.name)) extra.insert(extra.end(), it->second.begin(), it->second.end());
    }
    f.inputs.insert(f.inputs.end(), extra.begin(), extra.end());
  }
  // Depth-first topological sort in file order; a grey node reached again is a cycle.
  std::vector<int> color(flows.size(), 0);
  std::vector<idx_t> order, path;
  std::function<void(idx_t)> visit = [&](idx_t i) {
    if (color[i] == 2) return;
    if (color[i] == 1) {
      auto start = std::find(path.begin(), path.end(), i);
      std::string cycle;
      for (auto it = start; it != path.end(); ++it) cycle += flows[*it].name + " -> ";
      throw InvalidInputError(file + ": the pipeline has a cycle: " + cycle + flows[i].name +
                              "; a dataset cannot read itself through other flows. Break the cycle");
    }
    color[i] = 1;
    path.push_back(i);
    for (auto& input : flows[i].inputs) {
      auto it = by_name.find(input);
      if (it != by_name.end()) visit(it->second);
    }
    path.pop_back();
    color[i] = 2;
    order.push_back(i);
  };
  for (idx_t i = 0; i < flows.size(); i++) visit(i);
  std::vector<Flow> sorted;
  sorted.reserve(order.size());
  for (idx_t i : order) sorted.push_back(std::move(flows[i]));
  return sorted;
}

}  // namespace lakestream
