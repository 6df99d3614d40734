"""The mock servers the flows run against, on 127.0.0.1 only.

Two ways in, the same server code (generator/mock):
- ``mantyx-wire mock``, the shipped command (run from the sources, as
  ``npm run mock`` does), for every scenario: faults are asked for per run
  with its ``X-Mock-Fault`` header (flow_child.py adds it);
- mock-host.ts, a Node process that starts the same server as a module,
  for the one thing a header cannot ask: rate-limiting the run's creation.
"""

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


FRAMES_FLAG = {"envelope": "nested", "flat": "flat", "flat-untyped": "flat-untyped"}


def _tsx() -> Path:
    tsx = REPO / "node_modules" / ".bin" / ("tsx.cmd" if os.name == "nt" else "tsx")
    if not tsx.exists():
        raise MockHostError(f"{tsx} is missing: run `npm ci` in {REPO}")
    return tsx


class MockCommand:
    """One ``mantyx-wire mock`` process; its URL is the first line it prints."""

    def __init__(self, edition: str, frames: str) -> None:
        self.args = ["mock", "--port", "0", "--workspace", WORKSPACE, "--api-key", API_KEY, "--edition", edition, "--frames", FRAMES_FLAG[frames], "--quiet"]
        self._proc = subprocess.Popen([str(_tsx()), "generator/main.ts", *self.args], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self._proc.stdout is not None
        self.url = self._proc.stdout.readline().strip()
        if not self.url.startswith("http://127.0.0.1:"):
            self._proc.kill()
            raise MockHostError(f"mantyx-wire mock did not print its URL first (got {self.url!r}): {self._proc.communicate()[1][-500:]}")

    @property
    def command(self) -> str:
        return "mantyx-wire " + " ".join(self.args[:-1])  # without --quiet

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()


class MockHost:
    def __init__(self) -> None:
        self._commands: dict[tuple[str, str], MockCommand] = {}
        self._proc = subprocess.Popen(
            [str(_tsx()), str(HERE / "mock-host.ts")],
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
        """A mock server with this edition and frame shape that takes faults: (its name for other calls, its origin)."""
        r = self.call("start", edition=edition, frames=frames, workspace=WORKSPACE, apiKey=API_KEY)
        return r["name"], r["url"]

    def command(self, edition: str, frames: str) -> MockCommand:
        """A ``mantyx-wire mock`` with this edition and frame shape (one per pair, kept for the whole run)."""
        key = (edition, frames)
        if key not in self._commands:
            self._commands[key] = MockCommand(edition, frames)
        return self._commands[key]

    def close(self) -> None:
        for command in self._commands.values():
            command.close()
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
