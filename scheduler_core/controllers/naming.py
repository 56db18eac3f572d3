"""Names controllers give the objects they create, as upstream does.

Generated suffixes use apimachinery's rand.String alphabet (no vowels, no look-alikes), drawn from
the run's seeded generator; a pod template's hash is FNV-32a over its content, rendered with
rand.SafeEncodeString, as the Deployment and DaemonSet controllers label their pods.
"""

import json
import random
from typing import Any

from scheduler_core.api.generated_names import ALPHANUMS, GENERATED_SUFFIX_LENGTH
from scheduler_core.api.types import HASHED_WHEN_SET_KEY

MAX_GENERATED_NAME_LENGTH = 63 - GENERATED_SUFFIX_LENGTH


def generated_suffix(rng: random.Random, length: int = GENERATED_SUFFIX_LENGTH) -> str:
    return "".join(rng.choice(ALPHANUMS) for _ in range(length))


def generate_name(prefix: str, rng: random.Random) -> str:
    """metadata.generateName: the prefix (cut to fit) plus five random characters."""
    return prefix[:MAX_GENERATED_NAME_LENGTH] + generated_suffix(rng)


def fnv32a(data: bytes) -> int:
    value = 0x811C9DC5
    for byte in data:
        value ^= byte
        value = (value * 0x01000193) & 0xFFFFFFFF
    return value


def safe_encode(value: str) -> str:
    """rand.SafeEncodeString: every character mapped into the vowel-free alphabet."""
    return "".join(ALPHANUMS[ord(char) % len(ALPHANUMS)] for char in value)


def template_hash(template: Any, collision_count: int = 0) -> str:
    """ComputeHash: a stable hash of the pod template (and the collision count), as a short label value."""
    content = json.dumps(_plain(template), sort_keys=True, separators=(",", ":")).encode()
    if collision_count:
        content += str(collision_count).encode()
    return safe_encode(str(fnv32a(content)))


def _plain(value: Any) -> Any:
    """Dataclasses, mappings and tuples to JSON-able data, for hashing. A dataclass' derived fields
    (init=False, such as a requirement's value set) are not content: the hash leaves them out, and
    a field marked HASHED_WHEN_SET only counts when it is not at its default."""
    if hasattr(value, "__dataclass_fields__"):
        return {
            name: _plain(getattr(value, name))
            for name, spec in value.__dataclass_fields__.items()
            if spec.init and not (spec.metadata.get(HASHED_WHEN_SET_KEY) and getattr(value, name) == spec.default)
        }
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
