#pragma once
// Files a run writes are replaced whole or not at all: each is written to a
// temporary name in the same folder and renamed into place, so an error or an
// interrupted run never leaves a half-written file.

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace saltus::drivers {

void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write);

// Whether the commands draw their figures (default true). `--no-figures`
// sets it false for the run: draw() and render_gnuplot() then write nothing
// (no .png, .svg, nor the .dat and .gp files gnuplot would read) and start
// no gnuplot, so a run's time is its study's and the results (CSV, JSON)
// alone are written. The command line sets it on every run (run_cli).
void set_figures(bool drawn);
bool figures_drawn();

// A figure of curves y(x) with labelled points, drawn by gnuplot from files.
struct Figure {
  std::string title, xlabel, ylabel;
  struct Series {
    std::string title;
    std::vector<std::pair<double, double>> points;
    std::string style = "lines";     // gnuplot's: "lines", "points", "dots"
    std::string style_options = {};  // after the line style, e.g. "pt 7 ps 0.3"
  };
  std::vector<Series> series;
  struct Label {
    double x, y;
    std::string text;
  };
  std::vector<Label> labels;
  std::string labels_title = "special points";
  bool equal_axes = false;  // the same length per unit on both axes (geometry: circles stay circles)
};

// Writes <stem>.dat and <stem>.gp into dir and runs gnuplot on them to make
// <stem>.png and <stem>.svg. Returns the files made; on a gnuplot failure
// returns the data files only and sets *warning.
std::vector<std::filesystem::path> draw(const Figure& figure, const std::filesystem::path& dir,
                                        const std::string& stem, std::string* warning);

// The figures of one run, drawn as above by a single gnuplot process: its
// start-up and the cairo terminal's font set-up are about a third of a small
// figure's cost. A figure gnuplot cannot draw keeps its data files and adds
// a warning; the others are drawn all the same.
struct Drawing {
  std::string stem;
  Figure figure;
};
std::vector<std::filesystem::path> draw(const std::vector<Drawing>& drawings,
                                        const std::filesystem::path& dir, std::vector<std::string>* warnings);

}  // namespace saltus::drivers
