"""The harness's side of mock-host.ts: start the Node process, send it
commands, read its answers. The mock servers run on 127.0.0.1 only."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

WORKSPACE = "demo"
API_KEY = "mantyx_test"


class MockHostError(Exception):
    """The mock host could not start or refused a command."""


class MockHost:
    def __init__(self) -> None:
        tsx = REPO / "node_modules" / ".bin" / ("tsx.cmd" if os.name == "nt" else "tsx")
        if not tsx.exists():
            raise MockHostError(f"{tsx} is missing: run `npm ci` in {REPO}")
        self._proc = subprocess.Popen(
            [str(tsx), str(HERE / "mock-host.ts")],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self._next = 0
        first = self._read()
        if first.get("ready") is not True:
            raise MockHostError(f"the mock host did not start: {first}")

    def _read(self) -> dict[str, Any]:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            raise MockHostError(f"the mock host exited (status {self._proc.poll()})")
        return json.loads(line)

    def call(self, op: str, **args: Any) -> Any:
        assert self._proc.stdin is not None
        self._next += 1
        self._proc.stdin.write(json.dumps({"id": self._next, "op": op, **args}) + "\n")
        self._proc.stdin.flush()
        answer = self._read()
        if answer.get("id") != self._next or not answer.get("ok"):
            raise MockHostError(f"{op}: {answer.get('error', answer)}")
        return answer["result"]

    def server(self, edition: str, frames: str) -> tuple[str, str]:
        """A mock server with this edition and frame shape: (its name for other calls, its origin)."""
        r = self.call("start", edition=edition, frames=frames, workspace=WORKSPACE, apiKey=API_KEY)
        return r["name"], r["url"]

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                self.call("stop")
            except MockHostError:
                pass
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()

    def __enter__(self) -> MockHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
