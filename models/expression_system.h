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
#include <type_traits>
#include <vector>

#include "continuation/flow/hybrid_system.h"
#include "continuation/system.h"
#include "models/expression.h"
#include "models/expression_block.h"

namespace saltus::models {
struct CompileReport;  // models/compiled_block.h

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
  // The rates together over (x, p, t), the parameters plain (compiled with
  // the system compiler when it could be: models/compiled_block.h).
  ExpressionBlock block;

  // f = the rates at (x, p, t) with p_k = parameter(k). Parameters of type
  // double go in as plain doubles (as in models/mechanical_expression.h);
  // of type T (one carried in a shooting state makes all of them T) through
  // the program with every input a T.
  template <class T, class Parameter>
  void evaluate(const T& t, const T* x, Parameter&& parameter, T* f) const {
    const int n = static_cast<int>(unknowns.size()), q = static_cast<int>(parameters.size());
    constexpr bool plain = std::is_same_v<std::decay_t<decltype(parameter(0))>, double>;
    // The inputs (x, p, t) in one array, where the compiled program reads
    // them and writes f with no copies in or out (at every Runge-Kutta
    // stage, beside rates as small as Lorenz's the copies cost more than
    // the rates). On double the array holds the plain parameters too; on
    // another T they go in `values`, and their slots in `in` stay unset.
    flow::detail::UninitializedJets<T, 32> inputs(n + q + 1);
    T* in = inputs.data();
    for (int i = 0; i < n; ++i) ::new (static_cast<void*>(in + i)) T(x[i]);
    ::new (static_cast<void*>(in + n + q)) T(t);
    ValueArray<double> values(plain && !std::is_same_v<T, double> ? n + q + 1 : 0);
    const double* d = nullptr;
    if constexpr (std::is_same_v<T, double>) {
      for (int k = 0; k < q; ++k) in[n + k] = parameter(k);
      d = in;
    } else if constexpr (plain) {
      for (int k = 0; k < q; ++k) values[n + k] = parameter(k);
      d = values.data();
    } else {
      for (int k = 0; k < q; ++k) ::new (static_cast<void*>(in + n + k)) T(parameter(k));
    }
    if (block.evaluate_compiled<T>(in, d, f)) return;
    const auto load = [&](T* r) {
      for (int i = 0; i < n + q + 1; ++i)
        if (!plain || i < n || i == n + q) ::new (static_cast<void*>(r + i)) T(in[i]);
    };
    block.template evaluate<T>(load, d, [&](int j, const T& v) { f[j] = v; });
  }
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
    spec->evaluate(
        t, x, [&](int k) -> const P& { return p[k]; }, f);
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

// An expression ODE with parameters carried in its state, (x, p_c) with
// p_c' = 0: what flow::ParametersInState makes of any functor, made here
// by the expressions themselves (ExpressionOde's with_parameters_in_state,
// for unwrapped states). The generic form casts the functor to the state's
// scalar at every evaluation; around rates as small as Lorenz's, compiled,
// that cast cost ten times the rates (bench/lorenz_cascade.cpp). Here the
// block reads the carried values from the state: on doubles as plain
// inputs, on Jets through its program with every input a Jet.
struct ExpressionOdeInState {
  std::shared_ptr<const OdeSpec> spec;
  std::vector<double> p;            // every parameter's value (a carried one's is read from the state)
  std::vector<int> slot;            // per parameter: its state component, or -1
  std::vector<std::string> labels;  // per carried component: its name ("c1=c2" for tied ones)

  int dimension() const { return static_cast<int>(spec->unknowns.size() + labels.size()); }
  std::vector<std::string> state_names() const {
    std::vector<std::string> names = spec->unknowns;
    names.insert(names.end(), labels.begin(), labels.end());
    return names;
  }
  std::string mode_name(int) const { return "smooth"; }
  template <class T>
  void field(int, const T& t, const T* x, T* f) const {
    spec->evaluate(
        t, x, [&](int k) -> T { return slot[k] >= 0 ? x[slot[k]] : T(p[k]); }, f);
    const int n = static_cast<int>(spec->unknowns.size());
    for (std::size_t j = 0; j < labels.size(); ++j) f[n + j] = T(0.0);
  }
};

// Parses the rates (names: unknowns, parameters, "t"); `values` are the
// parameters' values. Throws like make_expression_system (ExpressionError
// names the equation; a parameter or unknown called "t" is refused: it
// names time).
std::shared_ptr<flow::AutoDiffHybrid<ExpressionOde>> make_expression_ode(
    const std::vector<std::string>& unknowns, const std::vector<std::string>& parameters,
    const std::vector<double>& values, const std::vector<std::string>& rates,
    CompileReport* report = nullptr);  // what models/compiled_block.h did with the rates

}  // namespace saltus::models

namespace saltus::flow {

// Without wrapped angles, an expression ODE carries its parameters as an
// ExpressionOdeInState (above); with them, as every functor does.
template <>
std::shared_ptr<const HybridSystem> AutoDiffHybrid<models::ExpressionOde>::with_parameters_in_state(
    const std::vector<std::string>& names, const std::vector<int>& angles) const;

}  // namespace saltus::flow

namespace saltus::models {

static_assert(std::is_same_v<ExpressionBlock::CompiledJet, flow::AutoDiffHybrid<ExpressionOde>::Jet>,
              "compiled blocks serve the flow's Jet passes");

}  // namespace saltus::models
