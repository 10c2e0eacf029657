#include "continuation/periodic/fixed_parameters.h"

namespace saltus::periodic {

NewtonResult correct_at_fixed_parameters(const ShootingSystem& shooting, const Vector& guess,
                                         const NewtonOptions& options,
                                         const std::function<Vector(const Vector&)>& to_u) {
  const int m = shooting.state_size();
  const auto u = [&](const Vector& x) {
    Vector point = guess;
    point.head(m) = x;
    return to_u ? to_u(point) : point;
  };
  NewtonProblem p;
  p.residual = [&](const Vector& x, Vector* F) {
    F->resize(m);
    shooting.residual(u(x).data(), F->data());
  };
  p.jacobian = [&](const Vector& x, Matrix* J) {
    Matrix Jf;
    shooting.jacobian(u(x).data(), &Jf);
    *J = Jf.leftCols(m);
  };
  NewtonResult r = damped_newton(p, guess.head(m), options);
  Vector point = guess;
  point.head(m) = r.x;
  r.x = point;
  return r;
}

}  // namespace saltus::periodic
