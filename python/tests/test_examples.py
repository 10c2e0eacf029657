"""Every example of examples/python/ runs (from the source root, as the
tour runs them) and writes its figure."""
import glob
import os
import subprocess
import sys

import pytest

ROOT = os.environ.get("SALTUS_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "python", "*.py")))


@pytest.mark.parametrize("script", EXAMPLES, ids=os.path.basename)
def test_example_runs_and_writes_its_figure(script, tmp_path):
    before = set(os.listdir(tmp_path))
    done = subprocess.run([sys.executable, script, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, MPLBACKEND="Agg"), timeout=600)
    assert done.returncode == 0, done.stderr
    written = set(os.listdir(tmp_path)) - before
    assert any(name.endswith(".png") for name in written), written


def test_installed_module_imports_from_the_prefix(tmp_path):
    # `cmake --install` puts the package under PREFIX/lib/pythonX.Y/dist-packages.
    build = os.environ.get("SALTUS_BINARY_DIR", os.path.join(ROOT, "build"))
    subprocess.run(["cmake", "--install", build, "--prefix", str(tmp_path)], check=True, capture_output=True)
    site = glob.glob(str(tmp_path / "lib" / "python3*" / "dist-packages"))
    assert len(site) == 1
    env = dict(os.environ, PYTHONPATH=site[0])
    done = subprocess.run([sys.executable, "-c", "import saltus, saltus.plot; print(saltus.__file__)"],
                          cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(site[0])
