#pragma once
// Simple branch points ("BP"): two branches cross, G_y (m x (m+1)) loses rank
// and the determinant of the bordered Jacobian [G_y; t^T] changes sign
// (Keller 1977; AUTO's and MatCont's BP test).

#include "continuation/test_function.h"

namespace saltus {

class BranchPointTest : public TestFunction {
 public:
  std::string type() const override { return "BP"; }
  double value(const PointContext& point) const override { return point.jacobian.determinant(); }
  bool reads_eigenvalues() const override { return false; }
};

}  // namespace saltus
