-- The guide an admin picked for a group's uploaded quiz whose file names none (issue 28,
-- newcomer walk item 7): GIFT, Aiken, CSV and the other converted formats carry no guide, and
-- the first guide of guides.yaml used to stand in, unrelated to the quiz. NULL: no guide (a YAML
-- file's own `guide:` is in its source). A new version of the quiz keeps its last version's.
ALTER TABLE uploaded_quizzes ADD COLUMN guide TEXT;
