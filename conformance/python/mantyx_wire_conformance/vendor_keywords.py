"""The suite's vendor keywords (schema/CONVENTIONS.md, "Vendor keywords") as
jsonschema keyword functions, so the reference validator gives the tagged
cases their verdicts instead of skipping them. Each follows the generated
TypeScript validators (generator/keywords/): a keyword applies to the JSON
types it names and ignores others."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, Callable, Iterator

from jsonschema import ValidationError


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def utf8_bytes(s: str) -> int:
    # A lone surrogate (JSON allows "\ud800") is sent as U+FFFD: 3 bytes, as surrogatepass counts it.
    return len(s.encode("utf-8", "surrogatepass"))


def js_number(x: float) -> str:
    """JavaScript's Number#toString of a finite number (JSON.stringify's form)."""
    if math.isnan(x) or math.isinf(x):
        return "null"
    if x == 0:
        return "0"
    sign, digits, exponent = Decimal(repr(float(x))).normalize().as_tuple()
    d = "".join(map(str, digits))
    k, n = len(d), int(exponent) + len(d)
    out = "-" if sign else ""
    if k <= n <= 21:
        return out + d + "0" * (n - k)
    if 0 < n <= 21:
        return out + d[:n] + "." + d[n:]
    if -6 < n <= 0:
        return out + "0." + "0" * -n + d
    mantissa = d[0] + ("." + d[1:] if k > 1 else "")
    return f"{out}{mantissa}e{'+' if n - 1 >= 0 else '-'}{abs(n - 1)}"


def _quoted_bytes(s: str) -> int:
    n = 2
    for ch in s:
        c = ord(ch)
        if ch in '"\\\b\f\n\r\t':
            n += 2
        elif c < 0x20 or 0xD800 <= c <= 0xDFFF:
            n += 6  # control characters and lone surrogates are \u escapes
        else:
            n += len(ch.encode("utf-8"))
    return n


def json_bytes(v: Any) -> int:
    """The UTF-8 length of JSON.stringify(v)."""
    if v is None or v is True:
        return 4
    if v is False:
        return 5
    if isinstance(v, int):
        return len(str(v)) if abs(v) < 10**21 else len(js_number(float(v)))
    if isinstance(v, float):
        return len(js_number(v))
    if isinstance(v, str):
        return _quoted_bytes(v)
    if isinstance(v, list):
        return 2 + max(len(v) - 1, 0) + sum(json_bytes(x) for x in v)
    if isinstance(v, dict):
        return 2 + max(len(v) - 1, 0) + sum(_quoted_bytes(k) + 1 + json_bytes(x) for k, x in v.items())
    return 0


def _base64_total(v: Any, path: list[str]) -> int:
    if not path:
        if not isinstance(v, str):
            return 0
        n = len(v.encode("utf-16-le", "surrogatepass")) // 2  # JavaScript's length
        total = n * 3 // 4
        if n % 4 == 0 and n > 0 and v.endswith("="):
            total -= 2 if v.endswith("==") else 1
        return total
    head, rest = path[0], path[1:]
    if head == "*":
        items = v if isinstance(v, list) else list(v.values()) if isinstance(v, dict) else []
        return sum(_base64_total(x, rest) for x in items)
    return _base64_total(v[head], rest) if isinstance(v, dict) and head in v else 0


def _js_same(a: Any, b: Any) -> bool:
    if _number(a) and _number(b):
        return a == b
    return type(a) is type(b) and a == b


Keyword = Callable[[Any, Any, Any, Any], Iterator[ValidationError]]


def _max_utf8_bytes(validator: Any, limit: int, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if isinstance(instance, str) and utf8_bytes(instance) > limit:
        yield ValidationError(f"must be at most {limit} bytes as UTF-8 (is {utf8_bytes(instance)})")


def _max_json_bytes(validator: Any, limit: int, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if json_bytes(instance) > limit:
        yield ValidationError(f"must be at most {limit} bytes as JSON (is {json_bytes(instance)})")


def _max_base64_bytes_total(validator: Any, spec: dict[str, Any], instance: Any, schema: Any) -> Iterator[ValidationError]:
    if isinstance(instance, (list, dict)):
        total = _base64_total(instance, list(spec["path"]))
        if total > spec["max"]:
            yield ValidationError(f"must have at most {spec['max']} base64-decoded bytes in total at {'/'.join(spec['path'])} (is {total})")


_BASE64_COMMON = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_BASE64_ALPHABETS = {"standard": _BASE64_COMMON | {"+", "/"}, "url": _BASE64_COMMON | {"-", "_"}}


def base64_problem(s: str, alphabet: str, padding: str) -> str:
    """What makes ``s`` not base64 as x-base64 reads RFC 4648; "" when it is."""
    end = len(s)
    for _ in range(2):
        if end > 0 and s[end - 1] == "=":
            end -= 1
    chars = _BASE64_ALPHABETS[alphabet]
    for i in range(end):
        if s[i] not in chars:
            return f"character {i} is outside the alphabet"
    if end % 4 == 1:
        return "a length no base64 string has"
    if end != len(s) and len(s) % 4 != 0:
        return "padding that does not complete a group of 4"
    if padding == "required" and len(s) % 4 != 0:
        return "no padding"
    if padding == "forbidden" and end != len(s):
        return "padding, which is forbidden here"
    return ""


def _base64(validator: Any, spec: dict[str, str], instance: Any, schema: Any) -> Iterator[ValidationError]:
    if isinstance(instance, str):
        problem = base64_problem(instance, spec["alphabet"], spec["padding"])
        if problem:
            yield ValidationError(f"must be base64 (RFC 4648): {problem}")


def _pairs(greater: bool) -> Keyword:
    def check(validator: Any, pairs: list[dict[str, str]], instance: Any, schema: Any) -> Iterator[ValidationError]:
        if not isinstance(instance, dict):
            return
        for p in pairs:
            a, b = instance.get(p["property"]), instance.get(p["than"])
            if _number(a) and _number(b) and (a > b) != greater:
                yield ValidationError(f"{p['property']} ({a}) against {p['than']} ({b}) breaks {'x-greater-than' if greater else 'x-not-greater-than'}")

    return check


def _equal_properties(validator: Any, pairs: list[dict[str, str]], instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not isinstance(instance, dict):
        return
    for p in pairs:
        if p["property"] in instance and p["equals"] in instance:
            a, b = instance[p["property"]], instance[p["equals"]]
            if not isinstance(a, (dict, list)) and not isinstance(b, (dict, list)) and not _js_same(a, b):
                yield ValidationError(f"must have {p['property']} equal to {p['equals']}")


def _last_non_system_role(validator: Any, role: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not isinstance(instance, list):
        return
    last = None
    for item in reversed(instance):
        item_role = item.get("role") if isinstance(item, dict) else None
        if item_role != "system":
            last = item_role
            break
    if not (isinstance(last, str) and last == role):
        yield ValidationError(f"must have role {role!r} on the last non-system item (is {last!r})")


def _property_only_on_last_role(validator: Any, spec: dict[str, str], instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not isinstance(instance, list):
        return
    seen_last = False
    for i in range(len(instance) - 1, -1, -1):
        item = instance[i]
        if not isinstance(item, dict):
            continue
        is_last = not seen_last and item.get("role") == spec["role"]
        if spec["property"] in item and not is_last:
            yield ValidationError(f"must carry {spec['property']} only on the last item with role {spec['role']} (item {i} has it)")
            return
        seen_last = seen_last or is_last


VENDOR_KEYWORDS: dict[str, Keyword] = {
    "x-max-utf8-bytes": _max_utf8_bytes,
    "x-max-json-bytes": _max_json_bytes,
    "x-max-base64-bytes-total": _max_base64_bytes_total,
    "x-base64": _base64,
    "x-greater-than": _pairs(True),
    "x-not-greater-than": _pairs(False),
    "x-equal-properties": _equal_properties,
    "x-last-non-system-role": _last_non_system_role,
    "x-property-only-on-last-role": _property_only_on_last_role,
}
