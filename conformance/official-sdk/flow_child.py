"""One client flow of the official Python SDK against a mock server, in a
process of its own (flows.py starts it, and ends it when the SDK hangs).

Argument: a JSON object ``{client, flow, url, workspace, apiKey, metadata}``,
``client`` being ``sync`` (``MantyxClient``) or ``async``
(``AsyncMantyxClient``). Only the SDK's public client API is driven, with
an ``httpx`` client of ours (``http_client=``) whose hooks watch the
traffic, and the clock of its client modules (``time`` in
``mantyx.client``, ``asyncio`` in ``mantyx.async_client``) replaced by one
that records each sleep and sleeps a fiftieth of it, so retries are
counted rather than timed.

Prints one JSON line per observation as it happens (so a flow ended for
hanging still leaves what it saw): ``run`` (a run id the server created),
``stream`` (a stream request and its resume hints), ``toolPost`` and
``cancel`` (with the answer's status), ``event`` (delivered to
``on_event``), ``handler`` (the tool handler ran), ``sleep``; then
``done`` with the outcome (returned or raised, and what).
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time as real_time
from typing import Any

SLEEP_SCALE = 0.02
PROMPT = "What is 42 USD with tax?"
SYSTEM = "You are a test agent."
TOOL_ANSWER = "42 USD is 50.40 USD with tax"


_emitting = threading.Lock()


def emit(kind: str, **fields: Any) -> None:
    # One write per line, under a lock: tool handlers run on the SDK's worker threads.
    line = json.dumps({"kind": kind, **fields}) + "\n"
    with _emitting:
        sys.stdout.write(line)
        sys.stdout.flush()


class RecordingClock:
    """``time`` for ``mantyx.client``: sleeps recorded, and shortened."""

    def sleep(self, seconds: float) -> None:
        emit("sleep", seconds=seconds)
        real_time.sleep(seconds * SLEEP_SCALE)

    def __getattr__(self, name: str) -> Any:
        return getattr(real_time, name)


class RecordingAsyncio:
    """``asyncio`` for ``mantyx.async_client``: sleeps recorded, and shortened."""

    async def sleep(self, seconds: float, result: Any = None) -> Any:
        emit("sleep", seconds=seconds)
        return await asyncio.sleep(seconds * SLEEP_SCALE, result)

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)


class Flow:
    """What one flow observes, shared by the sync and async drivers."""

    def __init__(self, spec: dict[str, Any]) -> None:
        import mantyx

        self.spec = spec
        self.run_ids: list[str] = []
        self.cancel_sent = False
        self.results: list[dict[str, Any]] = []
        self.tool = mantyx.define_local_tool(
            name="lookup_rate",
            description="Looks up a rate.",
            parameters={"type": "object", "properties": {"amount": {"type": "number"}}},
            execute=self.lookup_rate,
        )
        self.headers = {"User-Agent": f"mantyx-sdk-python/{mantyx.SDK_VERSION}"}

    def lookup_rate(self, args: dict[str, Any]) -> str:
        emit("handler", args=args)
        return TOOL_ANSWER

    def record(self, ev: Any) -> bool:
        """Records the event; True when this is the moment a cancel flow cancels."""
        emit("event", seq=ev.seq, type=ev.type)
        if self.spec["flow"] == "cancel" and ev.type == "assistant_delta" and not self.cancel_sent:
            self.cancel_sent = True
            return True
        return False

    def request(self, method: str, path: str, headers: Any, query: Any) -> None:
        if method == "POST" and path.endswith(("/agent-runs", "/messages")) and self.spec.get("fault"):
            # The mock's faults for this run (generator/mock/faults/spec.ts): the SDK sends the request, we add the ask.
            headers["X-Mock-Fault"] = self.spec["fault"]
        if method == "GET" and path.endswith("/stream"):
            emit("stream", lastEventId=headers.get("last-event-id"), lastSeq=query.get("lastSeq"))

    def answered(self, method: str, path: str, status: int, request_body: bytes, body: Any) -> None:
        if method != "POST":
            return
        if path.endswith(("/agent-runs", "/messages")) and status < 300:
            # The SDK's RunEvent carries no run id; its cancel_run needs one.
            self.run_ids.append(body.get("runId"))
            emit("run", runId=body.get("runId"))
        elif path.endswith("/tool-results"):
            emit("toolPost", toolUseId=json.loads(request_body or b"{}").get("toolUseId"), status=status)
        elif path.endswith("/cancel"):
            emit("cancel", status=status)

    def keep(self, result: Any) -> None:
        self.results.append({"text": result.text, "events": len(result.events)})

    def done(self, error: Exception | None) -> None:
        if error is None:
            emit("done", outcome="returned", results=self.results)
        else:
            emit("done", outcome="raised", results=self.results, error={"type": type(error).__name__, "message": str(error), "subtype": getattr(error, "subtype", None)})


def run_sync(f: Flow) -> None:
    import httpx
    import mantyx
    import mantyx.client as sdk_client

    sdk_client.time = RecordingClock()  # type: ignore[attr-defined]

    def on_request(request: httpx.Request) -> None:
        f.request(request.method, request.url.path, request.headers, request.url.params)

    def on_response(response: httpx.Response) -> None:
        if response.request.method == "POST":
            response.read()
            f.answered("POST", response.request.url.path, response.status_code, response.request.content, _json(response))

    http = httpx.Client(timeout=httpx.Timeout(60.0, connect=10.0, read=None), headers=f.headers, event_hooks={"request": [on_request], "response": [on_response]})
    client = mantyx.MantyxClient(api_key=f.spec["apiKey"], workspace_slug=f.spec["workspace"], base_url=f.spec["url"], http_client=http)

    def on_event(ev: Any) -> None:
        if f.record(ev):
            client.cancel_run(f.run_ids[-1])

    common = {"system_prompt": SYSTEM, "metadata": f.spec["metadata"], "on_event": on_event}
    try:
        flow = f.spec["flow"]
        if flow in ("one-shot", "cancel"):
            f.keep(client.run_agent(prompt=PROMPT, tools=[f.tool], **common))
        elif flow == "supervisor-true":
            f.keep(client.run_agent(prompt=PROMPT, tools=[f.tool], supervisor=True, **common))
        elif flow == "session":
            session = client.create_session(system_prompt=SYSTEM, tools=[f.tool], metadata=f.spec["metadata"])
            f.keep(session.send(PROMPT, on_event=on_event))
            f.keep(session.send("And 43 USD?", on_event=on_event))
            session.end()
        else:
            raise SystemExit(f"unknown flow {flow!r}")
        f.done(None)
    except Exception as e:  # noqa: BLE001 - what the SDK raised is the observation
        f.done(e)
    finally:
        client.close()
        http.close()


async def run_async(f: Flow) -> None:
    import httpx
    import mantyx
    import mantyx.async_client as sdk_async

    sdk_async.asyncio = RecordingAsyncio()  # type: ignore[attr-defined]

    async def on_request(request: httpx.Request) -> None:
        f.request(request.method, request.url.path, request.headers, request.url.params)

    async def on_response(response: httpx.Response) -> None:
        if response.request.method == "POST":
            await response.aread()
            f.answered("POST", response.request.url.path, response.status_code, response.request.content, _json(response))

    http = httpx.AsyncClient(timeout=httpx.Timeout(60.0, connect=10.0, read=None), headers=f.headers, event_hooks={"request": [on_request], "response": [on_response]})
    client = mantyx.AsyncMantyxClient(api_key=f.spec["apiKey"], workspace_slug=f.spec["workspace"], base_url=f.spec["url"], http_client=http)

    async def on_event(ev: Any) -> None:
        if f.record(ev):
            await client.cancel_run(f.run_ids[-1])

    common = {"system_prompt": SYSTEM, "metadata": f.spec["metadata"], "on_event": on_event}
    try:
        flow = f.spec["flow"]
        if flow in ("one-shot", "cancel"):
            f.keep(await client.run_agent(prompt=PROMPT, tools=[f.tool], **common))
        elif flow == "supervisor-true":
            f.keep(await client.run_agent(prompt=PROMPT, tools=[f.tool], supervisor=True, **common))
        elif flow == "session":
            session = await client.create_session(system_prompt=SYSTEM, tools=[f.tool], metadata=f.spec["metadata"])
            f.keep(await session.send(PROMPT, on_event=on_event))
            f.keep(await session.send("And 43 USD?", on_event=on_event))
            await session.end()
        else:
            raise SystemExit(f"unknown flow {flow!r}")
        f.done(None)
    except Exception as e:  # noqa: BLE001 - what the SDK raised is the observation
        f.done(e)
    finally:
        await client.aclose()
        await http.aclose()


def _json(response: Any) -> Any:
    try:
        return response.json() if response.content else {}
    except ValueError:
        return {}


def main() -> int:
    spec = json.loads(sys.argv[1])
    f = Flow(spec)
    if spec["client"] == "async":
        asyncio.run(run_async(f))
    else:
        run_sync(f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
