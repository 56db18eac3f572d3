"""The `labelSelector` and `fieldSelector` query parameters of a list or watch, as the Kubernetes
v1.34 API server parses, checks and applies them, with the texts of its 400 BadRequest answers.

Upstream, as read (Go code described, not copied):

- kubernetes/apimachinery v0.34.10 (= kubernetes-1.34.10), commit 57ea95fcdaa372b20bbb922fa22a8dbd2f4b87db
  (Kubernetes-commit 66a2fceb510fb4b213607c2cd0d3434e3fe97c73; identical to v0.34.0 for these files):
  pkg/labels/selector.go (lexer, parser, NewRequirement, Matches), pkg/fields/selector.go
  (splitTerms, splitTerm, UnescapeValue, parseSelector, Transform), pkg/util/validation/validation.go
  (IsQualifiedName, IsValidLabelValue, IsDNS1123Subdomain, RegexError), pkg/util/validation/field/
  {errors,path}.go (Invalid, Error, Path.String), pkg/util/errors/errors.go (aggregate texts),
  pkg/apis/meta/v1/conversion.go (Convert_string_To_{labels,fields}_Selector) and pkg/runtime/
  conversion.go (DefaultMetaV1FieldSelectorConversion, the fallback of Scheme.ConvertFieldLabel).
- kubernetes/apiserver v0.34.10, commit d19e1b3a5957cb9aad57b8dd93d9abfc7509f34a:
  pkg/endpoints/handlers/get.go (a parse error and a refused field label are each answered
  errors.NewBadRequest(err.Error())), pkg/registry/generic/matcher.go (ObjectMetaFieldsSet),
  pkg/storage/selection_predicate.go (DefaultClusterScopedAttr / DefaultNamespaceScopedAttr).
- kubernetes/kubernetes, the field label conversion funcs: pkg/apis/core/v1/conversion.go @0158de93ea1c
  (Pod, Node, ReplicationController, Event, Namespace, Secret, Service), pkg/apis/batch/v1/conversion.go
  @42e06c58c73d (Job), pkg/apis/events/v1/conversion.go @a79f3c787d20 (events.k8s.io Event),
  pkg/apis/certificates/v1/conversion.go @736e3b684ef1 (CertificateSigningRequest); pkg/apis/apps/v1
  registers none, so apps kinds take the fallback (kubernetes/kubernetes#135136: a v1.34 server refuses
  `status.replicas` on ReplicaSets). The selectable fields: pkg/registry/core/pod/strategy.go
  @008b3652959c (ToSelectableFields), core/namespace/strategy.go @04a46264dbfc, core/node/strategy.go
  @00bdb3fade2e, and the current texts of core/event, core/secret, core/service, core/replicationcontroller,
  apps/replicaset, batch/job and certificates/certificates strategy.go.

Two tables per kind, as upstream keeps them apart: the labels a fieldSelector may name (the
conversion func; anything else is a 400) and the values an object offers (its registry's
ToSelectableFields). They differ: Pod accepts status.podIPs but never offers it, so it matches only
"" (fields.Set.Get of a missing key); ReplicaSet offers status.replicas but refuses it.
"""

import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any


class SelectorError(ValueError):
    """A selector the API server refuses: str(error) is the message the API server puts in its 400 BadRequest Status."""


# ---------------------------------------------------------------------------------------------------
# Texts shared with the Go helpers: strconv.Quote, field.Invalid, utilerrors aggregates, validation.

_GO_ESCAPES = {"\a": r"\a", "\b": r"\b", "\f": r"\f", "\n": r"\n", "\r": r"\r", "\t": r"\t", "\v": r"\v"}


def go_quote(text: str) -> str:
    """Go's %q of a string (strconv.Quote): the way the API server quotes a bad value."""
    parts = ['"']
    for char in text:
        code = ord(char)
        if char in '"\\':
            parts.append("\\" + char)
        elif char.isprintable():
            parts.append(char)
        elif char in _GO_ESCAPES:
            parts.append(_GO_ESCAPES[char])
        elif code < 0x20 or code == 0x7F:
            parts.append(f"\\x{code:02x}")
        elif 0xD800 <= code < 0xE000:  # a lone surrogate is no rune: Go writes U+FFFD
            parts.append("\\ufffd")
        elif code < 0x10000:
            parts.append(f"\\u{code:04x}")
        else:
            parts.append(f"\\U{code:08x}")
    parts.append('"')
    return "".join(parts)


def go_json(value: object) -> str:
    """Go's json.Marshal, as field errors print a bad value that is not a plain string or number."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char in "<>&\u2028\u2029":  # the characters Go's encoder escapes in strings
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text


def _invalid(path: str, value: str, problems: list[str]) -> str:
    """field.Invalid(path, value, detail).Error() for a string value; a nil path prints "<nil>"."""
    return f"{path}: Invalid value: {go_quote(value)}: {'; '.join(problems)}"


def _invalid_list(path: str, values: list[str], problem: str) -> str:
    """field.Invalid with a []string value, which prints as JSON."""
    return f"{path}: Invalid value: {go_json(values)}: {problem}"


def _aggregate(messages: list[str]) -> str:
    """utilerrors.NewAggregate(...).Error() over field errors, duplicates dropped as ToAggregate does."""
    unique = list(dict.fromkeys(messages))
    return unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"


def _regex_error(message: str, pattern: str, *examples: str) -> str:
    shown = " or ".join(f"'{example}', " for example in examples)
    return f"{message} (e.g. {shown}regex used for validation is '{pattern}')"


_QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_QUALIFIED_NAME_ERR = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
)
_QUALIFIED_NAME_REGEX = _regex_error(_QUALIFIED_NAME_ERR, _QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
_LABEL_VALUE_FMT = f"({_QUALIFIED_NAME_FMT})?"
_LABEL_VALUE_ERR = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"  # noqa: E501
_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN_FMT = _DNS1123_LABEL_FMT + "(\\." + _DNS1123_LABEL_FMT + ")*"
_DNS1123_SUBDOMAIN_ERR = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"  # noqa: E501


def _max_len(limit: int) -> str:
    return f"must be no more than {limit} characters"


def _too_long(text: str, limit: int) -> bool:
    return len(text.encode("utf-8", "surrogatepass")) > limit  # Go's len() counts bytes


def _dns1123_subdomain_problems(value: str) -> list[str]:
    problems = [_max_len(253)] if _too_long(value, 253) else []
    if not re.fullmatch(_DNS1123_SUBDOMAIN_FMT, value):
        problems.append(_regex_error(_DNS1123_SUBDOMAIN_ERR, _DNS1123_SUBDOMAIN_FMT, "example.com"))
    return problems


def qualified_name_problems(value: str) -> list[str]:
    """validation.IsQualifiedName: what is wrong with a label key, every problem, in upstream's order."""
    parts = value.split("/")
    if len(parts) > 2:
        return [
            f"a qualified name {_QUALIFIED_NAME_REGEX} with an optional DNS subdomain prefix and '/' "
            "(e.g. 'example.com/MyName')"
        ]
    problems: list[str] = []
    name = parts[-1]
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            problems.append("prefix part must be non-empty")
        else:
            problems += ["prefix part " + problem for problem in _dns1123_subdomain_problems(prefix)]
    if not name:
        problems.append("name part must be non-empty")
    elif _too_long(name, 63):
        problems.append("name part " + _max_len(63))
    if not re.fullmatch(_QUALIFIED_NAME_FMT, name):
        problems.append("name part " + _QUALIFIED_NAME_REGEX)
    return problems


def label_value_problems(value: str) -> list[str]:
    """validation.IsValidLabelValue."""
    problems = [_max_len(63)] if _too_long(value, 63) else []
    if not re.fullmatch(_LABEL_VALUE_FMT, value):
        problems.append(_regex_error(_LABEL_VALUE_ERR, _LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return problems


def _parse_int64(text: str) -> int | None:
    """strconv.ParseInt(text, 10, 64): ASCII digits with an optional sign, in int64 range."""
    if not re.fullmatch(r"[+-]?[0-9]+", text):
        return None
    number = int(text)
    return number if -(2**63) <= number < 2**63 else None


# ---------------------------------------------------------------------------------------------------
# labelSelector: labels.Parse.

# Operators as selection.Operator spells them; the parse error lists the binary ones in this order.
EXISTS, DOES_NOT_EXIST = "exists", "!"
IN, NOT_IN, EQUALS, DOUBLE_EQUALS, NOT_EQUALS, GREATER, LESS = "in", "notin", "=", "==", "!=", "gt", "lt"
BINARY_OPERATORS = (IN, NOT_IN, EQUALS, DOUBLE_EQUALS, NOT_EQUALS, GREATER, LESS)

# Tokens (labels.Token); the literal forms are the ones string2token maps.
ERROR, END, CLOSE_PAREN, COMMA, NOT, DOUBLE_EQUALS_TOKEN, EQUALS_TOKEN = range(7)
GREATER_TOKEN, IDENTIFIER, IN_TOKEN, LESS_TOKEN, NOT_EQUALS_TOKEN, NOT_IN_TOKEN, OPEN_PAREN = range(7, 14)
_LITERAL_TOKENS = {
    ")": CLOSE_PAREN,
    ",": COMMA,
    "!": NOT,
    "==": DOUBLE_EQUALS_TOKEN,
    "=": EQUALS_TOKEN,
    ">": GREATER_TOKEN,
    "in": IN_TOKEN,
    "<": LESS_TOKEN,
    "!=": NOT_EQUALS_TOKEN,
    "notin": NOT_IN_TOKEN,
    "(": OPEN_PAREN,
}
_OPERATOR_OF_TOKEN = {
    IN_TOKEN: IN,
    EQUALS_TOKEN: EQUALS,
    DOUBLE_EQUALS_TOKEN: DOUBLE_EQUALS,
    GREATER_TOKEN: GREATER,
    LESS_TOKEN: LESS,
    NOT_IN_TOKEN: NOT_IN,
    NOT_EQUALS_TOKEN: NOT_EQUALS,
}
_SPECIAL = frozenset("=!(),><")
_WHITESPACE = frozenset(" \t\r\n")
_NUL = "\x00"  # Go's lexer reads byte 0 both at the end and for a NUL in the text: both end a scan


class Lexer:
    """labels.Lexer: identifiers run to the next special symbol or blank; symbols take the longest token."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def _read(self) -> str:
        if self.pos < len(self.text):
            self.pos += 1
            return self.text[self.pos - 1]
        return _NUL

    def _scan_identifier(self) -> tuple[int, str]:
        start = self.pos
        while (char := self._read()) != _NUL:
            if char in _SPECIAL or char in _WHITESPACE:
                self.pos -= 1
                break
        literal = self.text[start : self.pos].split(_NUL, 1)[0]
        return _LITERAL_TOKENS.get(literal, IDENTIFIER), literal

    def _scan_symbol(self) -> tuple[int, str]:
        buffer, best = "", (ERROR, "")
        while (char := self._read()) != _NUL:
            if char not in _SPECIAL:
                self.pos -= 1
                break
            buffer += char
            if buffer in _LITERAL_TOKENS:
                best = (_LITERAL_TOKENS[buffer], buffer)
            elif best[0] != ERROR:
                self.pos -= 1
                break
        return best if best[0] != ERROR else (ERROR, f"error expected: keyword found '{buffer}'")

    def lex(self) -> tuple[int, str]:
        char = self._read()
        while char in _WHITESPACE:
            char = self._read()
        if char == _NUL:
            return END, ""
        self.pos -= 1
        return self._scan_symbol() if char in _SPECIAL else self._scan_identifier()

    def tokens(self) -> Iterator[tuple[int, str]]:
        """Every token up to and including the end (Parser.scan)."""
        while True:
            token = self.lex()
            yield token
            if token[0] == END:
                return


@dataclass(frozen=True, slots=True)
class LabelRequirement:
    key: str
    operator: str
    values: tuple[str, ...]  # sorted and unique, as sets.String.List() hands them over

    def matches(self, labels: Mapping[str, str]) -> bool:
        if self.operator == EXISTS:
            return self.key in labels
        if self.operator == DOES_NOT_EXIST:
            return self.key not in labels
        if self.operator in (NOT_IN, NOT_EQUALS):
            return self.key not in labels or labels[self.key] not in self.values
        if self.key not in labels:
            return False
        if self.operator in (GREATER, LESS):
            return _compare(labels[self.key], self.operator, self.values)
        return labels[self.key] in self.values

    def __str__(self) -> str:
        prefix = "!" if self.operator == DOES_NOT_EXIST else ""
        if self.operator in (EXISTS, DOES_NOT_EXIST):
            return prefix + self.key
        values = ",".join(self.values)
        if self.operator in (IN, NOT_IN):
            return f"{self.key} {self.operator} ({values})"
        symbol = {GREATER: ">", LESS: "<"}.get(self.operator, self.operator)
        return f"{self.key}{symbol}{values}"


def _compare(have: str, operator: str, bound: tuple[str, ...]) -> bool:
    """Gt/Lt: a label that is not an integer matches neither."""
    left, right = _parse_int64(have), _parse_int64(bound[0]) if len(bound) == 1 else None
    if left is None or right is None:
        return False
    return left > right if operator == GREATER else left < right


class LabelQuery:
    """A parsed labelSelector: the AND of its requirements, sorted by key as upstream sorts them."""

    def __init__(self, requirements: list[LabelRequirement]) -> None:
        self._requirements = sorted(requirements, key=lambda requirement: requirement.key)

    def matches(self, labels: Mapping[str, str]) -> bool:
        return all(requirement.matches(labels) for requirement in self._requirements)

    def requirements(self) -> list[LabelRequirement]:
        return list(self._requirements)

    def empty(self) -> bool:
        return not self._requirements

    def __str__(self) -> str:
        return ",".join(str(requirement) for requirement in self._requirements)


def new_label_requirement(key: str, operator: str, values: list[str], path: str = "") -> LabelRequirement:
    """labels.NewRequirement: raise SelectorError with the aggregate of every problem found."""
    child = f"{path}." if path else ""
    problems = []
    if key_problems := qualified_name_problems(key):
        problems.append(_invalid(child + "key", key, key_problems))
    problems += _operator_problems(operator, values, child)
    for index, value in enumerate(values):
        if value_problems := label_value_problems(value):
            problems.append(_invalid(f"{child}values[{index}][{key}]", value, value_problems))
    if problems:
        raise SelectorError(_aggregate(problems))
    return LabelRequirement(key, operator, tuple(values))


def _operator_problems(operator: str, values: list[str], child: str) -> list[str]:
    """How many values each operator takes (the parser always hands over the right number)."""
    path = child + "values"
    if operator in (IN, NOT_IN):
        return [] if values else [_invalid_list(path, values, "for 'in', 'notin' operators, values set can't be empty")]
    if operator in (EQUALS, DOUBLE_EQUALS, NOT_EQUALS):
        return (
            []
            if len(values) == 1
            else [_invalid_list(path, values, "exact-match compatibility requires one single value")]
        )
    if operator in (EXISTS, DOES_NOT_EXIST):
        return (
            []
            if not values
            else [_invalid_list(path, values, "values set must be empty for exists and does not exist")]
        )
    if operator in (GREATER, LESS):
        count = (
            []
            if len(values) == 1
            else [_invalid_list(path, values, "for 'Gt', 'Lt' operators, exactly one value is required")]
        )
        return count + [
            _invalid(f"{path}[{index}]", value, ["for 'Gt', 'Lt' operators, the value must be an integer"])
            for index, value in enumerate(values)
            if _parse_int64(value) is None
        ]
    supported = ", ".join(go_quote(known) for known in (*BINARY_OPERATORS, EXISTS, DOES_NOT_EXIST))
    return [f"{child}operator: Unsupported value: {go_json(operator)}: supported values: {supported}"]


class _LabelParser:
    """labels.Parser: a recursive descent over the scanned tokens. In a value position the words
    "in" and "notin" are identifiers, so `notin=in` selects a label named notin."""

    def __init__(self, text: str) -> None:
        self.items = list(Lexer(text).tokens())
        self.position = 0

    def lookahead(self, values: bool = True) -> tuple[int, str]:
        return self._as_value(self.items[self.position], values)

    def consume(self, values: bool = True) -> tuple[int, str]:
        self.position += 1
        return self._as_value(self.items[self.position - 1], values)

    @staticmethod
    def _as_value(item: tuple[int, str], values: bool) -> tuple[int, str]:
        token, literal = item
        return (IDENTIFIER, literal) if values and token in (IN_TOKEN, NOT_IN_TOKEN) else (token, literal)

    def parse(self) -> list[LabelRequirement]:
        requirements: list[LabelRequirement] = []
        while True:
            token, literal = self.lookahead()
            if token == END:
                return requirements
            if token not in (IDENTIFIER, NOT):
                raise SelectorError(f"found '{literal}', expected: !, identifier, or 'end of string'")
            try:
                requirements.append(self.parse_requirement())
            except SelectorError as error:
                raise SelectorError(f"unable to parse requirement: {error}") from None
            token, literal = self.consume()
            if token == END:
                return requirements
            if token != COMMA:
                raise SelectorError(f"found '{literal}', expected: ',' or 'end of string'")
            token, literal = self.lookahead()
            if token not in (IDENTIFIER, NOT):
                raise SelectorError(f"found '{literal}', expected: identifier after ','")

    def parse_requirement(self) -> LabelRequirement:
        key, operator = self.parse_key_and_infer_operator()
        if operator in (EXISTS, DOES_NOT_EXIST):
            return new_label_requirement(key, operator, [])
        operator = self.parse_operator()
        values = self.parse_values() if operator in (IN, NOT_IN) else self.parse_exact_value()
        return new_label_requirement(key, operator, sorted(values))

    def parse_key_and_infer_operator(self) -> tuple[str, str]:
        operator = ""
        token, literal = self.consume()
        if token == NOT:
            operator = DOES_NOT_EXIST
            token, literal = self.consume()
        if token != IDENTIFIER:
            raise SelectorError(f"found '{literal}', expected: identifier")
        if qualified_name_problems(literal):  # the parser's own check, with its nil path
            raise SelectorError(_invalid("<nil>", literal, qualified_name_problems(literal)))
        if self.lookahead()[0] in (END, COMMA) and operator != DOES_NOT_EXIST:
            operator = EXISTS
        return literal, operator

    def parse_operator(self) -> str:
        token, literal = self.consume(values=False)
        if token not in _OPERATOR_OF_TOKEN:
            raise SelectorError(f"found '{literal}', expected: {', '.join(BINARY_OPERATORS)}")
        return _OPERATOR_OF_TOKEN[token]

    def parse_values(self) -> set[str]:
        token, literal = self.consume()
        if token != OPEN_PAREN:
            raise SelectorError(f"found '{literal}' expected: '('")
        token, literal = self.lookahead()
        if token == CLOSE_PAREN:  # "()" holds the empty value
            self.consume()
            return {""}
        if token not in (IDENTIFIER, COMMA):
            raise SelectorError(f"found '{literal}', expected: ',', ')' or identifier")
        values = self.parse_identifiers_list()
        if self.consume()[0] != CLOSE_PAREN:  # upstream names the token after "(" here
            raise SelectorError(f"found '{literal}', expected: ')'")
        return values

    def parse_identifiers_list(self) -> set[str]:
        values: set[str] = set()
        while True:
            token, literal = self.consume()
            if token == IDENTIFIER:
                values.add(literal)
                following, next_literal = self.lookahead()
                if following == CLOSE_PAREN:
                    return values
                if following != COMMA:
                    raise SelectorError(f"found '{next_literal}', expected: ',' or ')'")
            elif token == COMMA:
                if not values:
                    values.add("")  # "(," starts with an empty value
                following = self.lookahead()[0]
                if following == CLOSE_PAREN:
                    values.add("")  # ",)" ends with one
                    return values
                if following == COMMA:
                    # v1.34 consumes the second comma of ",," too, so "(a,,)" fails on its ")"
                    # (fixed upstream after v1.34: kubernetes commit d4f8bebda089).
                    self.consume()
                    values.add("")
            else:
                raise SelectorError(f"found '{literal}', expected: ',', or identifier")

    def parse_exact_value(self) -> set[str]:
        if self.lookahead()[0] in (END, COMMA):  # "x=" selects the empty value
            return {""}
        token, literal = self.consume()
        if token != IDENTIFIER:
            raise SelectorError(f"found '{literal}', expected: identifier")
        return {literal}


def parse_label_selector(text: str) -> LabelQuery:
    """labels.Parse: "" (or blanks) selects everything; a syntax error raises SelectorError."""
    return LabelQuery(_LabelParser(text).parse())


# ---------------------------------------------------------------------------------------------------
# fieldSelector: fields.ParseSelector.

_TERM_OPERATORS = ("!=", "==", "=")  # "==" before "=" so that "a==b" does not leave "=b"


@dataclass(frozen=True, slots=True)
class FieldRequirement:
    field: str
    operator: str  # "=" (also for "==") or "!="
    value: str

    def matches(self, fields: Mapping[str, str]) -> bool:
        equal = fields.get(self.field, "") == self.value  # a field the object does not offer reads ""
        return equal if self.operator == "=" else not equal

    def __str__(self) -> str:
        return f"{self.field}{self.operator}{escape_field_value(self.value)}"


class FieldQuery:
    """A parsed fieldSelector: the AND of its terms, in the order of their sorted raw text."""

    def __init__(self, requirements: list[FieldRequirement]) -> None:
        self._requirements = requirements

    def matches(self, fields: Mapping[str, str]) -> bool:
        return all(requirement.matches(fields) for requirement in self._requirements)

    def requirements(self) -> list[tuple[str, str, str]]:
        return [(item.field, item.operator, item.value) for item in self._requirements]

    def transform(self, convert: Callable[[str, str], tuple[str, str]]) -> "FieldQuery":
        """fields.Selector.Transform: `convert` may rename a field or raise; a term turned into an
        empty field and value selects everything and is dropped."""
        converted = []
        for item in self._requirements:
            field, value = convert(item.field, item.value)
            if field or value:
                converted.append(FieldRequirement(field, item.operator, value))
        return FieldQuery(converted)

    def __str__(self) -> str:
        return ",".join(str(requirement) for requirement in self._requirements)


def escape_field_value(value: str) -> str:
    """fields.EscapeValue: backslash, comma and equals sign get a backslash."""
    return value.replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=")


def unescape_field_value(text: str) -> str:
    """fields.UnescapeValue: only \\\\, \\, and \\= are escapes; a bare "," or "=" is refused."""
    value, escaped = [], False
    for char in text:
        if escaped:
            if char not in "\\,=":
                raise SelectorError(f"invalid field selector: invalid escape sequence: \\{char}")
            value.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in ",=":
            # Go prints the rune with %v: its number, not the character.
            raise SelectorError(f"invalid field selector: unescaped character in value: {ord(char)}")
        else:
            value.append(char)
    if escaped:
        raise SelectorError("invalid field selector: invalid escape sequence: \\")
    return "".join(value)


def split_field_terms(text: str) -> list[str]:
    """fields.splitTerms: split on commas that no backslash escapes; the backslashes stay."""
    if not text:
        return []
    terms, start, escaped = [], 0, False
    for index, char in enumerate(text):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ",":
            terms.append(text[start:index])
            start = index + 1
    terms.append(text[start:])
    return terms


def split_field_term(term: str) -> tuple[str, str, str] | None:
    """fields.splitTerm: split at the first operator; the left side knows no escapes."""
    for index in range(len(term)):
        for operator in _TERM_OPERATORS:
            if term.startswith(operator, index):
                return term[:index], operator, term[index + len(operator) :]
    return None


def parse_field_selector(text: str) -> FieldQuery:
    """fields.ParseSelector: comma-separated `field=value`, `field==value` or `field!=value` terms."""
    requirements = []
    for term in sorted(split_field_terms(text)):
        if not term:
            continue
        split = split_field_term(term)
        if split is None:
            raise SelectorError(f"invalid selector: '{text}'; can't understand '{term}'")
        field, operator, raw = split
        requirements.append(FieldRequirement(field, "!=" if operator == "!=" else "=", unescape_field_value(raw)))
    return FieldQuery(requirements).transform(lambda field, value: (field, value))


# ---------------------------------------------------------------------------------------------------
# Which field labels each kind accepts (the conversion funcs) and the error each refusal says.

_META = ("metadata.name", "metadata.namespace")


@dataclass(frozen=True, slots=True)
class _Conversion:
    accepted: Mapping[str, str]  # label a client sends -> the label the object's fields use
    refusal: Callable[[str], str]


def _refused(label: str) -> str:
    return f"field label not supported: {label}"


def _refused_for_job(label: str) -> str:
    return f"field label {go_quote(label)} not supported for Job"


def _refused_by_default(label: str) -> str:
    return f"{go_quote(label)} is not a known field selector: only {go_quote(_META[0])}, {go_quote(_META[1])}"


def _same(*labels: str) -> dict[str, str]:
    return {label: label for label in labels}


_EVENT_LABELS = (
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "source",
    "type",
)
# events.k8s.io/v1 names the same fields as the new Event type does, and maps them to core's.
_EVENTS_V1_ALIASES = {
    "regarding." + part: "involvedObject." + part
    for part in ("kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath")
} | {"reportingController": "reportingComponent"}

_DEFAULT_CONVERSION = _Conversion(_same(*_META), _refused_by_default)
# Keyed by (API group, kind); a kind missing here takes DefaultMetaV1FieldSelectorConversion.
_CONVERSIONS: dict[tuple[str, str], _Conversion] = {
    ("", "Pod"): _Conversion(
        _same(
            *_META,
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "spec.hostNetwork",
            "status.phase",
            "status.podIP",
            "status.podIPs",
            "status.nominatedNodeName",
        )
        | {"spec.host": "spec.nodeName"},  # old v1 clients' name for it
        _refused,
    ),
    ("", "Node"): _Conversion(_same("metadata.name", "spec.unschedulable"), _refused),
    ("", "ReplicationController"): _Conversion(_same(*_META, "status.replicas"), _refused),
    ("", "Event"): _Conversion(_same(*_META, *_EVENT_LABELS), _refused),
    ("", "Namespace"): _Conversion(_same("metadata.name", "status.phase"), _refused),
    ("", "Secret"): _Conversion(_same(*_META, "type"), _refused),
    ("", "Service"): _Conversion(_same(*_META, "spec.clusterIP", "spec.type"), _refused),
    ("batch", "Job"): _Conversion(_same(*_META, "status.successful"), _refused_for_job),
    ("events.k8s.io", "Event"): _Conversion(_same(*_META, "reason", "source", "type") | _EVENTS_V1_ALIASES, _refused),
    ("certificates.k8s.io", "CertificateSigningRequest"): _Conversion(
        _same("metadata.name", "spec.signerName"), _refused
    ),
}

# Each kind's API group (the one a bare version like "v1" means) and scope.
_CLUSTER_SCOPED = {
    "Node": "",
    "Namespace": "",
    "PersistentVolume": "",
    "StorageClass": "storage.k8s.io",
    "CSIDriver": "storage.k8s.io",
    "CSINode": "storage.k8s.io",
    "PriorityClass": "scheduling.k8s.io",
    "IngressClass": "networking.k8s.io",
    "RuntimeClass": "node.k8s.io",
    "ClusterRole": "rbac.authorization.k8s.io",
    "ClusterRoleBinding": "rbac.authorization.k8s.io",
    "CertificateSigningRequest": "certificates.k8s.io",
}
_NAMESPACED = {
    **dict.fromkeys(("Pod", "Event", "ReplicationController", "Secret", "Service", "ConfigMap", "ServiceAccount"), ""),
    **dict.fromkeys(("Endpoints", "PersistentVolumeClaim", "LimitRange", "ResourceQuota", "PodTemplate"), ""),
    **dict.fromkeys(("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "ControllerRevision"), "apps"),
    **dict.fromkeys(("Job", "CronJob"), "batch"),
    "HorizontalPodAutoscaler": "autoscaling",
    "PodDisruptionBudget": "policy",
    "Ingress": "networking.k8s.io",
    "NetworkPolicy": "networking.k8s.io",
    "EndpointSlice": "discovery.k8s.io",
    "Lease": "coordination.k8s.io",
    "Role": "rbac.authorization.k8s.io",
    "RoleBinding": "rbac.authorization.k8s.io",
}


def _group_of(kind: str, version: str) -> str:
    """The API group of a request: named in `version` ("events.k8s.io/v1") or the kind's own."""
    if "/" in version:
        return version.rpartition("/")[0]
    return _CLUSTER_SCOPED.get(kind, _NAMESPACED.get(kind, ""))


def _conversion(kind: str, version: str) -> _Conversion:
    return _CONVERSIONS.get((_group_of(kind, version), kind), _DEFAULT_CONVERSION)


def supported_field_labels(kind: str, version: str = "v1") -> frozenset[str]:
    """The field labels the API server accepts in a fieldSelector for `kind` (aliases included:
    Pod's spec.host; events.k8s.io/v1's regarding.* and reportingController)."""
    return frozenset(_conversion(kind, version).accepted)


def check_field_selector(kind: str, query: FieldQuery, version: str = "v1") -> None:
    """Run each term through the kind's conversion func, as the list and watch handlers do before
    reading: a refused label raises SelectorError with the API server's text. An accepted alias is
    rewritten in `query` itself (spec.host becomes spec.nodeName), so that `query.matches` then
    reads the field the object offers, as upstream matches the transformed selector."""
    conversion = _conversion(kind, version)

    def convert(label: str, value: str) -> tuple[str, str]:
        if label not in conversion.accepted:
            raise SelectorError(conversion.refusal(label))
        return conversion.accepted[label], value

    query._requirements = query.transform(convert)._requirements


# ---------------------------------------------------------------------------------------------------
# The fields each object offers (ToSelectableFields), read from its API JSON.


def _get(manifest: Mapping[str, Any], *path: str) -> Any:
    value: Any = manifest
    for key in path:
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


def _text(manifest: Mapping[str, Any], *path: str) -> str:
    """A string field; missing reads "" (the Go zero value)."""
    value = _get(manifest, *path)
    return value if isinstance(value, str) else ""


def _flag(manifest: Mapping[str, Any], *path: str) -> str:
    """A bool field as strconv.FormatBool writes it; missing is false."""
    return "true" if _get(manifest, *path) is True else "false"


def _count(manifest: Mapping[str, Any], *path: str) -> str:
    """An int32 field as strconv.Itoa writes it; missing is 0."""
    value = _get(manifest, *path)
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else "0"


def _object_meta(kind: str, manifest: Mapping[str, Any]) -> dict[str, str]:
    """generic.ObjectMetaFieldsSet: metadata.namespace only for a namespaced kind."""
    fields = {"metadata.name": _text(manifest, "metadata", "name")}
    namespaced = kind in _NAMESPACED or (kind not in _CLUSTER_SCOPED and _get(manifest, "metadata", "namespace"))
    if namespaced:
        fields["metadata.namespace"] = _text(manifest, "metadata", "namespace")
    return fields


def _pod_fields(pod: Mapping[str, Any]) -> dict[str, str]:
    pod_ips = _get(pod, "status", "podIPs")
    first_ip = _text(pod_ips[0], "ip") if isinstance(pod_ips, list) and pod_ips else ""
    return {
        "spec.nodeName": _text(pod, "spec", "nodeName"),
        "spec.restartPolicy": _text(pod, "spec", "restartPolicy"),
        "spec.schedulerName": _text(pod, "spec", "schedulerName"),
        # v1's deprecated serviceAccount stands in for an empty serviceAccountName on conversion.
        "spec.serviceAccountName": _text(pod, "spec", "serviceAccountName") or _text(pod, "spec", "serviceAccount"),
        "spec.hostNetwork": _flag(pod, "spec", "hostNetwork"),
        "status.phase": _text(pod, "status", "phase"),
        # Upstream reads podIPs[0]; v1's podIP alone fills podIPs on conversion.
        "status.podIP": first_ip or _text(pod, "status", "podIP"),
        "status.nominatedNodeName": _text(pod, "status", "nominatedNodeName"),
    }


def _event_fields(event: Mapping[str, Any]) -> dict[str, str]:
    """core/v1's names; an events.k8s.io/v1 Event names the same fields differently."""
    new_api = _text(event, "apiVersion").startswith("events.k8s.io/")
    involved = "regarding" if new_api else "involvedObject"
    controller = _text(event, "reportingController" if new_api else "reportingComponent")
    source = _text(event, "deprecatedSource" if new_api else "source", "component")
    parts = ("kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath")
    return {f"involvedObject.{part}": _text(event, involved, part) for part in parts} | {
        "reason": _text(event, "reason"),
        "reportingComponent": controller,
        "source": source or controller,  # an event without a source names its reporting controller
        "type": _text(event, "type"),
    }


_OWN_FIELDS: dict[str, Callable[[Mapping[str, Any]], dict[str, str]]] = {
    "Pod": _pod_fields,
    "Node": lambda node: {"spec.unschedulable": _flag(node, "spec", "unschedulable")},
    # "name" is a bug upstream keeps for compatibility; no accepted label reaches it.
    "Namespace": lambda ns: {"status.phase": _text(ns, "status", "phase"), "name": _text(ns, "metadata", "name")},
    "Event": _event_fields,
    "Secret": lambda secret: {"type": _text(secret, "type")},
    "Service": lambda svc: {"spec.clusterIP": _text(svc, "spec", "clusterIP"), "spec.type": _text(svc, "spec", "type")},
    "ReplicationController": lambda rc: {"status.replicas": _count(rc, "status", "replicas")},
    "ReplicaSet": lambda rs: {"status.replicas": _count(rs, "status", "replicas")},
    "Job": lambda job: {"status.successful": _count(job, "status", "succeeded")},
    "CertificateSigningRequest": lambda csr: {"spec.signerName": _text(csr, "spec", "signerName")},
}


def selectable_fields(kind: str, manifest: Mapping[str, Any]) -> dict[str, str]:
    """The field set upstream matches a fieldSelector against, for one object in its API JSON:
    strings as they are, bools "true"/"false", counts in decimal, and a missing field as its Go
    zero value ("", "false", "0")."""
    own = _OWN_FIELDS.get(kind)
    return (own(manifest) if own else {}) | _object_meta(kind, manifest)
