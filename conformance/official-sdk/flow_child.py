"""One client flow of the official Python SDK against a mock server, in a
process of its own (flows.py starts it, and ends it when the SDK hangs).

Argument: a JSON object ``{client, flow, url, workspace, apiKey, metadata}``,
``client`` being ``sync`` (``MantyxClient``) or ``async``
(``AsyncMantyxClient``). Prints one JSON line: what the SDK did (its
return value or exception, the events it delivered, how often the tool
handler ran, the sleeps it asked for). Only the SDK's public client API is
driven; the one instrument is the clock of its client modules (``time``
in ``mantyx.client``, ``asyncio`` in ``mantyx.async_client``), which
records each sleep and sleeps a fiftieth of it, so retries are counted
rather than timed.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time as real_time
from typing import Any

SLEEP_SCALE = 0.02
PROMPT = "What is 42 USD with tax?"
SYSTEM = "You are a test agent."
TOOL_ANSWER = "42 USD is 50.40 USD with tax"


class RecordingClock:
    """``time`` for ``mantyx.client``: sleeps recorded, and shortened."""

    def __init__(self, sleeps: list[float]) -> None:
        self.sleeps = sleeps

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        real_time.sleep(seconds * SLEEP_SCALE)

    def __getattr__(self, name: str) -> Any:
        return getattr(real_time, name)


class RecordingAsyncio:
    """``asyncio`` for ``mantyx.async_client``: sleeps recorded, and shortened."""

    def __init__(self, sleeps: list[float]) -> None:
        self.sleeps = sleeps

    async def sleep(self, seconds: float, result: Any = None) -> Any:
        self.sleeps.append(seconds)
        return await asyncio.sleep(seconds * SLEEP_SCALE, result)

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)


class Flow:
    """What one flow observes, shared by the sync and async drivers."""

    def __init__(self, spec: dict[str, Any]) -> None:
        import mantyx

        self.spec = spec
        self.observed: dict[str, Any] = {"events": [], "handlerCalls": [], "results": [], "runIds": [], "sleeps": []}
        self.tool = mantyx.define_local_tool(
            name="lookup_rate",
            description="Looks up a rate.",
            parameters={"type": "object", "properties": {"amount": {"type": "number"}}},
            execute=self.lookup_rate,
        )
        self.headers = {"User-Agent": f"mantyx-sdk-python/{mantyx.SDK_VERSION}"}

    def lookup_rate(self, args: dict[str, Any]) -> str:
        self.observed["handlerCalls"].append(args)
        return TOOL_ANSWER

    def record(self, ev: Any) -> bool:
        """Records the event; True when this is the moment a cancel flow cancels."""
        self.observed["events"].append([ev.seq, ev.type])
        if self.spec["flow"] == "cancel" and ev.type == "assistant_delta" and not self.observed.get("cancelSent"):
            self.observed["cancelSent"] = True
            return True
        return False

    def created(self, method: str, path: str, status: int, body: Any) -> None:
        # The SDK's RunEvent carries no run id; its cancel_run needs one.
        if method == "POST" and path.endswith(("/agent-runs", "/messages")) and status < 300:
            self.observed["runIds"].append(body.get("runId"))

    def keep(self, result: Any) -> None:
        self.observed["results"].append({"text": result.text, "events": len(result.events)})

    def failed(self, e: Exception) -> None:
        self.observed["outcome"] = "raised"
        self.observed["error"] = {"type": type(e).__name__, "message": str(e), "subtype": getattr(e, "subtype", None)}


def run_sync(f: Flow) -> None:
    import httpx
    import mantyx
    import mantyx.client as sdk_client

    sdk_client.time = RecordingClock(f.observed["sleeps"])  # type: ignore[attr-defined]

    def hook(response: httpx.Response) -> None:
        if response.request.method == "POST":
            response.read()
            f.created(response.request.method, response.request.url.path, response.status_code, response.json() if response.content else {})

    http = httpx.Client(timeout=httpx.Timeout(60.0, connect=10.0, read=None), headers=f.headers, event_hooks={"response": [hook]})
    client = mantyx.MantyxClient(api_key=f.spec["apiKey"], workspace_slug=f.spec["workspace"], base_url=f.spec["url"], http_client=http)

    def on_event(ev: Any) -> None:
        if f.record(ev):
            client.cancel_run(f.observed["runIds"][-1])

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
        f.observed["outcome"] = "returned"
    except Exception as e:  # noqa: BLE001 - what the SDK raised is the observation
        f.failed(e)
    finally:
        client.close()
        http.close()


async def run_async(f: Flow) -> None:
    import httpx
    import mantyx
    import mantyx.async_client as sdk_async

    sdk_async.asyncio = RecordingAsyncio(f.observed["sleeps"])  # type: ignore[attr-defined]

    async def hook(response: httpx.Response) -> None:
        if response.request.method == "POST":
            await response.aread()
            f.created(response.request.method, response.request.url.path, response.status_code, response.json() if response.content else {})

    http = httpx.AsyncClient(timeout=httpx.Timeout(60.0, connect=10.0, read=None), headers=f.headers, event_hooks={"response": [hook]})
    client = mantyx.AsyncMantyxClient(api_key=f.spec["apiKey"], workspace_slug=f.spec["workspace"], base_url=f.spec["url"], http_client=http)

    async def on_event(ev: Any) -> None:
        if f.record(ev):
            await client.cancel_run(f.observed["runIds"][-1])

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
        f.observed["outcome"] = "returned"
    except Exception as e:  # noqa: BLE001 - what the SDK raised is the observation
        f.failed(e)
    finally:
        await client.aclose()
        await http.aclose()


def main() -> int:
    spec = json.loads(sys.argv[1])
    f = Flow(spec)
    if spec["client"] == "async":
        asyncio.run(run_async(f))
    else:
        run_sync(f)
    print(json.dumps(f.observed), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
