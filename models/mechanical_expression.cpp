#include "models/mechanical_expression.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/compiled_block.h"
#include "models/expression_json.h"

namespace saltus::models {

const char* const kMechanicalExpressionHelp = R"(Your own mechanical system (instead of "model"):
  coordinates    ["q1", "q2", ...]  generalized coordinates; their velocities are named q1_dot, ...
  parameters     {name: number}
  mass           M(q, t): a list of n rows of n expressions, or a list of n (diagonal)
  forces         f(q, q', t): {coordinate: expression} or a list of n, so that M q'' = f
  constraints    [{name, h, restitution} ...]: unilateral constraints h(q, t) >= 0 (no velocities);
                 restitution a number in [0, 1] or a parameter's name (then decided on as a number)
  stick_velocity rebound speed below which contact becomes permanent (default 1e-6)
  definitions    {name: expression} in order: intermediate quantities (of q, q', the parameters, t and
                 the definitions before), evaluated once per call and usable in every expression
                 (the mass matrix and constraints only through ones free of velocities)
  State: the coordinates, then their velocities; modes: "free" and one per set of constraints in
  contact ("contact wall", "contact 1 2", ...). Impacts follow the generalized Newton law and
  motion along active constraints the index-1 DAE (continuation/flow/mechanical.h).
  Speed: the expressions are compiled once with the C++ compiler that built saltus and cached by
  content (in $SALTUS_CACHE_DIR, else ~/.cache/saltus), in the background: the first run of new
  expressions does not wait for it and is interpreted (SALTUS_COMPILE=wait: it waits); without a
  compiler, or with SALTUS_COMPILE=0, they are interpreted; the results are the same bit for bit
  either way, and summary.json's "expressions" says which ran (models/compiled_block.h).)";

namespace {

using namespace expression_json;

// Per value of (q, q', p, t, definitions): whether it depends on a
// velocity, or on a coordinate.
std::vector<bool> velocity_flags(const MechanicalSpec& spec) {
  const int n = static_cast<int>(spec.coordinates.size());
  std::vector<bool> flags(2 * n + spec.parameters.size() + 1, false);
  for (int i = n; i < 2 * n; ++i) flags[i] = true;
  return spec.definitions.depends(flags);
}
std::vector<bool> coordinate_flags(const MechanicalSpec& spec) {
  const int n = static_cast<int>(spec.coordinates.size());
  std::vector<bool> flags(2 * n + spec.parameters.size() + 1, false);
  for (int i = 0; i < n; ++i) flags[i] = true;
  return spec.definitions.depends(flags);
}

}  // namespace

std::vector<std::string> MechanicalSpec::names() const {
  std::vector<std::string> out = coordinates;
  for (const auto& q : coordinates) out.push_back(q + "_dot");
  out.insert(out.end(), parameters.begin(), parameters.end());
  out.push_back("t");
  return out;
}

std::shared_ptr<flow::AutoDiffHybrid<flow::Mechanical<ExpressionMechanical>>> make_expression_mechanical(
    const nlohmann::ordered_json& run, CompileReport* report) {
  auto spec = std::make_shared<MechanicalSpec>();
  Names seen;
  spec->coordinates =
      list_of_names(run.contains("coordinates") ? run["coordinates"] : Json(), "coordinates", &seen);
  for (const auto& q : spec->coordinates) seen.add(q + "_dot", "coordinates (velocity of " + q + ")");
  std::vector<double> values;
  parameters(run, &seen, &spec->parameters, &values);
  spec->docs.assign(spec->parameters.size(), "run-file parameter");
  spec->decided.assign(spec->parameters.size(), false);
  const int n = static_cast<int>(spec->coordinates.size());
  auto names = spec->names();
  spec->definitions = definitions(run, &names, &seen);
  const auto velocity = velocity_flags(*spec), coordinate = coordinate_flags(*spec);

  if (!run.contains("mass")) bad("mass", "is missing: give M(q, t), n rows of n expressions or n (diagonal)");
  const Json& mass = run["mass"];
  if (!mass.is_array() || static_cast<int>(mass.size()) != n)
    bad("mass", "must have " + std::to_string(n) + " rows (one per coordinate) or " + std::to_string(n) +
                    " diagonal entries");
  spec->mass.assign(n * n, Expression());
  for (int i = 0; i < n; ++i) {
    const std::string row = "mass[" + std::to_string(i) + "]";
    if (mass[i].is_array()) {
      if (static_cast<int>(mass[i].size()) != n) bad(row, "must have " + std::to_string(n) + " entries");
      for (int j = 0; j < n; ++j)
        spec->mass[n * i + j] = expression(mass[i][j], names, row + "[" + std::to_string(j) + "]");
    } else {
      spec->mass[n * i + i] = expression(mass[i], names, row);
    }
  }
  spec->symmetric_mass = true;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      if (spec->mass[n * i + j].text() != spec->mass[n * j + i].text()) spec->symmetric_mass = false;
  for (int i = 0; i < n * n; ++i)
    if (reads(spec->mass[i], velocity))
      bad("mass[" + std::to_string(i / n) + "][" + std::to_string(i % n) + "]",
          "'" + spec->mass[i].text() + "' uses a velocity: the mass matrix depends on q and t only");

  if (!run.contains("forces")) bad("forces", "is missing: give f(q, q', t), one per coordinate");
  for (auto& e : per_name(run["forces"], spec->coordinates, names, true, "forces")) spec->force.push_back(*e);

  const Json constraints = run.value("constraints", Json::array());
  if (!constraints.is_array()) bad("constraints", "must be a list of {name, h, restitution}");
  if (constraints.size() > 30) bad("constraints", "at most 30 constraints (one bit of the mode each)");
  for (std::size_t k = 0; k < constraints.size(); ++k) {
    const std::string key = "constraints[" + std::to_string(k) + "]";
    const Json& c = constraints[k];
    if (!c.is_object()) bad(key, "must be {name, h, restitution}");
    only(c, {"name", "h", "restitution"}, key);
    MechanicalSpec::Constraint constraint;
    constraint.name = c.contains("name") ? text(c["name"], key + ".name") : std::to_string(k + 1);
    if (!c.contains("h")) bad(key + ".h", "is missing: the gap h(q, t) >= 0");
    constraint.h = expression(c["h"], names, key + ".h");
    if (reads(constraint.h, velocity))
      bad(key + ".h", "'" + constraint.h.text() + "' uses a velocity: a constraint depends on q and t only");
    if (!reads(constraint.h, coordinate))
      bad(key + ".h",
          "'" + constraint.h.text() + "' does not depend on the coordinates: it constrains nothing");
    if (c.contains("restitution")) {
      const Json& e = c["restitution"];
      if (e.is_string()) {
        const std::string name = e.get<std::string>();
        const auto it = std::find(spec->parameters.begin(), spec->parameters.end(), name);
        if (it == spec->parameters.end()) bad(key + ".restitution", "'" + name + "' is not a parameter");
        constraint.restitution_parameter = static_cast<int>(it - spec->parameters.begin());
        spec->decided[constraint.restitution_parameter] = true;
      } else if (e.is_number()) {
        constraint.restitution = e.get<double>();
      } else {
        bad(key + ".restitution", "must be a number in [0, 1] or a parameter's name");
      }
    }
    spec->constraints.push_back(std::move(constraint));
  }
  for (int i = 0; i < static_cast<int>(spec->parameters.size()); ++i)
    if (spec->decided[i]) {
      spec->docs[i] = "restitution (decided on as a number)";
      spec->decided_indices.push_back(i);
    }

  // One register program for M and f together (the upper triangle of a
  // symmetric M), one for M alone (impacts), one per constraint.
  const int inputs = 2 * n + static_cast<int>(spec->parameters.size()) + 1;
  std::vector<bool> plain(inputs, false);
  for (std::size_t i = 0; i < spec->parameters.size(); ++i) plain[2 * n + i] = true;
  std::vector<const Expression*> mass_entries, dynamics;
  for (int i = 0; i < n; ++i)
    for (int j = spec->symmetric_mass ? i : 0; j < n; ++j) {
      mass_entries.push_back(&spec->mass[n * i + j]);
      spec->mass_slots.push_back({n * i + j, spec->symmetric_mass && j != i ? n * j + i : -1});
    }
  dynamics = mass_entries;
  for (const auto& e : spec->force) dynamics.push_back(&e);
  spec->dynamics = ExpressionBlock(inputs, spec->definitions, dynamics, plain);
  spec->mass_alone = ExpressionBlock(inputs, spec->definitions, mass_entries, plain);
  for (const auto& c : spec->constraints)
    spec->constraint_blocks.emplace_back(inputs, spec->definitions, std::vector<const Expression*>{&c.h},
                                         plain);
  // Compiled once with the system compiler where there is one (cached by
  // content), else the register loop: the same values either way.
  std::vector<ExpressionBlock*> blocks{&spec->dynamics, &spec->mass_alone};
  for (auto& block : spec->constraint_blocks) blocks.push_back(&block);
  CompileReport compiled = compile_blocks(blocks);
  if (report) *report = std::move(compiled);

  ExpressionMechanical model{spec, {}, values};
  model.p.assign(values.begin(), values.end());
  double stick = 1e-6;
  if (run.contains("stick_velocity")) {
    if (!run["stick_velocity"].is_number()) bad("stick_velocity", "must be a number >= 0");
    stick = run["stick_velocity"].get<double>();
  }
  flow::Mechanical<ExpressionMechanical> mechanical{std::move(model), stick};
  mechanical.check();
  return flow::make_hybrid(std::move(mechanical));
}

}  // namespace saltus::models
