"""The package from this folder (not installed): importable, and its pytest plugin loaded."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

pytest_plugins = ["mantyx_wire_conformance.pytest_plugin"]
