"""Message cases through Python's JSON Schema 2020-12 validator (jsonschema).

A plain validator knows no vendor keyword, so a case tagged with one
(``x-max-json-bytes``, ...) is skipped and counted. Every other case must get
its expected verdict.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from importlib.metadata import version

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

import suite
from conftest import record

AREA = f"messages (jsonschema {version('jsonschema')})"

SCHEMA = suite.load_json("schema.json")
REGISTRY = Registry().with_resource(SCHEMA["$id"], Resource.from_contents(SCHEMA))
KNOWN = suite.known_failures()


@cache
def validator(pointer: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": SCHEMA["$id"] + pointer}, registry=REGISTRY)


def cases() -> list[Any]:
    out = []
    for file in suite.files("messages/"):
        for group in suite.load_json(file):
            for test in group["tests"]:
                cid = suite.case_id(file, test["description"])
                marks = [pytest.mark.xfail(strict=True, reason="known failure")] if cid in KNOWN else []
                out.append(pytest.param(group["schema"], test, id=cid, marks=marks))
    return out


@pytest.mark.parametrize(("pointer", "test"), cases())
def test_message(pointer: str, test: dict[str, Any]) -> None:
    vendor = [t for t in test.get("tags", []) if t.startswith("x-")]
    if vendor:
        record(AREA, "skipped", "vendor keyword " + "/".join(vendor))
        pytest.skip(f"depends on {', '.join(vendor)}, which a plain JSON Schema validator does not implement")
    record(AREA, "ran")
    errors = list(validator(pointer).iter_errors(test["data"]))
    if test["valid"]:
        assert errors == [], f"expected valid; {[e.message for e in errors][:3]}"
    else:
        assert errors != [], f"expected invalid ({test.get('rule')} at {test.get('path', '?')})"
