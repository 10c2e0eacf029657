#pragma once
// The triple physical pendulum with a horizontal barrier (Awrejcewicz &
// Kudra, Sec. 4, eq. (8)): three links joined in a chain, angles psi_i from
// the downward vertical, a constant torque q1 on the first link, viscous
// damping in the joints, and a rigid frictionless barrier at depth eta below
// the first joint, which the end of every link must stay above:
//
//   M(psi) psi'' = -N(psi) psi'^2 - C psi' - p(psi) + (q1, 0, 0),
//   h_i = eta - sum_{j <= i} l_j cos(psi_j) >= 0,
//
//   M = [1, v12 c12, v13 c13; v12 c12, beta2, v23 c23; v13 c13, v23 c23, beta3],
//   N = [0, v12 s12, v13 s13; -v12 s12, 0, v23 s23; -v13 s13, -v23 s23, 0],
//   C = [c1 + c2, -c2, 0; -c2, c2 + c3, -c3; 0, -c3, c3],  p = (sin psi1, mu2 sin psi2, mu3 sin psi3),
//
// with c_ij = cos(psi_i - psi_j), s_ij = sin(psi_i - psi_j). Time is scaled by
// sqrt(M1/B1). The energy is E = psi'^T M psi' / 2 - cos psi1 - mu2 cos psi2
// - mu3 cos psi3, and dE/dt = q1 psi1' - psi'^T C psi' between impacts.
//
// Parameters. The paper's parameter line is garbled; eta = 1.2,
// c1 = c2 = c3 = 0.8 and e = 0.8 are clear. The dimensionless inertia
// parameters follow from the links (J_i centroidal inertia, s_i joint-to-
// centre distance, L_i joint-to-joint length, m_i mass; see from_links()):
// B1 = J1 + m1 s1^2 + (m2 + m3) L1^2, B2 = J2 + m2 s2^2 + m3 L2^2, B3 = J3 + m3 s3^2,
// N12 = (m2 s2 + m3 L2) L1, N13 = m3 s3 L1, N23 = m3 s3 L2,
// M1 = g (m1 s1 + (m2 + m3) L1), M2 = g (m2 s2 + m3 L2), M3 = g m3 s3;
// beta_i = B_i / B1, v_ij = N_ij / B1, mu_i = M_i / M1. The defaults are three
// identical uniform rods (J = m L^2 / 12, s = L / 2): beta2 = 4/7,
// beta3 = 1/7, v12 = 9/14, v13 = v23 = 3/14, mu2 = 3/5, mu3 = 1/5, and unit
// lengths l_i; a consistent stand-in, not the paper's (unreadable) values.

//
// The parameters have the scalar type P (double by default): with P =
// ceres::Jet one of them can ride in the state of a shooting problem, so
// that the flow's derivative in it is exact (flow::ParametersInState).

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "continuation/flow/parameters.h"

namespace saltus::models {

template <class P = double>
struct TriplePendulumT {
  P beta2 = P(4.0 / 7.0), beta3 = P(1.0 / 7.0);
  P v12 = P(9.0 / 14.0), v13 = P(3.0 / 14.0), v23 = P(3.0 / 14.0);
  P mu2 = P(3.0 / 5.0), mu3 = P(1.0 / 5.0);
  P c1 = P(0.8), c2 = P(0.8), c3 = P(0.8);  // joint damping
  P l1 = P(1.0), l2 = P(1.0), l3 = P(1.0);  // link lengths (over the reference length)
  P eta = P(1.2);                           // depth of the barrier below the first joint
  P q1 = P(1.0);                            // torque on the first link (bifurcation parameter)
  double e = 0.8;                           // restitution at the barrier

  // The parameters by name (continuation/flow/parameters.h). The
  // restitution e is a number in every cast: the impact law decides on it.
  template <class Self, class Visit>
  static void parameters(Self& self, Visit&& visit) {
    visit("beta2", self.beta2, "inertia of link 2 over link 1's, B2 / B1");
    visit("beta3", self.beta3, "inertia of link 3 over link 1's, B3 / B1");
    visit("v12", self.v12, "coupling N12 / B1");
    visit("v13", self.v13, "coupling N13 / B1");
    visit("v23", self.v23, "coupling N23 / B1");
    visit("mu2", self.mu2, "gravity moment of link 2 over link 1's, M2 / M1");
    visit("mu3", self.mu3, "gravity moment of link 3 over link 1's, M3 / M1");
    visit("c1", self.c1, "damping of joint 1");
    visit("c2", self.c2, "damping of joint 2");
    visit("c3", self.c3, "damping of joint 3");
    visit("l1", self.l1, "length of link 1 (over the reference length)");
    visit("l2", self.l2, "length of link 2");
    visit("l3", self.l3, "length of link 3");
    visit("eta", self.eta, "depth of the barrier below the first joint");
    visit("q1", self.q1, "torque on the first link");
    visit("e", self.e, "restitution at the barrier, in [0, 1]");
  }
  // Throws std::invalid_argument on a damping below zero: it feeds energy in,
  // the motion runs away, and a sweep or a Lyapunov run crawls on without
  // end (found by fuzzing the run files). Called by flow::Mechanical::check.
  void check() const requires std::is_same_v<P, double> {
    const std::pair<const char*, double> damping[] = {{"c1", c1}, {"c2", c2}, {"c3", c3}};
    for (const auto& [name, c] : damping)
      if (!(c >= 0.0))
        throw std::invalid_argument(std::string("triple pendulum: the damping ") + name + " = " +
                                    std::to_string(c) +
                                    " must be >= 0 (a negative damping drives the pendulum)");
  }
  // The same pendulum with parameters of scalar type Q.
  template <class Q>
  TriplePendulumT<Q> cast() const {
    return flow::cast_parameters<TriplePendulumT<Q>>(*this);
  }

  struct Link {
    double mass, length, centre,
        inertia;  // m_i, L_i (joint to joint), s_i (joint to centre), J_i (centroidal)
  };
  // The dimensionless parameters of three physical links, with the
  // reference length `reference` (lengths l_i = L_i / reference, eta too).
  static TriplePendulumT from_links(const Link& a, const Link& b, const Link& c, double g = 9.81,
                                    double reference = 0.0) {
    TriplePendulumT p;
    const double B1 = a.inertia + a.mass * a.centre * a.centre + (b.mass + c.mass) * a.length * a.length;
    const double B2 = b.inertia + b.mass * b.centre * b.centre + c.mass * b.length * b.length;
    const double B3 = c.inertia + c.mass * c.centre * c.centre;
    const double M1 = g * (a.mass * a.centre + (b.mass + c.mass) * a.length);
    const double M2 = g * (b.mass * b.centre + c.mass * b.length);
    const double M3 = g * c.mass * c.centre;
    p.beta2 = B2 / B1;
    p.beta3 = B3 / B1;
    p.v12 = (b.mass * b.centre + c.mass * b.length) * a.length / B1;
    p.v13 = c.mass * c.centre * a.length / B1;
    p.v23 = c.mass * c.centre * b.length / B1;
    p.mu2 = M2 / M1;
    p.mu3 = M3 / M1;
    const double ref = reference > 0 ? reference : a.length;
    p.l1 = a.length / ref;
    p.l2 = b.length / ref;
    p.l3 = c.length / ref;
    return p;
  }

  // Sizes known at compile time: flow::Mechanical then uses fixed-size
  // matrices and allocates nothing per evaluation.
  static constexpr int dof() { return 3; }
  // Its equations compile on Taylor series: flow::Mechanical gives the
  // tangent-lifted system (second derivatives of the flow through impacts,
  // for curves of cycle bifurcations).
  static constexpr bool tangent_liftable = true;
  static constexpr int constraint_count() { return 3; }
  double restitution(int) const { return e; }
  std::vector<std::string> coordinate_names() const { return {"psi1", "psi2", "psi3"}; }

  template <class T>
  void mass(const T* q, const T&, T* M) const {
    mass_from(Angles<T>(q), M);
  }

  template <class T>
  void force(const T* q, const T* w, const T&, T* f) const {
    force_from(Angles<T>(q), w, f);
  }

  // Both at once (flow::Mechanical's field): one set of sines and cosines.
  template <class T>
  void mass_and_force(const T* q, const T* w, const T&, T* M, T* f) const {
    const Angles<T> a(q);
    mass_from(a, M);
    force_from(a, w, f);
  }

  template <class T>
  T constraint(int i, const T* q, const T&) const {
    using std::cos;
    T depth = l1 * cos(q[0]);
    if (i >= 1) depth = depth + l2 * cos(q[1]);
    if (i >= 2) depth = depth + l3 * cos(q[2]);
    return eta - depth;
  }

  // E = psi'^T M psi' / 2 + V(psi), V = -cos psi1 - mu2 cos psi2 - mu3 cos psi3.
  double energy(const double* x) const {
    double M[9];
    mass<double>(x, 0.0, M);
    double kinetic = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) kinetic += 0.5 * x[3 + i] * M[3 * i + j] * x[3 + j];
    return kinetic - std::cos(x[0]) - mu2 * std::cos(x[1]) - mu3 * std::cos(x[2]);
  }
  // The dissipation rate psi'^T C psi'.
  double dissipation(const double* x) const {
    const double* w = x + 3;
    return (c1 + c2) * w[0] * w[0] - 2 * c2 * w[0] * w[1] + (c2 + c3) * w[1] * w[1] - 2 * c3 * w[1] * w[2] +
           c3 * w[2] * w[2];
  }

 private:
  // sin psi_i, and c_ij, s_ij by the addition theorems: three sine-cosine
  // pairs per evaluation instead of nine calls (the field's main cost).
  template <class T>
  struct Angles {
    T s1, s2, s3, c12, c13, c23, s12, s13, s23;
    explicit Angles(const T* q) {
      using std::cos;
      using std::sin;
      s1 = sin(q[0]);
      s2 = sin(q[1]);
      s3 = sin(q[2]);
      const T k1 = cos(q[0]), k2 = cos(q[1]), k3 = cos(q[2]);
      c12 = k1 * k2 + s1 * s2;
      c13 = k1 * k3 + s1 * s3;
      c23 = k2 * k3 + s2 * s3;
      s12 = s1 * k2 - k1 * s2;
      s13 = s1 * k3 - k1 * s3;
      s23 = s2 * k3 - k2 * s3;
    }
  };

  template <class T>
  void mass_from(const Angles<T>& a, T* M) const {
    M[0] = T(1.0);
    M[1] = v12 * a.c12;
    M[2] = v13 * a.c13;
    M[3] = v12 * a.c12;
    M[4] = T(beta2);
    M[5] = v23 * a.c23;
    M[6] = v13 * a.c13;
    M[7] = v23 * a.c23;
    M[8] = T(beta3);
  }

  template <class T>
  void force_from(const Angles<T>& a, const T* w, T* f) const {
    const T w1 = w[0] * w[0], w2 = w[1] * w[1], w3 = w[2] * w[2];
    f[0] = -(v12 * a.s12 * w2 + v13 * a.s13 * w3) - ((c1 + c2) * w[0] - c2 * w[1]) - a.s1 + q1;
    f[1] = -(-v12 * a.s12 * w1 + v23 * a.s23 * w3) - (-c2 * w[0] + (c2 + c3) * w[1] - c3 * w[2]) - mu2 * a.s2;
    f[2] = -(-v13 * a.s13 * w1 - v23 * a.s23 * w2) - (-c3 * w[1] + c3 * w[2]) - mu3 * a.s3;
  }
};

using TriplePendulum = TriplePendulumT<double>;

}  // namespace saltus::models

#include "continuation/flow/mechanical.h"

namespace saltus::flow {
// The pendulum's flow is instantiated once, in models/triple_pendulum.cpp
// (see AutoDiffHybrid::tangent_lifted).
extern template class AutoDiffHybrid<Mechanical<models::TriplePendulum>>;
}  // namespace saltus::flow
