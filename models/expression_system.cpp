#include "models/expression_system.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "continuation/autodiff_system.h"
#include "models/compiled_block.h"

namespace saltus::models {

std::shared_ptr<System> make_expression_system(const std::vector<std::string>& unknowns,
                                               const std::vector<std::string>& parameters,
                                               const std::vector<std::string>& equations, int sparse_from) {
  if (unknowns.empty()) throw std::invalid_argument("the system has no unknowns");
  if (equations.size() != unknowns.size())
    throw std::invalid_argument(std::to_string(equations.size()) + " equations for " +
                                std::to_string(unknowns.size()) + " unknowns: give one equation per unknown");
  std::vector<std::string> names = unknowns;
  names.insert(names.end(), parameters.begin(), parameters.end());
  std::set<std::string> seen;
  for (const auto& name : names)
    if (!seen.insert(name).second)
      throw std::invalid_argument("the name '" + name + "' is used twice among unknowns and parameters");
  ExpressionProblem problem{unknowns, parameters, {}};
  for (std::size_t i = 0; i < equations.size(); ++i) {
    try {
      problem.equations.push_back(Expression::parse(equations[i], names));
    } catch (const ExpressionError& e) {
      throw ExpressionError("equation " + std::to_string(i + 1) + ": " + e.what());
    }
  }
  if (static_cast<int>(unknowns.size()) >= sparse_from)
    return make_system(SparseExpressionProblem{std::move(problem)});
  return make_system(std::move(problem));
}

std::shared_ptr<flow::AutoDiffHybrid<ExpressionOde>> make_expression_ode(
    const std::vector<std::string>& unknowns, const std::vector<std::string>& parameters,
    const std::vector<double>& values, const std::vector<std::string>& rates, CompileReport* report) {
  if (unknowns.empty()) throw std::invalid_argument("the ODE has no unknowns");
  if (rates.size() != unknowns.size())
    throw std::invalid_argument(std::to_string(rates.size()) + " equations for " +
                                std::to_string(unknowns.size()) +
                                " unknowns: give one rate x' = f(x, p, t) per unknown");
  if (values.size() != parameters.size())
    throw std::invalid_argument(std::to_string(values.size()) + " values for " +
                                std::to_string(parameters.size()) + " parameters");
  std::vector<std::string> names = unknowns;
  names.insert(names.end(), parameters.begin(), parameters.end());
  std::set<std::string> seen;
  for (const auto& name : names) {
    if (name == "t")
      throw std::invalid_argument(
          "the name 't' is time in an ODE's equations; call the unknown or parameter otherwise");
    if (!seen.insert(name).second)
      throw std::invalid_argument("the name '" + name + "' is used twice among unknowns and parameters");
  }
  names.push_back("t");
  auto spec = std::make_shared<OdeSpec>();
  spec->unknowns = unknowns;
  spec->parameters = parameters;
  for (std::size_t i = 0; i < rates.size(); ++i) {
    try {
      spec->rates.push_back(Expression::parse(rates[i], names));
    } catch (const ExpressionError& e) {
      throw ExpressionError("equation " + std::to_string(i + 1) + ": " + e.what());
    }
  }
  std::vector<const Expression*> outputs;
  for (const auto& e : spec->rates) outputs.push_back(&e);
  std::vector<bool> plain(names.size(), false);
  for (std::size_t i = 0; i < parameters.size(); ++i) plain[unknowns.size() + i] = true;
  spec->block = ExpressionBlock(static_cast<int>(names.size()), Definitions{}, outputs, plain);
  // Else the interpreter, with the same values.
  CompileReport compiled = compile_blocks({&spec->block});
  if (report) *report = std::move(compiled);
  ExpressionOde ode{std::move(spec), {}};
  ode.p.assign(values.begin(), values.end());
  return flow::make_hybrid(std::move(ode));
}

}  // namespace saltus::models

namespace saltus::flow {

template <>
std::shared_ptr<const HybridSystem> AutoDiffHybrid<models::ExpressionOde>::with_parameters_in_state(
    const std::vector<std::string>& names, const std::vector<int>& angles) const {
  // The generic form checks the names (unknown, twice, tied but unequal)
  // and serves the wrapped angles.
  ParametersInState<models::ExpressionOde> generic(functor(), names, angles);
  if (!angles.empty()) return std::make_shared<AutoDiffHybrid<decltype(generic)>>(std::move(generic));
  const models::ExpressionOde& ode = functor();
  models::ExpressionOdeInState carried{ode.spec, {ode.p.begin(), ode.p.end()}, {}, names};
  carried.slot.assign(ode.p.size(), -1);
  const auto& all = ode.spec->parameters;
  for (std::size_t j = 0; j < names.size(); ++j)
    for (const std::string& name : tied_names(names[j]))
      carried.slot[std::find(all.begin(), all.end(), name) - all.begin()] =
          ode.dimension() + static_cast<int>(j);
  return make_hybrid(std::move(carried));
}

}  // namespace saltus::flow
