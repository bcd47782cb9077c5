"""Names that look alike: a name's *skeleton*, after Unicode TR39 ("Unicode Security Mechanisms",
section 4, "Confusable Detection"), so that the room refuses a new name that only differs from an
account's by characters that look the same (Cyrillic А for Latin A, Greek Ο for O, 1 for l).

``skeleton(name)``: the name NFKC-normalised (full-width and mathematical letters become plain ones),
its invisible characters removed and its runs of spaces made one, decomposed (NFD), each character
replaced by its prototype from :data:`PROTOTYPES`, decomposed again and case-folded. Two names with
the same skeleton read the same to a person; the room lets only one of them be an account's
(docs/accounts.md, "Names").

:data:`PROTOTYPES` is the part of Unicode's confusables.txt (the data behind TR39's skeleton) whose
characters are Latin, Greek, Cyrillic letters or digits and whose prototype is ASCII letters or
digits, taken from the copy that confusable-homoglyphs 3.3.1 ships (MIT; the data is Unicode's,
under the Unicode licence), plus ``|`` → ``l``. PyPI has no maintained TR39 skeleton: that package
and ``confusables`` answer whether a string mixes scripts, not whether two names share a skeleton, and
PyICU's ``SpoofChecker`` needs ICU built from source. Scripts beyond these three (Cherokee Ꭺ,
Armenian Օ) are not covered; NFKC covers the compatibility forms of every script.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

PROTOTYPES: Final[dict[str, str]] = {
    "0": "O",  # DIGIT ZERO
    "1": "l",  # DIGIT ONE
    "I": "l",  # LATIN CAPITAL LETTER I
    "m": "rn",  # LATIN SMALL LETTER M
    "|": "l",  # VERTICAL LINE
    "\u00c6": "AE",  # Æ LATIN CAPITAL LETTER AE
    "\u00e6": "ae",  # æ LATIN SMALL LETTER AE
    "\u0131": "i",  # ı LATIN SMALL LETTER DOTLESS I
    "\u0152": "OE",  # Œ LATIN CAPITAL LIGATURE OE
    "\u0153": "oe",  # œ LATIN SMALL LIGATURE OE
    "\u0184": "b",  # Ƅ LATIN CAPITAL LETTER TONE SIX
    "\u018d": "g",  # ƍ LATIN SMALL LETTER TURNED DELTA
    "\u0196": "l",  # Ɩ LATIN CAPITAL LETTER IOTA
    "\u01a6": "R",  # Ʀ LATIN LETTER YR
    "\u01a7": "2",  # Ƨ LATIN CAPITAL LETTER TONE TWO
    "\u01b7": "3",  # Ʒ LATIN CAPITAL LETTER EZH
    "\u01bc": "5",  # Ƽ LATIN CAPITAL LETTER TONE FIVE
    "\u01bd": "s",  # ƽ LATIN SMALL LETTER TONE FIVE
    "\u01c0": "l",  # ǀ LATIN LETTER DENTAL CLICK
    "\u01c1": "ll",  # ǁ LATIN LETTER LATERAL CLICK
    "\u021c": "3",  # Ȝ LATIN CAPITAL LETTER YOGH
    "\u0222": "8",  # Ȣ LATIN CAPITAL LETTER OU
    "\u0223": "8",  # ȣ LATIN SMALL LETTER OU
    "\u0251": "a",  # ɑ LATIN SMALL LETTER ALPHA
    "\u0261": "g",  # ɡ LATIN SMALL LETTER SCRIPT G
    "\u0263": "y",  # ɣ LATIN SMALL LETTER GAMMA
    "\u0269": "i",  # ɩ LATIN SMALL LETTER IOTA
    "\u026a": "i",  # ɪ LATIN LETTER SMALL CAPITAL I
    "\u026f": "w",  # ɯ LATIN SMALL LETTER TURNED M
    "\u028b": "u",  # ʋ LATIN SMALL LETTER V WITH HOOK
    "\u028f": "y",  # ʏ LATIN LETTER SMALL CAPITAL Y
    "\u02a3": "dz",  # ʣ LATIN SMALL LETTER DZ DIGRAPH
    "\u02a6": "ts",  # ʦ LATIN SMALL LETTER TS DIGRAPH
    "\u02aa": "ls",  # ʪ LATIN SMALL LETTER LS DIGRAPH
    "\u02ab": "lz",  # ʫ LATIN SMALL LETTER LZ DIGRAPH
    "\u037a": "i",  # ͺ GREEK YPOGEGRAMMENI
    "\u037f": "J",  # Ϳ GREEK CAPITAL LETTER YOT
    "\u0391": "A",  # Α GREEK CAPITAL LETTER ALPHA
    "\u0392": "B",  # Β GREEK CAPITAL LETTER BETA
    "\u0395": "E",  # Ε GREEK CAPITAL LETTER EPSILON
    "\u0396": "Z",  # Ζ GREEK CAPITAL LETTER ZETA
    "\u0397": "H",  # Η GREEK CAPITAL LETTER ETA
    "\u0399": "l",  # Ι GREEK CAPITAL LETTER IOTA
    "\u039a": "K",  # Κ GREEK CAPITAL LETTER KAPPA
    "\u039c": "M",  # Μ GREEK CAPITAL LETTER MU
    "\u039d": "N",  # Ν GREEK CAPITAL LETTER NU
    "\u039f": "O",  # Ο GREEK CAPITAL LETTER OMICRON
    "\u03a1": "P",  # Ρ GREEK CAPITAL LETTER RHO
    "\u03a4": "T",  # Τ GREEK CAPITAL LETTER TAU
    "\u03a5": "Y",  # Υ GREEK CAPITAL LETTER UPSILON
    "\u03a7": "X",  # Χ GREEK CAPITAL LETTER CHI
    "\u03b1": "a",  # α GREEK SMALL LETTER ALPHA
    "\u03b3": "y",  # γ GREEK SMALL LETTER GAMMA
    "\u03b9": "i",  # ι GREEK SMALL LETTER IOTA
    "\u03bd": "v",  # ν GREEK SMALL LETTER NU
    "\u03bf": "o",  # ο GREEK SMALL LETTER OMICRON
    "\u03c1": "p",  # ρ GREEK SMALL LETTER RHO
    "\u03c3": "o",  # σ GREEK SMALL LETTER SIGMA
    "\u03c5": "u",  # υ GREEK SMALL LETTER UPSILON
    "\u03d2": "Y",  # ϒ GREEK UPSILON WITH HOOK SYMBOL
    "\u03dc": "F",  # Ϝ GREEK LETTER DIGAMMA
    "\u03f1": "p",  # ϱ GREEK RHO SYMBOL
    "\u03f2": "c",  # ϲ GREEK LUNATE SIGMA SYMBOL
    "\u03f3": "j",  # ϳ GREEK LETTER YOT
    "\u03f9": "C",  # Ϲ GREEK CAPITAL LUNATE SIGMA SYMBOL
    "\u03fa": "M",  # Ϻ GREEK CAPITAL LETTER SAN
    "\u0405": "S",  # Ѕ CYRILLIC CAPITAL LETTER DZE
    "\u0406": "l",  # І CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I
    "\u0408": "J",  # Ј CYRILLIC CAPITAL LETTER JE
    "\u0410": "A",  # А CYRILLIC CAPITAL LETTER A
    "\u0412": "B",  # В CYRILLIC CAPITAL LETTER VE
    "\u0415": "E",  # Е CYRILLIC CAPITAL LETTER IE
    "\u0417": "3",  # З CYRILLIC CAPITAL LETTER ZE
    "\u041a": "K",  # К CYRILLIC CAPITAL LETTER KA
    "\u041c": "M",  # М CYRILLIC CAPITAL LETTER EM
    "\u041d": "H",  # Н CYRILLIC CAPITAL LETTER EN
    "\u041e": "O",  # О CYRILLIC CAPITAL LETTER O
    "\u0420": "P",  # Р CYRILLIC CAPITAL LETTER ER
    "\u0421": "C",  # С CYRILLIC CAPITAL LETTER ES
    "\u0422": "T",  # Т CYRILLIC CAPITAL LETTER TE
    "\u0423": "Y",  # У CYRILLIC CAPITAL LETTER U
    "\u0425": "X",  # Х CYRILLIC CAPITAL LETTER HA
    "\u042b": "bl",  # Ы CYRILLIC CAPITAL LETTER YERU
    "\u042c": "b",  # Ь CYRILLIC CAPITAL LETTER SOFT SIGN
    "\u042e": "lO",  # Ю CYRILLIC CAPITAL LETTER YU
    "\u0430": "a",  # а CYRILLIC SMALL LETTER A
    "\u0431": "6",  # б CYRILLIC SMALL LETTER BE
    "\u0433": "r",  # г CYRILLIC SMALL LETTER GHE
    "\u0435": "e",  # е CYRILLIC SMALL LETTER IE
    "\u043e": "o",  # о CYRILLIC SMALL LETTER O
    "\u0440": "p",  # р CYRILLIC SMALL LETTER ER
    "\u0441": "c",  # с CYRILLIC SMALL LETTER ES
    "\u0443": "y",  # у CYRILLIC SMALL LETTER U
    "\u0445": "x",  # х CYRILLIC SMALL LETTER HA
    "\u0455": "s",  # ѕ CYRILLIC SMALL LETTER DZE
    "\u0456": "i",  # і CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I
    "\u0458": "j",  # ј CYRILLIC SMALL LETTER JE
    "\u0461": "w",  # ѡ CYRILLIC SMALL LETTER OMEGA
    "\u0474": "V",  # Ѵ CYRILLIC CAPITAL LETTER IZHITSA
    "\u0475": "v",  # ѵ CYRILLIC SMALL LETTER IZHITSA
    "\u04ae": "Y",  # Ү CYRILLIC CAPITAL LETTER STRAIGHT U
    "\u04af": "y",  # ү CYRILLIC SMALL LETTER STRAIGHT U
    "\u04bb": "h",  # һ CYRILLIC SMALL LETTER SHHA
    "\u04bd": "e",  # ҽ CYRILLIC SMALL LETTER ABKHASIAN CHE
    "\u04c0": "l",  # Ӏ CYRILLIC LETTER PALOCHKA
    "\u04cf": "i",  # ӏ CYRILLIC SMALL LETTER PALOCHKA
    "\u04d4": "AE",  # Ӕ CYRILLIC CAPITAL LIGATURE A IE
    "\u04d5": "ae",  # ӕ CYRILLIC SMALL LIGATURE A IE
    "\u04e0": "3",  # Ӡ CYRILLIC CAPITAL LETTER ABKHASIAN DZE
    "\u0501": "d",  # ԁ CYRILLIC SMALL LETTER KOMI DE
    "\u050c": "G",  # Ԍ CYRILLIC CAPITAL LETTER KOMI SJE
    "\u051b": "q",  # ԛ CYRILLIC SMALL LETTER QA
    "\u051c": "W",  # Ԝ CYRILLIC CAPITAL LETTER WE
    "\u051d": "w",  # ԝ CYRILLIC SMALL LETTER WE
    "\u1d04": "c",  # ᴄ LATIN LETTER SMALL CAPITAL C
    "\u1d0f": "o",  # ᴏ LATIN LETTER SMALL CAPITAL O
    "\u1d11": "o",  # ᴑ LATIN SMALL LETTER SIDEWAYS O
    "\u1d1c": "u",  # ᴜ LATIN LETTER SMALL CAPITAL U
    "\u1d20": "v",  # ᴠ LATIN LETTER SMALL CAPITAL V
    "\u1d21": "w",  # ᴡ LATIN LETTER SMALL CAPITAL W
    "\u1d22": "z",  # ᴢ LATIN LETTER SMALL CAPITAL Z
    "\u1d26": "r",  # ᴦ GREEK LETTER SMALL CAPITAL GAMMA
    "\u1d6b": "ue",  # ᵫ LATIN SMALL LETTER UE
    "\u1d83": "g",  # ᶃ LATIN SMALL LETTER G WITH PALATAL HOOK
    "\u1d8c": "y",  # ᶌ LATIN SMALL LETTER V WITH PALATAL HOOK
    "\u1e9d": "f",  # ẝ LATIN SMALL LETTER LONG S WITH HIGH STROKE
    "\u1eff": "y",  # ỿ LATIN SMALL LETTER Y WITH LOOP
    "\u1fbe": "i",  # ι GREEK PROSGEGRAMMENI
    "\ua644": "2",  # Ꙅ CYRILLIC CAPITAL LETTER REVERSED DZE
    "\ua647": "i",  # ꙇ CYRILLIC SMALL LETTER IOTA
    "\ua698": "OO",  # Ꚙ CYRILLIC CAPITAL LETTER DOUBLE O
    "\ua699": "oo",  # ꚙ CYRILLIC SMALL LETTER DOUBLE O
    "\ua728": "T3",  # Ꜩ LATIN CAPITAL LETTER TZ
    "\ua731": "s",  # ꜱ LATIN LETTER SMALL CAPITAL S
    "\ua732": "AA",  # Ꜳ LATIN CAPITAL LETTER AA
    "\ua733": "aa",  # ꜳ LATIN SMALL LETTER AA
    "\ua734": "AO",  # Ꜵ LATIN CAPITAL LETTER AO
    "\ua735": "ao",  # ꜵ LATIN SMALL LETTER AO
    "\ua736": "AU",  # Ꜷ LATIN CAPITAL LETTER AU
    "\ua737": "au",  # ꜷ LATIN SMALL LETTER AU
    "\ua738": "AV",  # Ꜹ LATIN CAPITAL LETTER AV
    "\ua739": "av",  # ꜹ LATIN SMALL LETTER AV
    "\ua73a": "AV",  # Ꜻ LATIN CAPITAL LETTER AV WITH HORIZONTAL BAR
    "\ua73b": "av",  # ꜻ LATIN SMALL LETTER AV WITH HORIZONTAL BAR
    "\ua73c": "AY",  # Ꜽ LATIN CAPITAL LETTER AY
    "\ua73d": "ay",  # ꜽ LATIN SMALL LETTER AY
    "\ua74e": "OO",  # Ꝏ LATIN CAPITAL LETTER OO
    "\ua74f": "oo",  # ꝏ LATIN SMALL LETTER OO
    "\ua75a": "2",  # Ꝛ LATIN CAPITAL LETTER R ROTUNDA
    "\ua76a": "3",  # Ꝫ LATIN CAPITAL LETTER ET
    "\ua76e": "9",  # Ꝯ LATIN CAPITAL LETTER CON
    "\ua777": "tf",  # ꝷ LATIN SMALL LETTER TUM
    "\ua798": "F",  # Ꞙ LATIN CAPITAL LETTER F WITH STROKE
    "\ua799": "f",  # ꞙ LATIN SMALL LETTER F WITH STROKE
    "\ua79f": "u",  # ꞟ LATIN SMALL LETTER VOLAPUK UE
    "\ua7ab": "3",  # Ɜ LATIN CAPITAL LETTER REVERSED OPEN E
    "\ua7b2": "J",  # Ʝ LATIN CAPITAL LETTER J WITH CROSSED-TAIL
    "\ua7b3": "X",  # Ꭓ LATIN CAPITAL LETTER CHI
    "\ua7b4": "B",  # Ꞵ LATIN CAPITAL LETTER BETA
    "\uab32": "e",  # ꬲ LATIN SMALL LETTER BLACKLETTER E
    "\uab35": "f",  # ꬵ LATIN SMALL LETTER LENIS F
    "\uab3d": "o",  # ꬽ LATIN SMALL LETTER BLACKLETTER O
    "\uab47": "r",  # ꭇ LATIN SMALL LETTER R WITHOUT HANDLE
    "\uab48": "r",  # ꭈ LATIN SMALL LETTER DOUBLE R
    "\uab4e": "u",  # ꭎ LATIN SMALL LETTER U WITH SHORT RIGHT LEG
    "\uab52": "u",  # ꭒ LATIN SMALL LETTER U WITH LEFT HOOK
    "\uab5a": "y",  # ꭚ LATIN SMALL LETTER Y WITH SHORT RIGHT LEG
    "\uab63": "uo",  # ꭣ LATIN SMALL LETTER UO
}
"""Each confusable character's prototype (TR39's confusables.txt, Latin, Greek and Cyrillic part)."""

INVISIBLE: Final = frozenset(
    [
        "\u00ad",  # SOFT HYPHEN
        "\u034f",  # COMBINING GRAPHEME JOINER
        "\u061c",  # ARABIC LETTER MARK
        "\u115f",  # HANGUL CHOSEONG FILLER
        "\u1160",  # HANGUL JUNGSEONG FILLER
        "\u17b4",  # KHMER VOWEL INHERENT AQ
        "\u17b5",  # KHMER VOWEL INHERENT AA
        *(chr(code) for code in range(0x180B, 0x1810)),  # MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR
        *(chr(code) for code in range(0x200B, 0x2010)),  # ZERO WIDTH SPACE … RIGHT-TO-LEFT MARK
        *(chr(code) for code in range(0x202A, 0x202F)),  # the bidirectional embeddings and overrides
        *(chr(code) for code in range(0x2060, 0x2070)),  # WORD JOINER … the bidirectional isolates
        "\u2800",  # BRAILLE PATTERN BLANK
        "\u3164",  # HANGUL FILLER
        *(chr(code) for code in range(0xFE00, 0xFE10)),  # VARIATION SELECTORS
        "\ufeff",  # ZERO WIDTH NO-BREAK SPACE
        "\uffa0",  # HALFWIDTH HANGUL FILLER
        *(chr(code) for code in range(0x1BCA0, 0x1BCA4)),  # SHORTHAND FORMAT CONTROLS
        *(chr(code) for code in range(0x1D173, 0x1D17B)),  # MUSICAL SYMBOL BEGIN BEAM … END PHRASE
        *(chr(code) for code in range(0xE0000, 0xE1000)),  # TAGS, VARIATION SELECTORS SUPPLEMENT
    ]
)
"""Characters that show nothing: Unicode's Default_Ignorable_Code_Point set (DerivedCoreProperties.txt),
less the unassigned, plus BRAILLE PATTERN BLANK. A name may hold none of them."""

_SPACES: Final = re.compile(r"\s+")


def is_invisible(char: str) -> bool:
    """Whether ``char`` shows nothing (:data:`INVISIBLE`)."""
    return char in INVISIBLE


def skeleton(name: str) -> str:
    """The name's skeleton: what it looks like, case aside (see the module's docstring)."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(char for char in text if char not in INVISIBLE)
    text = _SPACES.sub(" ", text).strip()
    text = unicodedata.normalize("NFD", text)
    text = "".join(PROTOTYPES.get(char, char) for char in text)
    return unicodedata.normalize("NFD", text).casefold()


__all__ = ["INVISIBLE", "PROTOTYPES", "is_invisible", "skeleton"]
