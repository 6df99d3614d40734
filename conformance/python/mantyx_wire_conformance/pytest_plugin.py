"""A pytest plugin (registered through the ``pytest11`` entry point): the
per-tier lines of every run of the session, in a terminal-summary section,
so they show without ``-s``."""

from __future__ import annotations

from typing import Any

from .runner import REPORTS


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: Any) -> None:
    if not REPORTS:
        return
    terminalreporter.section("MANTYX conformance")
    for report in REPORTS:
        for line in report.lines():
            terminalreporter.write_line(line)
