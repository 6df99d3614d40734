"""The official SDK's real clients against the mock, flow by flow.

Each scenario, for each of the SDK's clients (``MantyxClient`` and
``AsyncMantyxClient``), starts flow_child.py (the SDK in a process of its
own) against a mock server of the scenario's edition and frame shape
(``mantyx-wire mock``, the scenario's faults asked for with the mock's
``X-Mock-Fault`` header on the run's creation: mock_host.py), then judges what the SDK did (watched
on its own HTTP client, flow_child.py) against each run's log as the
server keeps it (run_log.py). A scenario passes when the SDK does what
every SDK must (the fixture suite's behaviour tier): finish the run with
the right outcome, deliver every event once and in order, run each tool
call's handler once and answer it with one POST, and recover from
connection faults the way the documents ask.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import run_log
from mock_host import API_KEY, WORKSPACE, MockHost

HERE = Path(__file__).resolve().parent

#: How long a flow may take before the SDK is called hung. Every mock run
#: here ends in well under a second; only a client waiting on a silent
#: connection forever gets near it (and a machine under load has room).
FLOW_DEADLINE_S = 60.0
#: For the silent-connection faults: how long after its first stream request
#: the SDK has to give up on a connection that sends nothing; long enough
#: that any idle timeout it had would have fired, short enough to keep the
#: report quick. The verdict does not rest on the clock alone: the flow's
#: HTTP client counts the stream requests, and a hung SDK sent no second one.
SILENT_DEADLINE_S = 4.0

#: How many connections in a row end cleanly with nothing in the back-off scenario.
EMPTY_CLEAN_ENDS = 4


@dataclass
class Scenario:
    id: str
    what: str
    flow: str = "one-shot"
    edition: str = "2026-10"
    frames: str = "envelope"
    metadata: dict[str, str] = field(default_factory=dict)
    #: The mock's fault spec for the run (generator/mock/faults/spec.ts), sent as X-Mock-Fault on its creation.
    fault: str = ""
    #: The next requests of any route (here: the run's creation) answered 429 with Retry-After: 1.
    rate_limited: int = 0
    #: The silent-connection faults: hung once SILENT_DEADLINE_S pass after the first stream request.
    silent: bool = False
    judge: Callable[["Observation"], str | None] | None = None
    #: What a pass means, for the report.
    passes: str = "completed: every event once and in order, each tool call run once and answered by one POST"


@dataclass
class Observation:
    """What flow_child.py saw the SDK do, and each run's event log as the server keeps it."""

    lines: list[dict[str, Any]]
    logs: dict[str, list[dict[str, Any]]]  # run id -> events of a fresh, fault-free read of its stream
    hung: bool

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [line for line in self.lines if line["kind"] == kind]

    @property
    def done(self) -> dict[str, Any]:
        done = self.of("done")
        return done[-1] if done else {}

    @property
    def delivered(self) -> list[int]:
        return [e["seq"] for e in self.of("event")]

    @property
    def streams(self) -> int:
        return len(self.of("stream"))


def exactly_once(o: Observation) -> list[str]:
    """What breaks "every event once, in order; every tool call run once and answered by one POST"."""
    problems: list[str] = []
    logged = [e["seq"] for run in o.of("run") for e in o.logs.get(run["runId"], [])]
    delivered = o.delivered
    if delivered != logged:
        repeated = sorted(s for s, n in Counter(delivered).items() if n > 1)
        if repeated:
            problems.append(f"seqs delivered {','.join(map(str, delivered))} (seq {','.join(map(str, repeated))} more than once)")
        else:
            problems.append(f"seqs delivered {','.join(map(str, delivered))}, the log has {','.join(map(str, logged))}")
    # By toolUseId: a call delivered twice is one call.
    calls = {e["toolUseId"] for events in o.logs.values() for e in events if e["type"] == "local_tool_call"}
    handler_runs = len(o.of("handler"))
    if handler_runs != len(calls):
        problems.append(f"the tool handler ran {handler_runs} times for {len(calls)} tool call(s)")
    posts = o.of("toolPost")
    per_call = Counter(p["toolUseId"] for p in posts)
    extra = {k: n for k, n in per_call.items() if n > 1}
    statuses = ",".join(sorted(str(p["status"]) for p in posts))  # sorted: concurrent POSTs finish in any order
    if extra or set(per_call) != calls:
        problems.append(f"{len(posts)} tool-result POSTs for {len(calls)} call(s) (answered {statuses})")
    elif any(p["status"] >= 300 for p in posts):
        problems.append(f"tool results refused (answered {statuses})")
    return problems


def completes(o: Observation) -> list[str]:
    """Each run ended as a success the SDK returned, with the text of the run's terminal result."""
    if o.hung:
        return [hung_reason(o)]
    done = o.done
    if not done:
        return ["the flow process ended without a result"]
    if done["outcome"] != "returned":
        err = done.get("error") or {}
        subtype = f"subtype {err['subtype']!r}, " if err.get("subtype") else ""
        return [f"raised {err.get('type')}({subtype}{err.get('message')!r}) instead of returning the run ({len(o.delivered)} events delivered)"]
    got = [r["text"] for r in done["results"]]
    want = [e["text"] for run in o.of("run") for e in o.logs.get(run["runId"], []) if e["type"] == "result"]
    if got != want:
        return [f"returned text {got!r}, the runs' results say {want!r}"]
    return []


def hung_reason(o: Observation) -> str:
    n = o.streams
    return f"hung: stuck on the silent connection, no reconnect {SILENT_DEADLINE_S:g} s after its stream request ({n} stream connection{'s' if n != 1 else ''}; the SDK opens its stream with no read timeout)"


def verdict_of(problems: list[str]) -> str | None:
    return "; ".join(problems) if problems else None


def judge_run(o: Observation) -> str | None:
    # Exactly-once is judged on a run the SDK finished; an unfinished one says why it did not.
    return verdict_of(completes(o) or exactly_once(o))


def judge_session(o: Observation) -> str | None:
    problems = completes(o)
    if problems:
        return verdict_of(problems)
    if len(o.of("run")) != 2:
        return f"two messages gave {len(o.of('run'))} run(s)"
    return verdict_of(exactly_once(o))


def judge_cancel(o: Observation) -> str | None:
    if o.hung:
        return hung_reason(o)
    done = o.done
    err = done.get("error") or {}
    problems = []
    if not (done.get("outcome") == "raised" and err.get("type") == "MantyxRunError" and err.get("subtype") == "cancelled"):
        problems.append(f"ended with {done.get('outcome')} {err or done.get('results')}, not MantyxRunError(subtype 'cancelled')")
    cancels = [c["status"] for c in o.of("cancel")]
    if len(cancels) != 1 or cancels[0] >= 300:
        problems.append(f"cancel requests answered {cancels}")
    events = o.of("event")
    if not events or events[-1]["type"] != "cancelled":
        problems.append("the cancelled event was not delivered last")
    return verdict_of(problems + exactly_once(o))


def judge_unknown_type(o: Observation) -> str | None:
    problems = completes(o)
    if problems:
        return verdict_of(problems)
    if "memory_snapshot" not in [e["type"] for e in o.of("event")]:
        problems.append("the memory_snapshot event was not delivered")
    return verdict_of(problems + exactly_once(o))


def judge_supervisor_true(o: Observation) -> str | None:
    problems = completes(o)
    if not o.of("run"):
        problems.append("no run was created (nothing was sent)")
    return verdict_of(problems)


def judge_backoff(o: Observation) -> str | None:
    problems = completes(o) or exactly_once(o)
    # The scenario's faults: its first connections end cleanly with no event.
    empty = min(o.streams - 1, EMPTY_CLEAN_ENDS)
    if empty > 0 and not o.of("sleep"):
        problems.append(f"no back-off: {empty} connections in a row ended cleanly with no event, and it reconnected at once after each (no sleep)")
    return verdict_of(problems)


def judge_stream_status(o: Observation) -> str | None:
    problems = completes(o) or exactly_once(o)
    if o.streams < 2 and not o.hung:
        problems.append(f"the stream was not retried ({o.streams} connection)")
    return verdict_of(problems)


def _tools(**extra: str) -> dict[str, str]:
    return {"args": json.dumps({"amount": 42}), **extra}


SCENARIOS: list[Scenario] = [
    Scenario("one-shot", "one-shot run with a local tool (2026-10, nested frames)", metadata=_tools(), judge=judge_run),
    Scenario("edition-2026-09", "one-shot run, seed edition: result with ok: true", edition="2026-09", metadata=_tools(), judge=judge_run),
    Scenario("edition-older", "one-shot run, the older companion's shapes (started, subtype: \"success\")", edition="older", metadata=_tools(), judge=judge_run),
    Scenario("frames-flat", "one-shot run, flattened frames with type", frames="flat", metadata=_tools(), judge=judge_run),
    Scenario("frames-flat-untyped", "one-shot run, flattened frames typed by the event: line only", frames="flat-untyped", metadata=_tools(), judge=judge_run),
    Scenario("session", "session with two messages", flow="session", metadata=_tools(), judge=judge_session),
    Scenario("cancel", "cancel a running run (cancel_run)", flow="cancel", metadata={"scenario": "slow"}, judge=judge_cancel, passes="cancel answered 202, the cancelled event delivered last, run_agent raised MantyxRunError(subtype 'cancelled')"),
    Scenario("unknown-type", "an unknown event type (memory_snapshot)", metadata={"scenario": "unknown-type"}, judge=judge_unknown_type, passes="completed; the unknown event delivered in its place, every event once"),
    Scenario("duplicated-tool-call", "the same local_tool_call delivered twice", metadata=_tools(), fault="duplicate-call", judge=judge_run),
    Scenario("supervisor-true", "run with supervisor: true (the documents' \"enable with defaults\")", flow="supervisor-true", metadata=_tools(), judge=judge_supervisor_true),
    Scenario("fault-cut-events", "resume after the connection drops between frames", metadata=_tools(), fault="drop-after=2", judge=judge_run),
    Scenario("fault-cut-bytes", "resume after the connection drops inside a frame", metadata=_tools(), fault="cut-bytes=150", judge=judge_run),
    Scenario("fault-end-clean", "resume after a clean end without the terminal event", metadata=_tools(), fault="end-clean=3", judge=judge_run),
    Scenario("fault-end-clean-empty", "four clean ends in a row that deliver nothing (back-off)", metadata=_tools(), fault=f"end-clean=0@1-{EMPTY_CLEAN_ENDS}", judge=judge_backoff),
    Scenario("fault-heartbeats", "heartbeat comments before the events", metadata=_tools(), fault="delay=200,heartbeat=20", judge=judge_run),
    Scenario("fault-wrong-type", "200 text/html instead of the event stream, once", metadata=_tools(), fault="wrong-type=html", judge=judge_run),
    Scenario("fault-non-sse", "200 application/json instead of the event stream, once", metadata=_tools(), fault="wrong-type=json", judge=judge_run),
    Scenario("fault-503", "the stream answers 503 once", metadata=_tools(), fault="status=503", judge=judge_stream_status),
    Scenario("fault-429", "the stream answers 429 with Retry-After: 1 once", metadata=_tools(), fault="status=429,retry-after=1", judge=judge_stream_status),
    Scenario("create-429", "creating the run answers 429 with Retry-After: 1 once", metadata=_tools(), rate_limited=1, judge=judge_run),
    Scenario("fault-replay", "a drop, then a resume that replays frames the client already has (at-least-once)", metadata=_tools(), fault="drop-after=3@1,ignore-resume@2", judge=judge_run),
    Scenario("fault-hang", "a connection that sends headers and then nothing", metadata=_tools(), fault="stall=0", silent=True, judge=judge_run),
    Scenario("fault-stall", "a connection that stalls after two events, left open", metadata=_tools(), fault="stall=2", silent=True, judge=judge_run),
]


#: The SDK's two clients, each driven through every scenario: (its name in flow_child.py, the report's part).
CLIENTS = (("sync", "client flows (MantyxClient)"), ("async", "client flows (AsyncMantyxClient)"))


def _line(text: str) -> dict[str, Any] | None:
    """One observation line of flow_child.py; None for anything else (a line cut short when a hung flow was ended)."""
    try:
        parsed = json.loads(text)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) and "kind" in parsed else None


def _run_child(argv: list[str], silent: bool) -> tuple[list[dict[str, Any]], bool, str]:
    """Runs flow_child.py: (its observation lines, whether it was ended as hung, its stderr)."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[dict[str, Any]] = []
    first_stream: list[float] = []

    def read() -> None:
        assert proc.stdout is not None
        for text in proc.stdout:
            parsed = _line(text)
            if parsed is not None:
                lines.append(parsed)
                if parsed["kind"] == "stream" and not first_stream:
                    first_stream.append(time.monotonic())

    errors: list[str] = []

    def read_errors() -> None:
        assert proc.stderr is not None
        errors.append(proc.stderr.read())

    readers = [threading.Thread(target=read, daemon=True), threading.Thread(target=read_errors, daemon=True)]
    for reader in readers:
        reader.start()
    started = time.monotonic()
    hung = False
    while proc.poll() is None:
        now = time.monotonic()
        if now - started > FLOW_DEADLINE_S or (silent and first_stream and now - first_stream[0] > SILENT_DEADLINE_S):
            hung = True
            proc.kill()
            break
        time.sleep(0.05)
    proc.wait()
    for reader in readers:
        reader.join(timeout=10)
    return lines, hung, "".join(errors)


def run_scenario(host: MockHost, python: str, client: str, part: str, s: Scenario) -> dict[str, Any]:
    controlled = s.rate_limited > 0
    if controlled:
        server, url = host.server(s.edition, s.frames)
        host.call("rate-limit", server=server, count=s.rate_limited, retryAfterSeconds=1)
        mock = f"generator/mock, {s.rate_limited} request(s) rate-limited (mock-host.ts; edition {s.edition}, frames {s.frames})"
    else:
        command = host.command(s.edition, s.frames)
        url, mock = command.url, command.command + (f" (X-Mock-Fault: {s.fault})" if s.fault else "")
    spec = {"client": client, "flow": s.flow, "url": url, "workspace": WORKSPACE, "apiKey": API_KEY, "metadata": s.metadata, "fault": s.fault}
    lines, hung, err = _run_child([python, str(HERE / "flow_child.py"), json.dumps(spec)], s.silent)
    if controlled:
        # A rate limit left over must not reach the log reads below, nor the next scenario.
        host.call("rate-limit", server=server, count=0, retryAfterSeconds=0)
    run_ids = [line["runId"] for line in lines if line["kind"] == "run"]
    for run_id in run_ids:
        run_log.cancel(url, run_id)  # ends a run the SDK left unfinished; a no-op on a finished one
    logs = {run_id: run_log.read(url, run_id) for run_id in run_ids}
    obs = Observation(lines=lines, logs=logs, hung=hung)
    if not hung and not obs.done:
        problem: str | None = f"the flow process printed no result: {err.strip()[-300:]}"
    else:
        assert s.judge is not None
        problem = s.judge(obs)
    return {
        "part": part,
        "id": s.id,
        "what": s.what,
        "verdict": "fail" if problem else "pass",
        "reason": problem or s.passes,
        "streams": obs.streams,
        "mock": mock,
    }


def run_all(python: str = sys.executable) -> list[dict[str, Any]]:
    with MockHost() as host:
        return [run_scenario(host, python, client, part, s) for client, part in CLIENTS for s in SCENARIOS]


if __name__ == "__main__":
    for row in run_all():
        print(f"{row['verdict']:4}  {row['part'][14:-1]:18} {row['id']:24} {row['reason']}")
