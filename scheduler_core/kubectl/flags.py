"""kubectl's command line as cobra and pflag read it: words split as a shell splits them, a leading
`kubectl` dropped, `--name=value`, `--name value`, `-x value`, `-xvalue`, boolean flags, and the
errors pflag writes for a flag it does not know."""

import shlex
from dataclasses import dataclass, field


class UsageError(ValueError):
    """A command line kubectl refuses: str(error) is its message; the caller adds cobra's line
    "See 'kubectl VERB --help' for usage." (a flag error) or, with `examples`, cmdutil.UsageErrorf's
    "See 'kubectl VERB -h' for help and examples"."""

    def __init__(self, message: str, *, examples: bool = False) -> None:
        super().__init__(message)
        self.examples = examples


class CommandError(ValueError):
    """An error kubectl prints alone: str(error) is the whole message ("error: ...")."""


@dataclass(frozen=True, slots=True)
class Flag:
    long: str
    short: str = ""
    takes_value: bool = True


# The flags every command here reads (kubectl's globals and the ones these commands share).
COMMON = (Flag("namespace", "n"), Flag("all-namespaces", "A", False), Flag("kubeconfig"), Flag("context"))


@dataclass(slots=True)
class Parsed:
    args: list[str] = field(default_factory=list)
    values: dict[str, str] = field(default_factory=dict)

    def flag(self, name: str) -> bool:
        return self.values.get(name, "false").lower() not in ("false", "0")

    def value(self, name: str, default: str = "") -> str:
        return self.values.get(name, default)


def split(line: str) -> list[str]:
    try:
        words = shlex.split(line)
    except ValueError as error:
        raise UsageError(f"error: {error}") from None
    return words[1:] if words[:1] == ["kubectl"] else words


def parse(words: list[str], flags: tuple[Flag, ...]) -> Parsed:
    known = {flag.long: flag for flag in (*COMMON, *flags)}
    short = {flag.short: flag for flag in (*COMMON, *flags) if flag.short}
    parsed = Parsed()
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word == "--":
            parsed.args.extend(words[index:])
            break
        if word.startswith("--"):
            name, has_value, value = word[2:].partition("=")
            flag = known.get(name)
            if flag is None:
                raise UsageError(f"error: unknown flag: --{name}")
            if flag.takes_value and not has_value:
                if index >= len(words):
                    raise UsageError(f"error: flag needs an argument: --{name}")
                value, index = words[index], index + 1
            parsed.values[flag.long] = value if (flag.takes_value or has_value) else "true"
        elif word.startswith("-") and len(word) > 1:
            index = _shorthands(word, words, index, short, parsed)
        else:
            parsed.args.append(word)
    return parsed


def _shorthands(word: str, words: list[str], index: int, short: dict[str, Flag], parsed: Parsed) -> int:
    """`-A`, `-n ns`, `-nns`, `-Aw`: pflag's shorthand clusters."""
    letters = word[1:]
    position = 0
    while position < len(letters):
        letter = letters[position]
        flag = short.get(letter)
        if flag is None:
            raise UsageError(f"error: unknown shorthand flag: '{letter}' in {word}")
        rest = letters[position + 1 :]
        if not flag.takes_value:
            parsed.values[flag.long] = "true"
            position += 1
            continue
        if rest:
            parsed.values[flag.long] = rest.removeprefix("=")
        elif index < len(words):
            parsed.values[flag.long], index = words[index], index + 1
        else:
            raise UsageError(f"error: flag needs an argument: '{letter}' in {word}")
        break
    return index


# kubectl get's flags here (the console's get and its -w follow-ups read a line with them).
GET_FLAGS = (
    Flag("output", "o"),
    Flag("selector", "l"),
    Flag("field-selector"),
    Flag("show-labels", takes_value=False),
    Flag("no-headers", takes_value=False),
    Flag("watch", "w", False),
)
