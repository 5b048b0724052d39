"""Anki decks (.apkg, .colpkg) -> quiz drafts: every note a flashcard, one quiz per deck.

- Basic notes (and Basic-and-reversed, type-in-the-answer: a standard note type with two fields)
  become `kind: flashcard`, the front field the prompt and the back field the explanation; a
  reverse card is not made (reported once per note type).
- Cloze notes become one flashcard per deletion number (`anki_cloze`): the front hides that
  deletion as `[...]` (or `[hint]`), the back is the whole text and the Back Extra field.
- Any other note type: its first field is the front, its second the back, and the rest left
  out (reported once per note type).
- The deck of a note's first card is its quiz, titled with the deck's name (`Parent::Child`);
  Anki's Default deck takes the file's name. Tags are kept on the question (a comment in YAML).
- Fields are HTML: `html_text` turns them into our text (a dropped tag is reported once, at the
  first note that has it); `<img>` files in the package's media become the front's and the
  back's pictures (PNG or JPEG, one per side; others reported); `[sound:...]` is removed and
  reported. The review history is not imported (said once when the collection has one).

Anki has no lines: a problem names the note by its position in the collection (1 = the oldest
note), in the place where a text format gives a line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote

from bot.content.formats.anki_cloze import cloze_cards
from bot.content.formats.anki_collection import (
    DEFAULT_DECK,
    Collection,
    CollectionRefused,
    Note,
    NoteType,
    read_collection,
)
from bot.content.formats.anki_package import Package, PackageRefused, open_package
from bot.content.formats.draft import (
    DEFAULT_LIMITS,
    FLASHCARD,
    DraftPicture,
    DraftQuestion,
    DraftQuiz,
    Limits,
    ParseResult,
    clean_text,
    slug,
    unique,
)
from bot.content.formats.html_text import HtmlImage, html_to_text
from bot.content.formats.safe_zip import ZipLimits
from bot.content.media import JPEG_MAGIC, MAX_IMAGE_BYTES, PNG_MAGIC
from bot.content.problems import N_, Msg

QUIZBOT_GUID = re.compile(r"^quizbot:[a-z0-9-]{1,64}:[a-z]{2,3}:([A-Za-z0-9_-]{1,64})$")
_SOUND = re.compile(r"\[sound:([^\]\n]{0,300})\]")
_SUFFIX = re.compile(r"\.(apkg|colpkg)$", re.IGNORECASE)


def parse(
    data: bytes, name: str = "deck", lang: str = "en", limits: Limits = DEFAULT_LIMITS
) -> ParseResult:
    """One draft per deck that has notes; every refusal a `Msg` at note (line) 1."""
    result = ParseResult()
    if len(data) > limits.max_bytes:
        result.skip(1, Msg(N_("the file is {size} bytes; at most {most} are accepted"),
                           size=len(data), most=limits.max_bytes))  # fmt: skip
        return result
    zip_limits = ZipLimits.for_input(limits.max_bytes)
    try:
        package = open_package(data, zip_limits.max_member_bytes, zip_limits)
        collection = read_collection(package.collection, limits.max_questions)
    except (PackageRefused, CollectionRefused) as exc:
        result.skip(1, exc.message)
        return result
    _Reader(package, collection, _SUFFIX.sub("", name), lang, limits, result).read()
    return result


@dataclass(slots=True)
class _Side:
    text: str
    picture: DraftPicture | None


@dataclass(slots=True)
class _Reader:
    package: Package
    collection: Collection
    name: str
    lang: str
    limits: Limits
    result: ParseResult
    by_deck: dict[int, list[DraftQuestion]] = field(default_factory=dict)
    ids: dict[int, set[str]] = field(default_factory=dict)
    said: set[tuple[str, str]] = field(default_factory=set)  # reported once: (what, which)
    count: int = 0
    full: bool = False  # the flashcard limit is reached (said once)

    def read(self) -> None:
        if self.package.media_unread:
            self.result.note(1, Msg(N_("the package's media list could not be read: its "
                                       "pictures are left out")))  # fmt: skip
        if self.collection.scheduled:
            self.result.note(1, Msg(N_("Anki's review history and schedule are not imported: "
                                       "every card starts new in quizbot")))  # fmt: skip
        for note in self.collection.notes:
            if self.count >= self.limits.max_questions:
                self._too_many(note.position)
            if self.full:
                break
            self._note(note)
        if self.collection.more_notes:
            self._too_many(len(self.collection.notes) + 1)
        self._quizzes()

    def _too_many(self, position: int) -> None:
        if self.full:
            return
        self.full = True
        most = self.limits.max_questions
        self.result.skip(position, Msg(N_("too many notes: at most {most} flashcards are read; "
                                          "the rest is left out"), most=most))  # fmt: skip

    def _note(self, note: Note) -> None:
        at = note.position
        if note.fields is None:
            self.result.skip(at, Msg(N_("a field of this note is not valid UTF-8: left out")))
            return
        notetype = self.collection.notetypes.get(note.notetype)
        if notetype is None:
            notetype = NoteType(note.notetype, "?", False, (), 1)
        if notetype.cloze:
            self._cloze(note, notetype)
            return
        self._about_notetype(at, notetype, len(note.fields))
        front = self._side(note.fields[0], at)
        back = self._side(note.fields[1] if len(note.fields) > 1 else "", at)
        self._add(note, self._id(note, ""), front, back)

    def _about_notetype(self, at: int, notetype: NoteType, fields: int) -> None:
        if ("type", notetype.name) in self.said:
            return
        if fields != 2:
            self.said.add(("type", notetype.name))
            self.result.note(at, Msg(N_("note type “{name}” is not Basic: its first field is "
                                        "the front, its second the back, and any other field "
                                        "is left out"), name=notetype.name))  # fmt: skip
        elif notetype.templates > 1:
            self.said.add(("type", notetype.name))
            self.result.note(at, Msg(N_("note type “{name}” also makes reverse cards: quizbot "
                                        "keeps one flashcard per note, front to back"),
                                     name=notetype.name))  # fmt: skip

    def _cloze(self, note: Note, notetype: NoteType) -> None:
        assert note.fields is not None
        at = note.position
        cards = cloze_cards(note.fields[0])
        if not cards:
            self.result.skip(at, Msg(N_("a cloze note without a deletion ({example}): left out"),
                                     example="{{c1::...}}"))  # fmt: skip
            return
        extra = note.fields[1] if len(note.fields) > 1 else ""
        for card in cards:
            if self.count >= self.limits.max_questions:
                self._too_many(at)
                return
            front = self._side(card.front, at)
            back = self._side(card.back + ("<br><br>" + extra if extra.strip() else ""), at)
            self._add(note, self._id(note, f"-c{card.number}"), front, back)

    def _id(self, note: Note, suffix: str) -> str:
        ours = QUIZBOT_GUID.match(note.guid)
        wanted = ours[1] if ours and not suffix else f"q{note.position}{suffix}"
        return unique(wanted, self.ids.setdefault(note.deck, set()))

    def _add(self, note: Note, question_id: str, front: _Side, back: _Side) -> None:
        at = note.position
        if not front.text:
            self.result.skip(at, Msg(N_("the front is empty: left out")))
            return
        if not back.text:
            self.result.skip(at, Msg(N_("the back is empty: left out")))
            return
        question = DraftQuestion(
            question_id, front.text, (), back.text, line=at, kind=FLASHCARD,
            image=front.picture, explanation_image=back.picture, tags=note.tags,
        )  # fmt: skip
        self.by_deck.setdefault(note.deck, []).append(question)
        self.count += 1

    def _side(self, html: str, at: int) -> _Side:
        sounds = _SOUND.findall(html)
        if sounds:
            html = _SOUND.sub("", html)
            self.result.note(at, Msg(N_("sound left out (quizbot sends no audio): {names}"),
                                     names=", ".join(sounds)))  # fmt: skip
        converted = html_to_text(html)
        for tag in converted.dropped:
            if ("tag", tag) not in self.said:
                self.said.add(("tag", tag))
                self.result.note(at, Msg(N_("HTML <{tag}> dropped, its text kept (not named "
                                            "again in later notes)"), tag=tag))  # fmt: skip
        text = clean_text(converted.text.strip(), at, self.result, self.limits)
        pictures = [p for p in (self._picture(image, at) for image in converted.images) if p]
        for extra in pictures[1:]:
            self.result.note(at, Msg(N_("one picture per side: {name} left out"),
                                     name=extra.name))  # fmt: skip
        return _Side(text, pictures[0] if pictures else None)

    def _picture(self, image: HtmlImage, at: int) -> DraftPicture | None:
        src = image.src.strip()
        if src.startswith(("http://", "https://", "data:", "//")):
            self.result.note(at, Msg(N_("picture {name} is not in the package (quizbot fetches "
                                        "nothing): left out"), name=src[:200]))  # fmt: skip
            return None
        if self.package.media_unread:
            return None
        name = src if src in self.package.media else unquote(src)
        try:
            data = self.package.media_file(name, MAX_IMAGE_BYTES)
        except PackageRefused as exc:
            self.result.note(at, Msg(N_("picture {name} left out: {why}"), name=name,
                                     why=exc.message))  # fmt: skip
            return None
        if data is None:
            self.result.note(at, Msg(N_("picture {name} is not in the package: left out"),
                                     name=name[:200]))  # fmt: skip
            return None
        if not data.startswith((PNG_MAGIC, JPEG_MAGIC)):
            self.result.note(at, Msg(N_("picture {name} is not a PNG or JPEG: left out"),
                                     name=name))  # fmt: skip
            return None
        return DraftPicture(name, data, image.alt.strip())

    def _quizzes(self) -> None:
        taken: set[str] = set()
        for deck, questions in self.by_deck.items():
            title = self.collection.decks.get(deck, "").strip()
            if deck == DEFAULT_DECK or not title:
                title = self.name
            title = clean_text(title, 1, self.result, self.limits)
            quiz_id = unique(slug(title, slug(self.name, "deck")), taken)
            self.result.quizzes.append(
                DraftQuiz(quiz_id, title, self.lang, tuple(questions), line=1)
            )
