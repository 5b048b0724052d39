"""Quizzes a group uploads, for end-to-end tests: a sound YAML quiz and a GIFT one. Shared by
the upload, sharing, topic, picker and sandbox tests, so no test imports another."""

from __future__ import annotations

from bot.emulator.driver import ChatView, SimUser
from tests.e2e.harness import Harness

GOOD_YAML = """\
id: my-quiz
guide: gradient-checkpointing
level: beginner
languages: [en]
title: "Our own quiz"
description: "Two questions the group wrote."
questions:
  sum:
    prompt: "How much is 2 + 2?"
    options:
      a: "Four"
      b: "Five"
      c: "Three"
    answer: a
    explanation: "Two and two make four."
  capital:
    prompt: "Which city is the capital of Senegal?"
    options:
      a: "Saint-Louis"
      b: "Dakar"
      c: "Thiès"
    answer: b
    explanation: "Dakar has been the capital since 1960."
"""

GIFT = """\
$CATEGORY: Our own quiz

::sum:: How much is 2 + 2? {
  =Four #Two and two make four.
  ~Five
  ~Three
}

::week:: How many days are there in a week? {
  ~Five days
  =Seven #A week has seven days.
  ~Ten days
}
"""


# Line 8: `sum` has no prompt and no explanation, and its answer (line 12) names no option;
# line 15: `capital` has one option. Before, the first upload told only of the two missing
# fields, and the rest came back on the next upload, in English.
BROKEN = """\
id: my-quiz
guide: gradient-checkpointing
level: beginner
languages: [en]
title: "Our own quiz"
description: "Two questions the group wrote."
questions:
  sum:
    options:
      a: "Four"
      b: "Five"
    answer: c
  capital:
    prompt: "Which city is the capital of Senegal?"
    options:
      a: "Dakar"
    answer: a
    explanation: "Dakar has been the capital since 1960."
"""


EXPECTED = {
    "fr": [
        "Ligne 8\u00a0: question «\u202fsum\u202f», énoncé\u00a0: champ obligatoire manquant",
        "Ligne 8\u00a0: question «\u202fsum\u202f», explication\u00a0: champ obligatoire manquant",
        "Ligne 12\u00a0: question «\u202fsum\u202f», réponse\u00a0: la réponse «\u202fc\u202f» "
        "ne désigne aucune option (options\u00a0: a, b)",
        "Ligne 15\u00a0: question «\u202fcapital\u202f», options\u00a0: 1 option, or une question "
        "en a de 2 à 10",
    ],
    "wo": [
        "Rëdd 8: laaj « sum », mbindum laaj bi: amul, fàww mu am",
        "Rëdd 8: laaj « sum », leeral gi: amul, fàww mu am",
        "Rëdd 12: laaj « sum », tontu bi: tontu « c » du benn ci tànneef yi (tànneef yi: a, b)",
        "Rëdd 15: laaj « capital », tànneef yi: am na 1 tànneef, te laaj dafa war a am 2 ba 10",
    ],
}


async def group_with_admin(h: Harness, lang: str) -> tuple[ChatView, SimUser]:
    admin = h.emu.user(1001, "Awa", language_code=lang)
    group = h.emu.group(-100500, "Study group")
    group.add_member(admin, "creator")
    await h.emu.add_bot_to_group(group, by=admin)
    await group.wait_for(lambda m: "/push" in m.text)
    return group, admin


async def make_group(h: Harness) -> tuple[ChatView, SimUser, SimUser]:
    admin = h.emu.user(1001, "Ada", language_code="en")
    member = h.emu.user(1002, "Awa", language_code="fr")
    group = h.emu.group(-100500, "Study group")
    group.add_member(admin, "creator")
    group.add_member(member, "member")
    await h.emu.add_bot_to_group(group, by=admin)
    await group.wait_for(lambda m: "/push" in m.text)
    return group, admin, member
