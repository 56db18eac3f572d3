import json
import zlib
from types import SimpleNamespace

from autobahn.websocket.compress import PerMessageDeflate

from playground.send_window import SendWindow
from playground.shared_deflate import (
    HEAD_BYTES,
    SHARED_MIN_BYTES,
    SegmentCache,
    SharedDeflate,
    deflate_message,
    share_deflate,
)

WINDOW_BITS, MEM_LEVEL = 12, 5


def run_batch(events: int, start: int = 1) -> str:
    """A message of run events as the consumer sends it: JSON, larger than the sharing threshold."""
    body = [
        {"seq": seq, "event": {"reason": "Scheduled", "object": f"Pod/default/web-{seq}"}}
        for seq in range(start, start + events)
    ]
    return json.dumps({"type": "run.events", "run": 1, "events": body}, separators=(",", ":"))


def inflate(payload: bytes, inflater: "zlib._Decompress | None" = None) -> bytes:
    """As a client does (RFC 7692 7.2.2): the payload with 00 00 ff ff appended, inflated."""
    inflater = inflater or zlib.decompressobj(-WINDOW_BITS)
    return inflater.decompress(payload + b"\x00\x00\xff\xff")


def test_small_and_large_messages_inflate_to_what_was_sent():
    for text in ('{"type":"ack"}', run_batch(10), run_batch(2000)):
        data = text.encode()
        assert inflate(deflate_message(data, WINDOW_BITS, MEM_LEVEL, SegmentCache())) == data
    assert len(run_batch(2000)) > SHARED_MIN_BYTES > len(run_batch(10))


def test_a_client_keeping_its_window_across_messages_still_reads_each_one():
    inflater = zlib.decompressobj(-WINDOW_BITS)  # context takeover on the client's side
    cache = SegmentCache()
    for start in range(1, 2000, 400):
        data = SendWindow(10**9, 10**6).stamp(run_batch(400, start)).encode()
        assert inflate(deflate_message(data, WINDOW_BITS, MEM_LEVEL, cache), inflater) == data


def test_messages_that_differ_only_in_their_mark_deflate_their_rest_once():
    cache = SegmentCache()
    batch = run_batch(1000)
    first, second = (SendWindow(10**9, 10**6).stamp(batch).encode() for _ in range(2))
    assert first != second and first[HEAD_BYTES:] == second[HEAD_BYTES:]  # the mark is in the head
    sent = [deflate_message(data, WINDOW_BITS, MEM_LEVEL, cache) for data in (first, second)]
    assert (cache.misses, cache.hits) == (1, 1)
    assert inflate(sent[0]) == first and inflate(sent[1]) == second
    assert len(sent[0]) < len(first) / 5  # still compressed: JSON deflates well


def test_the_cache_keeps_the_most_recent_messages_and_tells_windows_apart():
    cache = SegmentCache(entries=2)
    one, two, three = (b"x" * HEAD_BYTES + run_batch(500, start).encode() for start in (1, 1000, 2000))
    for data in (one, two, one, three, one):
        deflate_message(data, WINDOW_BITS, MEM_LEVEL, cache)
    assert (cache.misses, cache.hits) == (3, 2)  # `two` was the least recently used when `three` came
    deflate_message(one, 9, MEM_LEVEL, cache)  # another connection's window: deflated for it
    assert cache.misses == 4
    assert zlib.decompressobj(-9).decompress(deflate_message(one, 9, MEM_LEVEL, cache) + b"\x00\x00\xff\xff") == one


def test_autobahn_as_a_client_inflates_the_shared_deflate_messages():
    server = SharedDeflate(True, False, False, WINDOW_BITS, WINDOW_BITS, MEM_LEVEL)
    client = PerMessageDeflate(False, False, False, WINDOW_BITS, WINDOW_BITS, MEM_LEVEL)
    for text in (run_batch(1500), '{"type":"run.status"}', run_batch(1500, 1500)):
        server.start_compress_message()
        payload = server.compress_message_data(text.encode()) + server.end_compress_message()
        client.start_decompress_message()
        assert client.decompress_message_data(payload) == text.encode()
        client.end_decompress_message()


def test_a_server_connections_negotiated_deflate_is_swapped_with_its_parameters():
    negotiated = PerMessageDeflate(True, False, True, 10, 12, 6, 4096)
    protocol = SimpleNamespace(_perMessageCompress=negotiated, websocket_extensions_in_use=[negotiated])
    share_deflate(protocol)
    shared = protocol._perMessageCompress
    assert isinstance(shared, SharedDeflate) and protocol.websocket_extensions_in_use == [shared]
    assert (shared.server_max_window_bits, shared.client_max_window_bits, shared.mem_level) == (10, 12, 6)
    assert (shared.client_no_context_takeover, shared.max_message_size) == (True, 4096)
    uncompressed = SimpleNamespace(_perMessageCompress=None, websocket_extensions_in_use=[])
    share_deflate(uncompressed)
    assert uncompressed._perMessageCompress is None


def test_a_stored_block_inflates_to_its_bytes_and_lets_the_stream_go_on():
    from playground.shared_deflate import deflate_segment, stored_block

    for head in (b"", b'{"mark": "abcdefgh", ', bytes(range(256)) * 4):
        rest = b'"type":"run.events"}'
        payload = stored_block(head) + deflate_segment(rest, WINDOW_BITS, MEM_LEVEL)[:-4]
        assert inflate(payload) == head + rest
