"""Typed readers for settings that come from the environment."""

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def envbool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean: use one of 1/0, true/false, yes/no, on/off.")


def envint(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer.") from None


def envstr(name: str, default: str) -> str:
    return os.environ.get(name, default)


def envlist(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def envsecret(name: str, *, required: bool, fallback: str) -> str:
    """A secret from the environment; ``required`` makes its absence a clear start-up error."""
    value = os.environ.get(name, "")
    if value:
        return value
    if required:
        raise ImproperlyConfigured(
            f"{name} is not set. With DEBUG off the app needs a secret from the environment: "
            f"export {name}=<a long random string> (`make run` creates one in var/secret_key), "
            "or set DEBUG=1 for local development."
        )
    return fallback
