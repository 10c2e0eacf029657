#pragma once
// Equilibria of a mechanical model in its mode without contact: the model
// M(q, p) q'' = f(q, q', p) of continuation/flow/mechanical.h (a run file's
// "coordinates", "mass", "forces", or a built-in such as the triple pendulum)
// read as the first-order rates
//
//   F(x, p) = (q', M(q, p)^{-1} f(q, q', p)),   x = (q, q'),
//
// for the continuation of equilibria (`saltus continue` with a mechanical
// system). A zero of F has q' = 0 and f(q, 0, p) = 0; there
//
//   F_x = [ 0            I           ]
//         [ M^{-1} f_q   M^{-1} f_q' ]
//
// (the term (M^{-1})_q f vanishes with f), so the eigenvalues are the roots
// of det(lambda^2 M - lambda f_q' - f_q) = 0, the linearized mechanical
// system's. Constraints are not active in this mode: an equilibrium resting
// on a stop is not one of these.
//
// The functor is templated on its scalar like every AutoDiffSystem: Jets for
// F_x and F_p, nested forms for second derivatives, Taylor series for the
// multilinear forms of the Lyapunov coefficients, all exact. M q'' = f is
// solved by Gaussian elimination without pivoting, which is stable for the
// symmetric positive definite M that the model's contract requires (Golub &
// Van Loan, "Matrix computations", 4th ed., Sec. 4.2) and needs nothing of
// the scalar but + - * /. The model's parameters that it carries as its
// scalar (not the numbers its impact law decides on, such as a restitution)
// are the system's parameters, in the model's visiting order; the time is
// t = 0, and a model whose forces depend on t has no equilibria (the caller
// checks that with depends_on_time()).

#include <ceres/jet.h>

#include <string>
#include <type_traits>
#include <vector>

#include "continuation/flow/mechanical.h"
#include "continuation/flow/parameters.h"

namespace saltus::models {

template <flow::Parameterized Model>
class MechanicalRates {
 public:
  explicit MechanicalRates(Model model) : model_(std::move(model)) {
    using Jet = ceres::Jet<double, 1>;
    auto jet = model_.template cast<Jet>();
    int i = 0;
    decltype(jet)::parameters(jet, [&](const char* name, auto& v, const char*) {
      if (std::is_same_v<std::remove_reference_t<decltype(v)>, Jet>) {
        carried_.push_back(i);
        names_.push_back(name);
      }
      ++i;
    });
    values_.resize(static_cast<int>(carried_.size()));
    int j = 0;
    i = 0;
    Model::parameters(model_, [&](const char*, const auto& v, const char*) {
      if (j < static_cast<int>(carried_.size()) && carried_[j] == i) values_[j++] = flow::detail::value_of(v);
      ++i;
    });
  }

  int dof() const { return model_.dof(); }
  int state_size() const { return 2 * dof(); }
  int parameter_size() const { return static_cast<int>(carried_.size()); }
  std::vector<std::string> state_names() const { return flow::Mechanical<Model>{model_}.state_names(); }
  std::vector<std::string> parameter_names() const { return names_; }
  // The model's values of the parameters (in parameter_names() order).
  const Vector& parameter_values() const { return values_; }

  template <class T>
  void operator()(const T* u, T* f) const {
    const int n = dof();
    const auto m = at(u + 2 * n);
    std::vector<T> M(n * n), a(n);
    if constexpr (requires { m.template mass_and_force<T>(u, u + n, T(0.0), M.data(), a.data()); }) {
      m.template mass_and_force<T>(u, u + n, T(0.0), M.data(), a.data());
    } else {
      m.template mass<T>(u, T(0.0), M.data());
      m.template force<T>(u, u + n, T(0.0), a.data());
    }
    // M a = f in place (M row-major): elimination, then back substitution.
    for (int k = 0; k < n; ++k)
      for (int i = k + 1; i < n; ++i) {
        const T l = M[n * i + k] / M[n * k + k];
        for (int j = k + 1; j < n; ++j) M[n * i + j] = M[n * i + j] - l * M[n * k + j];
        a[i] = a[i] - l * a[k];
      }
    for (int i = n - 1; i >= 0; --i) {
      for (int j = i + 1; j < n; ++j) a[i] = a[i] - M[n * i + j] * a[j];
      a[i] = a[i] / M[n * i + i];
    }
    for (int i = 0; i < n; ++i) {
      f[i] = u[n + i];
      f[n + i] = a[i];
    }
  }

  // Whether the forces at the state x and parameters p change with t: the
  // derivative in t (a Jet) at two times.
  bool depends_on_time(const Vector& x, const Vector& p) const {
    using Jet = ceres::Jet<double, 1>;
    const int n = dof();
    std::vector<Jet> u(2 * n + p.size()), M(n * n), force(n);
    for (int i = 0; i < 2 * n; ++i) u[i] = Jet(x[i]);
    for (int i = 0; i < p.size(); ++i) u[2 * n + i] = Jet(p[i]);
    const auto m = at(u.data() + 2 * n);
    for (const double t : {0.37, 1.91}) {
      m.template force<Jet>(u.data(), u.data() + n, Jet(t, 0), force.data());
      m.template mass<Jet>(u.data(), Jet(t, 0), M.data());
      for (const Jet& v : force)
        if (v.v[0] != 0.0) return true;
      for (const Jet& v : M)
        if (v.v[0] != 0.0) return true;
    }
    return false;
  }

 private:
  // The model of scalar T with the carried parameters from p.
  template <class T>
  auto at(const T* p) const {
    auto m = model_.template cast<T>();
    int i = 0, j = 0;
    decltype(m)::parameters(m, [&](const char*, auto& v, const char*) {
      if constexpr (std::is_same_v<std::remove_reference_t<decltype(v)>, T>)
        if (j < static_cast<int>(carried_.size()) && carried_[j] == i) v = p[j++];
      ++i;
    });
    return m;
  }

  Model model_;
  std::vector<int> carried_;  // per parameter, its place in the model's visiting order
  std::vector<std::string> names_;
  Vector values_;
};

}  // namespace saltus::models
