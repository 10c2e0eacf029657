#pragma once
// A hybrid system given by expressions in a run file (the user's own impact
// oscillator, relay loop, ...): state names, parameters, and modes, each
// with a vector field, guards with a crossing direction, and per guard a
// list of transitions, the first whose condition holds taken:
//
//   mode m:  x' = f_m(x, p, t)
//   guard k: h_k(x, p, t) crossing zero (falling, rising or either)
//   transition: when a(x, p, t) < b(x, p, t) (or <=, >, >=; a list: all of
//               them; the last transition unconditional): next mode, reset
//               x+ = g(x-, p, t) (components not named keep their value)
//
// The expressions are the expression language of `saltus continue`
// (models/expression.h), evaluated on double and ceres::Jet, so the field's
// Jacobian, the guards' gradients and the resets' Jacobians (the saltation
// matrices) are exact. The parameters are the functor's, by the visitor of
// continuation/flow/parameters.h: any of them can be swept, continued and
// carried in the state for shooting.

#include <array>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "continuation/flow/hybrid_system.h"
#include "models/expression.h"
#include "models/expression_block.h"

namespace saltus::models {
struct CompileReport;  // models/compiled_block.h

// a < b, a <= b, a > b or a >= b, decided on values.
struct Comparison {
  enum class Op { kLess, kLessEqual, kGreater, kGreaterEqual };
  Expression left, right;
  Op op = Op::kLess;
  bool holds(const double* values) const;
};

struct HybridSpec {
  struct Transition {
    std::vector<Comparison> when;  // all must hold; none: always
    int to = 0;
    std::vector<std::optional<Expression>> reset;  // per state component; none: unchanged
  };
  struct Guard {
    std::string name;
    Expression h;
    ExpressionBlock h_block;  // h over (x, p, t), the parameters plain (models/expression_block.h)
    flow::Crossing crossing = flow::Crossing::kFalling;
    std::vector<Transition> transitions;
  };
  struct Mode {
    std::string name;
    std::vector<Expression> field;  // per state component
    ExpressionBlock field_block;    // the field over (x, p, t), the parameters plain
    std::vector<Guard> guards;
  };
  std::vector<std::string> states, parameters;
  std::vector<std::string> docs;  // per parameter
  std::vector<Mode> modes;
  Definitions definitions;  // after (x, p, t)
  // The expressions' names: states, parameters, "t" (the definitions follow).
  std::vector<std::string> names() const;
  // The first transition of guard k of `mode` whose condition holds at the values (x, p, t).
  const Transition& transition(int mode, int k, const double* values) const;
};

template <class P = double>
struct ExpressionHybridT {
  std::shared_ptr<const HybridSpec> spec;
  std::vector<P> p;  // per spec->parameters

  template <class Self, class Visit>
  static void parameters(Self& self, Visit&& visit) {
    for (std::size_t i = 0; i < self.p.size(); ++i)
      visit(self.spec->parameters[i].c_str(), self.p[i], self.spec->docs[i].c_str());
  }
  template <class Q>
  ExpressionHybridT<Q> cast() const {
    ExpressionHybridT<Q> out{spec, {}};
    out.p.reserve(p.size());
    for (const P& v : p) out.p.push_back(Q(series::value_of(v)));
    return out;
  }

  // Expressions evaluate on Taylor series too: second derivatives of the flow
  // by the tangent-lifted system (continuation/flow/tangent_lifted.h).
  static constexpr bool tangent_liftable = true;

  int dimension() const { return static_cast<int>(spec->states.size()); }
  std::vector<std::string> state_names() const { return spec->states; }
  std::string mode_name(int mode) const { return spec->modes.at(mode).name; }
  int guard_count(int mode) const { return static_cast<int>(spec->modes.at(mode).guards.size()); }
  std::string guard_name(int mode, int k) const { return spec->modes[mode].guards[k].name; }
  flow::Crossing crossing(int mode, int k) const { return spec->modes[mode].guards[k].crossing; }

  template <class T>
  void field(int mode, const T& t, const T* x, T* f) const {
    evaluate(spec->modes[mode].field_block, t, x, f);
  }

  template <class T>
  T guard(int mode, int k, const T& t, const T* x) const {
    T h;
    evaluate(spec->modes[mode].guards[k].h_block, t, x, &h);
    return h;
  }

  int next_mode(int mode, int k, double t, const double* x) const {
    auto v = values(*this, t, x);  // P = double: decisions are taken on the model of values
    return spec->transition(mode, k, v.data()).to;
  }

  template <class T>
  void reset(int mode, int k, int, const T& t, const T* x, T* x_plus) const {
    const int n = dimension();
    std::vector<double> xd(n);
    for (int i = 0; i < n; ++i) xd[i] = series::value_of(x[i]);
    auto vd = values(cast<double>(), series::value_of(t), xd.data());
    const auto& tr = spec->transition(mode, k, vd.data());
    auto v = values(*this, t, x);
    for (int i = 0; i < n; ++i) x_plus[i] = tr.reset[i] ? tr.reset[i]->template evaluate<T>(v.data()) : x[i];
  }

 private:
  // A block over (x, p, t) (a mode's field, a guard), its outputs in out.
  // Parameters of type double go in as plain doubles: the block's split
  // program computes what depends on them alone in double and mixes them
  // with T at the cost of a scaling, and it is the program that
  // models/compiled_block.h compiles (for double, the Taylor series and the
  // flow's Jet). Of another type (one carried in a shooting state makes
  // them all T) they go through the program with every input a T. The
  // inputs lie in one array that the compiled program reads in place and
  // writes out with no copies, as OdeSpec::evaluate
  // (models/expression_system.h); without a compiled program, the
  // register loop, with the same values bit for bit.
  template <class T>
  void evaluate(const ExpressionBlock& block, const T& t, const T* x, T* out) const {
    const int n = static_cast<int>(spec->states.size()), q = static_cast<int>(p.size());
    constexpr bool plain = std::is_same_v<P, double>;
    flow::detail::UninitializedJets<T, 32> inputs(n + q + 1);
    T* in = inputs.data();
    for (int i = 0; i < n; ++i) ::new (static_cast<void*>(in + i)) T(x[i]);
    ::new (static_cast<void*>(in + n + q)) T(t);
    ValueArray<double> values(plain && !std::is_same_v<T, double> ? n + q + 1 : 0);
    const double* d = nullptr;
    if constexpr (plain && std::is_same_v<T, double>) {
      for (int k = 0; k < q; ++k) in[n + k] = p[k];
      d = in;
    } else if constexpr (plain) {
      for (int k = 0; k < q; ++k) values[n + k] = p[k];
      d = values.data();
    } else {
      for (int k = 0; k < q; ++k) ::new (static_cast<void*>(in + n + k)) T(p[k]);
    }
    if (block.evaluate_compiled<T>(in, d, out)) return;
    const auto load = [&](T* r) {
      for (int i = 0; i < n + q + 1; ++i)
        if (!plain || i < n || i == n + q) ::new (static_cast<void*>(r + i)) T(in[i]);
    };
    block.template evaluate<T>(load, d, [&](int j, const T& v) { out[j] = v; });
  }

  // (x, p, t) and the definitions in one array, for the resets and conditions.
  template <class T, class Q>
  static ValueArray<T> values(const ExpressionHybridT<Q>& m, const T& t, const T* x) {
    const int n = static_cast<int>(m.spec->states.size()), q = static_cast<int>(m.p.size());
    ValueArray<T> v(n + q + 1 + static_cast<int>(m.spec->definitions.names.size()));
    for (int i = 0; i < n; ++i) v[i] = x[i];
    for (int i = 0; i < q; ++i) v[n + i] = T(m.p[i]);
    v[n + q] = t;
    m.spec->definitions.evaluate(v.data(), n + q + 1);
    return v;
  }
};

using ExpressionHybrid = ExpressionHybridT<double>;

// The system of a run file's "states", "parameters" and "modes" (keys in
// kHybridExpressionHelp). Throws std::invalid_argument naming the key and
// the value: an unknown mode or state, a name used twice or called "t", a
// reset of the wrong length, a condition that is not a comparison, an
// expression with an unknown name (ExpressionError, a std::invalid_argument).
// Its fields and guards are compiled as models/compiled_block.h says (in
// the background for a new run file, interpreted meanwhile with the same
// values); `report` receives what it did.
std::shared_ptr<flow::AutoDiffHybrid<ExpressionHybrid>> make_expression_hybrid(
    const nlohmann::ordered_json& run, CompileReport* report = nullptr);

extern const char* const kHybridExpressionHelp;

}  // namespace saltus::models
