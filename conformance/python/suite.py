"""Loading the MANTYX fixture suite: where it is, verifying it, known failures.

The suite is ``generated/fixtures`` of the repository, found by relative
path from this folder, or wherever ``MANTYX_FIXTURES_DIR`` points (an SDK
that vendors the suite sets it, or edits DEFAULT_DIR). ``manifest.json`` is
checked first: every file's sha256 must match, and no other file may be
there, so a run never passes on a half-copied or edited suite.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_DIR = HERE / ".." / ".." / "generated" / "fixtures"
FIXTURES_DIR = Path(os.environ.get("MANTYX_FIXTURES_DIR") or DEFAULT_DIR).resolve()
KNOWN_FAILURES_FILE = HERE / "known_failures.txt"

# The suite's tiers: behaviour (what every SDK must do), receive (messages
# every SDK must accept or reject at the receive level, judged against
# schema.receive.json), strict (the strict level, schema.json).
TIERS = ("behaviour", "receive", "strict")


class SuiteError(Exception):
    """The suite is missing or does not match its manifest."""


def load_json(relative: str) -> Any:
    with open(FIXTURES_DIR / relative, encoding="utf-8") as f:
        return json.load(f)


def manifest() -> dict[str, Any]:
    path = FIXTURES_DIR / "manifest.json"
    if not path.exists():
        raise SuiteError(f"no fixture suite at {FIXTURES_DIR}: run `npm run gen` in the repository, or set MANTYX_FIXTURES_DIR")
    return load_json("manifest.json")


def verify_manifest(m: dict[str, Any]) -> list[str]:
    """Problems with the suite's files (empty when it is intact)."""
    problems = []
    for rel, entry in sorted(m["files"].items()):
        file = FIXTURES_DIR / rel
        if not file.exists():
            problems.append(f"{rel}: missing")
            continue
        digest = hashlib.sha256(file.read_bytes()).hexdigest()
        if digest != entry["sha256"]:
            problems.append(f"{rel}: sha256 {digest}, manifest says {entry['sha256']}")
    for file in sorted(FIXTURES_DIR.rglob("*")):
        rel = file.relative_to(FIXTURES_DIR).as_posix()
        if file.is_file() and rel != "manifest.json" and rel not in m["files"]:
            problems.append(f"{rel}: not in the manifest")
    return problems


def selected_tiers(value: str | None = None) -> frozenset[str]:
    """The tiers to run: ``MANTYX_TIERS`` (comma-separated), all three when unset; an unknown name is an error."""
    value = os.environ.get("MANTYX_TIERS", "") if value is None else value
    names = [t.strip() for t in value.split(",") if t.strip()]
    if not names:
        return frozenset(TIERS)
    unknown = [t for t in names if t not in TIERS]
    if unknown:
        raise SuiteError(f"MANTYX_TIERS names {', '.join(map(repr, unknown))}; the tiers are {', '.join(TIERS)}")
    return frozenset(names)


def schema_document(tier: str) -> str:
    """The schema file a message case of ``tier`` is judged against."""
    return "schema.receive.json" if tier == "receive" else "schema.json"


def files(prefix: str) -> list[str]:
    return sorted(p for p in manifest()["files"] if p.startswith(prefix))


def known_failures() -> set[str]:
    if not KNOWN_FAILURES_FILE.exists():
        return set()
    lines = (line.strip() for line in KNOWN_FAILURES_FILE.read_text(encoding="utf-8").splitlines())
    return {line for line in lines if line and not line.startswith("#")}


def case_id(file: str, description: str) -> str:
    return f"{file}::{description}"


def sse_bytes(case: dict[str, Any]) -> bytes:
    import base64

    if "text" in case["input"]:
        return case["input"]["text"].encode("utf-8")
    return base64.b64decode(case["input"]["base64"])


def chunkings(case: dict[str, Any]) -> list[tuple[str, list[bytes]]]:
    """Whole, the case's own chunks, one byte at a time: the verdict must not depend on chunking."""
    import base64

    body = sse_bytes(case)
    out = [("whole", [body])]
    if "chunks" in case:
        out.append(("given chunks", [base64.b64decode(c) for c in case["chunks"]]))
    out.append(("one byte per chunk", [body[i : i + 1] for i in range(len(body))]))
    return out
