#pragma once
// The problem the pseudo-arclength engine solves: G(y) = 0 with G: R^(m+1) -> R^m,
//
//   y = (x, p_free),   G(y) = ( F(x, p), g_1(x, p), ..., g_k(x, p) ),
//
// where F is a System, p_free are k + 1 of its parameters (the others stay at
// their given values) and g_i are defining functions. k = 0 is an ordinary
// branch in one parameter; k = 1 with the fold function is a fold curve in two
// parameters; the contact-point work adds cusp curves in three.

#include <memory>
#include <string>
#include <vector>

#include "continuation/system.h"

namespace saltus {

// An extra equation g(u) = 0 of an augmented system, u = (x, p).
class DefiningFunction {
 public:
  virtual ~DefiningFunction() = default;
  virtual std::string name() const = 0;
  // g(u) and, when gradient is not null, dg/du (size n + q), exact.
  virtual double evaluate(const System& system, const Vector& u, Vector* gradient) const = 0;
  // Called at each accepted point, e.g. to update bordering vectors.
  virtual void accept(const System& system, const Vector& u) {}
};

class ContinuationProblem {
 public:
  // Throws std::invalid_argument when a name is unknown, repeated, or when
  // the number of free parameters is not extras.size() + 1.
  ContinuationProblem(std::shared_ptr<const System> system, Vector parameters,
                      const std::vector<std::string>& free_parameters,
                      std::vector<std::shared_ptr<DefiningFunction>> extras = {});

  const System& system() const { return *system_; }
  std::shared_ptr<const System> system_ptr() const { return system_; }
  int state_size() const { return system_->state_size(); }
  int size() const { return state_size() + static_cast<int>(free_.size()); }         // m + 1
  int equations() const { return state_size() + static_cast<int>(extras_.size()); }  // m
  const std::vector<int>& free_parameters() const { return free_; }                  // indices into p
  const Vector& parameters() const { return parameters_; }  // p with the fixed values
  const std::vector<std::shared_ptr<DefiningFunction>>& extras() const { return extras_; }
  std::vector<std::string> names() const;  // of the components of y

  Vector u(const Vector& y) const;  // (x, p) with the free parameters from y
  Vector y(const Vector& u) const;  // the inverse selection

  Vector residual(const Vector& y) const;
  Vector residual_alone(const Vector& y) const;  // System::residual_alone for F
  bool prefers_chord() const { return system_->prefers_chord(); }
  double accuracy() const { return system_->accuracy(); }  // System::accuracy
  Matrix jacobian(const Vector& y) const;                  // m x (m + 1)
  bool is_sparse() const { return system_->is_sparse(); }
  // System::matrix_free, without extra equations (their gradients are dense).
  bool matrix_free() const { return extras_.empty() && system_->matrix_free(); }
  // G_y dy by System::jacobian_times (matrix_free problems), size m.
  Vector jacobian_times(const Vector& y, const Vector& dy) const;
  SparseMatrix sparse_jacobian(const Vector& y) const;
  // The second derivative of the base equations F in directions a, b of y-space:
  // F_yy[a, b] (size n). Branch switching uses it.
  Vector second_derivative(const Vector& y, const Vector& a, const Vector& b) const;

  void accept(const Vector& y) const;
  // System::recut in y-space (fixed parameters stay); never with extra
  // equations (their borders belong to the old cut). System::cut at y.
  bool recut(Vector* y, Vector* tangent) const;
  double cut(const Vector& y) const { return system_->cut(u(y)); }
  // The problem over system().refined() (System::refined), or a copy of
  // this one when the system has one accuracy.
  ContinuationProblem refined() const;

 private:
  Vector embed(const Vector& direction) const;  // a y-space direction in u-space

  std::shared_ptr<const System> system_;
  Vector parameters_;
  std::vector<int> free_;
  std::vector<std::shared_ptr<DefiningFunction>> extras_;
};

}  // namespace saltus
