"""The official SDK's validating parts against the suite's strict message cases.

The SDK has no validators for what it reads (its models are TypedDicts,
which check nothing at run time). What it checks is what it sends: the
``normalize_*`` functions in ``mantyx.tools`` that every run, session
and message body goes through, and the tool-name check of
``define_local_tool``. Each is given the strict cases of the component it
produces. A case passes when the SDK's verdict is the suite's: it accepts
a valid value and sends it unchanged (what it returns is what goes on the
wire), and it raises on an invalid one. Accepting an invalid value is
reported apart (``gap``) from refusing a valid one or dropping a documented
field from it (``fail``): the first leaves the check to the server, the
second stops or changes a request the server would take. Dropping a field
the schema only lets through (an unknown one) is ``differs``: the SDK's
typed arguments have no such field, so nothing a caller meant is lost.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import suite


def _tool_name(tools: Any) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        return tools.define_local_tool(name=value, execute=lambda _args: "").name

    return check


def checks(tools: Any) -> dict[str, tuple[str, Callable[[Any], Any]]]:
    """Suite component -> (the SDK function, called with the value)."""
    return {
        "Supervisor": ("normalize_supervisor", tools.normalize_supervisor),
        "LoopDetection": ("normalize_loop_detection", tools.normalize_loop_detection),
        "ToolBudgets": ("normalize_tool_budgets", tools.normalize_tool_budgets),
        "Plan": ("normalize_plan", tools.normalize_plan),
        "OutputSchema": ("normalize_output_schema", tools.normalize_output_schema),
        "ReasoningLevel": ("normalize_reasoning_level", tools.normalize_reasoning_level),
        "ToolName": ("define_local_tool(name=…)", _tool_name(tools)),
    }


def documented_properties(component: str) -> set[str]:
    """The property names the strict schema of ``component`` lists (through its oneOf/anyOf branches and $refs)."""
    schemas = suite.load_json("schema.json")["components"]["schemas"]
    names: set[str] = set()
    todo, seen = [schemas[component]], set()
    while todo:
        node = todo.pop()
        if "$ref" in node:
            ref = node["$ref"].split("/")[-1]
            if ref not in seen:
                seen.add(ref)
                todo.append(schemas[ref])
            continue
        names.update(node.get("properties", {}))
        todo.extend(b for key in ("oneOf", "anyOf", "allOf") for b in node.get(key, []) if isinstance(b, dict))
    return names


def _dropped(data: Any, sent: Any) -> list[str]:
    if isinstance(data, dict) and isinstance(sent, dict):
        return sorted(k for k in data if k not in sent)
    return []


def validating_rows(tools: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for component, (fn_name, fn) in checks(tools).items():
        documented = documented_properties(component)
        file = f"messages/{component}.json"
        for group in suite.load_json(file):
            if group["schema"] != f"#/components/schemas/{component}":
                continue
            for test in group["tests"]:
                if test["tier"] != "strict":
                    continue
                rows.append(_row(component, fn_name, fn, suite.case_id(file, test["description"]), test, documented))
    return rows


def _row(component: str, fn_name: str, fn: Callable[[Any], Any], cid: str, test: dict[str, Any], documented: set[str]) -> dict[str, Any]:
    data = test["data"]
    try:
        sent = fn(json.loads(json.dumps(data)))  # a copy: the SDK may not see the case's own object
        raised = None
    except Exception as e:  # noqa: BLE001 - a raise is the SDK's "invalid"
        sent, raised = None, f"{type(e).__name__}: {e}"
    if test["valid"]:
        if raised is not None:
            verdict, reason = "fail", f"refuses a valid value: {raised}"
        elif sent != data:
            dropped = _dropped(data, sent)
            known = [k for k in dropped if k in documented]
            if known:
                verdict, reason = "fail", f"drops the documented field {', '.join(known)} from a valid value (sends {json.dumps(sent)[:100]})"
            elif dropped:
                verdict, reason = "differs", f"drops the unknown field {', '.join(dropped)} the schema lets through"
            else:
                verdict, reason = "fail", f"changes a valid value: sends {json.dumps(sent)[:120]} for {json.dumps(data)[:120]}"
        else:
            verdict, reason = "pass", "accepts it, sends it unchanged"
    elif raised is not None:
        verdict, reason = "pass", f"rejects it ({raised[:100]})"
    else:
        broken = f"breaks {test.get('rule')}{' at ' + test['path'] if test.get('path') else ''}"
        dropped = _dropped(data, sent)
        if dropped:
            verdict, reason = "gap", f"accepts an invalid value ({broken}) and sends it without {', '.join(dropped)}"
        else:
            verdict, reason = "gap", f"accepts an invalid value ({broken}); left to the server's 400"
    return {"part": f"validating parts ({fn_name})", "id": cid, "component": component, "verdict": verdict, "reason": reason}
