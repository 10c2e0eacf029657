"""Lorenz-84 (examples/lorenz84.json, the four-dimensional model of the
MatCont and BifurcationKit.jl tutorials): equilibria in F with their fold
(LP) and Hopf (HB) points, then the fold curve and the Hopf curves in (F, T)
with their codimension-2 points: Bogdanov-Takens (BT), cusp (CP), zero-Hopf
(ZH), double-Hopf (HH) and generalized Hopf (GH). Writes lorenz84.png."""
import sys

import matplotlib.pyplot as plt
import saltus
import saltus.plot

out = sys.argv[1] if len(sys.argv) > 1 else "results/python"
equilibria = saltus.continuation(saltus.load("examples/lorenz84.json"))
print(equilibria)
curve_options = {"ds": 0.005, "ds_max": 0.02, "max_points": 2000,
                 "bounds": {"F": [-1.5, 3.5], "T": [-0.1, 0.1]}}
fold = saltus.continue_from(equilibria, "LP1", parameters=["F", "T"], options=curve_options)
hopf = saltus.continue_from(equilibria, "HB2", to="curve", parameters=["F", "T"], options=curve_options)
from_bt = saltus.continue_from(fold, "BT1", options=curve_options, name="hopf_curve_from_bt")
for c in (fold, hopf, from_bt):
    print(c)
    for s in c.special_points:
        if s.type != "EP":
            extra = f"  l2 = {s.l2:.6g}" if s.type == "GH" else ""
            print(f"  {s.label:3s} F = {s.F:.10f}  T = {s.T:+.10f}  ({s.status}){extra}")

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
saltus.plot.branch(left, equilibria, "F", "X")
left.set_title("equilibria: stable solid, unstable dashed")
saltus.plot.curves(right, fold, hopf, from_bt, labels=["fold (LP)", "Hopf (HB2)", "Hopf (from BT)"])
right.set_xlim(-1.5, 3.5)
right.set_ylim(-0.1, 0.1)
right.legend(fontsize=8)
fig.tight_layout()
fig.savefig(f"{out}/lorenz84.png")
