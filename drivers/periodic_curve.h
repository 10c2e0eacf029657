#pragma once
// `saltus periodic` with "periodic.curve": from the first located grazing
// (GR) of the one-parameter branch, the grazing curve in two parameters
// (continuation/periodic/grazing_orbit.h: shooting on the flow without the
// contact plus "the guard's minimum is zero", continued by the engine in the
// second parameter): curve.csv, curve.png and "curve" in summary.json.

#include <filesystem>
#include <string>
#include <vector>

#include "continuation/branch.h"
#include "continuation/periodic/grazing_orbit.h"
#include "drivers/hybrid_run_file.h"
#include "drivers/json_input.h"
#include "drivers/periodic_orbit.h"

namespace saltus::drivers {

// The located grazing orbits of the branch with their contacts.
struct GrazingStart {
  Vector y;  // (x, [T,] first parameter)
  periodic::Contact contact;
};

// False with *why when the branch has no grazing to start from.
bool grazing_curve(const HybridRun& run, const ShootingStart& start,
                   const std::vector<GrazingStart>& grazings, const std::filesystem::path& dir, Json* summary,
                   std::string* why);

}  // namespace saltus::drivers
