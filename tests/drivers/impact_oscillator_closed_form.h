#pragma once
// The impact oscillator of examples/user/impact_oscillator.json in closed form. Between impacts
// the oscillator x'' + 2 zeta x' + x = F cos(w t) is linear: with z = (x, v),
//
//   z(t) = z_p(t) + E(t - s) (z(s) - z_p(s)),   E(t) = e^{At},  A = [0 1; -1 -2 zeta],
//   E(t) = e^{-zeta t} (cos(wd t) I + sin(wd t) (A + zeta I) / wd),  wd = sqrt(1 - zeta^2),
//   z_p(t) = Re((1, i w) X e^{i w t}),  X = F / (1 - w^2 + 2 i zeta w)   (the forced response).
//
// A period-1 orbit with one impact per period T = 2 pi / w hits x = d at
// time s with speed v > 0 and leaves with -r v: (d, v) = z_p(s) + E(T) ((d, -r v) - z_p(s)).
// With e2 = (0, 1) that is v c = g(s), c = e2 + r E(T) e2, g = (E(T) - I)((d, 0) - z_p(s)),
// so s solves c2 g1(s) - c1 g2(s) = 0 and v = c.g / c.c. The monodromy from
// just after an impact to just after the next is S E(T), with the saltation
// matrix of the impact (h = d - x, reset v+ = -r v-; Aizerman & Gantmakher,
// as in continuation/flow/hybrid_system.h):
//
//   S = [ -r, 0; (a+ + r a-) / v, -r ],  a-+ = -+2 zeta v (1, r) - d + F cos(w s)
//
// (a- = -2 zeta v - d + F cos(w s), a+ = 2 zeta r v - d + F cos(w s)), so
// det S = r^2. Its eigenvalues are the orbit's Floquet multipliers (a cut at
// another phase conjugates the monodromy). The impactless orbit z_p grazes
// the stop where its amplitude |X| = F / sqrt((1 - w^2)^2 + (2 zeta w)^2) equals d.
// Everything here is independent of the simulator: exact exponentials and a
// scalar root.

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

namespace saltus::testing {

struct Oscillator {
  double zeta, F, d, r;

  Eigen::Matrix2d A() const { return (Eigen::Matrix2d() << 0, 1, -1, -2 * zeta).finished(); }
  Eigen::Matrix2d E(double t) const {
    const double wd = std::sqrt(1 - zeta * zeta);
    return std::exp(-zeta * t) * (std::cos(wd * t) * Eigen::Matrix2d::Identity() +
                                  std::sin(wd * t) / wd * (A() + zeta * Eigen::Matrix2d::Identity()));
  }
  Eigen::Vector2d forced(double w, double t) const {
    const std::complex<double> X = F / std::complex<double>(1 - w * w, 2 * zeta * w);
    const std::complex<double> e = X * std::exp(std::complex<double>(0, w * t));
    return {e.real(), (std::complex<double>(0, w) * e).real()};
  }
  double amplitude(double w) const { return F / std::hypot(1 - w * w, 2 * zeta * w); }
  // Where the impactless orbit grazes the stop above resonance, |X(w)| = d:
  // with W = w^2, W^2 - (2 - 4 zeta^2) W + 1 - (F / d)^2 = 0, the larger root.
  double grazing_frequency() const {
    const double b = 2 - 4 * zeta * zeta, c = 1 - (F / d) * (F / d);
    return std::sqrt(0.5 * (b + std::sqrt(b * b - 4 * c)));
  }

  struct Orbit {
    double s, v;                // impact time in [0, T), speed before it
    Eigen::Matrix2d monodromy;  // S E(T), after impact to after impact
    Eigen::Vector2d at(const Oscillator& o, double w, double t) const {  // the state at time t
      const double T = 2 * M_PI / w;
      const double since = std::fmod(std::fmod(t - s, T) + T, T);
      return o.forced(w, t) + o.E(since) * (Eigen::Vector2d(o.d, -o.r * v) - o.forced(w, s));
    }
  };

  // c2 g1(s) - c1 g2(s), and v at s.
  double condition(double w, double s, double* v = nullptr) const {
    const double T = 2 * M_PI / w;
    const Eigen::Matrix2d ET = E(T);
    const Eigen::Vector2d c = Eigen::Vector2d(0, 1) + r * ET.col(1);
    const Eigen::Vector2d g = (ET - Eigen::Matrix2d::Identity()) * (Eigen::Vector2d(d, 0) - forced(w, s));
    if (v) *v = c.dot(g) / c.dot(c);
    return c[1] * g[0] - c[0] * g[1];
  }

  // The saltation matrix of an impact at the stop x = d at time s with speed v
  // (the comment above); the left stop of a symmetric orbit gives the same.
  Eigen::Matrix2d saltation(double w, double s, double v) const {
    const double a_minus = -2 * zeta * v - d + F * std::cos(w * s),
                 a_plus = 2 * zeta * r * v - d + F * std::cos(w * s);
    return (Eigen::Matrix2d() << -r, 0, (a_plus + r * a_minus) / v, -r).finished();
  }

  Orbit orbit(double w, double s) const {
    Orbit o;
    o.s = s;
    condition(w, s, &o.v);
    o.monodromy = saltation(w, s, o.v) * E(2 * M_PI / w);
    return o;
  }

  // The period-1 orbits at w: the roots s in [0, T) of the condition with
  // v > 0 and no other contact with the stop in between (x < d).
  std::vector<Orbit> orbits(double w) const {
    const double T = 2 * M_PI / w;
    std::vector<Orbit> out;
    for (double s : roots_in(T, [&](double t) { return condition(w, t); })) {
      const Orbit o = orbit(w, s);
      if (!(o.v > 0)) continue;
      bool free = true;
      for (int j = 1; j < 400 && free; ++j) free = o.at(*this, w, o.s + T * j / 400.0)[0] < d;
      if (free) out.push_back(o);
    }
    return out;
  }

  // The sign changes of f on [0, T): a scan of 2000 cells, each bisected to 1e-15 T.
  template <class Condition>
  static std::vector<double> roots_in(double T, Condition f) {
    std::vector<double> out;
    const int n = 2000;
    for (int i = 0; i < n; ++i) {
      double a = T * i / n, b = T * (i + 1) / n;
      double fa = f(a), fb = f(b);
      if (fa * fb > 0) continue;
      for (int it = 0; it < 200 && b - a > 1e-15 * T; ++it) {
        const double m = 0.5 * (a + b), fm = f(m);
        (fa * fm <= 0 ? b : a) = m;
        (fa * fm <= 0 ? fb : fa) = fm;
      }
      out.push_back(0.5 * (a + b));
    }
    return out;
  }
};

inline Eigen::VectorXcd sorted(Eigen::VectorXcd mu) {
  std::sort(mu.data(), mu.data() + mu.size(), [](auto a, auto b) {
    return std::abs(a) != std::abs(b) ? std::abs(a) > std::abs(b) : a.imag() > b.imag();
  });
  return mu;
}

// The frequency near w where the closed-form orbit through (x, v) (its
// impact time followed by continuity) has det(S E(T) + I) = 0, by
// bisection; NaN when none is within 1e-3 of w.
inline double closed_form_pd(const Oscillator& osc, double w, const Eigen::Vector2d& point) {
  double s_ref = 0, closest_distance = 1e300;
  for (const auto& o : osc.orbits(w)) {
    double best = 1e300;
    for (int j = 0; j < 2000; ++j)
      best = std::min(best, (o.at(osc, w, 2 * M_PI / w * j / 2000.0) - point).norm());
    if (best < closest_distance) closest_distance = best, s_ref = o.s;
  }
  auto flip = [&](double wi) {
    const auto list = osc.orbits(wi);
    if (list.empty()) return std::nan("");
    const Oscillator::Orbit* best = &list.front();
    for (const auto& o : list)
      if (std::abs(std::remainder(o.s - s_ref, 2 * M_PI / wi)) <
          std::abs(std::remainder(best->s - s_ref, 2 * M_PI / wi)))
        best = &o;
    return (best->monodromy + Eigen::Matrix2d::Identity()).determinant();
  };
  // A bracket of half width 1e-3, narrowed while it holds no sign change:
  // near the grazing the impacting orbit exists on one side only, and where
  // the PD curve meets the grazing curve tangentially (the GR-PD-LPC point,
  // tests/drivers/impact_oscillator_grazing_codim2.test.cpp) the PD lies
  // within ~2 (w - w*)^2 of it.
  double a = w, b = w, fa = 0, fb = 0;
  for (double h = 1e-3; h > 1e-8 && !(fa * fb < 0); h *= 0.1)
    a = w - h, b = w + h, fa = flip(a), fb = flip(b);
  if (!(fa * fb < 0)) return std::nan("");  // no PD within 1e-3 of w
  for (int it = 0; it < 60; ++it) {
    const double m = 0.5 * (a + b), fm = flip(m);
    if (fa * fm <= 0)
      b = m, fb = fm;
    else
      a = m, fa = fm;
  }
  return 0.5 * (a + b);
}

}  // namespace saltus::testing
