"""The cusp f = mu + lambda x - x^3: its branch in mu (two folds at
mu = -+2/(3 sqrt 3)), then the fold curve from the first LP in (mu, lambda),
which meets the cusp point CP at the origin. Writes cusp.png."""
import math
import sys

import matplotlib.pyplot as plt
import saltus
import saltus.plot

out = sys.argv[1] if len(sys.argv) > 1 else "results/python"
cusp = saltus.load("examples/cusp.json")
branch = saltus.continuation(cusp)
folds = [s for s in branch.special_points if s.type == "LP"]
print("folds at mu =", [f.mu for f in folds], "closed form -+", 2 / (3 * math.sqrt(3)))

curve = saltus.continue_from(branch, "LP1", parameters=["mu", "lambda"],
                             options={"direction": -1, "ds": 0.01, "ds_max": 0.05, "max_points": 400,
                                      "bounds": {"lambda": [-1, 2], "mu": [-2, 2]}})
for s in curve.special_points:
    print(f"{s.label:3s} mu = {s.mu:+.3e}  lambda = {s.values['lambda']:+.3e}  ({s.status})")

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
saltus.plot.branch(left, branch, "mu", "x")
left.set_title("x against mu at lambda = 1")
saltus.plot.curves(right, curve)
right.set_title("the fold curve mu = +-2 (lambda/3)^(3/2)")
fig.tight_layout()
fig.savefig(f"{out}/cusp.png")
