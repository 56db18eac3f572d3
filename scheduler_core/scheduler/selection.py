"""Choosing the node among the highest scores (schedule_one.go selectHost).

Upstream keeps the first highest-scoring node and replaces it with each later one of the same
score with probability 1/(number seen so far): every tied node is equally likely. Here the draws
come from the scheduler's seeded generator, so a scenario and seed replay the same choice.
"""

import random


def select_index(totals: list[int], rng: random.Random) -> int:
    """select_host's reservoir sampling over totals, drawing exactly what rng.randrange would."""
    best = totals[0]
    chosen = 0
    tied = 1
    if type(rng) is random.Random:
        getrandbits = rng.getrandbits
        bits = 1  # tied.bit_length(), kept up to date
        power = 2  # 2**bits
        for index in range(1, len(totals)):
            total = totals[index]
            if total < best:
                continue
            if total > best:
                best, chosen, tied, bits, power = total, index, 1, 1, 2
                continue
            tied += 1
            if tied == power:
                bits += 1
                power <<= 1
            # Random._randbelow_with_getrandbits(tied), which randrange(tied) is.
            drawn = getrandbits(bits)
            while drawn >= tied:
                drawn = getrandbits(bits)
            if drawn == 0:
                chosen = index
        return chosen
    for index in range(1, len(totals)):
        total = totals[index]
        if total > best:
            best, chosen, tied = total, index, 1
        elif total == best:
            tied += 1
            if rng.randrange(tied) == 0:
                chosen = index
    return chosen
