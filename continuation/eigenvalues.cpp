#include "continuation/eigenvalues.h"

#include <Spectra/GenEigsRealShiftSolver.h>
#include <Spectra/GenEigsSolver.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace saltus {

namespace {

std::atomic<bool> tracking{true};

// F_x^{-1} as Spectra's operator for the real shift 0: y = F_x^{-1} x.
class InverseOperator {
 public:
  using Scalar = double;
  InverseOperator(Eigen::Index n, std::function<Vector(const Vector&)> solve)
      : n_(n), solve_(std::move(solve)) {}
  Eigen::Index rows() const { return n_; }
  Eigen::Index cols() const { return n_; }
  void set_shift(double sigma) {
    if (sigma != 0.0) throw std::logic_error("InverseOperator: only the shift 0");
  }
  void perform_op(const double* x_in, double* y_out) const {
    Eigen::Map<Vector>(y_out, n_) = solve_(Eigen::Map<const Vector>(x_in, n_));
  }

 private:
  Eigen::Index n_;
  std::function<Vector(const Vector&)> solve_;
};

// F_x^{-1} on the complement of span Q, Q orthonormal and (to the
// certification's residual) invariant: P F_x^{-1} P with P = I - Q Q^T. Its
// nonzero eigenvalues are 1/lambda for the eigenvalues lambda of F_x outside
// span Q (with F_x^{-1} [Q Q_perp] = [Q Q_perp] [T11 T12; 0 T22], P F_x^{-1} P
// = Q_perp T22 Q_perp^T: Schur deflation, Saad 2011, Sec. 4.2.2).
class DeflatedInverse {
 public:
  using Scalar = double;
  DeflatedInverse(const Matrix& Q, const std::function<Vector(const Vector&)>& solve)
      : Q_(Q), solve_(solve) {}
  Eigen::Index rows() const { return Q_.rows(); }
  Eigen::Index cols() const { return Q_.rows(); }
  void perform_op(const double* x_in, double* y_out) const {
    Vector x = Eigen::Map<const Vector>(x_in, Q_.rows());
    x -= Q_ * (Q_.transpose() * x);
    Vector y = solve_(x);
    Eigen::Map<Vector>(y_out, Q_.rows()) = y - Q_ * (Q_.transpose() * y);
  }

 private:
  const Matrix& Q_;
  const std::function<Vector(const Vector&)>& solve_;
};

// Z orthonormalized against the orthonormal columns of Q and among
// themselves, by two passes of projection and a Gram-matrix
// orthonormalization (Z U S^{-1/2} from Z^T Z = U S U^T; the second pass
// restores the orthogonality the first loses, as in CholQR2 of Fukaya et al.,
// SIAM J. Sci. Comput. 42 (2020) A477), dropping the directions whose size is
// below `drop` (relative in the first pass, absolute in the second). Only
// n x m matrix products (BLAS 3) where a Householder QR would apply m
// reflectors one by one. Q may have no columns.
Matrix orthonormalized(const Matrix& Q, Matrix Z, double drop) {
  for (int pass = 0; pass < 2 && Z.cols() > 0; ++pass) {
    if (Q.cols() > 0) Z -= Q * (Q.transpose() * Z);
    const Eigen::SelfAdjointEigenSolver<Matrix> gram(Z.transpose() * Z);
    const Vector& s = gram.eigenvalues();
    const double floor = pass == 0 ? drop * drop * std::max(s.maxCoeff(), 0.0) : 0.25;
    std::vector<Eigen::Index> keep;
    for (Eigen::Index i = 0; i < s.size(); ++i)
      if (s[i] > floor) keep.push_back(i);
    Matrix T(Z.cols(), static_cast<Eigen::Index>(keep.size()));
    for (std::size_t j = 0; j < keep.size(); ++j)
      T.col(j) = gram.eigenvectors().col(keep[j]) / std::sqrt(s[keep[j]]);
    Z = Z * T;
  }
  return Z;
}

struct Tracked {
  Eigen::VectorXcd lambda;  // the `count` Ritz values of smallest modulus
  Matrix basis;             // the real span of their Ritz vectors (unit columns)
  Vector start;             // their sum, Spectra's warm start
  bool certified = false;   // every residual below the tolerance
};

// Ritz pairs of A on a tracked subspace, from two n x k blocks: P, any basis
// of the last point's wanted invariant subspace, and R, either
//  - R = A P (`inverse` false, plain Rayleigh-Ritz: one sparse product, no
//    solve): x = P z with A x - theta x orthogonal to span P, that is
//    K z = theta z with K = (P^T P)^{-1} P^T R. It certifies the eigenvalues
//    only where span P is still invariant at the new point (on the 1-D
//    Brusselator's homogeneous state it is: the sine modes do not turn);
//  - or R = A^{-1} P (`inverse` true, one multi-column solve: a step of
//    subspace iteration): harmonic Ritz pairs for the target 0 in span R,
//    x = R z with A x - theta x orthogonal to A R = P, that is
//    P^T P z = theta P^T R z, or K z = mu z with the same K and
//    mu = 1 / theta: the Rayleigh-Ritz pairs of A^{-1} on span P, so no
//    orthonormal basis of span R and no product with A are needed. They
//    approximate the eigenvalues nearest 0 from outside, so that a direction
//    that mixes far eigenvectors cannot pose as a small one, as a plain Ritz
//    value can for a non-normal A (Morgan, Linear Algebra Appl. 154 (1991)
//    289; Saad, "Numerical methods for large eigenvalue problems", 2nd ed.,
//    SIAM 2011, Sec. 4.3.5).
// Either way:
//  - Each pair's value is the Rayleigh quotient rho = x^H A x / x^H x, and
//    its residual r = A x - rho x is formed explicitly (no cancellation in
//    Gram matrices): rho is an exact eigenvalue of A - r x^H / |x|^2, a
//    perturbation of norm |r| / |x|, and the pairs are certified when every
//    |r| / |x| <= tol |rho_k| (rho_k the largest wanted modulus): a backward
//    error, as Spectra's own test (Saad 2011, Sec. 4.3, Prop. 4.5).
//  - The next basis is the real and imaginary parts of the Ritz vectors,
//    each scaled to unit length: conditioned as the eigenvectors are, where
//    R = A^{-1} P itself would tend to the dominant direction of A^{-1}.
// n-sized work: P^T P, P^T R and the Ritz vectors with their images (about
// 3.5 n k^2 multiply-adds), against the solve with k columns of the inverse
// step. When P is near an invariant subspace this replaces Arnoldi's k + 5
// sequential solves and its restarts.
Tracked rayleigh_ritz(const Matrix& P, const Matrix& R, bool inverse, int count, double tol) {
  Tracked t;
  const Eigen::Index k = P.cols();
  if (k < count) return t;
  Matrix C = Matrix::Zero(k, k);
  C.selfadjointView<Eigen::Lower>().rankUpdate(P.transpose());
  const Eigen::LLT<Matrix> gram(C);  // reads the lower triangle
  if (gram.info() != Eigen::Success) return t;
  const Eigen::EigenSolver<Matrix> es(gram.solve(Matrix(P.transpose() * R)));
  if (es.info() != Eigen::Success) return t;
  const Eigen::VectorXcd mu = es.eigenvalues();        // theta, or 1 / theta when `inverse`
  const Eigen::MatrixXcd vectors = es.eigenvectors();  // computed on each call of eigenvectors()
  // A real basis Z of the eigenvectors: z for a real mu, Re z and Im z for
  // the one of each conjugate pair with Im mu > 0 (its phase chosen so that
  // the two parts of x are orthogonal: x is P z, or about mu P z when
  // `inverse`, and (s z)^T (s z) is made real for that scale s). first[i]:
  // eigenvalue i's first column in Z; the one with Im mu < 0 shares its
  // partner's (rep[i]).
  Matrix Z(k, k);
  std::vector<Eigen::Index> first(k, -1), rep(k, -1);
  Eigen::Index c = 0;
  for (Eigen::Index i = 0; i < k && c < k; ++i) {
    if (mu[i].imag() < 0) continue;
    first[i] = c, rep[i] = i;
    if (mu[i].imag() == 0) {
      Z.col(c++) = vectors.col(i).real();
    } else if (c + 1 < k) {
      Eigen::VectorXcd z = inverse ? Eigen::VectorXcd(mu[i] * vectors.col(i)) : vectors.col(i);
      const std::complex<double> w = z.transpose() * z;
      z *= std::polar(1.0, -0.5 * std::arg(w));
      Z.col(c++) = z.real();
      Z.col(c++) = z.imag();
    }
  }
  for (Eigen::Index i = 0; i < k; ++i)
    for (Eigen::Index j = 0; j < k && mu[i].imag() < 0; ++j)
      if (mu[j] == std::conj(mu[i])) rep[i] = j, first[i] = first[j];
  if (c != k || std::count(first.begin(), first.end(), -1) > 0) return t;  // Eigen pairs them exactly
  // Ritz vectors, and A times them.
  const Matrix X = inverse ? Matrix(R * Z) : Matrix(P * Z), Y = inverse ? Matrix(P * Z) : Matrix(R * Z);
  // Each pair's Rayleigh quotient and relative residual.
  Eigen::VectorXcd rho(k);
  Vector residual(k);
  for (Eigen::Index i = 0; i < k; ++i) {
    if (rep[i] != i) continue;
    const Eigen::Index a = first[i];
    if (mu[i].imag() == 0) {
      const double xx = X.col(a).squaredNorm();
      rho[i] = X.col(a).dot(Y.col(a)) / xx;
      residual[i] = (Y.col(a) - rho[i].real() * X.col(a)).norm() / std::sqrt(xx);
      continue;
    }
    // x = xa + i xb, y = ya + i yb: x^H y = xa.ya + xb.yb + i (xa.yb - xb.ya).
    const auto xa = X.col(a), xb = X.col(a + 1), ya = Y.col(a), yb = Y.col(a + 1);
    const double xx = xa.squaredNorm() + xb.squaredNorm();
    rho[i] = std::complex<double>(xa.dot(ya) + xb.dot(yb), xa.dot(yb) - xb.dot(ya)) / xx;
    const double re = rho[i].real(), im = rho[i].imag();
    residual[i] =
        std::sqrt(((ya - re * xa + im * xb).squaredNorm() + (yb - re * xb - im * xa).squaredNorm()) / xx);
  }
  for (Eigen::Index i = 0; i < k; ++i)
    if (rep[i] != i) rho[i] = std::conj(rho[rep[i]]), residual[i] = residual[rep[i]];
  // The `count` Ritz values of smallest modulus (largest |mu| when
  // `inverse`), conjugates in a fixed order.
  std::vector<Eigen::Index> order(k);
  for (Eigen::Index i = 0; i < k; ++i) order[i] = i;
  const double sense = inverse ? -1.0 : 1.0;
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
    return std::abs(mu[a]) != std::abs(mu[b]) ? sense * std::abs(mu[a]) < sense * std::abs(mu[b])
                                              : mu[a].imag() < mu[b].imag();
  });
  t.lambda.resize(count);
  double largest = 0.0;
  for (int j = 0; j < count; ++j) largest = std::max(largest, std::abs(rho[order[j]]));
  t.certified = true;
  std::vector<bool> kept(k, false);  // columns of the kept pairs
  for (int j = 0; j < count; ++j) {
    const Eigen::Index i = order[j];
    t.lambda[j] = rho[i];
    if (!(residual[i] <= tol * largest)) t.certified = false;
    kept[first[i]] = true;
    if (mu[i].imag() != 0) kept[first[i] + 1] = true;
  }
  t.basis.resize(X.rows(), std::count(kept.begin(), kept.end(), true));
  for (Eigen::Index j = 0, b = 0; j < k; ++j)
    if (kept[j]) t.basis.col(b++) = X.col(j).normalized();
  t.start = t.basis.rowwise().sum();
  return t;
}

// The completeness check of tracking: whether every eigenvalue of F_x
// outside span `basis` has a modulus above the largest of `lambda` (the
// tracked ones) by 1%. Tracking follows the eigenvalues it has; one that
// enters the smallest moduli from outside would stay unseen. The largest
// eigenvalue of the deflated inverse (DeflatedInverse) is 1/lambda for the
// untracked lambda of smallest modulus; Arnoldi (Spectra, random start, two
// eigenvalues so that a complex pair is whole, 5 vectors) finds it to 1e-2
// (so the margin of 3%: a tie within it counts as an intruder) in about 12
// solves, where a fresh Arnoldi run for all k eigenvalues to 1e-10 takes 38
// (bench/brusselator_1d.cpp).
bool complete(const std::function<Vector(const Vector&)>& solve, const Matrix& basis,
              const Eigen::VectorXcd& lambda) {
  const Matrix Q = orthonormalized(Matrix(), basis, 1e-8);
  if (Q.cols() < basis.cols()) return false;
  DeflatedInverse op(Q, solve);
  Spectra::GenEigsSolver<DeflatedInverse> eigs(op, 2, std::min<Eigen::Index>(5, Q.rows() - Q.cols()));
  eigs.init();
  eigs.compute(Spectra::SortRule::LargestMagn, 100, 1e-2);
  if (eigs.info() != Spectra::CompInfo::Successful) return false;
  return eigs.eigenvalues().cwiseAbs().maxCoeff() * lambda.cwiseAbs().maxCoeff() < 1.0 - 3e-2;
}

Eigen::VectorXcd smallest_modulus(const ContinuationProblem& problem, const Vector& y, int count,
                                  const BorderedJacobian* factored, EigenvalueWarmStart* warm) {
  const int n = problem.state_size();
  if (count > n - 2)
    throw std::invalid_argument("eigenvalue_count = " + std::to_string(count) + " must be at most n - 2 = " +
                                std::to_string(n - 2) + " (0 computes them all, dense)");
  using LU = Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>>;
  std::shared_ptr<LU> own;
  std::shared_ptr<SparseMatrix> own_matrix;
  std::function<Vector(const Vector&)> solve;
  std::function<Matrix(const Matrix&)> solve_block;
  const SparseMatrix* Fx = nullptr;
  if (factored && factored->state_factored()) {
    solve = [factored](const Vector& b) { return factored->solve_state(b); };
    solve_block = [factored](const Matrix& b) { return factored->solve_state(b); };
    Fx = &factored->state_matrix();
  } else {
    own_matrix = std::make_shared<SparseMatrix>(problem.sparse_jacobian(y).leftCols(n));
    own = std::make_shared<LU>(*own_matrix);
    if (own->info() != Eigen::Success)
      throw std::runtime_error("F_x is singular: no shift-invert eigenvalues at 0");
    solve = [own](const Vector& b) { return Vector(own->solve(b)); };
    solve_block = [own](const Matrix& b) { return Matrix(own->solve(b)); };
    Fx = own_matrix.get();
  }
  InverseOperator op(n, solve);
  // One Arnoldi run with ncv vectors from `start` (random when empty); the
  // Ritz vectors' sum and their real span are kept in *warm for the next point.
  auto arnoldi = [&](int ncv, const Vector& start, int restarts) -> std::optional<Eigen::VectorXcd> {
    Spectra::GenEigsRealShiftSolver<InverseOperator> eigs(op, count, std::min(n, ncv), 0.0);
    if (start.size() == n)
      eigs.init(start.data());
    else
      eigs.init();
    eigs.compute(Spectra::SortRule::LargestMagn, restarts, 1e-10);
    if (eigs.info() != Spectra::CompInfo::Successful) return std::nullopt;
    if (warm) {
      const Eigen::MatrixXcd v = eigs.eigenvectors(count);
      warm->vector = v.real().rowwise().sum() + v.imag().rowwise().sum();
      Matrix parts(n, 2 * count);
      parts << v.real(), v.imag();
      warm->basis = orthonormalized(Matrix(), parts, 1e-8);
      ++warm->arnoldi_runs;
    }
    return eigs.eigenvalues();
  };
  // The first call starts from a random vector. After it the last point's
  // invariant subspace is tracked by Rayleigh-Ritz: first the plain step
  // (one product with F_x) while it certifies, then up to three inverse
  // steps (a block solve each, each refining the last); Arnoldi from the
  // Ritz vectors' sum runs only when neither certifies the eigenvalues. A
  // plain step that fails is not tried again before the next audit, so that
  // a branch whose subspaces turn pays for it once in ten calls. Every tenth
  // call audits the tracked set (complete(): no eigenvalue from outside has
  // entered the smallest moduli) and starts afresh when it fails, so that an
  // eigenvalue the tracked subspace lacks cannot stay missed for long. (With
  // tracking off every tenth call starts afresh.)
  const bool first = !warm || warm->vector.size() != n;
  const bool audit = !first && ++warm->calls % 10 == 0;
  if (!first && tracking && warm->basis.rows() == n && warm->basis.cols() >= count) {
    // Accepts certified pairs; false when the audit finds them incomplete.
    auto accept = [&](Tracked& t) {
      warm->vector = t.start;
      if (audit && !complete(solve, t.basis, t.lambda)) return false;
      warm->basis = std::move(t.basis);
      ++warm->tracked;
      return true;
    };
    bool incomplete = false;
    if (warm->plain || audit) {
      Tracked t = rayleigh_ritz(warm->basis, Matrix(*Fx * warm->basis), false, count, 1e-10);
      warm->plain = t.certified;
      if (t.certified) {
        if (accept(t)) {
          ++warm->plain_tracked;
          return t.lambda;
        }
        incomplete = true;
      }
    }
    Matrix Q = warm->basis;
    for (int step = 0; step < 3 && !incomplete; ++step) {
      Tracked t = rayleigh_ritz(Q, solve_block(Q), true, count, 1e-10);
      if (t.lambda.size() != count) break;
      warm->vector = t.start;
      if (t.certified) {
        if (accept(t)) return t.lambda;
        break;  // incomplete: a fresh run
      }
      Q = std::move(t.basis);
    }
  }
  const bool fresh = first || audit;
  std::optional<Eigen::VectorXcd> lambda;
  if (!fresh) lambda = arnoldi(count + 4, warm->vector, 100);
  if (!lambda) lambda = arnoldi(std::max(2 * count + 1, 20), Vector(), 1000);
  if (!lambda)
    throw std::runtime_error(
        "the shift-invert eigensolver did not converge (eigenvalue_count = " + std::to_string(count) + ")");
  return *lambda;
}

}  // namespace

Eigen::VectorXcd equilibrium_eigenvalues(const ContinuationProblem& problem, const Vector& y, int count,
                                         const BorderedJacobian* factored, EigenvalueWarmStart* warm) {
  Eigen::VectorXcd lambda;
  if (count > 0 && problem.is_sparse()) {
    lambda = smallest_modulus(problem, y, count, factored, warm);
  } else {
    const int n = problem.state_size();
    const Matrix J = problem.system().jacobian(problem.u(y));
    Eigen::EigenSolver<Matrix> solver(J.leftCols(n), /*computeEigenvectors=*/false);
    if (solver.info() != Eigen::Success) throw std::runtime_error("the eigenvalues of F_x did not converge");
    lambda = solver.eigenvalues();
  }
  std::sort(lambda.begin(), lambda.end(), [](const std::complex<double>& a, const std::complex<double>& b) {
    return a.real() != b.real() ? a.real() > b.real() : a.imag() > b.imag();
  });
  return lambda;
}

void set_eigenvalue_tracking(bool on) { tracking = on; }

int unstable_count(const Eigen::VectorXcd& eigenvalues) {
  return static_cast<int>(std::count_if(eigenvalues.begin(), eigenvalues.end(),
                                        [](const std::complex<double>& l) { return l.real() > 0.0; }));
}

}  // namespace saltus
