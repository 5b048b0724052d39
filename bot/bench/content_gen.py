"""Generated content for the start-up measurement: N quizzes of Q questions, English and French."""

from __future__ import annotations

from pathlib import Path


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate(root: Path, quizzes: int, questions: int = 8, *, french: bool = True) -> Path:
    """Write a valid content directory under `root` and return it."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "quizzes").mkdir(exist_ok=True)
    guides = ["guides:"]
    for g in range(max(1, quizzes // 50)):
        guides += [
            f"  guide-{g}:",
            "    title:",
            f"      en: {_quote(f'Generated guide {g}')}",
            f"      fr: {_quote(f'Guide généré {g}')}",
            f"    url: https://pytorch.org/docs/stable/optim.html#generated-{g}",
        ]
    (root / "guides.yaml").write_text("\n".join(guides) + "\n", encoding="utf-8")
    n_guides = max(1, quizzes // 50)
    for k in range(quizzes):
        quiz_id = f"gen-{k:04d}"
        langs = "[en, fr]" if french else "[en]"
        src = [
            f"id: {quiz_id}",
            f"guide: guide-{k % n_guides}",
            "level: beginner",
            f"languages: {langs}",
            f"title: {_quote(f'Generated quiz number {k}')}",
            f"description: {_quote(f'Questions about topic {k}, made up for the benchmark.')}",
            "questions:",
        ]
        fr = [
            f"title: {_quote(f'Quiz généré numéro {k}')}",
            f"description: {_quote(f'Questions sur le sujet {k}, inventées pour le banc.')}",
            "questions:",
        ]
        for q in range(questions):
            prompt = f"Which statement about item {q} of topic {k} holds?"
            prompt_fr = f"Quelle affirmation sur le point {q} du sujet {k} est juste\u202f?"
            src += [f"  q{q}:", f"    prompt: {_quote(prompt)}", "    options:"]
            fr += [f"  q{q}:", f"    prompt: {_quote(prompt_fr)}", "    options:"]
            for o in "abcd":
                src.append(f"      {o}: {_quote(f'Statement {o} about item {q} in topic {k}')}")
                fr.append(f"      {o}: {_quote(f'Affirmation {o} sur le point {q} du sujet {k}')}")
            right = "abcd"[q % 4]
            src += [
                f"    answer: {right}",
                f"    explanation: {_quote(f'Statement {right} is the one that holds here.')}",
            ]
            why_fr = f"Affirmation {right}\u202f: elle seule est juste."
            fr.append(f"    explanation: {_quote(why_fr)}")
        folder = root / "quizzes"
        (folder / f"{quiz_id}.yaml").write_text("\n".join(src) + "\n", encoding="utf-8")
        if french:
            (folder / f"{quiz_id}.fr.yaml").write_text("\n".join(fr) + "\n", encoding="utf-8")
    return root
