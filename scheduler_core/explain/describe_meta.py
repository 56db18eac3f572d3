"""An object's labels and annotations as every `kubectl describe` prints them (printLabelsMultiline,
printAnnotationsMultiline in k8s.io/kubectl/pkg/describe): by key, the last-applied configuration
left out, a long or multi-line annotation on lines of its own."""

from collections.abc import Mapping
from dataclasses import dataclass

MAX_ANNOTATION_LENGTH = 140  # maxAnnotationLen
SKIPPED_ANNOTATIONS = frozenset({"kubectl.kubernetes.io/last-applied-configuration"})


@dataclass(frozen=True, slots=True)
class Annotation:
    """An annotation as printAnnotationsMultiline prints it: `key: value` on its line, or, when long
    or of several lines, the key alone then each line indented and cut at 138 characters."""

    key: str
    lines: tuple[str, ...]
    inline: bool


def sorted_labels(labels: Mapping[str, str]) -> list[tuple[str, str]]:
    return sorted(labels.items())


def described_annotations(annotations: Mapping[str, str]) -> list[Annotation]:
    return [annotation(key, value) for key, value in sorted(annotations.items()) if key not in SKIPPED_ANNOTATIONS]


def annotation(key: str, value: str) -> Annotation:
    value = value.removesuffix("\n")
    if len(value) + len(key) + 2 > MAX_ANNOTATION_LENGTH or "\n" in value:
        limit = MAX_ANNOTATION_LENGTH - 2
        return Annotation(
            key, tuple(line[:limit] + "..." if len(line) > limit else line for line in value.split("\n")), False
        )
    return Annotation(key, (value,), True)
