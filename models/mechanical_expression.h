#pragma once
// A mechanical system with rigid unilateral constraints given by
// expressions in a run file (Awrejcewicz & Kudra's setting for the user's
// own machine: a rocking block, a gear pair with backlash, a pendulum
// between walls):
//
//   M(q, t) q'' = f(q, q', t),   h_i(q, t) >= 0 with restitution e_i,
//
// for continuation/flow/mechanical.h, which does the rest: impacts by the
// generalized Newton law, motion along active constraints as the index-1
// DAE, releases, the end of Zeno sequences. The expressions see the
// coordinates q, their velocities q_dot (named "<q>_dot"; forces only), the
// parameters and t; they run on double, ceres::Jet and Taylor series, so the
// constraint Jacobian H and curvature terms gamma (Taylor) and the field's
// Jacobian (Jets) are exact. A restitution is a number or the name of a
// parameter, which is then decided on as a number (not carried in a state).

#include <array>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "continuation/flow/mechanical.h"
#include "models/expression.h"
#include "models/expression_block.h"

namespace saltus::models {

struct MechanicalSpec {
  struct Constraint {
    std::string name;
    Expression h;
    double restitution = 1.0;
    int restitution_parameter = -1;  // index into parameters, or -1: the number above
  };
  std::vector<std::string> coordinates, parameters, docs;
  std::vector<bool> decided;      // per parameter: a number the impact law decides on
  std::vector<Expression> mass;   // n x n, row-major
  bool symmetric_mass = false;    // M written symmetric: the lower triangle is the upper one
  std::vector<Expression> force;  // n
  std::vector<Constraint> constraints;
  Definitions definitions;  // after (q, q', p, t)
  // The compiled forms over (q, q', p, t): M's entries (its upper triangle
  // when symmetric, row by row) then f; M's entries alone; each h_i.
  ExpressionBlock dynamics, mass_alone;
  std::vector<ExpressionBlock> constraint_blocks;
  // The expressions' names: coordinates, velocities, parameters, "t" (the
  // definitions follow).
  std::vector<std::string> names() const;
};

template <class P = double>
struct ExpressionMechanicalT {
  std::shared_ptr<const MechanicalSpec> spec;
  std::vector<P> p;             // per parameter (decided ones unused)
  std::vector<double> numbers;  // per parameter (the decided ones)

  template <class Self, class Visit>
  static void parameters(Self& self, Visit&& visit) {
    for (std::size_t i = 0; i < self.p.size(); ++i) {
      const char* name = self.spec->parameters[i].c_str();
      const char* doc = self.spec->docs[i].c_str();
      if (self.spec->decided[i])
        visit(name, self.numbers[i], doc);
      else
        visit(name, self.p[i], doc);
    }
  }
  template <class Q>
  ExpressionMechanicalT<Q> cast() const {
    ExpressionMechanicalT<Q> out{spec, {}, numbers};
    out.p.reserve(p.size());
    for (const P& v : p) out.p.push_back(Q(series::value_of(v)));
    return out;
  }

  int dof() const { return static_cast<int>(spec->coordinates.size()); }
  int constraint_count() const { return static_cast<int>(spec->constraints.size()); }
  std::vector<std::string> coordinate_names() const { return spec->coordinates; }
  std::string constraint_name(int i) const { return spec->constraints[i].name; }
  double restitution(int i) const {
    const auto& c = spec->constraints[i];
    return c.restitution_parameter >= 0 ? numbers[c.restitution_parameter] : c.restitution;
  }

  template <class T>
  void mass(const T* q, const T& t, T* M) const {
    const auto v = inputs(q, static_cast<const T*>(nullptr), t);
    ValueArray<T> out(spec->mass_alone.output_count());
    spec->mass_alone.evaluate(v.data(), out.data());
    mass_from(out.data(), M);
  }
  template <class T>
  void force(const T* q, const T* w, const T& t, T* f) const {
    std::vector<T> M(dof() * dof());
    mass_and_force(q, w, t, M.data(), f);
  }
  template <class T>
  void mass_and_force(const T* q, const T* w, const T& t, T* M, T* f) const {
    const auto v = inputs(q, w, t);
    ValueArray<T> out(spec->dynamics.output_count());
    spec->dynamics.evaluate(v.data(), out.data());
    const int entries = mass_from(out.data(), M);
    for (int i = 0; i < dof(); ++i) f[i] = out[entries + i];
  }
  template <class T>
  T constraint(int i, const T* q, const T& t) const {
    const auto v = inputs(q, static_cast<const T*>(nullptr), t);
    T h;
    spec->constraint_blocks[i].evaluate(v.data(), &h);
    return h;
  }

 private:
  // M (row-major) from the block's first outputs; returns how many it read.
  template <class T>
  int mass_from(const T* entries, T* M) const {
    const int n = dof();
    int k = 0;
    for (int i = 0; i < n; ++i)
      for (int j = spec->symmetric_mass ? i : 0; j < n; ++j) {
        M[n * i + j] = entries[k++];
        if (spec->symmetric_mass) M[n * j + i] = M[n * i + j];
      }
    return k;
  }

  // (q, q', p, t) in one array (q' zero where the expression cannot use it).
  template <class T>
  ValueArray<T> inputs(const T* q, const T* w, const T& t) const {
    const int n = dof(), k = static_cast<int>(p.size());
    ValueArray<T> v(2 * n + k + 1);
    for (int i = 0; i < n; ++i) {
      v[i] = q[i];
      v[n + i] = w ? w[i] : T(0.0);
    }
    for (int i = 0; i < k; ++i) v[2 * n + i] = spec->decided[i] ? T(numbers[i]) : T(p[i]);
    v[2 * n + k] = t;
    return v;
  }
};

using ExpressionMechanical = ExpressionMechanicalT<double>;

// The system of a run file's "coordinates", "parameters", "mass", "forces",
// "constraints" and "stick_velocity" (keys in kMechanicalExpressionHelp).
// Throws std::invalid_argument naming the key: a mass matrix of the wrong
// size or one that uses velocities, a constraint that does not depend on q,
// a restitution outside [0, 1], a name used twice, an unknown name.
std::shared_ptr<flow::AutoDiffHybrid<flow::Mechanical<ExpressionMechanical>>> make_expression_mechanical(
    const nlohmann::ordered_json& run);

extern const char* const kMechanicalExpressionHelp;

}  // namespace saltus::models
