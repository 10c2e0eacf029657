#pragma once
// A System given by expressions, as a run file writes it:
//
//   unknowns ["x"], parameters ["mu", "lambda"], equations ["mu + lambda*x - x^3"].
//
// Each equation is parsed once; evaluation goes through the same
// scalar-templated path as a C++ functor, so Jacobians are exact (jets), and
// each equation's used variables give the sparsity for large systems.

#include <memory>
#include <string>
#include <vector>

#include "continuation/system.h"
#include "models/expression.h"

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

}  // namespace saltus::models
