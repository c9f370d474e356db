"""A small HTML reader for the tests: the page as a tree of elements, found by id or tag."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    children: list[Element | str] = field(default_factory=list)

    def iter(self, tag: str | None = None):
        for child in self.children:
            if isinstance(child, Element):
                if tag is None or child.tag == tag:
                    yield child
                yield from child.iter(tag)

    @property
    def text(self) -> str:
        parts = [c if isinstance(c, str) else c.text for c in self.children]
        return " ".join(" ".join(parts).split())

    def by_id(self, ident: str) -> Element | None:
        return next((e for e in self.iter() if e.attrs.get("id") == ident), None)


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        if tag == "wbr":
            return  # a place the line may break, no text: the words either side of it join up
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_endtag(self, tag):
        for n in range(len(self.stack) - 1, 0, -1):
            if self.stack[n].tag == tag:
                del self.stack[n:]
                return

    def handle_data(self, data):
        children = self.stack[-1].children
        if children and isinstance(children[-1], str):
            children[-1] += data
        else:
            children.append(data)


class Page:
    """The game page as the tests read it, through the markup contract."""

    def __init__(self, html: str) -> None:
        builder = _Builder()
        builder.feed(html)
        self.root = builder.root
        self.html = html

    def __getitem__(self, ident: str) -> Element:
        element = self.root.by_id(ident)
        assert element is not None, f"no element with id={ident!r}"
        return element

    @property
    def cells(self) -> list[Element]:
        return [e for e in self["board"].iter() if "data-row" in e.attrs]

    @property
    def marks(self) -> str:
        """The board as 9 characters, row by row: X, O or "."."""
        cells = sorted(self.cells, key=lambda e: (int(e.attrs["data-row"]), int(e.attrs["data-col"])))
        return "".join(e.attrs["data-mark"] or "." for e in cells)

    @property
    def links(self) -> dict[tuple[int, int], str]:
        """Playable cell links by (row, column)."""
        found = {}
        for link in self["board"].iter("a"):
            query = parse_qs(urlsplit(link.attrs["href"]).query)
            found[int(query["row"][0]), int(query["col"][0])] = link.attrs["href"]
        return found

    @property
    def state(self) -> str:
        return self["status"].attrs["data-state"]

    @property
    def winner(self) -> str:
        return self["status"].attrs["data-winner"]

    @property
    def result(self) -> str:
        """When the game is over: "win", "loss" or "draw", for the human (X, between friends)."""
        return self["status"].attrs["data-result"]

    @property
    def message(self) -> str | None:
        element = self.root.by_id("message")
        return element.text if element else None

    def form(self, ident: str) -> dict[str, str]:
        """A form's hidden and checked fields, as a browser would submit them."""
        fields = {}
        for field_ in self[ident].iter("input"):
            kind = field_.attrs.get("type", "text")
            if kind in ("hidden", "text") or (kind == "radio" and "checked" in field_.attrs):
                fields[field_.attrs["name"]] = field_.attrs.get("value", "")
        return fields

    def action(self, ident: str) -> str:
        return self[ident].attrs["action"]

    @property
    def title(self) -> str:
        return next(self.root.iter("title")).text
