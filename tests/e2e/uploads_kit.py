"""Quizzes a group uploads, for end-to-end tests: a sound YAML quiz and a GIFT one. Shared by
the upload, sharing, topic, picker and sandbox tests, so no test imports another."""

from __future__ import annotations

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
