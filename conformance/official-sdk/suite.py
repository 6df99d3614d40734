"""The fixture suite as the official-SDK harness reads it: the repository's
``generated/fixtures`` (or ``MANTYX_FIXTURES_DIR``), loaded and checked by the
conformance package's own loader (``mantyx_wire_conformance.suite``), so the
harness and the runners verify the suite one way.
"""

from __future__ import annotations

import base64
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from mantyx_wire_conformance.suite import SuiteError, verify

HERE = Path(__file__).resolve().parent
FIXTURES_DIR = Path(os.environ.get("MANTYX_FIXTURES_DIR") or HERE / ".." / ".." / "generated" / "fixtures").resolve()

__all__ = ["SuiteError", "case_id", "chunkings", "files", "load_json", "manifest", "sse_bytes", "verify_manifest"]


def load_json(relative: str) -> Any:
    with open(FIXTURES_DIR / relative, encoding="utf-8") as f:
        return json.load(f)


@cache
def manifest() -> dict[str, Any]:
    if not (FIXTURES_DIR / "manifest.json").exists():
        raise SuiteError(f"no fixture suite at {FIXTURES_DIR}: run `npm run gen` in the repository, or set MANTYX_FIXTURES_DIR")
    return load_json("manifest.json")


def verify_manifest(m: dict[str, Any]) -> list[str]:
    """Problems with the suite's files (empty when it is intact)."""
    return verify(FIXTURES_DIR, m)


def files(prefix: str) -> list[str]:
    return sorted(p for p in manifest()["files"] if p.startswith(prefix))


def case_id(file: str, description: str) -> str:
    return f"{file}::{description}"


def sse_bytes(case: dict[str, Any]) -> bytes:
    if "text" in case["input"]:
        return case["input"]["text"].encode("utf-8")
    return base64.b64decode(case["input"]["base64"])


def chunkings(case: dict[str, Any]) -> list[tuple[str, list[bytes]]]:
    """Whole, the case's own chunks, one byte at a time: the verdict must not depend on chunking."""
    body = sse_bytes(case)
    out = [("whole", [body])]
    if "chunks" in case:
        out.append(("given chunks", [base64.b64decode(c) for c in case["chunks"]]))
    out.append(("one byte per chunk", [body[i : i + 1] for i in range(len(body))]))
    return out
