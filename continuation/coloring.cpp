#include "continuation/coloring.h"

#include <stdexcept>
#include <string>

namespace saltus {

ColumnColoring color_columns(const std::vector<std::vector<int>>& rows, int columns) {
  std::vector<std::vector<int>> rows_of_column(columns);
  for (int i = 0; i < static_cast<int>(rows.size()); ++i)
    for (int j : rows[i]) {
      if (j < 0 || j >= columns)
        throw std::invalid_argument("sparsity: row " + std::to_string(i) + " names column " +
                                    std::to_string(j) + ", outside [0, " + std::to_string(columns) + ")");
      rows_of_column[j].push_back(i);
    }
  ColumnColoring result;
  result.color.assign(columns, -1);
  std::vector<int> used_by(columns + 1, -1);  // used_by[c] == j: colour c is taken for column j
  for (int j = 0; j < columns; ++j) {
    for (int i : rows_of_column[j])
      for (int k : rows[i])
        if (result.color[k] >= 0) used_by[result.color[k]] = j;
    int c = 0;
    while (used_by[c] == j) ++c;
    result.color[j] = c;
    result.colors = std::max(result.colors, c + 1);
  }
  return result;
}

SparseMatrix sparsity_pattern(const std::vector<std::vector<int>>& rows, int columns) {
  std::vector<Eigen::Triplet<double>> entries;
  for (int i = 0; i < static_cast<int>(rows.size()); ++i)
    for (int j : rows[i]) entries.emplace_back(i, j, 0.0);
  SparseMatrix pattern(static_cast<int>(rows.size()), columns);
  pattern.setFromTriplets(entries.begin(), entries.end());
  return pattern;
}

}  // namespace saltus
