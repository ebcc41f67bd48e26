"""Any text made fit for a voice before text-to-speech: markdown, HTML, emoji, web addresses, units, times.

``for_voice`` cleans a whole text; ``VoiceText`` cleans a text that arrives in pieces (a ``synthesize-chunk``
stream), holding back only what could still be markup (an open ``**``, a code fence, a table or a list) and
giving out the same words as the whole text would. Markdown is read by markdown-it-py (CommonMark, with GFM
tables and strikethrough); the words inside markup are kept, the marks never said. Rules: docs/speech.md.
"""

from __future__ import annotations

import html
import re

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from .language import join, spoken_word
from .symbols import site, symbols_for_speech

SHORT_ITEM_WORDS = 4
"""A bullet list whose items all have at most this many words (and no punctuation) is said as one list."""

RUN_ON_WORDS = 12
"""Streamed prose with more words than this and no sentence end is given out at a gap between two words."""

_PARSER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
_CONTINUES = "\u2060"  # a word joiner put before text that goes on mid-line: it never starts a block
_END = re.compile(r"[.!?:;…]$")
_HTML_COMMENT = re.compile(r"<!--.*?(-->|$)", re.S)
_TAG = re.compile(r"<[^>]*>")


class _Say:
    """Renders one markdown tree as lines of speech in one language."""

    def __init__(self, language: str) -> None:
        self.language = language

    # ------------------------------------------------------------ blocks
    def blocks(self, node: SyntaxTreeNode) -> list[str]:
        kind = node.type
        if kind in ("paragraph", "heading"):
            said = self.inline(node.children[0]) if node.children else ""
            return [_ended(said) if kind == "heading" else said]
        if kind in ("bullet_list", "ordered_list"):
            return self.items(node)
        if kind in ("fence", "code_block"):
            return [spoken_word(self.language, "code_block")] if node.content.strip() else []
        if kind == "html_block":
            return [self.text(html.unescape(_TAG.sub(" ", _HTML_COMMENT.sub(" ", node.content))))]
        if kind == "hr":
            return []
        if kind == "table":
            return self.table(node)
        return [line for child in node.children for line in self.blocks(child)]

    def items(self, node: SyntaxTreeNode) -> list[str]:
        items = [self.item(item) for item in node.children]
        if node.type == "bullet_list" and items and all(_short(item) for item in items):
            return [_ended(join([item[0] for item in items], self.language))]
        start = int(str(node.attrs.get("start", 1))) if node.type == "ordered_list" else None
        lines = []
        for index, item in enumerate(items):
            for position, line in enumerate(item):
                number = f"{start + index}. " if start is not None and position == 0 else ""
                lines.append(number + _ended(line))
        return lines

    def item(self, node: SyntaxTreeNode) -> list[str]:
        """A list item's lines; a task box ("[x] Buy milk") is said after it as yes or no ("Buy milk, yes")."""
        lines = [line for child in node.children for line in self.blocks(child) if line]
        box = re.match(r"\[([ xX])\]\s+", lines[0]) if lines else None
        if box:
            done = spoken_word(self.language, "no" if box.group(1) == " " else "yes")
            lines[0] = f"{lines[0][box.end() :]}, {done}"
        return lines

    def table(self, node: SyntaxTreeNode) -> list[str]:
        rows: list[tuple[bool, list[str]]] = []
        for part in node.children:  # thead, tbody
            for row in part.children:
                cells = [self.inline(cell.children[0]) if cell.children else "" for cell in row.children]
                rows.append((part.type == "thead", cells))
        header = next((cells for head, cells in rows if head), [])
        body = [cells for head, cells in rows if not head]
        if not body:
            return [_ended(", ".join(c for c in header if c))] if any(header) else []
        lines = []
        for cells in body:
            said = [
                f"{header[i]}: {cell}" if i < len(header) and header[i] and header[i] != cell else cell
                for i, cell in enumerate(cells)
                if cell
            ]
            if said:
                lines.append(_ended(", ".join(said)))
        return lines

    # ------------------------------------------------------------ inline
    def inline(self, node: SyntaxTreeNode) -> str:
        return self.text(self.words(node))

    def words(self, node: SyntaxTreeNode) -> str:
        kind = node.type
        if kind == "text":
            return node.content
        if kind in ("softbreak", "hardbreak"):
            return "\n"
        if kind == "code_inline":
            return _code_words(node.content)
        if kind == "html_inline":
            return "\n" if re.match(r"<br\b", node.content, re.I) else " "
        said = "".join(self.words(child) for child in node.children)
        if kind == "link":
            href = str(node.attrs.get("href", ""))
            if not said.strip() or said.strip() == href or re.match(r"(?i)(https?://|www\.)", said.strip()):
                return href.removeprefix("mailto:") if href.startswith("mailto:") else site(href)
        if kind == "image":
            return f" {said} " if said.strip() else " "
        return said

    def text(self, text: str) -> str:
        """Signs as words, then spacing: one space between words, none before punctuation."""
        lines = []
        for line in symbols_for_speech(text, self.language).split("\n"):
            line = re.sub(r"\s+", " ", line).strip()
            line = re.sub(r"\s+([,.;:!?])(?=\s|$)", r"\1", line)
            line = re.sub(r"^[,.;:]\s*|([,;:])[,;:]+", r"\1", line)
            line = re.sub(r"([.!?])[.]+(?=\s|$)", r"\1", line)
            if re.search(r"\w", line):
                lines.append(line)
        return "\n".join(lines)


def _ended(line: str) -> str:
    """A heading, list item or table row ended with a full stop so it is said as a sentence of its own."""
    line = line.rstrip().rstrip(",")
    return line + "." if line and not _END.search(line) else line


def _short(item: list[str]) -> bool:
    return len(item) == 1 and len(item[0].split()) <= SHORT_ITEM_WORDS and not re.search(r"[.!?:;,\n]", item[0])


def _code_words(code: str) -> str:
    """Inline code as words: a name or file name as it is ("config.yaml"), anything else by its words only."""
    if re.fullmatch(r"[\w.\-/ ]*", code):
        return f" {code} "
    return " " + " ".join(re.findall(r"\w+", code)) + " "


def for_voice(text: str, language: str = "en") -> str:
    """``text`` (plain, markdown, HTML, or what an LLM wrote) as plain sentences for text-to-speech in
    ``language`` ("en", "de-DE"; unknown: English): emphasis and strikethrough keep their words, headings,
    list items and table rows become sentences (short bullet items one spoken list: "Milk, eggs and bread."),
    links say their text, code blocks are said as "A code block.", inline code by its words; emoji, web
    addresses, units, times and dates as :func:`.symbols.symbols_for_speech` says them. Lines are kept as
    lines (a line break ends a sentence for the voice); "" when nothing is left to say."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    tree = SyntaxTreeNode(_PARSER.parse(text))
    lines = _Say(language).blocks(tree)
    return "\n".join(line for line in lines if line).replace(_CONTINUES, "").strip()


# ---------------------------------------------------------------- streamed text
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_LIST = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:\s|$)")
_BLOCK = re.compile(r"^ {0,3}(?:#{1,6}(?:\s|$)|>|<|[-*_=]{2,}\s*$)|^(?: {4}|\t)")
_SENTENCE = re.compile(r"[.!?…][\"')\]]*(?=\s)")
_WORD_GAP = re.compile(r"(?<=[^\W\d_])\s+(?=[^\W\d_]+\s)")  # between two words (not "21.5 °C")
_OPEN_MARKS = re.compile(r"[*`~\[\]]|(?<!\w)_|_(?!\w)|<[A-Za-z/!][^>]*$")


def _kind(line: str) -> str:
    """What a line is, as far as cutting a stream goes: blank, fence, list, table, block (heading, quote,
    HTML, rule, indented) or para."""
    if not line.strip():
        return "blank"
    if _FENCE.match(line):
        return "fence"
    if _LIST.match(line):
        return "list"
    if "|" in line:
        return "table"
    return "block" if _BLOCK.match(line) else "para"


def _balanced(text: str) -> bool:
    """Whether ``text`` (one paragraph so far) leaves no inline markup open that later text could close."""
    for token in _PARSER.parseInline(text):
        for child in token.children or []:
            if child.type == "text" and _OPEN_MARKS.search(child.content):
                return False
    return True


def _cut(text: str, continues: bool) -> int:
    """Where ``text`` (the stream's unsaid text) can be cut so that its head is said as it would be in the
    whole text: before or after a finished block (a paragraph, heading, code fence, list or table), or after a
    sentence of a paragraph whose inline markup is closed. 0: not yet. ``continues``: ``text`` starts
    mid-line (its first line is prose)."""
    lines = text.split("\n")
    best, pos, para = 0, 0, 0
    fence, container, gap, in_para = "", "", False, False
    for index, line in enumerate(lines):
        complete = index < len(lines) - 1
        start = pos
        end = pos = pos + len(line) + 1
        if not complete and not fence and not re.match(r"\s*\S+\s", line):
            return best  # what the last line is cannot be told yet
        kind = "para" if index == 0 and continues else _kind(line)
        if kind == "block" and in_para and line[:1] in " \t":
            kind = "para"  # an indented line inside a paragraph goes on with it
        if fence:
            if complete and re.match(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$", line):
                fence, best = "", end
        elif kind == "blank":
            gap, in_para = bool(container), False
            if not container and complete:
                best = end
        elif container and (not gap or (container == "list" and (kind == "list" or line[:1] in " \t"))):
            gap = False  # the list, table or quote goes on
        else:
            if container:
                container, gap, best = "", False, start  # it ended at the blank line before this one
            if kind == "para":
                if not in_para:
                    para, in_para = start, True
                for match in _SENTENCE.finditer(line):
                    if start + match.end() < len(text) and _balanced(text[para : start + match.end()]):
                        best = max(best, start + match.end())
                if not complete and len(text[max(para, best) : end].split()) > RUN_ON_WORDS:
                    for match in reversed(list(_WORD_GAP.finditer(line))):  # prose without punctuation
                        if _balanced(text[para : start + match.end()]):
                            best = max(best, start + match.end())
                            break
                following = lines[index + 1] if complete else ""
                known = index + 2 < len(lines) or re.match(r"\s*\S+\s", following) is not None
                underline = re.match(r"^ {0,3}(=+|-+)\s*$", following) is not None
                if complete and known and not underline and _balanced(text[para:end]):
                    best = end
                continue
            if not in_para:
                best = max(best, start)
            in_para = False
            if kind == "fence":
                opening = _FENCE.match(line)
                fence = opening.group(1) if opening else "```"
            elif kind == "block" and re.match(r"^ {0,3}#", line):
                if complete:
                    best = end
                else:
                    return best
            else:
                container = kind  # a list, a table, a quote, HTML or indented code: until a blank line
    return best


class VoiceText:
    """One text stream cleaned for a voice as it arrives (see :func:`for_voice`).

    ``feed`` takes the next piece of text (cut anywhere, even inside ``**`` or a code fence) and returns the
    cleaned text that is ready to be said ("" while markup may still be open); ``finish`` returns the rest.
    The pieces returned, joined, say the same words as ``for_voice`` of the whole text."""

    def __init__(self, language: str = "en") -> None:
        self.language = language
        self._raw = ""
        self._continues = False  # the raw text starts mid-line

    def feed(self, text: str) -> str:
        """Take ``text``; return what can be said now, maybe "" (ended by a space or a line break when
        something was said: the voice's sentence splitter sees the sentence end)."""
        self._raw += text
        cut = _cut(self._raw, self._continues)
        if cut <= 0:
            return ""
        head, self._raw = self._raw[:cut], self._raw[cut:]
        said = for_voice((_CONTINUES if self._continues else "") + head, self.language)
        self._continues = not head.endswith("\n")
        if self._continues:
            self._raw = self._raw.lstrip(" \t")
        return said + (" " if self._continues else "\n") if said else ""

    def finish(self) -> str:
        """The rest of the stream, cleaned (maybe "")."""
        said = for_voice((_CONTINUES if self._continues else "") + self._raw, self.language)
        self._raw = ""
        return said
