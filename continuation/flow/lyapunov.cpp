#include "continuation/flow/lyapunov.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace saltus::flow {

std::string LyapunovOptions::check() const {
  std::ostringstream why;
  if (!(transient >= 0) || !std::isfinite(transient))
    why << "transient = " << transient << " must be >= 0";
  else if (!(duration > 0) || !std::isfinite(duration))
    why << "duration = " << duration << " must be positive";
  else if (!(interval > 0) || interval > duration)
    why << "interval = " << interval << " must be positive and at most duration = " << duration;
  else if (duration / interval > kMaxIntervals)
    why << "duration / interval = " << duration << " / " << interval << " is more than " << kMaxIntervals
        << " intervals; make interval longer or duration shorter";
  else
    why << simulation.check();
  return why.str();
}

namespace {
Vector exponents_of(const Vector& sums, const Vector& times) {
  Vector e(sums.size());
  for (int i = 0; i < sums.size(); ++i)
    e[i] = times[i] > 0 ? sums[i] / times[i] : -std::numeric_limits<double>::infinity();
  return e;
}
// On a constraint (a mode with active constraints) the frame's directions
// that leave it are set to zero (the paper's rule), not only at the plastic
// impact that starts the contact: each interval re-seeds the frame, and a
// re-seeded direction across the constraint would otherwise ride along
// neutrally (its gap changes linearly) and report a spurious zero exponent.
// The frame becomes an orthonormal basis of the admissible subspace, in
// Gram-Schmidt order of the projected columns (so the leading directions keep
// their meaning), followed by zero columns. Returns the number of admissible
// directions (n in a free mode).
int restrict_to_constraints(const HybridSystem& system, int mode, double t, const Vector& x, Matrix* Q) {
  const int n = system.dimension();
  Matrix C;
  system.constrained_directions(mode, t, x, &C);
  if (C.rows() == 0) return n;
  Eigen::ColPivHouseholderQR<Matrix> rows(C.transpose());
  const int rank = static_cast<int>(rows.rank());
  const Matrix basis = (rows.householderQ() * Matrix::Identity(n, n)).rightCols(n - rank);  // null(C)
  // Gram-Schmidt in the basis' coordinates keeps every new column inside
  // null(C), even where a projected column nearly vanishes.
  Eigen::HouseholderQR<Matrix> frame(basis.transpose() * *Q);
  const Matrix inside = basis * (frame.householderQ() * Matrix::Identity(n - rank, n - rank));
  Q->setZero();
  Q->leftCols(n - rank) = inside;
  return n - rank;
}

// The integral of tr f_x along a trajectory recorded at every step and on
// both sides of every event: Simpson's rule on each step, its midpoint state
// from the cubic Hermite interpolant of the step's ends (both errors O(h^5)
// per step; against a trapezoid rule on samples 2.5e-4 apart the integral
// agrees to 1e-6, tests/models/triple_pendulum.test.cpp). The pair of
// samples at an event has zero width and counts nothing.
double divergence_integral(const HybridSystem& system, const Trajectory& tr) {
  double integral = 0.0;
  Vector f0, f1, fm;
  Matrix A0, A1, Am;
  bool have_start = false;  // f0, A0 already at sample j (the previous step's end)
  for (std::size_t j = 0; j + 1 < tr.t.size(); ++j) {
    const double h = tr.t[j + 1] - tr.t[j];
    if (h <= 0.0 || tr.mode[j + 1] != tr.mode[j]) {
      have_start = false;
      continue;
    }
    if (!have_start) system.field_and_jacobian(tr.mode[j], tr.t[j], tr.x[j], &f0, &A0);
    system.field_and_jacobian(tr.mode[j], tr.t[j + 1], tr.x[j + 1], &f1, &A1);
    const Vector xm = 0.5 * (tr.x[j] + tr.x[j + 1]) + 0.125 * h * (f0 - f1);
    system.field_and_jacobian(tr.mode[j], tr.t[j] + 0.5 * h, xm, &fm, &Am);
    integral += h / 6.0 * (A0.trace() + 4.0 * Am.trace() + A1.trace());
    f0.swap(f1);
    A0.swap(A1);
    have_start = true;
  }
  return integral;
}

}  // namespace

LyapunovResult lyapunov_spectrum(const HybridSystem& system, int mode0, double t0, const Vector& x0,
                                 const LyapunovOptions& options) {
  if (const std::string why = options.check(); !why.empty())
    throw std::invalid_argument("Lyapunov options: " + why);
  // Checked before the transient runs (it may be long): the intervals after
  // it must still be resolved by the doubles there.
  if (const double start = t0 + options.transient, last = start + options.duration;
      !(last - options.interval < last) || !(start + options.interval > start)) {
    std::ostringstream why;
    why << std::setprecision(12) << "Lyapunov options: at t = " << start << " an interval of "
        << options.interval
        << " is below the spacing of doubles (no digits left for the span): give a shorter transient or "
           "duration";
    throw std::invalid_argument(why.str());
  }
  const int n = system.dimension();
  LyapunovResult result;
  int mode = mode0;
  double t = t0;
  Vector x = x0;
  if (options.transient > 0) {
    SimulationOptions plain = options.simulation;
    plain.variational = false;
    plain.output_interval = std::numeric_limits<double>::infinity();  // only its end is used
    const Trajectory tr = simulate(system, mode, t, x, t + options.transient, plain);
    if (!tr.ok()) {
      result.status = tr.status;
      result.message = "during the transient: " + tr.message;
      return result;
    }
    mode = tr.mode_end;
    t = tr.t_end;
    x = tr.x_end;
  }
  SimulationOptions variational = options.simulation;
  variational.variational = true;
  variational.output_interval = 0.0;  // every step, for divergence_integral()
  Matrix Q = Matrix::Identity(n, n);
  Vector sums = Vector::Zero(n), times = Vector::Zero(n);
  const auto intervals = static_cast<std::int64_t>(std::ceil(options.duration / options.interval - 1e-9));
  for (std::int64_t k = 0; k < intervals; ++k) {
    const double span = std::min(options.interval, options.duration - k * options.interval);
    const int admissible = restrict_to_constraints(system, mode, t, x, &Q);
    const Trajectory tr = simulate(system, mode, t, x, t + span, variational);
    if (!tr.ok()) {
      result.status = tr.status;
      result.message = tr.message;
      break;
    }
    // A NaN in this interval's growth or divergence would make every
    // average NaN: the run ends here with the reason (say, a state so large
    // that the field overflows: a pendulum angle of 1e308).
    const double divergence = divergence_integral(system, tr);
    if (!tr.transition_matrix.allFinite() || std::isnan(divergence)) {
      std::ostringstream why;
      why << std::setprecision(6) << "the "
          << (tr.transition_matrix.allFinite() ? "integral of the divergence tr f_x"
                                               : "state-transition matrix")
          << " is not finite (NaN) over [" << t << ", " << t + span << "] from x = (";
      for (int i = 0; i < x.size(); ++i) why << (i ? ", " : "") << x[i];
      why << "): the field or its Jacobian cannot be evaluated there (an overflow?); start from a state of "
             "moderate size";
      result.status = SimulationStatus::kStepFailed;
      result.message = why.str();
      break;
    }
    Eigen::HouseholderQR<Matrix> qr(tr.transition_matrix * Q);
    const Matrix R = qr.matrixQR().triangularView<Eigen::Upper>();
    Q = qr.householderQ() * Matrix::Identity(n, n);
    // A direction annihilated by a plastic impact (a singular saltation
    // matrix in this interval, R_ii = 0 up to rounding) sits the interval out
    // (the constrained-subspace rule above). Only then: a strongly
    // contracting but regular flow also makes R_ii tiny.
    // Its log |det S| is -infinity (det S itself is at rounding level).
    bool plastic = false;
    for (const auto& e : tr.events) {
      const Vector sigma = Eigen::JacobiSVD<Matrix>(e.saltation).singularValues();
      const bool singular = sigma[n - 1] <= 1e-12 * sigma[0];
      plastic |= singular;
      result.log_det_saltation +=
          singular ? -std::numeric_limits<double>::infinity() : std::log(std::abs(e.saltation.determinant()));
    }
    const double scale = R.cwiseAbs().maxCoeff();
    bool collapsed = false;
    for (int i = 0; i < n; ++i) {
      const double r = std::abs(R(i, i));
      if (i < admissible && (!plastic || r > 1e-12 * scale)) {
        sums[i] += std::log(r);
        times[i] += span;
      } else {
        collapsed = true;
      }
    }
    result.collapsed += collapsed;
    result.divergence_integral += divergence;
    result.events += static_cast<int>(tr.events.size());
    result.time += span;
    mode = tr.mode_end;
    t = tr.t_end;
    x = tr.x_end;
    Vector estimate = exponents_of(sums, times);
    std::sort(estimate.data(), estimate.data() + n, std::greater<>());
    result.times.push_back(result.time);
    result.running.push_back(estimate);
  }
  if (result.time > 0) {
    result.exponents = exponents_of(sums, times);
    std::sort(result.exponents.data(), result.exponents.data() + n, std::greater<>());
  }
  return result;
}

}  // namespace saltus::flow
