"""``npm run conformance``: sets up the official Python SDK in its own
virtual environment and runs harness.py in it (arguments are passed on:
``--json PATH``, ``--write-expected``). Reports only: every outcome,
including "the SDK could not be installed", exits 0 with a line saying
what happened.

The environment lives in node_modules/.cache/mantyx-sdk-conformance (ignored
by git; override with MANTYX_SDK_VENV) and is reused while the pinned
requirements (requirements.txt) are unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
REQUIREMENTS = HERE / "requirements.txt"
VENV = Path(os.environ.get("MANTYX_SDK_VENV") or REPO / "node_modules" / ".cache" / "mantyx-sdk-conformance")


def python_of(env: Path) -> Path:
    return env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def not_run(why: str) -> int:
    """Say why, and leave the JSON report a --json caller asked for."""
    print(f"conformance: NOT RUN: {why}")
    if "--json" in sys.argv:
        at = sys.argv.index("--json") + 1
        if at < len(sys.argv):
            Path(sys.argv[at]).write_text(json.dumps({"status": f"not run: {why}"}) + "\n", encoding="utf-8")
    return 0


def main() -> int:
    stamp = VENV / "requirements.sha256"
    wanted = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    py = python_of(VENV)
    if not py.exists() or not stamp.exists() or stamp.read_text().strip() != wanted:
        print(f"conformance: installing the official SDK ({REQUIREMENTS.relative_to(REPO)}) into {VENV} ...", flush=True)
        try:
            venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
            result = subprocess.run(
                [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", str(REQUIREMENTS)],
                capture_output=True,
                text=True,
                timeout=900,
            )
        except Exception as e:  # noqa: BLE001 - report, never fail
            return not_run(f"could not create the environment for the official SDK: {e}")
        if result.returncode != 0:
            return not_run("the official Python SDK (mantyx-sdk) could not be installed from PyPI:\n" + (result.stderr or result.stdout).strip()[-2000:])
        stamp.write_text(wanted)
    run = subprocess.run([str(py), str(HERE / "harness.py"), *sys.argv[1:]])
    if run.returncode != 0:
        print(f"conformance: the harness exited with status {run.returncode} (reported, not failed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
