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

#include <algorithm>
#include <array>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "continuation/flow/mechanical.h"
#include "models/expression.h"
#include "models/expression_block.h"

namespace saltus::models {
struct CompileReport;  // models/compiled_block.h

struct MechanicalSpec {
  struct Constraint {
    std::string name;
    Expression h;
    double restitution = 1.0;
    int restitution_parameter = -1;  // index into parameters, or -1: the number above
  };
  std::vector<std::string> coordinates, parameters, docs;
  std::vector<bool> decided;         // per parameter: a number the impact law decides on
  std::vector<int> decided_indices;  // the parameters decided on
  std::vector<Expression> mass;      // n x n, row-major
  bool symmetric_mass = false;       // M written symmetric: the lower triangle is the upper one
  std::vector<Expression> force;     // n
  std::vector<Constraint> constraints;
  Definitions definitions;  // after (q, q', p, t)
  // The compiled forms over (q, q', p, t), the parameters plain: M's entries
  // (its upper triangle when symmetric, row by row) then f; M's entries
  // alone; each h_i. Per M entry of the blocks, its place in M (row-major)
  // and its mirror's (-1: none).
  ExpressionBlock dynamics, mass_alone;
  std::vector<ExpressionBlock> constraint_blocks;
  std::vector<std::array<int, 2>> mass_slots;
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
    evaluate(spec->mass_alone, q, static_cast<const T*>(nullptr), t, [&](int j, const T& v) {
      const auto [at, mirror] = spec->mass_slots[j];
      M[at] = v;
      if (mirror >= 0) M[mirror] = v;
    });
  }
  template <class T>
  void force(const T* q, const T* w, const T& t, T* f) const {
    std::vector<T> M(dof() * dof());
    mass_and_force(q, w, t, M.data(), f);
  }
  template <class T>
  void mass_and_force(const T* q, const T* w, const T& t, T* M, T* f) const {
    const int entries = static_cast<int>(spec->mass_slots.size());
    evaluate(spec->dynamics, q, w, t, [&](int j, const T& v) {
      if (j >= entries) {
        f[j - entries] = v;
        return;
      }
      const auto [at, mirror] = spec->mass_slots[j];
      M[at] = v;
      if (mirror >= 0) M[mirror] = v;
    });
  }
  template <class T>
  T constraint(int i, const T* q, const T& t) const {
    T h;
    evaluate(spec->constraint_blocks[i], q, static_cast<const T*>(nullptr), t,
             [&](int, const T& v) { h = v; });
    return h;
  }

 private:
  // A block at (q, q', p, t), q' zero where the expression cannot use it,
  // straight into its registers. Parameters of type double (all but one
  // carried in a shooting state) go in as plain doubles: the block then
  // mixes them with T at the cost of a scaling (models/expression_block.h).
  template <class T, class Store>
  void evaluate(const ExpressionBlock& block, const T* q, const T* w, const T& t, Store&& store) const {
    const int n = dof(), k = static_cast<int>(p.size());
    constexpr bool plain = std::is_same_v<P, double>;
    const auto load = [&](T* r) {
      for (int i = 0; i < n; ++i) {
        ::new (static_cast<void*>(r + i)) T(q[i]);
        ::new (static_cast<void*>(r + n + i)) T(w ? w[i] : T(0.0));
      }
      if constexpr (!plain)
        for (int i = 0; i < k; ++i)
          ::new (static_cast<void*>(r + 2 * n + i)) T(spec->decided[i] ? T(numbers[i]) : T(p[i]));
      ::new (static_cast<void*>(r + 2 * n + k)) T(t);
    };
    if constexpr (plain) {
      ValueArray<double> values(2 * n + k + 1);
      std::copy(p.begin(), p.end(), values.data() + 2 * n);
      for (int i : spec->decided_indices) values[2 * n + i] = numbers[i];
      block.template evaluate<T>(load, values.data(), store);
    } else {
      block.template evaluate<T>(load, nullptr, store);
    }
  }
};

using ExpressionMechanical = ExpressionMechanicalT<double>;

// The system of a run file's "coordinates", "parameters", "mass", "forces",
// "constraints" and "stick_velocity" (keys in kMechanicalExpressionHelp).
// Throws std::invalid_argument naming the key: a mass matrix of the wrong
// size or one that uses velocities, a constraint that does not depend on q,
// a restitution outside [0, 1], a name used twice, an unknown name.
std::shared_ptr<flow::AutoDiffHybrid<flow::Mechanical<ExpressionMechanical>>> make_expression_mechanical(
    const nlohmann::ordered_json& run,
    CompileReport* report = nullptr);  // what models/compiled_block.h did with its blocks

extern const char* const kMechanicalExpressionHelp;

}  // namespace saltus::models
