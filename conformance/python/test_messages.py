"""Message cases through Python's JSON Schema 2020-12 validator (jsonschema).

A plain validator knows no vendor keyword, so a case tagged with one
(``x-max-json-bytes``, ...) is skipped and counted. Every other case must get
its expected verdict: a ``receive`` case against schema.receive.json (the
receive level), a ``strict`` case against schema.json.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from importlib.metadata import version

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

import suite
from conftest import record, take_tier

AREA = f"messages (jsonschema {version('jsonschema')})"

KNOWN = suite.known_failures()


@cache
def document(name: str) -> tuple[str, Registry]:
    schema = suite.load_json(name)
    return schema["$id"], Registry().with_resource(schema["$id"], Resource.from_contents(schema))


@cache
def validator(tier: str, pointer: str) -> Draft202012Validator:
    schema_id, registry = document(suite.schema_document(tier))
    return Draft202012Validator({"$ref": schema_id + pointer}, registry=registry)


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
    take_tier(AREA, test["tier"])
    vendor = [t for t in test.get("tags", []) if t.startswith("x-")]
    if vendor:
        record(AREA, "skipped", "vendor keyword " + "/".join(vendor))
        pytest.skip(f"depends on {', '.join(vendor)}, which a plain JSON Schema validator does not implement")
    record(AREA, "ran")
    errors = list(validator(test["tier"], pointer).iter_errors(test["data"]))
    if test["valid"]:
        assert errors == [], f"expected valid; {[e.message for e in errors][:3]}"
    else:
        assert errors != [], f"expected invalid ({test.get('rule')} at {test.get('path', '?')})"
