#include "models/hybrid_expression.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "models/compiled_block.h"
#include "models/expression_json.h"

namespace saltus::models {

const char* const kHybridExpressionHelp = R"(Your own hybrid system (instead of "model"):
  states         ["x", "v", ...]  the state components' names
  parameters     {name: number}  names the expressions may use (any of them can be swept and continued)
  modes          {name: {field, guards}}  in order (the first is the default start mode):
    field        {state: expression} for every state component (or a list in state order): x' = f(x, p, t)
    guards       [{name, h, crossing, to, reset} ...]: an event where the expression h(x, p, t) crosses
                 zero, "falling" (default), "rising" or "either"; then the mode "to" (default: the same)
                 and the reset {state: expression} (components not named keep their value; or a full
                 list in state order). Threshold logic: "transitions": [{when, to, reset} ...] instead
                 of to/reset, the first whose "when" holds is taken; "when" is a comparison "a < b"
                 (<, <=, >, >=) or a list of them that must all hold, decided on values; the last
                 transition has no "when".
  definitions    {name: expression} in order: intermediate quantities (of the states, parameters, t
                 and the definitions before), evaluated once per call, usable in every expression
  Expressions use the states, the parameters, t and pi; + - * / ^, sin cos tan asin acos atan atan2
  sinh cosh tanh exp log sqrt abs min max.)";

namespace {

using namespace expression_json;

Comparison comparison(const Json& value, const std::vector<std::string>& names, const std::string& key) {
  const std::string s = text(value, key);
  // The one comparison operator outside parentheses.
  int depth = 0;
  std::size_t at = std::string::npos, width = 0;
  Comparison c;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(')
      ++depth;
    else if (s[i] == ')')
      --depth;
    else if (depth == 0 && (s[i] == '<' || s[i] == '>')) {
      if (at != std::string::npos) bad(key, "'" + s + "' has more than one comparison");
      at = i;
      const bool equal = i + 1 < s.size() && s[i + 1] == '=';
      width = equal ? 2 : 1;
      c.op = s[i] == '<' ? (equal ? Comparison::Op::kLessEqual : Comparison::Op::kLess)
                         : (equal ? Comparison::Op::kGreaterEqual : Comparison::Op::kGreater);
      i += width - 1;
    }
  }
  if (at == std::string::npos) bad(key, "'" + s + "' is not a comparison a < b (<, <=, >, >=)");
  try {
    c.left = Expression::parse(s.substr(0, at), names);
    c.right = Expression::parse(s.substr(at + width), names);
  } catch (const ExpressionError& e) {
    bad(key, e.what());
  }
  return c;
}

}  // namespace

bool Comparison::holds(const double* values) const {
  const double a = left.evaluate<double>(values), b = right.evaluate<double>(values);
  switch (op) {
    case Op::kLess:
      return a < b;
    case Op::kLessEqual:
      return a <= b;
    case Op::kGreater:
      return a > b;
    default:
      return a >= b;
  }
}

std::vector<std::string> HybridSpec::names() const {
  std::vector<std::string> out = states;
  out.insert(out.end(), parameters.begin(), parameters.end());
  out.push_back("t");
  return out;
}

const HybridSpec::Transition& HybridSpec::transition(int mode, int k, const double* values) const {
  const auto& transitions = modes[mode].guards[k].transitions;
  for (const auto& tr : transitions)
    if (std::all_of(tr.when.begin(), tr.when.end(), [&](const Comparison& c) { return c.holds(values); }))
      return tr;
  return transitions.back();  // unreachable: the last has no condition
}

std::shared_ptr<flow::AutoDiffHybrid<ExpressionHybrid>> make_expression_hybrid(
    const nlohmann::ordered_json& run, CompileReport* report) {
  auto spec = std::make_shared<HybridSpec>();
  const Json& states = run.contains("states") ? run["states"] : Json();
  Names seen;
  spec->states = list_of_names(states, "states", &seen);
  std::vector<double> values;
  parameters(run, &seen, &spec->parameters, &values);
  spec->docs.assign(spec->parameters.size(), "run-file parameter");
  if (!run.contains("modes")) bad("modes", "is missing: give {mode name: {field, guards}}");
  const Json& modes = run["modes"];
  if (!modes.is_object() || modes.empty())
    bad("modes", "must be a non-empty object {mode name: {field, guards}}");
  std::vector<std::string> mode_names;
  for (const auto& [name, m] : modes.items()) mode_names.push_back(name);
  auto mode_index = [&](const Json& value, const std::string& key) {
    const std::string name = text(value, key);
    const auto it = std::find(mode_names.begin(), mode_names.end(), name);
    if (it == mode_names.end()) {
      std::string list;
      for (const auto& m : mode_names) list += (list.empty() ? "" : ", ") + m;
      bad(key, "'" + name + "' is not a mode (known: " + list + ")");
    }
    return static_cast<int>(it - mode_names.begin());
  };
  auto names = spec->names();
  spec->definitions = definitions(run, &names, &seen);
  int index = 0;
  for (const auto& [name, m] : modes.items()) {
    const std::string key = "modes." + name;
    if (!m.is_object()) bad(key, "must be {field, guards}");
    only(m, {"field", "guards"}, key);
    HybridSpec::Mode mode;
    mode.name = name;
    if (!m.contains("field")) bad(key + ".field", "is missing: give x' = f(x, p, t) per state component");
    for (auto& e : per_name(m["field"], spec->states, names, true, key + ".field")) mode.field.push_back(*e);
    const Json guards = m.value("guards", Json::array());
    if (!guards.is_array()) bad(key + ".guards", "must be a list of {name, h, crossing, to, reset}");
    for (std::size_t k = 0; k < guards.size(); ++k) {
      const std::string gkey = key + ".guards[" + std::to_string(k) + "]";
      const Json& g = guards[k];
      if (!g.is_object()) bad(gkey, "must be {name, h, crossing, to, reset}");
      only(g, {"name", "h", "crossing", "to", "reset", "transitions"}, gkey);
      HybridSpec::Guard guard;
      guard.name = g.contains("name") ? text(g["name"], gkey + ".name") : "guard " + std::to_string(k);
      if (!g.contains("h")) bad(gkey + ".h", "is missing: the expression whose zero is the event");
      guard.h = expression(g["h"], names, gkey + ".h");
      if (guard.h.is_constant())
        bad(gkey + ".h", "'" + guard.h.text() + "' depends on nothing: it never crosses zero");
      const std::string crossing =
          g.contains("crossing") ? text(g["crossing"], gkey + ".crossing") : "falling";
      if (crossing == "falling")
        guard.crossing = flow::Crossing::kFalling;
      else if (crossing == "rising")
        guard.crossing = flow::Crossing::kRising;
      else if (crossing == "either")
        guard.crossing = flow::Crossing::kEither;
      else
        bad(gkey + ".crossing", "'" + crossing + "' is not falling, rising or either");
      auto transition = [&](const Json& t, const std::string& tkey) {
        HybridSpec::Transition tr;
        tr.to = t.contains("to") ? mode_index(t["to"], tkey + ".to") : index;
        tr.reset.resize(spec->states.size());
        if (t.contains("reset")) tr.reset = per_name(t["reset"], spec->states, names, false, tkey + ".reset");
        if (t.contains("when")) {
          const Json& when = t["when"];
          if (when.is_array()) {
            if (when.empty()) bad(tkey + ".when", "must name at least one comparison");
            for (std::size_t c = 0; c < when.size(); ++c)
              tr.when.push_back(comparison(when[c], names, tkey + ".when[" + std::to_string(c) + "]"));
          } else {
            tr.when.push_back(comparison(when, names, tkey + ".when"));
          }
        }
        return tr;
      };
      if (g.contains("transitions")) {
        if (g.contains("to") || g.contains("reset"))
          bad(gkey, "give either 'to'/'reset' or 'transitions', not both");
        const Json& list = g["transitions"];
        if (!list.is_array() || list.empty())
          bad(gkey + ".transitions", "must be a non-empty list of {when, to, reset}");
        for (std::size_t j = 0; j < list.size(); ++j) {
          const std::string tkey = gkey + ".transitions[" + std::to_string(j) + "]";
          if (!list[j].is_object()) bad(tkey, "must be {when, to, reset}");
          only(list[j], {"when", "to", "reset"}, tkey);
          guard.transitions.push_back(transition(list[j], tkey));
        }
        if (!guard.transitions.back().when.empty())
          bad(gkey + ".transitions",
              "the last transition must have no 'when' (it is taken when no other holds)");
      } else {
        guard.transitions.push_back(transition(g, gkey));
      }
      mode.guards.push_back(std::move(guard));
    }
    spec->modes.push_back(std::move(mode));
    ++index;
  }
  // Each mode's field and each guard as a block over (x, p, t), the
  // parameters plain (ExpressionHybridT::evaluate), compiled together with
  // the system compiler where there is one (cached by content; a new run
  // file's first run interpreted while they compile in the background),
  // else the register loop: the same values either way.
  const int inputs = static_cast<int>(spec->states.size() + spec->parameters.size()) + 1;
  std::vector<bool> plain(inputs, false);
  for (std::size_t i = 0; i < spec->parameters.size(); ++i) plain[spec->states.size() + i] = true;
  std::vector<ExpressionBlock*> blocks;
  for (auto& mode : spec->modes) {
    std::vector<const Expression*> rates;
    for (const auto& e : mode.field) rates.push_back(&e);
    mode.field_block = ExpressionBlock(inputs, spec->definitions, rates, plain);
    blocks.push_back(&mode.field_block);
    for (auto& guard : mode.guards) {
      guard.h_block =
          ExpressionBlock(inputs, spec->definitions, std::vector<const Expression*>{&guard.h}, plain);
      blocks.push_back(&guard.h_block);
    }
  }
  CompileReport compiled = compile_blocks(blocks);
  if (report) *report = std::move(compiled);
  ExpressionHybrid model{spec, values};
  return flow::make_hybrid(std::move(model));
}

}  // namespace saltus::models
