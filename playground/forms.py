"""What views read from a request, validated by Django forms: a view asks a form, a function of the
app computes, a partial renders. A query that does not validate falls back to the defaults a link
without it gets (a board is never refused for an odd ?view=).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.http import HttpRequest

from playground import compare
from playground.board_cards import VIEWS
from playground.scenarios import DEFAULT_CAPACITY

MAX_QUERY_CHARS = 100
MAX_LABEL_KEY_CHARS = 317  # a qualified label key: a 253-character prefix, "/", a 63-character name


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
    seed = forms.IntegerField(required=False)

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


MAX_POD_KEY_CHARS = 300  # namespace/name: 63 + 1 + 253, and some room
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
    seq = forms.IntegerField(required=False)
    node = forms.CharField(required=False, strip=False)

    @classmethod
    def of(cls, request: HttpRequest) -> ExplainQuery:
        cleaned = cls.cleaned(request.GET)
        return ExplainQuery(
            pod=(cleaned.get("pod") or "")[:MAX_POD_KEY_CHARS],
            seq=max(1, _whole(cleaned.get("seq"), 1)),
            node=(cleaned.get("node") or "")[:MAX_NODE_NAME_CHARS],
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
    version = forms.IntegerField(required=False)
    run = forms.IntegerField(required=False)

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
    per_zone = forms.IntegerField(required=False)
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

    name = forms.CharField(required=False, strip=False)
    key = forms.CharField(required=False, strip=False)
    value = forms.CharField(required=False, strip=False)
    effect = forms.CharField(required=False, strip=False)
    old_key = forms.CharField(required=False, strip=False)
    old_effect = forms.CharField(required=False, strip=False)
    cpu = forms.CharField(required=False, strip=False)
    memory = forms.CharField(required=False, strip=False)
    pods = forms.CharField(required=False, strip=False)
    extended_name = forms.CharField(required=False)
    extended_value = forms.CharField(required=False, strip=False)

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
