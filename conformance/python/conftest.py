"""Shared setup: the suite is verified against its manifest before any case
runs, and the closing lines say what ran and what was skipped, per area."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import suite  # noqa: E402

# area -> Counter(ran=..., skipped=...), filled by the tests through record().
RESULTS: dict[str, Counter] = {}
SKIP_REASONS: dict[str, Counter] = {}
# tier -> Counter(ran=..., skipped=...), filled by take_tier().
TIER_RESULTS: dict[str, Counter] = {t: Counter() for t in suite.TIERS}


def record(area: str, outcome: str, reason: str | None = None) -> None:
    RESULTS.setdefault(area, Counter())[outcome] += 1
    if reason is not None:
        SKIP_REASONS.setdefault(area, Counter())[reason] += 1


def take_tier(area: str, tier: str) -> None:
    """Counts the case in its tier; skips it (counted, with the reason) when MANTYX_TIERS leaves its tier out."""
    if tier in suite.selected_tiers():
        TIER_RESULTS[tier]["ran"] += 1
        return
    TIER_RESULTS[tier]["skipped"] += 1
    record(area, "skipped", f"tier {tier} not selected")
    pytest.skip(f"tier {tier} is not in MANTYX_TIERS")


def pytest_sessionstart(session: pytest.Session) -> None:
    suite.selected_tiers()  # an unknown tier name stops the run before any case
    problems = suite.verify_manifest(suite.manifest())
    if problems:
        raise pytest.UsageError("the fixture suite does not match its manifest.json:\n  " + "\n  ".join(problems))


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # type: ignore[no-untyped-def]
    tr = terminalreporter
    tr.section("MANTYX fixture suite")
    tr.write_line(f"suite: {suite.FIXTURES_DIR}")
    for area in sorted(RESULTS):
        c = RESULTS[area]
        reasons = ", ".join(f"{n} {r}" for r, n in sorted(SKIP_REASONS.get(area, Counter()).items()))
        tr.write_line(f"{area}: ran {c['ran']}, skipped {c['skipped']}" + (f" ({reasons})" if reasons else ""))
    per_tier = ", ".join(f"{t} {TIER_RESULTS[t]['ran']}" + (f" (not selected: {TIER_RESULTS[t]['skipped']})" if TIER_RESULTS[t]["skipped"] else "") for t in suite.TIERS)
    tr.write_line(f"per tier (cases selected): {per_tier}")
