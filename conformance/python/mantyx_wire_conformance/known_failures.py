"""Known-failures lists: one case id (``<file>::<description>``) per line;
blank lines and ``#`` lines (the reasons, written above the ids they
explain) are ignored."""

from __future__ import annotations

import os
from pathlib import Path


def parse_known_failures(text: str) -> list[str]:
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def read_known_failures(file: str | os.PathLike[str]) -> list[str]:
    """A named file must exist: a typo in its path must not empty the list."""
    return parse_known_failures(Path(file).read_text(encoding="utf-8"))
