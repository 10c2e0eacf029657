#include "testfunctions/cycle_normal_form.h"

#include <Eigen/LU>
#include <Eigen/SVD>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "continuation/branch.h"

namespace saltus {

void critical_vectors(const Matrix& M, double mu, const Vector& orient, Vector* q, Vector* p) {
  const int n = static_cast<int>(M.rows());
  Matrix A = M;
  A.diagonal().array() -= mu;
  const Eigen::JacobiSVD<Matrix> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  *q = svd.matrixV().col(n - 1);
  if (orient.size() == n && q->dot(orient) < 0) *q = -*q;
  const Vector left = svd.matrixU().col(n - 1);
  *p = left / left.dot(*q);
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

FoldNormalForm CycleNormalFormTest::at(const PointContext& point) const {
  const auto* cycle = dynamic_cast<const periodic::CycleCurveSystem*>(&point.problem.system());
  if (!cycle || cycle->kind() != kind_)
    throw std::logic_error("a normal-form test (" + type() + ") on a curve that is no " +
                           periodic::to_string(kind_) + " curve");
  const periodic::ShootingSystem& shooting = cycle->shooting();
  if (shooting.options().autonomous)
    return {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
  const bool fold = kind_ == periodic::CycleBifurcation::kFold;
  Vector q, p;
  critical_vectors(points_->at(point)->monodromy, fold ? 1.0 : -1.0, fold ? cycle->right_border() : Vector(),
                   &q, &p);
  const periodic::PeriodMapForms forms =
      periodic::period_map_forms(shooting, *twice_lifted(shooting), point.problem.u(point.y), q);
  if (fold) return fold_normal_form(forms, q, p);
  return {flip_normal_form(forms, q, p), std::numeric_limits<double>::quiet_NaN()};
}

double CycleNormalFormTest::value(const PointContext& point) const { return at(point).b; }

bool CycleNormalFormTest::describe(const PointContext& point, SpecialPoint* special) const {
  const FoldNormalForm nf = at(point);
  if (kind_ == periodic::CycleBifurcation::kFold) {
    special->data["fold_coefficient"] = nf.b;
    special->data["cusp_coefficient"] = nf.c;
  } else {
    special->data["flip_coefficient"] = nf.b;
  }
  add_multipliers(*points_->at(point), special);
  return true;
}

}  // namespace saltus
