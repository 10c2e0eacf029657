#include "testfunctions/cycle_normal_form.h"

#include <Eigen/LU>
#include <Eigen/SVD>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "continuation/branch.h"

namespace saltus {

void critical_vectors(const Matrix& M, double mu, const Vector& orient, Vector* q, Vector* p,
                      double* cosine) {
  const int n = static_cast<int>(M.rows());
  Matrix A = M;
  A.diagonal().array() -= mu;
  const Eigen::JacobiSVD<Matrix> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  *q = svd.matrixV().col(n - 1);
  if (orient.size() == n && q->dot(orient) < 0) *q = -*q;
  const Vector left = svd.matrixU().col(n - 1);
  *p = left / left.dot(*q);
  if (cosine) *cosine = std::abs(left.dot(*q));
}

FoldNormalForm fold_normal_form(const periodic::PeriodMapForms& forms, const Vector& q, const Vector& p) {
  const int n = static_cast<int>(q.size());
  FoldNormalForm nf;
  nf.b = 0.5 * p.dot(forms.Bqq);
  // [I - M, p; q^T, 0] (h2, s) = (B(q, q) - 2 b q, 0): regular, since p and
  // q are the left and right null vectors of I - M.
  Matrix K = Matrix::Zero(n + 1, n + 1);
  K.topLeftCorner(n, n) = Matrix::Identity(n, n) - forms.M;
  K.col(n).head(n) = p;
  K.row(n).head(n) = q.transpose();
  Vector r = Vector::Zero(n + 1);
  r.head(n) = forms.Bqq - 2.0 * nf.b * q;
  const Vector h2 = Eigen::PartialPivLU<Matrix>(K).solve(r).head(n);
  nf.c = p.dot(forms.Cqq * q + 3.0 * (forms.Bq * h2)) / 6.0;
  return nf;
}

double flip_normal_form(const periodic::PeriodMapForms& forms, const Vector& q, const Vector& p) {
  const int n = static_cast<int>(q.size());
  const Vector h2 = Eigen::PartialPivLU<Matrix>(Matrix::Identity(n, n) - forms.M).solve(forms.Bqq);
  return p.dot(forms.Cqq * q + 3.0 * (forms.Bq * h2)) / 6.0;
}

std::shared_ptr<const flow::HybridSystem> CycleNormalFormTest::twice_lifted(
    const periodic::ShootingSystem& shooting) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (lifted_from_ != shooting.hybrid().get() || !twice_lifted_) {
    twice_lifted_ = shooting.hybrid()->tangent_lifted()->tangent_lifted();
    lifted_from_ = shooting.hybrid().get();
  }
  return twice_lifted_;
}

CycleNormalFormTest::Coefficients CycleNormalFormTest::at(const PointContext& point) const {
  const auto* cycle = dynamic_cast<const periodic::CycleCurveSystem*>(&point.problem.system());
  if (!cycle || cycle->kind() != kind_)
    throw std::logic_error("a normal-form test (" + type() + ") on a curve that is no " +
                           periodic::to_string(kind_) + " curve");
  const periodic::ShootingSystem& shooting = cycle->shooting();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool fold = kind_ == periodic::CycleBifurcation::kFold;
  const Vector u = point.problem.u(point.y);
  // An autonomous orbit: the Poincare map's Jacobian Pi M (the trivial 1
  // becomes 0), and the orientation from the right border's x-part (an
  // autonomous LPC's border is (v_x, v_T), (M - I) v_x = -v_T f, so Pi v_x
  // is Pi M's eigenvector).
  const Matrix& monodromy = points_->at(point)->monodromy;
  const Matrix M = periodic::poincare_jacobian(shooting, u, monodromy);
  const int n = static_cast<int>(M.rows());
  Vector orient;
  if (fold) orient = cycle->right_border().head(n);
  Coefficients out;
  Vector q, p;
  critical_vectors(M, fold ? 1.0 : -1.0, orient, &q, &p, &out.cosine);
  const periodic::PeriodMapForms forms = periodic::period_map_forms(shooting, *twice_lifted(shooting), u, q);
  if (fold) {
    const FoldNormalForm nf = fold_normal_form(forms, q, p);
    out.value = nf.b;
    out.cusp = nf.c;
  } else {
    out.value = flip_normal_form(forms, q, p);
    out.cusp = nan;
  }
  return out;
}

double CycleNormalFormTest::value(const PointContext& point) const { return at(point).value; }

bool CycleNormalFormTest::describe(const PointContext& point, SpecialPoint* special) const {
  const Coefficients nf = at(point);
  if (!(nf.cosine >= kJordanCosine)) return false;  // the pole at R1 / R2, not a zero
  if (kind_ == periodic::CycleBifurcation::kFold) {
    special->data["fold_coefficient"] = nf.value;
    special->data["cusp_coefficient"] = nf.cusp;
  } else {
    special->data["flip_coefficient"] = nf.value;
  }
  add_multipliers(*points_->at(point), special);
  return true;
}

}  // namespace saltus
