"""The Filippov studies beyond the two-fold itself (studies/two_fold_study.h)
through Python: the map of Szalai & Jeffrey's Fig. 4, the futures of Fig. 5
and the two-fold's continuation, each against the command line's own result
and the geometry it must have, and their errors and figures."""
import json
import os
import subprocess

import numpy as np
import pytest

import saltus
import saltus.plot

ROOT = os.environ.get("SALTUS_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("SALTUS_BINARY_DIR", os.path.join(ROOT, "build"))
WHEEL = os.path.join(ROOT, "examples", "wheel_turntable.json")


def cli_json(*args):
    done = subprocess.run([os.path.join(BUILD, "saltus"), "filippov", *args, "--json", "--no-figures"],
                          check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def wheel(**keys):
    with open(WHEEL) as f:
        description = json.load(f)
    description.update(keys)
    return description


def test_futures_are_the_command_line_s_and_start_at_the_two_fold(tmp_path):
    f = saltus.two_fold_futures(WHEEL, samples=4)
    expected = cli_json("futures", WHEEL, "--samples", "4", "--out", str(tmp_path))
    xs = np.array([f["x_star"][s] for s in f["states"]])
    for a in f["approaches"]:  # each sliding orbit ends where its summary says
        end = a["path"]["x"][-1]
        assert np.linalg.norm(end - xs) == pytest.approx(a["final_distance"], rel=1e-9, abs=1e-15)
    for fu in f["futures"]:  # each future starts on the escaping segment at escape_radius (2e-3) from x*
        first = fu["segments"][0]
        assert first["kind"] == "escaping"
        assert np.linalg.norm(first["x"][0] - xs) == pytest.approx(2e-3, rel=1e-6)
        for s, t in zip(fu["segments"], fu["segments"][1:]):
            assert s["t"][-1] == pytest.approx(t["t"][0])
    assert f["axes"] == ("r", "omega", "v")
    assert f.pop("ok") is True
    summary = {k: v for k, v in f.items() if k not in ("states", "axes")}
    summary["approaches"] = [{k: v for k, v in a.items() if k != "path"} for a in f["approaches"]]
    summary["futures"] = [dict(fu, segments=len(fu["segments"])) for fu in f["futures"]]
    assert summary == expected


def test_continuation_and_map_are_the_command_line_s(tmp_path):
    description = wheel(continuation={"parameter": "k2", "max_points": 40})
    c = saltus.two_fold_continuation(description, name="wheel")
    assert c.pop("ok") is True
    path = tmp_path / "wheel.json"
    path.write_text(json.dumps(description))
    expected = cli_json("continue", str(path), "--out", str(tmp_path / "c"))
    assert {k: v for k, v in c.items() if k not in ("columns", "cases")} == expected
    assert len(c["columns"]["k2"]) == c["points"] == len(c["cases"])
    boundary = next(b for b in c["boundaries"] if b["test"] == "K++")
    # The boundary lies on the curve, between the points whose cases it separates.
    k2 = c["columns"]["k2"]
    assert k2.min() <= boundary["k2"] <= k2.max()
    assert boundary["before"] in c["cases"] and boundary["after"] in c["cases"]

    description = wheel(map={"resolution": [3, 3]})
    m = saltus.two_fold_map(description, threads=2, name="wheel")
    path.write_text(json.dumps(description))
    expected = cli_json("map", str(path), "--threads", "2", "--out", str(tmp_path / "m"))
    assert {k: v for k, v in m.items() if k != "cells"} == expected
    g = m["cells"]
    assert g["shape"] == (3, 3) and len(g["r"]) == 9
    assert int(g["case1"].sum()) == m["case1"] and int(g["exists"].sum()) == m["exists"]
    assert np.all((g["case_code"] == 1) >= (g["case1"] == 1))  # case 1 with k2, kappa > 0 is case 1


def test_errors_name_the_key_and_figures_draw():
    with pytest.raises(ValueError, match="guess"):
        saltus.two_fold_futures({k: v for k, v in wheel().items() if k != "guess"}, name="wheel")
    with pytest.raises(ValueError, match="wheel_turntable"):
        saltus.two_fold_map(os.path.join(ROOT, "examples", "user", "two_fold.json"))
    with pytest.raises(ValueError, match="continuation.parameter"):
        saltus.two_fold_continuation(wheel(continuation={"parameter": "spring"}), name="wheel")
    with pytest.raises(ValueError, match="futures.samples"):
        saltus.two_fold_futures(wheel(futures={"samples": 0}), name="wheel")
    # A two-fold that is not case 1 has no non-deterministic futures: a result, not an exception.
    case3 = {"model": "wheel_turntable", "tyre": "sticking", "two_fold_at": {"r": 0.3, "omega": -0.8},
             "guess": {"r": 0.3, "v": -0.04, "omega": -0.8}}
    f = saltus.two_fold_futures(case3, name="case3")
    assert f["ok"] is False and "not a case-1 two-fold" in f["message"]
    with pytest.raises(TypeError):
        saltus.two_fold_map(wheel(), "wheel")  # threads and name are keywords
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2)
    saltus.plot.two_fold_futures(a, saltus.two_fold_futures(WHEEL, samples=2))
    saltus.plot.two_fold_map(b, saltus.two_fold_map(wheel(map={"resolution": [3, 2]}), threads=1))
    assert a.get_xlabel() == "r" and b.get_ylabel() == "omega*"
    plt.close(fig)


def test_keyboard_interrupt_stops_the_map_and_the_continuation_with_what_was_done(interrupted_after):
    # Grids and branches far longer than the 0.3 s before the Ctrl-C.
    m = interrupted_after(0.3, lambda: saltus.two_fold_map(wheel(map={"resolution": [400, 400]}), threads=1,
                                                           name="wheel"))
    assert m["interrupted"] and 0 < m["rows_done"] < 400
    assert m["cells"]["shape"] == (400, 400)
    done = m["rows_done"] * 400
    assert m["designed"] == int(m["cells"]["designed"].sum()) and m["designed"] <= done

    long = wheel(continuation={"parameter": "k2", "ds": 1e-5, "ds_max": 1e-5, "max_points": 10 ** 6})
    c = interrupted_after(0.3, lambda: saltus.two_fold_continuation(long, name="wheel"))
    assert c["ok"] and c["interrupted"]
    assert 1 < c["points"] < 10 ** 6 and len(c["columns"]["k2"]) == c["points"]
