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

namespace saltus::studies {

void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write);

// Writes x as `out << std::setprecision(precision) << x` does (printf's
// "%.*g" in the C locale; nan, inf, -nan alike) by std::to_chars, which
// formats with Ryu instead of the stream's locale and glibc's multiprecision
// printf_fp: that was 72% of `saltus simulate`'s instructions on the impact
// oscillator's 6000 samples (docs/performance.md). The stream's own
// precision and flags are not read.
void write_number(std::ostream& out, double x, int precision);

// Whether the commands draw their figures (default true). `--no-figures`
// sets it false for the run: draw() (and the command line's render_gnuplot) then write nothing
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

}  // namespace saltus::studies
