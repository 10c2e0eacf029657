#include "continuation/eigenvalues.h"

#include <Spectra/GenEigsRealShiftSolver.h>

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
  Matrix basis;             // the real span of their Ritz vectors
  Vector start;             // their sum, Spectra's warm start
  bool certified = false;   // every residual below the tolerance
};

// One step of eigenvalue tracking: Rayleigh-Ritz on V = span F_x^{-1} Q (a
// step of subspace iteration from Q, the last point's invariant subspace),
// built with one multi-column solve. With A = F_x, V orthonormal,
// W = A V, H = V^T W and R = W - V H, a pair (rho, x = V y), |y| = 1,
// rho = y^* H y, has the residual A x - rho x = R y + V (H y - rho y), whose
// two parts are orthogonal: |r|^2 = y^* (R^T R) y + |H y - rho y|^2 costs no
// n-vector per pair. rho is an exact eigenvalue of A - r x^* (a perturbation
// of norm |r|), and the pair is certified when |r| <= tol |rho_k| (rho_k the
// largest wanted modulus): a backward error as Spectra's own test (Saad,
// "Numerical methods for large eigenvalue problems", 2nd ed., SIAM 2011,
// Sec. 4.3, Prop. 4.5). When Q is near an invariant subspace this costs one
// solve per column of Q where Arnoldi from one start vector needs k + 5
// sequential solves and its restarts.
Tracked rayleigh_ritz(const SparseMatrix& A, const std::function<Matrix(const Matrix&)>& solve,
                      const Matrix& Q, int count, double tol) {
  const Matrix V = orthonormalized(Matrix(), solve(Q), 1e-10);
  Tracked t;
  if (V.cols() < count) return t;
  const Matrix W = A * V;
  const Matrix H = V.transpose() * W;
  const Matrix R = W - V * H;
  const Matrix G = R.transpose() * R;
  // Harmonic Ritz vectors for the target 0 (W^T (A V y - theta V y) = 0,
  // that is (W^T W)^{-1} H^T y = y / theta): the eigenvalues nearest 0 are
  // approximated from outside, so that a direction of V that mixes far
  // eigenvectors cannot pose as a small one, as a plain Ritz value can for a
  // non-normal A (Morgan, Linear Algebra Appl. 154 (1991) 289; Saad 2011,
  // Sec. 4.3.5). Each pair's value is then its Rayleigh quotient.
  const Eigen::LLT<Matrix> gram(G + H.transpose() * H);  // W^T W, as V^T R = 0
  if (gram.info() != Eigen::Success) return t;
  Eigen::EigenSolver<Matrix> es(gram.solve(Matrix(H.transpose())));
  if (es.info() != Eigen::Success) return t;
  const Eigen::VectorXcd nu = es.eigenvalues();
  const Eigen::MatrixXcd vectors = es.eigenvectors();  // computed on each call of eigenvectors()
  std::vector<Eigen::Index> order(nu.size());
  for (Eigen::Index i = 0; i < nu.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
    return std::abs(nu[a]) != std::abs(nu[b]) ? std::abs(nu[a]) > std::abs(nu[b])
                                              : nu[a].imag() < nu[b].imag();
  });
  t.lambda.resize(count);
  Matrix Y(V.cols(), 2 * count);  // real parts, then imaginary parts
  std::vector<double> residual(count);
  const Eigen::MatrixXcd Hc = H.cast<std::complex<double>>();
  for (int j = 0; j < count; ++j) {
    const Eigen::VectorXcd y = vectors.col(order[j]).normalized();
    const Eigen::VectorXcd Hy = Hc * y;
    t.lambda[j] = y.dot(Hy);  // y^* H y, |y| = 1
    Y.col(j) = y.real();
    Y.col(count + j) = y.imag();
    // |A V y - rho V y|^2 = |R y|^2 + |H y - rho y|^2 (V^T R = 0).
    const double r2 = Y.col(j).dot(G * Y.col(j)) + Y.col(count + j).dot(G * Y.col(count + j)) +
                      (Hy - t.lambda[j] * y).squaredNorm();
    residual[j] = std::sqrt(std::max(r2, 0.0));
  }
  double largest = 0.0;
  for (int j = 0; j < count; ++j) largest = std::max(largest, std::abs(t.lambda[j]));
  t.certified = true;
  for (int j = 0; j < count; ++j)
    if (!(residual[j] <= tol * largest)) t.certified = false;
  // The real span of the Ritz vectors V Y is V times that of Y (V orthonormal).
  t.basis = V * orthonormalized(Matrix(), Y, 1e-8);
  t.start = V * Y.rowwise().sum();
  return t;
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
  const SparseMatrix* A = nullptr;
  std::function<Vector(const Vector&)> solve;
  std::function<Matrix(const Matrix&)> solve_block;
  if (factored && factored->state_factored()) {
    A = &factored->state_matrix();
    solve = [factored](const Vector& b) { return factored->solve_state(b); };
    solve_block = [factored](const Matrix& b) { return factored->solve_state(b); };
  } else {
    own_matrix = std::make_shared<SparseMatrix>(problem.sparse_jacobian(y).leftCols(n));
    A = own_matrix.get();
    own = std::make_shared<LU>(*own_matrix);
    if (own->info() != Eigen::Success)
      throw std::runtime_error("F_x is singular: no shift-invert eigenvalues at 0");
    solve = [own](const Vector& b) { return Vector(own->solve(b)); };
    solve_block = [own](const Matrix& b) { return Matrix(own->solve(b)); };
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
  // Every tenth call starts afresh (random), so that an eigenvalue the warm
  // start lacks cannot stay missed for long. Between them the last point's
  // invariant subspace is tracked by Rayleigh-Ritz (up to three block steps,
  // each refining the last), and Arnoldi from the Ritz vectors' sum runs only
  // when that does not certify the eigenvalues.
  const bool fresh = !warm || warm->vector.size() != n || ++warm->calls % 10 == 0;
  if (!fresh && tracking && warm->basis.rows() == n && warm->basis.cols() >= count) {
    Matrix Q = warm->basis;
    for (int step = 0; step < 3; ++step) {
      Tracked t = rayleigh_ritz(*A, solve_block, Q, count, 1e-10);
      if (t.lambda.size() != count) break;
      warm->vector = t.start;
      if (t.certified) {
        warm->basis = std::move(t.basis);
        ++warm->tracked;
        return t.lambda;
      }
      Q = std::move(t.basis);
    }
  }
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
