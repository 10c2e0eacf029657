"""Contact geometry (Damerau & Low 2016, examples 4.4.1-4.4.5 in
examples/extremal/): each degenerate contact point classified (codimension,
Lyapunov coefficients, transversality matrix, normal form), then for the
versal cusp of example 4.4.4 (a parabola in a round hole) the number of
extremal points over poses (x, y) around the degenerate pose, counted by
Newton from a grid of starts and predicted by the normal form
0 = mu_0 + mu_1 p + p^3: the cusp's two fold lines bound the region with
three. The search box |s_i - s_i*| <= 1.2 holds every extremal point of
these poses (the run file's 0.5 would lose those that leave it, which are
no bifurcation). Writes contact.png."""
import sys

import matplotlib.pyplot as plt
import numpy as np
import saltus

out = sys.argv[1] if len(sys.argv) > 1 else "results/python"
for name in ("ex441", "ex442", "ex443", "ex444", "ex445"):
    c = saltus.classify(f"examples/extremal/{name}.json")
    coefficients = ", ".join(f"c_{n} = {v:.6g}" for n, v in list(c["lyapunov"]["c"].items())[:4])
    print(f"{name}: {c['type']} (codimension {c['codimension']}, rank {c['rank']}, "
          f"{'versal' if c['versal'] else 'not versal'}); {coefficients}")

cusp = saltus.load("examples/extremal/ex444.json")
x0, y0 = cusp.point["x"], cusp.point["y"]
xs = np.linspace(x0 - 0.06, x0 + 0.06, 21)
ys = np.linspace(y0 - 0.06, y0 + 0.06, 21)
found = np.zeros((len(ys), len(xs)))
predicted = np.zeros_like(found)
for i, y in enumerate(ys):
    for j, x in enumerate(xs):
        r = saltus.extremal_points(cusp, x, y, 0.0, box=1.2)  # |s_i| <= 1.2: none leaves the box
        found[i, j], predicted[i, j] = r["count"], r["predicted_count"]
agree = np.mean(found == predicted)
print(f"ex444 at {found.size} poses: the normal form's count agrees with Newton's at {100 * agree:.1f}%")

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.3), sharey=True)
extent = (xs[0], xs[-1], ys[0], ys[-1])
for ax, counts, title in ((left, found, "extremal points found (Newton)"),
                          (right, predicted, "predicted by the cusp's normal form")):
    image = ax.imshow(counts, origin="lower", extent=extent, aspect="auto", cmap="viridis", vmin=0, vmax=4)
    ax.plot([x0], [y0], "r+", ms=10)
    ax.set_title(title)
    ax.set_xlabel("x")
left.set_ylabel("y")
fig.colorbar(image, ax=[left, right], label="count")
fig.savefig(f"{out}/contact.png")
