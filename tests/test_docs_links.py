"""The README and docs/ as a reader follows them: every relative link reaches a file of the repository (and
the heading or ``<a id>`` it names), docs/README.md lists every page, and the front door cites nothing
outside the repository. Anchors are found as tests/test_docs_rules.py finds them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_docs_rules import DOCS, LINK, OUTSIDE, ROOT, anchors

PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
INDEX = DOCS / "README.md"
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
"""``https:``, ``mailto:``…: a link out of the repository, not checked here."""


def broken_links(page: Path) -> list[str]:
    """The relative links of a Markdown page (outside code blocks) that reach no file, or no anchor of
    the page they name."""
    broken = []
    for target in LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        if not target or SCHEME.match(target):
            continue
        file_part, _, anchor = target.partition("#")
        reached = (page.parent / file_part).resolve() if file_part else page.resolve()
        if not reached.exists():
            broken.append(f"({target}): no {shown(reached)}")
        elif anchor and (reached.suffix != ".md" or anchor not in anchors(reached)):
            broken.append(f"({target}): no anchor #{anchor} in {shown(reached)}")
    return broken


def shown(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    broken = broken_links(page)
    assert not broken, f"{page.relative_to(ROOT)} has broken links:\n" + "\n".join(broken)


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    """The check itself: a missing file, a missing anchor and an anchor of a non-Markdown file are
    reported; a good file link, a heading's anchor, an ``<a id>``, a link out and a code block are not."""
    (tmp_path / "other.md").write_text('# A Heading, with `code`\n\n<a id="rule-x"></a>\n', encoding="utf-8")
    (tmp_path / "picture.png").write_bytes(b"")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md) [h](other.md#a-heading-with-code) [x](other.md#rule-x) [img](picture.png)\n"
        "[out](https://example.org/x) [self](#top)\n\n# Top\n\n"
        "```\n[in code](nowhere.md)\n```\n"
        "[gone](missing.md) [no anchor](other.md#nothing) [png anchor](picture.png#x)\n",
        encoding="utf-8",
    )
    found = broken_links(page)
    assert [line.split(")")[0] + ")" for line in found] == [
        "(missing.md)",
        "(other.md#nothing)",
        "(picture.png#x)",
    ], found


def test_the_index_lists_every_page() -> None:
    """docs/README.md, the docs' index, links every other page of docs/ (the rules pages included)."""
    index = INDEX.read_text(encoding="utf-8")
    linked = {(DOCS / target.partition("#")[0]).resolve() for target in LINK.findall(index)}
    missing = [
        page.relative_to(ROOT).as_posix() for page in PAGES[1:] if page != INDEX and page not in linked
    ]
    assert not missing, "docs/README.md does not list: " + ", ".join(missing)


@pytest.mark.parametrize("page", [ROOT / "README.md", INDEX], ids=["README.md", "docs/README.md"])
def test_the_front_door_stands_on_the_repository(page: Path) -> None:
    """The README and the docs' index cite the rules pages, never a numbered source text, the old rules
    digest or a folder beside the repository."""
    text = page.read_text(encoding="utf-8")
    found = [outside for outside in OUTSIDE if outside in text]
    assert not found, f"{page.relative_to(ROOT)} refers to {found}"


def test_the_readme_use_section_links_every_rules_page() -> None:
    """The README's "Use" section links docs/rules/README.md and the page of every rule set."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    use = readme.split("\n## Use\n", 1)[1].split("\n## ", 1)[0]
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in LINK.findall(use)}
    pages = [DOCS / "rules" / "README.md", *sorted((DOCS / "rules").glob("*.md"))]
    missing = [page.relative_to(ROOT).as_posix() for page in pages if page.resolve() not in linked]
    assert not missing, "the README's Use section does not link: " + ", ".join(missing)
