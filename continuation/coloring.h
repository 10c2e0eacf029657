#pragma once
// Column colouring for compressed Jacobian evaluation: columns that share no
// row get one colour, so one jet direction per colour recovers all of them
// (Curtis-Powell-Reid). A tridiagonal Jacobian needs 3 directions, whatever n.

#include <vector>

#include "continuation/system.h"

namespace saltus {

struct ColumnColoring {
  std::vector<int> color;  // color[j] of column j
  int colors = 0;
};

// rows[i] lists the columns on which equation i depends.
ColumnColoring color_columns(const std::vector<std::vector<int>>& rows, int columns);

// The structural pattern (explicit zeros) of an n x columns sparse matrix.
SparseMatrix sparsity_pattern(const std::vector<std::vector<int>>& rows, int columns);

}  // namespace saltus
