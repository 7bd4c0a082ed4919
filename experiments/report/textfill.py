"""Paragraph filling as GNU fmt does it (coreutils fmt, default options).

The findings of docs/results.md are worded as running text and filled to
76 columns. fill() gives the same lines as `fmt -w 76`: each paragraph
(lines of one indentation, up to a blank line) is broken where the sum of
the line costs is least: a line's cost grows with the square of its
distance from the goal width (93 % of the width) and of its difference
from the next line, with bonuses for breaking after a sentence or other
punctuation and penalties for a lone first or last word of a sentence. A
word ending in . ? or ! (then any closing quotes or brackets) at the end of
an input line, or followed by two spaces, ends a sentence and is followed
by two spaces.
"""

TAB_WIDTH = 8
LEEWAY_PERCENT = 7
MAX_WORDS = 1000
MAX_CHARS = 5000


def _equiv(n):
    return n * n


def _short_cost(n):
    return _equiv(n * 10)


def _ragged_cost(n):
    return _short_cost(n) // 2


LINE_COST = _equiv(70)
SENTENCE_BONUS = _equiv(50)
NOBREAK_COST = _equiv(600)
PAREN_BONUS = _equiv(40)
PUNCT_BONUS = _equiv(40)
LINE_CREDIT = _equiv(3)
MAX_COST = (1 << 63) - 1


def _widow_cost(n):
    return _equiv(200) // (n + 2)


def _orphan_cost(n):
    return _equiv(150) // (n + 2)


SPACES = " \t\n\v\f\r"


def _is_punct(c):
    return 33 <= ord(c) <= 126 and not (c.isascii() and c.isalnum())


class _Word:
    __slots__ = ("text", "length", "space", "paren", "period", "punct", "final",
                 "line_length", "best_cost", "next_break")

    def __init__(self, text):
        self.text = text
        self.length = len(text)
        self.space = 0
        self.paren = text[0] in "(['`\""
        self.punct = _is_punct(text[-1])
        end = len(text) - 1
        while end > 0 and text[end] in ")]'\"":
            end -= 1
        self.period = text[end] in ".?!"
        self.final = False
        self.line_length = 0
        self.best_cost = 0
        self.next_break = None


class _Filler:
    """One fmt run over a text: reads lines, writes filled paragraphs."""

    def __init__(self, text, width):
        self.src = text
        self.pos = 0
        self.max_width = width
        self.goal_width = width * (2 * (100 - LEEWAY_PERCENT) + 1) // 200
        self.out = []
        self.tabs = False
        self.in_column = 0
        self.out_column = 0
        self.other_indent = 0
        self.first_indent = 0
        self.last_line_length = 0
        self.words = []
        self.partial = []
        self.chars = 0

    # --- input ---------------------------------------------------------
    def getc(self):
        if self.pos >= len(self.src):
            return None
        c = self.src[self.pos]
        self.pos += 1
        return c

    def get_space(self, c):
        while True:
            if c == " ":
                self.in_column += 1
            elif c == "\t":
                self.tabs = True
                self.in_column = (self.in_column // TAB_WIDTH + 1) * TAB_WIDTH
            else:
                return c
            c = self.getc()

    def get_prefix(self):
        self.in_column = 0
        return self.get_space(self.getc())

    def same_para(self, c):
        return c is not None and c != "\n"

    def copy_rest(self, c):
        """A blank line (only spaces, or the end): a newline at the end."""
        self.out_column = 0
        if c is None and self.in_column > 0:
            self.out.append("\n")
        return c

    def get_line(self, c):
        while True:
            self.partial = []
            while True:
                if self.chars == MAX_CHARS:
                    self.other_indent = self.first_indent
                    self.flush_paragraph()
                self.partial.append(c)
                self.chars += 1
                c = self.getc()
                if c is None or c in SPACES:
                    break
            word = _Word("".join(self.partial))
            self.partial = []
            self.in_column += word.length
            start = self.in_column
            c = self.get_space(c)
            word.space = self.in_column - start
            word.final = c is None or (word.period and (c == "\n" or word.space > 1))
            if c == "\n" or c is None:
                word.space = 2 if word.final else 1
            if len(self.words) == MAX_WORDS - 2:
                self.other_indent = self.first_indent
                self.partial = list(word.text)
                self.flush_paragraph()
                self.partial = []
            self.words.append(word)
            if c == "\n" or c is None:
                break
        return self.get_prefix()

    def get_paragraph(self, c):
        self.last_line_length = 0
        while c == "\n" or c is None:
            c = self.copy_rest(c)
            if c is None:
                return None, False
            self.out.append("\n")
            c = self.get_prefix()
        self.first_indent = self.in_column
        self.words = []
        self.chars = 0
        c = self.get_line(c)
        self.other_indent = self.first_indent
        while self.same_para(c) and self.in_column == self.other_indent:
            c = self.get_line(c)
        self.words[-1].period = True
        self.words[-1].final = True
        return c, True

    # --- line breaking -------------------------------------------------
    def base_cost(self, i):
        words = self.words
        this = words[i]
        cost = LINE_COST
        if i > 0:
            prev = words[i - 1]
            if prev.period:
                cost += -SENTENCE_BONUS if prev.final else NOBREAK_COST
            elif prev.punct:
                cost -= PUNCT_BONUS
            elif i > 1 and words[i - 2].final:
                cost += _widow_cost(prev.length)
        if this.paren:
            cost -= PAREN_BONUS
        elif this.final:
            cost += _orphan_cost(this.length)
        return cost

    def line_cost(self, nxt, length):
        limit = self.limit
        if nxt == limit:
            return 0
        cost = _short_cost(self.goal_width - length)
        if self.words[nxt].next_break != limit:
            cost += _ragged_cost(length - self.words[nxt].line_length)
        return cost

    def fmt_paragraph(self):
        words = self.words
        limit = self.limit = len(words)
        sentinel = _Word("x")
        sentinel.length = self.max_width
        sentinel.best_cost = 0
        words.append(sentinel)
        for start in range(limit - 1, -1, -1):
            best = MAX_COST
            length = self.first_indent if start == 0 else self.other_indent
            w = start
            length += words[w].length
            while True:
                w += 1
                wcost = self.line_cost(w, length) + words[w].best_cost
                if start == 0 and self.last_line_length > 0:
                    wcost += _ragged_cost(length - self.last_line_length)
                if wcost < best:
                    best = wcost
                    words[start].next_break = w
                    words[start].line_length = length
                if w == limit:
                    break
                length += words[w - 1].space + words[w].length
                if length >= self.max_width:
                    break
            words[start].best_cost = best + self.base_cost(start)
        words.pop()

    def flush_paragraph(self):
        """Full buffers: writes the lines up to a cheap break near the
        end and keeps the rest (and the word being read) for later."""
        if not self.words:
            self.out.append("".join(self.partial))
            self.chars = 0
            self.partial = []
            return
        limit = len(self.words)
        self.fmt_paragraph()
        split_point = limit
        best_break = MAX_COST
        w = self.words[0].next_break
        while w != limit:
            nb = self.words[w].next_break
            nb_cost = self.words[nb].best_cost if nb != limit else 0
            if self.words[w].best_cost - nb_cost < best_break:
                split_point = w
                best_break = self.words[w].best_cost - nb_cost
            if best_break <= MAX_COST - LINE_CREDIT:
                best_break += LINE_CREDIT
            w = nb
        self.put_paragraph(split_point)
        self.words = self.words[split_point:]
        self.chars = sum(word.length for word in self.words) + len(self.partial)

    # --- output --------------------------------------------------------
    def put_space(self, space):
        target = self.out_column + space
        if self.tabs:
            tab_target = target // TAB_WIDTH * TAB_WIDTH
            if self.out_column + 1 < tab_target:
                while self.out_column < tab_target:
                    self.out.append("\t")
                    self.out_column = (self.out_column // TAB_WIDTH + 1) * TAB_WIDTH
        while self.out_column < target:
            self.out.append(" ")
            self.out_column += 1

    def put_line(self, i, indent):
        self.out_column = 0
        self.put_space(indent)
        end = self.words[i].next_break - 1
        while i != end:
            self.out.append(self.words[i].text)
            self.out_column += self.words[i].length
            self.put_space(self.words[i].space)
            i += 1
        self.out.append(self.words[i].text)
        self.out_column += self.words[i].length
        self.last_line_length = self.out_column
        self.out.append("\n")

    def put_paragraph(self, finish):
        self.put_line(0, self.first_indent)
        w = self.words[0].next_break
        while w != finish:
            self.put_line(w, self.other_indent)
            w = self.words[w].next_break

    def run(self):
        c = self.get_prefix()
        while True:
            c, more = self.get_paragraph(c)
            if not more:
                break
            self.fmt_paragraph()
            self.put_paragraph(len(self.words))
        return "".join(self.out)


def fill(text, width=76):
    """The text with each paragraph filled to width columns, as fmt -w.
    Columns count bytes (UTF-8), as fmt's do."""
    as_bytes = text.encode("utf-8").decode("latin-1")
    return _Filler(as_bytes, width).run().encode("latin-1").decode("utf-8")
