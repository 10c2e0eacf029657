#include "continuation/flow/lyapunov.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace saltus::flow {

std::string LyapunovOptions::check() const {
  std::ostringstream why;
  if (!(transient >= 0) || !std::isfinite(transient)) why << "transient = " << transient << " must be >= 0";
  else if (!(duration > 0) || !std::isfinite(duration)) why << "duration = " << duration << " must be positive";
  else if (!(interval > 0) || interval > duration)
    why << "interval = " << interval << " must be positive and at most duration = " << duration;
  else why << simulation.check();
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

}  // namespace

LyapunovResult lyapunov_spectrum(const HybridSystem& system, int mode0, double t0, const Vector& x0,
                                 const LyapunovOptions& options) {
  if (const std::string why = options.check(); !why.empty())
    throw std::invalid_argument("Lyapunov options: " + why);
  const int n = system.dimension();
  LyapunovResult result;
  int mode = mode0;
  double t = t0;
  Vector x = x0;
  if (options.transient > 0) {
    SimulationOptions plain = options.simulation;
    plain.variational = false;
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
  Matrix Q = Matrix::Identity(n, n);
  Vector sums = Vector::Zero(n), times = Vector::Zero(n);
  const int intervals = static_cast<int>(std::ceil(options.duration / options.interval - 1e-9));
  for (int k = 0; k < intervals; ++k) {
    const double span = std::min(options.interval, options.duration - k * options.interval);
    const int admissible = restrict_to_constraints(system, mode, t, x, &Q);
    const Trajectory tr = simulate(system, mode, t, x, t + span, variational);
    if (!tr.ok()) {
      result.status = tr.status;
      result.message = tr.message;
      break;
    }
    Eigen::HouseholderQR<Matrix> qr(tr.transition_matrix * Q);
    const Matrix R = qr.matrixQR().triangularView<Eigen::Upper>();
    Q = qr.householderQ() * Matrix::Identity(n, n);
    // A direction annihilated by a plastic impact (a singular saltation
    // matrix in this interval, R_ii = 0 up to rounding) sits the interval out
    // (the constrained-subspace rule above). Only then: a strongly
    // contracting but regular flow also makes R_ii tiny.
    bool plastic = false;
    for (const auto& e : tr.events) {
      const Vector sigma = Eigen::JacobiSVD<Matrix>(e.saltation).singularValues();
      plastic |= sigma[n - 1] <= 1e-12 * sigma[0];
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
    for (const auto& e : tr.events) {
      const double d = std::abs(e.saltation.determinant());
      result.log_det_saltation += d > 0 ? std::log(d) : -std::numeric_limits<double>::infinity();
    }
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
