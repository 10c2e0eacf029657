#pragma once
// The multilinear forms of F(x, p) in the state at a point u = (x, p), up to
// fifth order, on complex arguments:
//
//   M_k(v_1, ..., v_k) = sum_{i_1..i_k} d^k F / dx_{i_1} .. dx_{i_k} v_1[i_1] .. v_k[i_k]
//
// (B = M_2, C = M_3, D = M_4, E = M_5 in Kuznetsov, "Elements of applied
// bifurcation theory", 3rd ed., Springer 2004, Sec. 8.7), extended
// complex-multilinearly. They come exactly from Taylor passes along real
// directions (System::derivatives_along gives D_k(v) = M_k(v, ..., v)), no
// finite differences, in two steps:
//
// 1. A complex direction z = a + i b: with v(theta) = a cos theta + b sin theta
//    = (e^{-i theta} z + e^{i theta} conj z) / 2,
//      D_k(v(theta)) = 2^{-k} sum_j binom(k, j) e^{-i theta (k - 2j)} m_j,
//      m_j = M_k(z^{k-j}, conj(z)^j)   (z repeated k - j times, conj z j times),
//    a trigonometric polynomial whose k + 1 frequencies the samples
//    theta_s = pi s / (k + 1), s = 0..k, separate by a discrete Fourier
//    transform (unitary, so no loss of accuracy):
//      m_j = 2^k / ((k + 1) binom(k, j)) sum_s D_k(v(theta_s)) e^{i pi s k / (k+1)} e^{-2 pi i s j / (k+1)}.
//    So k + 1 real passes give every M_k(z^{k-j}, conj(z)^j) (one pass when z
//    is real).
// 2. Distinct arguments by polarization (valid for complex arguments, a
//    polynomial identity; the sign of eps_1 fixed by the symmetry
//    D_k(-v) = (-1)^k D_k(v)):
//      M_k(v_1, ..., v_k) = 1 / (2^{k-1} k!) sum_{eps_2..eps_k = +-1} eps_2 .. eps_k
//                           D_k(v_1 + eps_2 v_2 + ... + eps_k v_k).
//    Each argument is scaled to unit norm first (and the result back), so the
//    cancellation in the sum stays near k^k / k! rounding errors.
// Arguments that are all z or conj z for one z take step 1 alone.

#include <Eigen/Dense>
#include <vector>

#include "continuation/system.h"

namespace saltus {

class MultilinearForms {
 public:
  // Forms of `system` at u (size n + q); the directions are in the state only.
  MultilinearForms(const System& system, const Vector& u);

  // M_k(args[0], ..., args[k-1]), k = args.size() in 1..5; each argument of
  // size n.
  Eigen::VectorXcd operator()(const std::vector<Eigen::VectorXcd>& args) const;

  // D_k(v) = M_k(v, ..., v) for a real v (one Taylor pass).
  Vector power(const Vector& v, int k) const;
  // m_j = M_k(z^{k-j}, conj(z)^j), j = 0..k, as the columns (k + 1 passes).
  Eigen::MatrixXcd powers(const Eigen::VectorXcd& z, int k) const;

 private:
  const System& system_;
  Vector u_;
  int n_;
};

}  // namespace saltus
