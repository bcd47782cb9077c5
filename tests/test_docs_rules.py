"""The rules pages (docs/rules/): every rule cited by its anchor exists, every rule-set parameter and
preset is documented, and the pages stand on the repository alone."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from cardroom.guandan.ruleset import PRESETS, RuleSet
from cardroom.shengji.ruleset import PRESETS as SHENGJI_PRESETS
from cardroom.shengji.ruleset import ShengjiRules

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES = DOCS / "rules"
PAGES = ("competition", "classic", "platform", "huopin", "shengji")

CITATION = re.compile(
    r"docs/((?:rules/)?[a-z_-]+\.md)#([A-Za-z0-9_-]+)((?:\s*(?:,|and|or|&)\s*#[A-Za-z0-9_-]+)*)"
)
"""A citation in code, tests or docs of a rule (or of the sources, notation, architecture pages): the
page, the anchor, and the further anchors of the same page that follow it (``docs/rules/shengji.md#pairs
and #tractors``, ``…#round-points, #score-28``), which may run onto the next line."""
FURTHER = re.compile(r"#([A-Za-z0-9_-]+)")
CITED_PAGES = ("rules/", "sources.md", "notation.md", "architecture.md")
"""The pages whose anchors citations must name (the pages that replace the texts outside the repository)."""
LINK = re.compile(r"\]\(([^)\s]*)\)")
EXPLICIT = re.compile(r"<a id=\"([^\"]+)\"></a>")
HEADING = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)
SEARCHED = ("src", "tests", "docs", "bench", "scripts", "native", ".ci")
TOP_LEVEL = ("README.md", "CONTRIBUTING.md", "Makefile", "pyproject.toml")
TEXT_SUFFIXES = {
    ".py",
    ".md",
    ".js",
    ".html",
    ".css",
    ".toml",
    ".txt",
    ".sh",
    ".cpp",
    ".hpp",
    ".h",
    ".cfg",
    ".ini",
    ".yml",
    ".yaml",
    "",
}
OUTSIDE = ("RULES" + ".md", ".." + "/shared", "seed" + " 00", "/work" + "/")
"""The old digest, the folder beside the repository, the numbered texts, an absolute path: spelled in
pieces, so that a search of the repository for them finds none (issue 41's check)."""


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> list[str]:
    """The anchors a page defines: its explicit ``<a id>`` and its headings' slugs."""
    text = page.read_text(encoding="utf-8")
    return EXPLICIT.findall(text) + [slug(heading) for heading in HEADING.findall(text)]


def searched_files() -> list[Path]:
    files = [ROOT / name for name in TOP_LEVEL]
    for folder in SEARCHED:
        files += [
            path
            for path in sorted((ROOT / folder).rglob("*"))
            if path.is_file() and path.suffix in TEXT_SUFFIXES and "__pycache__" not in path.parts
        ]
    return [path for path in files if path.exists()]


def test_the_rule_pages_exist() -> None:
    """One page per rule set and an index (docs/rules/README.md) linking each."""
    index = (RULES / "README.md").read_text(encoding="utf-8")
    for name in PAGES:
        assert (RULES / f"{name}.md").is_file(), f"docs/rules/{name}.md is missing"
        assert f"]({name}.md)" in index, f"docs/rules/README.md does not link {name}.md"


@pytest.mark.parametrize("name", [*PAGES, "README"])
def test_anchors_are_unique_on_a_page(name: str) -> None:
    """An anchor names one rule: no page defines the same anchor twice (explicit or heading)."""
    found = anchors(RULES / f"{name}.md")
    repeated = sorted({anchor for anchor in found if found.count(anchor) > 1})
    assert not repeated, f"docs/rules/{name}.md defines these anchors more than once: {repeated}"


def test_every_cited_rule_exists() -> None:
    """Every ``docs/rules/<page>.md#<anchor>`` in code, tests and docs names an anchor of that page, and so
    does each further ``#anchor`` chained after it (and every citation of docs/sources.md, docs/notation.md
    and docs/architecture.md)."""
    defined = {
        page.relative_to(DOCS).as_posix(): set(anchors(page))
        for page in [*RULES.glob("*.md"), *(DOCS / name for name in CITED_PAGES[1:])]
    }
    broken = []
    for path in searched_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for found in CITATION.finditer(text):
            page = found.group(1)
            number = text.count("\n", 0, found.start()) + 1
            for anchor in [found.group(2), *FURTHER.findall(found.group(3))]:
                if page.startswith(CITED_PAGES) and anchor not in defined.get(page, set()):
                    broken.append(f"{path.relative_to(ROOT)}:{number}: docs/{page}#{anchor}")
    assert not broken, "citations of rules that do not exist:\n" + "\n".join(broken)


PAGE_CITATION = re.compile(r"docs/rules/([A-Za-z0-9_-]+\.md)")


def test_every_cited_rules_page_exists() -> None:
    """Every ``docs/rules/<page>.md`` named in code, tests and docs, with or without an anchor, is a page
    of docs/rules/."""
    missing = []
    for path in searched_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            missing += [
                f"{path.relative_to(ROOT)}:{number}: docs/rules/{page}"
                for page in PAGE_CITATION.findall(line)
                if not (RULES / page).is_file()
            ]
    assert not missing, "citations of rules pages that do not exist:\n" + "\n".join(missing)


def test_every_link_into_the_rule_pages_resolves() -> None:
    """Markdown links of docs/ (and the README) into docs/rules/ (and the sources, notation and
    architecture pages), and within those pages, name an anchor the page defines."""
    broken = []
    for path in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for target in LINK.findall(text):
            file_part, _, anchor = target.partition("#")
            if not anchor or "://" in file_part:
                continue
            page = (path.parent / file_part).resolve() if file_part else path.resolve()
            cited = {(DOCS / name).resolve() for name in CITED_PAGES[1:]}
            if page.parent != RULES.resolve() and page not in cited:
                continue
            if not page.is_file() or anchor not in anchors(page):
                broken.append(f"{path.relative_to(ROOT)}: ({target})")
    assert not broken, "links to missing rules:\n" + "\n".join(broken)


@pytest.mark.parametrize(
    ("rules_type", "page"), [(RuleSet, "competition classic platform huopin"), (ShengjiRules, "shengji")]
)
def test_every_parameter_is_documented(rules_type: type, page: str) -> None:
    """Every rule-set parameter is tabled in docs/rulesets.md and named on a rules page."""
    table = (DOCS / "rulesets.md").read_text(encoding="utf-8")
    pages = "".join((RULES / f"{name}.md").read_text(encoding="utf-8") for name in page.split())
    names = [item.name for item in dataclasses.fields(rules_type) if item.name != "name"]
    assert [name for name in names if f"`{name}`" not in table] == [], "missing from docs/rulesets.md"
    assert [name for name in names if f"`{name}`" not in pages] == [], f"missing from docs/rules ({page})"


def test_every_preset_has_its_page() -> None:
    """Each Guandan preset has a page of its name; each Shengji preset is named on the Shengji page."""
    for name in PRESETS:
        assert (RULES / f"{name}.md").is_file(), f"preset {name} has no page docs/rules/{name}.md"
    shengji = (RULES / "shengji.md").read_text(encoding="utf-8")
    assert [name for name in SHENGJI_PRESETS if f"`{name}`" not in shengji] == []


def test_nothing_cites_a_file_outside_the_repository() -> None:
    """Code, tests, docs, the compiled core and the build files cite the project's own pages only."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {outside!r}"
        for path in searched_files()
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        for outside in OUTSIDE
        if outside in line
    ]
    assert not found, "citations of files outside the repository:\n" + "\n".join(found)


@pytest.mark.parametrize("name", [*PAGES, "README"])
def test_the_pages_stand_on_the_repository(name: str) -> None:
    """The rules pages cite sources by title, never by a file outside the repository."""
    text = (RULES / f"{name}.md").read_text(encoding="utf-8")
    for outside in OUTSIDE:
        assert outside not in text, f"docs/rules/{name}.md refers to {outside!r}"
