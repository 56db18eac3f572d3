"""Resource amounts written as the API server writes a resource.Quantity (its canonical String()).

The engine keeps amounts as integers (CPU in millicores, everything else in base units), so the
format the user wrote is gone; these helpers pick the one upstream would print for such a value:
CPU as whole cores or millicores ("2", "1500m"); bytes with the largest binary suffix that divides
them ("512Mi", "3584Mi", "1Gi"), else with the largest decimal one ("500M"); counts in decimal SI
("3", "1k"). Amounts the kubelet measures (BinarySI quantities) print with a binary suffix or none.
"""

CPU_RESOURCES = frozenset({"cpu", "requests.cpu", "limits.cpu"})
BYTE_RESOURCES = frozenset(
    {
        "memory",
        "requests.memory",
        "limits.memory",
        "ephemeral-storage",
        "requests.ephemeral-storage",
        "limits.ephemeral-storage",
        "storage",
        "requests.storage",
    }
)
_BINARY = (("Ei", 2**60), ("Pi", 2**50), ("Ti", 2**40), ("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10))
_DECIMAL = (("E", 10**18), ("P", 10**15), ("T", 10**12), ("G", 10**9), ("M", 10**6), ("k", 10**3))


def format_decimal_si(amount: int) -> str:
    """A DecimalSI quantity: the largest power-of-1000 suffix that leaves a whole number."""
    if amount == 0:
        return "0"
    for suffix, factor in _DECIMAL:
        if amount % factor == 0:
            return f"{amount // factor}{suffix}"
    return str(amount)


def format_binary_si(amount: int) -> str:
    """A BinarySI quantity: the largest power-of-1024 suffix that leaves a whole number, else none."""
    if amount == 0:
        return "0"
    for suffix, factor in _BINARY:
        if amount % factor == 0:
            return f"{amount // factor}{suffix}"
    return str(amount)


def format_milli_cpu(millicores: int) -> str:
    """CPU: whole cores when exact ("2"), otherwise millicores ("500m")."""
    if millicores % 1000 == 0:
        return format_decimal_si(millicores // 1000)
    return f"{millicores}m"


def format_bytes(amount: int) -> str:
    """Bytes as a user most likely wrote them: binary when exact in Ki or above, else decimal SI."""
    if amount != 0 and amount % 1024 == 0:
        return format_binary_si(amount)
    return format_decimal_si(amount)


def is_cpu(name: str) -> bool:
    return name in CPU_RESOURCES


def format_quantity(name: str, amount: int) -> str:
    """An amount of the named resource (cpu, requests.memory, pods, count/...)."""
    if is_cpu(name):
        return format_milli_cpu(amount)
    if name in BYTE_RESOURCES or name.startswith(("hugepages-", "requests.hugepages-")):
        return format_bytes(amount)
    return format_decimal_si(amount)
