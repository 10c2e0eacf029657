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
* LPC, NS of orbits: their curves in two parameters;
* GR (grazing) of hybrid orbits: the grazing curve in two parameters.

Hybrid systems (impacts, friction, Filippov and mechanical systems: the
keys of ``saltus simulate | periodic``) load the same way and give a
HybridSystem: ``simulate``, ``lyapunov``, ``find_orbit`` and
``continuation`` (the orbit's branch) work on it.

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

__all__ = ["System", "HybridSystem", "ContactSystem", "Branch", "SpecialPoint", "Trajectory", "load",
           "continuation", "continue_from", "follow_ups", "restart", "write", "find_orbit", "simulate", "sweep",
           "attractor_map", "lyapunov", "classify", "extremal_points", "contact_continuation", "contact_track",
           "two_fold", "two_fold_map", "two_fold_futures", "two_fold_continuation", "wait_for_compiles"]

System = _saltus.System
HybridSystem = _saltus.HybridSystem
ContactSystem = _saltus.ContactSystem
# A run file's expressions compile in the background the first time they are
# loaded (the first study interpreted, with the same results); a session or
# test that must not leave a compile running waits for them here
# (models/compiled_block.h; SALTUS_COMPILE=wait compiles in the foreground).
wait_for_compiles = _saltus.wait_for_compiles


def _kind(description):
    # A hybrid run file (saltus simulate | periodic | sweep | map) always
    # gives the initial state, a contact run file (saltus extremal) its two
    # curves; a continuation run file neither.
    if isinstance(description, dict):
        if "initial" in description:
            return "hybrid"
        if "curve1" in description:
            return "contact"
    return "continuation"


_LOADERS = {
    "continuation": (_saltus._load_path, _saltus._load_text),
    "hybrid": (_saltus._load_hybrid_path, _saltus._load_hybrid_text),
    "contact": (_saltus._load_contact_path, _saltus._load_contact_text),
}


def _description(source, name):
    """A dict description as JSON text, and the name errors give it."""
    where = name or str(source.get("name", "study"))
    try:
        return _json.dumps(source, allow_nan=False), where
    except (TypeError, ValueError) as e:
        raise ValueError(f"run description {where}: not JSON data ({e})") from None


def _existing(source):
    path = _os.fspath(source)
    if not _os.path.exists(path):
        raise ValueError(f"run file {path}: no such file")
    return path


def load(source, name=None):
    """A system and its study from a run file (a path) or a dict of its keys.

    A description with an "initial" state is a hybrid run file (the keys of
    ``saltus simulate | periodic``: impacts, friction, Filippov and
    mechanical systems) and gives a HybridSystem; one with "curve1" a contact
    run file (``saltus extremal``) and gives a ContactSystem; any other the
    System of a ``saltus continue`` run file. ``name`` names a dict in error messages
    (default: its "name" key). Raises ValueError naming the key when the
    description is invalid."""
    if isinstance(source, dict):
        text, where = _description(source, name)
        return _LOADERS[_kind(source)][1](text, where)
    path = _existing(source)
    try:
        with open(path) as f:
            kind = _kind(_json.load(f))
    except (OSError, ValueError):
        kind = "continuation"  # its reader says what is wrong with the file
    return _LOADERS[kind][0](path)


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
    is called after every point; returning False stops the branch.

    A HybridSystem's branch is its periodic orbit (``find_orbit``) continued
    in "periodic.parameter", with LPC, PD, NS and grazings (GR) located;
    ``branch.sequences`` gives each orbit's events."""
    if not isinstance(system, (System, HybridSystem)):
        system = load(system)
    if isinstance(system, HybridSystem):
        orbit = find_orbit(system, progress)
        if not orbit.usable or system.continuation_parameter is None:
            return orbit
        return Branch(_saltus._continue_orbits(orbit._raw, progress))
    return Branch(_saltus._continuation(system, progress))


def follow_ups(first, progress=None):
    """The follow-ups the run file's own keys ask for after its first branch
    (``continuation(system)``): the doubled branches of
    "periodic.period_doubling", else "fold_curve", "hopf_curve",
    "hopf_cycles" and "switch_branch", as ``saltus continue`` computes them;
    for a HybridSystem's orbits, each curve of "periodic.curve" from the
    first located point of its kind, as ``saltus periodic`` computes them.
    A list of Branches; a key whose point the branch lacks, or whose
    follow-up cannot start, raises ValueError naming the key."""
    return [Branch(raw) for raw in _saltus._follow_ups(first._raw, progress)]


def restart(system, from_dir, point):
    """The System restarted from a special point saved by an earlier run
    (``saltus continue RUNFILE --from DIR --point LABEL``, as AUTO's IRS):
    ``point`` is a label such as "LP1", "BP1", "HB1" or "PD1" of
    DIR/summary.json. ``continuation`` of the result gives that point alone,
    not recomputed, and ``follow_ups`` the run file's follow-ups of its kind
    from it (LP: fold_curve, BP: switch_branch, HB: hopf_curve and
    hopf_cycles, PD: periodic.period_doubling). A label, folder or saved run
    that does not fit the run file raises ValueError saying why."""
    if not isinstance(system, System):
        system = load(system)
    return _saltus._restart(system, str(from_dir), point)


def write(branches, folder):
    """Writes a continuation study's files into ``folder`` as ``saltus
    continue`` does: <name>.csv per branch, summary.json (the first
    branch's stop, every special point with its data) and the figures
    (branch, orbits, fold_curve, curves; PNG and SVG by gnuplot, when it is
    installed). ``branches``: the first branch of a System's continuation,
    then any branches continued from it. A HybridSystem's orbit (from
    ``find_orbit``) or its branch (from ``continuation``), given alone, gets
    the files of ``saltus periodic``: summary.json, the orbit's figure and,
    for a branch, branch.csv, orbits.csv and its figure (not the curves of
    its follow-ups, nor a sweep under it); a branch's summary describes its
    first point, which the continuation corrected once more than the found
    orbit (they agree to about 1e-12). Returns the files written; a
    figure gnuplot could not draw is a warning (``warnings`` module), its
    data files kept."""
    if isinstance(branches, Branch):
        branches = [branches]
    files, warnings = _saltus._write([b._raw for b in branches], _os.fspath(folder))
    _warn(warnings)
    return files


def find_orbit(system, progress=None):
    """The periodic orbit of a HybridSystem ("periodic": from its "initial"
    guess, or for an autonomous system from a simulation's returns to its
    section), corrected with the parameter fixed: a Branch of one point
    (``branch.info["guess"]`` says where the guess came from). When no orbit
    is found, ``usable`` is False and ``message`` says why."""
    if not isinstance(system, HybridSystem):
        system = load(system)
    return Branch(_saltus._find_orbit(system, progress))


class Trajectory:
    """A simulation of a HybridSystem: ``tr["x"]`` is the state component x
    over the samples, ``tr.t`` their times, ``tr.mode`` their modes;
    ``tr.events`` the events (dicts: t, guard, mode_before, mode_after,
    before, after), ``tr.section_hits`` the section's crossings (t, mode,
    state); ``tr.ok``, ``tr.status`` and ``tr.message`` how it ended."""

    def __init__(self, raw, states):
        self._raw = raw
        self.states = list(states)
        for key in ("t", "mode", "events", "section_hits", "status", "message", "ok"):
            setattr(self, key, raw[key])
        # Phi(t1, t0), saltations included: only from simulate(...,
        # transition_matrix=True), else None.
        self.transition_matrix = raw.get("transition_matrix")

    def __getitem__(self, name):
        if name not in self.states:
            raise KeyError(f"no state '{name}' (the states: {', '.join(self.states)})")
        return self._raw[name]

    def __len__(self):
        return len(self.t)

    def __repr__(self):
        return (f"<saltus.Trajectory {len(self)} samples, {len(self.events)} events, "
                f"{self.status}>")


def _warn(warnings):
    if warnings:
        import warnings as _warnings
        for w in warnings:
            _warnings.warn(w, stacklevel=3)  # at the caller of the saltus function


def simulate(system, transition_matrix=False, out=None):
    """The HybridSystem's simulation as its description asks (initial state,
    "time", "transient", "simulation" options, "section"): a Trajectory. A
    failed simulation is not an exception: ``tr.ok`` is False, ``tr.message``
    says why, and the samples up to the failure are kept. With
    ``transition_matrix=True`` the variational equations are integrated too
    and ``tr.transition_matrix`` is Phi(t1, t0), saltations included (an
    n x n array); without, the state alone is integrated (the cheaper run)
    and it is None. With ``out`` (a folder) the files of ``saltus
    simulate`` are written there too: summary.json, trajectory.csv,
    events.csv, sections.csv and the figures (a figure gnuplot cannot draw
    is a warning)."""
    if not isinstance(system, HybridSystem):
        system = load(system)
    raw = _saltus._simulate(system, transition_matrix, _os.fspath(out) if out is not None else "")
    _warn(raw.pop("warnings"))
    return Trajectory(raw, system.states)


def sweep(system, progress=None, out=None, resume=False):
    """The brute-force bifurcation diagram of a HybridSystem (its "sweep"
    keys: parameter, from, to, steps, transient, record, threads): at each
    value the section's hits after a transient, each block of values started
    from its predecessor's end (as ``saltus sweep`` does, with the same
    numbers). A dict of NumPy columns with one row per hit (the parameter's
    name, "t" and each state), "values" (the parameter's values), "failures"
    (value and message of each value that ended early), "values_done",
    "chains" and "interrupted". ``progress(done, total)`` is called after
    each value; returning False (or Ctrl-C) stops the sweep after the values
    under way, with what was done. With ``out`` (a folder) the files of
    ``saltus sweep`` are written there too: sweep.csv, sweep.json and the
    diagram; while it runs each finished value is journalled there
    (sweep.journal.jsonl, removed when the sweep is complete), and
    ``resume=True`` continues a stopped or killed sweep from that journal,
    ending with the numbers of one uninterrupted run (``saltus sweep
    --resume``)."""
    if not isinstance(system, HybridSystem):
        system = load(system)
    return _saltus._sweep(system, progress, _os.fspath(out) if out is not None else "", resume)


def attractor_map(system, progress=None, out=None, resume=False):
    """The two-parameter brute-force map of a HybridSystem's attractors (its
    "map" keys; ``saltus map``'s study, with the same numbers): at each grid
    point the section's hits after a transient, classed "period-N",
    "chaotic" (more distinct hits than max_period), "escaped" (the
    simulation failed) or "no hits". A dict with the axes ("x", "y" and
    their parameters "x_parameter", "y_parameter") and (len(y), len(x))
    arrays "period" (0 when not periodic), "distinct_hits", "events",
    "lyapunov" (the largest exponent with "lyapunov": true, else NaN) and
    "done", "classes" (a list of rows of class names), "failures" and
    "interrupted". ``progress(done, total)`` as for sweep(). With ``out``
    (a folder) the files of ``saltus map`` are written there too: map.csv,
    summary.json and the map's figure, with a journal and ``resume`` as
    for sweep()."""
    if not isinstance(system, HybridSystem):
        system = load(system)
    return _saltus._attractor_map(system, progress, _os.fspath(out) if out is not None else "", resume)


def lyapunov(system, out=None):
    """The Lyapunov spectrum of a HybridSystem from its initial state (its
    "lyapunov" options): a dict with "exponents" (largest first), "times" and
    "running" (the running estimates), "contraction" (what the exponents sum
    to), "events", "status" and "message". With ``out`` (a folder) the files
    of ``saltus lyapunov --out`` are written there too: lyapunov.json,
    lyapunov.csv and the figure."""
    if not isinstance(system, HybridSystem):
        system = load(system)
    result = _saltus._lyapunov(system, _os.fspath(out) if out is not None else "")
    _warn(result.pop("warnings"))
    return result


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


def classify(system):
    """The classification of a ContactSystem's degenerate contact point
    (Damerau & Low 2016): a dict with "status", "type" ("fold", "cusp",
    "swallowtail", ...), "codimension", the Lyapunov coefficients
    ("lyapunov": {"c": {"2": ...}, "cm": {"0,3": ...}}, exact rationals
    beside them when the data are exact), the "transversality_matrix", its
    "rank" and "versal", and the Tschirnhaus "normal_form" (as
    ``saltus extremal classify --json`` prints it)."""
    if not isinstance(system, ContactSystem):
        system = load(system)
    return _saltus._classify(system)


def extremal_points(system, x, y, phi, box=None):
    """The extremal points of a ContactSystem's two curves at the pose
    (x, y, phi) within ``box`` of the degenerate point (default: its
    "search.box"), with the normal form's predicted count: a dict with
    "count", "solutions", "predicted_count" and "agrees" (as
    ``saltus extremal solutions --json`` prints it)."""
    if not isinstance(system, ContactSystem):
        system = load(system)
    return _saltus._extremal_points(system, x, y, phi, box or 0.0)


def _contact(system):
    if not isinstance(system, ContactSystem):
        system = load(system)
    if not isinstance(system, ContactSystem):
        raise ValueError(f"{system.name}: not a contact run file (saltus extremal: 'curve1', 'curve2', 'point')")
    return system


def contact_continuation(system):
    """A ContactSystem's extremal points followed through pose space (its
    run file's "continue": a branch in one pose parameter with its folds,
    the fold curve in two with its cusps, the cusp curve with its
    swallowtails), each located point classified (Damerau & Low 2016). A
    dict as ``saltus extremal continue --json`` prints it ("folds",
    "cusps", "swallowtails", each with "point" and "classification"), with
    "branch_arrays", "fold_curve_arrays" and "cusp_curve_arrays": each a
    list of dicts, a branch's summary with "columns", its components (s1,
    s2 and the pose parameters it varies) as arrays by name. Ctrl-C stops
    it at the next point of the continuation under way and returns what was
    done, with "interrupted": True."""
    return _saltus._contact_continuation(_contact(system))


def contact_track(system):
    """Every extremal point of a ContactSystem followed along its run
    file's "track" motion x(t), y(t), phi(t): a dict as ``saltus extremal
    track --json`` prints it ("events": each birth or death with its time,
    point, counts before and after and classification), with "pieces": one
    (n, 3) array of (t, s1, s2) rows per tracked piece. Ctrl-C stops it
    before its next event, with what was done and "stop": "interrupted"."""
    return _saltus._contact_track(_contact(system))


def _filippov(call, source, name, *args):
    # A saltus filippov run file: a path, or a dict of its keys.
    if isinstance(source, dict):
        return call(*_description(source, name), *args)
    return call(_existing(source), "", *args)


def two_fold(source, name=None):
    """The two-fold of a Filippov system (``saltus filippov`` run file: the
    wheel on a turntable or your own system by expressions, a path or a dict)
    near its "guess", located by Newton and classified (Szalai & Jeffrey):
    a dict with "located", "x_star", "K", "J1", "J2", "eigenvalues", "type",
    "case" and "nondeterministic" (as ``saltus filippov twofold --json``
    prints it). When no classified two-fold is found, "located" is False and
    "message" says why (a degenerate two-fold has no J1, J2 or case)."""
    return _filippov(_saltus._two_fold, source, name)


def two_fold_map(source, *, threads=None, name=None):
    """Szalai & Jeffrey's Fig. 4 for the wheel on a turntable: over the
    run file's "map" grid of designed (r*, omega*), where the two-fold is
    case 1 (non-deterministic). A dict as ``saltus filippov map --json``
    prints it ("grid", "designed", "exists", "case1", "two_fold_at", ...)
    with "cells": arrays "r", "omega", "designed", "exists", "kappa", "k2",
    "case1" and "case_code" (-1 not located, 0 not invisible, 1-3 the case,
    4 on J1 J2 = 1), one entry per grid point, r varying fastest, and their
    "shape" (n_omega, n_r) for ``reshape``. ``threads`` overrides the
    run file's (default all cores). Ctrl-C stops it after the rows under
    way, with "interrupted": True and "rows_done" (the other rows' cells
    are not designed)."""
    return _filippov(_saltus._two_fold_map, source, name, threads or 0)


def two_fold_futures(source, *, samples=None, name=None):
    """Szalai & Jeffrey's Fig. 5: sliding orbits into the run file's
    case-1 two-fold and a sample of its non-deterministic futures out of
    it. A dict as ``saltus filippov futures --json`` prints it, each
    approach with its "path" and each future with its "segments" (each a
    dict with "kind": sliding, escaping, slip+ or slip-, "t" and "x", an
    array of the states by row), with "states" and "axes" (the two states a
    picture of the switching surface is drawn over, and the one solved for
    on it). ``samples`` overrides the run file's (default 16). "ok" is
    False, with "message" saying why, when the two-fold is not located or
    not case 1 (a result, not an exception; bad input raises ValueError)."""
    return _filippov(_saltus._two_fold_futures, source, name, samples or 0)


def two_fold_continuation(source, *, name=None):
    """The run file's two-fold continued in one constant ("continuation":
    its "parameter" and the continuation keys), with the boundaries of its
    cases located. A dict as ``saltus filippov continue --json`` prints it
    ("parameter", "points", "message", "boundaries": each with "test", the
    parameter's value under its name, "x", "status", "precision", "before"
    and "after"), with "columns": the curve's states and parameter as arrays
    by name, and "cases": the case at each point. "ok" is False, with
    "message", when the two-fold cannot be located from the guess. Ctrl-C
    stops it at its next point, with what was done and "interrupted":
    True."""
    return _filippov(_saltus._two_fold_continuation, source, name)
