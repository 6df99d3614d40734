"""One client flow of the official Python SDK against a mock server, in a
process of its own (flows.py starts it, and ends it when the SDK hangs).

Argument: a JSON object ``{flow, url, workspace, apiKey, metadata}``.
Prints one JSON line: what the SDK did (its return value or exception,
the events it delivered, how often the tool handler ran, the sleeps it
asked for). Only the SDK's public client API is driven; the one
instrument is ``time`` in ``mantyx.client``, replaced by a clock that
records each sleep and sleeps a fiftieth of it, so retries are counted
rather than timed.
"""

from __future__ import annotations

import json
import sys
import time as real_time
from typing import Any

SLEEP_SCALE = 0.02


class RecordingClock:
    """``time`` for the SDK's client module: sleeps recorded, and shortened."""

    def __init__(self) -> None:
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        real_time.sleep(seconds * SLEEP_SCALE)

    def __getattr__(self, name: str) -> Any:
        return getattr(real_time, name)


def main() -> int:
    spec = json.loads(sys.argv[1])
    import httpx
    import mantyx
    import mantyx.client as sdk_client

    clock = RecordingClock()
    sdk_client.time = clock  # type: ignore[attr-defined]

    observed: dict[str, Any] = {"events": [], "handlerCalls": [], "results": [], "runIds": []}

    def capture_run_id(response: httpx.Response) -> None:
        # The SDK's RunEvent carries no run id; its cancel_run needs one.
        if response.request.method == "POST" and response.request.url.path.endswith(("/agent-runs", "/messages")) and response.status_code < 300:
            response.read()
            observed["runIds"].append(response.json().get("runId"))

    http = httpx.Client(
        timeout=httpx.Timeout(60.0, connect=10.0, read=None),
        headers={"User-Agent": f"mantyx-sdk-python/{mantyx.SDK_VERSION}"},
        event_hooks={"response": [capture_run_id]},
    )
    client = mantyx.MantyxClient(api_key=spec["apiKey"], workspace_slug=spec["workspace"], base_url=spec["url"], http_client=http)

    def lookup_rate(args: dict[str, Any]) -> str:
        observed["handlerCalls"].append(args)
        return "42 USD is 50.40 USD with tax"

    tool = mantyx.define_local_tool(
        name="lookup_rate",
        description="Looks up a rate.",
        parameters={"type": "object", "properties": {"amount": {"type": "number"}}},
        execute=lookup_rate,
    )

    def on_event(ev: Any) -> None:
        observed["events"].append([ev.seq, ev.type])
        if spec["flow"] == "cancel" and ev.type == "assistant_delta" and not observed.get("cancelSent"):
            observed["cancelSent"] = True
            client.cancel_run(observed["runIds"][-1])

    def keep(result: Any) -> None:
        observed["results"].append({"text": result.text, "events": len(result.events)})

    common = {"system_prompt": "You are a test agent.", "metadata": spec["metadata"], "on_event": on_event}
    try:
        flow = spec["flow"]
        if flow in ("one-shot", "cancel"):
            keep(client.run_agent(prompt="What is 42 USD with tax?", tools=[tool], **common))
        elif flow == "supervisor-true":
            keep(client.run_agent(prompt="What is 42 USD with tax?", tools=[tool], supervisor=True, **common))
        elif flow == "session":
            session = client.create_session(system_prompt="You are a test agent.", tools=[tool], metadata=spec["metadata"])
            keep(session.send("What is 42 USD with tax?", on_event=on_event))
            keep(session.send("And 43 USD?", on_event=on_event))
            session.end()
        else:
            raise SystemExit(f"unknown flow {flow!r}")
        observed["outcome"] = "returned"
    except Exception as e:  # noqa: BLE001 - what the SDK raised is the observation
        observed["outcome"] = "raised"
        observed["error"] = {"type": type(e).__name__, "message": str(e), "subtype": getattr(e, "subtype", None)}
    finally:
        client.close()
        http.close()
    observed["sleeps"] = clock.sleeps
    print(json.dumps(observed), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
