"""An edit of an imported workload sent as what changed: the editor of a 50,000-pod workload (25 MiB)
sends, instead of the whole text on every check and save, the digest of the saved text it started
from and one replacement (static/js/text-patch.js). Receiving and decoding the whole text was most
of a check (0.6 s) and half a save (1.5 s) at that size.

Offsets count UTF-16 code units, as JavaScript does; they are Python's character offsets when the
saved text is ASCII (kubectl's output of a cluster mostly is), and a patch against any other text is
refused, so that the editor sends its whole text instead."""

from dataclasses import dataclass


class PatchRefused(Exception):
    """The patch does not apply to the saved text (another base, offsets outside it, not ASCII):
    the editor sends its whole text instead."""


@dataclass(frozen=True, slots=True)
class WorkloadPatch:
    base: str  # the SHA-256 of the saved workload it applies to
    start: int
    end: int
    insert: str

    def apply(self, saved: str, saved_digest: str) -> str:
        """The edited text; PatchRefused when this patch was not made against `saved`."""
        if self.base != saved_digest:
            raise PatchRefused("the editor's text started from a workload that is not the saved one")
        if not saved.isascii():  # O(1): CPython knows it of every string
            raise PatchRefused("offsets into a text that is not ASCII are not comparable")
        if "\r" in saved:  # the editor counts in the text with its line breaks made LF
            raise PatchRefused("offsets into a text with CR line breaks are not comparable")
        if not 0 <= self.start <= self.end <= len(saved):
            raise PatchRefused("the change lies outside the saved workload")
        return saved[: self.start] + self.insert + saved[self.end :]
