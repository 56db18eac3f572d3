"""Flow control of one websocket: how much the server has sent that the page has not yet read.

Daphne writes every frame into a Twisted transport that buffers without limit, and an ASGI
application cannot see that buffer: a client that never reads would make the server hold all it is
sent. So the page acknowledges what it has read, and the server keeps what is unacknowledged within
a window of characters and frames (frames are ASCII JSON, so characters are bytes).

Every frame carries a random "mark" and an ack names the mark of the last frame read
({"type": "ack", "mark": ...}): it acknowledges that frame and every one before it. A mark cannot
be guessed, so only a client that has read the frame off the socket (which frees the server's
buffer) can acknowledge it; a count of characters could be acknowledged without reading anything.
"""

import base64
import os
from collections import deque

MARK_BYTES = 6


class MarkSource:
    """Random marks, drawn from the system's generator a thousand at a time (a call per frame was
    about 5 % of the event loop's time under the load harness)."""

    def __init__(self, batch: int = 1024) -> None:
        self._batch = batch
        self._pool = b""
        self._at = 0

    def next(self) -> str:
        if self._at + MARK_BYTES > len(self._pool):
            self._pool, self._at = os.urandom(MARK_BYTES * self._batch), 0
        piece = self._pool[self._at : self._at + MARK_BYTES]
        self._at += MARK_BYTES
        return base64.urlsafe_b64encode(piece).decode()


marks = MarkSource()  # used on the event loop's thread only


class SendWindow:
    def __init__(self, max_chars: int, max_frames: int) -> None:
        self.max_chars = max_chars
        self.max_frames = max_frames
        self.sent = 0  # characters, since the connection opened
        self.acked = 0
        self._in_flight: deque[tuple[str, int]] = deque()  # (mark, `sent` after the frame), in order

    @property
    def unacked(self) -> int:
        return self.sent - self.acked

    @property
    def frames_in_flight(self) -> int:
        return len(self._in_flight)

    def has_room(self) -> bool:
        """Room for more of a replay (which may overshoot by its last chunk)."""
        return self.unacked < self.max_chars and len(self._in_flight) < self.max_frames

    def fits(self, size: int) -> bool:
        """Whether a frame of `size` characters may go now; with nothing in flight any frame may,
        so a frame larger than the window still gets through (alone)."""
        if len(self._in_flight) >= self.max_frames:
            return False
        return self.unacked == 0 or self.unacked + size <= self.max_chars

    def stamp(self, frame: str) -> str:
        """The frame (a JSON object's text) with a mark of its own, counted as sent."""
        mark = marks.next()
        stamped = f'{{"mark": "{mark}", {frame[1:]}' if frame != "{}" else f'{{"mark": "{mark}"}}'
        self.sent += len(stamped)
        self._in_flight.append((mark, self.sent))
        return stamped

    def ack(self, mark: str) -> bool:
        """Acknowledges the frame with this mark and every one before it; False for a mark that is
        not in flight (already acknowledged, or never sent)."""
        if not any(candidate == mark for candidate, _ in self._in_flight):
            return False
        while True:
            candidate, end = self._in_flight.popleft()
            self.acked = end
            if candidate == mark:
                return True
