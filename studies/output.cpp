#include "studies/output.h"

#include <unistd.h>

#include <atomic>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <stdexcept>

namespace saltus::studies {

namespace fs = std::filesystem;

namespace {
std::atomic<bool> figures{true};  // set per run by the command line; read by worker threads too
}  // namespace

void write_number(std::ostream& out, double x, int precision) {
  char buffer[64];  // "%.17g" needs at most 24
  const auto end =
      std::to_chars(buffer, buffer + sizeof buffer, x, std::chars_format::general, precision).ptr;
  out.write(buffer, end - buffer);
}

void set_figures(bool drawn) { figures = drawn; }
bool figures_drawn() { return figures; }

void write_file_atomically(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  const fs::path tmp = path.string() + ".tmp" + std::to_string(::getpid());
  std::ofstream out(tmp);
  if (!out) throw std::runtime_error("cannot write " + tmp.string());
  try {
    write(out);
  } catch (...) {
    out.close();
    std::error_code ignored;  // the writer's exception is the one to report
    fs::remove(tmp, ignored);
    throw;
  }
  out.close();
  if (!out) {
    fs::remove(tmp);
    throw std::runtime_error("writing " + path.string() + " failed");
  }
  std::error_code failed;
  fs::rename(tmp, path, failed);
  if (failed) {  // say, a folder of that name: no temporary file stays behind
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw std::runtime_error("cannot write " + path.string() + ": " + failed.message());
  }
}

namespace {
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}
// For /bin/sh: single quotes, with ' written as '\''.
std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// <stem>.dat and <stem>.gp; the script writes <stem>.png and <stem>.svg under
// temporary names (suffix), renamed into place once gnuplot succeeds.
void write_figure_files(const Figure& figure, const fs::path& dir, const std::string& stem,
                        const std::string& suffix, std::vector<fs::path>& made) {
  const fs::path data = dir / (stem + ".dat");
  write_file_atomically(data, [&](std::ostream& out) {
    out << std::setprecision(12);
    // One gnuplot index per series, then the labels.
    for (const auto& s : figure.series) {
      out << "# " << s.title << "\n";
      for (const auto& [x, y] : s.points) {
        write_number(out, x, 12);
        out << ' ';
        write_number(out, y, 12);
        out << '\n';
      }
      out << "\n\n";
    }
    out << "# labels\n";
    for (const auto& l : figure.labels) out << l.x << ' ' << l.y << " \"" << l.text << "\"\n";
  });
  made.push_back(data);

  const fs::path script = dir / (stem + ".gp");
  write_file_atomically(script, [&](std::ostream& out) {
    out << "# gnuplot script written by saltus; run `gnuplot " << stem << ".gp` in this folder\n"
        << "reset\n"  // one gnuplot process draws a run's figures in turn: nothing carries over
        << "set title " << quoted(figure.title) << " noenhanced\n"
        << "set xlabel " << quoted(figure.xlabel) << " noenhanced\n"
        << "set ylabel " << quoted(figure.ylabel) << " noenhanced\n"
        << "set grid lc rgb '#dddddd'\nset key outside right top\nset offsets graph 0.03, graph 0.03, graph "
           "0.05, graph 0.05\n"
        << "set style line 1 lc rgb '#1f77b4' lw 2\nset style line 2 lc rgb '#ff7f0e' lw 2\n"
        << "set style line 3 lc rgb '#2ca02c' lw 2\nset style line 4 lc rgb '#9467bd' lw 2\n"
        << (figure.equal_axes ? "set size ratio -1\n" : "")  // one unit is as long in x as in y
        << "do for [format in 'png svg'] {\n"
        << "  if (format eq 'png') { set terminal pngcairo size 960,640 font ',11' }\n"
        << "  else { set terminal svg size 960,640 font 'sans,11' }\n"
        << "  set output sprintf('%s.%s" << suffix << "', " << quoted(stem) << ", format)\n"
        << "  plot ";
    for (std::size_t i = 0; i < figure.series.size(); ++i)
      out << (i ? ", " : "") << quoted(stem + ".dat") << " index " << i << " using 1:2 with "
          << figure.series[i].style << " ls " << (i % 4 + 1) << ' ' << figure.series[i].style_options
          << " title " << quoted(figure.series[i].title) << " noenhanced";
    if (!figure.labels.empty()) out << ", ";
    // gnuplot crashes on an empty data block, so the points only when there are some.
    const std::size_t labels = figure.series.size();
    if (!figure.labels.empty())
      out << quoted(stem + ".dat") << " index " << labels
          << " using 1:2 with points pt 7 ps 1.3 lc rgb '#d62728' title " << quoted(figure.labels_title)
          << ", " << quoted(stem + ".dat") << " index " << labels
          << " using 1:2:3 with labels offset 1.2,0.8 font ',10' noenhanced notitle";
    out << "\n  unset output\n}\n";
  });
  made.push_back(script);
}

// Runs `gnuplot a.gp b.gp ...` in dir; false, with gnuplot's words in *output,
// when a script fails (gnuplot stops there).
bool run_gnuplot(const fs::path& dir, const std::vector<std::string>& stems, std::string* output) {
  std::string command = "cd " + shell_quoted(dir.string()) + " && gnuplot";
  for (const auto& stem : stems) command += ' ' + shell_quoted(stem + ".gp");
  command += " 2>&1";
  output->clear();
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return false;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe)) *output += buffer;
  return ::pclose(pipe) == 0;
}

}  // namespace

std::vector<fs::path> draw(const std::vector<Drawing>& drawings, const fs::path& dir,
                           std::vector<std::string>* warnings) {
  std::vector<fs::path> made;
  if (drawings.empty() || !figures_drawn()) return made;
  const std::string suffix = ".tmp" + std::to_string(::getpid());
  std::vector<std::string> stems;
  for (const auto& d : drawings) {
    write_figure_files(d.figure, dir, d.stem, suffix, made);
    stems.push_back(d.stem);
  }
  std::string output;
  const bool all = run_gnuplot(dir, stems, &output);
  std::vector<bool> drawn(drawings.size(), all);
  if (!all) {
    // gnuplot stopped at the first script that failed: draw each alone, to
    // keep the others and to name the figures that are missing.
    for (std::size_t i = 0; i < drawings.size(); ++i) {
      drawn[i] = drawings.size() > 1 && run_gnuplot(dir, {stems[i]}, &output);
      if (!drawn[i] && warnings)
        warnings->push_back("gnuplot failed, figure " + stems[i] + " not drawn: " + output);
    }
  }
  for (std::size_t i = 0; i < drawings.size(); ++i)
    for (const char* format : {"png", "svg"}) {
      const fs::path temporary = dir / (stems[i] + "." + format + suffix);
      if (!drawn[i]) {
        fs::remove(temporary);
        continue;
      }
      const fs::path final = dir / (stems[i] + "." + format);
      fs::rename(temporary, final);
      made.push_back(final);
    }
  return made;
}

std::vector<fs::path> draw(const Figure& figure, const fs::path& dir, const std::string& stem,
                           std::string* warning) {
  std::vector<std::string> warnings;
  auto made = draw({Drawing{stem, figure}}, dir, &warnings);
  if (warning && !warnings.empty()) *warning = warnings.front();
  return made;
}

}  // namespace saltus::studies
