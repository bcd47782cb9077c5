"""A small HTML tree for the printout tests (the standard library's parser): elements with their
classes, children and text, so a test asks for "the cells of row 2 of the pairing table"."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"meta", "link", "br", "hr", "img", "input"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    children: list[Element | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    @property
    def text(self) -> str:
        """The text inside, as a reader sees it (HTML entities decoded), spaces collapsed."""
        parts = [child if isinstance(child, str) else child.text for child in self.children]
        return " ".join("".join(parts).split())

    def iter(self) -> Iterator[Element]:
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter()

    def find_all(self, tag: str, css: str = "") -> list[Element]:
        return [e for e in self.iter() if e.tag == tag and (not css or css in e.classes)]

    def find(self, tag: str, css: str = "") -> Element:
        found = self.find_all(tag, css)
        assert found, f"no <{tag} class={css!r}>"
        return found[0]

    def rows(self) -> list[list[str]]:
        """A table's body rows as cell texts."""
        return [[cell.text for cell in row.find_all("td")] for row in self.find("tbody").find_all("tr")]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: str) -> Element:
    """The document's tree; every element opened is closed in order (a test fails otherwise)."""
    builder = _Builder()
    builder.feed(html)
    builder.close()
    assert builder.stack == [builder.root], "elements left open"
    return builder.root
