"""The console's word wrap against go-wordwrap v1.0.1's behaviour (the cases of its own tests),
which kubectl explain's descriptions go through."""

import pytest

from scheduler_core.kubectl.wordwrap import wrap


@pytest.mark.parametrize(
    ("text", "limit", "wrapped"),
    [
        ("foo", 4, "foo"),
        ("foobarbaz", 4, "foobarbaz"),  # a word longer than the limit stays whole
        ("foo bar baz", 4, "foo\nbar\nbaz"),
        ("foo bars bazzes", 4, "foo\nbars\nbazzes"),
        ("fo sop", 4, "fo\nsop"),
        ("foo bar\u00a0baz", 10, "foo\nbar\u00a0baz"),  # no break at a no-break space
        ("foo\nb\t r\n baz", 4, "foo\nb\t r\n baz"),  # spaces that fit stay; a tab is one character
        ("foo    \nb   ar   ", 4, "foo\nb\nar"),  # spaces that do not fit go, and so do those of a break
        ("foo bar baz\n", 4, "foo\nbar\nbaz\n"),
        ("\nfoo bar\n\n\nbaz\n", 4, "\nfoo\nbar\n\n\nbaz\n"),
        (
            " This is a list: \n\n\t* foo\n\t* bar\n\n\n\t* baz  \nBAM    ",
            6,
            " This\nis a\nlist: \n\n\t* foo\n\t* bar\n\n\n\t* baz\nBAM",
        ),
        ("\u2584 " * 4, 4, "\u2584 \u2584\n" + "\u2584 " * 2),  # widths in characters, not bytes
        ("a b", 0, "a b"),  # kubectl's writer does not wrap at 0
    ],
)
def test_wraps_as_go_wordwrap(text: str, limit: int, wrapped: str) -> None:
    assert wrap(text, limit) == wrapped
