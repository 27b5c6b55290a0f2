"""Agent Lightning 0.3's own store client, pointed at Lightgate with an API key.

Lightgate answers every store call without a key with 401, and `LightningStoreClient` sends none: it builds its own
aiohttp session per event loop. `LightgateStoreClient` adds the key there. It is a module-level class, so the
Trainer can hand it to runner subprocesses (fork or spawn): the key is read again from the environment there.

The tracer's spans do not go through this client: they leave through OpenTelemetry's OTLP exporter, which reads
its endpoint and headers from the environment when each runner builds it. `configure_otlp` sets those.
"""

from __future__ import annotations

import os
from urllib.parse import quote

import aiohttp
from agentlightning.store.client_server import LightningStoreClient

KEY_ENV = "LIGHTGATE_API_KEY"


def lightgate_key() -> str:
    key = os.environ.get(KEY_ENV, "").strip()
    if not key:
        raise SystemExit(f"{KEY_ENV} is not set: create one with `npm run apikey -- create --role algorithm` (see README.md)")
    return key


class LightgateStoreClient(LightningStoreClient):
    """`LightningStoreClient` that sends `Authorization: Bearer $LIGHTGATE_API_KEY` on every request."""

    async def _get_session(self) -> aiohttp.ClientSession:
        session = await super()._get_session()
        session.headers["Authorization"] = f"Bearer {lightgate_key()}"
        return session


def configure_otlp(lightgate_url: str) -> None:
    """Send the runners' spans (rewards included) to Lightgate's OTLP endpoint, with the key.

    Agent Lightning 0.3.1 points its exporter at `store.otlp_traces_endpoint()` by rewriting a private field
    (`enable_store_otlp`); the OTLP/HTTP exporter of opentelemetry 1.45 no longer reads that field, so without these
    variables every span goes to the exporter's default, http://localhost:4318/v1/traces, and the rollouts reach
    Lightgate without their rewards. Variables already set win (a collector in between, say).
    """
    os.environ.setdefault("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", lightgate_url.rstrip("/") + "/v1/traces")
    # The header list is W3C-baggage encoded: the space after "Bearer" is %20.
    os.environ.setdefault("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "Authorization=" + quote(f"Bearer {lightgate_key()}"))
