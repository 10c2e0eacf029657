"""Figures of saltus results on matplotlib axes.

Each helper draws on the axis it is given and returns it; none calls
``plt.show()``::

    fig, ax = plt.subplots()
    saltus.plot.branch(ax, orbits, "rho", "T")
    saltus.plot.branch(ax, doubled, "rho", "T")
"""

__all__ = ["branch", "curves", "orbit", "trajectory", "sweep", "attractor_map", "two_fold_map",
           "two_fold_futures"]


def _runs(mask):
    """Index ranges [i, j] of consecutive equal values of mask (sharing the
    boundary points, so that the pieces join)."""
    runs, start = [], 0
    for i in range(1, len(mask) + 1):
        if i == len(mask) or mask[i] != mask[start]:
            runs.append((start, min(i, len(mask) - 1), mask[start]))
            start = i
    return runs


def _label_points(ax, br, x, y, skip=("EP",), **text):
    for s in br.special_points:
        if s.type in skip:
            continue
        px, py = s.values.get(x), s.values.get(y)
        if px is None or py is None:
            px, py = br[x][s.index], br[y][s.index]
        ax.plot([px], [py], "o", ms=4, color="black", zorder=5)
        ax.annotate(s.label, (px, py), textcoords="offset points", xytext=(4, 4), fontsize=8, **text)


def branch(ax, br, x=None, y=None, label=None, color=None, specials=True, **style):
    """A branch against two of its components (default: its parameter and
    its first state component): stable parts solid, unstable dashed
    (unknown stability: dotted), special points marked and labelled."""
    x = x or br.columns[br.state_size]
    y = y or br.columns[0]
    xs, ys = br[x], br[y]
    stable = br.stable
    line = None
    for i, j, s in _runs([None if v is None else bool(v) for v in stable]):
        ls = "-" if s is True else "--" if s is False else ":"
        kw = dict(style)
        if line is not None:
            kw["color"] = line.get_color()
        elif color is not None:
            kw["color"] = color
        (piece,) = ax.plot(xs[i:j + 1], ys[i:j + 1], ls, label=label or br.name if line is None else None, **kw)
        line = line or piece
    if specials:
        _label_points(ax, br, x, y)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    return ax


def curves(ax, *branches, labels=None, **style):
    """Curves in two parameters (fold, Hopf, PD, LPC, NS curves) in one
    diagram, with their codimension-2 points labelled."""
    for k, br in enumerate(branches):
        p1, p2 = br.curve_parameters if len(br.curve_parameters) == 2 else br.columns[-2:]
        ax.plot(br[p1], br[p2], "-", label=(labels[k] if labels else br.name), **style)
        _label_points(ax, br, p1, p2)
        ax.set_xlabel(p1)
        ax.set_ylabel(p2)
    return ax


def orbit(ax, br, point, x=None, y=None, samples=400, label=None, **style):
    """One period of the orbit at a point (index or SpecialPoint) of a branch
    of orbits in the (x, y) plane, its start marked."""
    o = br.orbit(point, samples)
    names = [k for k in o if k != "t"]
    x = x or names[0]
    y = y or names[1]
    if label is None:
        label = point.label if hasattr(point, "label") else f"point {point}"
    (line,) = ax.plot(o[x], o[y], label=label, **style)
    ax.plot([o[x][0]], [o[y][0]], "o", ms=3, color=line.get_color())
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    return ax



def trajectory(ax, tr, x=None, y=None, label=None, events=True, **style):
    """A simulation (saltus.simulate) in the (x, y) plane (default: its
    first two states), its events (impacts, stick and slip) marked where
    they occur, from the state just before each."""
    x = x or tr.states[0]
    y = y or (tr.states[1] if len(tr.states) > 1 else "t")
    xs = tr.t if x == "t" else tr[x]
    ys = tr.t if y == "t" else tr[y]
    (line,) = ax.plot(xs, ys, label=label, lw=0.8, **style)
    if events and tr.events:
        ex = [e["t"] if x == "t" else e["before"][x] for e in tr.events]
        ey = [e["t"] if y == "t" else e["before"][y] for e in tr.events]
        ax.plot(ex, ey, "o", ms=3, color=line.get_color(), label="events")
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    return ax


def sweep(ax, result, y=None, label=None, **style):
    """A sweep's bifurcation diagram: the state ``y`` (default: the first) at
    each section hit against the parameter, as small dots."""
    names = [k for k in result if k not in ("parameter", "values", "t", "failures", "values_done", "chains",
                                            "interrupted", "message", result["parameter"])]
    y = y or names[0]
    style.setdefault("s", 1)
    style.setdefault("color", "k")
    ax.scatter(result[result["parameter"]], result[y], label=label, **style)
    ax.set_xlabel(result["parameter"])
    ax.set_ylabel(y + " at the section")
    return ax


def attractor_map(ax, result, **style):
    """An attractor map (``saltus.attractor_map``): one colour per class at
    each grid point (period-1, period-2, ... in the tab10 colours, chaotic
    black, escaped grey, no hits wheat; points not done left blank), one
    legend entry per class, as ``saltus map`` draws map.png."""
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
               "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"]
    fixed = {"chaotic": "#000000", "escaped": "#c8c8c8", "no hits": "#f5deb3"}

    def order(c):
        return int(c[7:]) if c.startswith("period-") else 1000 + list(fixed).index(c)

    cells = {}
    for j, row in enumerate(result["classes"]):
        for i, c in enumerate(row):
            if c:
                cells.setdefault(c, ([], []))
                cells[c][0].append(result["x"][i])
                cells[c][1].append(result["y"][j])
    style.setdefault("marker", "s")
    style.setdefault("s", 12)
    for c in sorted(cells, key=order):
        colour = fixed.get(c) or colours[(order(c) - 1) % 10]
        ax.scatter(cells[c][0], cells[c][1], color=colour, label=c, **style)
    ax.set_xlabel(result["x_parameter"])
    ax.set_ylabel(result["y_parameter"])
    return ax


def two_fold_map(ax, result, **style):
    """Where the wheel's designed two-fold is non-deterministic
    (``saltus.two_fold_map``): each grid point of (r*, omega*) coloured by
    its case (case 1 grey, 2 blue, 3 orange, not invisible white, not
    located dark), as the last panel of ``saltus filippov map``'s figure."""
    import numpy as np
    from matplotlib.colors import ListedColormap
    g = result["cells"]
    shape = g["shape"]
    code = np.asarray(g["case_code"]).reshape(shape)
    r = np.asarray(g["r"]).reshape(shape)[0]
    omega = np.asarray(g["omega"]).reshape(shape)[:, 0]
    cmap = ListedColormap(["#404040", "white", "#808080", "#6baed6", "#fd8d3c", "black"])
    style.setdefault("cmap", cmap)
    ax.pcolormesh(r, omega, code, vmin=-1.5, vmax=4.5, shading="nearest", **style)
    ax.set_xlabel("r*")
    ax.set_ylabel("omega*")
    return ax


def two_fold_futures(ax, result, x=None, y=None, **style):
    """Szalai & Jeffrey's Fig. 5 in projection (``saltus.two_fold_futures``):
    the sliding orbits into x* (blue), the futures out of it (escaping
    segments red, slips thin grey) and x*, over the states ``x`` and ``y``
    (default: the result's "axes")."""
    states = result["states"]
    x = x or result["axes"][0]
    y = y or result["axes"][1]
    ix, iy = states.index(x), states.index(y)
    for a in result["approaches"]:
        p = a["path"]["x"]
        ax.plot(p[:, ix], p[:, iy], color="#08519c", lw=2)
    for f in result["futures"]:
        for seg in f["segments"]:
            p = seg["x"]
            escaping = seg["kind"] == "escaping"
            ax.plot(p[:, ix], p[:, iy], color="#d62728" if escaping else "#99999999", lw=2 if escaping else 0.5,
                    **style)
    ax.plot([result["x_star"][x]], [result["x_star"][y]], "o", color="#d62728", ms=6, zorder=5)
    ax.annotate("x*", (result["x_star"][x], result["x_star"][y]), textcoords="offset points", xytext=(4, 4))
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    return ax
