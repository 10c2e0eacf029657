#pragma once
// A System given by expressions, as a run file writes it:
//
//   unknowns ["x"], parameters ["mu", "lambda"], equations ["mu + lambda*x - x^3"].
//
// Each equation is parsed once; evaluation goes through the same
// scalar-templated path as a C++ functor, so Jacobians are exact (jets), and
// each equation's used variables give the sparsity for large systems.

#include <array>
#include <boost/container/small_vector.hpp>
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
// mode and no guards (a smooth flow). Its parameters are the functor's, by
// the visitor of continuation/flow/parameters.h, as for every hybrid model:
// shooting carries in the state only the parameters it continues
// (with_parameters_in_state), so that the variational equations have no
// columns for the others. The expressions' names are the unknowns, then the
// parameters, then "t" (time: a forced, non-autonomous ODE may use it).
struct OdeSpec {
  std::vector<std::string> unknowns;
  std::vector<std::string> parameters;
  std::vector<Expression> rates;  // one per unknown
  ExpressionBlock block;          // the rates compiled together over (x, p, t)
};

template <class P = double>
struct ExpressionOdeT {
  std::shared_ptr<const OdeSpec> spec;
  // Per spec->parameters. Inline for the usual few: a shooting pass casts
  // the functor at every field evaluation (ParametersInState::at).
  boost::container::small_vector<P, 8> p;

  template <class Self, class Visit>
  static void parameters(Self& self, Visit&& visit) {
    for (std::size_t i = 0; i < self.p.size(); ++i) visit(self.spec->parameters[i].c_str(), self.p[i], "");
  }
  template <class Q>
  ExpressionOdeT<Q> cast() const {
    ExpressionOdeT<Q> out{spec, {}};
    for (const P& v : p) out.p.push_back(Q(series::value_of(v)));
    return out;
  }

  int dimension() const { return static_cast<int>(spec->unknowns.size()); }
  std::vector<std::string> state_names() const { return spec->unknowns; }
  std::string mode_name(int) const { return "smooth"; }
  template <class T>
  void field(int, const T& t, const T* x, T* f) const {
    const int n = dimension(), q = static_cast<int>(p.size());
    ValueArray<T> values(n + q + 1);  // (x, p, t): on the stack for small systems
    std::copy(x, x + n, values.data());
    for (int i = 0; i < q; ++i) values[n + i] = T(p[i]);
    values[n + q] = t;
    spec->block.evaluate(values.data(), f);
  }
  // True when some rate uses "t" (the ODE is forced).
  bool uses_time() const {
    const int t = dimension() + static_cast<int>(p.size());
    for (const auto& r : spec->rates)
      for (int v : r.used_variables())
        if (v == t) return true;
    return false;
  }
};

using ExpressionOde = ExpressionOdeT<double>;

// Parses the rates (names: unknowns, parameters, "t"); `values` are the
// parameters' values. Throws like make_expression_system (ExpressionError
// names the equation; a parameter or unknown called "t" is refused: it
// names time).
std::shared_ptr<flow::AutoDiffHybrid<ExpressionOde>> make_expression_ode(
    const std::vector<std::string>& unknowns, const std::vector<std::string>& parameters,
    const std::vector<double>& values, const std::vector<std::string>& rates);

}  // namespace saltus::models
