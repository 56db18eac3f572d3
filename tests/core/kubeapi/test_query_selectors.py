"""labelSelector and fieldSelector as the v1.34 API server parses, checks and applies them.

The tables are upstream's unit-test tables, restated: kubernetes/apimachinery v0.34.10 (commit
57ea95fcdaa372b20bbb922fa22a8dbd2f4b87db) pkg/labels/selector_test.go and pkg/fields/selector_test.go.
The error texts and per-kind tables come from the upstream files the module's docstring names.
"""

import pytest

from scheduler_core.kubeapi.query_selectors import (
    CLOSE_PAREN,
    COMMA,
    DOES_NOT_EXIST,
    DOUBLE_EQUALS,
    DOUBLE_EQUALS_TOKEN,
    END,
    EQUALS,
    EQUALS_TOKEN,
    EXISTS,
    GREATER,
    GREATER_TOKEN,
    IDENTIFIER,
    IN,
    IN_TOKEN,
    LESS,
    LESS_TOKEN,
    NOT,
    NOT_EQUALS,
    NOT_EQUALS_TOKEN,
    NOT_IN,
    NOT_IN_TOKEN,
    OPEN_PAREN,
    FieldQuery,
    FieldRequirement,
    LabelQuery,
    LabelRequirement,
    Lexer,
    SelectorError,
    _LabelParser,
    check_field_selector,
    escape_field_value,
    go_quote,
    new_label_requirement,
    parse_field_selector,
    parse_label_selector,
    selectable_fields,
    split_field_term,
    split_field_terms,
    supported_field_labels,
    unescape_field_value,
)

NAME_PART_REGEX = (
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
)
LABEL_VALUE_REGEX = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used "
    "for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)
NOT_AN_INTEGER = "for 'Gt', 'Lt' operators, the value must be an integer"
BINARY = "in, notin, =, ==, !=, gt, lt"


def requirement(key: str, operator: str, *values: str) -> LabelRequirement:
    return new_label_requirement(key, operator, sorted(set(values)))


# ------------------------------------------------------------------------------------------ labels


# labels TestSelectorParse (apimachinery 57ea95fc): good strings print back without their blanks.
@pytest.mark.parametrize(
    "text", ["x=a,y=b,z=c", "", "x!=a,y=b", "x=", "x= ", "x=,z= ", "x= ,z= ", "!x", "x>1", "x>1,z<5"]
)
def test_label_selector_parses_and_prints_back(text: str) -> None:
    assert str(parse_label_selector(text)) == text.replace(" ", "")


@pytest.mark.parametrize("text", ["x=a||y=b", "x==a==b", "!x=a", "x<a"])
def test_label_selector_parse_rejects(text: str) -> None:
    with pytest.raises(SelectorError):
        parse_label_selector(text)


# labels TestDeterministicParse (apimachinery 57ea95fc).
def test_label_requirements_come_sorted_by_key() -> None:
    assert str(parse_label_selector("x=a,a=x")) == str(parse_label_selector("a=x,x=a")) == "a=x,x=a"


# labels TestSelectorMatches (apimachinery 57ea95fc).
LABELSET = {"foo": "bar", "baz": "blah"}


@pytest.mark.parametrize(
    ("selector", "labels", "matches"),
    [
        ("", {"x": "y"}, True),
        ("x=y", {"x": "y"}, True),
        ("x=y,z=w", {"x": "y", "z": "w"}, True),
        ("x!=y,z!=w", {"x": "z", "z": "a"}, True),
        ("notin=in", {"notin": "in"}, True),  # in and notin as key and value of an exact match
        ("x", {"x": "z"}, True),
        ("!x", {"y": "z"}, True),
        ("x>1", {"x": "2"}, True),
        ("x<1", {"x": "0"}, True),
        ("x=z", {}, False),
        ("x=y", {"x": "z"}, False),
        ("x=y,z=w", {"x": "w", "z": "w"}, False),
        ("x!=y,z!=w", {"x": "z", "z": "w"}, False),
        ("x", {"y": "z"}, False),
        ("!x", {"x": "z"}, False),
        ("x>1", {"x": "0"}, False),
        ("x<1", {"x": "2"}, False),
        ("foo=bar", LABELSET, True),
        ("baz=blah", LABELSET, True),
        ("foo=bar,baz=blah", LABELSET, True),
        ("foo=blah", LABELSET, False),
        ("baz=bar", LABELSET, False),
        ("foo=bar,foobar=bar,baz=blah", LABELSET, False),
    ],
)
def test_label_selector_matches(selector: str, labels: dict[str, str], matches: bool) -> None:
    assert parse_label_selector(selector).matches(labels) is matches


# labels TestLexer (apimachinery 57ea95fc): Lex returns the longest valid token found.
@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("", END),
        (",", COMMA),
        ("notin", NOT_IN_TOKEN),
        ("in", IN_TOKEN),
        ("=", EQUALS_TOKEN),
        ("==", DOUBLE_EQUALS_TOKEN),
        (">", GREATER_TOKEN),
        ("<", LESS_TOKEN),
        ("!", NOT),
        ("!=", NOT_EQUALS_TOKEN),
        ("(", OPEN_PAREN),
        (")", CLOSE_PAREN),
        ("~", IDENTIFIER),  # characters that are not special belong to an identifier
        ("||", IDENTIFIER),
    ],
)
def test_lexer_single_token(text: str, token: int) -> None:
    assert Lexer(text).lex() == (token, text)


# labels TestLexerSequence and TestParserLookahead (apimachinery 57ea95fc): the scan ends with END.
@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("key in ( value )", [IDENTIFIER, IN_TOKEN, OPEN_PAREN, IDENTIFIER, CLOSE_PAREN]),
        ("key notin ( value )", [IDENTIFIER, NOT_IN_TOKEN, OPEN_PAREN, IDENTIFIER, CLOSE_PAREN]),
        (
            "key in ( value1, value2 )",
            [IDENTIFIER, IN_TOKEN, OPEN_PAREN, IDENTIFIER, COMMA, IDENTIFIER, CLOSE_PAREN],
        ),
        ("key", [IDENTIFIER]),
        ("!key", [NOT, IDENTIFIER]),
        ("()", [OPEN_PAREN, CLOSE_PAREN]),
        ("", []),
        ("x in (),y", [IDENTIFIER, IN_TOKEN, OPEN_PAREN, CLOSE_PAREN, COMMA, IDENTIFIER]),
        (
            "== != (), = notin",
            [DOUBLE_EQUALS_TOKEN, NOT_EQUALS_TOKEN, OPEN_PAREN, CLOSE_PAREN, COMMA, EQUALS_TOKEN, NOT_IN_TOKEN],
        ),
        ("key>2", [IDENTIFIER, GREATER_TOKEN, IDENTIFIER]),
        ("key<1", [IDENTIFIER, LESS_TOKEN, IDENTIFIER]),
    ],
)
def test_lexer_sequence_and_lookahead(text: str, tokens: list[int]) -> None:
    assert [token for token, _ in Lexer(text).tokens()] == [*tokens, END]
    parser = _LabelParser(text)
    for _ in range(len(tokens) + 1):  # lookahead never moves; consume returns what it showed
        assert parser.lookahead(values=False) == parser.consume(values=False)


def test_lexer_splits_symbol_runs_into_tokens() -> None:
    assert list(Lexer("!==<=(( ,").tokens()) == [
        (NOT_EQUALS_TOKEN, "!="),
        (EQUALS_TOKEN, "="),
        (LESS_TOKEN, "<"),
        (EQUALS_TOKEN, "="),
        (OPEN_PAREN, "("),
        (OPEN_PAREN, "("),
        (COMMA, ","),
        (END, ""),
    ]


def test_lexer_stops_at_a_nul_as_go_reads_byte_zero() -> None:
    assert list(Lexer("a\x00b").tokens()) == [(IDENTIFIER, "a"), (IDENTIFIER, "b"), (END, "")]
    assert list(Lexer(" \x00b").tokens()) == [(END, "")]


# labels TestParseOperator (apimachinery 57ea95fc).
@pytest.mark.parametrize(
    ("token", "operator", "error"),
    [
        ("in", IN, None),
        ("=", EQUALS, None),
        ("==", DOUBLE_EQUALS, None),
        (">", GREATER, None),
        ("<", LESS, None),
        ("notin", NOT_IN, None),
        ("!=", NOT_EQUALS, None),
        ("!", None, f"found '!', expected: {BINARY}"),
        ("exists", None, f"found 'exists', expected: {BINARY}"),
        ("(", None, f"found '(', expected: {BINARY}"),
    ],
)
def test_parse_operator(token: str, operator: str | None, error: str | None) -> None:
    parser = _LabelParser(token)
    if error is None:
        assert parser.parse_operator() == operator
    else:
        with pytest.raises(SelectorError) as raised:
            parser.parse_operator()
        assert str(raised.value) == error


# labels TestRequirementConstructor (apimachinery 57ea95fc): upstream compares the error's type,
# field and bad value and ignores its detail; so does this table, through the message's start.
@pytest.mark.parametrize(
    ("key", "operator", "values", "error_start"),
    [
        ("x1", IN, [], "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"),
        ("x2", NOT_IN, [], "values: Invalid value: []"),
        ("x3", IN, ["foo"], None),
        ("x4", NOT_IN, ["foo"], None),
        ("x5", EQUALS, ["bar", "foo"], 'values: Invalid value: ["bar","foo"]: exact-match compatibility'),
        ("x6", EXISTS, [], None),
        ("x7", DOES_NOT_EXIST, [], None),
        ("x8", EXISTS, ["foo"], 'values: Invalid value: ["foo"]: values set must be empty for exists'),
        ("x9", IN, ["bar"], None),
        ("x10", IN, ["bar"], None),
        ("x11", GREATER, ["1"], None),
        ("x12", LESS, ["6"], None),
        ("x13", GREATER, [], "values: Invalid value: []: for 'Gt', 'Lt' operators, exactly one value is required"),
        ("x14", GREATER, ["bar"], f'values[0]: Invalid value: "bar": {NOT_AN_INTEGER}'),
        ("x15", LESS, ["bar"], 'values[0]: Invalid value: "bar"'),
        ("a" * 254, EXISTS, [], f'key: Invalid value: "{"a" * 254}": name part must be no more than 63 characters'),
        ("x16", EQUALS, ["a" * 254], f'values[0][x16]: Invalid value: "{"a" * 254}": must be no more than 63'),
        ("x17", EQUALS, ["a b"], f'values[0][x17]: Invalid value: "a b": {LABEL_VALUE_REGEX}'),
        (
            "x18",
            "unsupportedOp",
            [],
            'operator: Unsupported value: "unsupportedOp": supported values: "in", "notin", "=", "==", "!=", '
            '"gt", "lt", "exists", "!"',
        ),
    ],
)
def test_requirement_constructor(key: str, operator: str, values: list[str], error_start: str | None) -> None:
    if error_start is None:
        assert new_label_requirement(key, operator, values).key == key
    else:
        with pytest.raises(SelectorError) as raised:
            new_label_requirement(key, operator, values)
        assert str(raised.value).startswith(error_start)


# labels TestToString (apimachinery 57ea95fc): values print sorted, "in" sets in parentheses.
@pytest.mark.parametrize(
    ("requirements", "text"),
    [
        (
            [requirement("x", IN, "abc", "def"), requirement("y", NOT_IN, "jkl"), requirement("z", EXISTS)],
            "x in (abc,def),y notin (jkl),z",
        ),
        (
            [requirement("x", NOT_IN, "abc", "def"), requirement("y", NOT_EQUALS, "jkl"), requirement("z", "!")],
            "x notin (abc,def),y!=jkl,!z",
        ),
        (
            [requirement("x", NOT_IN, "abc"), requirement("y", IN, "jkl", "mno"), requirement("z", NOT_IN, "")],
            "x notin (abc),y in (jkl,mno),z notin ()",
        ),
        (
            [
                requirement("x", EQUALS, "abc"),
                requirement("y", DOUBLE_EQUALS, "jkl"),
                requirement("z", NOT_EQUALS, "a"),
                requirement("z", EXISTS),
            ],
            "x=abc,y==jkl,z!=a,z",
        ),
        ([requirement("x", GREATER, "2"), requirement("y", LESS, "8"), requirement("z", EXISTS)], "x>2,y<8,z"),
    ],
)
def test_label_query_to_string(requirements: list[LabelRequirement], text: str) -> None:
    assert str(LabelQuery(requirements)) == text


# labels TestRequirementSelectorMatching (apimachinery 57ea95fc).
@pytest.mark.parametrize(
    ("labels", "requirements", "matches"),
    [
        ({"x": "foo", "y": "baz"}, [requirement("x", IN, "foo"), requirement("y", NOT_IN, "alpha")], True),
        ({"x": "foo", "y": "baz"}, [requirement("x", IN, "foo"), requirement("y", IN, "alpha")], False),
        ({"y": ""}, [requirement("x", NOT_IN, ""), requirement("y", EXISTS)], True),
        ({"y": ""}, [requirement("x", DOES_NOT_EXIST), requirement("y", EXISTS)], True),
        ({"y": ""}, [requirement("x", NOT_IN, ""), requirement("y", DOES_NOT_EXIST)], False),
        ({"y": "baz"}, [requirement("x", IN, "")], False),
        ({"z": "2"}, [requirement("z", GREATER, "1")], True),
        ({"z": "v2"}, [requirement("z", GREATER, "1")], False),
    ],
)
def test_requirement_selector_matching(
    labels: dict[str, str], requirements: list[LabelRequirement], matches: bool
) -> None:
    assert LabelQuery(requirements).matches(labels) is matches


# labels TestSetSelectorParser (apimachinery 57ea95fc): (text, requirements or None when invalid).
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("\rx", [requirement("x", EXISTS)]),
        ("this-is-a-dns.domain.com/key-with-dash", [requirement("this-is-a-dns.domain.com/key-with-dash", EXISTS)]),
        (
            "this-is-another-dns.domain.com/key-with-dash in (so,what)",
            [requirement("this-is-another-dns.domain.com/key-with-dash", IN, "so", "what")],
        ),
        (
            "0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
            [requirement("0.1.2.domain/99", NOT_IN, "10.10.100.1", "tick.tack.clock")],
        ),
        ("foo  in\t (abc)", [requirement("foo", IN, "abc")]),
        ("x notin\n (abc)", [requirement("x", NOT_IN, "abc")]),
        ("x  notin\t\t\t(abc,def)", [requirement("x", NOT_IN, "abc", "def")]),
        ("x in (abc,def)", [requirement("x", IN, "abc", "def")]),
        ("x in (abc,)", [requirement("x", IN, "abc", "")]),
        ("x in ()", [requirement("x", IN, "")]),
        (
            "x notin (abc,,def),bar,z in (),w",
            [
                requirement("bar", EXISTS),
                requirement("w", EXISTS),
                requirement("x", NOT_IN, "abc", "", "def"),
                requirement("z", IN, ""),
            ],
        ),
        ("x,y in (a)", [requirement("x", EXISTS), requirement("y", IN, "a")]),
        ("x=a", [requirement("x", EQUALS, "a")]),
        ("x>1", [requirement("x", GREATER, "1")]),
        ("x<7", [requirement("x", LESS, "7")]),
        ("x=a,y!=b", [requirement("x", EQUALS, "a"), requirement("y", NOT_EQUALS, "b")]),
        (
            "x=a,y!=b,z in (h,i,j)",
            [requirement("x", EQUALS, "a"), requirement("y", NOT_EQUALS, "b"), requirement("z", IN, "h", "i", "j")],
        ),
        ("x=a||y=b", None),
        ("x,,y", None),
        (",x,y", None),
        ("x nott in (y)", None),
        ("x notin ( )", [requirement("x", NOT_IN, "")]),
        ("x notin (, a)", [requirement("x", NOT_IN, "", "a")]),
        ("a in (xyz),", None),
        ("a in (xyz)b notin ()", None),
        ("a ", [requirement("a", EXISTS)]),
        ("a in (x,y,notin, z,in)", [requirement("a", IN, "in", "notin", "x", "y", "z")]),  # operators as values
        ("a in (xyz abc)", None),  # no comma
        ("a notin(", None),  # bad formed
        ("a (", None),
        ("(", None),
        # v1.34 still consumes the second comma of ",," (fixed after v1.34, kubernetes d4f8bebda089,
        # which made these valid): a list that ends in ",," fails on its ")".
        ("x in (a,,)", None),
        ("x in (,,)", None),
    ],
)
def test_set_selector_parser(text: str, expected: list[LabelRequirement] | None) -> None:
    if expected is None:
        with pytest.raises(SelectorError):
            parse_label_selector(text)
    else:
        assert parse_label_selector(text).requirements() == sorted(expected, key=lambda item: item.key)


# The 400 texts, from labels/selector.go's parser (parse, parseRequirement and its helpers), its
# NewRequirement, validateLabelKey/Value, and validation.IsQualifiedName/IsValidLabelValue (57ea95fc).
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x==a==b", "found '==', expected: ',' or 'end of string'"),
        ("!x=a", "found '=', expected: ',' or 'end of string'"),
        ("x,,y", "found ',', expected: identifier after ','"),
        ("a in (xyz),", "found '', expected: identifier after ','"),
        (",x,y", "found ',', expected: !, identifier, or 'end of string'"),
        ("(", "found '(', expected: !, identifier, or 'end of string'"),
        ("x nott in (y)", f"unable to parse requirement: found 'nott', expected: {BINARY}"),
        ("x!", f"unable to parse requirement: found '!', expected: {BINARY}"),
        ("!!x", "unable to parse requirement: found '!', expected: identifier"),
        ("x in y", "unable to parse requirement: found 'y' expected: '('"),
        ("a in (xyz abc)", "unable to parse requirement: found 'abc', expected: ',' or ')'"),
        ("x in (a", "unable to parse requirement: found '', expected: ',' or ')'"),
        ("a notin(", "unable to parse requirement: found '', expected: ',', ')' or identifier"),
        ("x in (a,,)", "unable to parse requirement: found ')', expected: ',', or identifier"),
        ("x=(a)", "unable to parse requirement: found '(', expected: identifier"),
        ("x<a", f'unable to parse requirement: values[0]: Invalid value: "a": {NOT_AN_INTEGER}'),
        (
            "x>99999999999999999999",  # beyond int64
            f'unable to parse requirement: values[0]: Invalid value: "99999999999999999999": {NOT_AN_INTEGER}',
        ),
        # A negative bound is an integer but no label value.
        ("x>-1", f'unable to parse requirement: values[0][x]: Invalid value: "-1": {LABEL_VALUE_REGEX}'),
        (
            "x>a.",
            f'unable to parse requirement: [values[0]: Invalid value: "a.": {NOT_AN_INTEGER}, '
            f'values[0][x]: Invalid value: "a.": {LABEL_VALUE_REGEX}]',
        ),
        ("x=a||y=b", f'unable to parse requirement: values[0][x]: Invalid value: "a||y": {LABEL_VALUE_REGEX}'),
        (
            "x in (b,-a)",  # the index is the value's place in sorted order
            f'unable to parse requirement: values[0][x]: Invalid value: "-a": {LABEL_VALUE_REGEX}',
        ),
        # The parser checks a key itself, with a nil field path.
        ("-x", f'unable to parse requirement: <nil>: Invalid value: "-x": {NAME_PART_REGEX}'),
        (
            "a/=1",
            f'unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; {NAME_PART_REGEX}',
        ),
        ("/a", 'unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty'),
        (
            "a/b/c",
            'unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of '
            "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
            "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
            "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' "
            "(e.g. 'example.com/MyName')",
        ),
        (
            "Example.com/a",
            'unable to parse requirement: <nil>: Invalid value: "Example.com/a": prefix part a lowercase RFC 1123 '
            "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end "
            "with an alphanumeric character (e.g. 'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        ),
        (
            "k" * 64,
            f'unable to parse requirement: <nil>: Invalid value: "{"k" * 64}": name part must be no more than '
            "63 characters",
        ),
        ('a"b', f'unable to parse requirement: <nil>: Invalid value: "a\\"b": {NAME_PART_REGEX}'),
    ],
)
def test_label_selector_error_texts(text: str, message: str) -> None:
    with pytest.raises(SelectorError) as raised:
        parse_label_selector(text)
    assert str(raised.value) == message


def test_label_key_and_value_length_counts_bytes() -> None:
    with pytest.raises(SelectorError, match="must be no more than 63 characters"):
        parse_label_selector("x=" + "a" * 62 + "é")  # 63 characters, 64 bytes
    assert parse_label_selector("x=" + "a" * 63).matches({"x": "a" * 63})


def test_label_numeric_comparison_needs_integer_labels() -> None:
    query = parse_label_selector("x>5")
    assert query.matches({"x": "10"})
    assert not query.matches({"x": "5"})
    assert not query.matches({"x": "ten"})
    assert not query.matches({"x": "1_0"})  # Go's ParseInt takes no underscores
    assert not query.matches({})
    assert parse_label_selector("x<5").matches({"x": "-3"})


def test_label_key_in_and_notin_are_keys_at_the_start_of_a_requirement() -> None:
    assert parse_label_selector("in in (notin)").matches({"in": "notin"})
    assert parse_label_selector("notin").matches({"notin": ""})


def test_go_quote() -> None:
    assert go_quote('a"b\\c') == '"a\\"b\\\\c"'
    assert go_quote("tab\there\x01\x7f") == '"tab\\there\\x01\\x7f"'
    assert go_quote("é\u00a0\U0001f600") == '"é\\u00a0\U0001f600"'


# ------------------------------------------------------------------------------------------ fields


# fields TestSplitTerms (apimachinery 57ea95fc).
@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("a", ["a"]),
        ("a=avalue", ["a=avalue"]),
        ("a=avalue,b=bvalue", ["a=avalue", "b=bvalue"]),
        ("a=avalue,b==bvalue,c!=cvalue", ["a=avalue", "b==bvalue", "c!=cvalue"]),
        ("", []),
        ("a=a,", ["a=a", ""]),
        (",a=a", ["", "a=a"]),
        (r"k=\,,k2=v2", [r"k=\,", "k2=v2"]),  # escaped comma in value
        (r"k=\\,k2=v2", [r"k=\\", "k2=v2"]),  # escaped backslash, unescaped comma
        (r"k=\\\,,k2=v2", [r"k=\\\,", "k2=v2"]),  # escaped backslash and comma
        ("k=\\a\\b\\", ["k=\\a\\b\\"]),  # non-escape sequences
        ("k=\\", ["k=\\"]),  # orphan backslash
        ("함=수,목=록", ["함=수", "목=록"]),  # multi-byte
    ],
)
def test_split_field_terms(text: str, terms: list[str]) -> None:
    assert split_field_terms(text) == terms


# fields TestSplitTerm (apimachinery 57ea95fc).
@pytest.mark.parametrize(
    ("term", "split"),
    [
        ("a=value", ("a", "=", "value")),
        ("b==value", ("b", "==", "value")),
        ("c!=value", ("c", "!=", "value")),
        ("", None),
        ("a", None),
        (r"k=\,", ("k", "=", r"\,")),
        (r"k=\=", ("k", "=", r"\=")),
        ("k=\\\\\\a\\b\\=\\,\\", ("k", "=", "\\\\\\a\\b\\=\\,\\")),
        ("함=수", ("함", "=", "수")),
    ],
)
def test_split_field_term(term: str, split: tuple[str, str, str] | None) -> None:
    assert split_field_term(term) == split


# fields TestEscapeValue (apimachinery 57ea95fc): escaping round-trips; bad escapes are refused.
@pytest.mark.parametrize(
    ("value", "escaped"),
    [("", ""), ("a", "a"), ("=", r"\="), (",", r"\,"), ("\\", "\\\\"), ("\\=\\,\\", r"\\\=\\\,\\")],
)
def test_escape_field_value(value: str, escaped: str) -> None:
    assert escape_field_value(value) == escaped
    assert unescape_field_value(escaped) == value


@pytest.mark.parametrize(
    ("text", "sequence"), [("\\", "\\"), ("\\\\\\", "\\"), (r"\a", r"\a")]
)  # orphan slashes and an unknown escape
def test_unescape_field_value_rejects(text: str, sequence: str) -> None:
    with pytest.raises(SelectorError) as raised:
        unescape_field_value(text)
    assert str(raised.value) == f"invalid field selector: invalid escape sequence: {sequence}"


# fields TestSelectorParse (apimachinery 57ea95fc).
@pytest.mark.parametrize("text", ["x=a,y=b,z=c", "", "x!=a,y=b", r"x=a||y\=b", r"x=a\=\=b"])
def test_field_selector_parses_and_prints_back(text: str) -> None:
    assert str(parse_field_selector(text)) == text


@pytest.mark.parametrize("text", ["x=a||y=b", "x==a==b", "x=a,b", "x in (a)", "x in (a,b,c)", "x"])
def test_field_selector_parse_rejects(text: str) -> None:
    with pytest.raises(SelectorError):
        parse_field_selector(text)


# The texts of those refusals (fields/selector.go parseSelector and UnescapeValue, 57ea95fc).
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x=a||y=b", "invalid field selector: unescaped character in value: 61"),  # Go prints the rune's number
        ("x==a==b", "invalid field selector: unescaped character in value: 61"),
        ("x=a,b", "invalid selector: 'x=a,b'; can't understand 'b'"),
        ("x in (a)", "invalid selector: 'x in (a)'; can't understand 'x in (a)'"),
        ("x in (a,b,c)", "invalid selector: 'x in (a,b,c)'; can't understand 'b'"),  # terms are tried sorted
        ("x", "invalid selector: 'x'; can't understand 'x'"),
        ("a!b", "invalid selector: 'a!b'; can't understand 'a!b'"),
        (r"k=a\b", r"invalid field selector: invalid escape sequence: \b"),
        ("k=a\\", "invalid field selector: invalid escape sequence: \\"),
        (r"a\=b=c", "invalid field selector: unescaped character in value: 61"),  # no escapes left of the operator
    ],
)
def test_field_selector_error_texts(text: str, message: str) -> None:
    with pytest.raises(SelectorError) as raised:
        parse_field_selector(text)
    assert str(raised.value) == message


# fields TestDeterministicParse (apimachinery 57ea95fc), and requirements() in that order.
def test_field_terms_come_in_sorted_order() -> None:
    assert str(parse_field_selector("x=a,a=x")) == str(parse_field_selector("a=x,x=a")) == "a=x,x=a"
    assert parse_field_selector("b==c,a!=d").requirements() == [("a", "!=", "d"), ("b", "=", "c")]
    assert parse_field_selector(r"k=\,,k2=v2").requirements() == [("k2", "=", "v2"), ("k", "=", ",")]


def test_field_selector_drops_empty_terms() -> None:
    assert parse_field_selector("a=b,,").requirements() == [("a", "=", "b")]
    assert parse_field_selector("=,!=").requirements() == []  # empty field and value select everything
    assert parse_field_selector("=x").requirements() == [("", "=", "x")]


# fields TestSelectorMatches (apimachinery 57ea95fc).
FIELDSET = {"foo": "bar", "baz": "blah", "complex": "=value\\,\\"}


@pytest.mark.parametrize(
    ("selector", "fields", "matches"),
    [
        ("", {"x": "y"}, True),
        ("x=y", {"x": "y"}, True),
        ("x=y,z=w", {"x": "y", "z": "w"}, True),
        ("x!=y,z!=w", {"x": "z", "z": "a"}, True),
        ("notin=in", {"notin": "in"}, True),
        ("x=y", {"x": "z"}, False),
        ("x=y,z=w", {"x": "w", "z": "w"}, False),
        ("x!=y,z!=w", {"x": "z", "z": "w"}, False),
        ("foo=bar", FIELDSET, True),
        ("baz=blah", FIELDSET, True),
        ("foo=bar,baz=blah", FIELDSET, True),
        (r"foo=bar,baz=blah,complex=\=value\\\,\\", FIELDSET, True),
        ("foo=blah", FIELDSET, False),
        ("baz=bar", FIELDSET, False),
        ("foo=bar,foobar=bar,baz=blah", FIELDSET, False),
        ("missing=", FIELDSET, True),  # a field the object does not offer reads ""
        ("missing!=", FIELDSET, False),
    ],
)
def test_field_selector_matches(selector: str, fields: dict[str, str], matches: bool) -> None:
    assert parse_field_selector(selector).matches(fields) is matches


# fields TestTransform (apimachinery 57ea95fc).
@pytest.mark.parametrize(
    ("selector", "rename", "result"),
    [
        ("", {}, ""),
        ("a=b,c=d", {}, "a=b,c=d"),
        ("a=b,c=d", {"a": ("e", "f")}, "e=f,c=d"),
        ("a=b", {"a": ("", "")}, ""),
        ("a=b,c=d,e=f", {"c": ("", "")}, "a=b,e=f"),
    ],
)
def test_field_query_transform(selector: str, rename: dict[str, tuple[str, str]], result: str) -> None:
    query = parse_field_selector(selector)
    transformed = query.transform(lambda field, value: rename.get(field, (field, value)))
    assert str(transformed) == result
    assert (transformed.requirements() == []) is (result == "")


def test_field_requirement_prints_escaped_value() -> None:
    assert str(FieldQuery([FieldRequirement("a", "!=", "x,y=z\\")])) == r"a!=x\,y\=z\\"


# ------------------------------------------------------------------------------------------ kinds

META = {"metadata.name", "metadata.namespace"}
POD_LABELS = {
    "spec.nodeName",
    "spec.restartPolicy",
    "spec.schedulerName",
    "spec.serviceAccountName",
    "spec.hostNetwork",
    "status.phase",
    "status.podIP",
    "status.podIPs",
    "status.nominatedNodeName",
}
EVENT_LABELS = {
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
}


# The conversion funcs: core/v1 @0158de93, batch/v1 @42e06c58, events/v1 @a79f3c78, certificates/v1
# @736e3b68; every other kind (apps, autoscaling, policy, storage...) takes runtime's fallback.
@pytest.mark.parametrize(
    ("kind", "version", "labels"),
    [
        ("Pod", "v1", META | POD_LABELS | {"spec.host"}),
        ("Node", "v1", {"metadata.name", "spec.unschedulable"}),
        ("Namespace", "v1", {"metadata.name", "status.phase"}),
        ("Event", "v1", META | EVENT_LABELS),
        (
            "Event",
            "events.k8s.io/v1",
            META
            | {"reason", "source", "type", "reportingController"}
            | {f"regarding.{part}" for part in ("kind", "namespace", "name", "uid", "apiVersion")}
            | {"regarding.resourceVersion", "regarding.fieldPath"},
        ),
        ("ReplicationController", "v1", META | {"status.replicas"}),
        ("Secret", "v1", META | {"type"}),
        ("Service", "v1", META | {"spec.clusterIP", "spec.type"}),
        ("Job", "v1", META | {"status.successful"}),
        ("Job", "batch/v1", META | {"status.successful"}),
        ("CertificateSigningRequest", "v1", {"metadata.name", "spec.signerName"}),
        ("ReplicaSet", "v1", META),  # apps/v1 registers no conversion func: status.replicas is refused
        ("Deployment", "v1", META),
        ("StatefulSet", "v1", META),
        ("DaemonSet", "v1", META),
        ("CronJob", "v1", META),
        ("HorizontalPodAutoscaler", "v2", META),
        ("PersistentVolumeClaim", "v1", META),
        ("PriorityClass", "v1", META),  # the fallback takes metadata.namespace even for cluster-scoped kinds
        ("PersistentVolume", "v1", META),
        ("Widget", "v1", META),
    ],
)
def test_supported_field_labels(kind: str, version: str, labels: set[str]) -> None:
    assert supported_field_labels(kind, version) == labels
    for label in labels:
        check_field_selector(kind, parse_field_selector(f"{label}=x"), version)


@pytest.mark.parametrize(
    ("kind", "version", "selector", "message"),
    [
        ("Pod", "v1", "spec.containers=x", "field label not supported: spec.containers"),
        ("Pod", "v1", "=x", "field label not supported: "),
        ("Node", "v1", "metadata.namespace=default", "field label not supported: metadata.namespace"),
        ("Namespace", "v1", "name=default", "field label not supported: name"),
        ("Event", "v1", "regarding.kind=Pod", "field label not supported: regarding.kind"),
        ("Event", "events.k8s.io/v1", "involvedObject.kind=Pod", "field label not supported: involvedObject.kind"),
        ("Secret", "v1", "data=x", "field label not supported: data"),
        ("Job", "v1", "status.active=1", 'field label "status.active" not supported for Job'),
        ("Job", "batch/v1", 'a"b=1', 'field label "a\\"b" not supported for Job'),
        (
            "ReplicaSet",
            "v1",
            "status.replicas=0",
            '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
        ),
        (
            "Deployment",
            "apps/v1",
            "spec.paused=true",
            '"spec.paused" is not a known field selector: only "metadata.name", "metadata.namespace"',
        ),
        # Terms are checked in their sorted order; the first refusal is the answer.
        ("Pod", "v1", "zz=1,aa=2,status.phase=Running", "field label not supported: aa"),
    ],
)
def test_check_field_selector_refuses(kind: str, version: str, selector: str, message: str) -> None:
    with pytest.raises(SelectorError) as raised:
        check_field_selector(kind, parse_field_selector(selector), version)
    assert str(raised.value) == message


def test_check_field_selector_rewrites_aliases_in_place() -> None:
    query = parse_field_selector("spec.host=node-1,status.phase!=Failed")
    check_field_selector("Pod", query)
    assert query.requirements() == [("spec.nodeName", "=", "node-1"), ("status.phase", "!=", "Failed")]
    events = parse_field_selector("regarding.name=web-0,reportingController=kubelet")
    check_field_selector("Event", events, "events.k8s.io/v1")
    assert events.requirements() == [("involvedObject.name", "=", "web-0"), ("reportingComponent", "=", "kubelet")]


POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {"name": "web-0", "namespace": "default", "labels": {"app": "web"}},
    "spec": {
        "nodeName": "node-1",
        "restartPolicy": "Always",
        "schedulerName": "default-scheduler",
        "serviceAccountName": "default",
        "hostNetwork": True,
        "containers": [{"name": "c"}],
    },
    "status": {
        "phase": "Running",
        "podIP": "10.0.0.7",
        "podIPs": [{"ip": "10.0.0.7"}, {"ip": "fd00::7"}],
        "nominatedNodeName": "node-2",
    },
}


# pkg/registry/core/pod/strategy.go ToSelectableFields @008b3652959c.
def test_pod_selectable_fields() -> None:
    assert selectable_fields("Pod", POD) == {
        "metadata.name": "web-0",
        "metadata.namespace": "default",
        "spec.nodeName": "node-1",
        "spec.restartPolicy": "Always",
        "spec.schedulerName": "default-scheduler",
        "spec.serviceAccountName": "default",
        "spec.hostNetwork": "true",
        "status.phase": "Running",
        "status.podIP": "10.0.0.7",
        "status.nominatedNodeName": "node-2",
    }


def test_pending_pod_offers_zero_values() -> None:
    pending = {"metadata": {"name": "p", "namespace": "ns"}, "spec": {"serviceAccount": "legacy"}, "status": {}}
    fields = selectable_fields("Pod", pending)
    assert fields["spec.nodeName"] == fields["status.podIP"] == fields["status.phase"] == ""
    assert fields["spec.hostNetwork"] == "false"
    assert fields["spec.serviceAccountName"] == "legacy"  # the deprecated field fills the empty one


@pytest.mark.parametrize(
    ("selector", "matches"),
    [
        ("spec.nodeName=node-1", True),
        ("spec.host=node-1", True),
        ("spec.nodeName=,status.phase=Running", False),
        ("status.phase!=Running", False),
        ("spec.hostNetwork=true,metadata.namespace=default", True),
        ("status.podIPs=10.0.0.7", False),  # accepted, but the pod never offers it
        ("status.podIPs=", True),
        ("metadata.name==web-0", True),
    ],
)
def test_pod_field_selector_end_to_end(selector: str, matches: bool) -> None:
    query = parse_field_selector(selector)
    check_field_selector("Pod", query)
    assert query.matches(selectable_fields("Pod", POD)) is matches


# pkg/registry/core/node/strategy.go NodeToSelectableFields (@00bdb3fade2e): cluster-scoped.
@pytest.mark.parametrize(("spec", "unschedulable"), [({"unschedulable": True}, "true"), ({}, "false")])
def test_node_selectable_fields(spec: dict[str, bool], unschedulable: str) -> None:
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-1"}, "spec": spec}
    assert selectable_fields("Node", node) == {"metadata.name": "node-1", "spec.unschedulable": unschedulable}
    query = parse_field_selector("spec.unschedulable=true")
    check_field_selector("Node", query)
    assert query.matches(selectable_fields("Node", node)) is (unschedulable == "true")


# pkg/registry/core/namespace/strategy.go NamespaceToSelectableFields @04a46264dbfc.
def test_namespace_selectable_fields() -> None:
    namespace = {"metadata": {"name": "team-a"}, "status": {"phase": "Terminating"}}
    assert selectable_fields("Namespace", namespace) == {
        "metadata.name": "team-a",
        "status.phase": "Terminating",
        "name": "team-a",  # upstream's kept bug; no accepted label reads it
    }


CORE_EVENT = {
    "apiVersion": "v1",
    "kind": "Event",
    "metadata": {"name": "web-0.1", "namespace": "default"},
    "involvedObject": {
        "kind": "Pod",
        "namespace": "default",
        "name": "web-0",
        "uid": "u-1",
        "apiVersion": "v1",
        "resourceVersion": "42",
        "fieldPath": "spec.containers{c}",
    },
    "reason": "Pulled",
    "source": {"component": "kubelet", "host": "node-1"},
    "reportingComponent": "kubelet",
    "type": "Normal",
}


# pkg/registry/core/event/strategy.go ToSelectableFields: "source" falls back to reportingComponent.
def test_event_selectable_fields() -> None:
    assert selectable_fields("Event", CORE_EVENT) == {
        "metadata.name": "web-0.1",
        "metadata.namespace": "default",
        "involvedObject.kind": "Pod",
        "involvedObject.namespace": "default",
        "involvedObject.name": "web-0",
        "involvedObject.uid": "u-1",
        "involvedObject.apiVersion": "v1",
        "involvedObject.resourceVersion": "42",
        "involvedObject.fieldPath": "spec.containers{c}",
        "reason": "Pulled",
        "reportingComponent": "kubelet",
        "source": "kubelet",
        "type": "Normal",
    }
    scheduler_event = CORE_EVENT | {"source": {}, "reportingComponent": "default-scheduler"}
    assert selectable_fields("Event", scheduler_event)["source"] == "default-scheduler"


def test_events_api_event_offers_core_field_names() -> None:
    new_event = {
        "apiVersion": "events.k8s.io/v1",
        "kind": "Event",
        "metadata": {"name": "e", "namespace": "default"},
        "regarding": {"kind": "Pod", "name": "web-0", "namespace": "default"},
        "reportingController": "default-scheduler",
        "reason": "Scheduled",
        "type": "Normal",
    }
    fields = selectable_fields("Event", new_event)
    assert fields["involvedObject.name"] == "web-0"
    assert fields["reportingComponent"] == fields["source"] == "default-scheduler"
    query = parse_field_selector("regarding.kind=Pod,reportingController=default-scheduler")
    check_field_selector("Event", query, "events.k8s.io/v1")
    assert query.matches(fields)


@pytest.mark.parametrize(
    ("selector", "matches"),
    [
        ("involvedObject.kind=Pod,involvedObject.name=web-0", True),
        ("involvedObject.uid=u-1,type!=Warning", True),
        ("reason=Failed", False),
        ("source=kubelet,reportingComponent=kubelet", True),
    ],
)
def test_event_field_selector_end_to_end(selector: str, matches: bool) -> None:
    query = parse_field_selector(selector)
    check_field_selector("Event", query)
    assert query.matches(selectable_fields("Event", CORE_EVENT)) is matches


# The other registries: secret, service, replicationcontroller, replicaset, job; and a kind that
# keeps the default attributes (namespaced: name and namespace).
@pytest.mark.parametrize(
    ("kind", "body", "fields"),
    [
        ("Secret", {"type": "Opaque"}, {"type": "Opaque"}),
        (
            "Service",
            {"spec": {"clusterIP": "None", "type": "ClusterIP"}},
            {"spec.clusterIP": "None", "spec.type": "ClusterIP"},
        ),
        ("ReplicationController", {}, {"status.replicas": "0"}),
        ("ReplicaSet", {"status": {"replicas": 3}}, {"status.replicas": "3"}),
        ("Job", {"status": {"succeeded": 2}}, {"status.successful": "2"}),
        ("Job", {"status": {}}, {"status.successful": "0"}),
        ("Deployment", {"spec": {"replicas": 2}}, {}),
    ],
)
def test_namespaced_kinds_selectable_fields(kind: str, body: dict[str, object], fields: dict[str, str]) -> None:
    manifest = {"metadata": {"name": "x", "namespace": "n"}} | body
    assert selectable_fields(kind, manifest) == fields | {"metadata.name": "x", "metadata.namespace": "n"}


@pytest.mark.parametrize(
    ("kind", "manifest", "fields"),
    [
        (
            "CertificateSigningRequest",
            {"metadata": {"name": "csr-1"}, "spec": {"signerName": "kubernetes.io/kubelet-serving"}},
            {"metadata.name": "csr-1", "spec.signerName": "kubernetes.io/kubelet-serving"},
        ),
        ("PriorityClass", {"metadata": {"name": "high"}, "value": 1000}, {"metadata.name": "high"}),
        ("PersistentVolume", {"metadata": {"name": "pv-1"}}, {"metadata.name": "pv-1"}),
        ("Widget", {"metadata": {"name": "w"}}, {"metadata.name": "w"}),
        ("Widget", {"metadata": {"name": "w", "namespace": "n"}}, {"metadata.name": "w", "metadata.namespace": "n"}),
    ],
)
def test_cluster_scoped_and_unknown_kinds_selectable_fields(
    kind: str, manifest: dict[str, object], fields: dict[str, str]
) -> None:
    assert selectable_fields(kind, manifest) == fields


def test_cluster_scoped_kind_accepts_namespace_but_matches_only_empty() -> None:
    query = parse_field_selector("metadata.namespace=default")
    check_field_selector("PriorityClass", query)  # the fallback accepts it
    assert not query.matches(selectable_fields("PriorityClass", {"metadata": {"name": "high"}}))
    assert parse_field_selector("metadata.namespace=").matches(selectable_fields("PriorityClass", {"metadata": {}}))
