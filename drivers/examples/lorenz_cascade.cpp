// The period-doubling cascade of the Lorenz system with the studies API
// (studies/study.h): the orbit of examples/lorenz.json followed down in rho,
// then at each branch's first PD the doubled branch. A driver to copy:
//
//   saltus_lorenz_cascade RUNFILE [LEVELS (default 3)]
//
// prints each branch and its PD (rho, T, the multipliers there).
#include <cstdlib>
#include <iomanip>
#include <iostream>

#include "studies/study.h"

using namespace saltus;

int main(int argc, char** argv) try {
  if (argc < 2) return std::cerr << "usage: saltus_lorenz_cascade RUNFILE [LEVELS]\n", 2;
  const int levels = argc > 2 ? std::atoi(argv[2]) : 3;
  studies::BranchResult branch = studies::continue_run(studies::load(argv[1]));
  std::cout << std::setprecision(12);
  for (int level = 0; level < levels && branch.branch.usable(); ++level) {
    std::cout << branch.name << ": " << branch.branch.points.size() << " points, " << branch.branch.message
              << '\n';
    const SpecialPoint* pd = studies::nth_point(branch.branch, "PD", 1);
    if (!pd) break;
    std::cout << "  PD at rho = " << branch.branch.component(pd->y, "rho")
              << ", T = " << branch.branch.component(pd->y, "T") << ", multipliers "
              << studies::point_data(branch, *pd)["multipliers"].dump() << '\n';
    if (level + 1 < levels) branch = studies::continue_from(branch, *pd);
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "saltus_lorenz_cascade: " << e.what() << '\n';
  return 1;
}
