#pragma once
// The forced dry-friction oscillator in closed form (issue 35): a block on a
// belt moving at speed V, Coulomb friction F, forced at frequency w,
//
//   x'' + x = cos(w t) - F sgn(x' - V),     h = x' - V,     T = 2 pi / w
//
// (di Bernardo, Kowalczyk & Nordmark, Int. J. Bifurcation and Chaos 13,
// 2003; Kowalczyk & Piiroinen, Physica D 237, 2008: the undamped oscillator,
// our parameter values). An exact reference for saltus's Filippov orbits and
// sliding bifurcations: nothing here integrates numerically.
//
// The pieces of the flow (c = 1 / (1 - w^2), w != 1):
//  - slip s = sgn(x' - V) = +-1: linear with the force -s F, so with
//    z = (x, x'), z_p(s, t) = (-s F + c cos w t, -c w sin w t) and the
//    rotation R(tau) = [cos tau, sin tau; -sin tau, cos tau] (x'' = -x),
//        z(t) = z_p(s, t) + R(t - t_a) (z_a - z_p(s, t_a));
//  - stick (sliding on h = 0): x' = V, x = x_a + V (t - t_a), held while the
//    friction that holds it, lambda = g / F with g(t, x) = cos w t - x
//    (x'' = g - F lambda = 0), has |lambda| < 1. The sliding region is
//    |g| < F; its boundary g = +F (resp. -F) is where the slip+ (slip-)
//    field is tangent to h = 0 (x'' = g - s F = 0), and a stick ends there
//    into that slip. At a stick's end the state is a function of the time
//    alone: z_e = (cos w t_e - s F, V), which is what makes the orbits a few
//    equations in the switching times;
//  - a slip that reaches x' = V sticks where |g| < F, and crosses into the
//    other slip where |g| > F (slip- -> slip+ needs g > F: x'' > 0 on both
//    sides).
//
// The period-1 orbits, by their event sequence over one period (regimes;
// the unknowns are the event times, the equations close the orbit):
//  - kPureSlip: slip- all period, x' < V: z = z_p(-1, t), which needs
//    V > max x' = |c| w. Exact, no equation.
//  - kOneStick: stick ends at t_b (g = -F) into slip-, which lands at t_c
//    (x' = V, |g| < F) and sticks until t_b + T. Unknowns (t_b, t_c):
//      x'(t_c) - V = 0                                (slip- from z_e(t_b)),
//      x(t_c) + V (t_b + T - t_c) - (cos w t_b + F) = 0   (the stick ends at t_b + T).
//  - kTwoSticks: stick 1 ends at t_b into slip-, landing at t_c; stick 2
//    ends at t_e (g = +F) into slip+, landing at t_d; stick 1 until t_b + T.
//    Unknowns (t_b, t_c, t_e, t_d):
//      x'(t_c) - V = 0,  x(t_c) + V (t_e - t_c) - (cos w t_e - F) = 0,
//      x'(t_d) - V = 0 (slip+ from z_e(t_e)),  x(t_d) + V (t_b + T - t_d) - (cos w t_b + F) = 0.
//  - kCrossing: stick ends at t_b into slip-, which crosses x' = V at t_c
//    (g > F) into slip+, landing at t_d; stick until t_b + T. Unknowns
//    (t_b, t_c, t_d):
//      x'(t_c) - V = 0,  x'(t_d) - V = 0 (slip+ from (x(t_c), V)),
//      x(t_d) + V (t_b + T - t_d) - (cos w t_b + F) = 0.
// Newton on these with exact derivatives (ceres::Jet) converges to
// rounding; valid() then checks the inequalities that make the solution the
// regime's orbit (x' on the right side of V along each slip, |g| < F along
// each stick, the landing and crossing conditions), on a fine grid.
//
// Floquet multipliers in closed form. The monodromy is the product of the
// flows' state-transition matrices and the saltation matrices (Aizerman &
// Gantmakher; di Bernardo et al., Piecewise-smooth Dynamical Systems, 2008,
// Sec. 2.5): with h_x = (0, 1), h_t = 0,
//  - slip: R(tau), the system being linear;
//  - crossing s1 -> s2 at g: S = I + (f2 - f1) h_x^T / (h_x . f1)
//    = diag(1, (g - s2 F) / (g - s1 F));
//  - landing (slip s -> stick): S = I + (f_stick - f_s) h_x^T / (h_x . f_s)
//    = diag(1, 0) =: P, the projection onto the surface, followed by the
//    stick's [1 tau; 0 1], whose product is P again;
//  - a stick's end: the slip field equals the sliding one there (x'' = g -
//    s F = 0), so S = I.
// The monodromy is therefore rank one per stick through P = e1 e1^T: one
// multiplier is exactly 0 (from the landing's saltation), the other its
// trace. Over a period from t_b, with tau_- the slip- duration,
//   kOneStick:   mu = e1^T R(tau_-) e1 = cos tau_-,
//   kTwoSticks:  mu = cos tau_- cos tau_+   (tau_+ = t_d - t_e),
//   kCrossing:   mu = e1^T R(tau_+) diag(1, k) R(tau_-) e1
//                   = cos tau_- cos tau_+ - k sin tau_- sin tau_+,
//                k = (g_c - F) / (g_c + F), tau_- = t_c - t_b, tau_+ = t_d - t_c,
//   kPureSlip:   exp(+-i T), the undamped rotation over a period.
//
// Sliding bifurcations of these orbits as w varies (the regime's equations
// plus one defining condition, unknown w), at a point x* on the boundary of
// the sliding region (di Bernardo, Kowalczyk & Nordmark, Physica D 170,
// 2002, Sec. 3; Kowalczyk & Piiroinen 2008, Sec. 2):
//  - crossing-sliding (CS): kCrossing's crossing point reaches the boundary
//    g = F, where the slip+ leaving it is tangent to h = 0 with the tangency
//    visible (x''' = dg/dt = -w sin w t_c - V > 0: the slip+ lifts off).
//    Past it the crossing becomes a short stick that ends at g = F into the
//    same slip+: kCrossing <-> kTwoSticks (t_e -> t_c). Extra equation
//    g(t_c, x(t_c)) - F = 0.
//  - switching-sliding (SS): the same condition where the tangency is
//    invisible (dg/dt < 0): the slip+ after the crossing bends back at once
//    and lands: kCrossing (a short slip+ then a stick) <-> kOneStick (the
//    slip- lands directly). Extra equation g(t_c, x(t_c)) - F = 0, dg/dt < 0.
//    (Both are "a crossing point reaches the boundary of the sliding
//    region"; the visibility of the slip+ tangency there tells them apart,
//    which is our reading of dBKN's types I and III. The sign of dg/dt at
//    the point, Bifurcation::dg_dt, is what the tests record with each.)
//  - adding-sliding (AS): on kOneStick's stick, lambda = g / F touches 1
//    (g = F and dg/dt = -w sin w t - V = 0 at one time t_s: the exit point of
//    the slip+ tangency is cubic). Past it the stick exits into a short
//    slip+ that lands again: kOneStick <-> kTwoSticks (t_d - t_e -> 0).
//    Extra unknown t_s, equations g(t_s, x(t_s)) - F = 0, -w sin w t_s - V = 0.
//  - grazing-sliding (GS): the pure slip- orbit's largest x' reaches V,
//    which it does where x'' = g + F = 0, i.e. on the boundary g = -F; for
//    w > 1 that largest x' is |c| w = w / (w^2 - 1), equal to V at
//        w_GS = (1 + sqrt(1 + 4 V^2)) / (2 V),   for every F;
//    below it kOneStick's stick shrinks to nothing (t_c -> t_b + T).

#include <ceres/jet.h>

#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <complex>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace saltus::testing::dry_friction {

enum class Regime { kPureSlip, kOneStick, kTwoSticks, kCrossing };

inline int unknowns(Regime r) {
  switch (r) {
    case Regime::kPureSlip:
      return 0;
    case Regime::kOneStick:
      return 2;
    case Regime::kTwoSticks:
      return 4;
    case Regime::kCrossing:
      return 3;
  }
  return 0;
}

// The pieces of the flow, on any scalar (double, ceres::Jet).
template <class T>
struct Flow {
  T w, F, V;
  T c() const { return T(1.0) / (T(1.0) - w * w); }
  T period() const { return T(2.0 * M_PI) / w; }
  std::array<T, 2> particular(double s, const T& t) const {
    using std::cos;
    using std::sin;
    return {-s * F + c() * cos(w * t), -c() * w * sin(w * t)};
  }
  // Slip s from z_a at t_a, at time t.
  std::array<T, 2> slip(double s, const T& ta, const std::array<T, 2>& za, const T& t) const {
    using std::cos;
    using std::sin;
    const auto pa = particular(s, ta), p = particular(s, t);
    const T d0 = za[0] - pa[0], d1 = za[1] - pa[1], ct = cos(t - ta), st = sin(t - ta);
    return {p[0] + ct * d0 + st * d1, p[1] - st * d0 + ct * d1};
  }
  T g(const T& t, const T& x) const {
    using std::cos;
    return cos(w * t) - x;
  }
  // The state where a stick ends at t into slip s (g = s F).
  std::array<T, 2> stick_end(double s, const T& t) const {
    using std::cos;
    return {cos(w * t) - s * F, V};
  }
};

// The regime's equations at the times u (unknowns(r) of them), r the same
// number of residuals (the header's derivation).
template <class T>
void orbit_residual(Regime regime, const Flow<T>& f, const T* u, T* r) {
  using std::cos;
  const T Tp = f.period();
  switch (regime) {
    case Regime::kPureSlip:
      return;
    case Regime::kOneStick: {
      const T tb = u[0], tc = u[1];
      const auto zc = f.slip(-1, tb, f.stick_end(-1, tb), tc);
      r[0] = zc[1] - f.V;
      r[1] = zc[0] + f.V * (tb + Tp - tc) - (cos(f.w * tb) + f.F);
      return;
    }
    case Regime::kTwoSticks: {
      const T tb = u[0], tc = u[1], te = u[2], td = u[3];
      const auto zc = f.slip(-1, tb, f.stick_end(-1, tb), tc);
      const auto zd = f.slip(+1, te, f.stick_end(+1, te), td);
      r[0] = zc[1] - f.V;
      r[1] = zc[0] + f.V * (te - tc) - (cos(f.w * te) - f.F);
      r[2] = zd[1] - f.V;
      r[3] = zd[0] + f.V * (tb + Tp - td) - (cos(f.w * tb) + f.F);
      return;
    }
    case Regime::kCrossing: {
      const T tb = u[0], tc = u[1], td = u[2];
      const auto zc = f.slip(-1, tb, f.stick_end(-1, tb), tc);
      const auto zd = f.slip(+1, tc, {zc[0], f.V}, td);
      r[0] = zc[1] - f.V;
      r[1] = zd[1] - f.V;
      r[2] = zd[0] + f.V * (tb + Tp - td) - (cos(f.w * tb) + f.F);
      return;
    }
  }
}

// Newton on residual(u, r) (n equations in n unknowns, templated on the
// scalar) with the Jacobian from ceres::Jet: to |r| < 1e-14 (rounding) or
// throws naming what failed.
template <int N, class Residual>
Eigen::Matrix<double, N, 1> newton(const Residual& residual, Eigen::Matrix<double, N, 1> u,
                                   const std::string& what) {
  using J = ceres::Jet<double, N>;
  for (int it = 0; it < 60; ++it) {
    std::array<J, N> uj, rj;
    for (int i = 0; i < N; ++i) uj[i] = J(u[i], i);
    residual(uj.data(), rj.data());
    Eigen::Matrix<double, N, 1> r;
    Eigen::Matrix<double, N, N> D;
    for (int i = 0; i < N; ++i) {
      r[i] = rj[i].a;
      D.row(i) = rj[i].v.transpose();
    }
    const Eigen::Matrix<double, N, 1> step = D.fullPivLu().solve(r);
    u -= step;
    if (!u.allFinite()) break;
    if (step.norm() < 1e-15 * (1 + u.norm()) || (r.norm() < 1e-15 && it > 0)) {
      // one more residual at the final u, to report it
      std::array<double, N> rd, ud;
      for (int i = 0; i < N; ++i) ud[i] = u[i];
      residual(ud.data(), rd.data());
      double norm = 0;
      for (double v : rd) norm = std::max(norm, std::abs(v));
      if (norm < 1e-12) return u;
      break;
    }
  }
  throw std::runtime_error("dry_friction: Newton did not converge for " + what);
}

// One period-1 orbit in closed form.
struct Orbit {
  double w = 0, F = 0, V = 0;
  Regime regime = Regime::kPureSlip;
  std::vector<double> times;  // the regime's unknowns (above), t_b first

  Flow<double> flow() const { return {w, F, V}; }
  double period() const { return 2 * M_PI / w; }

  // The state at time t (any t: the orbit has period T), piece by piece.
  Eigen::Vector2d state(double t) const {
    const Flow<double> f = flow();
    if (regime == Regime::kPureSlip) {
      const auto p = f.particular(-1, t);
      return {p[0], p[1]};
    }
    const double T = period(), tb = times[0];
    const double s = tb + std::fmod(std::fmod(t - tb, T) + T, T);  // in [tb, tb + T)
    auto stick = [&](double ta, double xa) { return Eigen::Vector2d(xa + V * (s - ta), V); };
    const double tc = times[1];
    const auto zc = f.slip(-1, tb, f.stick_end(-1, tb), tc);
    auto slip_minus = [&] {
      const auto z = f.slip(-1, tb, f.stick_end(-1, tb), s);
      return Eigen::Vector2d(z[0], z[1]);
    };
    switch (regime) {
      case Regime::kOneStick:
        return s < tc ? slip_minus() : stick(tc, zc[0]);
      case Regime::kTwoSticks: {
        const double te = times[2], td = times[3];
        if (s < tc) return slip_minus();
        if (s < te) return stick(tc, zc[0]);
        const auto zd = f.slip(+1, te, f.stick_end(+1, te), td);
        if (s < td) {
          const auto z = f.slip(+1, te, f.stick_end(+1, te), s);
          return {z[0], z[1]};
        }
        return stick(td, zd[0]);
      }
      case Regime::kCrossing: {
        const double td = times[2];
        if (s < tc) return slip_minus();
        const auto zd = f.slip(+1, tc, {zc[0], V}, td);
        if (s < td) {
          const auto z = f.slip(+1, tc, {zc[0], V}, s);
          return {z[0], z[1]};
        }
        return stick(td, zd[0]);
      }
      default:
        return {};
    }
  }

  // The Floquet multipliers in closed form (header), largest modulus first:
  // (mu, 0) with a stick, exp(+-i T) without.
  std::array<std::complex<double>, 2> multipliers() const {
    const Flow<double> f = flow();
    if (regime == Regime::kPureSlip) {
      const double T = period();
      return {std::complex<double>(std::cos(T), std::sin(T)),
              std::complex<double>(std::cos(T), -std::sin(T))};
    }
    const double tb = times[0], tc = times[1];
    double mu = 0;
    switch (regime) {
      case Regime::kOneStick:
        mu = std::cos(tc - tb);
        break;
      case Regime::kTwoSticks:
        mu = std::cos(tc - tb) * std::cos(times[3] - times[2]);
        break;
      case Regime::kCrossing: {
        const double xc = f.slip(-1, tb, f.stick_end(-1, tb), tc)[0], gc = f.g(tc, xc);
        const double k = (gc - F) / (gc + F), a = tc - tb, b = times[2] - tc;
        mu = std::cos(a) * std::cos(b) - k * std::sin(a) * std::sin(b);
        break;
      }
      default:
        break;
    }
    return {mu, 0.0};
  }

  // The inequalities that make the times this regime's orbit, on a grid of
  // `samples` points per piece: empty when they hold, else what fails.
  std::string invalid(int samples = 2000) const {
    std::ostringstream why;
    const Flow<double> f = flow();
    const double T = period(), eps = 1e-9;
    auto check_slip = [&](double s, double from, double to, const char* name) {
      for (int i = 1; i < samples; ++i) {
        const double t = from + (to - from) * i / samples;
        const double v = state(t)[1];
        if (!(s * (v - V) > 0)) {
          why << name << ": x' - V = " << v - V << " at t = " << t << "; ";
          return;
        }
      }
    };
    auto check_stick = [&](double from, double to, const char* name) {
      for (int i = 1; i < samples; ++i) {
        const double t = from + (to - from) * i / samples;
        const double lambda = f.g(t, state(t)[0]) / F;
        if (!(std::abs(lambda) < 1 + eps)) {
          why << name << ": |lambda| = " << std::abs(lambda) << " at t = " << t << "; ";
          return;
        }
      }
    };
    if (regime == Regime::kPureSlip) {
      check_slip(-1, 0, T, "slip-");
      return why.str();
    }
    const double tb = times[0], tc = times[1];
    if (!(tb < tc)) why << "t_c <= t_b; ";
    check_slip(-1, tb, tc, "slip-");
    const double gc = f.g(tc, state(tc)[0]);
    switch (regime) {
      case Regime::kOneStick:
        if (!(tc < tb + T)) why << "t_c beyond t_b + T; ";
        if (!(std::abs(gc) < F)) why << "the landing |g| = " << std::abs(gc) << " >= F; ";
        check_stick(tc, tb + T, "stick");
        break;
      case Regime::kTwoSticks: {
        const double te = times[2], td = times[3];
        if (!(tc < te && te < td && td < tb + T)) why << "times out of order; ";
        if (!(std::abs(gc) < F)) why << "the landing of slip- |g| = " << std::abs(gc) << " >= F; ";
        check_stick(tc, te, "stick 2");
        check_slip(+1, te, td, "slip+");
        if (!(std::abs(f.g(td, state(td)[0])) < F)) why << "the landing of slip+ outside |g| < F; ";
        check_stick(td, tb + T, "stick 1");
        break;
      }
      case Regime::kCrossing: {
        const double td = times[2];
        if (!(tc < td && td < tb + T)) why << "times out of order; ";
        if (!(gc > F)) why << "the crossing g = " << gc << " <= F; ";
        check_slip(+1, tc, td, "slip+");
        if (!(std::abs(f.g(td, state(td)[0])) < F)) why << "the landing of slip+ outside |g| < F; ";
        check_stick(td, tb + T, "stick");
        break;
      }
      default:
        break;
    }
    return why.str();
  }
};

// The regime's orbit at (w, F, V) by Newton from the times `guess`.
inline Orbit solve_orbit(Regime regime, double w, double F, double V, const std::vector<double>& guess) {
  Orbit o{w, F, V, regime, guess};
  auto run = [&](auto n_tag) {
    constexpr int N = decltype(n_tag)::value;
    Eigen::Matrix<double, N, 1> u;
    for (int i = 0; i < N; ++i) u[i] = guess.at(static_cast<std::size_t>(i));
    const auto residual = [&](const auto* x, auto* r) {
      using S = std::remove_cv_t<std::remove_reference_t<decltype(x[0])>>;
      orbit_residual<S>(regime, Flow<S>{S(w), S(F), S(V)}, x, r);
    };
    u = newton<N>(residual, u, "the orbit at w = " + std::to_string(w));
    for (int i = 0; i < N; ++i) o.times[static_cast<std::size_t>(i)] = u[i];
  };
  switch (unknowns(regime)) {
    case 2:
      run(std::integral_constant<int, 2>());
      break;
    case 3:
      run(std::integral_constant<int, 3>());
      break;
    case 4:
      run(std::integral_constant<int, 4>());
      break;
    default:
      break;
  }
  return o;
}

// The orbit at w, continued in small steps of w from (w0, guess) (natural
// continuation: each step's times the next one's guess).
inline Orbit follow_orbit(Regime regime, double w0, const std::vector<double>& guess, double w, double F,
                          double V) {
  Orbit o = solve_orbit(regime, w0, F, V, guess);
  const int steps = std::max(1, static_cast<int>(std::ceil(std::abs(w - w0) / 0.01)));
  for (int k = 1; k <= steps; ++k) {
    const double wk = w0 + (w - w0) * k / steps;
    // The times scale with the period at a fixed phase of the forcing.
    std::vector<double> next = o.times;
    for (double& t : next) t *= o.w / wk;
    o = solve_orbit(regime, wk, F, V, next);
  }
  return o;
}

// Sliding bifurcations (header): w and the orbit's times at the bifurcation.
struct Bifurcation {
  double w = 0;
  std::vector<double> times;  // the regime's times at the point (t_s last for AS)
  double dg_dt = 0;           // dg/dt at the boundary point (> 0: CS, < 0: SS; 0 at AS)
};

// kCrossing's crossing at the boundary g = F: CS where dg/dt > 0, SS where
// dg/dt < 0. Unknowns (t_b, t_c, t_d, w), from a guess of (w, times) at
// (F, V): a crossing orbit near it, or the point at a nearby F (the
// two-parameter curve in (w, F), one point at a time).
inline Bifurcation crossing_at_boundary(double F, double V, double w, const std::vector<double>& times) {
  Eigen::Vector4d u(times.at(0), times.at(1), times.at(2), w);
  const auto residual = [&](const auto* x, auto* r) {
    using S = std::remove_cv_t<std::remove_reference_t<decltype(x[0])>>;
    const Flow<S> f{x[3], S(F), S(V)};
    orbit_residual<S>(Regime::kCrossing, f, x, r);
    const auto zc = f.slip(-1, x[0], f.stick_end(-1, x[0]), x[1]);
    r[3] = f.g(x[1], zc[0]) - f.F;
  };
  u = newton<4>(residual, u, "the crossing at the sliding boundary");
  return {u[3], {u[0], u[1], u[2]}, -u[3] * std::sin(u[3] * u[1]) - V};
}
inline Bifurcation crossing_at_boundary(const Orbit& near) {
  return crossing_at_boundary(near.F, near.V, near.w, near.times);
}

// kOneStick's lambda touching 1 (AS). Unknowns (t_b, t_c, t_s, w), from a
// guess of (w, (t_b, t_c, t_s)) at (F, V): a one-stick orbit near it with
// the time of its largest lambda, or the point at a nearby F.
inline Bifurcation adding_sliding(double F, double V, double w, const std::vector<double>& times) {
  Eigen::Vector4d u(times.at(0), times.at(1), times.at(2), w);
  const auto residual = [&](const auto* x, auto* r) {
    using S = std::remove_cv_t<std::remove_reference_t<decltype(x[0])>>;
    using std::sin;
    const Flow<S> f{x[3], S(F), S(V)};
    orbit_residual<S>(Regime::kOneStick, f, x, r);
    const auto zc = f.slip(-1, x[0], f.stick_end(-1, x[0]), x[1]);
    r[2] = f.g(x[2], zc[0] + f.V * (x[2] - x[1])) - f.F;
    r[3] = -f.w * sin(f.w * x[2]) - f.V;
  };
  u = newton<4>(residual, u, "the adding-sliding point");
  return {u[3], {u[0], u[1], u[2]}, 0.0};
}
inline Bifurcation adding_sliding(const Orbit& near, double ts) {
  return adding_sliding(near.F, near.V, near.w, {near.times[0], near.times[1], ts});
}

// The codimension-2 point where the CS curve turns into the SS curve and
// meets the AS curve: kOneStick's slip- lands on the boundary g = F (the
// crossing of CS/SS at the boundary) where dg/dt = 0 (AS's touching, t_s =
// t_c). Unknowns (t_b, t_c, w, F) at V from a guess; returns (w, F, t_b, t_c).
inline Eigen::Vector4d crossing_adding_point(double V, const Eigen::Vector4d& guess) {
  const auto residual = [&](const auto* x, auto* r) {
    using S = std::remove_cv_t<std::remove_reference_t<decltype(x[0])>>;
    using std::sin;
    const Flow<S> f{x[2], x[3], S(V)};
    orbit_residual<S>(Regime::kOneStick, f, x, r);
    const auto zc = f.slip(-1, x[0], f.stick_end(-1, x[0]), x[1]);
    r[2] = f.g(x[1], zc[0]) - f.F;
    r[3] = -f.w * sin(f.w * x[1]) - f.V;
  };
  const Eigen::Vector4d u =
      newton<4>(residual, Eigen::Vector4d(guess[2], guess[3], guess[0], guess[1]), "the CS-SS-AS point");
  return {u[2], u[3], u[0], u[1]};
}

// GS: the pure slip- orbit's largest x', w / (w^2 - 1), equal to V.
inline double grazing_sliding_w(double V) { return (1 + std::sqrt(1 + 4 * V * V)) / (2 * V); }

}  // namespace saltus::testing::dry_friction
