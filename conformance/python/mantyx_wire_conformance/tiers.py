"""The suite's tiers, in report order: ``behaviour`` (what every SDK must do:
SSE in both frame shapes, flows), ``receive`` (messages every SDK must accept
or reject at the receive level), ``strict`` (the strict level: what a
validating SDK or a server must reject)."""

from __future__ import annotations

import os

from .suite import SuiteError

TIERS = ("behaviour", "receive", "strict")


def parse_tiers(value: str | None = None) -> tuple[str, ...]:
    """Comma-separated tier names (``MANTYX_TIERS`` when ``value`` is None); all three when empty. An unknown name is an error."""
    value = os.environ.get("MANTYX_TIERS", "") if value is None else value
    return check_tiers([t.strip() for t in value.split(",") if t.strip()] or list(TIERS))


def check_tiers(names: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    unknown = [t for t in names if t not in TIERS]
    if unknown:
        raise SuiteError(f"unknown tier {', '.join(map(repr, unknown))}; the tiers are {', '.join(TIERS)}")
    return tuple(names)
