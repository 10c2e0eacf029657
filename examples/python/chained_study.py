"""A study no run-file key expresses: the Rossler system
x' = -y - z, y' = x + a y, z' = b + z (x - c) at b = 2, c = 4. Its
equilibrium in a, the Hopf point (HB) there, the cycles born at it, the
first period doubling (PD) on them, and that PD's curve in (a, c), drawn
with the Hopf curve in the same plane. Writes chained_study.png."""
import math
import sys

import matplotlib.pyplot as plt
import saltus
import saltus.plot

out = sys.argv[1] if len(sys.argv) > 1 else "results/python"
a, b, c = 0.05, 2.0, 4.0
y0 = (-c + math.sqrt(c * c - 4 * a * b)) / (2 * a)  # the equilibrium (-a y, y, -y) near the origin
rossler = saltus.load({
    "name": "rossler", "unknowns": ["x", "y", "z"], "parameters": {"a": a, "b": b, "c": c},
    "equations": ["-y - z", "x + a*y", "b + z*(x - c)"], "start": {"x": -a * y0, "y": y0, "z": -y0},
    "equilibria": True,
    "continuation": {"parameter": "a", "ds": 0.01, "ds_max": 0.02, "bounds": {"a": [0, 0.5]}}})

equilibria = saltus.continuation(rossler)
hb = equilibria.point("HB1")
print(f"HB at a = {hb.a:.10f}: frequency {hb.frequency:.6f}, l1 = {hb.l1:.6g} ({hb.criticality})")
cycles = saltus.continue_from(equilibria, hb, amplitude=0.05, options={"ds": 0.01, "ds_max": 0.05})
pd = cycles.point("PD1")
print(f"PD on the cycles at a = {pd.a:.10f}, T = {pd.T:.8f}, multipliers {pd.multipliers}")
in_ac = {"ds": 0.02, "ds_max": 0.2, "max_points": 80, "bounds": {"a": [0, 0.5], "c": [2.5, 8]}}
pd_curves = [saltus.continue_from(cycles, pd, to="curve", parameters=["a", "c"],
                                  options=dict(in_ac, direction=d)) for d in (1, -1)]
hopf = saltus.continue_from(equilibria, hb, to="curve", parameters=["a", "c"],
                            options=dict(in_ac, ds_max=0.05))
for curve in (*pd_curves, hopf):
    print(curve)

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
saltus.plot.branch(left, cycles, "a", "T", label="cycles (stable solid)")
left.set_title("the cycles born at the HB: period against a")
saltus.plot.curves(right, hopf, *pd_curves, labels=["Hopf curve", "PD curve", "PD curve (other way)"])
right.plot([pd.a], [c], "s", color="black")
right.set_title("the Hopf and PD curves in (a, c)")
right.legend(fontsize=8)
fig.tight_layout()
fig.savefig(f"{out}/chained_study.png")
