-- SQLite functions the store's queries use, under the same names, so a query is written once
-- (bot/store/pg/dialect.py translates the rest: placeholders, INSERT OR IGNORE).

-- max(a, b) and min(a, b) of two values (the one-argument aggregates are untouched).
CREATE FUNCTION max(a anycompatible, b anycompatible) RETURNS anycompatible
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT greatest(a, b)';
CREATE FUNCTION min(a anycompatible, b anycompatible) RETURNS anycompatible
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT least(a, b)';

-- sum() over a comparison counts the rows where it holds; NULL over no rows, as in SQLite.
CREATE FUNCTION quizbot_count_true(total bigint, value boolean) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS 'SELECT CASE WHEN value IS NULL THEN total ELSE coalesce(total, 0) + value::int END';
CREATE AGGREGATE sum(boolean) (SFUNC = quizbot_count_true, STYPE = bigint);
