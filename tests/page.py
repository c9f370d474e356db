"""A small HTML reader for the tests: the page as a tree of elements, found by id or tag.

The page is parsed by selectolax's Lexbor parser (HTML5's tree building, as a browser does, in C:
some thirty times quicker than the standard library's html.parser, which took about half the
CPU of the every-position tests); Element is a thin view of a parsed node. As in a browser, a
<template>'s content is no part of the page (its element is)."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode


class Element:
    """An element of the page: its tag, its attributes, its children (elements and text), its text."""

    __slots__ = ("_attrs", "node")

    def __init__(self, node: LexborNode) -> None:
        self.node = node
        self._attrs: dict[str, str] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Element) and self.node.mem_id == other.node.mem_id

    def __hash__(self) -> int:
        return self.node.mem_id

    def __repr__(self) -> str:
        return f"Element({self.tag!r}, {self.attrs!r})"

    @property
    def tag(self) -> str:
        return self.node.tag

    @property
    def attrs(self) -> dict[str, str]:
        """The attributes as written; one written without a value (`checked`) is ""."""
        if self._attrs is None:
            self._attrs = {name: value or "" for name, value in self.node.attributes.items()}
        return self._attrs

    @property
    def children(self) -> list[Element | str]:
        """Elements and text, in order; comments left out."""
        found: list[Element | str] = []
        for child in self.node.iter(include_text=True):
            if child.is_element_node:
                found.append(Element(child))
            elif child.is_text_node:
                found.append(child.text_content or "")
        return found

    def iter(self, tag: str | None = None) -> Iterator[Element]:
        """Every element below this one (not itself), in document order; only `tag`'s if given."""
        nodes = self.node.traverse(include_text=False)
        next(nodes)  # the element itself
        for node in nodes:
            if node.is_element_node and (tag is None or node.tag == tag):
                yield Element(node)

    @property
    def text(self) -> str:
        """All the text below, each piece apart from the next, white space run into single spaces."""
        return " ".join(self.node.text(deep=True, separator=" ").split())

    def by_id(self, ident: str) -> Element | None:
        quoted = ident.replace("\\", "\\\\").replace('"', '\\"')
        node = self.node.css_first(f'[id="{quoted}"]')
        return None if node is None or node.mem_id == self.node.mem_id else Element(node)


def parse(html: str) -> Element:
    """The document; a <wbr> (a place the line may break, no text) is dropped and the words either side join up."""
    tree = LexborHTMLParser(html)
    if "<wbr" in html:
        tree.strip_tags(["wbr"])
        tree.merge_text_nodes()
    return Element(tree.root.parent if tree.root.parent is not None else tree.root)


class Page:
    """The game page as the tests read it, through the markup contract."""

    def __init__(self, html: str) -> None:
        self.root = parse(html)
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
