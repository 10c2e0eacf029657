#pragma once
// `saltus periodic` with "periodic.curve": from the first located point of
// each curve's kind on the one-parameter branch, its curve in two
// parameters (studies/hybrid_curves.cpp), continued in the second one:
//   GR   the grazing system (continuation/periodic/grazing_orbit.h: shooting
//        on the flow without the contact plus "the guard's minimum is zero");
//   LPC, PD  shooting plus the bordered test function of M - I or M + I, with
//        exact second derivatives of the flow (continuation/periodic/
//        cycle_curve.h);
//   NS   shooting plus two entries of the bordered M^2 - 2 kappa M + I
//        (continuation/periodic/ns_curve.h), kappa = cos theta a column;
// with the codimension-2 points of testfunctions/cycle_codim2.h located.
// One curve: curve.csv, curve.png and "curve" in summary.json; a list:
// curve_<i>.csv, one figure per parameter pair (curves_<first>_<second>.png)
// and "curves".

#include <filesystem>
#include <string>
#include <vector>

#include "continuation/branch.h"
#include "drivers/studies.h"
#include "studies/hybrid_run_file.h"
#include "studies/json_input.h"
#include "studies/study.h"

namespace saltus::drivers {

// The run's curves from the first located points of their kinds on the
// branch (studies::continue_from), their files and one figure per parameter
// pair (a figure gnuplot cannot draw adds to *warnings). False with *why when
// a curve has no point of its kind to start from, or cannot start.
bool two_parameter_curves(const studies::BranchResult& branch, const std::filesystem::path& dir,
                          Json* summary, const studies::Progress& progress,
                          std::vector<std::string>* warnings, std::string* why);

// `saltus periodic --over-map`: csv is a map.csv of `saltus map` over the
// two parameters (either way round) of at least one of the spec's curves,
// else RunFileError says what to give; checked before anything is computed.
// The figures of those curves draw the map under them.
void check_curve_map(const PeriodicSpec& spec, const std::filesystem::path& csv);

}  // namespace saltus::drivers
