#include "continuation/periodic/ns_curve.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <sstream>
#include <stdexcept>

#include "continuation/periodic/cycle_curve.h"

namespace saltus::periodic {

namespace {

// An orthonormal basis of the columns of A (n x 2) and R with A = Q R.
Matrix orthonormal(const Matrix& A, Matrix* R) {
  const Eigen::HouseholderQR<Matrix> qr(A);
  const Matrix Q = qr.householderQ() * Matrix::Identity(A.rows(), A.cols());
  *R = Q.transpose() * A;
  return Q;
}

}  // namespace

NeimarkSackerCurveSystem::NeimarkSackerCurveSystem(const ShootingSystem& shooting, const Vector& x0,
                                                   double max_distance) {
  if (shooting.parameter_size() != 2)
    throw std::invalid_argument("an NS curve needs two carried parameters, the shooting problem has " +
                                std::to_string(shooting.parameter_size()));
  const bool autonomous = shooting.options().autonomous;
  m_ = shooting.state_size();
  n_ = autonomous ? m_ - 1 : m_;
  if (n_ < 2) throw std::invalid_argument("an NS curve needs an orbit of dimension 2 or more");
  if (x0.size() != m_ + 2 || !x0.allFinite())
    throw std::invalid_argument(std::string("NS curve: the start point must be a finite (x, ") +
                                (autonomous ? "T, " : "") + "p1, p2) of size " + std::to_string(m_ + 2));
  Vector reference;  // an autonomous orbit's phase plane: through x0
  if (autonomous) reference = shooting.hybrid_state(x0);
  shooting_ = std::make_shared<ShootingSystem>(shooting.hybrid(), 2, shooting.options(), reference);
  lifted_ = shooting.hybrid()->tangent_lifted();
  // kappa from the pair of multipliers whose product is nearest 1.
  const Matrix M = shooting_->monodromy(x0);
  const Eigen::VectorXcd mu = autonomous ? nontrivial_multipliers(M) : floquet_multipliers(M);
  double best = 1e300, kappa = 0.0;
  for (int i = 0; i < mu.size(); ++i)
    for (int j = i + 1; j < mu.size(); ++j)
      if (std::abs(mu[i] * mu[j] - 1.0) < best) {
        best = std::abs(mu[i] * mu[j] - 1.0);
        kappa = 0.5 * (mu[i] + mu[j]).real();
      }
  if (!(best <= max_distance)) {
    std::ostringstream s;
    s << "NS curve: the start is no Neimark-Sacker point: no two multipliers have the product 1 (nearest: "
      << best << " away, multipliers";
    for (int i = 0; i < mu.size(); ++i) s << ' ' << mu[i];
    s << ")";
    throw std::invalid_argument(s.str());
  }
  start_.resize(m_ + 3);
  start_ << x0.head(m_ + 1), kappa, x0[m_ + 1];
  // The first borders: B's singular vectors of its two smallest singular values.
  const Matrix B = M * M - 2.0 * kappa * M + Matrix::Identity(n_, n_);
  const Eigen::JacobiSVD<Matrix> svd(B, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Ub_ = svd.matrixV().rightCols(2);
  Wb_ = svd.matrixU().rightCols(2);
  Matrix entries, Jf;
  Bordered at;
  gradients(start_, &entries, &Jf, &at);
  pair_ = best_pair(entries, Jf);
}

std::vector<std::string> NeimarkSackerCurveSystem::state_names() const {
  auto names = shooting_->state_names();
  names.push_back(shooting_->parameter_names().front());
  names.push_back("kappa");
  return names;
}

std::vector<std::string> NeimarkSackerCurveSystem::parameter_names() const {
  return {shooting_->parameter_names().back()};
}

Vector NeimarkSackerCurveSystem::shooting_point(const Vector& u) const {
  Vector s(m_ + 2);
  s << u.head(m_ + 1), u[m_ + 2];
  return s;
}

NeimarkSackerCurveSystem::Bordered NeimarkSackerCurveSystem::bordered(const Vector& u) const {
  const double kappa = u[m_ + 1];
  Bordered r;
  r.M = shooting_->monodromy(shooting_point(u));
  Matrix K = Matrix::Zero(n_ + 2, n_ + 2);
  K.topLeftCorner(n_, n_) = r.M * r.M - 2.0 * kappa * r.M + Matrix::Identity(n_, n_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    K.topRightCorner(n_, 2) = Wb_;
    K.bottomLeftCorner(2, n_) = Ub_.transpose();
  }
  const Eigen::PartialPivLU<Matrix> lu(K);
  Matrix e = Matrix::Zero(n_ + 2, 2);
  e.bottomRows(2) = Matrix::Identity(2, 2);
  const Matrix right = lu.solve(e), left = lu.transpose().solve(e);
  if (!right.allFinite() || !left.allFinite())
    throw std::runtime_error("NS curve: the bordered matrix is singular (a multiplier of multiplicity 3?)");
  r.V = right.topRows(n_);
  r.G = right.bottomRows(2);
  r.W = left.topRows(n_);
  return r;
}

void NeimarkSackerCurveSystem::residual(const double* u, double* f) const {
  const Vector uu = Eigen::Map<const Vector>(u, size());
  shooting_->residual(shooting_point(uu).data(), f);
  const Matrix G = bordered(uu).G;
  std::array<int, 2> pair;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pair = pair_;
  }
  f[m_] = G(pair[0] % 2, pair[0] / 2);
  f[m_ + 1] = G(pair[1] % 2, pair[1] / 2);
}

void NeimarkSackerCurveSystem::gradients(const Vector& u, Matrix* entries, Matrix* Jf, Bordered* at) const {
  const Vector s = shooting_point(u);
  const double kappa = u[m_ + 1];
  *at = bordered(u);
  Matrix Js;
  shooting_->jacobian(s.data(), &Js);  // m x (m + 2) in (x, [T,] p1, p2)
  // From (x, [T,] p1, p2) to u's order (x, [T,] p1, kappa, p2).
  const auto spread = [&](const Matrix& D, Matrix* out) {
    out->resize(D.rows(), m_ + 3);
    out->leftCols(m_ + 1) = D.leftCols(m_ + 1);
    out->col(m_ + 1).setZero();
    out->col(m_ + 2) = D.col(m_ + 1);
  };
  spread(Js, Jf);
  entries->resize(4, m_ + 3);
  for (int j = 0; j < 2; ++j) {
    const Vector v = at->V.col(j);
    const Vector a = at->M * v - 2.0 * kappa * v;
    const Matrix E = monodromy_derivative(*shooting_, *lifted_, s, a) +
                     at->M * monodromy_derivative(*shooting_, *lifted_, s, v);
    Matrix dE;
    spread(E, &dE);
    const Vector Mv = at->M * v;
    for (int i = 0; i < 2; ++i) {
      entries->row(i + 2 * j) = -(at->W.col(i).transpose() * dE);
      (*entries)(i + 2 * j, m_ + 1) = 2.0 * at->W.col(i).dot(Mv);
    }
  }
}

std::array<int, 2> NeimarkSackerCurveSystem::best_pair(const Matrix& entries, const Matrix& Jf) {
  std::array<int, 2> best = {0, 1};
  double best_sigma = -1.0;
  const int n = static_cast<int>(Jf.rows());
  Matrix J(n + 2, Jf.cols());
  J.topRows(n) = Jf;
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) {
      J.row(n) = entries.row(a);
      J.row(n + 1) = entries.row(b);
      const double sigma = Eigen::JacobiSVD<Matrix>(J).singularValues().minCoeff();
      if (sigma > best_sigma) best_sigma = sigma, best = {a, b};
    }
  return best;
}

void NeimarkSackerCurveSystem::jacobian(const double* u, Matrix* J) const {
  const Vector uu = Eigen::Map<const Vector>(u, size());
  Matrix entries, Jf;
  Bordered at;
  gradients(uu, &entries, &Jf, &at);
  std::array<int, 2> pair;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pair = pair_;
    cached_u_ = uu;
    cached_entries_ = entries;
    cached_Jf_ = Jf;
    cached_ = at;
  }
  J->resize(m_ + 2, m_ + 3);
  J->topRows(m_) = Jf;
  J->row(m_) = entries.row(pair[0]);
  J->row(m_ + 1) = entries.row(pair[1]);
}

void NeimarkSackerCurveSystem::second_derivative(const double*, const double*, Matrix*) const {
  throw std::logic_error("second derivatives of an NS curve's defining system are not available");
}

void NeimarkSackerCurveSystem::accept(const Vector& u) const {
  shooting_->accept(shooting_point(u));
  Matrix entries, Jf;
  Bordered at;
  bool cached = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (cached_u_.size() == u.size() && cached_u_ == u) {
      cached = true;
      entries = cached_entries_, Jf = cached_Jf_, at = cached_;
    }
  }
  if (!cached) gradients(u, &entries, &Jf, &at);
  if (!at.V.allFinite() || !at.W.allFinite()) return;
  // New borders: orthonormal bases of V and W. On the curve the new
  // solutions are V R_v^-1 and W R_w^-1, so the entries' gradients become
  // dG' = R_w^-T dG R_v^-1, from which the pair is chosen.
  Matrix Rv, Rw;
  const Matrix U = orthonormal(at.V, &Rv), W = orthonormal(at.W, &Rw);
  const Eigen::FullPivLU<Matrix> lv(Rv), lw(Rw);
  if (!lv.isInvertible() || !lw.isInvertible()) return;
  const Matrix A = lv.inverse(), C = lw.inverse();
  Matrix moved = Matrix::Zero(4, entries.cols());
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k)
        for (int l = 0; l < 2; ++l) moved.row(i + 2 * j) += C(k, i) * A(l, j) * entries.row(k + 2 * l);
  const std::array<int, 2> pair = best_pair(moved, Jf);
  std::lock_guard<std::mutex> lock(mutex_);
  Ub_ = U;
  Wb_ = W;
  pair_ = pair;
  cached_u_.resize(0);
}

}  // namespace saltus::periodic
