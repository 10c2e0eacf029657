// The period-doubling cascade of the Lorenz system (sigma = 10, beta = 8/3),
// followed down in rho from the stable periodic orbit at rho = 280 (the
// starting orbit of AUTO-07p's `lor` demo), switching onto the doubled
// branch at each period doubling. A driver to copy for a study of your own:
//
//   saltus_lorenz_cascade OUTDIR [LEVELS]
//
// writes OUTDIR/level<k>.csv (each branch), OUTDIR/summary.json (the PD
// points) and OUTDIR/cascade.png/.svg (the period against rho).

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "continuation/flow/hybrid_system.h"
#include "continuation/periodic/period_doubling.h"
#include "continuation/periodic/shooting.h"
#include "continuation/pseudo_arclength.h"
#include "drivers/output.h"
#include "models/lorenz.h"
#include "testfunctions/floquet.h"

using namespace saltus;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: saltus_lorenz_cascade OUTDIR [LEVELS (default 3)]\n";
    return 1;
  }
  const std::filesystem::path dir = argv[1];
  const int levels = argc > 2 ? std::atoi(argv[2]) : 3;
  std::filesystem::create_directories(dir);

  // The shooting problem on the orbit at rho = 280 (models::lorenz_branch_start
  // shows how a ShootingSystem and its ContinuationProblem are set up).
  flow::SimulationOptions simulation;
  simulation.absolute_tolerance = simulation.relative_tolerance = 1e-10;
  const models::LorenzBranchStart start = models::lorenz_branch_start(simulation);
  const auto cascade = periodic::period_doubling_cascade(start.system, *start.problem, start.y,
                                                         models::lorenz_branch_options(),
                                                         {std::make_shared<PeriodDoublingTest>()}, levels);

  drivers::Figure figure{"Lorenz: period-doubling cascade", "rho", "period T", {}, {}};
  nlohmann::ordered_json summary;
  summary["period_at_280"] = start.y[3];
  auto& pds = summary["period_doublings"] = nlohmann::ordered_json::array();
  for (std::size_t level = 0; level < cascade.size(); ++level) {
    const Branch& b = cascade[level].branch;
    drivers::write_file_atomically(dir / ("level" + std::to_string(level) + ".csv"),
                                   [&](std::ostream& out) { b.write_csv(out); });
    drivers::Figure::Series s;
    s.title = "period " + std::to_string(1 << level) + " T";
    for (const auto& p : b.points) s.points.emplace_back(p.y[4], p.y[3]);
    figure.series.push_back(std::move(s));
    std::cout << "level " << level << ": " << b.points.size() << " points, " << b.message << '\n';
    if (const auto& pd = cascade[level].pd) {
      std::cout << "  PD at rho = " << std::setprecision(12) << pd->y[4] << ", T = " << pd->y[3] << " ("
                << to_string(pd->status) << ", precision " << pd->precision << ")\n";
      figure.labels.push_back({pd->y[4], pd->y[3], "PD"});
      pds.push_back({{"rho", pd->y[4]},
                     {"T", pd->y[3]},
                     {"status", to_string(pd->status)},
                     {"precision", pd->precision}});
    }
  }
  drivers::write_file_atomically(dir / "summary.json",
                                 [&](std::ostream& out) { out << summary.dump(2) << '\n'; });
  std::string warning;
  drivers::draw(figure, dir, "cascade", &warning);
  if (!warning.empty()) std::cerr << "warning: " << warning << '\n';
  return 0;
}
