#pragma once
// Contact points followed (Damerau & Low 2016; analyses/contact/): through
// pose space by continuation, with folds, cusps and swallowtails located
// and classified ("continue"), and along a prescribed relative motion
// x(t), y(t), phi(t), every extremal point tracked with its births and
// deaths classified ("track"). Each reads its object of the contact run
// file (the keys of studies/option_tables.h's extremal table), runs, and
// gives its result with a JSON summary; `saltus extremal continue | track`
// write and draw them, Python returns them as arrays.

#include <array>
#include <functional>
#include <optional>
#include <string>

#include "analyses/contact/continuation.h"
#include "analyses/contact/track.h"
#include "studies/contact_study.h"

namespace saltus::studies {

// ---- "continue"
struct ContactContinueSpec {
  std::array<double, 5> start{};  // s1, s2, x, y, phi (default: the run's point)
  std::string parameter = "x";    // the branch's pose parameter: x, y or phi
  std::optional<std::array<std::string, 2>> fold_curve;  // the fold curve's two pose parameters
  bool cusp_curve = false;
  ContactContinuationOptions options;
};
// Throws RunFileError naming the key ("continue" missing, a name that is
// no pose parameter, ...).
ContactContinueSpec contact_continue_spec(const ExtremalRun& run);
struct ContactContinueStudy {
  ContactContinueSpec spec;
  ContactContinuationResult result;
  // name, run_file, message, start, parameter, fold_curve, cusp_curve,
  // folds, cusps, swallowtails (each located point with its
  // classification), branches (each branch's summary).
  Json summary;
};
// stop_requested (any thread; a Ctrl-C) ends each continuation at its next
// point: the result holds what was done, its branches stopped "by callback".
ContactContinueStudy continue_contact(const ExtremalRun& run,
                                      const std::function<bool()>& stop_requested = {});
// A located fold, cusp or swallowtail as data: type, point, located,
// polished, residual, det, c2_tilde, c3_tilde, classified, classification
// {codimension, type, rank, versal, message, c, transversality_matrix}.
Json located_json(const LocatedContactPoint& p);

// ---- "track"
struct ContactTrackSpec {
  ContactMotion motion;
  ContactTrackOptions options;
};
ContactTrackSpec contact_track_spec(const ExtremalRun& run);  // throws RunFileError naming the key
struct ContactTrackStudy {
  ContactTrackSpec spec;
  ContactTrack track;
  Json summary;  // name, run_file, motion, t, initial_count, stop, events
};
// stop_requested as ContactTrackOptions::stop_requested.
ContactTrackStudy track_contact(const ExtremalRun& run, const std::function<bool()>& stop_requested = {});

}  // namespace saltus::studies
