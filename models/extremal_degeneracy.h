#pragma once
// Scalars that vanish on the fold, cusp and swallowtail sets of the extremal
// problem f(s1, s2; x, y, phi) = 0 (models/extremal.h, eq. (3) of Damerau &
// Low 2016), as smooth functions of u = (s1, s2, x, y, phi) with exact
// gradients, so that fold and cusp curves can be continued with Newton.
//
//   det  = det J / (|c1'| |c2'|)      J = df/d(s1, s2): the arc-length determinant, eq. (10)
//   c2~  = w . f_ss[v, v] / 2          the quadratic coefficient of a Lyapunov-Schmidt reduction
//   c3~  = w . f_sss[v, v, v] / 6 + (w . f_ss[v, q]) y2,   y2 = -(e . f_ss[v, v] / 2) / (e . J q)
//
// with the kernel and left-kernel vectors of J from its adjugate,
// v = (-J12, J11), w = (J22, -J12) (J v = (det J, 0), w J = (det J, 0)),
// the complement q = (0, 1) and the equation e = (1, 0). At an extremal
// point J12 = (t2 . t1) |c2'| = +-|c2'| != 0, so v, w never vanish and
// e . J q = J12 != 0.
//
// Why c2~ and c3~ may stand for the paper's c_2 and c_3. At a fold point
// (f = 0, det J = 0, trace != 0), write s = s* + z v + y q and solve the
// first equation e . f = 0 for y(z) (possible: d/dy = e . J q != 0). Then
// g(z) = w . f(s* + z v + y(z) q) is a Lyapunov-Schmidt reduction: its zeros
// are the extremal points near s*. From e . f(z, y(z)) = 0: y'(0) = 0 (J v =
// 0) and y''(0) = -e . f_ss[v, v] / (e . J q) = 2 y2, and since w . J = 0,
//   g''(0) / 2  = w . f_ss[v, v] / 2                           = c2~,
//   g'''(0) / 6 = w . f_sss[v, v, v] / 6 + w . f_ss[v, q] y2   = c3~  (where c2~ = 0).
// The paper's reduced equation (21) on the centre manifold of (12) and g are
// two reductions of the same zero set, so they are contact equivalent:
// g(z) = m(z) r(h(z)) with m(0) != 0, h(0) = 0, h'(0) != 0 (Golubitsky &
// Schaeffer, "Singularities and groups in bifurcation theory I", ch. II and
// IV). Hence, where the lower coefficients vanish (c_2 = .. = c_(k-1) = 0),
// the k-th coefficient of g is m(0) h'(0)^k c_k: in particular c2~ = 0 exactly
// where c_2 = 0 on the fold set, and c3~ = 0 exactly where c_3 = 0 on the
// cusp set. The values differ from the paper's by those nonzero factors; only
// their zeros (and the sign changes the continuation monitors) are used.
// Off the fold set c2~ and c3~ are just smooth functions (their zero sets are
// what the augmented systems need).
//
// Exactness. The scalars are computed from the scalar-templated
// ExtremalEquations evaluated on truncated Taylor series along straight
// lines in (s1, s2) (continuation/taylor.h): f(s + t v) to order 3 gives
// f_ss[v, v] / 2 and f_sss[v, v, v] / 6, and the mixed f_ss[v, q] comes from
// the exact polarization f_ss[v+q, v+q] - f_ss[v-q, v-q] = 4 f_ss[v, q].
// The coefficients are ceres::Jet<double, 5> for the gradient in u: Jets on
// top of the Taylor series (Taylor<Jet, 3>), the curves' own c'(s) one more
// Taylor level inside. No finite differences anywhere.

#include <ceres/jet.h>

#include <Eigen/Dense>
#include <array>
#include <memory>

#include "continuation/system.h"
#include "continuation/taylor.h"

namespace saltus::models {

// The three scalars and, on request, their gradients in u.
class ExtremalDegeneracy {
 public:
  virtual ~ExtremalDegeneracy() = default;
  // (det, c2~, c3~) at u = (s1, s2, x, y, phi); gradient (3 x 5) when not null.
  virtual Eigen::Vector3d evaluate(const Vector& u,
                                   Eigen::Matrix<double, 3, 5>* gradient = nullptr) const = 0;
};

namespace detail {

// f(s + t dir) as series to order K (the pose components constant).
template <int K, class T, class Equations>
void series_along(const Equations& equations, const T* u, const T* dir, Taylor<T, K>* f) {
  using Series = Taylor<T, K>;
  Series us[5];
  for (int i = 0; i < 5; ++i) {
    us[i] = Series();
    us[i][0] = u[i];
  }
  for (int i = 0; i < 2; ++i) {
    std::vector<T> coefficients(K + 1, T(0.0));
    coefficients[0] = u[i];
    coefficients[1] = dir[i];
    us[i] = Series::from_coefficients(coefficients);
  }
  equations(us, f);
}

// |c'(s)| of a shape, on any scalar.
template <class T, class Shape>
T speed_of(const Shape& shape, const T& s) {
  using std::sqrt;
  using Series = Taylor<T, 1>;
  Series xy[2];
  shape.eval(Series::variable(s, 1), xy);
  return sqrt(xy[0][1] * xy[0][1] + xy[1][1] * xy[1][1]);
}

// (det, c2~, c3~) of the header, on any scalar T (double, ceres::Jet).
template <class T, class Equations>
void degeneracy_scalars(const Equations& equations, const T* u, T* out) {
  // J column by column: f along e1 and e2 to first order.
  T J[2][2];
  for (int col = 0; col < 2; ++col) {
    T dir[2] = {T(col == 0 ? 1.0 : 0.0), T(col == 1 ? 1.0 : 0.0)};
    Taylor<T, 1> f[2];
    series_along<1>(equations, u, dir, f);
    J[0][col] = f[0][1];
    J[1][col] = f[1][1];
  }
  const T det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
  out[0] = det / (speed_of(equations.curve1, u[0]) * speed_of(equations.curve2, u[1]));

  const T v[2] = {-J[0][1], J[0][0]};  // J v = (det, 0)
  const T w[2] = {J[1][1], -J[0][1]};  // w J = (det, 0)
  Taylor<T, 3> f[2];
  series_along<3>(equations, u, v, f);
  out[1] = w[0] * f[0][2] + w[1] * f[1][2];

  // f_ss[v, q] by polarization, q = (0, 1).
  const T plus[2] = {v[0], v[1] + 1.0};
  const T minus[2] = {v[0], v[1] - 1.0};
  Taylor<T, 2> fp[2], fm[2];
  series_along<2>(equations, u, plus, fp);
  series_along<2>(equations, u, minus, fm);
  const T w_fvq = (w[0] * (fp[0][2] - fm[0][2]) + w[1] * (fp[1][2] - fm[1][2])) * 0.5;
  const T y2 = -f[0][2] / J[0][1];  // e = (1, 0): e . J q = J12
  out[2] = w[0] * f[0][3] + w[1] * f[1][3] + w_fvq * y2;
}

template <class Equations>
class Degeneracy : public ExtremalDegeneracy {
 public:
  explicit Degeneracy(Equations equations) : equations_(std::move(equations)) {}
  Eigen::Vector3d evaluate(const Vector& u, Eigen::Matrix<double, 3, 5>* gradient) const override {
    Eigen::Vector3d values;
    if (!gradient) {
      degeneracy_scalars<double>(equations_, u.data(), values.data());
      return values;
    }
    using Jet = ceres::Jet<double, 5>;
    Jet uj[5], out[3];
    for (int i = 0; i < 5; ++i) uj[i] = Jet(u[i], i);
    degeneracy_scalars<Jet>(equations_, uj, out);
    for (int r = 0; r < 3; ++r) {
      values[r] = out[r].a;
      gradient->row(r) = out[r].v.transpose();
    }
    return values;
  }

 private:
  Equations equations_;
};

}  // namespace detail

}  // namespace saltus::models
