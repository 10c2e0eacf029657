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
