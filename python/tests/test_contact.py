"""Contact points followed through Python (studies/contact_branches.h,
Damerau & Low 2016): through pose space and along a motion, each against
the command line's own result and a closed form of the paper's examples."""
import json
import math
import os
import subprocess

import numpy as np
import pytest

import saltus

ROOT = os.environ.get("SALTUS_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("SALTUS_BINARY_DIR", os.path.join(ROOT, "build"))


def example(name):
    return os.path.join(ROOT, "examples", "extremal", name + ".json")


def cli_json(command, run, tmp_path):
    done = subprocess.run([os.path.join(BUILD, "saltus"), "extremal", command, run, "--json", "--no-figures",
                           "--out", str(tmp_path)], check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def without(d, *keys):
    return {k: v for k, v in d.items() if k not in keys}


def test_continuation_is_the_command_line_s_and_meets_the_swallowtail(tmp_path):
    # Example 4.4.5: the cusp curve in (x, y, phi) meets the swallowtail
    # (s1, s2, x, y, phi) = (0, 0, 0, 1/4, 0) (the paper's eq. (45)).
    c = saltus.contact_continuation(example("ex445_continue"))
    expected = cli_json("continue", example("ex445_continue"), tmp_path)
    arrays = ("branch_arrays", "fold_curve_arrays", "cusp_curve_arrays")
    assert without(c, *arrays) == expected
    assert [without(b, "columns") for k in arrays for b in c[k]] == expected["branches"]
    (sw,) = c["swallowtails"]
    assert math.dist([sw["located"][k] for k in ("s1", "s2", "x", "y", "phi")], [0, 0, 0, 0.25, 0]) < 1e-8
    assert sw["classification"]["codimension"] == 3
    # Each cusp lies on the fold curve it was located on (within its step, ds_max = 0.02).
    fold = c["fold_curve_arrays"]
    for cusp in c["cusps"]:
        gaps = [np.min(np.hypot(f["columns"]["x"] - cusp["point"]["x"], f["columns"]["y"] - cusp["point"]["y"]))
                for f in fold]
        assert min(gaps) < 0.02


def test_track_is_the_command_line_s_with_the_birth_and_death(tmp_path):
    # Example 4.4.4 tracked along x(t) = -0.05 + 0.1 t: the folds
    # x = -+4 (1/60)^(3/2) are met at t = 0.5 -+ 40 (1/60)^(3/2).
    tr = saltus.contact_track(example("ex444_track"))
    assert without(tr, "pieces") == cli_json("track", example("ex444_track"), tmp_path)
    times = sorted(e["t"] for e in tr["events"])
    assert times == pytest.approx([0.5 - 40 * (1 / 60) ** 1.5, 0.5 + 40 * (1 / 60) ** 1.5], abs=1e-8)
    for e in tr["events"]:
        assert abs(e["after"] - e["before"]) == 2
    t0, t1 = tr["t"]
    for piece in tr["pieces"]:
        assert piece.shape[1] == 3 and t0 - 1e-12 <= piece[:, 0].min() and piece[:, 0].max() <= t1 + 1e-12


def test_a_missing_object_names_the_key():
    with pytest.raises(ValueError, match="not a contact run file"):
        saltus.contact_track(os.path.join(ROOT, "examples", "cusp.json"))
    with pytest.raises(ValueError, match="'continue' is missing"):
        saltus.contact_continuation(example("ex444"))
    with pytest.raises(ValueError, match="track.t"):
        description = json.load(open(example("ex444_track")))
        description["track"]["t"] = [1, 0]
        saltus.contact_track(saltus.load(description, name="ex444_track"))


def test_keyboard_interrupt_stops_the_continuation_with_what_was_done(interrupted_after):
    # A real SIGINT 0.3 s into a branch of a million tiny steps (conftest.py).
    with open(example("ex445_continue")) as f:
        description = json.load(f)
    description["continue"].update(ds=1e-6, ds_max=1e-6, max_points=10 ** 6, cusp_curve=False)
    del description["continue"]["fold_curve"]
    r = interrupted_after(0.3, lambda: saltus.contact_continuation(saltus.load(description, name="long")))
    assert r["interrupted"]
    points = [len(b["columns"]["x"]) for b in r["branch_arrays"]]
    assert sum(points) > 1 and max(points) < 10 ** 6
