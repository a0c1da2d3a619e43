"""What an operator watches, in Prometheus's terms (``prometheus-client``): interactions by kind and
outcome and how soon each was acknowledged, how long an append takes, web requests, and (read when
scraped) the live games and how far the read models are behind the log. ``/metrics`` serves them."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

REGISTRY = CollectorRegistry()
"""This process's metrics (not the client library's global registry: tests start several platforms)."""

INTERACTIONS = Counter(
    "hogbot_interactions",
    "Discord interactions answered, by kind (a button's, or a command's name), game and outcome",
    ["kind", "game", "outcome"],
    registry=REGISTRY,
)
ACKNOWLEDGED = Histogram(
    "hogbot_acknowledgement_seconds",
    "From an interaction's creation to the bot's answer to it, by kind",
    ["kind"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=REGISTRY,
)
APPENDED = Histogram(
    "hogbot_append_seconds",
    "How long storing one command's events takes",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25),
    registry=REGISTRY,
)
WEB_REQUESTS = Counter(
    "hogbot_web_requests", "Web requests, by route and status", ["route", "status"], registry=REGISTRY
)
LIVE_GAMES = Gauge("hogbot_live_games", "Games being played or waiting for an answer", registry=REGISTRY)
LAG = Gauge("hogbot_read_model_lag_events", "Events in the log the read models have not folded yet", registry=REGISTRY)


def exposition() -> bytes:
    """The metrics in Prometheus's text format."""
    return generate_latest(REGISTRY)
