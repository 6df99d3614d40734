"""The project's own adapters: the reference SSE decoder (sse_decoder.py),
the frame-shape rule (frames.py), Python's jsonschema with the suite's vendor
keywords (vendor_keywords.py) and the transcript rules (transcript_rules.py).
They pass every case. Needs the ``reference`` extra (``jsonschema``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Optional

from jsonschema import Draft202012Validator, validators
from referencing import Registry, Resource

from .frames import typed_event
from .runner import Adapters, Level
from .sse_decoder import decode
from .suite import Suite, load
from .transcript_rules import TranscriptRules
from .vendor_keywords import VENDOR_KEYWORDS

DOCUMENTS = {"strict": "schema.json", "receive": "schema.receive.json"}


def make_validator(suite: Suite, without: Iterable[str] = ()) -> Any:
    """``validate(level, component, instance) -> bool`` over the suite's two schema documents, with the vendor keywords except ``without``."""
    skip = set(without)
    cls = validators.extend(Draft202012Validator, {k: f for k, f in VENDOR_KEYWORDS.items() if k not in skip})
    registries = {}
    for level, file in DOCUMENTS.items():
        doc = suite.read_json(file)
        registries[level] = (doc["$id"], Registry().with_resource(doc["$id"], Resource.from_contents(doc)))

    @lru_cache(maxsize=None)
    def compiled(level: str, component: str) -> Any:
        schema_id, registry = registries[level]
        return cls({"$ref": f"{schema_id}#/components/schemas/{component}"}, registry=registry)

    def validate(level: Level, component: str, instance: Any) -> bool:
        return compiled(level, component).is_valid(instance)

    return validate


def make_transcript_checker(suite: Suite) -> Any:
    rules = TranscriptRules(suite.read_json("schema.json"))
    return lambda transcript: [issue["rule"] for issue in rules.check(transcript)]


def adapters(suite: Optional[Suite] = None) -> Adapters:
    suite = suite if suite is not None else load()
    return Adapters(
        decode_sse=decode,
        decode_event=typed_event,
        validate=make_validator(suite),
        check_transcript=make_transcript_checker(suite),
    )
