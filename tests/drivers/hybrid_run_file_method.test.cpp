#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "studies/hybrid_run_file.h"

using namespace saltus;
using saltus::studies::read_hybrid_run;

namespace {

// A bouncing-ball run file with the given "simulation" object, written to a temporary file.
std::filesystem::path run_file(const std::string& simulation) {
  const auto path = std::filesystem::temp_directory_path() / "saltus_hybrid_run_file_method.json";
  std::ofstream(path) << R"({"model": "bouncing_ball", "initial": {"q": 0.3, "v": 0.0}, "time": [0, 1],
    "simulation": )" << simulation
                      << "}";
  return path;
}

}  // namespace

TEST_CASE("hybrid run file: simulation.method picks the Runge-Kutta method", "[drivers][flow]") {
  CHECK(read_hybrid_run(run_file(R"({"method": "dop853"})")).simulation.method ==
        flow::IntegrationMethod::kDop853);
  CHECK(read_hybrid_run(run_file(R"({"method": "dopri5"})")).simulation.method ==
        flow::IntegrationMethod::kDopri5);
  CHECK(read_hybrid_run(run_file("{}")).simulation.method == flow::SimulationOptions{}.method);
  CHECK_THROWS_WITH(read_hybrid_run(run_file(R"({"method": "rk45"})")),
                    Catch::Contains("simulation.method") && Catch::Contains("'rk45'") &&
                        Catch::Contains("dopri5") && Catch::Contains("dop853"));
  CHECK_THROWS_WITH(read_hybrid_run(run_file(R"({"method": 5})")), Catch::Contains("simulation.method"));
}
