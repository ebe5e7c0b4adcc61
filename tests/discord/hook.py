"""The fakes' side of the contract: turn what each fake receives into a :class:`~tests.discord.contract.Request`.

The in-process harness sees discord.py's own calls (``HTTPClient.request`` and the webhook adapter's
``request``: a route with the concrete URL, ``json``/``payload``, or a multipart ``form``/``multipart`` list
and the ``files``); the loopback server sees real HTTP requests. Either way the contract gets the same request.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from tests.discord.contract import Request, Upload

API = "/api/v10"


def api_path(url_or_path: str) -> str:
    """The path after ``/api/v10`` (no query)."""
    path = urlsplit(url_or_path).path
    return path[path.index(API) + len(API):] if API in path else path


def _size(fp) -> int:
    pos = fp.tell()
    fp.seek(0, 2)
    size = fp.tell()
    fp.seek(pos)
    return size


def from_discord_py(route, *, json_body: Any = None, parts: list[dict] | None = None, files=None,
                    params: dict | None = None) -> Request:
    """A request as discord.py hands it to its HTTP layer (``parts``: the multipart form, if any)."""
    body = json_body
    uploads = []
    sizes = [_size(f.fp) for f in files or []]
    for part in parts or []:
        if part.get("name") == "payload_json":
            body = json.loads(part["value"])
        elif part.get("filename") is not None:
            index = len(uploads)
            uploads.append(Upload(part["name"], part["filename"], sizes[index] if index < len(sizes) else 0))
    query = {k: v for k, v in (params or {}).items() if v is not None}
    return Request(route.method, api_path(route.url), query, body, uploads, multipart=parts is not None)


def from_http(method: str, path: str, query: dict[str, str], body: Any, uploads: list[tuple[str, str, int]],
              multipart: bool) -> Request:
    """A request as the loopback server received it (``uploads``: (part name, filename, bytes))."""
    return Request(method, api_path(path), dict(query), body, [Upload(*u) for u in uploads], multipart)
