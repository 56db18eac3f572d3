"""Kubernetes resource quantities ("500m", "1.5", "128Mi", "1G", "2e3"), parsed exactly.

Follows k8s.io/apimachinery/pkg/api/resource/quantity.go: a signed decimal number followed by a
binary-SI suffix (Ki..Ei), a decimal-SI suffix (n, u, m, "", k, M..E) or a decimal exponent (e3).
The scheduler reads CPU as MilliValue() and everything else as Value(); both round up (away from
zero), which is why a request of "0.1m" CPU counts as 1 millicore.
"""

import functools
import math
import re
from collections.abc import Mapping
from fractions import Fraction

from scheduler_core.api.errors import QuantityError

# Upstream's own wording for a malformed quantity (quantity.go, ErrFormatWrong).
FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
NUMERIC_ERROR = "unable to parse numeric part of quantity"
SUFFIX_ERROR = "unable to parse quantity's suffix"

_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_SHAPE = re.compile(r"^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$")
_EXPONENT = re.compile(r"^[eE]([+-]?[0-9]+)$")
# Bounds keep hostile input ("1e99999999") from costing unbounded time or memory; real manifests
# never come near them.
MAX_QUANTITY_LENGTH = 64
MAX_EXPONENT = 64


def parse_quantity(text: str | int | float) -> Fraction:
    """The exact value of a quantity. Raises QuantityError with upstream's wording."""
    if isinstance(text, bool):
        raise QuantityError(FORMAT_ERROR)
    if isinstance(text, int):
        if abs(text) >= 10**MAX_QUANTITY_LENGTH:  # as long a number as a quantity string may be
            raise QuantityError(FORMAT_ERROR)
        return Fraction(text)
    if isinstance(text, float):
        if not math.isfinite(text):
            raise QuantityError(FORMAT_ERROR)
        # YAML turns "0.5" (unquoted) into a float; its shortest repr is what the user wrote.
        text = repr(text)
    if not isinstance(text, str):
        raise QuantityError(FORMAT_ERROR)
    text = text.strip()
    if not text or len(text) > MAX_QUANTITY_LENGTH:
        raise QuantityError(FORMAT_ERROR)
    match = _SHAPE.match(text)
    if match is None:
        raise QuantityError(FORMAT_ERROR)
    sign, whole, fraction, suffix = match.groups()
    fraction = fraction or ""
    if not whole and not fraction:
        raise QuantityError(FORMAT_ERROR if not suffix or not suffix[0].isdigit() else NUMERIC_ERROR)
    number = Fraction(int(whole or "0")) + (Fraction(int(fraction), 10 ** len(fraction)) if fraction else 0)
    if sign == "-":
        number = -number
    return number * _suffix_multiplier(suffix)


def _suffix_multiplier(suffix: str) -> Fraction:
    if suffix in _BINARY:
        return Fraction(_BINARY[suffix])
    if suffix in _DECIMAL:
        return Fraction(10) ** _DECIMAL[suffix]
    exponent = _EXPONENT.match(suffix)
    if exponent is None:
        raise QuantityError(FORMAT_ERROR if not re.fullmatch(r"[eEinumkKMGTP]*[-+]?[0-9]*", suffix) else SUFFIX_ERROR)
    power = int(exponent.group(1))
    if abs(power) > MAX_EXPONENT:
        raise QuantityError(NUMERIC_ERROR)
    return Fraction(10) ** power


def _round_up(value: Fraction) -> int:
    """Upstream's Value()/MilliValue() round away from zero."""
    return math.ceil(value) if value >= 0 else math.floor(value)


def milli_value(text: str | int | float) -> int:
    """Quantity times 1000, rounded up: how the scheduler reads CPU."""
    return _remembered(text, 1000) if isinstance(text, str | int | float) else _round_up(parse_quantity(text) * 1000)


def value(text: str | int | float) -> int:
    """Quantity rounded up to an integer: how the scheduler reads memory, storage, pods, extended resources."""
    return _remembered(text, 1) if isinstance(text, str | int | float) else _round_up(parse_quantity(text))


# A workload repeats a few quantities ("250m", "512Mi") across thousands of pods, exact Fractions are
# slow to build, and a quantity's value never changes. typed: 1, 1.0 and True hash alike.
@functools.lru_cache(maxsize=4096, typed=True)
def _remembered(text: str | int | float, scale: int) -> int:
    return _round_up(parse_quantity(text) * scale)


# ---------------------------------------------------------------------------- printing
# The engine keeps amounts as integers (CPU in millicores, everything else in base units), so the
# format the user wrote is gone; these print the one upstream would for such a value, its canonical
# String(): CPU as whole cores or millicores ("2", "1500m"); bytes with the largest binary suffix that
# divides them ("512Mi", "3584Mi", "1Gi"), else with the largest decimal one ("500M"); counts in
# decimal SI ("3", "1k"). Amounts the kubelet measures (BinarySI) print with a binary suffix or none.
# static/js/node-usage.js prints the board's bars by the same rules (a browser test compares them).

CPU_RESOURCES = frozenset({"cpu", "requests.cpu", "limits.cpu"})
BYTE_RESOURCES = frozenset(
    {
        "memory", "requests.memory", "limits.memory", "ephemeral-storage", "requests.ephemeral-storage",
        "limits.ephemeral-storage", "storage", "requests.storage",
    }
)  # fmt: skip
_BINARY_LARGEST_FIRST = sorted(_BINARY.items(), key=lambda item: -item[1])
_DECIMAL_LARGEST_FIRST = [(suffix, 10**power) for suffix, power in _DECIMAL.items() if power >= 3][::-1]


def format_decimal_si(amount: int) -> str:
    """A DecimalSI quantity: the largest power-of-1000 suffix that leaves a whole number."""
    for suffix, factor in _DECIMAL_LARGEST_FIRST:
        if amount and amount % factor == 0:
            return f"{amount // factor}{suffix}"
    return str(amount)


def format_binary_si(amount: int) -> str:
    """A BinarySI quantity: the largest power-of-1024 suffix that leaves a whole number, else none."""
    for suffix, factor in _BINARY_LARGEST_FIRST:
        if amount and amount % factor == 0:
            return f"{amount // factor}{suffix}"
    return str(amount)


def format_milli_cpu(millicores: int) -> str:
    """CPU: whole cores when exact ("2"), otherwise millicores ("500m")."""
    return format_decimal_si(millicores // 1000) if millicores % 1000 == 0 else f"{millicores}m"


def format_bytes(amount: int) -> str:
    """Bytes as a user most likely wrote them: binary when exact in Ki or above, else decimal SI."""
    return format_binary_si(amount) if amount and amount % 1024 == 0 else format_decimal_si(amount)


def format_quantity(name: str, amount: int) -> str:
    """An amount of the named resource (cpu, requests.memory, pods, count/...)."""
    if name in CPU_RESOURCES:
        return format_milli_cpu(amount)
    if name in BYTE_RESOURCES or name.startswith(("hugepages-", "requests.hugepages-")):
        return format_bytes(amount)
    return format_decimal_si(amount)


def add_amounts(total: dict[str, int], amounts: Mapping[str, int]) -> None:
    """Adds each resource's amount to the running total (a pod's containers summed)."""
    for name, amount in amounts.items():
        total[name] = total.get(name, 0) + amount


def keep_max_amounts(total: dict[str, int], amounts: Mapping[str, int]) -> None:
    """Raises each resource's total to the amount when larger (init containers' peak)."""
    for name, amount in amounts.items():
        if name not in total or amount > total[name]:
            total[name] = amount
