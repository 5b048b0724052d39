-- PostgreSQL twin of migrations/036_card_order.sql: the option order of the round's current
-- card, kept server-side (the card's buttons no longer carry it).
ALTER TABLE review_sessions ADD COLUMN card_order TEXT;
