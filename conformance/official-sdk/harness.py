"""The official SDKs, measured: the report ``npm run conformance`` prints.

Runs inside the virtual environment run.py sets up (the official Python
SDK, ``mantyx-sdk``, pinned in requirements.txt). Four parts:

- client flows (flows.py): the SDK's real clients (sync and async) against the mock server;
- its SSE parser and frame reader over the suite's SSE cases (sse_cases.py);
- its validating parts over the suite's strict message cases (validating_parts.py);
- its success/failure verdict against ours on every terminal event (terminal_verdicts.py).

Prints a table per part, then how the verdicts compare with the ones
documented in expected.json (a change on either side shows up there).
Reports only: exit status 0 whatever the SDK does. ``--json PATH`` also
writes the whole report as JSON; ``--write-expected`` rewrites
expected.json from this run (review the diff: it is documentation).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import sys
import traceback
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "python")]

import suite  # noqa: E402

EXPECTED_FILE = HERE / "expected.json"
SDK_PACKAGE = "mantyx-sdk"

#: The official SDKs that cannot be measured, and why (looked up in their registries).
UNAVAILABLE = [
    {"sdk": "official TypeScript SDK", "package": "@mantyx/sdk (npm)", "status": "not measured: the npm registry has no such package"},
    {"sdk": "official Go SDK", "package": "github.com/mantyx-io/mantyx-sdk/go (Go module proxy)", "status": "not measured: the Go module proxy has no such module"},
]

PARTS = ("client flows", "sse parser", "validating parts", "terminal verdicts")


def measure() -> dict[str, list[dict[str, Any]]]:
    import mantyx
    from mantyx import client, sse, tools

    import flows
    import sse_cases
    import terminal_verdicts
    import validating_parts

    runs = {
        "client flows": lambda: flows.run_all(sys.executable),
        "sse parser": lambda: sse_cases.parser_rows(sse, client),
        "validating parts": lambda: validating_parts.validating_rows(tools),
        "terminal verdicts": lambda: terminal_verdicts.verdict_rows(mantyx),
    }
    parts: dict[str, list[dict[str, Any]]] = {}
    for part, run in runs.items():
        try:
            parts[part] = run()
        except Exception as e:  # noqa: BLE001 - one part breaking leaves the others' report
            traceback.print_exc(file=sys.stdout)
            parts[part] = [{"part": part, "id": "(not run)", "what": "the part itself", "verdict": "not run", "reason": f"{type(e).__name__}: {e}"}]
    return parts


def key_of(row: dict[str, Any]) -> str:
    return f"{row['part']} :: {row['id']}"


def documented(parts: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, str]]:
    """The verdicts to document: every flow's, and each case's that is not a pass (a case not listed passes)."""
    return {part: {key_of(r): r["verdict"] for r in rows if part == "client flows" or r["verdict"] != "pass"} for part, rows in parts.items()}


def compare(parts: dict[str, list[dict[str, Any]]], expected: dict[str, dict[str, str]]) -> list[str]:
    """Where this run's verdicts differ from expected.json."""
    changes = []
    for part, rows in parts.items():
        want = expected.get(part, {})
        seen = set()
        for r in rows:
            key = key_of(r)
            seen.add(key)
            # A flow must be documented; a case not listed is documented as a pass.
            was = want.get(key, None if part == "client flows" else "pass")
            if was != r["verdict"]:
                changes.append(f"{key}: documented {was or 'nothing'}, now {r['verdict']} ({r['reason'][:160]})")
        changes.extend(f"{key}: documented {v}, no longer run" for key, v in want.items() if key not in seen)
    return changes


def print_table(title: str, rows: list[list[str]]) -> None:
    print(f"\n## {title}\n")
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for i, r in enumerate(rows):
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")
        if i == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")


def print_report(version: str, parts: dict[str, list[dict[str, Any]]], changes: list[str]) -> None:
    print_table("Official SDKs", [["SDK", "package", "status"], *[[u["sdk"], u["package"], u["status"]] for u in UNAVAILABLE], ["official Python SDK", f"{SDK_PACKAGE} {version} (PyPI)", "measured below"]])
    for client in dict.fromkeys(r["part"] for r in parts["client flows"]):
        rows = [r for r in parts["client flows"] if r["part"] == client]
        print_table(f"Python SDK {version}: {client}, against the mock", [["scenario", "verdict", "reason"], *[[f"{r['id']}: {r['what']}", r["verdict"], r["reason"]] for r in rows]])
    for part, group_key in (("sse parser", "rule"), ("validating parts", "component"), ("terminal verdicts", "edition")):
        rows = parts[part]
        by: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        for r in rows:
            by[(r["part"], r.get(group_key, "-"))][r["verdict"]] += 1
        summary = [[name, group, f"{c['pass']}/{sum(c.values())} pass" + "".join(f", {n} {v}" for v, n in sorted(c.items()) if v != "pass")] for (name, group), c in sorted(by.items())]
        print_table(f"Python SDK {version}: {part}, by {group_key}", [["SDK part", group_key, "verdicts"], *summary])
        odd = [r for r in rows if r["verdict"] != "pass"]
        if odd:
            print_table(f"{part}: every case that is not a pass", [["case", "verdict", "reason"], *[[r["id"], r["verdict"], r["reason"]] for r in odd]])
    print()
    if changes:
        print(f"Documented verdicts (conformance/official-sdk/expected.json): {len(changes)} changed; a fix or a regression on either side, review and update the documentation:")
        for c in changes:
            print(f"  - {c}")
    else:
        n = sum(len(rows) for rows in parts.values())
        print(f"Documented verdicts (conformance/official-sdk/expected.json): all {n} verdicts as documented.")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="also write the report as JSON to this file")
    ap.add_argument("--write-expected", action="store_true", help="rewrite expected.json from this run")
    args = ap.parse_args()
    report: dict[str, Any] = {"unavailable": UNAVAILABLE, "sdk": {"package": SDK_PACKAGE}}

    def finish(status: str) -> int:
        report["status"] = status
        if args.json:
            Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        return 0

    print("The official MANTYX SDKs against the fixture suite and the mock server (a report; it never fails)")
    try:
        problems = suite.verify_manifest(suite.manifest())
    except suite.SuiteError as e:
        print(f"NOT RUN: {e}")
        return finish(f"not run: {e}")
    if problems:
        print("NOT RUN: the fixture suite does not match its manifest.json:\n  " + "\n  ".join(problems))
        return finish("not run: the fixture suite does not match its manifest")
    try:
        version = importlib.metadata.version(SDK_PACKAGE)
        import mantyx  # noqa: F401
    except Exception as e:  # noqa: BLE001 - reported, not raised
        print(f"NOT RUN: cannot import the official SDK ({SDK_PACKAGE}): {type(e).__name__}: {e}")
        return finish(f"not run: cannot import {SDK_PACKAGE}")
    report["sdk"]["version"] = version
    try:
        parts = measure()
    except Exception:  # noqa: BLE001 - the report never fails
        print("NOT RUN: the harness broke on this SDK version:")
        traceback.print_exc(file=sys.stdout)
        return finish("not run: the harness broke")
    expected = json.loads(EXPECTED_FILE.read_text(encoding="utf-8")) if EXPECTED_FILE.exists() else {}
    if args.write_expected:
        expected = {"sdk": f"{SDK_PACKAGE} {version}", **documented(parts)}
        EXPECTED_FILE.write_text(json.dumps(expected, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    changes = compare(parts, expected)
    print_report(version, parts, changes)
    report["parts"] = parts
    report["documentedChanges"] = changes
    return finish("run")


if __name__ == "__main__":
    sys.exit(main())
