"""The impact oscillator x'' + 2 zeta x' + x = F cos(w t), with an impact
v -> -r v at the stop x = d (examples/user/impact_oscillator_curves.json),
from its first simulation to its two-parameter diagram: the impacting
period-1 orbit continued in w to its period doubling (PD) and its grazing
(GR), the doubled branch, then the grazing and PD curves in (w, F) with
Nordmark's codimension-2 point GR-PD-LPC, where the grazing curve's closed
form F = d sqrt((1 - w^2)^2 + (2 zeta w)^2) is drawn beneath and the point
is at w = 2 sqrt(1 - zeta^2). Writes impact_oscillator.png."""
import math
import sys

import matplotlib.pyplot as plt
import numpy as np
import saltus
import saltus.plot

out = sys.argv[1] if len(sys.argv) > 1 else "results/python"
system = saltus.load("examples/user/impact_oscillator_curves.json")
p = system.parameters
trajectory = saltus.simulate(system)
orbits = saltus.continuation(system)                   # the orbit, then its branch in w
doubled = saltus.continue_from(orbits, "PD1", options={"max_points": 40})
grazing = saltus.continue_from(orbits, "GR1", parameters=["w", "F"])
pd_curve = saltus.continue_from(orbits, "PD1", to="curve", parameters=["w", "F"])
for b in (orbits, doubled, grazing, pd_curve):
    print(b)
nordmark = grazing.point("GR-PD-LPC1")
print(f"GR-PD-LPC at w = {nordmark.w:.8f} (closed form {2 * math.sqrt(1 - p['zeta'] ** 2):.8f}), "
      f"F = {nordmark.F:.8f}")

fig, (phase, branch, plane) = plt.subplots(1, 3, figsize=(15, 4.5))
saltus.plot.trajectory(phase, trajectory, "x", "v")
phase.set_title(f"simulation at w = {p['w']}: impacts marked")
saltus.plot.branch(branch, orbits, "w", "x", label="period 1")
saltus.plot.branch(branch, doubled, "w", "x", label="period 2")
branch.set_ylabel("x at the cut")
branch.legend(fontsize=8)
branch.set_title("orbits: stable solid, unstable dashed")
w = np.linspace(1.8, 4.0, 200)
plane.plot(w, p["d"] * np.hypot(1 - w ** 2, 2 * p["zeta"] * w), color="0.8", lw=4, label="closed form")
saltus.plot.curves(plane, grazing, pd_curve, labels=["grazing (GR)", "period doubling (PD)"])
plane.legend(fontsize=8)
plane.set_title("two parameters")
fig.tight_layout()
fig.savefig(f"{out}/impact_oscillator.png")
