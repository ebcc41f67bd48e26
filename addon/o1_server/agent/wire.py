"""Reading what a client (or generated code) sends: JSON and access tokens, with one way of failing.

Every transport parses untrusted JSON with :func:`loads` (the HTTP API's bodies, Wyoming event headers and data,
01 WebSocket text frames, requests on the Home Assistant broker socket) and compares tokens with
:func:`token_matches` (the HTTP API's bearer header, the 01 socket's query, headers and ``{"auth"}`` frame).
Whatever the bytes, these raise nothing but ``ValueError`` (or return False): Python's own ``json.loads`` raises
``RecursionError`` for ``[[[[...`` nested about a thousand deep, and ``str.encode`` raises ``UnicodeEncodeError``
for a header holding bytes that are not UTF-8 (aiohttp keeps them as lone surrogates) or a JSON string holding
``"\\ud800"``; before these helpers such input ended a connection with a traceback or answered HTTP 500.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterable
from typing import Any

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted in a client's JSON (real messages nest a few levels)."""


def loads(data: str | bytes | bytearray, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` for untrusted input. Raises ValueError (only) for text that is not JSON, bytes that are
    not UTF-8, or arrays and objects nested deeper than ``max_depth``."""
    try:
        value = json.loads(data)
    except RecursionError:
        raise ValueError(f"JSON nested deeper than {max_depth} levels") from None
    stack = [(value, 1)]
    while stack:  # iterative: the check itself must not recurse
        item, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > max_depth:
            raise ValueError(f"JSON nested deeper than {max_depth} levels")
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return value


def token_matches(given: Any, token: str) -> bool:
    """Whether ``given`` (from a header, a query or a JSON frame: any string, lone surrogates included, or any
    other value) is ``token``, compared in constant time."""
    if not isinstance(given, str) or not token:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), token.encode("utf-8", "surrogatepass"))
