"""``npm run conformance``: sets up the official SDK in its own virtual
environment and runs official_sdk_adapter.py in it. Reports only: every
outcome, including "the SDK could not be installed", exits 0 with a clear
line saying what happened.

The environment lives in node_modules/.cache/mantyx-sdk-conformance (ignored
by git; override with MANTYX_SDK_VENV) and is reused while the pinned
requirements are unchanged.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
REQUIREMENTS = HERE / "official-sdk-requirements.txt"
VENV = Path(os.environ.get("MANTYX_SDK_VENV") or REPO / "node_modules" / ".cache" / "mantyx-sdk-conformance")


def python_of(env: Path) -> Path:
    return env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def main() -> int:
    stamp = VENV / "requirements.sha256"
    wanted = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    py = python_of(VENV)
    if not py.exists() or not stamp.exists() or stamp.read_text().strip() != wanted:
        print(f"conformance: installing the official SDK ({REQUIREMENTS.name}) into {VENV} ...", flush=True)
        try:
            venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
            result = subprocess.run(
                [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", str(REQUIREMENTS)],
                capture_output=True,
                text=True,
                timeout=900,
            )
        except Exception as e:  # noqa: BLE001 - report, never fail
            print(f"conformance: NOT RUN: could not create the environment for the official SDK: {e}")
            return 0
        if result.returncode != 0:
            print("conformance: NOT RUN: the official Python SDK (mantyx-sdk) could not be installed from PyPI:")
            print((result.stderr or result.stdout).strip()[-2000:])
            return 0
        stamp.write_text(wanted)
    run = subprocess.run([str(py), str(HERE / "official_sdk_adapter.py")])
    if run.returncode != 0:
        print(f"conformance: the adapter exited with status {run.returncode} (reported, not failed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
