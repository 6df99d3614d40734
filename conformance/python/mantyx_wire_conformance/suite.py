"""Loading the fixture suite and verifying it against its manifest.

The suite ships inside this package (``fixtures/``, written by ``mantyx-wire
gen --fixtures-copy`` in the repository, byte for byte ``generated/fixtures``).
``load()`` reads it, or a folder given by argument or ``MANTYX_FIXTURES_DIR``,
and refuses it unless every file's sha256 matches ``manifest.json`` and no
other file is there: a run never passes on a half-copied or edited suite.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EMBEDDED_DIR = Path(__file__).resolve().parent / "fixtures"


class SuiteError(Exception):
    """The suite is missing, unreadable, or the run was asked for something it does not have."""


class IntegrityError(SuiteError):
    """The suite's files do not match its manifest.json: nothing of it is run."""

    def __init__(self, origin: Path, problems: list[str]) -> None:
        self.origin = origin
        self.problems = problems
        super().__init__(f"the fixture suite at {origin} does not match its manifest.json (copy the suite again, unedited):\n  " + "\n  ".join(problems))


@dataclass(frozen=True)
class Suite:
    """A fixture suite whose files matched its manifest when it was loaded."""

    directory: Path
    manifest: dict[str, Any]

    def read_json(self, relative: str) -> Any:
        with open(self.directory / relative, encoding="utf-8") as f:
            return json.load(f)

    def files(self, prefix: str) -> list[str]:
        """The manifest's JSON files under ``prefix``, sorted."""
        return sorted(p for p in self.manifest["files"] if p.startswith(prefix) and p.endswith(".json"))

    def tier_counts(self) -> dict[str, int]:
        return dict(self.manifest["counts"]["tiers"])


def verify(directory: Path, manifest: dict[str, Any]) -> list[str]:
    """Problems with the suite's files (empty when it is intact)."""
    problems = []
    for rel, entry in sorted(manifest["files"].items()):
        file = directory / rel
        if not file.is_file():
            problems.append(f"{rel}: missing")
            continue
        digest = hashlib.sha256(file.read_bytes()).hexdigest()
        if digest != entry["sha256"]:
            problems.append(f"{rel}: sha256 {digest}, manifest says {entry['sha256']}")
    for file in sorted(directory.rglob("*")):
        rel = file.relative_to(directory).as_posix()
        if file.is_file() and rel != "manifest.json" and rel not in manifest["files"] and "__pycache__" not in file.parts:
            problems.append(f"{rel}: not in the manifest")
    return problems


def load(directory: str | os.PathLike[str] | None = None) -> Suite:
    """The suite in ``directory``, else ``$MANTYX_FIXTURES_DIR``, else the one in this package; verified."""
    chosen = directory if directory is not None else os.environ.get("MANTYX_FIXTURES_DIR") or EMBEDDED_DIR
    path = Path(chosen).resolve()
    manifest_file = path / "manifest.json"
    if not manifest_file.is_file():
        raise SuiteError(f"no fixture suite at {path} (no manifest.json)")
    try:
        manifest = json.loads(manifest_file.read_text(encoding="utf-8"))
    except ValueError as e:
        raise SuiteError(f"{manifest_file}: {e}") from e
    problems = verify(path, manifest)
    if problems:
        raise IntegrityError(path, problems)
    return Suite(path, manifest)
