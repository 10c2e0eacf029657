#pragma once
// A Filippov system given by expressions in a run file (a relay feedback
// loop, a friction oscillator of your own): a switching function h(x) and a
// field f(x, lambda) affine in lambda with |lambda| <= mu (Szalai & Jeffrey,
// Sec. IV; models/filippov.h), for the Filippov builder
// (models/filippov_hybrid.h), which does crossing, sliding, escaping and the
// exits. The expressions see the states, the parameters and, in the field,
// lambda; they run on double, ceres::Jet and Taylor series, so the sliding
// field, the Lie derivatives and the saltation matrices are exact. The bound
// mu is a number (write a friction coefficient into the field, mu_k g lambda
// with |lambda| <= 1, to vary it); the static bound b >= mu may be an
// expression of the parameters ("mu_s/mu_k"), whose parameters the flow then
// decides on as numbers (they are not carried in a state).
//
// A forced system: the expressions of h, the field and the definitions may
// use the time t (x'' + x = cos(w t) - F lambda). Then switching(x, t) and
// field(x, t, lambda, f) are the model (filippov::TimeDependentModel), and
// the Filippov builder works on its autonomous extension z = (x, t), t' = 1
// (models/filippov_hybrid.h), so that the Lie derivatives carry h_t, the
// sliding field is the one that keeps h(x(t), t) = 0, and every derivative in
// t is as exact as those in x. The autonomous forms switching(x) and
// field(x, lambda, f) read t = 0 (the two-fold analyses, which refuse a forced
// system: studies/filippov_study.cpp).

#include <array>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/expression.h"
#include "models/filippov_hybrid.h"

namespace saltus::models {

struct FilippovSpec {
  std::vector<std::string> states, parameters, docs;
  std::vector<bool> decided;  // per parameter: used by the stick bound
  Expression h;
  std::vector<Expression> field;  // per state, of (x, p, lambda)
  double mu = 1.0;
  std::optional<Expression> stick;  // b(p); none: b = mu
  Definitions definitions;          // after (x, p, lambda, t), free of lambda
  bool forced = false;              // h, the field or a definition they use reads t
  // The expressions' names: states, parameters, "lambda", "t".
  std::vector<std::string> names() const;
};

template <class P = double>
struct ExpressionFilippovT {
  std::shared_ptr<const FilippovSpec> spec;
  std::vector<P> p;
  std::vector<double> numbers;  // per parameter (the decided ones)
  double mu = 1.0;              // filippov::Model's bound (spec->mu)

  template <class Self, class Visit>
  static void parameters(Self& self, Visit&& visit) {
    for (std::size_t i = 0; i < self.p.size(); ++i) {
      const char* name = self.spec->parameters[i].c_str();
      if (self.spec->decided[i])
        visit(name, self.numbers[i], self.spec->docs[i].c_str());
      else
        visit(name, self.p[i], self.spec->docs[i].c_str());
    }
  }
  template <class Q>
  ExpressionFilippovT<Q> cast() const {
    ExpressionFilippovT<Q> out{spec, {}, numbers, mu};
    for (const P& v : p) out.p.push_back(Q(series::value_of(v)));
    return out;
  }
  // b at the parameters' values (the flow reads it at every decision).
  double stick_bound() const {
    if (!spec->stick) return mu;
    std::vector<double> x(spec->states.size(), 0.0);
    auto v = values(cast<double>(), x.data(), 0.0, 0.0);
    return spec->stick->template evaluate<double>(v.data());
  }
  // Whether the expressions read the time (a forced system).
  bool forced() const { return spec->forced; }

  int state_size() const { return static_cast<int>(spec->states.size()); }
  std::vector<std::string> state_names() const { return spec->states; }
  // At t = 0 (an autonomous system's; see the header).
  template <class T>
  T switching(const T* x) const {
    return switching(x, T(0.0));
  }
  template <class T>
  void field(const T* x, const T& lambda, T* f) const {
    field(x, T(0.0), lambda, f);
  }
  // h(x, t) and f(x, t, lambda).
  template <class T>
  T switching(const T* x, const T& t) const {
    auto v = values(*this, x, T(0.0), t);
    return spec->h.template evaluate<T>(v.data());
  }
  template <class T>
  void field(const T* x, const T& t, const T& lambda, T* f) const {
    auto v = values(*this, x, lambda, t);
    for (int i = 0; i < state_size(); ++i) f[i] = spec->field[i].template evaluate<T>(v.data());
  }

 private:
  // (x, p, lambda, t) and the definitions in one array.
  template <class T, class Q>
  static ValueArray<T> values(const ExpressionFilippovT<Q>& m, const T* x, const T& lambda, const T& t) {
    const int n = m.state_size(), k = static_cast<int>(m.p.size());
    ValueArray<T> v(n + k + 2 + static_cast<int>(m.spec->definitions.names.size()));
    for (int i = 0; i < n; ++i) v[i] = x[i];
    for (int i = 0; i < k; ++i) v[n + i] = m.spec->decided[i] ? T(m.numbers[i]) : T(m.p[i]);
    v[n + k] = lambda;
    v[n + k + 1] = t;
    m.spec->definitions.evaluate(v.data(), n + k + 2);
    return v;
  }
};

using ExpressionFilippov = ExpressionFilippovT<double>;

// The system of a run file's "states", "parameters" and "filippov" (keys in
// kFilippovExpressionHelp). Throws std::invalid_argument naming the key: a
// field that is not affine in lambda (checked at `probe`, the run's initial
// state, and around it), a bound that is not positive, a name used twice, an
// unknown name.
std::shared_ptr<flow::AutoDiffHybrid<filippov::FilippovFlow<ExpressionFilippov>>> make_expression_filippov(
    const nlohmann::ordered_json& run, const Vector& probe);

extern const char* const kFilippovExpressionHelp;

}  // namespace saltus::models
