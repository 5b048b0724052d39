"""One QTI 2.1 assessmentItem -> a draft question, or a reason (with its line) it is left out.

The subset quizbot reads is the one it writes (bot/content/formats/qti_item_writer.py), read the
way other tools write it too:

- one interaction per item: a choiceInteraction (cardinality single: `single`, or `true_false`
  when its two choices are True and False; cardinality multiple: `multiple`), or a
  textEntryInteraction whose response is a float or an integer (`number`). Any other
  interaction, several in one item, or none, leaves the item out with its line;
- the key and weights of a choice: qti_choice.py; a number's tolerance and unit: qti_number.py;
- the item body and the interaction's prompt -> the prompt, modalFeedback -> the explanation
  (several joined, reported), feedbackInline/feedbackBlock appended and reported; XHTML -> our
  text via html_text (formatting lost is reported); the first picture of the body is the
  question's, the first of the feedback the explanation's (others reported).
"""

from __future__ import annotations

from xml.etree.ElementTree import Element

from bot.content.formats.draft import DraftQuestion
from bot.content.formats.qti_choice import read_choice
from bot.content.formats.qti_item_read import ItemRead, ItemTexts, children, first
from bot.content.formats.qti_number import read_number
from bot.content.formats.qti_text import local
from bot.content.formats.safe_xml import line_of
from bot.content.problems import N_, Msg


def read_item(root: Element, read: ItemRead) -> DraftQuestion | None:
    """The item as a draft question; None when it is left out (reported at its line)."""
    report, line = read.report, line_of(root)
    if local(root.tag) != "assessmentItem":
        report.skip(line, Msg(N_("<{name}> is not an assessmentItem"), name=local(root.tag)))
        return None
    body = first(root, "itemBody")
    if body is None:
        report.skip(line, Msg(N_("the item has no itemBody")))
        return None
    interactions = [el for el in body.iter() if local(el.tag).endswith("Interaction")]
    if not interactions:
        report.skip(line_of(body), Msg(N_("no interaction: a text without a question")))
        return None
    if len(interactions) > 1:  # n >= 2: one plural form in en, fr and wo alike
        report.skip(
            line_of(interactions[1]),
            Msg(
                N_("{n} interactions in one item: quizbot reads items with one"),
                n=len(interactions),
            ),
        )
        return None
    interaction = interactions[0]
    name, at = local(interaction.tag), line_of(interaction)
    declarations = {d.get("identifier", ""): d for d in children(root, "responseDeclaration")}
    declaration = declarations.get(interaction.get("responseIdentifier", ""))
    if name not in ("choiceInteraction", "textEntryInteraction"):
        report.skip(
            at,
            Msg(N_("{interaction}: not supported (quizbot reads choiceInteraction and a numeric "
                   "textEntryInteraction)"), interaction=name),
        )  # fmt: skip
        return None
    if declaration is None:
        report.skip(at, Msg(N_("the interaction's response has no responseDeclaration")))
        return None
    if root.get("adaptive") == "true":
        report.note(line, Msg(N_("adaptive item: read as a single attempt")))
    texts = ItemTexts(read, line)
    if name == "choiceInteraction":
        question = read_choice(root, body, interaction, declaration, read, texts)
    else:
        question = read_number(root, body, interaction, declaration, read, texts)
    if question is not None and texts.dropped:
        report.note(
            line, Msg(N_("formatting not kept: {tags}"), tags=", ".join(sorted(texts.dropped)))
        )
    return question
