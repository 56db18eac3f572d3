"""Generated name suffixes in apimachinery's rand.String alphabet (no vowels, no look-alikes).

The controllers draw theirs from the run's seeded generator (controllers/naming.py). A name an
admission plugin makes up for a pod (the service account token volume's) is instead read off the
run's seed and the pod's namespace and name: it takes no draw from that generator, so every other
name of the run stays as it was, and the same pod gets the same name on every run of the scenario.
"""

import zlib

ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789"
GENERATED_SUFFIX_LENGTH = 5


def seeded_suffix(seed: int, *parts: str, length: int = GENERATED_SUFFIX_LENGTH) -> str:
    """`length` characters of the alphabet, a function of the seed and the parts only. (CRC-32:
    zlib is loaded already, where hashlib would load OpenSSL, 4 MB of a run's memory.)"""
    number = zlib.crc32("\0".join((str(seed), *parts)).encode())
    characters = []
    for _ in range(length):
        number, index = divmod(number, len(ALPHANUMS))
        characters.append(ALPHANUMS[index])
    return "".join(characters)
