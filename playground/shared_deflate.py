"""permessage-deflate (RFC 7692) for the server's messages, compressed once for every viewer.

A run's batch of events goes to each of its viewers with only its first few bytes different (the
flow-control mark, playground/send_window.py). autobahn keeps a zlib stream per connection, so 200
viewers meant deflating the same 512 KiB 200 times: measured with py-spy on the load harness
(tests/load/harness.py), a quarter of the server's time was `compress_message_data`.

Here a message is deflated without context takeover, as two raw deflate segments: its first
HEAD_BYTES as a stored block, then the rest from a fresh compressor ended by a sync flush. Both end
on a byte boundary with non-final blocks, and a fresh compressor never refers back before its own
start, so the concatenation is one valid deflate stream for the client whatever window it keeps;
the final 00 00 ff ff is dropped as the RFC says. The rest of a large message is looked up in a
small cache of recent ones (keyed by its bytes and the connection's window and memory level), so a
broadcast deflates its shared part once. The connection keeps no zlib state between messages.

Only the server-to-client direction changes; what clients send is inflated by autobahn as before.
Twisted calls sendMessage on its reactor thread only, so the cache needs no lock.
"""

import zlib
from collections import OrderedDict
from typing import Any

from autobahn.websocket.compress import PerMessageDeflate

HEAD_BYTES = 64  # the per-viewer part of a frame (its mark) lies within this
SHARED_MIN_BYTES = 8 * 1024  # smaller messages are not worth caching
CACHE_ENTRIES = 8  # a broadcast reaches its viewers in one go: a few recent messages suffice
SYNC_TRAILER = b"\x00\x00\xff\xff"


def deflate_segment(data: bytes, window_bits: int, mem_level: int) -> bytes:
    """`data` as raw deflate blocks, ending with a sync flush (its 00 00 ff ff kept)."""
    compressor = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -window_bits, mem_level)
    return compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


class SegmentCache:
    """The deflated form of recently sent message tails, least recently used dropped first."""

    def __init__(self, entries: int = CACHE_ENTRIES) -> None:
        self.entries = entries
        self._deflated: OrderedDict[tuple[bytes, int, int], bytes] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def deflate(self, data: bytes, window_bits: int, mem_level: int) -> bytes:
        key = (data, window_bits, mem_level)
        deflated = self._deflated.get(key)
        if deflated is not None:
            self.hits += 1
            self._deflated.move_to_end(key)
            return deflated
        self.misses += 1
        deflated = self._deflated[key] = deflate_segment(data, window_bits, mem_level)
        if len(self._deflated) > self.entries:
            self._deflated.popitem(last=False)
        return deflated


SHARED_SEGMENTS = SegmentCache()


def deflate_message(data: bytes, window_bits: int, mem_level: int, cache: SegmentCache = SHARED_SEGMENTS) -> bytes:
    """A whole message's permessage-deflate payload (without the trailing 00 00 ff ff)."""
    if len(data) < SHARED_MIN_BYTES:
        return deflate_segment(data, window_bits, mem_level)[: -len(SYNC_TRAILER)]
    head = stored_block(data[:HEAD_BYTES])
    return head + cache.deflate(data[HEAD_BYTES:], window_bits, mem_level)[: -len(SYNC_TRAILER)]


def stored_block(data: bytes) -> bytes:
    """`data` as one non-final stored (uncompressed) deflate block, RFC 1951 3.2.4: a header byte
    (BFINAL 0, BTYPE 00, padded to the byte), LEN and its complement NLEN, the bytes. It ends on a
    byte boundary like a sync flush, and costs no compressor (a new zlib stream per message was a
    tenth of a broadcast's sending): the head is a mark and a few bytes, nothing to compress."""
    assert len(data) <= 0xFFFF
    return b"\x00" + len(data).to_bytes(2, "little") + (0xFFFF - len(data)).to_bytes(2, "little") + data


class SharedDeflate(PerMessageDeflate):  # type: ignore[misc]  # autobahn ships no type hints
    """The negotiated extension of one server connection, sending as deflate_message does."""

    @classmethod
    def replacing(cls, negotiated: PerMessageDeflate) -> "SharedDeflate":
        """The same negotiated parameters (windows, memory level, limits), for a server connection."""
        return cls(
            negotiated._is_server,
            negotiated.server_no_context_takeover,
            negotiated.client_no_context_takeover,
            negotiated.server_max_window_bits,
            negotiated.client_max_window_bits,
            negotiated.mem_level,
            negotiated.max_message_size,
        )

    def start_compress_message(self) -> None:
        pass  # no stream is kept: each message is deflated whole in compress_message_data

    def compress_message_data(self, data: bytes) -> bytes:
        return deflate_message(data, self.server_max_window_bits, self.mem_level)

    def end_compress_message(self) -> bytes:
        return b""


def share_deflate(protocol: Any) -> None:
    """Swaps a server connection's negotiated permessage-deflate for SharedDeflate (after the
    handshake, before any message is sent)."""
    negotiated = protocol._perMessageCompress
    if type(negotiated) is PerMessageDeflate and negotiated._is_server:
        shared = SharedDeflate.replacing(negotiated)
        protocol._perMessageCompress = shared
        in_use = protocol.websocket_extensions_in_use
        protocol.websocket_extensions_in_use = [shared if item is negotiated else item for item in in_use]
