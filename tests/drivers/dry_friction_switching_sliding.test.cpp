// `saltus periodic` on the undamped dry-friction oscillator at F = 0.6
// (examples/user/dry_friction_sliding.json with F = 0.6, the branch in w
// from 3 to 3.7): through its switching-sliding (SS) at the closed form's
// w = 3.47318540083224 (tests/studies/dry_friction_closed_form.h,
// crossing_at_boundary: kCrossing's crossing at the boundary g = F with
// dg/dt < 0; its test checks that value to 1e-11).
//
// Next to the SS the slip+ after the crossing lands ~1e-12 after it, where
// its H+ = h_x F+ still has rounding's sign (>= 0 with H- > 0: both fields
// point up, so no slip+ orbit can arrive there). The crossing rule sent it
// on into slip-, which crossed back at once, to and fro, until the
// simulation stopped: the command failed with "shooting over one period
// failed: 100 events within 1e-12 of each other ... a Zeno accumulation"
// (the engine's location of the CS test's sign change corrects an orbit
// there). Such a landing now slides (models/filippov_hybrid.h,
// lands_at_fold), the Filippov limit of the vanishing excursion.

#include <catch2/catch.hpp>
#include <cmath>

#include "run_cli.h"

using namespace saltus::testing;

TEST_CASE("saltus periodic: the dry-friction oscillator through its switching-sliding, no Zeno next to it",
          "[drivers][filippov][sliding][regression]") {
  auto j = example_json("user/dry_friction_sliding.json");
  j["parameters"]["F"] = 0.6;
  j["parameters"]["w"] = 3.0;
  j["periodic"]["bounds"] = {{"w", {2.9, 3.7}}};
  j["periodic"]["max_points"] = 200;
  const auto dir = scratch("dry-friction-ss");
  const auto file = write_run(dir, j);
  const Run r = run_saltus({"periodic", file.string(), "--out", (dir / "out").string(), "--no-figures"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto summary = nlohmann::json::parse(text_of(dir / "out" / "summary.json"));
  const nlohmann::json* ss = nullptr;
  for (const auto& sp : summary["special_points"])
    if (sp["type"] == "SS") ss = &sp;
  REQUIRE(ss);
  INFO(ss->dump());
  CHECK((*ss)["status"] == "located");
  CHECK(std::abs((*ss)["parameters"]["w"].get<double>() - 3.47318540083224) < 1e-8);
  CHECK((*ss)["sequence_before"] == "slip- -> slip+; slip+ -> stick; stick -> slip-");
  CHECK((*ss)["sequence_after"] == "slip- -> stick; stick -> slip-");
  std::filesystem::remove_all(dir);
}
