"""saltus: bifurcation analysis of smooth and non-smooth systems, from Python.

A study is a chain of calls, each returning a Branch that keeps what it was
computed from, so that the next call can start at any of its special points
(BifurcationKit.jl's ``continuation(br, ind, ...)`` idea)::

    import saltus
    lorenz = saltus.load("examples/lorenz.json")   # or saltus.System({...})
    orbits = saltus.continuation(lorenz)           # the run file's first branch
    doubled = saltus.continue_from(orbits, "PD1")  # the period-doubled branch
    curve = saltus.continue_from(orbits, "PD1", to="curve", parameters=["rho", "sigma"])
    print(doubled["rho"], doubled.special_points[0].data["multipliers"])

Systems are described by the keys of a ``saltus continue`` run file (see
``saltus continue --help`` and docs/), as a file or as a dict. What follows
a special point (``continue_from``):

* LP of solutions or equilibria: the fold curve in two parameters;
* BP: the crossing branch;
* HB of equilibria: the cycles born there (``to="cycles"``, default), or the
  Hopf curve (``to="curve"``);
* BT of a fold curve: the Hopf curve;
* PD of orbits: the period-doubled branch (``to="doubled"``, default), or the
  PD curve (``to="curve"``);
* LPC, NS of orbits: their curves in two parameters.

Errors in a description or a request raise ValueError with the message the
command line would print; numerical failures are not exceptions but a
branch's ``stop_reason`` and ``message``. Computations release the GIL.
Ctrl-C (KeyboardInterrupt) during a continuation stops it cleanly: the call
returns the points computed so far, with ``stop_reason == "interrupted"``
(check ``branch.interrupted`` before chaining further studies).
"""

import json as _json
import os as _os

from . import _saltus

__all__ = ["System", "Branch", "SpecialPoint", "load", "continuation", "continue_from"]

System = _saltus.System


def load(source, name=None):
    """A system and its study from a run file (a path) or a dict of its keys.

    ``name`` names a dict in error messages (default: its "name" key).
    Raises ValueError naming the key when the description is invalid."""
    if isinstance(source, dict):
        where = name or str(source.get("name", "study"))
        try:
            text = _json.dumps(source, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise ValueError(f"run description {where}: not JSON data ({e})") from None
        return _saltus._load_text(text, where)
    path = _os.fspath(source)
    if not _os.path.exists(path):
        raise ValueError(f"run file {path}: no such file")
    return _saltus._load_path(path)


class SpecialPoint:
    """A special point of a branch: its type ("LP", "HB", "PD", ...), label
    ("PD (jump)" for a jump of its test function), status ("located",
    "bracketed", "jump"), precision, the values of the branch's components
    there (``values``) and everything its study knows about it (``data``: an
    HB's frequency and l1, an orbit's period and Floquet multipliers as
    complex numbers, ...)."""

    def __init__(self, branch, position, raw):
        self.branch = branch
        self.position = position  # among the branch's special points
        self.type = raw["type"]
        self.label = raw["label"]
        self.index = raw["index"]  # among the branch's points
        self.status = raw["status"]
        self.precision = raw["precision"]
        self.test = raw["test"]
        self.values = raw["values"]
        self.data = dict(raw["data"])
        for key in ("multipliers",):
            if key in self.data:
                self.data[key] = [complex(re, im) for re, im in self.data[key]]
        if "trivial_multiplier" in self.data:
            self.data["trivial_multiplier"] = complex(*self.data["trivial_multiplier"])

    def __getattr__(self, name):
        values = self.__dict__.get("values", {})
        data = self.__dict__.get("data", {})
        if name in values:
            return values[name]
        if name in data:
            return data[name]
        raise AttributeError(f"special point {self.__dict__.get('type', '?')} has no '{name}'")

    def to_dict(self):
        """Everything as a plain dict (JSON-ready but for complex multipliers)."""
        return {"type": self.type, "label": self.label, "index": self.index, "status": self.status,
                "precision": self.precision, "test": self.test, "values": dict(self.values),
                "data": dict(self.data)}

    def __repr__(self):
        shown = ", ".join(f"{k}={v:.10g}" for k, v in list(self.values.items())[-2:])
        return f"<SpecialPoint {self.label} {self.status} {shown}>"


class Branch:
    """A branch (or a curve) of a study, as NumPy arrays.

    ``br["rho"]`` is a component over the points (any state name, "T" for an
    orbit's period, or any parameter); ``br.array`` all components
    (points x ``br.columns``); ``br.special_points`` the SpecialPoint list;
    ``br.stable`` a boolean array (None where unknown) of equilibria (by
    their eigenvalues) or orbits (by their multipliers)."""

    def __init__(self, raw):
        self._raw = raw
        self._special = None
        self._stable = None

    def __getattr__(self, name):
        return getattr(self.__dict__["_raw"], name)

    def __len__(self):
        return len(self._raw)

    def __getitem__(self, name):
        try:
            return self._raw._column(name)
        except Exception:
            raise KeyError(f"branch '{self.name}' has no component '{name}' "
                           f"(its columns: {', '.join(self.columns)}; parameters: "
                           f"{', '.join(self.parameters)})") from None

    @property
    def special_points(self):
        if self._special is None:
            self._special = [SpecialPoint(self, k, raw) for k, raw in enumerate(self._raw._special_points())]
        return self._special

    def point(self, label):
        """The special point by label: "PD1" is the first PD (jumps skipped)."""
        type_ = label.rstrip("0123456789")
        n = int(label[len(type_):] or 1)
        seen = 0
        for s in self.special_points:
            if s.type == type_ and s.status != "jump":
                seen += 1
                if seen == n:
                    return s
        raise ValueError(f"branch '{self.name}' has no {label} (its special points: "
                         f"{' '.join(s.label for s in self.special_points) or 'none'})")

    @property
    def stable(self):
        if self._stable is None:
            import numpy as np
            self._stable = np.array(self._raw._stability(), dtype=object)
        return self._stable

    @property
    def eigenvalues(self):
        """Per point, the eigenvalues of F_x (equilibria), rightmost first."""
        return self._raw._eigenvalues()

    def multipliers(self, index):
        """The Floquet multipliers of the orbit at point ``index`` (largest
        modulus first; an autonomous orbit's trivial one left out)."""
        return self._raw._multipliers(index)

    def orbit(self, point, samples=400):
        """One period of the orbit at a point index or SpecialPoint: a dict of
        arrays, "t" and one per state component."""
        if isinstance(point, SpecialPoint):
            return self._raw._orbit_at_special(point.position, samples)
        return self._raw._orbit(int(point), samples)

    def summary(self):
        """The summary as a dict: stop reason, options, special points with
        their data (as summary.json holds it)."""
        return self._raw._summary()

    def to_csv(self, path):
        """Writes the branch as the command line's branch.csv does."""
        with open(path, "w") as f:
            f.write(self._raw._csv())

    def __repr__(self):
        specials = " ".join(s.label for s in self.special_points)
        return (f"<saltus.Branch '{self.name}' ({self.kind}): {len(self)} points, {self.stop_reason}"
                + (f"; {specials}" if specials else "") + ">")


def continuation(system, progress=None):
    """The system's first branch, as its description asks (start, parameter,
    options, detected points; orbits found first). ``progress(name, points)``
    is called after every point; returning False stops the branch."""
    if not isinstance(system, System):
        system = load(system)
    return Branch(_saltus._continuation(system, progress))


def continue_from(branch, point, to=None, parameters=None, options=None, amplitude=0.01, name=None,
                  progress=None):
    """The follow-up of a special point of ``branch`` (a label as "PD1", a
    SpecialPoint, or its position among the special points).

    ``to`` chooses where a point has two follow-ups ("cycles" or "curve" at an
    HB, "doubled" or "curve" at a PD); ``parameters`` are a curve's two
    parameters (the branch's first); ``options`` a dict of continuation keys
    (ds, ds_max, max_points, direction, bounds, ...) over the branch's own;
    ``amplitude`` the first cycle's size at an HB."""
    if isinstance(point, SpecialPoint):
        point = point.position
    raw = branch._raw if isinstance(branch, Branch) else branch
    return Branch(_saltus._continue_from(raw, point, to or "", list(parameters or []), options, amplitude,
                                         name or "", progress))
