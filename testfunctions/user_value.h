#pragma once
// User test functions ("UZ"): any scalar of the point u = (x, p), such as a
// parameter minus a value. With stop = true the branch ends there.

#include <functional>
#include <string>

#include "continuation/test_function.h"

namespace saltus {

class UserTest : public TestFunction {
 public:
  using Function = std::function<double(const Vector& u)>;
  UserTest(std::string name, Function f, bool stop = false)
      : name_(std::move(name)), f_(std::move(f)), stop_(stop) {}
  std::string type() const override { return "UZ"; }
  std::string name() const override { return name_; }
  double value(const PointContext& point) const override { return f_(point.problem.u(point.y)); }
  bool stops_branch() const override { return stop_; }
  bool reads_eigenvalues() const override { return false; }

 private:
  std::string name_;
  Function f_;
  bool stop_;
};

}  // namespace saltus
