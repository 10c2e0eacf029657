"""The saltus Python module: every study through Python, each against a
closed form or the command line's own result, the error translation and
the interrupt. Run by ctest (tests/CMakeLists.txt: python_module) with the
module of the build tree on PYTHONPATH."""
import json
import math
import os
import signal
import subprocess
import threading

import numpy as np
import pytest

import saltus
import saltus.plot

ROOT = os.environ.get("SALTUS_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("SALTUS_BINARY_DIR", os.path.join(ROOT, "build"))


def example(name):
    return os.path.join(ROOT, "examples", name)


def cli_summary(run_file, tmp_path):
    """The command line's summary.json of a run file."""
    out = tmp_path / "cli"
    subprocess.run([os.path.join(BUILD, "saltus"), "continue", example(run_file), "--out", str(out)],
                   check=True, capture_output=True, env=dict(os.environ, SALTUS_COMPILE="0"))
    return json.loads((out / "summary.json").read_text())


CUSP = {
    "name": "cusp",
    "unknowns": ["x"],
    "parameters": {"mu": -2, "lambda": 1},
    "equations": ["mu + lambda*x - x^3"],
    "start": {"x": -1.5},
    "continuation": {"parameter": "mu", "bounds": {"mu": [-2, 2]}},
}


def test_branch_as_arrays_and_folds_against_the_closed_form():
    # f = mu + lambda x - x^3 has folds where f = f_x = 0: x = +-sqrt(lambda/3),
    # mu = -+2 (lambda/3)^(3/2); at lambda = 1, mu = -+0.3849001794597505.
    branch = saltus.continuation(CUSP)
    assert branch.kind == "solutions"
    assert branch.columns == ["x", "mu"]
    assert branch.array.shape == (len(branch), 2)
    np.testing.assert_allclose(branch["mu"] + branch["x"] - branch["x"] ** 3, 0, atol=1e-9)
    folds = [s for s in branch.special_points if s.type == "LP"]
    assert len(folds) == 2
    mu_fold = 2 / (3 * math.sqrt(3))
    assert sorted(f.mu for f in folds) == pytest.approx([-mu_fold, mu_fold], abs=1e-10)
    assert folds[0].to_dict()["status"] == "located"


def test_fold_curve_from_LP_meets_the_cusp_at_the_origin():
    # The fold curve is mu = -+2 (lambda/3)^(3/2), x = -+sqrt(lambda/3); its cusp
    # (the quadratic coefficient of the fold vanishes) is at mu = lambda = 0.
    branch = saltus.continuation(CUSP)
    curve = saltus.continue_from(branch, "LP1", parameters=["mu", "lambda"],
                                 options={"direction": -1, "ds": 0.01, "ds_max": 0.05, "max_points": 400,
                                          "bounds": {"lambda": [-1, 2]}})
    assert curve.kind == "fold_curve" and curve.started_from.startswith("LP")
    lam, mu = curve["lambda"], curve["mu"]
    on = lam > 0
    np.testing.assert_allclose(np.abs(mu[on]), 2 * (lam[on] / 3) ** 1.5, atol=1e-8)
    cusp = curve.point("CP1")
    assert (cusp.mu, cusp.values["lambda"]) == pytest.approx((0, 0), abs=1e-8)


def test_switching_at_BP_follows_the_parabola():
    # f = lambda x - x^3: the branch x = 0 meets x^2 = lambda at lambda = 0.
    pitchfork = saltus.load(example("pitchfork.json"))
    branch = saltus.continuation(pitchfork)
    switched = saltus.continue_from(branch, "BP1")
    assert switched.started_from == "BP of branch"
    x, lam = switched["x"], switched["lambda"]
    assert np.max(np.abs(x)) > 0.1
    np.testing.assert_allclose(x ** 2, lam, atol=1e-9)


def test_cycles_from_HB_of_van_der_pol():
    # x'' - (mu - x^2) x' + x = 0: HB at mu = 0, frequency 1, l1 = -1/4
    # (Kuznetsov's normalization); the cycles are born with period 2 pi.
    vdp = saltus.load(example("van_der_pol.json"))
    equilibria = saltus.continuation(vdp)
    hb = equilibria.point("HB1")
    assert hb.values["mu"] == pytest.approx(0, abs=1e-10)
    assert hb.frequency == pytest.approx(1, abs=1e-10)
    assert hb.l1 == pytest.approx(-0.25, abs=1e-8)
    cycles = saltus.continue_from(equilibria, hb, amplitude=0.01, options={"max_points": 15, "ds": 0.01})
    assert cycles.kind == "orbits" and cycles.usable
    assert cycles["T"][0] == pytest.approx(2 * math.pi, abs=1e-3)
    assert all(s is True for s in cycles.stable)  # supercritical: stable cycles
    orbit = cycles.orbit(0, samples=100)
    assert set(orbit) >= {"t", "x"}


def test_hopf_curve_and_BT_follow_ups_equal_the_command_line(tmp_path):
    cli = cli_summary("lorenz84.json", tmp_path)
    equilibria = saltus.continuation(saltus.load(example("lorenz84.json")))
    run = json.load(open(example("lorenz84.json")))
    fold = saltus.continue_from(equilibria, "LP1", parameters=run["fold_curve"]["parameters"],
                                options={k: v for k, v in run["fold_curve"].items() if k not in ("from", "parameters")})
    hopf_keys = {k: v for k, v in run["hopf_curve"].items() if k not in ("from", "from_bt", "parameters")}
    if run["hopf_curve"].get("from_bt"):
        hopf = saltus.continue_from(fold, f"BT{run['hopf_curve']['from_bt']}", options=hopf_keys)
    else:
        hopf = saltus.continue_from(equilibria, f"HB{run['hopf_curve'].get('from', 1)}", to="curve",
                                    parameters=run["hopf_curve"]["parameters"], options=hopf_keys)
    for branch, name in ((fold, "fold_curve"), (hopf, "hopf_curve")):
        theirs = [s for s in cli["special_points"] if s["branch"] == name]
        ours = branch.special_points
        assert [s.type for s in ours] == [s["type"] for s in theirs]
        for a, b in zip(ours, theirs):
            assert a.F == pytest.approx(b["parameters"]["F"], abs=1e-10)
            assert a.T == pytest.approx(b["parameters"]["T"], abs=1e-10)


def test_lorenz_cascade_PDs_equal_the_command_line(tmp_path):
    cli = cli_summary("lorenz.json", tmp_path)
    cli_pds = [s["parameters"]["rho"] for s in cli["special_points"] if s["type"] == "PD"]
    branches = [saltus.continuation(saltus.load(example("lorenz.json")))]
    for _ in range(2):
        branches.append(saltus.continue_from(branches[-1], "PD1"))
    pds = [s for b in branches for s in b.special_points if s.type == "PD"]
    assert len(pds) == len(cli_pds) == 3
    assert [p.rho for p in pds] == pytest.approx(cli_pds, abs=1e-10)
    # AUTO-07p's lor demo: 229.4067086, 218.2101279, 215.9659321 (rho).
    assert [p.rho for p in pds] == pytest.approx([229.40670858, 218.21012779, 215.96593064], abs=1e-6)
    mu = pds[0].data["multipliers"]
    assert min(abs(m + 1) for m in mu) < 1e-6


def test_edited_expressions_run_interpreted_while_they_compile_then_compiled_with_the_same_branch(
        tmp_path, monkeypatch):
    # A notebook's edit: new expressions (and an empty cache) do not wait for
    # the compiler; the first study is interpreted while they compile in the
    # background, the next load after saltus.wait_for_compiles() runs the
    # compiled blocks, and the branch is the same to the last bit.
    monkeypatch.setenv("SALTUS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SALTUS_COMPILE", raising=False)
    lorenz = json.load(open(example("lorenz.json")))
    lorenz["equations"][0] = "sigma*(y - x)*1"  # the edit
    lorenz["continuation"]["max_points"] = 40
    first = saltus.load(lorenz)
    assert first.expressions["evaluated"] == "interpreted", first.expressions["note"]
    interpreted = saltus.continuation(first)
    assert saltus.wait_for_compiles() == 1
    again = saltus.load(lorenz)
    assert again.expressions["evaluated"] == "compiled", again.expressions["note"]
    compiled = saltus.continuation(again)
    assert len(interpreted) == len(compiled) > 30
    for key in ("rho", "T", "x"):
        assert np.array_equal(interpreted[key], compiled[key])


def test_PD_curve_of_lorenz_orbits_has_a_multiplier_minus_one_along_it():
    # An independent check of each curve point: the orbit at its (rho, sigma),
    # found afresh as a one-point branch, has a Floquet multiplier -1.
    lorenz = json.load(open(example("lorenz.json")))
    branch = saltus.continuation(lorenz)
    curve = saltus.continue_from(branch, "PD1", to="curve", parameters=["rho", "sigma"],
                                 options={"ds": 0.05, "ds_max": 0.5, "max_points": 6, "bounds": {"sigma": [9, 11]}})
    assert curve.kind == "cycle_curve" and len(curve) == 6
    assert curve["sigma"][-1] != pytest.approx(10, abs=1e-3)
    for i in (0, len(curve) - 1):
        at = dict(lorenz, parameters=dict(lorenz["parameters"], rho=curve["rho"][i], sigma=curve["sigma"][i]))
        at["start"] = {k: curve[k][i] for k in ("x", "y", "z")}
        periodic = {k: v for k, v in lorenz["periodic"].items() if k not in ("from_simulation", "period_doubling")}
        at["periodic"] = dict(periodic, period=curve["T"][i])
        at["continuation"] = dict(lorenz["continuation"], max_points=1)
        orbit = saltus.continuation(at)
        mu = orbit.multipliers(0)
        assert np.min(np.abs(mu + 1)) < 1e-6


def test_errors_are_value_errors_naming_the_key():
    with pytest.raises(ValueError, match=r"continuation\.ds"):
        saltus.load(dict(CUSP, continuation={"parameter": "mu", "ds": "big"}))
    with pytest.raises(ValueError, match="no such file"):
        saltus.load("/nonexistent/run.json")
    branch = saltus.continuation(CUSP)
    with pytest.raises(ValueError, match="has no HB1"):
        saltus.continue_from(branch, "HB1")
    with pytest.raises(ValueError, match="'to' = \"cycles\" is not a follow-up of LP"):
        saltus.continue_from(branch, "LP1", to="cycles")
    with pytest.raises(ValueError, match=r"options\.ds_mx"):
        saltus.continue_from(branch, "LP1", options={"ds_mx": 1})
    with pytest.raises(ValueError, match="'amplitude' = -1.0.* must be positive"):
        saltus.continue_from(saltus.continuation(saltus.load(example("van_der_pol.json"))), "HB1", amplitude=-1)
    with pytest.raises(KeyError, match="no component 'y'"):
        branch["y"]


def test_progress_callback_sees_every_point_and_can_stop():
    seen = []
    branch = saltus.continuation(CUSP, progress=lambda name, n: seen.append((name, n)))
    counts = [n for name, n in seen if name == "branch"]
    # After every accepted step (a located special point adds a point too;
    # the end point EP comes after the last call).
    assert all(0 < b - a <= 2 for a, b in zip(counts, counts[1:]))
    assert len(branch) - 1 <= counts[-1] <= len(branch)
    stopped = saltus.continuation(CUSP, progress=lambda name, n: n < 5)
    assert stopped.interrupted and stopped.stop_reason == "interrupted" and len(stopped) == 5


def test_keyboard_interrupt_stops_the_study_and_returns_what_was_done():
    # A real SIGINT while the branch is computed (GIL released), sent by
    # another thread once the branch has 100 points: the handler's
    # KeyboardInterrupt is seen at the next point, which ends the branch.
    limit = 200000
    slow = dict(CUSP, continuation={"parameter": "mu", "ds": 1e-5, "ds_max": 1e-5, "max_points": limit,
                                     "bounds": {"mu": [-2, 2]}})
    started = threading.Event()
    sender = threading.Thread(target=lambda: started.wait(60) and os.kill(os.getpid(), signal.SIGINT))
    sender.start()
    branch = saltus.continuation(slow, progress=lambda name, n: n < 100 or started.set() or True)
    sender.join()
    assert branch.interrupted
    assert 100 <= len(branch) < limit
    assert "interrupted" in branch.message


def test_summary_and_csv(tmp_path):
    branch = saltus.continuation(CUSP)
    summary = branch.summary()
    assert summary["name"] == "branch" and len(summary["special_points"]) == len(branch.special_points)
    branch.to_csv(tmp_path / "b.csv")
    header = (tmp_path / "b.csv").read_text().splitlines()[0]
    assert header.startswith("point,label,x,mu")


def test_hopf_curve_of_the_brusselator_is_b_equal_1_plus_a_squared():
    # The equilibrium (a, b/a) has trace b - 1 - a^2 and determinant a^2.
    equilibria = saltus.continuation({
        "unknowns": ["x", "y"], "parameters": {"a": 1, "b": 1.5},
        "equations": ["a - (b + 1)*x + x^2*y", "b*x - x^2*y"], "start": {"x": 1, "y": 1.5},
        "equilibria": True, "continuation": {"parameter": "b", "bounds": {"b": [1.5, 3]}}})
    hb = equilibria.point("HB1")
    assert (hb.b, hb.frequency) == pytest.approx((2, 1), abs=1e-10)
    curve = saltus.continue_from(equilibria, hb, to="curve", parameters=["b", "a"],
                                 options={"ds": 0.01, "ds_max": 0.1, "max_points": 40, "bounds": {"a": [0.3, 3]}})
    assert curve.kind == "hopf_curve" and len(curve) > 10
    np.testing.assert_allclose(curve["b"], 1 + curve["a"] ** 2, atol=1e-8)


def test_BT_of_the_normal_form_starts_the_hopf_curve_b1_equal_0():
    # x' = y, y' = b1 + b2 x + x^2 + x y: fold curve b1 = b2^2/4, Hopf curve
    # b1 = 0 for b2 < 0, BT at the origin.
    equilibria = saltus.continuation({
        "unknowns": ["x", "y"], "parameters": {"b1": -1, "b2": -1},
        "equations": ["y", "b1 + b2*x + x^2 + x*y"], "start": {"x": (1 - math.sqrt(5)) / 2, "y": 0},
        "equilibria": True,
        "continuation": {"parameter": "b1", "ds": 0.01, "ds_max": 0.02, "bounds": {"b1": [-1, 1]}}})
    fold = saltus.continue_from(equilibria, "LP1", parameters=["b1", "b2"],
                                options={"direction": -1, "ds_max": 0.05, "bounds": {"b2": [-1.5, 1.5]}})
    np.testing.assert_allclose(fold["b1"], fold["b2"] ** 2 / 4, atol=1e-8)
    bt = fold.point("BT1")
    assert abs(bt.b2) < 1e-8
    hopf = saltus.continue_from(fold, bt, options={"ds_max": 0.05, "max_points": 30, "bounds": {"b2": [-1, 1]}})
    assert hopf.kind == "hopf_curve" and len(hopf) > 5
    assert np.max(np.abs(hopf["b1"])) < 1e-9 and np.max(hopf["b2"]) < 1e-9


def test_LPC_of_cycles_and_its_curve_mu_equal_minus_nu_squared_over_4():
    # x' = x g - y, y' = y g + x, g = mu + nu r - r^2 (r = x^2 + y^2): cycles
    # r = R with mu + nu R - R^2 = 0, period 2 pi; their fold at nu = 2R.
    equilibria = saltus.continuation({
        "unknowns": ["x", "y"], "parameters": {"mu": -0.5, "nu": 1},
        "equations": ["x*(mu + nu*(x^2 + y^2) - (x^2 + y^2)^2) - y",
                      "y*(mu + nu*(x^2 + y^2) - (x^2 + y^2)^2) + x"],
        "start": {"x": 0, "y": 0}, "equilibria": True,
        "continuation": {"parameter": "mu", "ds": 0.05, "bounds": {"mu": [-0.5, 0.5]}}})
    cycles = saltus.continue_from(equilibria, "HB1", amplitude=0.05,
                                  options={"ds": 0.01, "ds_max": 0.05, "max_points": 200, "bounds": {"mu": [-1, 1]}})
    r = cycles["x"] ** 2 + cycles["y"] ** 2
    np.testing.assert_allclose(cycles["mu"] + r - r ** 2, 0, atol=1e-8)
    np.testing.assert_allclose(cycles["T"], 2 * math.pi, atol=1e-8)
    lpc = cycles.point("LPC1")
    assert lpc.mu == pytest.approx(-0.25, abs=1e-8)
    curve = saltus.continue_from(cycles, lpc, parameters=["mu", "nu"],
                                 options={"ds": 0.01, "ds_max": 0.1, "max_points": 12, "bounds": {"nu": [0.5, 2]}})
    assert curve.kind == "cycle_curve" and len(curve) >= 5
    np.testing.assert_allclose(curve["mu"], -curve["nu"] ** 2 / 4, atol=1e-7)


NS_RATES = {
    # Two Hopf normal forms, the second driven by the first's amplitude:
    # r1' = r1 (mu1 - r1^2), theta1' = 1; r2' = r2 (mu2 + r1^2 - r2^2),
    # theta2' = sqrt(2). The cycle r1 = sqrt(mu1), r2 = 0 (period 2 pi) has the
    # multipliers exp(2 pi (mu2 + mu1) +- 2 pi sqrt(2) i) in the second plane:
    # a Neimark-Sacker point where mu2 = -mu1 (non-resonant: sqrt(2) irrational).
    "name": "driven_hopf",
    "unknowns": ["x1", "y1", "x2", "y2"],
    "parameters": {"mu1": 1, "mu2": -1.5},
    "equations": ["x1*(mu1 - x1^2 - y1^2) - y1", "y1*(mu1 - x1^2 - y1^2) + x1",
                  "x2*(mu2 + x1^2 + y1^2 - x2^2 - y2^2) - 1.4142135623730951*y2",
                  "y2*(mu2 + x1^2 + y1^2 - x2^2 - y2^2) + 1.4142135623730951*x2"],
    "start": {"x1": 1, "y1": 0, "x2": 0, "y2": 0},
    "periodic": {"period": 6.283185307179586, "simulation": {"absolute_tolerance": 1e-11, "relative_tolerance": 1e-11}},
    "continuation": {"parameter": "mu2", "ds": 0.05, "ds_max": 0.1, "bounds": {"mu2": [-1.5, -0.5]},
                     "detect": ["LPC", "PD", "NS"]},
}


def test_NS_of_orbits_and_its_curve_mu2_equal_minus_mu1():
    orbits = saltus.continuation(NS_RATES)
    assert orbits.kind == "orbits"
    ns = orbits.point("NS1")
    assert ns.mu2 == pytest.approx(-1, abs=1e-8)
    mu = sorted(ns.multipliers, key=lambda m: -abs(m))[:2]
    assert [abs(m) for m in mu] == pytest.approx([1, 1], abs=1e-7)
    assert abs(mu[0].imag) == pytest.approx(abs(math.sin(2 * math.pi * math.sqrt(2))), abs=1e-7)
    curve = saltus.continue_from(orbits, ns, parameters=["mu2", "mu1"],
                                 options={"ds": 0.02, "ds_max": 0.1, "max_points": 10, "bounds": {"mu1": [0.5, 2]}})
    assert curve.kind == "cycle_curve" and len(curve) >= 5
    np.testing.assert_allclose(curve["mu2"], -curve["mu1"], atol=1e-7)
    np.testing.assert_allclose(curve["x1"] ** 2 + curve["y1"] ** 2, curve["mu1"], atol=1e-7)


# Hybrid systems (studies/hybrid_study.h): the impact oscillator
# x'' + 2 zeta x' + x = F cos(w t), impact at x = d with v -> -r v, whose
# impactless orbit grazes the stop where F = d sqrt((1 - w^2)^2 + (2 zeta w)^2),
# with Nordmark's GR-PD-LPC point at w = 2 sqrt(1 - zeta^2).

IMPACT = example("user/impact_oscillator_curves.json")


def test_hybrid_simulation_impacts_at_the_stop():
    system = saltus.load(IMPACT)
    assert isinstance(system, saltus.HybridSystem)
    p = system.parameters
    tr = saltus.simulate(system)
    assert tr.ok and tr.status == "finished"
    assert tr.t[0] == 0 and tr.t[-1] == 60
    assert len(tr["x"]) == len(tr.t) and np.all(tr["x"] <= p["d"] + 1e-9)
    assert tr.events
    for e in tr.events:
        assert e["guard"] == "impact"
        assert abs(e["before"]["x"] - p["d"]) < 1e-9
        assert abs(e["after"]["v"] + p["r"] * e["before"]["v"]) < 1e-12
    with pytest.raises(KeyError, match="the states: x, v"):
        tr["y"]


def test_hybrid_simulation_transition_matrix_only_when_asked():
    # Liouville with jumps: det Phi = exp(-2 zeta T) r^(2k) after k impacts
    # (tests/drivers/hybrid_cli.test.cpp derives det S = r^2).
    system = saltus.load(IMPACT)
    p = system.parameters
    assert saltus.simulate(system).transition_matrix is None
    tr = saltus.simulate(system, transition_matrix=True)
    assert tr.ok and tr.transition_matrix.shape == (2, 2)
    expected = math.exp(-2 * p["zeta"] * (tr.t[-1] - tr.t[0])) * p["r"] ** (2 * len(tr.events))
    assert abs(np.linalg.det(tr.transition_matrix) / expected - 1) < 1e-6


def test_hybrid_branch_grazing_and_its_curve_against_the_closed_form():
    system = saltus.load(IMPACT)
    p = system.parameters
    zeta, d, F = p["zeta"], p["d"], p["F"]
    orbits = saltus.continuation(system)
    assert orbits.usable and orbits.info["guess"]["source"] == "transient"
    assert len(orbits.sequences) == len(orbits)
    b, c = 4 * zeta ** 2 - 2, 1 - (F / d) ** 2
    assert abs(orbits.point("GR1").w - math.sqrt((-b + math.sqrt(b * b - 4 * c)) / 2)) < 1e-8
    assert len(orbits.point("PD1").data["multipliers"]) == 2
    curve = saltus.continue_from(orbits, "GR1", parameters=["w", "F"])
    assert curve.name == "gr_curve" and len(curve) >= 15
    w = curve["w"]
    assert np.max(np.abs(curve["F"] - d * np.hypot(1 - w ** 2, 2 * zeta * w))) < 1e-8
    assert abs(curve.point("GR-PD-LPC1").w - 2 * math.sqrt(1 - zeta ** 2)) < 1e-6
    doubled = saltus.continue_from(orbits, "PD1", options={"max_points": 5})
    assert doubled.name == "doubled1" and len(doubled) == 5
    assert doubled.started_from == "PD of branch"
    assert abs(doubled["w"][0] - orbits.point("PD1").w) < 1e-9  # it starts at the PD


def test_hybrid_description_errors_name_the_key():
    with open(IMPACT) as f:
        description = json.load(f)
    description["periodic"]["parameter"] = "omega"
    with pytest.raises(ValueError, match="periodic.parameter"):
        saltus.load(description)
    description = {"name": "no-model", "initial": {"x": 0}}
    with pytest.raises(ValueError, match="model"):
        saltus.load(description)


def test_hybrid_lyapunov_is_the_command_line_s(tmp_path):
    run = example("bouncing_ball_chaotic.json")
    cli = subprocess.run([os.path.join(BUILD, "saltus"), "lyapunov", run, "--json"], check=True,
                         capture_output=True, text=True)
    expected = json.loads(cli.stdout)
    r = saltus.lyapunov(run)
    assert r["ok"] and r["events"] == expected["events"]
    assert list(r["exponents"]) == expected["exponents"]
    assert abs(sum(r["exponents"]) - r["contraction"]) < 1e-9


# Contact geometry (studies/contact_study.h): Damerau & Low 2016, example
# 4.4.4, a versal cusp; the command line's own output is the reference.

def test_contact_classification_is_the_command_line_s():
    run = example("extremal/ex444.json")
    system = saltus.load(run)
    assert isinstance(system, saltus.ContactSystem)
    assert system.point == {"s1": 0, "s2": 0, "x": 0, "y": -0.5, "phi": 0}
    c = saltus.classify(system)
    cli = subprocess.run([os.path.join(BUILD, "saltus"), "extremal", "classify", run, "--json"], check=True,
                         capture_output=True, text=True)
    assert c == json.loads(cli.stdout)
    assert c["codimension"] == 2 and c["rank"] == 2 and c["versal"]
    r = saltus.extremal_points(system, 0.01, -0.49, 0.0)
    cli = subprocess.run([os.path.join(BUILD, "saltus"), "extremal", "solutions", run, "--pose", "0.01", "-0.49",
                          "0", "--json"], check=True, capture_output=True, text=True)
    assert r == json.loads(cli.stdout)
    assert r["agrees"]


def test_contact_errors_name_the_key():
    with open(example("extremal/ex444.json")) as f:
        description = json.load(f)
    description["curve2"]["type"] = "spline"
    with pytest.raises(ValueError, match="curve2.type"):
        saltus.load(description)
    description = json.loads(open(example("extremal/ex444.json")).read())
    description["point"]["y"] = 0.3  # not an extremal point
    with pytest.raises(ValueError, match="ex444"):
        saltus.classify(saltus.load(description, name="ex444"))
    with pytest.raises(ValueError, match="finite"):
        saltus.extremal_points(example("extremal/ex444.json"), float("nan"), 0, 0)


# Filippov systems (studies/filippov_study.h): the two-fold of the wheel on a
# turntable (Szalai & Jeffrey), designed by two_fold_at to sit at (r*, omega*).

def test_two_fold_is_the_command_line_s_and_sits_where_designed():
    run = example("wheel_turntable.json")
    t = saltus.two_fold(run)
    cli = subprocess.run([os.path.join(BUILD, "saltus"), "filippov", "twofold", run, "--json"], check=True,
                         capture_output=True, text=True)
    expected = json.loads(cli.stdout)
    assert t.pop("located") is True
    assert t == expected
    with open(run) as f:
        description = json.load(f)
    at = description.get("two_fold_at")
    if at:
        assert abs(t["x_star"]["r"] - at["r"]) < 1e-9 and abs(t["x_star"]["omega"] - at["omega"]) < 1e-9
    description["parameters"] = dict(description.get("parameters", {}), mu=1e18)
    degenerate = saltus.two_fold(description, name="wheel")
    assert degenerate["located"] is False and "cannot be classified" in degenerate["message"]
    del description["guess"]
    with pytest.raises(ValueError, match="guess"):
        saltus.two_fold(description, name="wheel")


def test_follow_ups_are_the_command_line_s(tmp_path):
    # examples/lorenz.json asks for two period doublings: the same PDs as
    # the command line's summary, each from the first PD of the branch before.
    first = saltus.continuation(saltus.load(example("lorenz.json")))
    later = saltus.follow_ups(first)
    assert [b.name for b in later] == ["doubled1", "doubled2"]
    cli = cli_summary("lorenz.json", tmp_path)
    cli_pd = [s["parameters"]["rho"] for s in cli["special_points"] if s["type"] == "PD"]
    ours = [s.rho for b in [first] + later for s in b.special_points if s.type == "PD"]
    assert ours == pytest.approx(cli_pd, rel=1e-10, abs=1e-10)
    with pytest.raises(ValueError, match="fold_curve"):
        saltus.follow_ups(saltus.continuation(saltus.load(dict(CUSP, fold_curve={"from": 3}))))


def test_write_gives_the_command_line_s_files(tmp_path):
    # The cusp's branch and the fold curve from its first LP
    # (examples/cusp_fold_curve.json): saltus.write writes the files of
    # `saltus continue` on the same run file, summary.json and every CSV
    # byte for byte (an algebraic run: no compiled or interpreted blocks).
    run = example("cusp_fold_curve.json")
    first = saltus.continuation(saltus.load(run))
    files = saltus.write([first] + saltus.follow_ups(first), tmp_path / "py")
    subprocess.run([os.path.join(BUILD, "saltus"), "continue", run, "--out", str(tmp_path / "cli")], check=True,
                   capture_output=True)
    names = sorted(os.path.basename(f) for f in files)
    assert names == sorted(os.listdir(tmp_path / "cli"))
    for name in names:
        if name.endswith((".csv", ".json")):
            assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    assert "fold_curve.csv" in names and "summary.json" in names
    # A hybrid orbit's branch gets saltus periodic's files: the bouncing
    # ball's orbit continued in A (examples/bouncing_ball_orbit.json).
    run = example("bouncing_ball_orbit.json")
    saltus.write(saltus.continuation(saltus.load(run)), tmp_path / "py_orbit")
    subprocess.run([os.path.join(BUILD, "saltus"), "periodic", run, "--out", str(tmp_path / "cli_orbit")],
                   check=True, capture_output=True)
    for name in ("branch.csv", "orbits.csv"):
        assert (tmp_path / "py_orbit" / name).read_bytes() == (tmp_path / "cli_orbit" / name).read_bytes(), name
    # The summary's orbit is the branch's first point, which the
    # continuation corrected once more than `saltus periodic`'s found orbit.
    ours, cli = (json.loads((tmp_path / d / "summary.json").read_text()) for d in ("py_orbit", "cli_orbit"))
    assert ours.keys() == cli.keys() and ours["special_points"] == cli["special_points"]
    assert np.allclose(np.ravel(ours["multipliers"]), np.ravel(cli["multipliers"]), rtol=1e-9, atol=1e-12)
    assert ours["period"] == pytest.approx(cli["period"], rel=1e-12)
    with pytest.raises(ValueError, match="alone"):
        saltus.write([saltus.continuation(saltus.load(IMPACT))] * 2, tmp_path / "hybrid")


def test_simulate_and_lyapunov_write_the_command_line_s_files(tmp_path):
    # The same run file through saltus.simulate(out=) / lyapunov(out=) and
    # through `saltus simulate | lyapunov --out`: the CSVs and JSON byte for
    # byte (the built-in bouncing ball: one code path for both).
    run = example("bouncing_ball.json")
    saltus_bin = os.path.join(BUILD, "saltus")
    env = dict(os.environ, SALTUS_COMPILE="0")
    for command in ("simulate", "lyapunov"):
        subprocess.run([saltus_bin, command, run, "--out", str(tmp_path / command)], check=True,
                       capture_output=True, env=env)
    system = saltus.load(run)
    tr = saltus.simulate(system, out=tmp_path / "py_simulate")
    saltus.lyapunov(system, out=tmp_path / "py_lyapunov")
    for command, files in (("simulate", ["summary.json", "trajectory.csv", "events.csv"]),
                           ("lyapunov", ["lyapunov.json", "lyapunov.csv"])):
        for name in files:
            assert (tmp_path / f"py_{command}" / name).read_bytes() == (tmp_path / command / name).read_bytes(), name
    assert json.loads((tmp_path / "py_simulate" / "summary.json").read_text())["events"] == len(tr.events)


def test_hybrid_follow_ups_are_the_command_line_s_curves(tmp_path):
    # examples/user/impact_oscillator_curves.json asks for the GR and PD
    # curves in (w, F): the command line's curve_1.csv and curve_2.csv.
    subprocess.run([os.path.join(BUILD, "saltus"), "periodic", IMPACT, "--out", str(tmp_path / "cli")],
                   check=True, capture_output=True)
    curves = saltus.follow_ups(saltus.continuation(saltus.load(IMPACT)))
    assert [c.name for c in curves] == ["gr_curve", "pd_curve"]
    for k, c in enumerate(curves):
        expected = np.genfromtxt(tmp_path / "cli" / f"curve_{k + 1}.csv", delimiter=",", names=True)
        assert len(c) == len(expected)
        assert np.allclose(c["w"], expected["w"], rtol=1e-12) and np.allclose(c["F"], expected["F"], rtol=1e-12)
    with open(IMPACT) as f:
        description = json.load(f)
    description["periodic"]["curve"] = [{"kind": "NS", "parameters": ["w", "F"]}]
    with pytest.raises(ValueError, match="no located Neimark-Sacker point"):
        saltus.follow_ups(saltus.continuation(saltus.load(description)))


# Sweeps (studies/sweep_study.h): the triple pendulum swept in q1 with short
# times on two chains; the command line's sweep.csv is the reference.
SMALL_SWEEP = {
    "name": "small", "model": "triple_pendulum",
    "parameters": {"eta": 1.8, "c1": 0.12, "c2": 0.12, "c3": 0.12, "e": 0.9},
    "initial": {"psi1": 1.8, "psi2": 1.0, "psi3": 2.0, "psi1_dot": 0, "psi2_dot": 0, "psi3_dot": 0},
    "time": [0, 10], "section": {"variable": "psi1", "value": 0, "angle": True},
    "sweep": {"parameter": "q1", "from": 1.31, "to": 1.25, "steps": 6, "transient": 10, "record": 30,
              "threads": 2, "plot": "psi2_dot"},
}


def test_sweep_is_the_command_line_s(tmp_path):
    run = tmp_path / "run.json"
    run.write_text(json.dumps(SMALL_SWEEP))
    subprocess.run([os.path.join(BUILD, "saltus"), "sweep", str(run), "--out", str(tmp_path / "cli")],
                   check=True, capture_output=True)
    expected = np.genfromtxt(tmp_path / "cli" / "sweep.csv", delimiter=",", names=True)
    r = saltus.sweep(saltus.load(SMALL_SWEEP, name="run"), out=tmp_path / "py")
    assert r["parameter"] == "q1" and r["chains"] == 2 and not r["interrupted"]
    assert len(r["values"]) == 6 and r["values_done"] == 6 and r["failures"] == []
    for name in ("q1", "t", "psi1", "psi2_dot"):
        assert np.allclose(r[name], expected[name], rtol=1e-13, atol=1e-14)
    # out= writes the command line's files: the same sweep.csv and sweep.json.
    for name in ("sweep.csv", "sweep.json"):
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name


def test_sweep_stopped_by_its_progress_callback_keeps_what_was_done():
    seen = []

    def progress(done, total):
        seen.append((done, total))
        return done < 2

    r = saltus.sweep(saltus.load(SMALL_SWEEP), progress=progress)
    assert r["interrupted"] and "interrupted" in r["message"]
    assert seen == [(1, 6), (2, 6)]  # not called again after it said stop
    assert 2 <= r["values_done"] < 6
    odd = saltus.sweep(saltus.load(SMALL_SWEEP), progress=lambda done, total: "yes")  # no bool: an error, stopped
    assert odd["interrupted"] and "progress callback raised" in odd["message"]
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots()
    saltus.plot.sweep(ax, r, "psi2_dot")
    assert len(ax.collections[0].get_offsets()) == len(r["q1"]) and ax.get_xlabel() == "q1"
    plt.close(fig)


def test_sweep_stopped_then_resumed_from_its_journal_is_the_uninterrupted_one(tmp_path):
    # The command line's grid runner (studies/grid_runner.h): with out= each
    # finished value is journalled, and resume=True continues from there to
    # the files of one uninterrupted run, byte for byte.
    run = tmp_path / "run.json"
    run.write_text(json.dumps(SMALL_SWEEP))
    subprocess.run([os.path.join(BUILD, "saltus"), "sweep", str(run), "--out", str(tmp_path / "cli")],
                   check=True, capture_output=True)
    system = saltus.load(SMALL_SWEEP, name="run")
    part = saltus.sweep(system, progress=lambda done, total: done < 3, out=tmp_path / "py")
    assert part["interrupted"] and (tmp_path / "py" / "sweep.journal.jsonl").exists()
    whole = saltus.sweep(system, out=tmp_path / "py", resume=True)
    assert not whole["interrupted"] and whole["values_done"] == 6
    assert not (tmp_path / "py" / "sweep.journal.jsonl").exists()  # removed once the files are complete
    for name in ("sweep.csv", "sweep.json"):
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    with pytest.raises(ValueError, match="resume=True needs out="):
        saltus.sweep(system, resume=True)


def test_sweep_refuses_a_state_named_like_a_key_of_its_result():
    with open(IMPACT) as f:
        text = f.read()
    description = json.loads(text.replace('"x"', '"values"').replace("- x", "- values")
                             .replace("d - x", "d - values"))
    description["section"] = {"variable": "v", "value": 0}
    description["sweep"] = {"parameter": "w", "from": 2.3, "to": 2.4, "steps": 2, "transient": 1, "record": 1}
    with pytest.raises(ValueError, match="the state 'values' has the name of a key"):
        saltus.sweep(saltus.load(description))


def test_keyboard_interrupt_stops_a_sweep_and_returns_what_was_done():
    # A real SIGINT while the sweep's values run on worker threads: Python
    # delivers it to the main thread, which polls for it while the sweep
    # runs, and the sweep stops after the values under way.
    steps = 40
    long_sweep = dict(SMALL_SWEEP, sweep=dict(SMALL_SWEEP["sweep"], steps=steps))
    started = threading.Event()
    sender = threading.Thread(target=lambda: started.wait(60) and os.kill(os.getpid(), signal.SIGINT))
    sender.start()
    r = saltus.sweep(saltus.load(long_sweep), progress=lambda done, total: done < 2 or started.set() or True)
    sender.join()
    assert r["interrupted"] and "interrupted" in r["message"]
    assert 2 <= r["values_done"] < steps


def test_attractor_map_is_the_command_line_s(tmp_path):
    with open(example("user/impact_oscillator_map.json")) as f:
        description = json.load(f)
    description["map"] = {"x": {"parameter": "w", "from": 2.0, "to": 4.0, "steps": 6},
                          "y": {"parameter": "F", "from": 0.5, "to": 1.5, "steps": 3},
                          "transient": 40, "record": 30, "seed": "rows", "threads": 2}
    run = tmp_path / "run.json"
    run.write_text(json.dumps(description))
    subprocess.run([os.path.join(BUILD, "saltus"), "map", str(run), "--out", str(tmp_path / "cli")],
                   check=True, capture_output=True)
    expected = np.genfromtxt(tmp_path / "cli" / "map.csv", delimiter=",", names=True, dtype=None,
                             encoding="utf-8")
    r = saltus.attractor_map(saltus.load(description), out=tmp_path / "py")
    # out= writes the command line's files: the same map.csv and summary.json.
    assert (tmp_path / "py" / "map.csv").read_bytes() == (tmp_path / "cli" / "map.csv").read_bytes()
    summaries = [json.loads((tmp_path / d / "summary.json").read_text()) for d in ("py", "cli")]
    assert [dict(s, name=None) for s in summaries[:1]] == [dict(summaries[1], name=None)]
    assert r["x_parameter"] == "w" and r["y_parameter"] == "F" and not r["interrupted"]
    assert r["period"].shape == (3, 6) and r["done"].all()
    assert [c for row in r["classes"] for c in row] == list(expected["class"])
    assert list(r["events"].ravel()) == list(expected["events"])
    assert list(r["distinct_hits"].ravel()) == list(expected["distinct_hits"])
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots()
    saltus.plot.attractor_map(ax, r)
    drawn = {t.get_text() for t in ax.legend().get_texts()}
    assert drawn == set(expected["class"]) and ax.get_xlabel() == "w"
    plt.close(fig)


def test_forced_filippov_branch_is_the_command_line_s(tmp_path):
    # The forced dry-friction oscillator (its field reads t; issue 35): the
    # branch of stick-slip orbits in w, point by point the command line's,
    # and the orbit's stick gives a multiplier 0.
    run = example("user/dry_friction_oscillator.json")
    out = tmp_path / "cli"
    subprocess.run([os.path.join(BUILD, "saltus"), "periodic", run, "--out", str(out)], check=True,
                   capture_output=True)
    cli = np.genfromtxt(out / "branch.csv", delimiter=",", names=True, dtype=None, encoding=None)
    orbits = saltus.continuation(saltus.load(run))
    assert orbits.usable and len(orbits) == len(cli)
    assert np.max(np.abs(orbits["w"] - cli["w"])) < 1e-12
    assert np.max(np.abs(orbits["x"] - cli["x"])) < 1e-12
    # The first special point: the switching-sliding where the orbit's
    # excursion above the belt speed vanishes (analyses/sliding/).
    multipliers = orbits.point("SS1").data["multipliers"]
    assert min(abs(m) for m in multipliers) < 1e-12


def test_restart_from_a_saved_LP_gives_the_command_line_s_fold_curve(tmp_path):
    # examples/cusp_fold_curve.json run once by the command line; its LP1
    # restarted from the saved summary.json: the saved point alone, then the
    # fold curve, point by point the one-run file's.
    run = example("cusp_fold_curve.json")
    out = tmp_path / "cli"
    subprocess.run([os.path.join(BUILD, "saltus"), "continue", run, "--out", str(out)], check=True,
                   capture_output=True, env=dict(os.environ, SALTUS_COMPILE="0"))
    one_run = saltus.follow_ups(saltus.continuation(saltus.load(run)))
    first = saltus.continuation(saltus.restart(run, out, "LP1"))
    assert len(first) == 1 and first.stop_reason == "restored"
    curves = saltus.follow_ups(first)
    assert [c.name for c in curves] == [b.name for b in one_run] == ["fold_curve"]
    assert np.allclose(curves[0].array, one_run[0].array, rtol=1e-9, atol=1e-12)
    with pytest.raises(ValueError, match="HB7"):
        saltus.restart(run, out, "HB7")


# A Filippov system's crossing-sliding curve (analyses/sliding/sliding_curve.h):
# the dry-friction oscillator of examples/user/dry_friction_sliding.json, whose
# branch in w ends at its CS (w = 2.26515170111482 at F = 0.7, the closed form
# of tests/studies/dry_friction_closed_form.h); from it the CS condition in
# (w, F) (every point against the closed form in
# tests/analyses/sliding/sliding_curve.test.cpp).


def test_filippov_crossing_sliding_curve_from_its_point():
    orbits = saltus.continuation(saltus.load(example("user/dry_friction_sliding.json")))
    cs = orbits.point("CS1")
    assert abs(cs.w - 2.26515170111482) < 1e-8
    curve = saltus.continue_from(orbits, "CS1", parameters=["w", "F"],
                                 options={"max_points": 6, "direction": -1, "ds": 0.005})
    assert curve.name == "cs_curve" and len(curve) == 6
    assert abs(curve["w"][0] - cs.w) < 1e-9 and abs(curve["F"][0] - 0.7) < 1e-12
    # Down in F the crossing reaches the boundary at larger w (dw/dF < 0 there).
    assert np.all(np.diff(curve["F"]) < 0) and np.all(np.diff(curve["w"]) > 0)
