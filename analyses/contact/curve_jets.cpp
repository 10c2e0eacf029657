// Curve jets of the contact classification (analyses/contact/classification.h):
// a curve in its arc length (series reversion), curves from a curvature
// series, and the check that no rounded double entered an exact jet.

#include <stdexcept>

#include "analyses/contact/detail.h"

namespace saltus::contact {

namespace detail {

// F(G(t)) for G(0) = 0, by Horner's rule.
template <class S>
Uni<S> compose(const Uni<S>& f, const Uni<S>& g) {
  Uni<S> r = Uni<S>::zero(std::min(f.order(), g.order()));
  r[0] = f[f.order()];
  for (int k = f.order() - 1; k >= 0; --k) {
    r = r * g;
    r[0] += f[k];
  }
  return r;
}

// The same curve in its arc length sigma (sigma = 0 at the point, increasing
// with s): sigma(t) = int_0^t |c'|, inverted as a series (fixed point
// tau <- tau + (sigma - sigma(tau)) / |c'(0)|, one order per pass), then
// c(tau(sigma)). Exact on Rational when |c'(0)| is rational.
template <class S>
CurveJet<S> arclength_jet(const CurveJet<S>& jet, int order) {
  using std::sqrt;
  const Uni<S> X = from_vector(jet.x, order), Y = from_vector(jet.y, order);
  const Uni<S> dX = differentiate(X), dY = differentiate(Y);
  const Uni<S> v = sqrt(dX * dX + dY * dY);
  const S v0 = v[0];
  const Uni<S> sigma = integrate(v, S(0.0));
  const Uni<S> var = Uni<S>::variable(S(0.0), order);
  Uni<S> tau = var;
  for (int k = 0; k <= order; ++k) tau[k] = tau[k] / v0;
  for (int pass = 0; pass < order; ++pass) {
    Uni<S> correction = var - compose(sigma, tau);
    for (int k = 0; k <= correction.order(); ++k) correction[k] = correction[k] / v0;
    tau = tau + correction;
  }
  const Uni<S> x = compose(X, tau), y = compose(Y, tau);
  CurveJet<S> out;
  out.name = jet.name;
  for (int k = 0; k <= order; ++k) {
    out.x.push_back(x[k]);
    out.y.push_back(y[k]);
  }
  return out;
}

// sin and cos of a series by the recurrences s_k = (1/k) sum_j j u_j c_{k-j},
// c_k = -(1/k) sum_j j u_j s_{k-j}, dividing by k in S (continuation/taylor.h's
// cos multiplies by sign / double(k), which rounds 1/3 on rationals).
template <class S>
void exact_sin_cos(const Uni<S>& u, Uni<S>* s, Uni<S>* c) {
  using std::cos, std::sin;
  const int n = u.order();
  *s = Uni<S>::zero(n);
  *c = Uni<S>::zero(n);
  (*s)[0] = sin(u[0]);
  (*c)[0] = cos(u[0]);
  for (int k = 1; k <= n; ++k) {
    S ss(0.0), cc(0.0);
    for (int j = 1; j <= k; ++j) {
      ss += S(static_cast<double>(j)) * u[j] * (*c)[k - j];
      cc += S(static_cast<double>(j)) * u[j] * (*s)[k - j];
    }
    (*s)[k] = ss / S(static_cast<double>(k));
    (*c)[k] = -cc / S(static_cast<double>(k));
  }
}

template CurveJet<double> arclength_jet(const CurveJet<double>&, int);
template CurveJet<Rational> arclength_jet(const CurveJet<Rational>&, int);

}  // namespace detail

using detail::exact_sin_cos;
using detail::from_vector;
using detail::kJetCapacity;
using detail::Uni;

// ---- curves from curvature -------------------------------------------------------------

template <class S>
CurveJet<S> curve_jet_from_curvature(const std::vector<S>& kappa_taylor, int order,
                                     const std::array<S, 2>& point, const std::array<S, 2>& tangent,
                                     std::string name) {
  if (order < 1 || order > kJetCapacity - 1)
    throw std::invalid_argument("curve_jet_from_curvature: order " + std::to_string(order) +
                                " is outside 1.." + std::to_string(kJetCapacity - 1));
  // theta(sigma) = int kappa, c'(sigma) = R (cos theta, sin theta), R the
  // rotation taking (1, 0) to the tangent.
  const Uni<S> kappa = from_vector(kappa_taylor, order - 1);
  const Uni<S> theta = integrate(kappa, S(0.0));
  Uni<S> ct, st;
  exact_sin_cos(theta, &st, &ct);
  const Uni<S> dx = ct * tangent[0] - st * tangent[1];
  const Uni<S> dy = ct * tangent[1] + st * tangent[0];
  const Uni<S> x = integrate(dx, point[0]), y = integrate(dy, point[1]);
  CurveJet<S> jet;
  jet.name = std::move(name);
  for (int k = 0; k <= order; ++k) {
    jet.x.push_back(x[k]);
    jet.y.push_back(y[k]);
  }
  return jet;
}

template CurveJet<double> curve_jet_from_curvature(const std::vector<double>&, int,
                                                   const std::array<double, 2>&, const std::array<double, 2>&,
                                                   std::string);
template CurveJet<Rational> curve_jet_from_curvature(const std::vector<Rational>&, int,
                                                     const std::array<Rational, 2>&,
                                                     const std::array<Rational, 2>&, std::string);

void check_not_rounded(const CurveJet<Rational>& jet) {
  for (std::size_t k = 0; k < jet.x.size(); ++k)
    for (const Rational* v : {&jet.x[k], &jet.y[k]}) {
      const auto den = boost::multiprecision::denominator(v->value());
      if (den > 1 && boost::multiprecision::lsb(den) >= 40)
        throw InexactError(
            "Taylor coefficient " + std::to_string(k) + " of curve '" + jet.name + "' is " + v->str() +
            ": a rounded double entered the exact computation (e.g. continuation/taylor.h's cos "
            "recurrence multiplies by sign / double(k))");
    }
}

}  // namespace saltus::contact
