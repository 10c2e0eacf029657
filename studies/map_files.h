#pragma once
// The files of an attractor map (studies/map_study.h), as `saltus map`
// writes them and Python's saltus.attractor_map(out=) does: map.csv (each
// grid point done: the two parameters, class, period, distinct hits,
// events, the exponent when asked), summary.json and the map's figure; and
// a map.csv read back as a figure's backdrop (`saltus periodic --over-map`).

#include <filesystem>
#include <string>
#include <vector>

#include "studies/map_study.h"
#include "studies/output.h"

namespace saltus::studies {

// name, status (finished, interrupted), x and y {parameter, from, to,
// steps}, points, seed, max_period, tolerance, points_done (interrupted),
// classes {class: count} in the legend's order, failures (the first 100:
// the two parameters and the message).
Json map_summary(const HybridRun& run, const MapResult& map);
// map.csv, summary.json and the figure into dir (created). Returns the
// figure's warnings.
std::vector<std::string> write_map(const HybridRun& run, const MapResult& map, const std::filesystem::path& dir);

// A map.csv of `saltus map` as figure series in the map figure's colours
// (faded) and legend (one per class), for drawing curves over it; *x and *y
// get the labels of its axes. Throws RunFileError naming the file when it
// is not a map.csv.
std::vector<Figure::Series> map_backdrop(const std::filesystem::path& csv, std::string* x, std::string* y);

}  // namespace saltus::studies
