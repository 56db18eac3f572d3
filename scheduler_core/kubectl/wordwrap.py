"""Word wrapping as kubectl's `wrap` template function does it (github.com/mitchellh/go-wordwrap
v1.0.1's WrapString behind kubectl's word-wrap writer): a break only at white space, in place of the
spaces before the word that would pass the limit; a word longer than the limit stays whole; widths
are counted in characters (runes)."""

# unicode.IsSpace, less U+00A0 (no-break space), which go-wordwrap keeps inside words.
_SPACES = frozenset("\t\n\v\f\r \x85\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a")
_SPACES |= frozenset("\u2028\u2029\u202f\u205f\u3000")


def wrap(text: str, limit: int) -> str:
    if limit <= 0:
        return text  # kubectl's writer does not wrap at a limit of 0
    out: list[str] = []
    current = 0  # the width of the line written so far
    word: list[str] = []
    spaces: list[str] = []
    for char in text:
        if char == "\n":
            if not word:
                if current + len(spaces) <= limit:
                    out.extend(spaces)
            else:
                out.extend(spaces)
                out.extend(word)
            spaces, word = [], []
            out.append("\n")
            current = 0
        elif char in _SPACES:
            if not spaces or word:
                current += len(spaces) + len(word)
                out.extend(spaces)
                out.extend(word)
                spaces, word = [], []
            spaces.append(char)
        else:
            word.append(char)
            if current + len(word) + len(spaces) > limit and len(word) < limit:
                out.append("\n")  # the pending spaces give way to the line break
                current = 0
                spaces = []
    if not word:
        if current + len(spaces) <= limit:
            out.extend(spaces)
    else:
        out.extend(spaces)
        out.extend(word)
    return "".join(out)
