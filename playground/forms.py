"""What views read from a request, validated by Django forms: a view asks a form, a function of the
app computes, a partial renders. A query that does not validate falls back to the defaults a link
without it gets (a board is never refused for an odd ?view=).
"""

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest

from playground import compare, traffic
from playground.board_cards import VIEWS
from playground.importing import mib
from playground.run_simulations import MAX_RUN_EVENTS
from playground.scenarios import DEFAULT_CAPACITY, InvalidEdit
from playground.workload_patch import PatchRefused, WorkloadPatch

MAX_QUERY_CHARS = 100
_HOST = re.compile(r"[A-Za-z0-9*]([A-Za-z0-9.-]*[A-Za-z0-9])?")
_HEADER_NAME = re.compile(r"[A-Za-z0-9_-]{1,100}")
_PRINTABLE = re.compile(r"[\x21-\x7e]*")  # a path or header value: no spaces, no control characters
MAX_LABEL_KEY_CHARS = 317  # a qualified label key: a 253-character prefix, "/", a 63-character name


class TextAsSent(forms.Field):
    """A text taken as sent, whatever it holds (a NUL character included): the engine's parser
    and the board check it and name the line, which a form's refusal could not."""

    def to_python(self, value: Any) -> str:
        return "" if value in self.empty_values else str(value)


class WholeNumber(forms.Field):
    """A whole number as Python's int() reads it ("7", " 7 ", "+7"); "7.0" is not one, and a blank
    field is absent. Django's IntegerField would take "7.0" as 7, which these fields never did."""

    default_error_messages = {"invalid": "Enter a whole number."}

    def to_python(self, value: Any) -> int | None:
        if value is None or str(value).strip() == "":
            return None
        try:
            return int(str(value))
        except ValueError:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None


class LenientForm(forms.Form):
    """A form whose invalid fields fall back: each is left out of the cleaned data, and the caller
    takes the default a request without it gets."""

    @classmethod
    def cleaned(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        form = cls(data)
        form.is_valid()
        return form.cleaned_data


@dataclass(frozen=True, slots=True)
class BoardQuery:
    view: str = "auto"  # one of VIEWS
    group: str | None = None  # None: not asked (the board picks); "": no grouping
    then: str = ""
    query: str = ""


class BoardQueryForm(LenientForm):
    """How the board is drawn: its view, the labels it groups by, the table's search. Sent in the
    query string of a board's URL, or with the form of an edit (which redraws the same board)."""

    view = forms.ChoiceField(choices=[(view, view) for view in VIEWS], required=False)
    group = forms.CharField(required=False, max_length=MAX_LABEL_KEY_CHARS, strip=False)
    then = forms.CharField(required=False, max_length=MAX_LABEL_KEY_CHARS, strip=False)
    q = forms.CharField(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> BoardQuery:
        """The request's board query: the query string first, then an edit's form fields (the
        table's search only from the query string)."""
        data = {name: request.GET.get(name) or request.POST.get(name) for name in ("view", "then")}
        data["group"] = request.GET.get("group", request.POST.get("group"))  # "" asks for no grouping
        data["q"] = request.GET.get("q")
        cleaned = cls.cleaned({name: value for name, value in data.items() if value is not None})
        return BoardQuery(
            view=cleaned.get("view") or "auto",
            group=None if data["group"] is None else cleaned.get("group", ""),
            then=cleaned.get("then") or "",
            query=(cleaned.get("q") or "").strip()[:MAX_QUERY_CHARS],
        )


MAX_SEED = 2**31 - 1


@dataclass(frozen=True, slots=True)
class CompareQuery:
    preset: str
    config_yaml: str
    seed: int  # side B runs with side A's seed when A is a run
    sent: bool  # the form was sent (a comparison is asked for, not only the page)


class CompareForm(LenientForm):
    """Side B's scheduler configuration (a preset, or YAML pasted under "custom") and the seed."""

    config = forms.ChoiceField(choices=[(name, name) for name in compare.PRESETS], required=False)
    config_yaml = forms.CharField(required=False, strip=False)
    seed = WholeNumber(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> CompareQuery:
        cleaned = cls.cleaned(request.GET)
        seed = cleaned.get("seed") or 0
        return CompareQuery(
            preset=cleaned.get("config") or compare.DEFAULT_PRESET,
            config_yaml=request.GET.get("config_yaml", ""),  # as pasted: the engine names its lines
            seed=max(0, min(seed, MAX_SEED)),
            sent="config" in request.GET,
        )


MAX_NAMESPACED_KEY_CHARS = 300  # a pod's or a Deployment's namespace/name: 63 + 1 + 253, and some room
MAX_NODE_NAME_CHARS = 253


def _whole(value: object, default: int) -> int:
    return value if isinstance(value, int) else default


@dataclass(frozen=True, slots=True)
class ExplainQuery:
    pod: str
    seq: int  # the event the explanation is at (1 and up)
    node: str  # "why not here?": the node the pod was dragged onto, if any


class ExplainQueryForm(LenientForm):
    """Which pod to explain, at which event of the run, and (why not here?) on which node."""

    pod = forms.CharField(required=False, strip=False)
    seq = WholeNumber(required=False)
    node = forms.CharField(required=False, strip=False)

    @classmethod
    def of(cls, request: HttpRequest) -> ExplainQuery:
        cleaned = cls.cleaned(request.GET)
        return ExplainQuery(
            pod=(cleaned.get("pod") or "")[:MAX_NAMESPACED_KEY_CHARS],
            seq=max(1, _whole(cleaned.get("seq"), 1)),
            node=(cleaned.get("node") or "")[:MAX_NODE_NAME_CHARS],
        )


@dataclass(frozen=True, slots=True)
class DescribeNodeQuery:
    node: str
    seq: int  # the player's position, from 1 (the store before the first event is empty), as an explanation's


class DescribeNodeQueryForm(LenientForm):
    """Which node to describe (kubectl describe node), at which event of the run."""

    node = forms.CharField(required=False, strip=False)
    seq = WholeNumber(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> DescribeNodeQuery:
        cleaned = cls.cleaned(request.GET)
        return DescribeNodeQuery(
            node=(cleaned.get("node") or "")[:MAX_NODE_NAME_CHARS], seq=max(1, _whole(cleaned.get("seq"), 1))
        )


@dataclass(frozen=True, slots=True)
class DescribeDeploymentQuery:
    deployment: str  # namespace/name
    seq: int  # the player's position, as DescribeNodeQuery's


class DescribeDeploymentQueryForm(LenientForm):
    """Which Deployment to describe (kubectl describe deployment [NAMESPACE/]NAME), at which event."""

    deployment = forms.CharField(required=False, strip=False)
    seq = WholeNumber(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> DescribeDeploymentQuery:
        cleaned = cls.cleaned(request.GET)
        key = (cleaned.get("deployment") or "")[:MAX_NAMESPACED_KEY_CHARS]
        return DescribeDeploymentQuery(
            deployment=key if "/" in key else f"default/{key}", seq=max(1, _whole(cleaned.get("seq"), 1))
        )


@dataclass(frozen=True, slots=True)
class ActRequest:
    op: str
    target: str
    value: str
    at: str  # a duration as the timeline writes it ("1.5s"); the action document checks it
    version: int  # the version the form was made at (-1: none given, refused as stale)
    run: int  # the run acted on (its seed is kept)

    def chosen(self) -> dict[str, str]:
        """What a refused act shows again in its form: nothing typed is lost."""
        return {"op": self.op[:200], "target": self.target[:200], "value": self.value[:200]}


class ActForm(LenientForm):
    """An operation at the run's current time (playground/acting.py checks what it means)."""

    op = forms.CharField(required=False, strip=False)
    target = forms.CharField(required=False)
    value = forms.CharField(required=False, strip=False)
    at = forms.CharField(required=False)
    version = WholeNumber(required=False)
    run = WholeNumber(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> ActRequest:
        cleaned = cls.cleaned(request.POST)
        return ActRequest(
            op=cleaned.get("op") or "",
            target=cleaned.get("target") or "",
            value=cleaned.get("value") or "",
            at=request.POST.get("at", "0"),
            version=_whole(cleaned.get("version"), -1),
            run=_whole(cleaned.get("run"), 0),
        )


@dataclass(frozen=True, slots=True)
class NodeTemplate:
    zones: list[str]
    per_zone: int  # the board refuses fewer than one
    capacity: dict[str, str]  # cpu, memory, pods as typed: the engine checks them per node
    prefix: str


class NodeTemplateForm(LenientForm):
    """ "3 zones x 2 nodes": the zones (comma-separated), nodes per zone, their capacity, a name prefix."""

    zones = forms.CharField(required=False)
    per_zone = WholeNumber(required=False)
    prefix = forms.CharField(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> NodeTemplate:
        cleaned = cls.cleaned(request.POST)
        return NodeTemplate(
            zones=[zone.strip() for zone in (cleaned.get("zones") or "").split(",") if zone.strip()],
            per_zone=_whole(cleaned.get("per_zone"), 1),
            capacity={name: request.POST.get(name, default) for name, default in DEFAULT_CAPACITY.items()},
            prefix=cleaned.get("prefix") or "node",
        )


class NodeEditForm(LenientForm):
    """A node card's edits (rename, capacity, label, taint and their removals): the strings as
    typed, which the board and the engine check (their messages name the field); a field the form
    did not send is absent, not empty (capacity changes only what it names)."""

    name = TextAsSent(required=False)
    key = TextAsSent(required=False)
    value = TextAsSent(required=False)
    effect = TextAsSent(required=False)
    old_key = TextAsSent(required=False)
    old_effect = TextAsSent(required=False)
    cpu = TextAsSent(required=False)
    memory = TextAsSent(required=False)
    pods = TextAsSent(required=False)
    extended_name = forms.CharField(required=False)
    extended_value = TextAsSent(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> "NodeEdit":
        cleaned = {name: value or "" for name, value in cls.cleaned(request.POST).items()}
        sent = frozenset(name for name in cls.base_fields if name in request.POST)
        return NodeEdit(cleaned, sent)


@dataclass(frozen=True, slots=True)
class NodeEdit:
    fields: dict[str, str]
    sent: frozenset[str]

    def __getitem__(self, name: str) -> str:
        return self.fields.get(name, "")

    def capacity(self) -> dict[str, str]:
        """The amounts the form sent, and an extended resource when it names one."""
        amounts = {name: self[name] for name in ("cpu", "memory", "pods") if name in self.sent}
        if self["extended_name"]:
            amounts[self["extended_name"]] = self["extended_value"]
        return amounts

    def taint(self) -> dict[str, str]:
        return {"key": self["key"], "value": self["value"], "effect": self["effect"]}

    def old_taint(self) -> dict[str, str] | None:
        """The taint being edited, when the form edits one rather than adding it."""
        return {"key": self["old_key"], "effect": self["old_effect"]} if self["old_key"] else None


# ---------------------------------------------------------------------------- texts and edits


def normalized_text(text: str) -> str:
    """Browsers send a textarea's line breaks as CRLF; the scenario keeps LF, as the editor does."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _sent_number(data: Mapping[str, Any], cleaned: Mapping[str, Any], name: str) -> int | None:
    """None when the field was not sent (or empty), -1 when it is not a number, else the number."""
    if not data.get(name):
        return None
    return _whole(cleaned.get(name), -1)


class EditVersionForm(LenientForm):
    """The version of the scenario an edit's form was rendered at (-1: none given, refused as stale)."""

    version = WholeNumber(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> int:
        return _whole(cls.cleaned(request.POST).get("version"), -1)


class RunStartForm(LenientForm):
    """A run's seed: 0 when none is given or it is not a number; within int32 otherwise."""

    seed = WholeNumber(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> int:
        return max(0, min(_whole(cls.cleaned(request.POST).get("seed"), 0), MAX_SEED))


class RunChoiceForm(LenientForm):
    """Runs named in a page's query: ?run= on the scenario page, ?a= and ?b= on the comparison."""

    run = WholeNumber(required=False)
    a = WholeNumber(required=False)
    b = WholeNumber(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> dict[str, int | None]:
        """Each run id: None when not asked for; a comparison's side that is not a number is -1 (no
        run has it: 404), the scenario page's ?run= that is not a number is ignored (None)."""
        cleaned = cls.cleaned(request.GET)
        asked = {name: _sent_number(request.GET, cleaned, name) for name in cls.base_fields}
        if "run" not in cleaned:
            asked["run"] = None
        return asked


@dataclass(frozen=True, slots=True)
class WorkloadEdit:
    text: str | None  # the whole text with LF line breaks; None when the form sent none
    patch: WorkloadPatch | None  # or what changed in the saved text (workload_patch.py)


class WorkloadEditForm(LenientForm):
    """A workload sent by the editor: the whole text, or a patch against the saved one. A patch
    whose offsets are not numbers is refused (PatchRefused), and the editor sends its whole text."""

    workload = TextAsSent(required=False)
    yaml = TextAsSent(required=False)  # the same text, as the live check (validate) names it
    workload_base = TextAsSent(required=False)
    workload_from = WholeNumber(required=False)
    workload_to = WholeNumber(required=False)
    workload_insert = TextAsSent(required=False)

    @classmethod
    def whole_text(cls, request: HttpRequest) -> str | None:
        """The whole text sent (LF line breaks), None without one; a patch's fields are not read."""
        return normalized_text(cls.cleaned(request.POST)["workload"]) if "workload" in request.POST else None

    @classmethod
    def text_of(cls, request: HttpRequest) -> str:
        """The whole text as sent ("" without one): what a refused plain form post shows again."""
        text: str = cls.cleaned(request.POST)["workload"]
        return text

    @classmethod
    def of(cls, request: HttpRequest, text_field: str = "workload") -> WorkloadEdit:
        cleaned = cls.cleaned(request.POST)
        text = normalized_text(cleaned[text_field]) if text_field in request.POST else None
        if "workload_base" not in request.POST:
            return WorkloadEdit(text, None)
        start, end = cleaned.get("workload_from"), cleaned.get("workload_to")
        if start is None or end is None:
            raise PatchRefused("the change's offsets are not numbers")
        insert = normalized_text(cleaned.get("workload_insert", ""))
        return WorkloadEdit(text, WorkloadPatch(cleaned["workload_base"][:64], start, end, insert))


@dataclass(frozen=True, slots=True)
class ImportSources:
    """Each side of an import (nodes, pods): an uploaded file (it wins over its textarea) or text."""

    nodes: UploadedFile | str
    pods: UploadedFile | str


class ImportForm(forms.Form):
    """kubectl's output pasted (nodes_yaml, pods_yaml) or uploaded (nodes_file, pods_file)."""

    nodes_yaml = TextAsSent(required=False)
    pods_yaml = TextAsSent(required=False)
    nodes_file = forms.FileField(required=False, allow_empty_file=True)
    pods_file = forms.FileField(required=False, allow_empty_file=True)

    def __init__(self, *args: Any, max_upload: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_upload = max_upload

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for what in ("nodes", "pods"):
            upload = cleaned.get(f"{what}_file")
            if upload is not None and upload.size > self.max_upload:
                raise forms.ValidationError(
                    f"{what}: the file is {mib(upload.size)}; an import takes files of at most"
                    f" {mib(self.max_upload)} (gzip it: kubectl's YAML compresses about tenfold)"
                )
        return cleaned

    @classmethod
    def of(cls, request: HttpRequest, max_upload: int) -> ImportSources:
        """The two sides; InvalidEdit naming what was refused (a file too big)."""
        form = cls(request.POST, request.FILES, max_upload=max_upload)
        if not form.is_valid():
            raise InvalidEdit(" ".join(message for messages in form.errors.values() for message in messages))
        sides: dict[str, UploadedFile | str] = {}
        for what in ("nodes", "pods"):
            upload = form.cleaned_data.get(f"{what}_file")
            text = normalized_text(form.cleaned_data[f"{what}_yaml"])
            sides[what] = upload if upload is not None and upload.size else text
        return ImportSources(**sides)


class DetailsForm(LenientForm):
    """A scenario's title and description, as typed (the board bounds and trims them)."""

    title = TextAsSent(required=False)
    description = TextAsSent(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> tuple[str, str]:
        cleaned = cls.cleaned(request.POST)
        return cleaned["title"], cleaned["description"]


@dataclass(frozen=True, slots=True)
class PaletteEdit:
    op: str  # "remove", or anything else: add
    kind: str
    key: str
    value: str
    effect: str


class PaletteChipForm(LenientForm):
    """A chip added to (or removed from) a scenario's palette, as typed (palette.chip checks it)."""

    op = TextAsSent(required=False)
    kind = TextAsSent(required=False)
    key = TextAsSent(required=False)
    value = TextAsSent(required=False)
    effect = TextAsSent(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> PaletteEdit:
        return PaletteEdit(**cls.cleaned(request.POST))


class ExportForm(LenientForm):
    """Which part of a scenario an export is: the Kubernetes objects (default), the timeline, all."""

    part = forms.ChoiceField(choices=[("timeline", "timeline"), ("all", "all")], required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> str:
        return cls.cleaned(request.GET).get("part") or ""


class ClaimEditForm(LenientForm):
    """The edit key posted by the claim page, or a whole edit link pasted into it."""

    key = TextAsSent(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> str:
        key: str = cls.cleaned(request.POST)["key"]
        return key


# ---------------------------------------------------------------------------- traffic


class _Bounded(WholeNumber):
    """A whole number within [low, high], with one message for any other value."""

    def __init__(self, name: str, low: int, high: int) -> None:
        super().__init__(required=False)
        self.low, self.high = low, high
        self.wrong = f"{name} must be a whole number from {low} to {high}"

    def to_python(self, value: Any) -> int | None:
        try:
            number = super().to_python(value)
        except forms.ValidationError:
            raise forms.ValidationError(self.wrong) from None
        if number is not None and not self.low <= number <= self.high:
            raise forms.ValidationError(self.wrong)
        return number


class TrafficQueryForm(forms.Form):
    """seq (the player's position), requests (per stream), and optionally host, path and header
    ("Name: value") for a request of the viewer's own through the ingress controller. Refused with
    TrafficQueryError, whose message says what to fix."""

    seq = _Bounded("seq (the event to show)", 0, MAX_RUN_EVENTS + 1)
    requests = _Bounded("requests", 1, traffic.MAX_REQUESTS)
    host = TextAsSent(required=False)  # as sent: a NUL gets this field's own message
    path = TextAsSent(required=False)
    header = TextAsSent(required=False)

    def clean_seq(self) -> int:
        seq = self.cleaned_data.get("seq")
        if seq is None:
            raise forms.ValidationError("seq (the event to show) is required")
        return int(seq)

    def clean_host(self) -> str:
        host: str = self.cleaned_data["host"].strip()
        if len(host) > traffic.MAX_HOST or (host and not _HOST.fullmatch(host)):
            raise forms.ValidationError("host must be a DNS name such as app.example.com")
        return host.lower()

    def clean_path(self) -> str:
        path: str = self.cleaned_data["path"].strip()
        if path and (not path.startswith("/") or len(path) > traffic.MAX_PATH or not _PRINTABLE.fullmatch(path)):
            raise forms.ValidationError(
                f"path must start with / and have no spaces (at most {traffic.MAX_PATH} characters)"
            )
        return path

    def clean_header(self) -> tuple[tuple[str, str], ...]:
        header: str = self.cleaned_data["header"].strip()
        if not header:
            return ()
        name, colon, value = header.partition(":")
        name, value = name.strip(), value.strip()
        if not colon or not _HEADER_NAME.fullmatch(name):
            raise forms.ValidationError("header must be Name: value, for example X-Canary: always")
        if len(value) > traffic.MAX_HEADER_VALUE or not _PRINTABLE.fullmatch(value.replace(" ", "!")):
            raise forms.ValidationError(
                f"the header's value must be printable text of at most {traffic.MAX_HEADER_VALUE} characters"
            )
        return ((name, value),)

    @classmethod
    def of(cls, request: HttpRequest) -> traffic.TrafficQuery:
        form = cls(request.GET)
        if not form.is_valid():
            raise traffic.TrafficQueryError(next(iter(form.errors.values()))[0])
        cleaned = form.cleaned_data
        requests = cleaned["requests"] if cleaned["requests"] is not None else traffic.DEFAULT_REQUESTS
        host, path, headers = cleaned["host"], cleaned["path"], cleaned["header"]
        if not (host or path or headers):
            return traffic.TrafficQuery(cleaned["seq"], requests)
        return traffic.TrafficQuery(cleaned["seq"], requests, traffic.Probe(host, path or "/", headers))


class NodeQueryForm(LenientForm):
    """?node= on the board partial: the node whose card is asked for (None: the whole board)."""

    node = TextAsSent(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> str | None:
        if "node" not in request.GET:
            return None
        node: str = cls.cleaned(request.GET)["node"]
        return node


class ScenarioQueryForm(LenientForm):
    """?scenario= on the live check: the scenario whose saved workload a patch applies to."""

    scenario = TextAsSent(required=False)

    @classmethod
    def of(cls, request: HttpRequest) -> str:
        slug: str = cls.cleaned(request.GET)["scenario"][:16]
        return slug


MAX_CONSOLE_LINE_CHARS = 4096  # a kubectl command line typed in the console (a long label list fits)


@dataclass(frozen=True, slots=True)
class ConsoleRequest:
    line: str
    run: int  # 0: the page shows no run
    seq: int | None  # the player's position (frames applied); None: the run's end (or `at`)
    version: int | None  # the scenario version the page shows (a write is refused if it moved on)
    at: float | None = None  # without seq: the moment to read at (a change's, in the run it made)


class ConsoleForm(LenientForm):
    """A command typed in the page's kubectl console, and where the player stands."""

    line = forms.CharField(required=False, strip=False)  # completion reads a trailing space
    run = WholeNumber(required=False)
    seq = WholeNumber(required=False)
    version = WholeNumber(required=False)
    at = forms.FloatField(required=False, min_value=0, max_value=10**9)

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> ConsoleRequest:
        cleaned = cls.cleaned(data)
        seq, version, at = cleaned.get("seq"), cleaned.get("version"), cleaned.get("at")
        return ConsoleRequest(
            line=(cleaned.get("line") or "")[:MAX_CONSOLE_LINE_CHARS],
            run=_whole(cleaned.get("run"), 0),
            seq=seq if isinstance(seq, int) else None,
            version=version if isinstance(version, int) else None,
            at=at if isinstance(at, float) and math.isfinite(at) else None,
        )
