#pragma once
// A System given by expressions, as a run file writes it:
//
//   unknowns ["x"], parameters ["mu", "lambda"], equations ["mu + lambda*x - x^3"].
//
// Each equation is parsed once; evaluation goes through the same
// scalar-templated path as a C++ functor, so Jacobians are exact (jets), and
// each equation's used variables give the sparsity for large systems.

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "continuation/flow/hybrid_system.h"
#include "continuation/system.h"
#include "models/expression.h"
#include "models/expression_block.h"

namespace saltus::models {

struct ExpressionProblem {
  std::vector<std::string> unknowns;
  std::vector<std::string> parameters;
  std::vector<Expression> equations;

  int state_size() const { return static_cast<int>(unknowns.size()); }
  int parameter_size() const { return static_cast<int>(parameters.size()); }
  std::vector<std::string> state_names() const { return unknowns; }
  std::vector<std::string> parameter_names() const { return parameters; }
  template <class T>
  void operator()(const T* u, T* f) const {
    for (std::size_t i = 0; i < equations.size(); ++i) f[i] = equations[i].template evaluate<T>(u);
  }
};

// The same with its sparsity, for systems large enough to profit from it.
struct SparseExpressionProblem : ExpressionProblem {
  std::vector<std::vector<int>> sparsity() const {
    std::vector<std::vector<int>> rows;
    for (const auto& e : equations) rows.push_back(e.used_variables());
    return rows;
  }
};

// Parses the equations (names: unknowns then parameters). Throws
// std::invalid_argument (ExpressionError for a bad expression, naming the
// equation) when names repeat, when the counts of equations and unknowns
// differ, or when an expression is invalid. Systems with at least
// `sparse_from` unknowns take the sparse path.
std::shared_ptr<System> make_expression_system(const std::vector<std::string>& unknowns,
                                               const std::vector<std::string>& parameters,
                                               const std::vector<std::string>& equations,
                                               int sparse_from = 50);

// An ODE x' = f(x, p, t) given by expressions, as a hybrid system with one
// mode and no guards (a smooth flow), whose parameters ride in the state
// (p' = 0) so that shooting gets the parameter columns of its Jacobian from
// the variational equations. The expressions' names are the unknowns, then
// the parameters, then "t" (time: a forced, non-autonomous ODE may use it).
struct ExpressionOde {
  std::vector<std::string> unknowns;
  std::vector<std::string> parameters;
  std::vector<Expression> rates;  // one per unknown
  ExpressionBlock block;          // the rates compiled together over (z, t)

  int dimension() const { return static_cast<int>(unknowns.size() + parameters.size()); }
  std::vector<std::string> state_names() const {
    std::vector<std::string> names = unknowns;
    names.insert(names.end(), parameters.begin(), parameters.end());
    return names;
  }
  std::string mode_name(int) const { return "smooth"; }
  template <class T>
  void field(int, const T& t, const T* z, T* f) const {
    const int m = dimension();
    // (z, t) in one array; on the stack for the usual small systems (this
    // runs at every Runge-Kutta stage).
    constexpr int kInline = 32;
    std::array<T, kInline> small;
    std::vector<T> large;
    T* values = small.data();
    if (m + 1 > kInline) {
      large.resize(m + 1);
      values = large.data();
    }
    std::copy(z, z + m, values);
    values[m] = t;
    block.evaluate(values, f);
    for (int i = static_cast<int>(rates.size()); i < m; ++i) f[i] = T(0.0);
  }
  // True when some rate uses "t" (the ODE is forced).
  bool uses_time() const;
};

// Parses the rates (names: unknowns, parameters, "t"). Throws like
// make_expression_system (ExpressionError names the equation; a parameter or
// unknown called "t" is refused: it names time).
std::shared_ptr<flow::AutoDiffHybrid<ExpressionOde>> make_expression_ode(
    const std::vector<std::string>& unknowns, const std::vector<std::string>& parameters,
    const std::vector<std::string>& rates);

}  // namespace saltus::models
