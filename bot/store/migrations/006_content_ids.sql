-- Answers keyed by content ids (issue 13): every answer records the question and option it was
-- given to by id, and the content version of its quiz (a hash of the quiz's files), so stats,
-- reviews, /groupstats and the export survive reordered questions and options. Positions
-- (question_index, option_index) stay: they index the quiz *as the attempt saw it*, which is
-- what the attempt's own option orders and a group run's reveal need.
ALTER TABLE answers ADD COLUMN question_id TEXT;       -- '' : not in the content when converted
ALTER TABLE answers ADD COLUMN option_id TEXT;
ALTER TABLE answers ADD COLUMN content_version TEXT;   -- NULL: answered before versions existed
ALTER TABLE attempts ADD COLUMN content_version TEXT;  -- the version the attempt started on
ALTER TABLE review_log ADD COLUMN option_id TEXT;
ALTER TABLE review_log ADD COLUMN content_version TEXT;
ALTER TABLE review_inbox ADD COLUMN question_id TEXT;

-- Misses reach the review inbox with their question id: no index-to-id mapping afterwards.
DROP TRIGGER answers_feed_review_inbox;
CREATE TRIGGER answers_feed_review_inbox AFTER INSERT ON answers WHEN NEW.is_correct = 0
BEGIN
    INSERT OR IGNORE INTO review_inbox (attempt_id, question_index, user_id, answered_at,
                                        question_id)
    VALUES (NEW.attempt_id, NEW.question_index, NEW.user_id, NEW.answered_at, NEW.question_id);
END;

-- Rows written before this migration get their ids from the catalogue the bot starts with
-- right after it (bot/store/content_ids.py); this index finds them without a scan.
CREATE INDEX answers_without_ids ON answers (attempt_id) WHERE question_id IS NULL;
