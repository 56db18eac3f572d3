"""How many websockets this process holds, in all and per client, so that no one client (and no
crowd) can make it hold an unbounded number of them, each with its send window.

Counts only: a connection is admitted (counted) before it is accepted and released when it ends,
so nothing of a closed connection stays here. Per process, like the rate limits' default cache.
"""

from dataclasses import dataclass, field


@dataclass
class ConnectionCaps:
    total: int = 0
    per_client: dict[str, int] = field(default_factory=dict)

    def admit(self, client: str | None, max_total: int, max_per_client: int) -> str | None:
        """Counts a new connection of `client` (None: not counted per client), or says why not."""
        if self.total >= max_total:
            return f"the server holds its maximum of {max_total} live connections: try again later"
        if client is not None:
            if self.per_client.get(client, 0) >= max_per_client:
                return f"too many live connections from your address (at most {max_per_client}): close a tab"
            self.per_client[client] = self.per_client.get(client, 0) + 1
        self.total += 1
        return None

    def release(self, client: str | None) -> None:
        self.total -= 1
        if client is not None:
            remaining = self.per_client.pop(client) - 1
            if remaining:
                self.per_client[client] = remaining
