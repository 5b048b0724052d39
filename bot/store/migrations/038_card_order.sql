-- The option order the round's current card was shown in (its digits, as bot/core/review.py
-- `encode_order` writes them; '' for a flashcard), kept when the card is claimed. The card's
-- buttons carried it, and so told which letter was the option its author wrote first (a quiz
-- written with its right answer first gave its key away); they now carry none, and an answer is
-- read with this one. NULL: a card shown before this column, whose buttons still carry theirs.
ALTER TABLE review_sessions ADD COLUMN card_order TEXT;
